"""The engine builds its facts and contract unchecked (issue 8, item 3): they must be the
very objects validation would give, over random hands of every bundled ruleset."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel
from ulti_rules.engine import Hand
from ulti_rules.facts import Contract, Facts, MarriageFact, TrickFact
from ulti_rules.frozen import FrozenDict
from ulti_rules.ruleset.loading import load_game

from conftest import BUNDLED_RULESETS
from engine_support import choose

HANDS = 60


def finished(name: str, count: int) -> Iterator[Hand]:
    """``count`` random hands of ``name`` played to their end (any end)."""
    rules = load_game(name)
    for seed in range(count):
        hand = rules.new_hand(seed=seed, dealer=seed % rules.ruleset.players.count)
        rng = random.Random(seed)
        while not hand.is_over:
            hand.apply(choose(rng, hand.legal_actions()))
        yield hand


def frozen_as_validated(built: BaseModel, model: type[BaseModel]) -> None:
    """``built`` equals what validating its own dump gives, down to the types inside."""
    again = model.model_validate(built.model_dump())
    assert built == again and again == built
    assert hash(built) == hash(again)
    assert built.model_dump_json() == again.model_dump_json()
    assert built.model_fields_set == again.model_fields_set == set(model.model_fields)
    assert built.__pydantic_extra__ is again.__pydantic_extra__ is None
    assert built.__pydantic_private__ is again.__pydantic_private__ is None
    assert _types(built) == _types(again)
    assert pickle.loads(pickle.dumps(built)) == built


def _types(value: Any) -> Any:
    """The shape of a value as types: tuples stay tuples, FrozenDicts FrozenDicts."""
    if isinstance(value, BaseModel):
        return (type(value), {k: _types(v) for k, v in value.__dict__.items()})
    if isinstance(value, dict):
        return (type(value), {k: _types(v) for k, v in value.items()})
    if isinstance(value, tuple):
        return (tuple, [_types(v) for v in value])
    return type(value)


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_engine_facts_and_contracts_equal_validated_ones(name: str) -> None:
    played = contracts = 0
    for hand in finished(name, HANDS):
        contract = hand.contract
        if contract is not None:
            frozen_as_validated(contract, Contract)
            assert type(contract.kontra) is FrozenDict
            contracts += 1
        facts = hand.facts
        if facts is None:
            continue
        frozen_as_validated(facts, Facts)
        assert all(type(t) is TrickFact for t in facts.tricks or ())
        assert all(type(m) is MarriageFact for m in facts.marriages)
        assert type(facts.extra) is FrozenDict and type(facts.tricks_won) is FrozenDict
        assert facts is hand.facts, "built once"
        played += 1
    assert played > HANDS // 3 and contracts >= played


def test_a_plugins_facts_still_come_with_the_core_ones() -> None:
    # The Wikipedia standard has Four Aces, whose fact the engine computes (and checks).
    for hand in finished("wikipedia", 20):
        if hand.facts is not None:
            assert set(hand.facts.extra) == {"ace_winners"}
            frozen_as_validated(hand.facts, Facts)
            return
    raise AssertionError("no hand played out")
