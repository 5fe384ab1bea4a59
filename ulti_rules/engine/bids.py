"""The bid catalogue as the engine imports it: it lives with the game (game/catalog.py)."""

from ..game.catalog import BidInfo, Catalog, TrumpMode

__all__ = ["BidInfo", "Catalog", "TrumpMode"]
