"""Is the club bot better than the simple one? Seeded hands, one lone seat against two.

For each ruleset, ``--hands`` seeded deals are played twice:

* **club vs simple**: one ``club`` seat against ``simple`` in every other seat;
* **simple vs club**: one ``simple`` seat against ``club`` in every other seat.

The lone seat rotates over every seat of the table (four with ``four-player``, where
it sits out when it deals, as the rules have it) and the dealer over every seat, so
that each lone seat meets every position equally; both runs play the same deals with
the same seeds. Each hand is settled as ``ulti simulate`` settles it (a hand nobody
bid costs what ``auction.all_pass`` says). Printed: the lone seat's mean payment per
hand with its standard error (the per-hand payments' sample standard deviation over
the square root of the number of hands), and the difference between the two means
with its standard error; the club bot beats ``simple`` clearly where the difference is
well outside two standard errors.

    python benchmarks/bench_bots.py --hands 2000 --seed 1

The time column is CPU time (``time.process_time``) per hand of each run. ``--speed``
measures instead how long a whole hand of three (four) club bots takes, auction
included: the best of three runs of ``--hands`` seeded hands per ruleset.

    python benchmarks/bench_bots.py --speed --hands 300
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ulti_rules.bots import bot, play_out
from ulti_rules.bots.protocol import Bot
from ulti_rules.game import Game
from ulti_rules.ruleset.loading import load_game
from ulti_rules.scoring.all_pass import all_pass_payments
from ulti_rules.scoring.settlement import settle_payments

BUNDLED = ("wikipedia", "tournament", "older-20-100", "four-player", "two-round-auction")


@dataclass(frozen=True)
class Run:
    """One lone seat's payments over the hands of a run."""

    payments: tuple[int, ...]
    seconds: float

    @property
    def mean(self) -> float:
        return statistics.fmean(self.payments)

    @property
    def error(self) -> float:
        return statistics.stdev(self.payments) / math.sqrt(len(self.payments))


def lone_payment(
    game: Game, lone: Bot, others: Bot, seat: int, dealer: int, seeds: tuple[int, int]
) -> int:
    """What the lone bot at ``seat`` wins or loses in one seeded hand."""
    count = game.ruleset.players.count
    players = [others] * count
    players[seat] = lone
    deal_seed, bot_seed = seeds
    hand = play_out(game.new_hand(seed=deal_seed, dealer=dealer), players, random.Random(bot_seed))
    contract = hand.contract
    if contract is None:
        return all_pass_payments(game.ruleset, dealer)[seat]
    return settle_payments(game, contract, hand.facts, trusted=True).get(seat, 0)


def run(game: Game, lone: str, others: str, seeds: Sequence[tuple[int, int]]) -> Run:
    """The lone bot against the others over every seeded hand, seat and dealer rotating."""
    count = game.ruleset.players.count
    lone_bot, other_bot = bot(lone), bot(others)
    start = time.process_time()
    payments = tuple(
        lone_payment(game, lone_bot, other_bot, i % count, (i // count) % count, pair)
        for i, pair in enumerate(seeds)
    )
    return Run(payments, time.process_time() - start)


def speed(game: Game, name: str, hands: int, seed: int) -> float:
    """CPU milliseconds per whole hand with ``name`` in every seat: best of three runs."""
    seeds = seeds_for(seed, hands)
    count = game.ruleset.players.count
    best = math.inf
    for _ in range(3):
        player = bot(name)
        start = time.process_time()
        for i, (deal_seed, bot_seed) in enumerate(seeds):
            hand = game.new_hand(seed=deal_seed, dealer=i % count)
            play_out(hand, player, random.Random(bot_seed))
        best = min(best, time.process_time() - start)
    return best / hands * 1000


def seeds_for(seed: int, hands: int) -> list[tuple[int, int]]:
    """A deal seed and a bot seed per hand, the same for both runs of a ruleset."""
    rng = random.Random(seed)
    return [(rng.getrandbits(32), rng.getrandbits(32)) for _ in range(hands)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per run (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")
    parser.add_argument(
        "--rulesets",
        nargs="+",
        default=list(BUNDLED),
        metavar="NAME",
        help="rulesets to play (default: the five bundled ones)",
    )
    parser.add_argument("--bot", default="club", help="the bot measured (default: club)")
    parser.add_argument("--against", default="simple", help="the bot it meets (default: simple)")
    parser.add_argument(
        "--speed",
        action="store_true",
        help="time whole hands of --bot in every seat instead (best of three runs)",
    )
    args = parser.parse_args(argv)
    if args.hands < 2:
        parser.error("--hands must be at least 2 (a standard error needs two hands)")
    if args.speed:
        print(f"| Ruleset | CPU ms per hand, {args.bot} in every seat (best of 3 × {args.hands}) |")
        print("|---|---:|")
        for name in args.rulesets:
            print(f"| {name} | {speed(load_game(name), args.bot, args.hands, args.seed):.2f} |")
        return 0
    a, b = args.bot, args.against
    print(
        f"{args.hands} hands per run, seed {args.seed}; mean payment per hand of the lone "
        "seat ± its standard error\n"
    )
    print(
        f"| Ruleset | {a} vs 2 {b}: {a}'s mean | {b} vs 2 {a}: {b}'s mean "
        f"| Difference | In standard errors | CPU ms per hand |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name in args.rulesets:
        game = load_game(name)
        seeds = seeds_for(args.seed, args.hands)
        first = run(game, a, b, seeds)
        second = run(game, b, a, seeds)
        difference = first.mean - second.mean
        error = math.hypot(first.error, second.error)
        ms = (first.seconds + second.seconds) / (2 * args.hands) * 1000
        print(
            f"| {name} | {first.mean:+.3f} ± {first.error:.3f} | {second.mean:+.3f} ± "
            f"{second.error:.3f} | {difference:+.3f} ± {error:.3f} | {difference / error:.1f} "
            f"| {ms:.2f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
