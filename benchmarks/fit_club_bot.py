"""Fit the club bot's evaluation: the logistic weights of ``hand_strength.WEIGHTS`` and
``kontra_calls.DEFENSE_WEIGHTS``, from hands the club bot itself plays.

* **Declarer** (``--side declarer``): for each task (Parti, 100, Ulti, Betli, Durchmars),
  seeded deals where forehand is made to declare a bid holding it — after the discard
  the bot would make for it, in the trump it weighs best — and the other two pass; the
  hand is then played out by club bots that never double (a kontra changes no card).
  Each component's features (``hand_strength.features``) and whether it was made are
  the data. Hands the current weights call hopeless (under 2%) are kept one time in
  seven, so that the data holds the hands worth bidding.
* **Defender** (``--side defender``): whole seeded hands of three club bots (no
  kontras); for each defender and each component of the bid, his features
  (``kontra_calls.defense_features``) and whether the declarer failed it.

The weights are fitted by Newton's method with a small ridge penalty (not on the
bias) and printed with the calibration of the fit: per tenth of predicted chance, the
hands in it, the mean prediction and the rate seen. The evaluation shapes the
discards, so a refit can be run again on the data the new weights give.

    python benchmarks/fit_club_bot.py --side declarer --hands 3000 --seed 11
    python benchmarks/fit_club_bot.py --side defender --hands 6000 --seed 1
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from typing import ClassVar

from ulti_rules.bots import ClubPlayer, play_out
from ulti_rules.bots.bid_shape import BidShape, bid_shapes
from ulti_rules.bots.hand_strength import WEIGHTS, HandView, chance, features
from ulti_rules.bots.kontra_calls import DEFENSE_WEIGHTS, defense_features
from ulti_rules.bots.talon import choose_discard
from ulti_rules.cards import suit_id, suit_number
from ulti_rules.engine import Bid, DeclareTrump, Hand, Pass
from ulti_rules.engine.actions import DISCARDS
from ulti_rules.engine.trump import feasible_suits
from ulti_rules.game import Game
from ulti_rules.ruleset.loading import load_game

Row = tuple[tuple[float, ...], int]
TASKS = ("parti", "hundred", "ulti", "betli", "durchmars")


class Undoubling(ClubPlayer):
    """The club bot without kontras."""

    doubles: ClassVar[bool] = False


def declared(game: Game, rng: random.Random, task: str) -> list[tuple[str, Row]]:
    """One forced declaration of a bid holding ``task``, played out; [] if none fits."""
    shapes = [s for s in bid_shapes(game).values() if task in s.tasks and len(s.parts) <= 2]
    shape = rng.choice(shapes)
    hand = game.new_hand(seed=rng.getrandbits(32), dealer=0)
    forehand = hand.current_player
    assert forehand is not None
    full = sum(1 << c for c in hand.cards(forehand))
    points = game.tables(-1).points
    best = None
    for trump in (-1,) if shape.trump == "none" else shape.info.suits:
        a, b = choose_discard(game, full, trump, shape.purpose)
        kept = full & ~((1 << a) | (1 << b))
        if trump >= 0 and not feasible_suits(shape.info, kept, (trump,)):
            continue
        view = HandView(game, points[a] + points[b])
        main = next(p for p in shape.parts if p.task == task)
        p = chance(view, kept, trump if main.trump else -1, main)
        if best is None or p > best[0]:
            best = (p, trump, (a, b), kept, view)
    if best is None:
        return []
    p, trump, pair, kept, view = best
    if p < 0.02 and rng.random() > 1 / 7:
        return []
    if not _declare(hand, shape, trump, pair):
        return []
    play_out(hand, Undoubling(), rng)
    facts = hand.facts
    if facts is None:
        return []
    rows = []
    for part in shape.parts:
        spec = game.ruleset.contracts[part.id]
        made = game.registry.kinds[spec.kind].judge(spec, facts, game.ruleset)
        found = features(view, kept, trump if part.trump else -1, part)
        if found:
            rows.append((part.task, (found, int(made))))
    return rows


def _declare(hand: Hand, shape: BidShape, trump: int, pair: tuple[int, int]) -> bool:
    """Forehand discards ``pair`` and bids ``shape``; the others pass; he names ``trump``."""
    named = suit_id(trump) if trump >= 0 else None
    bid = Bid(shape.id, named if hand.ruleset.trump.named == "in_bid" and shape.trump == "suit"
              else None)  # fmt: skip
    for action in (DISCARDS[pair], bid):
        if hand.why_refused(action) is not None:
            return False
        hand.apply(action)
    while hand.phase == "auction":
        hand.apply(Pass())
    if hand.phase == "trump":
        assert named is not None
        hand.apply(DeclareTrump(named))
    return True


def defended(game: Game, rng: random.Random) -> list[tuple[str, Row]]:
    """A whole hand of club bots: each defender's features against each component."""
    hand = game.new_hand(seed=rng.getrandbits(32), dealer=rng.randrange(game.ruleset.players.count))
    bot = Undoubling()
    held: dict[int, int] = {}
    while not hand.is_over:
        if hand.phase == "play" and not hand.tricks and not held:
            held = {s: sum(1 << c for c in hand.cards(s)) for s in hand.seats.active}
        hand.apply(bot.choose(hand, rng))
    contract, facts = hand.contract, hand.facts
    if contract is None or facts is None or not held:
        return []
    trump = suit_number(contract.trump) if contract.trump else -1
    rows = []
    for part in bid_shapes(game)[contract.bid].parts:
        spec = game.ruleset.contracts[part.id]
        made = game.registry.kinds[spec.kind].judge(spec, facts, game.ruleset)
        for seat in hand.seats.active:
            if seat != contract.declarer:
                found = defense_features(game, held[seat], trump, part)
                if found:
                    rows.append((part.task, (found, int(not made))))
    return rows


def fit(rows: Sequence[Row], ridge: float = 0.5, rounds: int = 30) -> list[float]:
    """Logistic regression by Newton's method; the first feature is the bias."""
    size = len(rows[0][0])
    w = [0.0] * size
    for _ in range(rounds):
        grad = [ridge * w[j] if j else 0.0 for j in range(size)]
        hess = [[ridge if i == j and i else 0.0 for j in range(size)] for i in range(size)]
        for x, y in rows:
            p = _sigmoid(sum(a * b for a, b in zip(w, x, strict=True)))
            r = p * (1 - p)
            for i in range(size):
                grad[i] += (p - y) * x[i]
                for j in range(size):
                    hess[i][j] += r * x[i] * x[j]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return w


def _sigmoid(score: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, score))))


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a small, well-posed system)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for i in range(n):
        pivot = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[pivot] = m[pivot], m[i]
        if abs(m[i][i]) < 1e-12:
            continue
        m[i] = [v / m[i][i] for v in m[i]]
        for r in range(n):
            if r != i and m[r][i]:
                factor = m[r][i]
                m[r] = [v - factor * u for v, u in zip(m[r], m[i], strict=True)]
    return [m[i][n] for i in range(n)]


def calibration(rows: Sequence[Row], w: Sequence[float]) -> str:
    """Per tenth of predicted chance: hands, mean prediction, rate seen."""
    bins: list[list[float]] = [[0, 0.0, 0] for _ in range(10)]
    for x, y in rows:
        p = _sigmoid(sum(a * b for a, b in zip(w, x, strict=True)))
        cell = bins[min(9, int(p * 10))]
        cell[0] += 1
        cell[1] += p
        cell[2] += y
    return " ".join(f"{int(n)}:{s / n:.2f}/{k / n:.2f}" for n, s, k in bins if n)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", choices=("declarer", "defender"), default="declarer")
    parser.add_argument("--hands", type=int, default=3000, help="hands per task and ruleset")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--rulesets", nargs="+", default=["wikipedia", "older-20-100"])
    args = parser.parse_args(argv)
    data: dict[str, list[Row]] = defaultdict(list)
    for name in args.rulesets:
        game = load_game(name)
        rng = random.Random(args.seed)
        if args.side == "declarer":
            for task in TASKS:
                kept = tries = 0
                while kept < args.hands and tries < 200 * args.hands:
                    tries += 1
                    rows = declared(game, rng, task)
                    kept += bool(rows)
                    for what, row in rows:
                        data[what].append(row)
        else:
            for _ in range(args.hands):
                for what, row in defended(game, rng):
                    data[what].append(row)
    current = WEIGHTS if args.side == "declarer" else DEFENSE_WEIGHTS
    for task in TASKS:
        rows = data.get(task)
        if not rows:
            continue
        w = fit(rows)
        rate = sum(y for _, y in rows) / len(rows)
        print(f"{task}: {len(rows)} components, rate {rate:.3f}")
        if task in current:
            print(f"  now:    {calibration(rows, current[task])}")
        print(f"  fitted: {calibration(rows, w)}")
        print(f"  weights {tuple(round(v, 3) for v in w)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
