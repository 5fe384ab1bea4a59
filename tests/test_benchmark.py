"""The benchmark script runs as docs/performance.md says, and its reference loop is honest.

Smoke runs only: no timing is asserted (speed is shown by the script and the docs).
The script runs in-process with its core pinning switched off, so that the test
process keeps every core.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))

from ulti_rules.engine import Hand  # noqa: E402
from ulti_rules.ruleset.loading import load_ruleset  # noqa: E402

import baseline_run  # noqa: E402
import bench_engine  # noqa: E402
import bench_hostile  # noqa: E402
import bench_startup  # noqa: E402
import reference_loop  # noqa: E402

Run = Callable[..., tuple[int, list[str], str]]
"""``run(*arguments)``: the script's exit status, its printed lines and its stderr."""

PLAYABLE = ("wikipedia", "tournament", "older-20-100", "four-player")
"""The bundled rulesets whose usual auction and red Simple the play-phase loops need."""


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    monkeypatch.setattr(bench_engine, "pin_to_one_core", lambda: "not pinned (test)")

    def invoke(*args: str) -> tuple[int, list[str], str]:
        try:
            status = bench_engine.main(list(args))
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else 1
        out, err = capsys.readouterr()
        return status, out.splitlines(), err

    return invoke


def test_the_benchmark_runs_both_modes(run: Run) -> None:
    status, lines, _ = run("--hands", "20", "--runs", "1")
    assert status == 0
    assert lines[0].startswith("bench_engine: ruleset wikipedia, 20 hands a run, 1 run, seed 1")
    assert lines[1].startswith("play phase (Simple Hearts, deal included)")
    assert lines[2].startswith("whole hands (simple bidder)")
    assert all(" hands/s " in line for line in lines[1:])


@pytest.mark.parametrize("mode", ["random", "simulate"])
def test_the_new_modes_run(run: Run, mode: str) -> None:
    status, lines, _ = run(
        "--mode", mode, "--hands", "10", "--runs", "1", "--ruleset", "two-round-auction"
    )
    assert status == 0
    assert lines[1].startswith(bench_engine.MODES[mode][0])
    assert " hands/s " in lines[1]


def test_the_play_mode_needs_the_usual_auction(run: Run) -> None:
    status, _, err = run("--mode", "play", "--hands", "5", "--ruleset", "two-round-auction")
    assert status == 1
    assert "the play mode needs the usual auction" in err


def test_compare_prints_every_figure_and_target(
    run: Run,
) -> None:
    status, lines, _ = run("--compare", "--hands", "10", "--runs", "1")
    assert status == 0
    text = "\n".join(lines)
    for label in (
        "reference loop (plain Python)",
        "engine playouts (",
        "  wikipedia ",
        "  two-round-auction ",
        "whole hands, not settled",
        "simulate: played and settled",
    ):
        assert label in text, label
    targets = [line for line in lines if "target >=" in line]
    assert [line.split()[0] for line in targets] == [
        "engine",
        "two-round-auction",
        "wikipedia",
        "simulate",
    ]
    assert all(line.rstrip().endswith(("holds", "MISSES")) for line in targets)
    # the baseline's code run from git; in a clone without that commit, the recorded figure
    assert (
        f"wikipedia / the code at {bench_engine.BASELINE_COMMIT}" in text
        or "wikipedia / recorded baseline" in text
    )
    assert lines[-1].startswith("targets: ") and lines[-1].endswith(
        "of 4 hold (ratios of the best runs)"
    )


def test_each_compared_run_of_random_play_deals_new_hands_alike_to_both_codes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--compare``'s random play: every run of this code plays deals no earlier run
    dealt, and the baseline's run beside it (in ``baseline_run.py``, which cannot import
    ``fresh_seeds``) the very same deals and random choices."""
    ours: list[tuple[str, list[int], object]] = []
    theirs: list[tuple[int, int, int]] = []

    def recording(ruleset: object, seeds: list[int], rng: random.Random) -> None:
        ours.append((getattr(ruleset, "name", ""), list(seeds), rng.getstate()))

    def baseline(tree: Path, hands: int, seed: int, run: int) -> float:
        theirs.append((hands, seed, run))
        return 1.0

    monkeypatch.setattr(bench_engine, "random_legal_play", recording)
    monkeypatch.setattr(bench_engine, "timed", lambda loop, *args: (loop(*args), 1.0)[1])
    monkeypatch.setattr(bench_engine, "baseline_tree", lambda commit: (tmp_path, ""))
    monkeypatch.setattr(bench_engine, "baseline_rate", baseline)
    bench_engine.compare_random(7, 3, 4)
    wiki = [(seeds, state) for name, seeds, state in ours if name == "wikipedia"]
    assert (
        len(wiki) == 1 + 4 + 4 and len(theirs) == 4
    )  # warm-up, beside the other ruleset, beside the old code
    dealt = [deal for seeds, _ in wiki for deal in seeds]
    assert len(set(dealt)) == len(dealt), "a run dealt a hand an earlier run dealt"
    for (seeds, state), (hands, seed, run) in zip(wiki[5:], theirs, strict=True):
        assert seeds == baseline_run.deals(seed, hands, run)
        assert state == random.Random(baseline_run.choices(seed, run)).getstate()


@pytest.mark.parametrize("name", PLAYABLE)
@pytest.mark.parametrize("fused", [False, True])
def test_the_reference_loop_plays_the_engines_tricks(name: str, fused: bool) -> None:
    """Same deals, same random choices: the reference loop and the engine agree trick for
    trick (the per-card fast path, and the fused one where the engine has it)."""
    if fused and not hasattr(Hand, "play_random"):
        pytest.skip("this engine has no Hand.play_random")
    ruleset = load_ruleset(name)
    assert bench_engine.check_play_mode(ruleset) is None
    seeds = bench_engine.seeds_of(3, 12)
    hands = bench_engine.prepared_hands(ruleset, seeds)
    starts = [reference_loop.start_of(hand) for hand in hands]
    rules = reference_loop.rules_for(ruleset, starts[0].trump)
    bench_engine.engine_playouts(hands, random.Random(5), fused=fused)
    rng = random.Random(5)
    expected = [reference_loop.play(start, rules, rng) for start in starts]
    assert [hand.tricks for hand in hands] == expected
    assert all(hand.is_over and len(hand.tricks) == 10 for hand in hands)


def test_the_hostile_inputs_benchmark_reads_each_input(capsys: pytest.CaptureFixture[str]) -> None:
    """A small fraction of each input, once: every reader refuses it, and a line is
    printed for each beside the bound."""
    assert bench_hostile.main(["--runs", "1", "--scale", "0.01"]) == 0
    lines = capsys.readouterr().out.splitlines()
    figures = [line for line in lines if line.rstrip().endswith(("(holds)", "(MISSED)"))]
    assert [line.split(",")[0].strip() for line in figures] == [
        "club file",
        "score sheet",
        "score sheet",
    ]
    assert "450 unknown keys" in figures[0] and "900 times" in figures[2]


FAKE_VALGRIND = """\
#!{python}
# Stands in for valgrind: writes the count the command's last argument names, in
# callgrind's format, where --callgrind-out-file says.
import sys
out = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--callgrind-out-file="))
with open(out, "w") as f:
    f.write("events: Ir\\nsummary: " + sys.argv[-1] + "\\n")
"""


def test_the_startup_benchmark_counts_instructions_where_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--instructions``: each command's count from callgrind's file, and the ratios
    from the counts (valgrind stands in here: it takes a minute)."""
    valgrind = tmp_path / "valgrind"
    valgrind.write_text(FAKE_VALGRIND.format(python=sys.executable), "utf-8")
    valgrind.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    counts = {
        'python -c "import click"': 100_000_000,
        'python -c "import pydantic, yaml, click"': 400_000_000,
        "ulti --help": 150_000_000,
        "ulti rulesets": 310_000_000,
        "ulti ladder wikipedia": 1_100_000_000,
        "ulti ladder wikipedia, nothing cached": 1_300_000_000,
    }
    monkeypatch.setattr(bench_startup, "find_ulti", lambda: "ulti")
    monkeypatch.setattr(
        bench_startup,
        "commands",
        lambda python, ulti: [
            bench_startup.Command(label, [python, "-c", "pass", str(count)], "nothing" in label)
            for label, count in counts.items()
        ],
    )
    bench_startup.main(["--instructions"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "CLI start-up, machine instructions (valgrind's callgrind), one run each"
    assert any(
        line.split() == ["ulti", "ladder", "wikipedia", "1,100.0", "million"] for line in lines
    )
    verdicts = [line.split("(target")[0].split() for line in lines if "(target" in line]
    assert verdicts == [
        ["ulti", "--help", "1.50x", "python", "-c", '"import', 'click"'],
        ["ulti", "rulesets", "3.10x", "python", "-c", '"import', 'click"'],
        [
            "ulti",
            "ladder",
            "wikipedia",
            "2.75x",
            "python",
            "-c",
            '"import',
            "pydantic,",
            "yaml,",
            'click"',
        ],
    ]
    assert [line.endswith(("holds)", "MISSED)")) for line in lines if "(target" in line] == [
        True
    ] * 3
    assert ["MISSED" in line for line in lines if "(target" in line] == [False, True, False]
    shown = [" ".join(line.split()) for line in lines if "(no target)" in line]
    assert shown == [
        'ulti ladder wikipedia, nothing cached 3.25x python -c "import pydantic, yaml, click"'
        " (no target)"
    ]


def test_the_startup_benchmark_empties_the_rulesets_cache_only_where_asked(
    tmp_path: Path,
) -> None:
    """Every command reads the rulesets' cache its warm-up wrote, as a user's second
    command does; the one "nothing cached" gets an empty folder each run."""
    env = bench_startup.child_env(tmp_path)
    kept = bench_startup.Command("kept", ["true"])
    fresh = bench_startup.Command("fresh", ["true"], fresh=True)
    assert bench_startup.env_for(kept, env, tmp_path)["ULTI_CACHE_DIR"] == str(
        tmp_path / "rulesets"
    )
    first, second = (bench_startup.env_for(fresh, env, tmp_path)["ULTI_CACHE_DIR"] for _ in "12")
    assert first != second
    assert os.listdir(first) == os.listdir(second) == []


def test_the_startup_benchmark_says_when_valgrind_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SystemExit, match="--instructions needs valgrind"):
        bench_startup.main(["--instructions"])


FAKE_CALLGRIND_OF_PLAY = """\
#!{python}
# Stands in for valgrind under bench_engine --instructions: a process of baseline_run.py
# "counts" a billion instructions to start and warm up, and then PER_HAND a hand it plays
# (1.5 million under this checkout's code, 4.7 million under the baseline's).
import sys
out = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--callgrind-out-file="))
script = sys.argv.index("{script}")
tree, hands = sys.argv[script + 1], int(sys.argv[script + 2])
assert sys.argv[script + 5] == "--warm", sys.argv
per_hand = 1_500_000 if tree == "{ours}" else 4_700_000
with open(out, "w") as f:
    f.write("events: Ir\\nsummary: %d\\n" % (10**9 + hands * per_hand))
with open("{log}", "a") as f:
    f.write(" ".join(sys.argv[script + 1 :]) + "\\n")
"""


def test_instructions_count_random_play_of_both_codes_on_the_same_deals(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--instructions``: each code's count with the hands less its count without them,
    per hand; both on the same new deals, each after its own warm-up."""
    ours = Path(bench_engine.__file__).resolve().parents[1]
    log = tmp_path / "runs.log"
    valgrind = tmp_path / "bin" / "valgrind"
    valgrind.parent.mkdir()
    script = Path(bench_engine.__file__).with_name("baseline_run.py")
    valgrind.write_text(
        FAKE_CALLGRIND_OF_PLAY.format(python=sys.executable, script=script, ours=ours, log=log),
        "utf-8",
    )
    valgrind.chmod(0o755)
    monkeypatch.setenv("PATH", f"{valgrind.parent}{os.pathsep}{os.environ['PATH']}")
    old = tmp_path / "old"
    for package in ("ulti_rules", "plugins"):
        (old / package).mkdir(parents=True)
    monkeypatch.setattr(bench_engine, "baseline_tree", lambda commit: (old, ""))
    status, lines, _ = run("--instructions", "--hands", "100", "--warm", "1000")
    assert status == 0
    assert lines[1].split() == [
        "wikipedia,", "this", "code", "1,500,000", "instructions", "a", "hand", "(after",
        "1,000", "hands)",
    ]  # fmt: skip
    assert lines[2].split()[-7:] == [
        "4,700,000", "instructions", "a", "hand", "(after", "200", "hands)",
    ]  # fmt: skip
    assert lines[3].split()[-5:] == ["3.13", "target", ">=", "3.00", "holds"]
    runs = sorted(log.read_text("utf-8").splitlines())
    # run 11: the deals after both warm-ups (1,000 hands: runs 0 to 9 of 100)
    assert runs == sorted(
        f"{tree} {hands} 1 11 --warm {warm}"
        for tree, warm in ((ours, 1000), (old, 200))
        for hands in (100, 0)
    )
    assert not old.exists()  # the baseline's code, taken from git, is removed
    # No warm-up of this code: the deals still pass the baseline's 200 (runs 0 and 1 of 100)
    for package in ("ulti_rules", "plugins"):
        (old / package).mkdir(parents=True)
    log.unlink()
    assert run("--instructions", "--hands", "100", "--warm", "0")[0] == 0
    assert {line.split()[3] for line in log.read_text("utf-8").splitlines()} == {"3"}


def test_the_baseline_s_code_is_removed_when_a_count_fails(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = tmp_path / "old"
    old.mkdir()
    monkeypatch.setattr(bench_engine, "baseline_tree", lambda commit: (old, ""))
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")

    def failing(*args: object) -> float:
        raise subprocess.CalledProcessError(1, "valgrind")

    monkeypatch.setattr(bench_engine, "instructions_per_hand", failing)
    with pytest.raises(subprocess.CalledProcessError):
        bench_engine.main(["--instructions"])
    assert not old.exists()


def test_instructions_need_valgrind_and_are_not_a_compare(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, err = run("--instructions", "--compare")
    assert status == 2 and "give one" in err
    status, _, err = run("--mode", "random", "--warm", "10")
    assert status == 2 and "--warm goes with --instructions" in err
    status, _, err = run("--instructions", "--warm", "-1")
    assert status == 2 and "--warm must be 0 or more" in err
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SystemExit, match="--instructions needs valgrind"):
        bench_engine.main(["--instructions"])


@pytest.mark.parametrize(
    ("arguments", "warm", "counted"),
    [
        (["0", "1", "4", "--warm", "3"], 3, 0),  # --warm 3: run 0's first three, none counted
        (["20", "1", "4"], 2, 20),  # no --warm: a tenth of the hands, as --compare runs it
    ],
)
def test_the_baseline_script_warms_up_on_as_many_hands_as_asked(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    warm: int,
    counted: int,
) -> None:
    played: list[int] = []
    real = Hand.__init__

    def dealt(self: Hand, *args: object, **kwargs: object) -> None:
        played.append(kwargs["seed"])  # type: ignore[arg-type]
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Hand, "__init__", dealt)
    ours = str(Path(bench_engine.__file__).resolve().parents[1])
    monkeypatch.setattr(sys, "argv", ["baseline_run.py", ours, *arguments])
    monkeypatch.setattr(sys, "path", list(sys.path))
    assert baseline_run.main() == 0
    rate = float(capsys.readouterr().out)
    assert (rate == 0.0) == (counted == 0)
    assert played == baseline_run.deals(1, warm, 0) + baseline_run.deals(1, counted, 4)
