"""Misuse of the engine's entry points gets a clear error of the documented kind.

What a caller may plausibly pass wrongly (a ruleset's name for the game, a record's
plain deal, a passed-out hand's contract, a card after the end) is either taken or
refused with the error docs/engine.md names, saying what is expected: never a raw
AttributeError, TypeError or ValueError from deep inside.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from ulti_rules.bots import bot, play_out
from ulti_rules.engine import BadDeal, Discard, Hand, Pass, Play
from ulti_rules.errors import IllegalAction
from ulti_rules.game import Game
from ulti_rules.ruleset.loading import load_game, load_ruleset
from ulti_rules.scoring.settlement import (
    SettlementError,
    settle,
    settle_brief,
    settle_payments,
)

from engine_fixtures import fixture_ruleset

# --------------------------------------------------------------------------- the game


@pytest.mark.parametrize("given", ["wikipedia", Path("wikipedia.yaml"), None, 5, True, object()])
def test_hand_of_what_is_no_game_is_a_type_error_saying_what_is(given: object) -> None:
    with pytest.raises(TypeError, match=r"expected a Game or a Ruleset.*load_game\("):
        Hand(given, seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected a Game or a Ruleset"):
        Game.of(given)  # type: ignore[arg-type]


@pytest.mark.parametrize("given", [None, 123, b"wikipedia", ["wikipedia"], True])
def test_loading_what_is_no_name_nor_path_is_a_type_error_saying_what_is(given: object) -> None:
    """It was a TypeError or an AttributeError from deep inside the name lookup."""
    for load in (load_game, load_ruleset):
        with pytest.raises(TypeError, match=r"expected a ruleset's name or a path to its file"):
            load(given)  # type: ignore[arg-type]


def test_a_name_is_refused_with_the_call_that_loads_it() -> None:
    with pytest.raises(TypeError, match=r"not the name 'wikipedia': load_game\('wikipedia'\)"):
        Hand("wikipedia", seed=1)  # type: ignore[arg-type]


def test_game_and_ruleset_are_still_taken() -> None:
    game = load_game("wikipedia")
    assert Hand(game, seed=1).game is game
    assert Hand(game.ruleset, seed=1).game is game


# --------------------------------------------------------------------------- the deal


def test_a_deal_as_plain_data_is_taken() -> None:
    game = load_game("wikipedia")
    dealt = game.new_hand(seed=1)
    again = game.new_hand(deal=dealt.deal.to_dict())
    assert again.deal == dealt.deal
    assert Hand(game, deal=dealt.deal.to_dict()).deal == dealt.deal


@pytest.mark.parametrize(
    "deal",
    [
        5,
        "MA ZX",
        b"MA",
        object(),
        ((), (), ()),
        ([], [], 0),
        (5, []),
        {"hand": []},
        {"hands": "MA"},
    ],
)
def test_a_malformed_deal_is_a_bad_deal(deal: Any) -> None:
    game = load_game("wikipedia")
    with pytest.raises(BadDeal, match=r"deal|hands"):
        game.new_hand(deal=deal)


def test_a_pair_too_many_says_what_a_deal_is() -> None:
    game = load_game("wikipedia")
    hands = list(game.new_hand(seed=1).deal.hands)
    with pytest.raises(BadDeal, match=r"a deal is a Deal, a \(hands, rest\) pair"):
        game.new_hand(deal=(hands, [], 0))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- settling


def _passed_out() -> Hand:
    hand = Hand(fixture_ruleset(**{"auction.opener_must_bid": False}), seed=2)
    hand.apply(Discard(tuple(hand.cards(1)[:2])))
    for _ in range(3):
        hand.apply(Pass())
    assert hand.passed_out and hand.contract is None
    return hand


@pytest.mark.parametrize("trusted", [False, True])
def test_settling_no_contract_says_the_hand_was_passed_out(trusted: bool) -> None:
    hand = _passed_out()
    said = r"no contract to settle: the hand was passed out \(hand.contract is None\)"
    with pytest.raises(SettlementError, match=said):
        hand.game.settle(hand.contract, hand.facts, trusted=trusted)  # type: ignore[arg-type]
    for call in (settle, settle_brief, settle_payments):
        with pytest.raises(SettlementError, match=said):
            call(hand.game, None, None, trusted=trusted)  # type: ignore[arg-type]
    with pytest.raises(SettlementError, match=said):
        load_game("wikipedia").settle(None, None)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- cards refused


def _over() -> Hand:
    hand = play_out(load_game("wikipedia").new_hand(seed=7), bot("simple"), random.Random(1))
    assert hand.is_over
    return hand


@pytest.mark.parametrize("make", [_over, _passed_out])
def test_play_card_after_the_end_says_the_hand_is_over(make: Any) -> None:
    hand = make()
    for card in (0, 31):
        with pytest.raises(IllegalAction, match=r"^the hand is over$"):
            hand.apply(Play(card))
        with pytest.raises(IllegalAction, match=r"^the hand is over$"):
            hand.play_card(card)


def test_play_card_says_what_apply_says_in_every_phase() -> None:
    """play_card is apply(Play(card)) with the same checks, so the same message: in the
    auction, the trump phase, the kontra round and the play alike."""
    rng = random.Random(3)
    for seed in range(12):
        hand = load_game("wikipedia").new_hand(seed=seed)
        while not hand.is_over:
            for card in range(32):
                probe = hand.clone()
                try:
                    probe.apply(Play(card))
                except IllegalAction as exc:
                    applied: str | None = str(exc)
                else:
                    applied = None
                probe = hand.clone()
                try:
                    probe.play_card(card)
                except IllegalAction as exc:
                    played: str | None = str(exc)
                else:
                    played = None
                assert played == applied, (hand.phase, card)
            hand.apply(rng.choice(hand.legal_actions()))
