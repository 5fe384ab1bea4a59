"""Finding rulesets by name, merging ``extends`` chains, and saying exactly what is wrong.

A ruleset is found by name in the user's folders, then in plugins, then among the
bundled ones; a user file that hides another of the same name is reported, never
silently preferred. ``extends`` deep-merges raw mappings before validation, so every
key keeps the position (file, line, column) of the file in the chain that set it, and
every problem is one line ``club.yaml:14:5: contracts.ulti.value: <message>``.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import os
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from ..errors import Problem, RulesetError
from ..plugins import Registry, get_registry
from .hints import did_you_mean
from .ladder import check_ladder
from .positions import ABSENT, child, model_at, setting_places, yaml_problems
from .references import SUFFIXES, OutsideReference, confine, is_path
from .safe_yaml import KeyPath, Mark, Position, YamlError, read_file
from .scalars import describe
from .schema import Ruleset, ruleset_model

__all__ = [
    "PATH_ENV",
    "RulesetSource",
    "bundled_dir",
    "check_file",
    "content_hash",
    "find_rulesets",
    "load_raw",
    "load_resolved",
    "load_ruleset",
    "resolve",
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


# --------------------------------------------------------------------------- where to look


def bundled_dir() -> Path:
    """The bundled rulesets: inside the installed wheel, else ``rulesets/`` of the checkout."""
    packaged = resources.files("ulti_rules") / "_bundled"
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "rulesets"


def user_dirs() -> list[Path]:
    """The user's ruleset folders, highest priority first (they need not exist)."""
    dirs = [Path(p).expanduser() for p in os.environ.get(PATH_ENV, "").split(os.pathsep) if p]
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    if os.path.isabs(xdg):
        dirs.append(Path(xdg) / "ulti-rules" / "rulesets")
    else:
        with contextlib.suppress(RuntimeError):  # no home directory: nothing to search there
            dirs.append(Path.home() / ".config" / "ulti-rules" / "rulesets")
    return dirs


@dataclass(frozen=True)
class _Candidate:
    path: Path
    origin: Origin
    plugin: str | None = None


_SCANS: dict[str, tuple[tuple[int, int, int], list[Path]]] = {}
"""Each search folder's ruleset files, by the folder's identity and modification time:
a folder is listed once per run (and again only when a file is added or removed)."""
_RACY_NS = 2_000_000_000
"""A folder changed this recently is listed again every time: its timestamp is too coarse
to show a second change within the same tick."""


def _scan(directory: Path) -> list[Path]:
    try:
        info = directory.stat()
    except OSError:  # a search folder that does not exist holds no rulesets
        return []
    stamp = (info.st_dev, info.st_ino, info.st_mtime_ns)
    key = str(directory)
    cached = _SCANS.get(key)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return []
    files = [
        Path(e.path)
        for e in entries
        if os.path.splitext(e.name)[1].lower() in SUFFIXES and _is_regular(e)
    ]
    files.sort(key=lambda p: (p.stem, SUFFIXES.index(p.suffix.lower())))
    if time.time_ns() - info.st_mtime_ns > _RACY_NS:
        _SCANS[key] = (stamp, files)
    return files


def _is_regular(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def ruleset_folders(registry: Registry | None = None) -> list[Path]:
    """Every folder rulesets are looked up in: a file there may be named from any file."""
    registry = _registry(registry)
    plugin_dirs = [Path(path).parent for path, _ in registry.rulesets]
    return [*user_dirs(), *plugin_dirs, bundled_dir()]


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


def _candidates(registry: Registry) -> dict[str, list[_Candidate]]:
    """Every ruleset file by name, in lookup order: user, plugin, bundled."""
    found: dict[str, list[_Candidate]] = {}
    seen: set[str] = set()

    def add(path: Path, origin: Origin, plugin: str | None = None) -> None:
        key = _identity(path)
        if key not in seen:
            seen.add(key)
            found.setdefault(path.stem, []).append(_Candidate(path, origin, plugin))

    for directory in user_dirs():
        for path in _scan(directory):
            add(path, "user")
    for path, plugin in registry.rulesets:
        add(Path(path), "plugin", plugin)
    for path in _scan(bundled_dir()):
        add(path, "bundled")
    return found


def _registry(registry: Registry | None) -> Registry:
    return get_registry() if registry is None else registry


# --------------------------------------------------------------------------- finding


def find_rulesets(registry: Registry | None = None) -> list[RulesetSource]:
    """Every ruleset found, in name order; a hidden lower file shows as ``shadows``."""
    registry = _registry(registry)
    return [_source(name, found, registry) for name, found in sorted(_candidates(registry).items())]


def resolve(name_or_path: str | Path, registry: Registry | None = None) -> RulesetSource:
    """The ruleset a name (or a path) refers to; RulesetError if there is none."""
    registry = _registry(registry)
    name, found = _lookup(name_or_path, registry)
    return _source(name, found, registry)


def _lookup(name_or_path: str | Path, registry: Registry) -> tuple[str, list[_Candidate]]:
    """The ruleset's name and its files of that name, the one in force first."""
    if isinstance(name_or_path, Path) or is_path(name_or_path):
        path = Path(name_or_path).expanduser()
        if not path.is_file():
            message = "no such file" if not path.exists() else "not a regular file"
            known = _candidates(registry)
            if not isinstance(name_or_path, Path) and path.stem in known and path.parent == Path():
                message += f" (to pick the ruleset by name, say '{path.stem}')"
            raise RulesetError([Problem(str(name_or_path), None, None, "", message)])
        return path.stem, [_Candidate(path, "path")]
    known = _candidates(registry)
    found = known.get(name_or_path)
    if not found:
        raise RulesetError(
            [Problem(name_or_path, None, None, "", _unknown_name(name_or_path, known))]
        )
    return name_or_path, found


def _path(name_or_path: str | Path, registry: Registry) -> Path:
    return _lookup(name_or_path, registry)[1][0].path


def _unknown_name(name: str, known: Iterable[str]) -> str:
    names = sorted(known)
    listing = ", ".join(names) if names else "none (is the package installed completely?)"
    return f"no ruleset named '{name}'{did_you_mean(name, names)}; known rulesets: {listing}"


def _source(name: str, found: list[_Candidate], registry: Registry) -> RulesetSource:
    top = found[0]
    shadows = found[1].path if len(found) > 1 else None
    title = _title(top.path, registry)
    return RulesetSource(name, title, top.origin, top.path, shadows, top.plugin)


def _title(path: Path, registry: Registry) -> str:
    """The file's title, or the first one up its extends chain; only as far as needed,
    so listing a thousand club files does not read their common base a thousand times."""
    seen: set[str] = set()
    current = path
    while _identity(current) not in seen:
        seen.add(_identity(current))
        try:
            file = _read(current)
        except RulesetError:
            return ""
        title = file.data.get("title")
        if isinstance(title, str):
            return title
        if file.data.get("extends") is None:
            return ""
        try:
            current = _extends_target(file, registry)
        except RulesetError:
            return ""
    return ""


# --------------------------------------------------------------------------- reading, extends


@dataclass(frozen=True)
class _File:
    """One file of an extends chain: its own mapping and where each key was written."""

    path: Path
    display: str
    data: dict[str, Any]
    positions: Mapping[KeyPath, Position]


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
    display = _display(path)
    try:
        document = read_file(path)
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
    return _File(path, display, document.data, document.positions)


def _at(file: _File, path: KeyPath, message: str, *, value: bool = False) -> Problem:
    position = file.positions.get(path)
    mark = (position.value if value else position.key) if position else Mark(1, 1)
    return Problem(file.display, mark.line, mark.column, _dotted(path), message)


def _load_chain(path: Path, registry: Registry) -> list[_File]:
    """The file and everything it extends, most derived first; cycles are errors."""
    chain: list[_File] = []
    index: dict[str, int] = {}
    current = path
    while True:
        file = _read(current)
        index[_identity(current)] = len(chain)
        chain.append(file)
        if file.data.get("extends") is None:
            return chain
        target = _extends_target(file, registry)
        start = index.get(_identity(target))
        if start is not None:
            cycle = [*chain[start:], chain[start]]
            base = chain[start].path.parent
            names = [_relative_to(f.path, base) for f in cycle]
            message = "cycle " + " -> ".join(names)
            raise RulesetError([_at(chain[start], ("extends",), message, value=True)])
        current = target


def _relative_to(path: Path, base: Path) -> str:
    relative = os.path.relpath(os.path.abspath(path), os.path.abspath(base))
    return _display(path) if relative.startswith(os.pardir) else relative


def _extends_target(file: _File, registry: Registry) -> Path:
    """The file that ``extends:`` names: a path relative to ``file``, or a ruleset name.

    A file that extends its own name (a club's ``wikipedia.yaml`` saying ``extends:
    wikipedia``) gets the next ruleset of that name below it, not itself.
    """
    value = file.data["extends"]

    def problem(message: str) -> RulesetError:
        return RulesetError([_at(file, ("extends",), message, value=True)])

    if not isinstance(value, str) or not value.strip():
        raise problem("must name a ruleset or give the path of a YAML file")
    if is_path(value):
        try:
            target = confine(
                value, file.path.parent, ruleset_folders(registry), referrer="this file"
            )
        except OutsideReference as exc:
            raise problem(str(exc)) from None
        if not target.is_file():
            message = f"no such file: {_display(target)}"
            if Path(value).parent == Path() and target.stem in _candidates(registry):
                message += f" (to extend the ruleset by name, write 'extends: {target.stem}')"
            raise problem(message)
        return target
    known = _candidates(registry)
    found = known.get(value, [])
    me = _identity(file.path)
    for i, candidate in enumerate(found):
        if _identity(candidate.path) == me:
            if i + 1 < len(found):
                return found[i + 1].path
            raise problem(
                f"this file is the ruleset '{value}' itself, and no ruleset of that name lies "
                "below it (user folders, then plugins, then the bundled rulesets)"
            )
    if found:
        return found[0].path
    raise problem(_unknown_name(value, known))


def _merge(base: Any, child: Any) -> Any:
    """Deep merge: mappings merge key by key; anything else (lists, null) replaces."""
    if isinstance(base, dict) and isinstance(child, dict):
        merged = dict(base)
        for key, value in child.items():
            merged[key] = _merge(base[key], value) if key in base else value
        return merged
    return child


def _resolved(chain: list[_File]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for file in reversed(chain):
        merged = _merge(merged, file.data)
    merged.pop("extends", None)
    if "name" not in chain[0].data:
        merged["name"] = chain[0].path.stem
    return merged


# --------------------------------------------------------------------------- positions


def _exists(data: Any, path: KeyPath) -> KeyPath:
    """The longest prefix of ``path`` present in ``data``."""
    node = data
    for i, segment in enumerate(path):
        node = child(node, segment)
        if node is ABSENT:
            return path[:i]
    return path


class _Where:
    """Which file of the chain set a key: the most derived file that wrote it."""

    def __init__(self, chain: list[_File], merged: dict[str, Any]) -> None:
        self.chain = chain
        self.merged = merged

    def problem(self, path: KeyPath, message: str) -> _Sortable:
        at = _exists(self.merged, path)
        while True:
            for rank, file in enumerate(self.chain):
                position = file.positions.get(at)
                if position is not None:
                    problem = Problem(
                        file.display,
                        position.key.line,
                        position.key.column,
                        _dotted(path),
                        message,
                    )
                    return (rank, position.key.line, position.key.column), problem
            if not at:
                top = self.chain[0]
                return (0, 1, 1), Problem(top.display, 1, 1, _dotted(path), message)
            at = at[:-1]

    def path_of(self, dotted: str) -> KeyPath:
        """A checker's dotted path as keys and list indexes of the merged data."""
        path: list[str | int] = []
        node: Any = self.merged
        for segment in dotted.split(".") if dotted else []:
            key: str | int = segment
            if isinstance(node, list) and segment.isdigit():
                key = int(segment)
            node = child(node, key)
            path.append(key)
        return tuple(path)


_Sortable = tuple[tuple[int, int, int], Problem]


def _sorted(problems: list[_Sortable]) -> list[Problem]:
    unique: dict[tuple[str, int | None, int | None, str, str], _Sortable] = {}
    for key, problem in problems:
        ident = (problem.file, problem.line, problem.column, problem.path, problem.message)
        unique.setdefault(ident, (key, problem))
    return [problem for _, problem in sorted(unique.values(), key=lambda item: item[0])]


# --------------------------------------------------------------------------- validation errors


_TYPE_LABELS = frozenset({"str", "int", "float", "bool", "none", "list", "dict", "literal"})


def _is_label(segment: str) -> bool:
    """A pydantic loc segment naming a union member, not a key (``list[str]``, ``Names``)."""
    return "[" in segment or segment[:1].isupper() or segment in _TYPE_LABELS


def _data_path(data: Any, loc: tuple[int | str, ...]) -> tuple[KeyPath, bool]:
    """A pydantic ``loc`` as a path into the data: tag and union segments dropped.

    Returns the path and whether a union-member segment was dropped (such errors
    come in groups, one per member, and are joined into one problem).
    """
    path: list[str | int] = []
    node: Any = data
    in_union = False
    for i, segment in enumerate(loc):
        last = i == len(loc) - 1
        found = child(node, segment)
        if found is not ABSENT:
            path.append(segment)
            node = found
            continue
        if isinstance(node, dict) and segment == node.get("kind") and not last:
            continue  # the discriminated union's tag: contracts.ulti.<ulti>.value
        if isinstance(segment, str) and _is_label(segment):
            in_union = True
            continue
        path.append(segment)
        node = None
    return tuple(path), in_union


def _belongs_at(model: type[Ruleset], path: KeyPath) -> str:
    """`` (it belongs at marriages.require_trick)`` for a setting written at the wrong
    level of the file; '' when no setting has that name (or too many do to help).
    Places in the section the key was written in come first, alone if there are any."""
    places = setting_places(model, str(path[-1]))
    here = _dotted(path)
    for place in places:
        pattern = re.escape(place).replace(re.escape("<id>"), r"[^.]+")
        if re.fullmatch(pattern.replace(re.escape("[]"), r"\.\d+"), here):
            return ""  # it is where it belongs; what is wrong is its value
    section = [p for p in places if len(path) > 1 and re.split(r"[.\[]", p)[0] == path[0]]
    places = section or places
    if not places or len(places) > 3:
        return ""
    return f" (it belongs at {' or '.join(places)})"


def _ladder_not_merged(where: _Where, path: KeyPath) -> str:
    """A hint for a bid written as if ``ladder:`` merged into the base's ladder by id.

    Lists replace (docs/rulesets.md), so ``ladder: [{id: parti, names: ...}]`` in a
    club file that extends a base is a one-bid ladder lacking its rank, value and
    components, not a renamed Simple; say so once, at that bid.
    """
    if len(path) != 2 or path[0] != "ladder" or not isinstance(path[1], int):
        return ""
    writers = [i for i, f in enumerate(where.chain) if isinstance(f.data.get("ladder"), list)]
    if len(writers) < 2:
        return ""
    writer, base = where.chain[writers[0]], where.chain[writers[1]]
    item = child(child(where.merged, "ladder"), path[1])
    base_ids = {b.get("id") for b in base.data["ladder"] if isinstance(b, dict)}
    if not isinstance(item, dict) or item.get("id") not in base_ids:
        return ""
    if all(key in item for key in ("rank", "value", "components")):
        return ""
    extends = writer.data.get("extends")
    shown = extends if isinstance(extends, str) and not is_path(extends) else base.display
    return (
        f"; a club file's `ladder:` replaces the base's whole ladder (lists are not "
        f"merged), so write every bid in full: `ulti show {shown}` prints the ladder to copy"
    )


def _schema_problems(
    exc: ValidationError, model: type[Ruleset], where: _Where, registry: Registry
) -> list[_Sortable]:
    merged = where.merged
    kinds = sorted(registry.kinds)
    grouped: dict[KeyPath, list[str]] = {}
    union_paths: set[KeyPath] = set()
    order: list[KeyPath] = []
    for error in exc.errors(include_url=False):
        path, in_union = _data_path(merged, error["loc"])
        kind, message, ctx = error["type"], error["msg"], error.get("ctx", {})
        given = error.get("input")
        if kind == "missing":
            path, message = path[:-1], f"missing required key '{path[-1]}'"
        elif kind == "extra_forbidden":
            key = str(path[-1])
            parent = model_at(model, path[:-1], merged)
            allowed = sorted(parent.model_fields) if parent is not None else []
            hint = did_you_mean(key, allowed) or _belongs_at(model, path)
            if not hint and allowed:
                hint = "; allowed here: " + ", ".join(allowed)
            message = f"unknown key '{key}'{hint}"
        elif kind == "union_tag_invalid":
            tag = str(ctx.get("tag", given))
            if _exists(merged, (*path, "kind")) == (*path, "kind"):
                path = (*path, "kind")
            message = (
                f"unknown contract kind '{tag}'{did_you_mean(tag, kinds)}; "
                f"installed kinds: {', '.join(kinds)}{registry.missing_kind_hint(tag)}"
            )
        elif kind == "union_tag_not_found":
            message = (
                f"missing 'kind': say which contract kind judges this entry; "
                f"installed kinds: {', '.join(kinds)}"
            )
        elif kind in ("value_error", "assertion_error"):
            message = re.sub(r"^(Value|Assertion) error, ", "", message)
        elif kind == "literal_error" and isinstance(given, str):
            message += did_you_mean(given, re.findall(r"'([^']*)'", str(ctx.get("expected", ""))))
        elif kind in ("model_type", "model_attributes_type", "dict_type"):
            message = f"should be a mapping of keys, not {describe(given)}"
            if path and isinstance(path[-1], str):
                message += _belongs_at(model, path)
        elif kind == "list_type":
            message = f"should be a list, not {describe(given)}"
        elif kind in ("bool_parsing", "bool_type"):
            message = f"should be true or false, not {describe(given)}"
        elif kind in ("int_type", "int_parsing", "int_from_float") and message.startswith("Input"):
            message = f"should be a whole number, not {describe(given)}"  # a kind's parameter
        if path not in grouped:
            grouped[path] = []
            order.append(path)
        if message not in grouped[path]:
            grouped[path].append(message)
        if in_union:
            union_paths.add(path)
    for path in order:
        hint = _ladder_not_merged(where, path)
        if hint and grouped[path]:
            grouped[path][0] += hint
    problems: list[_Sortable] = []
    for path in order:
        messages = grouped[path]
        if path in union_paths and len(messages) > 1:
            joined = messages[0] + "".join(
                " or " + re.sub(r"^Input should", "should", m) for m in messages[1:]
            )
            problems.append(where.problem(path, joined))
        else:
            problems.extend(where.problem(path, message) for message in messages)
    return problems


def _salvaged_ladder_problems(
    exc: ValidationError, model: type[Ruleset], where: _Where, registry: Registry
) -> list[_Sortable]:
    """Ladder problems of a file that also has schema errors, so all are reported at once.

    The broken parts are set aside (a bad contract with the bids that use it, a bad
    bid, a bad optional key, which then takes its default) and the rest is validated
    again; if that succeeds the ladder checks run on it. Anything cleverer than that
    is not attempted: if the rest still does not validate, only schema problems show.
    """
    data = copy.deepcopy(where.merged)
    bad_contracts: set[str] = set()
    bad_bids: set[int] = set()
    for error in exc.errors(include_url=False):
        path, _ = _data_path(where.merged, error["loc"])
        if not path or (error["type"] == "missing" and path[0] not in ("contracts", "ladder")):
            return []  # a required section is missing: nothing sound is left to check
        head = path[0]
        if head == "contracts" and len(path) >= 2:
            bad_contracts.add(str(path[1]))
        elif head == "ladder" and len(path) >= 2 and isinstance(path[1], int):
            bad_bids.add(path[1])
        elif head in ("contracts", "ladder"):
            return []
        else:
            parent = data
            for segment in path[:-1]:
                parent = child(parent, segment)
            if not isinstance(parent, dict):
                return []
            parent.pop(str(path[-1]), None)
    contracts = data.get("contracts")
    ladder = data.get("ladder")
    if not isinstance(contracts, dict) or not isinstance(ladder, list):
        return []
    for cid in bad_contracts:
        contracts.pop(cid, None)
    kept: list[int] = []
    for i, bid in enumerate(ladder):
        components = bid.get("components") if isinstance(bid, dict) else None
        uses_bad = isinstance(components, list) and any(c in bad_contracts for c in components)
        if i not in bad_bids and not uses_bad:
            kept.append(i)
    data["ladder"] = [ladder[i] for i in kept]
    try:
        ruleset = model.model_validate(data)
    except ValidationError:
        return []
    problems: list[_Sortable] = []
    for issue in check_ladder(ruleset, registry):
        parts = issue.path.split(".")
        if parts[0] != "ladder" or len(parts) < 3 or not parts[1].isdigit() or parts[2] == "rank":
            continue  # rank and catalogue-wide checks may be skewed by what was set aside
        parts[1] = str(kept[int(parts[1])])
        problems.append(where.problem(where.path_of(".".join(parts)), issue.message))
    return problems


# --------------------------------------------------------------------------- the public loaders


def load_raw(name_or_path: str | Path, registry: Registry | None = None) -> dict[str, Any]:
    """The top file's own mapping, as written (``extends`` not followed)."""
    return _read(_path(name_or_path, _registry(registry))).data


def load_resolved(name_or_path: str | Path, registry: Registry | None = None) -> dict[str, Any]:
    """The mapping after the ``extends`` chain is merged, before validation."""
    registry = _registry(registry)
    return _resolved(_load_chain(_path(name_or_path, registry), registry))


def load_ruleset(name_or_path: str | Path, registry: Registry | None = None) -> Ruleset:
    """The validated ruleset; RulesetError lists every schema or ladder problem."""
    registry = _registry(registry)
    chain = _load_chain(_path(name_or_path, registry), registry)
    where = _Where(chain, _resolved(chain))
    model = ruleset_model(registry.param_models())
    try:
        ruleset = model.model_validate(where.merged)
    except ValidationError as exc:
        problems = _schema_problems(exc, model, where, registry)
        problems.extend(_salvaged_ladder_problems(exc, model, where, registry))
        raise RulesetError(_sorted(problems)) from None
    issues = check_ladder(ruleset, registry)
    if issues:
        raise RulesetError(
            _sorted([where.problem(where.path_of(issue.path), issue.message) for issue in issues])
        )
    return ruleset


def check_file(path: str | Path, registry: Registry | None = None) -> list[Problem]:
    """Every problem (YAML, extends, schema, ladder) of a ruleset; [] when it is fine."""
    try:
        load_ruleset(path, registry)
    except RulesetError as exc:
        return list(exc.problems)
    return []


def content_hash(ruleset: Ruleset) -> str:
    """``sha256:`` of the resolved ruleset's canonical JSON: hand records name it by this.

    Settings that hold their schema default are left out, so a setting added to the
    schema later (with a default that keeps the old rules) leaves every existing
    ruleset's hash, and so every saved record, as it was; any value a file sets, or
    any setting moved off its default, changes it.
    """
    data = ruleset.model_dump(mode="json", exclude_defaults=True)
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()
