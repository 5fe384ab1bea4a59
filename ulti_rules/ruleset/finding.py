"""Finding rulesets and fragments by name, and reading their titles: all `ulti rulesets` needs.

Apart from ``loading.py`` because listing must stay light: this module imports no
pydantic model (no schema, ladder, game or contract kind), which halves what `ulti
rulesets` costs to start (docs/performance.md, "CLI start-up"; tests/test_cli_startup.py
fails if pydantic comes back), nor PyYAML until a file must be read: the titles come
from ``headings.py`` while the files are unchanged. A name is looked up in the user's
folders, then in plugins, then among the bundled rulesets; a user file that hides
another of the same name is reported, never silently preferred.

It also reads one file of a chain (``_read``, ``_refs``) and says which file an
``extends:``, ``with:`` or ``without:`` entry names, since a title may be inherited;
``loading.py`` builds chains from the same pieces (its underscore names come from here).
"""

from __future__ import annotations

import functools
import os
import stat
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from ..errors import Problem, RulesetError
from ..plugins import AUTOLOAD_ENV, Registry, get_registry
from ..quoting import describe, shorten
from ..said import Said
from .headings import heading as read_heading
from .headings import keep
from .hints import did_you_mean
from .reads import note_name
from .references import (
    SUFFIXES,
    OutsideReference,
    confine,
    expand_home,
    is_path,
    shown_path,
    unusable,
)
from .stamps import Identity, identity, settled, stamp_of
from .titles import title_text

if TYPE_CHECKING:
    from .yaml_data import KeyPath, Position

__all__ = [
    "FRAGMENT_KEY",
    "HEADING",
    "LISTED",
    "META_KEYS",
    "NOT_IN_FRAGMENT",
    "PATH_ENV",
    "Origin",
    "RulesetSource",
    "bundled_dir",
    "check_name",
    "find_fragments",
    "find_rulesets",
    "locate",
    "resolve",
    "ruleset_folders",
    "user_dirs",
]

Origin = Literal["bundled", "user", "plugin", "path"]
PATH_ENV = "ULTI_RULES_PATH"
"""Folders searched first for rulesets by name, separated like PATH."""


@dataclass(frozen=True)
class RulesetSource:
    """One ruleset found by name (or given by path)."""

    name: str
    """The file stem: what the ruleset is picked by."""
    title: str
    """Its ``title:`` (inherited through ``extends`` if it has none); '' if unreadable."""
    origin: Origin
    path: Path
    shadows: Path | None
    """The lower-priority file of the same name that this one hides, if any."""
    plugin: str | None = None
    """The plugin that shipped it."""
    fragment: bool = False
    """A rule fragment (merged onto rulesets), not a ruleset; ``title`` is its description."""


# --------------------------------------------------------------------------- where to look


@functools.cache
def bundled_dir() -> Path:
    """The bundled rulesets: inside the installed wheel, else ``rulesets/`` of the checkout.

    Found beside this file, as ``importlib.resources.files`` would find it for a package
    on disk, without its imports (``zipfile``, ``tempfile``: 14 ms of every `ulti rulesets`)."""
    packaged = Path(__file__).parent.parent / "_bundled"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "rulesets"


_USER_DIRS: list[tuple[tuple[str, ...], tuple[Path, ...]]] = [((), ())]
"""The last folders :func:`user_dirs` worked out, and what they were worked out from (one
entry, replaced whole: a thread reads a key and its folders together). A load by name
asks for them every time, and making the paths was half of a load that found its ruleset
already validated."""


def user_dirs() -> list[Path]:
    """The user's ruleset folders, highest priority first (they need not exist).

    Worked out from ``ULTI_RULES_PATH``, ``XDG_CONFIG_HOME`` and the home folder, each
    read once, and kept while they stay the same; a ``~user`` entry names a home that no
    variable stands for, so a path that has one is worked out afresh every time."""
    return list(_user_state()[1])


def _user_state() -> tuple[tuple[str, ...], tuple[Path, ...]]:
    """:func:`user_dirs`, and what they were worked out from (what ``~`` stands for last)."""
    written = os.environ.get(PATH_ENV, "")
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    home = os.path.expanduser("~")  # HOME, else the password database's (USERPROFILE on Windows)
    key = (written, xdg, home)
    state = _USER_DIRS[0]
    if state[0] == key:
        return state
    entries = [entry for entry in written.split(os.pathsep) if entry]
    state = (key, tuple(_user_dirs(entries, xdg, home)))
    if not any(map(_names_a_user, entries)):
        _USER_DIRS[0] = state
    return state


def _names_a_user(entry: str) -> bool:
    """Whether a path starts with ``~user`` (not ``~`` alone: that is the home folder)."""
    return entry.startswith("~") and entry[1:2] not in ("", "/", os.sep)


def _user_dirs(entries: list[str], xdg: str, home: str) -> list[Path]:
    """:func:`user_dirs` worked out from the values it read (``home`` as ``expanduser``
    gives it: still ``~`` where there is no home folder)."""
    homeless = home.startswith("~")
    written = [expand_home(entry) for entry in entries]
    dirs = [d for d in written if d is not None]  # ~nosuchuser: a folder that is not there
    if os.path.isabs(xdg):
        dirs.append(Path(xdg) / "ulti-rules" / "rulesets")
    elif not homeless:  # no home folder: nothing to search there
        dirs.append(Path(home) / ".config" / "ulti-rules" / "rulesets")
    return dirs


@dataclass(frozen=True)
class _Candidate:
    path: Path
    origin: Origin
    plugin: str | None = None


_SCANS: dict[str, tuple[tuple[int, ...], list[Path]]] = {}
"""Each search folder's ruleset files, by the folder's identity and modification time:
a folder is listed once per run (and again only when a file is added or removed; every
time, if it holds a symbolic link)."""
_MISSING = (0, 0, 0, 0, 0)
"""The stamp of a search folder that does not exist (or cannot be read): it holds nothing."""


def _listing_of(directory: Path) -> tuple[tuple[int, ...] | None, list[Path]]:
    """The folder's ruleset files, and the folder's stamp when the listing may be kept
    (``_MISSING`` for a folder that is not there; None: unreadable, changed too recently to
    trust its time, or holding a symbolic link)."""
    try:
        info = directory.stat()
    except OSError:  # a search folder that does not exist holds no rulesets
        return _MISSING, []
    stamp = stamp_of(info)
    key = str(directory)
    cached = _SCANS.get(key)
    if cached is not None and cached[0] == stamp:
        return stamp, cached[1]
    try:
        entries = list(os.scandir(directory))
    except OSError:  # unreadable now (no permission): perhaps not on the next look
        return None, []
    files = [
        Path(e.path)
        for e in entries
        if os.path.splitext(e.name)[1].lower() in SUFFIXES and _is_regular(e)
    ]
    files.sort(key=lambda p: (p.stem, SUFFIXES.index(p.suffix.lower())))
    # A symbolic link's target can come or go with the folder unchanged: a folder that
    # holds one is listed again every time.
    links = any(_is_link(e) for e in entries)
    if not links and settled(stamp, time.time_ns()):  # else a second change could hide
        _SCANS[key] = (stamp, files)
        return stamp, files
    return None, files


def _is_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink()
    except OSError:
        return True


def _is_regular(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def ruleset_folders(registry: Registry | None = None) -> list[Path]:
    """Every folder rulesets are looked up in: a file there may be named from any file."""
    registry = _registry(registry)
    return [*user_dirs(), *map(Path, _plugin_folders(registry)), bundled_dir()]


def _plugin_folders(registry: Registry) -> list[str]:
    """The folders of the plugins' rulesets and fragments, in the registry's order."""
    return [os.path.dirname(path) for path, _ in [*registry.rulesets, *registry.fragments]]


def locate(ref: str, base: Path, registry: Registry | None = None, *, referrer: str) -> str | Path:
    """A ``ruleset:`` or ``extends:`` written in the file ``referrer`` (in folder ``base``).

    A name stays a name; a path is read relative to ``base`` and must stay inside it or a
    rulesets folder (``references.confine``), else OutsideReference.
    """
    if not is_path(ref):
        return ref
    return confine(ref, base, ruleset_folders(registry), referrer=referrer)


def _identity(path: Path) -> str:
    return os.path.realpath(path)


_FOUND: dict[tuple[Any, ...], dict[str, list[_Candidate]]] = {}
"""The last name tables built (``_candidates``), by the folders' stamps and the plugins'
files: a name is looked up without resolving every file's real path again."""
_FOUND_SIZE = 4


def _candidates(registry: Registry) -> dict[str, list[_Candidate]]:
    """Every ruleset and fragment file by name, in lookup order: user, plugin, bundled."""
    return _found(registry, _user_state()[1])[0]


class Looked(NamedTuple):
    """The search folders at one moment: what the user's folders are worked out from,
    those folders, each search folder's stamp as listed (the user's, then the bundled
    one; None: not to be kept), and every name's files. A load by name asks once."""

    key: tuple[str, ...]
    users: tuple[Path, ...]
    stamps: tuple[tuple[int, ...] | None, ...]
    known: dict[str, list[_Candidate]]


def look(registry: Registry) -> Looked:
    key, users = _user_state()
    known, stamps = _found(registry, users)
    return Looked(key, users, stamps, known)


def _found(
    registry: Registry, users: tuple[Path, ...]
) -> tuple[dict[str, list[_Candidate]], tuple[tuple[int, ...] | None, ...]]:
    """:func:`_candidates`, and the stamps of the folders listed."""
    listings = [_listing_of(d) for d in [*users, bundled_dir()]]
    stamps = tuple(stamp for stamp, _ in listings)
    plugged = [*registry.rulesets, *registry.fragments]
    key = (
        tuple(str(d) for d in users),
        stamps,
        tuple((str(path), plugin) for path, plugin in plugged),
    )
    keep = all(stamp is not None for stamp in stamps)
    kept = _FOUND.get(key) if keep else None  # one look: another thread may clear it
    if kept is not None:
        return kept, stamps
    found: dict[str, list[_Candidate]] = {}
    seen: set[str] = set()

    def add(path: Path, origin: Origin, plugin: str | None = None) -> None:
        ident = _identity(path)
        if ident not in seen:
            seen.add(ident)
            found.setdefault(path.stem, []).append(_Candidate(path, origin, plugin))

    for _, files in listings[:-1]:
        for path in files:
            add(path, "user")
    for path, plugin in plugged:
        add(Path(path), "plugin", plugin)
    for path in listings[-1][1]:
        add(path, "bundled")
    if keep:
        if len(_FOUND) >= _FOUND_SIZE:
            _FOUND.clear()
        _FOUND[key] = found
    return found, stamps


def lookup_now(
    registry: Registry, names: tuple[str, ...], looked: Looked | None = None
) -> tuple[Any, tuple[tuple[tuple[str, Identity], ...], ...]]:
    """What a name or path written in a file is resolved against now: what the user's
    folders are worked out from (``~`` among it), and each rulesets folder (a path may
    lead into one) by its path and the folder it is, through any link; and the files each
    of ``names`` finds, in lookup order, by path and the file each is. Two equal answers
    resolve a chain alike; what the files hold is their own matter (a stamp, a digest).
    A few stats, where real paths cost a look at every folder on the way; ``looked``: the
    folders as a load just looked at them (their listings' stamps say what they are)."""
    key, users, stamps, known = looked if looked is not None else look(registry)
    searched = zip([*users, bundled_dir()], stamps, strict=True)
    *mine, bundled = [(str(d), _identity_of(d, stamp)) for d, stamp in searched]
    plugged = [(d, identity(d)) for d in _plugin_folders(registry)]
    folders = (*mine, *plugged, bundled)  # as ruleset_folders lists them
    found = tuple(
        tuple((str(c.path), identity(c.path)) for c in known.get(name, ())) for name in names
    )
    return (key, folders), found


def _identity_of(folder: Path, stamp: tuple[int, ...] | None) -> Identity:
    """A search folder's identity, from the stamp its listing took where there is one."""
    if stamp is None:
        return identity(folder)
    return None if stamp == _MISSING else (stamp[0], stamp[1])


def _registry(registry: Registry | None) -> Registry:
    return get_registry() if registry is None else registry


def _named(known: dict[str, list[_Candidate]], name: str) -> list[_Candidate]:
    """The files of the name ``name`` in ``known``, in lookup order; the lookup is
    recorded for the disk cache (``reads.py``), which a new file of that name undoes."""
    found = known.get(name, [])
    note_name(name, [c.path for c in found])
    return found


# --------------------------------------------------------------------------- finding


def find_rulesets(registry: Registry | None = None) -> list[RulesetSource]:
    """Every ruleset found, in name order; a hidden lower file shows as ``shadows``.
    Fragments are not rulesets: :func:`find_fragments` lists them."""
    return [source for source in _sources(registry) if not source.fragment]


def find_fragments(registry: Registry | None = None) -> list[RulesetSource]:
    """Every rule fragment found by name (user folders, plugins, bundled), in name order."""
    return [source for source in _sources(registry) if source.fragment]


def _sources(registry: Registry | None) -> list[RulesetSource]:
    registry = _registry(registry)
    sources = [
        _source(name, found, registry) for name, found in sorted(_candidates(registry).items())
    ]
    keep()  # the headings read, for the next listing (``headings.py``)
    return sources


def resolve(name_or_path: str | Path, registry: Registry | None = None) -> RulesetSource:
    """The ruleset a name (or a path) refers to; RulesetError if there is none."""
    registry = _registry(registry)
    name, found = _lookup(name_or_path, registry)
    return _source(name, found, registry)


def _lookup(
    name_or_path: str | Path,
    registry: Registry,
    known: dict[str, list[_Candidate]] | None = None,
) -> tuple[str, list[_Candidate]]:
    """The ruleset's name and its files of that name, the one in force first (``known``:
    the names' files, if the caller has looked already)."""
    if isinstance(name_or_path, Path) or is_path(name_or_path):
        path = expand_home(name_or_path) or Path(name_or_path)  # ~nosuchuser: no such file
        try:
            if path.is_file():
                return path.stem, [_Candidate(path, "path")]
            message = Said("no such file") if not path.exists() else Said("not a regular file")
        except OSError as exc:  # a name too long for the file system, no permission
            message = Said("cannot read the file: {reason}", reason=exc.strerror or str(exc))
        known = _candidates(registry)
        if not isinstance(name_or_path, Path) and path.stem in known and path.parent == Path():
            message = Said(
                "{reason} (to pick the ruleset by name, say '{name}')",
                reason=message,
                name=path.stem,
            )
        raise RulesetError([Problem(str(name_or_path), None, None, "", message)])
    if known is None:
        known = _candidates(registry)
    found = known.get(name_or_path)
    if not found:
        raise RulesetError(
            [Problem(shorten(name_or_path), None, None, "", _unknown_name(name_or_path, known))]
        )
    return name_or_path, found


def check_name(name: str, registry: Registry | None = None) -> None:
    """RulesetError if no ruleset has the name ``name`` (unpositioned: the reader of the
    file that wrote the name puts the message at its key)."""
    _lookup(name, _registry(registry))


def _path(
    name_or_path: str | Path,
    registry: Registry,
    known: dict[str, list[_Candidate]] | None = None,
) -> Path:
    if not isinstance(name_or_path, str | os.PathLike):  # else a TypeError from deep inside
        shown = "None" if name_or_path is None else f"{type(name_or_path).__name__}"
        raise TypeError(
            f"expected a ruleset's name or a path to its file, not {shown}: "
            'load_ruleset("wikipedia"), load_game("club.yaml")'
        )
    return _lookup(name_or_path, registry, known)[1][0].path


LISTED = 20
"""Names listed after "no ruleset named ...": with two thousand rulesets on the search
path, the message stays a line or two and `ulti rulesets` lists them all."""


def _listing(names: list[str], command: str) -> str:
    """``a, b, c`` for a few names; the first LISTED and a count for many."""
    if len(names) <= LISTED:
        return ", ".join(names)
    return Said(
        "{names} and {more} more (`{command}` lists them)",
        names=", ".join(names[:LISTED]),
        more=len(names) - LISTED,
        command=command,
    )


def _unknown_name(name: str, known: Mapping[str, list[_Candidate]]) -> str:
    names = sorted(n for n, found in known.items() if not _is_fragment_file(found[0].path))
    listing = (
        _listing(names, "ulti rulesets")
        if names
        else Said("none (is the package installed completely?)")
    )
    return Said(
        "no ruleset named '{name}'{hint}; known rulesets: {listing}",
        name=shorten(name),
        hint=did_you_mean(name, names),
        listing=listing,
    )


def _source(name: str, found: list[_Candidate], registry: Registry) -> RulesetSource:
    top = found[0]
    shadows = found[1].path if len(found) > 1 else None
    head = read_heading(top.path, HEADING)
    if head is not None and FRAGMENT_KEY in head:  # a fragment's first key: described
        description = head[FRAGMENT_KEY]
        title = description if isinstance(description, str) else ""
        return RulesetSource(name, title, top.origin, top.path, shadows, top.plugin, True)
    if head is not None and (title := title_text(head.get("title"))):
        return RulesetSource(name, title, top.origin, top.path, shadows, top.plugin)
    try:  # no title of its own (inherited), or a file a quick read cannot tell
        file: _File | None = _read(top.path)
    except RulesetError:
        file = None
    fragment = file is not None and file.is_fragment
    if file is None:
        title = ""
    elif fragment:
        description = file.data[FRAGMENT_KEY]
        title = description if isinstance(description, str) else ""
    else:
        title = _title(file, registry, set())
    return RulesetSource(name, title, top.origin, top.path, shadows, top.plugin, fragment)


def _title(file: _File, registry: Registry, seen: set[str]) -> str:
    """The file's title, or the one it inherits (the last parent's that has one); only as
    far as needed, so listing a thousand club files does not read their common base a
    thousand times."""
    seen.add(_identity(file.path))
    title = title_text(file.data.get("title"))
    if title:
        return title
    try:
        parents = _refs(file, "extends")
    except RulesetError:
        return ""
    for ref in reversed(parents):
        try:
            target = _extends_target(ref, registry)
            if _identity(target) in seen:
                continue
            head = read_heading(target, HEADING)
            heading = head if head is not None and FRAGMENT_KEY not in head else {}
            if found := title_text(heading.get("title")):
                return found
            parent = _read(target)
        except RulesetError:
            continue
        if not parent.is_fragment and (found := _title(parent, registry, seen)):
            return found
    return ""


# --------------------------------------------------------------------------- reading one file

META_KEYS = ("extends", "with", "without")
"""What a file says about the files it builds on; never part of the merged result."""
FRAGMENT_KEY = "fragment"
"""A fragment's first key: its one-line description, and the mark that it is one."""
NOT_IN_FRAGMENT = ("name", "title", "sources", *META_KEYS)
"""Keys a fragment may not set: they belong to the ruleset it is merged into."""
HEADING = (FRAGMENT_KEY, "title")
"""The top-level keys a listing needs: a file is read only up to the first of them
(``safe_yaml.read_heading``), and only while ``headings.py`` does not keep them."""


@dataclass(frozen=True)
class _File:
    """One file of an extends chain: its own mapping and where each key was written."""

    path: Path
    display: str
    data: dict[str, Any]
    positions: Mapping[KeyPath, Position]
    digest: bytes = b""
    """The SHA-256 of the file's bytes: what it holds (``base_merges`` keys by it)."""

    @property
    def is_fragment(self) -> bool:
        return FRAGMENT_KEY in self.data


def _display(path: Path) -> str:
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute)
    except ValueError:  # another drive
        return absolute
    return absolute if relative.startswith(os.pardir) else relative


def _dotted(path: KeyPath) -> str:
    return ".".join(str(segment) for segment in path)


def _read(path: Path) -> _File:
    from .parsed_files import PARSED  # hashlib: not for `ulti rulesets`, which reads headings
    from .yaml_data import Mark, YamlError, yaml_problems  # what a read speaks of: likewise

    display = _display(path)
    try:
        document = PARSED.read(path)
    except YamlError as exc:
        raise RulesetError(yaml_problems(exc, display)) from None
    if not isinstance(document.data, dict):
        if document.data is None:
            message = "the file is empty; a ruleset is a mapping of keys (name, title, ...)"
            mark = Mark(1, 1)
        else:
            message = (
                "the top level must be a mapping of keys (name, title, ...), not "
                f"{describe(document.data, quote=False)}: is this a ruleset file?"
            )
            mark = document.positions[()].value
        raise RulesetError([Problem(display, mark.line, mark.column, "", message)])
    return _File(path, display, document.data, document.positions, document.digest)


def _at(file: _File, path: KeyPath, message: str, *, value: bool = False) -> Problem:
    from .yaml_data import Mark  # loaded by now: the file's positions are its

    position = file.positions.get(path)
    mark = (position.value if value else position.key) if position else Mark(1, 1)
    return Problem(file.display, mark.line, mark.column, _dotted(path), message)


@dataclass(frozen=True)
class _Ref:
    """A name or path written under ``extends``, ``with`` or ``without``, and where."""

    file: _File
    path: KeyPath
    """``("extends",)`` for a single name, ``("extends", 1)`` for an item of a list."""
    value: str

    def problem(self, message: str) -> RulesetError:
        return RulesetError([_at(self.file, self.path, message, value=True)])


def _refs(file: _File, key: str) -> list[_Ref]:
    """The names or paths a file writes under ``key``: one, or a list of them."""
    value = file.data.get(key)
    if value is None:
        return []
    what = "a ruleset" if key == "extends" else "a fragment"
    items: list[tuple[KeyPath, Any]]
    if isinstance(value, list):
        if not value and key == "extends":
            message = "an empty list: name a ruleset, or leave extends out"
            raise RulesetError([_at(file, (key,), message, value=True)])
        items = [((key, i), item) for i, item in enumerate(value)]
    else:
        items = [((key,), value)]
    refs = []
    for path, item in items:
        if not isinstance(item, str) or not item.strip():
            plural = " (or a list of them)" if len(path) == 1 else ""
            message = f"must name {what} or give the path of a YAML file{plural}"
            raise RulesetError([_at(file, path, message, value=True)])
        refs.append(_Ref(file, path, item))
    return refs


# --------------------------------------------------------------------------- what a reference names


def _extends_target(ref: _Ref, registry: Registry) -> Path:
    """The file that an ``extends:`` entry names: a path relative to its file, or a name.

    A file that extends its own name (a club's ``wikipedia.yaml`` saying ``extends:
    wikipedia``) gets the next ruleset of that name below it, not itself.
    """
    file, value = ref.file, ref.value
    if is_path(value):
        return _path_target(ref, registry, "extends")
    known = _candidates(registry)
    found = _named(known, value)
    me = _identity(file.path)
    for i, candidate in enumerate(found):
        if _identity(candidate.path) == me:
            if i + 1 < len(found):
                return found[i + 1].path
            raise ref.problem(
                f"this file is the ruleset '{shorten(str(value))}' itself, and no ruleset of that "
                "name lies "
                "below it (user folders, then plugins, then the bundled rulesets)"
            )
    if found:
        return found[0].path
    unknown, failed = _unknown_name(value, known), _failed_plugins(registry)
    beside = _file_beside(file.path, value)
    if beside:
        unknown = Said("{unknown}{beside}", unknown=unknown, beside=beside)
    raise ref.problem(
        Said("{unknown}{failed}", unknown=unknown, failed=failed) if failed else unknown
    )


def _file_beside(path: Path, name: str) -> str:
    """For a name no ruleset has: the file of that name beside ``path``, which a name
    does not reach (only a path does), as the ``./name.yaml`` to write."""
    for suffix in SUFFIXES:
        if unusable(f"{name}{suffix}") is None and _is_file(path.parent / f"{name}{suffix}"):
            return Said(
                "; the file {file} beside this one is reached by a path: ./{file}",
                file=f"{name}{suffix}",
            )
    return ""


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False where the system cannot tell (no permission): a
    hint is never worth an error, least of all one quoting the whole name."""
    try:
        return path.is_file()
    except OSError:
        return False


def _fragment_target(ref: _Ref, registry: Registry) -> Path:
    """The file that a ``with:`` or ``without:`` entry (or a fragment in ``extends``) names."""
    if is_path(ref.value):
        return _path_target(ref, registry, str(ref.path[0]))
    known = _candidates(registry)
    found = _named(known, ref.value)
    if found:
        return found[0].path
    fragments = [name for name, files in known.items() if _is_fragment_file(files[0].path)]
    listing = _listing(sorted(fragments), "ulti rulesets") or "none"
    raise ref.problem(
        f"no fragment named '{shorten(ref.value)}'{did_you_mean(ref.value, fragments)}"
        f"{_file_beside(ref.file.path, ref.value)}; known "
        f"fragments: {listing}{_failed_plugins(registry)}"
    )


def _path_target(ref: _Ref, registry: Registry, verb: str) -> Path:
    try:
        target = confine(
            ref.value, ref.file.path.parent, ruleset_folders(registry), referrer="this file"
        )
    except OutsideReference as exc:
        raise ref.problem(str(exc)) from None
    try:
        mode: int | None = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:  # a name too long for its file system, no permission, a loop
        raise ref.problem(f"cannot read {shown_path(ref.value)}: {exc.strerror or exc}") from None
    if mode is None or not stat.S_ISREG(mode):
        what_is = "no such file" if mode is None else "not a regular file"
        # ``gone/../base.yaml`` fails at ``gone``: shown as written, not as ``base.yaml``
        where = str(target) if os.pardir in target.parts else _display(target)
        message = f"{what_is}: {shown_path(where)}"
        if mode is not None:
            message += " (a folder, a FIFO or a device is never read as a ruleset)"
        elif Path(ref.value).parent == Path() and target.stem in _candidates(registry):
            what = "extend the ruleset" if verb == "extends" else "name the fragment"
            message += f" (to {what} by name, write '{verb}: {target.stem}')"
        raise ref.problem(message)
    return target


def _is_fragment_file(path: Path) -> bool:
    head = read_heading(path, HEADING)
    if head is not None:
        return FRAGMENT_KEY in head
    try:
        return _read(path).is_fragment
    except RulesetError:
        return False


def _failed_plugins(registry: Registry) -> str:
    """For a name not found: the plugins that failed, which may have shipped it; or that no
    plugin was loaded at all (``wikipedia`` takes the Four Aces plugin's fragment, so
    without plugins it named its own ``with:`` line and said only "known fragments: none")."""
    failed = [f"'{f.plugin}'" for f in registry.failures]
    if failed:
        return Said(
            "; plugin {plugins} failed and was skipped (it may ship it)",
            plugins=", ".join(failed),
        )
    if os.environ.get(AUTOLOAD_ENV):
        return Said("; no plugin is loaded ({setting} is set), and a plugin may ship it",
                    setting=AUTOLOAD_ENV)  # fmt: skip
    return ""
