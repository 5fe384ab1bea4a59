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


def main() -> None:
    """Run the `ulti` command (``cli.main``)."""
    try:
        from .cli import main as command
    except KeyboardInterrupt:
        sys.stderr.write("\nAborted!\n")
        raise SystemExit(EXIT_INTERRUPTED) from None
    try:
        command()
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the work is done, or answered
