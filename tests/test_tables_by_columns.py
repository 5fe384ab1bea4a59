"""Tables drawn a column at a time (``cli.console.by_columns``) are the text the rows
drew: every table the commands print, piped and at a terminal's width, with it and
without it; and what it cannot draw alike is left to rich."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from rich.table import Table
from rich.text import Span, Text
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


def _printed(
    table: Table,
    width: int,
    by_columns: bool,
    monkeypatch: pytest.MonkeyPatch,
    *,
    colour: bool = False,
    highlight: bool = False,
) -> str:
    out = io.StringIO()
    console = tables.clean_console(
        Console(
            file=out,
            width=width,
            markup=False,
            highlight=highlight,
            emoji=False,
            force_terminal=colour,
            color_system="standard" if colour else None,
        )
    )
    with monkeypatch.context() as patched:
        if not by_columns:
            patched.setattr(tables, "by_columns", lambda *_: None)
        console.print(table)
    return out.getvalue()


ROWS: list[list[Text | str]] = [
    ["1", Text.assemble(("Anna", "bold")), Text("+18")],
    ["2", "Bén ♥ 漢字", Text.assemble(("−", "red"), "9")],
    ["3", Text(""), "0"],
    ["10", "Carla with a much longer name", Text.assemble("-", ("9", "italic"))],
]
"""Spans of style, wide and accented characters, an empty cell, right-justified numbers."""


@pytest.mark.parametrize("colour", [False, True], ids=["piped", "colour terminal"])
@pytest.mark.parametrize("width", [120, 60, 45, 30, 12])
def test_a_table_reads_the_same_at_any_width(
    width: int, colour: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alike where the table fits (drawn by columns), and where it does not (rich wraps
    it row by row then)."""
    used = _used(monkeypatch)
    drawn = _printed(_table(ROWS), width, True, monkeypatch, colour=colour)
    assert drawn == _printed(_table(ROWS), width, False, monkeypatch, colour=colour)
    fits = max(len(line) for line in _printed(_table(ROWS), 500, False, monkeypatch).splitlines())
    assert fits < 60 and used == [(len(ROWS), fits <= width)]


def test_columns_drawn_whole_are_not_wrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line of a column drawn whole fits its width, so rich is told not to look for
    places to break it (about a quarter of the drawing's cost), and the text stays the same."""
    console = Console(file=io.StringIO(), width=120)
    table = _table(ROWS)
    tall = tables.by_columns(table, console, console.options)
    assert tall is not None and all(column.no_wrap for column in tall.columns)
    assert not any(column.no_wrap for column in table.columns)  # the caller's table is its own
    drawn = _printed(_table(ROWS), 120, True, monkeypatch)
    assert drawn == _printed(_table(ROWS), 120, False, monkeypatch)


def _span_past_the_end() -> Table:
    table = _table(ROWS)
    table.add_row("4", Text("ab", spans=[Span(0, 9, "red")]), "1")
    return table


def _column_added_late() -> Table:
    table = _table(ROWS)
    table.add_column("Late")
    return table


def _empty_and_headless() -> Table:
    table = Table(show_header=False)
    table.add_column("x")
    table.add_row("")
    table.add_row("")
    return table


def _padded() -> Table:
    table = _table(ROWS)
    table.padding = (1, 1)
    return table


def _highlighted() -> Table:
    table = Table(highlight=True)
    table.add_column("n")
    table.add_column("v", justify="right")
    table.add_row("1", "True 0x1f 2.5")
    table.add_row("22", "None [1, 2]")
    return table


@pytest.mark.parametrize(
    "make",
    [
        lambda: _table([*ROWS, ["4", "two\nlines", "1"]]),
        lambda: _table([*ROWS, ["4", "a\ttab", "1"]]),
        lambda: _table([*ROWS, ["4", "ab\u2028cdefgh", "1"]]),
        lambda: _table([*ROWS, ["4", "zero\u200bwidth", "1"]]),
        lambda: _table([*ROWS, ["4", Text("own style", style="underline"), "1"]]),
        lambda: _table([*ROWS, [Text("x", justify="center"), "y", "z"]]),
        lambda: _table([*ROWS, ["", "", ""]]),
        _span_past_the_end,
        _column_added_late,
        _empty_and_headless,
        _padded,
        lambda: _table(ROWS, ratio=1),
        lambda: _table(ROWS, min_width=3),
        lambda: _table([ROWS[0]]),
    ],
    ids=[
        "cell of two lines",
        "tab",
        "line separator",
        "zero-width space",
        "cell with a style",
        "justified cell",
        "last row empty",
        "span past the end",
        "column added after rows",
        "empty cells, no header",
        "vertical padding",
        "ratio",
        "min width",
        "one row",
    ],
)
def test_what_columns_cannot_draw_alike_is_left_to_rich(
    make: Callable[[], Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each found by a review comparing the two drawings: rich widens a tab and breaks a
    line at any separator ``str.splitlines`` knows, a cell's own style colours its
    padding, padding above and below is per row, a trailing empty line is dropped."""
    console = Console(file=io.StringIO(), width=200)
    assert tables.by_columns(make(), console, console.options) is None
    for colour in (False, True):
        drawn = _printed(make(), 80, True, monkeypatch, colour=colour)
        assert drawn == _printed(make(), 80, False, monkeypatch, colour=colour)


@pytest.mark.parametrize("highlight", [False, True])
def test_text_cells_are_highlighted_as_their_column_says(
    highlight: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain-text cell is made Text as rich would: by the column's highlighting, not
    the console's."""
    used = _used(monkeypatch)
    for console_highlight in (False, True):
        table = _highlighted()
        table.columns[1].highlight = highlight
        drawn = _printed(table, 80, True, monkeypatch, colour=True, highlight=console_highlight)
        rows = _printed(table, 80, False, monkeypatch, colour=True, highlight=console_highlight)
        assert drawn == rows
    assert used == [(2, True), (2, True)]


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
