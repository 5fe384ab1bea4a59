"""An action that fails half way leaves the hand as it was before it.

``Hand.apply``, ``play_card`` and ``play_random`` change the hand in several steps (the
history, the auction, the kontra chains, the trick). Should one of them raise after
the first (a fault in the engine, a Ctrl-C while a program plays), the hand an app
catches the error with must be the one it had: not one with the action in its history
and half its effect. Faults are injected here into each step an action goes through:
the step does its work, then raises; the hand is then compared, every piece of its
state and everything a caller reads, with what it was before the action.
"""

from __future__ import annotations

import random
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import product
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from ulti_rules import Action, Bid, Pass, Phase
from ulti_rules.engine import Hand
from ulti_rules.engine.auction import Auction
from ulti_rules.engine.kontra import KontraChains
from ulti_rules.game import Game
from ulti_rules.ruleset.loading import load_ruleset

from conftest import BUNDLED_RULESETS
from engine_support import choose, snapshot
from test_undo import HOUSE_RULES, seen

STEPS = (
    (Auction, "apply"),
    (Hand, "_finish_auction"),
    (Hand, "_start_play"),
    (Hand, "_give_up"),
    (Hand, "_announce"),
    (Hand, "_kontra_round"),
    (Hand, "_after_card_word"),
    (KontraChains, "apply"),
    (Hand, "_opens_word"),
    (Hand, "_close_trick"),
)
"""The steps an action's effect goes through (each called after the action is recorded)."""


class Injected(Exception):
    """The fault a step raises once it has done its work."""


class Faults:
    """The steps of ``STEPS``, each raising ``armed`` (once) after doing its work: the
    first step the action reaches, or only the step named by ``at``."""

    def __init__(self) -> None:
        self.armed: BaseException | None = None
        self.at: str | None = None
        self.fired: Counter[str] = Counter()

    def wrap(self, owner: type, name: str) -> Any:
        original = getattr(owner, name)
        label = f"{owner.__name__}.{name}"

        def faulty(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            error = self.armed
            if error is not None and self.at in (None, label):
                self.armed = None
                self.fired[label] += 1
                raise error
            return result

        return faulty


@pytest.fixture
def faults(monkeypatch: pytest.MonkeyPatch) -> Iterator[Faults]:
    found = Faults()
    for owner, name in STEPS:
        monkeypatch.setattr(owner, name, found.wrap(owner, name))
    yield found


def _error(rng: random.Random) -> BaseException:
    """Now and then a Ctrl-C rather than a fault: the same promise holds."""
    return KeyboardInterrupt() if rng.random() < 0.2 else Injected("a step failed")


LABELS = [f"{owner.__name__}.{name}" for owner, name in STEPS]


def _games() -> Iterator[tuple[str, Game]]:
    """Every bundled ruleset, and the house rules whose paths they do not take (a
    defender's kontra word after his card, marriages announced on play, giving up)."""
    from engine_fixtures import fixture_ruleset

    for name in BUNDLED_RULESETS:
        yield name, Game.of(load_ruleset(name))
    for rules in ("kontra after his own card", "marriages announced on play"):
        yield rules, Game.of(fixture_ruleset(**HOUSE_RULES[rules]))
    yield "giving up", Game.of(fixture_ruleset(**{"simple.give_up_allowed": True}))


def _policy(name: str) -> Callable[[random.Random, list[Action]], Action]:
    """``choose``; where giving up is allowed, the auction steered to a plain Simple (random
    bids seldom end there), whose declarer may give up before the first lead."""
    if name != "giving up":
        return choose

    def to_simple(rng: random.Random, legal: list[Action]) -> Action:
        for wanted in (Bid("simple"), Pass()):
            if wanted in legal:
                return wanted
        return choose(rng, legal)

    return to_simple


def _same(hand: Hand, state: dict[str, Any], view: dict[str, Any]) -> None:
    assert snapshot(hand) == state
    assert seen(hand) == view
    assert len(hand._undo) == len(hand.history)


def test_a_failed_action_leaves_the_hand_as_it_was(faults: Faults) -> None:
    """At every step of random hands, the action chosen and one legal action of each
    other type are tried on clones of the hand with a fault at each step in turn; a
    clone whose action failed is the hand before it."""
    rng = random.Random(8)
    for name, game in _games():
        policy = _policy(name)
        for number in range(3):
            hand = game.new_hand(seed=f"atomic-{name}-{number}", dealer=number % 3)
            while not hand.is_over:
                state, view = snapshot(hand), seen(hand)
                legal = hand.legal_actions()
                action = policy(rng, legal)
                each_type = {a.type: a for a in reversed(legal)}  # the first of each type
                for tried, faults.at in product({action, *each_type.values()}, LABELS):
                    trial = hand.clone()
                    faults.armed = error = _error(rng)
                    try:
                        trial.apply(tried)
                    except (Injected, KeyboardInterrupt) as caught:
                        assert caught is error
                        _same(trial, state, view)
                    faults.armed = None
                hand.apply(action)  # and the hand goes on with it
    assert set(faults.fired) == set(LABELS), faults.fired


def test_random_cards_that_fail_half_way_leave_the_hand_as_before_the_call(
    faults: Faults,
) -> None:
    """``play_random`` plays many cards in one call: a fault in any of them, or a Ctrl-C,
    leaves the hand as it was before the call."""
    rng = random.Random(9)
    for name, game in _games():
        for number in range(3):
            hand = game.new_hand(seed=f"playout-{name}-{number}", dealer=number % 3)
            while not hand.is_over:
                if hand.phase is not Phase.PLAY or not hand.legal_cards():
                    hand.apply(choose(rng, hand.legal_actions()))
                    continue
                state, view = snapshot(hand), seen(hand)
                seed = rng.random()
                for faults.at in LABELS:
                    trial = hand.clone()
                    faults.armed = error = _error(rng)
                    try:
                        trial.play_random(random.Random(seed))
                    except (Injected, KeyboardInterrupt) as caught:
                        assert caught is error
                        _same(trial, state, view)
                    faults.armed = None
                hand.play_random(random.Random(seed))
    assert {"Hand._close_trick", "Hand._opens_word"} <= set(faults.fired), faults.fired


ENGINE = str(Path(Hand.__init__.__code__.co_filename).parent)
"""The engine's folder: the lines a Ctrl-C may land on below."""


class _CtrlC:
    """A ``sys.settrace`` hook: Ctrl-C (SIGINT, to this process) at the ``at``-th line the
    engine runs (0: none; ``lines`` counts them). Where Ctrl-C is held off it is answered
    later, as a real press would be; elsewhere the KeyboardInterrupt comes out of that
    line, and Python drops the hook."""

    def __init__(self, at: int = 0) -> None:
        self.at, self.lines, self.interrupted = at, 0, False

    def __call__(self, frame: FrameType, event: str, arg: Any) -> Any:
        return self.line if frame.f_code.co_filename.startswith(ENGINE) else None

    def line(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            self.lines += 1
            if self.lines == self.at:
                signal.raise_signal(signal.SIGINT)
        return self.line


def _traced(hand: Hand, take: Callable[[Hand], object], at: int = 0) -> _CtrlC:
    hook = _CtrlC(at)
    sys.settrace(hook)
    try:
        take(hand)
    except KeyboardInterrupt:
        assert at, "a Ctrl-C nobody pressed"
        hook.interrupted = True
    finally:
        sys.settrace(None)
    return hook


def _whole_or_not_at_all(
    hand: Hand, take: Callable[[Hand], object], rng: random.Random, ended: Counter[str]
) -> None:
    """``take`` on clones of ``hand``, a Ctrl-C landing on some of the lines it runs: each
    clone is the hand before it or the hand after it, nothing in between (``ended``
    counts which)."""
    before = (snapshot(hand), seen(hand))
    whole = hand.clone()
    take(whole)
    after = (snapshot(whole), seen(whole))
    lines = _traced(hand.clone(), take).lines
    for at in rng.sample(range(1, lines + 1), min(3, lines)):
        trial = hand.clone()
        hook = _traced(trial, take, at)
        assert hook.lines >= at and hook.interrupted  # answered, at once or once held off
        ended["before" if (snapshot(trial), seen(trial)) == before else "after"] += 1
        assert (snapshot(trial), seen(trial)) in (before, after), at
        assert len(trial._undo) == len(trial.history)


def test_a_ctrl_c_on_any_line_of_an_action_takes_it_whole_or_not_at_all() -> None:
    """A real Ctrl-C lands between two lines, also before the step that writes the action
    down or between two writes (found in review: an undo entry without its action); the
    lines are drawn among all the engine runs for the action, the steps' own included.
    ``undo()`` too: a card is taken back in place, its entry and action dropped last."""
    rng = random.Random(10)
    ended: dict[str, Counter[str]] = {
        kind: Counter() for kind in ("action", "cards", "card taken back", "action taken back")
    }
    for name, game in _games():
        policy = _policy(name)
        hand = game.new_hand(seed=f"lines-{name}", dealer=1)
        while not hand.is_over:
            if hand.history:  # cards the fused path played, too
                kind = "action taken back" if hand._undo[-1] is None else "card taken back"
                if rng.random() < (0.15 if kind == "action taken back" else 0.6):
                    _whole_or_not_at_all(hand, Hand.undo, rng, ended[kind])
            if hand.phase is Phase.PLAY and hand.legal_cards() and rng.random() < 0.3:
                seed = rng.random()
                play = lambda h, s=seed: h.play_random(random.Random(s))  # noqa: E731
                _whole_or_not_at_all(hand, play, rng, ended["cards"])
                play(hand)
                continue
            action = policy(rng, hand.legal_actions())
            _whole_or_not_at_all(hand, lambda h, a=action: h.apply(a), rng, ended["action"])
            hand.apply(action)
    # A hand that always finished what was interrupted would pass each comparison above:
    # most interrupts must have put it back. Actions and cards end "after" only when the
    # press lands on their last line or two; an action taken back by a replay mostly ends
    # "after", since Ctrl-C is held off while the replayed hand takes over.
    for kind in ("action", "cards", "card taken back"):
        assert ended[kind]["before"] >= 4 * ended[kind]["after"], ended
    assert ended["action"]["after"] and ended["action taken back"]["after"], ended
    assert ended["action taken back"]["before"], ended


def test_a_second_ctrl_c_while_the_hand_is_put_back_is_answered_once_it_is_whole(
    faults: Faults,
) -> None:
    """The hand is put back by replaying its actions: a Ctrl-C pressed meanwhile waits
    until the hand is whole (found in review: it stopped the replay and left the failed
    action's effect in place), then comes out instead of the fault."""
    game = Game.of(load_ruleset("wikipedia"))
    hand = game.new_hand(seed="put back", dealer=0)
    rng = random.Random(11)
    while hand.phase is not Phase.PLAY or len(hand.history) < 12:
        hand.apply(choose(rng, hand.legal_actions()))
    state, view = snapshot(hand), seen(hand)
    presses: list[int] = []
    replay = Hand._replay

    def pressed_while_replaying(self: Hand, actions: Any) -> None:
        start = Hand.__init__

        def pressing(new: Hand, *args: Any, **kwargs: Any) -> None:
            start(new, *args, **kwargs)
            presses.append(1)
            signal.raise_signal(signal.SIGINT)  # while the actions are played again

        Hand.__init__ = pressing  # type: ignore[method-assign]
        try:
            replay(self, actions)
        finally:
            Hand.__init__ = start  # type: ignore[method-assign]

    faults.at, faults.armed = "Hand._close_trick", Injected("a step failed")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Hand, "_replay", pressed_while_replaying)
        with pytest.raises(KeyboardInterrupt) as caught:
            while True:  # cards until one closes a trick, and that step fails
                state, view = snapshot(hand), seen(hand)
                hand.play_card(hand.legal_card_list()[0])
    assert presses == [1] and isinstance(caught.value.__context__, Injected)
    assert faults.fired == {"Hand._close_trick": 1}
    _same(hand, state, view)
