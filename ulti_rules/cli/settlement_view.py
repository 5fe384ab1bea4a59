"""How a settlement is shown: its tables, its JSON, and the words for a hand nobody bid.

Shared by `ulti score`, `ulti ledger`, `ulti replay`, `ulti simulate` and `ulti play`,
each in its ``--lang`` (``speech.py``), so that no command module imports another (each
command's module is imported only when it runs).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, JustifyMethod, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ..plugins import get_registry
from ..ruleset.ladder import bid_trump
from ..ruleset.schema import Ruleset
from ..scoring import notes
from ..scoring.all_pass import all_pass_payments, redealt
from ..scoring.settlement import Settlement, SettlementLine
from .session_words import is_you
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
        if is_you(names[dealer]):
            return say._("You deal again")
        return say._("{name} deals again", name=names[dealer])
    payments = all_pass_payments(ruleset, dealer)
    paid = {seat: amount for seat, amount in payments.items() if amount > 0}
    payer = next((seat for seat, amount in payments.items() if amount < 0), None)
    if payer is None or not paid:
        return say._("nobody pays")
    amount = max(paid.values())
    if is_you(names[payer]):
        to = say.join([names[seat] for seat in paid])
        return say._("You (forehand) pay {amount} each to {others}", amount=amount, others=to)
    others = [names[seat] for seat in paid if not is_you(names[seat])]
    if others and len(others) < len(paid):  # the person is paid too
        return say._(
            "{name} (forehand) pays {amount} each to You and {others}",
            name=names[payer],
            amount=amount,
            others=say.join(others),
        )
    return say._(
        "{name} (forehand) pays {amount} each to {others}",
        name=names[payer],
        amount=amount,
        others=say.join([names[seat] for seat in paid]),
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
) -> tuple[Text, FittedTable, FittedTable]:
    """The heading line, the settlement lines and the payments, ready to print, in
    ``speech``'s language (English by default).

    The heading is a line of its own, not the table's title, so that a long bid name
    is never wrapped to the width of a narrow table. The tables fit the width they are
    printed in (:class:`FittedTable`): on a narrow terminal no result or amount is cut.
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
    headers = (
        say._("Line"), say._("Result"), say._("Base"), say._("Red"), say._("Kontra"),
        say._("Penalty"), say._("Per defender"),
    )  # fmt: skip
    lines = FittedTable(
        headers,
        [line_cells(line, names, ruleset, say) for line in settlement.lines],
        right_from=2,
        keep=(0, 1, 6),  # the line, its result and its amount are never left out
        spare=(5, 4, 3, 2),  # on a narrow terminal: penalty, kontra, red, base, in turn
        widen=(6, 1, 0, 4, 5, 2, 3),
    )
    rows = []
    for seat, amount in settlement.payments.items():
        if seat == settlement.declarer:
            role = say._("declarer")
        elif seat in settlement.defenders:
            sits_out = seat == settlement.sitting_out
            role = say._("dealer, sits out and pays") if sits_out else say._("defender")
        else:
            role = say._("dealer, sits out")
        rows.append([names[seat], role, signed(amount)])
    payments = FittedTable(
        (say._("Player"), say._("Role"), say._("Result")),
        rows,
        right_from=2,
        keep=(0, 1, 2),
        widen=(2, 0, 1),
        title=say._("Payments"),
    )
    return heading, lines, payments


GLUED = tuple("0123456789+-−×(→—")
"""A word that begins so stays on the line of the word before it: ``Silent 100``,
``Anna +4``, ``Ulti (×2)``, ``Anna → Carla 2`` is never broken before a number."""


def _units(cell: str) -> list[str]:
    """The pieces a cell may be wrapped between: its words, each number glued to the
    word before it."""
    units: list[str] = []
    for word in cell.split():
        if units and word.startswith(GLUED):
            units[-1] += " " + word
        else:
            units.append(word)
    return units


def _wrapped(cell: str, width: int) -> str:
    """``cell`` in lines of ``width`` cells, broken only between units (:func:`_units`)."""
    lines: list[str] = []
    for unit in _units(cell):
        if lines and cell_len(lines[-1]) + 1 + cell_len(unit) <= width:
            lines[-1] += " " + unit
        else:
            lines.append(unit)
    return "\n".join(lines)


class FittedTable:
    """A table that fits the width it is printed in, without cutting a word.

    Where the whole table fits it is drawn as it always was. Where it does not, each
    column gets at least its longest unbreakable piece (a word, a number with the word
    before it, a header's word), and what is left goes to the columns in ``widen``
    order; where even that is too wide, columns that say nothing (all empty, or all
    ``×1``) are left out, then the edges are drawn closer, then the ``spare`` columns
    go one by one. The ``keep`` columns are always there, whole.
    """

    def __init__(
        self,
        headers: Sequence[str],
        rows: Sequence[Sequence[str]],
        right_from: int,
        keep: Sequence[int],
        widen: Sequence[int],
        spare: Sequence[int] = (),
        title: str | None = None,
    ) -> None:
        self.headers = list(headers)
        self.rows = [list(row) for row in rows]
        self.right_from = right_from
        self.keep = tuple(keep)
        self.widen = tuple(widen)
        self.spare = tuple(spare)
        self.title = title

    def _column(self, index: int) -> list[str]:
        return [row[index] for row in self.rows]

    def natural(self, index: int) -> int:
        return max(cell_len(text) for text in [self.headers[index], *self._column(index)])

    def least(self, index: int) -> int:
        words = self.headers[index].split() + [u for c in self._column(index) for u in _units(c)]
        return max((cell_len(w) for w in words), default=1)

    def table(
        self, columns: Sequence[int] = (), widths: Sequence[int] = (), edge: bool = True
    ) -> Table:
        """The table of ``columns`` (all by default), ``widths`` wide (natural by
        default), with or without its edges."""
        shown = list(columns) or list(range(len(self.headers)))
        table = Table(title=self.title, title_justify="left")
        if not edge:  # no frame: a rule under the headers, the columns a space apart
            table = Table(
                title=self.title,
                title_justify="left",
                box=box.SIMPLE_HEAVY,
                show_edge=False,
                pad_edge=False,
            )
        for place, index in enumerate(shown):
            width = widths[place] if widths else None
            justify: JustifyMethod = "right" if index >= self.right_from else "left"
            table.add_column(self.headers[index], justify=justify, width=width)
        for row in self.rows:
            cells = [
                row[i] if not widths else _wrapped(row[i], widths[p]) for p, i in enumerate(shown)
            ]
            table.add_row(*(Text(cell) for cell in cells))
        return table

    def _choices(self) -> list[tuple[list[int], bool]]:
        """The columns (and whether edges are drawn) to try, widest first."""
        every = list(range(len(self.headers)))
        silent = [
            i for i in every if i not in self.keep and all(c in ("", "×1") for c in self._column(i))
        ]
        empty = [i for i in silent if all(not c for c in self._column(i))]
        choices = [(every, True)]
        choices.append(([i for i in every if i not in empty], True))
        shown = [i for i in every if i not in silent]
        choices += [(shown, True), (shown, False)]
        for index in self.spare:
            shown = [i for i in shown if i != index]
            choices.append((shown, False))
        return choices

    def fitted(self, width: int) -> Table:
        """The table for ``width`` cells: as it is where it fits, else as described above."""
        every = range(len(self.headers))
        if sum(self.natural(i) for i in every) + _frame(len(self.headers), True) <= width:
            return self.table()
        for shown, edge in self._choices():
            least = {i: self.least(i) for i in shown}
            room = width - _frame(len(shown), edge) - sum(least.values())
            if room < 0:
                continue
            for index in self.widen:
                if index in least:
                    more = min(room, self.natural(index) - least[index])
                    least[index] += more
                    room -= more
            return self.table(shown, [least[i] for i in shown], edge)
        return self.table(list(self.keep), edge=False)  # narrower than anything: rich cuts

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.fitted(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        every = range(len(self.headers))
        frame = _frame(len(self.headers), True)
        natural = sum(self.natural(i) for i in every) + frame
        least = sum(self.least(i) for i in self.keep) + _frame(len(self.keep), False)
        return Measurement(min(least, natural), natural)


def _frame(columns: int, edge: bool) -> int:
    """The cells a table's borders and padding take: a border and a space either side of
    each column, less the outer border and padding without edges."""
    return 3 * columns + 1 if edge else 3 * columns - 3


def settlement_json(settlement: Settlement, names: list[str]) -> dict[str, Any]:
    """The settlement for programs: ids and the settlement's own (English) names, in
    every language (``--lang`` changes the words for people only)."""
    return {
        "players": names,
        "payments": {names[seat]: amount for seat, amount in settlement.payments.items()},
        "settlement": settlement.to_dict(),
    }
