"""The deal: the cards each seat receives, shuffled from a seed or given explicitly.

Who sits where and which deck positions each seat receives are the game's
(``game/seating.py``, ``game/deal_plan.py``); this module shuffles, checks an
explicit deal against the ruleset, and reads cards given as notation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from ..cards import Card, CardParseError, format_cards, mask_of, parse_card, parse_cards
from ..game import BadDeal, Game, Seating
from ..seeding import seeded

__all__ = ["BadDeal", "Deal", "Seating", "check_deal", "deal_cards", "read_cards"]


@dataclass(frozen=True)
class Deal:
    """The cards as dealt: one list per seat (empty for a dealer who sits out) and the rest.

    ``rest`` holds the cards that are not in any hand after the deal: the talon set
    aside (IT), the two cards out of play (no talon), or the two-round auction's two
    extra cards for the round-1 winner. With the usual deal (talon to forehand)
    forehand holds 12 and ``rest`` is empty.

    In a two-round auction each seat's list is in dealing order: the first
    ``first_round_cards`` are its round-1 cards.
    """

    hands: tuple[tuple[Card, ...], ...]
    rest: tuple[Card, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """Plain data for a hand record: each hand and the rest in card notation."""
        return {
            "hands": [format_cards(h) for h in self.hands],
            "rest": format_cards(self.rest),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Deal:
        """Read ``to_dict`` output (cards as notation strings, lists of them, or ints).

        Only the shape is read here; ``Hand`` checks the deal against its ruleset.
        """
        try:
            hands, rest = data["hands"], data.get("rest", "")
        except (KeyError, TypeError, AttributeError):
            raise BadDeal("a deal is a mapping with 'hands' (one per seat) and 'rest'") from None
        if isinstance(hands, str) or not isinstance(hands, Sequence):
            raise BadDeal("'hands' must list one hand per seat")
        return cls(tuple(tuple(read_cards(h)) for h in hands), tuple(read_cards(rest)))


def read_cards(cards: object) -> list[Card]:
    """Cards given as notation (``"MA ZX"``), or a list of notation strings or ints."""
    try:
        if isinstance(cards, str):
            return parse_cards(cards)
        if not isinstance(cards, Sequence):
            raise BadDeal(f"not a list of cards: {cards!r}")
        return [parse_card(c) if isinstance(c, str) else c for c in cards]
    except CardParseError as exc:
        raise BadDeal(f"bad card in the deal: {exc}") from None


_BaseRandom = Random.__mro__[1]
"""``random.Random``'s base class, the Mersenne Twister in C (``_random.Random``)."""

_SHUFFLE_STEPS: tuple[tuple[int, int], ...] = tuple(
    (i, (i + 1).bit_length()) for i in reversed(range(1, 32))
)
"""``random.shuffle``'s steps over a deck of 32: the place filled, the bits drawn for it."""


def shuffled_deck(seed: int | str | None) -> list[Card]:
    """The 32 cards as ``seeded(seed).shuffle(list(range(32)))`` leaves them (``random.Random``
    but for a negative seed, ``seeding.py``).

    ``random.shuffle``'s own algorithm (the same in CPython 3.10 to 3.13; a test holds it
    to it), its ``_randbelow`` inlined: every hand is shuffled, and those 31 method calls
    cost about a sixth of a new hand. Each place ``i`` from the top takes the card at a
    place ``j <= i``, drawn from as many bits as ``i + 1`` has, again while ``j > i``.
    """
    deck = list(range(32))
    # A seed that is an int and not negative is seeded as ``random.Random`` seeds it, by
    # its C base class: made directly, it skips two Python-level calls (a sixth of the
    # seeding, which is most of a shuffle).
    draw = (_BaseRandom(seed) if type(seed) is int and seed >= 0 else seeded(seed)).getrandbits
    for i, bits in _SHUFFLE_STEPS:
        j = draw(bits)
        while j > i:
            j = draw(bits)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_cards(game: Game, seats: Seating, seed: int | str | None) -> Deal:
    """Shuffle with ``seeding.seeded(seed)`` and deal by the ruleset's packets."""
    deck = shuffled_deck(seed)
    takes, take_rest = game.deal_plan(seats.dealer)
    return Deal(tuple([take(deck) for take in takes]), take_rest(deck))


def check_deal(
    game: Game, seats: Seating, hands: Sequence[Sequence[Card]], rest: Sequence[Card]
) -> Deal:
    """Validate an explicit deal: 32 distinct cards, the counts the ruleset deals.

    With the talon dealt to forehand, forehand may be given 12 cards (``rest``
    empty) or 10 cards with the two talon cards in ``rest``; they are joined.
    """
    if len(hands) != seats.players:
        raise BadDeal(f"the deal must list {seats.players} hands, one per seat, not {len(hands)}")
    all_cards = [c for h in hands for c in h] + list(rest)
    for card in all_cards:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 32:
            raise BadDeal(f"the deal holds {card!r}, which is not a card")
    if len(all_cards) != 32 or mask_of(all_cards) != (1 << 32) - 1:
        missing = sorted(set(range(32)) - set(all_cards))
        doubled = sorted({c for c in all_cards if all_cards.count(c) > 1})
        raise BadDeal(
            "the deal must hold each of the 32 cards exactly once"
            + (f"; missing {format_cards(missing)}" if missing else "")
            + (f"; twice {format_cards(doubled)}" if doubled else "")
        )
    ruleset = game.ruleset
    per_seat, left = game.deal_pattern
    fixed = [tuple(h) for h in hands]
    rest_t = tuple(rest)
    talon_to_forehand = ruleset.auction.two_round is None and ruleset.deal.talon == "forehand"
    if talon_to_forehand and len(fixed[seats.forehand]) == 10 and len(rest_t) == 2:
        fixed[seats.forehand] = fixed[seats.forehand] + rest_t
        rest_t = ()
    sitting = seats.sitting_out
    if sitting is not None and fixed[sitting]:
        raise BadDeal(f"seat {sitting} deals and sits out, so it holds no cards")
    for seat, count in zip(seats.active, per_seat, strict=True):
        if len(fixed[seat]) != count:
            raise BadDeal(f"seat {seat} must be dealt {count} cards, not {len(fixed[seat])}")
    if len(rest_t) != left:
        raise BadDeal(f"the deal must leave {left} cards beside the hands, not {len(rest_t)}")
    return Deal(tuple(fixed), rest_t)
