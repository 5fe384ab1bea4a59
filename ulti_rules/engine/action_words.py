"""An action as a refusal quotes it, in words the message catalogues translate.

``str(action)`` is a label for logs and records, in English ("give up"); a hint that
says an action is not one of the auction or the play speaks the table's language, so
it quotes the action as a :class:`~ulti_rules.said.Said` ("feladás", "aufgeben")."""

from __future__ import annotations

from collections.abc import Callable

from ..cards import card_name, suit_number
from ..said import Said
from .actions import (
    Action,
    Announce,
    Bid,
    DeclareTrump,
    Discard,
    GiveUp,
    Kontra,
    Pass,
    PickUp,
    Play,
)
from .tricks import SUITS


def action_words(action: Action, bid_name: Callable[[str], str] = str) -> Said | str:
    """``action`` in translatable words; its plain label for an action of no known type.
    ``bid_name``: a bid's name by its id (the ladder's ``Named``, said in the sentence's
    language); the id itself by default."""
    if isinstance(action, Bid):
        bid = bid_name(action.bid)
        if action.trump is not None:
            suit = SUITS[suit_number(action.trump)]
            return Said("bid {bid} with {suit} trump", bid=bid, suit=suit)
        return Said("bid {bid}", bid=bid)
    if isinstance(action, Pass):
        return Said("pass")
    if isinstance(action, PickUp):
        return Said("pick up the talon")
    if isinstance(action, Discard):
        return Said("discard {cards}", cards=", ".join(card_name(c) for c in action.cards))
    if isinstance(action, DeclareTrump):
        return Said("name {suit} trump", suit=SUITS[suit_number(action.suit)])
    if isinstance(action, Announce):
        return Said("announce the {suit} marriage", suit=SUITS[suit_number(action.suit)])
    if isinstance(action, Kontra):
        components = ", ".join(action.components)
        if action.against is not None:
            return Said(
                "kontra level {level} on {components} against seat {seat}",
                level=action.level,
                components=components,
                seat=action.against,
            )
        return Said(
            "kontra level {level} on {components}", level=action.level, components=components
        )
    if isinstance(action, Play):
        return Said("play the {card}", card=card_name(action.card))
    if isinstance(action, GiveUp):
        return Said("give up")
    return str(action)
