"""ContractKind: how one kind of contract component is described (and later judged).

The YAML says *which* components exist and what they are worth; a kind says what
its parameters are, whether it needs a trump suit, and which play constraints it
adds. Kinds are registered through the ``register_contract_kinds`` hook, the
built-in ones exactly like a plugin's.
"""

from __future__ import annotations

from typing import ClassVar

from ..ruleset.schema import ContractSpec


class ContractKind:
    """Base of every contract kind. Subclasses set the class attributes."""

    name: ClassVar[str]
    params: ClassVar[type[ContractSpec]]
    replaces_parti: ClassVar[bool] = False
    """A bid holding this component has no separate Parti (100s, trump Durchmars)."""
    keeps_trump_seven: ClassVar[bool] = False
    """The declarer must keep the trump 7 until the last trick unless forced (Ulti)."""

    def needs_trump(self, spec: ContractSpec) -> bool:
        """Whether a component of this kind is played with a trump suit."""
        return True

    def describe(self) -> str:
        return (self.__doc__ or self.name).strip().splitlines()[0]
