"""Sections 1 and 2: who plays, the deal, the cards, their ranks and points."""

from __future__ import annotations

from ..cards import RANK_IDS
from ..ruleset.schema import DEFAULT_TRUMP_ORDER
from .document import Block, Section, Table
from .words import SUIT_WORDS, Words


def players_and_deal(w: Words) -> Section:
    r = w.ruleset
    blocks: list[Block] = []
    if r.players.count == 3:
        blocks.append(
            w.para(
                w._(
                    "Three play, each for himself. In every hand one of them, the declarer, "
                    "plays alone against the other two, the defenders."
                ),
                "players.count",
            )
        )
    else:
        blocks.append(
            w.para(
                w._(
                    "Four sit at the table, but only three play each hand: the dealer sits "
                    "out. In every hand one player, the declarer, plays alone against the "
                    "other two, the defenders."
                ),
                "players.count",
            )
        )
        if r.players.sitting_out_dealer_pays:
            text = w._(
                "The dealer who sits out shares the defenders' payments: he pays and is paid "
                "as a third defender."
            )
        else:
            text = w._("The dealer who sits out neither pays nor is paid.")
        blocks.append(w.para(text, "players.sitting_out_dealer_pays"))
    suits = [w.suit(suit) for suit in SUIT_WORDS]
    blocks.append(
        w.para(
            w._(
                "The pack has 32 Hungarian cards: four suits ({suits}), each with {ranks}.",
                suits=w.join(suits),
                ranks=w.join([w.rank(rank) for rank in DEFAULT_TRUMP_ORDER]),
            )
        )
    )
    if r.direction == "counter_clockwise":
        text = w._(
            "Dealing, bidding and play go counter-clockwise, to the right, and the deal "
            "passes to the right after each hand."
        )
    else:
        text = w._(
            "Dealing, bidding and play go clockwise, to the left, and the deal passes to "
            "the left after each hand."
        )
    blocks.append(w.para(text, "direction"))
    blocks.append(
        w.para(
            w._(
                "Forehand is the player after the dealer: he is dealt to first and opens "
                "the auction."
            )
        )
    )
    if r.auction.two_round is not None:
        blocks.extend(_two_round_deal(w))
    else:
        blocks.extend(_deal(w))
    if r.deal.misdeal_redeal_same_dealer:
        text = w._(
            "A card exposed while dealing voids the deal: nobody pays, and the same dealer "
            "deals again."
        )
    else:
        text = w._(
            "A card exposed while dealing voids the deal: nobody pays, and the deal passes "
            "on as after a hand."
        )
    blocks.append(w.para(text, "deal.misdeal_redeal_same_dealer"))
    return Section("players", w._("Players and the deal"), tuple(blocks))


def _deal(w: Words) -> list[Block]:
    """The deal by the ruleset's packets, and where the talon comes from."""
    r = w.ruleset
    talon = {
        "forehand": w._(
            "Forehand then holds 12 cards and the others 10 each; the two cards he lays "
            "away become the talon."
        ),
        "set_aside": w._(
            "Each player holds 10 cards; the two cards left over lie face down on the "
            "table as the talon."
        ),
        "none": w._(
            "Each player holds 10 cards; the two cards left over are out of play: there is "
            "no talon."
        ),
    }[r.deal.talon]
    return [_packets(w), w.para(talon, "deal.talon")]


def _two_round_deal(w: Words) -> list[Block]:
    """The two-round auction's deal (``deal_plan.deal_in_order``): its own pattern, not the
    packets, and the talon is the round-1 winner's, not forehand's."""
    two = w.ruleset.auction.two_round
    assert two is not None
    text = w._(
        "Each player is first dealt {first} cards; two cards are laid aside for the winner "
        "of the first auction round; then each player is dealt {more} more.",
        first=two.first_round_cards,
        more=10 - two.first_round_cards,
    )
    if w.ruleset.players.count == 4:
        text += " " + w._("The dealer, who sits out, gets no cards.")
    talon = w._(
        "The winner of the first round takes the two cards laid aside and holds 12 cards, the "
        "others 10 each; the two cards he lays away become the talon."
    )
    return [
        w.para(text, "auction.two_round.first_round_cards"),
        w.para(talon, "auction.two_round"),
    ]


def _packets(w: Words) -> Block:
    packets = w.ruleset.deal.packets
    rounds = [
        w._(
            "{forehand} to forehand, {second} and {third} to the next two",
            forehand=p[0],
            second=p[1],
            third=p[2],
        )
        for p in packets
    ]
    if len(rounds) == 1:
        text = w._("The cards are dealt in one go: {deal}.", deal=rounds[0])
    else:
        numbered = [
            w._("round {number}: {deal}", number=i + 1, deal=deal) for i, deal in enumerate(rounds)
        ]
        text = w.ngettext(
            "The cards are dealt in {n} round: {deal}.",
            "The cards are dealt in {n} rounds: {deal}.",
            len(rounds),
            deal="; ".join(numbered),
        )
    if w.ruleset.players.count == 4:
        text += " " + w._("The dealer, who sits out, gets no cards.")
    return w.para(text, "deal.packets")


def cards_and_points(w: Words) -> Section:
    r = w.ruleset
    ranks = r.ranks
    order = Table(
        header=(w._("Cards"), w._("From high to low")),
        rows=(
            (w._("The trump suit in a trump game"), w.ranks(ranks.trump_game)),
            (w._("The other suits in a trump game"), w.ranks(ranks.trump_game_side_suits)),
            (w._("Every suit in a game without trumps"), w.ranks(ranks.no_trump)),
        ),
        settings=("ranks.trump_game", "ranks.trump_game_side_suits", "ranks.no_trump"),
    )
    blocks: list[Block] = [
        w.para(
            w._(
                "A trick is one card from each player. The highest trump in it wins it, or "
                "else the highest card of the suit led. The cards rank:"
            )
        ),
        order,
    ]
    counted = [(rank, points) for rank, points in r.points.card_points.items() if points]
    counted.sort(key=lambda item: RANK_IDS[item[0]])
    if counted:
        text = w._(
            "Card points: {points}; the other cards count nothing.",
            points=w.join([f"{w.rank(rank)} {points}" for rank, points in counted]),
        )
    else:
        text = w._("No card counts any points.")
    blocks.append(w.para(text, "points.card_points"))
    total = r.points.total()
    if r.points.last_trick:
        text = w._(
            "The last trick counts {points} more, so the pack holds {total} points in all.",
            points=r.points.last_trick,
            total=total,
        )
    else:
        text = w._(
            "The last trick counts nothing extra; the pack holds {total} points in all.",
            total=total,
        )
    blocks.append(w.para(text, "points.last_trick"))
    blocks.append(_talon_points(w))
    return Section("cards", w._("Cards, ranks and points"), tuple(blocks))


def _talon_points(w: Words) -> Block:
    """Whose the card points of the two cards nobody plays are: the talon's, or, with no
    talon, those of the two cards out of play (the facts' ``talon``), which the scoring
    counts alike (``contracts/tally.py``)."""
    points = w.ruleset.points
    # a two-round auction always has a talon: its winner lays the two extra cards away
    unplayed = w.ruleset.deal.talon == "none" and w.ruleset.auction.two_round is None
    if points.talon_to == "declarer":
        if unplayed:
            text = w._("Card points in the two cards out of play count for the declarer.")
        else:
            text = w._("Card points left in the talon count for the declarer.")
        if points.talon_counts_toward_hundred:
            text += " " + w._("They count toward a 100 too.")
        else:
            text += " " + w._("They count for the Simple only, not toward a 100.")
    elif points.talon_to == "nobody":
        if unplayed:
            text = w._("Card points in the two cards out of play count for nobody.")
        else:
            text = w._("Card points left in the talon count for nobody.")
    elif unplayed:
        text = w._(
            "Card points in the two cards out of play count for the defenders, so they never "
            "help the declarer to a 100."
        )
    else:
        text = w._(
            "Card points left in the talon count for the defenders, so they never help "
            "the declarer to a 100."
        )
    return w.para(text, "points.talon_to", "points.talon_counts_toward_hundred", "deal.talon")
