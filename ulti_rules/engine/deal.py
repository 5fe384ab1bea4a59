"""Seats and the deal: who plays, in which order, and which cards each receives.

Seats are table positions ``0..n-1``. "To the right" (the direction of dealing,
bidding and play, C9) is ``seat + 1`` for the usual counter-clockwise game and
``seat - 1`` for a table that plays clockwise. With four players the dealer sits
out and receives no cards. Forehand is the first active seat to the dealer's
right: he receives the most cards and speaks first.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from ..cards import Card, CardParseError, format_cards, mask_of, parse_card, parse_cards
from ..errors import UltiError
from ..ruleset.schema import Ruleset


class BadDeal(UltiError):
    """An explicit deal or a dealer seat that the ruleset cannot play; says what is wrong."""


@dataclass(frozen=True)
class Seating:
    """The table for one hand: player count, dealer, and the active seats in order."""

    players: int
    dealer: int
    active: tuple[int, ...]
    """The seats that play, forehand first, in the direction of play."""
    step: int
    """+1 counter-clockwise ("to the right"), -1 clockwise."""
    after: tuple[int, ...]
    """``after[seat]``: the active seat that speaks or plays after ``seat``."""

    @property
    def forehand(self) -> int:
        return self.active[0]

    @property
    def sitting_out(self) -> int | None:
        return self.dealer if self.players > len(self.active) else None

    def check(self, seat: object) -> None:
        """ValueError unless ``seat`` is a seat at this table (an int, not a bool)."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat!r} at this table (seats 0 to {self.players - 1})")

    def next(self, seat: int) -> int:
        """The active seat that speaks or plays after ``seat``."""
        return self.after[seat]


_SEATING: dict[tuple[int, str, int], Seating] = {}


def seating(ruleset: Ruleset, dealer: int) -> Seating:
    """The table for a hand dealt by ``dealer`` (cached: it depends on three values)."""
    n = ruleset.players.count
    # The exact type first: True == 1 would find seat 1's table in the cache.
    if type(dealer) is not int or not 0 <= dealer < n:
        raise BadDeal(f"the dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
    key = (n, ruleset.direction, dealer)
    hit = _SEATING.get(key)
    if hit is not None:
        return hit
    step = 1 if ruleset.direction == "counter_clockwise" else -1
    order = [(dealer + step * k) % n for k in range(1, n + 1)]
    active = tuple(s for s in order if n == 3 or s != dealer)
    after = [0] * n
    for i, seat in enumerate(active):
        after[seat] = active[(i + 1) % len(active)]
    _SEATING[key] = Seating(n, dealer, active, step, tuple(after))
    return _SEATING[key]


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


def _pattern(ruleset: Ruleset) -> tuple[list[int], int]:
    """Cards per active seat (forehand first) and cards left over, for this ruleset."""
    two = ruleset.auction.two_round
    if two is not None:
        return [10] * 3, 2
    per_seat = [sum(col) for col in zip(*ruleset.deal.packets, strict=False)]
    return per_seat, 32 - sum(per_seat)


def deal_cards(ruleset: Ruleset, seats: Seating, seed: int | str | None) -> Deal:
    """Shuffle with ``random.Random(seed)`` and deal by the ruleset's packets."""
    deck = list(range(32))
    random.Random(seed).shuffle(deck)
    takes, take_rest = _deal_plan(ruleset, seats)
    return Deal(tuple([take(deck) for take in takes]), take_rest(deck))


def _deal_in_order(ruleset: Ruleset, seats: Seating, deck: list[Card]) -> Deal:
    """Deal ``deck`` from the top by the ruleset's packets (or the two-round pattern)."""
    hands: list[list[Card]] = [[] for _ in range(seats.players)]
    pos = 0
    two = ruleset.auction.two_round
    if two is not None:
        # Round 1: first_round_cards each; the two extra cards wait for the round-1
        # winner; then the rest of each hand. Each list keeps its dealing order.
        first = two.first_round_cards
        for seat in seats.active:
            hands[seat].extend(deck[pos : pos + first])
            pos += first
        rest = deck[pos : pos + 2]
        pos += 2
        more = 10 - first
        for seat in seats.active:
            hands[seat].extend(deck[pos : pos + more])
            pos += more
        return Deal(tuple(tuple(h) for h in hands), tuple(rest))
    for packet in ruleset.deal.packets:
        for seat, count in zip(seats.active, packet, strict=True):
            hands[seat].extend(deck[pos : pos + count])
            pos += count
    return Deal(tuple(tuple(h) for h in hands), tuple(deck[pos:]))


Take = Callable[[list[Card]], tuple[Card, ...]]

_PLANS: dict[tuple[int, int], tuple[Ruleset, tuple[tuple[Take, ...], Take]]] = {}


def _deal_plan(ruleset: Ruleset, seats: Seating) -> tuple[tuple[Take, ...], Take]:
    """For each seat, and for the rest: a function taking its cards from a shuffled deck.

    Dealing the unshuffled deck shows which deck positions each seat receives; an
    ``itemgetter`` of those positions then deals any shuffled deck in one C call.
    Built once per ruleset and dealer.
    """
    key = (id(ruleset), seats.dealer)
    hit = _PLANS.get(key)
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    positions = _deal_in_order(ruleset, seats, list(range(32)))
    plan = (tuple(_take(p) for p in positions.hands), _take(positions.rest))
    _PLANS[key] = (ruleset, plan)
    return plan


def _take(positions: tuple[int, ...]) -> Take:
    """The cards at ``positions`` of a deck, as a tuple (itemgetter returns a bare item for one)."""
    if len(positions) > 1:
        return itemgetter(*positions)
    return lambda deck: tuple(deck[p] for p in positions)


def check_deal(
    ruleset: Ruleset, seats: Seating, hands: Sequence[Sequence[Card]], rest: Sequence[Card]
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
    per_seat, left = _pattern(ruleset)
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
