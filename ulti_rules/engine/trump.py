"""Which suit is trump, and whether a hand can hold up the marriages a bid needs.

A red bid fixes the red suit at once; a suit bid is named after the auction (or
with the bid, where the ruleset says so); a no-trump bid has none. A ruleset may
make one suit always trump (IT: hearts). A 40-100 needs the trump marriage in
the declarer's hand and a 20-100 a side-suit one, so the suits a declarer may
name are narrowed by the marriages he holds.
"""

from __future__ import annotations

from itertools import combinations

from ..cards import HU_SUIT_NAMES, SUIT_IDS, Rank, Suit, make_card
from ..ruleset.schema import Ruleset, SuitId
from .bids import BidInfo

SUIT_NAMES: tuple[SuitId, ...] = ("acorns", "leaves", "hearts", "bells")
"""Suit ids by suit number."""

MARRIAGE_MASKS: tuple[int, ...] = tuple(
    (1 << make_card(s, Rank.KING)) | (1 << make_card(s, Rank.OVER)) for s in Suit
)


def suit_id(suit: int) -> SuitId:
    return SUIT_NAMES[suit]


_SUIT_NUMBERS: dict[str, int] = {s: int(n) for s, n in SUIT_IDS.items()}


def suit_number(suit: SuitId) -> int:
    return _SUIT_NUMBERS[suit]


def suit_words(suit: int) -> str:
    """'acorns (Makk)': the suit's id, with the Hungarian name beside it."""
    return f"{SUIT_NAMES[suit]} ({HU_SUIT_NAMES[Suit(suit)]})"


_KINGS_OVERS: tuple[int, ...] = tuple(c for m in MARRIAGE_MASKS for c in range(32) if (m >> c) & 1)
_ALL_MARRIAGES = sum(MARRIAGE_MASKS)

_HELD: dict[int, tuple[int, ...]] = {
    kept: tuple(s for s in range(4) if kept & MARRIAGE_MASKS[s] == MARRIAGE_MASKS[s])
    for n in range(len(_KINGS_OVERS) + 1)
    for kept in (sum(1 << c for c in cards) for cards in combinations(_KINGS_OVERS, n))
}
"""The suits married in each of the 256 sets of Kings and Overs, built once at import."""


def marriages_in(hand: int) -> tuple[int, ...]:
    """The suits in which ``hand`` holds both King and Over (one look-up: auctions ask often)."""
    return _HELD[hand & _ALL_MARRIAGES]


def choosable_suits(ruleset: Ruleset, info: BidInfo) -> tuple[int, ...]:
    """The trump suits a bid can be played in, before looking at any hand.

    Red bids: the red suit; suit bids: the fixed suit where one is always trump,
    else any suit (the red one only where the ruleset lets a non-red bid name it).
    Computed once per ruleset in the bid catalogue.
    """
    return info.suits


def feasible_suits(info: BidInfo, hand: int, suits: tuple[int, ...]) -> tuple[int, ...]:
    """Of ``suits``, those with which ``hand`` holds up the bid's marriages."""
    if not info.hundred:
        return suits
    return feasible_with(info, marriages_in(hand), suits)


def feasible_with(info: BidInfo, held: tuple[int, ...], suits: tuple[int, ...]) -> tuple[int, ...]:
    """``feasible_suits`` for a hand whose marriages (``held``) are known already."""
    if not info.hundred:
        return suits
    return tuple(
        s
        for s in suits
        if (not info.trump_marriages or s in held)
        and sum(1 for m in held if m != s) >= info.plain_marriages
    )


def requirement_words(info: BidInfo, suits: tuple[int, ...]) -> str:
    """Why a hand cannot carry the bid, for an IllegalAction message."""
    needs = []
    if info.trump_marriages:
        needs.append("the King and Over of trumps (the trump marriage)")
    if info.plain_marriages:
        needs.append("the King and Over of a suit that is not trumps (a side marriage)")
    if len(suits) == 1:
        where = f"with {suit_words(suits[0])} as trumps"
    else:
        where = (
            "with any suit you may name as trumps (" + ", ".join(SUIT_NAMES[s] for s in suits) + ")"
        )
    return f"{info.name} needs {' and '.join(needs)} in the declarer's hand, {where}"
