"""Golden tests of the auction: talon passing, self-robbing, the end, and the variants.

Dealer 0: forehand is seat 1, then seat 2, then seat 0.
"""

from __future__ import annotations

import pytest
from ulti_rules.cards import format_card, parse_card, parse_cards
from ulti_rules.engine import Bid, DeclareTrump, Discard, GiveUp, Hand, Pass, PickUp
from ulti_rules.errors import IllegalAction

from engine_fixtures import deal_of, fixture_ruleset
from engine_support import snapshot


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def discard_any(hand: Hand) -> None:
    """Discard the first legal pair (every pair in these tests)."""
    seat = hand.current_player
    assert seat is not None
    first_two = hand.cards(seat)[:2]
    hand.apply(Discard(tuple(first_two)))


# --------------------------------------------------------------------------- the usual auction


def test_forehand_discards_then_must_bid() -> None:
    hand = Hand(fixture_ruleset(), seed=3, dealer=0)
    assert hand.phase == "auction" and hand.step == "discard"
    assert hand.current_player == 1 and len(hand.cards(1)) == 12
    assert len(hand.legal_actions()) == 66, "every pair may be discarded"
    with pytest.raises(IllegalAction, match="discard two cards first"):
        hand.apply(Bid("simple"))
    discard_any(hand)
    assert hand.step == "bid" and len(hand.cards(1)) == 10
    with pytest.raises(IllegalAction, match="the opener must bid"):
        hand.apply(Pass())
    hand.apply(Bid("simple"))
    assert hand.current_player == 2 and hand.bid == "simple"


def test_pick_up_obliges_a_higher_bid_and_a_discard() -> None:
    hand = Hand(fixture_ruleset(), seed=3, dealer=0)
    discard_any(hand)
    hand.apply(Bid("ulti"))
    with pytest.raises(IllegalAction, match="take the talon first"):
        hand.apply(Bid("betli"))
    hand.apply(PickUp())
    assert len(hand.cards(2)) == 12 and hand.step == "discard"
    discard_any(hand)
    before = snapshot(hand)
    with pytest.raises(IllegalAction, match="you took the talon, so you must bid higher"):
        hand.apply(Pass())
    with pytest.raises(IllegalAction, match="Simple Hearts does not overcall Ulti"):
        hand.apply(Bid("simple_red"))
    assert snapshot(hand) == before
    hand.apply(Bid("betli"))
    assert hand.bid == "betli" and hand.current_player == 0


def test_passing_does_not_stop_a_later_bid_and_three_passes_end() -> None:
    hand = Hand(fixture_ruleset(), seed=5, dealer=0)
    discard_any(hand)
    hand.apply(Bid("simple"))
    hand.apply(Pass())  # seat 2
    hand.apply(PickUp())  # seat 0
    discard_any(hand)
    hand.apply(Bid("simple_red"))
    hand.apply(Pass())  # seat 1
    hand.apply(PickUp())  # seat 2 bids after passing
    discard_any(hand)
    hand.apply(Bid("ulti"))
    hand.apply(Pass())  # seat 0
    hand.apply(Pass())  # seat 1
    assert hand.phase == "auction", "the last bidder's own pass is the third"
    hand.apply(Pass())  # seat 2
    assert hand.phase == "trump" and hand.declarer == 2 and hand.current_player == 2


def test_self_robbing() -> None:
    hand = Hand(fixture_ruleset(), seed=8, dealer=0)
    discard_any(hand)
    talon = hand.observation(1).talon
    assert talon is not None
    hand.apply(Bid("simple"))
    hand.apply(Pass())
    hand.apply(Pass())
    assert PickUp() in hand.legal_actions(), "the last bidder may take his own talon back"
    hand.apply(PickUp())
    assert set(talon) <= set(hand.cards(1))
    discard_any(hand)
    hand.apply(Bid("simple_red"))
    contract_before_end = hand.bid
    for _ in range(3):
        hand.apply(Pass())
    assert contract_before_end == "simple_red" and hand.phase == "play"
    assert hand.contract is not None and not hand.contract.uncontested


def test_no_self_robbing_where_the_ruleset_forbids_it() -> None:
    hand = Hand(fixture_ruleset(**{"auction.self_robbing": False}), seed=8, dealer=0)
    discard_any(hand)
    hand.apply(Bid("simple"))
    hand.apply(Pass())
    hand.apply(Pass())
    assert hand.legal_actions() == [Pass()]
    with pytest.raises(IllegalAction, match="no self-robbing"):
        hand.apply(PickUp())


def test_red_bid_fixes_hearts_and_others_name_trump_after() -> None:
    hand = Hand(fixture_ruleset(), seed=9, dealer=0)
    discard_any(hand)
    hand.apply(Bid("simple_red"))
    for _ in range(3):
        hand.apply(Pass())
    assert hand.phase == "play" and hand.trump == "hearts"
    hand = Hand(fixture_ruleset(), seed=9, dealer=0)
    discard_any(hand)
    with pytest.raises(IllegalAction, match="named after the auction"):
        hand.apply(Bid("simple", "acorns"))
    hand.apply(Bid("simple"))
    for _ in range(3):
        hand.apply(Pass())
    assert hand.phase == "trump"
    assert [a.suit for a in hand.legal_actions()] == ["acorns", "leaves", "bells"]  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction, match=r"hearts \(Piros\) cannot be trump"):
        hand.apply(DeclareTrump("hearts"))
    hand.apply(DeclareTrump("bells"))
    assert hand.trump == "bells" and hand.phase == "play" and hand.current_player == 1


def test_no_trump_bid_has_no_trump() -> None:
    hand = Hand(fixture_ruleset(), seed=9, dealer=0)
    discard_any(hand)
    hand.apply(Bid("betli"))
    for _ in range(3):
        hand.apply(Pass())
    assert hand.phase == "play" and hand.trump is None


# --------------------------------------------------------------------------- give up, uncontested


def test_give_up_a_plain_parti_before_the_first_lead() -> None:
    rules = fixture_ruleset(**{"simple.give_up_allowed": True})
    hand = Hand(rules, seed=4, dealer=0)
    discard_any(hand)
    hand.apply(Bid("simple"))
    for _ in range(3):
        hand.apply(Pass())
    assert GiveUp() in hand.legal_actions()
    hand.apply(GiveUp())
    assert hand.is_over and hand.gave_up and hand.facts is None
    contract = hand.contract
    assert contract is not None and contract.gave_up and contract.bid == "simple"


def test_give_up_only_a_plain_parti() -> None:
    rules = fixture_ruleset(**{"simple.give_up_allowed": True})
    hand = Hand(rules, seed=4, dealer=0)
    discard_any(hand)
    hand.apply(Bid("simple_red"))
    for _ in range(3):
        hand.apply(Pass())
    assert GiveUp() not in hand.legal_actions()
    with pytest.raises(IllegalAction, match="only a plain"):
        hand.apply(GiveUp())


def test_give_up_not_after_the_first_lead() -> None:
    rules = fixture_ruleset(**{"simple.give_up_allowed": True})
    hand = Hand(rules, seed=4, dealer=0)
    discard_any(hand)
    hand.apply(Bid("simple"))
    for _ in range(3):
        hand.apply(Pass())
    hand.apply(DeclareTrump("acorns"))
    assert GiveUp() in hand.legal_actions(), "still before the first lead"
    hand.play_card(hand.legal_card_list()[0])
    with pytest.raises(IllegalAction):
        hand.apply(GiveUp())


def test_uncontested_simple_flagged_and_played() -> None:
    hand = Hand(fixture_ruleset(), seed=2, dealer=0)
    discard_any(hand)
    hand.apply(Bid("simple"))
    for _ in range(3):
        hand.apply(Pass())
    contract = hand.contract
    assert contract is not None and contract.uncontested
    assert hand.phase == "trump", "played on where the ruleset says so"


def test_uncontested_simple_not_played_where_it_loses_double() -> None:
    rules = fixture_ruleset(
        **{"simple.uncontested": "lose_double", "simple.uncontested_played_out": False}
    )
    hand = Hand(rules, seed=2, dealer=0)
    discard_any(hand)
    hand.apply(Bid("simple"))
    for _ in range(3):
        hand.apply(Pass())
    assert hand.is_over and hand.facts is None
    contract = hand.contract
    assert contract is not None and contract.uncontested and not contract.gave_up


def test_opening_pass_bids_the_simple_gt() -> None:
    rules = fixture_ruleset(**{"auction.opener_pass_is_simple": True})
    hand = Hand(rules, seed=2, dealer=0)
    discard_any(hand)
    hand.apply(Pass())
    assert hand.bid == "simple" and hand.current_player == 2
    for _ in range(3):
        hand.apply(Pass())
    assert hand.declarer == 1 and hand.contract is not None and hand.contract.uncontested


def test_opener_may_pass_and_all_pass() -> None:
    rules = fixture_ruleset(**{"auction.opener_must_bid": False})
    hand = Hand(rules, seed=2, dealer=0)
    discard_any(hand)
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(Pass())
    assert hand.is_over and hand.passed_out
    assert hand.contract is None and hand.facts is None


# --------------------------------------------------------------------------- other deals


def test_set_aside_talon_and_direct_bids() -> None:
    rules = fixture_ruleset(
        **{
            "deal.packets": [[5, 5, 5], [5, 5, 5]],
            "deal.talon": "set_aside",
            "auction.talon_exchange_optional": True,
        }
    )
    hand = Hand(rules, seed=1, dealer=0)
    assert [len(hand.cards(s)) for s in range(3)] == [10, 10, 10]
    assert len(hand.deal.rest) == 2
    assert hand.step == "speak" and PickUp() in hand.legal_actions()
    hand.apply(Bid("simple"))
    hand.apply(PickUp())
    discard_any(hand)
    hand.apply(Bid("simple_red"))
    assert hand.bid == "simple_red"


def test_no_talon_deal_keeps_two_cards_out_of_play() -> None:
    rules = fixture_ruleset(**{"deal.packets": [[5, 5, 5], [5, 5, 5]], "deal.talon": "none"})
    hand = Hand(rules, seed=1, dealer=0)
    assert [len(hand.cards(s)) for s in range(3)] == [10, 10, 10]
    assert PickUp() not in hand.legal_actions()
    hand.apply(Bid("simple_red"))
    for _ in range(3):
        hand.apply(Pass())
    assert hand.talon == hand.deal.rest
    while not hand.is_over:
        while hand.phase == "kontra":
            hand.apply(Pass())
        hand.play_card(hand.legal_card_list()[0])
    facts = hand.facts
    assert facts is not None and facts.talon == hand.deal.rest


# --------------------------------------------------------------------------- two rounds

TWO_ROUND = {
    "first_round_cards": 5,
    "multiplier": 2,
    "opener_must_bid": True,
    "end_passes": 2,
    "trump_named": "with_bid",
    "overcall_by": "rank",
    "same_trump_binds_others": False,
}


def two_round_hand(**changes: object) -> Hand:
    rules = fixture_ruleset(**{"auction.two_round": {**TWO_ROUND, **changes}})
    round1 = {1: "MA MX ZA ZX TVII", 2: "PA PX PK TA TX", 0: "ZK ZF ZAl ZIX ZVIII"}
    later = {1: "MK MF MAl MIX MVIII", 2: "MVII ZVII PF PAl PIX", 0: "PVIII PVII TK TF TAl"}
    hands = {s: round1[s] + " " + later[s] for s in round1}
    deal = deal_of(rules, 0, hands, rest="TIX TVIII")
    return Hand(rules, deal=deal, dealer=0)


def test_two_round_confirm_keeps_the_round1_multiplier() -> None:
    hand = two_round_hand()
    assert [len(hand.cards(s)) for s in (1, 2, 0)] == [5, 5, 5]
    assert hand.step == "round1"
    with pytest.raises(IllegalAction, match="must open round 1"):
        hand.apply(Pass())
    with pytest.raises(IllegalAction, match="name the trump suit with the bid"):
        hand.apply(Bid("simple"))
    hand.apply(Bid("simple", "acorns"))
    hand.apply(Pass())
    hand.apply(Pass())
    # Round 1 is over: the winner takes the two extra cards, everybody the rest.
    assert [len(hand.cards(s)) for s in (1, 2, 0)] == [12, 10, 10]
    assert {parse_card("TIX"), parse_card("TVIII")} <= set(hand.cards(1))
    assert hand.step == "discard" and hand.current_player == 1
    hand.apply(Discard(cards("TIX TVIII")))
    assert hand.step == "confirm"
    legal = hand.legal_actions()
    assert Bid("simple", "acorns") in legal and Pass() not in legal
    assert all(getattr(a, "trump", None) == "acorns" for a in legal if a.type == "bid")
    with pytest.raises(IllegalAction, match="keeps the round-1 trump"):
        hand.apply(Bid("ulti", "leaves"))
    hand.apply(Bid("simple", "acorns"))
    for _ in range(3):
        hand.apply(Pass())
    assert hand.phase == "play" and hand.trump == "acorns"
    contract = hand.contract
    assert contract is not None and contract.multiplier == 2 and contract.declarer == 1


def test_two_round_raise_sets_the_multiplier_back() -> None:
    hand = two_round_hand()
    hand.apply(Bid("simple", "acorns"))
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(Discard(cards("TIX TVIII")))
    hand.apply(Bid("forty_hundred", "acorns"))  # holds Makk K + F after the deal
    for _ in range(3):
        hand.apply(Pass())
    contract = hand.contract
    assert contract is not None and contract.multiplier == 1
    assert contract.bid == "forty_hundred" and contract.trump == "acorns"


def test_two_round_overcalled_by_another_player() -> None:
    hand = two_round_hand()
    hand.apply(Bid("simple", "acorns"))
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(Discard(cards("TIX TVIII")))
    hand.apply(Bid("simple", "acorns"))
    hand.apply(PickUp())  # seat 2
    hand.apply(Discard(cards("TIX TVIII")))
    hand.apply(Bid("betli"))
    for _ in range(3):
        hand.apply(Pass())
    contract = hand.contract
    assert contract is not None and contract.multiplier == 1 and contract.declarer == 2


def test_two_round_trump_named_before_the_extra_cards() -> None:
    hand = two_round_hand(trump_named="before_extra_cards")
    hand.apply(Bid("simple"))
    hand.apply(Pass())
    hand.apply(Pass())
    assert hand.step == "round1_trump" and len(hand.cards(1)) == 5
    hand.apply(DeclareTrump("leaves"))
    assert len(hand.cards(1)) == 12
    hand.apply(Discard(cards("TIX TVIII")))
    assert Bid("simple", "leaves") in hand.legal_actions()
    hand.apply(Bid("simple", "leaves"))
    for _ in range(3):
        hand.apply(Pass())
    assert hand.trump == "leaves" and hand.contract is not None
    assert hand.contract.multiplier == 2


def test_two_round_everyone_passes_round1() -> None:
    hand = two_round_hand(opener_must_bid=False)
    for _ in range(3):
        hand.apply(Pass())
    assert [len(hand.cards(s)) for s in (1, 2, 0)] == [12, 10, 10]
    assert hand.step == "discard" and hand.current_player == 1
    discard_any(hand)
    with pytest.raises(IllegalAction, match="opener must bid"):
        hand.apply(Pass())


def test_observation_hides_the_talon_but_from_its_holders() -> None:
    hand = Hand(fixture_ruleset(), seed=12, dealer=0)
    discard_any(hand)
    laid = hand.observation(1).talon
    assert laid is not None and len(laid) == 2
    assert hand.observation(2).talon is None
    assert hand.observation(2).history[0] == (1, None)
    assert hand.observation(2).to_dict()["history"][0]["cards"] is None
    hand.apply(Bid("simple"))
    hand.apply(PickUp())
    seen = hand.observation(2)
    assert seen.events[-1].picked_up == laid
    assert seen.to_dict()["history"][-1]["cards"] == [format_card(c) for c in laid]
    assert hand.observation(0).events[-1].picked_up is None
    assert "cards" not in hand.observation(0).to_dict()["history"][-1]
    assert len(seen.hand) == 12 and seen.hand_sizes == {1: 10, 2: 12, 0: 10}
    assert seen.legal_actions and hand.observation(0).legal_actions == ()


def test_min_components_refuses_a_lone_simple() -> None:
    hand = Hand(fixture_ruleset(**{"auction.min_components": 2}), seed=8, dealer=0)
    discard_any(hand)
    bids = [a for a in hand.legal_actions() if isinstance(a, Bid)]
    assert bids and all(len(hand.game.bid(b.bid).bid.components) >= 2 for b in bids)
    with pytest.raises(IllegalAction, match="at least 2 components"):
        hand.apply(Bid("simple"))
