"""Discarding with purpose: which two cards the declarer-to-be lays in the talon.

The purpose is the game in view. For a trump game he keeps his trumps (the trump 7
for an Ulti among them) and his marriages, voids a short side suit so that a trump can
take it, and throws points (a bare ten, an ace of a short suit) only where the
talon's points count for the declarer (``points.talon_to``; toward a 100 only where
``points.talon_counts_toward_hundred``). For a Betli he throws his most dangerous high
cards; for a Durchmars his losers, from the shortest suits.
"""

from __future__ import annotations

from collections.abc import Collection
from itertools import combinations

from ..cards import Rank
from ..game import Game
from ..game.ranks import SUIT_MASKS
from .bid_shape import Part, Purpose, Task
from .hand_strength import WEIGHTS, HandView, betli_danger, features
from .suit_order import suit_order

Pair = tuple[int, int]


def keep_values(game: Game, hand: int, trump: int, purpose: Purpose) -> dict[int, float]:
    """Per card of ``hand``: what keeping it is worth for ``purpose`` in ``trump``.

    A card's worth depends on its own suit's cards only, so each suit's holding is
    weighed once per game, trump and purpose (at most 256 holdings a suit)."""
    table: dict[tuple[int, int], tuple[tuple[int, float], ...]] = game.derived(
        ("club bot", "keep", trump, purpose), dict
    )
    values: dict[int, float] = {}
    for suit in range(4):
        pattern = (hand >> (8 * suit)) & 255
        if not pattern:
            continue
        found = table.get((suit, pattern))
        if found is None:
            found = table[suit, pattern] = _suit_values(game, suit, pattern, trump, purpose)
        values.update(found)
    return values


def _suit_values(
    game: Game, suit: int, pattern: int, trump: int, purpose: Purpose
) -> tuple[tuple[int, float], ...]:
    order = suit_order(game, trump)
    rules = game.ruleset
    talon_counts = rules.points.talon_to == "declarer" and (
        purpose == "points" or (purpose == "hundred" and rules.points.talon_counts_toward_hundred)
    )
    hand = pattern << (8 * suit)
    held = [c for c in order.high_to_low[suit] if (hand >> c) & 1]
    values: dict[int, float] = {}
    for i, card in enumerate(held):
        missing = (order.above[card] & ~hand).bit_count()
        height = order.height[card]
        points = order.points[card]
        if purpose == "betli":
            values[card] = -betli_danger(order, hand, ~hand, card) + height
        elif purpose == "allwin":
            loser = missing > i
            values[card] = (0 if loser else 50) + (8 - height) + (20 if suit == trump else 0)
        elif suit == trump:
            values[card] = 1000.0
        elif missing == 0:  # the top of the suit: a trick
            values[card] = 40.0 - (15 if talon_counts and len(held) <= 2 else 0)
        elif points and not talon_counts:  # its points would go to the defenders
            values[card] = 30.0
        elif points and i == 0:  # a ten with the ace out: likely lost, bank it
            values[card] = 5.0
        else:
            values[card] = float(7 - height)
    king, over = suit * 8 + Rank.KING, suit * 8 + Rank.OVER
    marriage = purpose == "hundred" or (purpose == "points" and rules.marriages.count_in_parti)
    if marriage and suit != trump and king in values and over in values:
        values[king] = values[over] = 35.0
    return tuple(values.items())


def choose_discard(
    game: Game,
    hand: int,
    trump: int,
    purpose: Purpose,
    allowed: Collection[Pair] | None = None,
) -> Pair:
    """The two cards to lay down (ascending), among ``allowed`` pairs where given."""
    if purpose in ("betli", "allwin"):
        return _by_strength(game, hand, trump, purpose, allowed)
    values = keep_values(game, hand, trump, purpose)
    trumps = hand & SUIT_MASKS[trump] if trump >= 0 else 0
    lengths = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
    best: Pair | None = None
    best_cost = 0.0
    cheap = sorted(values, key=values.__getitem__)[:6]
    short = [c for c in values if lengths[c >> 3] <= 2 and c >> 3 != trump]
    cards = sorted(set(cheap) | set(short))
    for pair in combinations(cards, 2):
        if allowed is not None and pair not in allowed:
            continue
        a, b = pair
        cost = values[a] + values[b]
        if trumps and purpose in ("points", "hundred"):
            for suit in {a >> 3, b >> 3}:
                gone = ((a >> 3) == suit) + ((b >> 3) == suit)
                if suit != trump and lengths[suit] == gone:
                    cost -= 12  # a void: a trump takes that suit
        if best is None or cost < best_cost:
            best, best_cost = pair, cost
    if best is None:
        return _first_allowed(values, allowed)
    return best


def _first_allowed(values: dict[int, float], allowed: Collection[Pair] | None) -> Pair:
    """The allowed pair least worth keeping, when none of the likely ones is allowed."""
    pairs = [p for p in combinations(sorted(values), 2) if allowed is None or p in allowed]
    if not pairs:
        raise ValueError("no pair of cards may be discarded")
    return min(pairs, key=lambda p: values[p[0]] + values[p[1]])


def _by_strength(
    game: Game, hand: int, trump: int, purpose: Purpose, allowed: Collection[Pair] | None
) -> Pair:
    """For a Betli or a Durchmars, the pair whose removal leaves the strongest ten cards
    (voids and all), weighed by the evaluation itself: the pairs among the six cards
    least worth keeping, unless even the two least worth keeping leave a hopeless hand."""
    task: Task = "betli" if purpose == "betli" else "durchmars"
    part = Part("", task, 0, 0, False, trump >= 0 and task == "durchmars", 0)
    weights = WEIGHTS[task]
    view = HandView(game, 0)
    values = keep_values(game, hand, trump, purpose)
    cheap = sorted(values, key=values.__getitem__)

    def score(pair: Pair) -> float:
        kept = hand & ~((1 << pair[0]) | (1 << pair[1]))
        found = features(view, kept, trump, part)
        total = sum(w * x for w, x in zip(weights, found, strict=True))
        return total - 0.001 * (values[pair[0]] + values[pair[1]])

    pairs = [
        (min(a, b), max(a, b))
        for a, b in combinations(cheap[:6], 2)
        if allowed is None or (min(a, b), max(a, b)) in allowed
    ]
    if not pairs:
        return _first_allowed(values, allowed)
    if score(pairs[0]) < HOPELESS:
        return pairs[0]
    return max(pairs, key=score)


HOPELESS = -5.0
"""A logistic score below this (a chance under 1%): no search for a better discard."""
