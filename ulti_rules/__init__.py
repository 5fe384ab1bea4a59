"""ulti-rules: the Hungarian card game Ulti in all its house rules.

The public API is this module's names; plugins import nothing else.
"""

from __future__ import annotations

from .cards import (
    Card,
    Rank,
    Suit,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from .contracts.base import ContractKind, MissingFact, SilentOutcome
from .contracts.fact_specs import COUNT, FLAG, PLAYER, PLAYERS, FactForm, FactSpec
from .engine import (
    Action,
    Announce,
    Bid,
    DeclareTrump,
    Discard,
    GiveUp,
    Hand,
    Kontra,
    Pass,
    PickUp,
    Play,
)
from .errors import IllegalAction, PluginError, Problem, RulesetError, UltiError
from .facts import Contract, Facts, MarriageFact, TrickFact
from .hookspecs import hookimpl
from .ruleset.loading import load_ruleset
from .ruleset.ranking import RankedBid
from .ruleset.schema import ContractSpec, Ruleset, SilentBonus
from .scoring.settlement import Settlement, settle

__all__ = [
    "COUNT",
    "FLAG",
    "PLAYER",
    "PLAYERS",
    "Action",
    "Announce",
    "Bid",
    "Card",
    "Contract",
    "ContractKind",
    "ContractSpec",
    "DeclareTrump",
    "Discard",
    "FactForm",
    "FactSpec",
    "Facts",
    "GiveUp",
    "Hand",
    "IllegalAction",
    "Kontra",
    "MarriageFact",
    "MissingFact",
    "Pass",
    "PickUp",
    "Play",
    "PluginError",
    "Problem",
    "Rank",
    "RankedBid",
    "Ruleset",
    "RulesetError",
    "Settlement",
    "SilentBonus",
    "SilentOutcome",
    "Suit",
    "TrickFact",
    "UltiError",
    "format_card",
    "format_cards",
    "hookimpl",
    "load_ruleset",
    "parse_card",
    "parse_cards",
    "rank_of",
    "settle",
    "suit_of",
]
