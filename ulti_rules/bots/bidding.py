"""The club player's auction: what each bid is worth to this hand, and what to say.

Each bid is weighed by its expected payment: for each component its value made
against its value (and failure penalty) lost, by the chance ``hand_strength`` gives,
in the best trump the bid allows the hand; a lone plain Simple that may stay
uncontested costs what ``simple.uncontested`` makes it cost. The bot

* opens (forehand must bid) with the bid worth most to his twelve cards, after the
  discard that bid wants (``talon``);
* picks the talon up when a higher bid is worth at least ``BID_MARGIN`` to his ten
  cards (the two unknown cards can only help: he chooses what to lay down), but never
  the talon he laid himself: his bid was the best those twelve cards allowed;
* bids the best bid when it is worth ``BID_MARGIN`` or more, and passes otherwise
  where passing is allowed;
* names the trump that makes his bid worth most, and gives a Simple up only when
  playing it is expected to cost more than giving up;
* in round 1 of a two-round auction (five cards each) passes where he may; the opener
  bids low, and confirms or raises once he holds his whole hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..cards import mask_of, suit_number
from ..engine.actions import Action, Bid, DeclareTrump, Discard, GiveUp, Pass, PickUp
from ..engine.observation import Observation
from ..engine.trump import feasible_suits
from ..game import Game
from ..game.ranks import SUIT_MASKS
from ..ruleset.ladder import can_overcall
from .bid_shape import BidShape, Part, Purpose, bid_shapes
from .hand_strength import HandView, chance, seat_view
from .talon import choose_discard

BID_MARGIN = 0.6
"""A bid is made (or the talon taken for one) only when worth this much per defender:
a defender's seat against a weak declarer is worth something too."""
PICKUP_BONUS = 0.25
"""What the two unknown talon cards add, on average, to the best bid of ten cards."""
UNBIDDABLE = -1000.0
"""Added to the worth of a bid the bot does not make unless nothing else is legal."""
UNCONTESTED_CHANCE = 0.8
"""How often a lone plain Simple is left standing (and lost double, where so ruled)."""


@dataclass
class Weigher:
    """Weighs bids for one hand: chances cached per component, trump and hand."""

    game: Game
    view: HandView
    shapes: dict[str, BidShape] = field(init=False)
    cache: dict[tuple[object, ...], float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.shapes = bid_shapes(self.game)

    def chance(self, hand: int, trump: int, part: Part) -> float:
        key = (hand, trump, part.key)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = chance(self.view, hand, trump, part)
        return found

    def worth(self, shape: BidShape, hand: int, trump: int, multiplier: int = 1) -> float:
        """The bid's expected payment per defender, for ``hand`` in ``trump``; a bid with a
        plugin's kind the hand is not trivially strong for is not biddable (``UNBIDDABLE``)."""
        total = 0.0
        for part in shape.parts:
            p = self.chance(hand, trump if part.trump else -1, part)
            if part.task == "unknown" and p == 0.0:
                total += UNBIDDABLE
            total += part.value * (2 * p - 1) - (1 - p) * part.penalty
        total -= shape.uncontested_cost * UNCONTESTED_CHANCE
        return total * multiplier

    def best_trump(self, shape: BidShape, hand: int) -> tuple[float, int]:
        """(worth, trump) of the bid in its best trump for this hand."""
        best = (-1e9, -1)
        for trump in trumps_for(shape, hand):
            worth = self.worth(shape, hand, trump)
            if worth > best[0]:
                best = (worth, trump)
        return best


def weigher(game: Game, obs: Observation) -> Weigher:
    """A weigher for the seat observing: the talon's points are known to him if he laid it."""
    return Weigher(game, seat_view(game, obs.talon))


def trumps_for(shape: BidShape, hand: int) -> tuple[int, ...]:
    """The suits worth playing the bid in with ``hand`` (-1: no trump): suits of three
    cards or more (a shorter one is no trump for any bid, unless no suit is longer), and
    where the bid needs a marriage, the suits in which the hand holds it up."""
    if shape.trump == "none":
        return (-1,)
    info = shape.info
    suits = tuple(s for s in info.suits if (hand & SUIT_MASKS[s]).bit_count() > 2) or info.suits
    return feasible_suits(info, hand, suits) if info.hundred else suits


# ---------------------------------------------------------------------- the discard


def candidate_shapes(game: Game, standing: str | None, confirm: bool = False) -> list[BidShape]:
    """The bids that may follow the standing one (the round-1 bid itself where confirmed)."""
    shapes = bid_shapes(game)
    above = shapes[standing].info.bid if standing is not None else None
    return [
        s
        for s in shapes.values()
        if s.info.biddable and (can_overcall(s.info.bid, above) or (confirm and s.id == standing))
    ]


def plan_discard(
    game: Game,
    obs: Observation,
    allowed: Sequence[Discard],
    rng: random.Random,
) -> Discard:
    """The discard for the best bid the twelve cards can make after it."""
    hand = mask_of(obs.hand)
    pairs = {d.cards: d for d in allowed}
    allowed_pairs = {(p[0], p[1]) for p in pairs if len(p) == 2}
    confirm = _confirming(game, obs)
    shapes = candidate_shapes(game, obs.bid, confirm)
    best: tuple[float, tuple[int, int]] | None = None
    tried: dict[tuple[int, Purpose], tuple[tuple[int, int], Weigher]] = {}
    for shape in shapes:
        purpose = shape.purpose
        for trump in trumps_for(shape, hand):
            key = (trump, purpose)
            if key not in tried:
                pair = choose_discard(game, hand, trump, purpose, allowed_pairs)
                tried[key] = (pair, Weigher(game, seat_view(game, pair)))
            pair, weigh = tried[key]
            kept = hand & ~((1 << pair[0]) | (1 << pair[1]))
            if trump not in trumps_for(shape, kept):
                continue
            worth = weigh.worth(shape, kept, trump)
            if best is None or worth > best[0]:
                best = (worth, pair)
    if best is None:
        return rng.choice(list(allowed))
    return pairs[best[1]]


def _confirming(game: Game, obs: Observation) -> bool:
    """A two-round auction's round-1 winner at his discard: the bid standing is his own
    round-1 bid, and nobody has taken the talon yet (he confirms or raises it next)."""
    if game.ruleset.auction.two_round is None or obs.bid is None:
        return False
    if any(type(action) is PickUp for _, action in obs.history):
        return False
    return _bidder_is_me(obs)


def _bidder_is_me(obs: Observation) -> bool:
    for seat, action in reversed(obs.history):
        if type(action) is Bid:
            return seat == obs.seat
    return False


# ---------------------------------------------------------------------- speaking and bidding


def choose_bid(
    game: Game,
    obs: Observation,
    actions: Sequence[Action],
    rng: random.Random,
    multiplier_for: str | None = None,
    multiplier: int = 1,
) -> Action:
    """A bid (or a pass where allowed) from ``actions``: the best bid when it is worth
    ``BID_MARGIN``, the best one anyway when a bid is obligatory."""
    weigh = weigher(game, obs)
    hand = mask_of(obs.hand)
    bids = [a for a in actions if type(a) is Bid]
    passing = next((a for a in actions if type(a) is Pass), None)
    if not bids:
        return passing if passing is not None else rng.choice(list(actions))
    scored = []
    for action in bids:
        shape = weigh.shapes[action.bid]
        factor = multiplier if action.bid == multiplier_for else 1
        if action.trump is not None:
            worth = weigh.worth(shape, hand, suit_number(action.trump), factor)
        else:
            worth = weigh.best_trump(shape, hand)[0] * factor
        scored.append((worth, action))
    top = max(w for w, _ in scored)
    if passing is not None and top < BID_MARGIN:
        return passing
    tied = [a for w, a in scored if w >= top - 1e-9]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def first_round(game: Game, actions: Sequence[Action]) -> Action:
    """Round 1 of a two-round auction, bid on five cards: too few to weigh a bid by (and
    round-1 bids count double). Pass where one may; the opener who must bid bids the
    lowest bid that cannot be left standing uncontested (a lone plain Simple that
    ``simple.uncontested`` loses double), to confirm or raise it once he holds his whole
    hand."""
    passing = next((a for a in actions if type(a) is Pass), None)
    if passing is not None:
        return passing
    shapes = bid_shapes(game)
    bids: list[Action] = [a for a in actions if isinstance(a, Bid)]
    safe = [a for a in bids if isinstance(a, Bid) and not shapes[a.bid].uncontested_cost]
    return (safe or bids or list(actions))[0]


def choose_speech(
    game: Game, obs: Observation, actions: Sequence[Action], rng: random.Random
) -> Action:
    """Pick the talon up, bid straight away, or pass."""
    pick = next((a for a in actions if type(a) is PickUp), None)
    bids = [a for a in actions if type(a) is Bid]
    passing = next((a for a in actions if type(a) is Pass), None)
    if bids:
        chosen = choose_bid(game, obs, [*bids, *([passing] if passing else [])], rng)
        if type(chosen) is Bid or pick is None:
            return chosen
    if pick is not None and _worth_picking(game, obs):
        return pick
    if passing is not None:
        return passing
    return pick if pick is not None else rng.choice(list(actions))


def _worth_picking(game: Game, obs: Observation) -> bool:
    """Whether a higher bid is worth the talon. Never his own talon: he weighed those
    twelve cards when he laid it, and the bid he made was the best they allowed."""
    if obs.talon is not None:
        return False
    weigh = weigher(game, obs)
    hand = mask_of(obs.hand)
    shapes = candidate_shapes(game, obs.bid)
    best = max((weigh.best_trump(s, hand)[0] for s in shapes), default=-1e9)
    return best + PICKUP_BONUS >= BID_MARGIN


# ---------------------------------------------------------------------- trump


def choose_trump(
    game: Game, obs: Observation, actions: Sequence[Action], rng: random.Random
) -> Action:
    """The offered suit that makes the bid worth most (his longest, strongest suit); a
    give-up where playing is expected to cost more."""
    weigh = weigher(game, obs)
    hand = mask_of(obs.hand)
    suits = [a for a in actions if type(a) is DeclareTrump]
    if obs.bid is None or not suits:
        return rng.choice(list(actions))
    shape = weigh.shapes[obs.bid]
    scored = []
    for action in suits:
        assert isinstance(action, DeclareTrump)
        trump = suit_number(action.suit)
        worth = weigh.worth(shape, hand, trump)
        length = (hand & SUIT_MASKS[trump]).bit_count()
        scored.append((worth + 0.001 * length, action))
    top = max(w for w, _ in scored)
    give_up = next((a for a in actions if type(a) is GiveUp), None)
    if give_up is not None and top < -game.ruleset.simple.give_up_cost:
        return give_up
    tied = [a for w, a in scored if w >= top - 1e-9]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def gives_up(game: Game, obs: Observation) -> bool:
    """Whether playing the bid is expected to cost more than giving it up."""
    if obs.bid is None or obs.trump is None:
        return False
    weigh = weigher(game, obs)
    shape = weigh.shapes[obs.bid]
    worth = weigh.worth(shape, mask_of(obs.hand), suit_number(obs.trump))
    return worth < -game.ruleset.simple.give_up_cost
