"""Merging the files of a ruleset, layer on layer, keeping where every key was written.

Mappings merge key by key (the title is replaced whole) and lists replace, except where
a club means one entry of a catalogue: ``contracts: {x: null}`` and
``silent_bonuses: {x: null}`` remove an entry,
and ``ladder:`` written as a mapping keyed by bid id changes the inherited ladder bid by
bid (an existing id merges, a new one is added in rank order, ``id: null`` removes it).
Every key of the result keeps the layer and position of the file that wrote it, so a
problem found after validation points at the line that caused it, whichever file of the
chain that is. This module knows no files: the loader turns its issues into problems.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from ..quoting import shorten
from .hints import did_you_mean
from .scalars import describe
from .schema import Bid, ContractSpec, SilentBonus
from .yaml_data import KeyPath, Position

BY_ID = {"contracts": "contract", "silent_bonuses": "silent bonus"}
"""The catalogues whose entries a file may remove with ``id: null``."""
WHOLE = frozenset({("title",)})
"""Mappings a file replaces whole, never key by key: a club's title in Hungarian alone
must not keep the English title of the ruleset it extends."""
PLACEMENT = ("after", "before")
"""Keys of a bid in a ``ladder:`` mapping that place it; not part of the bid."""

_MISSING = object()


@dataclass(frozen=True)
class Issue:
    """A mistake in a merge: in layer ``layer``, at ``path`` as that file writes it."""

    layer: int
    path: KeyPath
    message: str


@dataclass
class _Entry:
    """One bid of a ladder being merged; ``slot`` keys its positions until it has an index."""

    bid: Any
    slot: int


@dataclass
class Merged:
    """The merged mapping, the layer and position of each key, and what went wrong."""

    data: dict[str, Any] = field(default_factory=dict)
    places: dict[KeyPath, tuple[int, Position]] = field(default_factory=dict)
    issues: list[Issue] = field(default_factory=list)
    removed: dict[str, tuple[int, KeyPath, int | None]] = field(default_factory=dict)
    """Contracts removed with ``null``: by id, the layer and path that removed them, and
    the layer that had written the entry."""
    gone: set[tuple[str, str]] = field(default_factory=set)
    """Catalogue entries (section, id) a file removed with ``null``."""
    replaced_ladder: tuple[int, frozenset[str]] | None = None
    """The last layer whose ``ladder:`` list replaced an inherited ladder, and the ids of
    the ladder it replaced (a list is read as a whole new ladder; see loading's hints)."""
    moved: dict[str, tuple[int, KeyPath, str]] = field(default_factory=dict)
    """Inherited bids a file listed elsewhere with ``after``/``before``: by id, the layer,
    the key path in that file, and the bid it names. Their ranks stay the
    inherited file's (a rule that derives ranks drops them); a listed order the move
    breaks is said at the move."""

    def apply(
        self,
        layer: int,
        data: Mapping[str, Any],
        positions: Mapping[KeyPath, Position],
        *,
        fragment: bool = False,
    ) -> None:
        """Merge one file's mapping (its own keys only) on top of what is merged so far.

        A ``fragment`` is merged onto rulesets it does not know: its change to a contract
        or silent bonus that one of them removed (a change, not a whole entry) is left
        out, as there is nothing to change. The Four Aces fragment restates the
        ``kontra_from`` of WP's silent bonuses; `tournament` removes the silent Durchmars,
        and takes Four Aces all the same. An id nobody removed is no such case (a typo in
        the fragment, say): it is checked as any entry."""
        _Layer(self, layer, positions, fragment).merge_top(data)

    def copy(self) -> Merged:
        """A copy to merge more files onto, this one left as it is. Merging builds new
        mappings and lists and never changes those merged before, so they are shared; only
        the bookkeeping is copied."""
        return dataclasses.replace(
            self,
            places=dict(self.places),
            issues=list(self.issues),
            removed=dict(self.removed),
            gone=set(self.gone),
            moved=dict(self.moved),  # a later ladder list clears it, a later move adds
        )

    def finish(self, fragments: Mapping[int, str] | None = None) -> None:
        """Issues that only the whole merge shows: a removed contract that bids still use.

        ``fragments`` names the layers that are fragments, so that a contract a fragment
        brought can be dropped with its fragment instead.
        """
        contracts = self.data.get("contracts")
        ladder = self.data.get("ladder")
        bonuses = self.data.get("silent_bonuses")
        for cid, (layer, path, writer) in self.removed.items():
            if isinstance(contracts, dict) and cid in contracts:
                continue  # a later layer added it again
            bids = [
                str(bid.get("id"))
                for bid in (ladder if isinstance(ladder, list) else [])
                if isinstance(bid, dict)
                and isinstance(bid.get("components"), list)
                and cid in bid["components"]
            ]
            hosts = [
                str(bonus_id)
                for bonus_id, bonus in (bonuses.items() if isinstance(bonuses, dict) else [])
                if isinstance(bonus, dict)
                and (bonus.get("kontra_from") == cid or _holds(bonus.get("kontra_from"), cid))
            ]
            if not bids and not hosts:
                continue
            bids = [shorten(bid) for bid in bids]  # ids from a file: quoted to their start
            hosts = [shorten(host) for host in hosts]
            uses = []
            if len(bids) == 1:
                uses.append(f"the bid {bids[0]}")
            elif bids:
                uses.append(f"the bids {_some(bids)}")
            if hosts:
                uses.append(f"the kontra_from of {_some(hosts)}")
            fix = []
            if bids:  # every one, to copy: the uses name the first few
                fix.append("ladder: {" + ", ".join(f"{b}: null" for b in bids) + "}")
            if hosts:
                fix.append(f"a kontra_from without '{shorten(str(cid))}'")
            one = len(uses) == 1 and len(bids) == 1
            message = (
                f"contract '{shorten(str(cid))}' is removed, but {' and '.join(uses)} still "
                f"use{'s' if one else ''} it; remove or change "
                f"{'it' if one else 'them'} too ({'; '.join(fix)}). A key left without a "
                "value is null too: keys meant for the contract go indented under its id"
            )
            brought_by = (fragments or {}).get(writer) if writer is not None else None
            if brought_by is not None:
                message += f", or drop the fragment that brings it all: without: [{brought_by}]"
            self.issues.append(Issue(layer, path, message))


LISTED_FIX = 8
"""Bids (or silent bonuses) a removal's problem names as what uses the contract; more
are counted. The fix it suggests lists them all, to copy."""


def _some(ids: list[str]) -> str:
    """``a, b, c``, or the first :data:`LISTED_FIX`, ``...`` and how many in all."""
    if len(ids) <= LISTED_FIX:
        return ", ".join(ids)
    return f"{', '.join(ids[:LISTED_FIX])}, ... ({len(ids)} in all)"


def _required_keys(model: type[BaseModel]) -> list[str]:
    """The keys the schema requires of an entry of ``model``, in its order."""
    return [name for name, info in model.model_fields.items() if info.is_required()]


def _required(section: str) -> frozenset[str]:
    """The keys a whole entry of catalogue ``section`` gives."""
    return frozenset(entry_keys_required(section))


def _holds(value: Any, item: str) -> bool:
    return isinstance(value, list) and item in value


def walk(value: Any, prefix: KeyPath = ()) -> Iterator[KeyPath]:
    """``prefix`` and the path of every key and list item below it in ``value``."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, (*prefix, i))


def entry_keys_required(section: str) -> list[str]:
    """What a new entry of catalogue ``section`` (``contracts``, ``silent_bonuses``) must
    give, in the schema's order."""
    return _required_keys(ContractSpec if section == "contracts" else SilentBonus)


def bid_keys_required() -> list[str]:
    """What a bid added by id must give (its id is the key it is written under)."""
    return [name for name in _required_keys(Bid) if name != "id"]


class _Layer:
    """One file merged onto a :class:`Merged`."""

    def __init__(
        self,
        merged: Merged,
        layer: int,
        positions: Mapping[KeyPath, Position],
        fragment: bool = False,
    ):
        self.merged = merged
        self.layer = layer
        self.positions = positions
        self.fragment = fragment
        self.slots = 0

    # ------------------------------------------------------------------ positions

    def issue(self, path: KeyPath, message: str) -> None:
        self.merged.issues.append(Issue(self.layer, path, message))

    def place(self, at: KeyPath, written: KeyPath) -> None:
        """The key ``at`` of the result was written at ``written`` in this file."""
        position = self.positions.get(written)
        if position is not None:
            self.merged.places[at] = (self.layer, position)

    def adopt(self, at: KeyPath, written: KeyPath, value: Any) -> None:
        """``value`` (written at ``written``) now stands at ``at``, with every key below it."""
        for sub in walk(value):
            self.place((*at, *sub), (*written, *sub))

    def forget(self, at: KeyPath, value: Any) -> None:
        """``value`` at ``at`` is replaced or removed: its positions go with it."""
        for sub in walk(value):
            self.merged.places.pop((*at, *sub), None)

    def move(self, source: KeyPath, target: KeyPath, value: Any) -> None:
        places = self.merged.places
        moved = {
            sub: places.pop((*source, *sub)) for sub in walk(value) if (*source, *sub) in places
        }
        for sub, where in moved.items():
            places[(*target, *sub)] = where

    # ------------------------------------------------------------------ mappings

    def merge_top(self, data: Mapping[str, Any]) -> None:
        self.merged.data = self.merge_map(self.merged.data, data, (), ())

    def merge_map(
        self, base: dict[str, Any], child: Mapping[str, Any], written: KeyPath, at: KeyPath
    ) -> dict[str, Any]:
        merged = dict(base)
        for key, value in child.items():
            key_written, key_at = (*written, key), (*at, key)
            old = merged.get(key, _MISSING)
            if key_at == ("ladder",) and isinstance(value, dict):
                self.place(key_at, key_written)
                ladder = self.merge_ladder(old, value, key_written)
                if ladder is not _MISSING:
                    merged[key] = ladder
            elif len(at) == 1 and at[0] in BY_ID and value is None:
                self.remove(merged, key, key_written, key_at, BY_ID[at[0]])
            elif (
                self.fragment
                and len(at) == 1
                and at[0] in BY_ID
                and old is _MISSING
                and (at[0], key) in self.merged.gone
                and isinstance(value, dict)
                and not _required(at[0]) <= value.keys()
            ):
                continue  # a change to an entry these rules do not have (``Merged.apply``)
            elif (
                isinstance(value, dict)
                and (old is _MISSING or isinstance(old, dict))
                and key_at not in WHOLE
            ):
                self.place(key_at, key_written)
                base_map = old if isinstance(old, dict) else {}
                merged[key] = self.merge_map(base_map, value, key_written, key_at)
            else:
                if old is not _MISSING:
                    self.forget(key_at, old)
                    if key_at == ("ladder",) and isinstance(old, list):
                        self.note_replaced_ladder(old)
                self.adopt(key_at, key_written, value)
                merged[key] = value
        return merged

    def remove(
        self, merged: dict[str, Any], key: str, written: KeyPath, at: KeyPath, what: str
    ) -> None:
        if key not in merged:
            known = [k for k in merged if isinstance(k, str)]
            self.issue(
                written,
                f"there is no {what} '{shorten(str(key))}' to remove"
                f"{did_you_mean(str(key), known)}: "
                "null removes an inherited entry",
            )
            return
        writer = self.merged.places.get(at)
        self.forget(at, merged.pop(key))
        self.merged.gone.add((str(at[0]), str(key)))
        if at[0] == "contracts":
            self.merged.removed[key] = (self.layer, written, writer[0] if writer else None)

    def note_replaced_ladder(self, old: list[Any]) -> None:
        ids = frozenset(str(b["id"]) for b in old if isinstance(b, dict) and "id" in b)
        self.merged.replaced_ladder = (self.layer, ids)
        self.merged.moved.clear()  # a whole new list: no inherited bid is moved any more

    # ------------------------------------------------------------------ the ladder by id

    def merge_ladder(self, old: Any, patch: dict[Any, Any], written: KeyPath) -> Any:
        """The inherited ladder with ``patch`` (bid id -> change, or null) applied."""
        if not isinstance(old, list):
            self.issue(
                written,
                "a ladder written as a mapping changes an inherited ladder bid by bid (id: "
                "changes), but nothing this file builds on has a ladder: write it as a list",
            )
            return old
        entries: list[_Entry] = []
        for i, bid in enumerate(old):
            entry = _Entry(bid, self.new_slot())
            self.move(("ladder", i), ("ladder", entry.slot), bid)
            entries.append(entry)
        for bid_id, change in patch.items():
            self.patch_bid(entries, bid_id, change, (*written, bid_id))
        ladder = []
        for index, entry in enumerate(entries):
            self.move(("ladder", entry.slot), ("ladder", index), entry.bid)
            ladder.append(entry.bid)
        return ladder

    def new_slot(self) -> int:
        self.slots += 1
        return -self.slots  # never a list index of the result

    def patch_bid(self, entries: list[_Entry], bid_id: Any, change: Any, written: KeyPath) -> None:
        by_id = {e.bid["id"]: e for e in entries if isinstance(e.bid, dict) and "id" in e.bid}
        if not isinstance(bid_id, str):
            self.issue(written, f"a bid id is text, not {describe(bid_id)}")
            return
        entry = by_id.get(bid_id)
        if change is None:
            if entry is None:
                self.issue(
                    written,
                    f"there is no bid '{shorten(str(bid_id))}' to remove"
                    f"{did_you_mean(bid_id, by_id)}: null "
                    "removes an inherited bid",
                )
            else:
                entries.remove(entry)
                self.forget(("ladder", entry.slot), entry.bid)
                self.merged.moved.pop(bid_id, None)
            return
        if not isinstance(change, dict):
            self.issue(
                written,
                f"should be a mapping of the bid's keys to change (or null to remove the bid), "
                f"not {describe(change)}",
            )
            return
        where = self.placement(change, written, by_id, bid_id)
        if where is _MISSING:
            return
        if "id" in change and change["id"] != bid_id:
            self.issue(
                (*written, "id"),
                f"the bid's id is the key it is written under ('{shorten(str(bid_id))}'); to "
                "rename a bid, "
                "remove it (null) and add it under its new id",
            )
            return
        body = {k: v for k, v in change.items() if k not in PLACEMENT}
        if entry is not None:
            self.place(("ladder", entry.slot), written)
            if isinstance(entry.bid, dict):
                entry.bid = self.merge_map(entry.bid, body, written, ("ladder", entry.slot))
            if where is not None:
                entries.remove(entry)
                entries.insert(self.index(entries, where, entry.bid), entry)
                key, target = where
                self.merged.moved[bid_id] = (self.layer, (*written, key), target)
            return
        missing = [key for key in bid_keys_required() if key not in body]
        if missing:
            hint = did_you_mean(bid_id, by_id)
            if hint:
                message = f"there is no bid '{shorten(str(bid_id))}' in the inherited ladder{hint}"
            else:
                message = (
                    f"bid '{shorten(str(bid_id))}' is new (the inherited ladder has no such id)"
                )
            self.issue(
                written,
                f"{message}; a new bid must be complete, and this one lacks {', '.join(missing)}",
            )
            return
        new = _Entry({"id": bid_id, **body}, self.new_slot())
        self.adopt(("ladder", new.slot), written, body)
        self.place(("ladder", new.slot, "id"), written)
        entries.insert(self.index(entries, where, new.bid), new)

    def placement(
        self, change: dict[str, Any], written: KeyPath, by_id: dict[Any, _Entry], bid_id: str
    ) -> Any:
        """``("after"|"before", id)`` from the change, None if it has none, or _MISSING."""
        given = [key for key in PLACEMENT if key in change]
        if not given:
            return None
        if len(given) > 1:
            self.issue(written, "give 'after' or 'before', not both")
            return _MISSING
        key = given[0]
        target = change[key]
        if not isinstance(target, str) or target not in by_id or target == bid_id:
            known = [k for k in by_id if k != bid_id]
            hint = did_you_mean(target, known) if isinstance(target, str) else ""
            self.issue(
                (*written, key),
                f"'{shorten(str(key))}' names the bid this one is listed {key}: the id of another "
                "bid of the "
                f"ladder, not {describe(target)}{hint}",
            )
            return _MISSING
        return (key, target)

    @staticmethod
    def index(entries: list[_Entry], where: Any, bid: dict[str, Any]) -> int:
        """Where a bid goes: beside the bid ``where`` names, else before the first bid of
        its rank or above (so a bid added with the rank of others leads them), else last."""
        if where is not None:
            key, target = where
            for i, entry in enumerate(entries):
                if isinstance(entry.bid, dict) and entry.bid.get("id") == target:
                    return i + 1 if key == "after" else i
        rank = bid.get("rank")
        if isinstance(rank, int) and not isinstance(rank, bool):
            for i, entry in enumerate(entries):
                other = entry.bid.get("rank") if isinstance(entry.bid, dict) else None
                if isinstance(other, int) and not isinstance(other, bool) and other >= rank:
                    return i
        return len(entries)
