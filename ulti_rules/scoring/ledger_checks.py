"""Is a ledger read from a file one this program could have written? Every problem, positioned.

The schema checks each value's type; a ledger can still be edited into nonsense that
every value passes: a player who is not at the table, payments that create money, a
dealer out of turn, a bid the ruleset does not have, a hand whose declarer, bid or
payments are not those of the score sheet kept with it. Such a ledger would be shown
and added to as if it were the table's, so it is refused, with every problem at the
key that holds it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import Problem
from ..plugins import Registry
from ..quoting import shorten
from ..ruleset.positions import Where
from ..ruleset.safe_yaml import KeyPath
from ..ruleset.scalars import describe
from ..ruleset.schema import Ruleset
from .all_pass import all_pass_payments, redealt
from .settlement import SettlementError
from .sheet import Sheet, SheetError, sheet_facts
from .table_facts import hand_from_sheet

if TYPE_CHECKING:
    from .ledger import Ledger, LedgerHand


def session_problems(ledger: Ledger, where: Where) -> list[Problem]:
    """The players and the first dealer; the hands can only be checked once these hold."""
    problems = []
    seen: set[str] = set()
    for index, name in enumerate(ledger.players):  # the schema refused empty names
        if name in seen:
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
        said = [f"not a player: {', '.join(map(shorten, unknown))}"] if unknown else []
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
    dealers = ledger.dealers(ruleset)  # the rotation, redeals included: ``Ledger.dealer_of``
    for index, (hand, dealer) in enumerate(zip(ledger.hands, dealers, strict=False)):
        at = ("hands", index)
        if hand.dealer in ledger.players and hand.dealer != dealer:
            problems.append(
                where.problem(
                    (*at, "dealer"),
                    f"the deal passes to the right: {dealer} deals hand {index + 1}, "
                    f"not {hand.dealer}",
                )
            )
        if hand.bid is not None and all(bid.id != hand.bid for bid in ruleset.ladder):
            problems.append(
                where.problem(
                    (*at, "bid"),
                    f"'{shorten(hand.bid)}' is not a bid of '{ruleset.name}' "
                    f"(`ulti ladder {shorten(ledger.ruleset)}` lists them)",
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
    planned = ledger.planned_end(ruleset)
    if planned is not None:
        ends.append(planned)
    return min(ends, default=None)


def _not_a_player(name: str, ledger: Ledger) -> str:
    return f"'{shorten(name)}' is not one of the players ({', '.join(ledger.players)})"


# --------------------------------------------------------------------------- sheets


class _Within(Where):
    """The problems of a document kept inside the ledger, at its keys there."""

    def __init__(self, outer: Where, prefix: KeyPath) -> None:
        super().__init__(outer.file, outer.positions)
        self._outer = outer
        self._prefix = prefix

    def problem(self, path: KeyPath, message: str) -> Problem:
        return self._outer.problem((*self._prefix, *path), message)


def sheet_problems(
    ledger: Ledger,
    where: Where,
    ruleset: Ruleset,
    registry: Registry | None = None,
    *,
    settled_from: int | None,
    ours_from: int = 0,
    skip: Collection[int] = (),
) -> tuple[list[Problem], list[Problem]]:
    """Each hand against what it was added from, as (problems, notes).

    A played hand's dealer and declarer are those of the score sheet kept with it, and
    the sheet's players and ruleset the session's. From hand index ``settled_from`` on
    (the hands settled under the rules in force now; None: none is known to be) the sheet
    is settled again, and the hand's bid and payments must be what that gives, and a
    misdeal's or passed-out hand's payments and redeal what the ruleset says. Before
    index ``ours_from`` another ulti-rules version settled the hands: what settling them
    again gives otherwise is a note, not a problem, as a later fix to settlement must not
    make an older session unreadable (what the sheet says outright is checked alike).
    Hands at index ``skip`` (already found wrong) are left out: their problems would only
    repeat.

    Call only when :func:`session_problems` found none.
    """
    problems: list[Problem] = []
    notes: list[Problem] = []
    facts = sheet_facts(registry)
    for index, hand in enumerate(ledger.hands):
        at = ("hands", index)
        current = settled_from is not None and index >= settled_from
        if index in skip or (hand.sheet is None and not current):
            continue
        settled = problems if index >= ours_from else notes
        if hand.sheet is None:
            settled += _unplayed_problems(hand, ledger, where, at, ruleset)
        elif current:
            said, found = _settled_problems(hand, ledger, where, at, ruleset, registry, facts)
            problems += said
            settled += found
        else:  # settled under rules no longer at hand: only what the sheet says outright
            problems += _raw_said_problems(hand, where, at)
    return problems, notes


def _settled_problems(
    hand: LedgerHand,
    ledger: Ledger,
    where: Where,
    at: KeyPath,
    ruleset: Ruleset,
    registry: Registry | None,
    facts: Mapping[str, Any],
) -> tuple[list[Problem], list[Problem]]:
    """Settle the hand's sheet again, under the session's players and rules: what the
    sheet says outright against the hand (its players, ruleset, dealer and declarer), and
    what settling it gives otherwise (the sheet's own problems, the bid, the payments)."""
    assert hand.sheet is not None
    inside = _Within(where, (*at, "sheet"))
    try:
        sheet = Sheet.validate_with_positions(hand.sheet, inside, facts)
        if sheet.players not in (None, ledger.players):
            return [
                inside.problem(
                    ("players",), f"the session's players are {', '.join(ledger.players)}"
                )
            ], []
        if sheet.ruleset not in (None, ledger.ruleset):  # a hand is kept with the session's
            return [
                inside.problem(
                    ("ruleset",),
                    f"the session plays '{shorten(ledger.ruleset)}', not "
                    f"'{shorten(sheet.ruleset)}'",
                )
            ], []
        # the first ledgers kept a sheet as it was typed: the session knew the rest
        update = {"players": ledger.players, "dealer": sheet.dealer or hand.dealer}
        complete = sheet.model_copy(update=update)
        table = hand_from_sheet(complete, inside, Path(), registry, ruleset=ruleset)
        settlement = table.settle(registry)
    except SheetError as exc:
        return _raw_said_problems(hand, where, at), list(exc.problems)
    except SettlementError as exc:
        return _raw_said_problems(hand, where, at), [inside.problem((), str(exc))]
    contract = table.contract
    said = _said_problems(hand, where, at, sheet.dealer, table.name(contract.declarer))
    problems = []
    if contract.bid != hand.bid:
        problems.append(
            where.problem(
                (*at, "bid"),
                f"the sheet kept with this hand says the bid was '{contract.bid}', "
                f"not {_shown(hand.bid)}",
            )
        )
    paid = {table.name(seat): amount for seat, amount in settlement.payments.items()}
    if paid != hand.payments:
        problems.append(
            where.problem(
                (*at, "payments"),
                f"settling the sheet kept with this hand gives {_amounts(paid, ledger)}, "
                f"not {_amounts(hand.payments, ledger)}",
            )
        )
    return said, problems


def _raw_said_problems(hand: LedgerHand, where: Where, at: KeyPath) -> list[Problem]:
    """The dealer and declarer a kept sheet writes, against the hand's (no settling)."""
    said = hand.sheet or {}
    return _said_problems(hand, where, at, said.get("dealer"), said.get("declarer"))


def _said_problems(
    hand: LedgerHand, where: Where, at: KeyPath, dealer: Any, declarer: Any
) -> list[Problem]:
    """The dealer and declarer the sheet names, where it names them, against the hand's."""
    problems = []
    for key, said, verb in (("dealer", dealer, "dealt"), ("declarer", declarer, "declared")):
        if said is not None and said != getattr(hand, key):
            problems.append(
                where.problem(
                    (*at, key),
                    f"the sheet kept with this hand says {_shown(said)} {verb}, "
                    f"not {_shown(getattr(hand, key))}",
                )
            )
    return problems


def _unplayed_problems(
    hand: LedgerHand, ledger: Ledger, where: Where, at: KeyPath, ruleset: Ruleset
) -> list[Problem]:
    """A misdeal or a passed-out hand: its payments and redeal as the ruleset says."""
    if hand.kind == "misdeal":
        redeal, setting = ruleset.deal.misdeal_redeal_same_dealer, "deal.misdeal_redeal_same_dealer"
    else:
        redeal, setting = redealt(ruleset), "auction.all_pass"
    problems = []
    if hand.redeal != redeal:
        problems.append(
            where.problem(
                (*at, "redeal"),
                f"under '{ruleset.name}' the same dealer {'deals' if redeal else 'does not deal'} "
                f"again after this hand ({setting}): redeal is {str(redeal).lower()}",
            )
        )
    if hand.kind == "passed_out" and hand.dealer in ledger.players:
        seats = all_pass_payments(ruleset, ledger.players.index(hand.dealer))
        owed = {ledger.players[seat]: amount for seat, amount in seats.items()}
        if owed != hand.payments:
            problems.append(
                where.problem(
                    (*at, "payments"),
                    f"everybody passed: under '{ruleset.name}' (auction.all_pass) that pays "
                    f"{_amounts(owed, ledger)}, not {_amounts(hand.payments, ledger)}",
                )
            )
    return problems


def _amounts(payments: Mapping[str, int], ledger: Ledger) -> str:
    """``Anna +18, Ben -9, Carla -9``: in seating order, then anybody else."""
    names = [*ledger.players, *(n for n in payments if n not in ledger.players)]
    return ", ".join(f"{shorten(n)} {payments[n]:+d}" for n in names if n in payments)


def _shown(value: Any) -> str:
    return f"'{shorten(value)}'" if isinstance(value, str) else describe(value)
