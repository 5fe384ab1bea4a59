"""A study's turns spread over processes (stdlib ``concurrent.futures``), the hands back in order.

The turns are cut into chunks; each worker process sets up its own :class:`Table` once
and plays whole chunks. Since every turn carries its own seeds (``runner.py``), neither
the number of workers nor the size of the chunks changes a hand: the results are
joined in turn order and cut at the study's number of hands, so the same seed gives
the same hands, byte for byte, with one worker or many. One worker plays in this
process, with no pool.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..errors import PluginError, UltiError
from ..interrupts import ctrl_c_held
from ..ruleset.references import allow_outside_paths, outside_allowed
from ..said import Said, said_of
from .runner import Played, StudySpec, Table, each_turn_seed

ONE_PROCESS_CHUNK = 250
"""Turns per chunk in this process: how often a caller hears of progress."""
FIRST_CHUNK = 50
"""Turns in the first chunk of a study played by workers: its hands, and the command's
first line, are back a moment after the workers start, not after a whole chunk (up to
1,000 turns) each."""
IN_FLIGHT = 2
"""Chunks handed to each worker ahead: enough that none waits, few enough that little is
played in vain when redeals fill the study before its last turns."""

_table: Table | UltiError | ValueError | None = None
"""A worker process's table, set up by :func:`_open_table`, or why it could not be."""
_stop: Any = None
"""A worker process's view of the study's stop flag (shared memory, set by the main
process when it wants no more hands)."""


def chunk_size(hands: int, workers: int) -> int:
    """Turns per chunk: a few chunks per worker (so none waits long for the last), not
    so small that handing them over costs more than playing them."""
    if workers <= 1:
        return ONE_PROCESS_CHUNK
    return max(50, min(1000, -(-hands // (workers * 8))))


def processes_for(hands: int, workers: int, chunk: int | None = None) -> int:
    """How many processes a study of ``hands`` turns plays in: ``workers``, but never more
    than it has chunks, since a process without a chunk only costs its start-up and its
    memory (``--workers 1000 --hands 2`` started a thousand). 1: in this process."""
    size = _checked_chunk(chunk) or chunk_size(hands, workers)
    if workers <= 1:
        return 1
    return max(1, min(workers, -(-hands // size)))


def _checked_chunk(chunk: int | None) -> int | None:
    """``chunk`` as given, refused where no turn would ever be played (it played no hand
    at all, silently)."""
    if chunk is not None and chunk < 1:
        raise ValueError(f"a chunk holds at least one turn, not {chunk}")
    return chunk


def played_hands(
    spec: StudySpec, workers: int = 1, chunk: int | None = None
) -> Generator[list[Played], None, None]:
    """The study's hands in order, a chunk at a time, ``spec.hands`` in all; close it
    (``contextlib.closing``) to stop early at once.

    With several workers, however the study ends (all its hands in, an error, Ctrl-C, the
    caller stopping early) the workers are asked to stop at their next hand and are
    waited for, never killed: a worker killed while it hands a chunk back would leave the
    pool's queue locked, and the study would hang (``multiprocessing.Pool.terminate``
    does that). A worker that dies (killed from outside, out of memory) ends the study
    with an error instead of waiting for its chunk for ever."""
    processes = processes_for(spec.hands, workers, chunk)  # checks ``chunk`` too
    size = chunk or chunk_size(spec.hands, workers)
    tasks = _chunks(spec, size, size if chunk or workers <= 1 else min(size, FIRST_CHUNK))
    left = sys.maxsize if spec.whole_turns else spec.hands  # hands still wanted
    if workers <= 1:
        table = Table(spec)
        for start, part, budget in tasks:
            got = table.play_turns(start, part, budget)[:left]
            left -= len(got)
            yield got
            if not left:
                return
        return
    context = multiprocessing.get_context()
    stop = context.RawValue(ctypes.c_bool, False)
    # what this process may read (`ulti --allow-outside-paths`) the workers may too: a
    # spawned or forkserver worker does not inherit it, as a forked one does
    setup = (spec, stop, outside_allowed())
    pool = ProcessPoolExecutor(
        processes, mp_context=context, initializer=_open_table, initargs=setup
    )
    try:
        with _worker_lost():
            playing = deque(_handed(pool, tasks, processes * IN_FLIGHT))
        while playing:
            with _worker_lost():
                got = _chunk_of(playing.popleft())[:left]
            left -= len(got)
            yield got
            if not left:
                return  # the finally below stops the workers still playing unneeded turns
            with _worker_lost():  # a worker may have died while the caller had the chunk
                playing.extend(_handed(pool, tasks, 1))
    finally:
        # The flag first: a store, which no Ctrl-C can cut. A second press landing as
        # `_shut_down` is called, before its hold, skips it; the workers then still stop
        # at their next hand, and the pool ends at exit, instead of playing every chunk
        # handed to them (up to ``IN_FLIGHT`` each) to its end.
        stop.value = True
        _shut_down(pool, stop)


@contextlib.contextmanager
def _worker_lost() -> Iterator[None]:
    """The pool broken by a worker's death, found waiting for a chunk or handing one over,
    is the study's error, not the library's."""
    try:
        yield
    except BrokenProcessPool:
        raise UltiError(
            Said(
                "a worker process ended without finishing its hands (killed, or "
                "out of memory?); the study stopped"
            )
        ) from None


def _handed(
    pool: ProcessPoolExecutor, tasks: Iterator[tuple[int, list[int], int]], count: int
) -> list[Future[list[Played]]]:
    """The next ``count`` chunks handed to the pool, Ctrl-C held off meanwhile and answered
    after: ``submit`` puts a chunk on a queue under a ``threading.Condition``, and a
    ``KeyboardInterrupt`` raised there could leave the queue's lock held, so that the
    pool's own thread, and the shutdown waiting for it, waited for ever."""
    with ctrl_c_held():
        return [pool.submit(_play, task) for task in itertools.islice(tasks, count)]


WAIT = 0.05
"""Seconds between two looks for a Ctrl-C while a chunk is awaited: how late it is heard."""


def _chunk_of(future: Future[list[Played]]) -> list[Played]:
    """The hands of ``future``, once its worker hands them back. A Ctrl-C meanwhile is
    noted, not raised where it lands: the wait runs inside the pool's locks (a
    ``threading.Condition``), and a ``KeyboardInterrupt`` raised while one was being let
    go could leave it held, so that the pool's shutdown waited for ever. The wait looks
    for a press every ``WAIT`` seconds and ends, and the Ctrl-C is answered here."""
    while True:
        with ctrl_c_held() as pressed:
            while not pressed:
                if wait((future,), timeout=WAIT).done:  # not result(timeout=): a chunk's
                    return future.result()  # own TimeoutError would look like the wait's
        # the press was answered without an exception (SIGINT ignored): wait on


def _shut_down(pool: ProcessPoolExecutor, stop: Any) -> None:
    """Tell the workers to stop at their next hand, and wait for the pool, Ctrl-C held off
    meanwhile; a Ctrl-C pressed then is answered once it is done. One landing before the
    hold begins (a second press right after the first) starts the shutdown again, and is
    answered after it too, unless a Ctrl-C is already on its way out."""
    done = pressed = False
    while True:
        try:
            with ctrl_c_held():
                stop.value = True
                pool.shutdown(wait=True, cancel_futures=True)
                done = True
            break
        except KeyboardInterrupt:
            if done:  # pressed during the shutdown: answered now that it is over
                raise
            pressed = True
    if pressed and not isinstance(sys.exc_info()[1], KeyboardInterrupt):
        raise KeyboardInterrupt


def _chunks(spec: StudySpec, size: int, first: int) -> Iterator[tuple[int, list[int], int]]:
    """The study's chunks of turns, each (first turn, its turns' seeds, hands still
    wanted from there: every hand of its turns with ``whole_turns``), the seeds drawn as
    the chunks are handed out: ``first`` turns, then ``size`` at a time."""
    seeds = each_turn_seed(spec.seed)
    start = 0
    while start < spec.hands:
        left = spec.hands - start
        budget = sys.maxsize if spec.whole_turns else left
        turns = list(itertools.islice(seeds, min(first if start == 0 else size, left)))
        yield start, turns, budget
        start += len(turns)


def _open_table(spec: StudySpec, stop: Any, outside: bool = False) -> None:
    """Set the worker's table up, reading the ruleset as the study's process may
    (``outside``: paths in files may lead outside their folders); a failure waits for the
    first chunk (a pool whose initializer raises is broken for good). Ctrl-C is the main
    process's to answer: it sets the stop flag, and no worker prints a traceback."""
    global _table, _stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A worker has nothing to say on stdout, which carries the command's output (--json):
    # what a plugin's bot or kind prints here goes to stderr
    with contextlib.suppress(OSError, ValueError, AttributeError):  # no stderr: as it was
        sys.stdout.flush()
        os.dup2(2, 1)
        if sys.stderr is not None:
            sys.stdout = sys.stderr
    threading.Thread(target=_watch_parent, name="orphan watch", daemon=True).start()
    _stop = stop
    try:
        with allow_outside_paths(outside):
            _table = Table(spec)
    except UltiError as exc:
        _table = _crossing(exc)
    except ValueError as exc:  # a study set up wrong (one bot too few): as in one process
        _table = exc


def _watch_parent() -> None:
    """End this worker once the study's process is gone (killed with SIGTERM or SIGKILL,
    out of memory; already before this worker was set up): nobody would read its hands,
    and it would wait for work for ever, holding its memory.

    ``multiprocessing`` gives every child a sentinel of the process that asked for it,
    readable once that process has ended; watching it works under the fork, spawn and
    forkserver start methods alike (watching ``os.getppid()`` does not: a fork server
    outlives the study while its children live)."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)


def _stopping() -> bool:
    return bool(_stop.value)


def _play(task: tuple[int, Sequence[int], int]) -> list[Played]:
    """One chunk in a worker; the library's errors cross back by their message (what the
    person reads, translatable where it was), whatever their own class needs to rebuild
    (``_crossing``)."""
    if isinstance(_table, (UltiError, ValueError)):
        raise _table
    assert _table is not None
    try:
        return _table.play_turns(*task, stop=_stopping)
    except UltiError as exc:
        raise _crossing(exc) from None


def _crossing(exc: UltiError) -> UltiError:
    """The error as it crosses back: a ``PluginError`` stays one (``except PluginError``
    works with any number of workers), any other of the library's errors is an
    ``UltiError`` with the same message."""
    kind = PluginError if isinstance(exc, PluginError) else UltiError
    return kind(said_of(exc))
