"""The kontra chain: per component, per defender where the kontra binds only its caller.

Level 1 (kontra) is the defenders', level 2 (rekontra) the declarer's, and so on,
alternating (C16). A component whose kontra binds both defenders has one shared
chain; one that binds only its caller (no-trump components in WP, DE, HU) has a
chain per defender. A defender raises his own chain (or the shared one); the
declarer answers a chain one level below his call: every such chain of the named
components, or with ``against`` one defender's alone.

When (RULES §6.3): every level may be called at the first trick, on one's own turn
before one's card; the kontra round after trick 1 takes only the levels whose window
reaches past one's own card (DE, HU: Kontra at the card, Rekontra and beyond after).
Where a defender's window opens only after his own first card (``kontra.window_opens:
after_own_card``) he calls nothing before that card, and has the word right after it,
before the next card is played.

The moment of a call is one of :data:`TRICK1` (one's turn at the first trick, before
one's card), :data:`AFTER_CARD` (a defender's word right after his own card to trick 1)
and :data:`ROUND` (the kontra round after trick 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import chain as _chain
from itertools import combinations
from typing import Literal, TypeAlias

from ..game.catalog import BidInfo
from ..ruleset.schema import KONTRA_LEVEL_LIMIT, Ruleset
from .actions import Kontra

OWN_CARD = "own_card_trick1"

Moment = Literal["trick1", "after_card", "round"]
TRICK1: Moment = "trick1"
AFTER_CARD: Moment = "after_card"
ROUND: Moment = "round"


def side_of_level(level: int) -> str:
    """Which side calls ``level``: the defenders open the chain, the sides alternate."""
    return "defenders" if level % 2 else "declarer"


_Key: TypeAlias = tuple[object, ...]


class _Memo:
    """What hands of one kontra setting share: the answers that depend on the levels alone.

    ``views``: the levels (flat) -> the levels as each side sees them (:meth:`KontraChains.
    _keep_views`); ``actions``: (a side's view, declarer, moment) -> the kontras open then.
    A hand asks several times in one situation (whether a seat can call, its legal actions,
    the check of the kontra called), and hands of one ruleset meet the same situations
    again; the answers are immutable values, so they are built once and shared. Keyed by
    values (never by ``id``), each table emptied when full: none holds more than
    ``_LIMIT`` entries. A chain holds its setting's memo, so a look-up hashes only the
    levels, not the setting.
    """

    __slots__ = ("actions", "own", "views")

    def __init__(self) -> None:
        self.views: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = {}
        self.actions: dict[_Key, tuple[Kontra, ...]] = {}
        self.own: dict[int, tuple[int, ...]] | None = None
        """``KontraChains.own``, the same for every chain of this setting."""


_LIMIT = 1 << 14

Memos = dict[_Key, _Memo]
"""The chains' settings (everything but the levels that decides which kontras are open)
-> their memo. Kept by the game (``Game.derived``), so that it lives as long as the
rules it was learnt under, never in a module-level table."""


def _memo_of(memos: Memos, settings: _Key) -> _Memo:
    memo = memos.get(settings)
    if memo is None:
        memo = memos[settings] = _Memo()
    return memo


_ODD: tuple[int, ...] = tuple(lv if lv % 2 else -1 for lv in range(KONTRA_LEVEL_LIMIT + 1))
"""A level as the declarer's key sees it: one he may raise (odd), or -1."""
_EVEN: tuple[int, ...] = tuple(-1 if lv % 2 else lv for lv in range(KONTRA_LEVEL_LIMIT + 1))
"""A level as a defender's key sees it: one he may raise (even), or -1."""


@lru_cache(maxsize=4096)
def _calls(components: tuple[str, ...], level: int, against: int | None) -> tuple[Kontra, ...]:
    """A Kontra for every set of ``components`` (sorted), smaller sets first; built once."""
    return tuple(
        Kontra(subset, level, against)
        for size in range(1, len(components) + 1)
        for subset in combinations(components, size)
    )


class KontraChains:
    """The kontra levels of one hand: ``levels[component][defender seat]``."""

    __slots__ = (
        "defenders",
        "defenders_wait",
        "first_in_round",
        "later_in_round",
        "levels",
        "max_level",
        "memo",
        "own",
        "per_defender",
        "rules",
        "views",
    )

    def __init__(
        self,
        ruleset: Ruleset,
        info: BidInfo,
        defenders: tuple[int, ...],
        memos: Memos | None = None,
    ) -> None:
        """``memos``: where chains of the same rules share what they learn (the game's);
        none given, these chains keep their own."""
        rules = self.rules = ruleset.kontra
        self.defenders = defenders
        self.per_defender = info.per_defender
        self.max_level: int | None = rules.level_cap  # null in the file: the framework's limit
        window, later = rules.window, rules.later_window  # Kontra.window_of, inlined: per hand
        self.first_in_round = window != OWN_CARD
        self.later_in_round = (window if later == "same" else later) != OWN_CARD
        self.defenders_wait = rules.window_opens == "after_own_card"
        """A defender calls nothing at the first trick before his own card."""
        self.levels: dict[str, dict[int, int]] = {
            c: dict.fromkeys(defenders, 0) for c in info.bid.components
        }
        memo = self.memo = _memo_of(
            memos if memos is not None else {},
            (
                tuple(self.levels),
                defenders,
                self.per_defender,
                self.max_level,
                self.first_in_round,
                self.later_in_round,
                self.defenders_wait,
            ),
        )
        """Shared by the hands whose chains are set alike: keyed by everything but the levels
        that decides which kontras are open."""
        if memo.own is None:
            flat = [(c, d) for c in self.levels for d in defenders]
            memo.own = {
                seat: tuple(
                    flat.index((c, seat if c in self.per_defender else defenders[0]))
                    for c in self.levels
                )
                for seat in defenders
            }
        self.own: dict[int, tuple[int, ...]] = memo.own
        """Per defender seat: where in the flat levels the chains he raises stand (shared,
        never changed)."""
        self.views: dict[int, tuple[int, ...]] = {}
        """Per defender seat, and -1 for the declarer: the levels as the memo sees them
        (:meth:`_keep_views`), kept in step by :meth:`apply`."""
        self._keep_views()

    def _keep_views(self) -> None:
        """The memo's view of the levels: for each side only what decides its options.

        The declarer raises odd levels (the defenders' calls) of every chain, a defender
        the even ones of his own chain or the shared one; a level the side cannot raise is
        -1. Fewer keys than the levels themselves, so more answers are shared.
        """
        flat = tuple(_chain.from_iterable(map(dict.values, self.levels.values())))
        known = self.memo.views
        views = known.get(flat)
        if views is None:
            views = {-1: tuple(map(_ODD.__getitem__, flat))}
            for seat, where in self.own.items():
                views[seat] = tuple(map(_EVEN.__getitem__, map(flat.__getitem__, where)))
            if len(known) >= _LIMIT:
                known.clear()
            known[flat] = views  # shared: never changed, only replaced
        self.views = views

    def clone(self) -> KontraChains:
        """An independent copy for ``Hand.clone``: the levels are the only mutable state."""
        new = KontraChains.__new__(KontraChains)
        new.rules = self.rules
        new.defenders = self.defenders
        new.per_defender = self.per_defender
        new.max_level = self.max_level
        new.first_in_round = self.first_in_round
        new.later_in_round = self.later_in_round
        new.defenders_wait = self.defenders_wait
        new.levels = {c: chain.copy() for c, chain in self.levels.items()}
        new.memo = self.memo
        new.views = self.views
        new.own = self.own
        return new

    @property
    def has_round(self) -> bool:
        """Whether some level may still be called after trick 1 (the kontra round)."""
        return self.first_in_round or self.later_in_round

    def _open(self, level: int, moment: Moment) -> bool:
        """Whether ``level`` may be called now: with one's own card to the first trick
        always (before it, or right after it where a defender's window opens then), in
        the round only where its window reaches past one's own card."""
        if self.max_level is not None and level > self.max_level:
            return False
        if moment == ROUND:
            return self.first_in_round if level == 1 else self.later_in_round
        if moment == TRICK1:
            return not (self.defenders_wait and side_of_level(level) == "defenders")
        return True

    def options(
        self, seat: int, declarer: bool, moment: Moment
    ) -> dict[tuple[int, int | None], list[str]]:
        """(level, against) -> the components ``seat`` may raise to that level now.

        ``against`` is None for a defender's call and for the declarer's answer to
        every chain at ``level - 1``; a defender's seat for the declarer's answer to
        that defender's own chain (components with a chain per defender only).
        """
        found: dict[tuple[int, int | None], list[str]] = {}
        for comp, chain in self.levels.items():
            if declarer:
                targets = {lv + 1 for lv in chain.values() if lv % 2 == 1}
                for level in sorted(targets):
                    if self._open(level, moment):
                        found.setdefault((level, None), []).append(comp)
                if comp in self.per_defender:
                    for d in self.defenders:
                        lv = chain[d]
                        if lv % 2 == 1 and self._open(lv + 1, moment):
                            found.setdefault((lv + 1, d), []).append(comp)
                continue
            lv = chain[seat] if comp in self.per_defender else chain[self.defenders[0]]
            if lv % 2 == 0 and self._open(lv + 1, moment):
                found.setdefault((lv + 1, None), []).append(comp)
        return found

    def can_call(self, seat: int, declarer: bool, moment: Moment) -> bool:
        """Whether ``seat`` has any kontra to call now (:meth:`options` is not empty).

        Answered from the memo of :meth:`actions`, filling it: the kontra round asks this
        of every seat after every word, and the same situations come back hand after hand.
        """
        view = self.views.get(-1 if declarer else seat)
        if view is not None:
            known = self.memo.actions.get((view, declarer, moment))
            if known is not None:
                return bool(known)
        return bool(self.actions(seat, declarer, moment))

    def round_speaker(
        self, start: int, after: Sequence[int], count: int, declarer: int, passed: set[int]
    ) -> int:
        """The kontra round's next speaker: the first of ``count`` seats from ``start`` on
        (``after[seat]`` follows ``seat``) that has not passed and can call; one that cannot
        is added to ``passed``. -1 if none.

        :meth:`can_call` for each seat in one loop: asked after every word of the round.
        """
        views, known = self.views, self.memo.actions
        seat = start
        for _ in range(count):
            if seat not in passed:
                own = seat == declarer
                view = views.get(-1 if own else seat)
                found = None if view is None else known.get((view, own, ROUND))
                if found is None:
                    found = self.actions(seat, own, ROUND)
                if found:
                    return seat
                passed.add(seat)
            seat = after[seat]
        return -1

    def actions(self, seat: int, declarer: bool, moment: Moment) -> tuple[Kontra, ...]:
        """Every kontra ``seat`` may call now: each level and target with each set of its
        components (the untargeted ones first). Built once per situation, then shared."""
        view = self.views.get(-1 if declarer else seat)
        if view is None:  # not a seat of this hand's chains: nothing to share
            return tuple(self._build_actions(seat, declarer, moment))
        key = (view, declarer, moment)
        known = self.memo.actions
        found = known.get(key)
        if found is None:
            found = tuple(self._build_actions(seat, declarer, moment))
            if len(known) >= _LIMIT:
                known.clear()
            known[key] = found
        return found

    def _build_actions(self, seat: int, declarer: bool, moment: Moment) -> list[Kontra]:
        result: list[Kontra] = []
        options = self.options(seat, declarer, moment)
        for level, against in sorted(options, key=lambda k: (k[0], -1 if k[1] is None else k[1])):
            result.extend(_calls(tuple(sorted(options[level, against])), level, against))
        return result

    def _call_name(self, level: int) -> str:
        return f"{self.rules.name(level)} (level {level})"

    def why_refused(self, action: Kontra, seat: int, declarer: bool, moment: Moment) -> str | None:
        """None if ``seat`` may call ``action`` now, else the rule it breaks."""
        if action in self.actions(seat, declarer, moment):
            return None  # listed, so accepted: the usual case, one look-up
        level, against = action.level, action.against
        for comp in action.components:
            if comp not in self.levels:
                return (
                    f"'{comp}' is not a component of the bid (those are: {', '.join(self.levels)})"
                )
        if self.max_level is not None and level > self.max_level:
            return f"kontra goes no higher than level {self.max_level} in this ruleset"
        side = "declarer" if declarer else "defenders"
        if side_of_level(level) != side:
            who = "the defenders" if side_of_level(level) == "defenders" else "the declarer"
            return f"kontra level {level} is called by {who}"
        if not self._open(level, moment):
            if moment == TRICK1:
                return (
                    "a defender's kontra window opens right after his own card to the first "
                    "trick in this ruleset: play your card, then call"
                )
            return (
                f"{self._call_name(level)} is called at the first trick, before one's own card, "
                "in this ruleset; the round after trick 1 is too late for it"
            )
        if against is not None:
            why = self._why_not_against(action, declarer)
            if why is not None:
                return why
        below = level - 1
        for comp in action.components:
            chain = self.levels[comp]
            if declarer:
                if against is None and below not in chain.values():
                    return (
                        f"no kontra on '{comp}' stands at level {below}, so there is nothing "
                        f"to raise to level {level}"
                    )
                if against is not None and chain[against] != below:
                    return (
                        f"seat {against}'s kontra chain on '{comp}' stands at level "
                        f"{chain[against]}, not {below}, so you cannot raise it to level {level}"
                    )
            elif comp in self.per_defender:
                if chain[seat] != below:
                    return (
                        f"your own kontra chain on '{comp}' stands at level {chain[seat]}, not "
                        f"{below}, so you cannot raise it to level {level} (in '{comp}' each "
                        "defender has his own chain and raises only that)"
                    )
            elif chain[self.defenders[0]] != below:
                return (
                    f"'{comp}' stands at kontra level {chain[self.defenders[0]]}, not {below}, "
                    f"so it cannot be raised to level {level}"
                )
        return None

    def _why_not_against(self, action: Kontra, declarer: bool) -> str | None:
        against = action.against
        if not declarer:
            return (
                "only the declarer names the defender he answers (against): a defender raises "
                "his own kontra chain, or the one both defenders share"
            )
        if against not in self.defenders:
            return (
                f"seat {against} is not a defender (the defenders are seats "
                f"{' and '.join(str(d) for d in self.defenders)})"
            )
        for comp in action.components:
            if comp not in self.per_defender:
                return (
                    f"a kontra on '{comp}' binds both defenders, so its one chain is answered "
                    "without naming a defender (against)"
                )
        return None

    def apply(self, action: Kontra, seat: int, declarer: bool) -> None:
        level, against = action.level, action.against
        below = level - 1
        for comp in action.components:
            chain = self.levels[comp]
            if against is not None:
                chain[against] = level
            elif declarer:
                for d in chain:
                    if chain[d] == below:
                        chain[d] = level
            elif comp in self.per_defender:
                chain[seat] = level
            else:
                for d in chain:
                    chain[d] = level
        self._keep_views()

    def as_dict(self) -> dict[str, dict[int, int]]:
        return {c: dict(chain) for c, chain in self.levels.items()}
