"""The cards of each suit from high to low under a trump, as the ruleset ranks them.

Evaluating a hand and choosing a card both ask "which cards of this suit are above
that one?": the answer comes from the game's rank tables (tens high in trump games,
low without trumps, a club's own orders), turned once per game and trump into the
suits' cards high to low and each card's height in its suit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game import Game
from ..game.ranks import SUIT_MASKS, RankTables


@dataclass(frozen=True, slots=True)
class SuitOrder:
    """One trump's view of the deck: ``tables`` for the engine's questions, and more."""

    tables: RankTables
    trump: int
    """The trump suit number, -1 without trumps."""
    high_to_low: tuple[tuple[int, ...], ...]
    """Per suit, its eight cards from the highest to the lowest."""
    above: tuple[int, ...]
    """Per card, the mask of the cards of its own suit above it."""
    below: tuple[int, ...]
    """Per card, the mask of the cards of its own suit below it."""
    height: tuple[int, ...]
    """Per card, how many cards of its suit are above it (0: the top card)."""
    points: tuple[int, ...]
    """Per card, its card points."""


def _build(game: Game, trump: int) -> SuitOrder:
    tables = game.tables(trump)
    above = [tables.beat[c] & SUIT_MASKS[c >> 3] for c in range(32)]
    height = [a.bit_count() for a in above]
    below = [SUIT_MASKS[c >> 3] & ~above[c] & ~(1 << c) for c in range(32)]
    orders = tuple(tuple(sorted(range(s * 8, s * 8 + 8), key=height.__getitem__)) for s in range(4))
    return SuitOrder(
        tables, trump, orders, tuple(above), tuple(below), tuple(height), tables.points
    )


def suit_order(game: Game, trump: int) -> SuitOrder:
    """The order under ``trump`` (a suit number, -1 for none), built once per game."""
    return game.derived(("club bot", "suit order", trump), lambda: _build(game, trump))
