"""The files beneath a loaded ruleset, merged once per content and handed out as copies.

A club file ``extends: wikipedia`` and takes the Four Aces fragment through it: every
new club file (and every ``ulti check`` of one) merged ``wikipedia.yaml`` and the
fragment again, 2.3 ms of a one-line club file's 6.8 ms of loading, though the two
files had not changed. The merge of the files beneath the loaded one depends only on
what they hold and their order, so it is kept under the digests of their bytes
(``ParsedFiles`` computes them as it reads), and a loader gets a copy: the data with
every mapping and list copied (0.15 ms), the bookkeeping copied, so that nothing a
loader does with its merge reaches the next one. A file that changed has another
digest, and its merge is made afresh.

Bounded by entries and by the nodes the kept merges hold (their values and the places
of their keys: ``wikipedia`` with the fragment holds about 2,400), the least recently used
dropped first; a merge larger than the bound alone (a base of expanded aliases, which
``ParsedFiles`` does not keep either) is made for each load, never kept.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from ..recent import Recent
from .merging import Merged
from .yaml_data import copied, values_in

ENTRIES = 8
"""Merges kept at most: a base is a bundled ruleset or a club's own, with its fragments."""
NODES = 50_000
"""The nodes the kept merges hold at most in all (``ParsedFiles`` keeps half as many of
the files' own)."""


class BaseMerges:
    """Merged bases by the digests of their files, in order; within ``ENTRIES`` and
    ``NODES``."""

    def __init__(self, entries: int = ENTRIES, nodes: int = NODES) -> None:
        self._kept: Recent[tuple[bytes, ...], Merged] = Recent(entries, nodes)

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def held(self) -> int:
        """The nodes of the merges kept."""
        return self._kept.held

    def merged(self, digests: Sequence[bytes], merge: Callable[[], Merged]) -> Merged:
        """A copy of ``merge()``'s result, made once for these digests; made each time
        where a file has no digest (one that was not read from bytes)."""
        key = tuple(digests)
        if not all(key):
            return merge()
        kept = self._kept.get(key)
        if kept is None:
            made = merge()
            # Kept apart from the files' data, which the first loader holds as its own.
            made.data = copied(made.data)
            kept = self._kept.setdefault(key, made, values_in(made.data) + len(made.places))
        return dataclasses.replace(kept.copy(), data=copied(kept.data))

    def clear(self) -> None:
        self._kept.clear()


BASES = BaseMerges()
"""The bases merged by this process (``loading._resolve_chain``, ``OwnSettings``)."""
