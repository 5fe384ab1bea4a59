"""Settings an audit found without a targeted test: each is changed here and the engine
(and, where the score keeper can see it, `ulti score`) gives a different outcome.

Every test checks the outcome under the changed value *and* under the default, so that
a setting read nowhere fails it: ``trump.red_suit``, ``marriages.trump_value``
and ``plain_value``, ``play.must_follow`` / ``must_trump`` / ``must_beat``,
``ranks.trump_game`` and ``ranks.no_trump``, a silent bonus's ``applies_to`` and
``kontra_from``, ``ladder[].aliases``, ``contracts.<id>.penalty_multiplied_by_kontra``,
``marriages.count_in_parti``, ``points.talon_counts_toward_hundred``,
``simple.give_up_cost`` and ``direction``. Deals are built with ``deal_of``; the plays
are the first legal card, so each hand is the same whatever the setting under test.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import yaml
from ulti_rules import settle
from ulti_rules.cards import format_cards, parse_card, parse_cards
from ulti_rules.cli.choice_reading import choices_of, read_choice
from ulti_rules.cli.play_words import Words
from ulti_rules.engine import Announce, Bid, DeclareTrump, Discard, Hand, Pass
from ulti_rules.game import Game
from ulti_rules.ruleset.schema import Ruleset
from ulti_rules.scoring.table_facts import sheet_from

from cli_in_process import run_in
from engine_fixtures import deal_of, fixture_data, fixture_ruleset
from settlement_support import ULTI_SHEET, make_contract, make_facts, make_ruleset

DEALER, DECLARER, SECOND = 0, 1, 2
"""The fixture deals from seat 0: seat 1 is forehand (12 cards) and declares; seat 2 plays
second to each of his leads."""

TENS_LOW = ["ace", "king", "over", "under", "ten", "nine", "eight", "seven"]
TENS_HIGH = ["ace", "ten", "king", "over", "under", "nine", "eight", "seven"]


# --------------------------------------------------------------------------- helpers


def declared(
    rules: Ruleset,
    bid: str,
    cards: dict[int, str],
    discard: str,
    trump: str | None = None,
) -> Hand:
    """Seat 1 holds ``cards[1]`` (others as given), lays ``discard`` away, bids ``bid``, the
    others pass; trump is named where the bid asks for it. The first trick is next."""
    hand = Hand(rules, deal=deal_of(rules, DEALER, cards), dealer=DEALER)
    hand.apply(Discard(tuple(parse_cards(discard))))
    hand.apply(Bid(bid))
    while hand.phase == "auction":
        hand.apply(Pass())
    if hand.phase == "trump":
        assert trump is not None
        hand.apply(DeclareTrump(trump))  # type: ignore[arg-type]
    return hand


def reply_to(rules: Ruleset, lead: str, second: str, bid: str = "simple", **kw: Any) -> str:
    """The cards seat 2 may play to seat 1's ``lead`` holding exactly ``second``."""
    declarer = kw.pop("declarer", lead)
    hand = declared(rules, bid, {DECLARER: declarer, SECOND: second}, kw.pop("discard"), **kw)
    hand.play_card(parse_card(lead))
    assert hand.current_player == SECOND
    return format_cards(hand.legal_card_list())


def play_out(hand: Hand) -> None:
    """The first legal card every time; the kontra round passed."""
    while not hand.is_over:
        if hand.phase == "kontra":
            hand.apply(Pass())
        else:
            hand.play_card(hand.legal_card_list()[0])


def score(tmp_path: Path, sheet: str, club: str = "", *, ok: bool = True) -> dict[str, Any]:
    """``ulti score hand.yaml --json`` of ``sheet`` under club.yaml (wikipedia + ``club``)."""
    (tmp_path / "club.yaml").write_text(
        f"name: club\ntitle: Club\nextends: wikipedia\n{club}", encoding="utf-8"
    )
    (tmp_path / "hand.yaml").write_text(sheet.replace("{ruleset}", "club.yaml"), "utf-8")
    done = run_in(tmp_path)("score", "hand.yaml", "--json")
    if not ok:
        assert done.returncode == 1, done.stdout
        return {"stderr": done.stderr}
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = yaml.safe_load(done.stdout)
    return result


def payments(tmp_path: Path, sheet: str, club: str = "") -> dict[str, int]:
    found: dict[str, int] = score(tmp_path, sheet, club)["payments"]
    return found


def line_of(result: dict[str, Any], what: str) -> dict[str, Any]:
    (line,) = [x for x in result["settlement"]["lines"] if x["what"] == what]
    assert isinstance(line, dict)
    return line


# --------------------------------------------------------------------------- trump.red_suit


def test_red_suit_makes_the_red_bids_trump_in_the_engine() -> None:
    """A red Simple is played in the red suit at once (no trump to name); its marriage is
    the trump 40, and the must-trump duty follows it."""
    cards = {DECLARER: "TK TF ZA ZIX ZVIII", SECOND: "MA MX MK MF MAl TA TX PA PX PK"}
    outcomes = {}
    for red_suit in ("hearts", "bells"):
        rules = fixture_ruleset(**{"trump.red_suit": red_suit})
        hand = declared(rules, "simple_red", cards, discard="ZIX ZVIII")
        assert hand.phase == "play"
        hand.apply(Announce("bells"))
        hand.play_card(parse_card("ZA"))  # seat 2 is void in leaves
        outcomes[red_suit] = (hand.trump, hand.marriages, format_cards(hand.legal_card_list()))
        assert hand.contract is not None and hand.contract.trump == hand.trump
    assert outcomes["hearts"][0] == "hearts"
    assert outcomes["bells"][0] == "bells"
    assert outcomes["hearts"][1] == [(DECLARER, "bells", 20)]
    assert outcomes["bells"][1] == [(DECLARER, "bells", 40)]
    assert outcomes["hearts"][2] == "PA PX PK"  # must trump: hearts
    assert outcomes["bells"][2] == "TA TX"  # must trump: bells


RED_SIMPLE = """\
ruleset: {ruleset}
players: [Anna, Ben, Carla]
declarer: Anna
bid: Simple Hearts
points: {declarer: 30, defenders: 60}
tricks: {Anna: 3, Ben: 4, Carla: 3}
last_trick: {winner: Ben}
marriages: {Anna: [bells]}
aces: [Anna, Ben]
"""
"""Anna's red Simple: 30 card points and the bells marriage against 60."""


def test_red_suit_through_the_score_keeper(tmp_path: Path) -> None:
    """Red bells: the red Simple is played in bells, so Anna's bells marriage is the trump
    40 and 30 + 40 beats 60 (2 per defender); in hearts it is a 20, and 50 loses."""
    red_bells = score(tmp_path, RED_SIMPLE, "trump: {red_suit: bells}\n")
    assert red_bells["settlement"]["trump"] == "bells"
    assert red_bells["payments"] == {"Anna": 4, "Ben": -2, "Carla": -2}
    default = score(tmp_path, RED_SIMPLE)
    assert default["settlement"]["trump"] == "hearts"
    assert default["payments"] == {"Anna": -4, "Ben": 2, "Carla": 2}


# --------------------------------------------------------------------------- marriage values

FORTY = {DECLARER: "MA MX MK MF ZA ZX PA MIX MVIII ZIX TVII TVIII"}
TWENTY = {DECLARER: "MA MX MK ZK ZF ZA ZX PA PX MVII TVII TVIII"}
"""Seat 1's hands for a 40-100 (acorns marriage) and a 20-100 (leaves marriage, acorns
trump); each lays the Zöld X and Piros Ász away and, played out, takes 60 card points."""


def hundred_hand(bid: str, cards: dict[int, str], marriage: str, **overrides: Any) -> Hand:
    rules = fixture_ruleset(**overrides)
    hand = declared(rules, bid, cards, discard="ZX PA", trump="acorns")
    hand.apply(Announce(marriage))  # type: ignore[arg-type]
    play_out(hand)
    return hand


def judged(hand: Hand) -> tuple[int, list[tuple[str, int]], bool, dict[int, int]]:
    facts, contract = hand.facts, hand.contract
    assert facts is not None and contract is not None
    (line,) = settle(hand.ruleset, contract, facts).lines
    found = settle(hand.ruleset, contract, facts).payments
    return facts.declarer_points, [(m.suit, m.value) for m in facts.marriages], line.made, found


def test_trump_value_decides_a_forty_hundred_in_the_engine() -> None:
    """60 card points: with the trump marriage at 40 the 40-100 is made, at 20 it fails."""
    assert judged(hundred_hand("forty_hundred", FORTY, "acorns")) == (
        60,
        [("acorns", 40)],
        True,
        {0: -4, 1: 8, 2: -4},
    )
    assert judged(
        hundred_hand("forty_hundred", FORTY, "acorns", **{"marriages.trump_value": 20})
    ) == (60, [("acorns", 20)], False, {0: 4, 1: -8, 2: 4})


def test_plain_value_decides_a_twenty_hundred_in_the_engine() -> None:
    """60 card points: with a side-suit marriage at 20 the 20-100 fails, at 40 it is made."""
    assert judged(hundred_hand("twenty_hundred", TWENTY, "leaves")) == (
        60,
        [("leaves", 20)],
        False,
        {0: 8, 1: -16, 2: 8},
    )
    assert judged(
        hundred_hand("twenty_hundred", TWENTY, "leaves", **{"marriages.plain_value": 40})
    ) == (60, [("leaves", 40)], True, {0: -8, 1: 16, 2: -8})


HUNDRED_SHEET = """\
ruleset: {ruleset}
players: [Anna, Ben, Carla]
declarer: Ben
bid: BID
trump: bells
points: {declarer: 70, defenders: 20}
tricks: {Ben: 7, Anna: 2, Carla: 1}
last_trick: {winner: Ben}
marriages: {Ben: [SUIT]}
aces: [Ben, Carla]
"""
"""Ben's 100 with 70 card points and the named marriage."""


def test_marriage_values_through_the_score_keeper(tmp_path: Path) -> None:
    forty = HUNDRED_SHEET.replace("BID", "40-100").replace("SUIT", "bells")
    assert payments(tmp_path, forty) == {"Anna": -4, "Ben": 8, "Carla": -4}  # 70 + 40
    lost = {"Anna": 4, "Ben": -8, "Carla": 4}  # 70 + 20 < 100
    assert payments(tmp_path, forty, "marriages: {trump_value: 20}\n") == lost
    twenty = HUNDRED_SHEET.replace("BID", "20-100").replace("SUIT", "acorns")
    assert payments(tmp_path, twenty) == {"Anna": 8, "Ben": -16, "Carla": 8}  # 70 + 20
    made = {"Anna": -8, "Ben": 16, "Carla": -8}  # 70 + 30
    assert payments(tmp_path, twenty, "marriages: {plain_value: 30}\n") == made


# --------------------------------------------------------------------------- play duties


def offered_to_the_zold_asz(setting: str, second: str) -> dict[bool, str]:
    """What seat 2, holding ``second``, is offered to the declarer's Zöld Ász (acorns
    trump) with ``setting`` on and off."""
    return {
        value: reply_to(
            fixture_ruleset(**{setting: value}), "ZA", second, discard="PVII PVIII", trump="acorns"
        )
        for value in (True, False)
    }


def test_must_follow() -> None:
    """Seat 2 holds two leaves to the declarer's Zöld Ász: only those, unless he need not
    follow."""
    offered = offered_to_the_zold_asz("play.must_follow", "ZIX ZVIII MA MX MK MF TA TX TK TF")
    assert offered[True] == "ZIX ZVIII"
    assert offered[False] == "MA MX MK MF ZIX ZVIII TA TX TK TF"


def test_must_trump() -> None:
    """Seat 2 is void in leaves and holds acorns (trump) and bells: only trumps, unless he
    need not trump; then a bells card is offered too."""
    offered = offered_to_the_zold_asz("play.must_trump", "MA MX MK MF MAl TA TX TK TF TAl")
    assert offered[True] == "MA MX MK MF MAl"
    assert offered[False] == "MA MX MK MF MAl TA TX TK TF TAl"


def test_must_beat_with_and_without_trumps() -> None:
    """To the Zöld IX seat 2 holds the Ász and the VII: the Ász alone, unless he need not
    beat; the same in a Betli (no trumps)."""
    second = "ZA ZVII MA MX MK MF TA TX TK TF"
    for bid, trump in (("simple", "acorns"), ("betli", None)):
        offered = {
            value: reply_to(
                fixture_ruleset(**{"play.must_beat": value}),
                "ZIX",
                second,
                bid=bid,
                discard="PVII PVIII",
                trump=trump,
            )
            for value in (True, False)
        }
        assert offered[True] == "ZA", bid
        assert offered[False] == "ZA ZVII", bid


# --------------------------------------------------------------------------- rank orders


def test_trump_game_ranks() -> None:
    """Acorns trump; the declarer leads the Makk K, seat 2 holds the Makk X and VII. Tens
    high (the default): the X beats the K, so it alone may be played, and seat 2 takes the
    trick. Tens low: neither beats the K, both are offered, and the K takes the trick."""
    second = "MX MVII ZA ZK ZF TA TX TK TF TAl"
    outcome = {}
    for order in (None, TENS_LOW):
        rules = fixture_ruleset(**({} if order is None else {"ranks.trump_game": order}))
        hand = declared(
            rules,
            "simple",
            {DECLARER: "MK MA MAl", SECOND: second},
            discard="PVII PVIII",
            trump="acorns",
        )
        hand.play_card(parse_card("MK"))
        offered = format_cards(hand.legal_card_list())
        hand.play_card(parse_card("MX"))
        hand.play_card(hand.legal_card_list()[0])  # seat 0: no Makk Ász (seat 1 holds it)
        ((_, _, winner),) = hand.tricks
        outcome["default" if order is None else "tens low"] = (offered, winner)
    assert outcome == {"default": ("MX", SECOND), "tens low": ("MX MVII", DECLARER)}


def test_no_trump_ranks() -> None:
    """A Betli: to the Zöld K seat 2 holds the Zöld X and VII. Tens low (the default): the X
    does not beat the K, both are offered. Tens high: the X beats it, and must."""
    second = "ZX ZVII MA MX MK MF TA TX TK TF"
    offered = {
        name: reply_to(
            fixture_ruleset(**overrides),
            "ZK",
            second,
            bid="betli",
            discard="PVII PVIII",
        )
        for name, overrides in (("default", {}), ("tens high", {"ranks.no_trump": TENS_HIGH}))
    }
    assert offered == {"default": "ZX ZVII", "tens high": "ZX"}


# --------------------------------------------------------------------------- silent bonuses


def test_applies_to_in_the_engine() -> None:
    """A Simple whose trump 7 took the last trick: the silent Ulti is scored under 'auto';
    listed for the red Simple alone, the plain Simple has none."""
    facts = make_facts(declarer_points=60, defender_points=30, seven_last=0)
    contract = make_contract("simple")
    default = Game.of(make_ruleset())
    listed = Game.of(make_ruleset(silent_bonuses={"silent_ulti": {"applies_to": ["simple_red"]}}))
    assert "silent_ulti" in default.silent_values("simple")
    assert "silent_ulti" not in listed.silent_values("simple")
    assert "silent_ulti" in listed.silent_values("simple_red")
    assert [x.what for x in default.settle(contract, facts).lines] == ["parti", "silent_ulti"]
    assert default.settle(contract, facts).payments == {0: 6, 1: -3, 2: -3}
    assert [x.what for x in listed.settle(contract, facts).lines] == ["parti"]
    assert listed.settle(contract, facts).payments == {0: 2, 1: -1, 2: -1}


SILENT_SHEET = """\
ruleset: {ruleset}
players: [Anna, Ben, Carla]
declarer: Anna
bid: Simple Hearts
trump: hearts
points: {declarer: 80, defenders: 10}
tricks: {Anna: 8, Ben: 1, Carla: 1}
last_trick: {winner: Anna, trump_seven: Anna}
marriages: {Anna: [leaves]}
aces: [Anna, Carla]
"""
"""docs/score-keeper.md's silent bonuses, red: the Simple 2, a silent 100 4, a silent Ulti 4."""


def test_applies_to_through_the_score_keeper(tmp_path: Path) -> None:
    default = score(tmp_path, SILENT_SHEET)
    assert default["payments"] == {"Anna": 20, "Ben": -10, "Carla": -10}
    assert line_of(default, "silent_ulti")["made"] is True
    listed = score(tmp_path, SILENT_SHEET, "silent_bonuses: {silent_ulti: {applies_to: [parti]}}\n")
    assert listed["payments"] == {"Anna": 12, "Ben": -6, "Carla": -6}
    assert [x["what"] for x in listed["settlement"]["lines"]] == ["parti", "silent_hundred"]


KONTRA_SHEET = """\
ruleset: {ruleset}
players: [Anna, Ben, Carla]
declarer: Anna
bid: Ulti
trump: acorns
kontra: {ulti: kontra}
points: {declarer: 80, defenders: 10}
tricks: {Anna: 8, Ben: 1, Carla: 1}
last_trick: {winner: Anna, trump_seven: Anna}
marriages: {Anna: [leaves]}
aces: [Anna, Ben]
"""
"""An Ulti kontra'd on the Ulti alone, with a silent 100 (80 + the leaves 20)."""


def test_kontra_from_through_the_score_keeper(tmp_path: Path) -> None:
    """WP's silent 100 takes the kontra of the first listed component the bid holds: the
    Simple, not kontra'd (×1); taking it from the Ulti, it is kontra'd too (×2)."""
    default = score(tmp_path, KONTRA_SHEET)
    silent = line_of(default, "silent_hundred")
    assert (silent["kontra"], silent["amount"]) == (1, 2)
    assert default["payments"] == {"Anna": 22, "Ben": -11, "Carla": -11}  # 1 + 8 + 2
    club = "silent_bonuses: {silent_hundred: {kontra_from: [ulti]}}\n"
    from_ulti = score(tmp_path, KONTRA_SHEET, club)
    silent = line_of(from_ulti, "silent_hundred")
    assert (silent["kontra"], silent["amount"]) == (2, 4)
    assert from_ulti["payments"] == {"Anna": 26, "Ben": -13, "Carla": -13}  # 1 + 8 + 4


# --------------------------------------------------------------------------- ladder aliases


def _with_alias(alias: str | None) -> Ruleset:
    ladder = copy.deepcopy(fixture_data()["ladder"])
    if alias is not None:
        (ulti,) = [b for b in ladder if b["id"] == "ulti"]
        ulti["aliases"] = [alias]
    return fixture_ruleset(ladder=ladder)


def test_aliases_name_a_bid_at_the_table() -> None:
    """`ulti play` reads a typed bid by its names and aliases: 'kisulti' is the Ulti only
    where the ladder lists it as an alias."""
    said = {}
    for alias in (None, "kisulti"):
        rules = _with_alias(alias)
        hand = Hand(rules, deal=deal_of(rules, DEALER, {}), dealer=DEALER)
        hand.apply(Discard(tuple(hand.cards(DECLARER)[-2:])))
        words = Words(rules, "en", "hu", ["Anna", "Ben", "Carla"])
        choices = choices_of(hand.legal_actions(), words)
        reading = read_choice("kisulti", choices, hand.why_refused, words)
        said[alias] = reading.action if reading.action is not None else reading.hint
    assert said["kisulti"] == Bid("ulti")
    unknown = said[None]
    assert isinstance(unknown, str) and "'kisulti' is not a choice" in unknown


def test_aliases_through_the_score_keeper(tmp_path: Path) -> None:
    sheet = ULTI_SHEET.replace("ruleset: wikipedia", "ruleset: {ruleset}")
    sheet = sheet.replace("bid: ulti", "bid: kisulti")
    made = {"Anna": 10, "Ben": -5, "Carla": -5}
    assert payments(tmp_path, sheet, "ladder: {ulti: {aliases: [kisulti]}}\n") == made
    refused = score(tmp_path, sheet, ok=False)["stderr"]
    assert "bid: 'kisulti' is not a bid of 'club'" in refused


def test_an_alias_another_bid_answers_to_is_refused_before_any_sheet_is_settled(
    tmp_path: Path,
) -> None:
    """An alias that is another bid's name used to settle the bid listed first: a Ulti
    written as 'Simple', with the Simple's alias, was paid as a Simple."""
    sheet = ULTI_SHEET.replace("ruleset: wikipedia", "ruleset: {ruleset}")
    refused = score(tmp_path, sheet, "ladder: {parti: {aliases: [Ulti]}}\n", ok=False)
    assert (
        "club.yaml:4:28: ladder.parti.aliases.0: bid 'parti' answers to 'Ulti', as bid "
        in (refused["stderr"])
    )


# --------------------------------------------------------------------------- the score keeper

ULTI_LOST = """\
ruleset: {ruleset}
players: [Anna, Ben, Carla]
declarer: Anna
bid: Ulti
trump: acorns
kontra: {ulti: kontra}
points: {declarer: 50, defenders: 40}
tricks: {Anna: 6, Ben: 2, Carla: 2}
last_trick: {winner: Carla, trump_seven: Anna}
aces: [Anna, Carla]
"""


def test_penalty_multiplied_by_kontra(tmp_path: Path) -> None:
    """A kontra'd Ulti lost: 4 × 2 + 4 = 12 under WP, (4 + 4) × 2 = 16 with the penalty
    multiplied; the Simple made (+1) either way."""
    default = score(tmp_path, ULTI_LOST)
    assert (line_of(default, "ulti")["penalty"], line_of(default, "ulti")["amount"]) == (4, -12)
    assert default["payments"] == {"Anna": -22, "Ben": 11, "Carla": 11}
    club = "contracts: {ulti: {penalty_multiplied_by_kontra: true}}\n"
    multiplied = score(tmp_path, ULTI_LOST, club)
    assert line_of(multiplied, "ulti")["amount"] == -16
    assert multiplied["payments"] == {"Anna": -30, "Ben": 15, "Carla": 15}


SIMPLE_SHEET = """\
ruleset: {ruleset}
players: [Anna, Ben, Carla]
declarer: Anna
bid: Simple Hearts
trump: hearts
points: {declarer: 50, defenders: 40}
tricks: {Anna: 5, Ben: 3, Carla: 2}
last_trick: {winner: Ben}
marriages: {Anna: [acorns], Carla: [hearts]}
aces: [Anna, Ben]
"""
"""docs/score-keeper.md's Simple (Hearts, worth 2): 50 + 20 against 40 + 40."""


def test_count_in_parti(tmp_path: Path) -> None:
    assert payments(tmp_path, SIMPLE_SHEET) == {"Anna": -4, "Ben": 2, "Carla": 2}
    club = "marriages: {count_in_parti: false}\n"  # 50 against 40
    assert payments(tmp_path, SIMPLE_SHEET, club) == {"Anna": 4, "Ben": -2, "Carla": -2}


TALON_SHEET = """\
ruleset: {ruleset}
players: [Anna, Ben, Carla]
declarer: Ben
bid: 40-100
trump: bells
points: {declarer: 50, defenders: 30, talon: 10}
tricks: {Ben: 6, Anna: 2, Carla: 2}
last_trick: {winner: Ben}
marriages: {Ben: [bells]}
aces: [Ben, Carla]
"""
"""50 card points, the talon's 10 (WP gives them to the declarer) and the trump 40."""


def test_talon_counts_toward_hundred(tmp_path: Path) -> None:
    assert payments(tmp_path, TALON_SHEET) == {"Anna": 4, "Ben": -8, "Carla": 4}  # 90
    club = "points: {talon_counts_toward_hundred: true}\n"  # 100
    assert payments(tmp_path, TALON_SHEET, club) == {"Anna": -4, "Ben": 8, "Carla": -4}


GIVE_UP_SHEET = """\
ruleset: {ruleset}
players: [Anna, Ben, Carla]
declarer: Ben
bid: parti
gave_up: true
"""


def test_give_up_cost(tmp_path: Path) -> None:
    # played out, so the declarer has a turn to give up (tests/test_give_up_turn.py)
    allowed = "simple: {give_up_allowed: true, uncontested_played_out: true}\n"
    assert payments(tmp_path, GIVE_UP_SHEET, allowed) == {"Anna": 2, "Ben": -4, "Carla": 2}
    club = "simple: {give_up_allowed: true, give_up_cost: 5, uncontested_played_out: true}\n"
    assert payments(tmp_path, GIVE_UP_SHEET, club) == {"Anna": 5, "Ben": -10, "Carla": 5}


def test_direction_in_the_sheet_the_score_keeper_reads(tmp_path: Path) -> None:
    """Dealt by seat 0, forehand is seat 1 (counter-clockwise) or seat 2 (clockwise). The
    score keeper's document of an engine hand names the dealer from its forehand and the
    direction (P1 both times), and `ulti score` settles it as the engine did.

    With the dealer named, nothing `ulti score` prints depends on the direction: who
    plays first changes no payment once the facts are known."""
    for direction, forehand in (("counter_clockwise", 1), ("clockwise", 2)):
        data = fixture_data(direction=direction)
        rules = fixture_ruleset(direction=direction)
        hand = Hand(rules, seed=3, dealer=0)
        assert hand.seats.forehand == forehand
        assert hand.current_player == forehand and hand.hand_size(forehand) == 12
        choose = random.Random(3)
        while not hand.is_over:
            hand.apply(choose.choice(hand.legal_actions()))
        assert hand.contract is not None and hand.facts is not None
        assert hand.facts.seats[0] == forehand
        sheet = sheet_from(rules, hand.contract, hand.facts, ruleset_ref="rules.yaml")
        assert sheet["dealer"] == "P1", direction
        (tmp_path / "rules.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
        (tmp_path / "hand.yaml").write_text(yaml.safe_dump(sheet), encoding="utf-8")
        done = run_in(tmp_path)("score", "hand.yaml", "--json")
        assert done.returncode == 0, done.stderr
        engine = settle(rules, hand.contract, hand.facts).payments
        scored = yaml.safe_load(done.stdout)["settlement"]["payments"]
        assert scored == {str(s): v for s, v in engine.items()}
