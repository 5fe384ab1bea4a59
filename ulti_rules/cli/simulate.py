"""`ulti simulate`: bots play many seeded hands; every hand is settled and the totals kept.

One ``random.Random(seed)`` shuffles every deal (each hand gets the next seed from
it) and makes every bot decision, so the same command prints the same hands and
totals. The deal passes to the right after every hand, as at a table, except after a
hand everybody passed under ``auction.all_pass: redeal`` (the same dealer deals again,
as the session ledger counts it); a passed-out hand costs what ``auction.all_pass``
says (``scoring/all_pass.py``). The speed line measures playing and settling only (not
printing or saving records).
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any, Literal

import click
from rich.table import Table
from rich.text import Text

from ..bots import bot as make_bot
from ..bots import bot_clashes, play_out
from ..engine import Hand
from ..facts import Contract
from ..game.seating import direction_step
from ..records import record_of, save
from ..ruleset.loading import content_hash, load_ruleset
from ..scoring.all_pass import all_pass_payments, redealt
from ..scoring.settlement import settle_payments
from ..scoring.table_facts import ruleset_location
from .common import echo_json, fail, stdout_console
from .settlement_view import all_pass_text, signed
from .terminal import echo


def _describe(hand: Hand, names: list[str], read_bid: dict[str, str]) -> str:
    contract = hand.contract
    if contract is None:
        return f"passed out: nobody bid, {all_pass_text(hand.ruleset, hand.dealer, names)}"
    trump = contract.trump or "no trump"
    who = names[contract.declarer]
    text = f"{who} declares {read_bid.get(contract.bid, contract.bid)}, {trump}"
    if contract.gave_up:
        text += ", gave up"
    elif hand.facts is None:
        text += ", not played (uncontested)"
    return text


def _hand_payments(
    hand: Hand, names: list[str], contract: Contract | Literal[False] | None = False
) -> dict[str, int]:
    """Per player, what the hand won or lost: its settlement, or what a hand nobody bid
    costs (``auction.all_pass``). ``contract``: the hand's, where the caller has it."""
    if contract is False:
        contract = hand.contract
    if contract is None:
        seats = all_pass_payments(hand.ruleset, hand.dealer)
    else:
        seats = settle_payments(hand.game, contract, hand.facts, trusted=True)
    payments = dict.fromkeys(names, 0)
    for seat, amount in seats.items():
        payments[names[seat]] = amount
    return payments


def _dangling(folder: Path) -> Path | None:
    """The folder, or the first of its parents, that is a symlink to nothing."""
    for path in (folder, *folder.parents):
        if path.is_symlink() and not path.exists():
            return path
    return None


def _records_folder(records_dir: str) -> Path:
    """The folder to save records in, made if need be; a clear error where it cannot be."""
    folder = Path(records_dir)
    dangling = _dangling(folder)
    if dangling is not None:
        target = os.readlink(dangling)
        fail(
            f"{dangling} is a dangling symlink (it points to {target}, where nothing is): "
            "remove it, create its target, or choose another folder"
        )
    if folder.exists() and not folder.is_dir():
        fail(f"{records_dir} is not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _amounts(values: dict[str, int]) -> str:
    return "  ".join(f"{name} {signed(amount)}" for name, amount in values.items())


def _record_name(number: int, width: int) -> str:
    return f"hand-{number:0{width}d}.yaml"


def _refuse_taken(folder: Path, names: list[str]) -> None:
    """Refuse, before any hand is played, to overwrite records (or follow symlinks)
    already in the folder."""
    with os.scandir(folder) as entries:
        present = {entry.name for entry in entries}
    taken = [name for name in names if name in present]
    if taken:
        more = f" and {len(taken) - 1} more" if len(taken) > 1 else ""
        fail(
            f"{folder / taken[0]}{more} already exist{'s' if not more else ''}; records are "
            "not overwritten: choose another folder, or replace them with --force"
        )


@click.command("simulate", short_help="Bots play seeded hands; settle and total them.")
@click.argument("ruleset_ref", metavar="[RULESET]", default="wikipedia", required=False)
@click.option(
    "--hands", "count", type=click.IntRange(min=1), default=100, show_default=True,
    help="How many hands to play.",
)  # fmt: skip
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed of the deals and the bots."
)
@click.option(
    "--bot", "bot_name", default="simple", show_default=True,
    help="The bot in every seat: 'simple' (low bids, random cards), 'random', or a plugin's.",
)  # fmt: skip
@click.option(
    "--save-records", "records_dir", metavar="DIR",
    help="Save each hand's record as DIR/hand-0001.yaml, ... (see docs/records.md). "
    "Records already there are kept: the run is refused unless --force.",
)  # fmt: skip
@click.option(
    "--force", is_flag=True,
    help="With --save-records: replace records already in DIR (a symlink is replaced, "
    "never written through).",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="Only the totals, no line per hand.")
def simulate_command(
    ruleset_ref: str,
    count: int,
    seed: int,
    bot_name: str,
    records_dir: str | None,
    force: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """Let bots play N seeded hands of RULESET (default: wikipedia) and settle each one.

    Prints one line per hand with its result and the running totals per seat, then
    the totals and the speed. The same command prints the same hands and totals.
    """
    ref = str(ruleset_location(ruleset_ref, Path.cwd()))
    ruleset = load_ruleset(ref)
    bot = make_bot(bot_name)
    for clash in bot_clashes():
        echo(f"ulti: warning: {clash}", err=True)
    players = ruleset.players.count
    names = [f"P{i + 1}" for i in range(players)]
    width = max(4, len(str(count)))
    folder = _records_folder(records_dir) if records_dir is not None else None
    if folder is not None and not force:
        _refuse_taken(folder, [_record_name(n, width) for n in range(1, count + 1)])
    ruleset_hash = content_hash(ruleset)
    read_bid = {bid.id: f"{bid.names.en} ({bid.id})" for bid in ruleset.ladder}
    step = direction_step(ruleset)
    rng = random.Random(seed)
    totals = dict.fromkeys(names, 0)
    bids: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    results: list[dict[str, Any]] = []
    busy = 0.0
    next_dealer = 0
    for number in range(1, count + 1):
        dealer = next_dealer
        deal_seed = rng.getrandbits(32)
        start = time.perf_counter()
        hand = play_out(Hand(ruleset, seed=deal_seed, dealer=dealer), bot, rng)
        contract = hand.contract
        payments = _hand_payments(hand, names, contract)
        busy += time.perf_counter() - start
        if contract is not None or not redealt(ruleset):
            next_dealer = (dealer + step) % players
        for name, amount in payments.items():
            totals[name] += amount
        if contract is None:
            outcomes["passed out"] += 1
        else:
            bids[contract.bid] += 1
            outcomes[
                "given up" if contract.gave_up else "played" if hand.facts else "not played"
            ] += 1
        if folder is not None:
            record = record_of(hand, ref, players=names, ruleset_hash=ruleset_hash)
            save(record, folder / _record_name(number, width), overwrite=force)
        if as_json:
            results.append(
                {
                    "hand": number,
                    "seed": deal_seed,
                    "dealer": names[dealer],
                    "declarer": names[contract.declarer] if contract else None,
                    "bid": contract.bid if contract else None,
                    "payments": payments,
                }
            )
        elif not quiet:
            echo(
                f"{number:>{width}}  {names[dealer]} deals; {_describe(hand, names, read_bid)}: "
                f"{_amounts(payments)}  | totals {_amounts(totals)}"
            )
    speed = count / busy if busy > 0 else float("inf")
    if as_json:
        data = {
            "ruleset": ruleset.name,
            "ruleset_hash": ruleset_hash,
            "seed": seed,
            "bot": bot_name,
            "hands": count,
            "players": names,
            "outcomes": dict(sorted(outcomes.items())),
            "bids": dict(bids.most_common()),
            "totals": totals,
            "results": results,
            "seconds": round(busy, 6),
            "hands_per_second": round(speed, 1),
        }
        echo_json(data)
        return
    echo(f"Totals after {count} hands of '{ruleset.name}' (seed {seed}, bot {bot_name}):")
    table = Table()
    for name in names:
        table.add_column(name, justify="right")
    table.add_row(*(Text(signed(totals[n])) for n in names))
    stdout_console().print(table)
    counted = ", ".join(f"{n} {what}" for what, n in sorted(outcomes.items()))
    echo(f"Hands: {counted}")
    common = ", ".join(f"{read_bid.get(b, b)} {n}" for b, n in bids.most_common(5))
    if common:
        echo(f"Most bid: {common}")
    if folder is not None:
        last = f" ... {_record_name(count, width)}" if count > 1 else ""
        echo(f"Records: {folder / _record_name(1, width)}{last}")
    echo(f"Speed: {speed:,.0f} hands/s (playing and settling, {busy:.2f} s)")
