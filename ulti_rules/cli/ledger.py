"""`ulti ledger new|add|undo|show`: keep the score of a whole session in one file.

See docs/ledger.md. Each hand is added as a score-keeper document (docs/score-keeper.md),
settled, and kept in full; `show` prints every hand, the running totals and who
deals next.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Literal

import click
from rich.table import Table
from rich.text import Text

from ..errors import Problem, UltiError
from ..plugins import stdout_to_stderr
from ..quoting import shorten
from ..records import (
    HandRecord,
    RecordError,
    is_record,
    read_document,
    record_from_data,
    replay,
    ruleset_of,
)
from ..safe_files import real_file
from ..said import Said
from ..scoring.ledger import (
    ACCEPT_OPTION,
    Ledger,
    LedgerError,
    LedgerHand,
    add_hand,
    add_misdeal,
    add_passed_out,
    add_played,
    check_pinned,
    new_ledger,
    take_back,
)
from ..scoring.ledger_file import load_ledger, save_ledger, updating
from ..scoring.settlement import Settlement
from ..scoring.sheet import SheetError, sheet_of
from ..scoring.table_facts import TableHand
from .common import (
    EXIT_INTERRUPTED,
    echo_json,
    fail,
    note,
    problem_line,
    stdout_console,
)
from .completion import complete_ruleset
from .language import command_lang, lang_option
from .session_words import status_text
from .settlement_view import settlement_json, settlement_tables, signed
from .speech import Speech
from .terminal import echo


@click.group("ledger")
def ledger_group() -> None:
    """Keep a session: its hands, whose deal it is, the totals.

    See docs/ledger.md.
    """


@ledger_group.command("new")
@click.argument("file", metavar="FILE")
@click.option(
    "--ruleset", "ruleset_ref", required=True, shell_complete=complete_ruleset,
    help="Ruleset name or path.",
)  # fmt: skip
@click.option(
    "--players",
    required=True,
    help="Names in seating order, comma-separated; the deal passes down the list.",
)
@click.option("--dealer", help="Who deals the first hand (default: the first player).")
@click.option(
    "--end",
    type=click.Choice(["none", "heart-ace"]),
    help="How the session ends (default: the ruleset's session.end). 'heart-ace': whoever "
    "holds the Ace of hearts after the auction the end is called on deals the last round "
    "of three.",
)
@click.option("--force", is_flag=True, help="Overwrite an existing ledger file.")
@lang_option("Language of what is said.")
def new_command(
    file: str,
    ruleset_ref: str,
    players: str,
    dealer: str | None,
    end: str | None,
    force: bool,
    lang: str | None,
) -> None:
    """Start a session ledger in FILE (JSON).

    An existing FILE, or a symlink of that name, is kept unless --force; with --force
    the file it names is written, keeping its mode.
    """
    say = Speech(command_lang(lang))
    path = Path(file)
    if os.path.lexists(path) and not force:
        fail(Said("{file} already exists; use --force to start it again", file=file))
    names = [p.strip() for p in players.split(",")]
    ending: Literal["none", "heart_ace"] | None = None
    if end is not None:
        ending = "heart_ace" if end == "heart-ace" else "none"
    # the ledger's folder is the real file's (a club file's path is kept from there)
    ledger = new_ledger(ruleset_ref, names, dealer, ending, folder=real_file(path).parent)
    save_ledger(ledger, path, overwrite=force)
    planned = ledger.rules().session.hands
    if ledger.end == "heart_ace":
        ends = say._("it ends by the Ace of hearts")
    elif planned is not None:
        ends = say.ngettext("it ends after {n} hand", "it ends after {n} hands", planned)
    else:
        ends = say._("it ends when you stop")
    said = say._(
        "a session of {players} under '{ruleset}'; {dealer} deals first; {ending}.",
        players=", ".join(ledger.players),
        ruleset=shorten(ledger.ruleset),
        dealer=ledger.first_dealer,
        ending=ends,
    )
    echo(f"{file}: {said}")


@ledger_group.command("add")
@click.argument("file", metavar="FILE")
@click.argument("hand", metavar="HAND", required=False)
@click.option(
    "--misdeal",
    is_flag=True,
    help="Instead of HAND: a card was exposed while dealing. Nobody pays; the ruleset's "
    "deal.misdeal_redeal_same_dealer says whether the same dealer deals again.",
)
@click.option(
    "--passed-out",
    is_flag=True,
    help="Instead of HAND: everybody passed. The ruleset's auction.all_pass says what "
    "follows: the same dealer deals again (redeal), the deal passes on (pass_out), or "
    "forehand pays each other player (forehand_pays).",
)
@click.option(
    "--heart-ace",
    metavar="PLAYER",
    help="Call the end ('Das Herz-Ass gibt'): PLAYER held the Ace of hearts after this "
    "hand's auction and deals the last round of three at his next deal.",
)
@click.option(
    ACCEPT_OPTION,
    "accept_change",
    is_flag=True,
    help="The session's ruleset (a club file) changed since the session began: settle this "
    "hand and the next ones under the new rules, and pin them. Without it such an add is "
    "refused.",
)
@lang_option("Language of the settlement and the totals (--json keeps ids).")
@click.option("--json", "as_json", is_flag=True, help="Print the hand's settlement as JSON.")
def add_command(
    file: str,
    hand: str | None,
    misdeal: bool,
    passed_out: bool,
    heart_ace: str | None,
    accept_change: bool,
    lang: str | None,
    as_json: bool,
) -> None:
    """Add the next hand to the session in FILE and settle it.

    HAND is a score-keeper document (docs/score-keeper.md); it may leave out the
    players, the dealer and the ruleset, which the session knows. Or HAND is an
    engine hand record (docs/records.md): it is replayed under the session's
    ruleset, and its seats are the session's players in order; a passed-out one
    is added as --passed-out. Or, without HAND, --misdeal or --passed-out.
    """
    say = Speech(command_lang(lang))
    given = [
        name
        for name, on in (
            ("HAND", hand is not None),
            ("--misdeal", misdeal),
            ("--passed-out", passed_out),
        )
        if on
    ]
    if len(given) != 1:
        fail(
            Said("give a HAND, --misdeal or --passed-out")
            if not given
            else Said("give only one of {options}", options=", ".join(given))
        )
    if misdeal and heart_ace is not None:
        fail(Said("a misdeal has no auction to call the end on; call it on the next hand"))
    written: list[bool] = []
    try:
        with updating(Path(file), on_written=lambda: written.append(True)) as ledger:
            _say_notes(ledger)
            pinned = ledger.ruleset_hash is not None  # locked until written back
            with stdout_to_stderr() if as_json else contextlib.nullcontext():  # plugins' prints
                added = _add(ledger, hand, misdeal, heart_ace, accept_change)
        _report_added(file, ledger, added, pinned, as_json, say)
    except KeyboardInterrupt:
        if not written:
            raise  # the ledger is as it was: "Aborted!", as for any command
        number = added.number if isinstance(added, LedgerHand) else added[0].number
        echo(err=True)
        echo(
            say._(
                "Interrupted after hand {number} was added to {file}: "
                "`ulti ledger show {file}` prints the session.",
                number=number,
                file=file,
            ),
            err=True,
        )
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None


def _say_notes(ledger: Ledger) -> None:
    """The hands another ulti-rules version settled otherwise: said on every read, kept."""
    for problem in ledger.notes:
        note(problem_line(problem))
    if ledger.notes:
        note(
            Said(
                "another version of ulti-rules settled the hands above (settled_by), and this "
                "one settles them otherwise; the ledger keeps what they paid"
            )
        )


def _report_added(
    file: str,
    ledger: Ledger,
    added: tuple[LedgerHand, TableHand, Settlement] | LedgerHand,
    pinned: bool,
    as_json: bool,
    say: Speech,
) -> None:
    """What ``ulti ledger add`` prints once the hand is in the file."""
    if not pinned:
        note(
            Said(
                "{file}: this ledger pinned no ruleset yet; it now pins the content hash of "
                "'{ruleset}' as it is, and names any later change to it",
                file=file,
                ruleset=shorten(ledger.ruleset),
            )
        )
    if isinstance(added, LedgerHand):
        _report_unplayed(ledger, added, as_json, say)
        return
    entry, table_hand, settlement = added
    twice = _same_as_before(ledger, entry)
    if twice is not None:
        note(
            say._(
                "hand {number} is hand {before} again (the same file {source}, the same "
                "play): if it was added twice, `ulti ledger undo {file}` takes it back",
                number=entry.number,
                before=twice.number,
                source=entry.source,
                file=file,
            )
        )
    if as_json:
        data = settlement_json(settlement, table_hand.players)
        data["hand"] = entry.number
        data["totals"] = ledger.totals()
        echo_json({**data, **_what_next(ledger)})
        return
    console = stdout_console()
    echo(say._("Hand {number}, dealt by {dealer}:", number=entry.number, dealer=entry.dealer))
    for table in settlement_tables(settlement, table_hand.players, table_hand.ruleset, say):
        console.print(table)
    console.print(_totals_table(ledger, say))
    echo(_status(ledger, say))


def _what_next(ledger: Ledger) -> dict[str, Any]:
    """Who deals the next hand, and whether the session is over: what ``add`` and ``undo``
    say last, for --json as ``show --json`` says it."""
    ruleset = ledger.rules()
    over = ledger.is_over(ruleset)
    next_dealer = None if over else ledger.dealer_of(len(ledger.hands) + 1, ruleset)
    return {"next_dealer": next_dealer, "over": over}


def _same_as_before(ledger: Ledger, entry: LedgerHand) -> LedgerHand | None:
    """The hand before ``entry`` if ``entry`` is that hand again, from the same file with
    the same play (only the dealer differs): most likely one hand added twice."""
    if len(ledger.hands) < 2 or entry.sheet is None:
        return None
    before = ledger.hands[-2]
    if before.sheet is None or before.source != entry.source:
        return None
    play = {k: v for k, v in entry.sheet.items() if k != "dealer"}
    return before if play == {k: v for k, v in before.sheet.items() if k != "dealer"} else None


def _add(
    ledger: Ledger, hand: str | None, misdeal: bool, heart_ace: str | None, accept: bool
) -> tuple[LedgerHand, TableHand, Settlement] | LedgerHand:
    """Add HAND, or a misdeal or passed-out deal, to the ledger (in memory)."""
    check_pinned(ledger, accept_ruleset_change=accept)  # before reading HAND: say it first
    if hand is None:
        if misdeal:
            return add_misdeal(ledger, accept_ruleset_change=accept)
        return add_passed_out(ledger, heart_ace=heart_ace, accept_ruleset_change=accept)
    hand_path = Path(hand)
    try:
        data, positions = read_document(hand_path)  # read once: a record, or a score sheet
    except RecordError as exc:  # unreadable YAML: said as for any score sheet
        raise SheetError(exc.problems) from None
    if is_record(data):
        record = record_from_data(data, str(hand_path), positions)
        return _add_record(ledger, record, hand, heart_ace, accept)
    sheet, where = sheet_of(data, positions, str(hand_path))
    return add_hand(
        ledger,
        sheet,
        where,
        hand_path.parent,
        source=hand,
        heart_ace=heart_ace,
        accept_ruleset_change=accept,
    )


@ledger_group.command("undo")
@click.argument("file", metavar="FILE")
@lang_option("Language of the bid names, the totals and the words (--json keeps ids).")
@click.option("--json", "as_json", is_flag=True, help="Print what was taken back as JSON.")
def undo_command(file: str, lang: str | None, as_json: bool) -> None:
    """Take back the last hand of the session in FILE.

    For a hand added twice, or added wrong: it is removed, and the totals and the deal
    are as before it. Only the last hand can be taken back; run it again for the one
    before.
    """
    say = Speech(command_lang(lang))
    written: list[bool] = []
    try:
        with updating(Path(file), on_written=lambda: written.append(True)) as ledger:
            _say_notes(ledger)
            removed = take_back(ledger)
        _report_taken_back(file, ledger, removed, as_json, say)
    except KeyboardInterrupt:
        if not written:
            raise  # the ledger is as it was: "Aborted!", as for any command
        echo(err=True)
        echo(
            say._(
                "Interrupted after hand {number} was taken back from {file}: "
                "`ulti ledger show {file}` prints the session.",
                number=removed.number,
                file=file,
            ),
            err=True,
        )
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None


def _report_taken_back(
    file: str, ledger: Ledger, removed: LedgerHand, as_json: bool, say: Speech
) -> None:
    """What ``ulti ledger undo`` prints once the hand is out of the file."""
    ruleset = ledger.rules()
    if as_json:
        hand = {k: v for k, v in removed.model_dump(mode="json").items() if k != "sheet"}
        echo_json({"removed": hand, "totals": ledger.totals(), **_what_next(ledger)})
        return
    what = (
        unplayed_text(removed, say) if removed.bid is None else say.bid_text(ruleset, removed.bid)
    )
    if removed.declarer is not None:
        what = say._("{bid}, declarer {name}", bid=what, name=removed.declarer)
    what += f", A♥: {removed.heart_ace}" if removed.heart_ace else ""
    paid = ", ".join(f"{name} {signed(amount)}" for name, amount in removed.payments.items())
    echo(
        say._(
            "Took back hand {number}, dealt by {dealer}: {what} ({paid}).",
            number=removed.number,
            dealer=removed.dealer,
            what=what,
            paid=paid,
        )
    )
    stdout_console().print(_totals_table(ledger, say))
    echo(_status(ledger, say))


def _report_unplayed(ledger: Ledger, entry: LedgerHand, as_json: bool, say: Speech) -> None:
    """Say what a misdeal or passed-out hand did to the deal."""
    if as_json:
        echo_json(
            {
                "hand": entry.number,
                "kind": entry.kind,
                "dealer": entry.dealer,
                "redeal": entry.redeal,
                "payments": entry.payments,
                "totals": ledger.totals(),
                **_what_next(ledger),
            }
        )
        return
    head = say._("Hand {number}, dealt by {dealer}:", number=entry.number, dealer=entry.dealer)
    echo(f"{head} {unplayed_text(entry, say)}.")
    stdout_console().print(_totals_table(ledger, say))
    echo(_status(ledger, say))


def unplayed_text(entry: LedgerHand, speech: Speech | None = None) -> str:
    """``misdeal — Anna deals again``, ``all passed — passed out``, ``all passed — Ben
    pays 1 to each``: what came of a deal that was not played."""
    say = speech or Speech()
    what = say._("misdeal") if entry.kind == "misdeal" else say._("all passed")
    if entry.redeal:
        came = say._("{name} deals again", name=entry.dealer)
    else:
        payers = [name for name, amount in entry.payments.items() if amount < 0]
        paid = sorted({amount for amount in entry.payments.values() if amount > 0})
        if len(payers) == 1 and len(paid) == 1:
            came = say._("{name} pays {amount} to each", name=payers[0], amount=paid[0])
        elif entry.kind == "misdeal":
            came = say._("the deal passes on")
        else:
            came = say._("passed out")
    return f"{what} — {came}"


def _add_record(
    ledger: Ledger, record: HandRecord, source: str, heart_ace: str | None, accept: bool
) -> tuple[LedgerHand, TableHand, Settlement] | LedgerHand:
    """Replay an engine record under the session's ruleset and add it: seat i is the
    session's i-th player, and the record's dealer must be the session's next dealer.
    A passed-out record is added as a passed-out hand (and pays what the ruleset says)."""
    _check_record_rules(ledger, record, source)
    hand = replay(record, ledger.rules())
    if hand.contract is None:
        return add_passed_out(
            ledger,
            source=source,
            dealer=ledger.players[record.dealer],
            heart_ace=heart_ace,
            accept_ruleset_change=accept,
        )
    return add_played(
        ledger,
        hand.contract,
        hand.facts,
        source=source,
        dealer=record.dealer,
        heart_ace=heart_ace,
        accept_ruleset_change=accept,
    )


def _check_record_rules(ledger: Ledger, record: HandRecord, source: str) -> None:
    """A record played under other rules than the session's is not the session's hand:
    say whose it is (replaying it would settle it at another table's prices)."""
    session = ledger.rules()
    found = ledger.rules_hash()
    if record.ruleset_hash == found:
        return
    try:
        named = ruleset_of(record).name  # a path in a record names the file, not the rules
    except UltiError:
        named = record.ruleset
    if named != session.name:
        message = Said(
            "this record is from ruleset '{named}', the session plays '{session}' ({ref}): "
            "add it to a ledger of its own ruleset",
            named=shorten(named),
            session=session.name,
            ref=shorten(ledger.ruleset),
        )
    else:
        message = Said(
            "this record is from ruleset '{named}' as it was then (content hash {then}…), the "
            "session plays '{session}' ({ref}) with other rules ({now}…): the hand was played "
            "under rules this session does not use",
            named=shorten(named),
            then=record.ruleset_hash[:19],
            session=session.name,
            ref=shorten(ledger.ruleset),
            now=found[:19],
        )
    raise LedgerError([Problem.unplaced(message, source)])


def _totals_table(ledger: Ledger, say: Speech) -> Table:
    table = Table(title=say._("Totals"), title_justify="left")
    for name in ledger.players:
        table.add_column(name, justify="right")
    table.add_row(*(Text(signed(v)) for v in ledger.totals().values()))
    return table


def _status(ledger: Ledger, say: Speech) -> str:
    return status_text(ledger, ledger.rules(), say)


def _show_json(ledger: Ledger) -> dict[str, Any]:
    ruleset = ledger.rules()
    now = ledger.rules_hash()
    last = ledger.last_round(ruleset)
    over = ledger.is_over(ruleset)
    return {
        "ruleset": ledger.ruleset,
        "ruleset_hash": ledger.ruleset_hash,
        "ruleset_hash_now": now,
        "ruleset_changed": None if ledger.ruleset_hash is None else ledger.ruleset_hash != now,
        "players": ledger.players,
        "end": ledger.end,
        "hands": [
            {k: v for k, v in h.model_dump(mode="json").items() if k != "sheet"}
            for h in ledger.hands
        ],
        "totals": ledger.totals(),
        "next_dealer": None if over else ledger.dealer_of(len(ledger.hands) + 1, ruleset),
        "last_round": list(last) if last is not None else None,
        "planned_hands": ruleset.session.hands,
        "deals": ledger.deals(),
        "over": over,
    }


@ledger_group.command("show")
@click.argument("file", metavar="FILE")
@lang_option("Language of the bid names and the words (--json keeps ids).")
@click.option("--json", "as_json", is_flag=True, help="Print the session as JSON.")
def show_command(file: str, lang: str | None, as_json: bool) -> None:
    """Print every hand, the running totals and who deals next."""
    say = Speech(command_lang(lang))
    ledger = load_ledger(Path(file))
    _say_notes(ledger)
    change = ledger.ruleset_change(ledger.rules())
    if change is not None:
        note(
            Said(
                "{file}: {change}; the hands below were settled under the pinned rules "
                "(`ulti ledger add ... {option}` plays on under the new ones)",
                file=file,
                change=change,
                option=ACCEPT_OPTION,
            )
        )
    if as_json:
        echo_json(_show_json(ledger))
        return
    ruleset = ledger.rules()
    title = say._("Session under '{ruleset}'", ruleset=shorten(ledger.ruleset))
    table = Table(title=title, title_justify="left")
    for header in ("#", say._("Dealer"), say._("Declarer"), say._("Bid")):
        table.add_column(header)
    for name in ledger.players:
        table.add_column(name, justify="right")
    running = dict.fromkeys(ledger.players, 0)
    for hand in ledger.hands:
        for name, amount in hand.payments.items():
            running[name] += amount
        bid = unplayed_text(hand, say) if hand.bid is None else say.bid_text(ruleset, hand.bid)
        bid += f", A♥: {hand.heart_ace}" if hand.heart_ace else ""
        bid += say._(" (new rules from here)") if hand.ruleset_hash else ""
        cells = [str(hand.number), hand.dealer, hand.declarer or "—", bid]
        cells += [f"{signed(hand.payments[n])} ({signed(running[n])})" for n in ledger.players]
        table.add_row(*(Text(c) for c in cells))
    console = stdout_console()
    console.print(table)
    echo(say._("Under each player: the hand's result (the running total)."))
    console.print(_totals_table(ledger, say))
    echo(_status(ledger, say))
