"""What a study's hands add up to: bids won and made, components, payments, kontras, silent bonuses.

Everything is counted in whole numbers as the hands come in (sums and sums of squares
for the payments), and the rates, means and standard errors are worked out only when
asked, so the same hands give the same figures however they were played. ``to_dict``
names each bid, component, kontra level and silent bonus as the ruleset does: what
``ulti simulate --json`` prints, and what ``compare.py`` and ``plot.py`` read.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..ruleset.schema import Ruleset
from .runner import PASSED_OUT, HandResult

DIGITS = 4
"""Rates, means and standard errors are rounded to this many decimals."""


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, DIGITS) if whole else None


class Summary:
    """The counts of a study, one hand at a time (:meth:`add`)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.hands = 0
        self.outcomes: Counter[str] = Counter()
        self.bids: dict[str, list[int]] = {}
        """Per bid: [auctions won, made, the declarer's results added up]."""
        self.components: dict[str, list[int]] = {}
        """Per component: [settled, made]."""
        self.sums = [0] * players
        self.squares = [0] * players
        self.kontra: Counter[int] = Counter()
        """Hands with a contract, by the highest kontra level reached (0: none)."""
        self.silent: dict[tuple[str, str], list[int]] = {}
        """Per silent bonus and the side whose feat it was: [made, lost]."""
        self.declarer_results: Counter[int] = Counter()
        """How often the declarer won (or lost) each amount."""

    def add(self, result: HandResult) -> None:
        """Count one hand."""
        self.hands += 1
        self.outcomes[result.outcome] += 1
        for seat, amount in enumerate(result.payments):
            self.sums[seat] += amount
            self.squares[seat] += amount * amount
        if result.outcome == PASSED_OUT or result.bid is None or result.declarer is None:
            return
        declared = result.payments[result.declarer]
        tally = self.bids.setdefault(result.bid, [0, 0, 0])
        tally[0] += 1
        tally[1] += result.made
        tally[2] += declared
        self.declarer_results[declared] += 1
        for cid, made in result.components:
            counts = self.components.setdefault(cid, [0, 0])
            counts[0] += 1
            counts[1] += made
        self.kontra[result.kontra_level] += 1
        for bonus, side, made in result.silent:
            self.silent.setdefault((bonus, side), [0, 0])[0 if made else 1] += 1

    def mean(self, seat: int) -> float:
        """The seat's mean payment per hand."""
        return self.sums[seat] / self.hands if self.hands else 0.0

    def standard_error(self, seat: int) -> float | None:
        """The standard error of that mean (the sample's standard deviation / √n);
        None with fewer than two hands."""
        n = self.hands
        if n < 2:
            return None
        variance = (self.squares[seat] - self.sums[seat] ** 2 / n) / (n - 1)
        return math.sqrt(max(variance, 0.0) / n)

    def to_dict(self, ruleset: Ruleset, names: Sequence[str], lang: str = "en") -> dict[str, Any]:
        """The figures as plain data, named by ``ruleset`` in ``lang``; players called
        ``names``. Keys are ids (the kontra levels' keys their names)."""
        hands = self.hands
        bid_names = {bid.id: bid.names.get(lang) for bid in ruleset.ladder}
        bids = {
            bid: {
                "name": bid_names.get(bid, bid),
                "won": won,
                "share": _rate(won, hands),
                "made": made,
                "made_rate": _rate(made, won),
                "declarer_mean": round(total / won, DIGITS),
            }
            for bid, (won, made, total) in sorted(self.bids.items(), key=lambda i: (-i[1][0], i[0]))
        }
        contracts = ruleset.contracts
        components = {
            cid: {
                "name": contracts[cid].names.get(lang) if cid in contracts else cid,
                "settled": settled,
                "made": made,
                "made_rate": _rate(made, settled),
            }
            for cid, (settled, made) in sorted(
                self.components.items(), key=lambda i: (-i[1][0], i[0])
            )
        }
        payments = {}
        for seat, name in enumerate(names):
            error = self.standard_error(seat)
            payments[name] = {
                "total": self.sums[seat],
                "mean": round(self.mean(seat), DIGITS),
                "stderr": round(error, DIGITS) if error is not None else None,
            }
        kontra = {
            (ruleset.kontra.name(level, lang) if level else "none"): count
            for level, count in sorted(self.kontra.items())
        }
        bonuses = ruleset.silent_bonuses
        silent = [
            {
                "id": bonus,
                "name": bonuses[bonus].names.get(lang) if bonus in bonuses else bonus,
                "by": side,
                "made": made,
                "lost": lost,
            }
            for (bonus, side), (made, lost) in sorted(self.silent.items())
        ]
        return {
            "hands": hands,
            "outcomes": dict(sorted(self.outcomes.items())),
            "bids": bids,
            "components": components,
            "payments": payments,
            "kontra": kontra,
            "silent": silent,
            "declarer_results": {
                str(amount): count for amount, count in sorted(self.declarer_results.items())
            },
        }
