"""Small hand-written rulesets and deals for the engine's golden tests.

The fixture ruleset is a short ladder with one bid of each shape the engine must
handle (plain and red Parti, both hundreds, Ulti, Betli, plain Durchmars, an open
Betli), so a golden test reads like the rule it checks. Variants are built by
overriding keys of the raw mapping, exactly as a club file would.
"""

from __future__ import annotations

import copy
from typing import Any

from ulti_rules.cards import parse_cards
from ulti_rules.engine import Bid, DeclareTrump, Discard, Hand, Pass
from ulti_rules.engine.deal import Deal
from ulti_rules.plugins import get_registry
from ulti_rules.ruleset.schema import Ruleset, ruleset_model

from ruleset_fixtures import contracts, kontra_levels


def _names(en: str) -> dict[str, str]:
    return {"hu": en, "en": en}


BASE: dict[str, Any] = {
    "name": "engine-fixture",
    "title": "A short ladder for the engine's golden tests",
    "kontra": {
        "levels": kontra_levels(),
        "max_level": None,
        "window": "before_lead_trick2",
    },
    "contracts": contracts(
        "parti", "forty_hundred", "twenty_hundred", "ulti", "betli", "plain_durchmars", "open_betli"
    ),
    "ladder": [
        {"id": "simple", "rank": 1, "value": 1, "components": ["parti"], "names": _names("Simple")},
        {
            "id": "simple_red",
            "rank": 2,
            "value": 2,
            "components": ["parti"],
            "red": True,
            "names": _names("Simple Hearts"),
        },
        {
            "id": "forty_hundred",
            "rank": 3,
            "value": 4,
            "components": ["forty_hundred"],
            "names": _names("40-100"),
        },
        {
            "id": "ulti",
            "rank": 4,
            "value": 5,
            "components": ["parti", "ulti"],
            "names": _names("Ulti"),
        },
        {"id": "betli", "rank": 5, "value": 5, "components": ["betli"], "names": _names("Betli")},
        {
            "id": "plain_durchmars",
            "rank": 6,
            "value": 6,
            "components": ["plain_durchmars"],
            "names": _names("Plain Durchmars"),
        },
        {
            "id": "twenty_hundred",
            "rank": 7,
            "value": 8,
            "components": ["twenty_hundred"],
            "names": _names("20-100"),
        },
        {
            "id": "ulti_red",
            "rank": 8,
            "value": 10,
            "components": ["parti", "ulti"],
            "red": True,
            "names": _names("Ulti Hearts"),
        },
        {
            "id": "open_betli",
            "rank": 9,
            "value": 20,
            "components": ["open_betli"],
            "names": _names("Open Betli"),
        },
    ],
}


def fixture_data(**overrides: Any) -> dict[str, Any]:
    """The raw fixture with dotted-key overrides, e.g. ``**{"points.talon_to": "declarer"}``."""
    data = copy.deepcopy(BASE)
    for dotted, value in overrides.items():
        node = data
        *head, last = dotted.split(".")
        for key in head:
            node = node.setdefault(key, {})
        node[last] = value
    return data


def fixture_ruleset(**overrides: Any) -> Ruleset:
    model = ruleset_model(get_registry().param_models())
    return model.model_validate(fixture_data(**overrides))


def deal_of(ruleset: Ruleset, dealer: int, hands: dict[int, str], rest: str = "") -> Deal:
    """A deal with the named cards where the test wants them and the others filled in.

    ``hands`` maps seat -> cards that seat must hold; every other card goes, in
    ascending order, to the first seat (in seat order) that still has room, the
    ``rest`` (talon) cards excepted. Counts follow the usual patterns.
    """
    count = ruleset.players.count
    two = ruleset.auction.two_round is not None
    sizes = {}
    for seat in range(count):
        if count == 4 and seat == dealer:
            sizes[seat] = 0
        elif seat == (dealer + 1) % count and not two and ruleset.deal.talon == "forehand":
            sizes[seat] = 12
        else:
            sizes[seat] = 10
    fixed = {seat: parse_cards(text) for seat, text in hands.items()}
    rest_cards = parse_cards(rest) if rest else []
    used = {c for cards in fixed.values() for c in cards} | set(rest_cards)
    free = [c for c in range(32) if c not in used]
    out = {seat: list(fixed.get(seat, [])) for seat in range(count)}
    rest_size = 32 - sum(sizes.values())
    for card in free:
        seat = next((s for s in range(count) if len(out[s]) < sizes[s]), None)
        if seat is None:
            rest_cards.append(card)
        else:
            out[seat].append(card)
    assert len(rest_cards) == rest_size, "the fixed cards do not fit the deal's counts"
    return Deal(tuple(tuple(out[s]) for s in range(count)), tuple(rest_cards))


def bid_and_play(
    hand: Hand, bid: str, discard: str, *, trump: str | None = None, bid_trump: str | None = None
) -> None:
    """Forehand discards, bids, everybody passes; the declarer names trump if asked."""
    hand.apply(Discard(tuple(parse_cards(discard))))
    hand.apply(Bid(bid, bid_trump))  # type: ignore[arg-type]
    while hand.phase == "auction":
        hand.apply(Pass())
    if hand.phase == "trump":
        assert trump is not None, "this bid needs a trump suit"
        hand.apply(DeclareTrump(trump))  # type: ignore[arg-type]
