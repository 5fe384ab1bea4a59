"""A sitting of `ulti play`: the hands so far, the totals and whose deal is next.

The session is a ledger kept in memory (``scoring/ledger.py``), so the deal rotates as
`ulti ledger` rotates it: to the right after every hand, the same dealer again after
a hand nobody bid under ``auction.all_pass: redeal``; a ruleset's planned number of
hands (``session.hands``) ends it, and so does the last round of ``session.end:
heart_ace`` once the person calls the end (``call_end``): whoever holds the Ace of
hearts when the next auction ends deals it. Each hand enters it as the engine's record
enters a ledger file, and is settled again there from its score-keeper document.
"""

from __future__ import annotations

from ..cards import Rank, Suit, make_card
from ..engine import Discard, Hand, Play
from ..ruleset.schema import Ruleset
from ..scoring.ledger import add_passed_out, add_played, new_ledger
from .session_words import status_text
from .speech import Speech

HEART_ACE = make_card(Suit.HEARTS, Rank.ACE)


def heart_ace_holder(hand: Hand) -> int | None:
    """The seat that held the Ace of hearts when the auction ended: the one that played
    it, or the declarer who laid it in the talon, or the one whose hand it is still in
    (a hand that ended before play); None where it lies in a talon nobody took (set
    aside, out of play, or laid by a bidder whom the declarer outbid without taking it)."""
    for seat, action in hand.history:
        if isinstance(action, Play) and action.card == HEART_ACE:
            return seat
    if hand.discards:
        seat, laid = hand.history[hand.discards[-1]]
        if seat == hand.declarer and isinstance(laid, Discard) and HEART_ACE in laid.cards:
            return seat
    seats = range(hand.ruleset.players.count)
    return next((seat for seat in seats if HEART_ACE in hand.cards(seat)), None)


class PlaySession:
    """The hands of one `ulti play` run, as a ledger would keep them."""

    def __init__(self, ruleset: Ruleset, ruleset_ref: str, names: list[str]) -> None:
        self.ruleset = ruleset
        self.names = names
        self.ledger = new_ledger(ruleset_ref, names, None, None)  # the ruleset's end
        self.end_called = False

    @property
    def may_call_end(self) -> bool:
        """Whether the person may call the end now (``session.end: heart_ace``, once)."""
        return self.ledger.end == "heart_ace" and not self.end_called

    def call_end(self) -> None:
        """ "Das Herz-Ass gibt": the holder of the Ace of hearts after the next auction
        deals the last round (if it lies in a talon nobody took, the next one decides)."""
        self.end_called = True

    @property
    def end_decided(self) -> bool:
        return any(h.heart_ace is not None for h in self.ledger.hands)

    @property
    def played(self) -> int:
        return len(self.ledger.hands)

    def next_dealer(self) -> int:
        """The seat that deals the next hand."""
        return self.names.index(self.ledger.dealer_of(self.played + 1, self.ruleset))

    def add(self, hand: Hand) -> None:
        """Enter a finished hand (a passed-out one too) as the session's next."""
        source = f"hand {self.played + 1}"
        holder = heart_ace_holder(hand) if self.end_called and not self.end_decided else None
        heart_ace = None if holder is None else self.names[holder]
        if hand.contract is None:
            add_passed_out(
                self.ledger, source=source, dealer=self.names[hand.dealer], heart_ace=heart_ace
            )
        else:
            add_played(
                self.ledger,
                hand.contract,
                hand.facts,
                source=source,
                dealer=hand.dealer,
                heart_ace=heart_ace,
            )

    def totals(self) -> dict[str, int]:
        return self.ledger.totals()

    def is_over(self) -> bool:
        """Whether the session is over: its planned hands are played."""
        return self.ledger.is_over(self.ruleset)

    def next_text(self, say: Speech | None = None) -> str:
        """``Next: hand 3, dealt by Ben.`` (or why the session is over), in ``say``'s words."""
        return status_text(self.ledger, self.ruleset, say or Speech())
