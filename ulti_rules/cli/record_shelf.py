"""Where `ulti play --save-records DIR` puts each hand's record: a new name every time.

Records are numbered after what the folder already holds (``hand-0001.yaml`` ... ),
so a second session in the same folder goes on at the next number and never
overwrites a record; a name taken meanwhile (another writer) is skipped, not replaced.
Each record is saved as soon as its hand is over, so a session cut short keeps them.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..records import HandRecord, RecordExists, save
from ..safe_files import check_folder_writable
from ..scoring.ledger import ruleset_reference
from .common import fail, note

NAME = re.compile(r"hand-(\d+)\.(?:yaml|yml|json)")
WIDTH = 4
TRIES = 1000
"""Names tried for one record before giving up: other writers would have to take them all."""


def numbered(folder: Path) -> list[tuple[str, str]]:
    """The records in ``folder`` by name: (the name, its number as written), read in one
    pass over the folder (`ulti play` numbers after them, `ulti simulate` refuses to
    overwrite them)."""
    with os.scandir(folder) as entries:
        return [(e.name, m[1]) for e in entries if (m := NAME.fullmatch(e.name))]


def _dangling(folder: Path) -> Path | None:
    """The folder, or the first of its parents, that is a symlink to nothing."""
    for path in (folder, *folder.parents):
        if path.is_symlink() and not path.exists():
            return path
    return None


def records_folder(folder: Path) -> Path:
    """The folder to save records in (`ulti play` and `ulti simulate`), made if need be;
    a clear error where it cannot be, before any hand is played."""
    dangling = _dangling(folder)
    if dangling is not None:
        target = os.readlink(dangling)
        fail(
            f"{dangling} is a dangling symlink (it points to {target}, where nothing is): "
            "remove it, create its target, or choose another folder"
        )
    if folder.exists() and not folder.is_dir():
        fail(f"{folder} is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"{folder}: cannot make the folder: {exc.strerror or exc}")
    check_folder_writable(folder, str(folder))
    return folder


def ruleset_for_records(ruleset_ref: str, located: Path, folder: Path) -> str:
    """How records saved in ``folder`` name their ruleset, as a ledger there would
    (``ruleset_reference``): a name as it is, a club file in the folder by its path from
    there, one in a rulesets folder by its absolute path. Any other file is named by its
    absolute path, with one note: ``ulti replay`` then needs it named again."""
    named = ruleset_reference(ruleset_ref, folder)
    if named is not None:
        return named
    note(
        f"the records name their ruleset {located}, outside {folder} and the rulesets "
        f"folders: replay them with `ulti replay --ruleset {ruleset_ref} RECORD`, or keep "
        "the ruleset in the folder (docs/security.md)"
    )
    return str(located)


class RecordShelf:
    """A folder of hand records that only grows."""

    def __init__(self, folder: Path) -> None:
        self.folder = records_folder(folder)
        self.saved: list[Path] = []

    def next_number(self) -> int:
        """One past the highest record number in the folder (1 in an empty one)."""
        return max((int(number) for _, number in numbered(self.folder)), default=0) + 1

    def save(self, record: HandRecord) -> Path:
        """Save under the next free number; returns the path. ``save`` refuses a name
        that is taken (by a file or a symlink, also one that another writer, a second
        session in the folder, took after :meth:`next_number` looked): the next one is
        tried."""
        number = self.next_number()
        for _ in range(TRIES):
            path = self.folder / f"hand-{number:0{WIDTH}d}.yaml"
            number += 1
            try:
                saved = save(record, path)
            except RecordExists:
                continue
            self.saved.append(saved)
            return saved
        fail(f"{self.folder}: no free record name in {TRIES} tries; other writers took them all")
