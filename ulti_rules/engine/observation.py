"""What one seat may see: its own cards, the public auction and play, exposed hands.

An :class:`Observation` is a frozen value with typed fields, built from the hand's
public interface only. Hidden: other hands (until an open contract lays them
down), and the talon's cards except to a seat that held them: the seat that last
laid the talon down (while it lies there), and each seat that picked it up (shown
on its own pick-up). The final talon (not the earlier discards) is shown to
everybody once the hand is over. Nothing hidden is stored in the value, so no
attribute, ``repr`` or pickle of it can show more than the seat may see.

``to_dict()`` gives the plain data observations were before they were typed (the
same keys and values), for JSON clients and saved records; indexing an
observation like that dict still works, with a ``DeprecationWarning``.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ..cards import Card, SuitId, format_card
from ..frozen import FrozenDict
from .actions import Action, Discard
from .phase import Phase, Step

if TYPE_CHECKING:
    from .hand import Hand


class Event(NamedTuple):
    """One action of the history as one seat sees it."""

    seat: int
    type: str
    """The action's type (``bid``, ``discard``, ``play``, ...), shown even when it is hidden."""
    action: Action | None
    """The action; None for another seat's discard, laid face down."""
    picked_up: tuple[Card, ...] | None = None
    """The seat's own pick-up: the cards it took; None otherwise."""


class Trick(NamedTuple):
    """A completed trick (equal to the hand's ``(leader, cards, winner)`` tuple)."""

    leader: int
    cards: tuple[Card, ...]
    """In playing order, the leader's first."""
    winner: int


class Marriage(NamedTuple):
    """An announced marriage (equal to the hand's ``(seat, suit, value)`` tuple)."""

    seat: int
    suit: SuitId
    value: int


class TrickSoFar(NamedTuple):
    """The trick in progress: its leader and the cards played to it so far (at least one)."""

    leader: int
    cards: tuple[Card, ...]


Seen = tuple[int, Action | None]
"""A history entry: the hand's own ``(seat, action)`` pair, or ``(seat, None)`` for
another seat's discard."""


@dataclass(frozen=True, slots=True)
class Observation:
    """What ``seat`` may see of a hand at one moment (``hand.observation(seat)``).

    Deeply immutable (tuples, ``FrozenDict``), so it can be kept, compared and
    hashed; a new one is built on every call. The field names are the keys of
    ``to_dict()``, but ``picked_up``, which ``to_dict()`` folds into the history.

    Example:
        >>> from ulti_rules import load_game
        >>> hand = load_game("wikipedia").new_hand(seed=7)
        >>> seen = hand.observation(0)  # seat 0's view: its own cards, the others' counts
        >>> len(seen.hand), dict(seen.hand_sizes), seen.talon
        (10, {1: 12, 2: 10, 0: 10}, None)
        >>> print(seen.phase, seen.current_player)  # seat 1, not 0, is to act
        auction 1
    """

    ruleset: str
    seat: int
    dealer: int
    active_seats: tuple[int, ...]
    sitting_out: int | None
    """Four players: the dealer, who sits the hand out."""
    phase: Phase
    step: Step
    current_player: int | None
    hand: tuple[Card, ...]
    """This seat's cards, ascending."""
    hand_sizes: Mapping[int, int]
    """How many cards each active seat holds."""
    history: tuple[Seen, ...]
    """Every action so far: the hand's ``(seat, action)`` pairs, shared, with another
    seat's discard as ``(seat, None)``; ``events`` is the same as records."""
    picked_up: Mapping[int, tuple[Card, ...]]
    """This seat's pick-ups: history index -> the cards it took."""
    bid: str | None
    declarer: int | None
    trump: SuitId | None
    talon: tuple[Card, ...] | None
    """The talon if this seat may see it: the seat that laid it, while it lies there;
    everybody once the hand is over (the final talon); else None."""
    kontra: Mapping[str, Mapping[int, int]]
    """Kontra level per component id and per defender seat; empty before play."""
    marriages: tuple[Marriage, ...]
    tricks: tuple[Trick, ...]
    current_trick: TrickSoFar | None
    """None when no card of the next trick is played yet."""
    exposed: Mapping[int, tuple[Card, ...]]
    """The hands an open contract has laid face up (empty until then)."""
    legal_actions: tuple[Action, ...]
    """What this seat may do now; empty when another seat is to act."""

    @property
    def events(self) -> tuple[Event, ...]:
        """The history as records (built when read: ``history`` is the cheap form)."""
        picked_up = self.picked_up
        return tuple(
            Event(
                who,
                "discard" if action is None else action.type,
                action,
                picked_up.get(index),
            )
            for index, (who, action) in enumerate(self.history)
        )

    def to_dict(self) -> dict[str, Any]:
        """The plain data observations were before they were typed: lists, dicts, ints,
        strings (cards as ints, but in the history in notation, as actions write them)."""
        picked_up = self.picked_up
        history: list[dict[str, Any]] = []
        for index, (who, action) in enumerate(self.history):
            if action is None:
                history.append({"seat": who, "type": "discard", "cards": None})
                continue
            event: dict[str, Any] = {"seat": who, **action.to_dict()}
            cards = picked_up.get(index)
            if cards is not None:
                event["cards"] = [format_card(c) for c in cards]
            history.append(event)
        trick = self.current_trick
        return {
            "ruleset": self.ruleset,
            "seat": self.seat,
            "dealer": self.dealer,
            "active_seats": list(self.active_seats),
            "sitting_out": self.sitting_out,
            "phase": self.phase,
            "step": self.step,
            "current_player": self.current_player,
            "hand": list(self.hand),
            "hand_sizes": dict(self.hand_sizes),
            "history": history,
            "bid": self.bid,
            "declarer": self.declarer,
            "trump": self.trump,
            "talon": list(self.talon) if self.talon is not None else None,
            "kontra": {comp: dict(levels) for comp, levels in self.kontra.items()},
            "marriages": [{"seat": s, "suit": suit, "value": v} for s, suit, v in self.marriages],
            "tricks": [
                {"leader": lead, "cards": list(cards), "winner": win}
                for lead, cards, win in self.tricks
            ],
            "current_trick": (
                {"leader": trick.leader, "cards": list(trick.cards)} if trick is not None else None
            ),
            "exposed": {s: list(cards) for s, cards in self.exposed.items()},
            "legal_actions": [a.to_dict() for a in self.legal_actions],
        }

    def to_json(self) -> str:
        """``to_dict()`` as JSON (seat keys become strings, as JSON has it)."""
        return json.dumps(self.to_dict())

    def __getitem__(self, key: str) -> Any:
        """Deprecated: the observation read as the old dict (``obs["talon"]``)."""
        warnings.warn(
            f'observation["{key}"] is deprecated: read the attribute (observation.{key}), '
            "or to_dict() for plain data",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.to_dict()[key]


def observe(hand: Hand, seat: int) -> Observation:
    """What ``seat`` may see of ``hand`` now.

    Built from what the hand keeps as it plays, without walking its history: the
    history is copied whole (in C) and only the other seats' discards, whose places the
    hand keeps (``hand.discards``), are laid face down; the talon lying on the table is
    the last discard, unless a pick-up took it since.
    """
    hand.seats.check(seat)
    history = hand.history
    discards = hand.discards
    all_pickups = hand.pickups
    seen: list[Seen] = list(history)
    for index in discards:
        who = history[index][0]
        if who != seat:
            seen[index] = (who, None)  # laid face down
    talon: tuple[Card, ...] | None = None
    if hand.is_over:
        talon = hand.talon
    elif discards:
        last = discards[-1]
        who, laid = history[last]
        if who == seat and max(all_pickups, default=-1) < last:  # still lying there
            assert type(laid) is Discard
            talon = laid.cards
    pickups = {i: cards for i, cards in all_pickups.items() if history[i][0] == seat}
    active = hand.seats.active
    exposed: dict[int, tuple[Card, ...]] = {}
    if hand.exposed:
        declarer = hand.declarer
        assert declarer is not None
        shown = active if hand.ruleset.open_games.exposes == "all" else (declarer,)
        exposed = {s: tuple(hand.cards(s)) for s in shown}
    player = hand.current_player
    leader, trick = hand.current_trick
    return Observation(
        ruleset=hand.ruleset.name,
        seat=seat,
        dealer=hand.dealer,
        active_seats=active,
        sitting_out=hand.seats.sitting_out,
        phase=hand.phase,
        step=hand.step,
        current_player=player,
        hand=tuple(hand.cards(seat)),
        hand_sizes=FrozenDict({s: hand.hand_size(s) for s in active}),
        history=tuple(seen),
        picked_up=FrozenDict(pickups),
        bid=hand.bid,
        declarer=hand.declarer,
        trump=hand.trump,
        talon=talon,
        kontra=FrozenDict(
            {comp: FrozenDict(levels) for comp, levels in hand.kontra_levels.items()}
        ),
        marriages=tuple(Marriage._make(m) for m in hand.marriages),
        tricks=tuple(Trick._make(t) for t in hand.tricks),
        current_trick=TrickSoFar(leader, trick) if trick else None,
        exposed=FrozenDict(exposed),
        legal_actions=tuple(hand.legal_actions()) if player == seat else (),
    )
