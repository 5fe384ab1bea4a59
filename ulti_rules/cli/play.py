"""`ulti play`: a hand of Ulti at the terminal, one person against bots (or bots only).

The person answers each decision of his seat (``human_seat.py``); bots answer the
others; the view (``table_view.py``) prints each call and trick as it happens and the
itemised settlement at the end. The session keeps the totals and the rotation of the
deal as a ledger does (``play_session.py``); every finished hand's record is saved at
once with ``--save-records`` (``record_shelf.py``).

Leaving: ``quit`` or the end of input (Ctrl-D) ends the session with status 0; Ctrl-C
ends it with status 130, the shell's code for an interrupt. Either way the hand in
progress is dropped, the records saved so far are kept, and the totals are shown.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import click
from rich.text import Text

from ..bots import Bot, bot_clashes, bots
from ..bots import bot as make_bot
from ..engine import Hand
from ..game import Game
from ..records import RecordError, record_of
from ..ruleset.loading import content_hash, load_ruleset
from ..said import Said
from ..scoring.table_facts import ruleset_location
from ..seeding import seeded
from .choice_reading import fold
from .common import EXIT_INTERRUPTED, fail, note, stdout_console
from .completion import complete_ruleset
from .human_seat import HumanSeat, LeftTheTable
from .language import command_lang, lang_option
from .play_session import PlaySession
from .play_words import YOU, Words
from .record_shelf import RecordShelf, ruleset_for_records
from .speech import Speech
from .table_view import TableView
from .terminal import echo

DEFAULT_BOT = "club"
"""The bot that plays against the person unless ``--bots`` says otherwise."""
FALLBACK_BOT = "simple"
"""Played while ``DEFAULT_BOT`` is not installed (a note says so)."""
BOT_NAMES = ("Anna", "Ben", "Carla", "Dora")
"""The bots' names at the table, by seat; the person is ``You``."""
YES = ("", "y", "yes", "i", "igen", "j", "ja")
NO = ("n", "no", "nem", "nein")


def _bot_names(option: str | None, seats: int) -> list[str]:
    """One bot name per bot seat: ``--bots A,B`` (or one name for all), else the default."""
    if option is None:
        if DEFAULT_BOT in bots():
            return [DEFAULT_BOT] * seats
        note(
            Said(
                "the '{bot}' bot is not installed; the bots play as '{fallback}'",
                bot=DEFAULT_BOT,
                fallback=FALLBACK_BOT,
            )
        )
        return [FALLBACK_BOT] * seats
    names = [name.strip() for name in option.split(",")]
    if any(not name for name in names):
        fail(
            Said(
                "--bots: a bot's name is missing in '{given}' (e.g. --bots simple,random)",
                given=option,
            )
        )
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        fail(
            Said(
                "--bots names {named} bots, but {seats} seats are the bots': "
                "give one name for all of them, or {seats}",
                named=len(names),
                seats=seats,
            )
        )
    return names


class Table:
    """The seats of one session and what is said at the table."""

    def __init__(self, view: TableView, players: dict[int, Bot], human: HumanSeat | None) -> None:
        self.view = view
        self.players = players
        self.human = human

    def play(self, hand: Hand, rng: random.Random) -> None:
        """Play ``hand`` to its end, printing each call and trick."""
        view = self.view
        while not hand.is_over:
            seat = hand.current_player
            assert seat is not None
            bot = self.players.get(seat)
            if bot is None:
                assert self.human is not None
                action = self.human.choose(hand)
            else:
                action = bot.choose(hand, rng)
            before = view.before(hand)
            hand.apply(action)
            view.after(hand, seat, action, before)


@click.command("play", short_help="Play Ulti against two bots (--auto: bots only).")
@click.option(
    "--ruleset", "ruleset_ref", metavar="NAME|PATH", default="wikipedia", show_default=True,
    shell_complete=complete_ruleset,
    help="The rules to play.",
)  # fmt: skip
@click.option(
    "--seat", type=click.IntRange(min=1), default=None,
    help="Your seat, 1-based (default 1; seat 1 deals the first hand).",
)  # fmt: skip
@click.option(
    "--bots", "bots_option", metavar="A,B",
    help=f"The bots in the other seats, in seat order; one name for all "
    f"(default: {DEFAULT_BOT}).",
)  # fmt: skip
@click.option("--seed", type=int, default=None, help="Seed of the deals and the bots.")
@click.option(
    "--hands", type=click.IntRange(min=1), default=None,
    help="Play N hands (default: ask after each hand; --auto: 1).",
)  # fmt: skip
@click.option(
    "--save-records", "records_dir", metavar="DIR",
    help="Save each hand's record in DIR as soon as it ends, numbered after the records "
    "already there (none is overwritten).",
)  # fmt: skip
@click.option(
    "--faces", type=click.Choice(["hu", "fr"]), default="hu", show_default=True,
    help="Card faces: Hungarian (PVII) or French (7♥).",
)  # fmt: skip
@lang_option("Language of the table: bids, kontras, suits and every sentence.")
@click.option("--auto", is_flag=True, help="Bots take every seat; the whole hand is printed.")
def play_command(
    ruleset_ref: str,
    seat: int | None,
    bots_option: str | None,
    seed: int | None,
    hands: int | None,
    records_dir: str | None,
    faces: str,
    lang: str | None,
    auto: bool,
) -> None:
    """Play Ulti at the terminal: you against two bots, or bots only (--auto).

    Answer each question with the number of a choice, a card (PVII, 7h), a bid's name
    or 'pass'; '?' shows the choices again, 'quit' or Ctrl-D ends the session (exit
    status 0), Ctrl-C too (exit status 130). See docs/play.md.
    """
    say = Speech(command_lang(lang))
    ref = str(ruleset_location(ruleset_ref, Path.cwd()))
    ruleset = load_ruleset(ref)
    game = Game.of(ruleset)
    count = ruleset.players.count
    if auto and seat is not None:
        fail(Said("--seat is your seat at the table; with --auto the bots take every seat"))
    human = None if auto else (seat or 1) - 1
    if human is not None and human >= count:
        fail(
            Said(
                "--seat {seat}: '{ruleset}' is played by {count}, seats 1 to {count}",
                seat=seat,
                ruleset=ruleset.name,
                count=count,
            )
        )
    you = say._(YOU)
    names = [you if s == human else BOT_NAMES[s] for s in range(count)]
    # A record names the person "You" in every language: a ledger or study that reads
    # records of tables in two languages counts one player, not "Te" and "Du" besides.
    record_names = [YOU if s == human else BOT_NAMES[s] for s in range(count)]
    bot_seats = [s for s in range(count) if s != human]
    chosen = _bot_names(bots_option, len(bot_seats))
    players = {s: make_bot(name) for s, name in zip(bot_seats, chosen, strict=True)}
    for clash in bot_clashes():
        echo(f"ulti: warning: {clash}", err=True)
    shelf = RecordShelf(Path(records_dir)) if records_dir is not None else None
    # as the records name the ruleset: a file relative to their folder
    record_ref = ruleset_for_records(ruleset_ref, Path(ref), shelf.folder) if shelf else ref
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    rng = seeded(seed)
    console = stdout_console()
    words = Words(ruleset, say.lang, "fr" if faces == "fr" else "hu", names, you)
    view = TableView(console, words, human)
    echo_answers = not sys.stdin.isatty()

    def read_line(prompt: str) -> str:
        answer = console.input(Text(prompt, style="bold cyan"))
        if echo_answers:  # a script's answers, shown where a terminal would echo them
            console.print(Text(answer), highlight=False)
        return answer

    seat_of_human = HumanSeat(view, read_line) if human is not None else None
    table = Table(view, players, seat_of_human)
    session = PlaySession(ruleset, ref, names)
    ruleset_hash = content_hash(ruleset) if shelf is not None else None
    limit = hands if hands is not None else (1 if auto else None)
    _header(view, ruleset.name, ruleset.title_in(say.lang), names, chosen, bot_seats, seed)
    try:
        while True:
            hand = game.new_hand(seed=rng.getrandbits(32), dealer=session.next_dealer())
            view.begin(session.played + 1, hand)
            table.play(hand, rng)
            contract = hand.contract
            settlement = (
                game.settle(contract, hand.facts, trusted=True) if contract is not None else None
            )
            view.end(hand, settlement)
            if shelf is not None:
                record = record_of(
                    hand, record_ref, players=record_names, ruleset_hash=ruleset_hash
                )
                try:
                    saved = shelf.save(record)
                except RecordError as exc:  # a full disk: the session goes on, and says so
                    why = "; ".join(p.shown(say.text.gettext, say.lang) for p in exc.problems)
                    view.line(say._("The record of this hand was not saved: {why}", why=why))
                else:
                    view.line(say._("Record: {path}", path=saved), style="dim")
            session.add(hand)
            view.session(session.played, session.totals(), session.next_text(say))
            if session.is_over():
                break
            if limit is not None:
                if session.played >= limit:
                    break
            else:
                answer = _another(view, read_line, say, session.may_call_end)
                if answer == "stop":
                    _goodbye(view, session, shelf, interrupted=False, totals=False)
                    return
                if answer == "end":
                    session.call_end()
                    view.line(
                        say._(
                            "The end is called: whoever holds the Ace of hearts when the next "
                            "auction ends deals the last round of three."
                        )
                    )
    except LeftTheTable:
        _goodbye(view, session, shelf, interrupted=False)
        return
    except KeyboardInterrupt:
        _goodbye(view, session, shelf, interrupted=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None


def _header(
    view: TableView,
    name: str,
    title: str,
    names: list[str],
    chosen: list[str],
    bot_seats: list[int],
    seed: int,
) -> None:
    words = view.words
    _ = words._
    view.line(_("Ulti under '{name}': {title}", name=name, title=title), style="bold")
    bots_text = ", ".join(
        _("{name} ({bot}, seat {seat})", name=names[s], bot=bot, seat=s + 1)
        for s, bot in zip(bot_seats, chosen, strict=True)
    )
    if words.you in names:
        seat = names.index(words.you) + 1
        view.line(_("You sit in seat {seat}; the bots: {bots}.", seat=seat, bots=bots_text))
    else:
        view.line(_("The bots: {bots}.", bots=bots_text))
    view.line(
        _("Seed {seed}: the same seed deals the same cards (--seed {seed}).", seed=seed),
        style="dim",
    )


def _another(
    view: TableView, read_line: Callable[[str], str], say: Speech, may_end: bool
) -> Literal["more", "stop", "end"]:
    """Whether the person wants another hand ("more"), to stop, or (where the session ends
    by the Ace of hearts) to call the end; the end of input or 'quit' leaves."""
    end_words = {"end", fold(say._("end"))} if may_end else set()
    question = say._("Another hand? [Y/n/end]:") if may_end else say._("Another hand? [Y/n]:")
    while True:
        try:
            answer = fold(read_line(question + " "))
        except EOFError:
            raise LeftTheTable from None
        if answer in YES:
            return "more"
        if answer in NO or answer in ("q", "quit", "exit"):
            return "stop"
        if answer in end_words:
            return "end"
        if may_end:
            view.hint(
                say._(
                    "type y (or Enter) for another hand, n to stop, end to call the last "
                    "round (the Ace of hearts deals it)"
                )
            )
        else:
            view.hint(say._("type y (or Enter) for another hand, n to stop"))


def _goodbye(
    view: TableView,
    session: PlaySession,
    shelf: RecordShelf | None,
    interrupted: bool,
    totals: bool = True,
) -> None:
    """The last words: the totals (unless just shown), the records saved, goodbye."""
    console, _ = view.console, view.words._
    console.print()
    if interrupted:
        view.line(_("Interrupted: the hand in progress is not counted."))
    if session.played and totals:
        view.session(session.played, session.totals(), "")
    if shelf is not None and shelf.saved:
        first, last = shelf.saved[0], shelf.saved[-1]
        listed = str(first) if first == last else f"{first} ... {last.name}"
        view.line(_("Records: {listed}", listed=listed))
    view.line(_("Goodbye."))
