"""A command group that imports a command's module only when that command runs.

``ulti --help`` lists every command from a map of names to ``module:attribute`` and
short help texts, so listing them imports no command module (and with it no rich, no
pydantic, no engine); ``ulti NAME ...`` imports only NAME's module. A test checks that
each short help in the map is the one the command itself gives, so the two cannot drift.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import click

from .common import UltiGroup


@dataclass(frozen=True)
class LazyCommand:
    """Where a command is defined (``module:attribute``, module relative to the group's
    package) and its short help, as ``ulti --help`` shows it."""

    target: str
    help: str


class LazyGroup(UltiGroup):
    """An ``UltiGroup`` whose commands are imported on first use."""

    def __init__(
        self, *args: Any, lazy_commands: Mapping[str, LazyCommand], package: str, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands)
        self.package = package

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = self.commands.get(cmd_name)
        if command is None and cmd_name in self.lazy_commands:
            command = self.load(cmd_name)
            self.commands[cmd_name] = command
        return command

    def load(self, name: str) -> click.Command:
        """The command ``name``, importing its module."""
        module_name, _, attribute = self.lazy_commands[name].target.partition(":")
        module = importlib.import_module(f"{self.package}.{module_name}")
        command = getattr(module, attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.lazy_commands[name].target} is not a click command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their short help, from the map: no command is imported."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            loaded = self.commands.get(name)
            if loaded is not None:
                if loaded.hidden:
                    continue
                text = loaded.get_short_help_str(limit)
            else:
                text = click.Command(name, help=self.lazy_commands[name].help).get_short_help_str(
                    limit
                )
            rows.append((name, text))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """click's, with "did you mean" drawn from every command, loaded or not."""
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            no_such = getattr(click.exceptions, "NoSuchCommand", None)  # click 8.4 and later
            if no_such is None or not isinstance(exc, no_such):
                raise
            raise no_such(
                exc.command_name, possibilities=self.list_commands(ctx), ctx=ctx
            ) from None
