"""Game: one ruleset compiled for play and scoring, as OpenSpiel splits Game from State.

A ruleset is data; a ``Game`` is that data with everything derived from it that
the engine and scoring ask again and again — the bid catalogue (trump mode,
marriages, kontra scopes, the plain Parti), the rank tables per trump, the seating
for each dealer and the deal plan — built once and owned by the game, so they live
exactly as long as it does. Every :class:`~ulti_rules.engine.Hand` holds its game.

``Game.of(ruleset)`` returns the game a ruleset already has (kept on the ruleset
object itself, never in a global table), and ``load_game(name)`` a cached one.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from os import PathLike
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from ..contracts.fact_specs import FactSpec
from ..plugins import Registry
from ..ruleset.ladder import silent_values
from ..ruleset.loading import registry_of
from ..ruleset.schema import GAME_KEY, Ruleset
from .catalog import BidInfo, Catalog, build_catalog
from .deal_plan import Take, deal_pattern, deal_plan
from .ranks import RankTables, build_tables
from .seating import Seating, build_seating, check_dealer

if TYPE_CHECKING:
    from ..engine.deal import Deal
    from ..engine.hand import Hand
    from ..facts import Contract, Facts
    from ..scoring.settlement import Settlement


CardsGiven = Sequence[Sequence[int | str]]
T = TypeVar("T")


class Game:
    """A ruleset and its registry, with every table derived from them, built once.

    ``game.new_hand(seed=7)`` deals a hand; ``game.settle(contract, facts)`` pays one.
    A game is immutable in use: its tables never change after they are built, so any
    number of hands (and threads reading them) share it.

    Example:
        >>> from ulti_rules import load_game
        >>> game = load_game("wikipedia")
        >>> game.ruleset.name, game.ruleset.players.count
        ('wikipedia', 3)
        >>> first, again = game.new_hand(seed=7), game.new_hand(seed=7)
        >>> first.observation(1).hand == again.observation(1).hand  # a seed repeats its deal
        True
    """

    __slots__ = (
        "_memo",
        "_plans",
        "_silent",
        "_tables",
        "catalog",
        "deal_pattern",
        "fact_specs",
        "registry",
        "ruleset",
        "seatings",
    )

    ruleset: Ruleset
    registry: Registry
    catalog: Catalog
    seatings: tuple[Seating, ...]
    """The table for each dealer seat."""
    deal_pattern: tuple[tuple[int, ...], int]
    """Cards per active seat (forehand first) and cards left beside the hands."""
    fact_specs: tuple[FactSpec[Any], ...]
    """The facts the ruleset's kinds declare beyond the core ones: what the engine
    computes for every hand of this game (``Registry.facts_for``)."""

    def __init__(self, ruleset: Ruleset, registry: Registry | None = None) -> None:
        if not isinstance(ruleset, Ruleset):
            raise not_a_ruleset(ruleset)
        self.ruleset = ruleset
        self.registry = registry_of(ruleset, registry)
        self.catalog = build_catalog(ruleset, self.registry)
        self.seatings = tuple(build_seating(ruleset, d) for d in range(ruleset.players.count))
        self.deal_pattern = deal_pattern(ruleset)
        self.fact_specs = self.registry.facts_for(ruleset)
        self._tables: dict[int, RankTables] = {}
        self._plans: dict[int, tuple[tuple[Take, ...], Take]] = {}
        self._silent: dict[str, Mapping[str, int]] = {}
        self._memo: dict[Hashable, Any] = {}

    @classmethod
    def of(cls, ruleset: Ruleset | Game, registry: Registry | None = None) -> Game:
        """The game of ``ruleset`` with the plugin registry it was validated against
        (``registry_of``), built on first use and kept on the ruleset object; a Game is
        returned as it is. Anything else is a TypeError (a name too: ``load_game``)."""
        if isinstance(ruleset, Game):
            if registry is not None and registry is not ruleset.registry:
                raise ValueError("this game was built with another plugin registry")
            return ruleset
        if not isinstance(ruleset, Ruleset):
            raise not_a_ruleset(ruleset)
        registry = registry_of(ruleset, registry)
        game = ruleset.__dict__.get(GAME_KEY)
        # A copy (``model_copy``) carries its original's game in the copied __dict__.
        if isinstance(game, Game) and game.ruleset is ruleset and game.registry is registry:
            return game
        game = cls(ruleset, registry)
        object.__setattr__(ruleset, GAME_KEY, game)
        return game

    def __repr__(self) -> str:
        return f"<Game {self.ruleset.name!r}: {len(self.catalog.ladder)} bids>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the ruleset: the tables are built again where it is loaded."""
        return (_unpickle_game, (self.ruleset,))

    # ------------------------------------------------------------------ derived tables

    def bid(self, bid_id: str) -> BidInfo:
        """The catalogue entry of a bid id; KeyError if the ladder has none."""
        return self.catalog.by_id[bid_id]

    def only_forehand_gives_up(self, info: BidInfo) -> bool:
        """Whether only a declarer who is forehand has a turn to give up ``info``: the
        engine offers it on the declarer's own turn before the first card, naming the trump
        or leading; where forehand leads (``play.first_lead: forehand``) and the bid's trump
        is not named after the auction (named in the bid, or one suit open to it), his one
        such turn is forehand's lead. The score keeper and the rulebook both ask it."""
        rules = self.ruleset
        named_after = info.names_trump and rules.trump.named != "in_bid"
        return rules.play.first_lead == "forehand" and not named_after

    def tables(self, trump: int) -> RankTables:
        """The rank tables with ``trump`` (a suit number; -1 for none), built on first use."""
        tables = self._tables.get(trump)
        if tables is None:
            tables = self._tables[trump] = build_tables(self.ruleset, trump)
        return tables

    def seating(self, dealer: int) -> Seating:
        """The table for a hand dealt by ``dealer``; BadDeal for a seat not at this table."""
        return self.seatings[check_dealer(self.ruleset, dealer)]

    def deal_plan(self, dealer: int) -> tuple[tuple[Take, ...], Take]:
        """For each seat, and for the rest: the deck positions it receives, as getters."""
        plan = self._plans.get(dealer)
        if plan is None:
            plan = self._plans[dealer] = deal_plan(self.ruleset, self.seating(dealer))
        return plan

    def silent_values(self, bid_id: str) -> Mapping[str, int]:
        """Silent bonus id -> its value in this bid, where the bid allows it (read-only)."""
        values = self._silent.get(bid_id)
        if values is None:
            found = silent_values(self.ruleset, self.bid(bid_id).bid, self.registry)
            values = self._silent[bid_id] = MappingProxyType(found)
        return values

    def derived(self, key: Hashable, build: Callable[[], T]) -> T:
        """A table a higher layer derives from this game (scoring's bid components), built
        by ``build`` on first use and kept as long as the game: never in a global cache.
        ``key`` names it; what is built must never be changed by its readers."""
        try:
            found: T = self._memo[key]
        except KeyError:
            found = self._memo[key] = build()
        return found

    # ------------------------------------------------------------------ doors to play and scoring

    def new_hand(
        self,
        *,
        seed: int | str | None = None,
        deal: Deal | tuple[CardsGiven, Sequence[int | str]] | Mapping[str, Any] | None = None,
        dealer: int = 0,
    ) -> Hand:
        """A new hand of this game: shuffled from ``seed``, or the explicit ``deal`` (a
        ``Deal``, a ``(hands, rest)`` pair or ``Deal.to_dict()``'s mapping); not both, a
        ``BadDeal``: the seed would not have shuffled that deal."""
        from ..engine.hand import Hand  # the engine is built on Game: imported when called

        return Hand(self, seed=seed, deal=deal, dealer=dealer)

    def settle(
        self, contract: Contract, facts: Facts | None, *, trusted: bool = False
    ) -> Settlement:
        """The payments of a hand (``facts`` None: a hand decided without play).

        ``trusted=True`` for the contract and facts of a hand this engine played
        (``hand.contract``, ``hand.facts``): they are not checked again for what could
        not have happened or does not fit the ruleset.

        Example:
            >>> import random
            >>> from ulti_rules import load_game
            >>> from ulti_rules.bots import bot, play_out
            >>> game = load_game("wikipedia")
            >>> hand = play_out(game.new_hand(seed=7), bot("simple"), random.Random(1))
            >>> settlement = game.settle(hand.contract, hand.facts, trusted=True)
            >>> sorted(settlement.payments), sum(settlement.payments.values())  # seat: amount
            ([0, 1, 2], 0)
        """
        from ..scoring.settlement import settle  # scoring is built on Game: imported when called

        return settle(self, contract, facts, trusted=trusted)


def not_a_ruleset(
    value: object, *, taker: str = "expected a Game or a Ruleset", other: str = ""
) -> TypeError:
    """The error for what is neither a Game nor a Ruleset, saying how to get one;
    ``taker`` begins it (``replay takes a Game or a Ruleset as ruleset``), ``other`` ends
    it with what else the caller may do.

    A name (or path) is not taken in its place: finding it is ``load_game``'s work, which
    looks at the files on every call (about 50 µs even when cached, as much as dealing a
    hand) and may find them changed between two hands; a caller holds the game instead.
    """
    if isinstance(value, (str, PathLike)):
        where, what = str(value), "name" if isinstance(value, str) else "path"
        advice = f"load_game({where!r}) gives its game (load it once, deal many hands)"
        return TypeError(f"{taker}, not the {what} {where!r}: {advice}{other}")
    shown = "None" if value is None else f"{type(value).__name__} {value!r}"[:80]
    advice = 'load_game("wikipedia") gives the game of a ruleset by name'
    return TypeError(f"{taker}, not {shown}: {advice}{other}")


def _unpickle_game(ruleset: Ruleset) -> Game:
    return Game.of(ruleset)
