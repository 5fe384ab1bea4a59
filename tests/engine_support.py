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
from ulti_rules.engine.kontra import KontraChains

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
_KEPT: dict[type, bool] = {}
_SNAPPED = tuple(k for k in Hand.__slots__ if k not in CACHES | SHARED)


def _kept(value: Any) -> bool:
    """Whether ``_plain`` keeps ``value`` as it is (no container to open), per type."""
    kind = type(value)
    kept = _KEPT.get(kind)
    if kept is None:
        kept = _KEPT[kind] = not issubclass(kind, _OPEN)
    return kept


def _plain(value: Any) -> Any:
    # Snapshots are taken around every refused action of the property tests (about
    # 70,000 per run), so the walk skips leaves inline and keeps a tuple of leaves whole.
    if isinstance(value, tuple):
        for item in value:
            if not _kept(item):
                return tuple([_plain(v) for v in value])
        return value
    if isinstance(value, list):
        return [v if _kept(v) else _plain(v) for v in value]
    if isinstance(value, dict):
        return {k: v if _kept(v) else _plain(v) for k, v in value.items()}
    if isinstance(value, (Auction, KontraChains)):
        return {k: _plain(getattr(value, k)) for k in type(value).__slots__ if k not in SHARED}
    if isinstance(value, set):
        return frozenset(value)
    return value


def snapshot(hand: Hand) -> dict[str, Any]:
    """Every piece of a hand's state (caches aside), as comparable plain values."""
    state = {k: _plain(getattr(hand, k)) for k in _SNAPPED}
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
