"""`ulti score` refuses what a table cannot have seen: who took the aces against the card
points, a name or a component written twice, a kontra written per defender, the trump 7
of a no-trump game at the key that says it, and a flag the ruleset gives no meaning.

Each sheet is typed as a table would type it and run through `ulti score`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ulti_rules import Facts, FactSpec, Hand, Ruleset
from ulti_rules.bots import RandomBot, play_out
from ulti_rules.contracts.fact_specs import PLAYERS
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring import possible

from conftest import RunUlti
from settlement_support import make_facts, make_ruleset, sheet
from ulti_four_aces.kind import ACE_WINNERS

SUITS = 4
TRICKS = 10


def score(ulti: RunUlti, tmp_path: Path, text: str, *files: tuple[str, str]) -> tuple[int, str]:
    """`ulti score hand.yaml` on ``text`` (and club files beside it): status, and what it
    printed (stdout and stderr)."""
    for name, content in files:
        (tmp_path / name).write_text(content, "utf-8")
    (tmp_path / "hand.yaml").write_text(text, "utf-8")
    ran = ulti("score", "hand.yaml")
    return ran.returncode, ran.stdout + ran.stderr


def payments(ulti: RunUlti, tmp_path: Path, text: str, *files: tuple[str, str]) -> dict[str, int]:
    for name, content in files:
        (tmp_path / name).write_text(content, "utf-8")
    (tmp_path / "hand.yaml").write_text(text, "utf-8")
    ran = ulti("score", "hand.yaml", "--json")
    assert ran.returncode == 0, ran.stderr
    paid: dict[str, int] = json.loads(ran.stdout)["payments"]
    return paid


def club(name: str, points: str) -> tuple[str, str]:
    """A club file on the Wikipedia standard (Four Aces, silent Four Aces) with its own
    card points."""
    return (
        f"{name}.yaml",
        f"name: {name}\ntitle: a club\nextends: wikipedia\npoints: {points}\n",
    )


# --------------------------------------------------------------------------- aces and points


def test_a_defender_cannot_take_an_ace_when_his_side_has_only_the_last_trick(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """The reviewer's sheet: 80 to 10, the 10 the last trick's, and Ben named in aces. A
    silent Four Aces loss was charged on it."""
    status, out = score(
        ulti,
        tmp_path,
        sheet(
            points="{declarer: 80, defenders: 10}",
            tricks="{Anna: 8, Ben: 2}",
            last_trick="{winner: Ben}",
            aces="[Ben]",
        ),
    )
    assert status == 1
    assert (
        "hand.yaml:9:1: aces: Ben took an ace, but the defenders' 10 card points are only the "
        "last trick's 10: take Ben out of aces, or correct points"
    ) in out
    # and Anna's 80 are more than the six tens and the talon: she took aces too
    assert "Anna, the declarer, is not in aces, but the declarer's 80 card points" in out


def test_a_four_aces_declarer_with_only_the_last_trick_took_no_ace(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """The reviewer's sheet: Four Aces paid as made on 10 points, the last trick's."""
    status, out = score(
        ulti,
        tmp_path,
        sheet(
            bid="Four Aces",
            trump="bells",
            points="{declarer: 10, defenders: 80}",
            tricks="{Anna: 2, Ben: 4, Carla: 4}",
            aces="[Anna]",
        ),
    )
    assert status == 1
    assert (
        "aces: Anna took an ace, but the declarer's 10 card points are only the last "
        "trick's 10: take Anna out of aces, or correct points"
    ) in out
    assert (
        "aces: neither Ben nor Carla is in aces, but the defenders' 80 card points cannot be "
        "made without an ace (cards count ace 10, ten 10, every other card 0): add who took "
        "it to aces, or correct points"
    ) in out


def test_a_side_left_out_of_aces_must_have_points_without_one(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """Only the declarer took aces, so the defenders' points besides the last trick's are
    at most the four tens: 50 are not."""
    status, out = score(
        ulti,
        tmp_path,
        sheet(
            points="{declarer: 30, defenders: 60}",
            tricks="{Anna: 4, Ben: 3, Carla: 3}",
            last_trick="{winner: Ben}",
            aces="[Anna]",
        ),
    )
    assert status == 1
    assert (
        "aces: neither Ben nor Carla is in aces, but the defenders' 60 card points, 50 "
        "besides the last trick's 10, cannot be made without an ace"
    ) in out
    # the four tens alone make the defenders' 40 besides the last trick: the Simple Hearts
    # is lost (2), the silent Four Aces made (4)
    assert payments(
        ulti,
        tmp_path,
        sheet(
            points="{declarer: 40, defenders: 50}",
            tricks="{Anna: 4, Ben: 3, Carla: 3}",
            last_trick="{winner: Ben}",
            aces="[Anna]",
        ),
    ) == {"Anna": 4, "Ben": -2, "Carla": -2}


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (  # two defenders named, room for one ace
            {
                "points": "{declarer: 80, defenders: 10}",
                "tricks": "{Anna: 8, Ben: 1, Carla: 1}",
                "aces": "[Anna, Ben, Carla]",
            },
            "Ben and Carla each took an ace, but the defenders' 10 card points cannot include "
            "more than one ace (cards count ace 10, ten 10, every other card 0): take Ben or "
            "Carla out of aces, or correct points",
        ),
        (  # a defender named, and the defenders without a card point
            {"points": "{declarer: 90, defenders: 0}", "tricks": "{Anna: 8, Ben: 2}"},
            "Ben took an ace, but the defenders have no card points: take Ben out of aces, or "
            "correct points",
        ),
        (  # each side could be right alone, not both: Anna's 40 are tens, so the defenders
            # took every ace, and Ben's one trick has three cards
            {
                "points": "{declarer: 50, defenders: 40}",
                "tricks": "{Anna: 7, Ben: 1, Carla: 2}",
                "aces": "[Ben]",
            },
            "with Anna not in aces, the defenders' 40 card points need 4 aces in their tricks "
            "(cards count ace 10, ten 10, every other card 0), and Ben's 1 trick cannot hold "
            "them all: add Carla to aces, or correct points",
        ),
    ],
)
def test_what_the_table_should_correct_in_aces_is_said(
    ulti: RunUlti, tmp_path: Path, lines: dict[str, str], message: str
) -> None:
    status, out = score(ulti, tmp_path, sheet(**lines))
    assert status == 1
    assert f"hand.yaml:9:1: aces: {message}" in out
    assert out.count("aces: ") == 1, out


def test_aces_may_lie_in_the_talon_whose_points_count_as_written(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """The defenders hold the four tens (40) and took no ace; the talon's 20 are two aces,
    the declarer's 20 besides the last trick the other two."""
    text = sheet(
        points="{declarer: 30, defenders: 40, talon: 20}",
        tricks="{Anna: 4, Ben: 3, Carla: 3}",
        aces="[Anna]",
    )
    # the talon is the declarer's in the Wikipedia standard: 50 to 40, the Simple Hearts (2)
    # and the silent Four Aces (4) made
    assert payments(ulti, tmp_path, text) == {"Anna": 12, "Ben": -6, "Carla": -6}
    # the same with the talon empty: 50 for the declarer, who then took every ace
    text = sheet(
        points="{declarer: 50, defenders: 40, talon: 0}",
        tricks="{Anna: 4, Ben: 3, Carla: 3}",
        aces="[Anna]",
    )
    assert payments(ulti, tmp_path, text) == {"Anna": 12, "Ben": -6, "Carla": -6}


def test_an_ace_worth_eleven_is_checked_at_its_value(ulti: RunUlti, tmp_path: Path) -> None:
    """Ace 11, ten 10 (94 in all): the defenders' 20 besides the last trick are two tens,
    no ace."""
    eleven = club("eleven", "{card_points: {ace: 11, ten: 10}}")
    text = sheet(
        ruleset="eleven.yaml",
        points="{declarer: 64, defenders: 30}",
        tricks="{Anna: 6, Ben: 2, Carla: 2}",
        last_trick="{winner: Ben}",
        aces="[Anna, Ben]",
    )
    status, out = score(ulti, tmp_path, text, eleven)
    assert status == 1
    assert (
        "aces: Ben took an ace, but the defenders' 30 card points, 20 besides the last "
        "trick's 10, cannot include an ace (cards count ace 11, ten 10, every other card 0): "
        "take Ben out of aces, or correct points"
    ) in out
    # 31 with the last trick is an ace and two tens; the Simple Hearts (2) is made
    text = text.replace("declarer: 64, defenders: 30", "declarer: 53, defenders: 41")
    assert payments(ulti, tmp_path, text, eleven) == {"Anna": 4, "Ben": -2, "Carla": -2}


def test_an_ace_worth_nothing_tells_nothing(ulti: RunUlti, tmp_path: Path) -> None:
    """A club that values the ace at 0: the reviewer's sheet is then possible (Ben took
    the aces, worth nothing, in his two tricks), and Ben's silent Four Aces is Anna's
    loss."""
    nothing = club("nothing", "{card_points: {ace: 0}}")
    text = sheet(
        ruleset="nothing.yaml",
        points="{declarer: 40, defenders: 10}",
        tricks="{Anna: 8, Ben: 2}",
        last_trick="{winner: Ben}",
        aces="[Ben]",
    )
    status, out = score(ulti, tmp_path, text, nothing)
    assert status == 0, out
    assert "Silent Four Aces" in out


def test_a_check_written_for_the_first_api_is_called_as_before() -> None:
    """A third party's ``check(value, facts, name)`` gets three arguments; one that names
    ``ruleset`` or ``can_deal`` (or takes ``**``) gets those it names."""
    seen: list[Any] = []

    def old(value: tuple[int, ...], facts: Facts, name: Any) -> list[str]:
        seen.append(("old", value))
        return ["old"]

    def new(
        value: tuple[int, ...], facts: Facts, name: Any, *, ruleset: Ruleset | None = None
    ) -> list[str]:
        seen.append(("new", ruleset))
        return []

    def anything(value: tuple[int, ...], facts: Facts, name: Any, **more: Any) -> list[str]:
        seen.append(("anything", sorted(more)))
        return []

    def only_by_place(value: Any, facts: Any, name: Any, ruleset: Any = None, /) -> list[str]:
        seen.append(("by place", ruleset))
        return []

    facts = make_facts()
    rules = make_ruleset()
    for check in (old, new, anything, only_by_place):
        spec = FactSpec("winners", PLAYERS, "who won", "winners", lambda f: (), check)
        spec.problems((0,), facts, str, ruleset=rules, can_deal=None)
    assert seen == [
        ("old", (0,)),
        ("new", rules),
        ("anything", ["can_deal", "ruleset"]),
        ("by place", None),
    ]


class _Dealer:
    """A ``can_deal`` that deals the ace splits it is given and keeps what it was asked."""

    def __init__(self, dealable: set[tuple[int, int, int]]) -> None:
        self.dealable = dealable
        self.asked: list[tuple[int, int, int]] = []

    def __call__(self, where: Mapping[str, tuple[int, int, int]]) -> bool:
        self.asked.append(where["ace"])
        return where["ace"] in self.dealable


def _fits(split: tuple[int, int, int], takers: set[int], tricks: dict[int, int]) -> bool:
    """Whether aces split so (declarer's, defenders', talon's) are where ``takers`` says."""
    mine, theirs, _ = split
    named = [s for s in (1, 2) if s in takers]
    defenders = len(named) <= theirs <= 3 * sum(tricks[s] for s in named) if named else not theirs
    return (mine > 0) == (0 in takers) and defenders


@pytest.mark.parametrize("takers", [set(), {0}, {1}, {0, 1}, {1, 2}, {0, 1, 2}])
def test_the_ace_points_check_asks_only_for_the_splits_the_sheet_allows(takers: set[int]) -> None:
    """A sheet whose aces some deal fits asks ``can_deal`` only about the splits its aces
    allow (a ledger checks every hand again at each add: the twelve splits were asked each
    time); which sheets pass is what trying every split said."""
    from ulti_four_aces.kind import _within_points

    rules = load_ruleset("wikipedia")
    draw = random.Random(8)
    splits = [(m, t, 4 - m - t) for m in range(5) for t in range(5 - m) if 4 - m - t <= 2]
    for _ in range(200):
        tricks = {0: draw.randint(1, 8), 1: draw.randint(0, 2), 2: draw.randint(0, 2)}
        # some split is always dealt: points no deal gives are refused before this check
        dealer = _Dealer({s for s in splits if draw.random() < 0.3} or {draw.choice(splits)})
        found = _within_points(takers, make_facts(tricks=tricks, aces=None), str, rules, dealer)
        assert (found == []) == any(_fits(s, takers, tricks) for s in dealer.dealable)
        if found == []:
            assert dealer.asked and all(_fits(s, takers, tricks) for s in dealer.asked)


@pytest.mark.parametrize(
    "points",
    [
        None,  # the Wikipedia standard
        "{card_points: {ace: 11, ten: 10, king: 4, over: 3, under: 2}}",
        "{card_points: {ace: 0, seven: 7}, last_trick: 0}",
    ],
)
def test_the_ace_check_never_refuses_a_hand_the_engine_played(
    tmp_path: Path, points: str | None
) -> None:
    """Every engine hand's aces fit its points, as written (each name once), under any
    card points."""
    if points is None:
        rules = load_ruleset("wikipedia")
    else:
        name, text = club("points", points)
        (tmp_path / name).write_text(text, "utf-8")
        rules = load_ruleset(tmp_path / name)
    checked = 0
    for seed in range(60):
        hand = Hand(rules, seed=seed, dealer=seed % rules.players.count)
        play_out(hand, [RandomBot()] * rules.players.count, random.Random(seed))
        facts = hand.facts
        if facts is None or "ace_winners" not in facts.extra:
            continue
        winners = tuple(dict.fromkeys(facts.extra["ace_winners"]))

        def deal(held: Mapping[str, tuple[int, int, int]], facts: Facts = facts) -> bool:
            return possible.can_deal(facts, rules, held)

        assert deal({}), "the engine's points are a deal"
        found = ACE_WINNERS.problems(winners, facts, str, ruleset=rules, can_deal=deal)
        assert found == [], (seed, found)
        checked += 1
    assert checked > 30


# --------------------------------------------------------------------------- can_deal, exactly


def _oracle(
    values: Mapping[str, int],
    parts: tuple[tuple[int, int], tuple[int, int], tuple[int, int]],
    held: Mapping[str, tuple[int, int, int]],
) -> bool:
    """Another way to the same answer: rank by rank, every way its four cards can lie in
    the three parts (held ranks only as given), keeping the reachable (cards, points) of
    the declarer's tricks and of the talon; the defenders take the rest. The cards worth
    nothing (and not held) are pooled: only how many of them each part takes matters, so
    any count each part still lacks can be filled from the pool while it lasts."""
    splits = [(d, f, SUITS - d - f) for d in range(SUITS + 1) for f in range(SUITS + 1 - d)]
    reach = {(0, 0, 0, 0)}
    blank = 0
    for rank in ("ace", "ten", "king", "over", "under", "nine", "eight", "seven"):
        value = values.get(rank, 0)
        if not value and rank not in held:
            blank += SUITS
            continue
        ways = [held[rank]] if rank in held else splits
        reach = {
            (dc + d, dp + d * value, tc + t, tp + t * value)
            for dc, dp, tc, tp in reach
            for d, _, t in ways
            if dc + d <= parts[0][0] and tc + t <= parts[2][0]
        }
    (declarer_cards, declarer_points), defenders, (talon_cards, talon_points) = parts
    cards, points = 8 * SUITS, SUITS * sum(values.values())
    rest = (cards - declarer_cards - talon_cards, points - declarer_points - talon_points)
    reached = any(
        (dp, tp) == (declarer_points, talon_points)
        and (declarer_cards - dc) + (talon_cards - tc) <= blank
        for dc, dp, tc, tp in reach
    )
    return reached and defenders == rest


@cache
def _ruleset_with(ace: int, ten: int, king: int) -> Ruleset:
    """A ruleset with these card points (twelve of them in all): built once each."""
    return make_ruleset(points={"card_points": {"ace": ace, "ten": ten, "king": king},
                                "last_trick": 10})  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    ace=st.sampled_from([0, 10, 11]),
    ten=st.sampled_from([0, 10]),
    king=st.sampled_from([0, 4]),
    declarer_tricks=st.integers(0, TRICKS),
    declarer_won_last=st.booleans(),
    split=st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 2)),
    draw=st.randoms(use_true_random=False),
)
def test_can_deal_is_exact(
    ace: int,
    ten: int,
    king: int,
    declarer_tricks: int,
    declarer_won_last: bool,
    split: tuple[int, int, int],
    draw: random.Random,
) -> None:
    """``can_deal`` answers what trying every way the cards can lie answers, for points
    some deal gives and points none does."""
    values = {"ace": ace, "ten": ten, "king": king}
    rules = _ruleset_with(ace, ten, king)
    deck = [value for value in values.values() for _ in range(SUITS)] + [0] * 20
    draw.shuffle(deck)
    declarer_cards = 3 * declarer_tricks
    talon = sum(deck[30:])
    moved = draw.choice([0, 0, 1, 4, 10, -10])  # points some deal gives, or perhaps not
    declarer = sum(deck[:declarer_cards]) + moved
    defenders = sum(deck[declarer_cards:30]) - moved
    tricks = {0: declarer_tricks, 1: TRICKS - declarer_tricks, 2: 0}
    winner = 0 if declarer_won_last else 1
    if tricks[winner] == 0:
        return
    facts = make_facts(
        tricks=tricks,
        declarer_points=declarer + (10 if declarer_won_last else 0),
        defender_points=defenders + (0 if declarer_won_last else 10),
        talon_points=talon,
        last=winner,
        aces=None,
    )
    parts = ((declarer_cards, declarer), (30 - declarer_cards, defenders), (2, talon))
    if sum(split) != SUITS:
        assert not possible.can_deal(facts, rules, {"ace": split})
        return
    for held in ({}, {"ace": split}):
        assert possible.can_deal(facts, rules, held) == _oracle(values, parts, held), held


# --------------------------------------------------------------------------- kontra per defender


def test_one_defenders_kontra_with_the_other_at_0_binds_both(ulti: RunUlti, tmp_path: Path) -> None:
    """{Ben: 1, Carla: 0} says Ben called kontra and Carla did not; on the Ulti a kontra
    binds both defenders, so it is Ben's kontra for both (docs/score-keeper.md)."""
    ulti_sheet = sheet(
        bid="Ulti",
        trump="acorns",
        last_trick="{winner: Anna, trump_seven: Anna}",
        kontra="{ulti: {Ben: 1, Carla: 0}}",
    )
    expected = {"Anna": 18, "Ben": -9, "Carla": -9}  # the docs' Ulti, Ben's kontra alone
    assert payments(ulti, tmp_path, ulti_sheet) == expected
    assert payments(ulti, tmp_path, ulti_sheet.replace(", Carla: 0", "")) == expected
    status, out = score(ulti, tmp_path, ulti_sheet.replace("Carla: 0", "Carla: 2"))
    assert status == 1
    assert (
        "kontra.ulti: a kontra on 'ulti' binds both defenders here, so their levels cannot "
        "differ: write the one level it reached, e.g. {ulti: 2}"
    ) in out


def test_a_betli_kontra_with_the_other_defender_at_0_stays_his_own(
    ulti: RunUlti, tmp_path: Path
) -> None:
    text = sheet(
        bid="Betli",
        trump="",
        points="{declarer: 0, defenders: 90}",
        tricks="{Ben: 5, Carla: 5}",
        last_trick="{winner: Carla}",
        aces="",
        kontra="{betli: {Ben: kontra, Carla: 0}}",
    )
    assert payments(ulti, tmp_path, text) == {"Anna": 15, "Ben": -10, "Carla": -5}


# --------------------------------------------------------------------------- where and how


def test_a_no_trump_games_early_trump_seven_is_refused_at_its_own_key(
    ulti: RunUlti, tmp_path: Path
) -> None:
    text = sheet(
        bid="Betli",
        trump="",
        points="{declarer: 0, defenders: 90}",
        tricks="{Ben: 5, Carla: 5}",
        last_trick="{winner: Ben}",
        aces="",
        trump_seven_early="Ben",
    )
    status, out = score(ulti, tmp_path, text)
    assert status == 1
    assert "hand.yaml:8:1: trump_seven_early: a no-trump game has no trump 7" in out


def test_an_early_trump_seven_of_the_dealer_who_sat_out_is_refused_at_its_key(
    ulti: RunUlti, tmp_path: Path
) -> None:
    text = sheet(
        ruleset="four-player",
        players="[Anna, Ben, Carla, Dani]",
        dealer="Dani",
        trump_seven_early="Dani",
    )
    status, out = score(ulti, tmp_path, text)
    assert status == 1
    assert "hand.yaml:11:1: trump_seven_early: Dani did not play this hand" in out
    assert "last_trick" not in out


@pytest.mark.parametrize(
    ("aces", "message"),
    [
        ("[Anna, Anna]", "9:14: aces.1: Anna is in aces twice: write each name once"),
        ("[declarer, Ben, Anna]", "9:23: aces.2: Anna is in aces twice: write each name once"),
        (
            "[Anna, Ben, declarer]",
            "9:19: aces.2: 'declarer' (Anna) is in aces twice: write each name once",
        ),
    ],
)
def test_a_name_written_twice_in_aces_is_refused(
    ulti: RunUlti, tmp_path: Path, aces: str, message: str
) -> None:
    status, out = score(ulti, tmp_path, sheet(aces=aces))
    assert status == 1
    assert f"hand.yaml:{message}" in out


def test_a_component_written_twice_is_refused(ulti: RunUlti, tmp_path: Path) -> None:
    text = sheet(
        bid="{components: [parti, parti, ulti]}",
        trump="acorns",
        last_trick="{winner: Anna, trump_seven: Anna}",
    )
    status, out = score(ulti, tmp_path, text)
    assert status == 1
    assert (
        "bid.components.1: 'parti' is written twice: a bid has each component once "
        "(the implied Parti too)"
    ) in out
    assert payments(ulti, tmp_path, text.replace("parti, parti, ulti", "parti, ulti")) == {
        "Anna": 10,
        "Ben": -5,
        "Carla": -5,
    }


@pytest.mark.parametrize(
    ("points", "winner", "says"),
    [
        ("{declarer: 0, defenders: 90}", "Anna", "but the declarer has no card points"),
        ("{declarer: 90, defenders: 0}", "Ben", "but the defenders have no card points"),
    ],
)
def test_the_last_trick_message_speaks_of_one_declarer(
    ulti: RunUlti, tmp_path: Path, points: str, winner: str, says: str
) -> None:
    text = sheet(
        points=points,
        tricks="{Anna: 1, Ben: 5, Carla: 4}",
        last_trick=f"{{winner: {winner}}}",
    )
    status, out = score(ulti, tmp_path, text)
    assert status == 1
    assert f"last_trick: {winner} won the last trick, worth 10, {says}" in out


# --------------------------------------------------------------------------- uncontested


UNCONTESTED = """\
ruleset: older-20-100
players: [Anna, Ben, Carla]
declarer: Anna
bid: parti
uncontested: true
"""


def test_uncontested_under_rules_that_play_it_out_says_nothing(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """older-20-100 plays an uncontested Simple out: a sheet that says only that it stood
    uncontested believes it was lost double, and is told the flag means nothing here."""
    status, out = score(ulti, tmp_path, UNCONTESTED)
    assert status == 1
    assert (
        "hand.yaml:5:1: uncontested: 'older-20-100' plays an uncontested Simple out like any "
        "other (simple.uncontested: play), so uncontested changes nothing here: leave it out, "
        "and write how the hand was played (trump, points, tricks, last_trick)"
    ) in out
    assert "say which suit was trump" not in out


def test_uncontested_with_the_play_is_settled_by_the_play(ulti: RunUlti, tmp_path: Path) -> None:
    """The engine's contract says a Simple stood uncontested whatever the rules make of
    it, and its sheet says so beside the play: settled by the cards, as without it."""
    played = UNCONTESTED + (
        "trump: bells\npoints: {declarer: 60, defenders: 30}\n"
        "tricks: {Anna: 6, Ben: 2, Carla: 2}\nlast_trick: {winner: Anna}\n"
    )
    with_flag = payments(ulti, tmp_path, played)
    assert with_flag == payments(ulti, tmp_path, played.replace("uncontested: true\n", ""))
    assert with_flag == {"Anna": 2, "Ben": -1, "Carla": -1}


def test_uncontested_and_given_up_is_settled_as_given_up(ulti: RunUlti, tmp_path: Path) -> None:
    """A lone Simple nobody overbid, given up before the first lead (the engine's contract
    says both): no play is needed, under rules that play it out or not."""
    given_up = UNCONTESTED.replace("declarer: Anna", "declarer: Ben") + "gave_up: true\n"
    assert payments(ulti, tmp_path, given_up) == {"Anna": 2, "Ben": -4, "Carla": 2}


# --------------------------------------------------------------------------- flags at their keys


def test_giving_up_where_the_rules_forbid_it_is_refused_at_its_key(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """The Wikipedia standard lets nobody give up: said at gave_up, with what to write."""
    text = "ruleset: wikipedia\nplayers: [Anna, Ben, Carla]\ndeclarer: Ben\nbid: parti\n"
    status, out = score(ulti, tmp_path, text + "gave_up: true\n")
    assert status == 1
    assert (
        "hand.yaml:5:1: gave_up: 'wikipedia' does not allow giving up (simple.give_up_allowed: "
        "false), and a plain Simple ('parti') wins the auction there only as the first bid, left "
        "standing, so it is lost double as uncontested: write uncontested: true instead of gave_up"
    ) in out


def test_a_flag_about_the_plain_simple_on_another_bid_is_refused_at_its_key(
    ulti: RunUlti, tmp_path: Path
) -> None:
    text = UNCONTESTED.replace("bid: parti", "bid: betli")
    status, out = score(ulti, tmp_path, text)
    assert status == 1
    assert (
        "hand.yaml:5:1: uncontested: 'uncontested' is about a plain, non-red Simple nobody "
        "overbid, not 'betli': leave it out"
    ) in out
    given_up = text.replace("uncontested: true", "gave_up: true")
    status, out = score(ulti, tmp_path, given_up)
    assert "hand.yaml:5:1: gave_up: only a plain, non-red, uncombined Simple may be given up" in out
    kontra = UNCONTESTED.replace("uncontested: true", "gave_up: true\nkontra: {parti: 1}")
    status, out = score(ulti, tmp_path, kontra)
    assert status == 1
    assert (
        "hand.yaml:6:1: kontra: a hand given up before the first lead cannot carry a kontra" in out
    )


@pytest.mark.parametrize(
    ("ruleset", "players", "dealer", "forehand"),
    [
        ("wikipedia", "[Anna, Ben, Carla]", "Ben", "Carla"),
        ("four-player", "[Anna, Ben, Carla, Dani]", "Carla", "Dani"),
    ],
)
def test_an_uncontested_simple_is_forehands(
    ulti: RunUlti, tmp_path: Path, ruleset: str, players: str, dealer: str, forehand: str
) -> None:
    """Where the opener must bid, the Simple nobody overbid is forehand's opening bid:
    with the dealer known, nobody else is charged for it (docs/rules.md, The uncontested
    Simple)."""
    text = (
        f"ruleset: {ruleset}\nplayers: {players}\ndealer: {dealer}\n"
        "declarer: Anna\nbid: Simple\nuncontested: true\n"
    )
    status, out = score(ulti, tmp_path, text)
    assert status == 1
    assert (
        f"hand.yaml:4:1: declarer: an uncontested Simple is forehand's opening bid, left "
        f"standing: with {dealer} dealing, {forehand} is forehand and bid first (the opener "
        "must bid here), not Anna"
    ) in out
    paid = payments(ulti, tmp_path, text.replace("declarer: Anna", f"declarer: {forehand}"))
    assert paid[forehand] == -4


def test_an_uncontested_simple_may_be_anyones_where_the_opener_may_pass(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """Where forehand may pass, the one bid of the hand may be a later player's."""
    clubfile = ("club.yaml", "name: club\nextends: wikipedia\nauction: {opener_must_bid: false}\n")
    text = (
        "ruleset: club.yaml\nplayers: [Anna, Ben, Carla]\ndealer: Ben\n"
        "declarer: Anna\nbid: Simple\nuncontested: true\n"
    )
    assert payments(ulti, tmp_path, text, clubfile) == {"Anna": -4, "Ben": 2, "Carla": 2}


def test_one_value_where_a_list_belongs_says_the_list_to_write(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """``marriages: {Anna: bells}`` was "Input should be a valid list", pydantic's words."""
    played = (
        "ruleset: wikipedia\nplayers: [Anna, Ben, Carla]\ndeclarer: Anna\nbid: Simple Hearts\n"
        "points: {declarer: 50, defenders: 40}\ntricks: {Anna: 5, Ben: 3, Carla: 2}\n"
        "last_trick: {winner: Anna}\naces: [Anna, Ben]\n"
    )
    status, said = score(ulti, tmp_path, played + "marriages: {Anna: bells}\n")
    assert (status, said) == (
        1,
        "ulti: error: hand.yaml:9:13: marriages.Anna: should be a list, not text ('bells'): "
        "write [bells]\n",
    )
    status, said = score(ulti, tmp_path, played + "marriages: {Anna: {bells: 1}}\n")
    assert said.endswith("marriages.Anna: should be a list, not a mapping\n")


def test_a_bid_s_name_written_like_an_id_is_answered_with_its_id(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """``ulti_hearts`` is "Ulti Hearts" written like an id; spelling alone suggested
    ``ulti_durchmars``."""
    status, said = score(
        ulti,
        tmp_path,
        "ruleset: wikipedia\nplayers: [Anna, Ben, Carla]\ndeclarer: Anna\nbid: ulti_hearts\n",
    )
    assert (status, said) == (
        1,
        "ulti: error: hand.yaml:4:1: bid: 'ulti_hearts' is not a bid of 'wikipedia' (did you "
        "mean 'ulti_red'?); `ulti ladder` lists them\n",
    )
