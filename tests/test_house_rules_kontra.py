"""A defender's kontra window that opens right after his own first card
(``kontra.window_opens: after_own_card``; issue 7, item 6).

Dealer 0: seat 1 (forehand) declares and leads trick 1, seat 2 (A) plays second, seat 0
(B) third. A defender calls nothing before his card to trick 1; right after it he has
the word (kontra or pass) before the next card; the kontra round after trick 1 follows
where the windows reach it. Records replay, and `ulti score` settles the hand's
kontras exactly as the engine does.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml
from ulti_rules import settle
from ulti_rules.cards import parse_card
from ulti_rules.engine import Hand, Kontra, Pass, Play
from ulti_rules.errors import IllegalAction
from ulti_rules.records import record_of, replay
from ulti_rules.ruleset.schema import Ruleset
from ulti_rules.scoring.table_facts import sheet_from

from cli_in_process import run_in
from engine_fixtures import bid_and_play, deal_of, fixture_data, fixture_ruleset
from engine_support import snapshot
from legality_support import HAND_DRAWS, RANDOM_HANDS, play_checking_every_step

DECLARER, A, B = 1, 2, 0
AFTER = {"kontra.window_opens": "after_own_card"}
ULTI_HAND = "MVII MA MX MK MF TA TX ZA ZX PA PVII PVIII"


def kontras(hand: Hand) -> list[Kontra]:
    return [a for a in hand.legal_actions() if isinstance(a, Kontra)]


def play_first(hand: Hand) -> None:
    hand.play_card(hand.legal_card_list()[0])


def ulti_hand(**overrides: object) -> Hand:
    rules = fixture_ruleset(**AFTER, **overrides)
    hand = Hand(rules, deal=deal_of(rules, 0, {DECLARER: ULTI_HAND}), dealer=0)
    bid_and_play(hand, "ulti", "PVII PVIII", trump="acorns")
    hand.play_card(parse_card("ZA"))  # the declarer leads trick 1
    return hand


def finish(hand: Hand) -> None:
    while not hand.is_over:
        if hand.phase == "kontra":
            hand.apply(Pass())
        else:
            play_first(hand)


def test_the_default_window_opens_at_the_first_trick() -> None:
    assert fixture_ruleset().kontra.window_opens == "first_trick"
    rules = fixture_ruleset()
    hand = Hand(rules, deal=deal_of(rules, 0, {DECLARER: ULTI_HAND}), dealer=0)
    bid_and_play(hand, "ulti", "PVII PVIII", trump="acorns")
    hand.play_card(parse_card("ZA"))
    assert Kontra(("ulti",), 1) in kontras(hand), "before his card, as every source has it"
    play_first(hand)
    assert hand.phase == "play" and hand.current_player == B, "no word after the card"


def test_a_defender_calls_right_after_his_own_card_not_before() -> None:
    hand = ulti_hand()
    assert hand.current_player == A and hand.phase == "play"
    assert kontras(hand) == []
    before = snapshot(hand)
    with pytest.raises(IllegalAction, match="opens right after his own card"):
        hand.apply(Kontra(("ulti",), 1))
    assert snapshot(hand) == before
    play_first(hand)  # A's card: now his word, before B plays
    assert (hand.phase, hand.current_player) == ("kontra", A)
    assert set(kontras(hand)) == {
        Kontra(("parti",), 1),
        Kontra(("ulti",), 1),
        Kontra(("parti", "ulti"), 1),
    }
    assert Pass() in hand.legal_actions()
    with pytest.raises(IllegalAction, match="your kontra word right after your card"):
        hand.apply(Play(hand.cards(A)[0]))
    with pytest.raises(IllegalAction, match="level 2 is called by the declarer"):
        hand.apply(Kontra(("ulti",), 2))
    hand.apply(Kontra(("ulti",), 1))
    assert (hand.phase, hand.current_player) == ("kontra", A), "the Parti is still his to call"
    hand.apply(Pass())
    assert (hand.phase, hand.current_player) == ("play", B)
    assert kontras(hand) == [], "B too waits for his own card"
    play_first(hand)  # B's card ends trick 1; his word comes first
    assert (hand.phase, hand.current_player) == ("kontra", B)
    assert kontras(hand) == [Kontra(("parti",), 1)], "the Ulti's shared chain is at Kontra"
    hand.apply(Pass())
    # The kontra round after trick 1 (window before_lead_trick2): the declarer answers.
    assert (hand.phase, hand.current_player) == ("kontra", DECLARER)
    assert Kontra(("ulti",), 2) in kontras(hand)
    hand.apply(Kontra(("ulti",), 2))
    finish(hand)
    contract = hand.contract
    assert contract is not None
    assert contract.kontra["ulti"] == {A: 2, B: 2}
    assert contract.kontra["parti"] == {A: 0, B: 0}


def test_with_the_card_window_only_the_word_after_it() -> None:
    """window own_card_trick1: no round after trick 1, so the word after the card is all."""
    hand = ulti_hand(**{"kontra.window": "own_card_trick1"})
    play_first(hand)
    assert (hand.phase, hand.current_player) == ("kontra", A)
    hand.apply(Kontra(("parti", "ulti"), 1))
    assert (hand.phase, hand.current_player) == ("play", B), "nothing left to call: play on"
    play_first(hand)
    assert hand.phase == "play" and hand.tricks, "B has nothing to call; no kontra round"
    assert hand.current_player == hand.tricks[0][2]


def test_a_defender_with_nothing_to_call_gets_no_word() -> None:
    hand = ulti_hand(**{"kontra.max_level": 0})
    play_first(hand)
    assert (hand.phase, hand.current_player) == ("play", B)


def test_records_of_calls_after_the_card_replay(tmp_path: Path) -> None:
    hand = ulti_hand()
    play_first(hand)
    hand.apply(Kontra(("ulti",), 1))
    hand.apply(Pass())
    finish(hand)
    again = replay(record_of(hand, "club"), hand.ruleset)
    assert again.history == hand.history
    assert again.contract == hand.contract


def test_ulti_score_settles_the_hand_as_the_engine(tmp_path: Path) -> None:
    hand = ulti_hand()
    play_first(hand)
    hand.apply(Kontra(("parti", "ulti"), 1))
    finish(hand)
    assert hand.contract is not None and hand.facts is not None
    engine = settle(hand.ruleset, hand.contract, hand.facts)
    (tmp_path / "club.yaml").write_text(yaml.safe_dump(fixture_data(**AFTER)), encoding="utf-8")
    sheet = sheet_from(hand.ruleset, hand.contract, hand.facts, ruleset_ref="club.yaml")
    (tmp_path / "hand.yaml").write_text(yaml.safe_dump(sheet), encoding="utf-8")
    done = run_in(tmp_path)("score", "hand.yaml", "--json")
    assert done.returncode == 0, done.stderr
    scored = yaml.safe_load(done.stdout)
    assert scored["settlement"]["payments"] == {str(s): v for s, v in engine.payments.items()}
    levels = {line["what"]: line["kontra"] for line in scored["settlement"]["lines"]}
    assert levels == {"parti": 2, "ulti": 2}


_RULESETS: dict[str, Ruleset] = {}

WINDOWS = {
    "after-card": dict(AFTER),
    "after-card-own-card-window": {**AFTER, "kontra.window": "own_card_trick1"},
    "after-card-de": {
        **AFTER,
        "kontra.window": "own_card_trick1",
        "kontra.later_window": "before_lead_trick2",
        "kontra.per_defender_in_trump": True,
    },
    "after-card-forehand-leads": {**AFTER, "play.first_lead": "forehand"},
}


@pytest.mark.parametrize("name", tuple(WINDOWS))
@RANDOM_HANDS
@HAND_DRAWS
def test_listed_kontras_are_accepted_and_refusals_change_nothing(
    name: str, seed: int, dealer: int, choices: int
) -> None:
    if name not in _RULESETS:
        _RULESETS[name] = fixture_ruleset(**WINDOWS[name])
    play_checking_every_step(_RULESETS[name], seed, dealer, random.Random(choices))
