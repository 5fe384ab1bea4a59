"""Whether a file or a folder is still the one a cache saw: the stamps the caches compare.

A stamp is a file's device, inode, size, and modification and change times, read through
any symbolic link: an edit, a file put in another's place, or a modification time put
back (which moves the change time) each change it. A stamp taken within ``RACY_NS`` of
the file's last change may hide a second change in the same tick of the clock; a cache
keeps such a file's content, or nothing. One definition for the caches of rulesets in
memory (``load_cache.py``), of the search folders' listings (``finding.py``) and of the
titles `ulti rulesets` lists (``headings.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

RACY_NS = 2_000_000_000
"""A file changed this recently (in nanoseconds) may change again within the same tick."""

Stamp = tuple[int, int, int, int, int]
Identity = tuple[int, int] | None
"""A file's or folder's device and inode, through any symbolic link (None: not there)."""


def stamp_of(info: os.stat_result) -> Stamp:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def stamp(path: str | Path) -> Stamp | None:
    """The stamp of the file at ``path`` now (None: not there, or not to be read)."""
    try:
        return stamp_of(os.stat(path))
    except OSError:
        return None


def settled(seen: Stamp, now: int, racy_ns: int = RACY_NS) -> bool:
    """Whether the stamp was taken long enough after the last change to show the next."""
    return now - max(seen[3], seen[4]) > racy_ns


def place(path: str | Path) -> tuple[str, str]:
    """Where a file really is: its real path, and its folder's (what a path written in it
    is confined to). A folder on its way moved and a link left changes them, not the file."""
    return os.path.realpath(path), os.path.realpath(Path(path).parent)


def identity(path: str | Path) -> Identity:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino
