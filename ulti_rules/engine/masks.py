"""Cards to bit masks and back, by table look-ups: the conversions every hand makes often.

A hand is a 32-bit mask (bit ``c`` = card ``c``). The tables here are constants
built at import, the same for every ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import Card

BITS: tuple[int, ...] = tuple(1 << c for c in range(32))
"""``BITS[c]``: the mask of card ``c`` alone."""

BYTE_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(8 * k + b for b in range(8) if (byte >> b) & 1) for byte in range(256))
    for k in range(4)
)
"""``BYTE_CARDS[suit][byte]``: the cards of one suit's byte of a mask, ascending."""


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, ascending, by four table look-ups (one per suit's byte)."""
    t = BYTE_CARDS
    return (
        t[0][mask & 255]
        + t[1][(mask >> 8) & 255]
        + t[2][(mask >> 16) & 255]
        + t[3][(mask >> 24) & 255]
    )


def mask_of_distinct(cards: Iterable[Card]) -> int:
    """The mask of distinct cards (as from a deal or a discard); ``cards.mask_of`` is the
    union of any cards, a card listed twice set once.

    The cards are distinct, so the sum of their bits is their union; ``sum`` over
    ``map`` runs in C, without a Python loop per card.
    """
    return sum(map(BITS.__getitem__, cards))
