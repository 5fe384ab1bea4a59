"""Faults an API review found in records and replay.

- A ruleset the record names that is not found or does not load (a club file that is
  not there or is wrong, a plugin it needs not installed) raised RulesetError: replay
  is documented to give a finished Hand or RecordError. Now a RecordError at the
  record's ``ruleset:`` line, keeping the ruleset's own problems and their places.
- ``replay(record, ruleset=...)`` crashed on a Game (AttributeError) and a name.
- Unknown keys under ``facts:`` were kept as declared facts (``talon_pointz: 0``).
- Deal errors were placed at ``deal:``, not at the line edited.
- ``ulti replay --ruleset X --ignore-hash`` printed the record's ruleset name beside X's
  title.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from ulti_rules import plugins
from ulti_rules.bots import SimpleBidder, play_out
from ulti_rules.engine import Hand
from ulti_rules.errors import RulesetError
from ulti_rules.plugins import build_registry, new_manager
from ulti_rules.records import RecordError, load_record, record_of, replay, save
from ulti_rules.ruleset.loading import load_game, load_ruleset

from conftest import RunUlti

RULESET_LINE = 2  # format: first, then ruleset:


def played(name: str = "wikipedia", seed: int = 11, dealer: int | None = None) -> Hand:
    rules = load_ruleset(name)
    seat = seed % rules.players.count if dealer is None else dealer
    hand = Hand(rules, seed=seed, dealer=seat)
    return play_out(hand, SimpleBidder(), random.Random(seed))


def saved(folder: Path, name: str = "wikipedia", seed: int = 11, **kw: int) -> Path:
    path = folder / "hand.yaml"
    save(record_of(played(name, seed, **kw), name), path)
    return path


def edited(path: Path, old: str, new: str) -> list[str]:
    """Replace the first line that starts with ``old`` (its start) by ``new``."""
    lines = path.read_text("utf-8").split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith(old))
    lines[index] = new + lines[index][len(old) :]
    path.write_text("\n".join(lines), "utf-8")
    return lines


def refused(path: Path) -> RecordError:
    with pytest.raises(RecordError) as caught:
        replay(load_record(path))
    return caught.value


def line_of(lines: list[str], start: str) -> int:
    return next(i for i, line in enumerate(lines) if line.startswith(start)) + 1


def hand_lines(lines: list[str]) -> list[int]:
    """The indices of the deal's hand lines, seat 0 first."""
    rest = line_of(lines, "  rest:") - 1
    return [i for i, line in enumerate(lines[:rest]) if line.startswith("  - ")]


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A process registry built (without plugins, say) in the test does not outlive it."""
    monkeypatch.setattr(plugins, "_manager", None)
    monkeypatch.setattr(plugins, "_registry", None)
    yield


# --------------------------------------------------------------------------- the named ruleset


def test_a_club_file_that_is_not_there_is_a_record_error_at_the_ruleset_line(
    tmp_path: Path,
) -> None:
    path = saved(tmp_path)
    edited(path, "ruleset: wikipedia", "ruleset: club.yaml")
    (problem,) = refused(path).problems
    assert (problem.file, problem.line, problem.column) == (str(path), RULESET_LINE, 1)
    assert problem.message.startswith(f"no such file: {tmp_path / 'club.yaml'}: the record")


def test_a_wrong_club_file_is_a_record_error_saying_where_in_it(tmp_path: Path) -> None:
    path = saved(tmp_path)
    edited(path, "ruleset: wikipedia", "ruleset: club.yaml")
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: wikipedia\nkontra: {max_level: lots}\nzzz: 1\n",
        "utf-8",
    )
    error = refused(path)
    assert isinstance(error.__cause__, RulesetError)  # its problems, as they were
    assert len(error.problems) == len(error.__cause__.problems) == 2
    for problem, own in zip(error.problems, error.__cause__.problems, strict=True):
        assert (problem.file, problem.line) == (str(path), RULESET_LINE)
        assert problem.message == f"the ruleset 'club.yaml' does not load: {own}"
    assert {p.line for p in error.__cause__.problems} == {4, 5}


def test_a_missing_plugin_is_a_record_error_at_the_ruleset_line(tmp_path: Path) -> None:
    path = saved(tmp_path)
    bare = build_registry(new_manager(autoload=False))
    with pytest.raises(RecordError) as caught:
        replay(load_record(path, bare), registry=bare)
    (problem,) = caught.value.problems
    assert (problem.file, problem.line) == (str(path), RULESET_LINE)
    assert problem.message.startswith("the ruleset 'wikipedia' does not load: ")
    assert "wikipedia.yaml:" in problem.message
    assert "with.0: no fragment named 'four-aces'" in problem.message


def test_ulti_replay_says_a_wrong_club_file_at_both_places(tmp_path: Path, ulti: RunUlti) -> None:
    path = saved(tmp_path)
    edited(path, "ruleset: wikipedia", "ruleset: club.yaml")
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: wikipedia\nkontra: {max_level: lots}\nzzz: 1\n",
        "utf-8",
    )
    done = ulti("replay", "hand.yaml")
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 3 and lines[-1] == "ulti: error: 2 problems in the ruleset"
    assert lines[0].startswith("hand.yaml:2:1: the ruleset 'club.yaml' does not load: ")
    assert "club.yaml:4:" in lines[0] and "club.yaml:5:1: zzz: " in lines[1]


def test_ulti_replay_without_the_plugin_says_so_at_the_ruleset_line(
    tmp_path: Path, ulti: RunUlti, fresh_registry: None
) -> None:
    path = saved(tmp_path)  # wikipedia takes the Four Aces plugin's fragment
    plugins._manager = plugins._registry = None  # built again, without plugins
    done = ulti("replay", "hand.yaml", env={"ULTI_RULES_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert done.returncode == 1
    assert done.stderr.startswith(
        "ulti: error: hand.yaml:2:1: the ruleset 'wikipedia' does not load: "
    ), done.stderr
    assert "no fragment named 'four-aces'" in done.stderr
    assert path.exists()


# --------------------------------------------------------------------------- replay(ruleset=)


def test_replay_takes_a_game() -> None:
    hand = played()
    record = record_of(hand, "wikipedia")
    again = replay(record, load_game("wikipedia"))
    assert again.history == hand.history and again.facts == hand.facts


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("wikipedia", "not the name 'wikipedia': load_game('wikipedia') gives its game"),
        (Path("club.yaml"), "not the path 'club.yaml': load_game('club.yaml') gives its"),
        (5, 'not int 5: load_game("wikipedia") gives the game of a ruleset by name; or leave'),
    ],
)
def test_replay_says_what_to_pass_for_anything_else(given: object, said: str) -> None:
    record = record_of(played(), "wikipedia")
    with pytest.raises(TypeError) as caught:
        replay(record, given)  # type: ignore[arg-type]
    assert str(caught.value).startswith("replay takes a Game or a Ruleset as ruleset, ")
    assert said in str(caught.value)
    assert str(caught.value).endswith("or leave ruleset out for the one the record names")


# --------------------------------------------------------------------------- facts


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("  talon_points:", "  talon_pointz:", "'talon_pointz' (did you mean 'talon_points'?)"),
        ("  marriages:", "  marriage:", "'marriage' (did you mean 'marriages'?)"),
        (
            "  declarer_points:",
            "  declarer_pointz:",
            "'declarer_pointz' (did you mean 'declarer_points'?)",
        ),
        ("  ace_winners:", "  ace_winner:", "'ace_winner' (did you mean 'ace_winners'?)"),
    ],
)
def test_an_unknown_key_under_facts_is_refused_at_its_line(
    tmp_path: Path, old: str, new: str, said: str
) -> None:
    path = saved(tmp_path)
    lines = edited(path, old, new)
    with pytest.raises(RecordError) as caught:
        load_record(path)
    at = [p for p in caught.value.problems if p.line == line_of(lines, new)]
    assert [p.message for p in at] == [f"unknown key {said} (see docs/records.md)"]


def test_a_declared_fact_in_another_shape_is_one_problem(tmp_path: Path) -> None:
    path = saved(tmp_path)
    text = path.read_text("utf-8")
    assert "\n  ace_winners: [" in text
    lines = edited(path, "  ace_winners:", "  ace_winners: [P3, P3, P2, P1] #")
    lines = edited(path, "  marriages:", "  zzz: {a: [1, 2]}\n  marriages:")
    with pytest.raises(RecordError) as caught:
        load_record(path)
    lines = path.read_text("utf-8").split("\n")
    assert [(p.line, p.message) for p in caught.value.problems] == [
        (line_of(lines, "  zzz:"), "unknown key 'zzz' (see docs/records.md)"),
        (
            line_of(lines, "  ace_winners:"),
            'write it like ace_winners: [0, 2, 2, 1] (not ["P3", "P3", "P2", "P1"])',
        ),
    ]


def test_records_of_ace_winners_still_read_without_the_plugin(tmp_path: Path) -> None:
    """Records stated who took the aces before facts were declared, under every ruleset."""
    path = saved(tmp_path)
    bare = build_registry(new_manager(autoload=False))
    record = load_record(path, bare)
    assert record.facts is not None and "ace_winners" in record.facts.extra


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("1.5", "not a decimal number (1.5)"),
        ("2.0", "not a decimal number (2.0); write it without the decimal point: 2"),
        ("true", "not true/false"),
        ("[1]", "not a list"),
    ],
)
def test_a_seed_that_is_no_seed_is_one_problem_at_its_line(
    tmp_path: Path, ulti: RunUlti, written: str, said: str
) -> None:
    """``seed: 1.5`` was two problems in pydantic's words (not an integer, not a string),
    and ``seed: true`` or ``seed: 2.0`` was taken for seed 1 or 2: the deal then was "not
    the one seed 1 deals", of a seed nobody wrote."""
    path = saved(tmp_path)
    lines = edited(path, "seed: ", f"seed: {written} #")
    (problem,) = refused(path).problems
    assert problem.line == line_of(lines, "seed: ")
    assert problem.message == f"should be a whole number or a text, {said}"
    done = ulti("replay", str(path))
    assert done.returncode == 1
    assert done.stderr == (
        f"ulti: error: {path}:{problem.line}:1: seed: should be a whole number or a text, {said}\n"
    )


# --------------------------------------------------------------------------- the deal


def test_a_dealer_who_is_no_seat_is_refused_at_the_dealer_line(tmp_path: Path) -> None:
    path = saved(tmp_path)
    lines = edited(path, "dealer: ", "dealer: 9 #")
    (problem,) = refused(path).problems
    assert problem.line == line_of(lines, "dealer: ") == 5
    assert problem.message == "the dealer must be a seat from 0 to 2, not 9"


def test_a_seat_dealt_nine_cards_is_refused_at_its_hand_line(tmp_path: Path) -> None:
    path = saved(tmp_path)
    lines = path.read_text("utf-8").split("\n")
    hands = hand_lines(lines)
    short = next(i for i in hands if len(lines[i].split()) == 11)  # "-" and ten cards
    assert lines[hands[-1] + 1] == "  rest: ''"
    card = lines[short].split()[-1]
    lines[short] = lines[short].rsplit(" ", 1)[0]
    lines[hands[-1] + 1] = f"  rest: {card}"
    path.write_text("\n".join(lines), "utf-8")
    (problem,) = refused(path).problems
    assert problem.line == short + 1
    assert problem.message.endswith("must be dealt 10 cards, not 9")


def test_a_card_dealt_to_the_dealer_who_sits_out_is_refused_at_that_hand(
    tmp_path: Path,
) -> None:
    path = saved(tmp_path, "four-player", seed=5, dealer=0)
    lines = path.read_text("utf-8").split("\n")
    hands = hand_lines(lines)
    assert lines[hands[0]] == "  - ''"  # the dealer's, seat 0
    card = lines[hands[1]].split()[-1]
    lines[hands[1]] = lines[hands[1]].rsplit(" ", 1)[0]
    lines[hands[0]] = f"  - {card}"
    path.write_text("\n".join(lines), "utf-8")
    (problem,) = refused(path).problems
    assert problem.line == hands[0] + 1
    assert problem.message == "the deal: seat 0 deals and sits out, so it holds no cards"


# --------------------------------------------------------------------------- ulti replay


def test_the_header_names_the_ruleset_replayed_under(tmp_path: Path, ulti: RunUlti) -> None:
    saved(tmp_path)
    done = ulti("replay", "hand.yaml", "--ruleset", "tournament", "--ignore-hash")
    assert done.returncode == 0, done.stderr
    title = load_ruleset("tournament").title_in("en")
    assert f"\nRuleset: tournament — {title}\n" in done.stdout
    assert "Ruleset: wikipedia" not in done.stdout
    assert "replayed under 'tournament', whose rules are not those of 'wikipedia'" in done.stderr
    done = ulti("replay", "hand.yaml")
    assert done.returncode == 0, done.stderr
    assert "\nRuleset: wikipedia — Wikipedia standard" in done.stdout
