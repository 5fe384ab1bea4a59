"""Four Aces (Négy ász): the declarer wins every trick that holds an ace.

A plugin that uses only ulti_rules' public API, shipped in the same wheel and
registered through the ``ulti_rules`` entry-point group, exactly as a third
party's plugin would be.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from ulti_rules import (
    ContractKind,
    ContractSpec,
    Facts,
    MissingFact,
    Ruleset,
    SilentOutcome,
    hookimpl,
)


class FourAcesSpec(ContractSpec):
    kind: Literal["four_aces"] = "four_aces"


def _ace_takers(facts: Facts) -> set[int]:
    """The seats that won a trick holding an ace; aces left in the talon do not count."""
    if facts.ace_winners is None:
        raise MissingFact(
            "Four Aces is judged by who took the tricks holding aces, and the facts do not say",
            fact="ace_winners",
        )
    return set(facts.ace_winners)


class FourAces(ContractKind):
    """Four Aces: the declarer wins every trick in which an ace is played."""

    name = "four_aces"
    params = FourAcesSpec
    implied_by = frozenset({"durchmars"})  # every trick holds every ace trick

    def judge(self, spec: ContractSpec, facts: Facts, ruleset: Ruleset) -> bool:
        return _ace_takers(facts) <= {facts.declarer}

    def judge_silent(
        self, facts: Facts, ruleset: Ruleset, *, either_side: bool
    ) -> SilentOutcome | None:
        """One player won every ace trick: the declarer's feat, or one defender's (WP's
        loss case; a defenders' feat only where either side may score it)."""
        takers = _ace_takers(facts)
        if len(takers) != 1:
            return None
        (seat,) = takers
        if seat == facts.declarer:
            return SilentOutcome("declarer", True, seat)
        if either_side:
            return SilentOutcome("defenders", True, seat)
        return SilentOutcome("declarer", False, seat)


@hookimpl
def register_contract_kinds(register: Callable[[type[ContractKind]], None]) -> None:
    register(FourAces)
