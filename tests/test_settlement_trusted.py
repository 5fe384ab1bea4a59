"""Settlements are built unchecked (issue 8, item 6): the models must be the very ones
validation would give, ``trusted=True`` must pay what the checked path pays for the
engine's own hands, and ``settle_payments`` what ``settle`` pays, over random hands of
every bundled ruleset (random kontras, give-ups and uncontested Simples included)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from pydantic import BaseModel
from ulti_rules.ruleset.loading import load_game
from ulti_rules.scoring.settlement import (
    Settlement,
    SettlementLine,
    Share,
    Transfer,
    settle,
    settle_payments,
)

from conftest import BUNDLED_RULESETS
from engine_support import choose

HANDS = 80


def as_validated(built: BaseModel) -> None:
    """``built`` equals what validating the fields it names gives, nested models and the
    fields each reports as set included."""
    model = type(built)
    given = {name: getattr(built, name) for name in built.model_fields_set}
    dumped = {name: value for name, value in built.model_dump().items() if name in given}
    again = model.model_validate(dumped)
    assert built == again and again == built
    assert built.model_fields_set == again.model_fields_set
    assert built.model_dump_json() == again.model_dump_json()
    assert built.__pydantic_extra__ is again.__pydantic_extra__ is None
    assert built.__pydantic_private__ is again.__pydantic_private__ is None
    assert _types(built) == _types(again)
    for value in built.__dict__.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, BaseModel):
                as_validated(item)


def _types(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return (type(value), {k: _types(v) for k, v in value.__dict__.items()})
    if isinstance(value, dict):
        return (type(value), {k: _types(v) for k, v in value.items()})
    if isinstance(value, list):
        return (list, [_types(v) for v in value])
    return type(value)


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_settlements_equal_validated_ones_and_payments_alone(name: str) -> None:
    game = load_game(name)
    settled: set[str] = set()
    for seed in range(HANDS):
        hand = game.new_hand(seed=seed, dealer=seed % game.ruleset.players.count)
        rng = random.Random(seed)
        while not hand.is_over:
            hand.apply(choose(rng, hand.legal_actions()))
        contract = hand.contract
        if contract is None:
            continue
        fast = game.settle(contract, hand.facts, trusted=True)
        checked = settle(game, contract, hand.facts)
        assert fast == checked
        assert fast.model_dump_json() == checked.model_dump_json()
        assert settle_payments(game, contract, hand.facts, trusted=True) == fast.payments
        assert settle_payments(game, contract, hand.facts) == fast.payments
        as_validated(fast)
        assert type(fast) is Settlement
        assert all(type(line) is SettlementLine for line in fast.lines)
        assert all(type(s) is Share for line in fast.lines for s in line.shares)
        assert all(type(t) is Transfer for line in fast.lines for t in line.transfers)
        assert pickle.loads(pickle.dumps(fast)) == fast
        assert sum(fast.payments.values()) == 0
        settled.update(line.source for line in fast.lines)
    assert "component" in settled


def test_settlements_share_no_list_with_each_other() -> None:
    # The tables behind a settlement are kept by the game: what it hands out is its own.
    game = load_game("wikipedia")
    for seed in range(20):
        hand = game.new_hand(seed=seed)
        rng = random.Random(seed)
        while not hand.is_over:
            hand.apply(choose(rng, hand.legal_actions()))
        if hand.contract is None:
            continue
        first = game.settle(hand.contract, hand.facts, trusted=True)
        again = game.settle(hand.contract, hand.facts, trusted=True)
        assert first == again
        assert first.defenders is not again.defenders
        assert first.lines is not again.lines
        assert first.lines[0].shares is not again.lines[0].shares
        return
    raise AssertionError("no hand bid")
