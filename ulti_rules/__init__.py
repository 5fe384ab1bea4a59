"""ulti-rules: the Hungarian card game Ulti in all its house rules.

The public API is this module's names; plugins import nothing else.

The names are imported on first use (PEP 562), so that ``import ulti_rules`` (and with
it the ``ulti`` command, and a plugin's entry module that takes ``hookimpl``) does not
build the pydantic models or the engine it may never need. ``from ulti_rules import X``
works for every name of ``__all__``; type checkers see the imports below.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from .contracts.fact_specs import (
        COUNT,
        FLAG,
        PLAYER,
        PLAYERS,
        CanDeal,
        FactForm,
        FactSpec,
    )
    from .engine import (
        Action,
        Announce,
        Bid,
        DeclareTrump,
        Discard,
        GiveUp,
        Hand,
        Kontra,
        Observation,
        Pass,
        PickUp,
        Play,
    )
    from .engine.phase import Phase, Step
    from .errors import (
        IllegalAction,
        PluginError,
        Problem,
        ProblemsError,
        RulesetError,
        UltiError,
    )
    from .facts import (
        Contract,
        Facts,
        MarriageFact,
        TrickFact,
    )
    from .game import Game
    from .hookspecs import hookimpl
    from .i18n import N_, Translator
    from .plugins import build_registry, get_registry, new_manager, reset_plugins
    from .ruleset.loading import load_game, load_ruleset
    from .ruleset.ranking import RankedBid
    from .ruleset.schema import ContractSpec, Ruleset, SilentBonus
    from .said import Named, Said
    from .scoring.possible import deck_words
    from .scoring.settlement import Settlement, settle
    # A new public name goes in three places: imported here, mapped to its module in
    # _WHERE, listed in __all__ (tests/test_cli_startup.py checks).

_WHERE: dict[str, str] = {
    "Card": ".cards",
    "Rank": ".cards",
    "Suit": ".cards",
    "format_card": ".cards",
    "format_cards": ".cards",
    "parse_card": ".cards",
    "parse_cards": ".cards",
    "rank_of": ".cards",
    "suit_of": ".cards",
    "ContractKind": ".contracts.base",
    "MissingFact": ".contracts.base",
    "SilentOutcome": ".contracts.base",
    "COUNT": ".contracts.fact_specs",
    "FLAG": ".contracts.fact_specs",
    "PLAYER": ".contracts.fact_specs",
    "PLAYERS": ".contracts.fact_specs",
    "CanDeal": ".contracts.fact_specs",
    "FactForm": ".contracts.fact_specs",
    "FactSpec": ".contracts.fact_specs",
    "Action": ".engine",
    "Announce": ".engine",
    "Bid": ".engine",
    "DeclareTrump": ".engine",
    "Discard": ".engine",
    "GiveUp": ".engine",
    "Hand": ".engine",
    "Kontra": ".engine",
    "Pass": ".engine",
    "PickUp": ".engine",
    "Play": ".engine",
    "Observation": ".engine",
    "Phase": ".engine.phase",
    "Step": ".engine.phase",
    "IllegalAction": ".errors",
    "PluginError": ".errors",
    "Problem": ".errors",
    "ProblemsError": ".errors",
    "RulesetError": ".errors",
    "UltiError": ".errors",
    "Contract": ".facts",
    "Facts": ".facts",
    "MarriageFact": ".facts",
    "TrickFact": ".facts",
    "Game": ".game",
    "hookimpl": ".hookspecs",
    "N_": ".i18n",
    "Translator": ".i18n",
    "build_registry": ".plugins",
    "get_registry": ".plugins",
    "new_manager": ".plugins",
    "reset_plugins": ".plugins",
    "load_game": ".ruleset.loading",
    "load_ruleset": ".ruleset.loading",
    "RankedBid": ".ruleset.ranking",
    "ContractSpec": ".ruleset.schema",
    "Ruleset": ".ruleset.schema",
    "SilentBonus": ".ruleset.schema",
    "Named": ".said",
    "Said": ".said",
    "deck_words": ".scoring.possible",
    "Settlement": ".scoring.settlement",
    "settle": ".scoring.settlement",
}
"""Each public name and the module (relative to this package) that defines it."""

__all__ = [
    "COUNT",
    "FLAG",
    "N_",
    "PLAYER",
    "PLAYERS",
    "Action",
    "Announce",
    "Bid",
    "CanDeal",
    "Card",
    "Contract",
    "ContractKind",
    "ContractSpec",
    "DeclareTrump",
    "Discard",
    "FactForm",
    "FactSpec",
    "Facts",
    "Game",
    "GiveUp",
    "Hand",
    "IllegalAction",
    "Kontra",
    "MarriageFact",
    "MissingFact",
    "Named",
    "Observation",
    "Pass",
    "Phase",
    "PickUp",
    "Play",
    "PluginError",
    "Problem",
    "ProblemsError",
    "Rank",
    "RankedBid",
    "Ruleset",
    "RulesetError",
    "Said",
    "Settlement",
    "SilentBonus",
    "SilentOutcome",
    "Step",
    "Suit",
    "Translator",
    "TrickFact",
    "UltiError",
    "build_registry",
    "deck_words",
    "format_card",
    "format_cards",
    "get_registry",
    "hookimpl",
    "load_game",
    "load_ruleset",
    "new_manager",
    "parse_card",
    "parse_cards",
    "rank_of",
    "reset_plugins",
    "settle",
    "suit_of",
]


def __getattr__(name: str) -> Any:
    """Import a public name on first use, and keep it here for the next."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
