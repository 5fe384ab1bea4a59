"""The kontra chain: its levels and names, how far it goes, who calls, until when."""

from __future__ import annotations

from ..ruleset.schema import KONTRA_LEVEL_LIMIT, Ruleset
from .document import Block, Section, Table
from .words import Words

OWN_CARD = "own_card_trick1"
"""The window of a call made with one's own card to the first trick (``engine/kontra.py``)."""


def kontra(w: Words) -> Section:
    k = w.ruleset.kontra
    cap = k.level_cap
    if cap == 0:
        blocks: tuple[Block, ...] = (w.para(w._("Kontra is not played."), "kontra.max_level"),)
        return Section("kontra", w._("Kontra"), blocks)
    first = w.level(1)
    shown = min(cap, len(k.levels))
    doubling = all(level.multiplier == 2 ** (i + 1) for i, level in enumerate(k.levels[:shown]))
    if doubling:
        text = w._(
            "A defender may double any component he thinks lost, naming it: this is "
            "{first}. The declarer may answer with the next level, the defenders with the "
            "one after, and so on, each call doubling again. A kontra multiplies the "
            "component's value whoever wins it.",
            first=first,
        )
    else:  # a club's own factors (×3, or a level that raises less than one before)
        text = w._(
            "A defender may call kontra on any component he thinks lost, naming it: this is "
            "{first}. The declarer may answer with the next level, the defenders with the "
            "one after, and so on; each level multiplies the component's value by its factor "
            "in the table below, whoever wins it.",
            first=first,
        )
    found: list[Block] = [w.para(text, "kontra.levels[].by", "kontra.levels[].multiplier")]
    sides = {"defenders": w._("the defenders"), "declarer": w._("the declarer")}
    found.append(
        Table(
            (w._("Level"), w._("Call"), w._("Multiplier"), w._("Called by")),
            tuple(
                (str(i + 1), w.name(level.names), f"×{level.multiplier}", sides[level.by])
                for i, level in enumerate(k.levels[:shown])
            ),
            ("right", "left", "right", "left"),
            settings=(
                "kontra.levels[].names",
                "kontra.levels[].multiplier",
                "kontra.levels[].by",
            ),
        )
    )
    if k.max_level is None:
        text = w._(
            "The chain has no agreed limit: it may go on to level {limit}. Levels beyond the "
            "named ones double again.",
            limit=KONTRA_LEVEL_LIMIT,
        )
    elif k.max_level <= len(k.levels):
        text = w._(
            "The chain stops at {name} (level {n}).", name=w.level(k.max_level), n=k.max_level
        )
    else:
        text = w._(
            "The chain stops at level {n} (×{multiplier}); levels beyond the named ones double "
            "again.",
            n=k.max_level,
            multiplier=k.multiplier(k.max_level),
        )
    found.append(w.para(text, "kontra.max_level"))
    found.append(w.para(_window(w, first), "kontra.window"))
    if cap > 1:
        # `later_window: same` follows the first window: a change of either changes it;
        # with one's own card, who leads to the first trick decides whether it can be made
        found.append(w.para(_later(w), "kontra.later_window", "kontra.window", "play.first_lead"))
    if k.window_opens == "first_trick":
        text = w._("A defender may call on his turn at the first trick, before he plays his card.")
    else:
        text = w._(
            "A defender may call only once his own card to the first trick is down: right "
            "after it, before the next card, and in the round after the first trick where "
            "the window reaches it. The declarer's calls are not affected."
        )
    found.append(w.para(text, "kontra.window_opens"))
    found.append(
        w.para(
            w._("In a component with trumps, a kontra counts only for the defender who called it.")
            if k.per_defender_in_trump
            else w._("In a component with trumps, a kontra counts against both defenders."),
            "kontra.per_defender_in_trump",
        )
    )
    found.append(
        w.para(
            w._(
                "In a component without trumps, each defender calls for himself: his kontra "
                "counts only between him and the declarer."
            )
            if k.per_defender_in_no_trump
            else w._("In a component without trumps, a kontra counts against both defenders."),
            "kontra.per_defender_in_no_trump",
        )
    )
    return Section("kontra", w._("Kontra"), tuple(found))


def _window(w: Words, first: str) -> str:
    return {
        "own_card_trick1": w._(
            "{first} is called with one's own card to the first trick.", first=first
        ),
        "end_trick1": w._(
            "{first} may be called from the end of the auction until the first trick is complete.",
            first=first,
        ),
        "before_lead_trick2": w._(
            "{first} may be called from the end of the auction until the second trick is led.",
            first=first,
        ),
    }[w.ruleset.kontra.window]


def answer_never_open(ruleset: Ruleset) -> bool:
    """Whether the declarer can never answer a kontra: level 2 (and so every level after
    it) may be called only with one's own card to the first trick, and the declarer
    leads to it. His word comes on his turn before his card (``KontraChains._open``,
    moment ``trick1``), a defender's on his own turn (or right after his card), so the
    declarer's turn is over before any defender can call; no kontra round follows."""
    k = ruleset.kontra
    return k.level_cap >= 2 and k.window_of(2) == OWN_CARD and ruleset.play.first_lead == "declarer"


def _later(w: Words) -> str:
    k = w.ruleset.kontra
    second = w.level(2)
    window = k.window_of(2)
    if answer_never_open(w.ruleset):
        if k.level_cap <= 2:
            return w._(
                "{second} can never be called: it is made with one's own card to the first "
                "trick, and the declarer leads to it, so his card is down before a defender "
                "can call {first}.",
                second=second,
                first=w.level(1),
            )
        return w._(
            "{second} and the calls after it can never be called: {second} is made with "
            "one's own card to the first trick, and the declarer leads to it, so his card "
            "is down before a defender can call {first}.",
            second=second,
            first=w.level(1),
        )
    if window == OWN_CARD:  # forehand leads: the declarer answers when a defender came first
        if k.level_cap <= 2:
            return w._(
                "{second} is made with one's own card to the first trick: forehand leads to "
                "it, so the declarer can answer a {first} only when he is not forehand.",
                second=second,
                first=w.level(1),
            )
        return w._(
            "{second} and the calls after it are made with one's own card to the first "
            "trick: forehand leads to it, so the declarer can answer a {first} only when he "
            "is not forehand.",
            second=second,
            first=w.level(1),
        )
    if k.level_cap <= 2:  # the chain ends there: "and the calls after it" named none
        return {
            "end_trick1": w._(
                "{second} may be made until the first trick is complete.", second=second
            ),
            "before_lead_trick2": w._(
                "{second} may be made until the second trick is led.", second=second
            ),
        }[window]
    return {
        "end_trick1": w._(
            "{second} and the calls after it may be made until the first trick is complete.",
            second=second,
        ),
        "before_lead_trick2": w._(
            "{second} and the calls after it may be made until the second trick is led.",
            second=second,
        ),
    }[window]
