"""Building the facts and the contract at the end of a hand: what settlement reads.

Called once per hand (lazily, when ``Hand.facts`` is first read), never in the
trick loop. Facts are the same model the score keeper fills in from a real
table; the engine adds what only it knows (every trick), and the facts that the
ruleset's contract kinds declare (``contracts/fact_specs.py``), each computed from
the core facts by the kind's own function. The hand is read through its public
properties only.

The engine's own values need no validation: they are built here in their final
immutable forms (tuples, ``FrozenDict``) and the models are made from them as
``model_construct`` would make them (``_trusted``). tests/test_engine_facts_trusted.py
holds them equal to validated ones. The declared facts, which plugins compute, are
checked (``declared_facts``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..cards import Rank, Suit, make_card, suit_number
from ..contracts.fact_specs import FactSpec
from ..errors import PluginError
from ..facts import Contract, Facts, FactValue, MarriageFact, TrickFact
from ..frozen import FrozenDict
from ..plugins import Registry, plugin_fault, printable, short_repr

if TYPE_CHECKING:
    from .hand import Hand

M = TypeVar("M", bound=BaseModel)

_new = object.__new__
_set = object.__setattr__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__
"""BaseModel's slots, set as ``model_construct`` sets them (their setters: faster than
``object.__setattr__`` by name)."""


def _trusted(model: type[M], values: dict[str, Any]) -> M:
    """``model.model_construct(**values)`` without its loop over the fields (defaults,
    aliases), which costs more than validating (3.4 against 1.9 µs for a TrickFact,
    pydantic 2.13): ``values`` names every field, in the model's order and in its final
    form. The attributes set are those ``model_construct`` sets."""
    assert tuple(values) == _FIELDS[model], f"{model.__name__}: every field, in order"
    made = _new(model)
    _set(made, "__dict__", values)
    _set_fields_set(made, set(values))
    _set_extra(made, None)
    _set_private(made, None)
    return made


_FIELDS: dict[type[BaseModel], tuple[str, ...]] = {
    model: tuple(model.model_fields) for model in (TrickFact, MarriageFact, Facts, Contract)
}


def _seats_in_order(hand: Hand, leader: int, count: int) -> list[int]:
    seats = [leader]
    while len(seats) < count:
        seats.append(hand.seats.after[seats[-1]])
    return seats


def build_facts(hand: Hand) -> Facts:
    """The facts of a hand played out to the last trick."""
    declarer, trump, played = hand.declarer, hand.trump, hand.tricks
    assert declarer is not None and played
    game = hand.game
    trump_number = suit_number(trump) if trump is not None else -1
    points = game.tables(trump_number).points
    seven = make_card(Suit(trump_number), Rank.SEVEN) if trump is not None else -1
    active = hand.seats.active
    tricks: list[TrickFact] = []
    tricks_won = dict.fromkeys(active, 0)
    card_points = dict.fromkeys(active, 0)
    seven_seat = seven_trick = -1
    for number, (leader, cards, winner) in enumerate(played):
        tricks.append(_trusted(TrickFact, {"leader": leader, "cards": cards, "winner": winner}))
        tricks_won[winner] += 1
        card_points[winner] += sum([points[card] for card in cards])
        if seven in cards:
            seats = _seats_in_order(hand, leader, len(cards))
            seven_seat, seven_trick = seats[cards.index(seven)], number
    last = played[-1][2]
    card_points[last] += hand.ruleset.points.last_trick
    talon = hand.talon
    values: dict[str, Any] = {
        "seats": active,
        "declarer": declarer,
        "trump": trump,
        "tricks": tuple(tricks),
        "tricks_won": FrozenDict(tricks_won),
        "card_points": FrozenDict(card_points),
        "declarer_points": card_points[declarer],
        "defender_points": sum(p for s, p in card_points.items() if s != declarer),
        "talon": talon,
        "talon_points": sum([points[card] for card in talon]),
        "marriages": tuple(
            _trusted(MarriageFact, {"seat": seat, "suit": suit, "value": value})
            for seat, suit, value in hand.marriages
        ),
        "last_trick_winner": last,
        "trump_seven_last_trick": seven_seat if seven_trick == len(played) - 1 else None,
        "trump_seven_early": seven_seat if 0 <= seven_trick < len(played) - 1 else None,
        "extra": _NO_EXTRA,
    }
    facts = _trusted(Facts, values)
    if not game.fact_specs:
        return facts
    extra = declared_facts(facts, game.fact_specs, game.registry)
    return _trusted(Facts, {**values, "extra": extra})  # a new dict: ``facts`` stays as it was


_NO_EXTRA: FrozenDict[str, FactValue] = FrozenDict()


def declared_facts(
    facts: Facts, specs: Iterable[FactSpec[Any]], registry: Registry
) -> FrozenDict[str, FactValue]:
    """The declared facts of a played hand, each computed by its kind's function from
    the core ``facts`` and checked against its form.

    A function that raises or returns a value of another form, or a seat that did not
    play, is a PluginError naming the fact and its plugin.
    """
    values: dict[str, FactValue] = {}
    for spec in specs:
        owner = registry.fact_owner(spec.name)
        try:
            value = spec.compute(facts)
        except (Exception, SystemExit) as exc:
            raise plugin_fault(f"fact '{spec.name}'", owner, exc, "compute") from exc
        try:
            checked = spec.form.validate(value)
        except ValidationError:
            raise PluginError(
                printable(
                    f"fact '{spec.name}' of plugin '{owner}' computed {short_repr(value)}, "
                    f"not {spec.form.written}"
                )
            ) from None
        strangers = sorted(set(spec.form.seats(checked)) - set(facts.seats))
        if strangers:
            raise PluginError(
                f"fact '{spec.name}' of plugin '{owner}' names seat {strangers[0]}, which "
                "did not play the hand"
            )
        values[spec.name] = checked
    return FrozenDict(values)


def build_contract(hand: Hand) -> Contract:
    """The winning bid, its trump and kontra levels, and how the hand ended (built
    unchecked, like the facts: every value is the engine's own, in its final form)."""
    info, declarer = hand.bid_info, hand.declarer
    assert info is not None and declarer is not None
    kontra = {comp: FrozenDict(levels) for comp, levels in hand.kontra_levels.items()}
    return _trusted(
        Contract,
        {
            "bid": info.id,
            "declarer": declarer,
            "trump": hand.trump,
            "kontra": FrozenDict(kontra),
            "gave_up": hand.gave_up,
            "uncontested": hand.uncontested,
            "multiplier": hand.multiplier,
            "sitting_out": hand.seats.sitting_out,
        },
    )
