"""``Hand.undo()``: apply then undo restores an equal hand at every step, under every ruleset.

Equal means every piece of state (``engine_support.snapshot``: all slots but caches),
and what a caller sees: each seat's observation, the legal actions, the history,
phase, step and seat to act. Then the action is applied again and the hand goes on,
so every step of every hand is checked, auction, kontra round and the last trick
included; at the end every action is undone down to the deal.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from ulti_rules import IllegalAction
from ulti_rules.engine import Hand
from ulti_rules.engine.auction import Auction
from ulti_rules.engine.kontra import KontraChains
from ulti_rules.game import Game
from ulti_rules.ruleset.loading import load_ruleset

from conftest import BUNDLED_RULESETS
from engine_support import choose, snapshot

HANDS = 12


def unshared(state: dict[str, Any]) -> dict[str, Any]:
    """A snapshot without the identities of shared objects: for two hands dealt apart."""
    return {k: v for k, v in state.items() if k != "shared"}


def unjournaled(state: dict[str, Any]) -> dict[str, Any]:
    """A snapshot without the undo entries: the fused path writes lighter ones for the
    same cards."""
    return {k: v for k, v in state.items() if k != "_undo"}


def seen(hand: Hand) -> dict[str, Any]:
    """What callers read: observations of every seat, legal actions, history, turn."""
    return {
        "observations": [hand.observation(s) for s in range(hand.seats.players)],
        "legal": hand.legal_actions(),
        "history": hand.history,
        "phase": hand.phase,
        "step": hand.step,
        "player": hand.current_player,
        "facts": hand.facts,
        "contract": hand.contract,
    }


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_apply_then_undo_restores_the_hand_at_every_step(name: str) -> None:
    game = Game.of(load_ruleset(name))
    rng = random.Random(name)
    for number in range(HANDS):
        hand = game.new_hand(seed=f"{name}-{number}", dealer=number % game.ruleset.players.count)
        while not hand.is_over:
            before, view = snapshot(hand), seen(hand)
            action = choose(rng, hand.legal_actions())
            hand.apply(action)
            assert hand.undo() == action
            assert snapshot(hand) == before
            assert seen(hand) == view
            hand.apply(action)
        actions = hand.actions
        for action in reversed(actions):
            assert hand.undo() == action
        assert hand.history == () and hand.phase == "auction"
        dealt = game.new_hand(seed=f"{name}-{number}", dealer=hand.dealer)
        assert unshared(snapshot(hand)) == unshared(snapshot(dealt))


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_the_fused_fast_path_chooses_as_the_card_loop_and_undoes_card_by_card(name: str) -> None:
    """``play_random`` plays the cards ``rng.choice(legal_card_list())`` would, and each
    of them is undone like a card played one by one (open contracts, kontra rounds and
    marriages due included: whatever the ruleset has)."""
    game = Game.of(load_ruleset(name))
    for seed in range(20):
        fused = game.new_hand(seed=seed)
        rng = random.Random(seed)
        while fused.phase not in ("play", "over"):
            fused.apply(choose(rng, fused.legal_actions()))
        if fused.is_over:
            continue
        looped = fused.clone()
        fused_rng, loop_rng = random.Random(seed), random.Random(seed)
        states = [snapshot(looped)]
        while not looped.is_over:
            cards = looped.legal_card_list()
            if cards:
                looped.play_card(loop_rng.choice(cards))
            else:
                looped.apply(choose(rng, looped.legal_actions()))
            states.append(snapshot(looped))
        replies = iter(looped.actions[len(fused.actions) :])
        while not fused.is_over:
            if fused.play_random(fused_rng) == 0:
                fused.apply(next(a for a in replies if a.type != "play"))
        assert fused.history == looped.history
        for state in reversed(states[:-1]):
            fused.undo()
            assert unjournaled(snapshot(fused)) == unjournaled(state)


def test_undo_with_nothing_to_undo_is_refused() -> None:
    hand = Game.of(load_ruleset("wikipedia")).new_hand(seed=1)
    with pytest.raises(IllegalAction, match="nothing to undo"):
        hand.undo()


def test_an_undo_replays_without_checking_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """An undo of a bid, a kontra or a discard replays the actions before it, each taken
    (and checked) once already: none is checked again (that was a third of an undo's
    time), and the hand is the one those actions, each checked, make."""
    game = Game.of(load_ruleset("wikipedia"))
    hand = game.new_hand(seed=11)
    rng = random.Random(3)
    while len(hand.history) < 25 or hand.history[-1][1].type == "play":
        hand.apply(rng.choice(hand.legal_actions()))
    actions = hand.actions
    reference = game.new_hand(seed=11)
    for action in actions[:-1]:
        reference.apply(action)
    checked: list[tuple[object, ...]] = []
    for owner in (Hand, Auction, KontraChains):
        refuse = owner.why_refused
        monkeypatch.setattr(
            owner, "why_refused", lambda *args, _r=refuse: checked.append(args) or _r(*args)
        )
    assert hand.undo() is actions[-1]
    assert checked == []
    now, then = snapshot(hand), snapshot(reference)
    del now["shared"], then["shared"]  # the same tables; the reference's deal an equal one
    assert now == then and hand.deal == reference.deal


def test_a_clone_undoes_on_its_own() -> None:
    """Clones share undo entries, never the state they restore."""
    game = Game.of(load_ruleset("wikipedia"))
    hand = game.new_hand(seed=9)
    rng = random.Random(9)
    while not hand.is_over:
        hand.apply(choose(rng, hand.legal_actions()))
    twin = hand.clone()
    for _ in range(12):
        twin.undo()
    assert hand.is_over and len(hand.tricks) == 10
    before = snapshot(twin)
    for _ in range(12):
        hand.undo()
    assert snapshot(twin) == before
    assert snapshot(hand) == snapshot(twin)


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_a_clone_copies_every_slot_and_plays_on_alone(name: str) -> None:
    """``clone`` spells out every slot: none may be forgotten, and at every step of a hand
    the clone equals the original, then goes its own way without touching it."""
    game = Game.of(load_ruleset(name))
    rng = random.Random(name)
    for number in range(4):
        hand = game.new_hand(seed=number, dealer=number % game.ruleset.players.count)
        while not hand.is_over:
            twin = hand.clone()
            for slot in Hand.__slots__:
                getattr(twin, slot)  # AttributeError if clone left it out
            assert snapshot(twin) == snapshot(hand)
            before = snapshot(hand)
            while not twin.is_over:
                twin.apply(choose(rng, twin.legal_actions()))
            while twin.history != hand.history and twin.actions:
                twin.undo()
            assert snapshot(hand) == before
            hand.apply(choose(rng, hand.legal_actions()))


HOUSE_RULES = {
    "kontra after his own card": {"kontra.window_opens": "after_own_card"},
    "marriages announced on play": {"marriages.announce": "on_play", "marriages.optional": False},
    "no duty to beat": {"play.must_beat": False},
    "open games laid down at once": {"open_games.after_trick": 0},
}


@pytest.mark.parametrize("rules", sorted(HOUSE_RULES))
def test_undo_and_the_fused_path_under_house_rules(rules: str) -> None:
    """The card paths that bundled rulesets do not take: a defender's kontra word right
    after his card, marriages announced after trick 1 (and due), the duties without
    beating, cards laid down before the first lead. Apply/undo at every step, and the
    fused path against the card loop."""
    from engine_fixtures import fixture_ruleset

    game = Game.of(fixture_ruleset(**HOUSE_RULES[rules]))
    rng = random.Random(rules)
    for number in range(10):
        hand = game.new_hand(seed=number, dealer=number % 3)
        while not hand.is_over:
            before = snapshot(hand)
            action = choose(rng, hand.legal_actions())
            hand.apply(action)
            assert hand.undo() == action
            assert snapshot(hand) == before
            hand.apply(action)
        while hand.phase != "auction" or hand.history:
            hand.undo()
            if hand.phase == "play" and hand.legal_cards():
                twin, loop = hand.clone(), hand.clone()
                twin.play_random(random.Random(number))
                loop_rng = random.Random(number)
                while loop.phase == "play" and loop.legal_cards():
                    loop.play_card(loop_rng.choice(loop.legal_card_list()))
                assert unjournaled(snapshot(twin)) == unjournaled(snapshot(loop))
                while len(twin.history) > len(hand.history):
                    twin.undo()
                assert unjournaled(snapshot(twin)) == unjournaled(snapshot(hand))
