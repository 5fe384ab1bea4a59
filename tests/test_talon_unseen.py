"""Whether a seat may take the talon depends only on what the seat knows.

Taking the talon obliges a higher bid. The engine offered the pick-up only where the
talon's very cards made a higher bid makeable, so a seat shown its legal actions learned
whether the face-down talon completed a marriage for it (found by a fault review). Now a
talon the seat did not lay counts with every two cards the seat does not hold; should the
real one make no bid, the seat bids even so, "even if the hand is unsuitable" (HU), and
loses the bid's marriage component.
"""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest
from ulti_rules import Bid, Discard, Pass, PickUp, load_game, parse_cards, settle
from ulti_rules.bots import RandomBot, play_out
from ulti_rules.engine import Hand
from ulti_rules.engine.masks import cards_of, mask_of_distinct
from ulti_rules.engine.trump import feasible_suits

from conftest import BUNDLED_RULESETS

# Seat 1 (forehand) holds every King and Over; seat 2 holds no marriage card at all.
HANDS = [
    parse_cards("MVIII MVII ZVIII ZVII PAl PIX PVIII PVII TVIII TVII"),
    parse_cards("MK MF ZK ZF PK PF TK TF TA TX TAl TIX"),
    parse_cards("MA MX MAl MIX ZA ZX ZAl ZIX PA PX"),
]


def after_a_top_bid(discard: str) -> Hand:
    """Forehand lays ``discard`` down and bids a Red Open Ulti Durchmars: every bid above
    it needs a marriage, which seat 2 can only get from the talon."""
    hand = load_game("wikipedia").new_hand(deal=(HANDS, []), dealer=0)
    hand.apply(Discard(tuple(sorted(parse_cards(discard)))))
    hand.apply(Bid("ulti_open_durchmars_red"))
    return hand


def test_what_seat_2_may_do_does_not_tell_it_what_lies_in_the_talon() -> None:
    marriage, none = after_a_top_bid("MK MF"), after_a_top_bid("TAl TIX")
    assert marriage.observation(2) == none.observation(2)
    assert none.legal_actions() == marriage.legal_actions() == [PickUp(), Pass()]
    assert none.why_refused(PickUp()) is None


def test_a_talon_that_brings_no_marriage_obliges_a_bid_even_so() -> None:
    hand = after_a_top_bid("TAl TIX")
    hand.apply(PickUp())
    held = hand.cards(2)
    assert hand.legal_actions() == [Discard(p) for p in combinations(held, 2)]  # all 66
    hand.apply(Discard(tuple(held[:2])))
    bids = hand.legal_actions()
    assert bids and all(isinstance(b, Bid) for b in bids)  # no pass: the talon obliges
    assert {b.bid for b in bids} >= {"forty_hundred_ulti_open_durchmars_red"}
    hand.apply(Bid("forty_hundred_ulti_open_durchmars_red"))
    while hand.phase == "auction":  # the others let it stand
        hand.apply(Pass() if Pass() in hand.legal_actions() else hand.legal_actions()[0])
    play_out(hand, [RandomBot()] * 3, random.Random(1))
    assert hand.contract is not None and hand.facts is not None
    assert (hand.contract.declarer, hand.contract.bid) == (
        2,
        "forty_hundred_ulti_open_durchmars_red",
    )
    settled = settle(hand.game, hand.contract, hand.facts)
    assert not settled.line("forty_hundred").made  # the 40 was never held
    assert sum(settled.payments.values()) == 0


def twins(hand: Hand, rng: random.Random) -> list[Hand]:
    """Copies of ``hand`` with a talon card swapped for a card of a seat that is not to
    act: what the acting seat knows is the same in each."""
    auction = hand._auction
    seat, talon = auction.turn, auction.talon
    assert talon is not None
    found = []
    for other in hand.seats.active:
        if other == seat:
            continue
        for taken in talon:
            given = rng.choice(cards_of(hand._hands[other]))
            twin = hand.clone()
            twin._hands[other] = (twin._hands[other] & ~(1 << given)) | (1 << taken)
            twin._auction.talon = tuple(sorted({*talon} - {taken} | {given}))
            twin._auction.talon_mask = mask_of_distinct(twin._auction.talon)
            found.append(twin)
    return found


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_the_talon_s_cards_never_change_what_a_seat_may_do(name: str) -> None:
    """Every auction state where a seat may take a talon another laid, against copies
    with other cards in that talon: the same legal actions and the same refusals."""
    game = load_game(name)
    asked = only_marriages = 0
    for number in range(150):
        rng = random.Random(number)
        hand = game.new_hand(seed=number, dealer=number % game.ruleset.players.count)
        while not hand.is_over:
            auction = hand._auction if hand.phase == "auction" else None
            if auction is not None and auction.step == "speak" and auction.talon is not None:
                seat = auction.turn
                if auction.talon_by != seat:
                    asked += 1
                    situation = auction._situation(False)
                    only_marriages += not auction._at_all(situation, False)[1]
                    for twin in twins(hand, rng):
                        assert twin.legal_actions() == hand.legal_actions()
                        assert twin.why_refused(PickUp()) == hand.why_refused(PickUp())
            hand.apply(rng.choice(hand.legal_actions()))
    assert asked > 100
    if name == "wikipedia":
        assert only_marriages > 0, "no state had only marriage bids above: the case went untested"


NO_RED_TOP = """\
name: no-red-top
title: Wikipedia without the red bids above rank 31
extends: wikipedia
ladder:
""" + "".join(
    f"  {bid}: null\n"
    for bid in [
        "twenty_hundred_four_aces_red",
        "twenty_hundred_ulti_red",
        "open_durchmars_red",
        "plain_open_durchmars",
        "forty_hundred_ulti_durchmars_red",
        "twenty_hundred_durchmars_red",
        "twenty_hundred_ulti_four_aces_red",
        "forty_hundred_open_durchmars_red",
        "ulti_open_durchmars_red",
        "twenty_hundred_ulti_durchmars_red",
        "forty_hundred_ulti_open_durchmars_red",
        "twenty_hundred_open_durchmars_red",
        "twenty_hundred_ulti_open_durchmars_red",
    ]
)


def test_an_unsuitable_bid_names_any_trump_and_no_hand_sticks(tmp_path: Path) -> None:
    """With suit-of-choice hundred bids at the top of the ladder, trump is named after the
    auction. A declarer who bid one unsuitable held no marriage for any suit, and was
    offered none: 621 random hands in 3,000 stuck with no legal action (found by a review
    of the change). Now every suit of the bid is offered, and the 100 is lost."""
    path = tmp_path / "no-red-top.yaml"
    path.write_text(NO_RED_TOP, encoding="utf-8")
    game = load_game(path)
    named_unheld = 0
    for number in range(400):
        rng = random.Random(number)
        hand = game.new_hand(seed=number, dealer=number % 3)
        while not hand.is_over:
            legal = hand.legal_actions()
            assert legal, (number, hand.phase, hand.history[-4:])
            if hand.phase == "trump" and hand.bid_info is not None and hand.bid_info.hundred:
                held = {
                    s
                    for s in hand.bid_info.suits
                    if feasible_suits(hand.bid_info, hand._hands[hand.declarer], (s,))
                }
                named_unheld += not held
            hand.apply(rng.choice(legal))
    assert named_unheld > 0, "no declarer named trump without the marriage: untested"
