"""What the running code is, told by its files: for the caches that keep work between
commands (``disk_cache.py``, ``headings.py``), whose entries hold only while the code
that made them is the code that reads them.

A file is stamped by its size and modification time; an upgrade or an edit rewrites it.
PyYAML is told by its files rather than its ``__version__``, so that a command served
from a cache never imports the parser. Light: no hashing, no YAML.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os

Stamps = tuple[tuple[str, int, int], ...]

_SOURCES = (".py", *importlib.machinery.EXTENSION_SUFFIXES)
"""The files that are code: Python sources and compiled extension modules."""


def package_files(package: str) -> list[str]:
    """The code files (``.py`` and compiled extensions) in the folder ``package`` and
    below, in a fixed order."""
    found: list[str] = []
    for folder, dirs, files in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        found.extend(os.path.join(folder, f) for f in sorted(files) if f.endswith(_SOURCES))
    return found


def pyyaml_files() -> list[str] | None:
    """PyYAML's code files (its C binding too, and the ``_yaml`` shim beside it); None
    where they cannot be listed, as when it is imported from a zip: then no cache may
    rest on it."""
    found: list[str] = []
    for name in ("yaml", "_yaml"):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
        if spec is None:
            if name == "yaml":
                return None
            continue  # an older PyYAML has no shim
        folders = list(spec.submodule_search_locations or [])
        if not folders or not all(os.path.isdir(folder) for folder in folders):
            return None
        for folder in folders:
            files = package_files(folder)
            if not files:
                return None
            found.extend(f for f in files if f not in found)
    return found


def file_stamps(files: list[str]) -> Stamps:
    """Each file with its size and modification time (-1 and -1 where it is gone)."""
    stamps = []
    for file in files:
        try:
            info = os.stat(file)
        except OSError:
            stamps.append((file, -1, -1))
        else:
            stamps.append((file, info.st_size, info.st_mtime_ns))
    return tuple(stamps)


def changed_since(stamps: Stamps, started_ns: int) -> bool:
    """Whether a file changed after ``started_ns``: the code on disk may then not be the
    code this process runs."""
    return any(mtime > started_ns for _, _, mtime in stamps)
