"""The plugins' entry points, found without importing ``importlib.metadata`` when it can be.

Every `ulti` command that asks the plugins anything first finds their entry points.
``importlib.metadata`` costs about 25 ms of CPU to import (its e-mail parser, zip support)
and parses the metadata of every installed distribution; on a command that takes 100 ms
that is the largest share. The usual installation (distributions as ``*.dist-info`` or
``*.egg-info`` folders in the folders of ``sys.path``) is read here directly: each
folder is listed once, and only ``entry_points.txt`` files are read, parsed as
``importlib.metadata`` parses them. Where anything else could hold distributions (a zip
file on ``sys.path``, an import hook that lists distributions of its own) the standard
library does the work, with the same result.

A distribution installed twice counts once, the first one found, as in
``importlib.metadata``; a distribution whose ``entry_points.txt`` cannot be read is
reported (when its file names the group) and the others are found.
"""

from __future__ import annotations

import functools
import importlib
import importlib.machinery
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

SUFFIXES = (".dist-info", ".egg-info")
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")
"""An entry point's value, ``module`` or ``module:attr.attr`` (``importlib.metadata``'s)."""


@dataclass(frozen=True)
class EntryPoint:
    """One entry point of the group, and the distribution (``name version``) it came from."""

    name: str
    value: str
    dist: str | None

    def load(self) -> object:
        """Import the module and return the object the value names (the module itself
        when it names no attribute)."""
        match = _VALUE.match(self.value)
        if match is None:
            raise ValueError(f"entry point '{self.name}' has no module to load: {self.value!r}")
        module = importlib.import_module(match.group("module"))
        attrs = filter(None, (match.group("attr") or "").split("."))
        return functools.reduce(getattr, attrs, module)


@dataclass(frozen=True)
class Unreadable:
    """A distribution whose entry points name the group but cannot be read."""

    dist: str
    label: str | None
    error: Exception


def find(group: str) -> tuple[list[EntryPoint], list[Unreadable]]:
    """Every entry point of ``group``, and the distributions whose file could not be read."""
    if not _plain_path():
        return _with_importlib_metadata(group)
    found: list[EntryPoint] = []
    unreadable: list[Unreadable] = []
    seen: set[str] = set()
    for folder in _metadata_folders():
        key = _normalized(os.path.splitext(folder.name)[0].partition("-")[0])
        if key in seen:
            continue
        seen.add(key)
        text = _read(folder / "entry_points.txt")
        if text is None or f"[{group}]" not in text:
            continue
        label = _label(folder)
        try:
            pairs = parse(text)
        except ValueError as exc:
            unreadable.append(Unreadable(_name(folder) or key, label, exc))
            continue
        found.extend(EntryPoint(n, value, label) for section, n, value in pairs if section == group)
    return found, unreadable


def parse(text: str) -> list[tuple[str, str, str]]:
    """``(section, name, value)`` for each ``name = value`` line of an ``entry_points.txt``,
    read as ``importlib.metadata`` reads it; ValueError for a line without ``=``."""
    pairs: list[tuple[str, str, str]] = []
    section: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
            continue
        if section is None:
            continue
        name, sep, value = line.partition("=")
        if not sep:
            raise ValueError(f"not enough values to unpack (expected 2, got 1): {line!r}")
        pairs.append((section, name.strip(), value.strip()))
    return pairs


def _plain_path() -> bool:
    """Whether every distribution is a folder in a folder of ``sys.path``: no zip file on
    the path, and no import hook beside the standard one that lists distributions."""
    if any(os.path.isfile(entry or ".") for entry in sys.path):
        return False
    path_finder = importlib.machinery.PathFinder
    return not any(
        finder is not path_finder and hasattr(finder, "find_distributions")
        for finder in sys.meta_path
    )


def _metadata_folders() -> list[Path]:
    """Each ``*.dist-info`` and ``*.egg-info`` folder on ``sys.path``, in path order."""
    folders: list[Path] = []
    for entry in sys.path:
        root = entry or "."
        try:
            names = sorted(os.listdir(root))
        except OSError:
            continue
        folders.extend(Path(root, n) for n in names if n.lower().endswith(SUFFIXES))
    return folders


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _headers(folder: Path) -> dict[str, str]:
    """``Name`` and ``Version`` from the distribution's METADATA (PKG-INFO for an egg)."""
    text = _read(folder / "METADATA") or _read(folder / "PKG-INFO") or ""
    found: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            break  # the headers end at the first blank line
        key, sep, value = line.partition(":")
        if sep and key in ("Name", "Version") and key not in found:
            found[key] = value.strip()
    return found


def _name(folder: Path) -> str | None:
    return _headers(folder).get("Name") or None


def _label(folder: Path) -> str | None:
    """``name version`` of the distribution, as ``ulti`` names a plugin's package."""
    headers = _headers(folder)
    name = headers.get("Name")
    if not name:
        return None
    version = headers.get("Version")
    return f"{name} {version}" if version else name


def _with_importlib_metadata(group: str) -> tuple[list[EntryPoint], list[Unreadable]]:
    """:func:`find` through the standard library, for the unusual installations."""
    import importlib.metadata

    found: list[EntryPoint] = []
    unreadable: list[Unreadable] = []
    seen: set[str] = set()
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"]
        if name:
            key = _normalized(str(name))
            if key in seen:
                continue
            seen.add(key)
        version = dist.version
        label = (f"{name} {version}" if version else str(name)) if name else None
        try:
            entries = [ep for ep in dist.entry_points if ep.group == group]
        except Exception as exc:
            if f"[{group}]" in (dist.read_text("entry_points.txt") or ""):
                unreadable.append(Unreadable(str(name), label, exc))
            continue
        found.extend(EntryPoint(ep.name, ep.value, label) for ep in entries)
    return found, unreadable
