"""A study drawn as a PNG: the success rate of each bid, the spread of the declarer's result.

matplotlib is an optional extra (``pip install 'ulti-rules[plot]'``), imported only
here and only when a plot is drawn; without it, :func:`require_matplotlib` says how to
install it. Several studies (``--compare``) are drawn side by side in one figure.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import UltiError
from ..safe_files import write_output

MOST_BIDS = 15
"""The bids drawn: the most often won, so that the labels stay readable."""
INSTALL = "pip install 'ulti-rules[plot]'"


class PlotUnavailable(UltiError):
    """matplotlib is not installed."""


def require_matplotlib() -> None:
    """Nothing if matplotlib can be imported; else PlotUnavailable saying how to get it."""
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        raise PlotUnavailable(
            f"drawing a plot needs matplotlib, an optional extra: {INSTALL}"
        ) from None


def _bids(studies: Sequence[tuple[str, dict[str, Any]]]) -> list[tuple[str, str]]:
    """(id, name) of the bids won most often, over all the studies."""
    won: dict[str, int] = {}
    names: dict[str, str] = {}
    for _, summary in studies:
        for bid, row in summary["bids"].items():
            won[bid] = won.get(bid, 0) + row["won"]
            names.setdefault(bid, row["name"])
    top = sorted(won, key=lambda bid: (-won[bid], bid))[:MOST_BIDS]
    return [(bid, names[bid]) for bid in top]


def draw(path: Path | str, studies: Sequence[tuple[str, dict[str, Any]]], title: str) -> None:
    """Write the figure of ``studies`` (label, ``Summary.to_dict()``) to ``path`` as PNG."""
    require_matplotlib()
    # mypy without the extra installed: no stubs to find (matplotlib ships its own types)
    from matplotlib.backends.backend_agg import (  # type: ignore[import-not-found, unused-ignore]
        FigureCanvasAgg,
    )
    from matplotlib.figure import Figure  # type: ignore[import-not-found, unused-ignore]

    figure = Figure(figsize=(12, 5.5), layout="constrained")
    FigureCanvasAgg(figure)
    rates, results = figure.subplots(1, 2, width_ratios=(3, 2))
    bids = _bids(studies)
    width = 0.8 / len(studies)
    seen = [int(amount) for _, summary in studies for amount in summary["declarer_results"]]
    low, high = (min(seen), max(seen)) if seen else (0, 0)
    step = max(1, -(-(high - low + 1) // 40))  # at most 40 bins, the same for every study
    edges = [low - 0.5 + step * n for n in range((high - low) // step + 2)]
    for index, (label, summary) in enumerate(studies):
        rows = summary["bids"]
        heights = [(rows[bid]["made_rate"] or 0.0) if bid in rows else 0.0 for bid, _ in bids]
        places = [n + (index - (len(studies) - 1) / 2) * width for n in range(len(bids))]
        rates.bar(places, heights, width, label=label)
        amounts = [int(amount) for amount in summary["declarer_results"]]
        counts = list(summary["declarer_results"].values())
        if amounts:
            results.hist(
                amounts, bins=edges, weights=counts,
                histtype="step", linewidth=1.5, label=label,
            )  # fmt: skip
    rates.set_xticks(range(len(bids)), [name for _, name in bids], rotation=45, ha="right")
    rates.set_ylim(0, 1)
    rates.set_ylabel("made (share of the auctions it won)")
    rates.set_title("Success rate per bid (the bids won most often)")
    results.set_xlabel("the declarer's result per hand")
    results.set_ylabel("hands")
    results.set_title("Payment distribution")
    if len(studies) > 1:
        rates.legend()
        results.legend()
    figure.suptitle(title)
    image = io.BytesIO()
    figure.savefig(image, format="png")
    write_output(Path(path), image.getvalue())
