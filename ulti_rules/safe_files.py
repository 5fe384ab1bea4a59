"""Files that must not be lost: an exclusive lock, atomic replacement, exclusive creation.

A score keeper's file is rewritten whole on every change. Written in place, a crash
leaves half a file; read and rewritten without a lock, two writers lose each other's
change; replaced carelessly, a symlink turns into a copy, the mode becomes 0600 and a
read-only file is overwritten. So:

* a writer holds an exclusive ``flock`` on a lock file beside the real file
  (``.friday.json.lock``) from reading to writing. The lock is on a separate file
  because the data file itself is replaced by a rename: a lock on the old inode would
  not stop the next writer, who opens the new one. The lock file is never removed:
  removing it would let a waiting writer lock a file nobody else uses any more;
* the new content goes to a temporary file in the real file's folder (so the rename
  never crosses a file system), named ``.friday.json.ulti-tmp-PID-XXXXXXXX`` after
  its writer's process id, with the old file's mode (and owner, where allowed); it is
  fsynced, renamed over the real file, and the folder is fsynced. A reader sees the
  old file or the new one, never half;
* only a lock holder writes temporary files of a locked file, so once the lock is held
  every one left beside the file is a writer's that was killed: it is removed;
* files written without a lock (hand records, each under its own new name) are swept
  differently: a writer holds a ``flock`` on its temporary file until it has its name,
  and :func:`sweep_temps` removes only temporary files whose writer's process is gone
  and whose lock is free, so never the file of a writer still at work (not even one
  in another PID namespace, which the lock still shows);
* a new file is created under its name only if no entry of that name exists (a
  symlink included, which is never followed): ``link(2)`` of the finished temporary
  file fails rather than replace anything.

POSIX only (``fcntl``).
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import secrets
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Literal

from .errors import UltiError
from .interrupts import ctrl_c_held
from .said import Said

TEMP_INFIX = ".ulti-tmp-"
"""Temporary files are ``.NAME.ulti-tmp-PID-XXXXXXXX`` beside the file NAME (PID: the
writer's process id; files of older versions have none)."""
_TEMP_NAME = re.compile(r"\..+" + re.escape(TEMP_INFIX) + r"(?:(?P<pid>[0-9]{1,10})-)?[0-9a-f]{8}")
SWEEP_EVERY = 60.0
"""Seconds before a process sweeps a folder it swept already (:func:`sweep_temps`)."""
OLD_TEMP_AGE = 3600.0
"""Seconds after which a temporary file without a process id (an older version's, which
took no lock) is surely abandoned: a writer needs milliseconds."""
LOCK_SUFFIX = ".lock"
"""The lock file of NAME is ``.NAME.lock`` beside it."""
LOCK_TIMEOUT = 60.0
"""Seconds to wait for another writer before giving up with a message."""
_OPEN_FLAGS = os.O_CLOEXEC | os.O_NOFOLLOW
_STREAM = re.compile(r"/dev/(?:stdout|stderr|fd/[0-9]+)|/proc/(?:self|[0-9]+)/fd/[0-9]+")
"""Names that stand for an open file (``/dev/stdout``, ``/proc/self/fd/1``): written
through, whatever it is (a regular file in ``/dev/shm`` is a file like any other)."""


class UnsafeFileError(UltiError):
    """A file that cannot be written without risking its content; the message says why."""


def _reason(exc: OSError) -> str:
    """The system's reason (English, as the system says it), or the error's text."""
    return exc.strerror or str(exc)


def _unreadable(shown: str, exc: OSError) -> str:
    return Said("{file}: cannot read the file: {reason}", file=shown, reason=_reason(exc))


def real_file(path: Path) -> Path:
    """The file behind ``path``, every symlink followed: the one that gets rewritten."""
    return Path(os.path.realpath(path))


def check_replaceable(real: Path, shown: str) -> os.stat_result:
    """Refuse, before any work is done, a file that cannot be replaced without loss.

    ``shown`` is the name the person gave. A read-only file is refused even where the
    process could write it (root): its mode says it is not to be changed.
    """
    try:
        info = os.stat(real)
    except OSError as exc:
        raise UnsafeFileError(_unreadable(shown, exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise UnsafeFileError(Said("{file}: not a regular file", file=shown))
    if info.st_mode & 0o222 == 0 or not os.access(real, os.W_OK):
        raise UnsafeFileError(
            Said(
                "{file}: the file is read-only; make it writable (chmod u+w) to change it",
                file=shown,
            )
        )
    if info.st_nlink > 1:
        raise UnsafeFileError(
            Said(
                "{file}: the file has {links} hard links; it is saved by replacing it, which "
                "would leave the other names with the old content; keep one name (a symbolic "
                "link works)",
                file=shown,
                links=info.st_nlink,
            )
        )
    return info


def check_folder_writable(folder: Path, shown: str) -> None:
    """Refuse, before any work is done, a folder in which no file can be made (read-only,
    a read-only mount, no permission): a session or a study that would save into it
    learns so at once, not after its first hand. A temporary file is made and removed."""
    try:  # a temporary file's name: a sweep removes it if this process is killed
        with ctrl_c_held():
            temp, fd = _made_and_locked(folder / "probe")
            os.close(fd)
            _unlink_quietly(temp)
    except OSError as exc:
        raise UnsafeFileError(
            Said("{file}: cannot write in this folder: {reason}", file=shown, reason=_reason(exc))
        ) from None


@contextmanager
def locked(real: Path, shown: str, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """Hold the exclusive lock of the file ``real`` for a read-modify-write.

    Once it is held, temporary files that killed writers left beside ``real`` are
    removed. Waits up to ``timeout`` seconds for another writer.
    """
    lock_path = real.parent / f".{real.name}{LOCK_SUFFIX}"
    fd = _open_lock(lock_path, shown)
    try:
        _acquire(fd, shown, lock_path, timeout)
        remove_stale_temps(real)
        yield
    finally:
        os.close(fd)  # closing the only descriptor releases the lock


def _open_lock(lock_path: Path, shown: str) -> int:
    flags = _OPEN_FLAGS | os.O_NONBLOCK
    try:
        try:
            fd = os.open(lock_path, flags | os.O_RDWR | os.O_CREAT, 0o666)
        except PermissionError:  # another user's lock file: reading is enough for flock
            fd = os.open(lock_path, flags | os.O_RDONLY)
    except OSError as exc:
        raise UnsafeFileError(
            Said(
                "{file}: cannot lock the file: {lock}: {reason} (the file's folder must be "
                "writable)",
                file=shown,
                lock=str(lock_path),
                reason=_reason(exc),
            )
        ) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UnsafeFileError(
            Said(
                "{file}: cannot lock the file: {lock} is not a regular file",
                file=shown,
                lock=str(lock_path),
            )
        )
    return fd


def _acquire(fd: int, shown: str, lock_path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise UnsafeFileError(
                    Said(
                        "{file}: the file is being changed by another program, which has "
                        "held {lock} for over {seconds} s; try again when it is done",
                        file=shown,
                        lock=str(lock_path),
                        seconds=f"{timeout:.0f}",
                    )
                ) from None
            time.sleep(delay)
            delay = min(delay * 2, 0.005)


def remove_stale_temps(real: Path) -> list[Path]:
    """Remove the temporary files of ``real``; call only while holding its lock."""
    prefix = f".{real.name}{TEMP_INFIX}"
    removed = []
    with os.scandir(real.parent) as entries:
        for entry in entries:
            if entry.name.startswith(prefix) and not entry.is_dir(follow_symlinks=False):
                try:
                    os.unlink(entry.path)
                except FileNotFoundError:
                    continue
                removed.append(Path(entry.path))
    return removed


def sweep_temps(folder: Path) -> list[Path]:
    """Remove the temporary files that killed writers left in ``folder``; what it removed.

    For files written without a lock (hand records): a temporary file is removed only
    when the process named in it is gone and nobody holds its ``flock`` (one without a
    process id, an older version's, once it is :data:`OLD_TEMP_AGE` old). A process
    sweeps a folder at most once every :data:`SWEEP_EVERY` seconds, so saving a thousand
    records into it scans it once.
    """
    key = os.path.realpath(folder)
    now = time.monotonic()
    last = _swept.get(key)
    if last is not None and now - last < SWEEP_EVERY:
        return []
    _swept[key] = now
    removed = []
    try:
        with os.scandir(folder) as scan:
            entries = [entry for entry in scan if TEMP_INFIX in entry.name]
    except OSError:
        return []
    for entry in entries:
        if _abandoned(entry):
            with suppress(FileNotFoundError):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


_swept: dict[str, float] = {}
"""When this process last swept each folder (``time.monotonic()``)."""


def _abandoned(entry: os.DirEntry[str]) -> bool:
    match = _TEMP_NAME.fullmatch(entry.name)
    try:
        if match is None or not entry.is_file(follow_symlinks=False):
            return False
        if match["pid"] is None:
            return time.time() - entry.stat(follow_symlinks=False).st_mtime > OLD_TEMP_AGE
    except OSError:
        return False
    pid = int(match["pid"])
    return pid != os.getpid() and not _running(pid) and not _held(entry.path)


def _running(pid: int) -> bool:
    """Whether a process ``pid`` exists (a zombie counts: its file may yet be renamed)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    except (OverflowError, OSError):  # no such process id can exist
        return False
    return True


def _held(path: str) -> bool:
    """Whether somebody holds the ``flock`` of the file ``path`` (its writer, at work)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | _OPEN_FLAGS)
    except OSError:
        return True  # not ours to judge
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def replace(real: Path, data: bytes, like: os.stat_result | None = None) -> None:
    """Make ``data`` the content of ``real`` atomically, durably, keeping its mode.

    ``like`` is the file's status before (its mode and owner are kept); without it the
    file gets the default mode (0666 less the umask). Call while holding the lock, so
    that a temporary file left by a crash is known to be stale, or after
    :func:`sweep_temps` of its folder.
    """
    with _naming(real), _temp_beside(real, data, like) as temp:
        os.replace(temp, real)
    _sync_folder(real.parent)


def create(path: Path, data: bytes) -> None:
    """Create ``path`` holding ``data``, atomically; FileExistsError if the name is taken.

    No entry of that name is ever replaced or followed: not a file, not a symlink
    (dangling or not). Readers see the whole file or none.
    """
    with _naming(path), _temp_beside(path, data, None) as temp:
        try:
            os.link(temp, path, follow_symlinks=False)
        finally:
            _unlink_quietly(temp)
    _sync_folder(path.parent)


@contextmanager
def _naming(path: Path) -> Iterator[None]:
    """An OS error that names no file (a full disk while writing) names ``path``: the
    person sees which file was not written."""
    try:
        yield
    except OSError as exc:
        if exc.filename is not None or exc.errno is None:
            raise
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None


def check_output(path: Path, shown: str) -> None:
    """Refuse now what :func:`write_output` would refuse at the end of a long run (a
    study's plot): a file that cannot be replaced, a folder where no file can be made.
    A device or a name for an open file is written through, and passes."""
    try:
        how = _output_kind(path)
    except OSError as exc:
        raise UnsafeFileError(_unreadable(shown, exc)) from None
    if how == "through":
        return
    real = real_file(path)
    if how == "replace":
        check_replaceable(real, shown)
    check_folder_writable(real.parent, shown)


def _output_kind(path: Path) -> Literal["through", "replace", "create"]:
    """How an output file is written: ``through`` a device, a pipe or a name for an open
    file (as it is, appended); a regular file is replaced whole; a new name is created."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "create"
    through = _STREAM.fullmatch(os.path.abspath(path)) is not None
    return "through" if through or not stat.S_ISREG(info.st_mode) else "replace"


def write_output(path: Path, data: bytes) -> None:
    """Write a file a person named for output (a rulebook, a plot): it ends whole, or as it
    was (a full disk, Ctrl-C). A regular file is replaced atomically, through its
    symlinks, keeping its mode, under :func:`check_replaceable`'s rules; a new name is
    created; a device or a pipe cannot be replaced and is written as it is, appended,
    and so is a name that stands for an open file (``-o /dev/stdout`` is whatever the
    output goes to, a file included, which stays the file it is). An error names the
    file."""
    shown = str(path)
    try:
        how = _output_kind(path)
        if how == "through":
            with open(path, "ab") as stream:  # appended: `>> log` keeps what it held
                stream.write(data)
            return
        real = real_file(path)
        like = check_replaceable(real, shown) if how == "replace" else None
        sweep_temps(real.parent)
        replace(real, data, like)
    except OSError as exc:
        raise UnsafeFileError(
            Said("{file}: cannot write the file: {reason}", file=shown, reason=_reason(exc))
        ) from None


@contextmanager
def _temp_beside(target: Path, data: bytes, like: os.stat_result | None) -> Iterator[Path]:
    """A fsynced temporary file with ``data`` beside ``target``, named for it and its
    writer's process, its ``flock`` held until the block ends; removed if the block fails."""
    temp: Path | None = None
    fd = -1
    try:
        # Made and locked as one step: a Ctrl-C between making the file and the block
        # that removes it on failure left the file behind (found by a simulate review).
        with ctrl_c_held():
            temp, fd = _made_and_locked(target)
        try:
            if like is not None:
                _keep_owner_and_mode(fd, like)
            _write_all(fd, data)
            yield temp
        finally:
            closing, fd = fd, -1  # never closed twice: the number may be another file's
            os.close(closing)  # releases the lock, once the file has its name
    except BaseException:
        if fd >= 0:  # the Ctrl-C held above came as the file was made
            with suppress(OSError):
                os.close(fd)
        if temp is not None:
            _unlink_quietly(temp)
        raise


def _made_and_locked(target: Path) -> tuple[Path, int]:
    """A new temporary file beside ``target``, named for it and this process, open for
    writing with its ``flock`` held."""
    flags = _OPEN_FLAGS | os.O_WRONLY | os.O_CREAT | os.O_EXCL
    while True:
        name = f".{target.name}{TEMP_INFIX}{os.getpid()}-{secrets.token_hex(4)}"
        temp = target.parent / name
        try:
            fd = os.open(temp, flags, 0o666)
        except FileExistsError:
            continue
        except PermissionError as exc:  # named for the file, not for a name nobody typed
            raise PermissionError(
                exc.errno,
                Said(
                    "{reason} (it is written through a new file beside it: its folder must be "
                    "writable)",
                    reason=_reason(exc),
                ),
                str(target),
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return temp, fd
        except BlockingIOError:  # a sweeper took it for a dead writer's: it removes it
            os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.fsync(fd)


def _keep_owner_and_mode(fd: int, like: os.stat_result) -> None:
    current = os.fstat(fd)
    if (current.st_uid, current.st_gid) != (like.st_uid, like.st_gid):
        with suppress(PermissionError):  # only root gives a file away; the mode is kept
            os.fchown(fd, like.st_uid, like.st_gid)
    os.fchmod(fd, stat.S_IMODE(like.st_mode))


def _sync_folder(folder: Path) -> None:
    """Make a rename or a new name durable: fsync the folder that holds it."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP):  # a file system without it
            raise
    finally:
        os.close(fd)


def _unlink_quietly(path: Path) -> None:
    with suppress(FileNotFoundError):
        os.unlink(path)
