"""Trick play on bit masks: rank tables, the legal cards, and why a card is refused.

A hand is a 32-bit mask (bit ``c`` = card ``c``). For the card that currently
wins the trick, ``beat[c]`` is the mask of every card that would beat it: the
higher cards of its suit, and every trump if it is not a trump itself. With that
one table the duties of C13 (follow; if void, trump; beat the best card when
able, also without trumps) are a handful of ``&`` and ``|`` per card, and the
tables are built once per ruleset and trump suit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import RANK_IDS, card_name, make_card, suit_label, suit_mask
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


_CACHE: dict[tuple[int, int], tuple[Ruleset, RankTables]] = {}


def tables_for(ruleset: Ruleset, trump: int) -> RankTables:
    """The rank tables for ``ruleset`` with ``trump`` (-1: none), built once and kept."""
    hit = _CACHE.get((id(ruleset), trump))
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    tables = build_tables(ruleset, trump)
    _CACHE[(id(ruleset), trump)] = (ruleset, tables)
    return tables


def legal_mask(t: RankTables, hand: int, led_mask: int, best: int) -> int:
    """The cards of ``hand`` that may be played; ``led_mask`` is 0 when leading.

    ``best`` is the card now winning the trick (ignored when leading).
    """
    if not led_mask:
        return hand
    follow = hand & led_mask
    if follow and t.must_follow:
        if t.must_beat:
            return follow & t.beat[best] or follow
        return follow
    trumps = hand & t.trump_mask
    if trumps and t.must_trump and not follow:
        if t.must_beat:
            return trumps & t.beat[best] or trumps
        return trumps
    return hand


def why_refused(t: RankTables, hand: int, led_mask: int, best: int, card: int) -> str:
    """The rule ``card`` breaks, given that it is not in the legal mask (and is held)."""
    follow = hand & led_mask
    if led_mask and follow and t.must_follow:
        if not (1 << card) & led_mask:
            return f"must follow {suit_label(led_mask.bit_length() // 8 - 1)}"
        return f"must beat the {card_name(best)}"
    trumps = hand & t.trump_mask
    if not (1 << card) & t.trump_mask:
        return (
            f"must trump: no {suit_label(led_mask.bit_length() // 8 - 1)} in hand, "
            f"and {suit_label(t.trump)} are trumps"
        )
    if trumps and t.beat[best] & trumps:
        return f"must beat the {card_name(best)}"
    return "that card may not be played now"
