"""What one seat may see: its own cards, the public auction and play, exposed hands.

Plain data (dicts, lists, ints, strings) so a bot, a UI or a test can read it
without importing the engine. Hidden: other hands (until an open contract lays
them down), and the talon's cards except to a seat that held them: the seat
that last laid the talon down, and each seat that picked it up (shown on its
own pick-up). The final talon (not the earlier discards) is shown to everybody
once the hand is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import format_cards, suit_id
from .masks import cards_of

if TYPE_CHECKING:
    from .hand import Hand


def observe(hand: Hand, seat: int) -> dict[str, Any]:
    hand.seats.check(seat)
    auction = hand._auction
    over = hand.is_over
    events: list[dict[str, Any]] = []
    for index, (who, action) in enumerate(hand._history):
        event: dict[str, Any] = {"seat": who, **action.to_dict()}
        if action.type == "discard" and who != seat:
            event["cards"] = None  # laid face down
        if action.type == "pick_up" and who == seat:
            event["cards"] = format_cards(hand._pickups[index]).split()
        events.append(event)
    if over:
        talon: list[int] | None = list(hand._talon)
    elif auction.talon is not None and auction.talon_by == seat:
        talon = list(auction.talon)
    else:
        talon = None
    exposed: dict[int, list[int]] = {}
    if hand._exposed:
        shown = hand.seats.active if hand.ruleset.open_games.exposes == "all" else (hand._declarer,)
        exposed = {s: list(cards_of(hand._hands[s])) for s in shown}
    to_move = hand.current_player == seat
    leader, trick = hand.current_trick
    return {
        "ruleset": hand.ruleset.name,
        "seat": seat,
        "dealer": hand.seats.dealer,
        "active_seats": list(hand.seats.active),
        "sitting_out": hand.seats.sitting_out,
        "phase": hand.phase,
        "step": hand.step,
        "current_player": hand.current_player,
        "hand": list(cards_of(hand._hands[seat])),
        "hand_sizes": {s: hand._hands[s].bit_count() for s in hand.seats.active},
        "history": events,
        "bid": hand.bid,
        "declarer": hand.declarer,
        "trump": suit_id(hand._trump) if hand._trump >= 0 else None,
        "talon": talon,
        "kontra": hand.kontra_levels,
        "marriages": [{"seat": s, "suit": suit, "value": v} for s, suit, v in hand.marriages],
        "tricks": [
            {"leader": lead, "cards": list(cards), "winner": win}
            for lead, cards, win in hand._tricks
        ],
        "current_trick": {"leader": leader, "cards": list(trick)} if trick else None,
        "exposed": exposed,
        "legal_actions": [a.to_dict() for a in hand.legal_actions()] if to_move else [],
    }
