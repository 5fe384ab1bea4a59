"""From what a table knows to Facts and a Contract, and back.

The score keeper's document (``sheet.py``) names players, suits and kontra levels
the way people say them; this module resolves them against the ruleset, checks
that the hand could have happened (``possible.py``), and builds the very Facts
and Contract the engine produces, so that a typed-in hand settles exactly like a
played one. ``sheet_from`` goes the other way, for records and tests.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cards import SUIT_OF_WORD, SuitId, suit_id
from ..contracts.base import MissingFact
from ..contracts.fact_specs import PLAYER, PLAYERS, CanDeal, FactSpec
from ..errors import Problem, RulesetError
from ..facts import Contract, Facts, FactValue, MarriageFact
from ..game import Game
from ..game.catalog import BidInfo, kontra_is_personal
from ..game.seating import build_seating, dealer_with_forehand
from ..plugins import Registry, get_registry, plugin_fault, printable
from ..quoting import shorten
from ..ruleset.hints import did_you_mean
from ..ruleset.loading import check_name, load_ruleset, locate, registry_of
from ..ruleset.references import OutsideReference, is_path
from ..ruleset.safe_yaml import KeyPath
from ..ruleset.schema import Bid, Ruleset
from ..said import Named, Said, said_of
from .possible import TRICKS, can_deal, did_not_play, impossibilities, suit_named, trick_total
from .settlement import Settlement, SettlementError, decided_before_play
from .sheet import BidByComponents, Sheet, SheetError, Where, read_sheet, sheet_facts

DECLARER_WORD = "declarer"
DEFENDERS_WORD = "defenders"
_IMPOSSIBLE_AT: dict[str, KeyPath] = {
    "points": ("points",),
    "tricks": ("tricks",),
    "last_trick": ("last_trick",),
    "trump_seven": ("last_trick", "trump_seven"),
    "trump_seven_early": ("trump_seven_early",),
    "marriages": ("marriages",),
}
_PLAY_KEYS = ("points", "tricks", "durchmars", "last_trick")
"""The keys that say how a hand was played."""
_POINTS_REFUSED = frozenset({"points", "tricks", "last_trick"})
"""Problems after which no deal of the cards is asked about (``possible.can_deal``)."""


@dataclass(init=False)
class TableHand:
    """A typed-in hand resolved against the game of its ruleset."""

    game: Game
    players: list[str]
    contract: Contract
    facts: Facts | None = None
    where: Where | None = None
    """The sheet it was read from: a fact judging needs and the sheet lacks is then a
    SheetError naming the key to add."""

    def __init__(
        self,
        game: Game | Ruleset | None = None,
        players: list[str] | None = None,
        contract: Contract | None = None,
        facts: Facts | None = None,
        where: Where | None = None,
        *,
        ruleset: Ruleset | None = None,
    ) -> None:
        if ruleset is not None and game is not None:
            raise TypeError("TableHand takes a game or (deprecated) a ruleset, not both")
        if ruleset is not None or isinstance(game, Ruleset):  # as a TableHand was made once
            warnings.warn(
                "TableHand takes the Game of its ruleset now: pass Game.of(ruleset)",
                DeprecationWarning,
                stacklevel=2,
            )
            game = Game.of(ruleset if ruleset is not None else game)  # type: ignore[arg-type]
        if not isinstance(game, Game) or players is None or contract is None:
            raise TypeError("TableHand needs a game, the players and the contract")
        self.game, self.players, self.contract = game, players, contract
        self.facts, self.where = facts, where

    @property
    def ruleset(self) -> Ruleset:
        return self.game.ruleset

    def name(self, seat: int) -> str:
        return self.players[seat] if 0 <= seat < len(self.players) else f"seat {seat}"

    def settle(self, registry: Registry | None = None) -> Settlement:
        """Settle the hand by its game (``registry``, if given, must be the game's); read
        from a sheet, what settlement refuses is said as a problem of the sheet (its file
        named), never as a bare sentence."""
        game = Game.of(self.game, registry)
        try:
            return game.settle(self.contract, self.facts)
        except MissingFact as exc:
            if self.where is None:
                raise
            said = missing_fact_said(exc, game.registry)
            raise SheetError([self.where.problem((), said)]) from None
        except SettlementError as exc:
            if self.where is None:
                raise
            raise SheetError([self.where.problem((), said_of(exc))]) from None


_SHEET_KEY_OF_FACT = {"trump_seven_last_trick": "last_trick"}
"""Core facts judging may find missing, by the sheet key that gives them."""


def first_bid_only(game: Game, info: BidInfo) -> bool:
    """Whether ``info`` can win the auction only as the first bid, left standing.

    That is a plain Simple no biddable bid ranks below: an overcall must rank strictly
    higher (``can_overcall``), so a bid of equal rank can come neither before nor after
    it. In a two-round auction it holds where round 2 overcalls by rank (a round-1 Simple
    is confirmed, not bid again); by value (``two_round.overcall_by: value``) a round-2
    bid is measured against the round-1 bid's value, so a Simple might follow one.
    """
    two = game.ruleset.auction.two_round
    return (
        info.plain_parti
        and (two is None or two.overcall_by == "rank")
        and not any(b.biddable and b.bid.rank < info.bid.rank for b in game.catalog.ladder)
    )


def only_uncontested(game: Game, info: BidInfo) -> bool:
    """Whether ``info`` can win the auction only as the first bid, left standing
    (:func:`first_bid_only`), and is then lost double as an uncontested Simple
    (``simple.uncontested: lose_double``): a sheet that settles it from its cards
    describes a hand that cannot happen."""
    return game.ruleset.simple.uncontested == "lose_double" and first_bid_only(game, info)


def missing_fact_said(exc: MissingFact, registry: Registry) -> str:
    """What judging missed, and ``; add 'aces:' to the document ...``: the sheet key that
    gives the missing fact, where one does (what judging missed as it said it)."""
    problem = said_of(exc)
    spec = registry.facts.get(exc.fact or "")
    if spec is not None:
        return Said(
            "{problem}; add '{key}:' to the document ({description}, written like "
            "{key}: {example}; see docs/score-keeper.md)",
            problem=problem,
            key=spec.sheet_key,
            description=Said(spec.description),  # a kind's N_-marked words, translated
            example=spec.form.example,
        )
    key = _SHEET_KEY_OF_FACT.get(exc.fact or "")
    if key:
        return Said(
            "{problem}; add '{key}:' to the document (docs/score-keeper.md)",
            problem=problem,
            key=key,
        )
    return problem


@dataclass
class _Reader:
    """Resolves one sheet, collecting every problem before giving up."""

    sheet: Sheet
    where: Where
    game: Game
    problems: list[Problem] = field(default_factory=list)
    sat_out_tricks: int = 0
    """Tricks the sheet gives a player who sat out (refused at his name)."""

    @property
    def ruleset(self) -> Ruleset:
        return self.game.ruleset

    @property
    def registry(self) -> Registry:
        return self.game.registry

    def fail(self, path: KeyPath, message: str) -> None:
        self.problems.append(self.where.problem(path, message))

    def stop_if_failed(self) -> None:
        if self.problems:
            raise SheetError(self.problems)

    # ------------------------------------------------------------------ players

    def players(self) -> list[str]:
        count = self.ruleset.players.count
        names = self.sheet.players or [f"P{i + 1}" for i in range(count)]
        if len(names) != count:
            self.fail(
                ("players",),
                Said(
                    "the ruleset '{ruleset}' is for {count} players, not {given}",
                    ruleset=self.ruleset.name,
                    count=count,
                    given=len(names),
                ),
            )
        if len(set(names)) != len(names):
            self.fail(("players",), Said("every player needs a different name"))
        return names

    def seat(
        self, name: str, path: KeyPath, names: list[str], *, declarer: int | None = None
    ) -> int | None:
        if name in names:
            return names.index(name)
        if name == DECLARER_WORD and declarer is not None:
            return declarer
        self.fail(
            path,
            Said(
                "'{name}' is not a player ({players}){hint}",
                name=name,
                players=", ".join(names),
                hint=did_you_mean(name, names),
            ),
        )
        return None

    def check_names(self, names: list[str]) -> None:
        """Every player the sheet names outside ``declarer``, checked on its own: where the
        declarer cannot be read the facts are not built, and a misspelt name elsewhere
        would otherwise show only once the declarer is mended. The words ``declarer`` and
        ``defenders`` stand for players and are left to the full reading."""
        sheet = self.sheet
        named: list[tuple[str, KeyPath]] = [(who, ("tricks", who)) for who in sheet.tricks or {}]
        if sheet.last_trick is not None:
            named.append((sheet.last_trick.winner, ("last_trick", "winner")))
            if sheet.last_trick.trump_seven is not None:
                named.append((sheet.last_trick.trump_seven, ("last_trick", "trump_seven")))
        for key in ("durchmars", "trump_seven_early"):
            if isinstance(getattr(sheet, key), str):
                named.append((getattr(sheet, key), (key,)))
        named += [(who, ("marriages", who)) for who in sheet.marriages]
        for cid, given in sheet.kontra.items():  # a level per defender: {ulti: {Ben: 1}}
            if isinstance(given, dict):
                named += [(who, ("kontra", cid, who)) for who in given]
        for key, spec in self.declared_specs().items():
            given = sheet.declared[key]
            if spec.form is PLAYERS and given is not None:
                named += [(who, (key, i)) for i, who in enumerate(given)]
        for who, path in named:
            if who not in (DECLARER_WORD, DEFENDERS_WORD):
                self.seat(who, path, names)

    # ------------------------------------------------------------------ bid, trump

    def bid(self) -> Bid | None:
        found = self._named_bid()
        if found is None:
            return None
        if not self.game.bid(found.id).biddable:
            least = self.ruleset.auction.min_components
            self.fail(
                ("bid",),
                Said(
                    "'{bid}' cannot have won the auction: every bid of '{ruleset}' has at "
                    "least {least} components (auction.min_components), and it has {count}",
                    bid=found.id,
                    ruleset=self.ruleset.name,
                    least=least,
                    count=len(found.components),
                ),
            )
            return None
        return found

    def _named_bid(self) -> Bid | None:
        wanted = self.sheet.bid
        ladder = self.ruleset.ladder
        if isinstance(wanted, BidByComponents):
            written = wanted.components
            twice = [i for i, cid in enumerate(written) if cid in written[:i]]
            for i in twice:
                self.fail(
                    ("bid", "components", i),
                    Said(
                        "'{component}' is written twice: a bid has each component once "
                        "(the implied Parti too)",
                        component=shorten(written[i]),
                    ),
                )
            if twice:
                return None
            for bid in ladder:
                if set(bid.components) == set(wanted.components) and bid.red == wanted.red:
                    return bid
            values = {"ruleset": self.ruleset.name, "components": ", ".join(wanted.components)}
            if wanted.red:
                said = Said(
                    "no red bid of '{ruleset}' has exactly the components {components}", **values
                )
            else:
                said = Said(
                    "no bid of '{ruleset}' has exactly the components {components}", **values
                )
            self.fail(("bid",), said)
            return None
        for bid in ladder:
            if bid.id == wanted:
                return bid
        folded = wanted.strip().casefold()
        for bid in ladder:
            spoken = [bid.names.hu, bid.names.en, bid.names.de or "", *bid.aliases]
            if folded in (s.casefold() for s in spoken):
                return bid
        spaced = folded.replace("_", " ")  # a name written like an id: ulti_hearts
        named = [b for b in ladder if spaced in (b.names.en.casefold(), b.names.hu.casefold())]
        options = [named[0].id] if named else [b.id for b in ladder]
        hint = did_you_mean(named[0].id if named else wanted, options)
        self.fail(
            ("bid",),
            Said(
                "'{bid}' is not a bid of '{ruleset}'{hint}; `ulti ladder` lists them",
                bid=shorten(wanted),
                ruleset=self.ruleset.name,
                hint=hint,
            ),
        )
        return None

    def trump(self, bid: Bid) -> SuitId | None:
        """The hand's trump, as the sheet says it or as the bid fixes it. Which trumps a
        bid may have is the catalogue's (``BidInfo.suits``, as the engine asks it); this
        only says in words why another one is wrong."""
        info = self.game.bid(bid.id)
        kind = info.trump
        allowed = [suit_id(s) for s in info.suits]
        given = self.sheet.trump
        suit: SuitId | None = None
        if given is not None:
            suit = SUIT_OF_WORD.get(given.strip().casefold())
            if suit is None:
                hint = did_you_mean(given.strip(), SUIT_OF_WORD)
                self.fail(
                    ("trump",),
                    Said(
                        "'{given}' is not a suit (acorns, leaves, hearts, bells; or makk, zöld, "
                        "piros, tök){hint}",
                        given=shorten(given),
                        hint=hint,
                    ),
                )
                return None
        if kind == "none":
            if suit is not None:
                self.fail(
                    ("trump",),
                    Said("'{bid}' is played without trumps; leave trump out", bid=bid.id),
                )
            return None
        if kind == "red":
            (red,) = allowed  # the red suit, the only trump of a red bid
            if suit is not None and suit != red:
                self.fail(
                    ("trump",),
                    Said("'{bid}' is a red bid: trump is {suit}", bid=bid.id, suit=suit_named(red)),
                )
            return red
        fixed = allowed[0] if len(allowed) == 1 else None  # no suit to name: always this one
        if suit is not None and fixed is not None and suit != fixed:
            self.fail(
                ("trump",),
                Said(
                    "trump is always {fixed} in '{ruleset}', not {suit}",
                    fixed=suit_named(fixed),
                    ruleset=self.ruleset.name,
                    suit=suit_named(suit),
                ),
            )
            return None
        if suit is None:
            suit = fixed
        sheet = self.sheet
        before_play = decided_before_play(self.ruleset, sheet.gave_up, sheet.uncontested)
        if suit is None and (
            before_play or self.uncontested_in_vain() or self.uncontested_unsaid(bid)
        ):
            return None  # (a flag that says nothing here is refused at its key instead)
        if suit is None:
            self.fail(
                ("trump",) if given is not None else ("bid",),
                Said(
                    "'{bid}' is a trump bid: say which suit was trump (trump: acorns)", bid=bid.id
                ),
            )
        elif suit not in allowed:  # the red suit, where only a red bid makes it trump
            red = self.ruleset.trump.red_suit
            self.fail(
                ("trump",),
                Said(
                    "{suit} is trump only in a red bid here; '{bid}' is not red",
                    suit=suit_named(red),
                    bid=bid.id,
                ),
            )
        return suit

    def played(self) -> bool:
        """Whether the sheet says how the hand was played."""
        return any(getattr(self.sheet, key) is not None for key in _PLAY_KEYS)

    def uncontested_in_vain(self) -> bool:
        """``uncontested: true`` with nothing of the play, under rules that play an
        uncontested Simple out (``simple.uncontested: play``): the table believes the hand
        was decided before play, and here it was not (unless it was given up)."""
        sheet = self.sheet
        return (
            sheet.uncontested
            and not sheet.gave_up
            and self.ruleset.simple.uncontested != "lose_double"
            and not self.played()
        )

    def check_uncontested(self) -> None:
        if self.uncontested_in_vain():
            self.fail(
                ("uncontested",),
                Said(
                    "'{ruleset}' plays an uncontested Simple out like any other "
                    "(simple.uncontested: play), so uncontested changes nothing here: leave it "
                    "out, and write how the hand was played (trump, points, tricks, last_trick)",
                    ruleset=self.ruleset.name,
                ),
            )

    def check_before_play(self, bid: Bid, kontra: dict[str, dict[int, int]]) -> None:
        """``gave_up`` and ``uncontested`` where the rules or the bid give them no
        meaning, said at their keys (settlement would refuse them with no position)."""
        sheet, simple = self.sheet, self.ruleset.simple
        plain = self.game.bid(bid.id).plain_parti
        called = any(any(levels.values()) for levels in kontra.values())
        name = self.ruleset.name
        if (
            sheet.gave_up
            and simple.give_up_allowed
            and simple.lost_unplayed
            and self.only_uncontested(bid)
        ):
            self.fail(  # the engine ends such a hand with the auction: no turn to give up
                ("gave_up",),
                Said(
                    "a plain Simple ('{bid}') wins the auction in '{ruleset}' only as the first "
                    "bid, left standing, so it is uncontested, and lost double before any card "
                    "is played (simple.uncontested_played_out: false): the declarer never has "
                    "a turn to give up; write uncontested: true instead of gave_up",
                    ruleset=name,
                    bid=bid.id,
                ),
            )
        elif sheet.gave_up and not simple.give_up_allowed and self.only_uncontested(bid):
            self.fail(  # "write how it was played" was refused next: it never was
                ("gave_up",),
                Said(
                    "'{ruleset}' does not allow giving up (simple.give_up_allowed: false), "
                    "and a plain Simple ('{bid}') wins the auction there only as the first "
                    "bid, left standing, so it is lost double as uncontested: write "
                    "uncontested: true instead of gave_up",
                    ruleset=name,
                    bid=bid.id,
                ),
            )
        elif sheet.gave_up and not simple.give_up_allowed:
            self.fail(
                ("gave_up",),
                Said(
                    "'{ruleset}' does not allow giving up (simple.give_up_allowed: false): "
                    "leave gave_up out, and write how the hand was played",
                    ruleset=name,
                ),
            )
        elif sheet.gave_up and not plain:
            self.fail(
                ("gave_up",),
                Said(
                    "only a plain, non-red, uncombined Simple may be given up, not '{bid}'",
                    bid=bid.id,
                ),
            )
        elif sheet.gave_up and called:
            self.fail(
                ("kontra",), Said("a hand given up before the first lead cannot carry a kontra")
            )
        elif sheet.uncontested and plain and called and simple.lost_unplayed:
            self.fail(
                ("kontra",),
                Said(
                    "under '{ruleset}' an uncontested Simple is lost double before any card is "
                    "played (simple.uncontested_played_out: false), and kontras are called at "
                    "the first trick: leave kontra out",
                    ruleset=name,
                ),
            )
        if sheet.uncontested and not plain:
            self.fail(
                ("uncontested",),
                Said(
                    "'uncontested' is about a plain, non-red Simple nobody overbid, not "
                    "'{bid}': leave it out",
                    bid=bid.id,
                ),
            )

    def check_uncontested_round_one(self, bid: Bid) -> None:
        """An uncontested Simple is the first bid, left standing, and so is a plain Simple
        that only the first bid can be (:func:`first_bid_only`, played out or not); where
        round 1 of a two-round auction cannot be passed out, the first bid is a round-1 bid
        and counts double (the engine's multiplier): without ``round_one`` it was paid half."""
        sheet = self.sheet
        two = self.ruleset.auction.two_round
        if sheet.round_one or two is None or not two.opener_must_bid or two.multiplier == 1:
            return
        game = self.game
        if not sheet.uncontested and not first_bid_only(game, game.bid(bid.id)):
            return
        if self.uncontested_unsaid(bid):
            return  # "write uncontested: true" comes first, alone, at the bid
        given = sheet.model_fields_set
        at = "round_one" if "round_one" in given else "uncontested" if sheet.uncontested else "bid"
        self.fail(
            (at,),
            Said(
                "round 1 of the two-round auction cannot be passed out in '{ruleset}' "
                "(auction.two_round.opener_must_bid), so a Simple nobody overbid is the "
                "round-1 opening bid, left standing, and counts ×{times}: write "
                "round_one: true",
                ruleset=self.ruleset.name,
                times=two.multiplier,
            ),
        )

    def only_uncontested(self, bid: Bid) -> bool:
        """:func:`only_uncontested` of the sheet's bid."""
        game = self.game
        return only_uncontested(game, game.bid(bid.id))

    def uncontested_unsaid(self, bid: Bid) -> bool:
        """A plain Simple that can only have been left standing uncontested
        (:func:`only_uncontested`), written without ``uncontested: true`` and not given up:
        settled from its cards, it would be paid as a hand that cannot happen."""
        sheet = self.sheet
        if sheet.uncontested or sheet.gave_up:
            return False
        return self.only_uncontested(bid)

    def check_uncontested_said(self, bid: Bid) -> None:
        """Refuse a plain Simple the rules lose double where the sheet does not say so, at
        ``uncontested`` if it is written (false), else at ``bid``."""
        if not self.uncontested_unsaid(bid):
            return
        written = "uncontested" in self.sheet.model_fields_set
        values = {"bid": bid.id, "ruleset": self.ruleset.name}
        if self.ruleset.simple.uncontested_played_out:
            said = Said(
                "a plain Simple ('{bid}') wins the auction in '{ruleset}' only as the first bid, "
                "left standing (no bid ranks below it), so it is always uncontested, and lost "
                "double whatever the cards say (simple.uncontested: lose_double): write "
                "uncontested: true",
                **values,
            )
        else:
            said = Said(
                "a plain Simple ('{bid}') wins the auction in '{ruleset}' only as the first bid, "
                "left standing (no bid ranks below it), so it is always uncontested, and lost "
                "double without being played (simple.uncontested: lose_double): write "
                "uncontested: true, and leave out how it was played (trump, points, tricks, "
                "last_trick ...)",
                **values,
            )
        self.fail(("uncontested",) if written else ("bid",), said)

    def check_give_up_turn(
        self, names: list[str], seats: list[int], declarer: int, bid: Bid
    ) -> None:
        """A declarer gives up on his own turn before the first card: naming the trump, or
        leading. Where the trump is not named after the auction (a fixed trump, or named in
        the bid) and forehand leads (``play.first_lead: forehand``), a declarer who is not
        forehand has no such turn, and the engine never lets him give up."""
        ruleset = self.ruleset
        if not self.sheet.gave_up or declarer == seats[0]:
            return
        game = self.game
        if not game.only_forehand_gives_up(game.bid(bid.id)):
            return
        self.fail(
            ("gave_up",),
            Said(
                "in '{ruleset}' forehand leads the first card (play.first_lead: forehand) and "
                "the trump is not named after the auction, so the declarer gives up only as "
                "forehand, before his lead: with {dealer} dealing, {forehand} is forehand, "
                "not {declarer}",
                ruleset=ruleset.name,
                dealer=self.sheet.dealer,
                forehand=names[seats[0]],
                declarer=names[declarer],
            ),
        )

    def check_uncontested_opener(
        self, names: list[str], seats: list[int], declarer: int, bid: Bid
    ) -> None:
        """An uncontested Simple is forehand's opening bid left standing (docs/rules.md, The
        uncontested Simple) wherever the opener must bid: another declarer cannot be. So is
        a plain Simple that wins the auction only as the first bid (:func:`first_bid_only`),
        written uncontested or not (``older-20-100`` plays it out, and does not ask)."""
        auction = self.ruleset.auction
        two = auction.two_round
        opener_bids = auction.opener_must_bid or auction.opener_pass_is_simple
        if not opener_bids or (two and not two.opener_must_bid) or declarer == seats[0]:
            return
        values = {
            "dealer": self.sheet.dealer,
            "forehand": names[seats[0]],
            "declarer": names[declarer],
        }
        if self.sheet.uncontested:
            said = Said(
                "an uncontested Simple is forehand's opening bid, left standing: with "
                "{dealer} dealing, {forehand} is forehand and bid first (the opener must "
                "bid here), not {declarer}",
                **values,
            )
        elif first_bid_only(game := self.game, game.bid(bid.id)):
            said = Said(
                "a plain Simple ('{bid}') wins the auction in '{ruleset}' only as the first "
                "bid, left standing (no bid ranks below it), which is forehand's: with "
                "{dealer} dealing, {forehand} is forehand and bid first (the opener must "
                "bid here), not {declarer}",
                bid=bid.id,
                ruleset=self.ruleset.name,
                **values,
            )
        else:
            return
        self.fail(("declarer",), said)

    # ------------------------------------------------------------------ kontra

    def level(self, text: str, path: KeyPath) -> int | None:
        """A level by number (ASCII digits only: '²' is no number) or by name, within the
        ruleset's cap (``max_level``, else the framework's limit)."""
        kontra = self.ruleset.kontra
        cap = kontra.level_cap
        names = [lvl.names.named() for lvl in kontra.levels[:cap]]  # the ones it may call
        # a hint chooses among every name a level within the cap is known by: a Hungarian
        # table's typo is closest to a Hungarian name, not to an English one
        spoken = [
            n
            for lvl in kontra.levels[:cap]
            for n in (lvl.names.hu, lvl.names.en, lvl.names.de)
            if n
        ]
        stripped = text.strip()
        if stripped.isascii() and stripped.isdigit():
            digits = stripped.lstrip("0") or "0"
            if len(digits) <= 3 and int(digits) <= cap:
                return int(digits)
            self.fail(path, self._beyond(digits, kontra.max_level is not None))
            return None
        folded = stripped.casefold()
        for i, level in enumerate(kontra.levels, start=1):
            if folded in (
                n.casefold() for n in (level.names.hu, level.names.en, level.names.de) if n
            ):
                if i > cap:
                    self.fail(
                        path,
                        Said(
                            "{level} is kontra level {number}; '{ruleset}' allows levels 0 "
                            "(none) to {cap} (its max_level)",
                            level=level.names.named(),
                            number=i,
                            ruleset=self.ruleset.name,
                            cap=cap,
                        ),
                    )
                    return None
                return i
        hint = did_you_mean(stripped, spoken)
        listed = Named(
            ", ".join(names),
            {lang: ", ".join(n.in_language(lang) for n in names) for lang in ("hu", "de")},
        )
        self.fail(
            path,
            Said(
                "'{given}' is not a kontra level: write a number (0 = none, 1 = {first}, ... up "
                "to {cap}) or one of {levels}{hint}",
                given=shorten(text),
                first=names[0] if names else "kontra",
                cap=cap,
                levels=listed,
                hint=hint,
            ),
        )
        return None

    def _beyond(self, digits: str, capped: bool) -> Said:
        """A kontra level number beyond the ruleset's cap (``capped``: its own max_level)."""
        values = {
            "level": digits,
            "ruleset": self.ruleset.name,
            "cap": self.ruleset.kontra.level_cap,
        }
        if len(digits) > 12 and capped:
            return Said(
                "kontra level of more than 12 digits is beyond what '{ruleset}' allows: "
                "0 (none) to {cap} (its max_level)",
                **values,
            )
        if len(digits) > 12:
            return Said(
                "kontra level of more than 12 digits is beyond what '{ruleset}' allows: "
                "0 (none) to {cap} (no ruleset goes higher)",
                **values,
            )
        if capped:
            return Said(
                "kontra level {level} is beyond what '{ruleset}' allows: 0 (none) to {cap} "
                "(its max_level)",
                **values,
            )
        return Said(
            "kontra level {level} is beyond what '{ruleset}' allows: 0 (none) to {cap} "
            "(no ruleset goes higher)",
            **values,
        )

    def kontra(self, bid: Bid, names: list[str], defenders: list[int]) -> dict[str, dict[int, int]]:
        out: dict[str, dict[int, int]] = {}
        for cid, given in self.sheet.kontra.items():
            path: KeyPath = ("kontra", cid)
            if cid not in bid.components:
                self.fail(
                    path,
                    Said(
                        "'{component}' is not a component of '{bid}' ({components})",
                        component=shorten(cid),
                        bid=bid.id,
                        components=", ".join(bid.components),
                    ),
                )
                continue
            spec = self.ruleset.contracts[cid]
            personal = kontra_is_personal(self.ruleset, self.registry.kinds[spec.kind], spec)
            levels: dict[int, int] = {}
            if isinstance(given, str):
                level = self.level(given, path)
                if level is not None:
                    levels = dict.fromkeys(defenders, level)
            else:
                for who, text in given.items():
                    seat = self.seat(who, (*path, who), names)
                    level = self.level(text, (*path, who))
                    if seat is None or level is None:
                        continue
                    if seat not in defenders:
                        self.fail(
                            (*path, who),
                            Said(
                                "{player} is not a defender; only defenders' kontra levels "
                                "are written per player",
                                player=who,
                            ),
                        )
                        continue
                    levels[seat] = level
                if not personal and levels:
                    # One chain binds both: a defender at 0 called nothing and is bound
                    # by the other's call ({Ben: 1, Carla: 0} is Ben's kontra, for both).
                    called = {level for level in levels.values() if level}
                    if len(called) > 1:
                        self.fail(
                            path,
                            Said(
                                "a kontra on '{component}' binds both defenders here, so their "
                                "levels cannot differ: write the one level it reached, e.g. "
                                "{{{component}: {level}}} (0 or no entry for a defender who "
                                "called nothing)",
                                component=cid,
                                level=max(called),
                            ),
                        )
                        continue
                    levels = dict.fromkeys(defenders, max(levels.values()))
            if any(levels.values()):
                out[cid] = {s: levels.get(s, 0) for s in defenders} if personal else levels
        return out

    # ------------------------------------------------------------------ facts

    def facts(
        self, names: list[str], declarer: int, seats: list[int], trump: SuitId | None, bid: Bid
    ) -> Facts | None:
        sheet = self.sheet
        played = [k for k in _PLAY_KEYS if getattr(sheet, k) is not None]
        if sheet.gave_up:  # settled as given up, the play facts would be read by nobody
            said = played + [
                key
                for key, given in (
                    ("trump_seven_early", sheet.trump_seven_early),
                    ("marriages", sheet.marriages),
                    *sheet.declared.items(),
                )
                if given not in (None, {}, [])
            ]
            if said:
                self.fail(
                    (said[0],),
                    Said(
                        "the hand was given up before the first lead, so it has no {key}: "
                        "leave out the play ({keys}), or gave_up",
                        key=said[0],
                        keys=", ".join(said),
                    ),
                )
            return None
        if not played:
            return None
        for key in ("points", "last_trick"):
            if getattr(sheet, key) is None and not (key == "last_trick" and sheet.durchmars):
                self.fail(
                    (),
                    Said(
                        "missing: {key} is needed for a hand that was played "
                        "(see docs/score-keeper.md)",
                        key=key,
                    ),
                )
        if sheet.tricks is None and sheet.durchmars is None:
            self.fail(
                (),
                Said("missing: tricks (tricks per player) is needed for a hand that was played"),
            )
        self.stop_if_failed()
        tricks = self.tricks(names, seats)
        assert sheet.points is not None
        winner = None
        if sheet.last_trick is not None:
            winner = self.seat(
                sheet.last_trick.winner, ("last_trick", "winner"), names, declarer=declarer
            )
        elif sheet.durchmars is not None:
            winner = self.seat(sheet.durchmars, ("durchmars",), names, declarer=declarer)
        seven_last = seven_early = None
        if sheet.last_trick is not None and sheet.last_trick.trump_seven is not None:
            seven_last = self.seat(
                sheet.last_trick.trump_seven,
                ("last_trick", "trump_seven"),
                names,
                declarer=declarer,
            )
        if sheet.trump_seven_early is not None:
            seven_early = self.seat(
                sheet.trump_seven_early, ("trump_seven_early",), names, declarer=declarer
            )
        marriages = self.marriages(names, declarer, seats, trump)
        declared = self.declared(names, declarer)
        if winner is None:  # a failure was recorded; nothing sound to check further
            self.stop_if_failed()
        assert winner is not None
        # Facts are built and checked even after an earlier failure, so that a table sees
        # every contradiction in one run; the caller stops before settling.
        facts = Facts(
            seats=seats,
            declarer=declarer,
            trump=trump,
            tricks_won=tricks,
            declarer_points=sheet.points.declarer,
            defender_points=sheet.points.defenders,
            talon_points=sheet.points.talon,
            marriages=marriages,
            last_trick_winner=winner,
            trump_seven_last_trick=seven_last,
            trump_seven_early=seven_early,
            extra=declared,
        )
        issues = impossibilities(facts, self.ruleset, lambda s: names[s], bid)
        total = sum(facts.tricks_won.values())
        if self.sat_out_tricks and total + self.sat_out_tricks == TRICKS:
            # the ten written, with the sitting-out dealer's: that one line says it
            issues = [
                i for i in issues if not (i.topic == "tricks" and i.message == trick_total(total))
            ]
        for issue in issues:
            at = _IMPOSSIBLE_AT[issue.topic]
            if issue.topic == "trump_seven" and sheet.last_trick is None:
                at = ("trump_seven_early",)
            if issue.topic == "tricks" and sheet.tricks is None:
                at = ("durchmars",)
            self.fail(at, issue.message)
        dealable = not self.sat_out_tricks and not any(
            issue.topic in _POINTS_REFUSED for issue in issues
        )
        self.check_declared(facts, names, dealable=dealable)
        return facts

    def declared_specs(self) -> dict[str, FactSpec[Any]]:
        """The declared facts the sheet gives, by sheet key (shape-checked by Sheet)."""
        specs = sheet_facts(self.registry)
        return {key: specs[key] for key in self.sheet.declared if key in specs}

    def undeclared(self) -> None:
        """A key the sheet was read with that no kind of this reader's registry declares
        (a sheet read under other plugins than it is settled with)."""
        specs = sheet_facts(self.registry)
        for key in self.sheet.declared:
            if key not in specs:
                self.fail(
                    (key,),
                    Said("unknown key '{key}': no installed contract kind declares it", key=key),
                )

    def declared(self, names: list[str], declarer: int) -> dict[str, FactValue]:
        """The declared facts the sheet gives (Four Aces' ``aces``), names made seats."""
        self.undeclared()
        values: dict[str, FactValue] = {}
        for key, spec in self.declared_specs().items():
            given = self.sheet.declared[key]
            if spec.form is PLAYERS and given is not None:
                seats: list[int] = []
                for i, who in enumerate(given):
                    seat = self.seat(who, (key, i), names, declarer=declarer)
                    if seat is None:
                        continue
                    if seat in seats:  # kept: the kind's check counts them too (a fifth ace)
                        self.fail((key, i), _twice(who, names[seat], key))
                    seats.append(seat)
                values[spec.name] = tuple(seats)
            elif spec.form is PLAYER:
                seat = None if given is None else self.seat(given, (key,), names, declarer=declarer)
                if given is None or seat is not None:
                    values[spec.name] = seat
            elif given is not None:
                values[spec.name] = given
        return values

    def check_declared(self, facts: Facts, names: list[str], *, dealable: bool = True) -> None:
        """Every seat a declared fact names played the hand, and the kind's own check
        (no fifth ace; the aces' points within the card points) holds.

        The check is handed what it takes of ``ruleset`` and ``can_deal``
        (``FactSpec.problems``); ``can_deal`` is None unless ``dealable``: where the card
        points, tricks or last trick are refused already, no deal can be asked about."""
        ruleset = self.ruleset
        deal: CanDeal | None = None
        if dealable:

            def deal(held: Mapping[str, tuple[int, int, int]]) -> bool:
                return can_deal(facts, ruleset, held)

        for key, spec in self.declared_specs().items():
            if spec.name not in facts.extra:
                continue
            value = facts.extra[spec.name]
            for seat in sorted(set(spec.form.seats(value))):
                if seat not in facts.seats:
                    self.fail((key,), did_not_play(names[seat]))
            if spec.check is None:
                continue
            try:
                said = spec.problems(
                    value, facts, lambda s: names[s], ruleset=ruleset, can_deal=deal
                )
                # a Said is said in the table's language; any text a plugin gives is made
                # safe for the terminal, and a Said that would change is shown as text
                found = [
                    m if isinstance(m, Said) and printable(m) == m else printable(str(m))
                    for m in said
                ]
            except (Exception, SystemExit) as exc:
                owner = self.registry.fact_owner(spec.name)
                raise plugin_fault(f"fact '{spec.name}'", owner, exc, "check") from exc
            for message in found:
                self.fail((key,), message)

    def tricks(self, names: list[str], seats: list[int]) -> dict[int, int]:
        sheet = self.sheet
        tricks = dict.fromkeys(seats, 0)
        if sheet.tricks is not None:
            for who, count in sheet.tricks.items():
                seat = self.seat(who, ("tricks", who), names)
                if seat is None:
                    continue
                if seat not in seats:
                    self.fail(
                        ("tricks", who),
                        Said("{player} sat out this hand and took no trick", player=who),
                    )
                    self.sat_out_tricks += count
                    continue
                tricks[seat] = count
        if sheet.durchmars is not None:
            seat = self.seat(sheet.durchmars, ("durchmars",), names)
            if seat is not None and seat not in seats:
                self.fail(("durchmars",), _sat_out(sheet.durchmars))
            elif seat is not None and sheet.tricks is None:
                tricks[seat] = 10
            elif seat is not None and tricks[seat] != 10:
                lost = ", ".join(f"{names[s]} {n}" for s, n in tricks.items() if s != seat and n)
                values = {"player": sheet.durchmars, "count": tricks[seat], "others": lost}
                if lost:
                    said = Said(
                        "{player} took every trick (a durchmars), but tricks gives {player} "
                        "{count} and {others}",
                        **values,
                    )
                else:
                    said = Said(
                        "{player} took every trick (a durchmars), but tricks gives {player} "
                        "{count}",
                        **values,
                    )
                self.fail(("durchmars",), said)
        return tricks

    def marriages(
        self, names: list[str], declarer: int, seats: list[int], trump: SuitId | None
    ) -> list[MarriageFact]:
        found = []
        defenders = [s for s in seats if s != declarer]
        for who, suits in self.sheet.marriages.items():
            path: KeyPath = ("marriages", who)
            seat = (
                defenders[0]
                if who == DEFENDERS_WORD and who not in names
                else self.seat(who, path, names, declarer=declarer)
            )
            if seat is None:
                continue
            if seat not in seats:
                self.fail(path, _sat_out(who))
                continue
            for i, word in enumerate(suits):
                suit = SUIT_OF_WORD.get(word.strip().casefold())
                if suit is None:
                    hint = did_you_mean(word.strip(), SUIT_OF_WORD)
                    self.fail(
                        (*path, i),
                        Said("'{given}' is not a suit{hint}", given=shorten(word), hint=hint),
                    )
                    continue
                m = self.ruleset.marriages
                value = m.trump_value if suit == trump else m.plain_value
                found.append(MarriageFact(seat=seat, suit=suit, value=value))
        return found


def _sat_out(player: str) -> Said:
    return Said("{player} sat out this hand", player=player)


def _twice(written: str, player: str, key: str) -> Said:
    """A player written twice in a declared fact (``aces``), by his name or as a word that
    stands for him (``declarer``)."""
    if written == player:
        return Said("{player} is in {key} twice: write each name once", player=player, key=key)
    return Said(
        "'{written}' ({player}) is in {key} twice: write each name once",
        written=written,
        player=player,
        key=key,
    )


def ruleset_location(ref: str, base: Path) -> str | Path:
    """A ruleset the user typed: a name as it is; a path made absolute from ``base``.

    Only for what the user gave on the command line; a ``ruleset:`` written in a file
    goes through ``ruleset.loading.locate``, which keeps it inside that file's folder.
    """
    return (base / ref).resolve() if is_path(ref) else ref


def active_seats(ruleset: Ruleset | Game, dealer: int | None) -> list[int]:
    """Forehand (the player after the dealer) first; four players: the dealer sits out.

    The engine's seating (``Game.seating``): the deal passes from seat to seat + 1 (seat
    - 1 for a clockwise table).
    """
    if isinstance(ruleset, Game):
        if dealer is None:
            return list(range(ruleset.ruleset.players.count))
        return list(ruleset.seating(dealer).active)
    if dealer is None:  # a ruleset alone: no game built for it (it may have no registry)
        return list(range(ruleset.players.count))
    return list(build_seating(ruleset, dealer).active)


def sheet_ruleset(
    sheet: Sheet, where: Where, base: Path, registry: Registry | None = None
) -> Ruleset:
    """The ruleset a sheet names; a path in it must stay in the sheet's folder (``base``)."""
    if sheet.ruleset is None:
        missing = Said("missing: ruleset (a name such as wikipedia, or a path to a club file)")
        raise SheetError([where.problem((), missing)])
    try:
        ref = locate(sheet.ruleset, base, registry, referrer="this sheet")
        if isinstance(ref, str):
            check_name(ref, registry)  # a name no ruleset has: said at the key
    except OutsideReference as exc:
        raise SheetError([where.problem(("ruleset",), said_of(exc))]) from None
    except RulesetError as exc:
        raise SheetError([where.problem(("ruleset",), p.message) for p in exc.problems]) from None
    return load_ruleset(ref, registry)


def hand_from_sheet(
    sheet: Sheet,
    where: Where,
    base: Path,
    registry: Registry | None = None,
    *,
    ruleset: Ruleset | Game | None = None,
) -> TableHand:
    """Resolve a sheet into Facts and a Contract, or raise SheetError with every problem.

    The sheet's ``ruleset:`` is read relative to ``base`` (the sheet's folder) and must
    stay inside it or a rulesets folder; a caller that already knows the ruleset (a
    ledger's session) passes it, or its game, as ``ruleset``.
    """
    if ruleset is None:
        registry = registry if registry is not None else get_registry()
        game = Game.of(sheet_ruleset(sheet, where, base, registry), registry)
    else:
        game = Game.of(ruleset, registry)
    ruleset = game.ruleset
    reader = _Reader(sheet, where, game)
    names = reader.players()
    reader.stop_if_failed()
    dealer = None
    if sheet.dealer is not None:
        dealer = reader.seat(sheet.dealer, ("dealer",), names)
    elif ruleset.players.count == 4:
        reader.fail((), Said("missing: dealer (with four players the dealer sits out)"))
    declarer = reader.seat(sheet.declarer, ("declarer",), names)
    bid = reader.bid()
    if declarer is None or bid is None:
        reader.check_names(names)
    reader.stop_if_failed()
    assert declarer is not None and bid is not None
    seats = active_seats(game, dealer)
    sitting_out = dealer if ruleset.players.count == 4 else None
    if declarer not in seats:
        reader.fail(
            ("declarer",), Said("{player} deals and sits out this hand", player=sheet.declarer)
        )
    defenders = [s for s in seats if s != declarer]
    trump = reader.trump(bid)
    reader.check_uncontested()
    kontra = reader.kontra(bid, names, defenders)
    reader.check_before_play(bid, kontra)
    reader.check_uncontested_said(bid)
    reader.check_uncontested_round_one(bid)
    if dealer is not None:
        reader.check_uncontested_opener(names, seats, declarer, bid)
        reader.check_give_up_turn(names, seats, declarer, bid)
    multiplier = 1
    if sheet.round_one:
        two_round = ruleset.auction.two_round
        if two_round is None:
            reader.fail(
                ("round_one",), Said("'{ruleset}' has no two-round auction", ruleset=ruleset.name)
            )
        else:
            multiplier = two_round.multiplier
    if reader.problems:  # the facts are not built: their players are still checked
        reader.check_names(names)
    reader.stop_if_failed()
    facts = reader.facts(names, declarer, seats, trump, bid)
    reader.stop_if_failed()
    contract = Contract(
        bid=bid.id,
        declarer=declarer,
        trump=trump,
        kontra=kontra,
        gave_up=sheet.gave_up,
        uncontested=sheet.uncontested,
        multiplier=multiplier,
        sitting_out=sitting_out,
    )
    return TableHand(game, names, contract, facts, where)


def read_table_hand(path: Path, registry: Registry | None = None) -> TableHand:
    sheet, where = read_sheet(path, registry)
    return hand_from_sheet(sheet, where, path.parent, registry)


def sheet_from(
    ruleset: Ruleset,
    contract: Contract,
    facts: Facts | None,
    *,
    ruleset_ref: str | None = None,
    players: list[str] | None = None,
    dealer: int | None = None,
    registry: Registry | None = None,
) -> dict[str, Any]:
    """The score-keeper document for a settled hand (e.g. one the engine played).

    Declared facts go under their sheet keys (``aces: [Anna, Ben]``, each player once);
    one no kind of ``registry`` declares is left out, as no sheet could say it.
    """
    names = players or [f"P{i + 1}" for i in range(ruleset.players.count)]
    if dealer is None:
        dealer = contract.sitting_out
    if dealer is None and facts is not None:
        dealer = dealer_with_forehand(ruleset, facts.seats[0])
    doc: dict[str, Any] = {"ruleset": ruleset_ref or ruleset.name, "players": names}
    if dealer is not None:
        doc["dealer"] = names[dealer]
    doc["declarer"] = names[contract.declarer]
    doc["bid"] = contract.bid
    if contract.trump is not None:
        doc["trump"] = contract.trump
    kontra: dict[str, Any] = {}
    for cid, per_seat in contract.kontra.items():
        levels = set(per_seat.values())
        if levels == {0}:
            continue
        kontra[cid] = (
            levels.pop() if len(levels) == 1 else {names[s]: v for s, v in per_seat.items() if v}
        )
    if kontra:
        doc["kontra"] = kontra
    for flag in ("gave_up", "uncontested"):
        if getattr(contract, flag):
            doc[flag] = True
    if contract.multiplier > 1:
        doc["round_one"] = True
    if facts is None:
        return doc
    doc["points"] = {
        "declarer": facts.declarer_points,
        "defenders": facts.defender_points,
        "talon": facts.talon_points,
    }
    doc["tricks"] = {names[s]: n for s, n in facts.tricks_won.items()}
    last: dict[str, str] = {"winner": names[facts.last_trick_winner]}
    if facts.trump_seven_last_trick is not None:
        last["trump_seven"] = names[facts.trump_seven_last_trick]
    doc["last_trick"] = last
    if facts.trump_seven_early is not None:
        doc["trump_seven_early"] = names[facts.trump_seven_early]
    marriages: dict[str, list[str]] = {}
    for m in facts.marriages:
        marriages.setdefault(names[m.seat], []).append(m.suit)
    if marriages:
        doc["marriages"] = marriages
    declared = registry_of(ruleset, registry).facts
    for name, value in facts.extra.items():
        spec = declared.get(name)
        if spec is not None:
            doc[spec.sheet_key] = _written(spec, value, names)
    return doc


def _written(spec: FactSpec[Any], value: FactValue, names: list[str]) -> Any:
    """A declared fact as a table writes it: seats as names (each once)."""
    if spec.form is PLAYERS and isinstance(value, tuple):
        return [names[s] for s in dict.fromkeys(value)]
    if spec.form is PLAYER and isinstance(value, int):
        return names[value]
    return value


def settle_sheet(path: Path, registry: Registry | None = None) -> tuple[TableHand, Settlement]:
    """Read, check and settle a score-keeper document."""
    sheet, where = read_sheet(path, registry)
    hand = hand_from_sheet(sheet, where, path.parent, registry)
    try:
        return hand, hand.settle(registry)
    except SettlementError as exc:
        raise SheetError([where.problem((), said_of(exc))]) from None


__all__ = [
    "SheetError",
    "TableHand",
    "hand_from_sheet",
    "read_table_hand",
    "settle_sheet",
    "sheet_from",
]
