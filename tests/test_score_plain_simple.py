"""A plain Simple the rules lose double, and that can only stand uncontested, is never
settled from its cards.

Where ``simple.uncontested: lose_double`` and no bid ranks below the plain Simple (the
Wikipedia standard and what is built on it), an overcall must rank strictly higher, so
the Simple wins the auction only as the first bid, left standing: a sheet that gives it
without ``uncontested: true`` describes a hand that cannot happen, and is refused at
``bid`` (docs/score-keeper.md). Where a club adds a bid below the Simple, the Simple may
overcall it, and is then played like any other.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import yaml
from ulti_rules import settle
from ulti_rules.engine import Bid, Discard, Hand, Pass, PickUp
from ulti_rules.game import Game
from ulti_rules.records import record_of, save
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring.table_facts import only_uncontested, settle_sheet, sheet_from

from conftest import RunUlti

PLAY = (
    "trump: bells\npoints: {declarer: 80, defenders: 10}\n"
    "tricks: {Anna: 8, Ben: 1, Carla: 1}\nlast_trick: {winner: Anna, trump_seven: Anna}\n"
    "marriages: {Anna: [leaves]}\naces: [Anna, Carla]\n"
)
"""The reviewer's hand: 80 and a 20, the trump 7 in the last trick (silent 100 and Ulti)."""
REFUSED = (
    "bid: a plain Simple ('parti') wins the auction in '{name}' only as the first bid, "
    "left standing (no bid ranks below it), so it is always uncontested, and lost "
    "double {how} (simple.uncontested: lose_double): write uncontested: true"
)
UNPLAYED = "without being played"
LEAVE_OUT = ", and leave out how it was played (trump, points, tricks, last_trick ...)"
LITTLE_BETLI = (
    "contracts:\n"
    "  little_betli: {kind: betli, names: {hu: kis betli, en: Little Betli}, value: 1}\n"
)
EQUAL_CLUB = (
    "name: equal\ntitle: A Betli as cheap as the Simple\nextends: wikipedia\n"
    + LITTLE_BETLI
    + "ladder:\n  little_betli: {rank: 1, after: parti, components: [little_betli], "
    "names: {hu: kis betli, en: Little Betli}}\n"
)
"""A bid of the Simple's rank: equal ranks exclude each other, so it cannot precede it."""
BELOW_CLUB = (
    "name: below\ntitle: A Betli below the Simple\nextends: wikipedia\nranking: value\n"
    + LITTLE_BETLI
    + "  parti: {value: 2}\nladder:\n  little_betli: {components: [little_betli], "
    "names: {hu: kis betli, en: Little Betli}}\n"
)
"""A bid ranked below the Simple: the Simple may overcall it, and is then contested."""


def write(tmp_path: Path, text: str, *clubs: tuple[str, str]) -> None:
    for name, content in clubs:
        (tmp_path / name).write_text(content, "utf-8")
    (tmp_path / "hand.yaml").write_text(text, "utf-8")


def simple(ruleset: str, extra: str = PLAY, players: str = "[Anna, Ben, Carla]") -> str:
    head = f"ruleset: {ruleset}\nplayers: {players}\n"
    if players.count(",") == 3:
        head += "dealer: Dani\n"
    return head + "declarer: Anna\nbid: Simple\n" + extra


def refused(ulti: RunUlti, tmp_path: Path, text: str, *clubs: tuple[str, str]) -> str:
    write(tmp_path, text, *clubs)
    done = ulti("score", "hand.yaml")
    assert done.returncode == 1, done.stdout
    return done.stderr


def paid(ulti: RunUlti, tmp_path: Path, text: str, *clubs: tuple[str, str]) -> dict[str, int]:
    write(tmp_path, text, *clubs)
    done = ulti("score", "hand.yaml", "--json")
    assert done.returncode == 0, done.stderr
    payments: dict[str, int] = json.loads(done.stdout)["payments"]
    return payments


@pytest.mark.parametrize(
    ("ruleset", "players", "clubs"),
    [
        ("wikipedia", "[Anna, Ben, Carla]", ()),
        ("tournament", "[Anna, Ben, Carla]", ()),
        ("four-player", "[Anna, Ben, Carla, Dani]", ()),
        ("two-round-auction", "[Anna, Ben, Carla]", ()),
        ("club.yaml", "[Anna, Ben, Carla]", (("club.yaml", "name: club\nextends: wikipedia\n"),)),
        ("equal.yaml", "[Anna, Ben, Carla]", (("equal.yaml", EQUAL_CLUB),)),
    ],
)
def test_a_plain_simple_settled_from_its_cards_is_refused_at_its_bid(
    ulti: RunUlti, tmp_path: Path, ruleset: str, players: str, clubs: tuple[tuple[str, str]]
) -> None:
    """The reviewer's sheet paid the declarer +10 where the rules give -4: refused, with
    what to write instead, and nothing else (not the trump, which the hand never had)."""
    name = ruleset.removesuffix(".yaml")
    out = refused(ulti, tmp_path, simple(ruleset, players=players), *clubs)
    line = 5 if name == "four-player" else 4
    message = REFUSED.format(name=name, how=UNPLAYED) + LEAVE_OUT
    assert out == f"ulti: error: hand.yaml:{line}:1: {message}\n"
    bare = refused(ulti, tmp_path, simple(ruleset, "", players), *clubs)
    assert "say which suit was trump" not in bare
    assert "write uncontested: true" in bare


def test_uncontested_written_false_is_refused_at_its_key(ulti: RunUlti, tmp_path: Path) -> None:
    out = refused(ulti, tmp_path, simple("wikipedia", "uncontested: false\n" + PLAY))
    assert "hand.yaml:5:1: uncontested: a plain Simple ('parti') wins" in out


def test_written_uncontested_it_is_lost_double(ulti: RunUlti, tmp_path: Path) -> None:
    """2 per defender, whatever the cards: the silent bonuses of the sheet above never were."""
    lost = {"Anna": -4, "Ben": 2, "Carla": 2}
    assert paid(ulti, tmp_path, simple("wikipedia", "uncontested: true\n")) == lost
    four = simple("four-player", "uncontested: true\n", "[Anna, Ben, Carla, Dani]")
    assert paid(ulti, tmp_path, four) == {**lost, "Dani": 0}


def test_where_the_uncontested_simple_is_played_out_only_the_flag_is_asked(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """``uncontested_played_out: true``: the hand is played, and still lost double."""
    club = ("club.yaml", "name: club\nextends: wikipedia\nsimple: {uncontested_played_out: true}\n")
    out = refused(ulti, tmp_path, simple("club.yaml"), club)
    assert REFUSED.format(name="club", how="whatever the cards say") + "\n" in out
    flagged = simple("club.yaml", "uncontested: true\n" + PLAY)
    assert paid(ulti, tmp_path, flagged, club) == {"Anna": -4, "Ben": 2, "Carla": 2}


def test_a_simple_that_may_be_contested_is_settled_from_its_cards(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """older-20-100 plays an uncontested Simple out (simple.uncontested: play), and below a
    Little Betli the Simple may overcall, so neither sheet says anything impossible."""
    # Simple 1 made; the silent 100 makes it 2, the silent Ulti adds 2: 4 per defender
    older = simple("older-20-100").replace("aces: [Anna, Carla]\n", "")
    assert paid(ulti, tmp_path, older) == {"Anna": 8, "Ben": -4, "Carla": -4}
    # the Simple is worth 2 there: 2 + silent 100 2 + silent Ulti 2
    below = paid(ulti, tmp_path, simple("below.yaml"), ("below.yaml", BELOW_CLUB))
    assert below == {"Anna": 12, "Ben": -6, "Carla": -6}


def test_a_red_simple_or_a_hand_given_up_is_not_asked_about(ulti: RunUlti, tmp_path: Path) -> None:
    """A red Simple may overcall another bid, and a hand given up is settled as given up:
    neither is asked for the flag."""
    red = simple("wikipedia", PLAY.replace("bells", "hearts"))
    red = red.replace("bid: Simple\n", "bid: Simple Hearts\n")
    assert paid(ulti, tmp_path, red) == {"Anna": 20, "Ben": -10, "Carla": -10}
    club = (  # played out, so the declarer has a turn to give up (tests/test_give_up_turn.py)
        "club.yaml",
        "name: club\nextends: wikipedia\n"
        "simple: {give_up_allowed: true, uncontested_played_out: true}\n",
    )
    given_up = simple("club.yaml", "gave_up: true\n")
    assert paid(ulti, tmp_path, given_up, club) == {"Anna": -4, "Ben": 2, "Carla": 2}


def test_the_condition_follows_the_rules_not_their_names(tmp_path: Path) -> None:
    """``only_uncontested`` for the plain Simple of each ruleset; a two-round auction that
    overcalls a round-1 bid by value is not assumed (a Simple may follow a round-1 bid)."""
    (tmp_path / "equal.yaml").write_text(EQUAL_CLUB, "utf-8")
    (tmp_path / "below.yaml").write_text(BELOW_CLUB, "utf-8")
    by_value = "name: v\nextends: two-round-auction\nauction: {two_round: {overcall_by: value}}\n"
    (tmp_path / "by-value.yaml").write_text(by_value, "utf-8")
    expected = {
        "wikipedia": True,
        "tournament": True,
        "four-player": True,
        "two-round-auction": True,
        "older-20-100": False,
        str(tmp_path / "equal.yaml"): True,
        str(tmp_path / "below.yaml"): False,
        str(tmp_path / "by-value.yaml"): False,
    }
    for name, always in expected.items():
        game = Game.of(load_ruleset(name))
        assert only_uncontested(game, game.bid("parti")) is always, name
        assert not only_uncontested(game, game.bid("parti_red")), name


def play(rules: str, seed: int, bids: list[str]) -> Hand:
    """A hand in which the given bids are made in turn, each by the next player who may
    (picking up the talon for it where he must), everyone passes otherwise, and the cards
    are played at random."""
    rng = random.Random(seed)
    hand = Hand(load_ruleset(rules), seed=seed, dealer=0)
    wanted = list(bids)
    while not hand.is_over:
        legal = hand.legal_actions()
        offered = {a.bid: a for a in legal if isinstance(a, Bid)}
        pick_up = [a for a in legal if isinstance(a, PickUp)]
        discards = [a for a in legal if isinstance(a, Discard)]
        passes = [a for a in legal if isinstance(a, Pass)]
        if wanted and wanted[0] in offered:
            action: object = offered[wanted.pop(0)]
        elif wanted and len(wanted) < len(bids) and pick_up:
            action = pick_up[0]
        elif discards:
            action = rng.choice(discards)
        else:
            action = passes[0] if passes else rng.choice(legal)
        hand.apply(action)  # type: ignore[arg-type]
    return hand


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_engines_simple_left_standing_is_accepted_from_its_record(
    tmp_path: Path, ulti: RunUlti, seed: int
) -> None:
    """An engine hand of forehand's lone Simple: its sheet says uncontested (and nothing of
    the play), and its record goes into a ledger, both settled as the engine settles it."""
    hand = play("wikipedia", seed, ["parti"])
    contract = hand.contract
    assert contract is not None and contract.bid == "parti" and contract.uncontested
    names = ["Anna", "Ben", "Carla"]
    document = sheet_from(hand.ruleset, contract, hand.facts, players=names, dealer=hand.dealer)
    assert document["uncontested"] is True and "points" not in document
    (tmp_path / "sheet.yaml").write_text(yaml.safe_dump(document), "utf-8")
    _, typed = settle_sheet(tmp_path / "sheet.yaml")
    assert typed == settle(hand.ruleset, contract, hand.facts)
    made = ulti("ledger", "new", "s.json", "--ruleset", "wikipedia", "--players", "Anna,Ben,Carla")
    assert made.returncode == 0, made.stderr
    save(record_of(hand, "wikipedia", players=names), tmp_path / "hand.yaml")
    added = ulti("ledger", "add", "s.json", "hand.yaml", "--json")
    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout)["settlement"] == typed.to_dict()


@pytest.mark.parametrize("seed", [4, 5])
def test_a_simple_that_overcalled_a_lower_bid_is_played_and_accepted(
    tmp_path: Path, seed: int
) -> None:
    """Below a Little Betli the engine lets the Simple overcall it: contested, played, and
    its sheet (no uncontested flag) settles as the engine settles it."""
    (tmp_path / "below.yaml").write_text(BELOW_CLUB, "utf-8")
    hand = play(str(tmp_path / "below.yaml"), seed, ["little_betli", "parti"])
    contract = hand.contract
    assert contract is not None and contract.bid == "parti" and not contract.uncontested
    document = sheet_from(hand.ruleset, contract, hand.facts, ruleset_ref="below.yaml")
    assert "uncontested" not in document and "points" in document
    (tmp_path / "sheet.yaml").write_text(yaml.safe_dump(document), "utf-8")
    _, typed = settle_sheet(tmp_path / "sheet.yaml")
    assert typed == settle(hand.ruleset, contract, hand.facts)


ROUND_ONE = (
    "round 1 of the two-round auction cannot be passed out in '{name}' "
    "(auction.two_round.opener_must_bid), so a Simple nobody overbid is the round-1 opening "
    "bid, left standing, and counts ×2: write round_one: true"
)


def test_a_two_round_uncontested_simple_is_a_round_one_bid(ulti: RunUlti, tmp_path: Path) -> None:
    """The first bid of a two-round auction is made in round 1 and counts double there, so
    the engine loses an uncontested Simple 4 per defender: the score keeper paid 2, as if
    the flag did not follow. Asked for, at ``uncontested`` (or ``round_one: false``)."""
    flagged = simple("two-round-auction", "uncontested: true\n")
    out = refused(ulti, tmp_path, flagged)
    said = ROUND_ONE.format(name="two-round-auction")
    assert out == f"ulti: error: hand.yaml:5:1: uncontested: {said}\n"
    out = refused(ulti, tmp_path, flagged + "round_one: false\n")
    assert "hand.yaml:6:1: round_one: round 1 of the two-round auction" in out
    assert paid(ulti, tmp_path, flagged + "round_one: true\n") == {"Anna": -8, "Ben": 4, "Carla": 4}
    # where round 1 may be passed out, the usual auction that follows has no ×2
    club = (
        "club.yaml",
        "name: club\nextends: two-round-auction\nauction: {two_round: {opener_must_bid: false}}\n",
    )
    loose = simple("club.yaml", "uncontested: true\n")
    assert paid(ulti, tmp_path, loose, club) == {"Anna": -4, "Ben": 2, "Carla": 2}


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "uncontested plain Simple: lost double, and ×2 as a round-1 bid"),
        ("hu", "egyedül maradt parti: dupla bukás, és első körös bemondásként ×2"),
        ("de", "Parti ohne Gegengebot: doppelt verloren, und ×2 als Gebot aus Runde 1"),
    ],
)
def test_the_round_one_factor_of_a_simple_lost_double_is_said(
    ulti: RunUlti, tmp_path: Path, lang: str, said: str
) -> None:
    """Its line is ×4 and said only "lost double": where the other ×2 came from was left
    to the table to guess (found by a settlement review)."""
    write(tmp_path, simple("two-round-auction", "uncontested: true\nround_one: true\n"))
    _, settlement = settle_sheet(tmp_path / "hand.yaml")
    (line,) = settlement.lines
    assert (line.multiplier, line.note) == (
        4,
        "uncontested plain Simple: lost double, and ×2 as a round-1 bid",
    )
    done = ulti("score", "hand.yaml", "--lang", lang, env={"COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert f"(×4) — {said} " in done.stdout
    write(tmp_path, simple("wikipedia", "uncontested: true\n"))
    _, settlement = settle_sheet(tmp_path / "hand.yaml")
    (line,) = settlement.lines
    assert (line.multiplier, line.note) == (2, "uncontested plain Simple: lost double")


@pytest.mark.parametrize("seed", [1, 2])
def test_the_engines_two_round_simple_left_standing_settles_alike(
    tmp_path: Path, seed: int
) -> None:
    """Forehand's round-1 Simple, confirmed and left standing: the engine's ×2, which
    the sheet made of its contract carries, and both settle it alike."""
    rng = random.Random(seed)
    hand = Hand(load_ruleset("two-round-auction"), seed=seed, dealer=0)
    while not hand.is_over:
        legal = hand.legal_actions()
        passes = [a for a in legal if isinstance(a, Pass)]
        simples = [a for a in legal if isinstance(a, Bid) and a.bid == "parti"]
        discards = [a for a in legal if isinstance(a, Discard)]
        action = (passes or simples or discards or [rng.choice(legal)])[0]
        hand.apply(rng.choice(discards) if action in discards else action)
    contract = hand.contract
    assert contract is not None and contract.uncontested and contract.multiplier == 2
    document = sheet_from(hand.ruleset, contract, hand.facts, dealer=hand.dealer)
    assert document["round_one"] is True
    (tmp_path / "sheet.yaml").write_text(yaml.safe_dump(document), "utf-8")
    _, typed = settle_sheet(tmp_path / "sheet.yaml")
    assert typed == settle(hand.ruleset, contract, hand.facts)
    assert typed.payments[contract.declarer] == -8


def test_a_simple_that_only_the_first_bid_can_be_is_forehands(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """older-20-100 plays the plain Simple out and does not ask for ``uncontested``, but
    no bid ranks below it and the opener must bid: it is forehand's opening bid, left
    standing, and a ledger took it from the dealer five times in a row."""
    played = simple("older-20-100").replace("aces: [Anna, Carla]\n", "")
    dealt = played.replace("declarer: Anna\n", "dealer: Anna\ndeclarer: Anna\n")
    out = refused(ulti, tmp_path, dealt)
    assert out == (
        "ulti: error: hand.yaml:4:1: declarer: a plain Simple ('parti') wins the auction in "
        "'older-20-100' only as the first bid, left standing (no bid ranks below it), which "
        "is forehand's: with Anna dealing, Ben is forehand and bid first (the opener must bid "
        "here), not Anna\n"
    )
    forehand = dealt.replace("dealer: Anna", "dealer: Carla")
    assert paid(ulti, tmp_path, forehand) == {"Anna": 8, "Ben": -4, "Carla": -4}
    # below a Little Betli the Simple may overcall it, from any seat
    below = simple("below.yaml").replace("declarer: Anna\n", "dealer: Anna\ndeclarer: Anna\n")
    assert paid(ulti, tmp_path, below, ("below.yaml", BELOW_CLUB))["Anna"] == 12


def test_a_simple_given_up_where_it_is_always_uncontested_is_told_so(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """The advice was "write how the hand was played", which the next run refused: under
    wikipedia a plain Simple is never played."""
    out = refused(ulti, tmp_path, simple("wikipedia", "gave_up: true\n"))
    assert "write uncontested: true instead of gave_up" in out
    assert "write how the hand was played" not in out
    ulti_given_up = simple("wikipedia", "gave_up: true\n").replace("bid: Simple", "bid: ulti")
    assert "leave gave_up out, and write how the hand was played" in refused(
        ulti, tmp_path, ulti_given_up
    )


def test_a_played_two_round_simple_only_the_first_bid_can_be_is_a_round_one_bid(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """A club that plays the uncontested Simple out on the two-round auction: the Simple
    is still round 1's opening bid, and its sheet without `round_one` was paid half."""
    club = (
        "club.yaml",
        "name: club\nextends: two-round-auction\nsimple: {uncontested: play}\n",
    )
    played = simple("club.yaml").replace("declarer: Anna\n", "dealer: Carla\ndeclarer: Anna\n")
    out = refused(ulti, tmp_path, played, club)
    assert out.startswith("ulti: error: hand.yaml:5:1: bid: round 1 of the two-round auction")
    # the Simple's 1 doubled, the silent 100 and the silent Ulti 2 each (not doubled)
    assert paid(ulti, tmp_path, played + "round_one: true\n", club) == {
        "Anna": 12,
        "Ben": -6,
        "Carla": -6,
    }
