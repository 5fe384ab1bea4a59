"""Building the facts and the contract at the end of a hand: what settlement reads.

Called once per hand (lazily, when ``Hand.facts`` is first read), never in the
trick loop. Facts are the same model the score keeper fills in from a real
table; the engine adds what only it knows (every trick), and the facts that the
ruleset's contract kinds declare (``contracts/fact_specs.py``), each computed from
the core facts by the kind's own function.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..cards import Rank, Suit, make_card, suit_id
from ..contracts.fact_specs import FactSpec
from ..errors import PluginError
from ..facts import Contract, Facts, FactValue, MarriageFact, TrickFact
from ..frozen import FrozenDict
from ..plugins import Registry, plugin_fault, printable, short_repr
from .masks import mask_of

if TYPE_CHECKING:
    from .hand import Hand


def _seats_in_order(hand: Hand, leader: int, count: int) -> list[int]:
    seats = [leader]
    while len(seats) < count:
        seats.append(hand.seats.after[seats[-1]])
    return seats


def build_facts(hand: Hand) -> Facts:
    """The facts of a hand played out to the last trick."""
    tables = hand._tables
    assert tables is not None and hand._declarer >= 0
    active = hand.seats.active
    declarer = hand._declarer
    trump = hand._trump
    seven = make_card(Suit(trump), Rank.SEVEN) if trump >= 0 else -1
    tricks: list[TrickFact] = []
    tricks_won = dict.fromkeys(active, 0)
    seven_seat = seven_trick = -1
    for number, (leader, cards, winner) in enumerate(hand._tricks):
        tricks.append(TrickFact(leader=leader, cards=cards, winner=winner))
        tricks_won[winner] += 1
        if seven in cards:
            seats = _seats_in_order(hand, leader, len(cards))
            seven_seat, seven_trick = seats[cards.index(seven)], number
    last = hand._tricks[-1][2]
    card_points = {s: tables.points_of(hand._won[s]) for s in active}
    card_points[last] += hand.ruleset.points.last_trick
    facts = Facts(
        seats=active,
        declarer=declarer,
        trump=suit_id(trump) if trump >= 0 else None,
        tricks=tuple(tricks),
        tricks_won=tricks_won,
        card_points=card_points,
        declarer_points=card_points[declarer],
        defender_points=sum(p for s, p in card_points.items() if s != declarer),
        talon=hand._talon,
        talon_points=tables.points_of(mask_of(hand._talon)),
        marriages=tuple(
            MarriageFact(seat=seat, suit=suit_id(suit), value=value)
            for seat, suit, value in hand._marriages
        ),
        last_trick_winner=last,
        trump_seven_last_trick=seven_seat if seven_trick == len(hand._tricks) - 1 else None,
        trump_seven_early=seven_seat if 0 <= seven_trick < len(hand._tricks) - 1 else None,
    )
    declared = hand.registry.facts_for(hand.ruleset)
    if not declared:
        return facts
    return facts.model_copy(update={"extra": declared_facts(facts, declared, hand.registry)})


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
    """The winning bid, its trump and kontra levels, and how the hand ended."""
    info = hand._info
    assert info is not None
    auction = hand._auction
    return Contract(
        bid=info.id,
        declarer=hand._declarer,
        trump=suit_id(hand._trump) if hand._trump >= 0 else None,
        kontra=hand.kontra_levels,
        gave_up=hand._gave_up,
        uncontested=auction.uncontested,
        multiplier=auction.multiplier(),
        sitting_out=hand.seats.sitting_out,
    )
