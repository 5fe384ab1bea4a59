"""Validated rulesets kept while their files stay as they were: a repeated load is a few stats.

Loading validates every file of an ``extends:`` chain (20 to 90 ms); a program that
plays many hands, or a server, loads the same ruleset again and again. An entry is
keyed by the top file's path and whether paths outside a file's folder were allowed
(``ulti --allow-outside-paths``: a ruleset loaded with that permission is never handed
out without it), and holds the plugin registry it was validated with and each file's
identity, size and modification time; any change, or another registry, loads afresh.
For a file written within the last two seconds the timestamp is too coarse to show a
second change in the same tick, so its content's digest is kept too and compared on
every use (reading a file is cheap beside validating it: a club file just written is
loaded once per command). At most
``SIZE`` entries are kept, the least recently used dropped first, so the cache
never grows with the number of files a long-running program has seen.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from ..recent import Recent

if TYPE_CHECKING:
    from ..plugins import Registry
    from .schema import Ruleset

SIZE = 64
RACY_NS = 2_000_000_000

Stamp = tuple[int, int, int, int]
Mark = tuple[Stamp, bytes | None]


def _stamp(path: Path) -> Stamp | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def _digest(path: Path) -> bytes | None:
    try:
        return hashlib.sha256(path.read_bytes()).digest()
    except OSError:
        return None


def _unchanged(path: Path, mark: Mark) -> bool:
    stamp, digest = mark
    if _stamp(path) != stamp:
        return False
    return digest is None or _digest(path) == digest


class LoadCache:
    """Rulesets by top file, valid while the registry and every file of the chain are unchanged."""

    def __init__(self, size: int = SIZE) -> None:
        self._entries: Recent[
            tuple[str, bool], tuple[Registry, tuple[tuple[Path, Mark], ...], Ruleset]
        ] = Recent(size)

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, path: Path, registry: Registry, outside: bool = False) -> Ruleset | None:
        key = (str(path), outside)
        entry = self._entries.get(key)
        if entry is None:
            return None
        owner, marks, ruleset = entry
        if owner is not registry or not all(_unchanged(p, m) for p, m in marks):
            self._entries.discard(key)
            return None
        return ruleset

    def put(
        self,
        path: Path,
        registry: Registry,
        files: Iterable[Path],
        ruleset: Ruleset,
        outside: bool = False,
    ) -> None:
        marks: list[tuple[Path, Mark]] = []
        now = time.time_ns()
        for file in files:
            stamp = _stamp(file)
            if stamp is None:
                return
            digest = _digest(file) if now - stamp[3] < RACY_NS else None
            if digest is None and now - stamp[3] < RACY_NS:
                return
            marks.append((file, (stamp, digest)))
        self._entries.put((str(path), outside), (registry, tuple(marks), ruleset))

    def clear(self) -> None:
        self._entries.clear()
