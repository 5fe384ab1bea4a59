"""Only printable text reaches the terminal: names and titles from other people are escaped.

A ruleset title, a player's name in a sheet or a ledger, a bid name or a file name can
hold control characters: ``ESC ] 0 ;`` retitles the window, ``ESC [ 2 J`` clears the
screen, ``CSI`` sequences move the cursor over earlier output, a right-to-left override
reverses what follows. ``ulti`` prints each such character as a visible escape
(``\\x1b``, ``\\u202e``) instead. Tables are cleaned segment by segment, after rich
has laid them out, so rich's own styling still works (a row holding such a name is drawn
wider than its border: the escape is longer than what rich measured); lines go through
``echo``.

This module is light (no rich): ``console.py`` holds the rich side, imported only by the
commands that draw tables.
"""

from __future__ import annotations

import re
from typing import Any

import click

UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028\u2029"
    "\u202a-\u202e\u2066-\u2069\ufeff]"
)
"""C0 controls but tab and newline, DEL, C1 controls; the bidirectional marks, embeddings,
overrides and isolates; line and paragraph separators; zero-width space and BOM: what can
move, hide or reorder text on a terminal. Joiners (U+200C, U+200D), which some scripts and
emoji need, stay."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control character (but tab and newline) shown as an escape."""
    return UNSAFE.sub(_escape, text)


def echo(message: Any = "", *, err: bool = False, nl: bool = True) -> None:
    """``click.echo`` with control characters escaped."""
    click.echo(printable(str(message)), err=err, nl=nl)


def json_text(data: Any) -> str:
    """Indented JSON with names left readable; C1 controls and bidi overrides, which JSON
    may carry raw, escaped as ``\\uXXXX`` (C0 controls JSON escapes itself)."""
    import json  # only for --json output: not on every start-up

    text = json.dumps(data, ensure_ascii=False, indent=2)
    return UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
