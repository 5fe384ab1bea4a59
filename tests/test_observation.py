"""Typed observations (issue 8, item 3): fields, the old dict shape, no leaks, deprecation.

``old_shape`` is the observation dict as ``observe`` built it before observations were
typed, rewritten on the hand's public API; before the change it was checked equal to
the old code's output at every state of 300 random hands of the bundled rulesets.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from ulti_rules.cards import Card, format_card
from ulti_rules.engine import Discard, Hand, Observation, PickUp
from ulti_rules.engine.observation import Event, Marriage, Trick, TrickSoFar
from ulti_rules.engine.phase import Phase, Step
from ulti_rules.frozen import FrozenDict
from ulti_rules.game import Game
from ulti_rules.ruleset.loading import load_game

from conftest import BUNDLED_RULESETS
from engine_support import choose

SEEDS = (0, 1, 2, 3)


@cache
def game(name: str) -> Game:
    return load_game(name)


def states(name: str, seed: int) -> Iterator[Hand]:
    """The hand at every state of one random game, from the deal to the end."""
    rules = game(name)
    hand = rules.new_hand(seed=seed, dealer=seed % rules.ruleset.players.count)
    rng = random.Random(seed)
    while True:
        yield hand
        if hand.is_over:
            return
        hand.apply(choose(rng, hand.legal_actions()))


def old_shape(hand: Hand, seat: int) -> dict[str, Any]:
    """The observation dict of before (see the module docstring)."""
    pickups = hand.pickups
    events: list[dict[str, Any]] = []
    laid: tuple[int, tuple[Card, ...]] | None = None
    for index, (who, action) in enumerate(hand.history):
        event: dict[str, Any] = {"seat": who, **action.to_dict()}
        if isinstance(action, Discard):
            laid = (who, action.cards)
            if who != seat:
                event["cards"] = None
        elif isinstance(action, PickUp):
            laid = None
            if who == seat:
                event["cards"] = [format_card(c) for c in pickups[index]]
        events.append(event)
    if hand.is_over:
        talon: list[int] | None = list(hand.talon)
    elif laid is not None and laid[0] == seat:
        talon = list(laid[1])
    else:
        talon = None
    exposed: dict[int, list[int]] = {}
    if hand.exposed:
        declarer = hand.declarer
        assert declarer is not None
        shown = hand.seats.active if hand.ruleset.open_games.exposes == "all" else (declarer,)
        exposed = {s: hand.cards(s) for s in shown}
    leader, trick = hand.current_trick
    return {
        "ruleset": hand.ruleset.name,
        "seat": seat,
        "dealer": hand.dealer,
        "active_seats": list(hand.seats.active),
        "sitting_out": hand.seats.sitting_out,
        "phase": hand.phase,
        "step": hand.step,
        "current_player": hand.current_player,
        "hand": hand.cards(seat),
        "hand_sizes": {s: hand.hand_size(s) for s in hand.seats.active},
        "history": events,
        "bid": hand.bid,
        "declarer": hand.declarer,
        "trump": hand.trump,
        "talon": talon,
        "kontra": hand.kontra_levels,
        "marriages": [{"seat": s, "suit": suit, "value": v} for s, suit, v in hand.marriages],
        "tricks": [
            {"leader": lead, "cards": list(cards), "winner": win}
            for lead, cards, win in hand.tricks
        ],
        "current_trick": {"leader": leader, "cards": list(trick)} if trick else None,
        "exposed": exposed,
        "legal_actions": (
            [a.to_dict() for a in hand.legal_actions()] if hand.current_player == seat else []
        ),
    }


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_to_dict_is_the_old_shape(name: str) -> None:
    for seed in SEEDS:
        for hand in states(name, seed):
            for seat in range(hand.seats.players):
                seen = hand.observation(seat)
                plain, old = seen.to_dict(), old_shape(hand, seat)
                assert plain == old, (seed, seat, len(hand.history))
                assert list(plain) == list(old), "the keys in the same order"
                assert json.loads(seen.to_json()) == json.loads(json.dumps(old))


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_the_hand_keeps_where_its_discards_are(name: str) -> None:
    """``hand.discards``, kept as the hand plays (what observations are built from instead
    of a walk over the history), names every discard of the history, also in a clone and
    after an undo."""
    for seed in SEEDS[:2]:
        for hand in states(name, seed):
            expected = tuple(
                index for index, (_, action) in enumerate(hand.history) if type(action) is Discard
            )
            assert hand.discards == expected
            assert hand.clone().discards == expected
    hand = game(name).new_hand(seed=5)
    while not hand.discards:
        hand.apply(hand.legal_actions()[0])
    hand.undo()
    assert hand.discards == ()


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_fields_are_typed_and_agree_with_the_hand(name: str) -> None:
    for seed in SEEDS[:2]:
        for hand in states(name, seed):
            for seat in hand.seats.active:
                seen = hand.observation(seat)
                assert type(seen.phase) is Phase and seen.phase == hand.phase
                assert type(seen.step) is Step and seen.step == hand.step
                assert seen.hand == tuple(hand.cards(seat))
                assert seen.active_seats == hand.seats.active
                assert all(type(t) is Trick for t in seen.tricks)
                assert seen.tricks == tuple(hand.tricks)
                assert all(type(m) is Marriage for m in seen.marriages)
                assert seen.marriages == tuple(hand.marriages)
                for mapping in (seen.hand_sizes, seen.kontra, seen.exposed, seen.picked_up):
                    assert type(mapping) is FrozenDict
                assert all(type(levels) is FrozenDict for levels in seen.kontra.values())
                assert seen.kontra == hand.kontra_levels
                leader, cards = hand.current_trick
                assert seen.current_trick == (TrickSoFar(leader, cards) if cards else None)
                to_act = hand.current_player == seat
                assert seen.legal_actions == (tuple(hand.legal_actions()) if to_act else ())
                # The history shares the hand's own entries where the seat may see them.
                for (who, action), (shown_by, shown) in zip(
                    hand.history, seen.history, strict=True
                ):
                    assert shown_by == who
                    assert shown is action or (shown is None and type(action) is Discard)
                assert len(seen.events) == len(seen.history)
                assert all(type(e) is Event for e in seen.events)
                assert seen == hand.observation(seat) and hash(seen) == hash(hand.observation(seat))


def test_events_name_hidden_discards_and_own_pick_ups() -> None:
    hand = game("wikipedia").new_hand(seed=12, dealer=0)
    hand.apply(Discard(tuple(hand.cards(1)[:2])))
    laid = hand.observation(1).talon
    assert laid is not None
    other = hand.observation(2).events[0]
    assert other == Event(seat=1, type="discard", action=None, picked_up=None)
    own = hand.observation(1).events[0]
    assert own.action == Discard(laid) and own.picked_up is None
    hand.apply(next(a for a in hand.legal_actions() if a.type == "bid"))
    hand.apply(PickUp())
    assert hand.observation(2).events[-1] == Event(2, "pick_up", PickUp(), laid)
    assert hand.observation(2).picked_up == {2: laid}
    assert hand.observation(0).events[-1].picked_up is None
    assert hand.observation(0).picked_up == {}


def visible_cards(hand: Hand, seat: int, seen: Observation) -> set[Card]:
    """Every card the observation names anywhere, its own hand aside."""
    cards: set[Card] = set()
    for _, action in seen.history:
        if isinstance(action, Discard):
            cards |= set(action.cards)
        elif action is not None and action.type == "play":
            cards.add(action.card)  # type: ignore[attr-defined]
    for taken in seen.picked_up.values():
        cards |= set(taken)
    for held in seen.exposed.values():
        cards |= set(held)
    for trick in seen.tricks:
        cards |= set(trick.cards)
    if seen.current_trick is not None:
        cards |= set(seen.current_trick.cards)
    cards |= set(seen.talon or ())
    return cards


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_nothing_hidden_leaks(name: str) -> None:
    """Another seat's cards only once played or laid face up; a discard only to the seat
    that made it; the talon only to the seat that laid it (while it lies) or picked it
    up, and to everybody once over."""
    for seed in SEEDS:
        for hand in states(name, seed):
            laid: tuple[int, tuple[Card, ...]] | None = None
            for who, action in hand.history:
                if isinstance(action, Discard):
                    laid = (who, action.cards)
                elif isinstance(action, PickUp):
                    laid = None
            for seat in range(hand.seats.players):
                seen = hand.observation(seat)
                own = set(hand.cards(seat))
                assert set(seen.hand) == own
                for who, action in seen.history:
                    assert who == seat or not isinstance(action, Discard)
                assert all(hand.history[i][0] == seat for i in seen.picked_up)
                if hand.is_over:
                    assert seen.talon == hand.talon
                elif laid is not None and laid[0] == seat:
                    assert seen.talon == laid[1]
                else:
                    assert seen.talon is None
                if not hand.exposed:
                    assert seen.exposed == {}
                # What the seat knew: its own cards, now and as dealt and picked up.
                known = own | set(hand.deal.hands[seat])
                for taken in seen.picked_up.values():
                    known |= set(taken)
                for who, action in hand.history:
                    if who == seat and isinstance(action, Discard):
                        known |= set(action.cards)  # held before: the extra cards dealt
                played = {c for _, cards, _ in hand.tricks for c in cards}
                played |= set(hand.current_trick[1])
                if hand.exposed:
                    played |= {c for held in seen.exposed.values() for c in held}
                if hand.is_over:
                    played |= set(hand.talon)
                strangers = visible_cards(hand, seat, seen) - known - played
                assert not strangers, (seed, seat, len(hand.history), sorted(strangers))
                text = repr(seen) + repr(pickle.loads(pickle.dumps(seen)))
                for other in hand.seats.active:
                    hidden = set(hand.cards(other)) - played - known
                    if other != seat and len(hidden) > 2:
                        assert repr(tuple(sorted(hidden))) not in text


def test_indexing_like_the_old_dict_warns_and_still_works() -> None:
    hand = game("wikipedia").new_hand(seed=3, dealer=0)
    seen = hand.observation(hand.seats.forehand)
    with pytest.warns(DeprecationWarning, match=r"observation\.talon"):
        assert seen["talon"] == seen.to_dict()["talon"]
    with pytest.warns(DeprecationWarning, match=r"observation\.legal_actions"):
        assert seen["legal_actions"] == [a.to_dict() for a in hand.legal_actions()]
    with pytest.warns(DeprecationWarning), pytest.raises(KeyError):
        seen["no_such_key"]


def test_a_seat_sitting_out_sees_the_table_but_holds_nothing() -> None:
    hand = game("four-player").new_hand(seed=11, dealer=2)
    seen = hand.observation(2)
    assert seen.sitting_out == 2 and seen.hand == () and seen.legal_actions == ()
    assert 2 not in seen.hand_sizes and seen.active_seats == (3, 0, 1)


def test_seats_are_checked() -> None:
    hand = game("wikipedia").new_hand(seed=1)
    for seat in (True, "0", 3, -1, 1.0):
        with pytest.raises(ValueError, match="no seat"):
            hand.observation(seat)  # type: ignore[arg-type]
