"""The engine's speed tables against the slow, obvious definitions they replace."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ulti_rules.cards import Rank, Suit, make_card
from ulti_rules.engine.deal import Deal, deal_cards
from ulti_rules.engine.masks import cards_of, mask_of_distinct
from ulti_rules.engine.trump import marriages_in
from ulti_rules.game import Game
from ulti_rules.game.deal_plan import deal_in_order
from ulti_rules.ruleset.loading import load_ruleset

from conftest import BUNDLED_RULESETS

masks = st.integers(0, 2**32 - 1)


@given(masks)
def test_cards_of_lists_the_set_bits_ascending(mask: int) -> None:
    assert cards_of(mask) == tuple(c for c in range(32) if (mask >> c) & 1)


@given(masks)
def test_mask_of_distinct_is_the_union_of_the_cards(mask: int) -> None:
    cards = [c for c in range(32) if (mask >> c) & 1]
    random.Random(mask).shuffle(cards)
    assert mask_of_distinct(cards) == mask


@given(masks)
def test_marriages_in_finds_every_king_and_over_pair(mask: int) -> None:
    held = {c for c in range(32) if (mask >> c) & 1}
    expected = tuple(s for s in Suit if {make_card(s, Rank.KING), make_card(s, Rank.OVER)} <= held)
    assert marriages_in(mask) == expected


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_the_planned_deal_is_the_deal_in_order(name: str) -> None:
    """deal_cards takes each seat's cards by planned positions: the same as dealing the packets."""
    ruleset = load_ruleset(name)
    game = Game.of(ruleset)
    for dealer in range(ruleset.players.count):
        seats = game.seating(dealer)
        for seed in (0, 1, "seven", 2**40):
            deck = list(range(32))
            random.Random(seed).shuffle(deck)
            assert deal_cards(game, seats, seed) == Deal(*deal_in_order(ruleset, seats, deck))
