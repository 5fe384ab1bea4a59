"""Which deck positions each seat receives: the ruleset's packets (or the two-round pattern).

Dealing the unshuffled deck once per dealer shows which positions of a shuffled
deck each seat gets; dealing any deck is then one ``itemgetter`` call per seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TypeVar

from ..ruleset.schema import Ruleset
from .seating import Seating

T = TypeVar("T")
Take = Callable[[Sequence[int]], tuple[int, ...]]


def deal_pattern(ruleset: Ruleset) -> tuple[tuple[int, ...], int]:
    """Cards per active seat (forehand first) and cards left over beside the hands."""
    if ruleset.auction.two_round is not None:
        return (10, 10, 10), 2
    per_seat = tuple(sum(col) for col in zip(*ruleset.deal.packets, strict=False))
    return per_seat, 32 - sum(per_seat)


def deal_in_order(
    ruleset: Ruleset, seats: Seating, deck: Sequence[T]
) -> tuple[tuple[tuple[T, ...], ...], tuple[T, ...]]:
    """Deal ``deck`` from the top: each seat's cards in dealing order, and the rest.

    In a two-round auction each seat first gets ``first_round_cards``, then two
    cards wait for the round-1 winner, then the rest of each hand follows.
    """
    hands: list[list[T]] = [[] for _ in range(seats.players)]
    pos = 0
    two = ruleset.auction.two_round
    if two is not None:
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
        return tuple(tuple(h) for h in hands), tuple(rest)
    for packet in ruleset.deal.packets:
        for seat, count in zip(seats.active, packet, strict=True):
            hands[seat].extend(deck[pos : pos + count])
            pos += count
    return tuple(tuple(h) for h in hands), tuple(deck[pos:])


def deal_plan(ruleset: Ruleset, seats: Seating) -> tuple[tuple[Take, ...], Take]:
    """For each seat, and for the rest: a function taking its cards from a shuffled deck."""
    hands, rest = deal_in_order(ruleset, seats, range(32))
    return tuple(_take(p) for p in hands), _take(rest)


def _take(positions: tuple[int, ...]) -> Take:
    """The cards at ``positions`` of a deck, as a tuple (itemgetter returns a bare item for one)."""
    if len(positions) > 1:
        getter: Take = itemgetter(*positions)
        return getter
    return lambda deck: tuple(deck[p] for p in positions)
