"""The hand engine: one deal of Ulti as a state machine (deal, auction, trump, play).

``Hand`` is the entry point; the action classes are the values it accepts.
See docs/engine.md for the design (kontra windows, marriages, the two-round
auction) and the fast path for bots and benchmarks.
"""

from .actions import (
    Action,
    Announce,
    Bid,
    DeclareTrump,
    Discard,
    GiveUp,
    Kontra,
    MalformedAction,
    Pass,
    PickUp,
    Play,
    action_from_dict,
)
from .deal import BadDeal, Deal
from .hand import Hand
from .observation import Observation

__all__ = [
    "Action",
    "Announce",
    "BadDeal",
    "Bid",
    "Deal",
    "DeclareTrump",
    "Discard",
    "GiveUp",
    "Hand",
    "Kontra",
    "MalformedAction",
    "Observation",
    "Pass",
    "PickUp",
    "Play",
    "action_from_dict",
]
