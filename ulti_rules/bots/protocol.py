"""What a computer player is: the one interface every bot, built-in or a plugin's, meets."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar, Protocol

if TYPE_CHECKING:
    from ..engine import Action, Hand


class Bot(Protocol):
    """A computer player: one legal action for the seat to act."""

    name: ClassVar[str]
    description: ClassVar[str]

    def choose(self, hand: Hand, rng: random.Random) -> Action:
        """An action ``hand.apply`` accepts now, for ``hand.current_player``."""
        ...
