"""Random play that checks, at every step, that legal_actions() and apply() agree.

Each listed action is applied to a copy and must be accepted (all of them up to the
end of the first trick, a sample after it); random actions that are not
listed must be refused with the hand unchanged. Shared by the tests of the settings
that change who may do what when (the opener, the kontra window, the bid marriage).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ulti_rules.engine import Hand
from ulti_rules.errors import IllegalAction
from ulti_rules.ruleset.schema import Ruleset

from engine_support import choose, clone, random_action, snapshot

RANDOM_HANDS = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
"""Twelve random hands per variant, the same ones every run."""
HAND_DRAWS = given(
    seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 2), choices=st.integers(0, 2**32)
)
"""A deal's seed, its dealer, and the seed of the random choices."""


def play_checking_every_step(ruleset: Ruleset, seed: int, dealer: int, rng: random.Random) -> Hand:
    hand = Hand(ruleset, seed=seed, dealer=dealer)
    steps = 0
    while not hand.is_over:
        steps += 1
        assert steps < 500, "a hand always ends"
        legal = hand.legal_actions()
        assert legal, f"the seat to act always has an action ({hand.step})"
        every = hand.phase != "play" or not hand.tricks  # every action up to trick 2
        for action in legal if every else rng.sample(legal, min(len(legal), 4)):
            clone(hand).apply(action)  # an IllegalAction here: the two disagree
        before = None  # taken once: each refusal is checked to leave the hand as it was
        for _ in range(3 if every else 1):
            probe = random_action(rng, hand)
            if probe in legal:
                continue
            before = before or snapshot(hand)
            with pytest.raises(IllegalAction):
                hand.apply(probe)
            assert snapshot(hand) == before, f"refusing {probe} changed the hand"
        hand.apply(choose(rng, legal))
    return hand
