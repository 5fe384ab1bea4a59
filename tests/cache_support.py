"""Loading a ruleset through the disk cache of validated rulesets, for the tests.

The suite runs with the cache off (``conftest.py``); these helpers turn it on for one
load, in a folder of the caller's, and check that the ruleset read back from disk is the
one validated.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from ulti_rules import Ruleset
from ulti_rules.ruleset import loading
from ulti_rules.ruleset.disk_cache import CACHE_ENV
from ulti_rules.ruleset.finding import bundled_dir, user_dirs

OLD = time.time() - 3600
"""A modification time long past: a folder changed within two seconds is never trusted."""


@contextlib.contextmanager
def cache_in(folder: Path) -> Iterator[None]:
    """The disk cache in ``folder`` (made if missing) while the block runs, with the
    folders names are looked up in dated an hour back, as they would be on a user's
    machine (the tests make them seconds before)."""
    before = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(folder)
    for searched in [*user_dirs(), bundled_dir()]:
        if searched.is_dir() and time.time() - searched.stat().st_mtime < 10:
            os.utime(searched, (OLD, OLD))
    try:
        yield
    finally:
        if before is None:
            del os.environ[CACHE_ENV]
        else:
            os.environ[CACHE_ENV] = before


@contextlib.contextmanager
def counted_validations() -> Iterator[list[Any]]:
    """Every full validation of a ruleset file while the block runs (one item each)."""
    calls: list[Any] = []
    real = loading._validate

    def counting(*args: Any) -> Any:
        calls.append(args[0])
        return real(*args)

    with mock.patch.object(loading, "_validate", counting):
        yield calls


def load_through_disk(path: str | Path, folder: Path) -> Ruleset:
    """Load ``path`` validated (kept on disk in ``folder``), then again from disk alone;
    the two must be equal. Returns the one read from disk, which later loads of ``path``
    in this process return (the memory cache keeps it)."""
    with cache_in(folder):
        loading.LOADED.clear()
        validated = loading.load_ruleset(path)
        loading.LOADED.clear()
        with counted_validations() as calls:
            read = loading.load_ruleset(path)  # and kept in memory, as a command keeps it
    assert calls == [], f"{path} was validated again instead of read from the cache"
    assert read is not validated
    assert type(read) is type(validated)
    assert read == validated
    assert read.model_dump() == validated.model_dump()
    return read
