"""A seed as a random generator: every seed its own stream, negative ones included.

``random.Random(n)`` seeds with ``abs(n)``: seeds -5 and 5 deal the same cards and play
the same study, and a researcher who runs seeds -k..k has duplicated, perfectly
correlated samples without knowing. A negative int is seeded here through bytes that
only this module makes, so that it has a stream of its own; every other seed is seeded
as ``random.Random`` seeds it (records and the studies in the docs replay the same).
"""

from __future__ import annotations

import random


def seeded(seed: int | str | None) -> random.Random:
    """The generator of ``seed`` (None: seeded from the system, as ``random.Random()``)."""
    if isinstance(seed, int) and seed < 0:
        return random.Random(b"ulti-rules negative seed " + str(seed).encode("ascii"))
    return random.Random(seed)
