"""The words `ulti play` says: bids, components, kontra levels and suits in the player's
language, cards in his faces and suit colours, and what a seat did, in a sentence.

Bid, component and level names come from the ruleset's ``names`` (``--lang``); the
sentences around them stay English. A seat called ``You`` gets the plain verb ("You
bid", "Anna bids").
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from ..cards import (
    DE_SUIT_NAMES,
    FR_SUIT_SYMBOL,
    HU_SUIT_NAMES,
    Faces,
    Suit,
    SuitId,
    format_card,
    suit_label,
    suit_number,
    suit_of,
)
from ..engine import Action, Announce, Bid, DeclareTrump, Discard, GiveUp, Kontra, Pass, PickUp
from ..ruleset.schema import Ruleset

LANGS = ("hu", "en", "de")

YOU = "You"
"""The human's name at the table: sentences about him take the plain verb."""

SUIT_STYLES: dict[Faces, dict[Suit, str]] = {
    # The Hungarian pack's four colours: brown acorns, green leaves, red hearts, yellow bells.
    "hu": {Suit.ACORNS: "dark_orange3", Suit.LEAVES: "green", Suit.HEARTS: "red",
           Suit.BELLS: "yellow"},
    # The French pack's two: black clubs and spades, red hearts and diamonds.
    "fr": {Suit.ACORNS: "bold", Suit.LEAVES: "bold", Suit.HEARTS: "red", Suit.BELLS: "red"},
}  # fmt: skip

VERBS = {
    "bid": "bids",
    "pass": "passes",
    "pick up": "picks up",
    "discard": "discards",
    "name": "names",
    "announce": "announces",
    "call": "calls",
    "play": "plays",
    "give up": "gives up",
    "win": "wins",
    "lead": "leads",
    "deal": "deals",
    "lay": "lays",
}
"""Plain verb -> third person, for the sentences about a seat."""


class Words:
    """Names for one ruleset, language and faces, and the players' names by seat."""

    def __init__(self, ruleset: Ruleset, lang: str, faces: Faces, names: list[str]) -> None:
        self.ruleset = ruleset
        self.lang = lang
        self.faces = faces
        self.names = names

    # ------------------------------------------------------------------ cards

    def card(self, card: int) -> Text:
        """The card in short notation, in its suit's colour (no colour off a terminal)."""
        shown = format_card(card, self.faces, symbols=self.faces == "fr")
        return Text(shown, style=SUIT_STYLES[self.faces][suit_of(card)])

    def cards(self, cards: Iterable[int], sep: str = " ") -> Text:
        return Text(sep).join(self.card(c) for c in cards)

    def card_plain(self, card: int) -> str:
        return format_card(card, self.faces, symbols=self.faces == "fr")

    def suit(self, suit: SuitId) -> str:
        """``hearts (Piros)``, ``Piros`` or ``Herz`` (with ``(♥)`` for French faces)."""
        number = suit_number(suit)
        if self.lang == "en":
            return suit_label(number, self.faces)
        name = (HU_SUIT_NAMES if self.lang == "hu" else DE_SUIT_NAMES)[Suit(number)]
        return name if self.faces == "hu" else f"{name} ({FR_SUIT_SYMBOL[Suit(number)]})"

    # ------------------------------------------------------------------ the ruleset's names

    def bid(self, bid_id: str) -> str:
        try:
            return self.ruleset.bid(bid_id).names.get(self.lang)
        except KeyError:  # not on the ladder: its id is all there is
            return bid_id

    def component(self, cid: str) -> str:
        spec = self.ruleset.contracts.get(cid)
        return spec.names.get(self.lang) if spec is not None else cid

    def level(self, level: int) -> str:
        levels = self.ruleset.kontra.levels
        if level <= len(levels):
            return levels[level - 1].names.get(self.lang)
        return f"kontra level {level}"

    def kontra(self, action: Kontra) -> str:
        """``Rekontra on Simple, Ulti against Ben``."""
        comps = ", ".join(self.component(c) for c in action.components)
        against = "" if action.against is None else f" against {self.names[action.against]}"
        return f"{self.level(action.level)} on {comps}{against}"

    # ------------------------------------------------------------------ sentences

    def says(self, seat: int, verb: str) -> str:
        """``Anna bids`` / ``You bid``."""
        name = self.names[seat]
        return f"{name} {verb if name == YOU else VERBS[verb]}"

    def action(self, seat: int, action: Action, shown: tuple[int, ...] | None = None) -> Text:
        """What ``seat`` did, as a sentence; ``shown``: the cards of a discard or pick-up
        the viewer may see (None: laid face down, not shown)."""
        text = Text()
        if isinstance(action, Bid):
            text.append(f"{self.says(seat, 'bid')} {self.bid(action.bid)}")
            if action.trump is not None:
                text.append(f", {self.suit(action.trump)} trump")
        elif isinstance(action, Pass):
            text.append(self.says(seat, "pass"))
        elif isinstance(action, PickUp):
            text.append(f"{self.says(seat, 'pick up')} the talon")
            if shown:
                text.append(": ").append_text(self.cards(shown))
        elif isinstance(action, Discard):
            text.append(f"{self.says(seat, 'discard')} two cards")
            if shown:
                text.append(": ").append_text(self.cards(shown))
        elif isinstance(action, DeclareTrump):
            text.append(f"{self.says(seat, 'name')} trump: {self.suit(action.suit)}")
        elif isinstance(action, Announce):
            text.append(f"{self.says(seat, 'announce')} the {self.suit(action.suit)} marriage")
        elif isinstance(action, Kontra):
            text.append(f"{self.says(seat, 'call')} {self.kontra(action)}")
        elif isinstance(action, GiveUp):
            text.append(self.says(seat, "give up"))
        else:
            text.append(f"{self.names[seat]}: {action}")
        return text
