"""A sitting of `ulti play`: the hands so far, the totals and whose deal is next.

The session is a ledger kept in memory (``scoring/ledger.py``), so the deal rotates as
`ulti ledger` rotates it: to the right after every hand, the same dealer again after
a hand nobody bid under ``auction.all_pass: redeal``; a ruleset's planned number of
hands (``session.hands``) ends it. Each hand enters it as the engine's record enters a
ledger file, and is settled again there from its score-keeper document.
"""

from __future__ import annotations

from ..engine import Hand
from ..ruleset.schema import Ruleset
from ..scoring.ledger import add_passed_out, add_played, new_ledger
from .session_words import status_text
from .speech import Speech


class PlaySession:
    """The hands of one `ulti play` run, as a ledger would keep them."""

    def __init__(self, ruleset: Ruleset, ruleset_ref: str, names: list[str]) -> None:
        self.ruleset = ruleset
        self.names = names
        self.ledger = new_ledger(ruleset_ref, names, None, "none")

    @property
    def played(self) -> int:
        return len(self.ledger.hands)

    def next_dealer(self) -> int:
        """The seat that deals the next hand."""
        return self.names.index(self.ledger.dealer_of(self.played + 1, self.ruleset))

    def add(self, hand: Hand) -> None:
        """Enter a finished hand (a passed-out one too) as the session's next."""
        source = f"hand {self.played + 1}"
        if hand.contract is None:
            add_passed_out(self.ledger, source=source, dealer=self.names[hand.dealer])
        else:
            add_played(self.ledger, hand.contract, hand.facts, source=source, dealer=hand.dealer)

    def totals(self) -> dict[str, int]:
        return self.ledger.totals()

    def is_over(self) -> bool:
        """Whether the session is over: its planned hands are played."""
        return self.ledger.is_over(self.ruleset)

    def next_text(self, say: Speech | None = None) -> str:
        """``Next: hand 3, dealt by Ben.`` (or why the session is over), in ``say``'s words."""
        return status_text(self.ledger, self.ruleset, say or Speech())
