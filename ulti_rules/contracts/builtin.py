"""The built-in contract kinds: parti, hundred, ulti, betli, durchmars.

Each judges its component from the facts alone; the open and red forms are
judged like the plain ones (only their values differ, and values are data).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..ruleset.schema import ContractSpec, Ruleset, Side, SilentBonus
from .base import ContractKind, SilentOutcome
from .tally import counted_marriages, scorer, side_of, tricks_of

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


Judge = Callable[["Facts"], bool]
"""A component's judge, prepared for one ruleset: made or not, from the facts."""
SilentJudge = Callable[["Facts"], "SilentOutcome | None"]
"""A silent bonus's judge, prepared for one ruleset: its feat in the facts, or None."""


class PreparedKind(ContractKind):
    """A built-in kind, whose judges are prepared once per ruleset and component (or
    silent bonus): settlement judges every hand, so the ruleset's settings are read when
    the judge is made (settlement keeps it per bid), not at each hand. ``judge`` and
    ``judge_silent_bonus`` ask the same judges: each rule is written once."""

    def judging(self, spec: ContractSpec, ruleset: Ruleset) -> Judge:
        """Whether the declarer made a component ``spec`` of this kind, as a function of
        the facts."""
        raise NotImplementedError(f"contract kind '{self.name}' does not say how it is judged")

    def silent_judging(self, bonus: SilentBonus, ruleset: Ruleset) -> SilentJudge:
        """The feat of ``bonus`` in a hand, as a function of the facts (default: the
        kind's ``judge_silent``)."""
        either_side = bonus.scored_by == "either_side"
        judge_silent = self.judge_silent
        return lambda facts: judge_silent(facts, ruleset, either_side=either_side)

    def judge(self, spec: ContractSpec, facts: Facts, ruleset: Ruleset) -> bool:
        return self.judging(spec, ruleset)(facts)

    def judge_silent_bonus(
        self, bonus: SilentBonus, facts: Facts, ruleset: Ruleset
    ) -> SilentOutcome | None:
        return self.silent_judging(bonus, ruleset)(facts)


class Parti(PreparedKind):
    """Parti / Simple: the declarer's side scores more than the defenders."""

    name = "parti"
    params = PartiSpec
    is_parti = True

    def judging(self, spec: ContractSpec, ruleset: Ruleset) -> Judge:
        """Strictly more than the defenders; marriages only where the ruleset counts them."""
        declarer_score = scorer(ruleset, "declarer", marriages=ruleset.marriages.count_in_parti)
        defenders_score = scorer(ruleset, "defenders", marriages=ruleset.marriages.count_in_parti)
        return lambda facts: declarer_score(facts) > defenders_score(facts)


class Hundred(PreparedKind):
    """40-100 / 20-100: card points plus the one bid marriage reach 100."""

    name = "hundred"
    params = HundredSpec
    replaces_parti = True
    is_hundred = True

    def judging(self, spec: ContractSpec, ruleset: Ruleset) -> Judge:
        """Card points (and talon, where it counts) plus only the bid marriage reach the target.

        A bid marriage never announced counts nothing; where the ruleset lets the
        declarer leave it unannounced (``in_hundred_game.unannounced``) the 100 is lost
        then, whatever the points ('parti': settlement voids it before asking).
        """
        assert isinstance(spec, HundredSpec)
        may_go_unannounced = ruleset.marriages.in_hundred_game.unannounced != "required"
        points = hundred_points(ruleset, "declarer")
        with_trump, target = spec.marriage == "trump", spec.target

        def judge(facts: Facts) -> bool:
            if may_go_unannounced and not bid_marriage_announced(spec, facts):
                return False
            wanted = [
                m.value
                for m in counted_marriages(facts, ruleset, "declarer")
                if (m.suit == facts.trump) == with_trump
            ]
            return points(facts) + max(wanted, default=0) >= target

        return judge

    def judge_silent(
        self, facts: Facts, ruleset: Ruleset, *, either_side: bool
    ) -> SilentOutcome | None:
        """A side reaching 100 unbid, with every marriage it announced (the score of C6)."""
        return _silent_hundred(ruleset, either_side, alone=False)(facts)

    def silent_judging(self, bonus: SilentBonus, ruleset: Ruleset) -> SilentJudge:
        """As judge_silent, counting the marriages the bonus counts, and naming the one
        the 100 was made with (the bonus may be worth more with a 20 than with the 40)."""
        alone = bonus.counts_marriages == "one"
        return _silent_hundred(ruleset, bonus.scored_by == "either_side", alone=alone)


class Ulti(PreparedKind):
    """Ulti: the declarer wins the last trick with the trump 7."""

    name = "ulti"
    params = UltiSpec
    keeps_trump_seven = True

    def judging(self, spec: ContractSpec, ruleset: Ruleset) -> Judge:
        """Made only if the declarer's trump 7 won the last trick (played early or beaten: lost)."""
        return _ulti_made

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
        return _silent_ulti(either_side)(facts)

    def silent_judging(self, bonus: SilentBonus, ruleset: Ruleset) -> SilentJudge:
        return _silent_ulti(bonus.scored_by == "either_side")


class Betli(PreparedKind):
    """Betli: the declarer takes no trick; played without trumps."""

    name = "betli"
    params = BetliSpec

    def needs_trump(self, spec: ContractSpec) -> bool:
        return False

    def judging(self, spec: ContractSpec, ruleset: Ruleset) -> Judge:
        return lambda facts: tricks_of(facts, "declarer") == 0


class Durchmars(PreparedKind):
    """Durchmars: the declarer takes every trick, with or without trumps."""

    name = "durchmars"
    params = DurchmarsSpec
    replaces_parti = True

    def needs_trump(self, spec: ContractSpec) -> bool:
        assert isinstance(spec, DurchmarsSpec)
        return spec.trump

    def judging(self, spec: ContractSpec, ruleset: Ruleset) -> Judge:
        return lambda facts: tricks_of(facts, "defenders") == 0

    def judge_silent(
        self, facts: Facts, ruleset: Ruleset, *, either_side: bool
    ) -> SilentOutcome | None:
        """One player took every trick: the declarer, or (WP's loss case) one defender."""
        return _silent_durchmars(either_side, together=False)(facts)

    def silent_judging(self, bonus: SilentBonus, ruleset: Ruleset) -> SilentJudge:
        """As judge_silent; with ``defenders: together`` the two defenders' tricks between
        them also make the defenders' feat (no one seat made it then)."""
        together = bonus.defenders == "together"
        return _silent_durchmars(bonus.scored_by == "either_side", together=together)


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


def hundred_points(ruleset: Ruleset, side: Side) -> Callable[[Facts], int]:
    """Card points toward a 100: the talon only where it counts toward one."""
    points = ruleset.points
    if points.talon_counts_toward_hundred and points.talon_to == side:
        if side == "declarer":
            return lambda facts: facts.declarer_points + facts.talon_points
        return lambda facts: facts.defender_points + facts.talon_points
    return _DECLARER_POINTS if side == "declarer" else _DEFENDER_POINTS


_DECLARER_POINTS: Callable[[Facts], int] = attrgetter("declarer_points")
_DEFENDER_POINTS: Callable[[Facts], int] = attrgetter("defender_points")


def silent_target(ruleset: Ruleset) -> int:
    """What a silent 100 reaches: what the catalogue's 100 games reach (100 unless set).
    Read when a judge is prepared, so once per bid a settlement prepares."""
    targets = [s.target for s in ruleset.contracts.values() if isinstance(s, HundredSpec)]
    return min(targets) if targets else _TARGET


_TARGET: int = HundredSpec.model_fields["target"].default
"""A 100's target where its spec sets none."""


def _silent_hundred(ruleset: Ruleset, either_side: bool, *, alone: bool) -> SilentJudge:
    """The side that reached the silent 100, and the marriage it did so with.

    ``counts_marriages: all`` adds every marriage the side announced (the score of
    C6); ``one`` lets a single marriage count, as in a bid 100.
    """
    target = silent_target(ruleset)
    declarer_points = hundred_points(ruleset, "declarer")
    defender_points = hundred_points(ruleset, "defenders")
    sides: tuple[tuple[Side, Callable[[Facts], int]], ...] = (
        ("declarer", declarer_points),
        ("defenders", defender_points),
    )
    by_points = {side: _feat(side, either_side) for side in _SIDES}

    def judge(facts: Facts) -> SilentOutcome | None:
        if not facts.marriages:  # most hands: card points alone decide
            if declarer_points(facts) >= target:
                return by_points["declarer"]
            if defender_points(facts) >= target:
                return by_points["defenders"]
            return None
        for side, side_points in sides:
            points = side_points(facts)
            marriages = counted_marriages(facts, ruleset, side)
            if not marriages:
                if points >= target:
                    return by_points[side]
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

    return judge


_SIDES: tuple[Side, ...] = ("declarer", "defenders")


def _made_with(marriages: list[MarriageFact], facts: Facts) -> Literal["trump", "plain"] | None:
    """With the 40 whenever the trump marriage counts toward the 100; with a 20 when
    only side-suit marriages do; None when card points alone made it."""
    if any(m.suit == facts.trump for m in marriages):
        return "trump"
    return "plain" if marriages else None


def _ulti_made(facts: Facts) -> bool:
    return facts.trump_seven_last_trick == facts.declarer == facts.last_trick_winner


def _silent_ulti(either_side: bool) -> SilentJudge:
    """The trump 7 in the last trick: made by whoever played it if he won the trick."""

    def judge(facts: Facts) -> SilentOutcome | None:
        seat = facts.trump_seven_last_trick
        if seat is None:
            return None
        side = side_of(facts, seat)
        if side == "defenders" and not either_side:
            return None
        return SilentOutcome(side, facts.last_trick_winner == seat, seat)

    return judge


def _silent_durchmars(either_side: bool, *, together: bool) -> SilentJudge:
    """One player took every trick; with ``together``, also the two defenders between them."""

    def judge(facts: Facts) -> SilentOutcome | None:
        won = facts.tricks_won
        total = sum(won.values())
        if total not in won.values():  # most hands: nobody took them all
            if together and tricks_of(facts, "defenders") == total:
                return _feat("defenders", either_side)
            return None
        for seat, count in won.items():
            if count == total:
                return _feat(side_of(facts, seat), either_side, seat)
        return None  # pragma: no cover - the count above is some seat's

    return judge


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
