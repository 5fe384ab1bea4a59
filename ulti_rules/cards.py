"""The 32-card deck as small ints, with Hungarian and French faces.

A card is ``suit * 8 + rank`` (0..31), so a hand fits in a 32-bit mask and the
trick loop never touches an object. Faces and notation live here so that hand
records, the score keeper and the CLI all read and write cards the same way.

Short notation (documented in ``docs/cards.md``):

* Hungarian: suit letter ``M`` (Makk), ``Z`` (Zöld), ``P`` (Piros), ``T`` (Tök)
  followed by the rank ``A`` (Ász), ``K`` (Király), ``F`` (Felső), ``Al`` (Alsó),
  ``X``, ``IX``, ``VIII``, ``VII`` — e.g. ``PVII`` is the Piros VII.
* French: rank ``A K Q J 10 9 8 7`` followed by the suit ``c s h d`` (or the
  symbols ``♣ ♠ ♥ ♦``) — e.g. ``7h`` or ``7♥``.

Parsing accepts either form, ignores case where that is unambiguous, and also
accepts ``O``/``U`` (Ober/Unter) and digits for Hungarian ranks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Literal, cast

from .said import Said

Faces = Literal["hu", "fr"]
SuitId = Literal["acorns", "leaves", "hearts", "bells"]
"""A suit as rulesets, records and facts write it: :attr:`Suit.id`."""
RankId = Literal["ace", "ten", "king", "over", "under", "nine", "eight", "seven"]
"""A rank as rulesets write it: :attr:`Rank.id`."""


class Suit(IntEnum):
    """Suits in a fixed order; the French equivalents are the conventional mapping."""

    ACORNS = 0  # Makk, clubs
    LEAVES = 1  # Zöld, spades
    HEARTS = 2  # Piros, hearts
    BELLS = 3  # Tök, diamonds

    @property
    def id(self) -> str:
        """The suit's id in rulesets and records: ``acorns``, ``leaves``, ``hearts``, ``bells``."""
        return self.name.lower()


class Rank(IntEnum):
    """Ranks in a fixed storage order; playing order comes from the ruleset."""

    ACE = 0
    TEN = 1
    KING = 2
    OVER = 3
    UNDER = 4
    NINE = 5
    EIGHT = 6
    SEVEN = 7

    @property
    def id(self) -> str:
        """The rank's id in rulesets: ``ace``, ``ten``, ``king``, ``over``, ...``seven``."""
        return self.name.lower()


Card = int
"""A card: ``suit * 8 + rank``, 0..31."""

DECK: tuple[Card, ...] = tuple(range(32))
ALL_CARDS_MASK = (1 << 32) - 1

SUIT_IDS: dict[str, Suit] = {s.id: s for s in Suit}
RANK_IDS: dict[str, Rank] = {r.id: r for r in Rank}
_SUIT_ID_OF: tuple[SuitId, ...] = tuple(cast(SuitId, s.id) for s in Suit)
_SUIT_NUMBER_OF: dict[str, int] = {s.id: int(s) for s in Suit}

HU_SUIT_NAMES = {Suit.ACORNS: "Makk", Suit.LEAVES: "Zöld", Suit.HEARTS: "Piros", Suit.BELLS: "Tök"}
HU_RANK_NAMES = {
    Rank.ACE: "Ász",
    Rank.KING: "Király",
    Rank.OVER: "Felső",
    Rank.UNDER: "Alsó",
    Rank.TEN: "X",
    Rank.NINE: "IX",
    Rank.EIGHT: "VIII",
    Rank.SEVEN: "VII",
}
DE_SUIT_NAMES = {
    Suit.ACORNS: "Eichel",
    Suit.LEAVES: "Grün",
    Suit.HEARTS: "Herz",
    Suit.BELLS: "Schellen",
}
EN_SUIT_NAMES = {
    Suit.ACORNS: "clubs",
    Suit.LEAVES: "spades",
    Suit.HEARTS: "hearts",
    Suit.BELLS: "diamonds",
}
EN_RANK_NAMES = {
    Rank.ACE: "Ace",
    Rank.KING: "King",
    Rank.OVER: "Queen",
    Rank.UNDER: "Jack",
    Rank.TEN: "10",
    Rank.NINE: "9",
    Rank.EIGHT: "8",
    Rank.SEVEN: "7",
}

HU_SUIT_LETTER = {Suit.ACORNS: "M", Suit.LEAVES: "Z", Suit.HEARTS: "P", Suit.BELLS: "T"}
HU_RANK_SHORT = {
    Rank.ACE: "A",
    Rank.KING: "K",
    Rank.OVER: "F",
    Rank.UNDER: "Al",
    Rank.TEN: "X",
    Rank.NINE: "IX",
    Rank.EIGHT: "VIII",
    Rank.SEVEN: "VII",
}
FR_SUIT_LETTER = {Suit.ACORNS: "c", Suit.LEAVES: "s", Suit.HEARTS: "h", Suit.BELLS: "d"}
FR_SUIT_SYMBOL = {Suit.ACORNS: "♣", Suit.LEAVES: "♠", Suit.HEARTS: "♥", Suit.BELLS: "♦"}
FR_RANK_SHORT = {
    Rank.ACE: "A",
    Rank.KING: "K",
    Rank.OVER: "Q",
    Rank.UNDER: "J",
    Rank.TEN: "10",
    Rank.NINE: "9",
    Rank.EIGHT: "8",
    Rank.SEVEN: "7",
}

_HU_RANK_PARSE: dict[str, Rank] = {
    "a": Rank.ACE,
    "á": Rank.ACE,
    "k": Rank.KING,
    "f": Rank.OVER,
    "o": Rank.OVER,
    "al": Rank.UNDER,
    "u": Rank.UNDER,
    "x": Rank.TEN,
    "10": Rank.TEN,
    "ix": Rank.NINE,
    "9": Rank.NINE,
    "viii": Rank.EIGHT,
    "8": Rank.EIGHT,
    "vii": Rank.SEVEN,
    "7": Rank.SEVEN,
}
_FR_RANK_PARSE: dict[str, Rank] = {
    "a": Rank.ACE,
    "k": Rank.KING,
    "q": Rank.OVER,
    "j": Rank.UNDER,
    "10": Rank.TEN,
    "9": Rank.NINE,
    "8": Rank.EIGHT,
    "7": Rank.SEVEN,
}
_HU_SUIT_PARSE = {"m": Suit.ACORNS, "z": Suit.LEAVES, "p": Suit.HEARTS, "t": Suit.BELLS}
_FR_SUIT_PARSE = {
    "c": Suit.ACORNS,
    "s": Suit.LEAVES,
    "h": Suit.HEARTS,
    "d": Suit.BELLS,
    "♣": Suit.ACORNS,
    "♠": Suit.LEAVES,
    "♥": Suit.HEARTS,
    "♦": Suit.BELLS,
    "♧": Suit.ACORNS,
    "♤": Suit.LEAVES,
    "♡": Suit.HEARTS,
    "♢": Suit.BELLS,
}
_HU_LONG_SUITS = {
    "makk": Suit.ACORNS,
    "zöld": Suit.LEAVES,
    "zold": Suit.LEAVES,
    "piros": Suit.HEARTS,
    "tök": Suit.BELLS,
    "tok": Suit.BELLS,
}
_HU_LONG_RANKS = {
    "ász": Rank.ACE,
    "asz": Rank.ACE,
    "király": Rank.KING,
    "kiraly": Rank.KING,
    "felső": Rank.OVER,
    "felso": Rank.OVER,
    "alsó": Rank.UNDER,
    "also": Rank.UNDER,
} | {k: v for k, v in _HU_RANK_PARSE.items() if len(k) > 1 or k.isdigit() or k == "x"}


class CardParseError(ValueError):
    """Raised for text that is not a card; the message says what was expected."""


def make_card(suit: Suit, rank: Rank) -> Card:
    """The card of ``suit`` and ``rank``: ``suit * 8 + rank``."""
    return int(suit) * 8 + int(rank)


def suit_of(card: Card) -> Suit:
    """The suit of a card (its high two bits)."""
    return Suit(card >> 3)


def rank_of(card: Card) -> Rank:
    """The rank of a card (its low three bits)."""
    return Rank(card & 7)


def suit_id(suit: int) -> SuitId:
    """The id of suit number ``suit`` (``2`` -> ``'hearts'``): the engine keeps suits as ints."""
    return _SUIT_ID_OF[suit]


def suit_number(suit: SuitId) -> int:
    """The number of a suit id (``'hearts'`` -> ``2``), a plain int for the engine's tables."""
    return _SUIT_NUMBER_OF[suit]


def suit_label(suit: int, faces: Faces = "hu") -> str:
    """``hearts (Piros)`` or ``hearts (♥)``: the suit's id with its face beside it."""
    face = HU_SUIT_NAMES[Suit(suit)] if faces == "hu" else FR_SUIT_SYMBOL[Suit(suit)]
    return f"{_SUIT_ID_OF[suit]} ({face})"


def card_name(card: Card, faces: Faces = "hu") -> str:
    """The card in full words, e.g. ``Piros VII`` or ``7 of hearts``."""
    suit, rank = suit_of(card), rank_of(card)
    if faces == "hu":
        return f"{HU_SUIT_NAMES[suit]} {HU_RANK_NAMES[rank]}"
    return f"{EN_RANK_NAMES[rank]} of {EN_SUIT_NAMES[suit]}"


def format_card(card: Card, faces: Faces = "hu", symbols: bool = False) -> str:
    """The card in short notation: ``PVII`` (hu) or ``7h`` / ``7♥`` (fr)."""
    if not 0 <= card < 32:
        raise ValueError(f"not a card: {card!r}")
    suit, rank = suit_of(card), rank_of(card)
    if faces == "hu":
        return HU_SUIT_LETTER[suit] + HU_RANK_SHORT[rank]
    letter = FR_SUIT_SYMBOL[suit] if symbols else FR_SUIT_LETTER[suit]
    return FR_RANK_SHORT[rank] + letter


def _parse_long(words: list[str]) -> Card | None:
    if len(words) == 2:
        a, b = (w.lower() for w in words)
        if a in _HU_LONG_SUITS and b in _HU_LONG_RANKS:
            return make_card(_HU_LONG_SUITS[a], _HU_LONG_RANKS[b])
    if len(words) == 3 and words[1].lower() == "of":
        rank_word, suit_word = words[0].lower(), words[2].lower()
        en_ranks = {v.lower(): k for k, v in EN_RANK_NAMES.items()}
        en_suits = {v: k for k, v in EN_SUIT_NAMES.items()}
        if rank_word in en_ranks and suit_word in en_suits:
            return make_card(en_suits[suit_word], en_ranks[rank_word])
    return None


def parse_card(text: str) -> Card:
    """Read one card in either notation (or in full words, e.g. ``Piros Ász``)."""
    raw = text.strip()
    if not raw:
        raise CardParseError(Said("empty card"))
    words = raw.split()
    if len(words) > 1:
        card = _parse_long(words)
        if card is None:
            raise CardParseError(Said("not a card: {typed}", typed=repr(text)))
        return card
    # Hungarian: suit letter first (upper case, or any case when the rest is a Hungarian rank).
    first, rest = raw[0].lower(), raw[1:].lower()
    if first in _HU_SUIT_PARSE and rest in _HU_RANK_PARSE:
        return make_card(_HU_SUIT_PARSE[first], _HU_RANK_PARSE[rest])
    # French: suit letter or symbol last.
    last, head = raw[-1].lower(), raw[:-1].lower()
    if last in _FR_SUIT_PARSE and head in _FR_RANK_PARSE:
        return make_card(_FR_SUIT_PARSE[last], _FR_RANK_PARSE[head])
    raise CardParseError(
        Said(
            "not a card: {typed} (write e.g. PVII, MA, ZX for Hungarian faces "
            "or 7h, A♣, 10s for French)",
            typed=repr(text),
        )
    )


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read a list of cards separated by spaces or commas; duplicates are an error."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = [parse_card(item) for item in items]
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardParseError(Said("card listed twice: {card}", card=format_card(card)))
        seen.add(card)
    return cards


def format_cards(cards: Iterable[Card], faces: Faces = "hu", symbols: bool = False) -> str:
    """Cards in short notation, separated by spaces (``PVII MA``); ``parse_cards`` reads it back."""
    return " ".join(format_card(c, faces, symbols) for c in cards)


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of ``cards`` (a card listed twice is set once)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> Iterator[Card]:
    """The cards of a bit mask in ascending order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def suit_mask(suit: Suit | int) -> int:
    """The bit mask of the eight cards of ``suit``."""
    return 0xFF << (int(suit) * 8)
