"""The CLI reference, written from the click commands themselves.

Walks the `ulti` group (a lazy group: ``list_commands``/``get_command`` import each
command's module) and writes each command's usage, help and options as Markdown, so
the reference can never drift from what `ulti COMMAND --help` says.
"""

from __future__ import annotations

import inspect

import click
from ulti_rules.cli import main


def _cell(text: str) -> str:
    """Text that stays inside one cell of a Markdown table."""
    return " ".join(text.split()).replace("|", "\\|")


def _help_text(command: click.Command) -> str:
    """The command's help as paragraphs: click's ``\\b`` (keep these lines) marks dropped."""
    text = inspect.cleandoc(command.help or command.short_help or "")
    return "\n".join(line for line in text.splitlines() if line.strip() != "\b")


def _options(command: click.Command, ctx: click.Context) -> list[str]:
    rows = []
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None or isinstance(param, click.Argument):  # the usage line shows it
            continue
        names, help_text = record
        rows.append(f"| `{_cell(names)}` | {_cell(help_text)} |")
    if not rows:
        return []
    return ["| Option | What it does |", "|---|---|", *rows, ""]


def _command_section(
    command: click.Command, path: list[str], parent: click.Context | None
) -> list[str]:
    name = " ".join(path)
    ctx = click.Context(command, info_name=path[-1], parent=parent, **command.context_settings)
    usage = " ".join(command.collect_usage_pieces(ctx))
    level = "#" * min(len(path) + 1, 4)
    lines = [f"{level} `{name}`", "", "```text", f"Usage: {name} {usage}", "```", ""]
    lines += [_help_text(command), ""]
    lines += _options(command, ctx)
    if isinstance(command, click.Group):
        for sub_name in command.list_commands(ctx):
            sub = command.get_command(ctx, sub_name)
            if sub is not None and not sub.hidden:
                lines += _command_section(sub, [*path, sub_name], ctx)
    return lines


def cli_reference_page() -> str:
    """The whole reference: `ulti`, then every command (and a group's subcommands)."""
    intro = [
        "# CLI reference",
        "",
        "Every command of `ulti` with its usage, help and options, written from the "
        "commands themselves when the site is built; `ulti COMMAND --help` prints the same. "
        "The guide with examples and exit codes is [The `ulti` command](../cli.md).",
        "",
    ]
    return "\n".join(intro + _command_section(main, ["ulti"], None))
