"""Marriages: who may announce which King-and-Over, and which announcements are due.

Only in trump games (docs/rules.md#marriages). In a hundred game the ruleset limits
them (``marriages.in_hundred_game``): WP lets the declarer announce only the bid
marriage and the defenders none. The bid marriage itself is not optional: the
declarer of a 40-100 / 20-100 announces it before his first card, so the engine
refuses his card until he has (one ``Announce`` per marriage).
"""

from __future__ import annotations

from ..game.catalog import BidInfo
from ..ruleset.schema import Ruleset
from ..said import Said
from .trump import marriages_in


def outstanding(info: BidInfo, trump: int, announced: list[int]) -> tuple[int, int]:
    """(trump, side) marriages the declarer's bid still needs announced."""
    trump_done = announced.count(trump)
    plain_done = len(announced) - trump_done
    return max(0, info.trump_marriages - trump_done), max(0, info.plain_marriages - plain_done)


def announceable(
    ruleset: Ruleset,
    info: BidInfo,
    trump: int,
    hand: int,
    declarer: bool,
    announced: list[int],
) -> tuple[int, ...]:
    """The suits whose marriage the player may announce now (window checked by the caller).

    ``announced`` is what this player has announced already.
    """
    if trump < 0:
        return ()
    held = marriages_in(hand)
    if announced:
        held = tuple(s for s in held if s not in announced)
    if not held or not info.hundred:  # most hands hold no marriage: asked at every card
        return held
    limits = ruleset.marriages.in_hundred_game
    if not declarer:
        return held if limits.defenders == "all" else ()
    if limits.declarer == "all":
        return held
    need_trump, need_plain = outstanding(info, trump, announced)
    return tuple(s for s in held if (s == trump and need_trump) or (s != trump and need_plain))


def due(
    ruleset: Ruleset,
    info: BidInfo,
    trump: int,
    hand: int,
    declarer: bool,
    announced: list[int],
) -> tuple[int, ...]:
    """The announceable suits that must be announced before this player's card.

    The declarer's bid marriages always; every marriage where announcing is not
    optional. Empty when the player may play.
    """
    may = announceable(ruleset, info, trump, hand, declarer, announced)
    if not may:
        return ()
    if not ruleset.marriages.optional:
        return may
    if declarer and info.hundred:
        need_trump, need_plain = outstanding(info, trump, announced)
        return tuple(s for s in may if (s == trump and need_trump) or (s != trump and need_plain))
    return ()


def hundred_limit_words(info: BidInfo, declarer: bool) -> str:
    if declarer:
        return Said("in a {bid} the declarer announces only the bid marriage", bid=info.name)
    return Said("in a {bid} the defenders announce no marriages", bid=info.name)
