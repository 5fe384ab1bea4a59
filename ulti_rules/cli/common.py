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

from ..errors import Problem, ProblemsError, UltiError, problem_count
from .terminal import echo, json_text

if TYPE_CHECKING:
    from rich.console import Console

EXIT_OK = 0
EXIT_USER_ERROR = 1
EXIT_USAGE_ERROR = 2  # click's own status for bad options and arguments

DEBUG_ENV = "ULTI_DEBUG"


def stdout_console() -> Console:
    """A console for tables on stdout; never wraps or truncates when piped (``console.py``)."""
    from .console import stdout_console as rich_console

    return rich_console()


def echo_json(data: Any) -> None:
    """``--json`` output: indented, with names and card symbols left readable (not escaped)."""
    click.echo(json_text(data))


def error(message: str) -> None:
    """One error line on stderr, prefixed so that it stands out in a log."""
    echo(f"ulti: error: {message}", err=True)


def note(message: str) -> None:
    """One informational line on stderr (kept off stdout so output stays parseable)."""
    echo(f"ulti: note: {message}", err=True)


def print_problems(problems: Iterable[Problem]) -> None:
    """Each problem on its own ``file:line:col: key.path: message`` line, on stderr."""
    for problem in problems:
        echo(str(problem), err=True)


def report_problems(problems: Sequence[Problem], within: str = "") -> None:
    """A reader's problems on stderr: one as a single error line; several one a line,
    then ``ulti: error: N problems in {within}``, N counting those a capped list left out."""
    if len(problems) == 1:
        error(str(problems[0]))
        return
    print_problems(problems)
    error(f"{problem_count(problems)} problems" + (f" in {within}" if within else ""))


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
    if exc.filename is not None:
        return f"{os.fsdecode(exc.filename)}: {reason}"
    return reason


class UltiGroup(click.Group):
    """The `ulti` group: turns the library's errors into messages and exit codes."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except ProblemsError as exc:  # a ruleset's, a sheet's, a record's, a ledger's
            if exc.problems:
                report_problems(exc.problems, exc.within)
            else:
                error(f"{exc.within or 'the document'} could not be read")
        except UltiError as exc:
            error(str(exc))
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise  # click quietens a closed pipe (`ulti ladder wikipedia | head`)
            error(describe_os_error(exc))
        except Exception as exc:
            if os.environ.get(DEBUG_ENV):
                raise
            error(
                f"internal error: {type(exc).__name__}: {exc} "
                f"(run again with {DEBUG_ENV}=1 for the traceback, and please report it)"
            )
        ctx.exit(EXIT_USER_ERROR)
