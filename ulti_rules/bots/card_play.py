"""Choosing a card as a club player does.

The game in view decides the play:

* **Points** (Parti, 100, Ulti): win a trick as cheaply as possible when it is worth
  it, else throw the lowest card; save high cards; smear an ace or ten to a trick the
  partner is sure to win; the declarer draws trumps with his top trumps, then cashes
  his aces; a defender cashes his sure tricks and leads a suit the declarer must
  answer (through him). In an Ulti the declarer keeps the trump 7 for the last trick
  (the engine holds it back) and a defender keeps a trump above it; a seat whose trump
  7 in the last trick would be scored silently keeps it only while it is sure to win.
* **Betli**: the declarer leads where someone must go over him and ducks under the
  best card, shedding his dangerous high cards; a defender leads low and plays low
  to make the declarer win a trick.
* **Durchmars**: the declarer leads his sure winners and wins every trick he can; a
  defender wins a trick wherever he can. Once it is lost, the points are played for.

Chances are counted from :mod:`card_count`: the cards each seat may still hold.
Every tie is broken by ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from ..game.ranks import SUIT_MASKS
from .card_count import CardCount
from .hand_strength import betli_danger

Mode = Literal["points", "betli", "durchmars"]

T = TypeVar("T")

SURE = 0.75
"""A card is played as a winner when the side wins the trick with it at least this often."""
SMEAR = 0.75
"""A partner's trick counts as won, to smear points onto it, at least this often."""


@dataclass(frozen=True, slots=True)
class PlayPlan:
    """What the hand is about for the seat to play."""

    mode: Mode
    ulti: bool
    """The bid holds an Ulti: the declarer's trump 7, a defender's guard above it."""
    seven_scored: bool
    """This seat's trump 7 in the last trick is scored (a silent Ulti): kept only while
    it is sure to win, else got rid of."""


def choose_card(count: CardCount, legal: Sequence[int], plan: PlayPlan, rng: random.Random) -> int:
    """The card to play, one of ``legal`` (at least one)."""
    if len(legal) == 1:
        return legal[0]
    if plan.mode == "betli":
        return _betli(count, legal, rng)
    if plan.mode == "durchmars":
        return _durchmars(count, legal, plan, rng)
    if count.trick:
        return _follow(count, legal, plan, rng)
    return _lead(count, legal, plan, rng)


# ---------------------------------------------------------------------- chances


def _holds(pool: int, size: int, wanted: int) -> float:
    """The chance that a seat holding ``size`` cards out of ``pool`` holds one of ``wanted``."""
    k = (pool & wanted).bit_count()
    if not k:
        return 0.0
    u = pool.bit_count()
    if size >= u:
        return 1.0
    q = 1.0
    for j in range(size):
        if u - k - j <= 0:
            return 1.0
        q *= (u - k - j) / (u - j)
    return 1.0 - q


def _beats(count: CardCount, seats: Sequence[int], best: int, led: int) -> float:
    """The chance that one of ``seats``, still to play, beats ``best`` in a trick of suit
    ``led``: a higher card of the suit in any of their hands (counted over their hands
    together: a card out that none of the others may hold is theirs), or a trump from
    one who has none of the suit."""
    if not seats:
        return 0.0
    tables = count.order.tables
    beat = tables.beat[best]
    reach = size = 0
    for seat in seats:
        reach |= count.possible[seat]
        size += count.sizes[seat]
    higher = _holds(reach, size, beat & led) if (1 << best) & led else 0.0
    ruff = beat & tables.trump_mask & ~led
    if not ruff:
        return higher
    clear = 1.0 - higher
    for seat in seats:
        pool, held = count.possible[seat], count.sizes[seat]
        void = 1.0 - _holds(pool, held, led)
        clear *= 1.0 - void * _holds(pool, held, ruff)
    return 1.0 - clear


def _best(count: CardCount) -> tuple[int, int]:
    """The card winning the trick in progress and the seat that played it."""
    beat = count.order.tables.beat
    trick = count.trick
    best, index = trick[0], 0
    for i, card in enumerate(trick[1:], 1):
        if (beat[best] >> card) & 1:
            best, index = card, i
    return best, count.seat_of(index)


def _friends(count: CardCount) -> tuple[int, ...]:
    partner = count.partner()
    return (count.seat,) if partner is None else (count.seat, partner)


def _wins(count: CardCount, card: int) -> float:
    """The chance that this seat's side wins the trick in progress if it plays ``card``."""
    beat = count.order.tables.beat
    friends = _friends(count)
    if count.trick:
        led = SUIT_MASKS[count.trick[0] >> 3]
        best, owner = _best(count)
        if (beat[best] >> card) & 1:
            best, owner = card, count.seat
    else:
        led = SUIT_MASKS[card >> 3]
        best, owner = card, count.seat
    rest = count.still_to_play()
    if owner in friends:
        return 1.0 - _beats(count, [s for s in rest if s not in friends], best, led)
    # An opponent is winning: only a partner still to play can take it.
    helping = [s for s in rest if s in friends]
    if not helping:
        return 0.0
    return 0.5 * _beats(count, helping, best, led)


# ---------------------------------------------------------------------- card values


def _outside_above(count: CardCount, card: int) -> int:
    """The cards above ``card`` in its suit that another seat may still hold."""
    return count.order.above[card] & ~count.mine & ~count.played


def _is_top(count: CardCount, card: int) -> bool:
    return not _outside_above(count, card)


def _seven(count: CardCount) -> int:
    """The trump 7 (the lowest trump), -1 without trumps."""
    return count.order.high_to_low[count.trump][7] if count.trump >= 0 else -1


def _seven_safe(count: CardCount) -> bool:
    """Whether this seat's trump 7 is sure to win the last trick: no trump above it is out."""
    seven = _seven(count)
    return not (count.outside() & count.order.above[seven])


def _keep(count: CardCount, card: int, plan: PlayPlan) -> int:
    """What holding ``card`` on is worth, in card points: a sure trick later, a guard."""
    order = count.order
    points = order.points[card]
    height = order.height[card]
    if count.trump >= 0 and card >> 3 == count.trump:
        value = 30 + (7 - height) * 4
        if card == _seven(count) and plan.seven_scored:
            value = 100 if _seven_safe(count) else 0
        elif plan.ulti and not count.is_declarer and _guard(count) == card:
            value += 60
        return value
    if _is_top(count, card):
        return 20 + points
    return points + (7 - height)


def _guard(count: CardCount) -> int:
    """A defender's last trump above the trump 7 while the 7 is out: -1 if none or many."""
    seven = _seven(count)
    if seven < 0 or (count.played | count.mine) >> seven & 1:
        return -1
    higher = count.mine & count.order.above[seven]
    if higher.bit_count() != 1:
        return -1
    return higher.bit_length() - 1


def _pick(options: Sequence[T], key: Callable[[T], Any], rng: random.Random) -> T:
    """The option of least ``key``; ties broken by ``rng``."""
    scored = [(key(o), o) for o in options]
    low = min(s for s, _ in scored)
    tied = [o for s, o in scored if s == low]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def _throw(count: CardCount, legal: Sequence[int], plan: PlayPlan, rng: random.Random) -> int:
    """The card that costs least to lose: no points, low, from a short side suit."""
    trumps = count.mine & count.order.tables.trump_mask

    def cost(card: int) -> float:
        value = _keep(count, card, plan) + 2 * count.order.points[card]
        suit = SUIT_MASKS[card >> 3]
        if trumps and not suit & trumps and (count.mine & suit).bit_count() == 1:
            value -= 3  # shows out of a side suit: a trump can take it later
        return value

    return _pick(legal, cost, rng)


# ---------------------------------------------------------------------- points


def _follow(count: CardCount, legal: Sequence[int], plan: PlayPlan, rng: random.Random) -> int:
    beat = count.order.tables.beat
    points = count.order.points
    best, owner = _best(count)
    partner = count.partner()
    led = SUIT_MASKS[count.trick[0] >> 3]
    rest = count.still_to_play()
    if owner == partner and partner is not None:
        stand = 1.0 - _beats(count, [s for s in rest if s != partner], best, led)
        if stand >= SMEAR:
            return _smear(count, legal, plan, rng)
    winners = [c for c in legal if (beat[best] >> c) & 1 and _wins(count, c) >= SURE]
    if winners:

        def cost(card: int) -> float:
            return _keep(count, card, plan) - points[card]

        card = _pick(winners, cost, rng)
        on_table = sum(points[c] for c in count.trick) + points[card] + 3 * len(rest)
        if count.trick_no == 9:
            on_table += 10
        if on_table >= 10 or cost(card) < 12:
            return card
    return _throw(count, legal, plan, rng)


def _smear(count: CardCount, legal: Sequence[int], plan: PlayPlan, rng: random.Random) -> int:
    """A partner's sure trick: give it points (a ten before an ace), else throw low."""
    points = count.order.points

    def worth(card: int) -> float:
        return 2 * _keep(count, card, plan) - 10 * points[card]

    card = _pick(legal, worth, rng)
    if worth(card) < 0:
        return card
    return _throw(count, legal, plan, rng)


def _lead(count: CardCount, legal: Sequence[int], plan: PlayPlan, rng: random.Random) -> int:
    order = count.order
    trump_mask = order.tables.trump_mask
    outside = count.outside()
    opponents = count.opponents()
    if count.is_declarer and trump_mask:
        mine_t = count.mine & trump_mask
        theirs = 0
        for seat in opponents:
            theirs |= count.possible[seat]
        theirs &= trump_mask
        if mine_t and theirs:
            top = [c for c in legal if c >> 3 == count.trump and _is_top(count, c)]
            if top:
                return _pick(top, lambda c: -order.points[c], rng)
            if mine_t.bit_count() > theirs.bit_count():
                low = [c for c in legal if c >> 3 == count.trump and c != _seven(count)]
                if low:
                    return _pick(low, lambda c: _keep(count, c, plan), rng)
    # Sure tricks: the top card of a side suit the opponents still follow.
    cash = []
    for card in legal:
        suit = SUIT_MASKS[card >> 3]
        if card >> 3 == count.trump or not _is_top(count, card):
            continue
        if _ruffed(count, opponents, suit) < 0.35 and outside & suit:
            cash.append(card)
    if cash:
        return _pick(cash, lambda c: -order.points[c], rng)
    if not count.is_declarer:
        return _lead_through(count, legal, plan, rng)
    side = [c for c in legal if c >> 3 != count.trump] or list(legal)
    return _throw(count, side, plan, rng)


def _ruffed(count: CardCount, opponents: Sequence[int], suit: int) -> float:
    """The chance that an opponent trumps a lead of ``suit``."""
    trump_mask = count.order.tables.trump_mask
    if not trump_mask or suit == trump_mask:
        return 0.0
    p = 0.0
    for seat in opponents:
        pool, size = count.possible[seat], count.sizes[seat]
        void = 1.0 - _holds(pool, size, suit)
        p = max(p, void * _holds(pool, size, trump_mask))
    return p


def _lead_through(
    count: CardCount, legal: Sequence[int], plan: PlayPlan, rng: random.Random
) -> int:
    """A defender's lead: a suit the declarer must answer, low; against an Ulti, a suit
    the declarer has shown out of, to make him spend a trump."""
    declarer = count.declarer
    pool = count.possible[declarer]
    trump_mask = count.order.tables.trump_mask
    if plan.ulti and trump_mask and pool & trump_mask:
        forcing = [c for c in legal if c >> 3 != count.trump and not pool & SUIT_MASKS[c >> 3]]
        if forcing:
            return _throw(count, forcing, plan, rng)
    answer = [c for c in legal if c >> 3 != count.trump and pool & SUIT_MASKS[c >> 3]]
    return _throw(count, answer or list(legal), plan, rng)


# ---------------------------------------------------------------------- betli


def _betli(count: CardCount, legal: Sequence[int], rng: random.Random) -> int:
    order = count.order
    beat = order.tables.beat
    if count.is_declarer:
        if not count.trick:
            # Lead where someone must go over the card; the highest such card sheds danger.
            reach = count.outside()
            size = sum(count.sizes[s] for s in count.possible)

            def safe(card: int) -> float:
                over = _holds(reach, size, order.above[card])
                return round(1.0 - over, 2) * 100 + order.height[card] * 0.01

            return _pick(legal, safe, rng)
        best, _ = _best(count)
        under = [c for c in legal if not (beat[best] >> c) & 1]
        led = SUIT_MASKS[count.trick[0] >> 3]
        if under and (1 << under[0]) & led:  # duck with the highest card that stays under
            return _pick(under, lambda c: order.height[c], rng)
        if under:  # shown out: throw the card most likely to win a trick later
            hand, outside = count.mine, count.outside()
            return _pick(
                under, lambda c: (-betli_danger(order, hand, outside, c), order.height[c]), rng
            )
        if count.still_to_play():
            return _pick(legal, lambda c: -order.height[c], rng)  # the lowest: they may go over
        return _pick(legal, lambda c: order.height[c], rng)
    declarer = count.declarer
    if not count.trick:
        # Lead low in a suit the declarer holds: he must go over, and may have to win.
        pool = count.possible[declarer]
        answer = [c for c in legal if pool & SUIT_MASKS[c >> 3]] or list(legal)
        return _pick(answer, lambda c: -order.height[c], rng)
    best, owner = _best(count)
    if owner == declarer:
        under = [c for c in legal if not (beat[best] >> c) & 1]
        if under:  # leave him the trick: the highest card that stays under
            return _pick(under, lambda c: order.height[c], rng)
    # The declarer is still to play, or we are forced over: low, so that he must go over.
    return _pick(legal, lambda c: -order.height[c], rng)


# ---------------------------------------------------------------------- durchmars


def _durchmars(count: CardCount, legal: Sequence[int], plan: PlayPlan, rng: random.Random) -> int:
    points = count.order.points
    height = count.order.height
    if count.is_declarer:
        chances = {c: _wins(count, c) for c in legal}
        top = max(chances.values())
        winners = [c for c in legal if chances[c] >= top - 1e-9]
        if not count.trick:
            # Lead a sure winner: trumps first, then the side suits.
            return _pick(winners, lambda c: (c >> 3 != count.trump, -points[c], height[c]), rng)
        return _pick(winners, lambda c: _keep(count, c, plan), rng)
    chances = {c: _wins(count, c) for c in legal}
    top = max(chances.values())
    if top > 0.05:
        winners = [c for c in legal if chances[c] >= top - 1e-9]
        return _pick(winners, lambda c: _keep(count, c, plan), rng)
    return _throw(count, legal, plan, rng)
