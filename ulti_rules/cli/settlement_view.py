"""How a settlement is shown: its tables, its JSON, and the words for a hand nobody bid.

Shared by `ulti score`, `ulti ledger`, `ulti replay` and `ulti simulate`, so that no
command module imports another (each command's module is imported only when it runs).
"""

from __future__ import annotations

import contextlib
from typing import Any

from rich.table import Table
from rich.text import Text

from ..plugins import get_registry
from ..ruleset.ladder import bid_trump
from ..ruleset.schema import Ruleset
from ..scoring.all_pass import all_pass_payments, redealt
from ..scoring.settlement import Settlement, SettlementLine


def signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else str(amount)


def all_pass_text(ruleset: Ruleset, dealer: int, names: list[str]) -> str:
    """What ``auction.all_pass`` makes of a hand nobody bid, in words: ``Carla deals
    again``, ``nobody pays``, ``Ben (forehand) pays 2 each to Anna and Carla``. Such a
    hand has no settlement; `ulti simulate` and `ulti replay` say this instead."""
    if redealt(ruleset):
        return f"{names[dealer]} deals again"
    payments = all_pass_payments(ruleset, dealer)
    paid = {seat: amount for seat, amount in payments.items() if amount > 0}
    payer = next((seat for seat, amount in payments.items() if amount < 0), None)
    if payer is None or not paid:
        return "nobody pays"
    to = " and ".join(names[seat] for seat in paid)
    return f"{names[payer]} (forehand) pays {max(paid.values())} each to {to}"


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


def _result(line: SettlementLine) -> str:
    word = "made" if line.made else "failed"
    if line.source == "give_up":
        return "gave up"
    return f"{word} by the defenders" if line.by == "defenders" else word


def line_cells(line: SettlementLine, names: list[str]) -> list[str]:
    """One settlement line as table cells (shared with `ulti ledger show`)."""
    base = str(line.base)
    if line.value != line.base * line.red:
        base += f" (red {line.value})"
    kontra = f"×{line.kontra}" if line.kontra is not None else _per_seat(line, names, "kontra")
    if line.penalty is None:
        penalty = _per_seat(line, names, "penalty")
    else:
        penalty = str(line.penalty) if line.penalty else ""
    amount = _amounts(line, names)
    what = line.name + (f" (×{line.multiplier})" if line.multiplier != 1 else "")
    if line.note:
        what += f" — {line.note}"
    return [what, _result(line), base, f"×{line.red}", kontra, penalty, amount]


def _trump_text(settlement: Settlement, ruleset: Ruleset | None) -> str:
    """The trump suit; for none, whether the bid has no trumps or none was named
    (a Simple given up, or lost uncontested, before trump was named)."""
    if settlement.trump is not None:
        return settlement.trump
    if ruleset is not None:
        with contextlib.suppress(KeyError):
            if bid_trump(ruleset, ruleset.bid(settlement.bid), get_registry()) != "none":
                return "trump not named"
    return "no trump"


def settlement_tables(
    settlement: Settlement, names: list[str], ruleset: Ruleset | None = None
) -> tuple[Text, Table, Table]:
    """The heading line, the settlement lines and the payments, ready to print.

    The heading is a line of its own, not the table's title, so that a long bid name
    is never wrapped to the width of a narrow table.
    """
    heading = Text(
        f"{settlement.bid_name} ({settlement.bid}), {_trump_text(settlement, ruleset)}: "
        f"{names[settlement.declarer]} declares [{settlement.ruleset}]"
    )
    lines = Table()
    for header in ("Line", "Result", "Base", "Red", "Kontra", "Penalty", "Per defender"):
        lines.add_column(header, justify="right" if header not in ("Line", "Result") else "left")
    for line in settlement.lines:
        lines.add_row(*(Text(cell) for cell in line_cells(line, names)))
    payments = Table(title="Payments", title_justify="left")
    payments.add_column("Player")
    payments.add_column("Role")
    payments.add_column("Result", justify="right")
    for seat, amount in settlement.payments.items():
        if seat == settlement.declarer:
            role = "declarer"
        elif seat in settlement.defenders:
            role = "defender" if seat != settlement.sitting_out else "dealer, sits out and pays"
        else:
            role = "dealer, sits out"
        payments.add_row(Text(names[seat]), Text(role), Text(signed(amount)))
    return heading, lines, payments


def settlement_json(settlement: Settlement, names: list[str]) -> dict[str, Any]:
    return {
        "players": names,
        "payments": {names[seat]: amount for seat, amount in settlement.payments.items()},
        "settlement": settlement.to_dict(),
    }
