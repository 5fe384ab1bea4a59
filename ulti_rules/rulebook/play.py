"""Sections on the play: trump and red, open games, following and beating, marriages."""

from __future__ import annotations

from .document import Block, Section
from .words import Words


def trump_and_red(w: Words) -> Section:
    t = w.ruleset.trump
    red = w.suit(t.red_suit)
    blocks: list[Block] = []
    if t.fixed is not None:
        # nobody names a trump: ``trump.named`` and ``red_suit_needs_red_bid`` change nothing
        blocks.extend(_fixed_trump(w, t.fixed))
    else:
        text = w._("No suit is trump by itself: the bid and the declarer decide.")
        blocks.append(w.para(text, "trump.fixed"))
        if t.named == "after_auction":
            text = w._(
                "A red bid makes {red} trump, and says so in its name. Any other trump bid "
                "names no suit: the declarer names the trump when the auction is over, before "
                "the first lead.",
                red=red,
            )
        else:
            text = w._(
                "A red bid makes {red} trump; any other trump bid names its trump suit in the "
                "bid itself.",
                red=red,
            )
        blocks.append(w.para(text, "trump.named", "trump.red_suit", "ladder[].red"))
    blocks.append(
        w.para(w._("A red bid doubles the value of every component it holds."), "ladder[].red")
    )
    if t.fixed is None:
        if t.red_suit_needs_red_bid:
            text = w._("{red} can be trump only through a red bid.", red=red)
        else:
            text = w._(
                "The declarer of an ordinary bid may name {red} as trump too; the bid keeps "
                "its ordinary value.",
                red=red,
            )
        blocks.append(w.para(text, "trump.red_suit_needs_red_bid"))
    if t.red_no_trump:
        text = w._(
            "Bids without trumps have a red form too: it has no trump, and only doubles the value."
        )
    else:
        text = w._("Bids without trumps have no red form.")
    blocks.append(w.para(text, "trump.red_no_trump"))
    return Section("trump", w._("Trump and red"), tuple(blocks))


def _fixed_trump(w: Words, fixed: str) -> list[Block]:
    """A fixed trump: every trump bid but a red one is played in it, and nobody names a
    trump (``game/catalog.py``: a suit bid's one suit is the fixed one, all the engine
    offers its declarer; a red bid keeps the red suit)."""
    t = w.ruleset.trump
    suit, red = w.suit(fixed), w.suit(t.red_suit)
    if fixed == t.red_suit:
        first = w._(
            "{suit} is always trump in a trump game: nobody names a trump, in the bid or "
            "after the auction.",
            suit=suit,
        )
        second = w._(
            "A red bid says so in its name and is played in {suit} at double value; any "
            "other trump bid is played in {suit} too, at its ordinary value.",
            suit=suit,
        )
    else:
        first = w._(
            "{suit} is trump in every trump game but a red one: nobody names a trump, in "
            "the bid or after the auction.",
            suit=suit,
        )
        second = w._(
            "A red bid makes {red} trump, and says so in its name; any other trump bid is "
            "played in {suit}.",
            red=red,
            suit=suit,
        )
    return [
        w.para(first, "trump.fixed", "trump.red_suit"),
        w.para(second, "trump.fixed", "trump.red_suit", "ladder[].red"),
    ]


def open_games(w: Words) -> Section:
    o = w.ruleset.open_games
    opened = [w.name(spec.names) for spec in w.ruleset.contracts.values() if spec.open]
    if not opened:
        blocks: tuple[Block, ...] = (
            w.para(w._("No contract of this ruleset is played open."), "contracts.*.open"),
        )
        return Section("open", w._("Open games"), blocks)
    blocks = (
        w.para(
            w._("Open contracts are played with cards face up: {names}.", names=w.join(opened)),
            "contracts.*.open",
        ),
        w.para(_exposed(w), "open_games.exposes", "open_games.after_trick"),
        w.para(
            w._("Open contracts have a red form too.")
            if o.red_allowed
            else w._("Open contracts have no red form."),
            "open_games.red_allowed",
        ),
    )
    return Section("open", w._("Open games"), blocks)


def _exposed(w: Words) -> str:
    o = w.ruleset.open_games
    everyone = o.exposes == "all"
    if o.after_trick == 0:
        if everyone:
            return w._("All players lay their cards face up before the first lead.")
        return w._("The declarer lays his cards face up before the first lead.")
    if o.after_trick == 1:
        if everyone:
            return w._("All players lay their cards face up after the first trick.")
        return w._("The declarer lays his cards face up after the first trick.")
    if everyone:
        return w._("All players lay their cards face up after trick {n}.", n=o.after_trick)
    return w._("The declarer lays his cards face up after trick {n}.", n=o.after_trick)


def trick_play(w: Words) -> Section:
    p = w.ruleset.play
    blocks: list[Block] = []
    if p.first_lead == "declarer":
        text = w._(
            "The declarer leads to the first trick; after that, whoever won a trick leads to "
            "the next."
        )
    else:
        text = w._(
            "Forehand leads to the first trick, whoever the declarer is; after that, whoever "
            "won a trick leads to the next."
        )
    blocks.append(w.para(text, "play.first_lead"))
    rules = [
        w.para(
            w._("Follow suit when you can.") if p.must_follow else w._("You need not follow suit."),
            "play.must_follow",
        ),
        w.para(
            w._("If you cannot follow suit, play a trump if you can.")
            if p.must_trump
            else w._("If you cannot follow suit, you may play any card; you need not trump."),
            "play.must_trump",
        ),
        w.para(
            w._(
                "Either way, beat the highest card in the trick if you can, in games without "
                "trumps too."
            )
            if p.must_beat
            else w._("You need not beat the cards already in the trick."),
            "play.must_beat",
        ),
    ]
    blocks.extend(rules)
    keepers = [
        w.name(spec.names)
        for spec in w.ruleset.contracts.values()
        if (kind := w.registry.kinds.get(spec.kind)) is not None and kind.keeps_trump_seven
    ]
    if keepers:
        blocks.append(
            w.para(
                w._(
                    "The declarer of a bid holding {names} must keep the trump 7 until the last "
                    "trick, unless the rules of play force it out.",
                    names=w.join_or(keepers),
                )
            )
        )
    return Section("play", w._("The play"), tuple(blocks))


def marriages(w: Words) -> Section:
    m = w.ruleset.marriages
    simple = w.simple()
    blocks: list[Block] = [
        w.para(
            w._(
                "A marriage is the King and Over of one suit: it counts {trump} in trumps and "
                "{plain} in another suit. Marriages count only in trump games, for the side "
                "of the player who announced them.",
                trump=m.trump_value,
                plain=m.plain_value,
            ),
            "marriages.trump_value",
            "marriages.plain_value",
        )
    ]
    if m.announce == "first_trick":
        text = w._("Marriages are announced while playing to the first trick, and not later.")
    else:  # the engine offers it before one's card at every trick (``Hand._announceable``)
        text = w._(
            "A marriage may be announced at any trick, on one's turn before one's card, as "
            "long as one holds both its cards."
        )
    blocks.append(w.para(text, "marriages.announce"))
    blocks.append(
        w.para(
            w._("Announcing is optional: a player may keep a marriage quiet.")
            if m.optional
            else w._("Every marriage must be announced."),
            "marriages.optional",
        )
    )
    if m.count_in_parti:
        text = w._("Marriages count toward the {simple}, beside the card points.", simple=simple)
    else:
        text = w._(
            "Marriages count only toward a 100; the {simple} is decided by card points alone.",
            simple=simple,
        )
    blocks.append(w.para(text, "marriages.count_in_parti"))
    blocks.append(
        w.para(
            w._("A marriage counts only for a side that took at least one trick.")
            if m.require_trick
            else w._("A marriage counts even for a side that took no trick."),
            "marriages.require_trick",
        )
    )
    blocks.extend(_hundred_games(w))
    return Section("marriages", w._("Marriages"), tuple(blocks))


def _hundred_games(w: Words) -> list[Block]:
    hundreds = [
        w.name(spec.names)
        for spec in w.ruleset.contracts.values()
        if (kind := w.registry.kinds.get(spec.kind)) is not None and kind.is_hundred
    ]
    if not hundreds:
        return []
    h = w.ruleset.marriages.in_hundred_game
    names = w.join_or(hundreds)
    blocks: list[Block] = []
    if h.declarer == "bid_only":
        text = w._(
            "In a {names} the declarer announces only the marriage his bid names, and only "
            "that one counts toward the 100.",
            names=names,
        )
    else:
        text = w._(
            "In a {names} the declarer may announce all his marriages, but only the one his "
            "bid names counts toward the 100.",
            names=names,
        )
    blocks.append(w.para(text, "marriages.in_hundred_game.declarer"))
    if h.defenders == "none":
        text = w._("The defenders announce no marriages in a {names}.", names=names)
    else:
        text = w._(
            "The defenders may announce their marriages in a {names}; they count for the "
            "defenders.",
            names=names,
        )
    blocks.append(w.para(text, "marriages.in_hundred_game.defenders"))
    text = {
        "required": w._(
            "The declarer of a {names} must announce its marriage before his first card; "
            "unannounced, it counts nothing toward the 100.",
            names=names,
        ),
        "lost": w._(
            "The declarer of a {names} may leave its marriage unannounced, but the 100 is then "
            "lost, whatever the points.",
            names=names,
        ),
        "parti": w._(
            "The declarer of a {names} may leave its marriage unannounced; the 100 is then "
            "void, and a {simple} is settled in its place, at the 100's kontra.",
            names=names,
            simple=w.simple(),
        ),
    }[h.unannounced]
    blocks.append(w.para(text, "marriages.in_hundred_game.unannounced"))
    return blocks
