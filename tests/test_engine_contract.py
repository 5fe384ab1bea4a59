"""Golden tests of what a contract brings to the play: marriages, kontra, open hands.

Dealer 0: forehand (the declarer here) is seat 1, then seat 2, then seat 0.
"""

from __future__ import annotations

import pytest
from ulti_rules.cards import parse_card, parse_cards
from ulti_rules.engine import (
    Announce,
    Bid,
    DeclareTrump,
    Discard,
    Hand,
    Kontra,
    Pass,
    PickUp,
    Play,
)
from ulti_rules.errors import IllegalAction

from engine_fixtures import bid_and_play, deal_of, fixture_ruleset
from engine_support import snapshot


def c(text: str) -> int:
    return parse_card(text)


def finish(hand: Hand) -> None:
    while not hand.is_over:
        while hand.phase == "kontra":
            hand.apply(Pass())
        if not hand.legal_card_list():
            break
        hand.play_card(hand.legal_card_list()[0])


# --------------------------------------------------------------------------- hundreds


def test_forty_hundred_needs_a_marriage_at_the_bid() -> None:
    rules = fixture_ruleset()
    # No King + Over anywhere in forehand's hand except hearts, which a non-red bid cannot name.
    deal = deal_of(rules, 0, {1: "PK PF TVII TVIII", 2: "MK ZK TK", 0: "MF ZF TF"})
    hand = Hand(rules, deal=deal, dealer=0)
    hand.apply(Discard(tuple(parse_cards("TVII TVIII"))))
    before = snapshot(hand)
    with pytest.raises(IllegalAction, match="40-100 needs the King and Over of trumps"):
        hand.apply(Bid("forty_hundred"))
    assert snapshot(hand) == before
    assert Bid("forty_hundred") not in hand.legal_actions()


def test_discard_that_breaks_every_bid_is_refused() -> None:
    """After a pick-up, only bids needing a marriage may remain: discarding it is refused."""
    rules = fixture_ruleset(
        **{
            "ladder": [
                {
                    "id": "simple",
                    "rank": 1,
                    "value": 1,
                    "components": ["parti"],
                    "names": {"hu": "s", "en": "Simple"},
                },
                {
                    "id": "forty_hundred",
                    "rank": 2,
                    "value": 4,
                    "components": ["forty_hundred"],
                    "names": {"hu": "40", "en": "40-100"},
                },
            ]
        }
    )
    deal = deal_of(rules, 0, {1: "TVII TVIII", 2: "MK MF", 0: "ZK TK"})
    hand = Hand(rules, deal=deal, dealer=0)
    hand.apply(Discard(tuple(parse_cards("TVII TVIII"))))
    hand.apply(Bid("simple"))
    hand.apply(PickUp())
    with pytest.raises(IllegalAction, match="you could make no bid above Simple"):
        hand.apply(Discard((c("MK"), c("TVII"))))
    hand.apply(Discard((c("TVII"), c("TVIII"))))
    hand.apply(Bid("forty_hundred"))
    for _ in range(3):
        hand.apply(Pass())
    assert hand.phase == "trump"
    assert [a.suit for a in hand.legal_actions()] == ["acorns"]  # type: ignore[attr-defined]


def forty_hundred_hand(**overrides: object) -> Hand:
    rules = fixture_ruleset(**overrides)
    deal = deal_of(rules, 0, {1: "MK MF ZK TVII TVIII", 2: "ZF PK PF", 0: "TK TF"})
    hand = Hand(rules, deal=deal, dealer=0)
    hand.apply(Discard(tuple(parse_cards("TVII TVIII"))))
    hand.apply(Bid("forty_hundred"))
    for _ in range(3):
        hand.apply(Pass())
    return hand


def test_forty_hundred_trump_must_be_the_marriage_suit() -> None:
    hand = forty_hundred_hand()
    assert hand.phase == "trump"
    assert hand.legal_actions() == [DeclareTrump("acorns")]
    with pytest.raises(IllegalAction, match="40-100 needs the King and Over of trumps"):
        hand.apply(DeclareTrump("leaves"))
    hand.apply(DeclareTrump("acorns"))


def test_forty_hundred_marriage_announced_before_the_first_card() -> None:
    hand = forty_hundred_hand()
    hand.apply(DeclareTrump("acorns"))
    assert hand.legal_actions() == [Announce("acorns")]
    assert hand.legal_card_list() == ()
    with pytest.raises(IllegalAction, match="announce your marriage first"):
        hand.apply(Play(c("MK")))
    hand.apply(Announce("acorns"))
    assert Announce("acorns") not in hand.legal_actions()
    hand.apply(Play(c("ZK")))
    # Seat 2 holds the hearts marriage: no defender marriages in a 100 game (WP).
    assert hand.current_player == 2
    with pytest.raises(IllegalAction, match="the defenders announce no marriages"):
        hand.apply(Announce("hearts"))
    finish(hand)
    facts = hand.facts
    assert facts is not None
    assert [(m.seat, m.suit, m.value) for m in facts.marriages] == [(1, "acorns", 40)]


def test_defender_marriages_where_the_ruleset_allows_them() -> None:
    hand = forty_hundred_hand(
        **{"marriages.in_hundred_game": {"declarer": "bid_only", "defenders": "all"}}
    )
    hand.apply(DeclareTrump("acorns"))
    hand.apply(Announce("acorns"))
    hand.apply(Play(c("ZK")))
    assert Announce("hearts") in hand.legal_actions()
    hand.apply(Announce("hearts"))
    finish(hand)
    facts = hand.facts
    assert facts is not None
    assert [(m.seat, m.suit, m.value) for m in facts.marriages] == [
        (1, "acorns", 40),
        (2, "hearts", 20),
    ]


def test_twenty_hundred_needs_a_side_marriage() -> None:
    rules = fixture_ruleset()
    deal = deal_of(rules, 0, {1: "MK MF TVII TVIII", 2: "ZK ZF", 0: "PK TK"})
    hand = Hand(rules, deal=deal, dealer=0)
    hand.apply(Discard(tuple(parse_cards("TVII TVIII"))))
    hand.apply(Bid("twenty_hundred"))
    for _ in range(3):
        hand.apply(Pass())
    suits = [a.suit for a in hand.legal_actions()]  # type: ignore[attr-defined]
    assert suits == ["leaves", "bells"], "the acorns marriage must stay a side marriage"
    with pytest.raises(
        IllegalAction, match="20-100 needs the King and Over of a suit that is not trumps"
    ):
        hand.apply(DeclareTrump("acorns"))
    hand.apply(DeclareTrump("bells"))
    assert hand.legal_actions() == [Announce("acorns")]
    hand.apply(Announce("acorns"))
    assert all(a.type == "play" for a in hand.legal_actions())


def test_marriages_optional_in_a_simple_and_only_at_the_first_trick() -> None:
    rules = fixture_ruleset()
    deal = deal_of(rules, 0, {1: "MK MF ZK ZF TVII TVIII"})
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "simple_red", "TVII TVIII")
    legal = hand.legal_actions()
    assert Announce("acorns") in legal and Announce("leaves") in legal
    assert any(a.type == "play" for a in legal), "announcing is optional"
    hand.apply(Announce("leaves"))
    with pytest.raises(IllegalAction, match="announced already"):
        hand.apply(Announce("leaves"))
    hand.play_card(c("PA") if c("PA") in hand.legal_card_list() else hand.legal_card_list()[0])
    finish_trick(hand)
    with pytest.raises(IllegalAction, match="at the first trick"):
        hand.apply(Announce("acorns"))


def finish_trick(hand: Hand) -> None:
    while hand.current_trick[1]:
        hand.play_card(hand.legal_card_list()[0])
    while hand.phase == "kontra":
        hand.apply(Pass())


def test_no_marriages_in_a_no_trump_game() -> None:
    rules = fixture_ruleset()
    deal = deal_of(rules, 0, {1: "MK MF TVII TVIII"})
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "betli", "TVII TVIII")
    assert Announce("acorns") not in hand.legal_actions()
    with pytest.raises(IllegalAction, match="only in trump games"):
        hand.apply(Announce("acorns"))


# --------------------------------------------------------------------------- kontra


def test_kontra_chain_alternates_and_binds_both_defenders() -> None:
    rules = fixture_ruleset()
    hand = Hand(rules, seed=21, dealer=0)
    hand.apply(Discard(tuple(hand.cards(1)[:2])))
    hand.apply(Bid("simple_red"))
    for _ in range(3):
        hand.apply(Pass())
    # The declarer leads; nothing to rekontra yet.
    assert not any(a.type == "kontra" for a in hand.legal_actions())
    hand.play_card(hand.legal_card_list()[0])
    assert Kontra(("parti",), 1) in hand.legal_actions()
    with pytest.raises(IllegalAction, match="level 2 is called by the declarer"):
        hand.apply(Kontra(("parti",), 2))
    hand.apply(Kontra(("parti",), 1))
    assert not any(a.type == "kontra" for a in hand.legal_actions()), "the next level is not his"
    hand.play_card(hand.legal_card_list()[0])
    hand.play_card(hand.legal_card_list()[0])
    # The kontra round after trick 1: the declarer may answer.
    assert hand.phase == "kontra" and hand.current_player == 1
    assert hand.legal_actions() == [Kontra(("parti",), 2), Pass()]
    hand.apply(Kontra(("parti",), 2))
    assert hand.phase == "kontra" and hand.current_player == 2
    hand.apply(Kontra(("parti",), 3))
    hand.apply(Pass())  # the declarer declines level 4
    assert hand.phase == "play"
    assert hand.kontra_levels == {"parti": {2: 3, 0: 3}}
    with pytest.raises(IllegalAction, match="window has closed"):
        hand.apply(Kontra(("parti",), 4))
    finish(hand)
    contract = hand.contract
    assert contract is not None and contract.kontra == {"parti": {2: 3, 0: 3}}


def test_no_trump_kontra_binds_only_its_caller() -> None:
    rules = fixture_ruleset()
    hand = Hand(rules, seed=21, dealer=0)
    hand.apply(Discard(tuple(hand.cards(1)[:2])))
    hand.apply(Bid("betli"))
    for _ in range(3):
        hand.apply(Pass())
    hand.play_card(hand.legal_card_list()[0])
    hand.apply(Kontra(("betli",), 1))  # seat 2
    hand.play_card(hand.legal_card_list()[0])
    assert Kontra(("betli",), 1) in hand.legal_actions(), "seat 0 has its own chain"
    hand.play_card(hand.legal_card_list()[0])
    assert hand.phase == "kontra"
    hand.apply(Kontra(("betli",), 2))  # the declarer answers seat 2's kontra
    while hand.phase == "kontra":
        hand.apply(Pass())
    assert hand.kontra_levels == {"betli": {2: 2, 0: 0}}


def test_kontra_window_own_card_only() -> None:
    rules = fixture_ruleset(**{"kontra.window": "own_card_trick1", "kontra.max_level": 1})
    hand = Hand(rules, seed=21, dealer=0)
    hand.apply(Discard(tuple(hand.cards(1)[:2])))
    hand.apply(Bid("ulti_red"))
    for _ in range(3):
        hand.apply(Pass())
    hand.play_card(hand.legal_card_list()[0])
    kontras = [a for a in hand.legal_actions() if a.type == "kontra"]
    assert set(kontras) == {
        Kontra(("parti",), 1),
        Kontra(("ulti",), 1),
        Kontra(("parti", "ulti"), 1),
    }
    hand.apply(Kontra(("ulti", "parti"), 1))
    hand.play_card(hand.legal_card_list()[0])
    hand.play_card(hand.legal_card_list()[0])
    assert hand.phase == "play", "no kontra round after trick 1"
    assert hand.kontra_levels == {"parti": {2: 1, 0: 1}, "ulti": {2: 1, 0: 1}}


# --------------------------------------------------------------------------- open contracts


@pytest.mark.parametrize("exposes", ["declarer", "all"])
def test_open_contract_shown_after_the_first_trick(exposes: str) -> None:
    rules = fixture_ruleset(**{"open_games.exposes": exposes})
    hand = Hand(rules, seed=30, dealer=0)
    hand.apply(Discard(tuple(hand.cards(1)[:2])))
    hand.apply(Bid("open_betli"))
    for _ in range(3):
        hand.apply(Pass())
    assert hand.observation(2).exposed == {}
    for _ in range(3):
        hand.play_card(hand.legal_card_list()[0])
    seen = hand.observation(2).exposed
    assert seen[1] == tuple(hand.cards(1)) and len(seen[1]) == 9
    assert set(seen) == ({1} if exposes == "declarer" else {1, 2, 0})


def test_observation_never_shows_other_hands() -> None:
    hand = Hand(fixture_ruleset(), seed=30, dealer=0)
    for seat in range(3):
        seen = hand.observation(seat).to_dict()
        assert seen["hand"] == hand.cards(seat)
        assert seen["exposed"] == {}
        flat = repr({k: v for k, v in seen.items() if k not in ("hand", "legal_actions")})
        for other in range(3):
            if other != seat:
                assert repr(hand.cards(other)) not in flat
