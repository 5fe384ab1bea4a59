"""Four Aces (Négy ász): the declarer wins every trick that holds an ace.

A plugin that uses only ulti_rules' public API, shipped in the same wheel and
registered through the ``ulti_rules`` entry-point group, exactly as a third
party's plugin would be.

This entry module is kept light: ``ulti`` imports it for every command that asks the
plugins anything, even `ulti rulesets`, so it holds the hooks alone and imports its kind
(a pydantic model, see ``kind.py``) only when kinds are asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ulti_rules import hookimpl

if TYPE_CHECKING:
    from ulti_rules import ContractKind


@hookimpl
def register_contract_kinds(register: Callable[[type[ContractKind]], None]) -> None:
    from .kind import FourAces

    register(FourAces)


FRAGMENT = Path(__file__).with_name("four-aces.yaml")
"""The contract, its twelve bids at their Wikipedia ranks and the silent Four Aces: the rule
fragment ``four-aces``, which the bundled ``wikipedia`` adds with ``with: [four-aces]``."""


@hookimpl
def register_fragments(register: Callable[[Path], None]) -> None:
    register(FRAGMENT)
