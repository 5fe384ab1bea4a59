"""`ulti replay FILE`: check a hand record by playing it again, and print it for a person.

Every action goes through the rules again (see ``ulti_rules.records``); a tampered
record stops at the first action the rules refuse, named by its index, with exit
status 1. A good record prints as the table saw it: the deal, the auction, trump,
marriages and kontras, every trick, the facts and the settlement.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.table import Table
from rich.text import Text

from ..cards import Faces, SuitId, format_card, format_cards, suit_label, suit_number
from ..contracts.fact_specs import PLAYER, PLAYERS, FactSpec
from ..engine import (
    Action,
    Announce,
    Bid,
    DeclareTrump,
    Discard,
    GiveUp,
    Hand,
    Kontra,
    Pass,
    PickUp,
    Play,
)
from ..facts import Facts, FactValue
from ..plugins import Registry
from ..records import HandRecord, load_record, replay, ruleset_of
from ..ruleset.loading import content_hash, load_ruleset
from ..ruleset.schema import Ruleset
from ..scoring.all_pass import all_pass_payments
from .common import bid_text, note, stdout_console
from .settlement_view import all_pass_text, settlement_tables, signed
from .terminal import echo


class Reader:
    """Words for one hand: seat names, cards in the chosen faces, bids, suits, kontras."""

    def __init__(self, ruleset: Ruleset, names: list[str], faces: Faces) -> None:
        self.ruleset = ruleset
        self.names = names
        self.faces = faces

    def card(self, card: int) -> str:
        return format_card(card, self.faces, symbols=self.faces == "fr")

    def cards(self, cards: tuple[int, ...] | list[int]) -> str:
        return format_cards(cards, self.faces, symbols=self.faces == "fr") or "-"

    def suit(self, suit: SuitId) -> str:
        return suit_label(suit_number(suit), self.faces)

    def bid(self, bid_id: str) -> str:
        return bid_text(self.ruleset, bid_id)

    def component(self, cid: str) -> str:
        spec = self.ruleset.contracts.get(cid)
        return spec.names.en if spec is not None else cid

    def level(self, level: int) -> str:
        levels = self.ruleset.kontra.levels
        return levels[level - 1].names.en if level <= len(levels) else f"kontra level {level}"

    def action(self, action: Action) -> str:
        """What a seat did, in words (the seat's name goes in front)."""
        if isinstance(action, Bid):
            trump = f", {self.suit(action.trump)} trump" if action.trump else ""
            return f"bids {self.bid(action.bid)}{trump}"
        if isinstance(action, Pass):
            return "passes"
        if isinstance(action, PickUp):
            return "picks up the talon"
        if isinstance(action, Discard):
            return f"discards {self.cards(action.cards)}"
        if isinstance(action, DeclareTrump):
            return f"names trump: {self.suit(action.suit)}"
        if isinstance(action, Announce):
            return f"announces the {self.suit(action.suit)} marriage"
        if isinstance(action, Kontra):
            comps = ", ".join(self.component(c) for c in action.components)
            against = "" if action.against is None else f" against {self.names[action.against]}"
            return f"calls {self.level(action.level)} on {comps}{against}"
        if isinstance(action, Play):
            return f"plays {self.card(action.card)}"
        if isinstance(action, GiveUp):
            return "gives up"
        return str(action)


def _echo_header(record: HandRecord, path: str, ruleset: Ruleset, hash_ok: bool) -> None:
    echo(f"Hand record {path} ({record.format})")
    echo(f"Ruleset: {record.ruleset} — {ruleset.title}")
    verdict = "matches the ruleset" if hash_ok else "DIFFERS from the ruleset (--ignore-hash)"
    echo(f"Content hash: {record.ruleset_hash} ({verdict})")
    seed = f"; seed {record.seed!r}" if record.seed is not None else "; a given deal (no seed)"
    echo(f"Dealer: {record.players[record.dealer]} (seat {record.dealer}){seed}")


def _hand_cards(hand: Hand, cards: tuple[int, ...], read: Reader) -> str:
    """A dealt hand, sorted; a two-round deal shows its round-1 cards apart."""
    if not cards:
        return "(no cards)"
    two_round = hand.ruleset.auction.two_round
    if two_round is None:
        return read.cards(sorted(cards))
    first = two_round.first_round_cards
    return f"{read.cards(sorted(cards[:first]))} | {read.cards(sorted(cards[first:]))}"


def _echo_deal(hand: Hand, read: Reader) -> None:
    echo("")
    echo("Deal")
    width = max(len(n) for n in read.names)
    for seat, cards in enumerate(hand.deal.hands):
        roles = [f"seat {seat}"]
        if seat == hand.dealer:
            roles.append("dealer")
        if seat == hand.seats.forehand:
            roles.append("forehand")
        if seat == hand.seats.sitting_out:
            roles.append("sits out")
        shown = _hand_cards(hand, cards, read)
        echo(f"  {read.names[seat]:<{width}}  {shown}   [{', '.join(roles)}]")
    if hand.deal.rest:
        if hand.ruleset.auction.two_round is not None:
            label = "extra cards for the round-1 winner"
        elif hand.ruleset.deal.talon == "none":
            label = "out of play"
        else:
            label = "talon"
        echo(f"  {label}: {read.cards(sorted(hand.deal.rest))}")


def _echo_calls(
    record: HandRecord, phases: list[tuple[str, int]], read: Reader, wanted: tuple[str, ...]
) -> None:
    for index, ((seat, action), (phase, _)) in enumerate(zip(record.actions, phases, strict=True)):
        if phase in wanted:
            echo(f"  {index:>3}  {read.names[seat]} {read.action(action)}")


def _echo_passed_out(hand: Hand, read: Reader) -> None:
    """A hand nobody bid: no contract to settle, only what ``auction.all_pass`` says
    (the amounts `ulti ledger add` enters for this record)."""
    ruleset = hand.ruleset
    echo(
        f"Nobody bid (auction.all_pass: {ruleset.auction.all_pass}): "
        f"{all_pass_text(ruleset, hand.dealer, read.names)}."
    )
    payments = all_pass_payments(ruleset, hand.dealer)
    if not any(payments.values()):
        return
    table = Table(title="Payments", title_justify="left")
    table.add_column("Player")
    table.add_column("Result", justify="right")
    for seat, amount in payments.items():
        table.add_row(Text(read.names[seat]), Text(signed(amount)))
    stdout_console().print(table)


def _echo_contract(hand: Hand, read: Reader) -> None:
    contract = hand.contract
    echo("")
    if contract is None:
        _echo_passed_out(hand, read)
        return
    trump = read.suit(contract.trump) if contract.trump else "no trump"
    extras = []
    if contract.multiplier != 1:
        extras.append(f"round-1 bid ×{contract.multiplier}")
    if contract.uncontested:
        extras.append("uncontested")
    if contract.gave_up:
        extras.append("given up")
    elif hand.facts is None:
        extras.append("not played")
    more = f" [{', '.join(extras)}]" if extras else ""
    echo(f"Contract: {read.bid(contract.bid)} by {read.names[contract.declarer]}, {trump}{more}")
    echo(f"Final talon: {read.cards(hand.talon)}")


def _echo_marriages_and_kontras(
    record: HandRecord, phases: list[tuple[str, int]], hand: Hand, read: Reader
) -> None:
    marriages = hand.marriages
    if marriages:
        listed = "; ".join(
            f"{read.names[seat]}: {read.suit(suit)} ({value})" for seat, suit, value in marriages
        )
        echo(f"Marriages: {listed}")
    else:
        echo("Marriages: none announced")
    calls = [
        (index, seat, action, tricks)
        for index, ((seat, action), (_, tricks)) in enumerate(
            zip(record.actions, phases, strict=True)
        )
        if isinstance(action, Kontra)
    ]
    if not calls:
        echo("Kontras: none")
        return
    echo("Kontras:")
    for index, seat, action, tricks in calls:
        when = "at the first trick" if tricks == 0 else "after the first trick"
        echo(f"  {index:>3}  {read.names[seat]} {read.action(action)} ({when})")
    contract = hand.contract
    assert contract is not None
    for cid, per_seat in contract.kontra.items():
        standing = {s: v for s, v in per_seat.items() if v}
        if standing:
            levels = ", ".join(f"{read.names[s]} {read.level(v)}" for s, v in standing.items())
            echo(f"  {read.component(cid)} stands at: {levels}")


def _echo_tricks(hand: Hand, read: Reader) -> None:
    tricks = hand.tricks
    if not tricks:
        return
    echo("")
    echo("Tricks")
    for number, (leader, cards, winner) in enumerate(tricks, start=1):
        seat = leader
        played = []
        for card in cards:
            played.append(f"{read.names[seat]} {read.card(card)}")
            seat = hand.seats.next(seat)
        echo(
            f"  {number:>2}. {read.names[leader]} leads: {', '.join(played)}"
            f"  -> {read.names[winner]}"
        )


def _echo_facts(facts: Facts, read: Reader, registry: Registry) -> None:
    names = read.names
    echo("")
    echo("Facts")
    declarer = names[facts.declarer]
    echo(
        f"  Card points: {declarer} (declarer) {facts.declarer_points}, "
        f"the defenders {facts.defender_points}, the talon {facts.talon_points}"
    )
    if facts.card_points is not None:
        per_seat = ", ".join(f"{names[s]} {p}" for s, p in sorted(facts.card_points.items()))
        echo(f"  Per player (last trick included): {per_seat}")
    won = ", ".join(f"{names[s]} {n}" for s, n in sorted(facts.tricks_won.items()))
    echo(f"  Tricks won: {won}")
    echo(f"  Last trick: {names[facts.last_trick_winner]}")
    if facts.trump_seven_last_trick is not None:
        echo(f"  Trump 7 in the last trick: played by {names[facts.trump_seven_last_trick]}")
    if facts.trump_seven_early is not None:
        echo(f"  Trump 7 played before the last trick by {names[facts.trump_seven_early]}")
    declared = registry.facts
    for name, value in facts.extra.items():
        spec = declared.get(name)
        if spec is not None:
            what = spec.description[:1].upper() + spec.description[1:]
            echo(f"  {what}: {_shown(spec, value, read)}")


def _shown(spec: FactSpec[Any], value: FactValue, read: Reader) -> str:
    """A declared fact for a person: seats as names (``nobody`` for none), yes or no."""
    if spec.form is PLAYERS and isinstance(value, tuple):
        return ", ".join(read.names[s] for s in value) or "nobody"
    if spec.form is PLAYER:
        return read.names[value] if isinstance(value, int) else "nobody"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@click.command("replay", short_help="Replay a hand record, print it trick by trick.")
@click.argument("file", metavar="FILE")
@click.option(
    "--faces",
    type=click.Choice(["hu", "fr"]),
    default="hu",
    show_default=True,
    help="Card faces: Hungarian (PVII) or French (7♥).",
)
@click.option(
    "--ruleset",
    "ruleset_ref",
    metavar="NAME|PATH",
    help="Replay under this ruleset instead of the one the record names.",
)
@click.option(
    "--ignore-hash",
    is_flag=True,
    help="Replay even if the ruleset's content changed since the hand was recorded.",
)
def replay_command(file: str, faces: str, ruleset_ref: str | None, ignore_hash: bool) -> None:
    """Replay a hand record through the rules and print it trick by trick.

    FILE is a record saved by `ulti simulate --save-records` or by
    ulti_rules.records.save (see docs/records.md). A record the rules refuse is
    reported with the index of its first bad action, and exit status 1.
    """
    path = Path(file)
    record = load_record(path)
    ruleset = (
        load_ruleset(ruleset_ref) if ruleset_ref is not None else ruleset_of(record, path.parent)
    )
    hash_ok = content_hash(ruleset) == record.ruleset_hash
    phases: list[tuple[str, int]] = []  # the phase and finished tricks before each action
    hand = replay(
        record,
        ruleset,
        check_hash=not ignore_hash,
        before_each=lambda now: phases.append((now.phase, len(now.tricks))),
    )
    if not hash_ok:
        note(f"{file}: the ruleset changed since this hand was recorded; replayed as it is now")
    read = Reader(ruleset, record.players, "fr" if faces == "fr" else "hu")
    _echo_header(record, file, ruleset, hash_ok)
    _echo_deal(hand, read)
    echo("")
    echo("Auction")
    _echo_calls(record, phases, read, ("auction",))
    _echo_calls(record, phases, read, ("trump",))
    _echo_contract(hand, read)
    contract = hand.contract
    if contract is None:
        return
    _echo_marriages_and_kontras(record, phases, hand, read)
    _echo_tricks(hand, read)
    facts = hand.facts
    if facts is not None:
        _echo_facts(facts, read, hand.registry)
    echo("")
    console = stdout_console()
    settlement = hand.game.settle(contract, facts, trusted=True)  # the replayed hand's facts
    for table in settlement_tables(settlement, read.names, ruleset):
        console.print(table)
