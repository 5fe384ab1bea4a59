"""How a settlement is shown: its tables, its JSON, and the words for a hand nobody bid.

Shared by `ulti score`, `ulti ledger`, `ulti replay`, `ulti simulate` and `ulti play`,
each in its ``--lang`` (``speech.py``), so that no command module imports another (each
command's module is imported only when it runs).
"""

from __future__ import annotations

import contextlib
from typing import Any

from rich.table import Table
from rich.text import Text

from ..plugins import get_registry
from ..ruleset.ladder import bid_trump
from ..ruleset.schema import Ruleset
from ..scoring import notes
from ..scoring.all_pass import all_pass_payments, redealt
from ..scoring.settlement import Settlement, SettlementLine
from .speech import Speech


def signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else str(amount)


def all_pass_text(
    ruleset: Ruleset, dealer: int, names: list[str], speech: Speech | None = None
) -> str:
    """What ``auction.all_pass`` makes of a hand nobody bid, in words: ``Carla deals
    again``, ``nobody pays``, ``Ben (forehand) pays 2 each to Anna and Carla``. Such a
    hand has no settlement; `ulti simulate` and `ulti replay` say this instead."""
    say = speech or Speech()
    if redealt(ruleset):
        return say._("{name} deals again", name=names[dealer])
    payments = all_pass_payments(ruleset, dealer)
    paid = {seat: amount for seat, amount in payments.items() if amount > 0}
    payer = next((seat for seat, amount in payments.items() if amount < 0), None)
    if payer is None or not paid:
        return say._("nobody pays")
    to = say.join([names[seat] for seat in paid])
    return say._(
        "{name} (forehand) pays {amount} each to {others}",
        name=names[payer],
        amount=max(paid.values()),
        others=to,
    )


def _per_seat(line: SettlementLine, names: list[str], value: str) -> str:
    parts = []
    for share in line.shares:
        shown = {
            "amount": signed(share.amount),
            "kontra": f"×{share.kontra}",
            "penalty": str(share.penalty),
        }[value]
        parts.append(f"{names[share.seat]} {shown}")
    return ", ".join(parts)


def _amounts(line: SettlementLine, names: list[str]) -> str:
    """The Per defender cell: one amount for all, or each defender's. A bonus against
    everyone also moves money between the defenders: each transfer is shown as
    ``Anna → Carla 2``, in place of the ``Anna 0`` of the defender who settles nothing
    with the declarer on this line."""
    if not line.transfers:
        return signed(line.amount) if line.amount is not None else _per_seat(line, names, "amount")
    moving = {seat for t in line.transfers for seat in (t.payer, t.payee)}
    parts = [
        f"{names[share.seat]} {signed(share.amount)}"
        for share in line.shares
        if share.amount or share.seat not in moving
    ]
    parts += [f"{names[t.payer]} → {names[t.payee]} {t.amount}" for t in line.transfers]
    return ", ".join(parts)


def _result(line: SettlementLine, say: Speech) -> str:
    if line.source == "give_up":
        return say._("gave up")
    if line.by == "defenders":
        return say._("made by the defenders") if line.made else say._("failed by the defenders")
    return say._("made") if line.made else say._("failed")


def _note(note: str, ruleset: Ruleset | None, say: Speech) -> str:
    """The line's notes in ``say``'s language, read back by the sentences the settlement
    wrote them from (``scoring/notes.py``); a note not one of them (a plugin's) is shown
    as written."""
    if say.english or not note:
        return note
    english = {}
    if ruleset is not None:
        english = {b.names.en: b.names.get(say.lang) for b in ruleset.silent_bonuses.values()}
        english.update((c.names.en, c.names.get(say.lang)) for c in ruleset.contracts.values())
    said = []
    for sentence, values in notes.read(note):
        if sentence is None:
            said.append(values["text"])
        else:
            said.append(say._(sentence, **{k: english.get(v, v) for k, v in values.items()}))
    return notes.join(said)


def _line_name(line: SettlementLine, ruleset: Ruleset | None, say: Speech) -> str:
    """The line's name: the settlement's own (English), or the ruleset's in ``say``'s."""
    if say.english or ruleset is None:
        return line.name
    if line.source == "give_up":
        return say._("Give up")
    if line.source == "silent":
        return say.bonus(ruleset, line.what)
    return say.contract(ruleset, line.what)


def line_cells(
    line: SettlementLine,
    names: list[str],
    ruleset: Ruleset | None = None,
    speech: Speech | None = None,
) -> list[str]:
    """One settlement line as table cells (shared with `ulti ledger show`)."""
    say = speech or Speech()
    base = str(line.base)
    if line.value != line.base * line.red:
        base += say._(" (red {value})", value=line.value)
    kontra = f"×{line.kontra}" if line.kontra is not None else _per_seat(line, names, "kontra")
    if line.penalty is None:
        penalty = _per_seat(line, names, "penalty")
    else:
        penalty = str(line.penalty) if line.penalty else ""
    amount = _amounts(line, names)
    what = _line_name(line, ruleset, say)
    what += f" (×{line.multiplier})" if line.multiplier != 1 else ""
    if line.note:
        what += f" — {_note(line.note, ruleset, say)}"
    return [what, _result(line, say), base, f"×{line.red}", kontra, penalty, amount]


def _trump_text(settlement: Settlement, ruleset: Ruleset | None, say: Speech) -> str:
    """The trump suit; for none, whether the bid has no trumps or none was named
    (a Simple given up, or lost uncontested, before trump was named)."""
    if settlement.trump is not None:
        return say.suit(settlement.trump)
    if ruleset is not None:
        with contextlib.suppress(KeyError):
            if bid_trump(ruleset, ruleset.bid(settlement.bid), get_registry()) != "none":
                return say._("trump not named")
    return say._("no trump")


def settlement_tables(
    settlement: Settlement,
    names: list[str],
    ruleset: Ruleset | None = None,
    speech: Speech | None = None,
) -> tuple[Text, Table, Table]:
    """The heading line, the settlement lines and the payments, ready to print, in
    ``speech``'s language (English by default).

    The heading is a line of its own, not the table's title, so that a long bid name
    is never wrapped to the width of a narrow table.
    """
    say = speech or Speech()
    bid_name = settlement.bid_name
    if not say.english and ruleset is not None:
        bid_name = say.bid(ruleset, settlement.bid)
    heading = Text(
        say._(
            "{bid} ({bid_id}), {trump}: declarer {declarer} [{ruleset}]",
            bid=bid_name,
            bid_id=settlement.bid,
            trump=_trump_text(settlement, ruleset, say),
            declarer=names[settlement.declarer],
            ruleset=settlement.ruleset,
        )
    )
    lines = Table()
    headers = (
        say._("Line"), say._("Result"), say._("Base"), say._("Red"), say._("Kontra"),
        say._("Penalty"), say._("Per defender"),
    )  # fmt: skip
    for index, header in enumerate(headers):
        lines.add_column(header, justify="left" if index < 2 else "right")
    for line in settlement.lines:
        lines.add_row(*(Text(cell) for cell in line_cells(line, names, ruleset, say)))
    payments = Table(title=say._("Payments"), title_justify="left")
    payments.add_column(say._("Player"))
    payments.add_column(say._("Role"))
    payments.add_column(say._("Result"), justify="right")
    for seat, amount in settlement.payments.items():
        if seat == settlement.declarer:
            role = say._("declarer")
        elif seat in settlement.defenders:
            sits_out = seat == settlement.sitting_out
            role = say._("dealer, sits out and pays") if sits_out else say._("defender")
        else:
            role = say._("dealer, sits out")
        payments.add_row(Text(names[seat]), Text(role), Text(signed(amount)))
    return heading, lines, payments


def settlement_json(settlement: Settlement, names: list[str]) -> dict[str, Any]:
    """The settlement for programs: ids and the settlement's own (English) names, in
    every language (``--lang`` changes the words for people only)."""
    return {
        "players": names,
        "payments": {names[seat]: amount for seat, amount in settlement.payments.items()},
        "settlement": settlement.to_dict(),
    }
