"""What a player remembers of the play: cards gone, suits a player has shown out of, and
so the cards each other seat may still hold.

A club player counts cards: every card played is gone; a player who did not follow
the suit led holds none of it (and, where one must trump, no trump either); one who
followed below the best card holds none of the suit above it (one must beat when one
can); an open contract's exposed hand is known exactly. Everything comes from the
seat's own observation, so the bot stays fair.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import ALL_CARDS_MASK, mask_of, suit_number
from ..engine.observation import Observation
from ..game import Game
from ..game.ranks import SUIT_MASKS
from .suit_order import SuitOrder, suit_order


@dataclass(slots=True)
class CardCount:
    """One seat's knowledge at a card decision."""

    seat: int
    declarer: int
    trump: int
    """The trump suit number, -1 without trumps."""
    order: SuitOrder
    mine: int
    """This seat's cards as a mask."""
    played: int
    """Every card played so far (the trick in progress included)."""
    possible: dict[int, int]
    """Each other active seat: the cards it may hold."""
    sizes: dict[int, int]
    """Each active seat: how many cards it holds."""
    after: tuple[int, ...]
    """``after[seat]``: who plays after ``seat``."""
    trick: tuple[int, ...]
    """The cards of the trick in progress, the leader's first."""
    leader: int
    """The seat that led (or leads) the trick in progress."""
    trick_no: int
    """Tricks completed before this one (0 at the first trick)."""

    @property
    def is_declarer(self) -> bool:
        return self.seat == self.declarer

    def opponents(self) -> tuple[int, ...]:
        """The seats playing against this one."""
        if self.is_declarer:
            return tuple(self.possible)
        return (self.declarer,)

    def partner(self) -> int | None:
        """The other defender, for a defender; None for the declarer."""
        if self.is_declarer:
            return None
        return next((s for s in self.possible if s != self.declarer), None)

    def still_to_play(self) -> tuple[int, ...]:
        """The seats after this one in the trick in progress."""
        count = len(self.sizes) - len(self.trick) - 1
        found = []
        seat = self.seat
        for _ in range(count):
            seat = self.after[seat]
            found.append(seat)
        return tuple(found)

    def seat_of(self, index: int) -> int:
        """Who played the ``index``-th card of the trick in progress."""
        seat = self.leader
        for _ in range(index):
            seat = self.after[seat]
        return seat

    def outside(self) -> int:
        """The cards neither in this hand nor played: in the other hands (or the talon)."""
        found = 0
        for mask in self.possible.values():
            found |= mask
        return found


def count_cards(obs: Observation, game: Game) -> CardCount:
    """What ``obs.seat`` knows about the cards now (the play phase)."""
    assert obs.declarer is not None
    trump = suit_number(obs.trump) if obs.trump is not None else -1
    order = suit_order(game, trump)
    tables = order.tables
    beat, trump_mask = tables.beat, tables.trump_mask
    after = game.seating(obs.dealer).after
    mine = mask_of(obs.hand)
    played = 0
    void = dict.fromkeys(obs.active_seats, 0)
    tricks = [(t.leader, t.cards) for t in obs.tricks]
    current = obs.current_trick
    if current is not None:
        tricks.append((current.leader, current.cards))
    for leader, cards in tricks:
        led = SUIT_MASKS[cards[0] >> 3]
        best = cards[0]
        seat = leader
        played |= 1 << cards[0]
        for card in cards[1:]:
            seat = after[seat]
            bit = 1 << card
            played |= bit
            if not bit & led:
                if tables.must_follow:
                    void[seat] |= led  # did not follow
                    if trump_mask and not bit & trump_mask and tables.must_trump:
                        void[seat] |= trump_mask  # nor trump
                    elif bit & trump_mask and tables.must_beat and not bit & beat[best]:
                        void[seat] |= beat[best] & trump_mask  # trumped low: none higher
            elif tables.must_beat and not bit & beat[best] and (1 << best) & led:
                void[seat] |= beat[best] & led  # followed below the best: none above it
            if bit & beat[best]:
                best = card
    known = mine | played | mask_of(obs.talon or ())
    exposed = {seat: mask_of(cards) for seat, cards in obs.exposed.items() if seat != obs.seat}
    for mask in exposed.values():
        known |= mask
    unknown = ALL_CARDS_MASK & ~known
    possible = {
        seat: exposed[seat] if seat in exposed else unknown & ~void[seat]
        for seat in obs.active_seats
        if seat != obs.seat
    }
    leader = current.leader if current is not None else obs.seat
    return CardCount(
        seat=obs.seat,
        declarer=obs.declarer,
        trump=trump,
        order=order,
        mine=mine,
        played=played,
        possible=possible,
        sizes=dict(obs.hand_sizes),
        after=after,
        trick=current.cards if current is not None else (),
        leader=leader,
        trick_no=len(obs.tricks),
    )
