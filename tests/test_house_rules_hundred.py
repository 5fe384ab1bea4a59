"""A bid 100 whose marriage was never announced (``marriages.in_hundred_game.unannounced``;
issue 7, item 6): 'required' (the default: the engine asks for it, a score sheet without
it counts no marriage), 'lost' (it may go unannounced, and the 100 is lost whatever the
points) or 'parti' (it may, and the 100 is void: the Parti is settled in its place, at
the 100's kontra). Through the engine and through `ulti score`.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from ulti_rules import settle
from ulti_rules.cards import parse_cards
from ulti_rules.engine import Announce, Bid, DeclareTrump, Discard, Hand, Kontra, Pass, Play
from ulti_rules.errors import IllegalAction
from ulti_rules.ruleset.schema import Ruleset
from ulti_rules.scoring.table_facts import sheet_from

from cli_in_process import run_in
from engine_fixtures import deal_of, fixture_data, fixture_ruleset
from legality_support import HAND_DRAWS, RANDOM_HANDS, play_checking_every_step

SETTING = "marriages.in_hundred_game.unannounced"
DECLARER, A, B = 1, 2, 0


def forty_hundred(unannounced: str, **overrides: Any) -> Hand:
    """Seat 1 bids 40-100 holding the acorns marriage and names acorns; trick 1 is next."""
    rules = fixture_ruleset(**{SETTING: unannounced}, **overrides)
    deal = deal_of(rules, 0, {DECLARER: "MK MF ZK TVII TVIII", A: "ZF PK PF", B: "TK TF"})
    hand = Hand(rules, deal=deal, dealer=0)
    hand.apply(Discard(tuple(parse_cards("TVII TVIII"))))
    hand.apply(Bid("forty_hundred"))
    for _ in range(3):
        hand.apply(Pass())
    hand.apply(DeclareTrump("acorns"))
    return hand


def finish(hand: Hand) -> None:
    while not hand.is_over:
        if hand.phase == "kontra":
            hand.apply(Pass())
        else:
            hand.play_card(hand.legal_card_list()[0])


def play_unannounced(hand: Hand, *, kontra: bool) -> None:
    hand.play_card(hand.legal_card_list()[0])  # the declarer leads without announcing
    if kontra:
        hand.apply(Kontra(("forty_hundred",), 1))  # A, before his card
    finish(hand)


# --------------------------------------------------------------------------- the engine


def test_by_default_the_bid_marriage_is_due() -> None:
    hand = forty_hundred("required")
    assert hand.ruleset.marriages.in_hundred_game.unannounced == "required"
    assert hand.legal_actions() == [Announce("acorns")]
    with pytest.raises(IllegalAction, match="announce your marriage first"):
        hand.apply(Play(hand.cards(DECLARER)[0]))


@pytest.mark.parametrize("unannounced", ["lost", "parti"])
def test_where_the_ruleset_says_what_follows_it_may_go_unannounced(unannounced: str) -> None:
    hand = forty_hundred(unannounced)
    legal = hand.legal_actions()
    assert Announce("acorns") in legal
    assert any(isinstance(a, Play) for a in legal), "he may play without announcing"


def test_lost_whatever_the_points() -> None:
    """Target 1: judged by its points alone, an unannounced 40-100 with any card point would
    be made; under 'lost' it fails."""
    hand = forty_hundred("lost", **{"contracts.forty_hundred.target": 1})
    play_unannounced(hand, kontra=True)
    facts, contract = hand.facts, hand.contract
    assert facts is not None and contract is not None and facts.marriages == ()
    settlement = settle(hand.ruleset, contract, facts)
    line = settlement.line("forty_hundred")
    assert not line.made
    assert line.amount == -4 * 2, "value 4 at Kontra (×2), paid by the declarer"


def test_parti_is_settled_in_place_of_the_void_hundred() -> None:
    hand = forty_hundred("parti")
    play_unannounced(hand, kontra=True)
    facts, contract = hand.facts, hand.contract
    assert facts is not None and contract is not None and facts.marriages == ()
    settlement = settle(hand.ruleset, contract, facts)
    assert [line.what for line in settlement.lines] == ["parti"]
    (line,) = settlement.lines
    # The Parti as judged by its own rule (talon to the defenders, no marriages announced).
    assert line.made == (facts.declarer_points > facts.defender_points + facts.talon_points)
    assert line.kontra == 2, "the Kontra said on the 40-100"
    assert line.value == hand.ruleset.contracts["parti"].value == 1
    assert line.amount == (2 if line.made else -2)
    assert "in place of the 40-100" in line.note
    with pytest.raises(KeyError):
        settlement.line("forty_hundred")


def test_an_announced_hundred_is_judged_as_always() -> None:
    hand = forty_hundred("parti")
    hand.apply(Announce("acorns"))
    finish(hand)
    assert hand.facts is not None and hand.contract is not None
    settlement = settle(hand.ruleset, hand.contract, hand.facts)
    assert [line.what for line in settlement.lines] == ["forty_hundred"]


def test_a_red_bid_doubles_the_parti_in_its_place() -> None:
    """Forty-hundred red: the same bid with red: true; the Parti in its place is worth 2."""
    data = fixture_data(**{SETTING: "parti"})
    data["ladder"].append(
        {
            "id": "forty_hundred_red",
            "rank": 10,
            "value": 8,
            "components": ["forty_hundred"],
            "red": True,
            "names": {"hu": "40-100 piros", "en": "40-100 Hearts"},
        }
    )
    from ulti_rules.plugins import get_registry
    from ulti_rules.ruleset.schema import ruleset_model

    rules = ruleset_model(get_registry().param_models()).model_validate(data)
    deal = deal_of(rules, 0, {DECLARER: "PK PF ZK TVII TVIII"})
    hand = Hand(rules, deal=deal, dealer=0)
    hand.apply(Discard(tuple(parse_cards("TVII TVIII"))))
    hand.apply(Bid("forty_hundred_red"))
    for _ in range(3):
        hand.apply(Pass())
    play_unannounced(hand, kontra=False)
    assert hand.facts is not None and hand.contract is not None
    (line,) = settle(rules, hand.contract, hand.facts).lines
    assert (line.what, line.red, line.value) == ("parti", 2, 2)


# --------------------------------------------------------------------------- ulti score


SHEET = """\
ruleset: club.yaml
players: [Anna, Ben, Carla]
declarer: Anna
bid: forty_hundred
trump: acorns
kontra: {forty_hundred: Kontra}
points: {declarer: 60, defenders: 30}
tricks: {Anna: 6, Ben: 2, Carla: 2}
last_trick: {winner: Anna}
aces: [Anna, Ben]
"""
"""A 40-100 whose 40 nobody announced: Anna took 60 of the 90 card points (no silent
feat: nobody took every trick, or every ace, or played the trump 7 last)."""


def score(tmp_path: Path, club: str, sheet: str = SHEET) -> dict[str, Any]:
    (tmp_path / "club.yaml").write_text(
        f"name: club\ntitle: Club\nextends: wikipedia\n{club}", encoding="utf-8"
    )
    (tmp_path / "hand.yaml").write_text(sheet, encoding="utf-8")
    done = run_in(tmp_path)("score", "hand.yaml", "--json")
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = yaml.safe_load(done.stdout)
    return result


def test_score_keeper_default_counts_no_marriage(tmp_path: Path) -> None:
    """'required' (today's rule): judged by the points; 60 + no 40 < 100, so failed; with
    the target at 60 the same sheet is made."""
    failed = score(tmp_path, "")
    assert failed["payments"] == {"Anna": -16, "Ben": 8, "Carla": 8}  # 4 × Kontra 2, each
    made = score(tmp_path, "contracts: {forty_hundred: {target: 60}}\n")
    assert made["payments"] == {"Anna": 16, "Ben": -8, "Carla": -8}


def test_score_keeper_lost_whatever_the_points(tmp_path: Path) -> None:
    club = (
        "contracts: {forty_hundred: {target: 60}}\n"
        "marriages: {in_hundred_game: {unannounced: lost}}\n"
    )
    result = score(tmp_path, club)
    assert result["payments"] == {"Anna": -16, "Ben": 8, "Carla": 8}
    (line,) = result["settlement"]["lines"]
    assert (line["what"], line["made"]) == ("forty_hundred", False)


def test_score_keeper_parti_in_place(tmp_path: Path) -> None:
    result = score(tmp_path, "marriages: {in_hundred_game: {unannounced: parti}}\n")
    (line,) = result["settlement"]["lines"]
    assert (line["what"], line["made"], line["kontra"]) == ("parti", True, 2)
    assert result["payments"] == {"Anna": 4, "Ben": -2, "Carla": -2}  # Parti 1 × Kontra 2
    announced = SHEET + "marriages: {Anna: [acorns]}\n"
    result = score(tmp_path, "marriages: {in_hundred_game: {unannounced: parti}}\n", announced)
    (line,) = result["settlement"]["lines"]
    assert (line["what"], line["made"]) == ("forty_hundred", True)


def test_engine_and_score_keeper_agree(tmp_path: Path) -> None:
    hand = forty_hundred("parti")
    play_unannounced(hand, kontra=True)
    assert hand.contract is not None and hand.facts is not None
    engine = settle(hand.ruleset, hand.contract, hand.facts)
    (tmp_path / "club.yaml").write_text(
        yaml.safe_dump(fixture_data(**{SETTING: "parti"})), encoding="utf-8"
    )
    sheet = sheet_from(hand.ruleset, hand.contract, hand.facts, ruleset_ref="club.yaml")
    (tmp_path / "hand.yaml").write_text(yaml.safe_dump(sheet), encoding="utf-8")
    done = run_in(tmp_path)("score", "hand.yaml", "--json")
    assert done.returncode == 0, done.stderr
    scored = yaml.safe_load(done.stdout)["settlement"]
    assert scored["payments"] == {str(s): v for s, v in engine.payments.items()}
    assert [line["what"] for line in scored["lines"]] == ["parti"]


def test_check_names_a_parti_the_catalogue_lacks(tmp_path: Path) -> None:
    from ulti_rules.scoring.unannounced import problems

    rules = fixture_ruleset(**{SETTING: "parti"})
    assert problems(rules) == []
    data = fixture_data(**{SETTING: "parti"})
    del data["contracts"]["parti"]
    data["ladder"] = [b for b in data["ladder"] if "parti" not in b["components"]]
    from ulti_rules.plugins import get_registry
    from ulti_rules.ruleset.schema import ruleset_model

    no_parti = ruleset_model(get_registry().param_models()).model_validate(data)
    ((where, message),) = problems(no_parti)
    assert where == SETTING and "no entry of kind parti" in message


_RULESETS: dict[str, Ruleset] = {}


@pytest.mark.parametrize("unannounced", ["lost", "parti"])
@RANDOM_HANDS
@HAND_DRAWS
def test_listed_actions_are_accepted_and_refusals_change_nothing(
    unannounced: str, seed: int, dealer: int, choices: int
) -> None:
    if unannounced not in _RULESETS:
        _RULESETS[unannounced] = fixture_ruleset(**{SETTING: unannounced})
    rules = _RULESETS[unannounced]
    hand = play_checking_every_step(rules, seed, dealer, random.Random(choices))
    if hand.contract is not None and hand.facts is not None:
        settle(rules, hand.contract, hand.facts)  # every hand settles
