"""Golden tests of trick play: in each, one card decides what the rules allow.

Dealer 0, so forehand (the declarer in these tests) is seat 1, then seat 2, then
seat 0. Cards in Hungarian notation: M Makk (acorns), Z Zöld (leaves), P Piros
(hearts), T Tök (bells); A K F(első) Al(só) X IX VIII VII.
"""

from __future__ import annotations

import pytest
from ulti_rules.cards import parse_card
from ulti_rules.contracts.tally import talon_points_for
from ulti_rules.engine import Hand, Pass, Play
from ulti_rules.errors import IllegalAction

from engine_fixtures import bid_and_play, deal_of, fixture_ruleset
from engine_support import snapshot


def c(text: str) -> int:
    return parse_card(text)


def skip_kontra_round(hand: Hand) -> None:
    while hand.phase == "kontra":
        hand.apply(Pass())


def play(hand: Hand, *cards: str) -> None:
    for card in cards:
        hand.apply(Play(c(card)))


# --------------------------------------------------------------------------- must beat


def must_beat_hand(second: str) -> Hand:
    """Hearts trump; the declarer leads the Makk IX; seat 2 holds ``second`` and the Makk VIII."""
    rules = fixture_ruleset()
    others = {"MX", "MVII"} - {second}
    deal = deal_of(
        rules,
        0,
        {
            1: "MIX TVII TVIII",
            2: f"{second} MVIII",
            0: "MA MK MF MAl " + " ".join(others),
        },
    )
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "simple_red", "TVII TVIII")
    play(hand, "MIX")
    return hand


def test_must_beat_when_able() -> None:
    hand = must_beat_hand("MX")
    assert hand.current_player == 2
    before = snapshot(hand)
    with pytest.raises(IllegalAction, match="must beat the Makk IX"):
        hand.apply(Play(c("MVIII")))
    assert snapshot(hand) == before
    assert hand.legal_card_list() == (c("MX"),)
    hand.apply(Play(c("MX")))


def test_no_beater_any_card_of_the_suit() -> None:
    hand = must_beat_hand("MVII")
    assert set(hand.legal_card_list()) == {c("MVIII"), c("MVII")}
    hand.apply(Play(c("MVIII")))


def test_must_beat_also_holds_for_the_third_card() -> None:
    hand = must_beat_hand("MX")
    play(hand, "MX")
    # Seat 0 holds the Ace, King, Over, Under: only the Ace beats the Makk X.
    assert hand.legal_card_list() == (c("MA"),)
    with pytest.raises(IllegalAction, match="must beat the Makk X"):
        hand.apply(Play(c("MK")))


# --------------------------------------------------------------------------- trump forcing


def trump_forcing_hand(seat2: str) -> Hand:
    """Hearts trump; the declarer leads the Makk IX; seat 2 has no acorns."""
    rules = fixture_ruleset()
    hearts = {"PA", "PX", "PK", "PF", "PAl", "PIX", "PVIII", "PVII"} - set(seat2.split())
    deal = deal_of(
        rules,
        0,
        {
            1: "MIX TA TX " + " ".join(sorted(hearts)),
            2: seat2,
            0: "MA MX MK MF MAl MVIII MVII",
        },
    )
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "simple_red", "TA TX")
    play(hand, "MIX")
    return hand


def test_void_must_trump() -> None:
    hand = trump_forcing_hand("PVII ZVII")
    with pytest.raises(IllegalAction, match=r"must trump: no acorns \(Makk\) in hand"):
        hand.apply(Play(c("ZVII")))
    assert hand.legal_card_list() == (c("PVII"),)
    play(hand, "PVII")
    play(hand, "MA")
    assert hand.tricks[0][2] == 2, "the lone trump wins the trick"


def test_void_without_trumps_any_card() -> None:
    hand = trump_forcing_hand("ZVII")
    assert len(hand.legal_card_list()) == 10
    hand.apply(Play(c("ZVII")))


def test_following_suit_after_a_ruff_needs_no_beating() -> None:
    hand = trump_forcing_hand("PVII ZVII")
    play(hand, "PVII")
    # Seat 0 follows acorns (it holds them): it cannot beat a trump, so any acorn will do.
    assert set(hand.legal_card_list()) == {
        c(x) for x in ("MA", "MX", "MK", "MF", "MAl", "MVIII", "MVII")
    }


def test_void_must_overtrump_when_able() -> None:
    rules = fixture_ruleset()
    deal = deal_of(
        rules,
        0,
        {1: "MA MX MK MF MAl MIX MVIII MVII TA TX PX PK", 2: "PVIII PF PAl PIX", 0: "PA PVII"},
    )
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "simple_red", "TA TX")
    play(hand, "MIX", "PVIII")
    with pytest.raises(IllegalAction, match="must beat the Piros VIII"):
        hand.apply(Play(c("PVII")))
    assert hand.legal_card_list() == (c("PA"),)


# --------------------------------------------------------------------------- follow suit


def test_must_follow_message() -> None:
    rules = fixture_ruleset()
    deal = deal_of(rules, 0, {1: "PIX TVII TVIII", 2: "PVII ZA"})
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "simple", "TVII TVIII", trump="leaves")
    play(hand, "PIX")
    before = snapshot(hand)
    with pytest.raises(IllegalAction, match=r"must follow hearts \(Piros\)"):
        hand.apply(Play(c("ZA")))
    with pytest.raises(IllegalAction, match="you do not hold the Makk Ász"):
        hand.apply(Play(c("MA")))
    assert snapshot(hand) == before


# --------------------------------------------------------------------------- the Ulti 7


def ulti_hand() -> Hand:
    rules = fixture_ruleset()
    deal = deal_of(rules, 0, {1: "MVII ZVII TVII TVIII", 2: "ZA MA"})
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "ulti", "TVII TVIII", trump="acorns")
    return hand


def test_ulti_declarer_keeps_the_trump_seven() -> None:
    hand = ulti_hand()
    assert c("MVII") not in hand.legal_card_list()
    before = snapshot(hand)
    with pytest.raises(IllegalAction, match=r"the Ulti declarer keeps the trump 7 \(Makk VII\)"):
        hand.apply(Play(c("MVII")))
    assert snapshot(hand) == before


def test_ulti_seven_forced_out() -> None:
    hand = ulti_hand()
    play(hand, "ZVII", "ZA")  # seat 2 must follow with its only leaf
    play(hand, "ZX")
    assert hand.tricks[0][2] == 2
    skip_kontra_round(hand)
    play(
        hand, "MA", "MX"
    )  # seat 2 leads trumps, seat 0 follows; the declarer's only trump is the 7
    assert hand.legal_card_list() == (c("MVII"),)
    play(hand, "MVII")
    while not hand.is_over:
        hand.play_card(hand.legal_card_list()[0])
    facts = hand.facts
    assert facts is not None
    assert facts.trump_seven_early == 1 and facts.trump_seven_last_trick is None


# --------------------------------------------------------------------------- tens low in Betli


def test_tens_low_in_betli() -> None:
    rules = fixture_ruleset()
    deal = deal_of(rules, 0, {1: "ZX ZA ZK ZF ZIX ZVIII TVII TVIII", 2: "ZAl ZVII"})
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "betli", "TVII TVIII")
    assert hand.trump is None
    play(hand, "ZX")
    with pytest.raises(IllegalAction, match="must beat the Zöld X"):
        hand.apply(Play(c("ZVII")))
    play(hand, "ZAl")
    hand.play_card(hand.legal_card_list()[0])
    assert hand.tricks[0][2] == 2, "the Under beats the ten without trumps"


def test_tens_high_in_a_trump_game() -> None:
    rules = fixture_ruleset()
    deal = deal_of(rules, 0, {1: "ZX ZA ZK ZF ZIX ZVIII TVII TVIII", 2: "ZAl ZVII"})
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "simple_red", "TVII TVIII")
    play(hand, "ZX")
    assert set(hand.legal_card_list()) == {c("ZAl"), c("ZVII")}, "nothing beats the ten"


# --------------------------------------------------------------------------- the talon


@pytest.mark.parametrize("talon_to", ["declarer", "defenders", "nobody"])
def test_talon_points_go_where_the_ruleset_says(talon_to: str) -> None:
    rules = fixture_ruleset(**{"points.talon_to": talon_to})
    deal = deal_of(rules, 0, {1: "TA TX"})
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "simple_red", "TA TX")
    assert hand.talon == (c("TA"), c("TX"))
    while not hand.is_over:
        skip_kontra_round(hand)
        hand.play_card(hand.legal_card_list()[-1])
    facts = hand.facts
    assert facts is not None
    assert facts.talon == (c("TA"), c("TX"))
    assert facts.talon_points == 20
    assert facts.declarer_points + facts.defender_points == 70
    assert talon_points_for(facts, rules, "declarer") == (20 if talon_to == "declarer" else 0)
    assert talon_points_for(facts, rules, "defenders") == (20 if talon_to == "defenders" else 0)


# --------------------------------------------------------------------------- four players


def test_four_players_dealer_sits_out() -> None:
    rules = fixture_ruleset(**{"players.count": 4})
    hand = Hand(rules, seed=11, dealer=2)
    assert hand.seats.active == (3, 0, 1)
    assert hand.cards(2) == []
    assert len(hand.cards(3)) == 12 and len(hand.cards(0)) == 10 and len(hand.cards(1)) == 10
    assert hand.current_player == 3
    observed = hand.observation(2)
    assert observed.hand == () and observed.legal_actions == ()
    assert observed.sitting_out == 2
    bid_and_play(hand, "simple_red", " ".join(_two_of(hand, 3)))
    while not hand.is_over:
        skip_kontra_round(hand)
        assert hand.current_player != 2
        hand.play_card(hand.legal_card_list()[0])
    facts, contract = hand.facts, hand.contract
    assert facts is not None and contract is not None
    assert facts.seats == (3, 0, 1)
    assert contract.sitting_out == 2 and contract.declarer == 3
    assert 2 not in facts.tricks_won


def test_four_players_explicit_deal_gives_the_dealer_nothing() -> None:
    rules = fixture_ruleset(**{"players.count": 4})
    deal = deal_of(rules, 1, {2: "MA"})
    hand = Hand(rules, deal=deal, dealer=1)
    assert hand.cards(1) == [] and len(hand.cards(2)) == 12


def _two_of(hand: Hand, seat: int) -> list[str]:
    from ulti_rules.cards import format_card

    return [format_card(x) for x in hand.cards(seat)[:2]]
