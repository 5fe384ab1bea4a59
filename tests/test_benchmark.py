"""The benchmark script runs as docs/performance.md says (a smoke run: no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_the_benchmark_runs_both_modes() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/bench_engine.py", "--hands", "20", "--runs", "1"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("bench_engine: ruleset wikipedia, 20 hands a run, 1 run, seed 1")
    assert lines[1].startswith("play phase (Simple Hearts, deal included)")
    assert lines[2].startswith("whole hands (simple bidder)")
    assert all(" hands/s " in line for line in lines[1:])


def test_the_play_mode_needs_the_usual_auction() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/bench_engine.py", "--mode", "play", "--hands", "5",
         "--ruleset", "two-round-auction"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 1
    assert "the play mode needs the usual auction" in done.stderr
