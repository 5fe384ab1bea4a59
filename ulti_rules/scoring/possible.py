"""Whether a hand's facts could have happened: the score keeper's guard against typos.

A table types the facts in by hand, so points that add up to 95 or eleven tricks
must be refused with the contradiction named, never settled. The checks read
only :class:`Facts` and the ruleset's numbers (deck points, last-trick bonus,
marriage values), so they hold for every ruleset and for engine facts too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..facts import Facts
from ..ruleset.schema import Ruleset

TRICKS = 10
CARDS_PER_TRICK = 3


@dataclass(frozen=True)
class Impossibility:
    """One contradiction; ``topic`` says which part of the facts it is about."""

    topic: str
    """points, tricks, last_trick, trump_seven, marriages or aces."""
    message: str


def impossibilities(
    facts: Facts, ruleset: Ruleset, name: Callable[[int], str] = str
) -> list[Impossibility]:
    """Every contradiction in the facts (empty when they are possible)."""
    found: list[Impossibility] = []
    found += _tricks(facts, name)
    found += _points(facts, ruleset)
    found += _last_trick(facts, ruleset, name)
    found += _trump_seven(facts, name)
    found += _marriages(facts, ruleset, name)
    found += _aces(facts, name)
    return found


def _tricks(facts: Facts, name: Callable[[int], str]) -> list[Impossibility]:
    found = []
    strangers = sorted(set(facts.tricks_won) - set(facts.seats))
    if strangers:
        who = ", ".join(name(s) for s in strangers)
        found.append(Impossibility("tricks", f"{who} did not play this hand but won tricks"))
    negative = [s for s, n in facts.tricks_won.items() if n < 0]
    for seat in negative:
        found.append(
            Impossibility("tricks", f"{name(seat)} cannot win a negative number of tricks")
        )
    total = sum(facts.tricks_won.values())
    if total != TRICKS:
        found.append(Impossibility("tricks", f"the trick counts add up to {total}, not {TRICKS}"))
    return found


def _side_tricks(facts: Facts, declarer_side: bool) -> int:
    return sum(n for s, n in facts.tricks_won.items() if (s == facts.declarer) == declarer_side)


def _points(facts: Facts, ruleset: Ruleset) -> list[Impossibility]:
    found = []
    deck = ruleset.points.total()
    values = ruleset.points.card_points.values()
    top_card = max(values, default=0)
    sides = {"the declarer": facts.declarer_points, "the defenders": facts.defender_points}
    for who, points in (*sides.items(), ("the talon", facts.talon_points)):
        if points < 0:
            found.append(Impossibility("points", f"{who} cannot have negative card points"))
    total = facts.declarer_points + facts.defender_points + facts.talon_points
    if total != deck:
        found.append(
            Impossibility(
                "points",
                f"the card points add up to {total} (declarer {facts.declarer_points} + "
                f"defenders {facts.defender_points} + talon {facts.talon_points}), but the deck "
                f"and the last trick hold {deck}",
            )
        )
    if facts.talon_points > 2 * top_card:
        found.append(
            Impossibility(
                "points",
                f"the talon holds two cards, at most {2 * top_card} card points, "
                f"not {facts.talon_points}",
            )
        )
    last_side_is_declarer = facts.last_trick_winner == facts.declarer
    for (who, points), declarer_side in zip(sides.items(), (True, False), strict=True):
        tricks = _side_tricks(facts, declarer_side)
        bonus = ruleset.points.last_trick if last_side_is_declarer == declarer_side else 0
        most = tricks * CARDS_PER_TRICK * top_card + (bonus if tricks else 0)
        if points > most:
            found.append(
                Impossibility(
                    "points",
                    f"{who} took {tricks} trick{'s' if tricks != 1 else ''} and cannot have "
                    f"{points} card points (at most {most})",
                )
            )
    return found


def _last_trick(facts: Facts, ruleset: Ruleset, name: Callable[[int], str]) -> list[Impossibility]:
    winner = facts.last_trick_winner
    if winner not in facts.seats:
        return [Impossibility("last_trick", f"{name(winner)} did not play this hand")]
    found = []
    if facts.tricks_won.get(winner, 0) == 0:
        found.append(
            Impossibility("last_trick", f"{name(winner)} won the last trick but no trick at all")
        )
    side_points = facts.declarer_points if winner == facts.declarer else facts.defender_points
    if side_points < ruleset.points.last_trick:
        side = "declarer" if winner == facts.declarer else "defenders"
        found.append(
            Impossibility(
                "last_trick",
                f"{name(winner)} won the last trick, worth {ruleset.points.last_trick}, but the "
                f"{side} have only {side_points} card points",
            )
        )
    return found


def _trump_seven(facts: Facts, name: Callable[[int], str]) -> list[Impossibility]:
    last, early = facts.trump_seven_last_trick, facts.trump_seven_early
    if facts.trump is None and (last is not None or early is not None):
        return [Impossibility("trump_seven", "a no-trump game has no trump 7")]
    found = []
    if last is not None and early is not None:
        found.append(
            Impossibility(
                "trump_seven",
                "there is one trump 7: it cannot be played both before and in the last trick",
            )
        )
    for seat in (last, early):
        if seat is not None and seat not in facts.seats:
            found.append(Impossibility("trump_seven", f"{name(seat)} did not play this hand"))
    return found


def _marriages(facts: Facts, ruleset: Ruleset, name: Callable[[int], str]) -> list[Impossibility]:
    if not facts.marriages:
        return []
    if facts.trump is None:
        return [Impossibility("marriages", "marriages are announced only in trump games")]
    found = []
    seen: dict[str, int] = {}
    for marriage in facts.marriages:
        if marriage.seat not in facts.seats:
            found.append(
                Impossibility("marriages", f"{name(marriage.seat)} did not play this hand")
            )
        if marriage.suit in seen:
            found.append(
                Impossibility(
                    "marriages",
                    f"the King and Over of {marriage.suit} make one marriage, announced twice "
                    f"({name(seen[marriage.suit])} and {name(marriage.seat)})",
                )
            )
        seen[marriage.suit] = marriage.seat
        expected = (
            ruleset.marriages.trump_value
            if marriage.suit == facts.trump
            else ruleset.marriages.plain_value
        )
        if marriage.value != expected:
            found.append(
                Impossibility(
                    "marriages",
                    f"a marriage in {marriage.suit} is worth {expected} here, not {marriage.value}",
                )
            )
    return found


def _aces(facts: Facts, name: Callable[[int], str]) -> list[Impossibility]:
    if facts.ace_winners is None:
        return []
    found = []
    if len(facts.ace_winners) > 4:
        found.append(Impossibility("aces", "there are four aces"))
    for seat in sorted(set(facts.ace_winners)):
        if seat not in facts.seats:
            found.append(Impossibility("aces", f"{name(seat)} did not play this hand"))
        elif facts.tricks_won.get(seat, 0) == 0:
            found.append(Impossibility("aces", f"{name(seat)} took an ace but won no trick"))
    return found
