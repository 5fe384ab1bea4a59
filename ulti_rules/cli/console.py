"""The rich console for tables on stdout, with every name made printable after layout.

Kept apart from ``terminal.py`` so that a command that draws no table (and ``--help``)
never imports rich.
"""

from __future__ import annotations

import sys

from rich.console import (
    Console,
    ConsoleOptions,
    ConsoleRenderable,
    RenderableType,
    RenderHook,
    RenderResult,
)
from rich.segment import Segment

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
        for segment in console.render(self.inner, options):
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
