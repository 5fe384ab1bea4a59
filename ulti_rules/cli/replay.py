"""`ulti replay FILE`: check a hand record by playing it again, and print it for a person.

Every action goes through the rules again (see ``ulti_rules.records``); a tampered
record stops at the first action the rules refuse, named by its index, with exit
status 1. A good record prints as the table saw it: the deal, the auction, trump,
marriages and kontras, every trick, the facts and the settlement, in ``--lang``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.table import Table
from rich.text import Text

from ..cards import Faces, SuitId, format_card, format_cards
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
from ..engine.phase import Phase
from ..facts import Facts, FactValue
from ..i18n import N_
from ..plugins import Registry
from ..quoting import shorten
from ..records import HandRecord, load_record, replay, ruleset_of
from ..ruleset.loading import content_hash, load_ruleset
from ..ruleset.references import is_path
from ..ruleset.schema import Ruleset
from ..scoring.all_pass import all_pass_payments
from .common import note, stdout_console
from .completion import complete_ruleset
from .language import command_lang, lang_option
from .session_words import YOU, is_you
from .settlement_view import all_pass_text, settlement_tables, signed
from .speech import Speech
from .terminal import echo


class Reader:
    """Words for one hand: seat names, cards in the chosen faces, bids, suits, kontras,
    and the sentences around them, in ``--lang`` (``speech.py``).

    The person at `ulti play`'s table (``You``, ``Te`` or ``Du`` in the record) is
    named as the replay's language names him, and his sentences are his own: "You
    pass", not "You passes"."""

    def __init__(
        self, ruleset: Ruleset, names: list[str], faces: Faces, speech: Speech | None = None
    ) -> None:
        self.ruleset = ruleset
        self.say = speech or Speech()
        self._ = self.say._
        self.you = [is_you(name) for name in names]
        self.names = [
            self._(YOU) if you else name for name, you in zip(names, self.you, strict=True)
        ]
        self.faces = faces

    def said(self, seat: int, yours: str, theirs: str, **values: Any) -> str:
        """``yours`` of the person (``You pass``), else ``theirs`` with the seat's
        ``{name}`` (``{name} passes``)."""
        if self.you[seat]:
            return self._(yours, **values)
        return self._(theirs, name=self.names[seat], **values)

    def card(self, card: int) -> str:
        return format_card(card, self.faces, symbols=self.faces == "fr")

    def cards(self, cards: tuple[int, ...] | list[int]) -> str:
        return format_cards(cards, self.faces, symbols=self.faces == "fr") or "-"

    def suit(self, suit: SuitId) -> str:
        return self.say.suit(suit, self.faces)

    def bid(self, bid_id: str) -> str:
        return self.say.bid_text(self.ruleset, bid_id)

    def component(self, cid: str) -> str:
        return self.say.contract(self.ruleset, cid)

    def level(self, level: int) -> str:
        return self.say.level(self.ruleset, level)

    def kontra(self, action: Kontra) -> str:
        """``Rekontra on Simple, Ulti`` (``against Ben``, ``against You``)."""
        _ = self._
        comps = ", ".join(self.component(c) for c in action.components)
        level = self.level(action.level)
        if action.against is None:
            return _("{level} on {components}", level=level, components=comps)
        if self.you[action.against]:
            return _("{level} on {components} against You", level=level, components=comps)
        return _(
            "{level} on {components} against {other}",
            level=level,
            components=comps,
            other=self.names[action.against],
        )

    def action(self, seat: int, action: Action) -> str:
        """What a seat did, in a sentence that names the seat."""
        said = self.said
        if isinstance(action, Bid):
            bid = self.bid(action.bid)
            if action.trump:
                return said(seat, N_("You bid {bid}, {suit} trump"),
                            N_("{name} bids {bid}, {suit} trump"),
                            bid=bid, suit=self.suit(action.trump))  # fmt: skip
            return said(seat, N_("You bid {bid}"), N_("{name} bids {bid}"), bid=bid)
        if isinstance(action, Pass):
            return said(seat, N_("You pass"), N_("{name} passes"))
        if isinstance(action, PickUp):
            return said(seat, N_("You pick up the talon"), N_("{name} picks up the talon"))
        if isinstance(action, Discard):
            return said(seat, N_("You discard {cards}"), N_("{name} discards {cards}"),
                        cards=self.cards(action.cards))  # fmt: skip
        if isinstance(action, DeclareTrump):
            return said(seat, N_("You name trump: {suit}"), N_("{name} names trump: {suit}"),
                        suit=self.suit(action.suit))  # fmt: skip
        if isinstance(action, Announce):
            return said(seat, N_("You announce the {suit} marriage"),
                        N_("{name} announces the {suit} marriage"),
                        suit=self.suit(action.suit))  # fmt: skip
        if isinstance(action, Kontra):
            if self.you[seat] or (action.against is not None and self.you[action.against]):
                kontra = self.kontra(action)
                return said(seat, N_("You call {kontra}"), N_("{name} calls {kontra}"),
                            kontra=kontra)  # fmt: skip
            words = {
                "name": self.names[seat],
                "level": self.level(action.level),
                "components": ", ".join(self.component(c) for c in action.components),
            }
            if action.against is None:
                return self._("{name} calls {level} on {components}", **words)
            other = self.names[action.against]
            return self._(
                "{name} calls {level} on {components} against {other}", other=other, **words
            )
        if isinstance(action, Play):
            return said(seat, N_("You play {card}"), N_("{name} plays {card}"),
                        card=self.card(action.card))  # fmt: skip
        if isinstance(action, GiveUp):
            return said(seat, N_("You give up"), N_("{name} gives up"))
        return f"{self.names[seat]} {action}"


def _echo_header(
    record: HandRecord, path: str, ruleset: Ruleset, named: str, hash_ok: bool, read: Reader
) -> None:
    """The record's file, the ruleset it was replayed under (``named``: as the record or
    ``--ruleset`` names it), whether its hash matches, the dealer and the seed."""
    _ = read._
    echo(_("Hand record {path} ({format})", path=path, format=record.format))
    echo(_("Ruleset: {name} — {title}", name=named, title=ruleset.title_in(read.say.lang)))
    verdict = _("matches the ruleset") if hash_ok else _("DIFFERS from the ruleset (--ignore-hash)")
    echo(_("Content hash: {hash} ({verdict})", hash=record.ruleset_hash, verdict=verdict))
    dealer, seat = read.names[record.dealer], record.dealer
    if record.seed is not None:
        echo(
            _(
                "Dealer: {name} (seat {seat}); seed {seed}",
                name=dealer,
                seat=seat,
                seed=repr(record.seed),
            )
        )
    else:
        echo(_("Dealer: {name} (seat {seat}); a given deal (no seed)", name=dealer, seat=seat))


def _hand_cards(hand: Hand, cards: tuple[int, ...], read: Reader) -> str:
    """A dealt hand, sorted; a two-round deal shows its round-1 cards apart."""
    if not cards:
        return read._("(no cards)")
    two_round = hand.ruleset.auction.two_round
    if two_round is None:
        return read.cards(sorted(cards))
    first = two_round.first_round_cards
    return f"{read.cards(sorted(cards[:first]))} | {read.cards(sorted(cards[first:]))}"


def _echo_deal(hand: Hand, read: Reader) -> None:
    _ = read._
    echo("")
    echo(_("Deal"))
    width = max(len(n) for n in read.names)
    for seat, cards in enumerate(hand.deal.hands):
        roles = [_("seat {seat}", seat=seat)]
        if seat == hand.dealer:
            roles.append(_("dealer"))
        if seat == hand.seats.forehand:
            roles.append(_("forehand"))
        if seat == hand.seats.sitting_out:
            roles.append(_("sits out"))
        shown = _hand_cards(hand, cards, read)
        echo(f"  {read.names[seat]:<{width}}  {shown}   [{', '.join(roles)}]")
    if hand.deal.rest:
        if hand.ruleset.auction.two_round is not None:
            label = _("extra cards for the round-1 winner")
        elif hand.ruleset.deal.talon == "none":
            label = _("out of play")
        else:
            label = _("talon")
        echo(f"  {label}: {read.cards(sorted(hand.deal.rest))}")


def _echo_calls(
    record: HandRecord, phases: list[tuple[Phase, int]], read: Reader, wanted: tuple[Phase, ...]
) -> None:
    for index, ((seat, action), (phase, _)) in enumerate(zip(record.actions, phases, strict=True)):
        if phase in wanted:
            echo(f"  {index:>3}  {read.action(seat, action)}")


def _echo_passed_out(hand: Hand, read: Reader) -> None:
    """A hand nobody bid: no contract to settle, only what ``auction.all_pass`` says
    (the amounts `ulti ledger add` enters for this record)."""
    ruleset, _ = hand.ruleset, read._
    echo(
        _(
            "Nobody bid (auction.all_pass: {rule}): {what}.",
            rule=ruleset.auction.all_pass,
            what=all_pass_text(ruleset, hand.dealer, read.names, read.say),
        )
    )
    payments = all_pass_payments(ruleset, hand.dealer)
    if not any(payments.values()):
        return
    table = Table(title=_("Payments"), title_justify="left")
    table.add_column(_("Player"))
    table.add_column(_("Result"), justify="right")
    for seat, amount in payments.items():
        table.add_row(Text(read.names[seat]), Text(signed(amount)))
    stdout_console().print(table)


def _echo_contract(hand: Hand, read: Reader) -> None:
    contract, _ = hand.contract, read._
    echo("")
    if contract is None:
        _echo_passed_out(hand, read)
        return
    info = hand.bid_info
    trump = (
        read.suit(contract.trump)
        if contract.trump
        else _("no trump")
        if info is not None and info.trump == "none"
        else _("trump not named")  # a trump bid given up or left unplayed
    )
    extras = []
    if contract.multiplier != 1:
        extras.append(_("round-1 bid ×{multiplier}", multiplier=contract.multiplier))
    if contract.uncontested:
        extras.append(_("uncontested"))
    if contract.gave_up:
        extras.append(_("given up"))
    elif hand.facts is None:
        extras.append(_("not played"))
    more = f" [{', '.join(extras)}]" if extras else ""
    said = read.said(
        contract.declarer,
        N_("Contract: {bid} by You, {trump}"),
        N_("Contract: {bid} by {name}, {trump}"),
        bid=read.bid(contract.bid),
        trump=trump,
    )
    echo(said + more)
    echo(_("Final talon: {cards}", cards=read.cards(hand.talon)))


def _echo_marriages_and_kontras(
    record: HandRecord, phases: list[tuple[Phase, int]], hand: Hand, read: Reader
) -> None:
    _ = read._
    marriages = hand.marriages
    if marriages:
        listed = "; ".join(
            f"{read.names[seat]}: {read.suit(suit)} ({value})" for seat, suit, value in marriages
        )
        echo(_("Marriages: {listed}", listed=listed))
    else:
        echo(_("Marriages: none announced"))
    calls = [
        (index, seat, action, tricks)
        for index, ((seat, action), (__, tricks)) in enumerate(
            zip(record.actions, phases, strict=True)
        )
        if isinstance(action, Kontra)
    ]
    if not calls:
        echo(_("Kontras: none"))
        return
    echo(_("Kontras:"))
    for index, seat, action, tricks in calls:
        when = _("at the first trick") if tricks == 0 else _("after the first trick")
        echo(f"  {index:>3}  {read.action(seat, action)} ({when})")
    contract = hand.contract
    assert contract is not None
    for cid, per_seat in contract.kontra.items():
        standing = {s: v for s, v in per_seat.items() if v}
        if standing:
            levels = ", ".join(f"{read.names[s]} {read.level(v)}" for s, v in standing.items())
            echo(
                "  "
                + _("{component} stands at: {levels}", component=read.component(cid), levels=levels)
            )


def _echo_tricks(hand: Hand, read: Reader) -> None:
    tricks = hand.tricks
    if not tricks:
        return
    echo("")
    echo(read._("Tricks"))
    for number, (leader, cards, winner) in enumerate(tricks, start=1):
        seat = leader
        played = []
        for card in cards:
            played.append(f"{read.names[seat]} {read.card(card)}")
            seat = hand.seats.next(seat)
        leads = read.said(leader, N_("You lead"), N_("{name} leads"))
        echo(f"  {number:>2}. {leads}: {', '.join(played)}  -> {read.names[winner]}")


def _echo_facts(facts: Facts, read: Reader, registry: Registry) -> None:
    names, _ = read.names, read._
    echo("")
    echo(_("Facts"))
    echo(
        "  "
        + _(
            "Card points: {name} (declarer) {points}, the defenders {defenders}, the talon {talon}",
            name=names[facts.declarer],
            points=facts.declarer_points,
            defenders=facts.defender_points,
            talon=facts.talon_points,
        )
    )
    if facts.card_points is not None:
        per_seat = ", ".join(f"{names[s]} {p}" for s, p in sorted(facts.card_points.items()))
        echo("  " + _("Per player (last trick included): {listed}", listed=per_seat))
    won = ", ".join(f"{names[s]} {n}" for s, n in sorted(facts.tricks_won.items()))
    echo("  " + _("Tricks won: {listed}", listed=won))
    echo("  " + _("Last trick: {name}", name=names[facts.last_trick_winner]))
    if facts.trump_seven_last_trick is not None:
        said = read.said(
            facts.trump_seven_last_trick,
            N_("Trump 7 in the last trick: played by You"),
            N_("Trump 7 in the last trick: played by {name}"),
        )
        echo(f"  {said}")
    if facts.trump_seven_early is not None:
        said = read.said(
            facts.trump_seven_early,
            N_("Trump 7 played before the last trick by You"),
            N_("Trump 7 played before the last trick by {name}"),
        )
        echo(f"  {said}")
    declared = registry.facts
    for name, value in facts.extra.items():
        spec = declared.get(name)
        if spec is not None:
            said = read._(spec.description)  # the plugin's words, in the catalogues (N_)
            what = said[:1].upper() + said[1:]
            echo(f"  {what}: {_shown(spec, value, read)}")


def _shown(spec: FactSpec[Any], value: FactValue, read: Reader) -> str:
    """A declared fact for a person: seats as names (``nobody`` for none), yes or no."""
    if spec.form is PLAYERS and isinstance(value, tuple):
        return ", ".join(read.names[s] for s in value) or read._("nobody")
    if spec.form is PLAYER:
        return read.names[value] if isinstance(value, int) else read._("nobody")
    if isinstance(value, bool):
        return read._("yes") if value else read._("no")
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
    shell_complete=complete_ruleset,
    help="Replay under this ruleset instead of the one the record names.",
)
@click.option(
    "--ignore-hash",
    is_flag=True,
    help="Replay even if the ruleset's content changed since the hand was recorded.",
)
@lang_option("Language of the replay (names and words).")
def replay_command(
    file: str, faces: str, ruleset_ref: str | None, ignore_hash: bool, lang: str | None
) -> None:
    """Replay a hand record through the rules and print it trick by trick.

    FILE is a record saved by `ulti simulate --save-records` or by
    ulti_rules.records.save (see docs/records.md). A record the rules refuse is
    reported with the index of its first bad action, and exit status 1.
    """
    speech = Speech(command_lang(lang))
    path = Path(file)
    record = load_record(path)
    ruleset = (
        load_ruleset(ruleset_ref) if ruleset_ref is not None else ruleset_of(record, path.parent)
    )
    hash_ok = content_hash(ruleset) == record.ruleset_hash
    phases: list[tuple[Phase, int]] = []  # the phase and finished tricks before each action
    hand = replay(
        record,
        ruleset,
        check_hash=not ignore_hash,
        before_each=lambda now: phases.append((now.phase, len(now.tricks))),
    )
    if not hash_ok and not is_path(record.ruleset) and ruleset.name != record.ruleset:
        note(
            f"{file}: replayed under '{ruleset.name}', whose rules are not those of "
            f"'{shorten(record.ruleset)}', which the record names"
        )
    elif not hash_ok:
        note(f"{file}: the ruleset changed since this hand was recorded; replayed as it is now")
    read = Reader(ruleset, record.players, "fr" if faces == "fr" else "hu", speech)
    # the ruleset replayed under: the record's as it names it, else the one --ruleset gave
    named = record.ruleset if ruleset_ref is None else ruleset.name
    _echo_header(record, file, ruleset, named, hash_ok, read)
    _echo_deal(hand, read)
    echo("")
    echo(speech._("Auction"))
    _echo_calls(record, phases, read, (Phase.AUCTION,))
    _echo_calls(record, phases, read, (Phase.TRUMP,))
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
    for table in settlement_tables(settlement, read.names, ruleset, speech):
        console.print(table)
