"""Contract kinds: the code half of 'numbers are data, conditions are code'."""

from .base import ContractKind
from .builtin import BUILTIN_KINDS, Betli, Durchmars, Hundred, Parti, Ulti

__all__ = ["BUILTIN_KINDS", "Betli", "ContractKind", "Durchmars", "Hundred", "Parti", "Ulti"]
