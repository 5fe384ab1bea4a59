"""Ruleset files' headings (their title, or that they are a fragment), kept between commands.

`ulti rulesets` shows each file's title, read from the top of the file
(``safe_yaml.read_heading``). Reading it takes PyYAML, whose import alone is a sixth of
the command's start-up (94 of 537 million instructions on 2026-12-03), however small
the files. So a heading read once is kept in the user's cache folder (``cache_folder.py``,
beside the validated rulesets) and handed out again while the file is as it was, and a
listing whose files are all unchanged, each with its title at its top, imports no YAML
at all.

A heading is kept under the file's path and the keys read up to, with the file's
identity (device and inode), size and its modification and change times to the
nanosecond: a write to the file, a ``touch`` or a rename over it moves the change time,
which no program can set back. A file changed within the last two seconds is not kept
(a coarse clock could give two writes one time); nor is a heading a quick read cannot
tell (``None``), which the listing reads whole anyway. The cache also rests on the code
that reads headings: the size and modification time of ``safe_yaml.py``,
``yaml_data.py``, this module and PyYAML's files (``code_files.py``), with the version
of Python; a change to any, or a code file changed after this process started, leaves
everything to be read afresh. At most
``MAX_HEADINGS`` are kept, those used last. Like the rest of the cache, it is off with
``ULTI_CACHE_DIR=`` set empty, and never decides anything: a cache file that cannot be
read or does not check out is passed over, and written again.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import stat
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ..recent import Recent
from . import stamps
from .cache_folder import cache_dir, made, read_entry, write_whole
from .code_files import changed_since, file_stamps, pyyaml_files
from .stamps import Stamp

FORMAT = 1
"""The layout of the cache file; a file of another layout is passed over."""
FILE_NAME = "headings.pickle"
MAX_HEADINGS = 10_000
"""Headings kept at most: a folder of two thousand club files fits five times over."""
MAX_FILE_BYTES = 8 * 2**20
"""A cache file larger than this is neither read nor written (the oldest headings are
left out until it fits)."""
RACY_NS = stamps.RACY_NS
"""A file changed this recently (in nanoseconds) may change again within the same tick."""
_STARTED_NS = time.time_ns()
"""About when this process started reading headings: code changed after that may not be
the code it runs."""
NOT_TEXT = object()
"""What a heading gives for a value that is not plain text (``safe_yaml.read_heading``
gives this very object)."""
_NOT_TEXT = None
"""How the cache file holds :data:`NOT_TEXT`."""

Key = tuple[str, tuple[str, ...]]

_lock = threading.Lock()
_kept: Recent[Key, tuple[Stamp, dict[str, Any]]] | None = None
"""The headings known, the most recently used last: read from the cache file at the
first look-up of the process."""
_kept_in: Path | None = None
"""The cache folder ``_kept`` was read from."""
_changed = False
"""Whether this process read a heading the cache file does not hold yet."""


def heading(path: Path, keys: tuple[str, ...]) -> dict[str, Any] | None:
    """``safe_yaml.read_heading(path, keys)``: the kept heading while the file is unchanged,
    else read (and kept for the next command, by :func:`keep`)."""
    global _changed
    try:
        info = os.stat(path)
    except OSError:
        info = None
    if info is None or not stat.S_ISREG(info.st_mode):
        return _read(path, keys)  # what the reader says of no file, a folder, a FIFO
    folder = cache_dir()
    if folder is None:  # the cache is off: nothing is kept, not even in this process
        forget()
        return _read(path, keys)
    stamp = stamps.stamp_of(info)
    key = (str(path), keys)
    with _lock:
        kept = _load(folder)
        found = kept.get(key)
        if found is not None and found[0] == stamp:
            return _unpacked(found[1])
        if found is not None:
            kept.discard(key)  # the file changed
    head = _read(path, keys)
    if head is not None and stamps.settled(stamp, time.time_ns(), RACY_NS):
        with _lock:
            _load(folder).put(key, (stamp, _packed(head)))
            _changed = True
    return head


def keep() -> None:
    """Write the headings read by this process to the cache file, for the next command;
    nothing happens when there is nothing new, no cache, or the folder cannot be written."""
    global _changed
    with _lock:
        folder = _kept_in
        if not _changed or _kept is None or folder is None or folder != cache_dir():
            return  # nothing new, or the cache was turned off or moved since
        code = _code()
        if code is None or not made(folder):
            return
        items = _kept.items()
        data = _pickled(code, items)
        while len(data) > MAX_FILE_BYTES and items:  # huge titles: the oldest go first
            items = items[len(items) // 4 + 1 :]
            data = _pickled(code, items)
        with contextlib.suppress(OSError):
            write_whole(folder / FILE_NAME, data)
            _changed = False


def _pickled(code: tuple[Any, ...], items: list[tuple[Key, tuple[Stamp, dict[str, Any]]]]) -> bytes:
    return pickle.dumps((FORMAT, code, items), protocol=pickle.HIGHEST_PROTOCOL)


def forget() -> None:
    """Drop what this process knows, as if it had just started (tests; the cache off)."""
    global _kept, _kept_in, _changed
    with _lock:
        _kept, _kept_in, _changed = None, None, False


def _read(path: Path, keys: tuple[str, ...]) -> dict[str, Any] | None:
    from .safe_yaml import read_heading  # PyYAML: only for a heading not kept

    return read_heading(path, keys)


def _load(folder: Path) -> Recent[Key, tuple[Stamp, dict[str, Any]]]:
    """The headings kept in ``folder``, read from its cache file once per process, and
    again if the cache moved to another folder (call under the lock)."""
    global _kept, _kept_in, _changed
    if _kept is None or _kept_in != folder:
        _kept, _kept_in, _changed = _from_file(folder), folder, False
    return _kept


def _from_file(folder: Path) -> Recent[Key, tuple[Stamp, dict[str, Any]]]:
    kept: Recent[Key, tuple[Stamp, dict[str, Any]]] = Recent(MAX_HEADINGS)
    data = read_entry(folder, FILE_NAME, MAX_FILE_BYTES)
    code = _code() if data is not None else None
    if data is None or code is None:
        return kept
    try:
        # the user's own file in the user's own folder (read_entry checks), whole
        kept_format, kept_code, items = pickle.loads(data)
        if kept_format != FORMAT or kept_code != code:
            return kept
        for (path, keys), (stamp, head) in items[-MAX_HEADINGS:]:  # the last used last
            if _stamp_like(stamp) and _heading_like(head):
                kept.put((str(path), tuple(map(str, keys))), (stamp, head))
    except Exception:  # another layout, a file cut short: read everything afresh
        kept.clear()
    return kept


def _code() -> tuple[Any, ...] | None:
    """What reads a heading: the reader's modules (``safe_yaml.py``, ``yaml_data.py``
    and this one) and PyYAML's files, by size and modification time, and the version of
    Python; None where PyYAML's files cannot be listed or a file changed after this
    process started."""
    here = Path(__file__).parent
    files = [str(here / name) for name in ("safe_yaml.py", "yaml_data.py", "headings.py")]
    yaml_files = pyyaml_files()
    if yaml_files is None:
        return None
    stamps = file_stamps([*files, *yaml_files])
    if any(size < 0 for _, size, _ in stamps[: len(files)]) or changed_since(stamps, _STARTED_NS):
        return None
    return (sys.version, stamps)


def _packed(head: dict[str, Any]) -> dict[str, Any]:
    return {k: _NOT_TEXT if v is NOT_TEXT else _copied(v) for k, v in head.items()}


def _unpacked(head: dict[str, Any]) -> dict[str, Any]:
    return {k: NOT_TEXT if v is _NOT_TEXT else _copied(v) for k, v in head.items()}


def _copied(value: Any) -> Any:
    return dict(value) if isinstance(value, dict) else value


def _stamp_like(stamp: Any) -> bool:
    return type(stamp) is tuple and len(stamp) == 5 and all(type(n) is int for n in stamp)


def _heading_like(head: Any) -> bool:
    """A heading as ``read_heading`` gives it: text keys, each value text, no text (None
    here) or a mapping of text to text."""
    if type(head) is not dict:
        return False
    for key, value in head.items():
        if type(key) is not str:
            return False
        if value is None or type(value) is str:
            continue
        if type(value) is not dict:
            return False
        if not all(type(k) is str and type(v) is str for k, v in value.items()):
            return False
    return True
