"""Validated rulesets kept on disk between commands, while nothing they came from changed.

Every `ulti` command that loads a ruleset validates its files afresh: building pydantic's
validators for the schema, validating, deriving the ladder, and importing what that
takes (``importlib.metadata``, which pydantic imports to look for its own plugins) cost
about 55 ms of CPU, a sixth of `ulti ladder wikipedia`. A ruleset validated once is
kept here, pickled (a ruleset pickles by its kinds: ``Ruleset.__reduce_ex__``), and the
next command that loads the same file unpickles it instead, in a few milliseconds.

An entry is used only while everything the validation depended on is as it was, each
checked on every use:

* each file of the ``extends:`` chain: its real path and its content (a SHA-256 of the
  bytes, so a change within the timestamp's tick, or one that keeps the size and
  modification time, is seen too);
* the folders a name is looked up in (the user's folders, the bundled one): their
  identity and modification time, which change when a file is added, removed or renamed
  there, so a new file that hides a name a chain used is seen; a folder changed within
  the last two seconds (too recently for its timestamp to show a second change) is
  never trusted, and nothing is kept or used then;
* the code: the size and modification time of every module of ``ulti_rules`` and of
  every plugin's package, with the versions of Python, pydantic and PyYAML;
* the plugins loaded (names, distributions, kinds, ranking rules, their rulesets and
  fragments) and whether paths outside a file's folder were allowed: these name the entry.

The cache is in ``$ULTI_CACHE_DIR``, else ``$XDG_CACHE_HOME/ulti-rules``, else
``~/.cache/ulti-rules``; ``ULTI_CACHE_DIR`` set to an empty string turns it off. A folder
that is not the user's own, or that others may write to, is never read: pickles run code
when loaded. A cache never decides anything: an entry that cannot be read, is from
another version of the format or does not check out is passed over (and written again
after the fresh load); a folder that cannot be written leaves the command as it was.
Only a registry built from the process's plugin manager is cached on disk (a registry an
embedding program builds itself has only the in-memory cache, ``load_cache.py``). At
most ``MAX_ENTRIES`` files are kept, the oldest removed first.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import stat
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..plugins import Registry
    from .schema import Ruleset

CACHE_ENV = "ULTI_CACHE_DIR"
"""The cache's folder; set to an empty string, no cache is kept."""
FORMAT = 1
"""The layout of an entry; an entry of another layout is passed over."""
MAX_ENTRIES = 256
"""Entries kept at most (one per ruleset file, plugin set and Python version)."""
RACY_NS = 2_000_000_000
"""A folder changed this recently may change again within the same timestamp tick."""
_MAGIC = b"ulti-rules ruleset cache\n"
_SUFFIX = ".pickle"


def cache_dir() -> Path | None:
    """The cache's folder, or None when the cache is off (``ULTI_CACHE_DIR=``) or there is
    no home folder to keep it in."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None:
        return Path(chosen).expanduser() if chosen else None
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg) / "ulti-rules"
    try:
        return Path.home() / ".cache" / "ulti-rules"
    except RuntimeError:
        return None


# --------------------------------------------------------------------------- what an entry rests on


def _module_files(module: ModuleType) -> list[str]:
    """The source files of the package (or lone module) ``module`` belongs to."""
    top = sys.modules.get(module.__name__.partition(".")[0], module)
    file = getattr(top, "__file__", None)
    if not file:
        return []
    if os.path.basename(file) != "__init__.py":
        return [file]
    return _package_files(os.path.dirname(file))


def _package_files(package: str) -> list[str]:
    """The ``.py`` files in the folder ``package`` and below, in a fixed order."""
    found: list[str] = []
    for folder, dirs, files in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        found.extend(os.path.join(folder, f) for f in sorted(files) if f.endswith(".py"))
    return found


def _file_stamps(files: Iterable[str]) -> tuple[tuple[str, int, int], ...]:
    stamps = []
    for file in files:
        try:
            info = os.stat(file)
        except OSError:
            stamps.append((file, -1, -1))
        else:
            stamps.append((file, info.st_size, info.st_mtime_ns))
    return tuple(stamps)


@functools.cache
def _library_versions() -> tuple[str, ...]:
    import pydantic
    import pydantic_core
    import yaml

    return (sys.version, pydantic.VERSION, pydantic_core.__version__, yaml.__version__)


@functools.cache
def _code(plugin_modules: tuple[ModuleType, ...]) -> tuple[Any, ...]:
    """What the running code is: its files' sizes and times, and the libraries' versions.
    Read once per process (about 150 ``stat`` calls, 1.5 ms): the code a process runs is
    what it imported, whatever happens to the files after."""
    files = _package_files(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for module in plugin_modules:
        files.extend(f for f in _module_files(module) if f not in files)
    return (_library_versions(), _file_stamps(files))


def _folders(registry: Registry) -> tuple[Any, ...] | None:
    """The identity and time of each folder a name is looked up in; None if one changed
    too recently to be trusted."""
    from .finding import bundled_dir, user_dirs

    now = time.time_ns()
    stamps: list[tuple[str, tuple[int, int, int] | None]] = []
    for folder in [*user_dirs(), bundled_dir()]:
        try:
            info = os.stat(folder)
        except OSError:
            stamps.append((str(folder), None))
            continue
        if now - info.st_mtime_ns < RACY_NS:
            return None
        stamps.append((str(folder), (info.st_dev, info.st_ino, info.st_mtime_ns)))
    return tuple(stamps)


def _plugins(registry: Registry) -> tuple[Any, ...]:
    """The plugins as the ruleset was validated with them: who, and what they gave."""
    return (
        tuple(sorted(registry.plugins.items(), key=repr)),
        tuple(sorted((f.plugin, f.phase) for f in registry.failures)),
        tuple(
            sorted(
                (name, f"{type(kind).__module__}.{type(kind).__qualname__}")
                for name, kind in registry.kinds.items()
            )
        ),
        tuple(sorted(registry.ranking_rules)),
        tuple(str(path) for path, _ in registry.rulesets),
        tuple(str(path) for path, _ in registry.fragments),
    )


def _files(paths: Iterable[Path]) -> tuple[tuple[str, str, bytes], ...] | None:
    """Each file's path, real path and content digest; None if one cannot be read."""
    found = []
    for path in paths:
        try:
            digest = hashlib.sha256(path.read_bytes()).digest()
            real = os.path.realpath(path)
        except OSError:
            return None
        found.append((str(path), real, digest))
    return tuple(found)


# --------------------------------------------------------------------------- the folder


def _trusted(folder: Path) -> bool:
    """Whether ``folder`` is the user's own, and no one else may write in it."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    return (
        stat.S_ISDIR(info.st_mode)
        and info.st_uid == os.getuid()
        and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    )


def _entry_path(folder: Path, path: Path, outside: bool, plugins: tuple[Any, ...]) -> Path:
    name = repr((FORMAT, str(path), outside, sys.implementation.cache_tag, plugins))
    return folder / (
        hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:40] + _SUFFIX
    )


class DiskCache:
    """The rulesets of the process's plugin registry, kept in :func:`cache_dir`."""

    def __init__(self, plugin_modules: tuple[ModuleType, ...]) -> None:
        self.plugin_modules = plugin_modules
        """The modules of the plugins loaded: their code is part of what an entry rests on."""

    def get(
        self, path: Path, registry: Registry, outside: bool
    ) -> tuple[Ruleset, list[Path]] | None:
        """The ruleset kept for the file at ``path`` and the files it was read from, if
        nothing it rests on changed; else None."""
        folder = cache_dir()
        if folder is None or not _trusted(folder):
            return None
        plugins = _plugins(registry)
        entry = _entry_path(folder, path, outside, plugins)
        try:
            with open(entry, "rb", opener=_no_follow) as file:
                info = os.fstat(file.fileno())
                if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
                    return None
                data = file.read()
        except OSError:
            return None
        head, _, rest = data.partition(b"\n\n")
        if head + b"\n" != _MAGIC or len(rest) < 32:
            return None
        digest, body = rest[:32], rest[32:]
        if hashlib.sha256(body).digest() != digest:
            return None
        try:
            kept = pickle.loads(body)  # the user's own folder, checked above
            stored_format, stored_path, rests_on, files, ruleset = kept
        except Exception:  # another version's classes, a truncated file: pass it over
            return None
        if stored_format != FORMAT or stored_path != str(path):
            return None
        folders = _folders(registry)
        if folders is None or rests_on != (folders, _code(self.plugin_modules)):
            return None
        paths = [Path(p) for p, _, _ in files]
        if _files(paths) != files:
            return None
        from .schema import ruleset_model

        if type(ruleset) is not ruleset_model(registry.param_models()):
            return None
        return ruleset, paths

    def put(
        self, path: Path, registry: Registry, files: list[Path], ruleset: Ruleset, outside: bool
    ) -> None:
        """Keep ``ruleset`` (validated from ``files``, ``path`` first or last) for the next
        command; nothing happens if the folder cannot be made or written."""
        folder = cache_dir()
        if folder is None:
            return
        folders = _folders(registry)
        read = _files(files)
        if folders is None or read is None:
            return
        plugins = _plugins(registry)
        kept = (FORMAT, str(path), (folders, _code(self.plugin_modules)), read, ruleset)
        try:
            body = pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # something in a plugin's parameters that does not pickle
            return
        data = _MAGIC + b"\n" + hashlib.sha256(body).digest() + body
        with contextlib.suppress(OSError):
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not _trusted(folder):
                return
            _write(_entry_path(folder, path, outside, plugins), data)
            _prune(folder)


def _no_follow(path: str, flags: int) -> int:
    return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0))


def _write(entry: Path, data: bytes) -> None:
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


def _prune(folder: Path) -> None:
    """Remove the oldest entries beyond ``MAX_ENTRIES`` (and temporary files an hour old:
    a writer that was killed)."""
    entries: list[tuple[int, str]] = []
    now = time.time_ns()
    with os.scandir(folder) as scan:
        for item in scan:
            with contextlib.suppress(OSError):
                when = item.stat(follow_symlinks=False).st_mtime_ns
                if item.name.endswith(_SUFFIX):
                    entries.append((when, item.path))
                elif item.name.endswith(".tmp") and now - when > 3600 * 10**9:
                    os.unlink(item.path)
    entries.sort()
    for _, path in entries[: max(0, len(entries) - MAX_ENTRIES)]:
        with contextlib.suppress(OSError):
            os.unlink(path)
