"""Tables drawn a column at a time (``cli.console.by_columns``) are the text the rows
drew: every table the commands print, piped and at a terminal's width, with it and
without it; and what it cannot draw alike is left to rich."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from rich.console import Console
from rich.table import Table
from rich.text import Text
from ulti_rules.bots import SimpleBidder, play_out
from ulti_rules.cli import console as tables
from ulti_rules.engine.hand import Hand
from ulti_rules.records import record_of, save
from ulti_rules.ruleset.loading import load_ruleset

from conftest import BUNDLED_RULESETS, RunUlti
from settlement_support import BEN_MAKES_ULTI, LEDGER_PLAYERS, ULTI_SHEET


def _both(
    ulti: RunUlti, monkeypatch: pytest.MonkeyPatch, *args: str, env: dict[str, str] | None = None
) -> tuple[str, str]:
    """The output of ``ulti *args`` drawn by columns, and drawn row by row."""
    drawn = ulti(*args, env=env)
    assert drawn.returncode == 0, drawn.stderr
    with monkeypatch.context() as patched:
        patched.setattr(tables, "by_columns", lambda *_: None)
        rows = ulti(*args, env=env)
    return drawn.stdout, rows.stdout


def _used(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """For each table printed from now on, its rows and whether it was drawn by columns."""
    used: list[tuple[int, bool]] = []
    real = tables.by_columns

    def counting(table: Table, *args: object) -> Table | None:
        tall = real(table, *args)  # type: ignore[arg-type]
        used.append((len(table.rows), tall is not None))
        return tall

    monkeypatch.setattr(tables, "by_columns", counting)
    return used


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_every_ladder_reads_the_same_in_each_language(
    name: str, ulti: RunUlti, monkeypatch: pytest.MonkeyPatch
) -> None:
    for lang in ("en", "hu", "de"):
        drawn, rows = _both(ulti, monkeypatch, "ladder", name, "--lang", lang)
        assert drawn == rows and drawn.count("\n") > 20


def test_the_commands_tables_read_the_same(
    ulti: RunUlti, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "sheet.yaml").write_text(ULTI_SHEET, "utf-8")
    (tmp_path / "hand.yaml").write_text(BEN_MAKES_ULTI, "utf-8")
    session = ("s.json", "--ruleset", "wikipedia", "--players", ",".join(LEDGER_PLAYERS))
    assert ulti("ledger", "new", *session).returncode == 0
    for _ in range(3):
        assert ulti("ledger", "add", "s.json", "hand.yaml").returncode == 0
    hand = Hand(load_ruleset("wikipedia"), seed=21, dealer=0)
    played = play_out(hand, SimpleBidder(), random.Random(21))
    save(record_of(played, "wikipedia", players=LEDGER_PLAYERS), tmp_path / "r.yaml")
    used = _used(monkeypatch)
    commands = [
        ("rulesets",),
        ("score", "sheet.yaml"),
        ("score", "sheet.yaml", "--lang", "hu"),
        ("ledger", "show", "s.json"),
        ("ledger", "show", "s.json", "--lang", "de"),
        ("replay", "r.yaml"),
        ("simulate", "--hands", "3", "--seed", "2"),
    ]
    for command in commands:
        drawn, rows = _both(ulti, monkeypatch, *command)
        assert drawn == rows, command
    # piped, every table of more than one row is drawn by columns (one row gains nothing)
    assert len(used) > len(commands) and all(by or rows < 2 for rows, by in used), used


def _table(cells: list[list[Text | str]], **columns: object) -> Table:
    table = Table(title="A title long enough to be wrapped", caption="a caption")
    for header in ("#", "Name", "Amount"):
        table.add_column(header, justify="right" if header == "Amount" else "left", **columns)
    for row in cells:
        table.add_row(*row)
    return table


def _printed(table: Table, width: int, by_columns: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    out = io.StringIO()
    console = tables.clean_console(
        Console(file=out, width=width, markup=False, highlight=False, emoji=False)
    )
    with monkeypatch.context() as patched:
        if not by_columns:
            patched.setattr(tables, "by_columns", lambda *_: None)
        console.print(table)
    return out.getvalue()


ROWS: list[list[Text | str]] = [
    ["1", Text("Anna", style="bold"), Text("+18")],
    ["2", "Ben\u200b", Text.assemble(("−", "red"), "9")],
    ["3", Text(""), "0"],
    ["10", "Carla with a much longer name", Text("-9", style="italic")],
]


@pytest.mark.parametrize("width", [120, 60, 45, 30, 12])
def test_a_table_reads_the_same_at_any_width(width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Styles, an empty cell, an unsafe character, right-justified numbers: alike where
    the table fits, and where it does not (rich wraps it row by row then)."""
    used = _used(monkeypatch)
    drawn = _printed(_table(ROWS), width, True, monkeypatch)
    assert drawn == _printed(_table(ROWS), width, False, monkeypatch)
    fits = max(len(line) for line in _printed(_table(ROWS), 500, False, monkeypatch).splitlines())
    assert used == [(len(ROWS), fits <= width)]


@pytest.mark.parametrize(
    "table",
    [
        _table([*ROWS, ["4", "two\nlines", "1"]]),
        _table(ROWS, ratio=1),
        _table(ROWS, min_width=3),
        _table([*ROWS[:2], [Text("x", justify="center"), "y", "z"]]),
        _table([ROWS[0]]),
    ],
    ids=["cell of two lines", "ratio", "min width", "justified cell", "one row"],
)
def test_what_columns_cannot_draw_alike_is_left_to_rich(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    console = Console(file=io.StringIO(), width=200)
    assert tables.by_columns(table, console, console.options) is None


def test_row_styles_and_sections_are_left_to_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    console = Console(file=io.StringIO(), width=200)
    for make in (
        lambda t: t.add_row("5", "Dora", "1", style="bold"),
        lambda t: t.add_row("5", "Dora", "1", end_section=True),
        lambda t: setattr(t, "show_lines", True),
        lambda t: setattr(t, "row_styles", ["dim", ""]),
    ):
        table = _table(ROWS)
        make(table)
        assert tables.by_columns(table, console, console.options) is None
        assert _printed(table, 80, True, monkeypatch) == _printed(table, 80, False, monkeypatch)
