"""Counting a side's score from the facts, the way the ruleset says to count it.

The Parti, the 100s and the silent 100 all ask "how much did this side take?",
with different answers about marriages and the talon; the answers live here so
that every kind counts the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..ruleset.schema import Ruleset, Side

if TYPE_CHECKING:  # annotations only: the facts models are not needed to load a kind
    from ..facts import Facts, MarriageFact


def side_of(facts: Facts, seat: int) -> Side:
    return "declarer" if seat == facts.declarer else "defenders"


def tricks_of(facts: Facts, side: Side) -> int:
    won = facts.tricks_won
    declarers = won.get(facts.declarer, 0)
    return declarers if side == "declarer" else sum(won.values()) - declarers


def card_points_of(facts: Facts, side: Side) -> int:
    """Card points taken in tricks, last-trick bonus included."""
    return facts.declarer_points if side == "declarer" else facts.defender_points


def talon_points_for(facts: Facts, ruleset: Ruleset, side: Side) -> int:
    """The talon's card points if the ruleset gives them to ``side`` (WP: declarer)."""
    return facts.talon_points if ruleset.points.talon_to == side else 0


def counted_marriages(facts: Facts, ruleset: Ruleset, side: Side) -> list[MarriageFact]:
    """The side's announced marriages that count (HU, GT: only if the side took a trick)."""
    marriages = facts.marriages
    if not marriages or (ruleset.marriages.require_trick and tricks_of(facts, side) == 0):
        return []
    return [m for m in marriages if side_of(facts, m.seat) == side]


def scorer(ruleset: Ruleset, side: Side, *, marriages: bool) -> Callable[[Facts], int]:
    """The side's score as a function of the facts: card points, the talon where it goes
    to this side, and (optionally) the marriages that count. The ruleset is read once,
    when a judge is prepared (``builtin.PreparedKind``)."""
    talon = ruleset.points.talon_to == side
    points = "declarer_points" if side == "declarer" else "defender_points"

    def score(facts: Facts) -> int:
        total: int = getattr(facts, points)
        if talon:
            total += facts.talon_points
        if marriages and facts.marriages:
            total += sum(m.value for m in counted_marriages(facts, ruleset, side))
        return total

    return score
