"""Building the facts and the contract at the end of a hand: what settlement reads.

Called once per hand (lazily, when ``Hand.facts`` is first read), never in the
trick loop. Facts are the same model the score keeper fills in from a real
table; the engine adds what only it knows (every trick), and the facts that the
ruleset's contract kinds declare (``contracts/fact_specs.py``), each computed from
the core facts by the kind's own function. The hand is read through its public
properties only.

The engine's own values need no validation: they are built here in their final
immutable forms (tuples, ``FrozenDict``) and the models are made from them as
``model_construct`` would make them (``facts.trusted``). tests/test_engine_facts_trusted.py
holds them equal to validated ones. The declared facts, which plugins compute, are
checked (``declared_facts``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from ..cards import Rank, Suit, make_card, suit_number
from ..contracts.fact_specs import FactSpec
from ..errors import PluginError
from ..facts import Contract, Facts, FactValue, MarriageFact, TrickFact, trusted
from ..frozen import FrozenDict
from ..plugins import Registry, plugin_fault, printable, short_repr

if TYPE_CHECKING:
    from .hand import Hand

_new = object.__new__
_set = object.__setattr__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__
_TRICK_FIELDS = frozenset(TrickFact.model_fields)


def _tricks(played: list[tuple[int, tuple[int, ...], int]]) -> tuple[TrickFact, ...]:
    """The played tricks as TrickFacts, made as ``trusted`` makes them (inlined here:
    ten a hand, in every simulated hand)."""
    made = []
    for leader, cards, winner in played:
        trick = _new(TrickFact)
        _set(trick, "__dict__", {"leader": leader, "cards": cards, "winner": winner})
        _set_fields_set(trick, set(_TRICK_FIELDS))
        _set_extra(trick, None)
        _set_private(trick, None)
        made.append(trick)
    return tuple(made)


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
    point_of = game.tables(trump_number).points.__getitem__
    active = hand.seats.active
    tricks_won = dict.fromkeys(active, 0)
    card_points = dict.fromkeys(active, 0)
    for _, cards, winner in played:
        tricks_won[winner] += 1
        card_points[winner] += sum(map(point_of, cards))
    last = played[-1][2]
    card_points[last] += hand.ruleset.points.last_trick
    seven_seat = seven_trick = -1
    if trump is not None:
        seven = make_card(Suit(trump_number), Rank.SEVEN)
        for number, (leader, cards, _) in enumerate(played):
            if seven in cards:
                seats = _seats_in_order(hand, leader, len(cards))
                seven_seat, seven_trick = seats[cards.index(seven)], number
                break
    talon = hand.talon
    defender_points = sum(card_points.values()) - card_points[declarer]
    values: dict[str, Any] = {
        "seats": active,
        "declarer": declarer,
        "trump": trump,
        "tricks": _tricks(played),
        "tricks_won": FrozenDict(tricks_won),
        "card_points": FrozenDict(card_points),
        "declarer_points": card_points[declarer],
        "defender_points": defender_points,
        "talon": talon,
        "talon_points": sum(map(point_of, talon)),
        "marriages": tuple(
            trusted(MarriageFact, {"seat": seat, "suit": suit, "value": value})
            for seat, suit, value in hand.marriages
        ),
        "last_trick_winner": last,
        "trump_seven_last_trick": seven_seat if seven_trick == len(played) - 1 else None,
        "trump_seven_early": seven_seat if 0 <= seven_trick < len(played) - 1 else None,
        "extra": _NO_EXTRA,
    }
    facts = trusted(Facts, values)
    if not game.fact_specs:
        return facts
    extra = declared_facts(facts, game.fact_specs, game.registry)
    return trusted(Facts, {**values, "extra": extra})  # a new dict: ``facts`` stays as it was


_NO_EXTRA: FrozenDict[str, FactValue] = FrozenDict()


def declared_facts(
    facts: Facts, specs: Iterable[FactSpec[Any]], registry: Registry
) -> FrozenDict[str, FactValue]:
    """The declared facts of a played hand, each computed by its kind's function from
    the core ``facts`` and checked against its form.

    A function that raises or returns a value of another form, or a seat that did not
    play, is a PluginError naming the fact and its plugin (looked up only then).
    """
    values: dict[str, FactValue] = {}
    seats = frozenset(facts.seats)
    for spec in specs:
        try:
            value = spec.compute(facts)
        except (Exception, SystemExit) as exc:
            owner = registry.fact_owner(spec.name)
            raise plugin_fault(f"fact '{spec.name}'", owner, exc, "compute") from exc
        try:
            checked = spec.form.validate(value)
        except ValidationError:
            raise PluginError(
                printable(
                    f"fact '{spec.name}' of plugin '{registry.fact_owner(spec.name)}' "
                    f"computed {short_repr(value)}, not {spec.form.written}"
                )
            ) from None
        if not seats.issuperset(spec.form.seats(checked)):
            strangers = sorted(set(spec.form.seats(checked)) - seats)
            raise PluginError(
                f"fact '{spec.name}' of plugin '{registry.fact_owner(spec.name)}' names seat "
                f"{strangers[0]}, which did not play the hand"
            )
        values[spec.name] = checked
    return FrozenDict(values)


def build_contract(hand: Hand) -> Contract:
    """The winning bid, its trump and kontra levels, and how the hand ended (built
    unchecked, like the facts: every value is the engine's own, in its final form)."""
    info, declarer = hand.bid_info, hand.declarer
    assert info is not None and declarer is not None
    kontra = {comp: FrozenDict(levels) for comp, levels in hand.kontra_levels.items()}
    return trusted(
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
