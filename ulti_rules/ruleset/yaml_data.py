"""What the YAML reader gives, without the parser: where a node was written (``KeyPath``,
``Mark``, ``Position``), what was wrong (``YamlIssue``, ``YamlError``), a document, a
file's bytes and text read safely, and helpers on plain YAML data.

Apart from ``safe_yaml.py`` (which re-exports all of it) so that a module that only
speaks of positions, reads a file's bytes to check it, or copies data read earlier does
not import PyYAML (94 million instructions: a twelfth of `ulti ladder wikipedia`'s
start-up, which with its ruleset cached reads no YAML at all).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Problem
from ..said import Said

MAX_BYTES = 1024 * 1024
"""A ruleset is a few kilobytes; anything over 1 MiB is refused unread."""


KeyPath = tuple[str | int, ...]
"""Where a node sits: mapping keys and list indexes from the top (``("ladder", 3)``)."""


@dataclass(frozen=True)
class Mark:
    """A 1-based line and column."""

    line: int
    column: int


@dataclass(frozen=True)
class Position:
    """Where a node was written: its key (or list item), and its value."""

    key: Mark
    value: Mark


@dataclass(frozen=True)
class YamlIssue:
    """One thing wrong with the YAML itself, before any schema is applied."""

    mark: Mark | None
    message: str
    path: KeyPath = ()


class YamlError(Exception):
    """The YAML could not be read; ``issues`` lists what was wrong, positioned."""

    def __init__(self, issues: list[YamlIssue]) -> None:
        self.issues = issues
        super().__init__("; ".join(issue.message for issue in issues))


def yaml_problems(exc: YamlError, display: str) -> list[Problem]:
    """The problems of a document that could not be read as (bounded, safe) YAML."""
    return [
        Problem(
            display,
            issue.mark.line if issue.mark else None,
            issue.mark.column if issue.mark else None,
            ".".join(str(p) for p in issue.path),
            issue.message,
        )
        for issue in exc.issues
    ]


@dataclass(frozen=True)
class YamlDocument:
    """Plain data (dicts, lists, scalars) and the position of every node in it."""

    data: Any
    positions: Mapping[KeyPath, Position] = field(default_factory=dict)
    digest: bytes = b""
    """The SHA-256 of the bytes it was read from (``parsed_files``); empty for text."""


def read_text(path: Path, *, max_bytes: int = MAX_BYTES) -> str:
    """The UTF-8 text of ``path``: a regular file of at most ``max_bytes``, else YamlError."""
    return decode(read_bytes(path, max_bytes=max_bytes))


def read_bytes(path: Path, *, max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of ``path``: a regular file of at most ``max_bytes``, else YamlError."""
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise YamlError([YamlIssue(None, Said("not a regular file"))])
        if size > max_bytes:
            raise YamlError([too_big(size, max_bytes)])
        with path.open("rb") as stream:
            raw = stream.read(max_bytes + 1)  # the size can change, or lie (a device)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise YamlError(
            [YamlIssue(None, Said("cannot read the file: {reason}", reason=reason))]
        ) from None
    if len(raw) > max_bytes:
        raise YamlError([too_big(len(raw), max_bytes)])
    return raw


def decode(raw: bytes) -> str:
    """``raw`` as UTF-8 text (a byte-order mark dropped), else YamlError at its line."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise YamlError(
            [
                YamlIssue(
                    Mark(line, 1),
                    Said("not UTF-8 text (byte {byte})", byte=f"0x{raw[exc.start]:02x}"),
                )
            ]
        ) from None
    return text


def too_big(size: int, max_bytes: int) -> YamlIssue:
    """The issue of a file or text over the size limit."""
    return YamlIssue(
        None,
        Said(
            "the file is {size}; files over {limit} are not read",
            size=megabytes(size),
            limit=megabytes(max_bytes),
        ),
    )


def megabytes(size: int) -> str:
    """``size`` bytes in MiB, for a message."""
    return f"{size / (1024 * 1024):.1f} MiB"


def values_in(data: Any) -> int:
    """The values in YAML data: every mapping, list, key and scalar (what a cache of it
    weighs, and what a check of it costs)."""
    count, stack = 0, [data]
    while stack:
        node = stack.pop()
        count += 1
        if isinstance(node, dict):
            count += len(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return count


def copied(data: Any) -> Any:
    """``data`` with every mapping and list copied; scalars (immutable) are shared: what
    an alias repeats, and what a cache of read files hands out (``parsed_files``)."""
    if type(data) is dict:
        return {key: copied(value) for key, value in data.items()}
    if type(data) is list:
        return [copied(item) for item in data]
    return data
