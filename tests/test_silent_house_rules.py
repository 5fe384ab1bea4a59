"""The silent-bonus house rules: each through the engine and through `ulti score`.

- a silent 100 worth more with a 20 than with the 40 (``marriage_values``), and counting
  one marriage or all of the side's (``counts_marriages``);
- several Parti-replacing bonuses in one hand: the highest, or all (``silent.replacing``);
- the defenders' silent Durchmars: one defender's, or the two together (``defenders``);
- a defender's feat played against everyone (``against_everyone``, SN's silent Ulti).

Every engine hand is dealt explicitly (dealer seat 0, so forehand seat 1 discards, bids
and declares; seat 2 plays second, seat 0 third) and played from each seat's list of
preferred cards, so the tricks are the same every time; each test first checks the facts
the hand was built for. The same hands are then typed into score sheets (Anna seat 0,
Ben seat 1 the declarer, Carla seat 2), and `ulti score` must settle them as the engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from ulti_rules import Contract, Facts, Settlement, settle
from ulti_rules.cards import parse_cards
from ulti_rules.engine import Announce, Hand, Pass, Play
from ulti_rules.ruleset.schema import Ruleset

from cli_in_process import run_in
from engine_fixtures import bid_and_play, deal_of, fixture_data, fixture_ruleset

PLAYERS = ["Anna", "Ben", "Carla"]
DECLARER, SECOND, THIRD = 1, 2, 0
"""Seats: forehand declares; the defenders are Carla (seat 2) and Anna (seat 0)."""


def _names(en: str) -> dict[str, str]:
    return {"hu": en, "en": en}


def silent_bonuses(**settings: dict[str, Any]) -> dict[str, Any]:
    """WP's three silent bonuses (2, 2, 3; only the declarer scores), with ``settings``
    merged into the named ones."""
    bonuses: dict[str, Any] = {
        "silent_100": {"condition": "hundred", "names": _names("Silent 100"), "value": 2},
        "silent_ulti": {"condition": "ulti", "names": _names("Silent Ulti"), "value": 2},
        "silent_durchmars": {
            "condition": "durchmars",
            "names": _names("Silent Durchmars"),
            "value": 3,
        },
    }
    for bonus_id, extra in settings.items():
        bonuses[bonus_id] = {**bonuses[bonus_id], **extra}
    return bonuses


def club_data(silent: dict[str, Any] | None = None, **settings: dict[str, Any]) -> dict[str, Any]:
    """The engine fixture with silent bonuses (and, optionally, a ``silent:`` block)."""
    overrides: dict[str, Any] = {"silent_bonuses": silent_bonuses(**settings)}
    if silent is not None:
        overrides["silent"] = silent
    return fixture_data(**overrides)


def club(silent: dict[str, Any] | None = None, **settings: dict[str, Any]) -> Ruleset:
    overrides: dict[str, Any] = {"silent_bonuses": silent_bonuses(**settings)}
    if silent is not None:
        overrides["silent"] = silent
    return fixture_ruleset(**overrides)


# --------------------------------------------------------------------------- engine hands


@dataclass(frozen=True)
class Deal:
    """An explicit deal and how each seat plays it."""

    hands: dict[int, str]
    discard: str
    plays: dict[int, str]
    """Per seat, its cards in the order it prefers to play them (the first legal one goes)."""
    announce: tuple[str, ...] = ()
    """The declarer's marriages, announced at the first trick."""
    bid: str = "simple"
    trump: str = "acorns"


def play(rules: Ruleset, deal: Deal) -> tuple[Contract, Facts]:
    """The hand played to its end: every kontra round passed, each seat playing its
    first legal preferred card."""
    hand = Hand(rules, deal=deal_of(rules, 0, deal.hands), dealer=0)
    bid_and_play(hand, deal.bid, deal.discard, trump=deal.trump)
    order = {seat: parse_cards(cards) for seat, cards in deal.plays.items()}
    while not hand.is_over:
        if hand.phase == "kontra":
            hand.apply(Pass())
            continue
        seat = hand.current_player
        assert seat is not None
        announce = [
            a
            for a in hand.legal_actions()
            if isinstance(a, Announce) and seat == DECLARER and a.suit in deal.announce
        ]
        if announce:
            hand.apply(announce[0])
            continue
        legal = hand.legal_card_list()
        hand.apply(Play(next(card for card in order[seat] if card in legal)))
    assert hand.contract is not None and hand.facts is not None
    return hand.contract, hand.facts


ALL_WITH_THE_40 = Deal(
    hands={
        1: "MA MX MK MF MAl MIX MVIII MVII ZA PA TVII TVIII",
        2: "ZX ZK ZF ZAl ZIX ZVIII ZVII PX TA TX",
    },
    discard="TVII TVIII",
    plays={
        1: "MA MX MK MF MAl MIX MVIII ZA PA MVII",
        2: "ZX ZK ZF ZAl ZIX ZVIII ZVII PX TA TX",
        0: "PK PF PAl PIX PVIII PVII TK TF TAl TIX",
    },
    announce=("acorns",),
)
"""The declarer holds every trump and two aces: every trick, 90 card points and the 40."""

ALL_WITH_A_20 = Deal(
    hands={
        1: "MA MX MAl MIX MVIII MVII ZA ZX ZK ZF TVII TVIII",
        2: "MK MF PA PX PK PF PAl PIX PVIII PVII",
    },
    discard="TVII TVIII",
    plays={
        1: "MA MX ZA ZX ZK ZF MAl MIX MVIII MVII",
        2: "MK MF PA PX PK PF PAl PIX PVIII PVII",
        0: "ZAl ZIX ZVIII ZVII TA TX TK TF TAl TIX",
    },
    announce=("leaves",),
)
"""Six trumps and the top leaves: every trick, 90 card points and a 20 (leaves); the
trump marriage lies with Carla, who does not announce it."""

FORTY_AND_TWENTY = Deal(
    hands={
        1: "MA MX MK MF MAl MIX MVIII MVII ZK ZF TVII TVIII",
        2: "PVII PVIII PIX PAl PF PK ZVII ZVIII ZA TA",
        0: "TIX TAl TF TK ZIX ZAl PA PX ZX TX",
    },
    discard="TVII TVIII",
    plays={
        1: "MA MX MK MF MAl MIX MVIII MVII ZK ZF",
        2: "PVII PVIII PIX PAl PF PK ZVII ZVIII ZA TA",
        0: "TIX TAl TF TK ZIX ZAl PA PX ZX TX",
    },
    announce=("acorns", "leaves"),
)
"""40 card points and both marriages: 100 with the two, 80 with the 40 alone."""

DEFENDERS_TOGETHER = Deal(
    hands={
        1: "MVII MVIII MIX ZVII ZVIII ZIX PVII PVIII PIX TVII TVIII TIX",
        2: "MA MX MK ZK ZF PA PX PK TA TX",
        0: "MF MAl ZA ZX ZAl PF PAl TK TF TAl",
    },
    discard="TVIII TIX",
    plays={
        1: "MVII MVIII MIX ZVII ZVIII ZIX PVII PVIII PIX TVII",
        2: "MA MX MK ZK ZF TX PA PX PK TA",
        0: "MF MAl PAl ZA ZX ZAl PF TK TF TAl",
    },
)
"""The declarer takes no trick: Carla 7, Anna 3."""

DEFENDERS_SEVEN = Deal(
    hands={
        1: "MVIII MIX MF MAl ZA ZVII ZVIII PVII PVIII TVII TVIII TIX",
        2: "MVII MA MX MK ZX PA PX TA TX ZIX",
    },
    discard="MF MAl",
    plays={
        1: "MVIII MIX ZA ZVII ZVIII PVII PVIII TVII TVIII TIX",
        2: "MA MX ZX PA PX TA TX ZIX MK MVII",
        0: "ZK ZF ZAl PK PF PAl PIX TK TF TAl",
    },
)
"""Carla keeps the trump 7 to the last trick and wins it; the declarer takes one trick."""

TOGETHER_AND_SEVEN = Deal(
    hands={
        1: "MVIII MIX ZVII ZVIII ZIX PVII PVIII PIX TVII TVIII TIX TAl",
        2: "MVII MA MX MK ZK ZF PA PX PK TA",
        0: "MF MAl ZA ZX ZAl PF PAl TX TK TF",
    },
    discard="TAl TIX",
    plays={
        1: "MVIII MIX ZVII ZVIII ZIX PVII PVIII PIX TVII TVIII",
        2: "MA MX ZK ZF PA PX PK TA MK MVII",
        0: "MF MAl ZA ZX ZAl PF PAl TX TK TF",
    },
)
"""The declarer takes no trick (Carla 8, Anna 2), and Carla wins the last with the trump 7."""


def lines(result: Settlement) -> dict[str, tuple[bool, int, int | None]]:
    """Per line: made, value per defender, and the amount where it is the same for all."""
    return {line.what: (line.made, line.value, line.amount) for line in result.lines}


# --------------------------------------------------------------------------- score sheets


def score(tmp_path: Path, data: dict[str, Any], sheet: str) -> dict[str, Any]:
    """`ulti score --json` on ``sheet`` (its ruleset: the club file written from ``data``)."""
    (tmp_path / "club.yaml").write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    (tmp_path / "hand.yaml").write_text(
        f"ruleset: club.yaml\nplayers: [{', '.join(PLAYERS)}]\ndealer: Anna\n{sheet}", "utf-8"
    )
    ran = run_in(tmp_path)("score", "--json", "hand.yaml")
    assert ran.returncode == 0, ran.stderr
    result: dict[str, Any] = json.loads(ran.stdout)
    return result


def sheet_lines(result: dict[str, Any]) -> dict[str, tuple[bool, int, int | None]]:
    return {
        line["what"]: (line["made"], line["value"], line["amount"])
        for line in result["settlement"]["lines"]
    }


def by_name(payments: dict[int, int]) -> dict[str, int]:
    return {PLAYERS[seat]: amount for seat, amount in payments.items()}


# --------------------------------------------------------------------------- the silent 100


MARRIAGE_VALUES = {"trump": 2, "plain": 4}


@pytest.mark.parametrize(
    ("deal", "marriage"), [(ALL_WITH_THE_40, "trump"), (ALL_WITH_A_20, "plain")]
)
def test_engine_silent_100_worth_its_marriage(deal: Deal, marriage: str) -> None:
    rules = club(silent_100={"marriage_values": MARRIAGE_VALUES})
    contract, facts = play(rules, deal)
    assert facts.tricks_won[DECLARER] == 10 and facts.declarer_points == 90
    assert [(m.seat, m.suit == facts.trump) for m in facts.marriages] == [
        (DECLARER, marriage == "trump")
    ]
    result = settle(rules, contract, facts)
    value = MARRIAGE_VALUES[marriage]
    assert lines(result)["silent_100"] == (True, value, value)
    assert result.line("silent_100").base == value
    # without marriage_values the bonus is worth its value, whatever the marriage (today)
    today = settle(club(), contract, facts)
    assert lines(today)["silent_100"] == (True, 2, 2)


def test_engine_silent_100_counts_all_marriages_or_one() -> None:
    rules = club()
    contract, facts = play(rules, FORTY_AND_TWENTY)
    assert (facts.declarer_points, facts.defender_points) == (40, 50)
    assert sorted(m.value for m in facts.marriages if m.seat == DECLARER) == [20, 40]
    # today: 40 + 40 + 20 = 100, the silent 100 is made (with the 40)
    assert lines(settle(rules, contract, facts))["silent_100"] == (True, 2, 2)
    one = club(silent_100={"counts_marriages": "one", "marriage_values": MARRIAGE_VALUES})
    # one marriage alone: 40 + 40 = 80, no silent 100 at all
    assert "silent_100" not in lines(settle(one, contract, facts))
    every = club(silent_100={"counts_marriages": "all", "marriage_values": MARRIAGE_VALUES})
    # both count; the 40 among them makes it a 100 "with the 40"
    assert lines(settle(every, contract, facts))["silent_100"] == (True, 2, 2)


SHEET_80_WITH_A_20 = """\
declarer: Ben
bid: simple
trump: bells
points: {declarer: 80, defenders: 10}
tricks: {Ben: 9, Carla: 1}
last_trick: {winner: Ben}
marriages: {Ben: [leaves]}
"""


def test_score_silent_100_worth_its_marriage(tmp_path: Path) -> None:
    data = club_data(silent_100={"marriage_values": MARRIAGE_VALUES})
    plain = score(tmp_path, data, SHEET_80_WITH_A_20)
    assert sheet_lines(plain)["silent_100"] == (True, 4, 4)
    assert plain["payments"] == {"Anna": -5, "Ben": 10, "Carla": -5}
    red = SHEET_80_WITH_A_20.replace("bid: simple\ntrump: bells", "bid: simple_red")
    red = red.replace("[leaves]", "[bells]")
    doubled = score(tmp_path, data, red)
    assert sheet_lines(doubled)["silent_100"] == (True, 8, 8)  # a red game doubles it
    forty = SHEET_80_WITH_A_20.replace("[leaves]", "[bells]")
    assert sheet_lines(score(tmp_path, data, forty))["silent_100"] == (True, 2, 2)


SHEET_FORTY_AND_TWENTY = """\
declarer: Ben
bid: simple
trump: acorns
points: {declarer: 40, defenders: 50}
tricks: {Ben: 8, Carla: 2}
last_trick: {winner: Carla}
trump_seven_early: Ben
marriages: {Ben: [acorns, leaves]}
"""


@pytest.mark.parametrize(("counts", "made"), [("all", True), ("one", False)])
def test_score_silent_100_counts_all_marriages_or_one(
    tmp_path: Path, counts: str, made: bool
) -> None:
    data = club_data(silent_100={"counts_marriages": counts})
    result = score(tmp_path, data, SHEET_FORTY_AND_TWENTY)
    assert ("silent_100" in sheet_lines(result)) is made
    rules = club(silent_100={"counts_marriages": counts})
    contract, facts = play(rules, FORTY_AND_TWENTY)
    assert by_name(settle(rules, contract, facts).payments) == result["payments"]


# --------------------------------------------------------------------------- several replacing


REPLACING = {"parti": "replaces"}


def test_engine_several_replacing_bonuses_highest_or_all() -> None:
    highest = club(silent_100=REPLACING, silent_durchmars=REPLACING)
    contract, facts = play(highest, ALL_WITH_THE_40)
    assert facts.tricks_won[DECLARER] == 10
    assert facts.trump_seven_last_trick == facts.last_trick_winner == DECLARER
    result = settle(highest, contract, facts)
    # today: the Parti takes the Durchmars' 3, the 100's 2 is not paid; the Ulti adds
    assert lines(result) == {"parti": (True, 3, 3), "silent_ulti": (True, 2, 2)}
    assert result.line("parti").replaced_by == "silent_durchmars"
    every = club({"replacing": "all"}, silent_100=REPLACING, silent_durchmars=REPLACING)
    result = settle(every, contract, facts)
    assert lines(result) == {
        "parti": (True, 3, 3),
        "silent_100": (True, 2, 2),
        "silent_ulti": (True, 2, 2),
    }
    assert result.line("parti").replaced_by == "silent_durchmars"
    assert "beside the Parti" in result.line("silent_100").note
    assert result.payments[DECLARER] == 2 * (3 + 2 + 2)
    assert sum(result.payments.values()) == 0


SHEET_DURCHMARS_WITH_THE_40 = """\
declarer: Ben
bid: simple
trump: acorns
points: {declarer: 90, defenders: 0}
durchmars: Ben
last_trick: {winner: Ben, trump_seven: Ben}
marriages: {Ben: [acorns]}
"""


@pytest.mark.parametrize(("replacing", "declarer_wins"), [("highest", 10), ("all", 14)])
def test_score_several_replacing_bonuses_highest_or_all(
    tmp_path: Path, replacing: str, declarer_wins: int
) -> None:
    data = club_data({"replacing": replacing}, silent_100=REPLACING, silent_durchmars=REPLACING)
    result = score(tmp_path, data, SHEET_DURCHMARS_WITH_THE_40)
    assert result["payments"]["Ben"] == declarer_wins
    assert ("silent_100" in sheet_lines(result)) is (replacing == "all")
    rules = club({"replacing": replacing}, silent_100=REPLACING, silent_durchmars=REPLACING)
    contract, facts = play(rules, ALL_WITH_THE_40)
    assert settle(rules, contract, facts).model_dump(mode="json") == result["settlement"]


# --------------------------------------------------------------------------- defenders together


@pytest.mark.parametrize("scored_by", ["declarer", "either_side"])
def test_engine_defenders_durchmars_one_or_together(scored_by: str) -> None:
    alone = club(silent_durchmars={"scored_by": scored_by})
    contract, facts = play(alone, DEFENDERS_TOGETHER)
    assert (facts.tricks_won[DECLARER], facts.tricks_won[SECOND], facts.tricks_won[THIRD]) == (
        0,
        7,
        3,
    )
    # today: no one defender took every trick, so there is no silent Durchmars
    assert "silent_durchmars" not in lines(settle(alone, contract, facts))
    together = club(silent_durchmars={"scored_by": scored_by, "defenders": "together"})
    line = settle(together, contract, facts).line("silent_durchmars")
    if scored_by == "declarer":  # WP's loss: the declarer pays 2 × 3 to each defender
        assert (line.by, line.made, line.amount) == ("declarer", False, -6)
    else:  # the defenders' own feat: the declarer pays each of them 3
        assert (line.by, line.made, line.amount) == ("defenders", True, -3)


SHEET_DEFENDERS_TOGETHER = """\
declarer: Ben
bid: simple
trump: acorns
points: {declarer: 0, defenders: 90}
tricks: {Anna: 3, Carla: 7}
last_trick: {winner: Carla}
trump_seven_early: Ben
"""


@pytest.mark.parametrize(("defenders", "declarer_pays"), [("one", 2), ("together", 14)])
def test_score_defenders_durchmars_one_or_together(
    tmp_path: Path, defenders: str, declarer_pays: int
) -> None:
    data = club_data(silent_durchmars={"defenders": defenders})
    result = score(tmp_path, data, SHEET_DEFENDERS_TOGETHER)
    # the Parti lost (1 each), and together: the silent Durchmars lost (2 × 3 each)
    assert result["payments"]["Ben"] == -declarer_pays
    rules = club(silent_durchmars={"defenders": defenders})
    contract, facts = play(rules, DEFENDERS_TOGETHER)
    assert settle(rules, contract, facts).model_dump(mode="json") == result["settlement"]


# --------------------------------------------------------------------------- against everyone


EITHER_SIDE = {"scored_by": "either_side"}
AGAINST_EVERYONE = {"scored_by": "either_side", "against_everyone": True}


def test_engine_defenders_silent_ulti_against_everyone() -> None:
    today = club(silent_ulti=EITHER_SIDE)
    contract, facts = play(today, DEFENDERS_SEVEN)
    assert facts.trump_seven_last_trick == facts.last_trick_winner == SECOND
    assert facts.tricks_won[DECLARER] == 1
    before = settle(today, contract, facts)
    line = before.line("silent_ulti")
    # today: the declarer pays each defender 2, Carla's partner Anna included
    assert (line.by, line.made, line.amount, line.transfers) == ("defenders", True, -2, [])
    rules = club(silent_ulti=AGAINST_EVERYONE)
    after = settle(rules, contract, facts)
    line = after.line("silent_ulti")
    assert {s.seat: s.amount for s in line.shares} == {SECOND: -2, THIRD: 0}
    assert [(t.payer, t.payee, t.amount) for t in line.transfers] == [(THIRD, SECOND, 2)]
    # Carla gets 2 from each other player; Anna pays instead of being paid
    parti = before.line("parti").amount
    assert parti is not None
    assert after.payments == {
        DECLARER: 2 * parti - 2,
        SECOND: -parti + 4,
        THIRD: -parti - 2,
    }
    assert sum(after.payments.values()) == 0


SHEET_CARLAS_SEVEN = """\
declarer: Ben
bid: simple
trump: acorns
points: {declarer: 20, defenders: 70}
tricks: {Ben: 1, Carla: 9}
last_trick: {winner: Carla, trump_seven: Carla}
"""


def test_score_defenders_silent_ulti_against_everyone(tmp_path: Path) -> None:
    result = score(tmp_path, club_data(silent_ulti=AGAINST_EVERYONE), SHEET_CARLAS_SEVEN)
    (line,) = [line for line in result["settlement"]["lines"] if line["what"] == "silent_ulti"]
    assert line["transfers"] == [{"payer": 0, "payee": 2, "amount": 2}]
    # the Parti: Ben loses 1 to each; the silent Ulti: Ben and Anna pay Carla 2 each
    assert result["payments"] == {"Anna": 1 - 2, "Ben": -2 - 2, "Carla": 1 + 4}
    rules = club(silent_ulti=AGAINST_EVERYONE)
    contract, facts = play(rules, DEFENDERS_SEVEN)
    assert settle(rules, contract, facts).model_dump(mode="json") == result["settlement"]


def test_score_defenders_silent_ulti_lost_against_everyone(tmp_path: Path) -> None:
    """Carla's 7 beaten by Anna in the last trick (HU: still Carla's failure): Carla pays
    2 × 2 to the declarer and to Anna alike."""
    beaten = SHEET_CARLAS_SEVEN.replace(
        "tricks: {Ben: 1, Carla: 9}\nlast_trick: {winner: Carla,",
        "tricks: {Ben: 1, Carla: 8, Anna: 1}\nlast_trick: {winner: Anna,",
    )
    result = score(tmp_path, club_data(silent_ulti=AGAINST_EVERYONE), beaten)
    (line,) = [line for line in result["settlement"]["lines"] if line["what"] == "silent_ulti"]
    assert (line["by"], line["made"]) == ("defenders", False)
    assert line["transfers"] == [{"payer": 2, "payee": 0, "amount": 4}]
    assert result["payments"] == {"Anna": 1 + 4, "Ben": -2 + 4, "Carla": 1 - 8}
    today = score(tmp_path, club_data(silent_ulti=EITHER_SIDE), beaten)
    # today both defenders pay the declarer for Carla's failure
    assert today["payments"] == {"Anna": 1 - 4, "Ben": -2 + 8, "Carla": 1 - 4}


# --------------------------------------------------------------------------- mixed


MIXED_SILENT = {"replacing": "all"}
MIXED_BONUSES: dict[str, dict[str, Any]] = {
    "silent_100": {"counts_marriages": "one", "marriage_values": MARRIAGE_VALUES, **REPLACING},
    "silent_ulti": AGAINST_EVERYONE,
    "silent_durchmars": {"scored_by": "either_side", "defenders": "together", **REPLACING},
}
"""A club mixing all four: a silent 100 by its marriage, one marriage counting; every
replacing bonus paid; the defenders' Durchmars made together; SN's silent Ulti against
everyone."""

SHEET_DURCHMARS_WITH_A_20 = """\
declarer: Ben
bid: simple
trump: acorns
points: {declarer: 90, defenders: 0}
durchmars: Ben
last_trick: {winner: Ben, trump_seven: Ben}
marriages: {Ben: [leaves]}
"""

SHEET_TOGETHER_AND_SEVEN = """\
declarer: Ben
bid: simple
trump: acorns
points: {declarer: 0, defenders: 90}
tricks: {Anna: 2, Carla: 8}
last_trick: {winner: Carla, trump_seven: Carla}
"""


def test_mixed_house_rules_declarers_feats(tmp_path: Path) -> None:
    """Every trick with a 20 and the trump 7: the 100 made with a 20 (4) outbids the
    Durchmars (3) for the Parti's value, and the Durchmars is paid beside it."""
    rules = club(MIXED_SILENT, **MIXED_BONUSES)
    contract, facts = play(rules, ALL_WITH_A_20)
    assert facts.tricks_won[DECLARER] == 10
    assert facts.trump_seven_last_trick == facts.last_trick_winner == DECLARER
    result = settle(rules, contract, facts)
    assert lines(result) == {
        "parti": (True, 4, 4),
        "silent_ulti": (True, 2, 2),
        "silent_durchmars": (True, 3, 3),
    }
    assert result.line("parti").replaced_by == "silent_100"
    assert result.payments[DECLARER] == 2 * (4 + 2 + 3)
    typed = score(tmp_path, club_data(MIXED_SILENT, **MIXED_BONUSES), SHEET_DURCHMARS_WITH_A_20)
    assert typed["settlement"] == result.model_dump(mode="json")


def test_mixed_house_rules_defenders_feats(tmp_path: Path) -> None:
    """No trick for the declarer, and Carla's trump 7 wins the last one."""
    rules = club(MIXED_SILENT, **MIXED_BONUSES)
    contract, facts = play(rules, TOGETHER_AND_SEVEN)
    assert (facts.tricks_won[DECLARER], facts.tricks_won[SECOND]) == (0, 8)
    assert facts.trump_seven_last_trick == facts.last_trick_winner == SECOND
    result = settle(rules, contract, facts)
    # the defenders' Durchmars (together) replaces the Parti, which they win: 3 each;
    # Carla's silent Ulti, against everyone: 2 from the declarer, 2 from Anna
    assert lines(result) == {"parti": (False, 3, -3), "silent_ulti": (True, 2, None)}
    assert result.line("parti").replaced_by == "silent_durchmars"
    assert result.payments == {DECLARER: -3 - 3 - 2, SECOND: 3 + 2 + 2, THIRD: 3 - 2}
    typed = score(tmp_path, club_data(MIXED_SILENT, **MIXED_BONUSES), SHEET_TOGETHER_AND_SEVEN)
    assert typed["settlement"] == result.model_dump(mode="json")
    assert typed["payments"] == by_name(result.payments)


# --------------------------------------------------------------------------- club file errors


@pytest.mark.parametrize(
    ("bonus", "setting", "key", "message"),
    [
        (
            "silent_ulti",
            "marriage_values: {trump: 2, plain: 4}",
            "marriage_values",
            "marriage_values is for a silent 100 (condition: hundred)",
        ),
        (
            "silent_ulti",
            "counts_marriages: one",
            "counts_marriages",
            "counts_marriages is for a silent 100",
        ),
        (
            "silent_hundred",
            "defenders: together",
            "defenders",
            "defenders: together is for a silent Durchmars",
        ),
        (
            "silent_ulti",
            "against_everyone: true",
            "against_everyone",
            "against_everyone is about a defender's feat, and with scored_by: declarer no "
            "defender scores one: set scored_by: either_side",
        ),
        (
            "silent_hundred",
            "scored_by: either_side\n    against_everyone: true",
            "against_everyone",
            "a silent 100 is the defending side's feat, not one defender's",
        ),
        (
            "silent_durchmars",
            "scored_by: either_side\n    parti: replaces\n    against_everyone: true",
            "against_everyone",
            "a bonus that replaces the Parti's value is paid as the Parti",
        ),
        (
            "silent_hundred",
            "red_value: 4\n    marriage_values: {trump: 2, plain: 4}",
            "marriage_values",
            "set red_value or marriage_values, not both",
        ),
    ],
)
def test_a_house_rule_in_the_wrong_place_is_a_positioned_problem(
    tmp_path: Path, bonus: str, setting: str, key: str, message: str
) -> None:
    """`ulti check` names the file, line and column of the setting, and why it is wrong."""
    text = f"name: club\ntitle: A club\nextends: wikipedia\nsilent_bonuses:\n  {bonus}:\n"
    text += f"    {setting}\n"
    (tmp_path / "club.yaml").write_text(text, "utf-8")
    ran = run_in(tmp_path)("check", "club.yaml")
    assert ran.returncode == 1
    line = text.splitlines().index(
        next(t for t in text.splitlines() if t.startswith(f"    {key}:"))
    )
    assert f"club.yaml:{line + 1}:5: silent_bonuses.{bonus}.{key}: {message}" in ran.stdout
    assert "Traceback" not in ran.stdout + ran.stderr
