"""The ledger loses no hand: concurrent and killed writers, links, modes, special files.

Concurrency and kills are about processes, so those tests fork real processes that run
the `ledger add` command code (starting the console script costs half a second of CPU
each; one small test runs the real script). Everything else runs the command
in-process.
"""

from __future__ import annotations

import errno
import fcntl
import json
import multiprocessing
import os
import random
import re
import signal
import stat
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner
from ulti_rules import safe_files
from ulti_rules.bots import SimpleBidder, play_out
from ulti_rules.cli import main
from ulti_rules.engine import Hand
from ulti_rules.quoting import shorten
from ulti_rules.records import RecordError, load_record, record_of, save
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.safe_files import TEMP_INFIX, UnsafeFileError, locked, sweep_temps
from ulti_rules.scoring import ledger_file
from ulti_rules.scoring.ledger import LedgerError, add_hand, add_misdeal, new_ledger
from ulti_rules.scoring.ledger_file import load_ledger, save_ledger
from ulti_rules.scoring.sheet import read_sheet

from cli_in_process import Ran, run_in
from conftest import ulti_executable
from ledger_support import two_hand_session
from settlement_support import BEN_MAKES_ULTI, LEDGER_PLAYERS, PAYMENTS

PLAYERS = LEDGER_PLAYERS
FORK = multiprocessing.get_context("fork")


@pytest.fixture
def ulti(tmp_path: Path) -> Callable[..., Ran]:
    return run_in(tmp_path)


@contextmanager
def ended(
    processes: list[multiprocessing.process.BaseProcess],
) -> Iterator[list[multiprocessing.process.BaseProcess]]:
    """``processes``, each one still running killed (SIGKILL) as the block ends, however
    it ends: a failed test leaves no writer behind, adding hands for ever or waiting at a
    barrier the others never reached (the run would hang at its exit, waiting for it)."""
    try:
        yield processes
    finally:
        for process in processes:
            if process.pid is None:  # never started
                continue
            if process.exitcode is None:
                process.kill()
            process.join(10)


@pytest.fixture
def forked_writers() -> ModuleType:
    """The writers of the concurrency and kill tests, and how they start: forked from a
    small warm process of their own (``ledger_writers``, imported here: it adds a hand as
    it is imported, which only the workers that run these tests need)."""
    import ledger_writers

    return ledger_writers


@pytest.fixture
def session(tmp_path: Path) -> tuple[Path, Path]:
    """A wikipedia session of Anna, Ben and Carla with two hands, and a hand to add."""
    return two_hand_session(tmp_path)


def temp_files(folder: Path) -> list[str]:
    return [name for name in os.listdir(folder) if TEMP_INFIX in name]


def assert_whole(path: Path, at_least: int = 0) -> int:
    """The ledger reads and checks clean (numbers, rotation, zero sums: load_ledger
    refuses anything else), every hand is the one that was added, none is missing."""
    ledger = load_ledger(path)
    assert len(ledger.hands) >= at_least
    for number, hand in enumerate(ledger.hands, start=1):
        assert hand.number == number
        assert hand.dealer == PLAYERS[(number - 1) % 3]
        assert hand.payments == PAYMENTS
        assert hand.sheet is not None and hand.sheet["dealer"] == hand.dealer
    return len(ledger.hands)


# --------------------------------------------------------------------------- concurrency


@pytest.mark.parametrize("trial", range(5))
def test_twenty_concurrent_adds_all_land_in_order(
    session: tuple[Path, Path], forked_writers: ModuleType, trial: int
) -> None:
    """Twenty writers released at once onto an empty ledger; five trials, each its own
    test (one trial takes about a second)."""
    path, hand = session
    folder = path.parent
    path.unlink()
    save_ledger(new_ledger("wikipedia", PLAYERS, None, None), path)
    context = forked_writers.context()
    start = context.Barrier(20)
    writers = [
        context.Process(
            target=forked_writers.add_when_all_are_ready,
            args=(str(path), str(hand), str(folder / f"out-{trial}-{i}.txt"), start),
        )
        for i in range(20)
    ]
    with ended(writers):
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join(60)
    outputs = [(folder / f"out-{trial}-{i}.txt").read_text("utf-8") for i in range(20)]
    assert [w.exitcode for w in writers] == [0] * 20, outputs
    assert sorted(json.loads(out)["hand"] for out in outputs) == list(range(1, 21))
    assert assert_whole(path) == 20
    assert temp_files(folder) == []


def test_concurrent_adds_through_the_console_script(session: tuple[Path, Path]) -> None:
    """Three `ulti ledger add` scripts started at once all land, numbered in turn. Three
    are enough here: the twenty forked writers above are the contention test, and this
    one shows that the installed script (about half a second of start-up each) takes
    the same lock."""
    path, hand = session
    env = dict(os.environ, ULTI_DEBUG="1")
    runs = [
        subprocess.Popen(
            [ulti_executable(), "ledger", "add", str(path), str(hand), "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(3)
    ]
    results = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0] * 3, results
    assert sorted(json.loads(out)["hand"] for out, _ in results) == [3, 4, 5]
    assert assert_whole(path) == 5


# --------------------------------------------------------------------------- kills


KILL_SEEDS = (11, 12, 13, 14)
"""The random seeds of the kill tests, one test each."""
KILLS = 25
"""Kills in each test (100 in all), and more until ``ADDED`` hands are in."""
ADDED = 3
MAX_KILLS = 400


@pytest.mark.parametrize("seed", KILL_SEEDS)
def test_killed_writers_leave_whole_hands_and_no_temp_files(
    session: tuple[Path, Path], forked_writers: ModuleType, seed: int
) -> None:
    """Writers killed (SIGKILL) at random moments: four at a time add hands, and a random
    one of them is killed every 0-40 ms, whether it is reading, waiting for the lock,
    settling or writing (about 3 kills in 100 land while the new file is written).

    25 kills in each of four tests are enough: the writers add about 5 to 20 hands
    between them, so kills land in every step of an add. On a busy machine (the tests
    run in parallel) a writer may be killed before it adds anything, so the kills go on
    until at least three hands are in."""
    path, hand = session
    rng = random.Random(seed)
    context = forked_writers.context()

    def writer() -> multiprocessing.process.BaseProcess:
        process = context.Process(
            target=forked_writers.add_until_killed,
            args=(str(path), str(hand)),
        )
        process.start()
        return process

    hands_seen = [2]
    with ended([]) as writers:
        for _ in range(4):  # each one in the list as it starts, should the next one fail
            writers.append(writer())
        while len(hands_seen) <= KILLS or hands_seen[-1] < 2 + ADDED:
            assert len(hands_seen) <= MAX_KILLS, f"fewer than {ADDED} hands in {MAX_KILLS} kills"
            time.sleep(rng.uniform(0, 0.04))
            victim = writers.pop(rng.randrange(len(writers)))
            # still running, so its process id is still its own (the fork server, not
            # this process, reaps it: a writer that had ended would free its id at once)
            assert victim.exitcode is None, f"a writer ended by itself ({victim.exitcode})"
            victim.kill()
            victim.join(10)
            assert victim.exitcode == -signal.SIGKILL
            hands = json.loads(path.read_bytes())["hands"]  # a reader never sees half a file
            assert len(hands) >= hands_seen[-1]  # and no hand, once in, is lost
            hands_seen.append(len(hands))
            writers.append(writer())
    # the writers still adding are killed (SIGKILL) as the block ends
    before = assert_whole(path)
    assert before >= 2 + ADDED  # hands were added between the kills
    done = CliRunner().invoke(main, ["ledger", "add", str(path), str(hand)])
    assert done.exit_code == 0, done.stderr
    assert assert_whole(path) == before + 1
    assert temp_files(path.parent) == []  # the next writer removed what killed ones left


# --------------------------------------------------------------------------- links and modes


def test_a_symlinked_ledger_is_written_through_the_link_keeping_its_mode(
    tmp_path: Path, session: tuple[Path, Path], ulti: Callable[..., Ran]
) -> None:
    path, hand = session
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    real = elsewhere / "friday.json"
    path.rename(real)
    real.chmod(0o640)
    path.symlink_to(real)
    done = ulti("ledger", "add", "s.json", str(hand))
    assert done.returncode == 0, done.stderr
    assert path.is_symlink() and path.resolve() == real
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert assert_whole(real) == 3
    assert temp_files(elsewhere) == [] and temp_files(tmp_path) == []


def test_a_read_only_ledger_is_refused_before_any_work(
    tmp_path: Path, session: tuple[Path, Path], ulti: Callable[..., Ran]
) -> None:
    path, _ = session
    path.chmod(0o444)
    before = path.read_bytes()
    (tmp_path / "bad.yaml").write_text("declarer: Nobody\nbid: ulti\n", "utf-8")
    done = ulti("ledger", "add", "s.json", "bad.yaml")  # the hand is never read
    assert done.returncode == 1
    assert done.stderr == (
        "ulti: error: s.json: the file is read-only; make it writable (chmod u+w) to change it\n"
    )
    assert path.read_bytes() == before and stat.S_IMODE(path.stat().st_mode) == 0o444
    forced = ulti(
        "ledger", "new", "s.json", "--ruleset", "wikipedia", "--players", "A,B,C", "--force"
    )
    assert forced.returncode == 1 and "read-only" in forced.stderr
    assert path.read_bytes() == before


def test_a_full_disk_leaves_the_ledger_whole_and_names_it(
    tmp_path: Path,
    session: tuple[Path, Path],
    ulti: Callable[..., Ran],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The error said only "No space left on device": now it says which file."""
    path, hand = session
    before = path.read_bytes()

    def disk_full(fd: int, data: bytes) -> None:
        os.write(fd, data[:100])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(safe_files, "_write_all", disk_full)
    done = ulti("ledger", "add", "s.json", str(hand))
    assert done.returncode == 1
    assert done.stderr == f"ulti: error: {path}: No space left on device\n"
    assert path.read_bytes() == before and temp_files(tmp_path) == []


def test_a_hard_linked_ledger_is_refused(
    tmp_path: Path, session: tuple[Path, Path], ulti: Callable[..., Ran]
) -> None:
    path, hand = session
    os.link(path, tmp_path / "other-name.json")
    before = path.read_bytes()
    done = ulti("ledger", "add", "s.json", str(hand))
    assert done.returncode == 1
    assert "s.json: the file has 2 hard links" in done.stderr
    assert "keep one name (a symbolic link works)" in done.stderr
    assert path.read_bytes() == before == (tmp_path / "other-name.json").read_bytes()


def test_ledger_new_keeps_a_symlink_unless_forced(tmp_path: Path, ulti: Callable[..., Ran]) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("keep me\n", "utf-8")
    target.chmod(0o600)
    (tmp_path / "s.json").symlink_to(target)
    (tmp_path / "gone.json").symlink_to(tmp_path / "nowhere.json")
    for name in ("s.json", "gone.json"):
        done = ulti("ledger", "new", name, "--ruleset", "wikipedia", "--players", "A,B,C")
        assert done.returncode == 1
        assert done.stderr == f"ulti: error: {name} already exists; use --force to start it again\n"
    assert target.read_text("utf-8") == "keep me\n"
    assert not (tmp_path / "nowhere.json").exists()
    args = ("--ruleset", "wikipedia", "--players", "A,B,C", "--force")
    done = ulti("ledger", "new", "s.json", *args)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "s.json").is_symlink()
    assert load_ledger(target).players == ["A", "B", "C"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert temp_files(tmp_path) == []


def test_stale_temp_files_are_removed_under_the_lock(session: tuple[Path, Path]) -> None:
    path, _ = session
    stale = path.parent / f".s.json{TEMP_INFIX}0badf00d"
    stale.write_text('{"half": ', "utf-8")
    other = path.parent / f".other.json{TEMP_INFIX}0badf00d"  # another file's: kept
    other.write_text("", "utf-8")
    ledger = load_ledger(path)
    add_misdeal(ledger)
    save_ledger(ledger, path)
    assert not stale.exists() and other.exists()
    assert len(load_ledger(path).hands) == 3


def test_a_writer_waits_for_the_lock_and_then_says_who_holds_it(tmp_path: Path) -> None:
    real = tmp_path / "s.json"
    real.write_text("{}", "utf-8")
    lock = os.open(tmp_path / ".s.json.lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with (
            pytest.raises(UnsafeFileError, match="being changed by another program"),
            locked(real, "s.json", timeout=0.05),
        ):
            pass
    finally:
        os.close(lock)
    with locked(real, "s.json", timeout=0.05):
        pass


def test_a_full_ledger_refuses_the_next_hand_and_stays_readable(
    session: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, ulti: Callable[..., Ran]
) -> None:
    path, hand = session
    monkeypatch.setattr(ledger_file, "MAX_LEDGER_BYTES", path.stat().st_size + 100)
    before = path.read_bytes()
    done = ulti("ledger", "add", "s.json", str(hand))
    assert done.returncode == 1
    assert "the ledger is full" in done.stderr and "start a new ledger" in done.stderr
    assert path.read_bytes() == before
    assert assert_whole(path) == 2


# --------------------------------------------------------------------------- special files


@contextmanager
def at_most(seconds: int) -> Iterator[None]:
    """Fail, rather than hang the suite, if the block blocks."""

    def timeout(signum: int, frame: object) -> None:
        raise TimeoutError(f"blocked for {seconds} s")

    previous = signal.signal(signal.SIGALRM, timeout)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_a_fifo_or_a_device_is_refused_at_once(
    tmp_path: Path, ulti: Callable[..., Ran], special: str
) -> None:
    if special == "fifo":
        os.mkfifo(tmp_path / "fifo")
    for args in (("show", special), ("add", special, "--misdeal"), ("show", special, "--json")):
        with at_most(3):
            done = ulti("ledger", *args)
        assert done.returncode == 1
        assert done.stderr == f"ulti: error: {special}: not a regular file\n"
    assert not Path("/dev/.zero.lock").exists()
    assert sorted(os.listdir(tmp_path)) == (["fifo"] if special == "fifo" else [])


def test_a_ledger_over_the_size_limit_is_refused_unread(
    tmp_path: Path, ulti: Callable[..., Ran]
) -> None:
    (tmp_path / "big.json").write_bytes(b" " * (ledger_file.MAX_LEDGER_BYTES + 1))
    done = ulti("ledger", "show", "big.json")
    assert done.returncode == 1
    assert done.stderr == (
        "ulti: error: big.json: the file is 2.0 MiB; files over 2.0 MiB are not read\n"
    )


# --------------------------------------------------------------------------- hostile ledgers


Edit = Callable[[dict[str, Any]], object]
DIGITS_5000 = "DIGITS_5000"
"""Replaced by a number of 5,000 digits in the file's text (json cannot write one)."""
HOSTILE: dict[str, tuple[Edit | bytes, str, str]] = {
    "5,000-digit payment": (
        lambda d: d["hands"][0]["payments"].update(Anna=DIGITS_5000),
        "hands.0.payments.Anna",
        "cannot read",
    ),
    "400-digit payment": (
        lambda d: d["hands"][0]["payments"].update(Anna=10**400),
        "hands.0.payments.Anna",
        f"should be at most 1000000000, not {shorten(str(10**400))}",
    ),
    "a payment of true": (
        lambda d: d["hands"][1]["payments"].update(Ben=True),
        "hands.1.payments.Ben",
        "valid integer",
    ),
    "unknown player": (
        lambda d: d["hands"][0]["payments"].update(Dora=0),
        "hands.0.payments",
        "one payment for each of the players (Anna, Ben, Carla); not a player: Dora",
    ),
    "duplicate player": (
        lambda d: d["players"].__setitem__(2, "Anna"),
        "players.2",
        "'Anna' is listed twice",
    ),
    "dealer not a player": (
        lambda d: d["hands"][1].update(dealer="Dora"),
        "hands.1.dealer",
        "'Dora' is not one of the players (Anna, Ben, Carla)",
    ),
    "dealer out of turn": (
        lambda d: d["hands"][1].update(dealer="Carla"),
        "hands.1.dealer",
        "the deal passes to the right: Ben deals hand 2, not Carla",
    ),
    "payments not zero-sum": (
        lambda d: d["hands"][1]["payments"].update(Anna=-8),
        "hands.1.payments",
        "the payments sum to +1, not 0",
    ),
    "nonexistent bid": (
        lambda d: d["hands"][0].update(bid="grand-slam"),
        "hands.0.bid",
        "'grand-slam' is not a bid of 'wikipedia'",
    ),
    "nonexistent declarer": (
        lambda d: d["hands"][0].update(declarer="Dora"),
        "hands.0.declarer",
        "'Dora' is not one of the players (Anna, Ben, Carla)",
    ),
    "hand numbers out of order": (
        lambda d: d["hands"][1].update(number=7),
        "hands.1.number",
        "this is hand 2 of the session, not 7",
    ),
    "a first dealer not at the table": (
        lambda d: d.update(first_dealer="Dora"),
        "first_dealer",
        "'Dora' is not one of the players (Anna, Ben, Carla)",
    ),
    "four players for a three-player ruleset": (
        lambda d: d["players"].append("Dora"),
        "players",
        "'wikipedia' is for 3 players, not 4",
    ),
    "non-UTF-8": (b'{"format": "ulti-ledger/1",\n "players": ["\xff"]}', "", "not UTF-8 text"),
    "100k-deep nesting": (
        b'{"format": "ulti-ledger/1", "hands": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        "",
        "nested deeper than 64 levels",
    ),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_ledger_is_a_clean_positioned_error(
    tmp_path: Path, session: tuple[Path, Path], ulti: Callable[..., Ran], case: str
) -> None:
    path, hand = session
    change, key, message = HOSTILE[case]
    data = json.loads(path.read_text("utf-8"))
    if isinstance(change, bytes):
        hostile = change
    else:
        change(data)
        text = json.dumps(data, indent=2).replace(f'"{DIGITS_5000}"', "9" * 5000)
        hostile = text.encode("utf-8")
    path.write_bytes(hostile)
    where = rf"s\.json:\d+:\d+: {key}: " if key else r"s\.json:\d+:\d+: "
    for args in (("show", "s.json"), ("add", "s.json", str(hand))):
        # CPU time: other work on the machine (parallel tests) does not count
        started = time.process_time()
        done = ulti("ledger", *args)
        assert time.process_time() - started < 3
        assert done.returncode == 1
        pattern = re.compile(rf"(ulti: error: )?{where}.*{re.escape(message)}")
        assert any(pattern.match(line) for line in done.stderr.splitlines()), done.stderr
        assert path.read_bytes() == hostile


def test_every_problem_is_reported_one_a_line(
    session: tuple[Path, Path], ulti: Callable[..., Ran]
) -> None:
    path, _ = session
    data = json.loads(path.read_text("utf-8"))
    data["hands"][0]["bid"] = "grand-slam"
    data["hands"][1]["payments"]["Anna"] = 0
    data["hands"][1]["dealer"] = "Carla"
    path.write_text(json.dumps(data, indent=2), "utf-8")
    done = ulti("ledger", "show", "s.json")
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert [x.split(": ")[1] for x in lines[:-1]] == [
        "hands.0.bid",
        "hands.1.dealer",
        "hands.1.payments",
    ]
    assert lines[-1] == "ulti: error: 3 problems in the ledger"


def test_the_end_of_the_session_is_checked(tmp_path: Path) -> None:
    """The end is called once, only where the session ends by it; nothing follows the end."""
    hand = tmp_path / "hand.yaml"
    hand.write_text(BEN_MAKES_ULTI, "utf-8")
    sheet, where = read_sheet(hand)
    club = tmp_path / "short.yaml"
    club.write_text("name: short\nextends: wikipedia\nsession: {hands: 2}\n", "utf-8")
    ledger = new_ledger(str(club), PLAYERS, None, "heart_ace")
    for _ in range(2):
        add_hand(ledger, sheet, where, tmp_path, source="hand.yaml")
    data = ledger.model_dump(mode="json")
    third = {**data["hands"][1], "number": 3, "dealer": "Carla"}
    data["hands"][0]["heart_ace"] = "Anna"
    data["hands"][1]["heart_ace"] = "Ben"
    data["hands"].append(third)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data, indent=2), "utf-8")
    with pytest.raises(LedgerError) as caught:
        load_ledger(path)
    assert [(p.path, p.message) for p in caught.value.problems] == [
        ("hands.1.heart_ace", "the end was already called in hand 1"),
        ("hands.2", "the session was over after hand 2: no hand comes after it"),
    ]
    assert all(p.line is not None for p in caught.value.problems)
    data["end"] = "none"
    data["hands"][1]["heart_ace"] = None
    path.write_text(json.dumps(data, indent=2), "utf-8")
    with pytest.raises(LedgerError, match=r"hands\.0\.heart_ace: this session does not end by"):
        load_ledger(path)


# --------------------------------------------------------------------------- records


def test_save_never_replaces_a_name_unless_told(tmp_path: Path) -> None:
    hand = play_out(Hand(load_ruleset("wikipedia"), seed=3), SimpleBidder(), random.Random(3))
    record = record_of(hand, "wikipedia")
    secret = tmp_path / "secret.txt"
    secret.write_text("secret\n", "utf-8")
    (tmp_path / "link.yaml").symlink_to(secret)
    (tmp_path / "dangling.yaml").symlink_to(tmp_path / "nowhere.yaml")
    for name in ("link.yaml", "dangling.yaml"):
        with pytest.raises(
            RecordError, match=re.escape(f"{name}: already exists; a record is not overwritten")
        ) as refused:
            save(record, tmp_path / name)
        assert [p.file for p in refused.value.problems] == [str(tmp_path / name)]
    assert secret.read_text("utf-8") == "secret\n" and not (tmp_path / "nowhere.yaml").exists()
    save(record, tmp_path / "hand.yaml")
    with pytest.raises(RecordError, match=r"hand\.yaml: already exists"):
        save(record, tmp_path / "hand.yaml")
    save(record, tmp_path / "link.yaml", overwrite=True)
    assert secret.read_text("utf-8") == "secret\n"
    assert not (tmp_path / "link.yaml").is_symlink()
    assert load_record(tmp_path / "link.yaml").to_data() == record.to_data()
    assert temp_files(tmp_path) == []


def test_a_huge_study_checks_its_records_folder_without_listing_every_name(
    tmp_path: Path, ulti: Callable[..., Ran]
) -> None:
    """The check listed the name of every hand to come: 13 s and 885 MB before the first
    of ten million hands (found by a simulate review). It reads the folder instead."""
    records = tmp_path / "records"
    records.mkdir()
    (records / "hand-09999999.yaml").write_text("kept\n", "utf-8")
    (records / "hand-0001.yaml").write_text("another width: not one of these\n", "utf-8")
    tracemalloc.start()
    try:
        done = ulti("simulate", "--hands", "10000000", "--quiet", "--save-records", "records")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert done.returncode == 1
    assert done.stderr.startswith("ulti: error: records/hand-09999999.yaml already exists;")
    assert peak < 50_000_000, f"{peak:,} bytes"


def test_simulate_puts_no_study_beside_another_unless_forced(
    tmp_path: Path, ulti: Callable[..., Ran]
) -> None:
    """A run of another size numbers its records with other widths: hand-0001 beside the
    hand-00001 of a run of 10,000 was no clash, and two studies ended in one folder."""
    records = tmp_path / "records"
    records.mkdir()
    (records / "hand-00001.yaml").write_text("a record of a larger run\n", "utf-8")
    (records / "notes.txt").write_text("not a record\n", "utf-8")
    done = ulti("simulate", "--hands", "2", "--quiet", "--save-records", "records")
    assert done.returncode == 1
    assert done.stderr == (
        "ulti: error: records already holds the records of another run "
        "(records/hand-00001.yaml): choose another folder, or add this run's beside them "
        "with --force\n"
    )
    assert sorted(os.listdir(records)) == ["hand-00001.yaml", "notes.txt"]
    forced = ulti("simulate", "--hands", "2", "--quiet", "--save-records", "records", "--force")
    assert forced.returncode == 0, forced.stderr
    assert sorted(os.listdir(records)) == [
        "hand-00001.yaml", "hand-0001.yaml", "hand-0002.yaml", "notes.txt"
    ]  # fmt: skip
    assert (records / "hand-00001.yaml").read_text("utf-8") == "a record of a larger run\n"


def test_simulate_never_overwrites_a_record_nor_writes_through_a_link(
    tmp_path: Path, ulti: Callable[..., Ran]
) -> None:
    records = tmp_path / "records"
    records.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("secret\n", "utf-8")
    (records / "hand-0002.yaml").symlink_to(secret)
    done = ulti("simulate", "--hands", "3", "--quiet", "--save-records", "records")
    assert done.returncode == 1
    assert done.stderr == (
        "ulti: error: records/hand-0002.yaml already exists; records are not overwritten: "
        "choose another folder, or replace them with --force\n"
    )
    assert sorted(os.listdir(records)) == ["hand-0002.yaml"]  # nothing played, nothing saved
    done = ulti("simulate", "--hands", "3", "--quiet", "--save-records", "records", "--force")
    assert done.returncode == 0, done.stderr
    assert secret.read_text("utf-8") == "secret\n"  # the link was replaced, not followed
    assert not (records / "hand-0002.yaml").is_symlink()
    assert sorted(os.listdir(records)) == [f"hand-000{n}.yaml" for n in (1, 2, 3)]
    kept = (records / "hand-0001.yaml").read_bytes()
    again = ulti("simulate", "--hands", "1", "--seed", "5", "--quiet", "--save-records", "records")
    assert again.returncode == 1 and "records/hand-0001.yaml already exists" in again.stderr
    assert (records / "hand-0001.yaml").read_bytes() == kept


def _gone_pid() -> int:
    """The process id of a process that has ended (and been reaped)."""
    process = FORK.Process(target=int)
    process.start()
    process.join(10)
    assert process.pid is not None
    return process.pid


def test_a_sweep_removes_only_temp_files_whose_writer_is_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(safe_files, "_swept", {})
    gone, me = _gone_pid(), os.getpid()
    alive = FORK.Process(target=time.sleep, args=(30,))
    alive.start()
    assert alive.pid is not None
    names = {
        "gone": f".hand-1.yaml{TEMP_INFIX}{gone}-0badf00d",
        "alive": f".hand-2.yaml{TEMP_INFIX}{alive.pid}-0badf00d",
        "mine": f".hand-3.yaml{TEMP_INFIX}{me}-0badf00d",
        "locked": f".hand-4.yaml{TEMP_INFIX}{gone}-0badcafe",  # a writer in another PID namespace
        "old": f".hand-5.yaml{TEMP_INFIX}0badf00d",  # an older version's, two hours old
        "recent": f".hand-6.yaml{TEMP_INFIX}0badcafe",  # an older version's, just written
        "other": f".notes{TEMP_INFIX}{gone}",
    }
    for name in names.values():
        (tmp_path / name).write_text("half a rec", "utf-8")
    two_hours_ago = time.time() - 7200
    os.utime(tmp_path / names["old"], (two_hours_ago, two_hours_ago))
    (tmp_path / f".dir{TEMP_INFIX}{gone}-0badf00d").mkdir()
    held = os.open(tmp_path / names["locked"], os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)
        removed = sweep_temps(tmp_path)
    finally:
        os.close(held)
        os.kill(alive.pid, signal.SIGKILL)
        alive.join(10)
    assert sorted(p.name for p in removed) == sorted([names["gone"], names["old"]])
    left = set(os.listdir(tmp_path))
    assert left == {*names.values(), f".dir{TEMP_INFIX}{gone}-0badf00d"} - {
        names["gone"],
        names["old"],
    }
    assert sweep_temps(tmp_path) == []  # swept a moment ago: not scanned again
    monkeypatch.setattr(safe_files, "SWEEP_EVERY", 0.0)
    removed = sweep_temps(tmp_path)  # the sleeper is gone now, and the lock is free
    assert sorted(p.name for p in removed) == sorted([names["alive"], names["locked"]])


def _save_and_hang(path: str) -> None:
    """A record writer stopped between writing its temporary file and naming it."""
    os.replace = lambda *args, **kwargs: time.sleep(60)  # type: ignore[assignment]
    hand = play_out(Hand(load_ruleset("wikipedia"), seed=3), SimpleBidder(), random.Random(3))
    save(record_of(hand, "wikipedia"), Path(path), overwrite=True)


def test_a_killed_record_writer_leaves_nothing_after_the_next_save(
    tmp_path: Path, ulti: Callable[..., Ran], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ulti simulate --save-records` killed while writing: the next run into the folder
    removes the temporary file, but not while its writer still runs."""
    records = tmp_path / "records"
    records.mkdir()
    writer = FORK.Process(target=_save_and_hang, args=(str(records / "hand-0001.yaml"),))
    writer.start()
    deadline = time.monotonic() + 10
    while not temp_files(records):
        assert time.monotonic() < deadline, "the writer wrote no temporary file"
        time.sleep(0.01)
    [temp] = temp_files(records)
    assert temp.startswith(f".hand-0001.yaml{TEMP_INFIX}{writer.pid}-")
    args = ("simulate", "--hands", "2", "--quiet", "--save-records", "records", "--force")
    try:
        monkeypatch.setattr(safe_files, "_swept", {})
        assert ulti(*args).returncode == 0
        assert temp_files(records) == [temp]  # its writer is at work
    finally:
        assert writer.pid is not None
        os.kill(writer.pid, signal.SIGKILL)
        writer.join(10)
    monkeypatch.setattr(safe_files, "_swept", {})
    assert ulti(*args).returncode == 0
    assert temp_files(records) == []
    assert sorted(os.listdir(records)) == ["hand-0001.yaml", "hand-0002.yaml"]
    assert load_record(records / "hand-0001.yaml").ruleset == "wikipedia"


# --------------------------------------------------------------------------- Ctrl-C


def test_ctrl_c_before_the_write_leaves_the_ledger_as_it_was(
    session: tuple[Path, Path], ulti: Callable[..., Ran], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, hand = session
    before = path.read_bytes()

    def pressed(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("ulti_rules.cli.ledger._add", pressed)
    done = ulti("ledger", "add", "s.json", str(hand))
    assert (done.returncode, done.stderr) == (130, "\nAborted!\n")
    assert path.read_bytes() == before


def test_ctrl_c_after_the_write_says_the_hand_went_in(
    session: tuple[Path, Path], ulti: Callable[..., Ran], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the tables print: "Aborted!" made a score keeper add the hand again,
    and it was paid twice (found by a fault review)."""
    path, hand = session

    def pressed(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("ulti_rules.cli.ledger.settlement_tables", pressed)
    done = ulti("ledger", "add", "s.json", str(hand))
    assert done.returncode == 130
    assert done.stderr == (
        "\nInterrupted after hand 3 was added to s.json: "
        "`ulti ledger show s.json` prints the session.\n"
    )
    assert assert_whole(path) == 3


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_during_the_write_is_answered_once_the_hand_is_in(
    session: tuple[Path, Path], ulti: Callable[..., Ran], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real SIGINT while the new file is being written: the write ends, the interrupt is
    answered after it, and the command knows the hand went in."""
    path, hand = session
    write_all = safe_files._write_all

    def interrupted(fd: int, data: bytes) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        write_all(fd, data)

    monkeypatch.setattr(safe_files, "_write_all", interrupted)
    done = ulti("ledger", "add", "s.json", str(hand))
    assert done.returncode == 130
    assert "Interrupted after hand 3 was added to s.json" in done.stderr
    assert assert_whole(path) == 3 and temp_files(path.parent) == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_as_a_temporary_file_is_made_leaves_none_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C between making the temporary file and the block that removes it on
    failure left `.hand-000060.yaml.ulti-tmp-...` in a records folder (1 run in 20-35 of
    an interrupted `simulate --save-records`; found by a simulate review)."""
    real_flock = safe_files.fcntl.flock

    def interrupted(fd: int, operation: int) -> None:
        signal.raise_signal(signal.SIGINT)  # Ctrl-C, just after the file was made
        real_flock(fd, operation)

    monkeypatch.setattr(safe_files.fcntl, "flock", interrupted)
    with pytest.raises(KeyboardInterrupt):
        safe_files.create(tmp_path / "hand-0060.yaml", b"a record\n")
    with pytest.raises(KeyboardInterrupt):  # the probe of a records folder, the same way
        safe_files.check_folder_writable(tmp_path, "records")
    monkeypatch.undo()
    assert os.listdir(tmp_path) == []
