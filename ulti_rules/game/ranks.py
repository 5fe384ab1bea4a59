"""Rank tables on bit masks: which card beats which, and card points, per trump suit.

A hand is a 32-bit mask (bit ``c`` = card ``c``). For the card that currently
wins the trick, ``beat[c]`` is the mask of every card that would beat it: the
higher cards of its suit, and every trump if it is not a trump itself. With that
one table the duties of play (docs/rules.md#the-play: follow; if void, trump; beat
the best card when able, also without trumps) are a handful of ``&`` and ``|`` per
card, and the tables are built once per ruleset and trump suit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import RANK_IDS, make_card, suit_mask
from ..ruleset.schema import Ruleset

SUIT_MASKS: tuple[int, ...] = tuple(suit_mask(s) for s in range(4))


@dataclass(frozen=True)
class RankTables:
    """Everything the trick loop asks about cards, for one ruleset and one trump."""

    trump: int
    """Trump suit number, or -1 without trumps."""
    trump_mask: int
    beat: tuple[int, ...]
    """``beat[c]``: the cards that beat ``c`` when ``c`` is the best card in the trick."""
    points: tuple[int, ...]
    """Card points of each card."""
    point_masks: tuple[tuple[int, int], ...]
    """(mask of a scoring rank, its points): card points of a mask by popcount."""
    must_follow: bool
    must_trump: bool
    must_beat: bool

    def points_of(self, mask: int) -> int:
        return sum((mask & m).bit_count() * p for m, p in self.point_masks)


def _order(ruleset: Ruleset, suit: int, trump: int) -> list[str]:
    if trump < 0:
        return list(ruleset.ranks.no_trump)
    if suit == trump:
        return list(ruleset.ranks.trump_game)
    return list(ruleset.ranks.trump_game_side_suits)


def build_tables(ruleset: Ruleset, trump: int) -> RankTables:
    trump_mask = SUIT_MASKS[trump] if trump >= 0 else 0
    beat = [0] * 32
    for suit in range(4):
        order = _order(ruleset, suit, trump)  # high to low
        for i, rank_id in enumerate(order):
            card = make_card(suit, RANK_IDS[rank_id])  # type: ignore[arg-type]
            higher = 0
            for above in order[:i]:
                higher |= 1 << make_card(suit, RANK_IDS[above])  # type: ignore[arg-type]
            beat[card] = higher | (trump_mask if suit != trump else 0)
    points = [0] * 32
    point_masks = []
    for rank_id, value in ruleset.points.card_points.items():
        rank = RANK_IDS[rank_id]
        mask = 0
        for suit in range(4):
            card = make_card(suit, rank)  # type: ignore[arg-type]
            points[card] = value
            mask |= 1 << card
        if value:
            point_masks.append((mask, value))
    play = ruleset.play
    return RankTables(
        trump,
        trump_mask,
        tuple(beat),
        tuple(points),
        tuple(point_masks),
        play.must_follow,
        play.must_trump,
        play.must_beat,
    )
