"""The user's cache folder, and reading and writing its files safely.

Shared by the cache of validated rulesets (``disk_cache.py``) and the cache of ruleset
headings (``headings.py``). What is kept there is pickled, and a pickle runs code as it
is loaded: a folder or a file that is not the user's own, that others may write to, or
that is a symbolic link is never read. A file is written whole or not at all, so a
reader sees the old content or the new. Light on purpose (no hashing, no YAML):
`ulti rulesets` reads its headings through it at start-up.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from .references import expand_home

CACHE_ENV = "ULTI_CACHE_DIR"
"""The cache's folder; set to an empty string, no cache is kept."""


def cache_dir() -> Path | None:
    """The cache's folder, or None when the cache is off (``ULTI_CACHE_DIR=``), there is
    no home folder to keep it in, or the system has no user ids to check it by."""
    if getattr(os, "getuid", None) is None:
        return None
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None:
        folder = expand_home(chosen) if chosen else None  # None for a ~user not there
        # absolute: a relative folder named after a change of working folder is another
        return None if folder is None else Path(os.path.abspath(folder))
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg) / "ulti-rules"
    home = expand_home("~")  # None: no home folder
    return None if home is None else home / ".cache" / "ulti-rules"


def owned(info: os.stat_result) -> bool:
    """Whether the file or folder is the user's own, and no one else may write to it."""
    return info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read_entry(folder: Path, name: str, max_bytes: int) -> bytes | None:
    """The file ``name``'s bytes, if the folder and the file are the user's own, neither
    is a symbolic link, and the file holds at most ``max_bytes``; else None."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        folder_fd = os.open(folder, flags | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return None
    try:
        if not owned(os.fstat(folder_fd)):
            return None
        fd = os.open(name, flags | getattr(os, "O_NONBLOCK", 0), dir_fd=folder_fd)
        with os.fdopen(fd, "rb") as file:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or not owned(info):
                return None
            if info.st_size > max_bytes:
                return None
            data = file.read(info.st_size + 1)  # not a buffer of the largest size allowed
        return data if len(data) == info.st_size else None
    except OSError:
        return None
    finally:
        os.close(folder_fd)


def made(folder: Path) -> bool:
    """Whether ``folder`` exists, or was made readable by the user alone, and is the
    user's own folder (no symbolic link), to write in."""
    with contextlib.suppress(OSError):
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
        return stat.S_ISDIR(info.st_mode) and owned(info)
    return False


def write_whole(entry: Path, data: bytes) -> None:
    """Write whole or not at all: a reader sees the old entry or the new one."""
    import tempfile  # only when an entry is written: 3 ms of every command otherwise

    fd, temp = tempfile.mkstemp(dir=entry.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temp, entry)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
