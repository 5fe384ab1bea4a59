"""Work counted, not timed: the function calls (Python's and C's) that a piece of work
makes, seen through ``sys.setprofile``.

A count is the same on a busy machine as on a quiet one, so a test can bound how the
work grows with its input without a clock: the hostile-input tests once asserted CPU
seconds, and a shared machine brought the largest of them within a fifth of their
bound. A count cannot see work that grows inside one call to C (a key looked up in a
list rather than a dict: the same calls, 47 s instead of 3 s for 45,000 keys in a
review), so how many seconds the full-size inputs take is shown by
``benchmarks/bench_hostile.py`` (docs/performance.md), as every speed target is.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any


def calls(run: Callable[[], object]) -> int:
    """How many functions ``run()`` calls, its own callees' callees included."""
    count = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal count
        if event == "call" or event == "c_call":
            count += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


def calls_per_item(make: Callable[[int], Callable[[], object]], small: int, large: int) -> float:
    """What each item more costs: the calls of ``make(large)()`` less those of
    ``make(small)()``, per item. ``make(n)`` prepares fresh input of ``n`` items and
    returns the work to count: input never read before, text included (parsed ruleset
    files are cached by their content); a first run of the small input warms what every
    run shares (rulesets, schemas)."""
    calls(make(small))
    return (calls(make(large)) - calls(make(small))) / (large - small)
