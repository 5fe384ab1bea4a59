"""Two studies of the same deals side by side: what a house-rule change does.

Both summaries (``Summary.to_dict``) are flattened to figures named by a path
(``bids.ulti.made_rate``, ``payments.P1.mean``, ``kontra.Rekontra``); a figure one
ruleset has and the other has not (a bid only one ladder holds) counts 0 where it is a
count and is missing (None) where it is a rate or a mean. The differences are the
figures that are not the same.
"""

from __future__ import annotations

from typing import Any

COUNTS = frozenset({"won", "made", "settled", "lost"})
"""The fields of a bid, component or silent bonus that count hands (missing: 0)."""
COUNTED_SECTIONS = frozenset({"outcomes", "kontra"})
"""The sections whose every figure counts hands."""


def figures(summary: dict[str, Any]) -> dict[str, float | int | None]:
    """A summary's figures by path; the distribution of results is left out (a plot
    shows it)."""
    found: dict[str, float | int | None] = {}
    for section in ("outcomes", "kontra"):
        for key, count in summary[section].items():
            found[f"{section}.{key}"] = count
    for section, fields in (
        ("bids", ("won", "share", "made", "made_rate", "declarer_mean")),
        ("components", ("settled", "made", "made_rate")),
        ("payments", ("total", "mean")),
    ):
        for key, row in summary[section].items():
            for field in fields:
                found[f"{section}.{key}.{field}"] = row[field]
    for row in summary["silent"]:
        for field in ("made", "lost"):
            found[f"silent.{row['id']} by {row['by']}.{field}"] = row[field]
    return found


def _missing(path: str) -> int | None:
    section, *_, field = path.split(".")
    return 0 if section in COUNTED_SECTIONS or field in COUNTS else None


def differences(a: dict[str, Any], b: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every figure that differs: ``{path: {"a": ..., "b": ..., "change": b - a}}`` in the
    order the first summary lists them, then those only the second has."""
    first, second = figures(a), figures(b)
    changed: dict[str, dict[str, Any]] = {}
    for path in [*first, *(p for p in second if p not in first)]:
        x = first.get(path, _missing(path))
        y = second.get(path, _missing(path))
        if x == y:
            continue
        change = round(y - x, 4) if x is not None and y is not None else None
        changed[path] = {"a": x, "b": y, "change": change}
    return changed
