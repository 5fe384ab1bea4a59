"""The errors ulti_rules raises on purpose; each carries a message for a person."""

from __future__ import annotations

from dataclasses import dataclass


class UltiError(Exception):
    """Base of every error that the CLI reports as a user error (exit 1)."""


class PluginError(UltiError):
    """A plugin failed to load or registered something wrong; the message names it."""


@dataclass(frozen=True)
class Problem:
    """One problem in a ruleset file, positioned at the file that set the key."""

    file: str
    line: int | None
    column: int | None
    path: str
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


class RulesetError(UltiError):
    """A ruleset could not be loaded; ``problems`` lists every one, positioned."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class IllegalAction(UltiError):
    """An action that breaks a rule; the message names the rule, the hand is unchanged."""
