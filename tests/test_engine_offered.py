"""``apply`` takes an action ``legal_actions()`` just listed without checking it again
(where every pair of the seat's cards was listed to discard, a discard of two held cards):
never one the caller slipped into the list that the rules refuse, and never after
anything changed."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from ulti_rules import IllegalAction
from ulti_rules.engine import Bid, Discard, Hand, Pass, PickUp
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


def test_an_equal_action_built_by_the_caller_is_taken() -> None:
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


def test_every_pair_listed_takes_a_discard_of_two_held_cards_and_refuses_the_rest() -> None:
    """Where the discards listed are every pair of the seat's cards, ``apply`` knows a
    discard by its cards: two held cards are taken, in any order given; a card not held,
    one card or three are refused with the rule, and the hand is unchanged."""
    hand = Game.of(load_ruleset("wikipedia")).new_hand(seed=3)
    listed = hand.legal_actions()
    held = hand.cards(hand.current_player)
    assert len(listed) == len(held) * (len(held) - 1) // 2  # every pair
    low = next(c for c in range(32) if c not in held and c < held[-1])  # sorted first
    high = next(c for c in range(32) if c not in held and c > held[0])  # sorted second
    wrongs = (
        Discard((low, held[-1])),
        Discard((held[0], high)),
        Discard((held[0],)),
        Discard(tuple(held[:3])),
    )
    for wrong in wrongs:
        with pytest.raises(IllegalAction) as refused:
            hand.apply(wrong)
        assert str(refused.value) == hand.why_refused(wrong)
        assert hand.history == () and hand.cards(hand.current_player) == held
    with pytest.raises(IllegalAction):
        hand.apply(Pass())  # not a discard at all
    seat = hand.current_player
    hand.apply(Discard((held[5], held[2])))
    assert hand.history[-1][1] == Discard((held[2], held[5]))
    assert hand.cards(seat) == [c for c in held if c not in (held[2], held[5])]


def test_a_discard_left_out_of_a_short_listing_is_refused() -> None:
    """Where a discard would lose the only bid the seat may make, the listing leaves those
    pairs out: each pair of held cards is taken exactly when it is listed."""
    game = Game.of(load_ruleset("wikipedia"))
    for seed in range(400):
        rng = random.Random(seed)
        hand = game.new_hand(seed=seed)
        while not hand.is_over and hand.phase == "auction":
            listed = hand.legal_actions()
            if isinstance(listed[0], Discard):
                held = hand.cards(hand.current_player)
                if len(listed) < len(held) * (len(held) - 1) // 2:
                    break
            hand.apply(rng.choice(listed))
        else:
            continue
        break
    else:
        pytest.fail("no short listing of discards in 400 random auctions")
    offered = set(listed)
    for first, second in combinations(held, 2):
        copy = hand.clone()
        copy.legal_actions()
        pair = Discard((second, first))
        if pair in offered:
            copy.apply(pair)
            assert copy.history[-1][1] == pair
        else:
            with pytest.raises(IllegalAction):
                copy.apply(pair)
            assert copy.history == hand.history


def test_a_discard_of_every_pair_listed_is_taken_without_the_rules_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fast way is the one taken: after a listing of every pair, a discard of two held
    cards (the listed object or an equal one) asks no rule again."""
    asked: list[object] = []
    why_refused = Hand.why_refused

    def counting(self: Hand, action: object) -> str | None:
        asked.append(action)
        return why_refused(self, action)

    monkeypatch.setattr(Hand, "why_refused", counting)
    game = Game.of(load_ruleset("wikipedia"))
    for seed in range(3):
        hand = game.new_hand(seed=seed)
        listed = hand.legal_actions()
        hand.apply(listed[seed] if seed < 2 else Discard(tuple(reversed(listed[-1].cards))))
    assert asked == []
