"""Actions: the small immutable values a player hands to :meth:`Hand.apply`.

Each action is a frozen, slotted dataclass that knows how to print itself and how
to travel through a hand record (``to_dict`` / :func:`action_from_dict`). Cards
travel in Hungarian short notation (``PVII``) so records stay readable; suits as
the ruleset's suit ids (``acorns``).

Malformed values (a card 40 or ``True`` or ``"MA"``, a suit "spades", an empty
kontra) cannot be built: the constructor raises :class:`MalformedAction`, which is
both an :class:`~ulti_rules.errors.IllegalAction` and a ``ValueError``.
Well-formed actions that break a rule are refused by the hand with
``IllegalAction``. The hand accepts these classes only, by exact type: a subclass
is refused (it could carry anything under a familiar name).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar, cast

from ..cards import (
    SUIT_IDS,
    Card,
    CardParseError,
    SuitId,
    format_card,
    format_cards,
    parse_card,
    suit_id,
)
from ..errors import IllegalAction
from .masks import BYTE_CARDS


class MalformedAction(IllegalAction, ValueError):
    """An action built from values that are not cards, suits, levels or seats.

    An ``IllegalAction`` for callers of the hand; a ``ValueError`` for readers of
    records and for code written before it existed.
    """


class Action:
    """Base of every action; ``type`` names it in records."""

    __slots__ = ()
    type: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a hand record."""
        return {"type": self.type}


def _check_suit(suit: object) -> None:
    if type(suit) is not str or suit not in SUIT_IDS:
        raise MalformedAction(f"not a suit: {suit!r} (one of {', '.join(SUIT_IDS)})")


def _check_card(card: object) -> None:
    if type(card) is not int or not 0 <= card < 32:
        hint = " (cards in notation: parse_card)" if isinstance(card, str) else ""
        raise MalformedAction(f"not a card: {card!r}; a card is an int from 0 to 31{hint}")


def _check_int(value: object, what: str, least: int) -> None:
    if type(value) is not int or value < least:
        raise MalformedAction(f"not {what}: {value!r}")


def _listed(values: object, what: str) -> tuple[Any, ...]:
    """``values`` as a tuple; a string or a non-iterable is refused (not split into letters)."""
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Iterable):
        raise MalformedAction(f"{what} are given as a list, not {values!r}")
    return tuple(values)


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Name a bid of the ladder; ``trump`` only where the suit is named with the bid."""

    bid: str
    trump: SuitId | None = None
    type: ClassVar[str] = "bid"

    def __post_init__(self) -> None:
        if type(self.bid) is not str or not self.bid:
            raise MalformedAction(f"not a bid id: {self.bid!r}")
        if self.trump is not None:
            _check_suit(self.trump)

    def __str__(self) -> str:
        return f"bid {self.bid}" + (f" ({self.trump} trump)" if self.trump else "")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type, "bid": self.bid}
        if self.trump is not None:
            data["trump"] = self.trump
        return data


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass in the auction, or decline to call in the kontra round."""

    type: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class PickUp(Action):
    """Take the talon into the hand; obliges a discard of two and a higher bid."""

    type: ClassVar[str] = "pick_up"

    def __str__(self) -> str:
        return "pick up the talon"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Lay cards face down as the talon; stored sorted, so the order given never matters."""

    cards: tuple[Card, ...]
    type: ClassVar[str] = "discard"

    def __post_init__(self) -> None:
        cards = _listed(self.cards, "the discarded cards")
        for card in cards:
            _check_card(card)
        if len(set(cards)) != len(cards):
            raise MalformedAction("a discard names a card twice")
        object.__setattr__(self, "cards", tuple(sorted(cards)))

    def __str__(self) -> str:
        return f"discard {format_cards(self.cards)}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "cards": [format_card(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class DeclareTrump(Action):
    """Name the trump suit after the auction (or after round 1 of a two-round auction)."""

    suit: SuitId
    type: ClassVar[str] = "declare_trump"

    def __post_init__(self) -> None:
        _check_suit(self.suit)

    def __str__(self) -> str:
        return f"trump {self.suit}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "suit": self.suit}


@dataclass(frozen=True, slots=True)
class Announce(Action):
    """Announce the marriage (King and Over) of a suit one holds."""

    suit: SuitId
    type: ClassVar[str] = "announce"

    def __post_init__(self) -> None:
        _check_suit(self.suit)

    def __str__(self) -> str:
        return f"announce the {self.suit} marriage"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "suit": self.suit}


@dataclass(frozen=True, slots=True)
class Kontra(Action):
    """Raise the named components to kontra ``level`` (1 kontra, 2 rekontra, ...).

    Every named component must stand one level below for the caller: a defender
    raises his own chain (or the shared one). The declarer answers: without
    ``against``, every chain of the named components standing at ``level - 1``;
    with ``against`` (a defender's seat), that defender's chain alone, where each
    defender has his own (a kontra that binds only its caller). Components are
    stored sorted.
    """

    components: tuple[str, ...]
    level: int
    against: int | None = None
    type: ClassVar[str] = "kontra"

    def __post_init__(self) -> None:
        comps = _listed(self.components, "the components of a kontra")
        if not comps or not all(type(c) is str and c for c in comps):
            raise MalformedAction("a kontra names at least one component id")
        if len(set(comps)) != len(comps):
            raise MalformedAction("a kontra names a component twice")
        _check_int(self.level, "a kontra level", 1)
        if self.against is not None:
            _check_int(self.against, "a seat to kontra against", 0)
        object.__setattr__(self, "components", tuple(sorted(comps)))

    def __str__(self) -> str:
        text = f"kontra level {self.level} on {', '.join(self.components)}"
        return text if self.against is None else f"{text} against seat {self.against}"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": self.type,
            "components": list(self.components),
            "level": self.level,
        }
        if self.against is not None:
            data["against"] = self.against
        return data


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card to the trick."""

    card: Card
    type: ClassVar[str] = "play"

    def __post_init__(self) -> None:
        _check_card(self.card)

    def __str__(self) -> str:
        return f"play {format_card(self.card)}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "card": format_card(self.card)}


@dataclass(frozen=True, slots=True)
class GiveUp(Action):
    """Concede a plain Parti before the first lead (DE, HU)."""

    type: ClassVar[str] = "give_up"

    def __str__(self) -> str:
        return "give up"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (Bid, Pass, PickUp, Discard, DeclareTrump, Announce, Kontra, Play, GiveUp)
}
ACTION_CLASSES: frozenset[type] = frozenset(ACTION_TYPES.values())
"""The classes the hand accepts, checked with ``type(action) in ACTION_CLASSES``."""


def not_an_action(action: object) -> str:
    """Why ``action`` is refused before any rule is looked at: it is no engine action."""
    if isinstance(action, Action):
        return (
            f"{type(action).__name__} is not an action of the engine: the hand takes "
            f"{', '.join(c.__name__ for c in ACTION_TYPES.values())} themselves, not subclasses"
        )
    return f"{action!r} is not an action"


# Shared instances: actions are values, so the engine hands out the same object
# for the same action instead of building one per legal move.
PASS = Pass()
PICK_UP = PickUp()
GIVE_UP = GiveUp()
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in range(32))
_BYTE_PLAYS: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple(PLAYS[c] for c in cards) for cards in suit) for suit in BYTE_CARDS
)


def plays_of(mask: int) -> list[Action]:
    """The Play of every card of a mask, ascending: a legal move list, by four look-ups
    (the play asks it before almost every card)."""
    t = _BYTE_PLAYS
    return [
        *t[0][mask & 255],
        *t[1][(mask >> 8) & 255],
        *t[2][(mask >> 16) & 255],
        *t[3][mask >> 24],
    ]


DECLARE: dict[int, DeclareTrump] = {s: DeclareTrump(suit_id(s)) for s in range(4)}
ANNOUNCE: dict[int, Announce] = {s: Announce(suit_id(s)) for s in range(4)}
DISCARDS: dict[tuple[Card, Card], Discard] = {
    (a, b): Discard((a, b)) for a in range(32) for b in range(a + 1, 32)
}
_DISCARD_ROWS: tuple[tuple[Discard | None, ...], ...] = tuple(
    tuple(DISCARDS.get((a, b)) for b in range(32)) for a in range(32)
)
"""``_DISCARD_ROWS[a][b]``: the Discard of ``a`` and ``b`` (None unless ``a < b``)."""


def discards_of(cards: tuple[Card, ...]) -> list[Action]:
    """The Discard of every pair of ``cards`` (ascending), in ``combinations`` order.

    Each pair read from its first card's row (``_DISCARD_ROWS``), the pairs drawn by
    ``combinations``: listed at every discard, and a third faster than one ``itemgetter``
    per row (2.4 against 3.5 microseconds for 12 cards), itself a quarter faster than
    looking each pair up in ``DISCARDS``.
    """
    rows = _DISCARD_ROWS
    return [rows[a][b] for a, b in combinations(cards, 2)]  # type: ignore[misc]


def _card_value(raw: object) -> Card:
    if isinstance(raw, str):
        try:
            return parse_card(raw)
        except CardParseError as exc:  # a client's typo: the action is malformed
            raise MalformedAction(*exc.args) from None  # a Said stays one
    _check_card(raw)
    return cast(int, raw)


_KEYS: dict[str, tuple[set[str], set[str]]] = {
    # type -> (required keys, optional keys)
    "bid": ({"bid"}, {"trump"}),
    "discard": ({"cards"}, set()),
    "declare_trump": ({"suit"}, set()),
    "announce": ({"suit"}, set()),
    "kontra": ({"components", "level"}, {"against"}),
    "play": ({"card"}, set()),
}


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Rebuild an action from ``to_dict`` output; ``MalformedAction`` says what is wrong."""
    if not isinstance(data, Mapping):
        raise MalformedAction(f"an action is a mapping with a 'type', not {data!r}")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None or not isinstance(kind, str):
        raise MalformedAction(f"unknown action type {kind!r} (one of {', '.join(ACTION_TYPES)})")
    required, optional = _KEYS.get(kind, (set(), set()))
    odd = [key for key in data if not isinstance(key, str)]
    if odd:  # JSON cannot give these; msgpack, CBOR or YAML can
        raise MalformedAction(f"action '{kind}' has keys that are not text: {odd[0]!r}")
    keys = set(data) - {"type"}
    if required - keys:
        raise MalformedAction(f"action '{kind}' lacks {', '.join(sorted(required - keys))}")
    if keys - required - optional:
        raise MalformedAction(
            f"action '{kind}' has unknown keys: {', '.join(sorted(keys - required - optional))}"
        )
    if cls is Play:
        return PLAYS[_card_value(data["card"])]
    if cls is Discard:
        return Discard(tuple(_card_value(c) for c in _as_list(data["cards"])))
    if cls is Kontra:
        return Kontra(tuple(_as_list(data["components"])), data["level"], data.get("against"))
    if cls is Bid:
        return Bid(data["bid"], data.get("trump"))
    if cls is DeclareTrump:
        return DeclareTrump(data["suit"])
    if cls is Announce:
        return Announce(data["suit"])
    return cls()


def _as_list(value: object) -> list[Any]:
    """A list or tuple as a list; anything else (text, bytes, a mapping, a set) is refused,
    as the action's own constructor refuses it."""
    if not isinstance(value, list | tuple):
        raise MalformedAction(f"expected a list, got {value!r}")
    return list(value)
