"""The installed console script as a person starts it: a real process, its exit codes.

Every other CLI test runs the commands in-process (the `ulti` fixture); these few keep
the entry point itself, its exit statuses and its pipes honest.
"""

from __future__ import annotations

import json

from conftest import RunUlti


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
