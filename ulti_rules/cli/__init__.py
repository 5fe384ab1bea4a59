"""The `ulti` command. Each command group lives in its own module and adds itself here.

Exit status: 0 success, 1 user error (bad file, illegal record, impossible facts),
2 usage error. Errors go to stderr, never as a traceback (see ``common.UltiGroup``).
A plugin that failed and was skipped is a warning on stderr, once per command, the
first time the command needs the plugins (``--help`` and ``--version`` never load them).
"""

from __future__ import annotations

import importlib

import click

from .. import plugins
from ..ruleset import references
from ..ruleset.references import ALLOW_OUTSIDE_ENV
from .common import UltiGroup

COMMAND_MODULES: tuple[str, ...] = ("rulesets", "score", "ledger", "replay", "simulate")
"""Modules under ulti_rules.cli that define ``register(group)``."""


@click.group(cls=UltiGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ulti-rules", message="%(prog)s %(version)s")
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
    if allow_outside_paths:
        ctx.with_resource(references.allow_outside_paths())
    plugins.report_failures(_warn_plugin_failure)
    ctx.call_on_close(lambda: plugins.report_failures(None))


def _warn_plugin_failure(failure: plugins.PluginFailure) -> None:
    click.echo(f"ulti: warning: {failure}", err=True)


for _name in COMMAND_MODULES:
    importlib.import_module(f"{__name__}.{_name}").register(main)
