"""Helpers shared by the engine tests: a random policy, snapshots, clones, random actions."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from ulti_rules.engine import (
    Action,
    Announce,
    Bid,
    DeclareTrump,
    Discard,
    GiveUp,
    Hand,
    Kontra,
    Pass,
    PickUp,
    Play,
)
from ulti_rules.engine.auction import Auction
from ulti_rules.engine.kontra import KontraChains, _Node

SUITS = ("acorns", "leaves", "hearts", "bells")
CACHES = {"_legal", "_facts", "_offered", "_final_contract"}
SHARED = {
    "_game",
    "_ruleset",
    "_registry",
    "_cat",
    "_seats",
    "_tables",
    "_deal",
    "_beat",
    "_after",
}


def choose(rng: random.Random, actions: list[Action]) -> Action:
    """A varied random policy: an action type first, then one of its actions.

    Bids lean to the lowest few so that hands end in every kind of contract,
    not only at the top of the ladder.
    """
    groups: dict[str, list[Action]] = defaultdict(list)
    for action in actions:
        groups[action.type].append(action)
    kind = rng.choice(sorted(groups))
    pool = groups[kind]
    if kind == "bid" and rng.random() < 0.8:
        pool = pool[:3]
    return rng.choice(pool)


_OPEN = (Auction, KontraChains, dict, list, tuple, set)
_LEAVES: set[type] = set()
"""Types ``_plain`` keeps as they are (nothing in them to open), learned as they come."""
_SNAPPED = tuple(k for k in Hand.__slots__ if k not in CACHES | SHARED)


def _plain(value: Any) -> Any:
    # Snapshots are taken around every refused action and every undo of the property
    # tests (about 50,000 a run, each walking the whole history), so a leaf is known by a
    # set lookup without a call, and a tuple of leaves (a history entry) is kept whole.
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is _Node:  # a kontra situation stands for its levels, whatever it has learnt
        return value.flat
    leaves = _LEAVES
    if isinstance(value, tuple):
        for item in value:
            if type(item) not in leaves:
                return tuple([v if type(v) in leaves else _plain(v) for v in value])
        return value
    if isinstance(value, list):
        return [v if type(v) in leaves else _plain(v) for v in value]
    if isinstance(value, dict):
        return {k: v if type(v) in leaves else _plain(v) for k, v in value.items()}
    if isinstance(value, (Auction, KontraChains)):
        return {
            k: v if type(v) in leaves else _plain(v)
            for k in type(value).__slots__
            if k not in SHARED
            for v in (getattr(value, k),)
        }
    if isinstance(value, set):
        return frozenset(value)
    if not issubclass(kind, _OPEN):
        leaves.add(kind)
    return value


def snapshot(hand: Hand) -> dict[str, Any]:
    """Every piece of a hand's state (caches aside), as comparable plain values."""
    leaves = _LEAVES
    state = {
        k: v if type(v) in leaves else _plain(v)
        for k, v in zip(_SNAPPED, map(hand.__getattribute__, _SNAPPED), strict=True)
    }
    state["shared"] = tuple(id(getattr(hand, k)) for k in sorted(SHARED))
    return state


def clone(hand: Hand) -> Hand:
    """An independent copy that shares the immutable ruleset, catalogue and tables."""
    return hand.clone()


def random_action(rng: random.Random, hand: Hand) -> Action:
    """Any well-formed action at all, legal or not."""
    ladder = [*(b.id for b in hand.ruleset.ladder), "no-such-bid"]
    comps = [*hand.ruleset.contracts, "no-such-component"]
    kind = rng.randrange(9)
    if kind == 0:
        return Bid(rng.choice(ladder), rng.choice((None, *SUITS)))  # type: ignore[arg-type]
    if kind == 1:
        return Pass()
    if kind == 2:
        return PickUp()
    if kind == 3:
        return Discard(tuple(rng.sample(range(32), rng.choice((1, 2, 2, 2, 3)))))
    if kind == 4:
        return DeclareTrump(rng.choice(SUITS))  # type: ignore[arg-type]
    if kind == 5:
        return Announce(rng.choice(SUITS))  # type: ignore[arg-type]
    if kind == 6:
        size = rng.randint(1, 3)
        against = rng.choice((None, None, 0, 1, 2, 3))
        return Kontra(tuple(rng.sample(comps, min(size, len(comps)))), rng.randint(1, 4), against)
    if kind == 7:
        return Play(rng.randrange(32))
    return GiveUp()
