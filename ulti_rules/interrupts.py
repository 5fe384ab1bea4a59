"""Ctrl-C held off while a step that must not be cut in two runs.

A ledger written back and a pool of workers being shut down are each one step for the
person at the keyboard: cut halfway, the ledger's command cannot tell whether the hand
went in, and a pool left without the word to stop hangs the process at exit. Ctrl-C
pressed meanwhile is answered when the step is over, as it would have been answered
before it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def ctrl_c_held() -> Iterator[list[int]]:
    """Run the block with SIGINT held; a Ctrl-C pressed meanwhile is answered after it by
    the handler that was there before (Python's raises ``KeyboardInterrupt``; an ignored
    SIGINT stays ignored). Only the main thread receives signals: elsewhere nothing
    changes.

    The block gets the list of the presses so far, so that a block that waits (for a
    pool of workers) can look at it and end early: the Ctrl-C is then answered at once,
    in this code, and never raised in the middle of a library's lock handling."""
    pressed: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return
    before = signal.signal(signal.SIGINT, lambda number, frame: pressed.append(number))
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, before)
    if not pressed or before == signal.SIG_IGN:
        return
    if callable(before):
        before(signal.SIGINT, None)
    else:  # SIG_DFL, or a handler set outside Python: let it act as it would have
        signal.raise_signal(signal.SIGINT)


def from_ctrl_c(exc: BaseException) -> bool:
    """Whether ``exc`` was caused by a Ctrl-C: Python wraps a KeyboardInterrupt raised
    while a class is made (a pydantic model, a plugin's module being imported) in a
    RuntimeError, which a handler of plugin faults or internal errors would take for one."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False
