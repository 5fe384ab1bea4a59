"""The simple bidder: a cheap bidding policy and random play, for simulations and the benchmark.

* Forehand opens with the second-lowest bid he may make (the lowest where only one).
* A later seat picks the talon up (or, where no talon is taken, bids straight away)
  with probability 1/4, then bids the lowest bid he may; otherwise he passes.
* After a pick-up he discards two random cards that leave him a bid.
* In round 1 of a two-round auction he passes with probability 1/2 where he may,
  else bids the lowest bid; the round-1 winner confirms his bid.
* Trump: a random suit among those offered. He never gives up.
* Marriages only when they are due; kontras never (he passes in the kontra round).
* Cards: a random legal card, by the fast path.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

from ..engine.actions import PASS, PLAYS, Announce, Bid, DeclareTrump, Pass, PickUp
from ..engine.phase import BID, DISCARD, KONTRA, PLAY, ROUND1, ROUND1_TRUMP, SPEAK, TRUMP

if TYPE_CHECKING:
    from ..engine import Action, Hand

PICK_UP_CHANCE = 0.25
ROUND1_PASS_CHANCE = 0.5


class SimpleBidder:
    """Bids low and seldom, plays random legal cards."""

    name: ClassVar[str] = "simple"
    description: ClassVar[str] = (
        "opens low, overcalls with the lowest bid one time in four, plays random legal cards"
    )
    random_cards: ClassVar[bool] = True
    """Every card is ``rng.choice(hand.legal_card_list())``: ``play_out`` may inline it."""

    def choose(self, hand: Hand, rng: random.Random) -> Action:
        phase = hand.phase
        if phase == PLAY:
            cards = hand.legal_card_list()
            if cards:
                return PLAYS[rng.choice(cards)]
            # No card may be played: a marriage is due first.
            return next(a for a in hand.legal_actions() if type(a) is Announce)
        if phase == KONTRA:
            return PASS
        if phase == TRUMP:
            return rng.choice([a for a in hand.legal_actions() if type(a) is DeclareTrump])
        return self._auction(hand, rng)

    def _auction(self, hand: Hand, rng: random.Random) -> Action:
        step = hand.step
        if step == SPEAK:
            # Draw first, list the legal actions only to take: the same choices (listing
            # draws nothing), and three speakers in four never build the list.
            if rng.random() < PICK_UP_CHANCE:
                actions = hand.legal_actions()
                taken = next((a for a in actions if type(a) is PickUp), None) or next(
                    (a for a in actions if type(a) is Bid), None
                )
                if taken is not None:
                    return taken
            if hand.bid is not None:
                return PASS  # a pass is always allowed once someone has bid
            # Nobody has bid yet (the opener speaks without a talon in his hand): pass
            # only where the ruleset lets him, else open as forehand does.
        actions = hand.legal_actions()
        if step in (DISCARD, ROUND1_TRUMP):
            return rng.choice(actions)
        bids = [a for a in actions if type(a) is Bid]
        # Where every action is a bid (the usual case) there is no pass to look for.
        may_pass = len(bids) < len(actions) and any(type(a) is Pass for a in actions)
        if step == ROUND1 and may_pass and rng.random() < ROUND1_PASS_CHANCE:
            return PASS
        if not bids:
            return PASS if may_pass else rng.choice(actions)
        if step == BID and hand.bid is None and len(bids) > 1:
            return bids[1]  # the opening bid
        return bids[0]
