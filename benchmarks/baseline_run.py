"""Random legal play under an older ulti-rules, for ``bench_engine.py --compare``.

    python benchmarks/baseline_run.py TREE HANDS SEED RUNS

TREE holds ``ulti_rules/``, ``rulesets/`` and ``plugins/`` of an older commit (``git
archive``); they are put first on ``sys.path``, so this process imports that code, and
its Four Aces plugin, not the installed one. Prints the hands per second (CPU time) of
each run, one per line: the same loop as ``bench_engine.random_legal_play``.
"""

from __future__ import annotations

import random
import sys
import time


def main() -> int:
    tree, hands, seed, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    sys.path[:0] = [tree, f"{tree}/plugins"]
    from ulti_rules.engine import Hand
    from ulti_rules.ruleset.loading import load_ruleset

    if not __import__("ulti_rules").__file__.startswith(tree):
        print(f"the code imported is not the one in {tree}", file=sys.stderr)
        return 1
    ruleset = load_ruleset("wikipedia")
    seeds = [random.Random(seed).getrandbits(32) + i for i in range(hands)]  # as bench_engine

    def play(count: int) -> float:
        rng = random.Random(seed)
        choice = rng.choice
        start = time.process_time()
        for number, deal in enumerate(seeds[:count]):
            hand = Hand(ruleset, seed=deal, dealer=number % ruleset.players.count)
            legal, apply = hand.legal_actions, hand.apply
            while not hand.is_over:
                apply(choice(legal()))
        return count / (time.process_time() - start)

    play(max(1, hands // 10))  # warm the caches, as the benchmark does
    for _ in range(runs):
        print(f"{play(hands):.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
