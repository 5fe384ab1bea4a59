"""The writers of the ledger's concurrency and kill tests, forked from a small process.

Each writer runs `ulti ledger add` (the command's own code) in a process of its own. They
are forked by a fork server (``multiprocessing``'s "forkserver" start method) that
imports this module once, and so has the command imported and one hand added before it
forks any: a writer is a copy of that small, warm process, not of the test worker,
which holds some 200 MB late in a run. Forked from a test process of 300 MB, the
twenty-writer and kill tests took 19.5 s of CPU against 10.3 s from one of 65 MB; forked
from the fork server, 12.9 and 11.5 s. A writer's start costs about as much either way;
the difference is the large process's pages, which a fork and an exit map and unmap.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import tempfile
from multiprocessing import forkserver
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from ulti_rules.cli import main

from ledger_support import two_hand_session


def add_when_all_are_ready(ledger: str, hand: str, out: str, start: Any) -> None:
    """`ulti ledger add LEDGER HAND --json` once every writer is ready (``start``, a
    barrier). Its JSON goes to ``out``; what it said on stderr (every add after the first
    notes the same hand again) after it, when it failed."""
    _check_forked()
    start.wait()
    result = CliRunner().invoke(main, ["ledger", "add", ledger, hand, "--json"])
    said = result.stderr if result.exit_code else ""
    Path(out).write_text(result.stdout + said, "utf-8")
    sys.exit(result.exit_code)


def add_until_killed(ledger: str, hand: str) -> None:
    """`ulti ledger add LEDGER HAND --json` again and again, until the test kills it."""
    _check_forked()
    runner = CliRunner()
    while True:
        result = runner.invoke(main, ["ledger", "add", ledger, hand, "--json"])
        assert result.exit_code == 0, result.stderr


def _check_forked() -> None:
    """A writer must be a fork of the warm fork server: one that had to import this
    module itself (the server's preload failed, which it skips without a word) says so,
    rather than spending its 0.2 s warming while the kill test kills it."""
    assert os.getpid() != _warmed_in, "the fork server did not preload ledger_writers"


def _warm() -> int:
    """One add onto a throwaway ledger: the command's modules, the loaded game and its
    tables are then in this process, and in every writer forked from it (a cold add
    costs about 0.2 s of imports and loading, a warm one 0.01 s)."""
    with tempfile.TemporaryDirectory(prefix="ulti-warm-") as folder:
        ledger, hand = two_hand_session(Path(folder))
        result = CliRunner().invoke(main, ["ledger", "add", str(ledger), str(hand), "--json"])
        assert result.exit_code == 0, result.stderr
    return os.getpid()


_warmed_in = _warm()
"""The process that imported (and warmed) this module: the fork server, for a writer."""


def context() -> multiprocessing.context.BaseContext:
    """The start method of the writers: a fork server that imported this module, started
    now if it is not running. It lives as long as this process (the test worker), so it
    keeps the environment of then: the shared empty user folders of every test.

    Python 3.11's fork server does not take the test's ``sys.path`` before it imports
    what it preloads (its ``main`` ignores the ``sys_path`` it is given), so this folder
    reaches it by ``PYTHONPATH``; an import that fails there is skipped without a word,
    and every writer would import (and warm) this module itself, 0.2 s each.
    """
    found = multiprocessing.get_context("forkserver")
    found.set_forkserver_preload([__name__])
    before = os.environ.get("PYTHONPATH")
    here = str(Path(__file__).resolve().parent)
    os.environ["PYTHONPATH"] = os.pathsep.join([here, before]) if before else here
    try:
        forkserver.ensure_running()
    finally:
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before
    return found
