"""How long `ulti` takes to start, against what it cannot avoid (docs/performance.md).

Issue 8's targets, in CPU time (user + system) of a whole process, measured side by
side in one run:

* ``ulti --help`` and ``ulti rulesets`` within 3x of ``python -c "import click"``;
* ``ulti ladder wikipedia`` within 3x of ``python -c "import pydantic, yaml, click"``.

Each command runs as a child process; its CPU time is the growth of
``resource.getrusage(RUSAGE_CHILDREN)`` around it, and the figure is the best of
``--runs`` runs (the least disturbed by the other work of a shared machine). The
commands take turns, round by round, so a slow spell of the machine hits them all.
Every command first runs once unmeasured, with bytecode caching on (in a folder of its
own, ``PYTHONPYCACHEPREFIX``): an installed package has its ``.pyc`` files, and
compiling the sources on every start is not what a user pays. Plugins load as they
would for a user (autoload is not disabled), and the cache of validated rulesets
(``ulti_rules/ruleset/disk_cache.py``) is kept in a folder of the run's own, so ``ulti
ladder wikipedia`` reads the ruleset its warm-up validated, as every command after the
first does for a user. ``ulti ladder wikipedia, nothing cached`` is the same command with
an empty cache each run (the first command after installing or changing a ruleset): it
is reported beside the others, and has no target.

    python benchmarks/bench_startup.py            # 15 runs of each
    python benchmarks/bench_startup.py --runs 30
    python benchmarks/bench_startup.py --instructions

With ``--instructions`` each command runs once more, under valgrind's callgrind, which
counts the machine instructions it executes (``PYTHONHASHSEED=0``, so that the same
program makes the same dictionaries): the count does not move with the machine's load or
speed, as a time does on a shared machine, so it says whether a change made start-up
cheaper and whether a ratio's miss is the machine's. It takes about a minute (callgrind
runs a program some fifty times slower), and needs ``valgrind`` on the PATH.

It prints each command's best time (or count), each ratio beside its target, and whether
it holds; the exit status is 0 either way (it is a report, not a test).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Command:
    label: str
    argv: list[str]
    fresh: bool = False
    """Run with an empty cache of validated rulesets every time."""


@dataclass(frozen=True)
class Target:
    command: str
    baseline: str
    factor: float


def commands(python: str, ulti: str) -> list[Command]:
    return [
        Command('python -c "import click"', [python, "-c", "import click"]),
        Command(
            'python -c "import pydantic, yaml, click"',
            [python, "-c", "import pydantic, yaml, click"],
        ),
        Command("ulti --help", [ulti, "--help"]),
        Command("ulti rulesets", [ulti, "rulesets"]),
        Command("ulti ladder wikipedia", [ulti, "ladder", "wikipedia"]),
        Command("ulti ladder wikipedia, nothing cached", [ulti, "ladder", "wikipedia"], True),
    ]


TARGETS = [
    Target("ulti --help", 'python -c "import click"', 3.0),
    Target("ulti rulesets", 'python -c "import click"', 3.0),
    Target("ulti ladder wikipedia", 'python -c "import pydantic, yaml, click"', 3.0),
]
SHOWN = [("ulti ladder wikipedia, nothing cached", 'python -c "import pydantic, yaml, click"')]
"""Ratios printed without a target."""


def cpu_seconds(argv: list[str], env: dict[str, str]) -> float:
    """The CPU time (user + system) of one run of ``argv``, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(argv: list[str], env: dict[str, str], out: Path) -> int:
    """The machine instructions one run of ``argv`` executes, counted by callgrind."""
    counted = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv]
    subprocess.run(
        counted, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    for line in out.read_text(encoding="utf-8").splitlines():
        if line.startswith(("summary:", "totals:")):  # the events' total: Ir alone here
            return int(line.split()[1])
    raise RuntimeError(f"callgrind wrote no instruction count to {out}")


def child_env(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("ULTI_RULES_DISABLE_PLUGIN_AUTOLOAD", None)
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    env["ULTI_CACHE_DIR"] = str(cache / "rulesets")
    return env


def env_for(command: Command, env: dict[str, str], folder: Path) -> dict[str, str]:
    """``env``, with an empty folder for the rulesets' cache if ``command`` wants one."""
    if not command.fresh:
        return env
    return {**env, "ULTI_CACHE_DIR": tempfile.mkdtemp(prefix="empty-", dir=folder)}


def find_ulti() -> str:
    """The ``ulti`` console script beside this interpreter, else the one on PATH."""
    beside = Path(sys.executable).with_name("ulti")
    found = str(beside) if beside.exists() else shutil.which("ulti")
    if found is None:
        sys.exit("bench_startup: no `ulti` command; run `pip install -e '.[dev]'` first")
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (best kept)")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count each command's machine instructions with valgrind's callgrind instead "
        "(one run each; slow, but not moved by the machine's load)",
    )
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.instructions and shutil.which("valgrind") is None:
        sys.exit("bench_startup: --instructions needs valgrind (Debian: apt-get install valgrind)")
    todo = commands(sys.executable, find_ulti())
    best: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="ulti-startup-") as folder:
        env = child_env(Path(folder))
        for command in todo:  # warm-up: writes the bytecode cache and the rulesets' cache
            cpu_seconds(command.argv, env_for(command, env, Path(folder)))
        if args.instructions:
            env["PYTHONHASHSEED"] = "0"
            out = Path(folder) / "callgrind.out"
            best = {
                c.label: float(instructions(c.argv, env_for(c, env, Path(folder)), out))
                for c in todo
            }
        else:
            for _ in range(args.runs):
                for command in todo:
                    seconds = cpu_seconds(command.argv, env_for(command, env, Path(folder)))
                    best[command.label] = min(best.get(command.label, seconds), seconds)
    if args.instructions:
        print("CLI start-up, machine instructions (valgrind's callgrind), one run each")
    else:
        print(f"CLI start-up, CPU time (user + system), best of {args.runs} runs")
    print(f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}")
    print()
    width = max(len(c.label) for c in todo)
    for command in todo:
        figure = best[command.label]
        shown = f"{figure / 1e6:8,.1f} million" if args.instructions else f"{figure * 1000:6.1f} ms"
        print(f"  {command.label:<{width}}  {shown}")
    print()
    for target in TARGETS:
        ratio = best[target.command] / best[target.baseline]
        verdict = "holds" if ratio <= target.factor else "MISSED"
        print(
            f"  {target.command:<{width}}  {ratio:4.2f}x {target.baseline}"
            f"  (target <= {target.factor:g}x: {verdict})"
        )
    for label, baseline in SHOWN:
        ratio = best[label] / best[baseline]
        print(f"  {label:<{width}}  {ratio:4.2f}x {baseline}  (no target)")


if __name__ == "__main__":
    main()
