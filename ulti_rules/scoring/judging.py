"""Judging a hand: which bid components were made, and which silent feats happened.

The conditions belong to the contract kinds; this module only asks them, in the
order the ladder lists the components, and asks the ladder which silent bonuses
the bid allows. No contract name appears here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..contracts.base import ContractKind, MissingFact, SilentOutcome
from ..errors import UltiError
from ..facts import Facts
from ..plugins import Registry
from ..ruleset.ladder import silent_values
from ..ruleset.schema import Bid, ContractSpec, Ruleset, SilentBonus


class JudgingError(UltiError):
    """The ruleset names something no registered kind can judge."""


@dataclass(frozen=True)
class Component:
    """A bid component with its catalogue entry and the kind that judges it."""

    id: str
    spec: ContractSpec
    kind: ContractKind


@dataclass(frozen=True)
class SilentVerdict:
    """A silent bonus the bid allows and what happened to its feat."""

    id: str
    bonus: SilentBonus
    value: int
    """Per defender in this bid: the red value in a red bid."""
    outcome: SilentOutcome


def kind_named(registry: Registry, name: str, what: str) -> ContractKind:
    kind = registry.kinds.get(name)
    if kind is None:
        raise JudgingError(
            f"{what} needs the contract kind '{name}', which no installed plugin registers "
            f"(known: {', '.join(sorted(registry.kinds))})"
        )
    return kind


def components(ruleset: Ruleset, bid: Bid, registry: Registry) -> list[Component]:
    """The bid's components in ladder order, implied Parti included."""
    found = []
    for cid in bid.components:
        spec = ruleset.contracts.get(cid)
        if spec is None:
            raise JudgingError(f"bid '{bid.id}' names component '{cid}', which is not in contracts")
        found.append(Component(cid, spec, kind_named(registry, spec.kind, f"component '{cid}'")))
    return found


def made(component: Component, facts: Facts, ruleset: Ruleset) -> bool:
    """Whether the declarer made this component; each is judged on its own (C17)."""
    try:
        return component.kind.judge(component.spec, facts, ruleset)
    except MissingFact as exc:
        raise MissingFact(f"judging the component '{component.id}': {exc}", exc.fact) from None


def silent_verdicts(
    ruleset: Ruleset, bid: Bid, facts: Facts, registry: Registry
) -> list[SilentVerdict]:
    """Every silent bonus the bid allows whose feat was attempted or achieved."""
    verdicts = []
    for bonus_id, value in silent_values(ruleset, bid, registry).items():
        bonus = ruleset.silent_bonuses[bonus_id]
        kind = kind_named(registry, bonus.condition, f"silent bonus '{bonus_id}'")
        try:
            outcome = kind.judge_silent(
                facts, ruleset, either_side=bonus.scored_by == "either_side"
            )
        except MissingFact as exc:
            raise MissingFact(
                f"the bid allows the silent bonus '{bonus_id}', and judging it failed: {exc}",
                exc.fact,
            ) from None
        if outcome is not None:
            verdicts.append(SilentVerdict(bonus_id, bonus, value, outcome))
    return verdicts
