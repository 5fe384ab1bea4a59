"""A study's turns spread over processes (stdlib ``multiprocessing``), the hands back in order.

The turns are cut into chunks; each worker process sets up its own :class:`Table` once
and plays whole chunks. Since every turn carries its own seeds (``runner.py``), neither
the number of workers nor the size of the chunks changes a hand: the results are
joined in turn order and cut at the study's number of hands, so the same seed gives
the same hands, byte for byte, with one worker or many. One worker plays in this
process, with no pool.
"""

from __future__ import annotations

import itertools
import multiprocessing
import signal
from collections import deque
from collections.abc import Iterator, Sequence
from multiprocessing.pool import AsyncResult

from ..errors import UltiError
from .runner import Played, StudySpec, Table, turn_seeds

ONE_PROCESS_CHUNK = 250
"""Turns per chunk in this process: how often a caller hears of progress."""
IN_FLIGHT = 2
"""Chunks handed to each worker ahead: enough that none waits, few enough that little is
played in vain when redeals fill the study before its last turns."""

_table: Table | UltiError | None = None
"""A worker process's table, set up by :func:`_open_table`, or why it could not be."""


def chunk_size(hands: int, workers: int) -> int:
    """Turns per chunk: a few chunks per worker (so none waits long for the last), not
    so small that handing them over costs more than playing them."""
    if workers <= 1:
        return ONE_PROCESS_CHUNK
    return max(50, min(1000, -(-hands // (workers * 8))))


def played_hands(
    spec: StudySpec, workers: int = 1, chunk: int | None = None
) -> Iterator[list[Played]]:
    """The study's hands in order, a chunk at a time, ``spec.hands`` in all."""
    seeds = turn_seeds(spec.seed, spec.hands)
    size = chunk or chunk_size(spec.hands, workers)
    tasks = [
        (start, seeds[start : start + size], spec.hands - start)
        for start in range(0, spec.hands, size)
    ]
    left = spec.hands
    if workers <= 1:
        table = Table(spec)
        for start, part, budget in tasks:
            got = table.play_turns(start, part, budget)[:left]
            left -= len(got)
            yield got
            if not left:
                return
        return
    waiting = iter(tasks)
    with multiprocessing.get_context().Pool(
        workers, initializer=_open_table, initargs=(spec,)
    ) as pool:
        playing: deque[AsyncResult[list[Played]]] = deque()
        for task in itertools.islice(waiting, workers * IN_FLIGHT):
            playing.append(pool.apply_async(_play, (task,)))
        while playing:
            got = playing.popleft().get()[:left]
            left -= len(got)
            yield got
            if not left:
                return  # leaving the block ends the workers still playing unneeded turns
            for task in itertools.islice(waiting, 1):
                playing.append(pool.apply_async(_play, (task,)))


def _open_table(spec: StudySpec) -> None:
    """Set the worker's table up; a failure waits for the first chunk (a pool whose
    initializer raises starts new workers for ever). Ctrl-C is the main process's to
    answer: it ends the pool, and no worker prints a traceback."""
    global _table
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _table = Table(spec)
    except UltiError as exc:
        _table = UltiError(str(exc))


def _play(task: tuple[int, Sequence[int], int]) -> list[Played]:
    """One chunk in a worker; the library's errors cross back as plain ``UltiError``s
    (their message is what the person reads), whatever their own class needs to rebuild."""
    if isinstance(_table, UltiError):
        raise _table
    assert _table is not None
    try:
        return _table.play_turns(*task)
    except UltiError as exc:
        raise UltiError(str(exc)) from None
