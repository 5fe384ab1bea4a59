"""The installed console script as a person starts it: a real process, its exit codes.

Every other CLI test runs the commands in-process (the `ulti` fixture); these few keep
the entry point itself, its exit statuses and its pipes honest.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import RunUlti, ulti_executable


def test_version_and_help(ulti_process: RunUlti) -> None:
    version = ulti_process("--version")
    assert version.returncode == 0 and version.stdout.startswith("ulti ")
    assert "Usage: ulti" in ulti_process("--help").stdout


def test_exit_status_0_1_2(ulti_process: RunUlti) -> None:
    ok = ulti_process("ladder", "wikipedia", "--json")
    assert ok.returncode == 0
    assert len(json.loads(ok.stdout)) == 54  # stdout carries JSON alone
    user_error = ulti_process("ladder", "no-such-club.yaml")
    assert user_error.returncode == 1
    assert user_error.stderr == "ulti: error: no-such-club.yaml: no such file\n"
    usage = ulti_process("ladder", "wikipedia", "--lang", "fr")
    assert usage.returncode == 2 and "Usage: ulti ladder" in usage.stderr


def simulation(tmp_path: Path) -> subprocess.Popen[str]:
    """`ulti simulate --workers 2` in a process group of its own, once its workers have
    handed back their first hands (its first line is out): they are set up, Ctrl-C
    left to the command. Whatever ``multiprocessing``'s start method, every process of
    the study is in the group."""
    argv = [ulti_executable(), "simulate", "--hands", "500000", "--workers", "2"]
    env = dict(os.environ, PYTHONUTF8="1", NO_COLOR="1")
    command = subprocess.Popen(
        argv, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    assert command.stdout is not None
    first = command.stdout.readline()
    assert first.lstrip().startswith("1  "), first
    return command


def group_running(group: int) -> list[int]:
    """The processes of ``group`` that have not ended (a zombie has)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (name) "
        if fields[0] != "Z" and int(fields[2]) == group:
            found.append(int(entry.name))
    return found


def none_left(group: int, wait: float = 30.0) -> bool:
    deadline = time.monotonic() + wait
    while group_running(group) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not group_running(group)


@pytest.mark.skipif(sys.platform != "linux", reason="reads the processes from /proc")
@pytest.mark.parametrize("presses", [1, 2, 2, 2])
def test_ctrl_c_stops_a_simulation_and_every_worker_of_it(tmp_path: Path, presses: int) -> None:
    """SIGINT to the whole process group (what a terminal's Ctrl-C sends): the command
    ends at once with "Aborted!" and status 130, no worker prints a traceback, and no worker
    outlives it. Pressed twice, the second lands while the workers are being stopped:
    that hung 4 runs in 10 (the pool's shutdown cut halfway), so it is tried three times."""
    command = simulation(tmp_path)
    try:
        for press in range(presses):
            if press:
                time.sleep(0.001)
            os.killpg(command.pid, signal.SIGINT)
        _, err = command.communicate(timeout=30)
        assert command.returncode == 130
        assert err == "\nAborted!\n"
        assert none_left(command.pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(command.pid, signal.SIGKILL)


@pytest.mark.skipif(sys.platform != "linux", reason="reads the processes from /proc")
def test_the_workers_of_a_killed_simulation_end_too(tmp_path: Path) -> None:
    """The command killed outright (SIGKILL, the out-of-memory killer): its workers
    notice and end, instead of waiting for work for ever."""
    command = simulation(tmp_path)
    try:
        assert len(group_running(command.pid)) >= 3  # the command and its two workers
        command.kill()
        command.wait(timeout=30)
        assert none_left(command.pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(command.pid, signal.SIGKILL)


def test_a_rulebook_to_dev_stdout_goes_where_stdout_goes(tmp_path: Path) -> None:
    """`-o /dev/stdout >> log.txt`: the text is added to the log, which stays the file it
    was (it was replaced by a new file, and refused when it had two names)."""
    log = tmp_path / "log.txt"
    log.write_text("the night before\n", "utf-8")
    os.link(log, tmp_path / "other-name.txt")
    inode = log.stat().st_ino
    with log.open("ab") as appended:
        done = subprocess.run(
            [ulti_executable(), "rulebook", "wikipedia", "-o", "/dev/stdout"],
            stdout=appended, stderr=subprocess.PIPE, text=True, timeout=60,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert log.stat().st_ino == inode
    assert log.read_text("utf-8").startswith("the night before\nRULES OF ULTI\n")


@pytest.mark.skipif(sys.platform == "win32", reason="closes a file descriptor before exec")
def test_workers_run_with_stderr_closed() -> None:
    """`2>&-`: the workers point their stdout at stderr, and a closed stderr failed the
    run before a hand was played (found by a review of that change)."""
    done = subprocess.run(
        [ulti_executable(), "simulate", "--hands", "20", "--workers", "2", "--json", "-q"],
        stdout=subprocess.PIPE, text=True, timeout=60, preexec_fn=lambda: os.close(2),
    )  # fmt: skip
    assert done.returncode == 0
    assert json.loads(done.stdout)["hands"] == 20
