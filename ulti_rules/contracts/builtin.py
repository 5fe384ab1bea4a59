"""The built-in contract kinds: parti, hundred, ulti, betli, durchmars.

Each judges its component from the facts alone; the open and red forms are
judged like the plain ones (only their values differ, and values are data).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..facts import Facts
from ..ruleset.schema import ContractSpec, Ruleset, Side
from .base import ContractKind, SilentOutcome
from .tally import (
    card_points_of,
    counted_marriages,
    score,
    side_of,
    talon_points_for,
    tricks_of,
)


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
        """Card points (and talon, where it counts) plus only the bid marriage reach the target."""
        assert isinstance(spec, HundredSpec)
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
        target = _silent_target(ruleset)
        sides: tuple[Side, ...] = ("declarer", "defenders")
        for side in sides:
            total = _hundred_points(facts, ruleset, side) + sum(
                m.value for m in counted_marriages(facts, ruleset, side)
            )
            if total >= target:
                return _feat(side, either_side)
        return None


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
        total = sum(facts.tricks_won.values())
        for seat, won in facts.tricks_won.items():
            if won == total:
                return _feat(side_of(facts, seat), either_side, seat)
        return None


def _hundred_points(facts: Facts, ruleset: Ruleset, side: Side) -> int:
    """Card points toward a 100: the talon only where it counts toward one."""
    talon = talon_points_for(facts, ruleset, side)
    if not ruleset.points.talon_counts_toward_hundred:
        talon = 0
    return card_points_of(facts, side) + talon


def _silent_target(ruleset: Ruleset) -> int:
    """A silent 100 reaches what the catalogue's 100 games reach (100 unless set)."""
    targets = [s.target for s in ruleset.contracts.values() if isinstance(s, HundredSpec)]
    return min(targets, default=HundredSpec.model_fields["target"].default)


def _feat(side: Side, either_side: bool, seat: int | None = None) -> SilentOutcome:
    """A feat that cannot fail, only be achieved: a defenders' one is the declarer's
    failure unless the ruleset lets the defenders score it (WP's loss conditions)."""
    if side == "defenders" and not either_side:
        return SilentOutcome("declarer", False, seat)
    return SilentOutcome(side, True, seat)


BUILTIN_KINDS: tuple[type[ContractKind], ...] = (Parti, Hundred, Ulti, Betli, Durchmars)
