"""Property tests over random legal play, for every bundled ruleset and a few variants.

Each example deals a seeded hand and plays it to the end with a random policy.
Along the way a random action is tried at every step: if it is not listed as
legal it must be refused with the hand unchanged; now and then every listed
action is applied to a copy and must be accepted. At the end an independent
checker re-derives every trick, and the same seed and actions must give the
identical history and facts.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ulti_rules.engine import Hand, action_from_dict
from ulti_rules.errors import IllegalAction
from ulti_rules.plugins import get_registry
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.ruleset.schema import Ruleset

from engine_checker import check_played_hand
from engine_fixtures import fixture_ruleset
from engine_support import choose, clone, random_action, snapshot

BUNDLED = ("wikipedia", "tournament", "older-20-100", "four-player", "two-round-auction")

VARIANTS = {
    "set-aside-talon": {
        "deal.packets": [[5, 5, 5], [5, 5, 5]],
        "deal.talon": "set_aside",
        "auction.opener_must_bid": False,
        "auction.talon_exchange_optional": True,
        "auction.end_passes": 2,
        "play.first_lead": "forehand",
        "trump.named": "in_bid",
        "ranks.trump_game_side_suits": [
            "ace",
            "king",
            "over",
            "under",
            "ten",
            "nine",
            "eight",
            "seven",
        ],
    },
    "no-talon-hearts-always": {
        "deal.packets": [[5, 5, 5], [5, 5, 5]],
        "deal.talon": "none",
        "trump.fixed": "hearts",
        "marriages.announce": "on_play",
        "marriages.optional": False,
        "kontra.window": "own_card_trick1",
        "kontra.max_level": 2,
        "auction.opener_pass_is_simple": True,
    },
    "give-up-defenders-marry": {
        "simple.give_up_allowed": True,
        "marriages.in_hundred_game": {"declarer": "all", "defenders": "all"},
        "kontra.per_defender_in_trump": True,
        "open_games.exposes": "all",
        "open_games.after_trick": 0,
        "auction.self_robbing": False,
        "trump.red_suit_needs_red_bid": False,
    },
    "two-round-value-binding": {
        "auction.two_round": {
            "first_round_cards": 5,
            "multiplier": 2,
            "opener_must_bid": False,
            "end_passes": 3,
            "trump_named": "with_bid",
            "overcall_by": "value",
            "same_trump_binds_others": True,
        },
        "players.count": 4,
    },
}

_RULESETS: dict[str, Ruleset] = {}


def ruleset_named(name: str) -> Ruleset:
    if name not in _RULESETS:
        _RULESETS[name] = (
            fixture_ruleset(**VARIANTS[name]) if name in VARIANTS else load_ruleset(name)
        )
    return _RULESETS[name]


def play_out(ruleset: Ruleset, seed: int, dealer: int, rng: random.Random) -> Hand:
    """Play a hand to the end, trying illegal actions and checking legal ones on the way."""
    hand = Hand(ruleset, seed=seed, dealer=dealer)
    steps = 0
    while not hand.is_over:
        steps += 1
        assert steps < 2000, "a hand always ends"
        legal = hand.legal_actions()
        assert legal, f"a seat to act always has an action ({hand.phase}, {hand.step})"
        assert hand.current_player is not None
        # A random action: refused (unchanged) unless listed.
        probe = random_action(rng, hand)
        if probe not in legal:
            before = snapshot(hand)
            with pytest.raises(IllegalAction) as refused:
                hand.apply(probe)
            assert str(refused.value), "a refusal names the rule"
            assert snapshot(hand) == before, f"refusing {probe} changed the hand"
        # Now and then: every listed action is accepted (on copies).
        if rng.random() < 0.05:
            for action in legal if len(legal) <= 12 else rng.sample(legal, 12):
                clone(hand).apply(action)
        # Observations are plain data and show each seat its own cards only.
        if rng.random() < 0.1:
            for seat in hand.seats.active:
                seen = hand.observation(seat)
                assert json.loads(seen.to_json())["hand"] == hand.cards(seat)
                assert seen.hand == tuple(hand.cards(seat))
                if seat == hand.current_player:
                    assert seen.legal_actions == tuple(legal)
                    assert seen.to_dict()["legal_actions"] == [a.to_dict() for a in legal]
                if not hand.exposed:
                    assert seen.exposed == {}
        # The fast path agrees with the full list.
        plays = sorted(a.card for a in legal if a.type == "play")  # type: ignore[attr-defined]
        assert list(hand.legal_card_list()) == plays
        action = choose(rng, legal)
        assert action_from_dict(action.to_dict()) == action, "actions survive a record"
        hand.apply(action)
    assert hand.legal_actions() == []
    assert hand.current_player is None
    return hand


def check_end(ruleset: Ruleset, hand: Hand) -> None:
    contract = hand.contract
    facts = hand.facts
    if contract is None:
        assert hand.passed_out and facts is None
        return
    assert contract.sitting_out == (hand.seats.dealer if ruleset.players.count == 4 else None)
    for comp, levels in contract.kontra.items():
        assert comp in ruleset.bid(contract.bid).components
        assert set(levels) == set(hand.seats.active) - {contract.declarer}
    if facts is None:
        assert contract.gave_up or (
            contract.uncontested and not ruleset.simple.uncontested_played_out
        )
        return
    assert not contract.gave_up
    check_played_hand(ruleset, get_registry(), facts, contract)


def replay_same(ruleset: Ruleset, hand: Hand) -> None:
    again = Hand(ruleset, seed=hand.seed, dealer=hand.seats.dealer)
    for action in hand.actions:
        again.apply(action)
    assert again.history == hand.history
    assert again.deal == hand.deal
    assert (again.facts is None) == (hand.facts is None)
    if hand.facts is not None:
        assert again.facts is not None
        assert again.facts.model_dump() == hand.facts.model_dump()
    if hand.contract is not None:
        assert again.contract is not None
        assert again.contract.model_dump() == hand.contract.model_dump()


@pytest.mark.parametrize("name", BUNDLED + tuple(VARIANTS))
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3), choices=st.integers(0, 2**32))
def test_random_legal_play(name: str, seed: int, dealer: int, choices: int) -> None:
    ruleset = ruleset_named(name)
    hand = play_out(ruleset, seed, dealer % ruleset.players.count, random.Random(choices))
    check_end(ruleset, hand)
    replay_same(ruleset, hand)


@pytest.mark.parametrize("name", BUNDLED + tuple(VARIANTS))
def test_many_seeds_end_and_check(name: str) -> None:
    """A wider sweep without the per-step probes: every hand ends and passes the checker."""
    ruleset = ruleset_named(name)
    contracts: set[str] = set()
    for seed in range(120):
        rng = random.Random(seed * 7919)
        hand = Hand(ruleset, seed=seed, dealer=seed % ruleset.players.count)
        while not hand.is_over:
            hand.apply(choose(rng, hand.legal_actions()))
        check_end(ruleset, hand)
        if hand.contract is not None:
            contracts.add(hand.contract.bid)
    assert len(contracts) >= 5, "the sweep reaches many kinds of contract"
