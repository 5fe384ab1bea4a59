"""A plain-Python reference for the play phase: the yardstick of the engine's playouts.

Ten tricks on bit masks with random legal cards and nothing else: no history, no
checks of the caller, no kontra round, no facts. It plays from the same cards as an
engine hand about to lead its first trick, and makes the same random choices (one
``rng.choice`` per card among the legal cards in ascending order, as
``rng.choice(hand.legal_card_list())`` does), so it must produce the engine's
tricks; ``tests/test_benchmark.py`` checks that it does. ``bench_engine.py
--compare`` times the two side by side (docs/performance.md).

Its rank tables are built here from the ruleset's rank orders, not borrowed from
the engine, so that the comparison also checks the engine's trick rules. The duties are
following suit, trumping and beating, as the ruleset sets them: all that the benchmark's
contract (Simple Hearts: no trump 7 to keep, no marriage due) asks of a card.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ulti_rules.cards import RANK_IDS, make_card, suit_mask, suit_number
from ulti_rules.engine import Hand
from ulti_rules.ruleset.schema import Ruleset

Trick = tuple[int, tuple[int, ...], int]
"""(leader, cards in playing order, winner), as ``Hand.tricks`` gives them."""

_BYTE_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * k + b for b in range(8) if (byte >> b) & 1) for byte in range(256))
    for k in range(4)
)
"""``_BYTE_CARDS[suit][byte]``: the cards of one suit's byte of a mask, ascending."""


@dataclass(frozen=True)
class Rules:
    """What the reference loop needs of a ruleset and a trump suit."""

    beat: tuple[int, ...]
    """``beat[c]``: the cards that beat ``c`` when it is the best card of the trick."""
    suit_masks: tuple[int, ...]
    trump_mask: int
    must_follow: bool
    must_trump: bool
    must_beat: bool


def rules_for(ruleset: Ruleset, trump: int) -> Rules:
    """The beat table and duties of ``ruleset`` with ``trump`` (a suit number, -1: none)."""
    ranks = ruleset.ranks
    trump_mask = suit_mask(trump) if trump >= 0 else 0
    beat = [0] * 32
    for suit in range(4):
        if trump < 0:
            order = ranks.no_trump
        elif suit == trump:
            order = ranks.trump_game
        else:
            order = ranks.trump_game_side_suits
        higher = 0
        for rank_id in order:  # high to low
            card = make_card(suit, RANK_IDS[rank_id])  # type: ignore[arg-type]
            beat[card] = higher | (trump_mask if suit != trump else 0)
            higher |= 1 << card
    play = ruleset.play
    return Rules(
        tuple(beat),
        tuple(suit_mask(s) for s in range(4)),
        trump_mask,
        play.must_follow,
        play.must_trump,
        play.must_beat,
    )


@dataclass(frozen=True)
class Start:
    """The cards and seats of a hand about to lead its first trick."""

    hands: tuple[int, ...]
    """Per seat, the mask of its cards (0 for a seat that sits out)."""
    leader: int
    after: tuple[int, ...]
    """``after[seat]``: the seat that plays after ``seat``."""
    players: int
    """How many seats play a card to each trick."""
    trump: int


def start_of(hand: Hand) -> Start:
    """The starting position of ``hand``, which must be about to lead trick 1."""
    seats = hand.seats
    hands = tuple(sum(1 << c for c in hand.cards(s)) for s in range(seats.players))
    leader = hand.current_player
    assert leader is not None and not hand.tricks and not hand.current_trick[1]
    trump = suit_number(hand.trump) if hand.trump is not None else -1
    return Start(hands, leader, seats.after, len(seats.active), trump)


def play(start: Start, rules: Rules, rng: random.Random) -> list[Trick]:
    """The ten tricks of random legal play from ``start``: the reference loop itself."""
    hands = list(start.hands)
    after = start.after
    beat, suits, trumps = rules.beat, rules.suit_masks, rules.trump_mask
    follow_duty, trump_duty, beat_duty = rules.must_follow, rules.must_trump, rules.must_beat
    b0, b1, b2, b3 = _BYTE_CARDS
    choice = rng.choice
    leader = start.leader
    tricks: list[Trick] = []
    for _ in range(10):
        seat = leader
        hand = hands[seat]
        card = choice(
            b0[hand & 255] + b1[(hand >> 8) & 255] + b2[(hand >> 16) & 255] + b3[hand >> 24]
        )
        hands[seat] = hand ^ (1 << card)
        led = suits[card >> 3]
        best, winner = card, seat
        cards = [card]
        for _ in range(start.players - 1):
            seat = after[seat]
            hand = hands[seat]
            legal = hand & led
            if legal and follow_duty:
                if beat_duty:
                    legal = legal & beat[best] or legal
            else:
                legal = hand & trumps
                if legal and trump_duty and not (hand & led):
                    if beat_duty:
                        legal = legal & beat[best] or legal
                else:
                    legal = hand
            card = choice(
                b0[legal & 255] + b1[(legal >> 8) & 255] + b2[(legal >> 16) & 255] + b3[legal >> 24]
            )
            hands[seat] = hand ^ (1 << card)
            if (beat[best] >> card) & 1:
                best, winner = card, seat
            cards.append(card)
        tricks.append((leader, tuple(cards), winner))
        leader = winner
    return tricks
