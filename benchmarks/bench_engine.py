"""How many hands per second the engine plays, on one core (docs/performance.md).

Loops, all with seeded deals and seeded random choices:

* ``play``: the play phase of a Simple Hearts (the trump fixed by the bid), deal
  included: shuffle and deal, forehand discards his first two cards and bids
  Simple Hearts, the others pass, the kontra round is passed, and the ten tricks
  are played with random legal cards through the fast paths (the loop in
  docs/engine.md).
* ``whole``: whole hands, auction included, with ``ulti_rules.bots.SimpleBidder``
  in every seat, driven by ``ulti_rules.bots.play_out``; the dealer rotates.
* ``random``: random legal play through the public API: a uniformly random action
  of ``legal_actions()`` to ``apply()`` at every step, auction and kontras included.
* ``simulate``: the ``whole`` loop, then what ``ulti simulate`` does with the hands
  (each one's contract, then their settlement, a batch at a time as the command
  settles them).

``--compare`` times, in one run, each figure of issue 8 beside what it is measured
against, and says whether each target holds: the engine's play-phase playouts
against a plain-Python reference loop (``reference_loop.py``); random legal play
under ``two-round-auction`` against ``wikipedia``, and ``wikipedia`` against the code
issue 8 was measured on (``BASELINE_COMMIT``, taken from git and run in a process of its
own, in turn with this code; the recorded ``BASELINE_RANDOM_WIKIPEDIA`` only where git
cannot give it), each run on new deals (``fresh_seeds``); ``simulate`` against ``whole``.
The clock is CPU time (``time.process_time``).

``--instructions`` measures the figure of the four that has missed its target most often,
``wikipedia`` against ``BASELINE_COMMIT``, in machine instructions per hand instead
(valgrind's callgrind; a few minutes, and within a few instructions a hand the same count
on every run, whatever else the machine runs).

    python benchmarks/bench_engine.py --hands 2000 --seed 1 --mode both
    python benchmarks/bench_engine.py --compare
    python benchmarks/bench_engine.py --instructions
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ulti_rules.bots import SimpleBidder, play_out
from ulti_rules.engine import Bid, Hand
from ulti_rules.engine.actions import DISCARDS, PASS
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.ruleset.schema import Ruleset

from reference_loop import Rules, Start, rules_for, start_of
from reference_loop import play as reference_play

PLAY_BID = "parti_red"

BASELINE_COMMIT = "1042f4a"
"""The code issue 8 measured ("~1,000 hands/s CPU on wikipedia"): the last commit before
it was filed. ``--compare`` runs its random legal play side by side with this code's."""
BASELINE_RANDOM_WIKIPEDIA = 1934.0
"""Random legal play under ``wikipedia`` at the baseline, recorded for a clone without
git history: hands/s of CPU time, best of four invocations of ``--mode random`` (five runs
of 2,000 hands each) at 33aef22, which plays that loop as fast as 1042f4a (side by side:
1,670-1,765 and 1,810-1,828 hands/s)."""

Loop = Callable[[Ruleset, list[int], random.Random], None]


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


def bid_simple_hearts(hand: Hand) -> Hand:
    """Forehand discards his first two cards and bids Simple Hearts; the others pass."""
    first, second = hand.cards(hand.seats.forehand)[:2]
    hand.apply(DISCARDS[(first, second)])
    hand.apply(Bid(PLAY_BID))
    for _ in range(3):
        hand.apply(PASS)
    return hand


def play_phase(ruleset: Ruleset, seeds: list[int], rng: random.Random) -> None:
    """The play phase of Simple Hearts, deal included: the loop of docs/engine.md."""
    choice = rng.choice
    for seed in seeds:
        hand = bid_simple_hearts(Hand(ruleset, seed=seed))
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


def random_legal_play(ruleset: Ruleset, seeds: list[int], rng: random.Random) -> None:
    """A uniformly random legal action at every step, through the public API."""
    choice = rng.choice
    players = ruleset.players.count
    for number, seed in enumerate(seeds):
        hand = Hand(ruleset, seed=seed, dealer=number % players)
        legal, apply = hand.legal_actions, hand.apply
        while not hand.is_over:
            apply(choice(legal()))


def simulated_hands(ruleset: Ruleset, seeds: list[int], rng: random.Random) -> None:
    """``whole``, each hand settled as ``ulti simulate`` settles the hands it plays: by
    ``study.runner.results_of``, ``SETTLED_TOGETHER`` hands at a time (``play_turns``)."""
    from ulti_rules.study.runner import SETTLED_TOGETHER, Finished, results_of

    bot = SimpleBidder()
    players = ruleset.players.count
    waiting: list[Finished] = []
    for number, seed in enumerate(seeds):
        hand = play_out(Hand(ruleset, seed=seed, dealer=number % players), bot, rng)
        waiting.append(Finished(hand, hand.contract, number, 0))
        if len(waiting) == SETTLED_TOGETHER:
            results_of(waiting)
            waiting.clear()
    results_of(waiting)


MODES: dict[str, tuple[str, Loop]] = {
    "play": ("play phase (Simple Hearts, deal included)", play_phase),
    "whole": ("whole hands (simple bidder)", whole_hands),
    "random": ("random legal play (legal_actions/apply)", random_legal_play),
    "simulate": ("simulate: whole hands, settled", simulated_hands),
}


def seeds_of(seed: int, hands: int) -> list[int]:
    """The deal seeds of one run: every run (and every loop) plays the same deals."""
    return [random.Random(seed).getrandbits(32) + i for i in range(hands)]


def timed(run: Callable[..., object], *args: object) -> float:
    """CPU seconds of one call (the machine is shared: wall time would count the others)."""
    start = time.process_time()
    run(*args)
    return time.process_time() - start


def measure(loop: Loop, ruleset: Ruleset, hands: int, seed: int, runs: int) -> list[float]:
    """Hands per second of each run; every run plays the same seeded hands."""
    seeds = seeds_of(seed, hands)
    loop(ruleset, seeds[: max(1, hands // 10)], random.Random(seed))  # warm the caches
    return [hands / timed(loop, ruleset, seeds, random.Random(seed)) for _ in range(runs)]


# ---------------------------------------------------------------------- playouts


def engine_playouts(hands: list[Hand], rng: random.Random, fused: bool | None = None) -> None:
    """Random legal cards to the end of each hand, from trick 1; the kontra round passed.

    ``fused``: through ``Hand.play_random`` (the default where the engine has it), or a
    card at a time through ``legal_card_list()`` and ``play_card()``.
    """
    if fused is None:
        fused = hasattr(Hand, "play_random")
    if fused:
        for hand in hands:
            play_random = hand.play_random
            play_random(rng)
            while not hand.is_over:
                hand.apply(PASS)  # the kontra round after trick 1
                play_random(rng)
        return
    choice = rng.choice
    for hand in hands:
        legal_cards, play_card = hand.legal_card_list, hand.play_card
        while not hand.is_over:
            cards = legal_cards()
            if cards:
                play_card(choice(cards))
            else:
                hand.apply(PASS)


def reference_playouts(starts: list[Start], rules: Rules, rng: random.Random) -> None:
    """The reference loop over the same starting positions."""
    for start in starts:
        reference_play(start, rules, rng)


BATCH = 100
"""Hands prepared at a time for the playouts: a few thousand live hands would make the
garbage collector, not the engine, the cost measured."""


def prepared_hands(ruleset: Ruleset, seeds: list[int]) -> list[Hand]:
    """Hands bid as Simple Hearts, about to lead trick 1 (built outside the timed part)."""
    return [bid_simple_hearts(Hand(ruleset, seed=seed)) for seed in seeds]


# ---------------------------------------------------------------------- --compare


@dataclass(frozen=True)
class Figure:
    """One loop's rates, run after run."""

    label: str
    rates: list[float]

    @property
    def best(self) -> float:
        return max(self.rates)

    def line(self) -> str:
        return (
            f"  {self.label:<46} best {self.best:>8,.0f} hands/s   median "
            f"{statistics.median(self.rates):>8,.0f} hands/s   "
            f"(runs: {', '.join(f'{r:,.0f}' for r in self.rates)})"
        )


@dataclass(frozen=True)
class Target:
    """A ratio of two figures (of their best runs) and the least it should be."""

    name: str
    ratio: float
    at_least: float

    @property
    def holds(self) -> bool:
        return self.ratio >= self.at_least

    def line(self) -> str:
        verdict = "holds" if self.holds else "MISSES"
        return f"  {self.name:<46} {self.ratio:>6.2f}   target >= {self.at_least:.2f}   {verdict}"


def side_by_side(
    first: tuple[str, Callable[[], float]], second: tuple[str, Callable[[], float]], runs: int
) -> tuple[Figure, Figure]:
    """Runs of two loops taken in turn, so that the machine's moods fall on both alike."""
    rates: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        rates[0].append(first[1]())
        rates[1].append(second[1]())
    return Figure(first[0], rates[0]), Figure(second[0], rates[1])


def compare_playouts(hands: int, seed: int, runs: int) -> tuple[list[Figure], list[Target]]:
    """The engine's playouts against the reference loop: same deals, same random cards."""
    ruleset = load_ruleset("wikipedia")
    seeds = seeds_of(seed, hands)
    chunks = [seeds[i : i + BATCH] for i in range(0, hands, BATCH)]
    starts = [[start_of(h) for h in prepared_hands(ruleset, chunk)] for chunk in chunks]
    rules = rules_for(ruleset, starts[0][0].trump)

    def engine() -> float:
        rng, busy = random.Random(seed), 0.0
        for chunk in chunks:
            batch = prepared_hands(ruleset, chunk)
            busy += timed(engine_playouts, batch, rng)
        return hands / busy

    def reference() -> float:
        rng = random.Random(seed)
        busy = sum(timed(reference_playouts, part, rules, rng) for part in starts)
        return hands / busy

    engine(), reference()  # warm the caches
    fused = "play_random" if hasattr(Hand, "play_random") else "legal_card_list/play_card"
    ref, eng = side_by_side(
        ("reference loop (plain Python)", reference),
        (f"engine playouts ({fused})", engine),
        runs,
    )
    return [ref, eng], [Target("engine / reference loop", eng.best / ref.best, 0.70)]


def baseline_tree(commit: str) -> tuple[Path | None, str]:
    """The code of ``commit`` (``ulti_rules``, ``rulesets``, ``plugins``) in a temporary
    folder, by ``git archive``; None and the reason where git or the commit is missing (a
    shallow clone): the recorded figure stands in then."""
    root = Path(__file__).resolve().parents[1]
    folder = Path(tempfile.mkdtemp(prefix="ulti-baseline-"))
    try:
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", commit, "ulti_rules", "rulesets", "plugins"],
            capture_output=True,
            check=True,
        )
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        return None, f"git archive {commit} failed ({exc.__class__.__name__})"
    return folder, ""


def fresh_seeds(seed: int, hands: int, run: int) -> list[int]:
    """The deals of run ``run`` of random legal play under ``--compare`` (0: the warm-up):
    ``hands`` deals no other run deals. Each run plays new hands, as a study does: the
    engine's memos (kontra situations, auction lists) learn from the hands they meet, and
    the same hands played again would find every answer learnt (4% to 12% faster than new
    hands on 2026-12-03, docs/performance.md; the old code keeps no memos and runs both
    alike)."""
    return [deal + hands * run for deal in seeds_of(seed, hands)]


def baseline_rate(tree: Path, hands: int, seed: int, run: int) -> float:
    """Run ``run`` of random legal play under the baseline's code, in a process of its own."""
    script = Path(__file__).with_name("baseline_run.py")
    done = subprocess.run(
        [sys.executable, str(script), str(tree), str(hands), str(seed), str(run)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.split()[-1])


def compare_random(hands: int, seed: int, runs: int) -> tuple[list[Figure], list[Target]]:
    """Random legal play: two-round-auction against wikipedia, and wikipedia against the
    code issue 8 measured (commit ``BASELINE_COMMIT``), run in turn with it. Every run plays
    new deals (:func:`fresh_seeds`), the same ones under both codes; this code warms up
    on a run of its own first (run 0), the baseline on a tenth of it in each process."""
    wiki, two = load_ruleset("wikipedia"), load_ruleset("two-round-auction")

    def rate(ruleset: Ruleset, first: int) -> Callable[[], float]:
        """Runs ``first``, ``first + 1``, ... of ``ruleset``, one a call."""
        numbers = iter(range(first, first + runs))

        def one() -> float:
            run = next(numbers)
            deals = fresh_seeds(seed, hands, run)
            return hands / timed(random_legal_play, ruleset, deals, random.Random(seed + run))

        return one

    for ruleset in (wiki, two):
        random_legal_play(ruleset, fresh_seeds(seed, hands, 0), random.Random(seed))
    w, t = side_by_side(("wikipedia", rate(wiki, 1)), ("two-round-auction", rate(two, 1)), runs)
    targets = [Target("two-round-auction / wikipedia", t.best / w.best, 0.5)]
    tree, why = baseline_tree(BASELINE_COMMIT)
    if tree is None:
        print(f"  ({why}: the baseline is the figure recorded in docs/performance.md)")
        targets.append(
            Target(
                f"wikipedia / recorded baseline ({BASELINE_RANDOM_WIKIPEDIA:,.0f})",
                w.best / BASELINE_RANDOM_WIKIPEDIA,
                3.0,
            )
        )
        return [w, t], targets
    then_runs = iter(range(runs + 1, 2 * runs + 1))  # deals this process has not met
    try:
        now, then = side_by_side(
            ("wikipedia, this code", rate(wiki, runs + 1)),
            (
                f"wikipedia, the code at {BASELINE_COMMIT}",
                lambda: baseline_rate(tree, hands, seed, next(then_runs)),
            ),
            runs,
        )
    finally:
        shutil.rmtree(tree, ignore_errors=True)
    targets.append(Target(f"wikipedia / the code at {BASELINE_COMMIT}", now.best / then.best, 3.0))
    return [w, t, now, then], targets


INSTRUCTION_HANDS, INSTRUCTION_WARM, BASELINE_WARM = 300, 12_000, 200
"""``--instructions``' defaults: the hands counted; the hands this code plays before them,
as many as ``--compare``'s first run of this code follows (its warm-up and five runs beside
``two-round-auction``, 2,000 hands each), so that its memos have learnt as much; and the
baseline's warm-up, a tenth of a run, as in ``--compare`` (it keeps no memos: after 200
hands and after 2,000, the same 300 deals took 4.76 and 4.84 million instructions a hand)."""


def instructions_per_hand(
    tree: Path, hands: int, seed: int, warm: int, run: int, folder: Path
) -> float:
    """Machine instructions per hand of random legal play under ``tree``'s code, in a process
    of its own (``baseline_run.py``): run ``run``'s ``hands`` deals after the first ``warm``
    of run 0's, counted by callgrind, less the count of the same process without them
    (start-up and warm-up). Both processes start alike, so that start-up cancels out: the
    code compiled beforehand and no bytecode written, no cache of validated rulesets, no
    folder of the user's own rulesets, ``PYTHONHASHSEED=0``."""
    from bench_startup import instructions  # the one callgrind reader of the benchmarks

    script = Path(__file__).with_name("baseline_run.py")
    for package in ("ulti_rules", "plugins"):
        compileall.compile_dir(tree / package, quiet=1)
    env = {
        **os.environ,
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "ULTI_CACHE_DIR": "",
        "ULTI_RULES_PATH": "",
        "XDG_CONFIG_HOME": str(folder),
    }

    def count(n: int) -> int:
        argv = [sys.executable, str(script), str(tree), str(n), str(seed), str(run)]
        return instructions([*argv, "--warm", str(warm)], env, folder / f"{n}.out")

    with ThreadPoolExecutor(2) as pool:  # a count is the same whatever runs beside it
        with_them, without = pool.map(count, (hands, 0))
    return (with_them - without) / hands


def compare_instructions(hands: int, seed: int, warm: int) -> int:
    """``--instructions``: this code's random legal play under ``wikipedia`` against the
    baseline's, per hand, and whether the ratio reaches issue 8's 3x."""
    if shutil.which("valgrind") is None:
        sys.exit("bench_engine: --instructions needs valgrind (Debian: apt-get install valgrind)")
    tree, why = baseline_tree(BASELINE_COMMIT)
    if tree is None:
        sys.exit(f"bench_engine: --instructions needs the code at {BASELINE_COMMIT}: {why}")
    try:
        ours = Path(__file__).resolve().parents[1]
        run = max(warm, BASELINE_WARM) // hands + 1  # deals neither warm-up dealt
        print(
            f"bench_engine --instructions: random legal play, wikipedia, the same {hands} new "
            f"hands, seed {seed}; Python {platform.python_version()}, machine instructions "
            "(valgrind's callgrind, PYTHONHASHSEED=0)"
        )
        with tempfile.TemporaryDirectory(prefix="ulti-instructions-") as folder:
            counted = {}
            for label, code, first in (
                ("wikipedia, this code", ours, warm),
                (f"wikipedia, the code at {BASELINE_COMMIT}", tree, BASELINE_WARM),
            ):
                where = Path(folder) / str(len(counted))
                where.mkdir()
                counted[label] = instructions_per_hand(code, hands, seed, first, run, where)
                print(
                    f"  {label:<46} {counted[label]:>12,.0f} instructions a hand "
                    f"(after {first:,} hands)"
                )
    finally:
        shutil.rmtree(tree, ignore_errors=True)
    now, then = counted.values()
    print(Target(f"wikipedia / the code at {BASELINE_COMMIT}", then / now, 3.0).line())
    return 0


def compare_simulate(hands: int, seed: int, runs: int) -> tuple[list[Figure], list[Target]]:
    """What ``ulti simulate`` does per hand (play and settle) against playing alone, both
    with the garbage collector as the command runs it (``ulti_rules.cli.YOUNG`` new objects
    between two collections, not Python's 700): settling keeps a batch of hands alive, and
    under the default a simulated hand spent about 5% of its instructions in collections
    that the command does not make."""
    from ulti_rules.cli import YOUNG, _fewer_collections

    ruleset = load_ruleset("wikipedia")
    seeds = seeds_of(seed, hands)

    def rate(loop: Loop) -> Callable[[], float]:
        return lambda: hands / timed(loop, ruleset, seeds, random.Random(seed))

    with _fewer_collections(YOUNG):
        for loop in (whole_hands, simulated_hands):
            loop(ruleset, seeds[: max(1, hands // 10)], random.Random(seed))
        whole, simulated = side_by_side(
            ("whole hands, not settled", rate(whole_hands)),
            ("simulate: played and settled", rate(simulated_hands)),
            runs,
        )
    return [whole, simulated], [Target("simulate / whole hands", simulated.best / whole.best, 0.8)]


def compare(hands: int, seed: int, runs: int) -> int:
    """Print every figure of issue 8 beside its yardstick, and whether each target holds."""
    sections = (
        (
            "play-phase playouts, wikipedia, Simple Hearts, from trick 1 (same deals and cards):",
            compare_playouts,
        ),
        (
            "random legal play, auction and kontras included (legal_actions/apply), "
            "new deals every run:",
            compare_random,
        ),
        (
            "ulti simulate's play and settle against whole hands, wikipedia, simple bidder "
            "(collections as the command makes them):",
            compare_simulate,
        ),
    )
    targets: list[Target] = []
    for heading, measure_section in sections:
        print(heading)
        figures, found = measure_section(hands, seed, runs)
        for figure in figures:
            print(figure.line())
        for target in found:
            print(target.line())
        targets.extend(found)
    held = sum(t.holds for t in targets)
    print(f"targets: {held} of {len(targets)} hold (ratios of the best runs)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--hands",
        type=int,
        default=None,
        help="hands per run (default 2000; hands counted with --instructions: "
        f"{INSTRUCTION_HANDS})",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of deals and cards (default 1)")
    parser.add_argument(
        "--mode", choices=["play", "whole", "both", "random", "simulate"], default="both"
    )
    parser.add_argument("--ruleset", default="wikipedia", help="name or path (default wikipedia)")
    parser.add_argument("--runs", type=int, default=5, help="runs per mode (default 5)")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="random legal play under wikipedia against the code at "
        f"{BASELINE_COMMIT} in machine instructions per hand (valgrind's callgrind; a few "
        "minutes): --hands counted after --warm others (--runs, --mode and --ruleset are "
        "ignored)",
    )
    parser.add_argument(
        "--warm",
        type=int,
        default=None,
        help="with --instructions: hands this code plays before those counted (default "
        f"{INSTRUCTION_WARM:,}, as many as --compare's runs of this code follow)",
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="issue 8's figures side by side with their targets (wikipedia and "
        "two-round-auction; --mode and --ruleset are ignored)",
    )
    args = parser.parse_args(argv)
    if args.hands is None:
        args.hands = INSTRUCTION_HANDS if args.instructions else 2000
    if args.hands < 1 or args.runs < 1:
        parser.error("--hands and --runs must be at least 1")
    if args.warm is not None and not args.instructions:
        parser.error("--warm goes with --instructions")
    if args.warm is None:
        args.warm = INSTRUCTION_WARM
    if args.warm < 0:
        parser.error("--warm must be 0 or more")
    if args.instructions:
        if args.compare:
            parser.error("--instructions and --compare are two ways to measure: give one")
        return compare_instructions(args.hands, args.seed, args.warm)
    if args.compare:
        pinned = pin_to_one_core()
        print(
            f"bench_engine --compare: {args.hands} hands a run, {args.runs} "
            f"run{'s' if args.runs != 1 else ''} of each loop, seed {args.seed}; "
            f"Python {platform.python_version()}, {pinned}, CPU time"
        )
        return compare(args.hands, args.seed, args.runs)
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
        f"seed {args.seed}; Python {platform.python_version()}, {pinned}, CPU time"
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
