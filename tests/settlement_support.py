"""Helpers for the settlement tests: a small in-test ruleset and a facts builder.

The ruleset is written here, not loaded from rulesets/, so that the settlement
arithmetic is tested against numbers the test itself states.
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from ulti_rules import Contract, Facts, MarriageFact, Ruleset
from ulti_rules.plugins import get_registry
from ulti_rules.ruleset.schema import ruleset_model

from ruleset_fixtures import contracts, kontra_levels

ULTI_SHEET = """\
ruleset: wikipedia
players: [Anna, Ben, Carla]
declarer: Anna
bid: ulti
trump: acorns
points: {declarer: 60, defenders: 30}
tricks: {Anna: 6, Ben: 2, Carla: 2}
last_trick: {winner: Anna, trump_seven: Anna}
aces: [Anna, Ben]
"""
"""A made Ulti as a table types it: the score-keeper tests change one line at a time."""

SIMPLE_HEARTS = {
    "ruleset": "wikipedia",
    "players": "[Anna, Ben, Carla]",
    "declarer": "Anna",
    "bid": "Simple Hearts",
    "trump": "hearts",
    "points": "{declarer: 60, defenders: 30}",
    "tricks": "{Anna: 6, Ben: 2, Carla: 2}",
    "last_trick": "{winner: Anna}",
    "aces": "[Anna, Ben]",
}
"""A Wikipedia Simple Hearts Anna made, as a table types it, line by line. (A plain Simple
is never played there: always uncontested, it is lost double.)"""


def sheet(**lines: str) -> str:
    """SIMPLE_HEARTS with ``lines`` (key: written value; an empty one leaves the key out)."""
    written = {**SIMPLE_HEARTS, **lines}
    return "".join(f"{key}: {value}\n" for key, value in written.items() if value)


LEDGER_PLAYERS = ["Anna", "Ben", "Carla"]
BEN_MAKES_ULTI = """\
declarer: Ben
bid: ulti
trump: acorns
kontra: {ulti: kontra}
points: {declarer: 60, defenders: 30}
tricks: {Ben: 6, Anna: 2, Carla: 2}
last_trick: {winner: Ben, trump_seven: Ben}
aces: [Ben, Anna]
"""
PAYMENTS = {"Anna": -9, "Ben": 18, "Carla": -9}
"""BEN_MAKES_ULTI (a ledger hand: players and dealer come from the session) pays this
under wikipedia, whoever deals."""


def _names(en: str) -> dict[str, str]:
    return {"hu": en, "en": en}


def _bid(
    bid_id: str, rank: int, components: list[str], value: int, red: bool = False
) -> dict[str, Any]:
    return {
        "id": bid_id,
        "rank": rank,
        "value": value,
        "components": components,
        "red": red,
        "names": _names(bid_id),
    }


BASE: dict[str, Any] = {
    "name": "test-wp",
    "title": "A small WP-like ruleset for settlement tests",
    "points": {"talon_to": "declarer"},
    "kontra": {"levels": kontra_levels()},
    "contracts": contracts(
        "parti",
        "forty_hundred",
        "twenty_hundred",
        "ulti",
        "four_aces",
        "betli",
        "durchmars",
        "plain_durchmars",
        "open_betli",
    ),
    "silent_bonuses": {
        "silent_100": {"condition": "hundred", "names": _names("Silent 100"), "value": 2},
        "silent_ulti": {"condition": "ulti", "names": _names("Silent Ulti"), "value": 2},
        "silent_durchmars": {
            "condition": "durchmars",
            "names": _names("Silent Durchmars"),
            "value": 3,
        },
        "silent_four_aces": {
            "condition": "four_aces",
            "names": _names("Silent Four Aces"),
            "value": 2,
        },
    },
    "ladder": [
        _bid("simple", 1, ["parti"], 1),
        _bid("simple_red", 2, ["parti"], 2, red=True),
        _bid("forty_hundred", 3, ["forty_hundred"], 4),
        _bid("four_aces", 4, ["parti", "four_aces"], 5),
        _bid("ulti", 5, ["parti", "ulti"], 5),
        _bid("betli", 6, ["betli"], 5),
        _bid("durchmars", 7, ["durchmars"], 6),
        _bid("plain_durchmars", 7, ["plain_durchmars"], 6),
        _bid("twenty_hundred", 8, ["twenty_hundred"], 8),
        _bid("ulti_red", 9, ["parti", "ulti"], 10, red=True),
        _bid("forty_hundred_ulti_durchmars", 10, ["forty_hundred", "ulti", "durchmars"], 14),
        _bid("open_betli", 11, ["open_betli"], 20),
    ],
}


def merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def make_ruleset(**overrides: Any) -> Ruleset:
    """The test ruleset with nested overrides (``simple={"give_up_allowed": True}``)."""
    data = merge(BASE, overrides)
    return ruleset_model(get_registry().param_models()).model_validate(data)


def make_facts(
    *,
    declarer: int = 0,
    trump: str | None = "acorns",
    tricks: dict[int, int] | None = None,
    declarer_points: int = 60,
    defender_points: int = 30,
    talon_points: int = 0,
    marriages: list[tuple[int, str, int]] | None = None,
    last: int | None = None,
    seven_last: int | None = None,
    seven_early: int | None = None,
    aces: list[int] | Literal["split"] | None = "split",
    seats: list[int] | None = None,
) -> Facts:
    """Facts a table could know; ``marriages`` as (seat, suit, value).

    ``aces`` defaults to a split between the declarer and a defender, so that no
    (silent) Four Aces happens unless a test asks for it.
    """
    seats = seats if seats is not None else [0, 1, 2]
    tricks = tricks if tricks is not None else {s: (6 if s == declarer else 2) for s in seats}
    if aces == "split":
        # Split between the first two seats (declarer first) that won a trick, so that the
        # facts stay possible: after a durchmars the declarer took them all.
        order = [declarer] + [s for s in seats if s != declarer]
        takers = [s for s in order if tricks.get(s, 0) > 0]
        aces = takers[:2] if len(takers) > 1 else takers * 4
    return Facts.model_validate(
        {
            "seats": seats,
            "declarer": declarer,
            "trump": trump,
            "tricks_won": tricks,
            "declarer_points": declarer_points,
            "defender_points": defender_points,
            "talon_points": talon_points,
            "marriages": [
                MarriageFact(seat=s, suit=suit, value=v)  # type: ignore[arg-type]
                for s, suit, v in (marriages or [])
            ],
            "last_trick_winner": declarer if last is None else last,
            "trump_seven_last_trick": seven_last,
            "trump_seven_early": seven_early,
            "extra": {} if aces is None else {"ace_winners": aces},
        }
    )


def make_contract(
    bid: str,
    *,
    declarer: int = 0,
    trump: str | None = "acorns",
    kontra: dict[str, dict[int, int]] | None = None,
    **fields: Any,
) -> Contract:
    return Contract.model_validate(
        {"bid": bid, "declarer": declarer, "trump": trump, "kontra": kontra or {}, **fields}
    )
