"""The random bot: any legal action, for property tests and as a baseline.

It first picks a kind of action (bid, pass, pick up, discard, play, ...) uniformly,
then one action of that kind uniformly. Picking among all actions at once would let
the fifteen ways to call a kontra on a four-component bid crowd out the one way to
pass. Its own kontra calls are capped: where a kontra is legal it calls one (any of
them, uniformly) with probability ``KONTRA_CHANCE`` and otherwise leaves kontra
aside, so that the unlimited kontra chains of some rulesets stay short and
``ulti simulate --bot random`` totals stay sane. In the play, once no marriage or
kontra can be called, it takes the fast path: a random card of ``legal_card_list()``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

from ..engine.actions import PLAYS
from ..engine.phase import PLAY

if TYPE_CHECKING:
    from ..engine import Action, Hand

KONTRA_CHANCE = 0.1
"""How often the random bot calls a kontra where one is legal (else it does something else)."""


def _only_cards(hand: Hand) -> bool:
    """Whether the only legal actions now are cards (no kontra, marriage or give-up)."""
    if hand.phase != PLAY or not hand.tricks:
        return False  # the first trick: kontras, marriages, giving up
    return hand.trump is None or hand.ruleset.marriages.announce != "on_play"


class RandomBot:
    """Uniform over the kinds of legal action (a kontra only one time in ten), then over
    the actions of that kind."""

    name: ClassVar[str] = "random"
    description: ClassVar[str] = (
        "a random legal action (a kind of action, then one of its kind); kontra one time in ten"
    )

    def choose(self, hand: Hand, rng: random.Random) -> Action:
        if _only_cards(hand):
            cards = hand.legal_card_list()
            if cards:
                return PLAYS[rng.choice(cards)]
        return random_action(hand.legal_actions(), rng)


def random_action(actions: list[Action], rng: random.Random) -> Action:
    """A kind of action uniformly, then one of that kind (actions keep their order); a
    kontra only with probability ``KONTRA_CHANCE`` where one is legal."""
    kinds: dict[str, list[Action]] = {}
    for action in actions:
        kinds.setdefault(action.type, []).append(action)
    kontras = kinds.pop("kontra", None)
    if kontras is not None and (not kinds or rng.random() < KONTRA_CHANCE):
        return rng.choice(kontras)
    if len(kinds) == 1:
        (only,) = kinds.values()
        return rng.choice(only)
    return rng.choice(kinds[rng.choice(sorted(kinds))])
