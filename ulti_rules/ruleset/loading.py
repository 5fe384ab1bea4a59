"""Loading a ruleset: merging its ``extends`` chain and fragments, validating it, and
saying exactly what is wrong.

Finding a ruleset by name is ``finding.py``'s (re-exported here, as it always was);
this module adds what needs the schema. ``extends`` deep-merges raw mappings before
validation, so every key keeps the position (file, line, column) of the file in the
chain that set it, and every problem is one line ``club.yaml:14:5: contracts.ulti.value:
<message>``.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from ..cards import SUIT_OF_WORD
from ..errors import Problem, RulesetError, capped
from ..plugins import Registry, process_plugin_modules
from ..quoting import QUOTED, describe, shorten
from ..said import Said
from .base_merges import BASES
from .disk_cache import DiskCache
from .finding import (
    FRAGMENT_KEY,
    META_KEYS,
    NOT_IN_FRAGMENT,
    PATH_ENV,
    RulesetSource,
    _at,
    _candidates,
    _display,
    _dotted,
    _extends_target,
    _File,
    _fragment_target,
    _identity,
    _named,
    _path,
    _read,
    _Ref,
    _refs,
    _registry,
    bundled_dir,
    check_name,
    find_fragments,
    find_rulesets,
    look,
    lookup_now,
    resolve,
    user_dirs,
)
from .finding import locate as locate  # for the readers of files that name a ruleset
from .finding import ruleset_folders as ruleset_folders
from .hints import did_you_mean
from .ladder import (
    LadderIssue,
    bid_list,
    check_ladder,
    derive_fix,
    derive_ladder,
    numbers_in_force,
    order_fix,
)
from .load_cache import LoadCache
from .merging import BY_ID, Merged, bid_keys_required, entry_keys_required
from .positions import ABSENT, child, model_at, setting_places
from .pydantic_problems import (
    bound_message,
    list_message,
    literal_message,
    located,
    missing_key_message,
    plain_message,
)
from .ranking import TABLE
from .reads import recording
from .references import is_path, outside_allowed
from .schema import REGISTRY_KEY, Ruleset, ruleset_model
from .yaml_data import KeyPath, values_in

if TYPE_CHECKING:
    from ..game import Game

__all__ = [
    "PATH_ENV",
    "OwnSettings",
    "RulesetSource",
    "bundled_dir",
    "check_file",
    "check_fragment",
    "check_name",
    "content_hash",
    "find_fragments",
    "find_rulesets",
    "load_raw",
    "load_resolved",
    "load_ruleset",
    "resolve",
    "user_dirs",
]


_UNFOUND = "\0unfound:"
"""How a dropped fragment that nothing provides is keyed (no file identity looks so)."""


def _all_found(parents: list[_Ref], registry: Registry) -> None:
    """Every ``extends`` entry that names no file, at once: the first one stopped the
    reading, and the next was found only once it was mended (``extends: [./nope.yaml,
    tournment]``). Nothing can be merged without its parents, so the reading stops here."""
    problems = []
    for ref in parents:
        try:
            _extends_target(ref, registry)
        except RulesetError as exc:
            problems.extend(exc.problems)
    if len(problems) > 1:
        raise RulesetError(problems)


class _Chain:
    """Every file a ruleset is made of, in merge order, each once.

    A file's layers are those of each ruleset it ``extends`` (in the stated order, a
    fragment listed there merged where it stands), then the file itself, then the
    fragments it adds ``with``; ``without`` drops a fragment from everything the file
    inherits. A file met twice (two parents on one base) is merged where it is first
    met, so neither parent's changes are undone by the base coming again.
    """

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.layers: list[_File] = []
        self.seen: set[str] = set()
        self.dropped: dict[str, bool] = {}
        """Each ``without`` (by ref) and whether it dropped anything."""
        self.unfound: dict[str, RulesetError] = {}
        """Each ``without`` (by ref) of a fragment no installed plugin or folder provides,
        and the problem it is if nothing it builds on adds that fragment by name."""

    def build(self, top: _File) -> list[_File]:
        if top.is_fragment:
            raise RulesetError([_fragment_alone(top)])
        drops = self.visit(top, {}, [])
        unused = [ref for ref in drops if not self.dropped[_ref_key(ref)]]
        if unused:
            ref = unused[0]
            if _ref_key(ref) in self.unfound:
                raise self.unfound[_ref_key(ref)]
            used = sorted({f.path.stem for f in self.layers if f.is_fragment} - {ref.value})
            listing = f"; it uses {', '.join(used)}" if used else "; it uses no fragments"
            raise ref.problem(
                f"nothing to drop: what this file builds on does not use the fragment "
                f"'{ref.value}'{listing}"
            )
        return self.layers

    def visit(
        self, file: _File, dropped: dict[str, _Ref], stack: list[tuple[_File, KeyPath]]
    ) -> list[_Ref]:
        """Add ``file``'s layers; returns its own ``without`` refs (checked by the top file)."""
        parents = _refs(file, "extends")
        adds = _refs(file, "with")
        without: dict[str, _Ref] = {}
        for ref in _refs(file, "without"):
            without[self.drop_key(ref)] = ref
            self.dropped.setdefault(_ref_key(ref), False)
        for ref in [*parents, *adds]:
            if _is_same(ref, without, self.registry) or _UNFOUND + ref.value in without:
                raise ref.problem(
                    f"this file both adds the fragment '{ref.value}' and drops it "
                    "(without:); keep one of the two"
                )
        inherited = {**dropped, **without}
        _all_found(parents, self.registry)
        have_base = False
        for ref in parents:
            # a fragment listed after the base, which a file above drops by a name that
            # no installed plugin or folder provides: dropping it needs no plugin
            unfound = None if is_path(ref.value) else dropped.get(_UNFOUND + ref.value)
            if unfound is not None and have_base:
                self.dropped[_ref_key(unfound)] = True
                continue
            parent_path = _extends_target(ref, self.registry)
            self.check_cycle(parent_path, [*stack, (file, ref.path)])
            parent = _read(parent_path)
            if parent.is_fragment:
                if not have_base:
                    raise ref.problem(
                        f"'{ref.value}' is a fragment, which is merged onto a ruleset: list a "
                        f"ruleset before it (extends: [<ruleset>, {ref.value}]), or add it "
                        f"with `with: [{ref.value}]`"
                    )
                self.add_fragment(parent, ref, inherited)
            else:
                have_base = True
                self.visit(parent, inherited, [*stack, (file, ref.path)])
        self.add(file)
        for ref in adds:
            self.add_named(ref, dropped)
        return list(without.values())

    def drop_key(self, ref: _Ref) -> str:
        """The key ``without`` drops a fragment by: its file's identity, or, for a name no
        installed plugin or folder provides, the name itself (the fragment a ruleset one
        builds on adds by name, ``with: [four-aces]``, may belong to a plugin that is not
        installed; dropping it needs no plugin)."""
        try:
            return _identity(self.fragment(ref, "without").path)
        except RulesetError as exc:
            if is_path(ref.value) or _named(_candidates(self.registry), ref.value):
                raise  # a file that is not there, or a ruleset named where a fragment goes
            self.unfound[_ref_key(ref)] = exc
            return _UNFOUND + ref.value

    def add_named(self, ref: _Ref, dropped: dict[str, _Ref]) -> None:
        """Add the fragment a ``with`` entry names, unless a file above drops it: also one
        that no installed plugin provides, when it is dropped by that name (as ``visit``
        does for one listed in ``extends``)."""
        drop = None if is_path(ref.value) else dropped.get(_UNFOUND + ref.value)
        if drop is not None:
            self.dropped[_ref_key(drop)] = True
            return
        self.add_fragment(self.fragment(ref, "with"), ref, dropped)

    def check_cycle(self, target: Path, stack: list[tuple[_File, KeyPath]]) -> None:
        """A problem if ``target`` is a file ``stack`` (the files extending it) holds."""
        identities = [_identity(f.path) for f, _ in stack]
        start = next((i for i, ident in enumerate(identities) if ident == _identity(target)), None)
        if start is None:
            return
        first, path = stack[start]
        cycle = [f for f, _ in stack[start:]] + [first]
        names = [_relative_to(f.path, first.path.parent) for f in cycle]
        raise RulesetError([_at(first, path, "cycle " + " -> ".join(names), value=True)])

    def fragment(self, ref: _Ref, key: str) -> _File:
        """The fragment ``ref`` names; a problem if it names none, or a ruleset."""
        found = _read(_fragment_target(ref, self.registry))
        if not found.is_fragment:
            use = (
                "add a ruleset's rules with `extends:`"
                if key == "with"
                else "`without:` drops a fragment that a ruleset you extend uses"
            )
            raise ref.problem(
                f"'{ref.value}' is a ruleset, not a fragment (a file whose first key is "
                f"`fragment:`); {use}"
            )
        return found

    def add_fragment(self, fragment: _File, ref: _Ref, dropped: dict[str, _Ref]) -> None:
        drop = dropped.get(_identity(fragment.path))
        if drop is not None:
            self.dropped[_ref_key(drop)] = True
            return
        _check_fragment_head(fragment)
        self.add(fragment)

    def add(self, file: _File) -> None:
        identity = _identity(file.path)
        if identity not in self.seen:
            self.seen.add(identity)
            self.layers.append(file)


def _check_fragment_head(fragment: _File) -> None:
    """A problem if the fragment sets what belongs to a ruleset, or is not described."""
    for key in NOT_IN_FRAGMENT:
        if key in fragment.data:
            raise RulesetError(
                [
                    _at(
                        fragment,
                        (key,),
                        f"a fragment cannot set '{shorten(str(key))}': it is merged into "
                        "rulesets that have their own (describe the fragment in `fragment:`)",
                    )
                ]
            )
    description = fragment.data[FRAGMENT_KEY]
    if not isinstance(description, str) or not description.strip():
        raise RulesetError(
            [
                _at(
                    fragment,
                    (FRAGMENT_KEY,),
                    "describe the fragment in one line of text (shown by `ulti rulesets`), "
                    f"not {describe(description)}",
                    value=True,
                )
            ]
        )


def _ref_key(ref: _Ref) -> str:
    return f"{_identity(ref.file.path)}\0{_dotted(ref.path)}"


def _is_same(ref: _Ref, without: dict[str, _Ref], registry: Registry) -> bool:
    """Whether ``ref`` (an extends or with entry) names a fragment ``without`` drops."""
    if not without:
        return False
    try:
        target = _fragment_target(ref, registry)
    except RulesetError:
        return False
    return _identity(target) in without


def _fragment_alone(file: _File) -> Problem:
    name = file.path.stem
    return _at(
        file,
        (FRAGMENT_KEY,),
        f"'{shorten(str(name))}' is a fragment (part of a ruleset, merged onto one), not a "
        f"playable ruleset: add it to a ruleset with `with: [{shorten(str(name))}]` or "
        f"`extends: [<ruleset>, {shorten(str(name))}]`, and "
        "check that ruleset",
    )


def _relative_to(path: Path, base: Path) -> str:
    relative = os.path.relpath(os.path.abspath(path), os.path.abspath(base))
    return _display(path) if relative.startswith(os.pardir) else relative


@dataclass(frozen=True)
class _Resolved:
    """A ruleset's files in merge order, which of them is the ruleset's own, and the merge."""

    layers: list[_File]
    top: int
    merged: Merged

    def issue_problems(self) -> list[_Sortable]:
        return [
            (
                (self.order(issue.layer), *_mark_of(self.layers[issue.layer], issue.path)),
                _at(self.layers[issue.layer], issue.path, issue.message),
            )
            for issue in self.merged.issues
        ]

    def order(self, layer: int) -> int:
        """Problems of the file itself come first, then those of the files it builds on."""
        return 0 if layer == self.top else len(self.layers) - layer


def _mark_of(file: _File, path: KeyPath) -> tuple[int, int]:
    position = file.positions.get(path)
    return (position.key.line, position.key.column) if position else (1, 1)


def _resolve_chain(path: Path, registry: Registry) -> _Resolved:
    """Read the file and all it builds on, and merge them (``name``: the file's own, or
    its file name)."""
    own = _read(path)
    layers = _Chain(registry).build(own)
    top = layers.index(own)
    return _merge_layers(layers, top, _merged_below(layers, top) if top else None)


def _merge_layers(layers: list[_File], top: int, below: Merged | None = None) -> _Resolved:
    """Merge files read and put in order; ``top`` is the one loaded, which names the result.
    ``below``: the files before ``top`` merged already (:func:`_merged_below`)."""
    merged = Merged() if below is None else below.copy()
    for layer in range(0 if below is None else top, len(layers)):
        _merge_one(merged, layer, layers[layer])
    merged.finish({i: f.path.stem for i, f in enumerate(layers) if f.is_fragment})
    own = layers[top]
    if "name" not in own.data:
        merged.data["name"] = own.path.stem
    return _Resolved(layers, top, merged)


def _merged_below(layers: list[_File], top: int) -> Merged:
    """The files before ``top`` merged, to merge ``top`` (or variants of it, for
    ``OwnSettings``) onto: a copy of the merge kept for files that hold the same."""

    def merge() -> Merged:
        merged = Merged()
        for layer in range(top):
            _merge_one(merged, layer, layers[layer])
        return merged

    return BASES.merged([file.digest for file in layers[:top]], merge)


def _merge_one(merged: Merged, layer: int, file: _File) -> None:
    skip = {*META_KEYS, FRAGMENT_KEY}
    data = {key: value for key, value in file.data.items() if key not in skip}
    merged.apply(layer, data, file.positions, fragment=file.is_fragment)


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
    """Which file set a key of the merged ruleset, and where: the merge kept it."""

    def __init__(self, resolved: _Resolved) -> None:
        self.resolved = resolved
        self.merged = resolved.merged.data
        """The data problems are placed in; set before the first problem is asked for."""
        self._placed: dict[KeyPath, tuple[tuple[int, int, int], str]] = {}

    def problem(self, path: KeyPath, message: str) -> _Sortable:
        key, display = self.place(path)
        return key, Problem(display, key[1], key[2], self._shown(path), message)

    def _shown(self, path: KeyPath) -> str:
        """``path`` as the file holding it writes it: a bid of a ``ladder:`` mapping by its
        id (``ladder.ulti.names``), one of a listed ladder by its place in that list, not
        by its place in the merged ladder."""
        ladder = self.merged.get("ladder")
        if len(path) > 1 and path[0] == "ladder" and isinstance(path[1], int):
            layer = self._layer_of(path)
            written = None if layer is None else self.resolved.layers[layer].data.get("ladder")
            bid = ladder[path[1]] if isinstance(ladder, list) and path[1] < len(ladder) else None
            bid_id = bid.get("id") if isinstance(bid, dict) else None
            if isinstance(written, dict) and isinstance(bid_id, str) and bid_id in written:
                return _dotted(("ladder", bid_id, *path[2:]))
            if isinstance(written, list):  # its place in that file's list, not the merged one
                places = [
                    i
                    for i, b in enumerate(written)
                    if isinstance(b, dict) and b.get("id") == bid_id
                ]
                # an id written twice: the same occurrence as in the merged ladder
                assert isinstance(ladder, list)
                nth = sum(
                    1 for b in ladder[: path[1]] if isinstance(b, dict) and b.get("id") == bid_id
                )
                if places:
                    return _dotted(("ladder", places[min(nth, len(places) - 1)], *path[2:]))
        return _dotted(path)

    def _layer_of(self, path: KeyPath) -> int | None:
        """The file (layer) that wrote ``path`` or the nearest key above it."""
        at = self._placed_key(path)
        return None if at is None else self.resolved.merged.places[at][0]

    def _placed_key(self, path: KeyPath) -> KeyPath | None:
        """``path``, or the nearest key above it that a file wrote; None if none did."""
        at = _exists(self.merged, path)
        places = self.resolved.merged.places
        while at not in places:
            if not at:
                return None
            at = at[:-1]
        return at

    def place(self, path: KeyPath) -> tuple[tuple[int, int, int], str]:
        """The sort key (file order, line, column) of a problem at ``path``, and its file;
        remembered, as a file with thousands of problems asks for each twice."""
        placed = self._placed.get(path)
        if placed is None:
            placed = self._placed[path] = self._place(path)
        return placed

    def _place(self, path: KeyPath) -> tuple[tuple[int, int, int], str]:
        at = self._placed_key(path)
        if at is None:  # the document itself: where the file loaded starts
            top = self.resolved.layers[self.resolved.top]
            line, column = _mark_of(top, ())
            return (0, line, column), top.display
        layer, position = self.resolved.merged.places[at]
        mark, file = position.key, self.resolved.layers[layer]
        return (self.resolved.order(layer), mark.line, mark.column), file.display

    @property
    def own(self) -> int:
        """The :meth:`writer` number of the file loaded itself."""
        return len(self.resolved.layers) - 1 - self.resolved.top

    def writer(self, path: KeyPath) -> int | None:
        """Which file wrote exactly the key ``path``: 0 for the last one merged (the most
        derived), 1 for the one before, and so on; None if no file wrote it."""
        placed = self.resolved.merged.places.get(path)
        return None if placed is None else len(self.resolved.layers) - 1 - placed[0]

    def path_of(self, dotted: str) -> KeyPath:
        """A checker's dotted path as keys and list indexes of the merged data, up to
        the last that is there (item 0 of a list written as its lone item is that item)."""
        path: list[str | int] = []
        node: Any = self.merged
        for segment in dotted.split(".") if dotted else []:
            if not isinstance(node, dict | list):
                break
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
    """A hint for an incomplete bid in a ``ladder:`` list that replaced an inherited ladder.

    A list replaces the base's whole ladder, so ``ladder: [{id: parti, names: ...}]`` in
    a club file is a one-bid ladder lacking its rank, value and components, not a renamed
    Simple; say so once, at that bid, with the mapping form that does what was meant.
    """
    if len(path) != 2 or path[0] != "ladder" or not isinstance(path[1], int):
        return ""
    replaced = where.resolved.merged.replaced_ladder
    placed = where.resolved.merged.places.get(path)
    if replaced is None or placed is None or placed[0] != replaced[0]:
        return ""
    item = child(child(where.merged, "ladder"), path[1])
    if not isinstance(item, dict) or item.get("id") not in replaced[1]:
        return ""
    if all(key in item for key in bid_keys_required() if key != "names"):
        return ""  # a whole bid, perhaps only unnamed: no merge was meant
    bid_id = shorten(str(item["id"]))
    return (
        f"; a `ladder:` list replaces the inherited ladder whole: to change only the bid "
        f"'{bid_id}', write the ladder as a mapping by id, which merges "
        f"(`ladder: {{{bid_id}: {{...}}}}`)"
    )


_MISSING_KEY = re.compile(r"^missing (?:required key '[^']*'$|'kind': )")
"""How a missing key of an entry is worded above (a contract's kind has its own words)."""


def _misspelt_entry(where: _Where, path: KeyPath, messages: list[str]) -> str | None:
    """One message for an incomplete catalogue entry whose id is close to another's:
    ``contracts: {ulit: {failure_penalty: 2}}`` meant to change the inherited Ulti, and
    is read as a new contract lacking its kind, names and value. Said as the misspelling
    it is, with the keys a new entry would need; None where no id is close."""
    if len(path) != 2 or path[0] not in BY_ID or not isinstance(path[1], str):
        return None
    if len(path[1]) > QUOTED:
        return None  # a hostile file's 100 kB key is no misspelling: no costly hint
    if (path[0], path[1]) in where.resolved.merged.gone:
        return None  # an entry a base removed, brought back in part: no misspelling
    if not all(map(_MISSING_KEY.match, messages)):
        return None  # something else is wrong with it too: say each
    section = child(where.merged, path[0])
    entry = child(section, path[1])
    written = entry if isinstance(entry, dict) else {}
    keys = [key for key in entry_keys_required(path[0]) if key not in written]
    others = [key for key in section if key != path[1]] if isinstance(section, dict) else []
    close = did_you_mean(path[1], others) or _named_so(path[1], section)
    if not close:
        return None
    what = BY_ID[path[0]]
    return (
        f"there is no {what} '{shorten(path[1])}' among the inherited ones{close}; a new "
        f"{what} must be complete, and this one lacks {', '.join(keys)}"
    )


def _named_so(key: str, section: Any) -> str:
    """`` (did you mean 'silent_ulti'?)`` for the one inherited entry that ``key`` names
    by a part of its id (``ulti`` for ``silent_ulti``) or by one of its names (``csendes
    ulti``); '' when none does, or several."""
    if not isinstance(section, dict):
        return ""
    wanted = key.casefold()
    found = []
    for other, entry in section.items():
        if other == key:
            continue
        names = entry.get("names") if isinstance(entry, dict) else None
        spoken = names.values() if isinstance(names, dict) else ()
        words = {
            *(str(other).casefold().split("_")),
            *(re.sub(r"[\s-]+", "_", str(n).casefold()) for n in spoken),
        }
        if wanted in words:
            found.append(str(other))
    return did_you_mean(found[0], found) if len(found) == 1 else ""


_Located = list[tuple[ErrorDetails, tuple[KeyPath, bool], bool]]
"""Pydantic's errors, each with its path in the data, whether it is inside a union, and
whether it can be shown (``pydantic_problems.located``)."""


def _located(exc: ValidationError, where: _Where) -> _Located:
    """The errors of ``exc`` placed in the merged data, once for every use of them."""
    return located(exc, lambda loc: _data_path(where.merged, loc), lambda at: where.place(at[0])[0])


def _a_value_meant(where: _Where, path: KeyPath, given: Any) -> bool:
    """Whether a number stands where an inherited catalogue entry goes: its value was
    meant (a new id needs the whole entry, and is told its keys instead)."""
    number = isinstance(given, int | float) and not isinstance(given, bool)
    if not (number and len(path) == 2 and path[0] in ("contracts", "silent_bonuses")):
        return False
    layers = where.resolved.layers
    others = (f for i, f in enumerate(layers) if i != where.resolved.top)
    return any(isinstance(child(f.data.get(path[0]), path[1]), dict) for f in others)


def _keys_of(model: type[Ruleset], path: KeyPath, merged: Any, shown: bool) -> str:
    """`` (names, multiplier, by)``: the keys of the mapping ``path`` should be, when
    they are few enough to say (``kontra: {levels: [Kontra, Rekontra]}``); required
    ones first."""
    expected = model_at(model, path, merged) if shown else None
    if expected is None:
        return ""
    fields = expected.model_fields
    keys = sorted(fields, key=lambda key: not fields[key].is_required())
    return f" ({', '.join(keys)})" if len(keys) <= 6 else ""


def _schema_problems(
    errors: _Located,
    model: type[Ruleset],
    where: _Where,
    registry: Registry,
    skip: frozenset[str] = frozenset(),
) -> list[_Sortable]:
    """Pydantic's errors as positioned problems, but those of the types in ``skip``."""
    merged = where.merged
    kinds = sorted(registry.kinds)
    grouped: dict[KeyPath, list[str]] = {}
    union_paths: set[KeyPath] = set()
    shown_paths: set[KeyPath] = set()
    order: list[KeyPath] = []
    # hints (did-you-mean, where a key belongs) only for the problems that can be shown
    for error, (path, in_union), shown in errors:
        kind, message, ctx = error["type"], error["msg"], error.get("ctx", {})
        if kind in skip:
            continue
        given = error.get("input")
        if kind == "missing":
            path, message = path[:-1], missing_key_message(path[-1])
        elif kind == "extra_forbidden":
            key = str(path[-1])
            message = f"unknown key '{shorten(key)}'"
            parent = model_at(model, path[:-1], merged) if shown else None
            allowed = sorted(parent.model_fields) if parent is not None else []
            if allowed and len(path) == 1:  # merged away before validation, but keys
                allowed = sorted({*allowed, *META_KEYS})
            found = (did_you_mean(key, allowed) or _belongs_at(model, path)) if shown else ""
            if not found and allowed:
                found = "; allowed here: " + ", ".join(allowed)
            message += found
        elif kind == "union_tag_invalid":
            tag = str(ctx.get("tag", given))
            if _exists(merged, (*path, "kind")) == (*path, "kind"):
                path = (*path, "kind")
            message = (
                f"unknown contract kind '{shorten(tag)}'{did_you_mean(tag, kinds)}; "
                f"installed kinds: {', '.join(kinds)}{registry.missing_kind_hint(tag)}"
            )
        elif kind == "union_tag_not_found":
            message = (
                f"missing 'kind': say which contract kind judges this entry; "
                f"installed kinds: {', '.join(kinds)}"
            )
        elif kind in ("value_error", "assertion_error"):
            message = plain_message(error)
        elif bounded := bound_message(error):
            message = bounded
        elif kind == "literal_error":  # in a union, the member's words join the others'
            literal = None if in_union else literal_message(error)
            message = literal or re.sub(r"^Input ", "", message)
            if isinstance(given, str) and shown:
                options = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
                suit = SUIT_OF_WORD.get(given.strip().lower())  # piros, Herz: hearts
                if suit is not None and suit in options:
                    message += did_you_mean(suit, [suit])
                else:
                    message += did_you_mean(given, options)
        elif kind in ("model_type", "model_attributes_type", "dict_type"):
            message = f"should be a mapping of keys{_keys_of(model, path, merged, shown)}, not "
            message += describe(given)
            belongs = (
                _belongs_at(model, path) if path and isinstance(path[-1], str) and shown else ""
            )
            if belongs:  # a setting written a level too high: contracts: {failure_penalty: 2}
                message += belongs
            elif _a_value_meant(where, path, given):  # contracts: {ulti: 5}
                message += (
                    f"; to change its value, write {shorten(str(path[1]))}: {{value: {given}}}"
                )
        elif kind == "list_type":
            message = list_message(error) or f"should be a list, not {describe(given)}"
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
        if shown:
            shown_paths.add(path)
    for path in order:
        hint = _ladder_not_merged(where, path)
        if hint and grouped[path]:
            grouped[path][0] += hint
        # a did-you-mean among the other ids of the section, for the entries that can be
        # shown: for every entry of a file of thousands it took minutes
        misspelt = _misspelt_entry(where, path, grouped[path]) if path in shown_paths else None
        if misspelt is not None:
            grouped[path] = [misspelt]
    problems: list[_Sortable] = []
    for path in order:
        messages = grouped[path]
        if path in union_paths and len(messages) > 1:
            joined = messages[0] + "".join(
                " or " + re.sub(r"^(Input )?should be ", "", m) for m in messages[1:]
            )
            problems.append(where.problem(path, joined))
        else:
            problems.extend(where.problem(path, message) for message in messages)
    return problems


def _salvaged_ladder_problems(
    errors: _Located, model: type[Ruleset], where: _Where, registry: Registry
) -> list[_Sortable]:
    """Ladder problems of a file that also has schema errors, so all are reported at once.

    The broken parts are set aside (a bad contract with the bids that use it, a bad
    bid, a bad optional key, which then takes its default) and the rest is validated
    again; if that succeeds the ladder checks run on it. Anything cleverer than that
    is not attempted: if the rest still does not validate, only schema problems show.
    """
    # Top-level keys set aside are not copied: a file of 45,000 unknown keys copied them
    # all, to drop them again.
    dropped = {
        str(path[0])
        for error, (path, _), _ in errors
        if len(path) == 1 and path[0] not in ("contracts", "ladder") and error["type"] != "missing"
    }
    data = {k: copy.deepcopy(v) for k, v in where.merged.items() if k not in dropped}
    bad_contracts: set[str] = set()
    bad_bids: set[int] = set()
    for error, (path, _), _ in errors:
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
        uses_bad = isinstance(components, list) and any(
            isinstance(c, str) and c in bad_contracts for c in components
        )
        if i not in bad_bids and not uses_bad:
            kept.append(i)
    data["ladder"] = [ladder[i] for i in kept]
    try:
        ruleset = model.model_validate(data)
    except ValidationError:
        return []
    problems: list[_Sortable] = []
    removed = frozenset(where.resolved.merged.removed)
    for issue in check_ladder(
        ruleset, registry, set_aside=frozenset(bad_contracts), removed=removed
    ):
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


def removals(name_or_path: str | Path, registry: Registry | None = None) -> list[Problem]:
    """What the file itself removes with ``null``: bids of its ``ladder:`` mapping,
    contracts, silent bonuses; one positioned line each, for ``ulti check`` to show.

    A removal is no mistake, but a key left without a value is ``null`` too: an organiser
    who starts ``ulti:`` under ``ladder:`` and writes nothing more has removed Ulti."""
    return _removals(_read(_path(name_or_path, _registry(registry))))


def _removals(file: _File) -> list[Problem]:
    """:func:`removals` of a file read already."""
    found = []
    for section, what in (("ladder", "bid"), *BY_ID.items()):
        entries = file.data.get(section)
        if not isinstance(entries, dict):
            continue
        for key, value in entries.items():
            if value is None:
                line, column = _mark_of(file, (section, key))
                found.append(
                    Problem(
                        file.display,
                        line,
                        column,
                        f"{section}.{key}",
                        f"removes the {what} '{shorten(str(key))}' (a key left without a value "
                        "is null too)",
                    )
                )
    return found


def load_resolved(name_or_path: str | Path, registry: Registry | None = None) -> dict[str, Any]:
    """The mapping after everything it builds on is merged in, before validation (without
    the typed totals and ranks a later file overruled: they are derived)."""
    registry = _registry(registry)
    resolved = _resolve_chain(_path(name_or_path, registry), registry)
    if resolved.merged.issues:
        raise RulesetError(_sorted(resolved.issue_problems()))
    where = _Where(resolved)
    return numbers_in_force(resolved.merged.data, where.writer, registry, where.own)


LOADED = LoadCache(lookup_now)
"""Rulesets already validated, while their files are unchanged (``load_cache.py``)."""


def load_ruleset(name_or_path: str | Path, registry: Registry | None = None) -> Ruleset:
    """The validated ruleset; RulesetError lists every merge, schema or ladder problem.

    Loading the same file again (with the same plugin registry, no file of its chain
    changed) returns the same immutable ruleset without reading it again.

    Example:
        >>> from ulti_rules import load_ruleset
        >>> rules = load_ruleset("wikipedia")  # a bundled name, a user's name, or a path
        >>> rules.title_in("en").startswith("Wikipedia standard"), rules.contracts["ulti"].value
        (True, 4)
        >>> load_ruleset("wikipedia") is rules
        True
    """
    registry = _registry(registry)
    looked = look(registry)  # the search folders, looked at once for the name and the cache
    path = _path(name_or_path, registry, looked.known)
    # A file that reaches outside its folder loads only while that is allowed: a ruleset
    # loaded then is not handed out later, when it is not.
    outside = outside_allowed()
    cached = LOADED.get(path, registry, outside, partial(lookup_now, registry, looked=looked))
    if cached is not None:
        return cached
    modules = process_plugin_modules(registry)
    disk = None if modules is None else DiskCache(modules)
    kept = None
    if disk is not None:
        with contextlib.suppress(Exception):  # a fault of the cache: validate instead
            kept = disk.get(path, registry, outside)
    if kept is not None:
        ruleset, read, names = kept
        object.__setattr__(ruleset, REGISTRY_KEY, registry)
        files = [Path(p) for p in read]
    else:
        with recording() as reads:
            ruleset, layers = _validate(path, registry)
        if disk is not None:
            with contextlib.suppress(Exception):  # nothing kept: the next command validates
                disk.put(path, registry, reads, ruleset, outside)
        if reads.changed():  # a file or a name changed while it was read: keep nothing
            return ruleset
        read, names = reads.files, reads.names
        files = [*layers, *(Path(p) for p in read if Path(p) not in layers)]
    parsed = {p: digest for p, (_, _, digest) in read.items()}  # the bytes validated
    # Where a file reached by a path written in a file really is decides whether the path
    # stays in bounds. Not for a file found by name (its lookup is checked), nor for the top
    # file (the cache checks the folder it is reached through).
    by_name = {str(path), *(p for found in names.values() for p, _ in found or ())}
    placed = {p: (real, folder) for p, (real, folder, _) in read.items() if p not in by_name}
    LOADED.put(path, registry, files, ruleset, outside, names, parsed, placed)
    return ruleset


def registry_of(ruleset: Ruleset, registry: Registry | None = None) -> Registry:
    """The plugin registry to read ``ruleset`` with: the one it was validated against
    (``load_ruleset`` keeps it on the ruleset), else the process's (a ruleset built
    from a model directly). A ruleset is only valid with the kinds it was checked
    against, so another registry given for a loaded ruleset is an error, not a switch.
    """
    validated = ruleset.__dict__.get(REGISTRY_KEY)
    if registry is None:
        return validated if validated is not None else _registry(None)
    if validated is not None and registry is not validated:
        raise ValueError(
            f"the ruleset '{ruleset.name}' was validated against another plugin registry: "
            "load it with this one (load_ruleset(..., registry=...)) to use them together"
        )
    return registry


def load_game(name_or_path: str | Path | Ruleset, registry: Registry | None = None) -> Game:
    """The :class:`~ulti_rules.game.Game` of a ruleset (a name, a path or a loaded one):
    every table engine and scoring derive, built once and kept with the ruleset.

    Example:
        >>> from ulti_rules import load_game, load_ruleset
        >>> game = load_game("wikipedia")
        >>> game.ruleset is load_ruleset("wikipedia"), load_game(game.ruleset) is game
        (True, True)
    """
    from ..game import Game  # the compiled tables: a ladder or a check never needs them

    if isinstance(name_or_path, Ruleset):  # with the registry it was validated against
        return Game.of(name_or_path, registry)
    registry = _registry(registry)
    return Game.of(load_ruleset(name_or_path, registry), registry)


def _validate(path: Path, registry: Registry) -> tuple[Ruleset, list[Path]]:
    """Read, merge and validate the file at ``path``; also the files it was built from."""
    resolved = _resolve_chain(path, registry)
    return _checked(resolved, registry), [layer.path for layer in resolved.layers]


def _checked(resolved: _Resolved, registry: Registry) -> Ruleset:
    """The merged files validated; RulesetError lists every merge, schema or ladder problem."""
    where = _in_force(resolved, registry)
    merge_problems = resolved.issue_problems()
    model = ruleset_model(registry.param_models())
    try:
        ruleset = model.model_validate(where.merged)
    except ValidationError as exc:
        errors = _located(exc, where)
        problems = merge_problems + _schema_problems(errors, model, where, registry)
        problems.extend(_salvaged_ladder_problems(errors, model, where, registry))
        raise RulesetError(_sorted(problems)) from None
    # A change the merge refused was left out whole (``merging.py``), so the rest is
    # checked as it stands: a misspelt bid id does not hide a misspelt component.
    issues = check_ladder(ruleset, registry, removed=frozenset(resolved.merged.removed))
    if issues or merge_problems:
        raise RulesetError(
            _sorted(merge_problems + _ladder_problems(issues, ruleset, where, registry))
        )
    return _derived(ruleset, registry)


def _ladder_problems(
    issues: list[LadderIssue], ruleset: Ruleset, where: _Where, registry: Registry
) -> list[_Sortable]:
    """The ladder's issues at their lines, and, where a file's new values of contracts put
    bids out of the order of a ladder listed in a file below it, one line at the first of
    those values, in that file.

    Each bid out of order is named where its rank is written, in a base file the club
    may never have opened; the line at the club's own change says what broke the order
    and how to mend it in one step, for one bid as for many."""
    problems = [
        _at_move(issue, ruleset, where)
        or _at_fragment(issue, ruleset, where, registry)
        or where.problem(where.path_of(issue.path), issue.message)
        for issue in issues
    ]
    blamed = _changed_values(issues, ruleset, where)
    if not blamed:
        return problems
    problems = [
        problem
        for issue, problem in zip(issues, problems, strict=True)
        if not (issue.path == "ranking" and issue.clash)  # said at the values instead
    ]
    for changed, ids in blamed.values():
        order = sorted(changed, key=lambda cid: where.place(("contracts", cid, "value"))[0])
        values = ", ".join(f"'{cid}' ({ruleset.contracts[cid].value})" for cid in order)
        several = len(order) > 1
        bids = f"bid '{ids[0]}'" if len(ids) == 1 else f"{len(ids)} bids ({bid_list(ids)})"
        message = (
            f"the new value{'s' if several else ''} of {values} put{'' if several else 's'} "
            f"{bids} out of the order of ranking: {TABLE}, whose ranks a file below lists; "
            f"{order_fix(registry, len(ids))}"
        )
        problems.append(where.problem(("contracts", order[0], "value"), message))
    return problems


def _at_move(issue: LadderIssue, ruleset: Ruleset, where: _Where) -> _Sortable | None:
    """A bid out of the listed order because a file moved it, or moved the bid beside it,
    with ``after``/``before`` above the file that wrote its rank: said at that move, in the
    file that made it (the rank's own line is in a base file the club never opened)."""
    moved = where.resolved.merged.moved
    if not issue.listed or not moved:
        return None
    places = where.resolved.merged.places
    for i in issue.listed:
        bid_id = ruleset.ladder[i].id
        move = moved.get(bid_id)
        ranked = places.get(("ladder", i, "rank"))
        if move is None or (ranked is not None and ranked[0] > move[0]):
            continue
        layer, path, target = move
        message = (
            f"listing '{bid_id}' {path[-1]} '{target}' breaks the order of the ranks a file "
            f"below lists: {issue.message}, or give '{bid_id}' a rank of its own here"
        )
        problem = _at(where.resolved.layers[layer], path, message)
        return (where.resolved.order(layer), problem.line or 1, problem.column or 1), problem
    return None


def _at_fragment(
    issue: LadderIssue, ruleset: Ruleset, where: _Where, registry: Registry
) -> _Sortable | None:
    """The line that sums up the bids out of the order of a listed ladder, where every one
    of them has its rank from one fragment: said at the loaded file's ``extends`` or
    ``with`` entry that adds the fragment (it was said at ``ranking``, which the file may
    not write, as if a contract's value had changed)."""
    if issue.path != "ranking" or not issue.clash:
        return None
    resolved = where.resolved
    places = resolved.merged.places
    layers = {places.get(("ladder", i, "rank"), (None,))[0] for i in issue.clash}
    layer = layers.pop() if len(layers) == 1 else None
    if layer is None or not resolved.layers[layer].is_fragment:
        return None
    name = resolved.layers[layer].path.stem
    top = resolved.layers[resolved.top]
    entry = _fragment_entry(top, name)
    if entry is None:
        return None
    ids = [ruleset.ladder[i].id for i in issue.clash]
    if entry[0] == "with":  # merged after this file: its ladder cannot name the bids
        base = next((ref.value for ref in _refs(top, "extends")), "<ruleset>")
        fix = (
            f"fix them in one step: {derive_fix(registry)}, or add the fragment in extends "
            f"after the ruleset (extends: [{shorten(base)}, {name}]), where this file's "
            "ladder: can mark its bids `rank_exception: true`"
        )
    else:
        fix = order_fix(registry, len(ids))
    message = (
        f"the fragment '{name}' ranks {len(ids)} of its bids ({', '.join(ids)}) for another "
        f"ladder than this one: they break the order of ranking: {TABLE}; {fix}"
    )
    problem = _at(top, entry, message)
    return (resolved.order(resolved.top), problem.line or 1, problem.column or 1), problem


def _fragment_entry(file: _File, name: str) -> KeyPath | None:
    """Where ``file`` adds the fragment ``name`` (its name, or a path to its file)."""
    for key in ("with", "extends"):
        for ref in _refs(file, key):  # the file was read and merged: its refs are sound
            if ref.value == name or Path(ref.value).stem == name:
                return ref.path
    return None


def _changed_values(
    issues: list[LadderIssue], ruleset: Ruleset, where: _Where
) -> dict[int, tuple[list[str], list[str]]]:
    """For each file (its layer) that changed the value of a contract of a bid named out
    of order, or of the bid its message names beside it, whose ranks a file below that
    file lists: those contracts, and the bids named out of order.

    Each contract is judged once, and each bid once per file that lists ranks: a ladder
    of a thousand bids all out of order costs a thousand judgements, not a million."""
    places = where.resolved.merged.places
    below: dict[int, Any] = {}  # a file's layer: the contracts of the files below it
    judged: dict[str, int | None] = {}  # a contract: the layer that changed its value
    of_bid: dict[int, dict[int, list[tuple[int, str]]]] = {}

    def changer(cid: str) -> int | None:
        if cid not in judged:
            valued = places.get(("contracts", cid, "value"))
            layer = None if valued is None else valued[0]
            if layer is not None and layer not in below:
                below[layer] = _merged_below(where.resolved.layers, layer).data.get("contracts")
            # a contract the file adds, or a value written again as it was, changed nothing
            was = ABSENT if layer is None else child(child(below[layer], cid), "value")
            changed = was is not ABSENT and was != ruleset.contracts[cid].value
            judged[cid] = layer if changed else None
        return judged[cid]

    def changes(ranked: int) -> dict[int, list[tuple[int, str]]]:
        """Each bid with changed values of its contracts by files above layer ``ranked``."""
        if ranked not in of_bid:
            found = {}
            for i, bid in enumerate(ruleset.ladder):
                by = [(changer(cid), cid) for cid in bid.components]
                hits = [(lay, cid) for lay, cid in by if lay is not None and lay > ranked]
                if hits:
                    found[i] = hits
            of_bid[ranked] = found
        return of_bid[ranked]

    blamed: dict[int, tuple[dict[str, None], dict[str, None]]] = {}
    for issue in issues:
        if issue.path == "ranking" or not issue.clash:
            continue
        ranked = places.get(("ladder", issue.clash[0], "rank"))
        if ranked is None:
            continue
        changed = changes(ranked[0])
        named = ruleset.ladder[issue.clash[0]].id
        for i in issue.clash[:2]:  # the bid named and the one its message names beside it
            for layer, cid in changed.get(i, ()):
                values, ids = blamed.setdefault(layer, ({}, {}))
                values[cid] = ids[named] = None
    return {layer: (list(values), list(ids)) for layer, (values, ids) in blamed.items()}


def _in_force(resolved: _Resolved, registry: Registry) -> _Where:
    """Where each key was written, and the data to validate: typed totals and ranks that
    a more derived file overruled are derived instead."""
    where = _Where(resolved)
    where.merged = numbers_in_force(where.merged, where.writer, registry, where.own)
    return where


def _derived(ruleset: Ruleset, registry: Registry) -> Ruleset:
    """The ruleset with its ladder's totals and ranks, and the kinds it is valid with."""
    derived = derive_ladder(ruleset, registry)
    object.__setattr__(derived, REGISTRY_KEY, registry)
    return derived


def check_file(path: str | Path, registry: Registry | None = None) -> list[Problem]:
    """Every problem (YAML, extends, schema, ladder) of a ruleset; [] when it is fine."""
    try:
        load_ruleset(path, registry)
    except RulesetError as exc:
        return list(exc.problems)
    return []


class OwnSettings:
    """The settings a ruleset file writes itself (not those it inherits), and the ruleset
    as it would be without some of them: how `ulti check` finds a line that changes
    nothing under the file's rules (``rulebook/idle.py`` asks, ``ulti diff``'s words
    decide). A setting is a key whose value is no mapping: a list is one setting."""

    def __init__(self, name_or_path: str | Path, registry: Registry | None = None) -> None:
        """Read and check the ruleset: RulesetError lists every problem, as for
        :func:`check_file` (the files are read once for both)."""
        self.registry = _registry(registry)
        self._resolved = _resolve_chain(_path(name_or_path, self.registry), self.registry)
        self.ruleset = _checked(self._resolved, self.registry)
        self.file = self._resolved.layers[self._resolved.top]
        self.paths = [p for p in _leaves(self.file.data) if p[0] not in _STRUCTURE]
        """Every setting the file writes, in the file's order."""
        self._model = ruleset_model(self.registry.param_models())
        self._below = _merged_below(self._resolved.layers, self._resolved.top)
        self._beneath = self._variant({})
        """What the other files merge to: the values the file's settings replace."""
        self.size = values_in(self._resolved.merged.data)
        """The values the merged ruleset holds: what one :meth:`without` costs, roughly
        (a merge, a validation and a comparison of the whole ruleset)."""

    def replaces(self, path: KeyPath) -> bool:
        """Whether leaving the setting out could change the ruleset: False where the value
        beneath it (inherited, else the schema's default) is the same, or where there is
        none and the schema requires one. A cheap test before :meth:`without`."""
        written = _child_at(self.file.data, path)
        if path[0] == "ladder" and isinstance(self.file.data.get("ladder"), dict):
            return True  # a bid by id: its place in the merged list is the merge's business
        beneath = _child_at(self._beneath.merged.data, path)
        if beneath is not ABSENT:
            return bool(beneath != written)
        model = model_at(self._model, path[:-1], self._resolved.merged.data)
        field = model.model_fields.get(str(path[-1])) if model is not None else None
        if field is None:
            return True
        return not field.is_required() and field.get_default(call_default_factory=True) != written

    def removals(self) -> list[Problem]:
        """:func:`removals` of the file, read once for both."""
        return _removals(self.file)

    def note(self, path: KeyPath, message: str) -> Problem:
        """``message`` about the setting at ``path``, at its line in the file."""
        line, column = _mark_of(self.file, path)
        return Problem(self.file.display, line, column, _dotted(path), message)

    def without(self, path: KeyPath) -> Ruleset | None:
        """The ruleset as if the file did not write the setting ``path``; None where that
        is no valid ruleset (a key the file must give, a new bid left incomplete)."""
        resolved = self._variant(_pruned(self.file.data, path))
        if resolved.merged.issues:
            return None
        try:
            ruleset = self._model.model_validate(_in_force(resolved, self.registry).merged)
        except ValidationError:
            return None
        if check_ladder(ruleset, self.registry):
            return None
        return _derived(ruleset, self.registry)

    def _variant(self, data: dict[str, Any]) -> _Resolved:
        """The files merged with ``data`` in place of the file's own mapping."""
        layers = list(self._resolved.layers)
        top = self._resolved.top
        layers[top] = dataclasses.replace(self.file, data=data)
        return _merge_layers(layers, top, self._below)


def _child_at(data: Any, path: KeyPath) -> Any:
    """The value at ``path`` in YAML data, or ``ABSENT``."""
    for segment in path:
        data = child(data, segment)
    return data


_STRUCTURE = frozenset({*META_KEYS, FRAGMENT_KEY})
"""Keys that say how a file is put together: no settings."""


def _leaves(data: Any, prefix: KeyPath = ()) -> Iterator[KeyPath]:
    """The path of every value below ``data`` that is not a mapping with keys."""
    if isinstance(data, dict) and data:
        for key, value in data.items():
            yield from _leaves(value, (*prefix, key))
    elif prefix:
        yield prefix


def _pruned(data: dict[Any, Any], path: KeyPath) -> dict[Any, Any]:
    """A copy of ``data`` without the key at ``path`` (``data`` is left as it is)."""
    head, rest = path[0], path[1:]
    return {
        key: _pruned(value, rest) if key == head and rest and isinstance(value, dict) else value
        for key, value in data.items()
        if key != head or rest
    }


FRAGMENT_BASE = "wikipedia"
"""The ruleset a fragment is merged onto when it is checked alone: the standard the
bundled rulesets build on, whose contracts and ladder most fragments change."""
ACROSS_SETTINGS = frozenset({"value_error", "assertion_error"})
"""Schema errors of checks across settings: a fragment checked alone does not report them,
nor a key it need not give (the ruleset it joins may), as they depend on that ruleset."""


def check_fragment(
    name_or_path: str | Path, registry: Registry | None = None
) -> tuple[list[Problem], Problem] | None:
    """A fragment's mistakes that do not depend on the ruleset it joins, and a note on what
    was checked; None for a file that is no fragment (``check_file`` checks it).

    The fragment is merged onto :data:`FRAGMENT_BASE` (onto nothing if that does not
    load), so that what it changes has the kinds and bids it is meant to change; of the
    problems, those in the fragment are kept: unknown keys (with their did-you-mean),
    values of the wrong type or out of bounds, a half entry whose id is close to one of the
    base's (a typo). A missing key, a check across settings, a bid it removes or changes
    that the base lacks, and the ladder's order are the business of the ruleset that adds
    it, and are checked with that ruleset."""
    registry = _registry(registry)
    try:
        path = _path(name_or_path, registry)
        if not _may_be_fragment(path):
            return None  # a ruleset: read once, by check_file
        own = _read(path)
    except RulesetError:
        return None  # check_file says what is wrong with it
    if not own.is_fragment:
        return None
    try:
        _check_fragment_head(own)
    except RulesetError as exc:
        return list(exc.problems), _fragment_note(own, None)
    base = _fragment_base(registry)
    layers = [f for f in base if _identity(f.path) != _identity(own.path)]
    where = _in_force(_merge_layers([*layers, own], len(layers)), registry)
    model = ruleset_model(registry.param_models())
    try:
        model.model_validate(where.merged)
    except ValidationError as exc:
        found = _schema_problems(_located(exc, where), model, where, registry, skip=ACROSS_SETTINGS)
        problems = capped(  # the first hundred, and a count: as for any file
            _sorted(
                [(key, p) for key, p in found if key[0] == 0 and not _MISSING_KEY.match(p.message)]
            )
        )  # in the fragment; a half entry of an id close to another's is a typo, and kept
    else:
        problems = []
    return problems, _fragment_note(own, FRAGMENT_BASE if base else None)


def _may_be_fragment(path: Path) -> bool:
    """False for a file whose top level has no ``fragment:`` key, found by a quick scan
    of the top-level keys (a fifth of reading the file): `ulti check` asks it of every
    ruleset, up to 1 MiB. True where a quick scan cannot tell."""
    from .safe_yaml import read_heading  # PyYAML: not for a ruleset read from the cache

    head = read_heading(path, (FRAGMENT_KEY,))
    return head is None or FRAGMENT_KEY in head


def _fragment_base(registry: Registry) -> list[_File]:
    """The files of :data:`FRAGMENT_BASE`, merge order; none if it does not load."""
    try:
        return _Chain(registry).build(_read(_path(FRAGMENT_BASE, registry)))
    except RulesetError:
        return []


def _fragment_note(fragment: _File, base: str | None) -> Problem:
    """What checking a fragment alone checked, and where the rest is checked."""
    name = shorten(fragment.path.stem)
    if base is None:
        message = Said(
            "'{name}' is a fragment, merged onto a ruleset: its keys and values were checked "
            "on their own; add it to a ruleset (`with: [{name}]`) and check that ruleset for "
            "the rest",
            name=name,
        )
    else:
        message = Said(
            "'{name}' is a fragment, merged onto a ruleset: its keys and values were checked "
            "merged onto '{base}'; add it to a ruleset (`with: [{name}]`) and check that "
            "ruleset for the rest",
            name=name,
            base=base,
        )
    line, column = _mark_of(fragment, (FRAGMENT_KEY,))
    return Problem(fragment.display, line, column, FRAGMENT_KEY, message)


def content_hash(ruleset: Ruleset) -> str:
    """``sha256:`` of the resolved ruleset's canonical JSON: hand records name it by this.

    Settings that hold their schema default are left out, so a setting added to the
    schema later (with a default that keeps the old rules) leaves every existing
    ruleset's hash, and so every saved record, as it was; any value a file sets, or
    any setting moved off its default, changes it. A title given in several languages
    counts as its English line (else the first given), as one line is: translating the
    title leaves the records of the rules as they were.
    """
    import json  # only records and ledgers hash a ruleset: not every start-up

    data = ruleset.model_dump(mode="json", exclude_defaults=True)
    data["title"] = ruleset.title_in("en")
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()
