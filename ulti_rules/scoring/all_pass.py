"""A hand everybody passed: what it costs and whose deal is next, as ``auction.all_pass`` says.

Nobody bid, so there is no contract to judge and no settlement of lines; only the
ruleset's rule: 'redeal' (nothing happened, the same dealer deals again), 'pass_out'
(the hand counts, nobody pays) or 'forehand_pays' (the hand counts, and forehand, who
opened and let it die, pays ``auction.all_pass_payment`` to each other player). The
session ledger and a program settling engine hands read it here.
"""

from __future__ import annotations

from ..ruleset.schema import Ruleset
from .table_facts import active_seats


def all_pass_payments(ruleset: Ruleset, dealer: int) -> dict[int, int]:
    """Net result per seat (every seat, sums to zero) of a hand nobody bid.

    Forehand pays each other active player, and the dealer who sits out a four-player
    hand too where he shares the payments (``players.sitting_out_dealer_pays``).
    """
    count = ruleset.players.count
    payments = dict.fromkeys(range(count), 0)
    amount = ruleset.auction.all_pass_payment
    if ruleset.auction.all_pass != "forehand_pays" or not amount:
        return payments
    forehand, *others = active_seats(ruleset, dealer)
    if count == 4 and ruleset.players.sitting_out_dealer_pays:
        others.append(dealer)
    for seat in others:
        payments[seat] += amount
        payments[forehand] -= amount
    return payments


def redealt(ruleset: Ruleset) -> bool:
    """Whether the same dealer deals again after a hand nobody bid ('redeal')."""
    return ruleset.auction.all_pass == "redeal"
