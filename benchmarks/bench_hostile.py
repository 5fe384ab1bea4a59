"""How long the readers take on the largest hostile inputs of the fault rounds, against
the few seconds issue 11 allows any input under the size limits (docs/performance.md).

The tests bound how the work grows with each input, by counting calls
(``tests/work_budget.py``); the seconds are shown here, as every speed figure is:

* a club file with the tester's 45,000 unknown keys, checked (``ulti check``);
* a score sheet with 20,000 unknown keys, read (``ulti score``);
* a score sheet announcing the bells marriage 90,000 times, read.

Each input is written to a fresh file for every run (a file read before is cached), and
the figure is the best of ``--runs`` runs, in CPU time (``time.process_time``), so that
other work on a shared machine counts as little as it can.

    python benchmarks/bench_hostile.py
    python benchmarks/bench_hostile.py --runs 5

It prints each input's best time beside the bound; the exit status is 0 either way (it
is a report, not a test).
"""

from __future__ import annotations

import argparse
import itertools
import platform
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ulti_rules.errors import RulesetError
from ulti_rules.ruleset.loading import check_file, load_ruleset
from ulti_rules.scoring.sheet import SheetError, read_sheet

BOUND = 3.0
"""Seconds of CPU: the "few seconds" of issue 11, as its tests first bounded them."""

CLUB = "name: club\ntitle: Club\nextends: wikipedia\n"
SHEET = """\
ruleset: wikipedia
players: [Anna, Ben, Carla]
declarer: Anna
bid: ulti
trump: acorns
points: {declarer: 60, defenders: 30}
tricks: {Anna: 6, Ben: 2, Carla: 2}
last_trick: {winner: Anna, trump_seven: Anna}
"""


def unknown_keys(count: int) -> str:
    return "".join(f"k{i}: 1\n" for i in range(count))


def checked(path: Path) -> None:
    problems = check_file(path)
    assert problems, "the club file is refused"


def refused(path: Path) -> None:
    try:
        read_sheet(path)
    except SheetError:
        return
    raise AssertionError("the score sheet is refused")


def inputs(scale: float) -> list[tuple[str, str, Callable[[Path], None]]]:
    """Each input's label, text and reader; ``scale`` shrinks the counts (a smoke test)."""

    def count(full: int) -> int:
        return max(1, round(full * scale))

    keys, sheet_keys, bells = count(45_000), count(20_000), count(90_000)
    return [
        (f"club file, {keys:,} unknown keys (check)", CLUB + unknown_keys(keys), checked),
        (f"score sheet, {sheet_keys:,} unknown keys", SHEET + unknown_keys(sheet_keys), refused),
        (
            f"score sheet, bells announced {bells:,} times",
            SHEET + "marriages: {Anna: [" + ", ".join(["bells"] * bells) + "]}\n",
            refused,
        ),
    ]


def best_time(text: str, run: Callable[[Path], None], runs: int, folder: Path) -> float:
    numbers = itertools.count()
    best = float("inf")
    for _ in range(runs):
        path = folder / f"input-{next(numbers)}.yaml"
        path.write_text(text, encoding="utf-8")
        start = time.process_time()
        run(path)
        best = min(best, time.process_time() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each input (default 3)")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="a fraction of each input's size (default 1)"
    )
    args = parser.parse_args(argv)
    try:
        load_ruleset("wikipedia")  # what every input builds on, loaded once beforehand
    except RulesetError as exc:
        raise SystemExit(f"wikipedia does not load: {exc}") from None
    print(f"Hostile inputs, CPU time, best of {args.runs} runs; bound {BOUND:.1f} s")
    print(f"{platform.python_implementation()} {platform.python_version()}")
    print()
    with tempfile.TemporaryDirectory(prefix="ulti-hostile-") as tmp:
        for label, text, run in inputs(args.scale):
            seconds = best_time(text, run, args.runs, Path(tmp))
            verdict = "holds" if seconds <= BOUND else "MISSED"
            print(f"  {label:45s} {seconds:6.2f} s  ({verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
