"""The settings a ruleset file writes that change nothing under its rules, for `ulti check`.

`ulti diff` says of a setting whose rulebook sentences read the same on both sides that
it "changes nothing under these rules" (``diff_words.py``). `ulti check` asks the same
of each line of a club file: the ruleset without the line against the ruleset with it,
so that `give_up_cost: 3` where giving up is not allowed gets a note at its line.

A line costs a merge, a validation and, where the setting is said in the rulebook's
sentences, two rulebooks: about 20 ms. To keep `ulti check` fast on a file that writes a
hundred settings, a line that restates the value beneath it (inherited, or the schema's
default), or that the schema requires and nothing beneath it gives, is passed over at
once (``OwnSettings.replaces``): of the 133 settings `wikipedia.yaml` writes, 14 are
judged.
"""

from __future__ import annotations

from ..errors import Problem
from ..ruleset.loading import OwnSettings
from ..ruleset.safe_yaml import KeyPath
from ..said import Said
from .diff import NAMES_ONLY, Difference, compare_rulesets


def idle_settings(own: OwnSettings) -> list[Problem]:
    """A note for each setting the file itself writes that changes nothing under the
    rules it ends up with, at its line, in the file's order."""
    lines = [
        path
        for path in own.paths
        if not NAMES_ONLY.intersection(map(str, path)) and own.replaces(path)
    ]
    return [
        own.note(
            path,
            Said(
                "changes nothing under these rules, which read the same without this line: "
                "delete it, or change the rule that leaves it unused"
            ),
        )
        for path in lines
        if _idle(own, path)
    ]


def _idle(own: OwnSettings, path: KeyPath) -> bool:
    """Whether the ruleset without this one line differs only where nothing changes."""
    without = own.without(path)
    if without is None or not any(_at(path, d) for d in compare_rulesets(without, own.ruleset)):
        return False  # a line the rules need, or one that another file overrules
    from .diff_words import changes_nothing  # the rulebook's words: only for such a line

    return changes_nothing(without, own.ruleset)


def _at(path: KeyPath, difference: Difference) -> bool:
    """Whether ``difference`` is at the setting ``path`` (or within it, or it within the
    difference: a list written whole, a contract removed); ``*`` stands for any bid."""
    pairs = zip(map(str, path), difference.path.split("."), strict=False)  # the shorter one
    return all(mine == theirs or theirs == "*" for mine, theirs in pairs)
