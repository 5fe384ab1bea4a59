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
from ..quoting import shorten

ALLOW_OUTSIDE_ENV = "ULTI_RULES_ALLOW_OUTSIDE_PATHS"
"""Set to 1 to let files name rulesets anywhere (only for files you trust)."""
SUFFIXES = (".yaml", ".yml")

_allowed: ContextVar[bool] = ContextVar("ulti_rules_allow_outside_paths", default=False)


PATH_MAX = 4096
"""The longest path (in bytes) Linux opens; a longer one is refused before it is tried."""
NAME_MAX = 255
"""The longest file or folder name (in bytes) of common file systems."""


class OutsideReference(UltiError):
    """A path written in a file that is not followed: it leads outside the folders it
    may name, or no file can have it (:func:`unusable`). The message says which; the
    reader of the file puts it at the key."""


SHOWN_PATH = 160
"""A path up to this long is shown whole in a message (a path is of little use cut); a
longer one is a hostile value, quoted to 40 characters like any other."""


def shown_path(path: str) -> str:
    """``path`` for a message: whole up to SHOWN_PATH characters, else its start."""
    return path if len(path) <= SHOWN_PATH else shorten(path)


def unusable(ref: str) -> str | None:
    """Why no file can have the path ``ref`` (a NUL byte, a name too long), or None.

    Asked before the file system is: it would answer with an internal error ("embedded
    null byte") or a message that quotes the whole path without saying where it was
    written.
    """
    if "\0" in ref:
        return "a path cannot hold a NUL character (\\0)"
    try:
        encoded = os.fsencode(ref)
    except UnicodeError:
        return "a path cannot hold half of a UTF-16 pair (\\ud800 to \\udfff)"
    if len(encoded) > PATH_MAX:
        return f"the path is {len(encoded)} bytes long; no path is longer than {PATH_MAX}"
    longest = max((len(part) for part in encoded.split(os.fsencode(os.sep))), default=0)
    if longest > NAME_MAX:
        return (
            f"a file or folder name in the path is {longest} bytes long; "
            f"none is longer than {NAME_MAX}"
        )
    return None


def expand_home(path: str | os.PathLike[str]) -> Path | None:
    """``path`` with a leading ``~`` or ``~user`` replaced by that home folder, or None if
    there is no such folder to stand for it (``~nosuchuser``; no home at all): pathlib
    raises RuntimeError there, which a path written in a file must not turn into an
    internal error."""
    try:
        return Path(path).expanduser()
    except RuntimeError:
        return None


def _no_home(ref: str) -> str:
    """Why ``ref``'s leading ``~`` or ``~user`` names no folder."""
    user = ref[1:].replace(os.sep, "/").partition("/")[0]
    if user:
        return f"there is no user '{shorten(user)}' on this system for '~{shorten(user)}' to name"
    return "there is no home folder for '~' to name"


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
    in ``base`` or one of ``roots``, and be one a file can have; otherwise
    OutsideReference says why, without reading the target.
    """
    why = unusable(ref)
    if why is not None:
        raise OutsideReference(f"'{shorten(ref)}' is not read: {why}")
    target = expand_home(ref)
    if target is None:
        raise OutsideReference(f"'{shorten(ref)}' is not read: {_no_home(ref)}")
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
        f"'{shown_path(ref)}' is {how} outside the folder of {referrer}, so it is not read: a file "
        "names a ruleset by name, or by a path into its own folder or a rulesets folder. "
        "Copy the ruleset there, or, if you trust the file, run "
        f"`ulti --allow-outside-paths ...` (or set {ALLOW_OUTSIDE_ENV}=1)"
    )
