"""The built-in contract kinds: parti, hundred, ulti, betli, durchmars.

Each judges its component from the facts alone; the open and red forms are
judged like the plain ones (only their values differ, and values are data).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..ruleset.schema import ContractSpec, Ruleset, Side, SilentBonus
from .base import ContractKind, SilentOutcome
from .tally import (
    card_points_of,
    counted_marriages,
    score,
    side_of,
    tricks_of,
)

if TYPE_CHECKING:  # annotations only: the facts models are not needed to load a kind
    from ..facts import Facts, MarriageFact


class PartiSpec(ContractSpec):
    kind: Literal["parti"] = "parti"


class HundredSpec(ContractSpec):
    kind: Literal["hundred"] = "hundred"
    marriage: Literal["trump", "plain"] = Field(
        description="The marriage the bid needs and counts: the trump 40 or a side-suit 20."
    )
    target: int = Field(
        default=100,
        ge=1,
        le=1000,
        description="Points, the bid marriage included, to reach (1 to 1000).",
    )


class UltiSpec(ContractSpec):
    kind: Literal["ulti"] = "ulti"
    failure_penalty: int = Field(
        default=4,
        ge=0,
        le=1000,
        description="Paid on top of the value when the Ulti fails (red doubles it; GT: 0); "
        "0 to 1000, as a contract's value.",
    )
    penalty_multiplied_by_kontra: bool = Field(
        default=False, description="Whether kontra multiplies the failure penalty (WP, DE, HU: no)."
    )


class BetliSpec(ContractSpec):
    kind: Literal["betli"] = "betli"


class DurchmarsSpec(ContractSpec):
    kind: Literal["durchmars"] = "durchmars"
    trump: bool = Field(description="Played with a trump suit (true) or without (plain).")


class Parti(ContractKind):
    """Parti / Simple: the declarer's side scores more than the defenders."""

    name = "parti"
    params = PartiSpec
    is_parti = True

    def judge(self, spec: ContractSpec, facts: Facts, ruleset: Ruleset) -> bool:
        """Strictly more than the defenders; marriages only where the ruleset counts them."""
        count = ruleset.marriages.count_in_parti
        declarer = score(facts, ruleset, "declarer", marriages=count)
        return declarer > score(facts, ruleset, "defenders", marriages=count)


class Hundred(ContractKind):
    """40-100 / 20-100: card points plus the one bid marriage reach 100."""

    name = "hundred"
    params = HundredSpec
    replaces_parti = True

    def judge(self, spec: ContractSpec, facts: Facts, ruleset: Ruleset) -> bool:
        """Card points (and talon, where it counts) plus only the bid marriage reach the target.

        A bid marriage never announced counts nothing; where the ruleset lets the
        declarer leave it unannounced (``in_hundred_game.unannounced``) the 100 is lost
        then, whatever the points ('parti': settlement voids it before asking).
        """
        assert isinstance(spec, HundredSpec)
        if (
            ruleset.marriages.in_hundred_game.unannounced != "required"
            and not bid_marriage_announced(spec, facts)
        ):
            return False
        wanted = [
            m.value
            for m in counted_marriages(facts, ruleset, "declarer")
            if (m.suit == facts.trump) == (spec.marriage == "trump")
        ]
        return _hundred_points(facts, ruleset, "declarer") + max(wanted, default=0) >= spec.target

    def judge_silent(
        self, facts: Facts, ruleset: Ruleset, *, either_side: bool
    ) -> SilentOutcome | None:
        """A side reaching 100 unbid, with every marriage it announced (the score of C6)."""
        return _silent_hundred(facts, ruleset, either_side, alone=False)

    def judge_silent_bonus(
        self, bonus: SilentBonus, facts: Facts, ruleset: Ruleset
    ) -> SilentOutcome | None:
        """As judge_silent, counting the marriages the bonus counts, and naming the one
        the 100 was made with (the bonus may be worth more with a 20 than with the 40)."""
        alone = bonus.counts_marriages == "one"
        return _silent_hundred(facts, ruleset, bonus.scored_by == "either_side", alone=alone)


class Ulti(ContractKind):
    """Ulti: the declarer wins the last trick with the trump 7."""

    name = "ulti"
    params = UltiSpec
    keeps_trump_seven = True

    def judge(self, spec: ContractSpec, facts: Facts, ruleset: Ruleset) -> bool:
        """Made only if the declarer's trump 7 won the last trick (played early or beaten: lost)."""
        return facts.trump_seven_last_trick == facts.declarer == facts.last_trick_winner

    def failure_penalty(self, spec: ContractSpec) -> tuple[int, bool]:
        assert isinstance(spec, UltiSpec)
        return spec.failure_penalty, spec.penalty_multiplied_by_kontra

    def judge_silent(
        self, facts: Facts, ruleset: Ruleset, *, either_side: bool
    ) -> SilentOutcome | None:
        """Whoever played the trump 7 to the last trick made it if they also won the trick.

        Only the declarer's 7 counts unless either side may score (DE, HU, GT); a
        defender's 7 taken by his own partner is still his failure (HU).
        """
        seat = facts.trump_seven_last_trick
        if seat is None:
            return None
        side = side_of(facts, seat)
        if side == "defenders" and not either_side:
            return None
        return SilentOutcome(side, facts.last_trick_winner == seat, seat)


class Betli(ContractKind):
    """Betli: the declarer takes no trick; played without trumps."""

    name = "betli"
    params = BetliSpec

    def needs_trump(self, spec: ContractSpec) -> bool:
        return False

    def judge(self, spec: ContractSpec, facts: Facts, ruleset: Ruleset) -> bool:
        return tricks_of(facts, "declarer") == 0


class Durchmars(ContractKind):
    """Durchmars: the declarer takes every trick, with or without trumps."""

    name = "durchmars"
    params = DurchmarsSpec
    replaces_parti = True

    def needs_trump(self, spec: ContractSpec) -> bool:
        assert isinstance(spec, DurchmarsSpec)
        return spec.trump

    def judge(self, spec: ContractSpec, facts: Facts, ruleset: Ruleset) -> bool:
        return tricks_of(facts, "defenders") == 0

    def judge_silent(
        self, facts: Facts, ruleset: Ruleset, *, either_side: bool
    ) -> SilentOutcome | None:
        """One player took every trick: the declarer, or (WP's loss case) one defender."""
        return _silent_durchmars(facts, either_side, together=False)

    def judge_silent_bonus(
        self, bonus: SilentBonus, facts: Facts, ruleset: Ruleset
    ) -> SilentOutcome | None:
        """As judge_silent; with ``defenders: together`` the two defenders' tricks between
        them also make the defenders' feat (no one seat made it then)."""
        together = bonus.defenders == "together"
        return _silent_durchmars(facts, bonus.scored_by == "either_side", together=together)


def bid_marriage_announced(spec: ContractSpec, facts: Facts) -> bool:
    """Whether the declarer announced the marriage a component needs: the trump 40 or a
    side-suit 20 for a 40-100 / 20-100 (whose spec names it); True for every other one."""
    marriage = getattr(spec, "marriage", None)
    if marriage not in ("trump", "plain"):
        return True
    return any(
        m.seat == facts.declarer and (m.suit == facts.trump) == (marriage == "trump")
        for m in facts.marriages
    )


def _hundred_points(facts: Facts, ruleset: Ruleset, side: Side) -> int:
    """Card points toward a 100: the talon only where it counts toward one."""
    points = ruleset.points
    counts = points.talon_counts_toward_hundred and points.talon_to == side
    return card_points_of(facts, side) + (facts.talon_points if counts else 0)


def _silent_target(ruleset: Ruleset) -> int:
    """A silent 100 reaches what the catalogue's 100 games reach (100 unless set): found
    once per ruleset object (it is judged in nearly every hand)."""
    key = id(ruleset)
    found = _TARGETS.get(key)
    if found is not None and found[0]() is ruleset:
        return found[1]
    targets = [s.target for s in ruleset.contracts.values() if isinstance(s, HundredSpec)]
    target = min(targets) if targets else _TARGET
    _TARGETS[key] = (weakref.ref(ruleset, lambda _: _TARGETS.pop(key, None)), target)
    return target


_TARGETS: dict[int, tuple[weakref.ref[Ruleset], int]] = {}
"""The silent target per live ruleset, by ``id`` (a ruleset is not cheap to hash)."""


_TARGET: int = HundredSpec.model_fields["target"].default
"""A 100's target where its spec sets none."""


def _silent_hundred(
    facts: Facts, ruleset: Ruleset, either_side: bool, *, alone: bool
) -> SilentOutcome | None:
    """The side that reached the silent 100, and the marriage it did so with.

    ``counts_marriages: all`` adds every marriage the side announced (the score of
    C6); ``one`` lets a single marriage count, as in a bid 100.
    """
    target = _silent_target(ruleset)
    for side in _SIDES:
        points = _hundred_points(facts, ruleset, side)
        marriages = counted_marriages(facts, ruleset, side) if facts.marriages else []
        if not marriages:  # most hands: card points alone decide
            if points >= target:
                return _feat(side, either_side)
            continue
        if alone:
            credited = [m for m in marriages if points + m.value >= target]
            reached = bool(credited) or points >= target
        else:
            credited = marriages
            reached = points + sum(m.value for m in marriages) >= target
        if reached:
            return _feat(side, either_side, marriage=_made_with(credited, facts))
    return None


_SIDES: tuple[Side, ...] = ("declarer", "defenders")


def _made_with(marriages: list[MarriageFact], facts: Facts) -> Literal["trump", "plain"] | None:
    """With the 40 whenever the trump marriage counts toward the 100; with a 20 when
    only side-suit marriages do; None when card points alone made it."""
    if any(m.suit == facts.trump for m in marriages):
        return "trump"
    return "plain" if marriages else None


def _silent_durchmars(facts: Facts, either_side: bool, *, together: bool) -> SilentOutcome | None:
    """One player took every trick; with ``together``, also the two defenders between them."""
    total = sum(facts.tricks_won.values())
    for seat, won in facts.tricks_won.items():
        if won == total:
            return _feat(side_of(facts, seat), either_side, seat)
    if together and tricks_of(facts, "defenders") == total:
        return _feat("defenders", either_side)
    return None


def _feat(
    side: Side,
    either_side: bool,
    seat: int | None = None,
    marriage: Literal["trump", "plain"] | None = None,
) -> SilentOutcome:
    """A feat that cannot fail, only be achieved: a defenders' one is the declarer's
    failure unless the ruleset lets the defenders score it (WP's loss conditions)."""
    if side == "defenders" and not either_side:
        return SilentOutcome("declarer", False, seat, marriage)
    return SilentOutcome(side, True, seat, marriage)


BUILTIN_KINDS: tuple[type[ContractKind], ...] = (Parti, Hundred, Ulti, Betli, Durchmars)
