"""Values quoted in messages: enough of them to recognise, never a whole file.

A message about someone else's file quotes what it found there; a 1 MB value, or a
whole file read as one value, must not come back whole. This sits at the bottom of the
package (errors, readers and the CLI all quote), next to nothing but the standard library.
"""

from __future__ import annotations

import math
import re
from typing import Any

from .said import Named, Said

QUOTED = 40
"""Characters of a value quoted in a message: enough to recognise it, never a whole file."""


def shorten(text: str, limit: int = QUOTED) -> str:
    """``text`` cut to ``limit`` characters, with '…' where it was cut."""
    return text if len(text) <= limit else text[:limit] + "…"


LINE = 1000
"""The longest line of a message made from values a file gave (see :func:`shorten_quoted`)."""
_OPENS = r"(?<![^\s(\[{:,=])"  # a quote that opens a value: not an apostrophe (seat 1's)
_CLOSES = r"(?![^\s)\]},.;:])"
_LONG_QUOTE = re.compile(
    "|".join(rf"{_OPENS}{q}(?:[^{q}\\\n]|\\.){{{QUOTED + 1},}}{q}{_CLOSES}" for q in "'\"")
)


def shorten_quoted(message: str) -> str:
    """``message`` with each quoted value in it (``'...'`` or ``"..."``) cut to QUOTED
    characters, and each line still longer than LINE cut there.

    For messages made by code that quotes what it was given whole (the card parser, the
    engine's checks of an action) when that came from someone else's file.
    """
    message = _LONG_QUOTE.sub(lambda m: m[0][0] + shorten(m[0][1:-1]) + m[0][0], message)
    return "\n".join(shorten(line, LINE) for line in message.split("\n"))


_QUOTED_FIELD = re.compile(rf"{_OPENS}(['\"])\{{(\w+)\}}\1{_CLOSES}")
"""A placeholder the template quotes (``'{bid}'``): the value is a wrong value quoted."""


def shorten_said(message: str, *, quoted: bool = False) -> str:
    """:func:`shorten_quoted` for a message that may be a :class:`~ulti_rules.said.Said`:
    its values are cut, and it stays a ``Said`` that can be said in another language.

    A value the template quotes is cut to QUOTED characters, as :func:`shorten_quoted`
    cuts it in the English text (the quotes are the template's, not the value's); any
    other value but a number is cut as text (an action refused is said by its ``str``,
    which holds what the file gave). ``quoted``: the message is itself a value another
    template quotes (``'{action}'``, an action said in words), so each of its values is
    cut as a quoted one."""
    if isinstance(message, Said):
        fields = {match[2] for match in _QUOTED_FIELD.finditer(message.template)}
        values = {
            key: _shortened_value(value, quoted or key in fields)
            for key, value in message.values.items()
        }
        return Said(message.template, **values)
    return shorten_quoted(message)


def _shortened_value(value: object, quoted: bool) -> object:
    """A value of a :class:`Said`: one the template quotes cut to QUOTED characters."""
    if isinstance(value, int | float):
        return value
    if isinstance(value, Said):
        return shorten_said(value, quoted=quoted)
    if isinstance(value, Named):  # a bid's or a kontra level's names: each one cut
        cut = shorten if quoted else shorten_quoted
        return Named(cut(str.__str__(value)), {k: cut(v) for k, v in value.names.items()})
    return shorten(str(value)) if quoted else shorten_quoted(str(value))


__all__ = ["LINE", "QUOTED", "describe", "shorten", "shorten_quoted", "shorten_said"]


def describe(value: Any, *, quote: bool = True) -> str:
    """What a wrong value is, for a message: ``true/false``, ``text ('10')``, ``a list``;
    without ``quote`` only its kind (for a file that may not be ours to show).

    Here, at the bottom, so that a module that reads files or validates a value says
    what it found without importing a YAML reader or pydantic (``safe_yaml`` and
    ``ruleset.scalars`` re-export it)."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, float) and quote:  # "a whole number, not a number (10.0)" read wrong
        if value != value:
            return "not-a-number (.nan)"
        if value in (math.inf, -math.inf):
            return f"infinity ({'-' if value < 0 else ''}.inf)"
        return f"a decimal number ({value})"
    if isinstance(value, int | float):
        if not quote:
            return "a number"
        big = isinstance(value, int) and abs(value) >= 10**QUOTED
        return "a number (too long to show)" if big else f"a number ({value})"
    if isinstance(value, str):
        return f"text ({shorten(value)!r})" if quote else "text"
    if value is None:
        return "null"
    if isinstance(value, list | tuple):
        return "a list"
    return "a mapping"
