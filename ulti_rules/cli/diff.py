"""`ulti diff A B`: what ruleset B does differently from A, in plain words.

Exit status as `diff(1)` has it, so that a script can ask "do these play the same?":
0 when they play the same (names, titles and sources may differ), 1 when they differ,
2 for trouble (an unknown or broken ruleset, a bad option, an unknown ``ULTI_LANG``).
The comparison and the words are ``ulti_rules.rulebook.diff`` and ``diff_words``.
"""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import contextmanager

import click

from ..errors import UltiError
from .common import EXIT_USAGE_ERROR, echo_json, report_error
from .completion import complete_ruleset
from .language import command_lang, lang_option
from .terminal import echo, printable

EXIT_SAME = 0
EXIT_DIFFERENT = 1
EXIT_TROUBLE = EXIT_USAGE_ERROR
"""Trouble is 2 here, not the usual 1: 1 already says "they differ"."""


@click.command("diff")
@click.argument("was", metavar="A", shell_complete=complete_ruleset)
@click.argument("now", metavar="B", shell_complete=complete_ruleset)
@lang_option("Language of the differences.")
@click.option("--json", "as_json", is_flag=True, help="Print the differences as JSON.")
@click.pass_context
def diff_command(ctx: click.Context, was: str, now: str, lang: str | None, as_json: bool) -> None:
    """Say what ruleset B does differently from ruleset A, in plain words.

    A and B are ruleset names or paths, compared as they resolve (extends and
    fragments merged), grouped like the rulebook. Exit status: 0 when they play the
    same (names, titles and sources may differ), 1 when they differ, 2 for an error.
    """
    from ..rulebook.diff_words import describe_differences, diff_json, render_diff
    from ..ruleset.loading import load_ruleset

    with _trouble(ctx):
        language = command_lang(lang)
        a, b = load_ruleset(was), load_ruleset(now)
        diff = describe_differences(a, b, language, was=was, now=now)
    if as_json:
        echo_json(diff_json(diff))
    else:
        echo(printable(render_diff(diff)), nl=False)
    ctx.exit(EXIT_SAME if diff.plays_the_same else EXIT_DIFFERENT)


@contextmanager
def _trouble(ctx: click.Context) -> Iterator[None]:
    """A ruleset or language the command cannot use: said on stderr as every command says
    it, and exit status 2."""
    try:
        yield
    except (UltiError, OSError) as exc:
        if isinstance(exc, OSError) and exc.errno == errno.EPIPE:
            raise
        report_error(exc)
        ctx.exit(EXIT_TROUBLE)
