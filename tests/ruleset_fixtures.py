"""The small contract catalogue and kontra chain the test rulesets share.

Each test module builds its own ladder (that is what it tests); the catalogue and
the chain they draw on are the same everywhere, so they are written once here.
"""

from __future__ import annotations

import copy
from typing import Any


def names(en: str) -> dict[str, str]:
    return {"hu": en, "en": en}


CATALOGUE: dict[str, dict[str, Any]] = {
    "parti": {"kind": "parti", "names": names("Simple"), "value": 1},
    "forty_hundred": {"kind": "hundred", "names": names("40-100"), "value": 4, "marriage": "trump"},
    "twenty_hundred": {
        "kind": "hundred",
        "names": names("20-100"),
        "value": 8,
        "marriage": "plain",
    },
    "ulti": {"kind": "ulti", "names": names("Ulti"), "value": 4},
    "four_aces": {"kind": "four_aces", "names": names("Four Aces"), "value": 4},
    "betli": {"kind": "betli", "names": names("Betli"), "value": 5},
    "open_betli": {"kind": "betli", "names": names("Open Betli"), "value": 20, "open": True},
    "durchmars": {"kind": "durchmars", "names": names("Durchmars"), "value": 6, "trump": True},
    "open_durchmars": {
        "kind": "durchmars",
        "names": names("Open Durchmars"),
        "value": 12,
        "trump": True,
        "open": True,
    },
    "plain_durchmars": {
        "kind": "durchmars",
        "names": names("Plain Durchmars"),
        "value": 6,
        "trump": False,
    },
}

KONTRA_LEVELS: list[dict[str, Any]] = [
    {"names": names("Kontra"), "multiplier": 2, "by": "defenders"},
    {"names": names("Rekontra"), "multiplier": 4, "by": "declarer"},
    {"names": names("Szubkontra"), "multiplier": 8, "by": "defenders"},
]


def contracts(*ids: str) -> dict[str, dict[str, Any]]:
    """Fresh copies of the named catalogue entries."""
    return {cid: copy.deepcopy(CATALOGUE[cid]) for cid in ids}


def kontra_levels(count: int = 3) -> list[dict[str, Any]]:
    return copy.deepcopy(KONTRA_LEVELS[:count])
