"""Section 3: the auction — opening, the talon, passes, self-robbing, the two rounds, all pass."""

from __future__ import annotations

from ..ruleset.schema import Ruleset
from .document import Block, Section
from .words import Words

ACTIVE_SEATS = 3
"""The seats that bid and play in every hand (at four, the dealer sits out)."""


def auction(w: Words) -> Section:
    a = w.ruleset.auction
    talon = w.ruleset.deal.talon
    # a two-round auction opens with its first round: forehand neither holds nor lays
    # away a talon then, and its winner opens the second (engine/auction.py)
    blocks: list[Block] = _two_rounds(w) if a.two_round is not None else [_opening(w)]
    if a.opener_pass_is_simple:
        blocks.append(
            w.para(
                w._(
                    "Forehand's “pass” is itself a bid: the plain {simple}, the lowest bid.",
                    simple=w.simple(),
                ),
                "auction.opener_pass_is_simple",
            )
        )
    if talon == "none":
        text = w._("Then each player in turn names a higher bid or passes.")
    elif a.talon_exchange_optional:
        text = w._(
            "Then each player in turn either bids — he may first pick up the talon and lay "
            "two cards away face down, or bid on his own cards — or passes."
        )
    else:
        text = w._(
            "Then each player in turn either bids — picks up the talon without showing it, "
            "lays two cards away face down and names a higher bid — or passes, handing the "
            "talon on unseen. Whoever picks up the talon must bid higher, even if his cards "
            "do not suit it."
        )
    blocks.append(w.para(text, "auction.talon_exchange_optional"))
    blocks.append(
        w.para(
            w._(
                "A bid must rank higher on the ladder than the bid standing. A player who "
                "passed may still bid on a later turn."
            )
        )
    )
    if self_robbing_matters(w.ruleset):
        blocks.append(w.para(_self_robbing(w), "auction.self_robbing", "auction.end_passes"))
    if a.end_passes == 3:
        text = w._(
            "The auction ends when all three have passed in a row, the last bidder "
            "included; the last bidder becomes the declarer."
        )
    else:
        text = w.ngettext(
            "The auction ends after {n} pass in a row after a bid.",
            "The auction ends after {n} passes in a row after a bid.",
            a.end_passes,
        )
        text += " " + w._("The last bidder becomes the declarer.")
        text += " " + w._(
            "The auction is over before the last bidder's turn comes round again: there is "
            "no self-robbing."
        )
    blocks.append(w.para(text, "auction.end_passes"))
    if a.min_components > 1:
        text = w.ngettext(
            "Only a bid of at least {n} component can win the auction.",
            "Only a bid of at least {n} components can win the auction.",
            a.min_components,
        )
    else:
        text = w._("Any bid on the ladder may win the auction.")
    blocks.append(w.para(text, "auction.min_components"))
    if a.two_round is None:
        blocks.extend(_two_rounds(w))
    blocks.extend(_all_pass(w))
    return Section("auction", w._("The auction"), tuple(blocks))


def self_robbing_matters(ruleset: Ruleset) -> bool:
    """Whether a bidder whom both others passed ever speaks again: only where three
    passes end the auction (``Auction._pass``: ``end_passes`` passes after a bid end it,
    and the two others' come first), so ``auction.self_robbing`` changes nothing under
    ``end_passes`` 1 or 2."""
    return ruleset.auction.end_passes >= ACTIVE_SEATS


def _self_robbing(w: Words) -> str:
    """Self-robbing as the engine allows it (``Auction._may_rob``): taking the talon back,
    or, where a bid needs no talon, bidding again straight away."""
    a = w.ruleset.auction
    if not a.self_robbing:
        return w._(
            "A bidder whom both others passed may not bid again: he passes, and his bid stands."
        )
    if w.ruleset.deal.talon == "none" and a.two_round is None:  # no talon at all
        return w._(
            "Self-robbing: a bidder whom both others passed may bid higher again on his next "
            "turn; then the others may bid again."
        )
    if a.talon_exchange_optional or w.ruleset.deal.talon == "none":  # a bid without the talon
        return w._(
            "Self-robbing: a bidder whom both others passed may bid higher again on his next "
            "turn, picking up the talon again and laying two cards away first if he likes; "
            "then the others may bid again."
        )
    return w._(
        "Self-robbing: a bidder whom both others passed may pick up the talon again on "
        "his next turn, lay two cards away again and bid higher; then the others may bid "
        "again."
    )


def _opening(w: Words) -> Block:
    a = w.ruleset.auction
    if not a.opener_must_bid:
        if w.ruleset.deal.talon == "forehand":
            text = w._(
                "Forehand opens the auction: he lays two cards face down as the talon, then "
                "bids or passes."
            )
        else:
            text = w._("Forehand opens the auction: he bids or passes.")
    elif w.ruleset.deal.talon == "forehand":
        text = w._(
            "Forehand opens the auction: he lays two cards face down as the talon and must "
            "name a bid; he may not pass."
        )
    else:
        text = w._("Forehand opens the auction and must name a bid; he may not pass.")
    return w.para(text, "auction.opener_must_bid")


def _two_rounds(w: Words) -> list[Block]:
    two = w.ruleset.auction.two_round
    if two is None:
        return [w.para(w._("The auction is played in one round."), "auction.two_round")]
    blocks: list[Block] = [
        w.para(
            w._(
                "The auction is played in two rounds. In the first round each player holds "
                "{cards} cards. A first-round bid counts {multiplier} times, with the kontras "
                "on it, for as long as it stands: the winner's raise, and any later bid, "
                "counts as usual.",
                cards=two.first_round_cards,
                multiplier=two.multiplier,
            ),
            "auction.two_round",
            "auction.two_round.first_round_cards",
            "auction.two_round.multiplier",
        )
    ]
    if two.opener_must_bid:
        blocks.append(
            w.para(w._("The first-round opener must bid."), "auction.two_round.opener_must_bid")
        )
    else:
        blocks.append(
            w.para(w._("The first-round opener may pass."), "auction.two_round.opener_must_bid")
        )
    blocks.append(
        w.para(
            w.ngettext(
                "The first round ends after {n} pass in a row after a bid.",
                "The first round ends after {n} passes in a row after a bid.",
                two.end_passes,
            ),
            "auction.two_round.end_passes",
        )
    )
    if two.trump_named == "with_bid":
        text = w._("The first round's winner names his trump with his bid.")
    else:
        text = w._(
            "The first round's winner names his trump when the round is over, before he "
            "takes the extra cards."
        )
    blocks.append(w.para(text, "auction.two_round.trump_named"))
    blocks.append(
        w.para(
            w._(
                "Then he takes the two extra cards, everyone is dealt the rest of his hand, "
                "and he lays the talon away and keeps or raises his bid in the same trump; "
                "the second round is bid as usual."
            )
        )
    )
    if two.overcall_by == "rank":
        text = w._(
            "In the second round a bid overcalls the standing first-round bid if it ranks "
            "higher on the ladder."
        )
    else:
        text = w._(
            "In the second round a bid overcalls the standing first-round bid only if it is "
            "worth more than that bid's value times {multiplier}.",
            multiplier=two.multiplier,
        )
    blocks.append(w.para(text, "auction.two_round.overcall_by"))
    if two.same_trump_binds_others:
        text = w._("The other players' second-round bids must keep the same trump too.")
    else:
        text = w._(
            "Only the first-round winner's raise must keep the same trump; the others bid freely."
        )
    blocks.append(w.para(text, "auction.two_round.same_trump_binds_others"))
    if not two.opener_must_bid:
        blocks.extend(_silent_first_round(w))
    return blocks


def _silent_first_round(w: Words) -> list[Block]:
    """A first round nobody bid in: the engine deals on and the usual auction follows
    (``Auction._end_round1``), opened by forehand."""
    text = w._(
        "If nobody bids in the first round, forehand takes the two cards laid aside, everyone "
        "is dealt the rest of his hand, and the auction is bid in one round:"
    )
    return [w.para(text, "auction.two_round.opener_must_bid"), _opening(w)]


def _all_pass(w: Words) -> list[Block]:
    a = w.ruleset.auction
    # forehand opens a two-round auction's first round; only if he may pass there too can
    # the usual auction that follows a silent first round be passed out
    first_round_bid = a.two_round is not None and a.two_round.opener_must_bid
    if a.opener_must_bid or first_round_bid:
        return [w.para(w._("Since forehand must bid, every auction has a winner."))]
    if a.all_pass == "redeal":
        text = w._("If nobody bids, the hand is void and the same dealer deals again.")
        return [w.para(text, "auction.all_pass")]
    if a.all_pass == "pass_out":
        text = w._(
            "If nobody bids, the hand counts as played: nobody pays, and the deal passes on."
        )
        return [w.para(text, "auction.all_pass")]
    text = w._(
        "If nobody bids, forehand, who opened and let it die, pays {n} to each other player, "
        "and the deal passes on.",
        n=a.all_pass_payment or 0,
    )
    return [w.para(text, "auction.all_pass", "auction.all_pass_payment")]
