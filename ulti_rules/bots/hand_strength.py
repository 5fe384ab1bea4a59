"""How likely a hand is to make each kind of component: the club player's hand evaluation.

A club player counts what matters for the game in view: trump length and height,
aces and tens, marriages and the talon's points for a Parti or a 100, the trump 7
beside long high trumps for an Ulti, low cards and short suits for a Betli, a sure
trick in every suit for a Durchmars. Each count is a feature of the hand; a
logistic curve per task turns them into a chance of making the component. The
weights were fitted on hands the club bot itself played as declarer against club
defenders (``WEIGHTS``); the card points, marriage values, talon rule and 100
target come from the ruleset, so the same weights read a club's own values.

A plugin's kind the bot does not know counts as made only as often as a Durchmars
in that trump would be: a trivially strong hand, never a gamble.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..engine.trump import MARRIAGE_MASKS, marriages_in
from ..game import Game
from ..game.ranks import SUIT_MASKS
from .bid_shape import Part
from .suit_order import SuitOrder, suit_order

__all__ = [
    "HandView",
    "Holding",
    "betli_danger",
    "chance",
    "features",
    "holdings",
    "logistic",
    "seat_view",
]


@dataclass(frozen=True, slots=True)
class HandView:
    """What the evaluation needs to know besides the cards: the game and the talon."""

    game: Game
    talon_points: int
    """Card points the declarer lays in the talon (known to him alone)."""
    rows: dict[tuple[int, int], list[Holding]] = field(default_factory=dict, compare=False)
    """The holdings of the hands weighed with this view, by hand and trump."""


def seat_view(game: Game, talon: Sequence[int] | None) -> HandView:
    """The view of a seat that laid ``talon`` (None: the talon is not his to know)."""
    points = game.tables(-1).points
    return HandView(game, sum(points[c] for c in talon) if talon is not None else 0)


class Holding(NamedTuple):
    """What one suit's cards in a hand are worth, under one trump (``holdings``)."""

    length: int
    points: int
    likely: int
    """Likely tricks if the suit is played out: a card wins when no more cards above it
    are out than the hand's own higher cards can draw."""
    sure: int
    """Sure tricks: the cards with every card above them in the hand (the top sequence)."""
    likely_side: int
    """Likely tricks of a side suit: as ``likely``, within the rounds before a defender
    shows out and trumps (half the outside cards, at least one round)."""
    top: int
    """1 if it holds the top card (the ace)."""
    bare_ten: int
    """1 if it holds the second card (the ten in a trump game) without the top one."""
    lowest: int
    """1 if it holds the lowest card (the 7)."""
    high: int
    """How many of the three top cards it holds."""
    exposed: int
    """Betli: cards with lower cards of the suit out (see ``betli_features``)."""
    severe: int
    """Betli: their severity: no outside card above one (2), one only (1)."""


def _holding(order: SuitOrder, suit: int, pattern: int) -> Holding:
    hand = pattern << (8 * suit)
    cards = order.high_to_low[suit]
    length = pattern.bit_count()
    rounds = max(1, (8 - length) // 2)
    must_beat = order.tables.must_beat
    likely = sure = side = i = points = exposed = severe = 0
    for card in cards:
        if not (hand >> card) & 1:
            continue
        points += order.points[card]
        missing = (order.above[card] & ~hand).bit_count()
        sure += missing == 0
        if missing <= i:
            likely += 1
            side += i < rounds
        i += 1
        below = order.below[card]
        out = (below & ~hand).bit_count()
        if not must_beat:
            out -= (below & hand).bit_count()
        if out > 0:
            exposed += 1
            over = missing
            severe += (over == 0) + (over <= 1)
    top = (hand >> cards[0]) & 1
    return Holding(
        length=length,
        points=points,
        likely=likely,
        sure=sure,
        likely_side=side,
        top=top,
        bare_ten=((hand >> cards[1]) & 1) * (1 - top),
        lowest=(hand >> cards[7]) & 1,
        high=sum((hand >> c) & 1 for c in cards[:3]),
        exposed=exposed,
        severe=severe,
    )


def holdings(game: Game, trump: int) -> tuple[tuple[Holding, ...], ...]:
    """Per suit, per pattern of its eight cards (bit ``rank``): what the holding is worth
    under ``trump``. Built once per game and trump, so that weighing a hand is a few
    look-ups (the auction weighs hundreds of hands)."""

    def build() -> tuple[tuple[Holding, ...], ...]:
        order = suit_order(game, trump)
        return tuple(tuple(_holding(order, s, p) for p in range(256)) for s in range(4))

    return game.derived(("club bot", "holdings", trump), build)


def _rows(view: HandView, hand: int, trump: int) -> list[Holding]:
    """The holdings of ``hand`` under ``trump``, suit by suit (kept by the view)."""
    key = (hand, trump)
    found = view.rows.get(key)
    if found is None:
        table = holdings(view.game, trump)
        found = view.rows[key] = [table[s][(hand >> (8 * s)) & 255] for s in range(4)]
    return found


def trump_features(view: HandView, hand: int, trump: int, part: Part) -> tuple[float, ...]:
    """The features of a trump game's component (Parti, 100, Ulti) in ``trump``."""
    game = view.game
    rules = game.ruleset
    rows = _rows(view, hand, trump)
    mine = rows[trump]
    side = aces = bare_tens = voids = points = 0
    for suit, row in enumerate(rows):
        points += row.points
        if suit == trump:
            continue
        if not row.length:
            voids += 1
            continue
        side += row.likely_side
        aces += row.top
        bare_tens += row.bare_ten
    if part.task == "ulti":
        if not mine.lowest:
            return ()
        return (1.0, mine.length, mine.likely, mine.sure, mine.high, side, voids)
    talon = view.talon_points if rules.points.talon_to == "declarer" else 0
    if part.task == "hundred":
        if not rules.points.talon_counts_toward_hundred:
            talon = 0
        return (1.0, mine.length, mine.likely, side, aces, bare_tens, voids, points / 10,
                talon / 10, part.need / 10)  # fmt: skip
    extra = talon
    expected = 0.0
    if rules.marriages.count_in_parti:
        trump_value, plain_value = rules.marriages.trump_value, rules.marriages.plain_value
        extra += sum(trump_value if s == trump else plain_value for s in marriages_in(hand))
        for suit in range(4):
            if not hand & MARRIAGE_MASKS[suit]:  # neither card: a defender may hold both
                expected += 0.39 * (trump_value if suit == trump else plain_value)
    return (1.0, mine.length, mine.likely, side, aces, bare_tens, voids, points / 10,
            extra / 10, expected / 10)  # fmt: skip


def betli_features(view: HandView, hand: int, part: Part) -> tuple[float, ...]:
    """Low cards and short suits. A card is exposed while lower cards of its suit are out:
    one of them led, the declarer must go over it where one must beat (``play.must_beat``),
    or, where one need not, when his own lower cards have run out; it is lost for sure
    when no outside card is left above it to take the trick from him."""
    exposed = severe = voids = singles = 0
    for row in _rows(view, hand, -1):
        if not row.length:
            voids += 1
            continue
        exposed += row.exposed
        severe += row.severe
        singles += row.exposed if row.length == 1 else 0
    return (1.0, exposed, severe, voids, singles, float(part.open))


def durchmars_features(view: HandView, hand: int, trump: int, part: Part) -> tuple[float, ...]:
    """Losers: cards below an outside card, counted surely (outside the top sequence)
    and likely (more outside cards above than the hand's own higher ones can draw); with
    a trump, the trumps out."""
    sure_losers = likely_losers = 0
    for row in _rows(view, hand, trump):
        sure_losers += row.length - row.sure
        likely_losers += row.length - row.likely
    # With a trump, every outside trump the declarer cannot draw may ruff a winner.
    out = 8 - (hand & SUIT_MASKS[trump]).bit_count() if trump >= 0 else 0
    return (1.0, sure_losers, likely_losers, out, float(part.open))


def betli_danger(order: SuitOrder, hand: int, outside: int, card: int) -> float:
    """How likely ``card`` of ``hand`` is to win a trick in a Betli: lower cards of its
    suit ``outside`` (one led, he must go over where one must beat), and few outside cards
    above to take the trick over."""
    below = order.below[card]
    out = (below & outside).bit_count()
    if not order.tables.must_beat:
        out -= (below & hand).bit_count()
    if out <= 0:
        return 0.0
    over = (order.above[card] & outside).bit_count()
    return 10.0 * min(out, 3) + 10.0 * (over == 0) + 5.0 * (over <= 1)


def features(view: HandView, hand: int, trump: int, part: Part) -> tuple[float, ...]:
    """The features of ``part`` for ``hand`` played in ``trump`` (-1: none); () when the
    component cannot be made at all (an Ulti without the trump 7)."""
    task = part.task
    if task == "betli":
        return betli_features(view, hand, part)
    if task == "durchmars" or task == "unknown":
        return durchmars_features(view, hand, trump if part.trump else -1, part)
    if trump < 0:
        return ()
    return trump_features(view, hand, trump, part)


def chance(view: HandView, hand: int, trump: int, part: Part) -> float:
    """The chance that the declarer holding ``hand`` makes ``part`` in ``trump``."""
    found = features(view, hand, trump, part)
    if not found:
        return 0.0
    task = "durchmars" if part.task == "unknown" else part.task
    if task == "durchmars" and found[1] == 0 and found[3] <= 8 - found[3]:
        # Every card tops its suit and the trumps out can all be drawn: certain.
        return 1.0
    p = logistic(WEIGHTS[task], found)
    if part.task == "unknown":
        return p if p >= TRIVIAL else 0.0
    return p


def logistic(weights: Sequence[float], found: Sequence[float]) -> float:
    """The fitted curve's chance for ``found`` features (the bot's and the defence's)."""
    score = sum(w * x for w, x in zip(weights, found, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, score))))


TRIVIAL = 0.95
"""A plugin's kind counts as makeable only where a Durchmars is at least this likely."""


WEIGHTS: dict[str, tuple[float, ...]] = {
    # (bias, trumps, likely trump tricks, likely side tricks, side aces, bare tens, voids,
    #  card points /10, marriages and talon counted /10, defenders' expected marriages /10)
    "parti": (-9.452, 0.986, 0.16, 0.164, 0.375, -0.244, 1.884, 1.1, 0.698, -0.76),
    # (bias, trumps, likely trump tricks, likely side tricks, side aces, bare tens, voids,
    #  card points /10, talon counted /10 (no bundled ruleset counts it: weighed as card
    #  points), points needed /10)
    "hundred": (-2.46, 0.395, 0.368, -0.096, 1.419, 0.107, 2.722, 0.917, 0.917, -1.341),
    # (bias, trumps, likely trump tricks, top trumps, trump ace ten and king, likely side
    #  tricks, voids)
    "ulti": (-7.198, 1.617, 0.02, -0.414, 0.201, 0.188, -0.467),
    # (bias, exposed cards, their severity, voids, exposed singletons, open)
    "betli": (1.442, -0.434, -0.631, 0.786, 0.156, -0.431),
    # (bias, sure losers, likely losers, trumps out, open)
    "durchmars": (2.708, -0.414, -2.439, -0.501, 0.102),
}
"""Logistic weights per task, in the order of each task's features: fitted by
``python benchmarks/fit_club_bot.py --side declarer --hands 2500 --seed 11`` (the talon's
points toward a 100, which no bundled ruleset counts, weighed as card points). The
discards follow the weights, so a refit on the new discards moves them a little."""
