"""The settings a ruleset file writes that change nothing under its rules, for `ulti check`.

`ulti diff` says of a setting whose rulebook sentences read the same on both sides that
it "changes nothing under these rules" (``diff_words.py``). `ulti check` asks the same
of each line of a club file: the ruleset without the line against the ruleset with it,
so that `give_up_cost: 3` where giving up is not allowed gets a note at its line; where
the rule that leaves it unused is not plain to see (self-robbing where two passes end the
auction, the rules of naming a trump under a fixed one, giving up where a plain Simple is
only ever uncontested and lost before play, the loss factor of a silent bonus that never
fails), the note names it. One more note
is not about a setting that changes nothing: a kontra level that is allowed but can never
be called (``_answer_never_called``).

A line costs a merge, a validation and, where the setting is said in the rulebook's
sentences, two rulebooks: about 20 ms. To keep `ulti check` fast on a file that writes a
hundred settings, a line that restates the value beneath it (inherited, or the schema's
default), or that the schema requires and nothing beneath it gives, is passed over at
once (``OwnSettings.replaces``): of the 133 settings `wikipedia.yaml` writes, 14 are
judged.

A file can write thousands of settings that each differ from the value beneath (a
thousand new contracts, a ladder of a thousand bids by id), on a ruleset that is itself
that large: judging each line costs about 7 µs per value of the ruleset, and a club file
of 2,700 lines took 25 s, one of 9,000 lines over two minutes. So the lines judged cost
at most :data:`JUDGED_VALUES` values in all; the rest get one note, at the first of
them, saying how many were not judged.
"""

from __future__ import annotations

from ..errors import Problem
from ..ruleset.loading import OwnSettings
from ..ruleset.safe_yaml import KeyPath
from ..ruleset.schema import Ruleset
from ..said import Said
from .auction import self_robbing_matters
from .diff import NAMES_ONLY, Difference, compare_rulesets
from .kontra import answer_never_open
from .session import giving_up_never_happens
from .silent import never_fails

JUDGED_VALUES = 200_000
"""The lines judged times the values of the ruleset, at most: about 1.5 s of work (132
lines of a club file on ``wikipedia``, which has about 1,500 values)."""


def idle_settings(own: OwnSettings) -> list[Problem]:
    """A note for each setting the file itself writes that changes nothing under the
    rules it ends up with, at its line, in the file's order; within the budget of
    :data:`JUDGED_VALUES`, and one note where the lines not judged begin."""
    lines = [
        path
        for path in own.paths
        if not NAMES_ONLY.intersection(map(str, path)) and own.replaces(path)
    ]
    judged = JUDGED_VALUES // max(own.size, 1)
    notes = [
        own.note(path, _move_said(own) if _is_move(path) else _idle_said(own, path))
        for path in lines[:judged]
        if (_idle_move(own, path) if _is_move(path) else _idle(own, path))
    ]
    if len(lines) > judged:
        notes.append(_not_judged(own, lines[judged], len(lines) - judged, judged))
    notes.extend(_answer_never_called(own))
    return notes


_IDLE = Said(
    "changes nothing under these rules, which read the same without this line: delete it, "
    "or change the rule that leaves it unused"
)


def _idle_said(own: OwnSettings, path: KeyPath) -> Said:
    """The note for a setting that changes nothing: with the rule that leaves it unused,
    where that rule is one a club may not see at once (a review)."""
    r = own.ruleset
    key = tuple(map(str, path))
    if key == ("auction", "self_robbing") and not self_robbing_matters(r):
        return Said(
            "changes nothing under these rules: with auction.end_passes: {n} the auction is "
            "over before a bidder whom both others passed speaks again, so there is no "
            "self-robbing to allow or forbid: delete it, or change the rule that leaves it "
            "unused",
            n=r.auction.end_passes,
        )
    if key in (("trump", "red_suit_needs_red_bid"), ("trump", "named")) and r.trump.fixed:
        return Said(
            "changes nothing under these rules: with trump.fixed: {suit} nobody names a "
            "trump, and every trump bid but a red one is played in {suit}: delete it, or "
            "change the rule that leaves it unused",
            suit=r.trump.fixed,
        )
    if _gives_up(key, r) and giving_up_never_happens(r, own.registry):
        return Said(
            "changes nothing under these rules: a plain Simple wins the auction only as the "
            "first bid, left standing, so it is always uncontested, and with "
            "simple.uncontested: lose_double and simple.uncontested_played_out: false the "
            "hand ends with the auction, before the declarer has a turn to give up: delete "
            "it, or change the rule that leaves it unused (simple.uncontested_played_out: "
            "true plays such a hand out, and lets its declarer give up)"
        )
    if len(key) == 3 and key[::2] == ("silent_bonuses", "loss_factor"):
        bonus = r.silent_bonuses.get(key[1])
        if bonus is not None and never_fails(bonus, own.registry):
            return Said(
                "changes nothing under these rules: with scored_by: either_side whichever "
                "side does the feat of '{bonus}' has made it, so it never fails, and no "
                "failure is ever paid: delete it, or change the rule that leaves it unused "
                "(under scored_by: declarer the defenders' feat is the declarer's failure)",
                bonus=key[1],
            )
    return _IDLE


def _gives_up(key: tuple[str, ...], r: Ruleset) -> bool:
    """``simple.give_up_allowed``, or ``simple.give_up_cost`` where giving up is allowed
    (where it is not, that is reason enough: the plain note)."""
    return key == ("simple", "give_up_allowed") or (
        key == ("simple", "give_up_cost") and r.simple.give_up_allowed
    )


KONTRA_LINES: tuple[tuple[str, ...], ...] = (
    ("kontra", "window"),
    ("kontra", "later_window"),
    ("kontra", "max_level"),
    ("kontra", "levels"),
    ("play", "first_lead"),
)
"""The settings that together leave the declarer no turn to answer a kontra, the line
said first where the file writes several."""


def _answer_never_called(own: OwnSettings) -> list[Problem]:
    """A note where the declarer's answer to a kontra (level 2, and so every level after
    it) is allowed but can never be called: it is made with one's own card to the first
    trick, which the declarer leads (``kontra.answer_never_open``). At the first of the
    settings to blame that the file itself writes; none where it writes none (its base's
    check says it)."""
    r = own.ruleset
    if not answer_never_open(r):
        return []
    written = {tuple(map(str, path)): path for path in own.paths}
    at = next((written[key] for key in KONTRA_LINES if key in written), None)
    if at is None:
        return []
    said = Said(
        "{call} (level 2) can never be called under these rules: it is made only with "
        "one's own card to the first trick, and the declarer leads to it, so his card is "
        "down before a defender can call kontra; kontra.later_window: end_trick1 (or "
        "before_lead_trick2) lets the declarer answer in the kontra round after the first "
        "trick",
        call=r.kontra.named(2),
    )
    return [own.note(at, said)]


def _is_move(path: KeyPath) -> bool:
    """``ladder.<id>.after`` or ``.before``: a bid listed elsewhere in the ladder."""
    return len(path) == 3 and path[0] == "ladder" and path[2] in ("after", "before")


def _idle_move(own: OwnSettings, path: KeyPath) -> bool:
    """Whether listing the bid elsewhere leaves every bid's rank as it was: the listed
    order ranks nothing under ``ranking: value`` (nor under a table, which writes the
    ranks). The rulebooks compare bids by id, so the move looked needed (a review)."""
    without = own.without(path)
    if without is None:
        return False
    ranks = {bid.id: bid.rank for bid in own.ruleset.ladder}
    return ranks == {bid.id: bid.rank for bid in without.ladder}


def _move_said(own: OwnSettings) -> Said:
    return Said(
        "lists the bid elsewhere, which changes no bid's rank under ranking: {rule}: "
        "delete it, or change the rule that leaves it unused",
        rule=own.ruleset.ranking,
    )


def _not_judged(own: OwnSettings, first: KeyPath, count: int, judged: int) -> Problem:
    """The note at the first line past the budget: those lines may change nothing too."""
    return own.note(
        first,
        Said(
            "this setting and those after it ({count} in all) were not judged for whether "
            "they change anything: each costs a check of the whole ruleset, so `ulti check` "
            "judges only the first {judged} of a file this large",
            count=count,
            judged=judged,
        ),
    )


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
