"""The ledger file: read within bounds and checked, written under a lock and atomically.

A ledger is a whole evening's score, and it may come from somebody else. It is read
within the bounds of every other document (``safe_yaml``'s: a regular file, a size, a
number of values, a depth), shaped by the model and checked against its ruleset and
against the score sheet kept with each hand (``ledger_checks``), and every problem is
reported at its line. A ledger at its limits is 1.3 MB of JSON, which the positioned
YAML reader takes over a second to read; so it is read with ``json``, and the keys its
problems name, if any, are found in the text afterwards (``json_positions``). A file
that is not plain JSON goes to the positioned reader, and so does JSON that YAML would
read otherwise (a duplicate key, NaN, a character YAML refuses). It is written the way
``safe_files`` writes: through a symlink to the real file, keeping its mode, under an
exclusive lock held from reading to writing, so that two `ulti ledger add` at once both
land, one after the other.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from ..errors import Problem, RulesetError
from ..interrupts import ctrl_c_held
from ..json_positions import json_positions
from ..plugins import Registry
from ..quoting import QUOTED, shorten, shorten_said
from ..ruleset.positions import Where, yaml_problems
from ..ruleset.pydantic_problems import error_message, validation_problems
from ..ruleset.references import OutsideReference
from ..ruleset.safe_yaml import MAX_DEPTH, MAX_NODES, KeyPath, Position, YamlError, load_text
from ..ruleset.scalars import describe
from ..ruleset.schema import Ruleset
from ..safe_files import check_replaceable, create, locked, real_file, replace
from ..said import Said
from .ledger import FORMAT, NUL_IN_RULESET, Ledger, LedgerError, program_version
from .ledger_checks import hand_problems, ruleset_problems, session_problems, sheet_problems

DOCS = "docs/ledger.md"
"""Where a ledger's keys are described: named with an unknown key."""
MAX_LEDGER_BYTES = 2 * 1024 * 1024
"""A ledger larger than 2 MiB is refused unread. A hand takes about 1 kB and 70 values,
a sitting 24 to 100 hands; within the reader's bound of 100,000 values a ledger holds
about 1,400 hands, and a hand that would take it past either bound is refused."""
MAX_VALUES = f"{MAX_NODES:,}"
"""The bound of values, as a message says it (``100,000``)."""


def load_ledger(path: Path, registry: Registry | None = None) -> Ledger:
    """Read and check the ledger at ``path``; LedgerError lists every problem, positioned.

    A symlink is followed: the ledger's folder, where a club file it names is read
    from, is the real file's. A special file (a FIFO, a device) is refused without
    being opened, a file over :data:`MAX_LEDGER_BYTES` without being read.
    """
    return _read(real_file(path), str(path), registry)


def _read(path: Path, shown: str, registry: Registry | None) -> Ledger:
    """Read the real file ``path`` once; ``shown`` is the name the person gave."""
    text = _text(path, shown)
    data = _json(text, shown)
    if data is not None:
        where = _Where(shown, {})
        try:
            ledger = _checked(data, where, path.parent, registry)
        except LedgerError as exc:  # now say where: find the keys the problems name
            raise LedgerError.of(_located(exc.problems, where, text)) from None
        ledger._notes = _located(ledger._notes, where, text)
        return ledger
    try:
        document = load_text(text, max_bytes=MAX_LEDGER_BYTES)
    except YamlError as exc:
        raise LedgerError.of(yaml_problems(exc, shown)) from None
    return _checked(document.data, _Where(shown, document.positions), path.parent, registry)


def _located(problems: Sequence[Problem], where: _Where, text: str) -> list[Problem]:
    """``problems``, found without positions in the JSON ``text``, positioned."""
    if not any(problem in where.paths for problem in problems):
        return list(problems)
    paths = [where.paths[problem] for problem in problems if problem in where.paths]
    located = _Where(where.file, json_positions(text, paths))
    return [
        located.problem(where.paths[problem], problem.message)
        if problem in where.paths
        else problem
        for problem in problems
    ]


def _text(path: Path, shown: str) -> str:
    """The file's text: a regular file (checked before it is opened, and again once
    open), at most MAX_LEDGER_BYTES, UTF-8."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise _file_error(shown, Said("not a regular file"))
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as stream:
            info = os.fstat(stream.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise _file_error(shown, Said("not a regular file"))
            if info.st_size > MAX_LEDGER_BYTES:
                raise _too_big(shown, info.st_size)
            raw = stream.read(MAX_LEDGER_BYTES + 1)  # the size can change meanwhile
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise _file_error(shown, Said("cannot read the file: {reason}", reason=reason)) from None
    if len(raw) > MAX_LEDGER_BYTES:
        raise _too_big(shown, len(raw))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        byte = f"0x{raw[exc.start]:02x}"
        message = Said("not UTF-8 text (byte {byte})", byte=byte)
        raise LedgerError.of([Problem(shown, line, 1, "", message)]) from None


def _file_error(shown: str, message: str) -> LedgerError:
    return LedgerError.of([Problem(shown, None, None, "", message)])


def _too_big(shown: str, size: int) -> LedgerError:
    mib = 1024 * 1024
    shown_size, limit = f"{size / mib:.1f}", f"{MAX_LEDGER_BYTES / mib:.1f}"
    return _file_error(
        shown,
        Said(
            "the file is {size} MiB; files over {limit} MiB are not read",
            size=shown_size,
            limit=limit,
        ),
    )


def _json(text: str, shown: str) -> Any:
    """The data of ``text`` read as JSON, within the YAML reader's bounds; None where
    only the positioned reader can tell what it holds."""
    if _UNREADABLE.search(text):  # YAML refuses these characters raw
        return None
    try:
        data = json.loads(text, object_pairs_hook=_unique, parse_constant=_no_constant)
    except (ValueError, RecursionError):  # not JSON, a duplicate key, a 5,000-digit number
        return None
    values, depth = _size(data)
    if depth > MAX_DEPTH:
        return None  # the positioned reader says where
    if values > MAX_NODES:
        counted, limit = f"{values:,}", MAX_VALUES
        raise _file_error(
            shown,
            Said(
                "the ledger holds {values} values; more than {limit} (about 1,400 hands) are "
                "not read: start a new ledger for the next hands",
                values=counted,
                limit=limit,
            ),
        )
    return data


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        raise ValueError("a duplicate key")  # YAML refuses it, and says where
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class _Where(Where):
    """Problems of the ledger, with a long key in their path shortened (a key of a
    hostile file may be 100 kB long). It keeps the key path of each problem it made
    (``paths``), to place them once the positions are known."""

    def __init__(self, file: str, positions: Mapping[KeyPath, Position]) -> None:
        super().__init__(file, positions)
        self.paths: dict[Problem, KeyPath] = {}

    def problem(self, path: KeyPath, message: str) -> Problem:
        problem = super().problem(path, message)
        if any(isinstance(segment, str) and len(segment) > QUOTED for segment in path):
            shown = ".".join(shorten(s) if isinstance(s, str) else str(s) for s in path)
            problem = dataclasses.replace(problem, path=shown)
        self.paths[problem] = path
        return problem


def _checked(data: Any, where: Where, folder: Path, registry: Registry | None) -> Ledger:
    """The ledger ``data`` holds, once everything in it is checked; LedgerError lists
    every problem."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        if isinstance(data, dict) and "format" in data:
            message = Said(
                "not a ledger: 'format' must be '{format}', not {given} (see {docs})",
                format=FORMAT,
                given=_shown(data["format"]),
                docs=DOCS,
            )
            raise LedgerError.of([where.problem(("format",), message)])
        message = Said(
            "not a ledger: 'format' must be '{format}' (see {docs})", format=FORMAT, docs=DOCS
        )
        raise LedgerError.of([where.problem((), message)])
    try:
        ledger = Ledger.model_validate(data)
    except ValidationError as exc:

        def wording(err: ErrorDetails, hint: bool) -> str:
            return error_message(err, data, Ledger, docs=DOCS, hint=hint)

        raise LedgerError.of(validation_problems(exc, data, where, wording)) from None
    ledger._folder = folder
    problems = session_problems(ledger, where)
    ruleset = None
    if not problems:  # who a hand names, and whose deal it was, need the players right
        ruleset = _rules(ledger, where, registry)
        found = ruleset_problems(ledger, where, ruleset)
        change = ledger.ruleset_change(ruleset)
        if found and change is not None:  # say first why hands that fitted no longer do
            found.insert(
                0,
                where.problem(
                    ("ruleset",),
                    Said(
                        "{change}, and the session's hands no longer fit the new rules: restore "
                        "the file to go on, or start a new ledger",
                        change=change,
                    ),
                ),
            )
        problems += found
    problems += hand_problems(ledger, where, names=ruleset is not None)
    wrong = {_hand_of(problem) for problem in problems}
    noted: list[Problem] = []
    if ruleset is not None and None not in wrong:  # only hands are wrong, if any
        settled_from, ours_from = _settled_from(ledger, registry)
        found, noted = sheet_problems(
            ledger,
            where,
            ruleset,
            registry,
            settled_from=settled_from,
            ours_from=ours_from,
            skip={index for index in wrong if index is not None},
        )
        problems += found
    if problems:
        raise LedgerError.of(problems)
    ledger._notes = noted
    return ledger


def _rules(ledger: Ledger, where: Where, registry: Registry | None) -> Ruleset:
    """The session's ruleset; LedgerError, at the ledger's ``ruleset``, if it names none.

    A club file that is there but wrong is its own error (RulesetError, positioned in
    it); a reference that leads nowhere is the ledger's problem.
    """
    ref = ledger.ruleset
    if "\0" in ref:  # the system refuses such a path outright (ValueError)
        raise LedgerError.of([where.problem(("ruleset",), NUL_IN_RULESET)])
    why = None
    try:
        ruleset = ledger.rules(registry)
    except OutsideReference as exc:
        why = _quoting(str(exc), ref)
    except RulesetError as exc:
        if any(problem.line is not None for problem in exc.problems):
            raise
        messages = [problem.message for problem in exc.problems]
        said = messages[-1]
        for message in reversed(messages[:-1]):  # each still said in the ledger's language
            said = Said("{first}; {rest}", first=message, rest=said)
        why = _quoting(said, ref)
    except OSError as exc:  # a name too long for the system, say
        why = Said(
            "{ref}: cannot read it: {reason}", ref=shorten(ref), reason=exc.strerror or str(exc)
        )
    if why is not None:
        raise LedgerError.of([where.problem(("ruleset",), why)])
    return ruleset


def _quoting(message: str, ref: str) -> str:
    """A message about the reference ``ref``, quoting it at most QUOTED characters (a
    :class:`~ulti_rules.said.Said` kept one, its values quoted alike)."""
    short = shorten(ref)
    if isinstance(message, Said):
        said = shorten_said(message)
        if short in said:
            return said
        return Said("{ref}: {problem}", ref=short, problem=said)
    message = message.replace(ref, short)
    return message if short in message else f"{short}: {message}"


def _settled_from(ledger: Ledger, registry: Registry | None) -> tuple[int | None, int]:
    """The index of the first hand settled under the rules in force now (None when no
    hand is known to be: none pinned yet, or the rules changed since), and of the first
    hand this very ulti-rules version settled (the number of hands when it settled none).

    Each is where the last change was marked: a hand's ``ruleset_hash`` for the rules,
    its ``settled_by`` for the version. A ``settled_by`` edited by hand can only turn a
    refused hand into a noted one, never into one nobody checks."""
    rules = None
    if ledger.ruleset_hash is not None and ledger.ruleset_hash == ledger.rules_hash(registry):
        rules = _last_marked(ledger, "ruleset_hash")
    ours = len(ledger.hands)
    if ledger.settled_by == program_version():
        ours = _last_marked(ledger, "settled_by")
    return rules, ours


def _last_marked(ledger: Ledger, mark: str) -> int:
    """The index of the last hand that sets ``mark`` (0 when none does)."""
    return max(
        (i for i, hand in enumerate(ledger.hands) if getattr(hand, mark) is not None), default=0
    )


def _hand_of(problem: Problem) -> int | None:
    """The index of the hand a problem is in; None for one of the whole session."""
    top, _, rest = problem.path.partition(".")
    index = rest.partition(".")[0]
    return int(index) if top == "hands" and index.isdigit() else None


def _shown(value: Any) -> str:
    return f"'{shorten(value)}'" if isinstance(value, str) else describe(value)


@contextmanager
def updating(
    path: Path,
    registry: Registry | None = None,
    on_written: Callable[[], object] | None = None,
) -> Iterator[Ledger]:
    """The ledger at ``path``, to add to; written back when the block ends without error.

    The ledger's lock is held from reading to writing, so concurrent updates all land,
    in order. A file that cannot be replaced safely (read-only, a FIFO, hard-linked)
    is refused before anything is read or done. Ctrl-C waits while the ledger is written
    and ``on_written`` called: a ``KeyboardInterrupt`` came either before the file
    changed or after ``on_written`` said it had.
    """
    shown = str(path)
    real = real_file(path)
    check_replaceable(real, shown)
    with locked(real, shown):
        before = check_replaceable(real, shown)  # again: it may have changed meanwhile
        ledger = _read(real, shown, registry)
        yield ledger
        encoded = _encoded(ledger)
        with ctrl_c_held():
            replace(real, encoded, before)
            if on_written is not None:
                on_written()


def save_ledger(ledger: Ledger, path: Path, *, overwrite: bool = True) -> None:
    """Write ``ledger`` to ``path`` (through a symlink, to the real file), atomically.

    Without ``overwrite`` an existing name (a symlink included) is refused. An existing
    file keeps its mode; one that cannot be replaced safely is refused.
    """
    shown = str(path)
    if not overwrite and os.path.lexists(path):
        raise LedgerError(_exists(shown))
    real = real_file(path)
    if not real.parent.is_dir():
        raise LedgerError(
            Said(
                "cannot create {file}: the folder {folder} does not exist",
                file=shown,
                folder=real.parent,
            )
        )
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
            raise LedgerError(_exists(shown)) from None


def _exists(shown: str) -> Said:
    return Said("{file} already exists; use --force to start it again", file=shown)


def _encoded(ledger: Ledger) -> bytes:
    """The file's text; a ledger too big to be read back is refused, not written."""
    data = ledger.model_dump(mode="json")
    text = _UNREADABLE.sub(_u_escape, json.dumps(data, ensure_ascii=False, indent=2)) + "\n"
    encoded = text.encode("utf-8")
    if len(encoded) > MAX_LEDGER_BYTES or _size(data)[0] > MAX_NODES:
        raise LedgerError(
            Said(
                "the ledger is full: with this hand it would be over {size} MiB or {values} "
                "values, more than is read back; start a new ledger for the next hands",
                size=MAX_LEDGER_BYTES // (1024 * 1024),
                values=MAX_VALUES,
            )
        )
    return encoded


_UNREADABLE = re.compile("[\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
"""Characters JSON leaves raw but the YAML reader refuses (C1 controls and the like): a
name holding one, typed in escaped, is written escaped, or the ledger could not be read."""


def _u_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _size(data: Any) -> tuple[int, int]:
    """The values in ``data`` as the YAML reader counts them (every mapping, list, key and
    scalar), and how deeply its mappings and lists nest."""
    count = deepest = 0
    stack = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if isinstance(node, dict):
            count += len(node)
            deepest = max(deepest, depth)
            stack.extend((value, depth + 1) for value in node.values())
        elif isinstance(node, list):
            deepest = max(deepest, depth)
            stack.extend((item, depth + 1) for item in node)
    return count, deepest
