"""`ulti plugins`: which plugins are installed, what each registered, and which failed.

A user who installs a plugin wants to see that it is there and what it brought (a
contract kind a club file can name, a bot for `ulti simulate`, a ranking rule, a
fragment for ``with:``, a ruleset); one that failed to load is listed with its error,
here on stdout (the other commands warn on stderr), and the rest keep working.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import click

from .common import echo_json
from .terminal import echo


@dataclass
class PluginReport:
    """One plugin as `ulti plugins` shows it."""

    name: str
    distribution: str | None
    contract_kinds: list[str] = field(default_factory=list)
    bots: list[str] = field(default_factory=list)
    ranking_rules: list[str] = field(default_factory=list)
    fragments: list[str] = field(default_factory=list)
    rulesets: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "distribution": self.distribution,
            "contract_kinds": self.contract_kinds,
            "bots": self.bots,
            "ranking_rules": self.ranking_rules,
            "fragments": self.fragments,
            "rulesets": self.rulesets,
        }


WHAT = (
    ("contract kinds", "contract_kinds"),
    ("bots", "bots"),
    ("ranking rules", "ranking_rules"),
    ("fragments", "fragments"),
    ("rulesets", "rulesets"),
)
"""What a plugin may register, in the order it is shown: label, field."""


def plugin_reports(*, builtin: bool = False) -> list[PluginReport]:
    """Every plugin that loaded, in load order, with what it registered (the built-in
    kinds and ranking rules first when ``builtin``)."""
    from ..bots.registry import BUILTIN_BOTS
    from ..plugins import BUILTIN, get_registry

    registry = get_registry()
    reports: dict[str, PluginReport] = {}
    for name, dist in registry.plugins.items():
        if name == BUILTIN and not builtin:
            continue
        reports[name] = PluginReport(name, dist)

    def add(owner: str, what: str, name: str) -> None:
        report = reports.get(owner)
        if report is not None:
            getattr(report, what).append(name)

    for name, owner in registry.kind_owner.items():
        add(owner, "contract_kinds", name)
    if builtin and BUILTIN in reports:
        reports[BUILTIN].bots.extend(bot_cls.name for bot_cls in BUILTIN_BOTS)
    for name, owner in registry.bot_owner.items():
        add(owner, "bots", name)
    for name, owner in registry.ranking_owner.items():
        add(owner, "ranking_rules", name)
    for path, owner in registry.fragments:
        add(owner, "fragments", path.stem)
    for path, owner in registry.rulesets:
        add(owner, "rulesets", path.stem)
    return list(reports.values())


@click.command("plugins", short_help="List the installed plugins and what each registered.")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@click.option(
    "--builtin", is_flag=True,
    help="Also list what ulti-rules itself registers through the same hooks.",
)  # fmt: skip
def plugins_command(as_json: bool, builtin: bool) -> None:
    """List every installed plugin: its distribution and version, and the contract
    kinds, bots, ranking rules, fragments and rulesets it registered.

    A plugin that failed to load is listed with its error; the others still work.
    Exit status 0 either way.
    """
    from .. import plugins

    plugins.report_failures(None)  # failures are listed here, not warned about as well
    reports = plugin_reports(builtin=builtin)
    failures = plugins.get_registry().failures
    if as_json:
        echo_json(
            {
                "plugins": [report.to_dict() for report in reports],
                "failed": [
                    {
                        "name": failure.plugin,
                        "distribution": failure.dist,
                        "phase": failure.phase,
                        "error": failure.message,
                    }
                    for failure in failures
                ],
            }
        )
        return
    loaded = [r for r in reports if r.name != plugins.BUILTIN]
    echo(f"Plugins: {len(loaded)} loaded, {len(failures)} failed")
    if not loaded and not failures:
        echo("No plugin is installed (see docs/plugins.md to write one).")
    for report in reports:
        dist = f" ({report.distribution})" if report.distribution else ""
        title = "built in" if report.name == plugins.BUILTIN else report.name
        echo(f"\n{title}{dist}")
        shown = [(label, getattr(report, what)) for label, what in WHAT]
        for label, names in shown:
            if names:
                echo(f"  {label + ':':<16}{', '.join(names)}")
        if not any(names for _, names in shown):
            echo("  registered nothing")
    for failure in failures:
        echo(f"\nFAILED: {failure}")
