"""ulti-rules: the Hungarian card game Ulti in all its house rules.

The public API is this module's names; plugins import nothing else.
"""

from __future__ import annotations

from .cards import Card, Rank, Suit, format_card, format_cards, parse_card, parse_cards
from .contracts.base import ContractKind
from .errors import IllegalAction, PluginError, Problem, RulesetError, UltiError
from .facts import Contract, Facts, MarriageFact, TrickFact
from .hookspecs import hookimpl
from .ruleset.schema import ContractSpec, Ruleset

__all__ = [
    "Card",
    "Contract",
    "ContractKind",
    "ContractSpec",
    "Facts",
    "IllegalAction",
    "MarriageFact",
    "PluginError",
    "Problem",
    "Rank",
    "Ruleset",
    "RulesetError",
    "Suit",
    "TrickFact",
    "UltiError",
    "format_card",
    "format_cards",
    "hookimpl",
    "parse_card",
    "parse_cards",
]
