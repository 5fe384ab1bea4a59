"""The errors ulti_rules raises on purpose; each carries a message for a person."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ClassVar

from .quoting import QUOTED, shorten
from .said import Said, say_in


class UltiError(Exception):
    """Base of every error that the CLI reports as a user error (exit 1)."""


class PluginError(UltiError):
    """A plugin failed to load or registered something wrong; the message names it."""


@dataclass(frozen=True)
class Problem:
    """One problem of a document a person wrote (a ruleset, a score sheet, a record, a
    ledger), positioned at the key that holds it: ``file:line:col: key.path: message``.

    What is not known is left out: a problem of no file (a hand that does not fit a
    session, a record made in memory) has ``file`` ``""`` and reads as its message.
    """

    file: str
    line: int | None
    column: int | None
    path: str
    message: str

    @classmethod
    def unplaced(cls, message: str, file: str = "") -> Problem:
        """A problem with no position: of the file ``file``, or of no file."""
        return cls(file, None, None, "", message)

    def __str__(self) -> str:
        return self.shown()

    def shown(self, gettext: Callable[[str], str] | None = None, lang: str = "en") -> str:
        """``file:line:col: key.path: message``, the message in ``lang`` (``gettext``:
        its catalogue's) where it is a :class:`~ulti_rules.said.Said` (else English)."""
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        path = self.path
        if len(path) > QUOTED:  # a key 1 MB long is shown as its start, like any value
            path = ".".join(shorten(part) for part in path.split("."))
        message = self.message if gettext is None else say_in(gettext, self.message, lang)
        return ": ".join(part for part in (where, path, message) if part)


MAX_PROBLEMS = 100
"""Problems reported for one file. A stranger's file with 45,000 wrong keys (or a file
that is no ruleset at all) shows the first hundred and a count, not megabytes."""


@dataclass(frozen=True)
class MoreProblems(Problem):
    """The last line of a capped list: it stands for ``count`` problems left out."""

    count: int = 0


def capped(problems: Iterable[Problem], limit: int = MAX_PROBLEMS) -> list[Problem]:
    """``problems`` in their order, each once, at most ``limit`` of them, then one line
    ``file: ... and N more problems``: what every reader reports (rulesets, score sheets,
    records, ledgers). Capping a capped list again keeps the count."""
    seen: set[Problem] = set()
    kept: list[Problem] = []
    left = 0
    for problem in problems:
        if isinstance(problem, MoreProblems):
            left += problem.count
        elif problem not in seen:
            seen.add(problem)
            kept.append(problem)
    left += max(0, len(kept) - limit)
    if not left:
        return kept
    shown = kept[:limit]
    file = shown[0].file if shown else ""
    if left == 1:
        message = Said(
            "... and 1 more problem (only the first {shown} are shown)", shown=len(shown)
        )
    else:
        message = Said(
            "... and {left} more problems (only the first {shown} are shown)",
            left=left,
            shown=len(shown),
        )
    return [*shown, MoreProblems(file, None, None, "", message, left)]


def problem_count(problems: Iterable[Problem]) -> int:
    """How many problems a (perhaps capped) list stands for."""
    return sum(p.count if isinstance(p, MoreProblems) else 1 for p in problems)


def by_position(problems: Iterable[Problem]) -> list[Problem]:
    """``problems`` in the order of their document: by line, then column (stable, so
    unpositioned ones keep their order, first)."""
    return sorted(problems, key=lambda p: (p.line or 0, p.column or 0))


class ProblemsError(UltiError):
    """The one shape of every reader's error (rulesets, score sheets, records, ledgers):
    ``problems``, each positioned as far as it is known, capped (:func:`capped`); the
    message is one problem a line.

    A plain ``str`` stands for one problem of which nothing more is known. With
    ``ordered`` the problems are put in the order of their document (:func:`by_position`).
    """

    within: ClassVar[str] = ""
    """What the problems are in, for a count of them (``3 problems in the ledger``)."""

    def __init__(self, problems: Iterable[Problem] | str, *, ordered: bool = False) -> None:
        listed = [Problem.unplaced(problems)] if isinstance(problems, str) else list(problems)
        self.problems = capped(by_position(listed) if ordered else listed)
        super().__init__("\n".join(str(p) for p in self.problems))


class RulesetError(ProblemsError):
    """A ruleset could not be loaded; ``problems`` lists them, positioned, in the order
    the loader found them (it sorts by file, then position)."""

    within = Said("the ruleset")


class IllegalAction(UltiError):
    """An action that breaks a rule; the message names the rule, the hand is unchanged."""
