"""Seats and direction: who plays, in which order. The one derivation engine and scoring share.

Seats are table positions ``0..n-1``. "To the right" (the direction of dealing,
bidding and play) is ``seat + 1`` for the usual counter-clockwise game and
``seat - 1`` for a table that plays clockwise. With four players the dealer sits
out and receives no cards. Forehand is the first active seat to the dealer's
right: he receives the most cards and speaks first.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def direction_step(ruleset: Ruleset) -> int:
    """+1: the deal and play pass to the next seat number (counter-clockwise); -1 clockwise."""
    return 1 if ruleset.direction == "counter_clockwise" else -1


def check_dealer(ruleset: Ruleset, dealer: object) -> int:
    """``dealer`` as a seat of this table; BadDeal otherwise (a bool is no seat)."""
    n = ruleset.players.count
    if type(dealer) is not int or not 0 <= dealer < n:
        raise BadDeal(f"the dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
    return dealer


def dealer_after(ruleset: Ruleset, first: int, passes: int) -> int:
    """Who deals once the deal has passed on ``passes`` times from seat ``first``: it
    passes to the next seat in the direction of play (``direction_step``) after every deal
    that is not dealt again. The rotation the ledger and the studies ask."""
    return passed_on(first, passes, direction_step(ruleset), ruleset.players.count)


def passed_on(first: int, passes: int, step: int, players: int) -> int:
    """The seat ``passes`` seats on from ``first`` by ``step`` (+1 or -1) at a table of
    ``players``: the one formula of the rotation (``dealer_after`` gives it a ruleset's
    direction and table)."""
    return (first + step * passes) % players


def dealer_with_forehand(ruleset: Ruleset, forehand: int) -> int:
    """The dealer of the hand whose forehand is ``forehand``: :func:`build_seating` asked
    for each dealer seat; BadDeal if no dealer's table has that forehand."""
    for dealer in range(ruleset.players.count):
        if build_seating(ruleset, dealer).forehand == forehand:
            return dealer
    raise BadDeal(f"no dealer has forehand {forehand!r} at this table")


def build_seating(ruleset: Ruleset, dealer: int) -> Seating:
    """The table for a hand dealt by ``dealer``: forehand first, the dealer out with four."""
    n = ruleset.players.count
    check_dealer(ruleset, dealer)
    step = direction_step(ruleset)
    order = [(dealer + step * k) % n for k in range(1, n + 1)]
    active = tuple(s for s in order if n == 3 or s != dealer)
    after = [0] * n
    for i, seat in enumerate(active):
        after[seat] = active[(i + 1) % len(active)]
    return Seating(n, dealer, active, step, tuple(after))
