"""The kontra chain: per component, per defender where the kontra binds only its caller.

Level 1 (kontra) is the defenders', level 2 (rekontra) the declarer's, and so on,
alternating (C16). A component whose kontra binds both defenders has one shared
chain; one that binds only its caller (no-trump components in WP, DE, HU) has a
chain per defender. A defender raises his own chain (or the shared one); the
declarer answers every chain that stands one level below his call.
"""

from __future__ import annotations

from itertools import combinations

from ..ruleset.schema import Ruleset
from .actions import Kontra
from .bids import BidInfo


def side_of_level(level: int) -> str:
    """Which side calls ``level``: the defenders open the chain, the sides alternate."""
    return "defenders" if level % 2 else "declarer"


class KontraChains:
    """The kontra levels of one hand: ``levels[component][defender seat]``."""

    __slots__ = ("defenders", "levels", "max_level", "per_defender")

    def __init__(self, ruleset: Ruleset, info: BidInfo, defenders: tuple[int, ...]) -> None:
        self.defenders = defenders
        self.per_defender = info.per_defender
        self.max_level = ruleset.kontra.max_level
        self.levels: dict[str, dict[int, int]] = {
            c: dict.fromkeys(defenders, 0) for c in info.bid.components
        }

    def options(self, seat: int, declarer: bool) -> dict[int, list[str]]:
        """Level -> the components ``seat`` may raise to that level now."""
        found: dict[int, list[str]] = {}
        top = self.max_level
        for comp, chain in self.levels.items():
            if declarer:
                targets = {lv + 1 for lv in chain.values() if lv % 2 == 1}
            elif comp in self.per_defender:
                lv = chain[seat]
                targets = {lv + 1} if lv % 2 == 0 else set()
            else:
                lv = chain[self.defenders[0]]
                targets = {lv + 1} if lv % 2 == 0 else set()
            for target in targets:
                if top is None or target <= top:
                    found.setdefault(target, []).append(comp)
        return found

    def can_call(self, seat: int, declarer: bool) -> bool:
        return bool(self.options(seat, declarer))

    def actions(self, seat: int, declarer: bool) -> list[Kontra]:
        """Every kontra ``seat`` may call now: each level with each set of its components."""
        result = []
        for level, comps in sorted(self.options(seat, declarer).items()):
            ordered = sorted(comps)
            for size in range(1, len(ordered) + 1):
                for subset in combinations(ordered, size):
                    result.append(Kontra(subset, level))
        return result

    def why_refused(self, action: Kontra, seat: int, declarer: bool) -> str | None:
        """None if ``seat`` may call ``action``, else the rule it breaks."""
        for comp in action.components:
            if comp not in self.levels:
                return (
                    f"'{comp}' is not a component of the bid (those are: {', '.join(self.levels)})"
                )
        if self.max_level is not None and action.level > self.max_level:
            return f"kontra goes no higher than level {self.max_level} in this ruleset"
        side = "declarer" if declarer else "defenders"
        if side_of_level(action.level) != side:
            who = "the defenders" if side_of_level(action.level) == "defenders" else "the declarer"
            return f"kontra level {action.level} is called by {who}"
        allowed = self.options(seat, declarer).get(action.level, [])
        for comp in action.components:
            if comp not in allowed:
                return (
                    f"'{comp}' does not stand at kontra level {action.level - 1} for you, so it "
                    f"cannot be raised to level {action.level}"
                )
        return None

    def apply(self, action: Kontra, seat: int, declarer: bool) -> None:
        below = action.level - 1
        for comp in action.components:
            chain = self.levels[comp]
            if declarer:
                for d in chain:
                    if chain[d] == below:
                        chain[d] = action.level
            elif comp in self.per_defender:
                chain[seat] = action.level
            else:
                for d in chain:
                    chain[d] = action.level

    def as_dict(self) -> dict[str, dict[int, int]]:
        return {c: dict(chain) for c, chain in self.levels.items()}
