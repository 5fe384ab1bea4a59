"""The built-in contract kinds: parti, hundred, ulti, betli, durchmars."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..ruleset.schema import ContractSpec
from .base import ContractKind


class PartiSpec(ContractSpec):
    kind: Literal["parti"] = "parti"


class HundredSpec(ContractSpec):
    kind: Literal["hundred"] = "hundred"
    marriage: Literal["trump", "plain"] = Field(
        description="The marriage the bid needs and counts: the trump 40 or a side-suit 20."
    )
    target: int = Field(default=100, description="Points, the bid marriage included, to reach.")


class UltiSpec(ContractSpec):
    kind: Literal["ulti"] = "ulti"
    failure_penalty: int = Field(
        default=4,
        ge=0,
        description="Paid on top of the value when the Ulti fails (red doubles it; GT: 0).",
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


class Hundred(ContractKind):
    """40-100 / 20-100: card points plus the one bid marriage reach 100."""

    name = "hundred"
    params = HundredSpec
    replaces_parti = True


class Ulti(ContractKind):
    """Ulti: the declarer wins the last trick with the trump 7."""

    name = "ulti"
    params = UltiSpec
    keeps_trump_seven = True


class Betli(ContractKind):
    """Betli: the declarer takes no trick; played without trumps."""

    name = "betli"
    params = BetliSpec

    def needs_trump(self, spec: ContractSpec) -> bool:
        return False


class Durchmars(ContractKind):
    """Durchmars: the declarer takes every trick, with or without trumps."""

    name = "durchmars"
    params = DurchmarsSpec
    replaces_parti = True

    def needs_trump(self, spec: ContractSpec) -> bool:
        assert isinstance(spec, DurchmarsSpec)
        return spec.trump


BUILTIN_KINDS: tuple[type[ContractKind], ...] = (Parti, Hundred, Ulti, Betli, Durchmars)
