"""`ulti simulate` as a study: the same output whatever --workers, a summary that adds
the hands up right, --bots, the JSON, the progress bar's rule and the plot."""

from __future__ import annotations

import errno
import importlib.util
import itertools
import json
import math
import multiprocessing
import os
import random
import signal
import statistics
import sys
import threading
import time
import traceback
import tracemalloc
from collections import Counter
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from ulti_rules import safe_files
from ulti_rules.bots import bot, play_out
from ulti_rules.cli import simulate as simulate_module
from ulti_rules.engine import Pass
from ulti_rules.errors import PluginError, UltiError
from ulti_rules.ruleset.loading import load_game
from ulti_rules.scoring.settlement import settle
from ulti_rules.study import StudySpec, played_hands, runner
from ulti_rules.study import workers as workers_module
from ulti_rules.study.runner import PASSED_OUT

from conftest import RunUlti

PLAYERS = ["P1", "P2", "P3"]


def run_json(ulti: RunUlti, *args: str) -> dict[str, Any]:
    done = ulti("simulate", *args, "--json")
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def redeal_club(folder: Path) -> Path:
    """Wikipedia where the opener may pass and a hand nobody bid is dealt again."""
    path = folder / "club.yaml"
    path.write_text(
        "name: club\ntitle: Club\nextends: wikipedia\n"
        "auction: {opener_must_bid: false, all_pass: redeal}\n",
        encoding="utf-8",
    )
    return path


# --------------------------------------------------------------------------- --workers


def test_one_worker_or_two_print_the_same_bytes(ulti: RunUlti) -> None:
    args = ("simulate", "--hands", "120", "--seed", "5", "--bots", "random,simple,simple")
    one = ulti(*args, "--workers", "1")
    two = ulti(*args, "--workers", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    assert len([line for line in one.stdout.splitlines() if "| totals " in line]) == 120
    # The speed changes from run to run: it is on stderr, never on stdout.
    assert "Speed: " not in one.stdout
    assert one.stderr.startswith("Speed: ") and "(1 worker, " in one.stderr
    assert "(2 workers, " in two.stderr
    json_one = ulti(*args, "--workers", "1", "--json")
    json_two = ulti(*args, "--workers", "2", "--json")
    assert json_one.stdout == json_two.stdout


def test_records_are_the_same_from_one_worker_or_two(ulti: RunUlti, tmp_path: Path) -> None:
    for workers in ("1", "2"):
        done = ulti(
            "simulate", "four-player", "--hands", "6", "--seed", "2", "--quiet",
            "--workers", workers, "--save-records", f"w{workers}",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    one = sorted((tmp_path / "w1").iterdir())
    two = sorted((tmp_path / "w2").iterdir())
    assert [p.name for p in one] == [f"hand-{n:04d}.yaml" for n in range(1, 7)]
    assert [p.read_bytes() for p in one] == [p.read_bytes() for p in two]


def test_workers_started_by_spawn_may_read_what_the_command_may(
    ulti: RunUlti, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ulti --allow-outside-paths simulate sub/club.yaml --workers 2`, whose club extends
    a base outside its folder: a forked worker inherits the permission, a spawned one
    (macOS, Windows; forkserver, Python 3.14's default on Linux) did not and refused the
    ruleset (found by a simulate review)."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "base.yaml").write_text(
        "name: base\ntitle: Base\nextends: wikipedia\nkontra: {max_level: 2}\n", "utf-8"
    )
    (tmp_path / "sub" / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: ../base.yaml\n", "utf-8"
    )
    args = ("--allow-outside-paths", "simulate", "sub/club.yaml", "--hands", "60", "-q")
    alone = ulti(*args)
    assert alone.returncode == 0, alone.stderr
    spawn = multiprocessing.get_context("spawn")
    monkeypatch.setattr(workers_module.multiprocessing, "get_context", lambda *_: spawn)
    spawned = ulti(*args, "--workers", "2")
    assert spawned.returncode == 0, spawned.stderr
    assert spawned.stdout == alone.stdout


def pools_counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of each process pool the workers start, from now on."""
    sizes: list[int] = []

    class Counted(ProcessPoolExecutor):
        def __init__(self, max_workers: int, **kwargs: Any) -> None:
            sizes.append(max_workers)
            super().__init__(max_workers, **kwargs)

    monkeypatch.setattr(workers_module, "ProcessPoolExecutor", Counted)
    return sizes


def test_no_more_worker_processes_than_chunks_to_play(
    ulti: RunUlti, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--workers 1000 --hands 2` started a thousand processes (18 s, and their memory)
    for one chunk of two hands; now one, and the speed line names the one."""
    sizes = pools_counted(monkeypatch)
    done = ulti("simulate", "--hands", "2", "--workers", "1000", "-q")
    assert done.returncode == 0, done.stderr
    assert sizes == [1] and "(1 worker, " in done.stderr
    assert done.stdout == ulti("simulate", "--hands", "2", "-q").stdout
    assert workers_module.processes_for(120, 2) == 2  # 3 chunks of 50
    assert workers_module.processes_for(120, 8, chunk=40) == 3
    assert workers_module.processes_for(10**6, 64) == 64
    assert workers_module.processes_for(10**6, 1) == 1


CAPPED = "ulti: note: --workers {} is more than the CPUs this command may use ({}): "


def test_the_workers_are_no_more_than_the_cpus_this_process_may_use(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--workers 64` on two CPUs played at a third of one worker's speed, and `--workers
    100000` forked hundreds of processes: the workers are capped at the CPUs, with a note
    only where the cap lowers the processes that play."""
    if hasattr(os, "sched_getaffinity"):
        assert simulate_module.usable_cpus() == len(os.sched_getaffinity(0))
    monkeypatch.setattr(simulate_module, "usable_cpus", lambda: 2)
    assert simulate_module._workers_used(10**6, 64) == 2
    assert capsys.readouterr().err.startswith(CAPPED.format(64, 2))
    assert simulate_module._workers_used(20, 8) == 2  # one chunk: one process anyway
    assert simulate_module._workers_used(10**6, 2) == 2
    assert capsys.readouterr().err == ""


def test_a_huge_workers_count_plays_in_the_cpus_with_a_note(
    ulti: RunUlti, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same output as one worker, the note and the speed line on stderr; one CPU
    here, so that no process is started."""
    sizes = pools_counted(monkeypatch)
    monkeypatch.setattr(simulate_module, "usable_cpus", lambda: 1)
    done = ulti("simulate", "--hands", "120", "--workers", "100000", "-q")
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(CAPPED.format(100000, 1)), done.stderr
    assert "(1 worker, " in done.stderr and sizes == []
    assert done.stdout == ulti("simulate", "--hands", "120", "-q").stdout


def test_the_first_hands_of_a_study_with_workers_come_back_at_once() -> None:
    """With workers, the first chunk is small: the command's first line came after a whole
    chunk in each worker (1,000 turns of a long study; `ulti simulate --hands 500000
    --workers 2` printed it after 1.1 s, now 0.7 s). The hands are the ones one process
    plays, whatever the chunks."""
    spec = StudySpec("wikipedia", ("simple",) * 3, 7, 500_000)
    assert workers_module.chunk_size(spec.hands, 2) == 1000
    firsts = []
    for workers in (2, 1):
        study = played_hands(spec, workers=workers)
        try:
            firsts.append(next(study))
        finally:
            study.close()
    together, alone = firsts
    assert len(together) == workers_module.FIRST_CHUNK
    assert together == alone[: len(together)]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_study_set_up_wrong_is_refused_not_played(workers: int) -> None:
    """Through the study API: a seed of None drew the study's seeds from the system (no
    run repeated it), a negative count or chunk played nothing, two bots for three seats
    failed mid-hand with an IndexError and four played on with one unseen."""
    with pytest.raises(ValueError, match="seed is an int"):
        StudySpec("wikipedia", ("simple",) * 3, None, 10)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="0 hands or more, not -1"):
        StudySpec("wikipedia", ("simple",) * 3, 1, -1)
    good = StudySpec("wikipedia", ("simple",) * 3, 1, 10)
    for chunk in (0, -5):
        with pytest.raises(ValueError, match="at least one turn"):
            list(played_hands(good, workers, chunk))
    for bots in (("simple",) * 2, ("simple",) * 4):
        with pytest.raises(ValueError, match=f"^{len(bots)} bots for the 3 seats of 'wikipedia'"):
            list(played_hands(StudySpec("wikipedia", bots, 1, 10), workers))


def test_redeals_stay_in_their_turn_however_the_turns_are_cut(tmp_path: Path) -> None:
    """Under `all_pass: redeal` a turn holds its redeals: chunks of any size, in one
    process or two, give the same hands, and the dealer passes on only after a hand bid."""
    spec = StudySpec(str(redeal_club(tmp_path)), ("random",) * 3, seed=1, hands=40)
    runs = [
        [result for chunk in played_hands(spec, workers, chunk) for result, _ in chunk]
        for workers, chunk in ((1, None), (1, 3), (2, 3), (2, 7))
    ]
    assert all(run == runs[0] for run in runs[1:])
    hands = runs[0]
    assert len(hands) == 40
    passed = [n for n, r in enumerate(hands[:-1]) if r.outcome == PASSED_OUT]
    assert passed, "the seed must pass a hand out"
    for before, after in itertools.pairwise(hands):
        redealt = before.outcome == PASSED_OUT
        assert after.turn == before.turn + (0 if redealt else 1)
        assert after.dealer == (before.dealer if redealt else (before.dealer + 1) % 3)
    assert len({(r.seed, r.bot_seed) for r in hands}) == 40, "every hand its own seeds"


def test_a_turn_nobody_ever_bids_stops_the_study(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Playing whole turns (``--compare``), bots that never bid would deal the turn again
    for ever (found by a review): after ``MAX_DEALS_A_TURN`` deals the study stops with
    an error that says why."""
    spec = StudySpec(str(redeal_club(tmp_path)), ("random",) * 3, 1, 3, whole_turns=True)
    table = runner.Table(spec)
    passed = table.game.new_hand(seed=1, dealer=0)
    while not passed.is_over:  # the opener lays two cards away, then everybody passes
        legal = passed.legal_actions()
        passed.apply(Pass() if Pass() in legal else legal[0])
    assert passed.contract is None
    monkeypatch.setattr(runner, "MAX_DEALS_A_TURN", 25)
    monkeypatch.setattr(
        table, "deal_and_play", lambda turn, dealer, seed, bot_seed: runner.Finished(
            passed, None, turn, bot_seed
        )
    )  # fmt: skip
    with pytest.raises(UltiError, match=r"^nobody bid in 25 deals of turn 0: the bots \(random"):
        table.play_turns(0, runner.turn_seeds(1, 3), sys.maxsize)


def test_hands_settled_in_batches_are_the_hands_settled_one_by_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table settles its hands a batch at a time (``SETTLED_TOGETHER``): batches of
    any size, cut across redeals and the budget, give each hand its own result and
    record, in order."""
    spec = StudySpec(str(redeal_club(tmp_path)), ("random",) * 3, seed=1, hands=23, records=True)
    runs = []
    for batch in (1, 2, 5, 32):
        monkeypatch.setattr(runner, "SETTLED_TOGETHER", batch)
        runs.append(runner.Table(spec).play_turns(0, runner.turn_seeds(1, 23), 23))
    assert all(run == runs[0] for run in runs[1:])
    results = [result for result, _ in runs[0]]
    assert len(results) == 23 and PASSED_OUT in {r.outcome for r in results}
    for result, record in runs[0]:
        assert record is not None and record.seed == result.seed


# --------------------------------------------------------------------------- the summary


def test_the_summary_is_what_the_hands_add_up_to(ulti: RunUlti) -> None:
    """Each hand played again from its seeds and settled here; the figures counted by
    hand from those settlements."""
    data = run_json(ulti, "--hands", "40", "--seed", "11", "--bots", "random")
    game = load_game("wikipedia")
    won: Counter[str] = Counter()
    made: Counter[str] = Counter()
    settled: Counter[str] = Counter()
    comp_made: Counter[str] = Counter()
    highest: Counter[int] = Counter()
    silent: Counter[tuple[str, str, bool]] = Counter()
    per_seat: list[list[int]] = [[], [], []]
    for number, result in enumerate(data["results"], 1):
        assert result["hand"] == number and result["turn"] == number
        assert result["dealer"] == PLAYERS[(number - 1) % 3]  # opener must bid: no redeal
        hand = game.new_hand(seed=result["seed"], dealer=(number - 1) % 3)
        play_out(hand, bot("random"), random.Random(result["bot_seed"]))
        contract = hand.contract
        assert contract is not None and contract.bid == result["bid"]
        settlement = settle(game, contract, hand.facts)
        paid = {PLAYERS[s]: v for s, v in settlement.payments.items()}
        assert paid == result["payments"]
        for seat, name in enumerate(PLAYERS):
            per_seat[seat].append(paid[name])
        lines = [line for line in settlement.lines if line.source == "component"]
        ok = not contract.gave_up and all(line.made for line in lines)
        assert result["made"] == ok
        won[contract.bid] += 1
        made[contract.bid] += ok
        for line in lines:
            settled[line.what] += 1
            comp_made[line.what] += line.made
        levels = [level for seats in contract.kontra.values() for level in seats.values()]
        highest[max(levels, default=0)] += 1
        assert result["kontra"] == max(levels, default=0)
        for line in settlement.lines:
            if line.source == "silent":
                silent[(line.what, line.by, line.made)] += 1
    assert {b: row["won"] for b, row in data["bids"].items()} == won
    assert {b: row["made"] for b, row in data["bids"].items()} == made
    for bid, row in data["bids"].items():
        assert row["share"] == round(won[bid] / 40, 4)
        assert row["made_rate"] == round(made[bid] / won[bid], 4)
    assert {c: row["settled"] for c, row in data["components"].items()} == settled
    assert {c: row["made"] for c, row in data["components"].items()} == comp_made
    levels = game.ruleset.kontra
    assert data["kontra"] == {
        (levels.name(level) if level else "none"): n for level, n in sorted(highest.items())
    }
    assert len(data["kontra"]) > 1, "random bots call kontras"
    for row in data["silent"]:
        assert row["made"] == silent[(row["id"], row["by"], True)]
        assert row["lost"] == silent[(row["id"], row["by"], False)]
    for seat, name in enumerate(PLAYERS):
        row = data["payments"][name]
        assert row["total"] == sum(per_seat[seat]) == data["totals"][name]
        assert row["mean"] == round(statistics.mean(per_seat[seat]), 4)
        error = statistics.stdev(per_seat[seat]) / math.sqrt(40)
        assert row["stderr"] == pytest.approx(error, abs=1e-4)
    assert sum(data["declarer_results"].values()) == 40


def test_a_small_run_worked_out_by_hand(ulti: RunUlti) -> None:
    """Five hands: the mean and standard error of P1 from his five payments, by hand."""
    data = run_json(ulti, "--hands", "5", "--seed", "1")
    paid = [r["payments"]["P1"] for r in data["results"]]
    mean = sum(paid) / 5
    variance = sum((x - mean) ** 2 for x in paid) / 4
    assert data["payments"]["P1"]["mean"] == round(mean, 4)
    assert data["payments"]["P1"]["stderr"] == round(math.sqrt(variance / 5), 4)
    bids = Counter(r["bid"] for r in data["results"])
    assert {b: row["won"] for b, row in data["bids"].items()} == bids
    assert list(data["bids"]) == sorted(bids, key=lambda b: (-bids[b], b))  # most won first
    text = ulti("simulate", "--hands", "5", "--seed", "1", "--quiet").stdout
    p1 = data["payments"]["P1"]
    assert f"P1 {p1['mean']:+.2f} ± {p1['stderr']:.2f}" in text


def test_json_keys_and_quiet(ulti: RunUlti) -> None:
    data = run_json(ulti, "--hands", "4", "--seed", "3")
    assert list(data) == [
        "seed", "bots", "players", "ruleset", "ruleset_hash", "hands", "outcomes", "bids",
        "components", "payments", "kontra", "silent", "declarer_results", "totals", "results",
    ]  # fmt: skip
    assert data["bots"] == ["simple"] * 3 and data["players"] == PLAYERS
    assert set(data["results"][0]) == {
        "hand", "turn", "seed", "bot_seed", "dealer", "declarer", "bid", "trump", "outcome",
        "made", "kontra", "payments",
    }  # fmt: skip
    assert set(next(iter(data["bids"].values()))) == {
        "name", "won", "share", "made", "made_rate", "declarer_mean",
    }  # fmt: skip
    assert set(data["payments"]["P1"]) == {"total", "mean", "stderr"}
    quiet = run_json(ulti, "--hands", "4", "--seed", "3", "--quiet")
    assert "results" not in quiet
    assert quiet == {k: v for k, v in data.items() if k != "results"}


# --------------------------------------------------------------------------- --bots


def test_bots_per_seat_and_the_bot_alias(ulti: RunUlti) -> None:
    mixed = run_json(ulti, "--hands", "6", "--bots", "random, simple ,simple")
    assert mixed["bots"] == ["random", "simple", "simple"]
    alias = run_json(ulti, "--hands", "6", "--bot", "random")
    assert alias == run_json(ulti, "--hands", "6", "--bots", "random,random,random")
    assert alias["bots"] == ["random"] * 3 and alias != mixed
    text = ulti("simulate", "--hands", "2", "--bots", "random,simple,simple", "-q").stdout
    assert "(seed 0, bots P1 random, P2 simple, P3 simple):" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--bots", "simple,clever,simple"],
            "ulti: error: no bot is called 'clever' (the bots: ",
        ),
        (
            ["--bots", "simple,random"],
            "ulti: error: --bots names 2 bots, but 'wikipedia' is played by 3: name one bot "
            "per seat (--bots simple,simple,simple) or one for every seat (--bots simple)",
        ),
        (["--bots", "simple,,random"], "ulti: error: --bots 'simple,,random' has an empty name"),
        (
            ["four-player", "--bots", "simple,simple,simple"],
            "ulti: error: --bots names 3 bots, but 'four-player' is played by 4",
        ),
    ],
)
def test_bad_bots(ulti: RunUlti, args: list[str], message: str) -> None:
    done = ulti("simulate", "--hands", "1", *args)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(message), done.stderr


def test_bad_workers_and_plot_options(ulti: RunUlti, tmp_path: Path) -> None:
    done = ulti("simulate", "--hands", "1", "--workers", "0")
    assert done.returncode == 2 and "--workers" in done.stderr
    done = ulti("simulate", "--hands", "1", "--plot", "nowhere/study.png")
    assert done.returncode == 1 and done.stdout == ""
    if importlib.util.find_spec("matplotlib") is None:  # checked first: the extra is missing
        assert "pip install 'ulti-rules[plot]'" in done.stderr
    else:
        assert done.stderr == (
            "ulti: error: --plot nowhere/study.png: the folder nowhere does not exist\n"
        )
    done = ulti("simulate", "--hands", "1", "--plot", ".")
    assert done.returncode == 1 and done.stdout == ""


def test_force_without_save_records_is_a_usage_error(ulti: RunUlti) -> None:
    """`--force` only lets --save-records replace records; alone it did nothing, silently."""
    done = ulti("simulate", "--hands", "1", "--force")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("Usage: ulti simulate [OPTIONS] [RULESET]\n"), done.stderr
    assert done.stderr.endswith("\nError: --force needs --save-records: it lets the records "
                                "be saved into a folder that already holds some\n")  # fmt: skip
    saved = ulti("simulate", "--hands", "1", "--force", "--save-records", "recs", "-q")
    assert saved.returncode == 0, saved.stderr


def test_plot_without_matplotlib_says_how_to_install_it(
    ulti: RunUlti, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib: ImportError
    done = ulti("simulate", "--hands", "1", "--plot", "study.png")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        "ulti: error: drawing a plot needs matplotlib, an optional extra: "
        "pip install 'ulti-rules[plot]'\n"
    )
    assert not (tmp_path / "study.png").exists()


def test_plot_draws_a_png(ulti: RunUlti, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    done = ulti("simulate", "--hands", "30", "--quiet", "--plot", "study.png")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "Plot: study.png"
    png = (tmp_path / "study.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000
    done = ulti("simulate", "--hands", "30", "-q", "--compare", "tournament", "--plot", "both.png")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "both.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_a_plot_that_cannot_be_written_leaves_the_old_one_whole(
    ulti: RunUlti, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("matplotlib")
    (tmp_path / "study.png").write_bytes(b"last week's plot")

    def disk_full(fd: int, data: bytes) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(safe_files, "_write_all", disk_full)
    done = ulti("simulate", "--hands", "10", "--quiet", "--plot", "study.png")
    assert done.returncode == 1
    assert done.stderr.endswith(
        "ulti: error: study.png: cannot write the file: No space left on device\n"
    )
    assert (tmp_path / "study.png").read_bytes() == b"last week's plot"


# --------------------------------------------------------------------------- the progress bar


def test_the_progress_bar_only_on_a_terminal_and_a_long_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shows = simulate_module._shows_progress
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert shows(5000, lines_on_terminal=False)
    assert not shows(2000, lines_on_terminal=False)  # a short run needs none
    assert not shows(5000, lines_on_terminal=True)  # the hands' lines scroll past
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert not shows(5000, lines_on_terminal=False)  # stderr piped or logged


def test_the_progress_bar_leaves_stdout_alone(
    ulti: RunUlti, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = ulti("simulate", "--hands", "30", "--seed", "4")
    monkeypatch.setattr(simulate_module, "_shows_progress", lambda hands, lines: True)
    with_bar = ulti("simulate", "--hands", "30", "--seed", "4")
    assert with_bar.returncode == 0, with_bar.stderr
    assert with_bar.stdout == plain.stdout


# --------------------------------------------------------------------------- a bot that fails

CRASHY = """\
from ulti_rules import hookimpl


class Crashy:
    name = "crashy"
    description = "a bot under test"

    def choose(self, hand, rng):
        raise RuntimeError("lost the thread")


@hookimpl
def register_bots(register):
    register(Crashy)
"""


def test_a_bot_failing_in_a_worker_is_named_like_in_one_process(ulti: RunUlti, site: Any) -> None:
    """The worker's error crosses back as the message a person reads, not a traceback."""
    site.add("crashy", CRASHY)
    for workers in ("1", "2"):
        args = ("--hands", "120", "--bots", "simple,crashy,simple", "--workers", workers)
        done = ulti("simulate", *args)
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr == (
            "ulti: error: bot 'crashy' of plugin 'crashy' failed: RuntimeError: lost the thread\n"
        )


def _answered_by_the_study(interrupt: KeyboardInterrupt) -> None:
    """The Ctrl-C was raised by the study's own code, never inside ``concurrent.futures``
    (where it could leave a lock held), and no worker is left."""
    frames = [frame.f_code.co_filename for frame, _ in traceback.walk_tb(interrupt.__traceback__)]
    library = [name for name in frames if os.sep + "concurrent" + os.sep in name]
    assert library == [], frames
    assert frames[-1].endswith(os.path.join("ulti_rules", "interrupts.py")), frames
    assert multiprocessing.active_children() == []


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to itself")
def test_a_ctrl_c_while_workers_play_is_answered_in_the_study_and_stops_them() -> None:
    """A Ctrl-C lands where the main process is: nearly always waiting for a chunk, inside
    the pool's lock handling (``threading.Condition``). Raised there, a second Ctrl-C
    could leave the lock held and the pool's shutdown waiting for ever (`ulti simulate
    --workers 2` hung once in a loaded test run). Now it is noted, the wait ends, and the
    ``KeyboardInterrupt`` is raised by the study's own code; no worker is left."""
    spec = StudySpec("wikipedia", ("simple",) * 3, 7, 500_000)
    study = played_hands(spec, workers=2)
    next(study)  # the workers are up and playing
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt) as caught:
            for _ in study:
                pass
    finally:
        timer.cancel()
        study.close()
    _answered_by_the_study(caught.value)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to itself")
def test_a_ctrl_c_while_a_chunk_is_handed_to_the_pool_is_answered_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rest of the time the main process hands the next chunk to the pool, which puts
    it on a queue under a ``threading.Condition``: a Ctrl-C raised there could leave the
    queue's lock held, the pool's thread waiting for it, and the shutdown waiting for that
    thread for ever (`ulti simulate --workers 2` hung once in 60 runs of two presses on a
    loaded machine). Here the press lands as the fifth chunk goes on the queue: it is
    answered once the chunk is handed over, by the study's own code; no worker is left."""
    handed: list[object] = []
    start = ProcessPoolExecutor.__init__

    def pressed_on_the_fifth(pool: ProcessPoolExecutor, *args: Any, **kwargs: Any) -> None:
        start(pool, *args, **kwargs)
        put = pool._work_ids.put  # type: ignore[attr-defined]

        def put_pressed(item: object, *more: Any, **named: Any) -> None:
            handed.append(item)
            if len(handed) == 5:  # the one handed over after the first chunk came back
                signal.raise_signal(signal.SIGINT)
            put(item, *more, **named)

        pool._work_ids.put = put_pressed  # type: ignore[attr-defined]

    monkeypatch.setattr(ProcessPoolExecutor, "__init__", pressed_on_the_fifth)
    spec = StudySpec("wikipedia", ("simple",) * 3, 7, 500_000)
    study = played_hands(spec, workers=2)
    try:
        with pytest.raises(KeyboardInterrupt) as caught:
            for _ in study:
                pass
    finally:
        study.close()
    assert len(handed) == 5
    _answered_by_the_study(caught.value)


def test_the_workers_are_told_to_stop_before_the_shutdown_is_called(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A second Ctrl-C landing as the shutdown is called, before it holds Ctrl-C off,
    skips it: the stop flag is set first, by a store no Ctrl-C can cut, so the workers
    still stop at their next hand instead of playing every chunk handed to them."""
    real = workers_module._shut_down
    seen: list[tuple[Any, Any, bool]] = []

    def pressed_on_the_way_in(pool: Any, stop: Any) -> None:
        seen.append((pool, stop, bool(stop.value)))
        raise KeyboardInterrupt  # what a press at the call's first line does

    monkeypatch.setattr(workers_module, "_shut_down", pressed_on_the_way_in)
    study = played_hands(StudySpec("wikipedia", ("simple",) * 3, 7, 500_000), workers=2)
    next(study)
    with pytest.raises(KeyboardInterrupt):
        study.close()
    [(pool, stop, stopped)] = seen
    real(pool, stop)  # what the interpreter's exit would do, waiting for the workers
    assert stopped
    assert multiprocessing.active_children() == []


def test_a_pool_found_broken_as_a_chunk_is_handed_over_is_the_study_s_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker may die while the caller has the last chunk: the pool is then found broken
    when the next one is handed over, and that is the study's error, as when it is found
    waiting (the library's ``BrokenProcessPool`` came out; found in review)."""
    submit = ProcessPoolExecutor.submit
    handed: list[object] = []

    def broken_on_the_fifth(pool: ProcessPoolExecutor, *args: Any, **kwargs: Any) -> Any:
        handed.append(args)
        if len(handed) == 5:
            raise BrokenProcessPool("a child process terminated abruptly")
        return submit(pool, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", broken_on_the_fifth)
    spec = StudySpec("wikipedia", ("simple",) * 3, 7, 500_000)
    study = played_hands(spec, workers=2)
    try:
        with pytest.raises(UltiError, match="a worker process ended without finishing"):
            for _ in study:
                pass
    finally:
        study.close()
    assert len(handed) == 5
    assert multiprocessing.active_children() == []


def test_a_chunk_that_failed_with_a_timeout_is_that_error_not_a_wait() -> None:
    """The wait for a chunk looks for a Ctrl-C every ``WAIT`` seconds; a worker's own
    ``TimeoutError`` (an OSError, ETIMEDOUT) is the chunk's error, raised, where
    ``result(timeout=...)`` took it for the wait's and waited again for ever (found in
    review)."""
    failed: Future[list[Any]] = Future()
    failed.set_exception(TimeoutError("the plugin's server did not answer"))
    with pytest.raises(TimeoutError, match="did not answer"):
        workers_module._chunk_of(failed)


class _Pool:
    """A pool's shutdown, counted, and a Ctrl-C pressed during it if asked."""

    def __init__(self, press: bool = False) -> None:
        self.press, self.shut = press, 0

    def shutdown(self, wait: bool, cancel_futures: bool) -> None:
        self.shut += 1
        if self.press:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # the signal is delivered (to the handler holding it)


class _Stop:
    value = False


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to itself")
def test_a_ctrl_c_during_the_shutdown_is_answered_after_it() -> None:
    """A study that ends as Ctrl-C is pressed: the workers are stopped and waited for,
    then the press is answered."""
    pool, stop = _Pool(press=True), _Stop()
    with pytest.raises(KeyboardInterrupt):
        workers_module._shut_down(pool, stop)  # type: ignore[arg-type]
    assert pool.shut == 1 and stop.value


def test_a_ctrl_c_before_the_shutdown_holds_starts_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A press that lands before Ctrl-C is held (a second one right after the first) does
    not leave the workers running: the shutdown is done all the same, and the press is
    answered after it, unless a Ctrl-C is on its way out already."""
    held = workers_module.ctrl_c_held
    calls = []

    def pressed_first() -> Any:
        calls.append(1)
        if len(calls) % 2:
            raise KeyboardInterrupt
        return held()

    monkeypatch.setattr(workers_module, "ctrl_c_held", pressed_first)
    pool, stop = _Pool(), _Stop()
    with pytest.raises(KeyboardInterrupt):
        workers_module._shut_down(pool, stop)  # type: ignore[arg-type]
    assert pool.shut == 1 and stop.value
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt:
        workers_module._shut_down(pool, stop)  # type: ignore[arg-type]  # the first is out
    assert pool.shut == 2


def test_a_plugin_fault_is_a_plugin_error_with_any_number_of_workers(site: Any) -> None:
    """It crossed back from a worker as a plain UltiError, so that `except PluginError`
    worked with one worker only (found by a fault review)."""
    site.add("crashy", CRASHY)
    spec = StudySpec("wikipedia", ("simple", "crashy", "simple"), 1, 120)
    for workers in (1, 2):
        with pytest.raises(PluginError, match=r"^bot 'crashy' of plugin 'crashy' failed"):
            list(played_hands(spec, workers))


FRAGILE = """\
from ulti_rules import hookimpl
from ulti_rules.bots import SimpleBidder

BUILT = [0]


class Fragile(SimpleBidder):
    name = "fragile"
    description = "a bot under test that cannot be built a fourth time"

    def __init__(self):
        BUILT[0] += 1
        if BUILT[0] > 3:
            raise RuntimeError("cannot build again")
        super().__init__()


@hookimpl
def register_bots(register):
    register(Fragile)
"""


def test_a_bot_failing_to_build_at_a_later_hand_is_named(ulti: RunUlti, site: Any) -> None:
    """Built at the start, it failed at the third hand: that was an 'internal error'
    instead of the plugin's fault (found by a fault review)."""
    site.add("fragile", FRAGILE)
    done = ulti("simulate", "--hands", "5", "--bots", "fragile,simple,simple", "--quiet")
    assert done.returncode == 1 and "internal error" not in done.stderr
    assert done.stderr.startswith(
        "ulti: error: bot 'fragile' of plugin 'fragile' failed in creating it: RuntimeError: "
        "cannot build again"
    )


DYING = """\
import os

from ulti_rules import hookimpl


class Dying:
    name = "dying"
    description = "a bot under test whose process dies"

    def choose(self, hand, rng):
        os._exit(9)


@hookimpl
def register_bots(register):
    register(Dying)
"""


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> list[multiprocessing.process.BaseProcess]:
    """The worker processes of each study's pool, as they are when the pool shuts down."""
    seen: list[multiprocessing.process.BaseProcess] = []

    class Watched(ProcessPoolExecutor):
        def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
            seen.extend(multiprocessing.active_children())
            super().shutdown(wait, cancel_futures=cancel_futures)

    monkeypatch.setattr(workers_module, "ProcessPoolExecutor", Watched)
    return seen


def test_a_chunk_told_to_stop_plays_no_further_hand_and_gives_none() -> None:
    """The study's stop flag is read before each hand; a stopped chunk is no result."""
    spec = StudySpec("wikipedia", ("random",) * 3, seed=3, hands=10)
    table = runner.Table(spec)
    seeds = runner.turn_seeds(spec.seed, spec.hands)
    answers: list[bool] = []

    def stop() -> bool:
        answers.append(len(answers) == 4)  # "no" four times: four hands, then stop
        return answers[-1]

    with pytest.raises(runner.Stopped):
        table.play_turns(0, seeds, 10, stop)
    assert answers == [False] * 4 + [True]
    assert table.play_turns(0, seeds, 10, lambda: False) == table.play_turns(0, seeds, 10)


def test_a_study_left_early_waits_for_its_workers_and_kills_none() -> None:
    """The caller takes one chunk and stops: the workers, told to stop, end by themselves.
    A pool that terminated them could kill one holding the queue's lock, and hang."""
    spec = StudySpec("wikipedia", ("simple",) * 3, seed=2, hands=600)
    study = played_hands(spec, 2, chunk=30)
    assert len(next(study)) == 30
    pool = multiprocessing.active_children()
    assert len(pool) == 2
    study.close()
    assert [worker.exitcode for worker in pool] == [0, 0]


def test_a_study_whose_every_chunk_fails_ends_each_time_with_the_error(
    site: Any, watched: list[multiprocessing.process.BaseProcess]
) -> None:
    """The first error ends the study while the other worker is handing its own back: the
    race that hung `--workers 2` now and then. Each run ends, and no worker is killed."""
    site.add("crashy", CRASHY)
    spec = StudySpec("wikipedia", ("simple", "crashy", "simple"), seed=1, hands=400)
    for _ in range(12):
        with pytest.raises(UltiError, match="lost the thread"):
            for _chunk in played_hands(spec, 2, chunk=20):
                pass
    assert len(watched) == 24
    assert all(worker.exitcode == 0 for worker in watched)


def test_a_worker_that_dies_ends_the_study_with_an_error(ulti: RunUlti, site: Any) -> None:
    """A worker killed from outside (here it ends itself) loses its chunk: the study says
    so instead of waiting for the chunk for ever."""
    site.add("dying", DYING)
    done = ulti("simulate", "--hands", "60", "--bots", "simple,dying,simple", "--workers", "2")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        "ulti: error: a worker process ended without finishing its hands (killed, or out of "
        "memory?); the study stopped\n"
    )
    said = ulti("simulate", "--hands", "60", "--bots", "dying", "--workers", "2", "--lang", "hu")
    assert said.returncode == 1
    assert said.stderr.startswith("ulti: error: egy munkafolyamat véget ért, mielőtt")


def test_a_long_study_draws_its_seeds_as_it_goes() -> None:
    """A million hands asked for, ten played: the seeds of the others are not drawn (they
    took 64 bytes a hand before the first was played: 6 GB for 100 million)."""
    spec = StudySpec("wikipedia", ("simple",) * 3, seed=8, hands=1_000_000)
    study = played_hands(spec, 1, chunk=10)
    tracemalloc.start()
    try:
        first = next(study)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        study.close()
    assert [result.turn for result, _ in first] == list(range(10))
    assert peak < 4_000_000, f"{peak:,} bytes for ten hands"
    assert first == runner.Table(spec).play_turns(0, runner.turn_seeds(8, 10), 10)
