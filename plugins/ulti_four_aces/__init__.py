"""Four Aces (Négy ász): the declarer wins every trick that holds an ace.

A plugin that uses only ulti_rules' public API, shipped in the same wheel and
registered through the ``ulti_rules`` entry-point group, exactly as a third
party's plugin would be.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from ulti_rules import ContractKind, ContractSpec, hookimpl


class FourAcesSpec(ContractSpec):
    kind: Literal["four_aces"] = "four_aces"


class FourAces(ContractKind):
    """Four Aces: the declarer wins every trick in which an ace is played."""

    name = "four_aces"
    params = FourAcesSpec


@hookimpl
def register_contract_kinds(register: Callable[[type[ContractKind]], None]) -> None:
    register(FourAces)
