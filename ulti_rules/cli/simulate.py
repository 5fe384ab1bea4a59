"""`ulti simulate`: bots play many seeded hands, each one settled, and the study summed up.

The hands are played by ``ulti_rules.study``: every turn of the deal carries its own
seeds drawn from ``--seed`` (``study/runner.py``), so ``--workers`` spreads the turns
over processes and the output stays the same, byte for byte. A passed-out hand costs
what ``auction.all_pass`` says (``scoring/all_pass.py``); under ``redeal`` the same
dealer deals again within the turn. The speed line goes to stderr: it is the one thing
that changes from run to run.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import click
from rich.table import Table
from rich.text import Text

from ..bots import bot as make_bot
from ..bots import bot_clashes
from ..cards import SuitId
from ..plugins import stdout_to_stderr
from ..records import save
from ..ruleset.loading import content_hash, load_ruleset
from ..ruleset.schema import Ruleset
from ..said import Said
from ..scoring.table_facts import ruleset_location
from ..study.compare import differences
from ..study.plot import draw, require_matplotlib
from ..study.runner import (
    GIVEN_UP,
    NOT_PLAYED,
    PASSED_OUT,
    HandResult,
    StudySpec,
    seat_names,
)
from ..study.summary import Summary
from ..study.workers import played_hands, processes_for
from .common import echo_json, fail, note, speaking, stdout_console
from .completion import complete_ruleset
from .language import command_lang, lang_option
from .record_shelf import numbered, records_folder, ruleset_for_records
from .settlement_view import all_pass_text, signed
from .simulate_view import show_comparison, show_summary
from .speech import Speech
from .terminal import echo

MAX_HANDS = 1_000_000_000
"""The most hands one run plays: days of play on one core at a few thousand a second; a
number past it is a slip (a digit too many), refused at once, not run for ever."""

PROGRESS_FROM = 2000
"""Hands from which a progress bar is shown (on stderr, and only on a terminal)."""


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system keeps one): more
    processes than these only wait their turn, and each costs its start-up and memory."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity to read (macOS, Windows)
        return os.cpu_count() or 1


def _workers_used(hands: int, asked: int) -> int:
    """``--workers``, but no more than the CPUs this process may use: ``--workers 64`` on
    two CPUs played at a third of one worker's speed, and ``--workers 100000`` forked
    hundreds of processes. A note says so where the cap lowers the processes that play
    (``--workers 8 --hands 20`` plays in one whatever the CPUs: no note)."""
    cpus = usable_cpus()
    if processes_for(hands, asked) > cpus:
        note(
            Said(
                "--workers {asked} is more than the CPUs this command may use ({cpus}): "
                "the study plays in as many processes (more would only slow it down)",
                asked=asked,
                cpus=cpus,
            )
        )
    return min(asked, cpus)


def _describe(result: HandResult, ruleset: Ruleset, names: list[str], say: Speech) -> str:
    if result.outcome == PASSED_OUT or result.declarer is None or result.bid is None:
        return say._(
            "passed out: nobody bid, {what}",
            what=all_pass_text(ruleset, result.dealer, names, say),
        )
    trump = say.suit(cast(SuitId, result.trump)) if result.trump else say._("no trump")
    text = say._(
        "{name} declares {bid}, {trump}",
        name=names[result.declarer],
        bid=say.bid_text(ruleset, result.bid),
        trump=trump,
    )
    if result.outcome == GIVEN_UP:
        text += say._(", gave up")
    elif result.outcome == NOT_PLAYED:
        text += say._(", not played (uncontested)")
    return text


def _seat_bots(given: str, ruleset: Ruleset) -> tuple[str, ...]:
    """One bot name per seat from ``--bots A,B,C`` (or one name for every seat), each
    one known; a clear error otherwise."""
    names = [name.strip() for name in given.split(",")]
    players = ruleset.players.count
    example = ",".join(["simple"] * players)
    if not all(names):
        fail(
            Said(
                "--bots '{given}' has an empty name: name the bots with commas between, "
                "e.g. --bots {example}",
                given=given,
                example=example,
            )
        )
    if len(names) == 1:
        names *= players
    elif len(names) != players:
        fail(
            Said(
                "--bots names {named} bots, but '{ruleset}' is played by {players}: "
                "name one bot per seat (--bots {example}) or one for every seat (--bots simple)",
                named=len(names),
                ruleset=ruleset.name,
                players=players,
                example=example,
            )
        )
    for name in dict.fromkeys(names):
        make_bot(name)  # an unknown name: the error lists the bots there are
    return tuple(names)


def _bots_text(bots: tuple[str, ...], names: list[str], say: Speech) -> str:
    if len(set(bots)) == 1:
        return say._("bot {bot}", bot=bots[0])
    listed = ", ".join(f"{name} {bot}" for name, bot in zip(names, bots, strict=True))
    return say._("bots {listed}", listed=listed)


def _result_data(number: int, result: HandResult, names: list[str]) -> dict[str, Any]:
    return {
        "hand": number,
        "turn": result.turn + 1,
        "seed": result.seed,
        "bot_seed": result.bot_seed,
        "dealer": names[result.dealer],
        "declarer": names[result.declarer] if result.declarer is not None else None,
        "bid": result.bid,
        "trump": result.trump,
        "outcome": result.outcome,
        "made": result.made,
        "kontra": result.kontra_level,
        "payments": dict(zip(names, result.payments, strict=True)),
    }


def _shows_progress(hands: int, lines_on_terminal: bool) -> bool:
    """A bar on a long run, where stderr is a terminal, unless the hands' own lines
    scroll past on that terminal (they show the progress themselves)."""
    return hands > PROGRESS_FROM and sys.stderr.isatty() and not lines_on_terminal


@contextlib.contextmanager
def _progress(total: int, shown: bool) -> Iterator[Callable[[int], None]]:
    """A function to call with the number of hands just played: it moves the bar."""
    if not shown:
        yield lambda done: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    bar = Progress(
        "Playing", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=Console(stderr=True), transient=True,
        redirect_stdout=False, redirect_stderr=False,
    )  # fmt: skip
    with bar:
        task = bar.add_task("hands", total=total)
        yield lambda done: bar.advance(task, done)


def _amounts(values: dict[str, int]) -> str:
    return "  ".join(f"{name} {signed(amount)}" for name, amount in values.items())


def _record_name(number: int, width: int) -> str:
    return f"hand-{number:0{width}d}.yaml"


def _refuse_taken(folder: Path, count: int, width: int) -> None:
    """Refuse, before any hand is played, to overwrite records (or follow symlinks)
    already in the folder, or to put this study's records beside another's (a run of
    another size numbers them with other widths, hand-0001 beside hand-00001): what the
    folder holds is read once, the names of hands 1 to ``count`` are not listed
    (``--hands 10000000`` would list ten million)."""
    found = numbered(folder)
    taken = sorted(
        name
        for name, number in found
        if name.endswith(".yaml") and len(number) == width and 1 <= int(number) <= count
    )
    if taken:
        more = f" and {len(taken) - 1} more" if len(taken) > 1 else ""
        fail(
            f"{folder / taken[0]}{more} already exist{'s' if not more else ''}; records are "
            "not overwritten: choose another folder, or replace them with --force"
        )
    others = sorted(name for name, _ in found)
    if others:
        more = f" and {len(others) - 1} more" if len(others) > 1 else ""
        fail(
            f"{folder} already holds the records of another run ({folder / others[0]}{more}): "
            "choose another folder, or add this run's beside them with --force"
        )


def _play(
    spec: StudySpec,
    ruleset: Ruleset,
    workers: int,
    advance: Callable[[int], None],
    *,
    lines: bool,
    keep: bool,
    folder: Path | None = None,
    force: bool = False,
    say: Speech | None = None,
) -> tuple[Summary, list[dict[str, Any]]]:
    """Play the study; print each hand's line (``lines``), keep its data (``keep``) and
    save its record (``folder``) as it comes, in order."""
    names = seat_names(ruleset.players.count)
    say = say or Speech()
    width = max(4, len(str(spec.hands)))
    summary = Summary(len(names))
    running = dict.fromkeys(names, 0)
    kept: list[dict[str, Any]] = []
    number = 0
    # closed as the loop ends, however it ends: the workers are stopped then, not when
    # the generator is collected
    with contextlib.closing(played_hands(spec, workers)) as study:
        for chunk in study:
            for result, record in chunk:
                number += 1
                summary.add(result)
                if folder is not None and record is not None:
                    save(record, folder / _record_name(number, width), overwrite=force)
                if keep:
                    kept.append(_result_data(number, result, names))
                if lines:
                    payments = dict(zip(names, result.payments, strict=True))
                    for name, amount in payments.items():
                        running[name] += amount
                    said = say._(
                        "{dealer} deals; {what}: {amounts}  | totals {totals}",
                        dealer=names[result.dealer],
                        what=_describe(result, ruleset, names, say),
                        amounts=_amounts(payments),
                        totals=_amounts(running),
                    )
                    echo(f"{number:>{width}}  {said}")
            # progress in turns with whole turns (a study of N turns may hold more hands)
            advance(len({result.turn for result, _ in chunk}) if spec.whole_turns else len(chunk))
    return summary, kept


def _study_data(
    spec: StudySpec, ruleset: Ruleset, summary: dict[str, Any], kept: list[dict[str, Any]] | None
) -> dict[str, Any]:
    data = {"ruleset": ruleset.name, "ruleset_hash": spec.ruleset_hash, **summary}
    data["totals"] = {name: row["total"] for name, row in summary["payments"].items()}
    if kept is not None:
        data["results"] = kept
    return data


def _plot_target(plot_file: str) -> Path:
    """Where the plot goes, checked before any hand is played."""
    require_matplotlib()
    path = Path(plot_file)
    if path.is_dir():
        fail(f"--plot {plot_file} is a folder: give the name of the PNG file to write")
    if not path.parent.is_dir():
        fail(f"--plot {plot_file}: the folder {path.parent} does not exist")
    from ..safe_files import check_output

    check_output(path, f"--plot {plot_file}")  # written at the end: refused now if it cannot be
    return path


@click.command("simulate", short_help="Bots play seeded hands; settle and total them.")
@click.argument(
    "ruleset_ref", metavar="[RULESET]", default="wikipedia", required=False,
    shell_complete=complete_ruleset,
)  # fmt: skip
@click.option(
    "--hands", "count", type=click.IntRange(1, MAX_HANDS), default=100, show_default=True,
    help=f"How many hands to play (1 to {MAX_HANDS:,}).",
)  # fmt: skip
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed of the deals and the bots."
)
@click.option(
    "--bots", "--bot", "bots_given", metavar="A[,B,C]", default="simple", show_default=True,
    help="The bot in each seat (P1, P2, ...), or one bot for every seat: 'simple' (low bids, "
    "random cards), 'club' (bids and plays like a club player), 'random', or a plugin's "
    "(docs/bots.md). --bot is the same option.",
)  # fmt: skip
@click.option(
    "--workers", type=click.IntRange(min=1), default=1, show_default=True,
    help="Processes to play in, at most the CPUs this command may use (a note says when "
    "fewer play than asked); the output is the same whatever the number.",
)  # fmt: skip
@click.option(
    "--compare", "compare_ref", metavar="RULESET2", shell_complete=complete_ruleset,
    help="Play the same deals with the same bots under RULESET2 too, and show the two "
    "summaries side by side with their differences.",
)  # fmt: skip
@click.option(
    "--plot", "plot_file", metavar="FILE.png",
    help="Draw the success rate per bid and the payment distribution into FILE.png "
    "(needs matplotlib: pip install 'ulti-rules[plot]').",
)  # fmt: skip
@click.option(
    "--save-records", "records_dir", metavar="DIR",
    help="Save each hand's record as DIR/hand-0001.yaml, ... (see docs/records.md). "
    "A folder that already holds records is refused unless --force.",
)  # fmt: skip
@click.option(
    "--force", is_flag=True,
    help="With --save-records: save into a DIR that holds records, replacing those of the "
    "same name (a symlink is replaced, never written through) and keeping the others.",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the summary (and the hands) as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="Only the summary, no line (or JSON) per hand.")
@lang_option("Language of the hands' lines and the summary (--json stays in English).")
def simulate_command(
    ruleset_ref: str,
    count: int,
    seed: int,
    bots_given: str,
    workers: int,
    compare_ref: str | None,
    plot_file: str | None,
    records_dir: str | None,
    force: bool,
    as_json: bool,
    quiet: bool,
    lang: str | None,
) -> None:
    """Let bots play N seeded hands of RULESET (default: wikipedia), settle each one and
    sum the study up.

    Prints one line per hand with its result and the running totals per seat, then the
    totals, how often each bid won the auction and was made, each component's success
    rate, the mean payment per seat with its standard error, the kontra levels reached
    and the silent bonuses scored. The same command prints the same output, whatever
    --workers; the speed goes to stderr.
    """
    say = Speech("en" if as_json else command_lang(lang))  # --json: one language for programs
    if force and records_dir is None:
        raise click.UsageError(
            speaking(
                Said(
                    "--force needs --save-records: it lets the records be saved into a "
                    "folder that already holds some"
                )
            ),
            ctx=click.get_current_context(),
        )
    ref = str(ruleset_location(ruleset_ref, Path.cwd()))
    ruleset = load_ruleset(ref)
    bots = _seat_bots(bots_given, ruleset)
    for clash in bot_clashes():
        echo(f"ulti: warning: {clash}", err=True)
    names = seat_names(ruleset.players.count)
    rulesets = [(ref, ruleset)]
    if compare_ref is not None:
        if records_dir is not None:
            fail("--save-records keeps one ruleset's hands: leave it out with --compare")
        other_ref = str(ruleset_location(compare_ref, Path.cwd()))
        other = load_ruleset(other_ref)
        if other.players.count != ruleset.players.count:
            fail(
                f"'{ruleset.name}' is played by {ruleset.players.count} and '{other.name}' by "
                f"{other.players.count}: the two cannot share deals; compare rulesets for "
                "the same number of players"
            )
        rulesets.append((other_ref, other))
    plot_path = _plot_target(plot_file) if plot_file is not None else None
    width = max(4, len(str(count)))
    folder = records_folder(Path(records_dir)) if records_dir is not None else None
    if folder is not None and not force:
        _refuse_taken(folder, count, width)
    named = ruleset_for_records(ruleset_ref, Path(ref), folder) if folder is not None else None
    specs = [
        StudySpec(
            at,
            bots,
            seed,
            count,
            records=folder is not None,
            ruleset_hash=content_hash(r),
            records_ruleset=named,
            whole_turns=len(rulesets) > 1,  # compared: the same deals, whatever redeals
        )
        for at, r in rulesets
    ]
    workers = _workers_used(count, workers)  # once every check has passed
    lines = not as_json and not quiet and len(specs) == 1
    keep = as_json and not quiet
    total = count * len(specs)
    shown = _shows_progress(total, lines and sys.stdout.isatty())
    start = time.perf_counter()
    # --json: what a plugin's bot or kind prints meanwhile goes to stderr, as at its import
    quiet_stdout = stdout_to_stderr() if as_json else contextlib.nullcontext()
    with quiet_stdout, _progress(total, shown) as advance:
        played = [
            _play(
                spec,
                r,
                workers,
                advance,
                lines=lines,
                keep=keep,
                folder=folder,
                force=force,
                say=say,
            )
            for spec, (_, r) in zip(specs, rulesets, strict=True)
        ]
    seconds = time.perf_counter() - start
    summaries = [
        summary.to_dict(r, names, say.lang)
        for (summary, _), (_, r) in zip(played, rulesets, strict=True)
    ]
    who = _bots_text(bots, names, say)
    if len(specs) == 1:
        kept = played[0][1] if keep else None
        _report(specs[0], ruleset, summaries[0], kept, as_json, who, say)
    else:
        _report_comparison(specs, rulesets, summaries, played, as_json, keep, who, say)
    if folder is not None and not as_json:
        last = f" ... {_record_name(count, width)}" if count > 1 else ""
        listed = f"{folder / _record_name(1, width)}{last}"
        echo(say._("Records: {listed}", listed=listed))
    if plot_path is not None:
        labelled = [(r.name, s) for (_, r), s in zip(rulesets, summaries, strict=True)]
        if len(labelled) == 2:
            labelled = [
                (f"A: {labelled[0][0]}", summaries[0]),
                (f"B: {labelled[1][0]}", summaries[1]),
            ]
        title = " vs ".join(f"'{r.name}'" for _, r in rulesets)
        caption = say.ngettext(
            "{title}: {n} hand, seed {seed}, {who}",
            "{title}: {n} hands, seed {seed}, {who}",
            count,
            title=title,
            seed=seed,
            who=who,
        )
        draw(plot_path, labelled, caption)
        if not as_json:
            echo(say._("Plot: {path}", path=plot_path))
    _speed(total, seconds, processes_for(count, workers), say)


def _speed(hands: int, seconds: float, processes: int, say: Speech) -> None:
    """The speed line, on stderr: the one thing that changes from run to run. It names the
    processes that played, which ``--workers`` caps but a short study may not fill."""
    speed = hands / seconds if seconds > 0 else float("inf")
    rate, took = f"{speed:,.0f}", f"{seconds:.2f}"
    line = say.ngettext(
        "Speed: {rate} hands/s ({n} worker, {seconds} s)",
        "Speed: {rate} hands/s ({n} workers, {seconds} s)",
        processes,
        rate=rate,
        seconds=took,
    )
    echo(line, err=True)


def _report(
    spec: StudySpec,
    ruleset: Ruleset,
    summary: dict[str, Any],
    kept: list[dict[str, Any]] | None,
    as_json: bool,
    who: str,
    say: Speech,
) -> None:
    names = list(summary["payments"])
    if as_json:
        head = {"seed": spec.seed, "bots": list(spec.bots), "players": names}
        echo_json({**head, **_study_data(spec, ruleset, summary, kept)})
        return
    echo(
        say.ngettext(
            "Totals after {n} hand of '{ruleset}' (seed {seed}, {who}):",
            "Totals after {n} hands of '{ruleset}' (seed {seed}, {who}):",
            spec.hands,
            ruleset=ruleset.name,
            seed=spec.seed,
            who=who,
        )
    )
    table = Table()
    for name in names:
        table.add_column(name, justify="right")
    table.add_row(*(Text(signed(summary["payments"][n]["total"])) for n in names))
    stdout_console().print(table)
    show_summary(summary, names, say)


def _report_comparison(
    specs: list[StudySpec],
    rulesets: list[tuple[str, Ruleset]],
    summaries: list[dict[str, Any]],
    played: list[tuple[Summary, list[dict[str, Any]]]],
    as_json: bool,
    keep: bool,
    who: str,
    say: Speech,
) -> None:
    (_, first), (_, second) = rulesets
    names = list(summaries[0]["payments"])
    changed = differences(summaries[0], summaries[1])
    if as_json:
        spec = specs[0]
        studies = [
            _study_data(s, r, summary, kept if keep else None)
            for s, (_, r), summary, (_, kept) in zip(
                specs, rulesets, summaries, played, strict=True
            )
        ]
        echo_json(
            {
                "seed": spec.seed, "bots": list(spec.bots), "hands": spec.hands, "players": names,
                "a": studies[0], "b": studies[1], "differences": changed,
            }
        )  # fmt: skip
        return
    echo(
        say.ngettext(
            "'{a}' (A) against '{b}' (B): the same deal (seed {seed}, {who})",
            "'{a}' (A) against '{b}' (B): the same {n} deals (seed {seed}, {who})",
            specs[0].hands,
            a=first.name,
            b=second.name,
            seed=specs[0].seed,
            who=who,
        )
    )
    dealt = [summary["hands"] for summary in summaries]
    if dealt[0] != dealt[1]:  # one ruleset (or both) deals again where nobody bids
        echo(
            say._(
                "Hands dealt, redeals included: A {a}, B {b}",
                a=dealt[0],
                b=dealt[1],
            )
        )
    show_comparison(summaries[0], summaries[1], names, changed, say)
