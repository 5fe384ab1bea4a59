"""One error shape for every reader: a ruleset, a score sheet, a hand record and a ledger
each refuse a bad document with a ProblemsError whose ``problems`` are positioned at the
keys that hold them, whose message is those problems one a line, and which ``ulti``
reports the same way (one line, or one a line and their count)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from ulti_rules.bots import SimpleBidder, play_out
from ulti_rules.cli import main
from ulti_rules.cli.common import DEBUG_ENV, UltiGroup
from ulti_rules.engine import Hand
from ulti_rules.errors import Problem, ProblemsError, RulesetError
from ulti_rules.records import RecordError, load_record, record_of, replay, save
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring.ledger import LedgerError
from ulti_rules.scoring.ledger_file import load_ledger
from ulti_rules.scoring.sheet import SheetError, read_sheet

from ledger_support import two_hand_session
from settlement_support import ULTI_SHEET


def raised(kind: type[ProblemsError], read: Callable[[], object]) -> ProblemsError:
    """The error ``read()`` raises, checked to be of the one shape."""
    with pytest.raises(kind) as caught:
        read()
    error = caught.value
    assert isinstance(error, ProblemsError)
    assert str(error).splitlines() == [str(problem) for problem in error.problems]
    return error


def lines_of(problems: list[Problem]) -> list[tuple[int | None, str, str]]:
    return [(p.line, p.path, p.message) for p in problems]


# --------------------------------------------------------------------------- each reader


def test_a_bad_ruleset(tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    path.write_text(
        "extends: wikipedia\nname: club\nkontra:\n  max_levle: 3\ndeal:\n  hand_size: many\n",
        "utf-8",
    )
    error = raised(RulesetError, lambda: load_ruleset(path))
    assert all(p.file == str(path) and p.line is not None for p in error.problems)
    assert [p.path for p in error.problems] == ["kontra.max_levle", "deal.hand_size"]
    assert error.problems[0].line == 4 and "did you mean 'max_level'" in str(error)


def test_a_bad_sheet(tmp_path: Path) -> None:
    path = tmp_path / "sheet.yaml"
    text = ULTI_SHEET.replace("trump: acorns\n", "trump: acorns\ntriks: 3\n")
    path.write_text(text.replace("declarer: Anna", "declarer: [Anna]"), "utf-8")
    error = raised(SheetError, lambda: read_sheet(path))
    assert lines_of(error.problems) == [
        (3, "declarer", "should be text, not a list"),
        (6, "triks", "unknown key 'triks' (did you mean 'tricks'?) (see docs/score-keeper.md)"),
    ]
    assert {p.file for p in error.problems} == {str(path)}


def test_a_bad_record(tmp_path: Path) -> None:
    hand = play_out(Hand(load_ruleset("wikipedia"), seed=3), SimpleBidder(), random.Random(3))
    path = save(record_of(hand, "wikipedia"), tmp_path / "hand.yaml")
    text = path.read_text("utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("dealer:", "colour: red\ndealer:", 1), "utf-8")
    error = raised(RecordError, lambda: load_record(bad))
    line = text.splitlines().index(next(s for s in text.splitlines() if s.startswith("dealer")))
    assert lines_of(error.problems) == [
        (line + 1, "colour", "unknown key 'colour' (see docs/records.md)")
    ]


def test_a_record_that_does_not_replay_is_refused_at_the_action(tmp_path: Path) -> None:
    hand = play_out(Hand(load_ruleset("wikipedia"), seed=3), SimpleBidder(), random.Random(3))
    data = record_of(hand, "wikipedia").to_data()
    first = data["actions"][0]
    first["seat"] = (first["seat"] + 1) % 3
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(data, indent=2), "utf-8")
    record = load_record(path)
    error = raised(RecordError, lambda: replay(record))
    (problem,) = error.problems
    assert problem.file == str(path) and problem.line is not None and problem.column is not None
    assert problem.message.startswith("action 0 (")
    assert str(problem).startswith(f"{path}:{problem.line}:{problem.column}: action 0 (")


def test_a_record_made_in_memory_names_each_key_in_no_file() -> None:
    hand = play_out(Hand(load_ruleset("wikipedia"), seed=1), SimpleBidder(), random.Random(1))
    error = raised(
        RecordError, lambda: record_of(hand, "wikipedia", players=["A" * 41, " ", "Carla"])
    )
    assert [(p.file, p.line, p.path) for p in error.problems] == [
        ("", None, "players.0"),
        ("", None, "players.1"),
    ]


def test_a_bad_ledger(tmp_path: Path) -> None:
    path, _ = two_hand_session(tmp_path)
    data = json.loads(path.read_text("utf-8"))
    data["hands"][1]["number"] = 7
    data["hands"][0]["colour"] = "red"
    path.write_text(json.dumps(data, indent=2), "utf-8")
    error = raised(LedgerError, lambda: load_ledger(path))
    assert [p.path for p in error.problems] == ["hands.0.colour"]
    assert error.problems[0].line is not None
    assert error.problems[0].message == "unknown key 'colour' (see docs/ledger.md)"
    del data["hands"][0]["colour"]
    path.write_text(json.dumps(data, indent=2), "utf-8")
    error = raised(LedgerError, lambda: load_ledger(path))
    assert lines_of(error.problems)[0][1:] == (
        "hands.1.number",
        "this is hand 2 of the session, not 7",
    )
    assert all(p.line is not None for p in error.problems)


def test_problems_are_ordered_by_position_on_request() -> None:
    late, early = Problem("f", 9, 1, "b", "late"), Problem("f", 2, 5, "a", "early")
    assert ProblemsError([late, early]).problems == [late, early]
    assert ProblemsError([late, early], ordered=True).problems == [early, late]
    assert SheetError([late, early]).problems == [early, late]
    assert LedgerError.of([late, early]).problems == [early, late]


def test_a_message_alone_is_one_unplaced_problem() -> None:
    error = LedgerError("the end was already called")
    assert error.problems == [Problem("", None, None, "", "the end was already called")]
    assert str(error) == "the end was already called"
    assert str(Problem.unplaced("no such file", "a.yaml")) == "a.yaml: no such file"


# --------------------------------------------------------------------------- the CLI


def _group_raising(exc: BaseException) -> click.Group:
    group = UltiGroup(name="ulti")

    @group.command()
    def boom() -> None:
        """Raise."""
        raise exc

    return group


TWO = [Problem("x.yaml", 1, 2, "a", "bad"), Problem("x.yaml", 3, 4, "b", "worse")]


@pytest.mark.parametrize(
    ("exc", "count"),
    [
        (RulesetError(TWO), "2 problems in the ruleset"),
        (SheetError(TWO), "2 problems"),
        (RecordError(TWO), "2 problems in the record"),
        (LedgerError.of(TWO), "2 problems in the ledger"),
    ],
)
def test_the_cli_reports_every_reader_alike(
    exc: ProblemsError, count: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    result = CliRunner().invoke(_group_raising(exc), ["boom"])
    assert result.exit_code == 1
    assert result.stderr == f"x.yaml:1:2: a: bad\nx.yaml:3:4: b: worse\nulti: error: {count}\n"
    one = CliRunner().invoke(_group_raising(type(exc)(TWO[:1])), ["boom"])
    assert one.exit_code == 1 and one.stderr == "ulti: error: x.yaml:1:2: a: bad\n"


def test_ulti_replay_reports_a_bad_record_one_problem_a_line(tmp_path: Path) -> None:
    hand = play_out(Hand(load_ruleset("wikipedia"), seed=3), SimpleBidder(), random.Random(3))
    path = save(record_of(hand, "wikipedia"), tmp_path / "hand.yaml")
    text = path.read_text("utf-8")
    path.write_text(text.replace("dealer:", "colour: red\nshade: blue\ndealer:", 1), "utf-8")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert [line.split(": ", 2)[1] for line in lines[:2]] == ["colour", "shade"]
    assert lines[2] == "ulti: error: 2 problems in the record"
