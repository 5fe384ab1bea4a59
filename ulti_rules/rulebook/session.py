"""The opening and closing sections: what these rules are, the Simple's special cases,
settling a hand, the end of a session, the sources."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..plugins import Registry
from ..ruleset.schema import Ruleset
from .document import Block, Items, Paragraph, Section
from .words import Words

if TYPE_CHECKING:
    from ..game.catalog import BidInfo


def _refs(value: Any) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else [str(item) for item in value]


def about(w: Words, raw: Mapping[str, Any] | None) -> Section:
    """What these rules are: the ruleset's title and name, and what it builds on."""
    r = w.ruleset
    blocks: list[Block] = [
        w.para(
            w._(
                "These are the rules of “{title}”, written out from the ruleset {name}.",
                title=r.title_in(w.lang),
                name=r.name,
            ),
            "name",
            "title",
        )
    ]
    if raw is not None:
        bases = _refs(raw.get("extends"))
        if bases:
            text = w._(
                "It builds on {bases}; this book gives the rules in force, everything merged.",
                bases=w.join(bases),
            )
        else:
            text = w._("The ruleset stands on its own: it builds on no other.")
        blocks.append(w.para(text, "extends"))
        added = _refs(raw.get("with"))
        if added:
            blocks.append(
                w.para(
                    w.ngettext(
                        "It adds the rule fragment {names}.",
                        "It adds the rule fragments {names}.",
                        len(added),
                        names=w.join(added),
                    ),
                    "with",
                )
            )
        dropped = _refs(raw.get("without"))
        if dropped:
            blocks.append(
                w.para(
                    w.ngettext(
                        "It leaves out the rule fragment {names} of the rules it builds on.",
                        "It leaves out the rule fragments {names} of the rules it builds on.",
                        len(dropped),
                        names=w.join(dropped),
                    ),
                    "without",
                )
            )
    blocks.append(
        w.para(
            w._(
                "Values are per defender: a component worth 4 that the declarer wins brings him "
                "4 from each defender."
            )
        )
    )
    return Section("about", w._("About these rules"), tuple(blocks))


def simple_game(w: Words) -> Section:
    s = w.ruleset.simple
    simple = w.simple()
    blocks: list[Block] = []
    if s.uncontested == "play":
        text = w._(
            "A plain {simple} that nobody overbid is played like any other bid.", simple=simple
        )
        blocks.append(w.para(text, "simple.uncontested"))
    else:
        text = w._(
            "A plain, non-red {simple} that nobody overbid, the declarer included, is lost double.",
            simple=simple,
        )
        if s.uncontested_played_out:
            # settled before play all the same (scoring: ``_forfeit_lines``): the lost
            # Simple times its kontra, no silent bonus; the engine plays it for the kontras
            text += " " + w._(
                "The hand is still played out, but the cards decide nothing: the loss is "
                "the same whatever the tricks, a kontra on the {simple} multiplies it as "
                "usual, and no silent bonus is scored.",
                simple=simple,
            )
        else:
            text += " " + w._("The hand is not played: it is settled at once.")
        blocks.append(w.para(text, "simple.uncontested", "simple.uncontested_played_out"))
    if giving_up_never_happens(w.ruleset, w.registry):
        # the same words whether giving up is allowed or not: `ulti diff` and `ulti check`
        # then find give_up_allowed and give_up_cost changing nothing here (``idle.py``)
        text = w._(
            "No declarer ever gives up: a plain, non-red {simple} bid alone, the only bid that "
            "could be given up, wins the auction only as the first bid, left standing, so it "
            "is always uncontested, and the hand ends with the auction, before the declarer "
            "has a turn.",
            simple=simple,
        )
        blocks.append(w.para(text, "simple.give_up_allowed", "simple.give_up_cost"))
    elif s.give_up_allowed and gives_up_only_as_forehand(w.ruleset, w.registry):
        text = w._(
            "The declarer of a plain, non-red {simple} bid alone may give up on his own turn "
            "before the first card; as forehand leads it and nobody names a trump after the "
            "auction, only a declarer who is forehand has that turn. He then pays {cost} to "
            "each defender.",
            simple=simple,
            cost=s.give_up_cost,
        )
        settings = ("simple.give_up_allowed", "simple.give_up_cost", "play.first_lead")
        blocks.append(w.para(text, *settings, "trump.named", "trump.fixed"))
    elif s.give_up_allowed:
        text = w._(
            "The declarer of a plain, non-red {simple} bid alone may give up before the first "
            "lead; he then pays {cost} to each defender.",
            simple=simple,
            cost=s.give_up_cost,
        )
        blocks.append(w.para(text, "simple.give_up_allowed", "simple.give_up_cost"))
    else:
        blocks.append(w.para(w._("A declarer may not give up his game."), "simple.give_up_allowed"))
    return Section(
        "simple", w._("Giving up and the uncontested {simple}", simple=simple), tuple(blocks)
    )


def _plain_simples(ruleset: Ruleset, registry: Registry) -> list[BidInfo]:
    """The bids that may be given up: each plain, non-red Simple bid alone that can win
    an auction (``BidInfo.plain_parti``, ``biddable``)."""
    from ..game import Game

    return [b for b in Game.of(ruleset, registry).catalog.ladder if b.plain_parti and b.biddable]


def giving_up_never_happens(ruleset: Ruleset, registry: Registry) -> bool:
    """Whether no declarer ever has a turn to give up, allowed or not: every plain Simple
    wins the auction only as the first bid, left standing, and is then lost double with
    the auction (``simple.lost_unplayed``): the engine ends the hand there, and `ulti
    score` refuses ``gave_up`` (``table_facts.only_uncontested``, the one test of it)."""
    if not ruleset.simple.lost_unplayed:
        return False
    from ..game import Game
    from ..scoring.table_facts import only_uncontested

    game = Game.of(ruleset, registry)
    simples = _plain_simples(ruleset, registry)
    return bool(simples) and all(only_uncontested(game, info) for info in simples)


def gives_up_only_as_forehand(ruleset: Ruleset, registry: Registry) -> bool:
    """Whether only a declarer who is forehand can give up any plain Simple
    (``Game.only_forehand_gives_up``, as `ulti score` judges a sheet)."""
    from ..game import Game

    game = Game.of(ruleset, registry)
    simples = _plain_simples(ruleset, registry)
    return bool(simples) and all(game.only_forehand_gives_up(info) for info in simples)


def settlement(w: Words) -> Section:
    blocks: list[Block] = [
        w.para(
            w._(
                "Each component, and each silent bonus, is settled on a line of its own: its "
                "value, doubled in a red bid, times its kontra multiplier, plus any penalty. "
                "The declarer can win one component and lose another in the same hand."
            )
        ),
        w.para(
            w._(
                "Each defender pays the declarer the sum of his lines, or is paid it; the "
                "declarer's result is the sum over both defenders, and the results always add "
                "up to zero."
            )
        ),
    ]
    two = w.ruleset.auction.two_round
    if two is not None and two.multiplier > 1:
        blocks.append(
            w.para(
                w._(
                    "A bid that stood from the first round counts {multiplier} times on the "
                    "lines of its components, penalties included; the silent bonuses' lines "
                    "do not.",
                    multiplier=two.multiplier,
                ),
                "auction.two_round.multiplier",
            )
        )
    if w.ruleset.players.count == 4:
        blocks.append(
            w.para(
                w._("The dealer who sits out pays and is paid as a third defender.")
                if w.ruleset.players.sitting_out_dealer_pays
                else w._("The dealer who sits out takes no part in the payments.")
            )
        )
    return Section("settlement", w._("Settling a hand"), tuple(blocks))


def session(w: Words) -> Section:
    s = w.ruleset.session
    if s.end == "none":
        text = w._(
            "Play as long as you like and keep a running total; whoever is ahead when you stop "
            "wins."
        )
    else:
        text = w._(
            "“The Ace of Hearts deals”: note who holds the Ace of Hearts when the next auction "
            "ends; when that player next deals, a last round of three hands is played, "
            "starting with his deal."
        )
    blocks: list[Block] = [w.para(text, "session.end")]
    if s.hands is not None:
        blocks.append(
            w.para(
                w.ngettext(
                    "A session is {n} hand; a redeal does not count.",
                    "A session is {n} hands; a redeal does not count.",
                    s.hands,
                ),
                "session.hands",
            )
        )
    return Section("session", w._("The end of a session"), tuple(blocks))


def sources(w: Words, listed: Sequence[str]) -> Section:
    if not listed:
        blocks: tuple[Block, ...] = (w.para(w._("The ruleset names no sources."), "sources"),)
    else:
        blocks = (
            w.para(w._("These rules follow:"), "sources"),
            Items(tuple(Paragraph(source) for source in listed)),
        )
    return Section("sources", w._("Sources"), blocks)
