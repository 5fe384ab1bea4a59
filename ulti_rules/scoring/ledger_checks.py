"""Is a ledger read from a file one this program could have written? Every problem, positioned.

The schema checks each value's type; a ledger can still be edited into nonsense that
every value passes: a player who is not at the table, payments that create money, a
dealer out of turn, a bid the ruleset does not have. Such a ledger would be shown
and added to as if it were the table's, so it is refused, with every problem at the
key that holds it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import Problem
from ..ruleset.schema import Ruleset
from .sheet import Where
from .table_facts import direction_step

if TYPE_CHECKING:
    from .ledger import Ledger, LedgerHand


def session_problems(ledger: Ledger, where: Where) -> list[Problem]:
    """The players and the first dealer; the hands can only be checked once these hold."""
    problems = []
    seen: set[str] = set()
    for index, name in enumerate(ledger.players):
        if not name.strip():
            problems.append(where.problem(("players", index), "a player needs a name"))
        elif name in seen:
            problems.append(where.problem(("players", index), f"'{name}' is listed twice"))
        seen.add(name)
    if ledger.first_dealer not in ledger.players:
        problems.append(
            where.problem(("first_dealer",), _not_a_player(ledger.first_dealer, ledger))
        )
    return problems


def hand_problems(ledger: Ledger, where: Where, *, names: bool = True) -> list[Problem]:
    """Each hand on its own: its number, its payments and, with ``names`` (once the
    players themselves are sound), whether who it names is at the table."""
    problems = []
    called: int | None = None
    for index, hand in enumerate(ledger.hands):
        at = ("hands", index)
        if hand.number != index + 1:
            problems.append(
                where.problem(
                    (*at, "number"), f"this is hand {index + 1} of the session, not {hand.number}"
                )
            )
        for key in ("dealer", "declarer", "heart_ace") if names else ():
            name = getattr(hand, key)
            if name is not None and name not in ledger.players:
                problems.append(where.problem((*at, key), _not_a_player(name, ledger)))
        problems.extend(_payment_problems(hand, ledger, where, at, names))
        if hand.heart_ace is not None:
            if ledger.end != "heart_ace":
                problems.append(
                    where.problem(
                        (*at, "heart_ace"),
                        "this session does not end by the Ace of hearts (its end is 'none')",
                    )
                )
            elif called is not None:
                called_in = f"the end was already called in hand {called}"
                problems.append(where.problem((*at, "heart_ace"), called_in))
            called = called or hand.number
    return problems


def _payment_problems(
    hand: LedgerHand, ledger: Ledger, where: Where, at: tuple[str, int], names: bool
) -> list[Problem]:
    unknown = [name for name in hand.payments if name not in ledger.players]
    missing = [name for name in ledger.players if name not in hand.payments]
    problems = []
    if names and (unknown or missing):
        said = [f"not a player: {', '.join(unknown)}"] if unknown else []
        said += [f"missing: {', '.join(missing)}"] if missing else []
        problems.append(
            where.problem(
                (*at, "payments"),
                f"one payment for each of the players ({', '.join(ledger.players)}); "
                + "; ".join(said),
            )
        )
    total = sum(hand.payments.values())
    if total:
        problems.append(where.problem((*at, "payments"), f"the payments sum to {total:+d}, not 0"))
    return problems


def ruleset_problems(ledger: Ledger, where: Where, ruleset: Ruleset) -> list[Problem]:
    """What the session's ruleset says: the number of players, whose deal each hand
    was, the bids, and that no hand came after the session was over.

    Call only when :func:`session_problems` found none (the rotation needs the players).
    """
    count = ruleset.players.count
    if len(ledger.players) != count:
        return [
            where.problem(
                ("players",), f"'{ruleset.name}' is for {count} players, not {len(ledger.players)}"
            )
        ]
    problems = []
    seat = ledger.players.index(ledger.first_dealer)
    step = direction_step(ruleset)
    for index, hand in enumerate(ledger.hands):
        at = ("hands", index)
        dealer = ledger.players[seat % count]
        if hand.dealer in ledger.players and hand.dealer != dealer:
            problems.append(
                where.problem(
                    (*at, "dealer"),
                    f"the deal passes to the right: {dealer} deals hand {index + 1}, "
                    f"not {hand.dealer}",
                )
            )
        if not hand.redeal:
            seat += step
        if hand.bid is not None and all(bid.id != hand.bid for bid in ruleset.ladder):
            problems.append(
                where.problem(
                    (*at, "bid"),
                    f"'{hand.bid}' is not a bid of '{ruleset.name}' "
                    f"(`ulti ladder {ledger.ruleset}` lists them)",
                )
            )
    over = _over_after(ledger, ruleset)
    if over is not None and over < len(ledger.hands):
        problems.append(
            where.problem(
                ("hands", over), f"the session was over after hand {over}: no hand comes after it"
            )
        )
    return problems


def _over_after(ledger: Ledger, ruleset: Ruleset) -> int | None:
    """The number of the hand that ended the session, if it has ended."""
    ends = []
    if all(h.heart_ace is None or h.heart_ace in ledger.players for h in ledger.hands):
        last = ledger.last_round(ruleset)  # it seeks the caller's deal: he must be at the table
        if last is not None:
            ends.append(last[1])
    planned = ruleset.session.hands
    if planned is not None:
        deals = 0
        for number, hand in enumerate(ledger.hands, start=1):
            deals += not hand.redeal
            if deals >= planned:
                ends.append(number)
                break
    return min(ends, default=None)


def _not_a_player(name: str, ledger: Ledger) -> str:
    return f"'{name}' is not one of the players ({', '.join(ledger.players)})"
