"""Kontra and rekontra, called only on a hand that is strong against the component.

A defender doubles a component when his own cards say the declarer is likely to fail
it: trump length and top trumps against a Parti or a 100, a trump above the 7 beside
length against an Ulti (the trump 7 itself: a sure failure), sure tricks against a
Durchmars. A Betli he doubles only when very sure, since a low card of his own is no
reason. The declarer answers with a rekontra only where his own evaluation makes the
component very likely. Never a chain: at most one call per component per seat, and
never above the second level (the defenders' Kontra, the declarer's Rekontra).
A plugin's kind it does not know is never doubled.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import mask_of, suit_number
from ..engine.actions import Kontra
from ..engine.observation import Observation
from ..game import Game
from ..game.ranks import SUIT_MASKS
from .bid_shape import Part, bid_shapes
from .hand_strength import chance, logistic, seat_view
from .suit_order import suit_order

KONTRA_AT = 0.6
"""A defender doubles a component he expects the declarer to fail at least this often."""
BETLI_KONTRA_AT = 0.8
"""... a Betli only when this sure."""
REKONTRA_AT = 0.8
"""The declarer redoubles a component he expects to make at least this often."""


def choose_kontra(game: Game, obs: Observation, actions: Sequence[object]) -> Kontra | None:
    """The one kontra to call now, or None (pass, or play a card)."""
    if obs.bid is None or obs.declarer is None:
        return None
    shape = bid_shapes(game)[obs.bid]
    called = _called(obs)
    declarer = obs.seat == obs.declarer
    offered = {
        (a.components[0], a.level): a
        for a in actions
        if type(a) is Kontra and len(a.components) == 1 and a.against is None
    }
    trump = suit_number(obs.trump) if obs.trump is not None else -1
    for part in shape.parts:
        if part.id in called or part.task == "unknown":
            continue
        levels = obs.kontra.get(part.id, {})
        if declarer:
            action = offered.get((part.id, 2))
            if action is None or 1 not in levels.values():
                continue
            if _declarer_chance(game, obs, trump, part) >= REKONTRA_AT:
                return action
            continue
        action = offered.get((part.id, 1))
        if action is None or levels.get(obs.seat, 0) != 0:
            continue
        threshold = BETLI_KONTRA_AT if part.task == "betli" else KONTRA_AT
        if failure_chance(game, _original_hand(game, obs), trump, part) >= threshold:
            return action
    return None


def _called(obs: Observation) -> set[str]:
    """The components this seat has already doubled (or redoubled)."""
    found: set[str] = set()
    for seat, action in obs.history:
        if seat == obs.seat and type(action) is Kontra:
            found.update(action.components)
    return found


def _original_hand(game: Game, obs: Observation) -> int:
    """The seat's cards with those it played to the first trick: its hand at the kontra."""
    mask = mask_of(obs.hand)
    after = game.seating(obs.dealer).after
    tricks = [(t.leader, t.cards) for t in obs.tricks]
    if obs.current_trick is not None:
        tricks.append((obs.current_trick.leader, obs.current_trick.cards))
    for leader, cards in tricks:
        seat = leader
        for card in cards:
            if seat == obs.seat:
                mask |= 1 << card
            seat = after[seat]
    return mask


def _declarer_chance(game: Game, obs: Observation, trump: int, part: Part) -> float:
    hand = _original_hand(game, obs)
    return chance(seat_view(game, obs.talon), hand, trump if part.trump else -1, part)


def defense_features(game: Game, hand: int, trump: int, part: Part) -> tuple[float, ...]:
    """What a defender's own hand holds against a trump game's ``part`` (a Parti, a 100,
    an Ulti): trump length (and length beyond two), the two top trumps, side aces and
    tens, voids, card points. () for the other tasks."""
    task = part.task
    if task not in ("parti", "hundred", "ulti") or trump < 0:
        return ()
    order = suit_order(game, trump)
    trumps = hand & SUIT_MASKS[trump]
    n_t = trumps.bit_count()
    tops = sum(1 for c in order.high_to_low[trump][:2] if (trumps >> c) & 1)
    long = max(0, n_t - 2)
    if task == "ulti":
        return (1.0, n_t, tops, long)
    aces = tens = voids = points = 0
    for suit in range(4):
        cards = hand & SUIT_MASKS[suit]
        points += sum(order.points[c] for c in order.high_to_low[suit] if (cards >> c) & 1)
        if suit == trump:
            continue
        if not cards:
            voids += 1
        aces += (cards >> order.high_to_low[suit][0]) & 1
        tens += (cards >> order.high_to_low[suit][1]) & 1
    return (1.0, n_t, tops, aces, tens, voids, points / 10, long)


def failure_chance(game: Game, hand: int, trump: int, part: Part) -> float:
    """The chance, from a defender's own hand, that the declarer fails ``part``.

    Sure where the defender holds the trump 7 against an Ulti, or the trump ace against
    a Durchmars with trumps (it wins whatever trick it falls in); otherwise weighed for
    a trump game's Parti, 100 or Ulti, and never against a Betli or a Durchmars
    without trumps (his own cards say too little about the declarer's)."""
    task = part.task
    order = suit_order(game, trump if part.trump else -1)
    if trump >= 0 and part.trump:
        if task == "ulti" and (hand >> order.high_to_low[trump][7]) & 1:
            return 1.0
        if task == "durchmars" and (hand >> order.high_to_low[trump][0]) & 1:
            return 1.0
    found = defense_features(game, hand, trump, part)
    weights = DEFENSE_WEIGHTS.get(task)
    if not found or weights is None:
        return 0.0
    return logistic(weights, found)


DEFENSE_WEIGHTS: dict[str, tuple[float, ...]] = {
    # (bias, trumps, top two trumps, side aces, side tens, voids, card points /10,
    #  trumps beyond two)
    "parti": (-1.288, 0.035, 0.249, 0.076, -0.079, -0.298, 0.245, 0.691),
    "hundred": (-1.43, -0.232, 0.317, -0.007, -0.179, 0.751, 0.131, 1.17),
    # (bias, trumps, top two trumps, trumps beyond two)
    "ulti": (-1.314, -0.547, 0.575, 3.058),
}
"""Logistic weights per task for a defender's chance of beating the component, fitted on
hands of three club bots: ``python benchmarks/fit_club_bot.py --side defender --hands 6000
--seed 1``."""
