"""What loading a ruleset read: each file, and each name it looked up.

The disk cache of validated rulesets (``disk_cache.py``) keeps a ruleset with this
record and hands it out again only while every file still holds the bytes that were
parsed and every name still finds the same files. The record is taken where the reading
happens (``parsed_files.py`` for files, ``finding.py`` for names), so a file the chain
reads only to drop it (``without:``), or a name it looked up and did not find, counts as
much as the files merged.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

from .stamps import place


class Reads:
    """One load's record (a plain class: `ulti rulesets` imports this module, and a
    dataclass costs a millisecond to define)."""

    __slots__ = ("files", "names")

    def __init__(self) -> None:
        self.files: dict[str, tuple[str, str, bytes]] = {}
        """Each file parsed: path -> (its real path then, the real path of the folder it
        was reached through then, the SHA-256 of the bytes parsed). The folder is where a
        path written in the file is confined to (``references.confine``), which is not
        the real path's folder when the file, or a folder on its way, is a symbolic link.
        A file read twice with different bytes (changed while the load ran) is marked by
        an empty digest, which no file matches."""
        self.names: dict[str, tuple[tuple[str, str], ...] | None] = {}
        """Each name looked up -> the files of that name then (path, real path), in lookup
        order (none: not found); None if two lookups found different files."""

    def changed(self) -> bool:
        """Whether a file or a name read twice gave two answers (it changed meanwhile)."""
        return None in self.names.values() or any(not d for _, _, d in self.files.values())


_CURRENT: ContextVar[tuple[Reads, ...]] = ContextVar("ulti_rules_reads", default=())
"""The records being taken, innermost last: a load within a load counts for both."""


@contextlib.contextmanager
def recording() -> Iterator[Reads]:
    """Record what the loads within the block read."""
    reads = Reads()
    token = _CURRENT.set((*_CURRENT.get(), reads))
    try:
        yield reads
    finally:
        _CURRENT.reset(token)


def note_file(path: Path, digest: bytes) -> None:
    """``path`` was parsed, its bytes' SHA-256 ``digest`` (if a load is being recorded)."""
    records = _CURRENT.get()
    if not records:
        return
    key, (real, folder) = str(path), place(path)
    for reads in records:
        seen = reads.files.get(key)
        same = seen is None or seen == (real, folder, digest)
        reads.files[key] = (real, folder, digest if same else b"")


def note_name(name: str, paths: list[Path]) -> None:
    """The name ``name`` was looked up and found ``paths`` (if a load is being recorded)."""
    records = _CURRENT.get()
    if not records:
        return
    found = tuple((str(p), os.path.realpath(p)) for p in paths)
    for reads in records:
        seen = reads.names.get(name, found)
        reads.names[name] = found if seen == found else None
