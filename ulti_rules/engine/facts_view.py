"""A played hand's facts without the pydantic models: what ``ulti simulate`` settles from.

``Hand.facts`` is a :class:`~ulti_rules.facts.Facts` model, ten ``TrickFact`` models
inside; building them costs more than judging the hand. A :class:`FactsView` holds the
same fields with the same values, read-only, and builds the costly ones (the tricks, the
card points per seat, the declared facts) only when a reader asks for them. Contract
kinds read it as they read ``Facts`` (its tricks are :class:`TrickView` tuples with the
``TrickFact`` fields); anything else asked of it (``model_dump``, ``model_fields``) is
answered by the model, built then. ``model()`` is the model ``Hand.facts`` returns.
The tests hold payments settled from a view equal to those settled from the model, over
many hands of every bundled ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, NoReturn, TypeVar

from ..cards import Rank, Suit, SuitId, make_card, suit_number
from ..facts import Facts, FactValue, MarriageFact, TrickFact, trusted
from ..frozen import FrozenDict
from .declared import NO_EXTRA, declared_facts
from .masks import BITS

if TYPE_CHECKING:
    from ..game import Game

T = TypeVar("T")

EngineTrick = tuple[int, tuple[int, ...], int]
Played = tuple["Game", list[EngineTrick], tuple[int, ...], int, tuple[int, ...], tuple[int, ...]]
"""What the lazy fields are built from: the game, the engine's tricks (leader, cards,
winner), the card points per card, the last trick's bonus, the talon, and for each seat
the active seat that plays after it."""


class TrickView(NamedTuple):
    """One trick as the engine played it, with the fields of a
    :class:`~ulti_rules.facts.TrickFact` (any other attribute: the model's)."""

    leader: int
    cards: tuple[int, ...]
    winner: int

    def model(self) -> TrickFact:
        """The trick as the model ``Facts.tricks`` holds."""
        return trusted(
            TrickFact, {"leader": self.leader, "cards": self.cards, "winner": self.winner}
        )

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.model(), name)


_trick = partial(tuple.__new__, TrickView)
"""A TrickView of an engine trick, made in C (``TrickView._make`` is Python)."""


class _Lazy(Generic[T]):
    """A field built on first reading and then kept in the view's ``__dict__``, where it
    is read directly (as a model's fields are)."""

    def __init__(self, build: Callable[[FactsView], T]) -> None:
        self.build = build
        self.name = build.__name__

    def __get__(self, view: FactsView | None, owner: type[FactsView]) -> T:
        if view is None:
            return self  # type: ignore[return-value]
        value = view.__dict__[self.name] = self.build(view)
        return value


_new = object.__new__
_set = object.__setattr__


def _seat_at(after: tuple[int, ...], leader: int, place: int) -> int:
    """Who played the ``place``-th card of a trick ``leader`` led (0: the leader)."""
    seat = leader
    for _ in range(place):
        seat = after[seat]
    return seat


class FactsView:
    """The facts of a played hand as :class:`~ulti_rules.facts.Facts` has them, read-only
    (built by ``engine.facts.facts_view``)."""

    seats: tuple[int, ...]
    declarer: int
    trump: SuitId | None
    tricks_won: Mapping[int, int]
    declarer_points: int
    defender_points: int
    talon_points: int
    marriages: tuple[MarriageFact, ...]
    last_trick_winner: int
    trump_seven_last_trick: int | None
    _played: Played

    @classmethod
    def of(cls, values: dict[str, Any]) -> FactsView:
        """A view holding ``values``: the eager fields and ``_played``."""
        view = _new(cls)
        _set(view, "__dict__", values)
        return view

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"the facts are read-only: {name} cannot be set")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"the facts are read-only: {name} cannot be deleted")

    def __getattr__(self, name: str) -> Any:
        """What the view does not hold (``model_dump``, ``model_fields``): the model's
        (while the declared facts are computed, the model without them)."""
        if name.startswith("_"):
            raise AttributeError(name)
        computing = "_computing" in self.__dict__
        return getattr(self.core_model() if computing else self.model(), name)

    def __repr__(self) -> str:
        return f"FactsView({self.core_model()!r})"

    @property
    def defenders(self) -> list[int]:
        """The active seats other than the declarer's."""
        return [s for s in self.seats if s != self.declarer]

    @_Lazy
    def tricks(self) -> tuple[TrickView, ...]:
        return tuple(map(_trick, self._played[1]))

    @_Lazy
    def card_points(self) -> FrozenDict[int, int]:
        _, played, points, bonus, _, _ = self._played
        taken = dict.fromkeys(self.seats, 0)
        point_of = points.__getitem__
        for _, cards, winner in played:
            taken[winner] += sum(map(point_of, cards))
        taken[self.last_trick_winner] += bonus
        return FrozenDict(taken)

    @_Lazy
    def talon(self) -> tuple[int, ...]:
        return self._played[4]

    @_Lazy
    def trump_seven_early(self) -> int | None:
        """Built when read: no built-in kind judges by it."""
        trump = self.trump
        if trump is None:
            return None
        seven = make_card(Suit(suit_number(trump)), Rank.SEVEN)
        played = self._played[1]
        for leader, cards, _ in played[:-1]:
            if seven in cards:
                return _seat_at(self._played[5], leader, cards.index(seven))
        return None

    @_Lazy
    def cards_won(self) -> FrozenDict[int, int]:
        won = dict.fromkeys(self.seats, 0)
        bit = BITS
        for _, (a, b, c), winner in self._played[1]:  # three cards a trick, always
            won[winner] |= bit[a] | bit[b] | bit[c]
        return FrozenDict(won)

    @_Lazy
    def extra(self) -> FrozenDict[str, FactValue]:
        game = self._played[0]
        if not game.fact_specs:
            return NO_EXTRA
        held = self.__dict__
        held["_computing"] = True
        try:
            return declared_facts(self, game.fact_specs, game.registry)  # type: ignore[arg-type]
        finally:
            del held["_computing"]

    def model(self) -> Facts:
        """The facts as the model ``Hand.facts`` returns, built once."""
        held = self.__dict__
        found: Facts | None = held.get("_model")
        if found is None:
            found = held["_model"] = self._model(self.extra)
        return found

    def core_model(self) -> Facts:
        """The model without the declared facts: what their functions read it as."""
        return self._model(NO_EXTRA)

    def _model(self, extra: FrozenDict[str, FactValue]) -> Facts:
        tricks: tuple[TrickFact | TrickView, ...] = self.tricks
        if tricks and type(tricks[0]) is TrickView:
            tricks = tuple(trick.model() for trick in tricks)  # type: ignore[union-attr]
        return trusted(
            Facts,
            {
                "seats": self.seats,
                "declarer": self.declarer,
                "trump": self.trump,
                "tricks": tricks,
                "tricks_won": self.tricks_won,
                "card_points": self.card_points,
                "declarer_points": self.declarer_points,
                "defender_points": self.defender_points,
                "talon": self.talon,
                "talon_points": self.talon_points,
                "marriages": self.marriages,
                "last_trick_winner": self.last_trick_winner,
                "trump_seven_last_trick": self.trump_seven_last_trick,
                "trump_seven_early": self.trump_seven_early,
                "extra": extra,
            },
        )
