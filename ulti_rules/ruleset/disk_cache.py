"""Validated rulesets kept on disk between commands, while nothing they came from changed.

Every `ulti` command that loads a ruleset validates its files afresh: building pydantic's
validators for the schema, validating, deriving the ladder, and importing what that
takes (``importlib.metadata``, which pydantic imports to look for its own plugins) cost
about 55 ms of CPU, a sixth of `ulti ladder wikipedia`. A ruleset validated once is
kept here, pickled (a ruleset pickles by its kinds: ``Ruleset.__reduce_ex__``), and the
next command that loads the same file unpickles it instead, in a few milliseconds.

An entry is used only while everything the validation depended on is as it was, each
checked on every use:

* every file the load read (``reads.py``: the files merged, and those it read only to
  drop them): its real path, the real path of the folder it was reached through (a path
  written in the file is confined to that folder, which a symbolic link to the file or
  to a folder on its way may change), and the SHA-256 of the bytes that were parsed, read
  again as the loader reads it (by the path as written, a regular file within its size
  limit). A change within the
  timestamp's tick, or one that keeps the size and time, is seen; a file that changed
  while the load read it is never kept;
* every name the load looked up (``extends:``, ``with:``, ``without:``): the files of
  that name now, by path and real path, in lookup order (user folders, plugins, the
  bundled rulesets), so a file added that takes a name over, a symbolic link whose
  target appears or changes, or a relative folder read from another working folder, is
  seen; a name whose files changed while the load looked it up twice is never kept;
* what ``~`` stands for, and the real paths of the folders a path written in a file may
  lead into (``references.confine``: the rulesets folders);
* the code: the size and modification time of every module of ``ulti_rules``, of every
  plugin's package, and of the modules of its kinds' classes, their parameter models and
  every class these build on, and its ranking rules, and of PyYAML's package, with the
  versions of Python and pydantic. Code without a file (typed into ``python -c`` or a
  notebook) turns the cache off, and so does a code file changed after the process
  imported the loader (what it runs may not be what is on disk);
* the plugins loaded (names, distributions, kinds, ranking rules, their rulesets and
  fragments) and whether paths outside a file's folder were allowed: these name the entry.

The cache is in ``$ULTI_CACHE_DIR``, else ``$XDG_CACHE_HOME/ulti-rules``, else
``~/.cache/ulti-rules``; ``ULTI_CACHE_DIR`` set to an empty string turns it off, and so
does a system without user ids. The folder is made readable by the user alone when
``ulti`` makes it; a folder or an entry that is not the user's own, that others may write
to, or that is a symbolic link is never read: pickles run code when loaded. A cache never
decides anything: an entry that cannot be read, is from another version of the format
or does not check out is passed over (and written again after the fresh load); a folder
that cannot be made or written leaves the command as it was, and a fault in the cache
itself falls back to validating (``load_ruleset``). Only a registry built from the
process's plugin manager is cached on disk (a registry an embedding program builds
itself has only the in-memory cache, ``load_cache.py``). At most ``MAX_ENTRIES`` files
are kept, the oldest removed first.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import re
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .cache_folder import CACHE_ENV as CACHE_ENV  # where tests and tools look for it
from .cache_folder import cache_dir, made, read_entry, write_whole
from .code_files import changed_since, file_stamps, package_files, pyyaml_files
from .finding import _candidates, ruleset_folders
from .reads import Reads
from .stamps import place
from .yaml_data import YamlError, read_bytes

if TYPE_CHECKING:
    from ..plugins import Registry
    from .schema import Ruleset

FORMAT = 5
"""The layout of an entry; an entry of another layout is passed over."""
MAX_ENTRIES = 256
"""Entries kept at most (one per ruleset file, plugin set and Python version)."""
MAX_ENTRY_BYTES = 8 * 2**20
"""An entry larger than this is not read (``wikipedia``'s is 35 KB)."""
_MAGIC = b"ulti-rules ruleset cache\n"
_SUFFIX = ".pickle"
_ENTRY = re.compile(r"[0-9a-f]{40}" + re.escape(_SUFFIX))
"""The name of an entry (:func:`_entry_name`): what pruning counts and removes."""
_IMPORTED_NS = time.time_ns()
"""About when this process imported the loader: a code file changed after that may not
be the code it runs."""


# --------------------------------------------------------------------------- what an entry rests on


def _module_files(module: ModuleType) -> list[str]:
    """The source files of the package ``module`` belongs to (every folder of a namespace
    package), and its own file."""
    top = sys.modules.get(module.__name__.partition(".")[0], module)
    folders = getattr(top, "__path__", None)
    found: list[str] = []
    if folders is not None:
        for folder in sorted(str(f) for f in folders):
            found.extend(package_files(folder))
    elif getattr(top, "__file__", None):
        found.append(str(top.__file__))
    own = getattr(module, "__file__", None)
    if own and str(own) not in found:
        found.append(str(own))
    return found


_VERSIONED = frozenset({"pydantic", "pydantic_core"})
"""Packages whose code is told by a version in the entry (besides the standard library,
the interpreter's)."""


def _code_modules(
    registry: Registry, plugins: tuple[ModuleType, ...]
) -> tuple[ModuleType, ...] | None:
    """The plugins' modules, and those their kinds, their parameter models and every
    class these build on, and their ranking rules come from; None if one of them has no
    file to stamp (code typed into ``python -c`` or a notebook)."""
    classes: list[type] = []
    for kind in registry.kinds.values():
        classes += [*type(kind).__mro__, *type(kind).params.__mro__]
    names = {c.__module__ for c in classes}
    names |= {getattr(rule.rank, "__module__", "") for rule in registry.ranking_rules.values()}
    found = list(plugins)
    for name in sorted(names):
        top = name.partition(".")[0]
        if top in _VERSIONED or top in sys.stdlib_module_names:
            continue
        module = sys.modules.get(name)
        if module is None or not getattr(module, "__file__", None):
            return None
        if module not in found:
            found.append(module)
    if any(not getattr(m, "__file__", None) and not hasattr(m, "__path__") for m in plugins):
        return None
    return tuple(found)


@functools.lru_cache(maxsize=16)
def _code(modules: tuple[ModuleType, ...]) -> tuple[Any, ...] | None:
    """What the running code is: the sizes and times of the files of ``ulti_rules`` and
    of ``modules``' packages, and the libraries' versions; read once per process (about
    150 ``stat`` calls, 1.5 ms). None if a file changed after this process imported the
    loader: the code on disk may not be the code it runs, so nothing is kept or read."""
    import pydantic
    import pydantic_core

    files = package_files(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for module in modules:
        files.extend(f for f in _module_files(module) if f not in files)
    # PyYAML by its files, not its __version__: a ruleset read from the cache imports no
    # YAML parser (a tenth of `ulti ladder`'s start-up), and an upgrade rewrites them
    yaml_files = pyyaml_files()
    if yaml_files is None:
        return None
    files.extend(f for f in yaml_files if f not in files)
    stamps = file_stamps(files)
    if changed_since(stamps, _IMPORTED_NS):
        return None
    versions = (sys.version, pydantic.VERSION, pydantic_core.__version__)
    return (versions, stamps)


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


def _home() -> str:
    """What ``~`` in a path written in a file stands for."""
    return os.path.expanduser("~")


def _names_now(registry: Registry, names: dict[str, tuple[tuple[str, str], ...] | None]) -> bool:
    """Whether every name still finds the same files (by path and real path), in the
    same order."""
    if not names:
        return True
    known = _candidates(registry)
    return all(
        tuple((str(c.path), os.path.realpath(c.path)) for c in known.get(name, [])) == found
        for name, found in names.items()
    )


def _folders(registry: Registry) -> tuple[str, ...]:
    """The real paths of the folders a path written in a file may lead into (besides its
    own folder): a path let in by one of them is refused when it is gone."""
    return tuple(os.path.realpath(folder) for folder in ruleset_folders(registry))


def _files_now(files: dict[str, tuple[str, str, bytes]]) -> bool:
    """Whether every file is still where it was, reached through the same folder, and
    holds the bytes that were parsed; read as the loader reads it: by the path as it was
    written (``sub/../base.yaml`` fails once ``sub`` is gone, though its real path does
    not change), a regular file within its size limit, or not at all."""
    for path, (real, folder, digest) in files.items():
        if place(path) != (real, folder):
            return False
        try:
            raw = read_bytes(Path(path))
        except YamlError:
            return False
        if hashlib.sha256(raw).digest() != digest:
            return False
    return True


# --------------------------------------------------------------------------- the folder


def _entry_name(path: Path, outside: bool, plugins: tuple[Any, ...]) -> str:
    key = repr((FORMAT, str(path), outside, sys.implementation.cache_tag, plugins))
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    return digest[:40] + _SUFFIX


class DiskCache:
    """The rulesets of the process's plugin registry, kept in :func:`cache_dir`."""

    def __init__(self, plugin_modules: tuple[ModuleType, ...]) -> None:
        self.plugin_modules = plugin_modules
        """The modules of the plugins loaded: their code is part of what an entry rests on."""

    def _code(self, registry: Registry) -> tuple[Any, ...] | None:
        modules = _code_modules(registry, self.plugin_modules)
        return None if modules is None else _code(modules)

    def get(
        self, path: Path, registry: Registry, outside: bool
    ) -> (
        tuple[
            Ruleset,
            dict[str, tuple[str, str, bytes]],
            dict[str, tuple[tuple[str, str], ...] | None],
        ]
        | None
    ):
        """The ruleset kept for the file at ``path``, the files it was read from and the
        names it looked up (as ``Reads`` records them), if nothing it rests on changed;
        else None."""
        folder = cache_dir()
        code = self._code(registry) if folder is not None else None
        if folder is None or code is None:
            return None
        data = read_entry(folder, _entry_name(path, outside, _plugins(registry)), MAX_ENTRY_BYTES)
        if data is None:
            return None
        head, _, rest = data.partition(b"\n\n")
        if head + b"\n" != _MAGIC or len(rest) < 32:
            return None
        digest, body = rest[:32], rest[32:]
        if hashlib.sha256(body).digest() != digest:
            return None
        try:
            # the user's own file in the user's own folder (checked above), whole
            kept_format, kept_path, kept_code, where, names, files, ruleset = pickle.loads(body)
        except Exception:  # another version's classes, another layout: pass it over
            return None
        now = (FORMAT, str(path), code, (_home(), _folders(registry)))
        if (kept_format, kept_path, kept_code, where) != now:
            return None
        if not _names_now(registry, names) or not _files_now(files):
            return None
        from .schema import ruleset_model

        if type(ruleset) is not ruleset_model(registry.param_models()):
            return None
        return ruleset, files, names

    def put(
        self, path: Path, registry: Registry, reads: Reads, ruleset: Ruleset, outside: bool
    ) -> None:
        """Keep ``ruleset``, validated from what ``reads`` records, for the next command;
        nothing happens if a file changed while it was read, or the folder cannot be
        made or written."""
        folder = cache_dir()
        code = self._code(registry) if folder is not None else None
        if folder is None or code is None or reads.changed():
            return
        where = (_home(), _folders(registry))
        kept = (FORMAT, str(path), code, where, reads.names, reads.files, ruleset)
        try:
            body = pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # something in a plugin's parameters that does not pickle
            return
        data = _MAGIC + b"\n" + hashlib.sha256(body).digest() + body
        if not made(folder):
            return
        with contextlib.suppress(OSError):
            write_whole(folder / _entry_name(path, outside, _plugins(registry)), data)
            _prune(folder)


def _prune(folder: Path) -> None:
    """Remove the oldest entries beyond ``MAX_ENTRIES`` (and temporary files an hour old:
    a writer that was killed)."""
    entries: list[tuple[int, str]] = []
    now = time.time_ns()
    with os.scandir(folder) as scan:
        for item in scan:
            with contextlib.suppress(OSError):
                when = item.stat(follow_symlinks=False).st_mtime_ns
                if _ENTRY.fullmatch(item.name):  # not the headings kept beside them
                    entries.append((when, item.path))
                elif item.name.endswith(".tmp") and now - when > 3600 * 10**9:
                    os.unlink(item.path)
    entries.sort()
    for _, path in entries[: max(0, len(entries) - MAX_ENTRIES)]:
        with contextlib.suppress(OSError):
            os.unlink(path)
