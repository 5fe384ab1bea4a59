"""The words `ulti play` says: bids, components, kontra levels and suits in the player's
language, cards in his faces and suit colours, and what a seat did, in a sentence.

Bid, component and level names come from the ruleset's ``names``, the sentences from
the catalogue, both in ``--lang`` (``speech.py``). The person's seat (``You``) has
sentences of its own ("You bid", "Anna bids"): languages conjugate differently.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text

from ..cards import Faces, Suit, SuitId, format_card, suit_of
from ..engine import Action, Announce, Bid, DeclareTrump, Discard, GiveUp, Kontra, Pass, PickUp
from ..i18n import N_
from ..ruleset.schema import Ruleset
from .session_words import YOU
from .speech import Speech

__all__ = ["SUIT_STYLES", "YOU", "Words"]

SUIT_STYLES: dict[Faces, dict[Suit, str]] = {
    # The Hungarian pack's four colours: brown acorns, green leaves, red hearts, yellow bells.
    "hu": {Suit.ACORNS: "dark_orange3", Suit.LEAVES: "green", Suit.HEARTS: "red",
           Suit.BELLS: "yellow"},
    # The French pack's two: black clubs and spades, red hearts and diamonds.
    "fr": {Suit.ACORNS: "bold", Suit.LEAVES: "bold", Suit.HEARTS: "red", Suit.BELLS: "red"},
}  # fmt: skip


class Words:
    """Names for one ruleset, language and faces, and the players' names by seat."""

    def __init__(
        self, ruleset: Ruleset, lang: str, faces: Faces, names: list[str], you: str = YOU
    ) -> None:
        self.ruleset = ruleset
        self.say = Speech(lang)
        self._ = self.say._
        self.lang = self.say.lang
        self.faces = faces
        self.names = names
        self.you = you
        """The person's name at the table (``You``, ``Te``, ``Du``): sentences about him
        take the plain verb."""

    # ------------------------------------------------------------------ cards

    def card(self, card: int) -> Text:
        """The card in short notation, in its suit's colour (no colour off a terminal)."""
        return Text(self.card_plain(card), style=SUIT_STYLES[self.faces][suit_of(card)])

    def cards(self, cards: Iterable[int], sep: str = " ") -> Text:
        return Text(sep).join(self.card(c) for c in cards)

    def card_plain(self, card: int) -> str:
        return format_card(card, self.faces, symbols=self.faces == "fr")

    def suit(self, suit: SuitId) -> str:
        """``hearts (Piros)``, ``piros`` or ``Herz`` (with ``(♥)`` for French faces)."""
        return self.say.suit(suit, self.faces)

    # ------------------------------------------------------------------ the ruleset's names

    def bid(self, bid_id: str) -> str:
        return self.say.bid(self.ruleset, bid_id)

    def component(self, cid: str) -> str:
        return self.say.contract(self.ruleset, cid)

    def level(self, level: int) -> str:
        return self.say.level(self.ruleset, level)

    def kontra(self, action: Kontra) -> str:
        """``Rekontra on Simple, Ulti against Ben``."""
        comps = ", ".join(self.component(c) for c in action.components)
        level = self.level(action.level)
        if action.against is None:
            return self._("{level} on {components}", level=level, components=comps)
        if self.is_you(action.against):
            return self._("{level} on {components} against You", level=level, components=comps)
        return self._(
            "{level} on {components} against {other}",
            level=level,
            components=comps,
            other=self.names[action.against],
        )

    # ------------------------------------------------------------------ sentences

    def is_you(self, seat: int) -> bool:
        return self.names[seat] == self.you

    def said(self, seat: int, yours: str, theirs: str, **values: Any) -> str:
        """``yours`` of the person (``You bid {bid}``), else ``theirs`` with the seat's
        ``{name}`` (``{name} bids {bid}``): two whole sentences, since languages conjugate."""
        if self.is_you(seat):
            return self._(yours, **values)
        return self._(theirs, name=self.names[seat], **values)

    def action(self, seat: int, action: Action, shown: tuple[int, ...] | None = None) -> Text:
        """What ``seat`` did, as a sentence; ``shown``: the cards of a discard or pick-up
        the viewer may see (None: laid face down, not shown)."""
        said = self.said
        text = Text()
        if isinstance(action, Bid):
            bid = self.bid(action.bid)
            if action.trump is not None:
                suit = self.suit(action.trump)
                text.append(
                    said(seat, N_("You bid {bid}, {suit} trump"),
                         N_("{name} bids {bid}, {suit} trump"), bid=bid, suit=suit)
                )  # fmt: skip
            else:
                text.append(said(seat, N_("You bid {bid}"), N_("{name} bids {bid}"), bid=bid))
        elif isinstance(action, Pass):
            text.append(said(seat, N_("You pass"), N_("{name} passes")))
        elif isinstance(action, PickUp):
            text.append(said(seat, N_("You pick up the talon"), N_("{name} picks up the talon")))
            if shown:
                text.append(": ").append_text(self.cards(shown))
        elif isinstance(action, Discard):
            text.append(said(seat, N_("You discard two cards"), N_("{name} discards two cards")))
            if shown:
                text.append(": ").append_text(self.cards(shown))
        elif isinstance(action, DeclareTrump):
            suit = self.suit(action.suit)
            text.append(
                said(seat, N_("You name trump: {suit}"), N_("{name} names trump: {suit}"),
                     suit=suit)
            )  # fmt: skip
        elif isinstance(action, Announce):
            suit = self.suit(action.suit)
            text.append(
                said(seat, N_("You announce the {suit} marriage"),
                     N_("{name} announces the {suit} marriage"), suit=suit)
            )  # fmt: skip
        elif isinstance(action, Kontra):
            kontra = self.kontra(action)
            text.append(
                said(seat, N_("You call {kontra}"), N_("{name} calls {kontra}"), kontra=kontra)
            )
        elif isinstance(action, GiveUp):
            text.append(said(seat, N_("You give up"), N_("{name} gives up")))
        else:
            text.append(f"{self.names[seat]}: {action}")
        return text
