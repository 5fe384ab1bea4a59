"""Where a file from someone else may point: the paths inside club files, sheets, records, ledgers.

A club file's ``extends:``, and the ``ruleset:`` of a score sheet, a hand record or a
ledger, are written by other people. Followed blindly, ``extends: /etc/passwd`` or
``ruleset: ../../.ssh/id_rsa`` would make ``ulti`` read (and, in its error message,
show) any file the user can read. So a path written inside a file must lead, once every
symlink is resolved, into the folder of that file or into a rulesets folder (the
user's, a plugin's, the bundled one). Names (``extends: wikipedia``) are always fine:
they are looked up only in rulesets folders.

Paths the user types on the command line are the user's own and are not confined.
Whoever trusts a file may lift the rule: ``ulti --allow-outside-paths`` or
``ULTI_RULES_ALLOW_OUTSIDE_PATHS=1`` (``allow_outside_paths()`` for programs).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from ..errors import UltiError

ALLOW_OUTSIDE_ENV = "ULTI_RULES_ALLOW_OUTSIDE_PATHS"
"""Set to 1 to let files name rulesets anywhere (only for files you trust)."""
SUFFIXES = (".yaml", ".yml")

_allowed: ContextVar[bool] = ContextVar("ulti_rules_allow_outside_paths", default=False)


class OutsideReference(UltiError):
    """A path written in a file leads outside the folders it may name."""


def is_path(text: str) -> bool:
    """Whether a reference is a path (has a separator or a YAML suffix) rather than a name."""
    separators = [sep for sep in ("/", os.sep, os.altsep) if sep]
    return any(sep in text for sep in separators) or text.lower().endswith(SUFFIXES)


def outside_allowed() -> bool:
    """Whether the confinement is lifted, by ``allow_outside_paths()`` or the environment."""
    return _allowed.get() or os.environ.get(ALLOW_OUTSIDE_ENV, "") not in ("", "0")


@contextmanager
def allow_outside_paths(allowed: bool = True) -> Iterator[None]:
    """Within this block, paths in files may lead anywhere (for files you trust)."""
    token = _allowed.set(allowed)
    try:
        yield
    finally:
        _allowed.reset(token)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def confine(ref: str, base: Path, roots: Iterable[Path], *, referrer: str) -> Path:
    """The file a path ``ref`` written in ``referrer`` (in folder ``base``) names.

    Relative paths are read from ``base``. The real path (symlinks resolved) must lie
    in ``base`` or one of ``roots``; otherwise OutsideReference says why, without
    reading the target.
    """
    target = Path(ref).expanduser()
    if not target.is_absolute():
        target = base / target
    if outside_allowed():
        return target
    real = os.path.realpath(target)
    folders = [os.path.realpath(base), *(os.path.realpath(r) for r in roots)]
    if any(_inside(real, folder) for folder in folders):
        return target
    how = "an absolute path" if Path(ref).is_absolute() else "a path"
    raise OutsideReference(
        f"'{ref}' is {how} outside the folder of {referrer}, so it is not read: a file "
        "names a ruleset by name, or by a path into its own folder or a rulesets folder. "
        "Copy the ruleset there, or, if you trust the file, run "
        f"`ulti --allow-outside-paths ...` (or set {ALLOW_OUTSIDE_ENV}=1)"
    )
