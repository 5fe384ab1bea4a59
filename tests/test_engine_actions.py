"""Actions as values (print, save, load), explicit deals, seeds and the public API."""

from __future__ import annotations

import random

import pytest
import ulti_rules
from ulti_rules.cards import parse_cards
from ulti_rules.engine import (
    Announce,
    BadDeal,
    Bid,
    DeclareTrump,
    Discard,
    GiveUp,
    Hand,
    Kontra,
    MalformedAction,
    Pass,
    PickUp,
    Play,
    action_from_dict,
)
from ulti_rules.engine.deal import Deal
from ulti_rules.errors import IllegalAction

from engine_fixtures import deal_of, fixture_ruleset
from engine_support import choose

EXAMPLES = [
    Bid("ulti"),
    Bid("simple", "acorns"),
    Pass(),
    PickUp(),
    Discard((5, 3)),
    DeclareTrump("leaves"),
    Announce("hearts"),
    Kontra(("ulti", "parti"), 2),
    Play(17),
    GiveUp(),
]


@pytest.mark.parametrize("action", EXAMPLES, ids=str)
def test_actions_round_trip(action: object) -> None:
    data = action.to_dict()  # type: ignore[attr-defined]
    assert action_from_dict(data) == action
    assert str(action)


def test_actions_are_normalised_values() -> None:
    assert Discard((5, 3)) == Discard((3, 5)) and Discard((5, 3)).cards == (3, 5)
    assert Kontra(("ulti", "parti"), 1) == Kontra(("parti", "ulti"), 1)
    assert hash(Play(3)) == hash(Play(3))
    assert Play(parse_cards("PVII")[0]).to_dict() == {"type": "play", "card": "PVII"}
    assert str(Discard(tuple(parse_cards("MA ZX")))) == "discard MA ZX"
    with pytest.raises(AttributeError):
        Play(3).card = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    "data",
    [
        {"type": "fly"},
        {"type": "play"},
        {"type": "play", "card": "XYZ"},
        {"type": "play", "card": 40},
        {"type": "bid", "bid": "ulti", "colour": "red"},
        {"type": "declare_trump", "suit": "spades"},
        {"type": "kontra", "components": [], "level": 1},
        {"type": "kontra", "components": ["ulti"], "level": 0},
        {"type": "discard", "cards": ["MA", "MA"]},
        "play",
    ],
)
def test_malformed_actions_are_value_errors(data: object) -> None:
    with pytest.raises(ValueError):
        action_from_dict(data)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "data",
    [
        {"type": "play", "card": "XX"},  # was a CardParseError, no IllegalAction
        {"type": "discard", "cards": ["MA", ""]},
        {"type": "play", "card": "\x00"},
        {"type": "pass", 1: 2},  # was a TypeError (msgpack or YAML can give such keys)
        {"type": "play", "card": "MA", 1: 2, "z": 3},
        {"type": "kontra", "components": {"parti": 1}, "level": 1},  # was accepted
        {"type": "discard", "cards": b"\x01\x02"},
        {"type": "discard", "cards": {"MA": 0, "MK": 0}},
    ],
)
def test_a_client_s_malformed_action_is_a_malformed_action(data: dict[object, object]) -> None:
    """An app catches IllegalAction (or UltiError) around a client's action: every
    malformed one is that (found by a fault review)."""
    with pytest.raises(MalformedAction):
        action_from_dict(data)  # type: ignore[arg-type]


def test_apply_refuses_what_is_not_an_action() -> None:
    hand = Hand(fixture_ruleset(), seed=1)
    with pytest.raises(IllegalAction, match="not an action"):
        hand.apply("pass")  # type: ignore[arg-type]


def test_over_hand_refuses_everything() -> None:
    rules = fixture_ruleset(**{"auction.opener_must_bid": False})
    hand = Hand(rules, seed=2)
    hand.apply(Discard(tuple(hand.cards(1)[:2])))
    for _ in range(3):
        hand.apply(Pass())
    assert hand.is_over
    with pytest.raises(IllegalAction, match="the hand is over"):
        hand.apply(Pass())


# --------------------------------------------------------------------------- deals and seeds


def test_same_seed_same_actions_same_hand() -> None:
    rules = fixture_ruleset()
    first = Hand(rules, seed="club night 7", dealer=1)
    rng = random.Random(4)
    while not first.is_over:
        first.apply(choose(rng, first.legal_actions()))
    second = Hand(rules, seed="club night 7", dealer=1)
    for action in first.actions:
        second.apply(action)
    assert second.history == first.history
    assert second.deal == first.deal
    if first.facts is not None:
        assert second.facts == first.facts
    assert second.contract == first.contract
    third = Hand(rules, seed="club night 8", dealer=1)
    assert third.deal != first.deal


def test_seeded_deal_pattern() -> None:
    hand = Hand(fixture_ruleset(), seed=99, dealer=2)
    assert hand.seats.forehand == 0 and hand.seats.active == (0, 1, 2)
    assert [len(hand.cards(s)) for s in (0, 1, 2)] == [12, 10, 10]
    all_cards = sorted(c for s in range(3) for c in hand.cards(s))
    assert all_cards == list(range(32))


def test_clockwise_table() -> None:
    hand = Hand(fixture_ruleset(direction="clockwise"), seed=1, dealer=0)
    assert hand.seats.active == (2, 1, 0)


def test_explicit_deal_forms() -> None:
    rules = fixture_ruleset()
    deal = deal_of(rules, 0, {1: "MA"})
    as_tuple = Hand(rules, deal=(deal.hands, deal.rest), dealer=0)
    as_deal = Hand(rules, deal=deal, dealer=0)
    assert as_tuple.deal == as_deal.deal
    # Forehand may be given 10 cards and the two talon cards beside them.
    hands = [list(h) for h in deal.hands]
    extra = hands[1][10:]
    hands[1] = hands[1][:10]
    joined = Hand(rules, deal=(hands, extra), dealer=0)
    assert sorted(joined.cards(1)) == sorted(deal.hands[1])
    # Notation works too.
    texts = [" ".join(_fmt(h)) for h in deal.hands]
    assert Hand(rules, deal=(texts, ""), dealer=0).cards(1) == as_deal.cards(1)


def _fmt(cards: tuple[int, ...]) -> list[str]:
    from ulti_rules.cards import format_card

    return [format_card(c) for c in cards]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda h: ((*h[0][:-1], h[1][0]), *h[1:]), "exactly once"),
        (lambda h: (h[0][:-1], (*h[1], h[0][-1]), h[2]), "must be dealt"),
        (lambda h: h[:2], "3 hands"),
    ],
)
def test_bad_deals_are_refused(mutate: object, message: str) -> None:
    rules = fixture_ruleset()
    deal = deal_of(rules, 0, {})
    with pytest.raises(BadDeal, match=message):
        Hand(rules, deal=Deal(mutate(deal.hands), deal.rest), dealer=0)  # type: ignore[operator]


def test_a_bad_card_in_an_explicit_deal_is_a_bad_deal() -> None:
    """An app passing notation gets the engine's own error, naming the card."""
    rules = fixture_ruleset()
    texts = [" ".join(_fmt(h)) for h in deal_of(rules, 0, {}).hands]
    texts[1] = texts[1].replace(texts[1].split()[0], "XX", 1)
    with pytest.raises(BadDeal, match="bad card in the deal: not a card: 'XX'"):
        Hand(rules, deal=(texts, ""), dealer=0)


def test_bad_dealer_is_refused() -> None:
    with pytest.raises(BadDeal, match="dealer must be a seat"):
        Hand(fixture_ruleset(), seed=1, dealer=3)


def test_public_api() -> None:
    for name in (
        "Hand",
        "Bid",
        "Pass",
        "PickUp",
        "Discard",
        "DeclareTrump",
        "Announce",
        "Kontra",
        "Play",
        "GiveUp",
    ):
        assert name in ulti_rules.__all__
        assert getattr(ulti_rules, name) is getattr(ulti_rules.engine, name)


def test_deal_round_trips_through_plain_data() -> None:
    rules = fixture_ruleset()
    hand = Hand(rules, seed=5, dealer=1)
    data = hand.deal.to_dict()
    again = Hand(rules, deal=Deal.from_dict(data), dealer=1)
    assert again.deal == hand.deal and again.cards(2) == hand.cards(2)
    with pytest.raises(BadDeal, match="bad card in the deal"):
        Deal.from_dict({"hands": ["MA XX"], "rest": ""})
    with pytest.raises(BadDeal, match="'hands'"):
        Deal.from_dict({"rest": ""})
