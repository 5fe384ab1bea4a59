"""Numbers and names as a person must write them: no silent conversions, no empty names.

pydantic's lax mode reads ``ace: true`` as 1 and ``ace: '10'`` as 10; a club file
(or a score sheet) that says either has a mistake in it, and settling by a guess is
worse than saying so. These types accept a whole number only as a YAML number and a
name only as non-blank text, with messages that say what was written instead.
Bounds (``ge``/``le``/``max_length``) stay ordinary ``Field`` constraints, so the
JSON Schema shows them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import BeforeValidator, Field
from pydantic_core import PydanticCustomError

from ..quoting import describe as describe  # imported from here too

_DIGITS = re.compile(r"-?[0-9]{1,18}")


def decimal_point_hint(value: Any) -> str:
    """``; write it without the decimal point: 2`` for ``2.0``, where a whole number is
    asked for; '' for anything else."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 10**18:
        return f"; write it without the decimal point: {int(value)}"
    return ""


def whole_number(value: Any) -> int:
    """A YAML integer, never true/false, text or a fraction."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    hint = decimal_point_hint(value)
    if isinstance(value, str) and _DIGITS.fullmatch(value.strip()):
        hint = f"; write it without quotes: {value.strip()}"
    raise PydanticCustomError(
        "int_type",
        "should be a whole number, not {given}{hint}",
        {"given": describe(value), "hint": hint},
    )


def composed(text: str) -> str:
    """``text`` in Unicode's composed form (NFC): one way to write what looks the same."""
    return unicodedata.normalize("NFC", text)


LINE_BREAK = re.compile("[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")
"""What ends a line in a terminal, or in ``str.splitlines``."""


def visible_text(
    longest: int, *, compose: bool = False, one_line: bool = True
) -> Callable[[Any], str]:
    """A check for text with something to read in it, at most ``longest`` characters:
    never a number, true/false, '' or blanks.

    ``one_line``: no line break in it (a name or a title is printed inside a line; a
    newline in a player's name printed a line of its own, such as a forged
    ``Dealer: ...`` line in ``ulti replay``).

    ``compose``: the text in Unicode's composed form (NFC), for names that are compared:
    'József' typed with a combining accent (as some keyboards and copied text give it)
    is then the same player as 'József' typed with 'é', not a second one that looks alike.
    """

    def check(value: Any) -> str:
        if compose and isinstance(value, str):
            value = composed(value)
        if not isinstance(value, str):
            hint = "; put it in quotes" if isinstance(value, int | float) else ""
            raise PydanticCustomError(
                "string_type",
                "should be text, not {given}{hint}",
                {"given": describe(value), "hint": hint},
            )
        if not value.strip():
            raise PydanticCustomError("string_too_short", "must not be empty")
        if one_line and LINE_BREAK.search(value):
            raise PydanticCustomError("one_line", "must be one line; it holds a line break")
        if len(value) > longest:
            raise PydanticCustomError(
                "string_too_long",
                "is {length} characters long; at most {longest} are allowed",
                {"length": len(value), "longest": longest},
            )
        return value

    return check


AS_WHOLE = BeforeValidator(whole_number)
Whole = Annotated[int, AS_WHOLE]
"""A whole number as YAML writes one; bounds go on the field (``Field(ge=..., le=...)``),
or, in an alias or beside ``None``, before the check: ``Annotated[int, Field(ge=0),
AS_WHOLE]`` (so that the JSON Schema shows them as minimum and maximum)."""

NAME_LENGTH = 80
"""The longest name in a ruleset: of a bid, a contract, a kontra level; an id, an alias."""
TITLE_LENGTH = 200
"""The longest one-line text: a ruleset's title, a source."""

Name = Annotated[
    str, BeforeValidator(visible_text(NAME_LENGTH)), Field(min_length=1, max_length=NAME_LENGTH)
]
"""A name or an id: non-blank text of at most NAME_LENGTH characters."""
Line = Annotated[
    str, BeforeValidator(visible_text(TITLE_LENGTH)), Field(min_length=1, max_length=TITLE_LENGTH)
]
"""A one-line text (a title, a source): non-blank, at most TITLE_LENGTH characters."""


def true_or_false(value: Any) -> bool:
    """A YAML true/false, never 1, 0 or the text 'yes'."""
    if isinstance(value, bool):
        return value
    raise PydanticCustomError(
        "bool_type", "should be true or false, not {given}", {"given": describe(value)}
    )


Flag = Annotated[bool, BeforeValidator(true_or_false)]
"""A setting that is on or off, written true or false."""
