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
checked (``declared.py``).

``facts_view`` gives the same values without the models, for ``ulti simulate``, which
settles every hand it plays and keeps only the totals (``facts_view.py``;
tests/test_settle_from_view.py holds its values and payments equal to the model's).
"""

from __future__ import annotations

from itertools import chain, compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ..cards import Rank, Suit, make_card, suit_number
from ..facts import Contract, Facts, MarriageFact, TrickFact, trusted
from ..frozen import FrozenDict
from .declared import NO_EXTRA, declared_facts
from .facts_view import FactsView, _seat_at

if TYPE_CHECKING:
    from ..game import Game
    from .hand import Hand

_SEVEN = tuple(make_card(Suit(number), Rank.SEVEN) for number in range(4))
_CARDS = itemgetter(1)
_WINNER = itemgetter(2)


def facts_view(hand: Hand) -> FactsView | None:
    """The facts of a hand played out to the last trick, as a light read-only view (None
    where ``hand.facts`` is None): what settlement needs, without building the models.
    Each call builds a new view. Once per simulated hand, so the tricks are walked by
    ``map`` and friends, not by a Python loop, and what no built-in kind judges by (the
    trump 7 before the last trick, the tricks themselves) is left to the view to build
    when read."""
    if not (hand.is_over and hand.played):
        return None
    played = hand.tricks
    declarer, trump, game = hand.declarer, hand.trump, hand.game
    trump_number = suit_number(trump) if trump is not None else -1
    points, deck, bonus = _point_table(game, trump_number)
    point_of = points.__getitem__
    seats = hand.seats
    active = seats.active
    winners = list(map(_WINNER, played))
    mine = compress(map(_CARDS, played), map(declarer.__eq__, winners))
    taken = sum(map(point_of, chain.from_iterable(mine)))
    talon = hand.talon
    talon_points = sum(map(point_of, talon))
    leader, last_cards, last = played[-1]
    declarer_points = taken + bonus if last == declarer else taken
    seven_at = None
    if trump is not None:
        seven = _SEVEN[trump_number]
        if seven in last_cards:
            seven_at = _seat_at(seats.after, leader, last_cards.index(seven))
    marriages = hand.marriages
    return FactsView.of(
        {
            "seats": active,
            "declarer": declarer,
            "trump": trump,
            "tricks_won": FrozenDict(zip(active, map(winners.count, active), strict=True)),
            "declarer_points": declarer_points,
            "defender_points": deck - talon_points + bonus - declarer_points,
            "talon_points": talon_points,
            "marriages": tuple(
                trusted(MarriageFact, {"seat": seat, "suit": suit, "value": value})
                for seat, suit, value in marriages
            )
            if marriages
            else (),
            "last_trick_winner": last,
            "trump_seven_last_trick": seven_at,
            "_played": (game, played, points, bonus, talon, seats.after),
        }
    )


PointTable = tuple[tuple[int, ...], int, int]
"""The card points per card, the whole deck's, and the last trick's bonus."""


def _point_table(game: Game, trump_number: int) -> PointTable:
    """The game's card points with this trump (a suit number, -1: none), kept per game:
    the same for every hand."""
    tables: dict[int, PointTable] = game.derived(_POINT_TABLES, dict)
    found = tables.get(trump_number)
    if found is None:
        points = game.tables(trump_number).points
        found = tables[trump_number] = (points, sum(points), game.ruleset.points.last_trick)
    return found


_POINT_TABLES = "facts view: card points"


_new = object.__new__
_set = object.__setattr__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__
_TRICK_FIELDS = frozenset(TrickFact.model_fields)


def _tricks(played: list[tuple[int, tuple[int, ...], int]]) -> tuple[TrickFact, ...]:
    """The played tricks as TrickFacts, made as ``trusted`` makes them (inlined here:
    ten a hand)."""
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
    """The facts of a hand played out to the last trick (the model; ``facts_view`` holds
    the same values, and the tests hold the two equal)."""
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
        seven = _SEVEN[trump_number]
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
        "extra": NO_EXTRA,
    }
    facts = trusted(Facts, values)
    if not game.fact_specs:
        return facts
    extra = declared_facts(facts, game.fact_specs, game.registry)
    return trusted(Facts, {**values, "extra": extra})  # a new dict: ``facts`` stays as it was


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
