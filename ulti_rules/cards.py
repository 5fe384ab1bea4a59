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

import unicodedata
from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Literal, cast

from .i18n import N_
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
_LONG_SUITS: dict[str, Suit] = {
    # Hungarian and German suit names, read before a rank: ``Piros Ász``, ``Herz Sieben``.
    "makk": Suit.ACORNS,
    "zold": Suit.LEAVES,
    "piros": Suit.HEARTS,
    "tok": Suit.BELLS,
    "eichel": Suit.ACORNS,
    "eicheln": Suit.ACORNS,
    "grun": Suit.LEAVES,
    "gruen": Suit.LEAVES,
    "laub": Suit.LEAVES,
    "herz": Suit.HEARTS,
    "schellen": Suit.BELLS,
    "schelle": Suit.BELLS,
}
"""Suit words (folded: lower case, no accents) read before a rank word."""
_LONG_RANKS: dict[str, Rank] = {
    # Hungarian: Ász, Király, Felső, Alsó; the number cards by their names (``makk
    # hetes``), in Roman numerals (``Makk VII``) or digits.
    "asz": Rank.ACE,
    "kiraly": Rank.KING,
    "felso": Rank.OVER,
    "also": Rank.UNDER,
    "tizes": Rank.TEN,
    "kilences": Rank.NINE,
    "nyolcas": Rank.EIGHT,
    "hetes": Rank.SEVEN,
    # German: Ass (Daus), König, Ober, Unter, Zehn ... Sieben.
    "ass": Rank.ACE,
    "daus": Rank.ACE,
    "konig": Rank.KING,
    "koenig": Rank.KING,
    "ober": Rank.OVER,
    "unter": Rank.UNDER,
    "zehn": Rank.TEN,
    "neun": Rank.NINE,
    "acht": Rank.EIGHT,
    "sieben": Rank.SEVEN,
} | {k: v for k, v in _HU_RANK_PARSE.items() if len(k) > 1 or k.isdigit() or k == "x"}
"""Rank words (folded) read after a suit word: ``Piros Ász``, ``makk hetes``, ``Herz Sieben``."""
_EN_RANKS: dict[str, Rank] = {
    "ace": Rank.ACE,
    "king": Rank.KING,
    "queen": Rank.OVER,
    "over": Rank.OVER,
    "ober": Rank.OVER,
    "jack": Rank.UNDER,
    "under": Rank.UNDER,
    "unter": Rank.UNDER,
    "ten": Rank.TEN,
    "nine": Rank.NINE,
    "eight": Rank.EIGHT,
    "seven": Rank.SEVEN,
    "10": Rank.TEN,
    "9": Rank.NINE,
    "8": Rank.EIGHT,
    "7": Rank.SEVEN,
}
"""Rank words read before ``of``: ``seven of hearts``, ``queen of spades``, ``10 of diamonds``."""
_EN_SUITS: dict[str, Suit] = {EN_SUIT_NAMES[s]: s for s in Suit} | {s.id: s for s in Suit}
"""Suit words read after ``of``: the French suits and the Hungarian pack's in English
(``seven of acorns``)."""


def _fold(word: str) -> str:
    """A word as card words are compared: lower case, accents dropped (``Ász`` -> ``asz``)."""
    plain = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in plain if not unicodedata.combining(c))


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


def _suit_words() -> dict[str, SuitId]:
    """Every word a table writes for a suit: id, Hungarian, English, German (both faces),
    lower case, with the Hungarian and German ones also without accents."""
    words: dict[str, SuitId] = {}
    for suit in Suit:
        sid = _SUIT_ID_OF[suit]
        for word in (sid, HU_SUIT_NAMES[suit], EN_SUIT_NAMES[suit], DE_SUIT_NAMES[suit]):
            words[word.lower()] = sid
    extra: dict[str, SuitId] = {
        "zold": "leaves",
        "tok": "bells",
        "kreuz": "acorns",
        "pik": "leaves",
        "herz": "hearts",
        "karo": "bells",
    }
    return words | extra


SUIT_OF_WORD: dict[str, SuitId] = _suit_words()
"""A suit's id by any word a table writes for it (``piros``, ``Herz``, ``hearts``), lower case."""

RANK_WORDS: dict[str, str] = {
    "ace": N_("Ace"),
    "ten": N_("Ten"),
    "king": N_("King"),
    "over": N_("Over"),
    "under": N_("Under"),
    "nine": N_("Nine"),
    "eight": N_("Eight"),
    "seven": N_("Seven"),
}
"""Each rank id's English word, a message id the catalogues translate (``Ász``, ``Ass``)."""


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
    """A card in words: a suit and a rank (``Piros Ász``, ``makk hetes``, ``Herz
    Sieben``), or a rank ``of`` a suit (``seven of hearts``)."""
    folded = [_fold(w) for w in words]
    if len(folded) == 2:
        suit, rank = folded
        if suit in _LONG_SUITS and rank in _LONG_RANKS:
            return make_card(_LONG_SUITS[suit], _LONG_RANKS[rank])
    if len(folded) == 3 and folded[1] == "of":
        rank, suit = folded[0], folded[2]
        if rank in _EN_RANKS and suit in _EN_SUITS:
            return make_card(_EN_SUITS[suit], _EN_RANKS[rank])
    return None


def parse_card(text: str) -> Card:
    """Read one card in either notation (or in full words, e.g. ``Piros Ász``)."""
    raw = text.strip()
    if not raw:
        raise CardParseError(Said("empty card"))
    words = raw.split()
    if len(words) == 1 and "-" in raw.strip("-"):  # a card in words with a hyphen: Herz-Sieben
        card = _parse_long(raw.split("-"))
        if card is not None:
            return card
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
