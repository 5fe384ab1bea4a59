"""What every `ulti` command shares: exit codes, error reporting, the console for tables.

Errors are reported here, once, for every command group: a person sees a clear
message on stderr and exit status 1, never a traceback. ``ULTI_DEBUG=1`` lets an
unexpected exception through with its traceback, so tests and bug reports see it.

The group imports this module for ``ulti --help``, so it stays light: rich and the
ruleset model are imported by the commands that use them, not here.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import click

from ..console import EXIT_INTERRUPTED as EXIT_INTERRUPTED  # 128 + SIGINT, for Ctrl-C
from ..errors import Problem, ProblemsError, UltiError, problem_count
from ..interrupts import from_ctrl_c
from ..said import Said, said_of, say_in
from .terminal import echo, json_text

if TYPE_CHECKING:
    from rich.console import Console

    from ..i18n import Translator

EXIT_OK = 0
EXIT_USER_ERROR = 1
EXIT_USAGE_ERROR = 2  # click's own status for bad options and arguments

DEBUG_ENV = "ULTI_DEBUG"

LANG_META = "ulti.lang"
"""Where a command notes the language it speaks (``Context.meta``, shared by the
command's context and the group's), so that its errors are said in it too."""


def stdout_console() -> Console:
    """A console for tables on stdout; never wraps or truncates when piped (``console.py``)."""
    from .console import stdout_console as rich_console

    return rich_console()


def echo_json(data: Any) -> None:
    """``--json`` output: indented, with names and card symbols left readable (not escaped)."""
    click.echo(json_text(data))


def _catalogue() -> Translator | None:
    """The running command's catalogue; None where it speaks English."""
    ctx = click.get_current_context(silent=True)
    lang = ctx.meta.get(LANG_META) if ctx is not None else None
    if not lang or lang == "en":
        return None
    from ..i18n import translator

    return translator(lang)


def problem_line(problem: Problem) -> str:
    """``problem`` on one line, in the running command's language."""
    catalogue = _catalogue()
    if catalogue is None:
        return problem.shown()
    return problem.shown(catalogue.gettext, catalogue.lang)


def speaking(text: str) -> str:
    """``text`` in the language of the running command, where it is a
    :class:`~ulti_rules.said.Said`; English for a command that speaks no other (or none
    running), and for a message nobody has made translatable yet."""
    if not isinstance(text, Said):
        return text
    catalogue = _catalogue()
    return (
        str.__str__(text) if catalogue is None else say_in(catalogue.gettext, text, catalogue.lang)
    )


def error(message: str) -> None:
    """One error line on stderr, prefixed so that it stands out in a log (the prefix
    stays the same in every language; the message is said in the command's)."""
    echo(f"ulti: error: {speaking(message)}", err=True)


def note(message: str) -> None:
    """One informational line on stderr (kept off stdout so output stays parseable)."""
    echo(f"ulti: note: {speaking(message)}", err=True)


def print_problems(problems: Iterable[Problem]) -> None:
    """Each problem on its own ``file:line:col: key.path: message`` line, on stderr."""
    for problem in problems:
        echo(problem_line(problem), err=True)


def report_problems(problems: Sequence[Problem], within: str = "") -> None:
    """A reader's problems on stderr: one as a single error line; several one a line,
    then ``ulti: error: N problems in {within}``, N counting those a capped list left out."""
    if len(problems) == 1:
        error(problem_line(problems[0]))
        return
    print_problems(problems)
    count = problem_count(problems)
    if within:
        error(Said("{n} problems in {within}", n=count, within=within))
    else:
        error(Said("{n} problems", n=count))


def report_error(exc: UltiError | OSError) -> None:
    """The library's error (or the system's) as a person reads it, on stderr: a reader's
    problems one a line, else its one sentence, in the command's language where it is
    translatable."""
    if isinstance(exc, ProblemsError):  # a ruleset's, a sheet's, a record's, a ledger's
        if exc.problems:
            report_problems(exc.problems, exc.within)
        else:
            what = exc.within or Said("the document")
            error(Said("{what} could not be read", what=what))
    elif isinstance(exc, OSError):
        error(describe_os_error(exc))
    else:  # one sentence (perhaps translatable) as raised, else the exception's text
        error(said_of(exc))


class UserError(click.ClickException):
    """A mistake the person can fix (a missing file, an unknown name): exit status 1."""

    exit_code = EXIT_USER_ERROR

    def show(self, file: Any = None) -> None:
        error(self.format_message())


def fail(message: str) -> NoReturn:
    raise UserError(message)


def describe_os_error(exc: OSError) -> str:
    """``club.yaml: Permission denied``: the file and the reason, without errno noise."""
    reason = exc.strerror or str(exc)
    if exc.filename is None:
        return reason
    name = os.fsdecode(exc.filename)
    if isinstance(reason, Said):  # the library's note after the system's reason: said too
        return Said("{file}: {reason}", file=name, reason=reason)
    return f"{name}: {reason}"


def _aborted(ctx: click.Context) -> NoReturn:
    """Ctrl-C: click would print the same and exit 1, the status of a user error; a script
    running `ulti` tells an interrupt from a mistake by the shell's 130."""
    click.echo(err=True)
    click.echo("Aborted!", err=True)
    ctx.exit(EXIT_INTERRUPTED)


class UltiGroup(click.Group):
    """The `ulti` group: turns the library's errors into messages and exit codes."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except UserError as exc:
            # shown by click once the command's context is gone: said in its language now
            if isinstance(exc.message, Said):
                raise UserError(speaking(exc.message)) from None
            raise
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except KeyboardInterrupt:
            _aborted(ctx)
        except (UltiError, OSError) as exc:
            if isinstance(exc, OSError) and exc.errno == errno.EPIPE:
                raise  # click quietens a closed pipe (`ulti ladder wikipedia | head`)
            report_error(exc)
        except Exception as exc:
            if from_ctrl_c(exc):
                _aborted(ctx)
            if os.environ.get(DEBUG_ENV):
                raise
            error(
                Said(
                    "internal error: {kind}: {error} (run again with {env}=1 for the "
                    "traceback, and please report it)",
                    kind=type(exc).__name__,
                    error=str(exc),
                    env=DEBUG_ENV,
                )
            )
        ctx.exit(EXIT_USER_ERROR)
