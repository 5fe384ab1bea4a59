"""Work ``ulti simulate`` does once, not per hand: the built-in kinds' judges prepared per
ruleset (no module-level table keyed by ``id()``), a contract without kontra shared by
the hands that reach it, the brief settlement's quick way, and declared facts in their
final form let through unvalidated. Each answer must stay the one the general way gives."""

from __future__ import annotations

import random

import pytest
from ulti_rules.bots import bot, play_out
from ulti_rules.contracts import builtin
from ulti_rules.contracts.builtin import BUILTIN_KINDS, Hundred, PreparedKind
from ulti_rules.engine.declared import declared_facts
from ulti_rules.engine.facts import build_contract
from ulti_rules.errors import PluginError
from ulti_rules.game import Game
from ulti_rules.ruleset.loading import load_game
from ulti_rules.scoring.settlement import settle_brief

from settlement_support import make_contract, make_facts, make_ruleset


def test_no_builtin_table_keyed_by_id() -> None:
    tables = [
        name
        for name, value in vars(builtin).items()
        if isinstance(value, dict) and not name.startswith("__")
    ]
    assert tables == [], "contracts/builtin.py keeps a module-level table"
    assert all(issubclass(kind, PreparedKind) for kind in BUILTIN_KINDS)


def test_each_ruleset_judges_the_silent_100_by_its_own_target() -> None:
    """Two rulesets alive together, judged in turn: each answers with its own target
    (the catalogue's lowest 100), however often the other was asked before."""
    low = make_ruleset(
        contracts={"forty_hundred": {"target": 60}, "twenty_hundred": {"target": 70}}
    )
    usual = make_ruleset()
    bonus = usual.silent_bonuses["silent_100"]
    facts = make_facts(declarer_points=65, defender_points=25)
    kind = Hundred()
    for _ in range(3):
        made = kind.judge_silent_bonus(low.silent_bonuses["silent_100"], facts, low)
        assert made is not None and made.side == "declarer" and made.made
        assert kind.judge_silent_bonus(bonus, facts, usual) is None
        assert kind.silent_judging(bonus, usual)(facts) is None
        assert kind.judge_silent(facts, low, either_side=False) == made


@pytest.mark.parametrize("name", ["wikipedia", "older-20-100", "four-player"])
def test_a_contract_without_kontra_is_shared_and_the_same(name: str) -> None:
    """The shared contract equals the one built for the hand, down to the order of its
    kontra table (the defenders in table order, which the dealer decides)."""
    game = load_game(name)
    shared = kontra = 0
    for seed in range(60):
        hand = play_out(
            game.new_hand(seed=seed, dealer=seed % game.ruleset.players.count),
            bot("random"),
            random.Random(seed),
        )
        contract = hand.contract
        if contract is None:
            continue
        built = build_contract(hand)
        assert repr(contract.model_dump()) == repr(built.model_dump())
        doubled = any(any(levels.values()) for levels in contract.kontra.values())
        again = game.new_hand(seed=seed, dealer=seed % game.ruleset.players.count)
        for action in hand.actions:
            again.apply(action)
        if doubled:
            kontra += 1
            assert again.contract is not contract  # its levels are its own
        else:
            shared += 1
            assert again.contract is contract
    assert shared > 10
    assert name != "wikipedia" or kontra > 0, "random bots call kontras now and then"


def test_the_quick_brief_is_the_general_one() -> None:
    """A table whose bid allows the quick way, asked with and without trust: the same
    brief (untrusted facts take the general way, with its checks)."""
    game = Game.of(make_ruleset())
    for bid, facts in (
        ("simple", make_facts()),
        ("ulti", make_facts(seven_last=0)),
        ("ulti", make_facts(seven_last=0, last=1)),
        (
            "betli",
            make_facts(
                trump=None, tricks={0: 0, 1: 5, 2: 5}, declarer_points=0, defender_points=90, last=1
            ),
        ),
        (
            "durchmars",
            make_facts(tricks={0: 10, 1: 0, 2: 0}, declarer_points=90, defender_points=0),
        ),
        ("simple_red", make_facts(trump="hearts", declarer_points=20, defender_points=70)),
    ):
        contract = make_contract(bid, trump=facts.trump)
        quick = settle_brief(game, contract, facts, trusted=True)
        general = settle_brief(game, contract, facts)
        settled = game.settle(contract, facts)
        assert quick == general, bid
        assert quick.payments == settled.payments


def _declared(value: object) -> object:
    """``ace_winners`` as declared_facts returns it where the plugin computed ``value``."""
    game = load_game("wikipedia")
    (spec,) = game.fact_specs
    odd = type(spec)(**{**spec.__dict__, "compute": lambda facts: value})
    return declared_facts(make_facts(), [odd], game.registry)["ace_winners"]


def test_declared_facts_in_their_final_form_are_kept_as_they_are() -> None:
    seats = (0, 1)
    assert _declared(seats) is seats  # not validated into a copy
    assert _declared([0, 1]) == (0, 1)  # a list is validated into a tuple


@pytest.mark.parametrize(
    ("value", "message"),
    [((0, True), "computed"), ((0, 7), "names seat 7"), ("0", "computed")],
)
def test_declared_facts_are_still_checked(value: object, message: str) -> None:
    with pytest.raises(PluginError, match=message):
        _declared(value)
