"""From a problem in YAML data to ``file:line:col``: shared by rulesets, score sheets, records
and ledgers.

Every document a person types (a club ruleset, a table's score sheet, a hand record)
reports its mistakes the same way: one line per problem, at the key that holds it,
with a did-you-mean hint for a misspelt key.
"""

from __future__ import annotations

import heapq
import types
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

from ..errors import MAX_PROBLEMS, Problem
from ..quoting import shorten
from .hints import did_you_mean
from .yaml_data import KeyPath, Position
from .yaml_data import yaml_problems as yaml_problems  # imported from here too

ABSENT = object()
"""What :func:`child` returns for a key or index the data does not have."""


def child(node: Any, segment: str | int) -> Any:
    """``node[segment]`` in YAML data, or ``ABSENT``."""
    if isinstance(node, dict):
        return node.get(segment, ABSENT) if isinstance(segment, str) else ABSENT
    if isinstance(node, list) and isinstance(segment, int) and 0 <= segment < len(node):
        return node[segment]
    return ABSENT


def data_path(data: Any, loc: tuple[int | str, ...]) -> KeyPath:
    """The part of a pydantic error location that is a real path in the data.

    Union branches (``str``, ``BidByComponents``, a discriminator tag) are not keys of
    the document, so they are dropped.
    """
    path: list[str | int] = []
    node = data
    for segment in loc:
        found = child(node, segment)
        if found is not ABSENT:
            node = found
            path.append(segment)
    return tuple(path)


def nearest_position(positions: Mapping[KeyPath, Position], path: KeyPath) -> Position | None:
    """The position of ``path``, or of its closest ancestor that has one."""
    probe = path
    position = positions.get(probe)
    while position is None and probe:
        probe = probe[:-1]
        position = positions.get(probe)
    return position


class Where:
    """Turns key paths of one document into problems at ``file:line:col``: how a score
    sheet, a hand record and a ledger place theirs (a ruleset, merged from several
    files, places its own: ``loading``)."""

    def __init__(self, file: str, positions: Mapping[KeyPath, Position]) -> None:
        self.file = file
        self.positions = positions

    def problem(self, path: KeyPath, message: str) -> Problem:
        """A problem at the key ``path`` (or its closest ancestor that has a position)."""
        position = nearest_position(self.positions, path)
        mark = position.key if position is not None and path else None
        return Problem(
            self.file,
            mark.line if mark else None,
            mark.column if mark else None,
            ".".join(str(p) for p in path),
            message,
        )

    def order(self, path: KeyPath) -> tuple[int, int]:
        """Where a problem at ``path`` sorts among the others: by line, then column
        (``errors.by_position``)."""
        position = nearest_position(self.positions, path) if path else None
        return (position.key.line, position.key.column) if position is not None else (0, 0)


def unwrap(tp: Any, node: Any) -> Any:
    """The model behind Annotated/Optional/unions, picking a tagged member by ``kind``."""
    while True:
        origin = get_origin(tp)
        if origin is Annotated:
            tp = get_args(tp)[0]
            continue
        if origin is Union or origin is types.UnionType:
            members = [_bare(m) for m in get_args(tp) if m is not type(None)]
            models = [m for m in members if isinstance(m, type) and issubclass(m, BaseModel)]
            kind = node.get("kind") if isinstance(node, dict) else None
            for model in models:
                tag = model.model_fields.get("kind")
                if tag is not None and kind is not None and tag.default == kind:
                    return model
            if len(members) == 1:
                tp = members[0]
                continue
            return models[0] if len(models) == 1 else None
        return tp


def _bare(tp: Any) -> Any:
    """A union member without its ``Annotated`` wrapping (a discriminator's ``Tag``)."""
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    return tp


def model_at(root: type[BaseModel], path: KeyPath, data: Any) -> type[BaseModel] | None:
    """The pydantic model that validates the mapping at ``path``, if one does."""
    tp: Any = root
    node = data
    for segment in path:
        tp = unwrap(tp, node)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(segment) if isinstance(segment, str) else None
            if field is None:
                return None
            tp = field.annotation
        else:
            args = get_args(tp)
            if get_origin(tp) in (dict, Mapping) and len(args) == 2:
                tp = args[1]
            elif get_origin(tp) in (list, tuple) and args:
                tp = args[0]  # a list, or a ruleset's frozen list: tuple[X, ...]
            else:
                return None
        node = child(node, segment)
    tp = unwrap(tp, node)
    return tp if isinstance(tp, type) and issubclass(tp, BaseModel) else None


def setting_places(root: type[BaseModel], key: str) -> list[str]:
    """Every place in ``root``'s tree where ``key`` is a setting, in dotted form.

    Mapping entries show as ``<id>`` and list items as ``[]``, as docs/rulesets.md
    writes them (``contracts.<id>.failure_penalty``, ``ladder[].rank``): the hint for
    a setting written at the wrong level of a file.
    """
    return list(_setting_index(root).get(key, ()))


@lru_cache(maxsize=32)
def _setting_index(root: type[BaseModel]) -> dict[str, tuple[str, ...]]:
    """Every setting name in ``root``'s tree and its places: the schema is walked once
    per model, not once per unknown key (a file with 45,000 of them took minutes). For
    the last 32 models asked about: a program that builds ever new ruleset models (one
    per set of plugin kinds) does not keep every one alive here."""
    found: dict[str, list[str]] = {}
    seen: set[tuple[type[BaseModel], str]] = set()

    def walk(tp: Any, prefix: str) -> None:
        origin = get_origin(tp)
        if origin is Annotated:
            walk(get_args(tp)[0], prefix)
        elif origin is Union or origin is types.UnionType:
            for member in get_args(tp):
                walk(member, prefix)
        elif origin in (dict, Mapping) and len(get_args(tp)) == 2:
            walk(get_args(tp)[1], f"{prefix}.<id>" if prefix else "<id>")
        elif origin in (list, tuple) and get_args(tp):
            walk(get_args(tp)[0], f"{prefix}[]")
        elif isinstance(tp, type) and issubclass(tp, BaseModel) and (tp, prefix) not in seen:
            seen.add((tp, prefix))
            for name, field in tp.model_fields.items():
                path = f"{prefix}.{name}" if prefix else name
                places = found.setdefault(name, [])
                if path not in places:
                    places.append(path)
                walk(field.annotation, path)

    walk(root, "")
    return {name: tuple(places) for name, places in found.items()}


_Path = TypeVar("_Path")


def leading(
    paths: Iterable[_Path], order: Callable[[_Path], Any], limit: int = MAX_PROBLEMS
) -> set[_Path]:
    """Of the ``paths`` that have problems, those whose problems can be among the first
    ``limit`` reported when problems are sorted by ``order(path)`` (ties kept).

    Only they need the costly part of a message (a did-you-mean over every allowed key):
    the rest are counted, not shown (``errors.capped``), so a file with 45,000 unknown
    keys costs about what one with a hundred does.
    """
    unique = set(paths)
    if len(unique) <= limit:
        return unique
    keys = {path: order(path) for path in unique}
    bound = heapq.nsmallest(limit, keys.values())[-1]
    return {path for path, key in keys.items() if key <= bound}


def unknown_key_message(
    root: type[BaseModel], loc: tuple[int | str, ...], data: Any, *, hint: bool = True
) -> str:
    """``unknown key 'triks' (did you mean 'tricks'?)`` for an ``extra_forbidden`` error;
    without ``hint`` (a problem that will not be shown: :func:`leading`) no did-you-mean."""
    key = str(loc[-1])
    model = model_at(root, data_path(data, loc[:-1]), data) if hint else None
    found = did_you_mean(key, model.model_fields) if model is not None else ""
    return f"unknown key '{shorten(key)}'{found}"
