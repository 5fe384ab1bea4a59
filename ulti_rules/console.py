"""The `ulti` console script: Ctrl-C while the command is still starting is answered as
it is later (``Aborted!``, exit status 130), not with a Python traceback.

The script imports this module, which imports nothing, and then the command: most of a
start is imports, and a Ctrl-C during them was a traceback. Once the command has ended
(its output written, its files closed), a Ctrl-C is ignored: it could only cut the
interpreter's shutdown short, which ended a finished `ulti ledger undo` with status 130
and no word (7 of 30 random Ctrl-Cs in a review).
"""

from __future__ import annotations

import signal
import sys

EXIT_INTERRUPTED = 130
"""128 + SIGINT, what a shell reports for a command stopped by Ctrl-C: every command's
status then (``cli.common`` takes it from here, which imports nothing)."""

ends_the_process = False
"""True once :func:`main` runs a command: the process ends with it, so what a command
gives back to a program that goes on (the garbage collector's pace,
``cli._fewer_collections``) is not given back, which would only walk every object the
command made once more before the exit."""


def main() -> None:
    """Run the `ulti` command (``cli.main``)."""
    try:
        from .cli import main as command
    except KeyboardInterrupt:
        sys.stderr.write("\nAborted!\n")
        raise SystemExit(EXIT_INTERRUPTED) from None
    global ends_the_process
    ends_the_process = True
    try:
        command()
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the work is done, or answered
