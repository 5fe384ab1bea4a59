"""Card notation: every card reads back as itself in every notation the project writes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ulti_rules.cards import (
    ALL_CARDS_MASK,
    DECK,
    CardParseError,
    Rank,
    Suit,
    card_name,
    cards_in,
    format_card,
    format_cards,
    make_card,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_mask,
    suit_of,
)


def test_deck_is_32_distinct_ints_in_suit_rank_order() -> None:
    assert list(DECK) == list(range(32))
    for card in DECK:
        assert make_card(suit_of(card), rank_of(card)) == card
    assert {(suit_of(c), rank_of(c)) for c in DECK} == {(s, r) for s in Suit for r in Rank}


@pytest.mark.parametrize("card", DECK)
def test_every_card_round_trips_in_both_notations(card: int) -> None:
    assert parse_card(format_card(card, "hu")) == card
    assert parse_card(format_card(card, "fr")) == card
    assert parse_card(format_card(card, "fr", symbols=True)) == card
    assert parse_card(card_name(card, "hu")) == card
    assert parse_card(card_name(card, "fr")) == card


@pytest.mark.parametrize("card", DECK)
def test_case_and_whitespace_do_not_matter(card: int) -> None:
    for text in (format_card(card, "hu"), format_card(card, "fr"), card_name(card, "hu")):
        assert parse_card(text.lower()) == card
        assert parse_card(text.upper()) == card
        assert parse_card(f"  {text}\t") == card


def test_all_short_forms_are_distinct() -> None:
    for faces in ("hu", "fr"):
        assert len({format_card(c, faces) for c in DECK}) == 32
    assert len({format_card(c, "fr", symbols=True) for c in DECK}) == 32
    assert len({card_name(c, "hu") for c in DECK}) == 32
    assert len({card_name(c, "fr") for c in DECK}) == 32


@pytest.mark.parametrize(
    ("text", "suit", "rank"),
    [
        ("PVII", Suit.HEARTS, Rank.SEVEN),
        ("MA", Suit.ACORNS, Rank.ACE),
        ("ZX", Suit.LEAVES, Rank.TEN),
        ("TAl", Suit.BELLS, Rank.UNDER),
        ("TF", Suit.BELLS, Rank.OVER),
        ("PIX", Suit.HEARTS, Rank.NINE),
        ("MVIII", Suit.ACORNS, Rank.EIGHT),
        # Ober/Unter letters and digits for the Hungarian ranks.
        ("PO", Suit.HEARTS, Rank.OVER),
        ("PU", Suit.HEARTS, Rank.UNDER),
        ("P7", Suit.HEARTS, Rank.SEVEN),
        ("Z10", Suit.LEAVES, Rank.TEN),
        ("PÁ", Suit.HEARTS, Rank.ACE),
        # French faces, letters and symbols (filled and hollow).
        ("7h", Suit.HEARTS, Rank.SEVEN),
        ("7♥", Suit.HEARTS, Rank.SEVEN),
        ("A♣", Suit.ACORNS, Rank.ACE),
        ("10s", Suit.LEAVES, Rank.TEN),
        ("Qd", Suit.BELLS, Rank.OVER),
        ("J♢", Suit.BELLS, Rank.UNDER),
        ("K♤", Suit.LEAVES, Rank.KING),
        # Full names, with and without accents.
        ("Piros Ász", Suit.HEARTS, Rank.ACE),
        ("Tok Also", Suit.BELLS, Rank.UNDER),
        ("Zöld Felső", Suit.LEAVES, Rank.OVER),
        ("Makk VII", Suit.ACORNS, Rank.SEVEN),
        ("Ace of hearts", Suit.HEARTS, Rank.ACE),
        ("queen of spades", Suit.LEAVES, Rank.OVER),
        ("10 of diamonds", Suit.BELLS, Rank.TEN),
    ],
)
def test_known_spellings(text: str, suit: Suit, rank: Rank) -> None:
    assert parse_card(text) == make_card(suit, rank)


def test_formats_of_the_hearts_seven() -> None:
    card = make_card(Suit.HEARTS, Rank.SEVEN)
    assert format_card(card) == "PVII"
    assert format_card(card, "fr") == "7h"
    assert format_card(card, "fr", symbols=True) == "7♥"
    assert card_name(card) == "Piros VII"
    assert card_name(card, "fr") == "7 of hearts"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "X",
        "PZ",
        "7x",
        "11h",
        "Piros",
        "Piros Ász Király",
        "Kék Ász",
        "ace of cups",
        "ace hearts",
        "P VII",
        "1h",
        "♥7",
    ],
)
def test_not_a_card(text: str) -> None:
    with pytest.raises(CardParseError):
        parse_card(text)


def test_error_message_shows_both_notations() -> None:
    with pytest.raises(CardParseError, match=r"'QQ'.*PVII.*7h"):
        parse_card("QQ")


@pytest.mark.parametrize("card", [-1, 32, 100])
def test_format_rejects_non_cards(card: int) -> None:
    with pytest.raises(ValueError, match="not a card"):
        format_card(card)


def test_parse_cards_accepts_spaces_commas_and_mixed_notation() -> None:
    assert parse_cards("PVII, MA  10s,Kd") == [
        make_card(Suit.HEARTS, Rank.SEVEN),
        make_card(Suit.ACORNS, Rank.ACE),
        make_card(Suit.LEAVES, Rank.TEN),
        make_card(Suit.BELLS, Rank.KING),
    ]
    assert parse_cards(["Piros Ász", "7h"]) == [
        make_card(Suit.HEARTS, Rank.ACE),
        make_card(Suit.HEARTS, Rank.SEVEN),
    ]
    assert parse_cards("") == []


def test_parse_cards_rejects_a_card_listed_twice_in_any_notation() -> None:
    with pytest.raises(CardParseError, match="card listed twice: PVII"):
        parse_cards("PVII MA 7h")
    with pytest.raises(CardParseError, match="card listed twice: MA"):
        parse_cards(["Makk Ász", "A♣"])


def test_parse_cards_names_the_bad_item() -> None:
    with pytest.raises(CardParseError, match="'QQ'"):
        parse_cards("PVII QQ MA")


@given(st.lists(st.sampled_from(DECK), unique=True))
def test_format_cards_round_trips(cards: list[int]) -> None:
    for faces, symbols in (("hu", False), ("fr", False), ("fr", True)):
        text = format_cards(cards, faces, symbols)  # type: ignore[arg-type]
        assert parse_cards(text) == cards


@given(st.sets(st.sampled_from(DECK)))
def test_masks_round_trip(cards: set[int]) -> None:
    mask = mask_of(cards)
    assert 0 <= mask <= ALL_CARDS_MASK
    assert list(cards_in(mask)) == sorted(cards)


def test_suit_masks_partition_the_deck() -> None:
    masks = [suit_mask(s) for s in Suit]
    assert sum(masks) == ALL_CARDS_MASK
    for suit, mask in zip(Suit, masks, strict=True):
        assert {suit_of(c) for c in cards_in(mask)} == {suit}
        assert len(list(cards_in(mask))) == 8
