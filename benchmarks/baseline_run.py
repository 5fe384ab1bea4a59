"""Random legal play under an older ulti-rules, for ``bench_engine.py --compare``.

    python benchmarks/baseline_run.py TREE HANDS SEED RUN

TREE holds ``ulti_rules/``, ``rulesets/`` and ``plugins/`` of an older commit (``git
archive``); they are put first on ``sys.path``, so this process imports that code, and
its Four Aces plugin, not the installed one. Prints the hands per second (CPU time) of
run RUN of ``bench_engine.compare_random``: the same loop as
``bench_engine.random_legal_play``, on the same new deals (``bench_engine.fresh_seeds``)
and random choices, after a warm-up on a tenth of run 0's deals.

    python benchmarks/baseline_run.py TREE HANDS SEED RUN --warm WARM

plays the first WARM of run 0's deals first instead (``bench_engine.py --instructions``
counts the instructions of this script with and without the measured hands: HANDS
may then be 0, and 0.0 is printed).
"""

from __future__ import annotations

import random
import sys
import time


def deals(seed: int, hands: int, run: int) -> list[int]:
    """The deals of run ``run``: ``bench_engine.fresh_seeds`` (this script cannot import
    it: that module imports this checkout's ``ulti_rules`` before the old code's could be
    put first; ``tests/test_benchmark.py`` holds the two equal)."""
    first = random.Random(seed).getrandbits(32) + hands * run
    return [first + i for i in range(hands)]


def choices(seed: int, run: int) -> int:
    """The seed of run ``run``'s random choices, as ``bench_engine.compare_random``'s."""
    return seed + run


def main() -> int:
    tree, hands, seed, run = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    warm = int(sys.argv[6]) if sys.argv[5:6] == ["--warm"] else max(1, hands // 10)
    sys.path[:0] = [tree, f"{tree}/plugins"]
    from ulti_rules.engine import Hand
    from ulti_rules.ruleset.loading import load_ruleset

    if not __import__("ulti_rules").__file__.startswith(tree):
        print(f"the code imported is not the one in {tree}", file=sys.stderr)
        return 1
    ruleset = load_ruleset("wikipedia")

    def play(seeds: list[int], choices: int) -> float:
        rng = random.Random(choices)
        choice = rng.choice
        start = time.process_time()
        for number, deal in enumerate(seeds):
            hand = Hand(ruleset, seed=deal, dealer=number % ruleset.players.count)
            legal, apply = hand.legal_actions, hand.apply
            while not hand.is_over:
                apply(choice(legal()))
        return len(seeds) / (time.process_time() - start) if seeds else 0.0

    play(deals(seed, max(hands, warm), 0)[:warm], seed)  # warm the caches
    print(f"{play(deals(seed, hands, run), choices(seed, run)):.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
