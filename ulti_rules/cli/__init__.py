"""The `ulti` command. Each command lives in its own module, imported when it runs.

Exit status: 0 success, 1 user error (bad file, illegal record, impossible facts),
2 usage error. Errors go to stderr, never as a traceback (see ``common.UltiGroup``).
A plugin that failed and was skipped is a warning on stderr, once per command, the
first time the command needs the plugins (``--help`` and ``--version`` never load them).

Start-up is kept short (docs/performance.md, "CLI start-up"): this module imports no
command module, no rich, no pydantic and no engine; ``COMMANDS`` says where each
command is and what ``ulti --help`` says of it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

import click

from .. import console as console_script  # not `console`: the name of cli.console
from ..ruleset.references import ALLOW_OUTSIDE_ENV
from .lazy_group import LazyCommand, LazyGroup

COMMANDS: dict[str, LazyCommand] = {
    "rulesets": LazyCommand(
        "rulesets:rulesets_command", "List every ruleset that can be used by name."
    ),
    "show": LazyCommand("rulesets:show_command", "Print a ruleset as YAML."),
    "check": LazyCommand(
        "rulesets:check_command", "Validate club ruleset files and print every problem."
    ),
    "ladder": LazyCommand(
        "rulesets:ladder_command", "Show the bid ladder of a ruleset, lowest bid first."
    ),
    "schema": LazyCommand(
        "rulesets:schema_command", "Print the JSON Schema of a ruleset file, for editors."
    ),
    "rulebook": LazyCommand(
        "rulebook:rulebook_command", "Print the complete rules of a ruleset as a rulebook."
    ),
    "diff": LazyCommand(
        "diff:diff_command", "Say what ruleset B does differently from ruleset A, in plain words."
    ),
    "score": LazyCommand("score:score_command", "Settle a hand played with real cards."),
    "ledger": LazyCommand(
        "ledger:ledger_group", "Keep a session: its hands, whose deal it is, the totals."
    ),
    "replay": LazyCommand(
        "replay:replay_command", "Replay a hand record, print it trick by trick."
    ),
    "play": LazyCommand("play:play_command", "Play Ulti against two bots (--auto: bots only)."),
    "plugins": LazyCommand(
        "plugins_list:plugins_command", "List the installed plugins and what each registered."
    ),
    "simulate": LazyCommand(
        "simulate:simulate_command", "Bots play seeded hands; settle and total them."
    ),
}
"""Every command: where it is defined (a module of this package) and its short help."""

YOUNG = 100_000
"""New objects between two cyclic garbage collections while a command runs (Python's
default: 700); `ulti ladder wikipedia` makes about 37,000 (see ``_fewer_collections``)."""


@click.group(
    cls=LazyGroup,
    lazy_commands=COMMANDS,
    package=__name__,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(package_name="ulti-rules", prog_name="ulti", message="%(prog)s %(version)s")
@click.option(
    "--allow-outside-paths",
    is_flag=True,
    envvar=ALLOW_OUTSIDE_ENV,
    help="Let a club file's extends, and the ruleset named in a sheet, record or ledger, "
    "lead outside that file's folder and the rulesets folders. Only for files you trust "
    "(see docs/security.md).",
)
@click.pass_context
def main(ctx: click.Context, allow_outside_paths: bool) -> None:
    """Ulti in all its house rules: rulesets, hands, scores.

    Run `ulti COMMAND --help` for the options of one command.
    """
    from .. import plugins
    from ..ruleset import references

    ctx.with_resource(_fewer_collections(YOUNG))
    if allow_outside_paths:
        ctx.with_resource(references.allow_outside_paths())
    plugins.report_failures(_warn_plugin_failure)
    ctx.call_on_close(lambda: plugins.report_failures(None))


@contextmanager
def _fewer_collections(young: int) -> Iterator[None]:
    """The cyclic garbage collector run every ``young`` new objects while a command runs,
    not every 700.

    Starting a command (importing its modules, building the pydantic models, reading a
    ruleset) makes tens of thousands of objects that all live on; collected every 700,
    they are walked again and again for no garbage: about 10 ms of `ulti ladder`'s CPU
    time (docs/performance.md), which now ends before a first collection. A long command
    (a simulation) still has its cyclic garbage collected, every ``young`` objects.

    At the end one collection of the young generations moves what the command made and
    kept to the oldest (at most ``young`` objects and the middle generation), so that
    the usual collections that follow do not walk it again and again; not in the
    console script, whose process ends with the command (``console.ends_the_process``:
    that pass was about 1 % of `ulti ladder`'s instructions). It was a freeze
    and unfreeze, guarded by ``gc.get_freeze_count()``, which counts the frozen objects
    one by one: in a process whose heap is frozen (forked ledger writers, a pre-fork
    server) that was 0.3 s per command."""
    before = gc.get_threshold()
    gc.set_threshold(young, *before[1:])
    try:
        yield
    finally:
        if not console_script.ends_the_process:
            gc.set_threshold(*before)
            gc.collect(1)


def _warn_plugin_failure(failure: object) -> None:
    click.echo(f"ulti: warning: {failure}", err=True)
