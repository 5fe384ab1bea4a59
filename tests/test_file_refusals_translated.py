"""A file that cannot be written safely is refused in the table's language.

``safe_files`` refuses a ledger, a rulebook or a plot before any work is done (read-only,
hard-linked, its lock held by another program, its folder unwritable) and names the
file when a write fails. Those sentences were plain English f-strings: `ulti ledger add
--lang hu` said "the file is read-only" in English. Each is now a ``Said``, said in the
command's language; the system's own reason ("Read-only file system") stays English,
as it does for a file that cannot be read (docs/translating.md).
"""

from __future__ import annotations

import errno
import fcntl
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from ulti_rules import safe_files
from ulti_rules.i18n import translator
from ulti_rules.safe_files import UnsafeFileError
from ulti_rules.said import Said, said_of, say_in

from cli_in_process import Ran, run_in
from ledger_support import two_hand_session


@pytest.fixture
def ulti(tmp_path: Path) -> Callable[..., Ran]:
    return run_in(tmp_path)


def test_a_read_only_ledger_is_refused_in_hungarian(
    tmp_path: Path, ulti: Callable[..., Ran]
) -> None:
    path, hand = two_hand_session(tmp_path)
    path.chmod(0o444)
    done = ulti("ledger", "add", "s.json", str(hand), "--lang", "hu")
    assert done.returncode == 1
    assert done.stderr == (
        "ulti: error: s.json: a fájl csak olvasható; a módosításhoz tedd írhatóvá (chmod u+w)\n"
    )


def test_a_hard_linked_ledger_is_refused_in_german(
    tmp_path: Path, ulti: Callable[..., Ran]
) -> None:
    path, hand = two_hand_session(tmp_path)
    os.link(path, tmp_path / "other-name.json")
    done = ulti("ledger", "add", "s.json", str(hand), "--lang", "de")
    assert done.returncode == 1
    assert done.stderr.startswith("ulti: error: s.json: die Datei hat 2 harte Links;")


def test_a_ledger_whose_lock_is_held_is_refused_in_hungarian(
    tmp_path: Path, ulti: Callable[..., Ran], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another writer holds the lock past the wait: the sentence names the lock file and
    the seconds waited, in Hungarian."""
    path, hand = two_hand_session(tmp_path)
    wait = safe_files._acquire  # the command waits a minute: here a twentieth of a second
    monkeypatch.setattr(
        safe_files, "_acquire", lambda fd, shown, lock, timeout: wait(fd, shown, lock, 0.05)
    )
    lock = tmp_path / f".s.json{safe_files.LOCK_SUFFIX}"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        before = path.read_bytes()
        done = ulti("ledger", "add", "s.json", str(hand), "--lang", "hu")
    finally:
        os.close(fd)
    assert done.returncode == 1
    assert done.stderr.startswith(
        "ulti: error: s.json: a fájlt egy másik program módosítja, amely már több mint 0 "
        f"másodperce tartja a(z) {lock} zárat;"
    ), done.stderr
    assert path.read_bytes() == before


def test_a_rulebook_that_cannot_be_written_is_said_in_german(
    tmp_path: Path, ulti: Callable[..., Ran], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sentence in German, the system's reason as the system gives it."""

    def refused(fd: int, data: bytes) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(safe_files, "_write_all", refused)
    done = ulti("rulebook", "wikipedia", "-o", "book.txt", "--lang", "de")
    assert done.returncode == 1
    assert done.stderr == (
        "ulti: error: book.txt: die Datei kann nicht geschrieben werden: "
        f"{os.strerror(errno.EROFS)}\n"
    )
    assert not (tmp_path / "book.txt").exists()


def _refusals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[UnsafeFileError]:
    """One of each refusal ``safe_files`` makes, raised by the library itself."""
    missing = tmp_path / "missing.json"
    folder = tmp_path / "folder"
    folder.mkdir()
    read_only = tmp_path / "read-only.json"
    read_only.write_text("{}", "utf-8")
    read_only.chmod(0o444)
    linked = tmp_path / "linked.json"
    linked.write_text("{}", "utf-8")
    os.link(linked, tmp_path / "linked-too.json")
    plain = tmp_path / "plain.json"
    plain.write_text("{}", "utf-8")

    def no_room(target: Path) -> tuple[Path, int]:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(target))

    def refused(fd: int, data: bytes) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    calls: list[Callable[[], object]] = [
        lambda: safe_files.check_replaceable(missing, "missing.json"),
        lambda: safe_files.check_replaceable(folder, "folder"),
        lambda: safe_files.check_replaceable(read_only, "read-only.json"),
        lambda: safe_files.check_replaceable(linked, "linked.json"),
    ]
    for call in calls:
        with pytest.raises(UnsafeFileError) as caught:
            call()
        yield caught.value
    (tmp_path / f".plain.json{safe_files.LOCK_SUFFIX}").mkdir()
    with pytest.raises(UnsafeFileError) as caught, safe_files.locked(plain, "plain.json"):
        pass
    yield caught.value
    fd = os.open(tmp_path / f".linked.json{safe_files.LOCK_SUFFIX}", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with (
            pytest.raises(UnsafeFileError) as caught,
            safe_files.locked(linked, "linked.json", timeout=0.01),
        ):
            pass
    finally:
        os.close(fd)
    yield caught.value
    with monkeypatch.context() as patch:
        patch.setattr(safe_files, "_made_and_locked", no_room)
        with pytest.raises(UnsafeFileError) as caught:
            safe_files.check_folder_writable(tmp_path, "here")
    yield caught.value
    with monkeypatch.context() as patch:
        patch.setattr(safe_files, "_write_all", refused)
        with pytest.raises(UnsafeFileError) as caught:
            safe_files.write_output(plain, b"new")
    yield caught.value


def test_every_refusal_of_safe_files_is_said_in_each_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each refusal is a ``Said``: English as before, and another sentence in hu and de,
    with the file's name in it."""
    seen = 0
    for error in _refusals(tmp_path, monkeypatch):
        message = said_of(error)
        assert isinstance(message, Said), message
        shown = message.values["file"]
        assert str(message).startswith(f"{shown}: ")
        for lang in ("hu", "de"):
            said = say_in(translator(lang).gettext, message, lang)
            assert said != str(message) and said.startswith(f"{shown}: "), (lang, said)
        seen += 1
    assert seen == 8


def no_new_file_beside(monkeypatch: pytest.MonkeyPatch) -> None:
    """No new file can be made beside another (a folder the user may not write in; root
    may write anywhere, so the system's refusal is made up); everything else opens."""
    original = safe_files.os.open

    def refuse(name: object, flags: int, *args: object) -> int:
        if safe_files.TEMP_INFIX in str(name):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return original(name, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(safe_files.os, "open", refuse)


def test_a_folder_without_room_for_the_new_file_says_why_in_hungarian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The note added to the system's reason (the file is written through a new one beside
    it) is translated with the sentence it is part of."""
    no_new_file_beside(monkeypatch)
    with pytest.raises(PermissionError) as caught:
        safe_files.create(tmp_path / "x", b"data")
    reason = caught.value.strerror
    assert isinstance(reason, Said)
    hungarian = Said("{file}: cannot write the file: {reason}", file="x", reason=reason)
    said = say_in(translator("hu").gettext, hungarian, "hu")
    assert said == (
        f"x: a fájl nem írható: {os.strerror(errno.EACCES)} (egy mellé írt új fájlon át "
        "mentjük: a mappájának írhatónak kell lennie)"
    )


def test_a_ledger_in_a_folder_without_room_says_why_in_hungarian(
    tmp_path: Path, ulti: Callable[..., Ran], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new file beside the ledger cannot be made (a folder the user may not write in;
    root may, so the refusal is made up): the system's reason stays English, the note
    after it is said in Hungarian."""
    path, hand = two_hand_session(tmp_path)
    before = path.read_bytes()
    no_new_file_beside(monkeypatch)
    done = ulti("ledger", "add", "s.json", str(hand), "--lang", "hu")
    assert done.returncode == 1
    assert done.stderr == (
        f"ulti: error: {path}: {os.strerror(errno.EACCES)} (egy mellé írt új fájlon át "
        "mentjük: a mappájának írhatónak kell lennie)\n"
    )
    assert path.read_bytes() == before
