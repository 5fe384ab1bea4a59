"""Building the facts and the contract at the end of a hand: what settlement reads.

Called once per hand (lazily, when ``Hand.facts`` is first read), never in the
trick loop. Facts are the same model the score keeper fills in from a real
table; the engine adds what only it knows (every trick, who took the aces).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Rank, Suit, make_card, suit_id
from ..facts import Contract, Facts, MarriageFact, TrickFact
from .masks import mask_of

if TYPE_CHECKING:
    from .hand import Hand


def _seats_in_order(hand: Hand, leader: int, count: int) -> list[int]:
    seats = [leader]
    while len(seats) < count:
        seats.append(hand.seats.after[seats[-1]])
    return seats


def build_facts(hand: Hand) -> Facts:
    """The facts of a hand played out to the last trick."""
    tables = hand._tables
    assert tables is not None and hand._declarer >= 0
    active = hand.seats.active
    declarer = hand._declarer
    trump = hand._trump
    seven = make_card(Suit(trump), Rank.SEVEN) if trump >= 0 else -1
    tricks: list[TrickFact] = []
    tricks_won = dict.fromkeys(active, 0)
    ace_winners: list[int] = []
    seven_seat = seven_trick = -1
    for number, (leader, cards, winner) in enumerate(hand._tricks):
        tricks.append(TrickFact(leader=leader, cards=cards, winner=winner))
        tricks_won[winner] += 1
        for seat, card in zip(_seats_in_order(hand, leader, len(cards)), cards, strict=True):
            if card & 7 == Rank.ACE:
                ace_winners.append(winner)
            if card == seven:
                seven_seat, seven_trick = seat, number
    last = hand._tricks[-1][2]
    card_points = {s: tables.points_of(hand._won[s]) for s in active}
    card_points[last] += hand.ruleset.points.last_trick
    return Facts(
        seats=active,
        declarer=declarer,
        trump=suit_id(trump) if trump >= 0 else None,
        tricks=tuple(tricks),
        tricks_won=tricks_won,
        card_points=card_points,
        declarer_points=card_points[declarer],
        defender_points=sum(p for s, p in card_points.items() if s != declarer),
        talon=hand._talon,
        talon_points=tables.points_of(mask_of(hand._talon)),
        marriages=tuple(
            MarriageFact(seat=seat, suit=suit_id(suit), value=value)
            for seat, suit, value in hand._marriages
        ),
        last_trick_winner=last,
        trump_seven_last_trick=seven_seat if seven_trick == len(hand._tricks) - 1 else None,
        trump_seven_early=seven_seat if 0 <= seven_trick < len(hand._tricks) - 1 else None,
        ace_winners=tuple(ace_winners),
    )


def build_contract(hand: Hand) -> Contract:
    """The winning bid, its trump and kontra levels, and how the hand ended."""
    info = hand._info
    assert info is not None
    auction = hand._auction
    return Contract(
        bid=info.id,
        declarer=hand._declarer,
        trump=suit_id(hand._trump) if hand._trump >= 0 else None,
        kontra=hand.kontra_levels,
        gave_up=hand._gave_up,
        uncontested=auction.uncontested,
        multiplier=auction.multiplier(),
        sitting_out=hand.seats.sitting_out,
    )
