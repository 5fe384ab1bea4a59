"""``apply`` takes an action ``legal_actions()`` just listed without checking it again:
never one the caller slipped into the list, and never after anything changed."""

from __future__ import annotations

import pytest
from ulti_rules import IllegalAction
from ulti_rules.engine import Bid, Discard, Pass, PickUp
from ulti_rules.game import Game
from ulti_rules.ruleset.loading import load_ruleset


def test_an_action_added_to_the_returned_list_is_still_checked() -> None:
    hand = Game.of(load_ruleset("wikipedia")).new_hand(seed=3)
    listed = hand.legal_actions()
    stranger = Bid("no-such-bid")
    listed.append(stranger)
    with pytest.raises(IllegalAction):
        hand.apply(stranger)
    assert hand.history == ()


def test_a_listed_action_is_checked_again_once_the_hand_moved_on() -> None:
    """The forehand's first discard is listed; after it, the same object is no longer
    legal (he holds ten cards and must bid) and is refused."""
    hand = Game.of(load_ruleset("wikipedia")).new_hand(seed=3)
    discard = next(a for a in hand.legal_actions() if isinstance(a, Discard))
    hand.apply(discard)
    with pytest.raises(IllegalAction):
        hand.apply(discard)
    assert len(hand.history) == 1


def test_an_equal_action_built_by_the_caller_is_taken_after_the_check() -> None:
    hand = Game.of(load_ruleset("wikipedia")).new_hand(seed=3)
    hand.legal_actions()
    for action in (Pass(), PickUp()):
        with pytest.raises(IllegalAction):
            hand.apply(action)  # forehand discards first: neither is legal yet
    discard = next(a for a in hand.legal_actions() if isinstance(a, Discard))
    hand.apply(Discard(tuple(discard.cards)))
    assert hand.history[-1][1] == discard


def test_a_refused_action_leaves_the_listing_usable() -> None:
    hand = Game.of(load_ruleset("wikipedia")).new_hand(seed=3)
    listed = hand.legal_actions()
    with pytest.raises(IllegalAction):
        hand.apply(Pass())
    hand.apply(listed[0])
    assert hand.history[-1][1] is listed[0]
