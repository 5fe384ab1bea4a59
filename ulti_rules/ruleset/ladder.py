"""The bid ladder: checks at load time, and the questions the engine and CLI ask of it."""

from __future__ import annotations

from dataclasses import dataclass

from ..plugins import Registry
from .schema import Ruleset


@dataclass(frozen=True)
class LadderIssue:
    """A problem found in a validated ruleset, at a dotted key path (``ladder.3.value``)."""

    path: str
    message: str


def check_ladder(ruleset: Ruleset, registry: Registry) -> list[LadderIssue]:
    """Every problem with the catalogue and the ladder of a schema-valid ruleset."""
    return []
