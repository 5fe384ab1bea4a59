"""Is a ledger read from a file one this program could have written? Every problem, positioned.

The schema checks each value's type; a ledger can still be edited into nonsense that
every value passes: a player who is not at the table, payments that create money, a
dealer out of turn, a bid the ruleset does not have, a hand whose declarer, bid or
payments are not those of the score sheet kept with it. Such a ledger would be shown
and added to as if it were the table's, so it is refused, with every problem at the
key that holds it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import Problem
from ..plugins import Registry
from ..quoting import shorten
from ..ruleset.positions import Where
from ..ruleset.safe_yaml import KeyPath
from ..ruleset.scalars import describe
from ..ruleset.schema import Ruleset
from ..said import Said, said_of
from .all_pass import all_pass_payments, redealt
from .settlement import SettlementError
from .sheet import Sheet, SheetError, sheet_facts
from .table_facts import hand_from_sheet

if TYPE_CHECKING:
    from .ledger import Ledger, LedgerHand


def session_players(players: Sequence[str]) -> Said:
    """A sheet whose players are not the session's."""
    return Said("the session's players are {players}", players=", ".join(players))


def players_for(ruleset: Ruleset, given: int) -> Said:
    """A session of another number of players than the ruleset's."""
    return Said(
        "'{ruleset}' is for {count} players, not {given}",
        ruleset=ruleset.name,
        count=ruleset.players.count,
        given=given,
    )


def out_of_turn(expected: str, number: int, dealer: Any) -> Said:
    """A deal said to be another player's than the rotation's."""
    return Said(
        "the deal passes to the right: {expected} deals hand {number}, not {dealer}",
        expected=expected,
        number=number,
        dealer=dealer,
    )


def session_problems(ledger: Ledger, where: Where) -> list[Problem]:
    """The players and the first dealer; the hands can only be checked once these hold."""
    problems = []
    seen: set[str] = set()
    for index, name in enumerate(ledger.players):  # the schema refused empty names
        if name in seen:
            problems.append(
                where.problem(("players", index), Said("'{name}' is listed twice", name=name))
            )
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
                    (*at, "number"),
                    Said(
                        "this is hand {index} of the session, not {number}",
                        index=index + 1,
                        number=hand.number,
                    ),
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
                        Said("this session does not end by the Ace of hearts (its end is 'none')"),
                    )
                )
            elif called is not None:
                called_in = Said("the end was already called in hand {number}", number=called)
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
        values = {
            "players": ", ".join(ledger.players),
            "unknown": ", ".join(map(shorten, unknown)),
            "missing": ", ".join(missing),
        }
        if unknown and missing:
            said = Said(
                "one payment for each of the players ({players}); not a player: {unknown}; "
                "missing: {missing}",
                **values,
            )
        elif unknown:
            said = Said(
                "one payment for each of the players ({players}); not a player: {unknown}",
                **values,
            )
        else:
            said = Said(
                "one payment for each of the players ({players}); missing: {missing}", **values
            )
        problems.append(where.problem((*at, "payments"), said))
    total = sum(hand.payments.values())
    if total:
        signed = f"{total:+d}"
        problems.append(
            where.problem(
                (*at, "payments"), Said("the payments sum to {total}, not 0", total=signed)
            )
        )
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
                ("players",),
                players_for(ruleset, len(ledger.players)),
            )
        ]
    problems = []
    dealers = ledger.dealers(ruleset)  # the rotation, redeals included: ``Ledger.dealer_of``
    for index, (hand, dealer) in enumerate(zip(ledger.hands, dealers, strict=False)):
        at = ("hands", index)
        if hand.dealer in ledger.players and hand.dealer != dealer:
            problems.append(
                where.problem((*at, "dealer"), out_of_turn(dealer, index + 1, hand.dealer))
            )
        if hand.bid is not None and all(bid.id != hand.bid for bid in ruleset.ladder):
            problems.append(
                where.problem(
                    (*at, "bid"),
                    Said(
                        "'{bid}' is not a bid of '{ruleset}' (`ulti ladder {ref}` lists them)",
                        bid=shorten(hand.bid),
                        ruleset=ruleset.name,
                        ref=shorten(ledger.ruleset),
                    ),
                )
            )
    over = _over_after(ledger, ruleset)
    if over is not None and over < len(ledger.hands):
        problems.append(
            where.problem(
                ("hands", over),
                Said(
                    "the session was over after hand {number}: no hand comes after it",
                    number=over,
                ),
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
    return Said(
        "'{name}' is not one of the players ({players})",
        name=shorten(name),
        players=", ".join(ledger.players),
    )


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
            return [inside.problem(("players",), session_players(ledger.players))], []
        if sheet.ruleset not in (None, ledger.ruleset):  # a hand is kept with the session's
            return [
                inside.problem(
                    ("ruleset",),
                    Said(
                        "the session plays '{ruleset}', not '{given}'",
                        ruleset=shorten(ledger.ruleset),
                        given=shorten(sheet.ruleset),
                    ),
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
        return _raw_said_problems(hand, where, at), [inside.problem((), said_of(exc))]
    contract = table.contract
    said = _said_problems(hand, where, at, sheet.dealer, table.name(contract.declarer))
    problems = []
    if contract.bid != hand.bid:
        problems.append(
            where.problem(
                (*at, "bid"),
                Said(
                    "the sheet kept with this hand says the bid was '{bid}', not {given}",
                    bid=contract.bid,
                    given=_shown(hand.bid),
                ),
            )
        )
    paid = {table.name(seat): amount for seat, amount in settlement.payments.items()}
    if paid != hand.payments:
        problems.append(
            where.problem(
                (*at, "payments"),
                Said(
                    "settling the sheet kept with this hand gives {paid}, not {kept}",
                    paid=_amounts(paid, ledger),
                    kept=_amounts(hand.payments, ledger),
                ),
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
    for key, said in (("dealer", dealer), ("declarer", declarer)):
        if said is not None and said != getattr(hand, key):
            values = {"player": _shown(said), "kept": _shown(getattr(hand, key))}
            if key == "dealer":
                message = Said(
                    "the sheet kept with this hand says {player} dealt, not {kept}", **values
                )
            else:
                message = Said(
                    "the sheet kept with this hand says {player} declared, not {kept}", **values
                )
            problems.append(where.problem((*at, key), message))
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
        values = {"ruleset": ruleset.name, "setting": setting}
        if redeal:
            said = Said(
                "under '{ruleset}' the same dealer deals again after this hand ({setting}): "
                "redeal is true",
                **values,
            )
        else:
            said = Said(
                "under '{ruleset}' the same dealer does not deal again after this hand "
                "({setting}): redeal is false",
                **values,
            )
        problems.append(where.problem((*at, "redeal"), said))
    if hand.kind == "passed_out" and hand.dealer in ledger.players:
        seats = all_pass_payments(ruleset, ledger.players.index(hand.dealer))
        owed = {ledger.players[seat]: amount for seat, amount in seats.items()}
        if owed != hand.payments:
            problems.append(
                where.problem(
                    (*at, "payments"),
                    Said(
                        "everybody passed: under '{ruleset}' (auction.all_pass) that pays "
                        "{owed}, not {kept}",
                        ruleset=ruleset.name,
                        owed=_amounts(owed, ledger),
                        kept=_amounts(hand.payments, ledger),
                    ),
                )
            )
    return problems


def _amounts(payments: Mapping[str, int], ledger: Ledger) -> str:
    """``Anna +18, Ben -9, Carla -9``: in seating order, then anybody else."""
    names = [*ledger.players, *(n for n in payments if n not in ledger.players)]
    return ", ".join(f"{shorten(n)} {payments[n]:+d}" for n in names if n in payments)


def _shown(value: Any) -> str:
    return f"'{shorten(value)}'" if isinstance(value, str) else describe(value)
