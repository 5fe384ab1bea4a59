"""Validated rulesets kept while what they were read from is as it was: a repeated load is
about ten stats (50 to 95 µs; 25 to 35 before names and folders were checked too).

Loading validates every file of an ``extends:`` chain (20 to 90 ms); a program that
plays many hands, or a server, loads the same ruleset again and again. An entry is
keyed by the top file's path and whether paths outside a file's folder were allowed
(``ulti --allow-outside-paths``: a ruleset loaded with that permission is never handed
out without it), and holds the plugin registry it was validated with, each file's
identity, size and modification time, the files each name in the chain (``extends:``,
``with:``, ``without:``) found, and what ``~`` and the rulesets folders were; any change
(a user's new ``tournament.yaml`` under a club file that ``extends: tournament``, say),
or another registry, loads afresh. A file that holds other bytes when the entry is made
than the load parsed changed while it was validated: nothing is kept.
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
from collections.abc import Callable, Hashable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ..recent import Recent
from .stamps import Identity, Stamp, identity, place, settled
from .stamps import stamp as stamp_now

if TYPE_CHECKING:
    from ..plugins import Registry
    from .schema import Ruleset

SIZE = 64

Place = tuple[str, str] | None
"""The real path of a file reached by a path written in a file, and of its folder (what
the path is confined to): a folder on its way moved, and a link left in its place,
changes them and nothing else. None for a file found by name, whose lookup is checked."""
Mark = tuple[Stamp, bytes | None, Place]
Names = Mapping[str, tuple[tuple[str, str], ...] | None]
"""Each name a load looked up -> the files it found, in lookup order, each by its path and
real path then (``reads.Reads.names``)."""
Found = tuple[Hashable, tuple[tuple[tuple[str, Hashable], ...], ...]]
Lookup = Callable[["Registry", tuple[str, ...]], Found]
"""What names and paths in a chain resolve against now, and the files each of the given
names finds, each by its path and what it is (``finding.lookup_now``; given by the loader,
so that this module stays below it)."""
Entry = tuple[
    "Registry", tuple[tuple[Path, Mark], ...], tuple[str, ...], Found, Identity, "Ruleset"
]


def _digest(path: Path) -> bytes | None:
    try:
        return hashlib.sha256(path.read_bytes()).digest()
    except OSError:
        return None


def _unchanged(path: Path, mark: Mark) -> bool:
    seen, digest, where = mark
    if stamp_now(path) != seen:
        return False
    if where is not None and place(path) != where:
        return False
    return digest is None or _digest(path) == digest


class LoadCache:
    """Rulesets by top file, valid while the registry, every file of the chain, every name
    it looked up and the folders it was resolved against are unchanged."""

    def __init__(self, lookup: Lookup, size: int = SIZE) -> None:
        self._lookup = lookup
        self._entries: Recent[tuple[str, bool], Entry] = Recent(size)

    def __len__(self) -> int:
        return len(self._entries)

    def get(
        self,
        path: Path,
        registry: Registry,
        outside: bool = False,
        now: Callable[[tuple[str, ...]], Found] | None = None,
    ) -> Ruleset | None:
        """The ruleset kept for ``path``, if nothing it was loaded from changed (``now``:
        this cache's lookup for ``registry``, from what the caller has just looked at)."""
        key = (str(path), outside)
        entry = self._entries.get(key)
        if entry is None:
            return None
        owner, marks, names, lookup, folder, ruleset = entry
        if (
            owner is not registry
            or not all(_unchanged(p, m) for p, m in marks)
            or identity(path.parent) != folder
            or (self._lookup(registry, names) if now is None else now(names)) != lookup
        ):
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
        names: Names | None = None,
        parsed: Mapping[str, bytes] | None = None,
        placed: Mapping[str, tuple[str, str]] | None = None,
    ) -> None:
        """Keep ``ruleset``, loaded from ``files`` (every file the load read) and the
        ``names`` it looked up. ``parsed``: the SHA-256 of the bytes the load parsed, by
        path; a file that holds other bytes now changed while it was validated, and
        nothing is kept (its stamp, taken now, would vouch for the new bytes). Nothing is
        kept either if a file is gone already, or a name finds other files now than the
        load found. ``placed``: the files reached by a path (not by a name), each with
        its real path and its folder's when the load read it; one that has others now is
        not kept."""
        names = names or {}
        order = tuple(names)
        lookup = self._lookup(registry, order)
        for name, found in zip(order, lookup[1], strict=True):  # still the files it found
            then = names[name]
            if then is None or [(p, os.path.realpath(p)) for p, _ in found] != list(then):
                return
        marks: list[tuple[Path, Mark]] = []
        now = time.time_ns()
        for file in files:
            seen = stamp_now(file)
            if seen is None:
                return
            racy = not settled(seen, now)
            read = parsed.get(str(file)) if parsed else None
            digest = _digest(file) if racy or read is not None else None
            if read is not None and digest != read:  # changed since the load read it
                return
            if racy and digest is None:  # unreadable now
                return
            where = placed.get(str(file)) if placed else None
            if where is not None and place(file) != where:  # moved since the load read it
                return
            marks.append((file, (seen, digest if racy else None, where)))
        # The folder the top file is in: a path written in it is confined there, and the
        # same file reached through another folder (a link, a working folder) is not.
        entry = (registry, tuple(marks), order, lookup, identity(path.parent), ruleset)
        self._entries.put((str(path), outside), entry)

    def clear(self) -> None:
        self._entries.clear()
