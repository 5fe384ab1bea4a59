"""The `ulti` command. Each command group lives in its own module and adds itself here.

Exit status: 0 success, 1 user error (bad file, illegal record, impossible facts),
2 usage error. Errors go to stderr, never as a traceback.
"""

from __future__ import annotations

import importlib

import click

COMMAND_MODULES: tuple[str, ...] = ()
"""Modules under ulti_rules.cli that define ``register(group)``."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ulti-rules")
def main() -> None:
    """Ulti in all its house rules: rulesets, hands, scores."""


for _name in COMMAND_MODULES:
    importlib.import_module(f"{__name__}.{_name}").register(main)
