"""A bounded table of what was used last, for the caches a long-running process keeps.

A server, a bot match or a notebook loads thousands of club files and hands: every cache
of them is bounded, by entries and, where entries differ much in size, by their weight
in all, the least recently used dropped first. One implementation for all of them
(parsed files, merged bases, loaded rulesets, interned rulesets), so that each says only
what it keeps and how much.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most ``entries`` values, and at most ``weight`` of weight in all (if given);
    the least recently used go first. Safe to share between threads."""

    def __init__(self, entries: int, weight: int | None = None) -> None:
        self.entries = entries
        self.weight = weight
        self._kept: OrderedDict[K, tuple[int, V]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def held(self) -> int:
        """The weight of the values kept."""
        return self._held

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                return None
            self._kept.move_to_end(key)
            return found[1]

    def put(self, key: K, value: V, weight: int = 1) -> V:
        """Keep ``value`` for ``key`` (replacing what was kept); returns it. A value
        heavier than the whole bound is not kept."""
        with self._lock:
            self._drop(key)
            self._keep(key, value, weight)
        return value

    def setdefault(self, key: K, value: V, weight: int = 1) -> V:
        """The value kept for ``key``, or ``value`` kept for it first; returns the one kept
        (``value`` where it is too heavy to keep)."""
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found[1]
            self._keep(key, value, weight)
        return value

    def items(self) -> list[tuple[K, V]]:
        """Every key and value kept, the least recently used first (to save them)."""
        with self._lock:
            return [(key, value) for key, (_, value) in self._kept.items()]

    def discard(self, key: K) -> None:
        with self._lock:
            self._drop(key)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._held = 0

    def _drop(self, key: K) -> None:
        found = self._kept.pop(key, None)
        if found is not None:
            self._held -= found[0]

    def _keep(self, key: K, value: V, weight: int) -> None:
        if self.weight is not None and weight > self.weight:
            return
        self._kept[key] = (weight, value)
        self._held += weight
        while len(self._kept) > self.entries or (
            self.weight is not None and self._held > self.weight
        ):
            _, (dropped, _) = self._kept.popitem(last=False)
            self._held -= dropped
