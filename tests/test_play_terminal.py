"""`ulti play` and `ulti score` on a real terminal: a pseudo-terminal (stdlib ``pty``).

The test types as a person does: it reads the screen up to each question and answers
it, a bad answer first; Ctrl-C is the keystroke (the terminal turns it into SIGINT).
A terminal means colours, and the terminal's own echo of what is typed. Every test that
types starts the installed script. The layout tests of commands that read nothing
(`ulti score`, `ulti play --auto`) run the script's own function (``console.main``) in a
child forked from this process onto the same kind of terminal: starting the script costs
about 0.4 s of CPU of imports, which those tests are not about. A forked child is a copy
of the test process, not a new Python: reading a line there goes through the ``readline``
module pytest loads (an answer showed twice), and warnings and log lines go where pytest
sends them, so a test of typing, warnings or Python's start-up uses the script.
"""

from __future__ import annotations

import fcntl
import gc
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

import pytest
from ulti_rules.records import load_record, replay

from conftest import ulti_executable

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a POSIX pseudo-terminal")

ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
QUESTION = re.compile(rb"\x1b\[1;36m([^\x1b\n]*): \x1b\[0m$")
"""A question: bold cyan text ending in ': ', the last thing on the screen (a line such
as '  Your hand: ...' is never taken for one, however the output is cut into reads)."""
WAIT = 20.0
"""Seconds to wait for the next question before the test fails (never reached when
all is well: each answer takes milliseconds)."""


class Terminal:
    """`ulti ARGS` on a pseudo-terminal: read the screen, type lines and keystrokes.

    ``script=True`` starts the installed console script; otherwise a child forked from
    this process runs ``console.main`` (the script's function) with the terminal as its
    standard streams, its controlling terminal and its environment as the script has:
    for a command that reads nothing (see the module's docstring). Whatever is still
    running when the test ends is killed (``_closed``).
    """

    def __init__(
        self, args: list[str], cwd: Path, columns: int = 100, *, script: bool = False
    ) -> None:
        master, slave = pty.openpty()
        # the terminal's own size, as a window of that size reports it, and the same in
        # COLUMNS and LINES
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
        env.update(TERM="xterm-256color", COLUMNS=str(columns), LINES="40", PYTHONUTF8="1")
        self.process: subprocess.Popen[bytes] | _Forked
        if script:
            self.process = subprocess.Popen(
                [ulti_executable(), *args],
                stdin=slave,
                stdout=slave,
                stderr=slave,
                cwd=cwd,
                env=env,
                preexec_fn=_own_terminal,
                close_fds=True,
            )
        else:
            self.process = _Forked(args, cwd, env, master, slave)
        os.close(slave)
        self.master = master
        self.raw = b""
        self.seen = 0
        _OPEN.append(self)

    def close(self) -> None:
        """Kill the program if it still runs (a test that failed half way), reap it, and
        close the terminal."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=WAIT)
        if self.master >= 0:  # once: the number may be another file's by the next call
            os.close(self.master)
            self.master = -1

    @property
    def screen(self) -> str:
        """Everything shown so far, without colour codes."""
        return ESCAPE.sub("", self.raw.decode("utf-8", "replace")).replace("\r\n", "\n")

    def question(self) -> str | None:
        """The next question (the text before ``: `` that waits for an answer), or None
        when the program ends first."""
        while True:
            match = QUESTION.search(self.raw, self.seen)
            if match is not None:
                self.seen = len(self.raw)
                return match.group(1).decode()
            ready, _, _ = select.select([self.master], [], [], WAIT)
            assert ready, f"no question within {WAIT} s; the screen ends:\n{self.screen[-600:]}"
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the program ended and closed the terminal
                return None
            if not data:
                return None
            self.raw += data

    def type(self, text: str) -> None:
        if "\x03" in text:
            self.wait_until_reading()
        os.write(self.master, text.encode())

    def wait_until_reading(self) -> None:
        """Wait (a few seconds at most) until the program sleeps in its read of the
        answer. A Ctrl-C that lands after the prompt is written but before the read
        starts waits in CPython for the next keystroke (the signal cannot wake a read
        that has not begun), which a person would press and a test would not; on a busy
        machine that gap is wide enough to hit."""
        stat = Path(f"/proc/{self.process.pid}/stat")
        deadline = time.monotonic() + 5.0
        asleep = 0
        while time.monotonic() < deadline and asleep < 3:
            try:
                state = stat.read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                return  # no /proc here, or the program ended: nothing to wait for
            asleep = asleep + 1 if state == "S" else 0
            time.sleep(0.02)

    def finish(self) -> int:
        while self.question() is not None:
            pass
        code = self.process.wait(timeout=WAIT)
        self.close()
        return code


_OPEN: list[Terminal] = []
"""The terminals of the test running now."""


@pytest.fixture(autouse=True)
def _closed() -> Iterator[None]:
    """No program is left running on its terminal after a test, passed or failed."""
    yield
    while _OPEN:
        _OPEN.pop().close()


def _own_terminal() -> None:
    """In the child: a session of its own, with the pseudo-terminal as its terminal,
    so that Ctrl-C there interrupts it (and only it)."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class _Forked:
    """``console.main`` in a forked child on the terminal ``slave``: what the installed
    script runs, without starting an interpreter and importing the package again."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str], master: int, slave: int):
        gc.freeze()  # the child's collections leave this process's objects alone
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child, which never returns (still frozen)
            _run_in_child(args, cwd, env, master, slave)
        gc.unfreeze()
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """The exit status once the child has ended (a signal's as minus its number)."""
        if self.returncode is None:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while (code := self.poll()) is None:
            if time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
                raise subprocess.TimeoutExpired(["ulti"], timeout)
            time.sleep(0.005)
        return code


def _run_in_child(args: list[str], cwd: Path, env: dict[str, str], master: int, slave: int):
    """The child: the terminal as its streams and controlling terminal, Python's own
    SIGINT answer (a KeyboardInterrupt), then the script's function; it ends with the
    status Python would end the script with, and never returns into the test run."""
    code = 1
    try:
        os.close(master)
        os.setsid()
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        os.close(slave)
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        signal.signal(signal.SIGINT, signal.default_int_handler)

        # the streams a Python started on this terminal has (UTF-8 mode, line-buffered)
        def stream(fd: int, mode: str, errors: str) -> TextIO:
            return open(fd, mode, buffering=1, encoding="utf-8", errors=errors, closefd=False)

        sys.stdin = sys.__stdin__ = stream(0, "r", "surrogateescape")
        sys.stdout = sys.__stdout__ = stream(1, "w", "surrogateescape")
        sys.stderr = sys.__stderr__ = stream(2, "w", "backslashreplace")
        sys.argv = ["ulti", *args]
        from ulti_rules import console

        try:
            console.main()
            code = 0
        except SystemExit as exc:  # as Python ends on one: a status, or a message and 1
            if exc.code is None or isinstance(exc.code, int):
                code = exc.code or 0
            else:
                print(exc.code, file=sys.stderr)
                code = 1
        except KeyboardInterrupt:  # Python dies by the signal then
            sys.stdout.flush()
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(code)


def answer(question: str) -> str:
    """What the person answers: two cards, Simple Hearts, a pass where one may, else 1."""
    if "lay down" in question:
        return "1 2"
    if question.startswith("Your bid"):
        return "piros parti"
    return "pass" if "pass" in question else "1"


def play(terminal: Terminal, until: Callable[[str, int], str | None]) -> None:
    """Answer every question; ``until(question, hands)`` may answer instead."""
    hands = 1
    while (question := terminal.question()) is not None:
        special = until(question, hands)
        if question.startswith("Another hand"):
            hands += 1
        terminal.type(special if special is not None else answer(question) + "\n")


def test_a_game_on_the_terminal(tmp_path: Path) -> None:
    terminal = Terminal(
        ["play", "--seat", "2", "--seed", "3", "--bots", "simple"], tmp_path, script=True
    )
    first = terminal.question()
    assert first == "Card to lay down"
    terminal.type("zzz\n")  # a bad keystroke: a hint, and the question again
    assert terminal.question() == "Card to lay down"
    assert "not a card: 'zzz' (write e.g. PVII, MA, ZX" in terminal.screen
    terminal.type("1 2\n")
    play(terminal, lambda question, hands: "n\n" if question.startswith("Another") else None)
    assert terminal.finish() == 0
    screen = terminal.screen
    assert "\x1b[" in terminal.raw.decode()  # colours on a terminal
    assert "You bid Simple Hearts" in screen
    tricks = re.findall(r"^ +(\d+)\. .+  → ", screen, re.MULTILINE)
    assert [int(n) for n in tricks] == list(range(1, 11))
    assert "Payments" in screen and "Session after 1 hand: " in screen
    assert "Traceback" not in screen
    assert screen.rstrip().endswith("Goodbye.")


def test_ctrl_c_mid_hand_keeps_the_records(tmp_path: Path) -> None:
    terminal = Terminal(
        ["play", "--seat", "2", "--seed", "3", "--bots", "simple", "--save-records", "rec"],
        tmp_path,
        script=True,
    )

    def second_hand(question: str, hands: int) -> str | None:
        if question.startswith("Another hand"):
            return "y\n"
        return "\x03" if hands == 2 else None  # Ctrl-C at hand 2's first question

    play(terminal, second_hand)
    assert terminal.finish() == 130
    screen = terminal.screen
    assert "Interrupted: the hand in progress is not counted." in screen
    assert "Traceback" not in screen and "KeyboardInterrupt" not in screen
    assert screen.rstrip().endswith("Goodbye.")
    saved = sorted((tmp_path / "rec").iterdir())
    assert [p.name for p in saved] == ["hand-0001.yaml"]
    assert replay(load_record(saved[0])).is_over


# --------------------------------------------------------------------------- a narrow terminal
# Found by a review at 60 columns: a card's number at the end of one line and the card on
# the next, the bids one per line (taller than the window), the settlement's result and
# amount columns cut to 'Ergeb…' and 'defen…'.

NUMBERED = re.compile(r"(\d+) (\S+)")


def _numbered_hand(screen: str) -> list[str]:
    """The lines of the first numbered hand (``1 MK   2 MIX ...``) on the screen."""
    lines = screen.split("\n")
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("1 "))
    end = next(i for i in range(start, len(lines)) if "Lay two cards down" in lines[i])
    return lines[start:end]


@pytest.mark.parametrize("columns", [60, 100])
def test_a_card_never_parts_from_its_number(tmp_path: Path, columns: int) -> None:
    """Seed 19 deals seat 2 a long hand (MVIII, ZVIII ...): its numbered line is wider
    than 100 columns."""
    terminal = Terminal(["play", "--seat", "2", "--seed", "19", "--bots", "simple"], tmp_path,
                        columns=columns, script=True)  # fmt: skip
    assert terminal.question() == "Card to lay down"
    terminal.type("quit\n")
    assert terminal.finish() == 0
    lines = _numbered_hand(terminal.screen)
    assert len(lines) >= 2  # wrapped, at 100 columns too
    numbers = []
    for line in lines:
        assert len(line) <= columns, line
        # every line is whole pairs: number, card, number, card ...
        assert re.fullmatch(r"  \d+ [MZPT][A-Za-z]+(   \d+ [MZPT][A-Za-z]+)*", line), line
        numbers += [int(n) for n, _ in NUMBERED.findall(line)]
    assert numbers == list(range(1, 13))


def test_the_bids_are_in_columns_on_a_narrow_terminal(tmp_path: Path) -> None:
    """38 bids, one per line at 60 columns: taller than the 40-line window, the hand and
    the talon above them scrolled away."""
    terminal = Terminal(["play", "--seat", "2", "--seed", "3", "--bots", "simple"], tmp_path,
                        columns=60, script=True)  # fmt: skip
    assert terminal.question() == "Card to lay down"
    terminal.type("1 2\n")
    assert terminal.question() == "Your bid"
    terminal.type("quit\n")
    assert terminal.finish() == 0
    screen = terminal.screen
    asked = screen[: screen.index("Your bid: ")].split("\n")
    top = max(i for i, line in enumerate(asked) if "The talon you laid:" in line)
    shown = asked[top:]  # the talon, the hand, the choices, up to the question
    assert len(shown) + 1 <= 40  # the question's line too: all in the window
    listed = asked[top + 2 :]
    assert all(len(line) <= 60 for line in listed)
    numbers = [int(n) for line in listed for n in re.findall(r"(?:^ +|  )(\d+) \S", line)]
    assert sorted(numbers) == list(range(1, 39))  # each once, with its label beside it
    assert sum(len(re.findall(r"(?:^ +|  )\d+ \S", line)) == 2 for line in listed) > 10
    assert not any(re.search(r"(^|\s)\d+$", line) for line in listed)  # no number alone


SETTLED = """\
ruleset: wikipedia
players: [Anna, Ben, Carla]
dealer: Carla
declarer: Anna
bid: Ulti
trump: acorns
kontra:
  ulti: {Ben: kontra}
  parti: {Carla: kontra}
points: {declarer: 80, defenders: 10, talon: 0}
tricks: {Anna: 8, Ben: 1, Carla: 1}
last_trick: {winner: Ben, trump_seven: Anna}
marriages: {Anna: [acorns]}
aces: [Anna]
"""
"""A failed Ulti with its penalty, a Simple and a Silent 100 made, all doubled."""

BETLI = """\
ruleset: wikipedia
players: [Anna, Ben, Carla]
dealer: Carla
declarer: Anna
bid: Betli
kontra:
  betli: {Ben: kontra}
points: {declarer: 0, defenders: 90, talon: 0}
tricks: {Anna: 1, Ben: 5, Carla: 4}
last_trick: {winner: Ben}
aces: [Ben, Carla]
"""
"""A Betli kontra'd by one defender: the amounts (and kontras) are per defender."""


def _scored(tmp_path: Path, document: str, lang: str) -> str:
    """What `ulti score` prints of ``document`` on a terminal 60 columns wide."""
    (tmp_path / "hand.yaml").write_text(document)
    terminal = Terminal(["score", "hand.yaml", "--lang", lang], tmp_path, columns=60)
    assert terminal.finish() == 0
    screen = terminal.screen
    assert "…" not in screen  # nothing cut
    assert all(len(line) <= 60 for line in screen.split("\n")), screen
    return screen


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Result", "defender", "Silent 100", "failed", "made"]),
        ("hu", ["Eredmény", "Védőnként", "csendes", "bukott", "teljesült"]),
        ("de", ["Ergebnis", "Gegner", "Stille", "verloren", "gewonnen"]),
    ],
)
def test_the_settlement_fits_a_narrow_terminal(tmp_path: Path, lang: str, words: list[str]) -> None:
    screen = _scored(tmp_path, SETTLED, lang)
    for word in words:  # headers, results and the Silent 100 whole
        assert re.search(rf"(^|[\s│┃]){re.escape(word)}($|[\s│┃])", screen, re.MULTILINE), word
    rows = [row for row in screen.split("\n") if "[wikipedia]" not in row]  # not the heading
    # the Ulti's row: its result and its amount on it, whole
    ulti = next(row for row in rows if re.match(r"[│ ]*ulti\s", row, re.IGNORECASE))
    assert re.search(r"\s-12\b", ulti), ulti
    assert words[3] in ulti


@pytest.mark.parametrize("lang", ["en", "hu", "de"])
def test_amounts_per_defender_fit_a_narrow_terminal(tmp_path: Path, lang: str) -> None:
    screen = _scored(tmp_path, BETLI, lang)
    # each name with its amount and its kontra, never apart
    assert re.search(r"Ben -10\b", screen) and re.search(r"Carla -5\b", screen)
    assert re.search(r"Ben ×2\b", screen) and re.search(r"Carla ×1\b", screen)


def test_a_trick_wraps_under_its_first_card_on_a_narrow_terminal(tmp_path: Path) -> None:
    """At 40 columns a trick's line went on at the left edge, and its running points broke
    in two ("Ben 10 :" / "0 defenders"): it goes on under its first card now, the points
    whole on a line of their own."""
    terminal = Terminal(["play", "--auto", "--seed", "3"], tmp_path, columns=40)
    assert terminal.finish() == 0
    lines = terminal.screen.split("\n")
    tricks = lines[lines.index("Tricks") + 1 : lines.index("", lines.index("Tricks"))]
    assert all(len(line) <= 40 for line in tricks)
    started = [line for line in tricks if re.match(r" +\d+\. ", line)]
    assert len(started) == 10
    said = re.compile(r"announces|marriage")  # a call between tricks: a line of its own
    rest = [line for line in tricks if line not in started and not said.search(line)]
    assert rest and all(line.startswith(" " * 6) and line[6] != " " for line in rest)
    points = [line for line in rest if " : " in line]
    assert len(points) == 10
    assert all(re.fullmatch(r" {6}\S+ \d+ : \d+ \S+", line.rstrip()) for line in points)
