"""The `ulti` command. Each command group lives in its own module and adds itself here.

Exit status: 0 success, 1 user error (bad file, illegal record, impossible facts),
2 usage error. Errors go to stderr, never as a traceback (see ``common.UltiGroup``).
"""

from __future__ import annotations

import importlib

import click

from .common import UltiGroup

COMMAND_MODULES: tuple[str, ...] = ("rulesets", "score", "ledger", "replay", "simulate")
"""Modules under ulti_rules.cli that define ``register(group)``."""


@click.group(cls=UltiGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ulti-rules", message="%(prog)s %(version)s")
def main() -> None:
    """Ulti in all its house rules: rulesets, hands, scores.

    Run `ulti COMMAND --help` for the options of one command.
    """


for _name in COMMAND_MODULES:
    importlib.import_module(f"{__name__}.{_name}").register(main)
