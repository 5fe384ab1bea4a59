"""``ulti simulate`` settles from a light view of the facts (``engine.facts.facts_view``),
not the pydantic models: the payments must be the very ones ``game.settle`` gives from
the model facts, over many seeded hands of every bundled ruleset (and the fixture
rulesets with house rules for silent bonuses), played by the random and the simple bots;
Four Aces (a plugin kind, with its declared fact) and silent bonuses included."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from ulti_rules.bots import bot, play_out
from ulti_rules.engine import Hand
from ulti_rules.engine.facts import facts_view
from ulti_rules.engine.facts_view import FactsView, TrickView
from ulti_rules.facts import Facts, TrickFact
from ulti_rules.game import Game
from ulti_rules.ruleset.loading import load_game
from ulti_rules.scoring.settlement import settle_brief, settle_payments

from conftest import BUNDLED_RULESETS

FIXTURES = Path(__file__).parent / "fixtures" / "rulesets"
RULESETS = (*BUNDLED_RULESETS, *(str(path) for path in sorted(FIXTURES.glob("*.yaml"))))
HANDS = 50
"""Hands per ruleset and bot: about 40 of them played out, a second at most for all."""


def played(game: Game, bot_name: str) -> Iterator[Hand]:
    """Seeded hands of ``game`` played to their end by ``bot_name`` in every seat."""
    player = bot(bot_name)
    players = game.ruleset.players.count
    for seed in range(HANDS):
        rng = random.Random(seed)
        yield play_out(game.new_hand(seed=seed, dealer=seed % players), player, rng)


@pytest.mark.parametrize("bot_name", ["random", "simple"])
@pytest.mark.parametrize("name", RULESETS, ids=lambda name: Path(name).stem)
def test_payments_from_the_view_are_the_models(name: str, bot_name: str) -> None:
    game = load_game(name)
    seen: Counter[str] = Counter()
    for hand in played(game, bot_name):
        contract = hand.contract
        if contract is None:
            assert facts_view(hand) is None
            continue
        view, facts = facts_view(hand), hand.facts
        assert (view is None) == (facts is None)
        settled = game.settle(contract, facts, trusted=True)
        assert settle_payments(game, contract, view, trusted=True) == settled.payments
        assert settle_payments(game, contract, facts, trusted=True) == settled.payments
        brief = settle_brief(game, contract, view, trusted=True)
        assert brief.payments == settled.payments
        assert brief.components == tuple(
            (line.what, line.made) for line in settled.lines if line.source == "component"
        )
        assert brief.silent == tuple(
            (line.what, line.by, line.made) for line in settled.lines if line.source == "silent"
        )
        seen.update(line.source for line in settled.lines)
        seen.update(line.what for line in settled.lines if "four_aces" in line.what)
        seen["played"] += view is not None
    assert seen["played"] >= HANDS // 4, seen
    if bot_name == "simple" and name in BUNDLED_RULESETS:  # silent feats come up here
        assert seen["silent"] > 0, f"no silent bonus settled: {seen}"
        if "four_aces" in game.ruleset.contracts:
            assert seen["four_aces"] or seen["silent_four_aces"], f"no Four Aces: {seen}"


@pytest.mark.parametrize("name", RULESETS, ids=lambda name: Path(name).stem)
def test_the_view_holds_the_models_values(name: str) -> None:
    game = load_game(name)
    checked = 0
    for hand in played(game, "simple"):
        view, facts = facts_view(hand), hand.facts
        if view is None or facts is None:
            continue
        for field in Facts.model_fields:
            held, wanted = getattr(view, field), getattr(facts, field)
            if field == "tricks":
                assert all(type(trick) is TrickView for trick in held)
                assert [tuple(t) for t in held] == [(t.leader, t.cards, t.winner) for t in wanted]
            else:
                assert held == wanted and type(held) is type(wanted), field
        assert view.defenders == facts.defenders
        assert view.model() == facts
        checked += 1
    assert checked >= HANDS // 4


def test_points_add_up_trick_by_trick() -> None:
    # The view counts the defenders' points as the deck's less the talon's and the
    # declarer's: every card lies in a trick or in the talon.
    game = load_game("wikipedia")
    for hand in played(game, "random"):
        view = facts_view(hand)
        if view is None:
            continue
        points = game.tables(-1 if view.trump is None else _suit(view.trump)).points
        per_seat = dict.fromkeys(view.seats, 0)
        for _, cards, winner in hand.tricks:
            per_seat[winner] += sum(points[card] for card in cards)
        per_seat[view.last_trick_winner] += game.ruleset.points.last_trick
        assert view.declarer_points == per_seat[view.declarer]
        assert view.defender_points == sum(per_seat.values()) - per_seat[view.declarer]
        assert view.card_points == per_seat


def _suit(suit: str) -> int:
    from ulti_rules.cards import suit_number

    return suit_number(suit)  # type: ignore[arg-type]


def test_the_view_is_read_only_and_answers_as_the_model() -> None:
    game = load_game("wikipedia")
    hand = next(h for h in played(game, "simple") if h.facts is not None)
    view = facts_view(hand)
    assert isinstance(view, FactsView)
    with pytest.raises(AttributeError, match="read-only"):
        view.declarer = 2
    with pytest.raises(AttributeError, match="read-only"):
        del view.trump
    assert view.model_dump() == hand.facts.model_dump()  # type: ignore[union-attr]
    assert (
        view.tricks[0].model_dump()
        == TrickFact.model_validate(view.tricks[0].model().model_dump()).model_dump()
    )
    assert view.model() is view.model(), "built once"
    with pytest.raises(AttributeError):
        view.no_such_fact  # noqa: B018


def test_a_hand_not_played_out_has_no_view() -> None:
    hand = load_game("wikipedia").new_hand(seed=1)
    assert facts_view(hand) is None
