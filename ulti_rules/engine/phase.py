"""The phases of a hand and the step the seat to act is asked for, as string enums.

``StrEnum`` members equal their strings (``Phase.PLAY == "play"``), so code and
records written against the plain strings read the same, and JSON shows the string.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where a hand is: ``auction`` -> ``trump`` -> ``play`` (<-> ``kontra``) -> ``over``."""

    AUCTION = "auction"
    TRUMP = "trump"
    """A suit bid's declarer names the trump."""
    PLAY = "play"
    KONTRA = "kontra"
    """The kontra round after trick 1, or a defender's word right after his own first card."""
    OVER = "over"


class Step(StrEnum):
    """What the seat to act is asked for: an auction step, or outside the auction the phase."""

    ROUND1 = "round1"
    """Two-round auction: a round-1 bid or pass."""
    ROUND1_TRUMP = "round1_trump"
    """Two-round auction: the round-1 winner names his trump."""
    DISCARD = "discard"
    """Lay two cards down as the talon."""
    SPEAK = "speak"
    """Pick up the talon or pass."""
    BID = "bid"
    """Bid after picking up the talon (or hold the bid, where allowed)."""
    CONFIRM = "confirm"
    """Two-round auction: the round-1 winner confirms or raises his bid."""
    TRUMP = "trump"
    PLAY = "play"
    KONTRA = "kontra"
    OVER = "over"


STEPS: dict[str, Step] = {step.value: step for step in Step}
"""A step by its string: outside the auction, the step of a phase."""

AUCTION, TRUMP, PLAY, KONTRA, OVER = (
    Phase.AUCTION,
    Phase.TRUMP,
    Phase.PLAY,
    Phase.KONTRA,
    Phase.OVER,
)
ROUND1, ROUND1_TRUMP, CONFIRM = Step.ROUND1, Step.ROUND1_TRUMP, Step.CONFIRM
DISCARD, SPEAK, BID = Step.DISCARD, Step.SPEAK, Step.BID
"""The members as module names, for the code that asks every action and card: a global
is read at once, ``Phase.PLAY`` is looked up on the enum class (5% of a simulated hand
when the bots asked it so)."""
