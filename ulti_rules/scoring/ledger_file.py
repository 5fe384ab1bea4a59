"""The ledger file: read within bounds and checked, written under a lock and atomically.

A ledger is a whole evening's score, and it may come from somebody else. It is read
like every other document (``safe_yaml``: bounded, positioned; JSON is YAML), shaped
by the model and checked against its ruleset (``ledger_checks``), and every problem
is reported at its line. It is written the way ``safe_files`` writes: through a
symlink to the real file, keeping its mode, under an exclusive lock held from
reading to writing, so that two `ulti ledger add` at once both land, one after the
other.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..plugins import Registry
from ..ruleset.positions import data_path, unknown_key_message, yaml_problems
from ..ruleset.references import OutsideReference
from ..ruleset.safe_yaml import MAX_NODES, YamlError, read_file
from ..safe_files import check_replaceable, create, locked, real_file, replace
from .ledger import FORMAT, Ledger, LedgerError
from .ledger_checks import hand_problems, ruleset_problems, session_problems
from .sheet import Where

MAX_LEDGER_BYTES = 2 * 1024 * 1024
"""A ledger larger than 2 MiB is refused unread. A hand takes about 1 kB and 70 values,
a sitting 24 to 100 hands; within the reader's bound of 100,000 values a ledger holds
about 1,400 hands, and a hand that would take it past either bound is refused."""


def load_ledger(path: Path, registry: Registry | None = None) -> Ledger:
    """Read and check the ledger at ``path``; LedgerError lists every problem, positioned.

    A special file (a FIFO, a device) is refused without being opened, a file over
    :data:`MAX_LEDGER_BYTES` without being read.
    """
    return _read(path, str(path), registry)


def _read(path: Path, shown: str, registry: Registry | None) -> Ledger:
    try:
        document = read_file(path, max_bytes=MAX_LEDGER_BYTES)
    except YamlError as exc:
        raise LedgerError.of(yaml_problems(exc, shown)) from None
    where = Where(shown, document.positions)
    data = document.data
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        said = f", not {data['format']!r}" if isinstance(data, dict) and "format" in data else ""
        message = f"not a ledger: 'format' must be '{FORMAT}'{said} (see docs/ledger.md)"
        raise LedgerError.of([where.problem(("format",) if said else (), message)])
    try:
        ledger = Ledger.model_validate(data)
    except ValidationError as exc:
        raise LedgerError.of(
            [where.problem(data_path(data, e["loc"]), _message(e, data)) for e in exc.errors()]
        ) from None
    ledger._folder = path.parent
    problems = session_problems(ledger, where)
    sound = not problems  # who a hand names, and whose deal it was, need the players right
    if sound:
        try:
            ruleset = ledger.rules(registry)
        except OutsideReference as exc:
            raise LedgerError.of([where.problem(("ruleset",), str(exc))]) from None
        found = ruleset_problems(ledger, where, ruleset)
        change = ledger.ruleset_change(ruleset)
        if found and change is not None:  # say first why hands that fitted no longer do
            found.insert(
                0,
                where.problem(
                    ("ruleset",),
                    f"{change}, and the session's hands no longer fit the new rules: restore "
                    "the file to go on, or start a new ledger",
                ),
            )
        problems += found
    problems += hand_problems(ledger, where, names=sound)
    if problems:
        raise LedgerError.of(problems)
    return ledger


def _message(err: Any, data: Any) -> str:
    if err["type"] == "extra_forbidden":
        return f"{unknown_key_message(Ledger, err['loc'], data)} (see docs/ledger.md)"
    if err["type"] == "missing":
        return f"missing: {err['loc'][-1]} is required"
    return str(err["msg"]).removeprefix("Value error, ")


@contextmanager
def updating(path: Path, registry: Registry | None = None) -> Iterator[Ledger]:
    """The ledger at ``path``, to add to; written back when the block ends without error.

    The ledger's lock is held from reading to writing, so concurrent updates all land,
    in order. A file that cannot be replaced safely (read-only, a FIFO, hard-linked)
    is refused before anything is read or done.
    """
    shown = str(path)
    real = real_file(path)
    check_replaceable(real, shown)
    with locked(real, shown):
        before = check_replaceable(real, shown)  # again: it may have changed meanwhile
        ledger = _read(real, shown, registry)
        yield ledger
        replace(real, _encoded(ledger), before)


def save_ledger(ledger: Ledger, path: Path, *, overwrite: bool = True) -> None:
    """Write ``ledger`` to ``path`` (through a symlink, to the real file), atomically.

    Without ``overwrite`` an existing name (a symlink included) is refused. An existing
    file keeps its mode; one that cannot be replaced safely is refused.
    """
    shown = str(path)
    if not overwrite and os.path.lexists(path):
        raise LedgerError(f"{shown} already exists; use --force to start it again")
    real = real_file(path)
    if not real.parent.is_dir():
        raise LedgerError(f"cannot create {shown}: the folder {real.parent} does not exist")
    if os.path.lexists(real):
        check_replaceable(real, shown)
    data = _encoded(ledger)
    with locked(real, shown):
        if os.path.lexists(real):
            replace(real, data, check_replaceable(real, shown))
            return
        try:
            create(real, data)
        except FileExistsError:
            raise LedgerError(f"{shown} already exists; use --force to start it again") from None


def _encoded(ledger: Ledger) -> bytes:
    """The file's text; a ledger too big to be read back is refused, not written."""
    data = ledger.model_dump(mode="json")
    text = _UNREADABLE.sub(_u_escape, json.dumps(data, ensure_ascii=False, indent=2)) + "\n"
    encoded = text.encode("utf-8")
    if len(encoded) > MAX_LEDGER_BYTES or _values(data) > MAX_NODES:
        raise LedgerError(
            f"the ledger is full: with this hand it would be over "
            f"{MAX_LEDGER_BYTES // (1024 * 1024)} MiB or {MAX_NODES:,} values, more than "
            "is read back; start a new ledger for the next hands"
        )
    return encoded


_UNREADABLE = re.compile("[\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
"""Characters JSON leaves raw but the YAML reader refuses (C1 controls and the like): a
name holding one, typed in escaped, is written escaped, or the ledger could not be read."""


def _u_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _values(data: Any) -> int:
    """Nodes as the YAML reader counts them: every mapping, list, key and scalar."""
    count = 0
    stack = [data]
    while stack:
        node = stack.pop()
        count += 1
        if isinstance(node, dict):
            count += len(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return count
