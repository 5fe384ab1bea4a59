"""How many hands per second the engine plays, on one core (docs/performance.md).

Two loops, both with seeded deals and random legal cards:

* ``play``: the play phase of a Simple Hearts (the trump fixed by the bid), deal
  included: shuffle and deal, forehand discards his first two cards and bids
  Simple Hearts, the others pass, the kontra round is passed, and the ten tricks
  are played with random legal cards through the fast paths (the loop in
  docs/engine.md).
* ``whole``: whole hands, auction included, with ``ulti_rules.bots.SimpleBidder``
  in every seat, driven by ``ulti_rules.bots.play_out``; the dealer rotates.

Neither loop reads ``hand.facts`` or settles (that costs about 40 µs more a hand).

    python benchmarks/bench_engine.py --hands 2000 --seed 1 --mode both
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

from ulti_rules.bots import SimpleBidder, play_out
from ulti_rules.engine import Bid, Hand
from ulti_rules.engine.actions import DISCARDS, PASS
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.ruleset.schema import Ruleset

PLAY_BID = "parti_red"


def pin_to_one_core() -> str:
    """Run on the first CPU this process may use, so that one core is measured."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def check_play_mode(ruleset: Ruleset) -> str | None:
    """Why the play-phase loop cannot run under this ruleset, or None."""
    if ruleset.auction.two_round is not None or ruleset.deal.talon != "forehand":
        return "the play mode needs the usual auction (forehand takes the talon and bids first)"
    try:
        bid = ruleset.bid(PLAY_BID)
    except KeyError:
        return f"the play mode bids '{PLAY_BID}' (Simple Hearts), which this ladder lacks"
    if not bid.red:
        return f"'{PLAY_BID}' is not a red bid here, so it does not fix the trump"
    return None


def play_phase(ruleset: Ruleset, seeds: list[int], rng: random.Random) -> None:
    """The play phase of Simple Hearts, deal included: the loop of docs/engine.md."""
    choice = rng.choice
    bid = Bid(PLAY_BID)
    for seed in seeds:
        hand = Hand(ruleset, seed=seed)
        first, second = hand.cards(hand.seats.forehand)[:2]
        hand.apply(DISCARDS[(first, second)])
        hand.apply(bid)
        for _ in range(3):
            hand.apply(PASS)
        while not hand.is_over:
            cards = hand.legal_card_list()
            if cards:
                hand.play_card(choice(cards))
            else:  # the kontra round after trick 1
                hand.apply(PASS)


def whole_hands(ruleset: Ruleset, seeds: list[int], rng: random.Random) -> None:
    """Whole hands with the simple bidder in every seat; the dealer rotates."""
    bot = SimpleBidder()
    players = ruleset.players.count
    for number, seed in enumerate(seeds):
        play_out(Hand(ruleset, seed=seed, dealer=number % players), bot, rng)


MODES: dict[str, tuple[str, Callable[[Ruleset, list[int], random.Random], None]]] = {
    "play": ("play phase (Simple Hearts, deal included)", play_phase),
    "whole": ("whole hands (simple bidder)", whole_hands),
}


def measure(
    loop: Callable[[Ruleset, list[int], random.Random], None],
    ruleset: Ruleset,
    hands: int,
    seed: int,
    runs: int,
) -> list[float]:
    """Hands per second of each run; every run plays the same seeded hands."""
    seeds = [random.Random(seed).getrandbits(32) + i for i in range(hands)]
    loop(ruleset, seeds[: max(1, hands // 10)], random.Random(seed))  # warm the caches
    rates = []
    for _ in range(runs):
        rng = random.Random(seed)
        start = time.perf_counter()
        loop(ruleset, seeds, rng)
        rates.append(hands / (time.perf_counter() - start))
    return rates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per run (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of deals and cards (default 1)")
    parser.add_argument("--mode", choices=["play", "whole", "both"], default="both")
    parser.add_argument("--ruleset", default="wikipedia", help="name or path (default wikipedia)")
    parser.add_argument("--runs", type=int, default=5, help="runs per mode (default 5)")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.runs < 1:
        parser.error("--hands and --runs must be at least 1")
    ruleset = load_ruleset(args.ruleset)
    modes = ["play", "whole"] if args.mode == "both" else [args.mode]
    if "play" in modes:
        problem = check_play_mode(ruleset)
        if problem is not None:
            if args.mode == "play":
                parser.exit(1, f"bench_engine: {ruleset.name}: {problem}; use --mode whole\n")
            print(f"skipping the play mode: {problem}")
            modes.remove("play")
    pinned = pin_to_one_core()
    print(
        f"bench_engine: ruleset {ruleset.name}, {args.hands} hands a run, "
        f"{args.runs} run{'s' if args.runs != 1 else ''}, "
        f"seed {args.seed}; Python {platform.python_version()}, {pinned}"
    )
    for mode in modes:
        label, loop = MODES[mode]
        rates = measure(loop, ruleset, args.hands, args.seed, args.runs)
        print(
            f"{label:<45} best {max(rates):>8,.0f} hands/s   median "
            f"{statistics.median(rates):>8,.0f} hands/s   "
            f"(runs: {', '.join(f'{r:,.0f}' for r in rates)})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
