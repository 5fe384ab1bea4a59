"""What happened in a hand: the one input of judging and settlement.

The engine produces these at the end of play; the score keeper builds the same
model from what a table with real cards knows. Contract kinds judge from facts
alone, never from engine internals, so both paths settle identically.

Seats are absolute table positions (0..players-1). ``tricks`` is present when the
hand was played through the engine and absent when typed in at a table; every
other core field is known either way. What only some contract kinds judge by (who
won the tricks holding aces) is not a core field: the kind declares it
(``contracts/fact_specs.py``) and its value sits in ``extra`` under its name.

Deeply immutable (tuples for lists, :class:`~ulti_rules.frozen.FrozenDict` for
dicts, frozen models): the engine hands one cached ``Facts`` to every reader and
settlement shows it to every contract kind, so no reader may change what the next
one sees. Lists and dicts are accepted on input; ``model_dump(mode="json")`` gives
the same JSON as plain lists and dicts would.
"""

# No ``from __future__ import annotations``: pydantic would compile each field's annotation
# from its text when the class is made (``ruleset/schema.py`` says the same).

from collections.abc import Iterable, Mapping, Sequence
from itertools import chain, compress
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from .cards import SuitId, mask_of
from .frozen import FrozenDict, freeze_mapping

FactValue = bool | int | tuple[int, ...] | None
"""The value of a fact a contract kind declares (``contracts/fact_specs.py``): seats,
one seat or nobody, a count, yes/no. The declaring kind's form says which."""
PerSeat = Annotated[Mapping[int, int], AfterValidator(freeze_mapping)]
"""A number per seat, read-only."""


class _Fact(BaseModel):
    # Built when first used, not when imported: loading a ruleset (a contract kind names
    # Facts) never validates facts.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class TrickFact(_Fact):
    """One trick as played: known only when the hand went through the engine."""

    leader: int = Field(description="Seat that led.")
    cards: tuple[int, ...] = Field(description="Cards in playing order, the leader's first.")
    winner: int = Field(description="Seat that won the trick.")


class MarriageFact(_Fact):
    """An announced marriage (King and Over of one suit) and what it counts."""

    seat: int = Field(description="Seat that announced it.")
    suit: SuitId
    value: int = Field(description="20 or 40 (as the ruleset says), before any trick rule.")


class Facts(_Fact):
    """What happened in one hand: all that judging and settlement read besides the bid."""

    seats: tuple[int, ...] = Field(description="The active seats (three), forehand first.")
    declarer: int = Field(description="The declarer's seat.")
    trump: SuitId | None = Field(description="The trump suit, or null in a no-trump game.")
    tricks: tuple[TrickFact, ...] | None = Field(
        default=None, description="Every trick in order; null when typed in at a table."
    )
    tricks_won: PerSeat = Field(description="Tricks won per active seat (sum 10).")
    card_points: PerSeat | None = Field(
        default=None,
        description="Card points per seat from tricks, last-trick bonus included; null when "
        "only the per-side totals are known.",
    )
    declarer_points: int = Field(
        description="Card points the declarer took in tricks, last-trick bonus included."
    )
    defender_points: int = Field(
        description="Card points the defenders took in tricks, last-trick bonus included."
    )
    talon: tuple[int, ...] | None = Field(default=None, description="The final talon, if known.")
    talon_points: int = Field(default=0, description="Card points lying in the final talon.")
    marriages: tuple[MarriageFact, ...] = Field(default=(), description="Marriages announced.")
    last_trick_winner: int = Field(description="Seat that won the 10th trick.")
    trump_seven_last_trick: int | None = Field(
        default=None,
        description="Seat that played the trump 7 to the last trick, or null if nobody did.",
    )
    trump_seven_early: int | None = Field(
        default=None,
        description="Seat that played the trump 7 before the last trick, or null.",
    )
    extra: Annotated[Mapping[str, FactValue], AfterValidator(freeze_mapping)] = Field(
        default=FrozenDict(),
        description="Facts that contract kinds declare beyond these (a plugin's, e.g. Four "
        "Aces' ace_winners), by name; one not recorded is absent. A hand record writes them "
        "beside the core facts.",
    )

    @property
    def defenders(self) -> list[int]:
        """The active seats other than the declarer's."""
        return [s for s in self.seats if s != self.declarer]

    @property
    def cards_won(self) -> Mapping[int, int] | None:
        """The cards in the tricks each active seat won, as a bit mask (``1 << card``):
        what a kind asking "who took card X" reads without a loop over the tricks. None
        where the facts lack the tricks (typed in at a table)."""
        tricks = self.tricks
        if tricks is None:
            return None
        return cards_won(
            self.seats, [trick.cards for trick in tricks], [trick.winner for trick in tricks]
        )


def cards_won(
    seats: Iterable[int], cards: Sequence[tuple[int, ...]], winners: Sequence[int]
) -> FrozenDict[int, int]:
    """Seat -> the bit mask of the cards in the tricks it won (``Facts.cards_won``), from
    each trick's cards and winner in order: the model and the engine's light view count
    alike. Walked by ``map`` and friends: the light view builds it once a hand."""
    return FrozenDict(
        {
            seat: mask_of(chain.from_iterable(compress(cards, map(seat.__eq__, winners))))
            for seat in seats
        }
    )


class Contract(_Fact):
    """What was bid and doubled: with the facts, all settlement needs besides the ruleset."""

    bid: str = Field(description="The winning bid's id in the ruleset's ladder.")
    declarer: int
    trump: SuitId | None
    kontra: Annotated[Mapping[str, PerSeat], AfterValidator(freeze_mapping)] = Field(
        default=FrozenDict(),
        description="Kontra level per component id and per defender seat (0 = none). A kontra "
        "that binds both defenders gives both the same level.",
    )
    gave_up: bool = Field(default=False, description="The declarer gave up before the first lead.")
    uncontested: bool = Field(
        default=False, description="A plain Simple that nobody, the declarer included, overbid."
    )
    multiplier: int = Field(
        default=1, description="The two-round auction's round-1 multiplier, where it still applies."
    )
    sitting_out: int | None = Field(
        default=None, description="Four players: the dealer's seat, sitting out."
    )


M = TypeVar("M", bound=BaseModel)

_new = object.__new__
_set = object.__setattr__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def trusted(model: type[M], values: dict[str, Any], given: Iterable[str] | None = None) -> M:
    """``model.model_construct(given, **values)`` without its loop over the fields
    (defaults, aliases), which costs more than validating: for values the library built
    itself (the engine's facts, a settlement), never for values from outside.

    ``values`` names every field, in the model's order and in its final form (tuples,
    ``FrozenDict``, models); ``given`` is what ``model_fields_set`` reports (default:
    every field). The tests hold such models equal to validated ones."""
    made = _new(model)
    _set(made, "__dict__", values)
    _set_fields_set(made, set(values if given is None else given))
    _set_extra(made, None)
    _set_private(made, None)
    return made
