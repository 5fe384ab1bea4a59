"""The club bot: bids from an evaluation of its hand, plays like a club player.

Each decision reads the seat's own observation (``hand.observation(seat)``) and its
legal actions, nothing else, and hands it to the module that knows that part of the
game: ``bidding`` (the auction, the trump, giving up), ``talon`` (the discard),
``kontra_calls`` (kontra and rekontra), ``card_play`` (the cards, with what
``card_count`` remembers). Marriages are announced as soon as they may be: each
counts for its side. Ties are broken by ``rng``, so a seed repeats a game exactly.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

from ..engine.actions import PASS, PLAYS, Announce, Discard, GiveUp, Play
from ..engine.observation import Observation
from ..engine.phase import (
    AUCTION,
    CONFIRM,
    DISCARD,
    KONTRA,
    PLAY,
    ROUND1,
    ROUND1_TRUMP,
    SPEAK,
    TRUMP,
)
from ..game import Game
from .bid_shape import bid_shapes
from .bidding import (
    choose_bid,
    choose_speech,
    choose_trump,
    first_round,
    gives_up,
    plan_discard,
)
from .card_count import count_cards
from .card_play import Mode, PlayPlan, choose_card
from .kontra_calls import choose_kontra

if TYPE_CHECKING:
    from ..engine import Action, Hand


class ClubPlayer:
    """Bids what its hand is worth, doubles only on strength, and plays sensibly."""

    name: ClassVar[str] = "club"
    description: ClassVar[str] = "bids from an evaluation of its hand, plays like a club player"
    doubles: ClassVar[bool] = True
    """Whether it calls kontras (``benchmarks/fit_club_bot.py`` plays without: a kontra
    changes no card, only the stakes)."""

    def choose(self, hand: Hand, rng: random.Random) -> Action:
        seat = hand.current_player
        assert seat is not None
        if _one_card(hand):  # nothing to decide: its only legal action
            return PLAYS[hand.legal_card_list()[0]]
        obs = hand.observation(seat)
        game = hand.game
        actions = obs.legal_actions
        phase = obs.phase
        if phase == AUCTION:
            return self._auction(game, obs, rng)
        if phase == TRUMP:
            return choose_trump(game, obs, actions, rng)
        if phase == KONTRA:
            return (choose_kontra(game, obs, actions) if self.doubles else None) or PASS
        announce = next((a for a in actions if type(a) is Announce), None)
        if announce is not None:
            return announce
        if not obs.tricks:
            kontra = choose_kontra(game, obs, actions) if self.doubles else None
            if kontra is not None:
                return kontra
            if any(type(a) is GiveUp for a in actions) and gives_up(game, obs):
                return next(a for a in actions if type(a) is GiveUp)
        cards = [a.card for a in actions if type(a) is Play]
        card = choose_card(count_cards(obs, game), cards, play_plan(game, obs), rng)
        return PLAYS[card]

    def _auction(self, game: Game, obs: Observation, rng: random.Random) -> Action:
        actions = obs.legal_actions
        step = obs.step
        if step == DISCARD:
            discards = [a for a in actions if type(a) is Discard]
            return plan_discard(game, obs, discards, rng)
        if step == SPEAK:
            return choose_speech(game, obs, actions, rng)
        if step == ROUND1:
            return first_round(game, actions)
        if step == ROUND1_TRUMP:
            return choose_trump(game, obs, actions, rng)
        two = game.ruleset.auction.two_round
        if step == CONFIRM and two is not None:
            return choose_bid(
                game, obs, actions, rng, multiplier_for=obs.bid, multiplier=two.multiplier
            )
        return choose_bid(game, obs, actions, rng)


def _one_card(hand: Hand) -> bool:
    """Whether the one legal action now is a single card: after the first trick (no kontra,
    no give-up), where marriages are not announced with a card."""
    if hand.phase != PLAY or not hand.tricks:
        return False
    if hand.trump is not None and hand.ruleset.marriages.announce == "on_play":
        return False
    return len(hand.legal_card_list()) == 1


def play_plan(game: Game, obs: Observation) -> PlayPlan:
    """What the hand is about for the seat to play: the bid's game, still alive or not."""
    assert obs.bid is not None and obs.declarer is not None
    shape = bid_shapes(game)[obs.bid]
    declarer = obs.declarer
    won = [t.winner == declarer for t in obs.tricks]
    mode: Mode = "points"
    if shape.has("betli") and not any(won):
        mode = "betli"
    elif (shape.has("durchmars") or shape.has("unknown")) and all(won):
        mode = "durchmars"
    seven = _silent_seven(game, obs.bid)
    me_declarer = obs.seat == declarer
    scored = obs.trump is not None and (
        (me_declarer and seven == "declarer" and not shape.has("ulti"))
        or (not me_declarer and seven == "either_side")
    )
    return PlayPlan(mode, shape.has("ulti"), scored)


def _silent_seven(game: Game, bid: str) -> str | None:
    """Who a silent Ulti is scored for in this bid: 'declarer', 'either_side' or None."""

    def build() -> str | None:
        ruleset, kinds = game.ruleset, game.registry.kinds
        for bonus_id in game.silent_values(bid):
            bonus = ruleset.silent_bonuses[bonus_id]
            kind = kinds.get(bonus.condition)
            if kind is not None and kind.keeps_trump_seven:
                return bonus.scored_by
        return None

    return game.derived(("club bot", "silent seven", bid), build)
