"""Pydantic's validation errors as positioned problems: one translator for every reader.

A score sheet, a hand record and a ledger word a schema error alike: an unknown key
with a did-you-mean and the page of the docs that lists the keys, a missing key, and
otherwise the check's own message. Each reader words what only it has (a sheet's
"write it like" shapes) before falling back on :func:`error_message`. The ruleset
loader words its own on purpose (it joins a union's errors into one problem and says
where a misplaced setting belongs) but shares :func:`located`, :func:`plain_message`,
the bounds', lists' and literals' words and :func:`missing_key_message`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from ..errors import Problem
from ..quoting import QUOTED, describe, shorten
from ..said import Said
from .positions import data_path, leading, unknown_key_message
from .yaml_data import KeyPath

Loc = tuple[int | str, ...]
_Path = TypeVar("_Path")


def located(
    exc: ValidationError, path_of: Callable[[Loc], _Path], order: Callable[[_Path], Any]
) -> list[tuple[ErrorDetails, _Path, bool]]:
    """Each error of ``exc`` with its path in the data (``path_of`` its ``loc``) and
    whether it can be among the problems shown (``positions.leading``, by ``order``):
    only those are worth a costly hint."""
    errors = [(err, path_of(err["loc"])) for err in exc.errors(include_url=False)]
    shown = leading((path for _, path in errors), order)
    return [(err, path, path in shown) for err, path in errors]


_CHECK_PREFIX = re.compile(r"^(Value|Assertion) error, ")


def plain_message(err: ErrorDetails) -> str:
    """The error's message without the ``Value error, `` pydantic puts before the text
    of a check that raised ValueError (or an assertion); the check's own
    :class:`~ulti_rules.said.Said` where it raised one, so that it can be said in
    another language."""
    raised = err.get("ctx", {}).get("error")
    if isinstance(raised, ValueError) and len(raised.args) == 1:
        said = raised.args[0]
        if isinstance(said, Said):
            return said
    return _CHECK_PREFIX.sub("", str(err["msg"]))


_BOUNDS = {
    "greater_than_equal": ("ge", "at least"),
    "less_than_equal": ("le", "at most"),
    "greater_than": ("gt", "more than"),
    "less_than": ("lt", "less than"),
}


def bound_message(err: ErrorDetails) -> str | None:
    """A number beyond its bound in the words of the other problems, ``should be at most
    100, not 120`` (pydantic's own: ``Input should be less than or equal to 100``); None
    for any other error."""
    found = _BOUNDS.get(err["type"])
    bound = err.get("ctx", {}).get(found[0]) if found is not None else None
    if found is None or bound is None:
        return None
    given = err.get("input")
    number = isinstance(given, int | float) and not isinstance(given, bool)
    return f"should be {found[1]} {bound}, not {shorten(str(given)) if number else 'that'}"


def literal_message(err: ErrorDetails) -> str | None:
    """A value that is none of the few allowed in the words of the other problems,
    ``should be 3 or 4, not 5`` (pydantic's own: ``Input should be 3 or 4``); None for any
    other error. A whole number is shown as it is: "3 or 4, not a number (5)" read as if 5
    were no number."""
    expected = err.get("ctx", {}).get("expected") if err["type"] == "literal_error" else None
    if expected is None:
        return None
    given = err.get("input")
    if isinstance(given, int) and not isinstance(given, bool) and abs(given) < 10**QUOTED:
        return f"should be {expected}, not {given}"
    return f"should be {expected}, not {describe(given)}"


_LIST_TYPES = frozenset({"list_type", "tuple_type", "set_type", "frozen_set_type"})


def list_message(err: ErrorDetails) -> str | None:
    """One value where a list belongs, with the list to write: ``should be a list, not
    the text 'bells': write [bells]`` (pydantic's own: ``Input should be a valid list``);
    None for any other error."""
    if err["type"] not in _LIST_TYPES:
        return None
    given = err.get("input")
    if isinstance(given, dict):
        return f"should be a list, not {describe(given)}"
    if isinstance(given, str) and given.strip() and len(given) <= QUOTED and "\n" not in given:
        return f"should be a list, not {describe(given)}: write [{given}]"
    return f"should be a list, not {describe(given)}"


def missing_key_message(key: object) -> Said:
    """A key the schema requires and the mapping lacks, said at that mapping: the words of
    every reader, the ruleset loader's too."""
    return Said("missing required key '{key}'", key=shorten(str(key)))


def error_message(
    err: ErrorDetails, data: Any, model: type[BaseModel], *, docs: str, hint: bool = True
) -> str:
    """How a reader words a schema error: ``unknown key 'triks' (did you mean 'tricks'?)
    (see docs/...)``, ``missing required key 'deal'``, or the check's message. Without
    ``hint`` (a problem that will not be shown), or for a key too long to be a misspelling
    (a hostile file's 100 kB key), no did-you-mean."""
    loc = err["loc"]
    if err["type"] == "extra_forbidden":
        hint = hint and len(str(loc[-1])) <= QUOTED
        return f"{unknown_key_message(model, loc, data, hint=hint)} (see {docs})"
    if err["type"] == "missing":
        return missing_key_message(loc[-1])
    return bound_message(err) or literal_message(err) or list_message(err) or plain_message(err)


class Placer(Protocol):
    """What places problems in a document (``positions.Where``)."""

    def problem(self, path: KeyPath, message: str) -> Problem: ...

    def order(self, path: KeyPath) -> Any: ...


def validation_problems(
    exc: ValidationError,
    data: Any,
    where: Placer,
    message: Callable[[ErrorDetails, bool], str],
) -> list[Problem]:
    """Every error of validating ``data`` as a problem at its key (union members and
    tags, which are no keys of the document, left out of the path), worded by
    ``message(err, hint)``."""
    errors = located(exc, lambda loc: data_path(data, loc), where.order)
    return [where.problem(path, message(err, shown)) for err, path, shown in errors]
