"""The sources' worked examples (docs/rules.md#worked-examples), and a few derived from
their rules (D1-D4), each under the ruleset it belongs to.

Every example is settled twice: through the public API (Facts and Contract built
by hand) and through `ulti score` (the document a table would write). Both must
give the printed numbers, and the same settlement.

Anna (seat 0) declares against Ben (1) and Carla (2) unless the example says
otherwise. GameTwist's and the Italian examples run under club fixtures
(tests/fixtures/rulesets/) that extend the Wikipedia standard with those
sources' settlement rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from ulti_rules import Contract, Facts, MarriageFact, Ruleset, Settlement, settle
from ulti_rules.ruleset.loading import load_ruleset

FIXTURES = Path(__file__).parent / "fixtures" / "rulesets"
GAMETWIST = str(FIXTURES / "gametwist.yaml")
ITALIAN = str(FIXTURES / "italian.yaml")
PLAYERS = ["Anna", "Ben", "Carla"]


pytestmark = pytest.mark.usefixtures("club_fixtures_in_rulesets_path")


def facts(
    *,
    trump: str | None,
    tricks: tuple[int, int, int],
    points: tuple[int, int],
    last: int = 0,
    seven_last: int | None = None,
    marriages: tuple[tuple[int, str, int], ...] = (),
    aces: tuple[int, ...] = (0, 1),
    talon: int = 0,
) -> Facts:
    return Facts(
        seats=[0, 1, 2],
        declarer=0,
        trump=trump,  # type: ignore[arg-type]
        tricks_won=dict(enumerate(tricks)),
        declarer_points=points[0],
        defender_points=points[1],
        talon_points=talon,
        marriages=[MarriageFact(seat=s, suit=suit, value=v) for s, suit, v in marriages],  # type: ignore[arg-type]
        last_trick_winner=last,
        trump_seven_last_trick=seven_last,
        extra={"ace_winners": aces},
    )


def contract(bid: str, trump: str | None, **fields: Any) -> Contract:
    return Contract(bid=bid, declarer=0, trump=trump, **fields)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Example:
    key: str
    ruleset: str
    document: str
    """The score keeper's document, without its ruleset line."""
    contract: Contract
    facts: Facts | None
    per_defender: int | None = None
    lines: dict[str, int] = field(default_factory=dict)
    """Amount per defender of the named lines (the others are not part of the example)."""
    payments: dict[int, int] | None = None


W2_FACTS = facts(
    trump="acorns",
    tricks=(9, 1, 0),
    points=(80, 10),
    seven_last=0,
    marriages=((0, "acorns", 40),),
)
W2_DOC = """\
declarer: Anna
bid: 40-100 Ulti Durchmars
trump: acorns
points: {declarer: 80, defenders: 10}
tricks: {Anna: 9, Ben: 1, Carla: 0}
last_trick: {winner: Anna, trump_seven: Anna}
marriages: {Anna: [acorns]}
aces: [Anna, Ben]
"""
ULTI_BEATEN = facts(trump="acorns", tricks=(6, 2, 2), points=(60, 30), last=1, seven_last=0)
ULTI_BEATEN_DOC = """\
declarer: Anna
bid: {bid}
trump: {trump}
points: {{declarer: 60, defenders: 30}}
tricks: {{Anna: 6, Ben: 2, Carla: 2}}
last_trick: {{winner: Ben, trump_seven: Anna}}
aces: [Anna, Ben]
"""
KONTRA_NAMES = ["none", "kontra", "rekontra", "subkontra"]

EXAMPLES = [
    # ---- 9.1 Wikipedia: 40-100 Ulti Durchmars (4 + 4 + 6)
    Example(
        "W1",
        "wikipedia",
        """\
declarer: Anna
bid: forty_hundred_ulti_durchmars
trump: acorns
durchmars: Anna
points: {declarer: 90, defenders: 0}
last_trick: {winner: Anna, trump_seven: Anna}
marriages: {Anna: [acorns]}
aces: [Anna]
""",
        contract("forty_hundred_ulti_durchmars", "acorns"),
        facts(
            trump="acorns",
            tricks=(10, 0, 0),
            points=(90, 0),
            seven_last=0,
            marriages=((0, "acorns", 40),),
            aces=(0,),
        ),
        per_defender=14,
        lines={"forty_hundred": 4, "ulti": 4, "durchmars": 6},
        payments={0: 28, 1: -14, 2: -14},
    ),
    Example(
        "W2",
        "wikipedia",
        W2_DOC,
        contract("forty_hundred_ulti_durchmars", "acorns"),
        W2_FACTS,
        per_defender=2,
        lines={"forty_hundred": 4, "ulti": 4, "durchmars": -6},
        payments={0: 4, 1: -2, 2: -2},
    ),
    Example(
        "W3",
        "wikipedia",
        W2_DOC + "kontra: {durchmars: {Ben: kontra}}\n",
        contract("forty_hundred_ulti_durchmars", "acorns", kontra={"durchmars": {1: 1, 2: 1}}),
        W2_FACTS,
        per_defender=-4,
        lines={"forty_hundred": 4, "ulti": 4, "durchmars": -12},
        payments={0: -8, 1: 4, 2: 4},
    ),
    # ---- 9.2 Wikipedia: the Ulti penalty stays 4 at every kontra level
    *(
        Example(
            f"W4{'abcd'[level]}",
            "wikipedia",
            ULTI_BEATEN_DOC.format(bid="ulti", trump="acorns")
            + (f"kontra: {{ulti: {KONTRA_NAMES[level]}}}\n" if level else ""),
            contract("ulti", "acorns", kontra={"ulti": {1: level, 2: level}} if level else {}),
            ULTI_BEATEN,
            lines={"ulti": loss},
        )
        for level, loss in enumerate([-8, -12, -20, -36])
    ),
    # ---- 9.4-9.5 German: Anna / Ben / Carla, and giving up
    Example(
        "G1",
        "older-20-100",
        """\
declarer: Anna
bid: Ulti
trump: makk
kontra: {ulti: {Ben: Kontra}}
points: {declarer: 60, defenders: 30}
tricks: {Anna: 6, Ben: 2, Carla: 2}
last_trick: {winner: Anna, trump_seven: Anna}
""",
        contract("ulti", "acorns", kontra={"ulti": {1: 1, 2: 1}}),
        facts(trump="acorns", tricks=(6, 2, 2), points=(60, 30), seven_last=0),
        per_defender=9,
        lines={"parti": 1, "ulti": 8},
        payments={0: 18, 1: -9, 2: -9},
    ),
    Example(
        "G2",
        "older-20-100",
        """\
declarer: Anna
bid: Ulti
trump: makk
kontra: {ulti: {Ben: Kontra}}
points: {declarer: 50, defenders: 40}
tricks: {Anna: 6, Ben: 2, Carla: 2}
last_trick: {winner: Carla, trump_seven: Anna}
""",
        contract("ulti", "acorns", kontra={"ulti": {1: 1, 2: 1}}),
        facts(trump="acorns", tricks=(6, 2, 2), points=(50, 40), last=2, seven_last=0),
        per_defender=-11,
        lines={"parti": 1, "ulti": -12},
        payments={0: -22, 1: 11, 2: 11},
    ),
    Example(
        "G3",
        "older-20-100",
        "declarer: Anna\nbid: parti\ngave_up: true\n",
        contract("parti", None, gave_up=True),
        None,
        per_defender=-2,
        lines={"give_up": -2},
        payments={0: -4, 1: 2, 2: 2},
    ),
    # ---- 9.7 GameTwist
    Example(
        "S1",
        GAMETWIST,
        """\
declarer: Anna
bid: ulti
trump: bells
points: {declarer: 50, defenders: 40}
tricks: {Anna: 6, Ben: 2, Carla: 2}
last_trick: {winner: Anna, trump_seven: Anna}
marriages: {Anna: [leaves]}
""",
        contract("ulti", "bells"),
        facts(
            trump="bells",
            tricks=(6, 2, 2),
            points=(50, 40),
            seven_last=0,
            marriages=((0, "leaves", 20),),
        ),
        per_defender=5,
        lines={"parti": 1, "ulti": 4},
    ),
    Example(
        "S2",
        GAMETWIST,
        """\
declarer: Anna
bid: Simple
trump: leaves
points: {declarer: 80, defenders: 10}
tricks: {Anna: 8, Ben: 1, Carla: 1}
last_trick: {winner: Anna, trump_seven: Ben}
marriages: {Anna: [bells]}
""",
        contract("parti", "leaves"),
        facts(
            trump="leaves",
            tricks=(8, 1, 1),
            points=(80, 10),
            seven_last=1,
            marriages=((0, "bells", 20),),
        ),
        per_defender=4,
        lines={"parti": 2, "silent_ulti": 2},
    ),
    Example(
        "S3",
        GAMETWIST,
        """\
declarer: Anna
bid: 40-100 Ulti
trump: acorns
kontra: {forty_hundred: kontra}
points: {declarer: 50, defenders: 40}
tricks: {Anna: 6, Ben: 2, Carla: 2}
last_trick: {winner: Anna, trump_seven: Anna}
marriages: {Anna: [acorns]}
""",
        contract("forty_hundred_ulti", "acorns", kontra={"forty_hundred": {1: 1, 2: 1}}),
        facts(
            trump="acorns",
            tricks=(6, 2, 2),
            points=(50, 40),
            seven_last=0,
            marriages=((0, "acorns", 40),),
        ),
        per_defender=-4,
        lines={"forty_hundred": -8, "ulti": 4},
    ),
    # ---- 9.8 Italian: an unbid Durchmars is worth half
    Example(
        "I1",
        ITALIAN,
        """\
declarer: Anna
bid: parti
trump: acorns
durchmars: Anna
points: {declarer: 90, defenders: 0}
aces: [Anna]
""",
        contract("parti", "acorns"),
        facts(trump="acorns", tricks=(10, 0, 0), points=(90, 0), aces=(0,)),
        lines={"silent_durchmars": 3, "parti": 1},
    ),
    # ---- 9.9 derived checks
    Example(
        "D1",
        "wikipedia",
        "declarer: Anna\nbid: parti\nuncontested: true\n",
        contract("parti", None, uncontested=True),
        None,
        per_defender=-2,
        lines={"parti": -2},
    ),
    # (a plain Simple is never played under wikipedia, where it is always uncontested and
    # lost double: its silent Ulti, worth the same 2 lost twice, under older-20-100)
    Example(
        "D2",
        "older-20-100",
        ULTI_BEATEN_DOC.format(bid="parti", trump="acorns"),
        contract("parti", "acorns"),
        ULTI_BEATEN,
        lines={"silent_ulti": -4},
    ),
    Example(
        "D3",
        "wikipedia",
        ULTI_BEATEN_DOC.format(bid="Simple Hearts", trump="hearts"),
        contract("parti_red", "hearts"),
        facts(trump="hearts", tricks=(6, 2, 2), points=(60, 30), last=1, seven_last=0),
        lines={"silent_ulti": -8},
    ),
    *(
        Example(
            f"D4-{name}",
            name,
            ULTI_BEATEN_DOC.format(bid="Ulti Hearts", trump="piros"),
            contract("ulti_red", "hearts"),
            facts(trump="hearts", tricks=(6, 2, 2), points=(60, 30), last=1, seven_last=0),
            lines={"ulti": -16},
        )
        for name in ("wikipedia", "older-20-100")
    ),
]


@pytest.fixture(scope="module")
def rulesets() -> dict[str, Ruleset]:
    return {name: load_ruleset(name) for name in {e.ruleset for e in EXAMPLES}}


def check(example: Example, result: Settlement) -> None:
    for what, amount in example.lines.items():
        assert result.line(what).amount == amount, (what, result.line(what))
    if example.per_defender is not None:
        assert set(result.per_defender.values()) == {example.per_defender}
    if example.payments is not None:
        assert result.payments == example.payments
    assert sum(result.payments.values()) == 0


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_example_through_the_api(example: Example, rulesets: dict[str, Ruleset]) -> None:
    check(example, settle(rulesets[example.ruleset], example.contract, example.facts))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_example_through_ulti_score(
    example: Example, rulesets: dict[str, Ruleset], ulti: Any, tmp_path: Path
) -> None:
    document = tmp_path / "hand.yaml"
    players = "players: [Anna, Ben, Carla]\n"
    document.write_text(f"ruleset: {example.ruleset}\n{players}{example.document}", "utf-8")
    done = ulti("score", str(document), "--json")
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    api = settle(rulesets[example.ruleset], example.contract, example.facts)
    assert printed["settlement"] == api.to_dict()
    assert printed["payments"] == {PLAYERS[s]: v for s, v in api.payments.items()}
    check(example, Settlement.model_validate(printed["settlement"]))
