"""Run the `ulti` command in this process, as the ``ulti`` fixture runs it as a subprocess.

Starting the console script costs about half a second of CPU; a test about what a
command does, not about processes, calls it in-process through click's ``CliRunner``
and gets the same ``returncode``, ``stdout`` and ``stderr``. As with the subprocess
fixture, ``ULTI_DEBUG=1`` lets an unexpected exception through, and every call asserts
that none happened.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner
from ulti_rules.cli import main

Ran = subprocess.CompletedProcess[str]


def run_in(folder: Path) -> Callable[..., Ran]:
    """A runner of `ulti ARGS...` with ``folder`` as the current folder."""

    def run(*args: str, cwd: Path | None = None) -> Ran:
        with contextlib.chdir(cwd or folder):
            result = CliRunner().invoke(main, list(args), env={"ULTI_DEBUG": "1"})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        assert "internal error" not in result.stderr, result.stderr
        return subprocess.CompletedProcess(
            list(args), result.exit_code, result.stdout, result.stderr
        )

    return run
