"""Trick play on bit masks: the legal cards, and why a card is refused.

The rank tables (``game/ranks.py``) say for the card now winning the trick which
cards beat it; with them the duties of play (docs/rules.md#the-play: follow; if
void, trump; beat the best card when able) are a handful of ``&`` and ``|`` per card.
"""

from __future__ import annotations

from ..cards import card_name
from ..game.ranks import SUIT_MASKS, RankTables
from ..said import Said

__all__ = ["SUIT_MASKS", "RankTables", "legal_mask", "why_refused"]


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


SUITS: tuple[Said, ...] = (
    Said("acorns (Makk)"),
    Said("leaves (Zöld)"),
    Said("hearts (Piros)"),
    Said("bells (Tök)"),
)
"""Each suit as a refusal names it, by suit number: ``suit_label``'s words in English, and
the suit's own word in another language (``tök``, ``Schellen``)."""


def why_refused(t: RankTables, hand: int, led_mask: int, best: int, card: int) -> str:
    """The rule ``card`` breaks, given that it is not in the legal mask (and is held)."""
    follow = hand & led_mask
    if led_mask and follow and t.must_follow:
        if not (1 << card) & led_mask:
            return Said("must follow {suit}", suit=SUITS[led_mask.bit_length() // 8 - 1])
        return Said("must beat the {card}", card=card_name(best))
    trumps = hand & t.trump_mask
    if not (1 << card) & t.trump_mask:
        return Said(
            "must trump: no {led} in hand, and {trump} are trumps",
            led=SUITS[led_mask.bit_length() // 8 - 1],
            trump=SUITS[t.trump],
        )
    if trumps and t.beat[best] & trumps:
        return Said("must beat the {card}", card=card_name(best))
    return Said("that card may not be played now")
