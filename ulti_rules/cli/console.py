"""The rich console for tables on stdout, with every name made printable after layout.

Kept apart from ``terminal.py`` so that a command that draws no table (and ``--help``)
never imports rich.
"""

from __future__ import annotations

import copy
import sys

from rich.console import (
    Console,
    ConsoleOptions,
    ConsoleRenderable,
    RenderableType,
    RenderHook,
    RenderResult,
)
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from .terminal import UNSAFE, printable

PIPE_WIDTH = 10_000
"""Console width when stdout is not a terminal: wide enough that no table is cut."""


def stdout_console() -> Console:
    """A console for tables on stdout; never wraps or truncates when piped."""
    width = None if sys.stdout.isatty() else PIPE_WIDTH
    console = Console(width=width, markup=False, highlight=False, emoji=False)
    return clean_console(console)


class _Cleaned:
    """A renderable whose text segments are made printable after layout."""

    def __init__(self, inner: RenderableType) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        inner = self.inner
        if isinstance(inner, Table):
            inner = by_columns(inner, console, options) or inner
        for segment in console.render(inner, options):
            if segment.control is None and UNSAFE.search(segment.text):
                yield Segment(printable(segment.text), segment.style)
            else:
                yield segment


class _CleanHook(RenderHook):
    """A rich render hook that wraps everything printed in ``_Cleaned``."""

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_Cleaned(r) for r in renderables]


def clean_console(console: Console) -> Console:
    """``console`` with every renderable it prints made printable; returns it."""
    console.push_render_hook(_CleanHook())
    return console


_UNBOUNDED = 1 << 20
"""A width no table reaches: what a table measures at it is its natural width."""


def by_columns(table: Table, console: Console, options: ConsoleOptions) -> Table | None:
    """``table`` as one row whose cells hold whole columns, where that draws the same text;
    else None.

    Rich lays out and draws each cell on its own, about a tenth of a millisecond each: a
    season's ledger (1,350 hands, 8 columns) took a second to show. Where every cell is
    one line of plain printable text and the table fits the width at its natural column
    widths (nothing wraps: always so when stdout is not a terminal), the rows are lines
    that line up alike when each column is one cell of as many lines, drawn at about half
    the cost. The columns are set not to wrap, as nothing in them needs to: rich then
    skips looking for places to break each line (`ulti ledger show` of 1,350 hands took
    1.6 s of CPU time instead of 2.0 s on 2026-12-03). Anything else is drawn as it was
    built: row styles, sections, padding above or below a row, a cell with a style of its
    own, a tab or a line break, a renderable other than text, fixed or expanding widths,
    columns of unequal length, a last row of empty cells (its line would be dropped), a
    table too wide.
    """
    rows = len(table.rows)
    top, _, bottom, _ = table.padding
    if (
        rows < 2
        or top
        or bottom
        or table.show_lines
        or table.row_styles
        or table.leading
        or table.expand
        or table.width is not None
        or table.min_width is not None
        or any(row.style or row.end_section for row in table.rows)
    ):
        return None
    cells: list[list[Text]] = []
    last_row_empty = True
    for column in table.columns:
        if column.ratio or column.width is not None or column.min_width or column.max_width:
            return None
        texts = []
        for cell in column.cells:
            text = (
                console.render_str(cell, highlight=column.highlight)
                if isinstance(cell, str)
                else cell
            )
            if not isinstance(text, Text) or not _plain_line(text):
                return None
            texts.append(text)
        if len(texts) != rows:
            return None
        last_row_empty = last_row_empty and not texts[-1].plain
        cells.append(texts)
    if last_row_empty:
        return None
    tall = copy.copy(table)
    tall.columns = [column.copy() for column in table.columns]
    for column in tall.columns:
        column.no_wrap = True  # every line fits (checked below): rich need not look for breaks
    tall.rows = []
    tall.add_row(*(Text("\n").join(texts) for texts in cells))
    natural = Measurement.get(console, options.update_width(_UNBOUNDED), tall).maximum
    if natural > options.max_width:  # rich narrows columns and wraps cells, row by row
        return None
    return tall


def _plain_line(text: Text) -> bool:
    """Whether ``text`` is one line drawn as it stands in a column: printable characters
    only (no tab, which rich widens, nor any line break ``str.splitlines`` knows), no style
    or layout of its own (a style would colour the padding too), spans inside it."""
    plain = text.plain
    return (
        plain.isprintable()
        and not text.style
        and not text.justify
        and not text.overflow
        and not text.no_wrap
        and all(span.end <= len(plain) for span in text.spans)
    )
