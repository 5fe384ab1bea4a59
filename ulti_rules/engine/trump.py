"""Which suit is trump, and whether a hand can hold up the marriages a bid needs.

A red bid fixes the red suit at once; a suit bid is named after the auction (or
with the bid, where the ruleset says so); a no-trump bid has none. A ruleset may
make one suit always trump (IT: hearts). A 40-100 needs the trump marriage in
the declarer's hand and a 20-100 a side-suit one, so the suits a declarer may
name are narrowed by the marriages he holds.
"""

from __future__ import annotations

from itertools import combinations

from ..cards import DE_SUIT_NAMES, HU_SUIT_NAMES, Rank, Suit, make_card, suit_id
from ..game.catalog import BidInfo
from ..said import Named, Said
from .tricks import SUITS

MARRIAGE_MASKS: tuple[int, ...] = tuple(
    (1 << make_card(s, Rank.KING)) | (1 << make_card(s, Rank.OVER)) for s in Suit
)


_KINGS_OVERS: tuple[int, ...] = tuple(c for m in MARRIAGE_MASKS for c in range(32) if (m >> c) & 1)
KINGS_AND_OVERS = sum(MARRIAGE_MASKS)
"""The mask of every King and Over: all a hand's marriages depend on."""

MARRIED: dict[int, tuple[int, ...]] = {
    kept: tuple(s for s in range(4) if kept & MARRIAGE_MASKS[s] == MARRIAGE_MASKS[s])
    for n in range(len(_KINGS_OVERS) + 1)
    for kept in (sum(1 << c for c in cards) for cards in combinations(_KINGS_OVERS, n))
}
"""The suits married in each of the 256 sets of Kings and Overs, built once at import:
``MARRIED[hand & KINGS_AND_OVERS]`` is ``marriages_in(hand)`` where a call would cost more
than the look-up (the auction's legal lists)."""


def marriages_in(hand: int) -> tuple[int, ...]:
    """The suits in which ``hand`` holds both King and Over (one look-up: auctions ask often)."""
    return MARRIED[hand & KINGS_AND_OVERS]


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
    if info.trump_marriages and info.plain_marriages:
        needs = Said(
            "the King and Over of trumps (the trump marriage) and the King and Over of a "
            "suit that is not trumps (a side marriage)"
        )
    elif info.trump_marriages:
        needs = Said("the King and Over of trumps (the trump marriage)")
    else:
        needs = Said("the King and Over of a suit that is not trumps (a side marriage)")
    if len(suits) == 1:
        where = Said("with {suit} as trumps", suit=SUITS[suits[0]])
    else:
        named = Named(
            ", ".join(suit_id(s) for s in suits),
            {
                "hu": ", ".join(HU_SUIT_NAMES[Suit(s)].lower() for s in suits),
                "de": ", ".join(DE_SUIT_NAMES[Suit(s)] for s in suits),
            },
        )
        where = Said("with any suit you may name as trumps ({suits})", suits=named)
    return Said(
        "{bid} needs {needs} in the declarer's hand, {where}",
        bid=info.name,
        needs=needs,
        where=where,
    )
