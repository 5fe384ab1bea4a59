"""How `ulti simulate` shows a study: the summary's tables, and two summaries side by side.

Reads the plain summaries of ``ulti_rules.study`` (``Summary.to_dict``) only, so what
the tables show is what ``--json`` prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table

from ..i18n import N_
from ..study.runner import GIVEN_UP, NOT_PLAYED, PASSED_OUT, PLAYED
from .common import stdout_console
from .speech import Speech
from .terminal import echo

WORDS: dict[str, str] = {
    PLAYED: N_("played"),
    GIVEN_UP: N_("given up"),
    NOT_PLAYED: N_("not played"),
    PASSED_OUT: N_("passed out"),
    "none": N_("none"),
    "declarer": N_("declarer"),
    "defenders": N_("defenders"),
}
"""The summary's own words (outcomes, the sides of a silent bonus, no kontra), said in
the study's language; the names of bids and the rest come named from the summary."""


def _word(key: str, say: Speech) -> str:
    return say._(WORDS[key]) if key in WORDS else key


def percent(rate: float | None) -> str:
    return "–" if rate is None else f"{rate:.1%}"


def mean_text(mean: float | None, error: float | None = None) -> str:
    if mean is None:
        return "–"
    text = f"{mean:+.2f}" if mean else "0.00"
    return text if error is None else f"{text} ± {error:.2f}"


def change_text(change: float | None, *, rate: bool = False, digits: int = 2) -> str:
    """A difference B − A: signed, blank where there is none."""
    if change is None:
        return "–"
    if not change:
        return ""
    return f"{change:+.1%}" if rate else f"{change:+.{digits}f}" if digits else f"{change:+d}"


def _table(*columns: str, left: int = 1) -> Table:
    """A table whose first ``left`` columns are names, the others figures."""
    table = Table()
    for index, column in enumerate(columns):
        table.add_column(column, justify="left" if index < left else "right")
    return table


def _print(table: Table) -> None:
    stdout_console().print(table)


def show_summary(summary: dict[str, Any], names: Sequence[str], say: Speech) -> None:
    """The figures of one study, after the totals."""
    _ = say._
    hands = summary["hands"]
    counted = ", ".join(f"{n} {_word(what, say)}" for what, n in summary["outcomes"].items())
    echo(_("Hands: {counted}", counted=counted))
    payments = summary["payments"]
    means = "  ".join(
        f"{name} {mean_text(payments[name]['mean'], payments[name]['stderr'])}" for name in names
    )
    echo(_("Mean payment per hand (± standard error): {means}", means=means))
    if summary["bids"]:
        table = _table(_("Bid"), _("Won"), _("Share"), _("Made"), _("Made %"), _("Declarer's mean"))
        for bid, row in summary["bids"].items():
            table.add_row(
                f"{row['name']} ({bid})", str(row["won"]), percent(row["share"]),
                str(row["made"]), percent(row["made_rate"]), mean_text(row["declarer_mean"]),
            )  # fmt: skip
        heading = say.ngettext(
            "Bids: how often each won the auction ({n} hand) and was made",
            "Bids: how often each won the auction ({n} hands) and was made",
            hands,
        )
        echo(heading)
        _print(table)
    if summary["components"]:
        table = _table(_("Component"), _("Settled"), _("Made"), _("Made %"))
        for cid, row in summary["components"].items():
            table.add_row(
                f"{row['name']} ({cid})", str(row["settled"]), str(row["made"]),
                percent(row["made_rate"]),
            )  # fmt: skip
        echo(_("Components: how often each was made, where a hand was settled with it"))
        _print(table)
    if summary["kontra"]:
        levels = ", ".join(f"{_word(name, say)} {n}" for name, n in summary["kontra"].items())
        echo(_("Kontra, the highest level of each hand bid: {levels}", levels=levels))
    if summary["silent"]:
        table = _table(_("Silent bonus"), _("By"), _("Made"), _("Lost"), left=2)
        for row in summary["silent"]:
            by = _word(row["by"], say)
            table.add_row(f"{row['name']} ({row['id']})", by, str(row["made"]), str(row["lost"]))
        echo(_("Silent bonuses scored"))
        _print(table)
    else:
        echo(_("Silent bonuses scored: none"))


def _count_rows(table: Table, a: dict[str, int], b: dict[str, int], say: Speech) -> None:
    for key in dict.fromkeys([*a, *b]):
        x, y = a.get(key, 0), b.get(key, 0)
        table.add_row(_word(key, say), str(x), str(y), change_text(y - x, digits=0))


def _made_rates(
    x: dict[str, Any] | None, y: dict[str, Any] | None, key: str
) -> tuple[str, float | None, float | None, float | None]:
    """A bid's or component's row of both studies (None where one never saw it): its
    name, success rate in A and in B, and the change."""
    name = (x or y or {}).get("name", key)
    rate_a = x["made_rate"] if x else None
    rate_b = y["made_rate"] if y else None
    change = rate_b - rate_a if rate_a is not None and rate_b is not None else None
    return name, rate_a, rate_b, change


def show_comparison(
    a: dict[str, Any],
    b: dict[str, Any],
    names: Sequence[str],
    differences: dict[str, Any],
    say: Speech,
) -> None:
    """Two studies of the same deals, A and B, side by side with B − A."""
    _ = say._
    table = _table(_("Hands"), "A", "B", "B − A")
    _count_rows(table, a["outcomes"], b["outcomes"], say)
    _print(table)
    table = _table(_("Mean payment per hand"), "A", "B", "B − A")
    for name in names:
        x, y = a["payments"][name], b["payments"][name]
        table.add_row(
            name, mean_text(x["mean"], x["stderr"]), mean_text(y["mean"], y["stderr"]),
            change_text(round(y["mean"] - x["mean"], 4)),
        )  # fmt: skip
    _print(table)
    bids = list(dict.fromkeys([*a["bids"], *b["bids"]]))
    if bids:
        table = _table(_("Bid"), _("Won A"), _("Won B"), _("Made % A"), _("Made % B"), "B − A")
        for bid in bids:
            x, y = a["bids"].get(bid), b["bids"].get(bid)
            name, rate_a, rate_b, change = _made_rates(x, y, bid)
            table.add_row(
                f"{name} ({bid})", str(x["won"] if x else 0), str(y["won"] if y else 0),
                percent(rate_a), percent(rate_b), change_text(change, rate=True),
            )  # fmt: skip
        _print(table)
    comps = list(dict.fromkeys([*a["components"], *b["components"]]))
    if comps:
        table = _table(_("Component"), _("Made % A"), _("Made % B"), "B − A")
        for cid in comps:
            name, rate_a, rate_b, change = _made_rates(
                a["components"].get(cid), b["components"].get(cid), cid
            )
            table.add_row(
                f"{name} ({cid})", percent(rate_a), percent(rate_b),
                change_text(change, rate=True),
            )  # fmt: skip
        _print(table)
    table = _table(_("Highest kontra"), "A", "B", "B − A")
    _count_rows(table, a["kontra"], b["kontra"], say)
    _print(table)
    silent_a = {(r["name"], r["by"]): (r["made"], r["lost"]) for r in a["silent"]}
    silent_b = {(r["name"], r["by"]): (r["made"], r["lost"]) for r in b["silent"]}
    if silent_a or silent_b:
        table = _table(
            _("Silent bonus"), _("By"), _("Made A"), _("Made B"), _("Lost A"), _("Lost B"),
            left=2,
        )  # fmt: skip
        for name, side in dict.fromkeys([*silent_a, *silent_b]):
            made_a, lost_a = silent_a.get((name, side), (0, 0))
            made_b, lost_b = silent_b.get((name, side), (0, 0))
            cells = (str(made_a), str(made_b), str(lost_a), str(lost_b))
            table.add_row(name, _word(side, say), *cells)
        _print(table)
    if differences:
        echo(_("Differences: {n} figures differ (--json lists them)", n=len(differences)))
    else:
        echo(_("Differences: none; both rulesets played these deals alike"))
