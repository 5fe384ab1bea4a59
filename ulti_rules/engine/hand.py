"""The hand: one deal as a state machine, from the deal through the auction to the last trick.

Shaped like an OpenSpiel state: ``phase``, ``current_player``, ``legal_actions()``,
``apply(action)``, ``observation(seat)``, ``history``, ``is_over``, and ``facts``
once over. Phases: ``auction`` -> ``trump`` (a suit bid names its trump) ->
``play`` (with marriages and kontras at the first trick) -> ``kontra`` (the
kontra round after trick 1, for the levels whose window reaches that far) ->
``play`` -> ``over``. Where a defender's kontra window opens after his own first
card (``kontra.window_opens: after_own_card``) the ``kontra`` phase also comes
right after that card, with him alone to speak, before the next card.

Every action is checked in full before anything changes, so a refused action
(:class:`~ulti_rules.errors.IllegalAction`, naming the broken rule) leaves the
hand exactly as it was.

The trick loop works on ints and bit masks only; :meth:`Hand.legal_cards` and
:meth:`Hand.play_card` are the fast path for bots and benchmarks (the same
rules as ``legal_actions`` / ``apply(Play(card))``, without building lists).

Nothing a caller holds reaches the state: actions are taken by exact type,
what the hand returns is immutable or a copy, and ``clone()`` (also
``copy.copy`` / ``copy.deepcopy``) and pickle give independent hands.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import repeat
from operator import attrgetter, is_
from typing import Any, NamedTuple

from ..cards import Card, Rank, Suit, SuitId, card_name, make_card, suit_id, suit_number
from ..errors import IllegalAction, PluginError
from ..facts import Contract, Facts
from ..game import Game
from ..game.catalog import BidInfo
from ..interrupts import ctrl_c_held
from ..plugins import Registry, get_registry
from ..recent import Recent
from ..ruleset.schema import Ruleset
from ..said import Said
from .action_words import action_words
from .actions import (
    ACTION_CLASSES,
    ANNOUNCE,
    DECLARE,
    GIVE_UP,
    PLAYS,
    Action,
    Announce,
    DeclareTrump,
    Discard,
    GiveUp,
    Kontra,
    Pass,
    PickUp,
    Play,
    not_an_action,
    plays_of,
)
from .auction import Auction
from .deal import BadDeal, Deal, Seating, check_deal, deal_cards, read_cards
from .kontra import AFTER_CARD, ROUND, TRICK1, KontraChains, Memos
from .marriages import announceable, due, hundred_limit_words
from .masks import BYTE_CARDS, cards_of
from .observation import Observation
from .phase import AUCTION, KONTRA, OVER, PLAY, STEPS, TRUMP, Phase, Step
from .tricks import SUIT_MASKS, SUITS, RankTables, legal_mask, why_refused
from .trump import feasible_suits, marriages_in, requirement_words

TRICKS = 10

_SEVENS: tuple[int, ...] = tuple(1 << make_card(Suit(s), Rank.SEVEN) for s in range(4))
"""The mask of each suit's 7 (the trump 7 an Ulti declarer keeps to the last trick)."""


class Hand:
    """One deal of Ulti under one game (a ruleset compiled with its plugin registry).

    ``Hand(game, seed=7, dealer=0)`` (or ``game.new_hand(seed=7)``) shuffles with
    ``random.Random(7)``; ``Hand(game, deal=Deal(...), dealer=0)`` (or
    ``deal=(hands, rest)``, cards as ints or notation, or ``Deal.to_dict()``'s
    mapping) plays an explicit deal; anything else, or a seed and a deal together (the
    seed would not have shuffled the deal), is a ``BadDeal``. A ruleset may stand for
    its game: ``Hand(ruleset, ...)`` uses ``Game.of(ruleset)``.
    The same seed or deal and the same actions give the same history and facts.

    Example:
        >>> from ulti_rules import format_cards, load_game
        >>> hand = load_game("wikipedia").new_hand(seed=7)
        >>> print(hand.phase, hand.step, hand.current_player)
        auction discard 1
        >>> format_cards(hand.observation(1).hand)  # the talon is in the first bidder's hand
        'MIX MVIII MVII ZX ZK PA PK PF TK TF TAl TIX'
    """

    __slots__ = (
        "_after",
        "_announced",
        "_auction",
        "_beat",
        "_best",
        "_best_seat",
        "_cat",
        "_deal",
        "_declarer",
        "_defenders",
        "_discards",
        "_expose_at",
        "_exposed",
        "_facts",
        "_final_contract",
        "_game",
        "_gave_up",
        "_hands",
        "_has_kontra_round",
        "_history",
        "_info",
        "_kafter",
        "_kontra",
        "_kround_passed",
        "_kturn",
        "_late_announce",
        "_leader",
        "_led",
        "_legal",
        "_marriages",
        "_n_active",
        "_needs_due",
        "_offered",
        "_phase",
        "_pickups",
        "_registry",
        "_ruleset",
        "_seats",
        "_seed",
        "_special_tricks",
        "_standard_duties",
        "_t7",
        "_tables",
        "_talon",
        "_trick",
        "_trick_no",
        "_tricks",
        "_trump",
        "_trump_mask",
        "_turn",
        "_ulti_seat",
        "_undo",
        "_wait_kontra",
    )

    def __init__(
        self,
        game: Game | Ruleset,
        *,
        seed: int | str | None = None,
        deal: Deal
        | tuple[Sequence[Sequence[Card | str]], Sequence[Card | str]]
        | Mapping[str, Any]
        | None = None,
        dealer: int = 0,
        registry: Registry | None = None,
    ) -> None:
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            raise BadDeal(f"a seed is an int or a string, not {seed!r}")
        if seed is not None and deal is not None:  # hand.seed would name cards it did not deal
            raise BadDeal("a hand is shuffled from a seed or given a deal, not both")
        self._game = game = Game.of(game, registry)
        self._ruleset = ruleset = game.ruleset
        self._registry = game.registry
        self._cat = game.catalog
        self._seats: Seating = game.seating(dealer)
        self._seed = seed
        if deal is None:
            self._deal = deal_cards(game, self._seats, seed)
        else:
            hands, rest = _deal_parts(deal)
            self._deal = check_deal(
                game, self._seats, [read_cards(h) for h in hands], read_cards(rest)
            )
        if ruleset.auction.opener_pass_is_simple and self._cat.plain_simple is None:
            raise BadDeal("auction.opener_pass_is_simple needs a plain Parti bid in the ladder")
        n = ruleset.players.count
        self._after = self._seats.after
        self._n_active = len(self._seats.active)
        self._hands: list[int] = [0] * n
        self._history: list[tuple[int, Action]] = []
        self._pickups: dict[int, tuple[Card, ...]] = {}
        self._discards: list[int] = []
        """The history index of every discard: what an observation hides and where it
        finds the talon lying, without walking the history."""
        self._auction = Auction(ruleset, self._cat, self._seats, self._deal, self._hands)
        self._phase = AUCTION
        self._facts: Facts | None = None
        self._final_contract: Contract | None = None
        """The contract once the hand is over (nothing changes it then): built once."""
        self._gave_up = False
        self._declarer = -1
        self._defenders: tuple[int, ...] = ()
        self._info: BidInfo | None = None
        self._talon: tuple[Card, ...] = ()
        self._trump = -1
        self._tables: RankTables | None = None
        self._beat: tuple[int, ...] = ()
        self._trump_mask = 0
        self._standard_duties = True
        self._late_announce = False
        """Marriages may be announced after trick 1 (``marriages.announce: on_play``)."""
        self._offered: tuple[Action, ...] = ()
        """What ``legal_actions()`` listed last outside the card play, while nothing has
        changed since: ``apply`` takes one of those very objects without checking it again
        (``_EVERY_PAIR`` where they were every discard of the seat's cards). Emptied by
        every change (``apply``, ``play_card``, ``play_random``, ``undo``)."""
        self._special_tricks: frozenset[int] = frozenset()
        """Tricks (0-based) whose end ``play_random`` leaves to ``_close_trick``: the one that
        lays an open contract down, the first where a kontra round follows."""
        self._turn = -1
        self._leader = -1
        self._trick: list[Card] = []
        self._trick_no = 0
        self._led = 0
        self._best = -1
        self._best_seat = -1
        self._tricks: list[tuple[int, tuple[Card, ...], int]] = []
        self._legal = -1
        self._ulti_seat = -1
        self._t7 = 0
        self._needs_due = False
        self._kontra: KontraChains | None = None
        self._kround_passed = 0
        """The seats (a mask) that passed in the kontra round since the last kontra."""
        self._kturn = -1
        self._wait_kontra = False
        """Trick 1 under ``kontra.window_opens: after_own_card``: a defender's card may
        open his kontra word (the fast path checks this flag first)."""
        self._kafter = False
        """The kontra phase is one defender's word right after his own card to trick 1."""
        self._announced: dict[int, list[int]] = {}
        self._marriages: list[tuple[int, int, int]] = []
        self._exposed = False
        self._expose_at = -1
        self._has_kontra_round = False
        self._undo: list[tuple[Any, ...] | None] = []
        """One entry per action, for ``undo``: a card's (card, seat, the state it changed)
        where its seat may then speak a kontra word, else ``_IN_TRICK`` or ``_TRICK_END``
        (what the card changed follows from the trick), or None for any other action
        (undone by replaying the actions before it)."""

    # ------------------------------------------------------------------ copies and pickles

    def clone(self) -> Hand:
        """An independent copy: play on either, the other does not change.

        Fast (a few microseconds: search bots clone at every node): the ruleset,
        registry, bid catalogue, rank tables, deal, actions and facts are immutable
        and shared; the lists, sets and dicts that play changes are copied.

        Example:
            >>> from ulti_rules import load_game
            >>> hand = load_game("wikipedia").new_hand(seed=7)
            >>> copy = hand.clone()
            >>> copy.apply(copy.legal_actions()[0])
            >>> len(copy.history), len(hand.history)
            (1, 0)
        """
        new = Hand.__new__(Hand)
        # Spelled out, not a loop over the slots: a clone is made at every node of a search.
        # tests/test_engine_api_safety.py checks that every slot is copied or shared.
        new._after = self._after
        new._beat = self._beat
        new._best = self._best
        new._best_seat = self._best_seat
        new._cat = self._cat
        new._deal = self._deal
        new._declarer = self._declarer
        new._defenders = self._defenders
        new._expose_at = self._expose_at
        new._exposed = self._exposed
        new._facts = self._facts
        new._final_contract = self._final_contract
        new._game = self._game
        new._gave_up = self._gave_up
        new._has_kontra_round = self._has_kontra_round
        new._info = self._info
        new._kafter = self._kafter
        new._kturn = self._kturn
        new._late_announce = self._late_announce
        new._leader = self._leader
        new._led = self._led
        new._legal = self._legal
        new._n_active = self._n_active
        new._needs_due = self._needs_due
        new._offered = ()
        new._phase = self._phase
        new._registry = self._registry
        new._ruleset = self._ruleset
        new._seats = self._seats
        new._seed = self._seed
        new._special_tricks = self._special_tricks
        new._standard_duties = self._standard_duties
        new._t7 = self._t7
        new._tables = self._tables
        new._talon = self._talon
        new._trick_no = self._trick_no
        new._trump = self._trump
        new._trump_mask = self._trump_mask
        new._turn = self._turn
        new._ulti_seat = self._ulti_seat
        new._wait_kontra = self._wait_kontra
        new._hands = self._hands.copy()
        new._history = self._history.copy()
        new._trick = self._trick.copy()
        new._tricks = self._tricks.copy()
        new._kround_passed = self._kround_passed
        new._announced = {seat: suits.copy() for seat, suits in self._announced.items()}
        new._marriages = self._marriages.copy()
        new._undo = self._undo.copy()  # entries are immutable: shared safely
        phase = self._phase
        if phase is AUCTION:
            new._auction = self._auction.clone()
            new._pickups = self._pickups.copy()
            new._discards = self._discards.copy()
        else:  # nothing changes the auction once it is over
            new._auction = self._auction
            new._pickups = self._pickups
            new._discards = self._discards
        kontra = self._kontra
        if kontra is not None and (self._trick_no == 0 or phase is KONTRA):
            kontra = kontra.clone()  # kontras are still called: each hand its own chains
        new._kontra = kontra
        return new

    def __copy__(self) -> Hand:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Hand:
        # Nothing a clone shares can change, so a deep copy is a clone (the ruleset is not copied).
        new = memo[id(self)] = self.clone()
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the ruleset, the deal, the dealer, the seed and the actions.

        Loading replays the actions on a new hand (every one checked again) with the
        process's plugin registry; see docs/engine.md for the limits.
        """
        return (
            _unpickle,
            (self._ruleset, self._deal, self._seats.dealer, self._seed, self.actions),
        )

    # ------------------------------------------------------------------ public state

    @property
    def game(self) -> Game:
        """The game this hand is a hand of: the ruleset, its registry and derived tables."""
        return self._game

    @property
    def ruleset(self) -> Ruleset:
        """The rules this hand is played by."""
        return self._ruleset

    @property
    def registry(self) -> Registry:
        """The plugin registry the contract kinds come from."""
        return self._registry

    @property
    def seats(self) -> Seating:
        """The table: player count, dealer, the active seats in order."""
        return self._seats

    @property
    def deal(self) -> Deal:
        """The cards as dealt."""
        return self._deal

    @property
    def seed(self) -> int | str | None:
        """The seed the deal was shuffled with; None for an explicit deal."""
        return self._seed

    @property
    def phase(self) -> Phase:
        """Where the hand is (a ``Phase``; equal to its string: 'auction', 'play', ...)."""
        return self._phase

    @property
    def step(self) -> Step:
        """What the seat to act is asked for: the auction step, or the phase itself."""
        return self._auction.step if self._phase == AUCTION else STEPS[self._phase]

    @property
    def current_player(self) -> int | None:
        """The seat to act now; None once the hand is over."""
        phase = self._phase
        if phase == PLAY:
            return self._turn
        if phase == AUCTION:
            return self._auction.turn
        if phase == TRUMP:
            return self._declarer
        if phase == KONTRA:
            return self._kturn
        return None

    @property
    def dealer(self) -> int:
        """The seat that dealt (with four players it sits the hand out)."""
        return self._seats.dealer

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended: played out, given up, passed out or decided unplayed."""
        return self._phase is OVER

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every action so far, with the seat that took it."""
        return tuple(self._history)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions alone: what a record stores to replay the hand."""
        return tuple(a for _, a in self._history)

    @property
    def declarer(self) -> int | None:
        """The seat that won the auction; None before then and for a passed-out hand."""
        return self._declarer if self._declarer >= 0 else None

    @property
    def bid(self) -> str | None:
        """The standing bid's id during the auction, the winning one after."""
        info = self._info if self._info is not None else self._auction.bid
        return info.id if info is not None else None

    @property
    def trump(self) -> SuitId | None:
        """The trump suit once play starts; None before, and in a no-trump game."""
        return suit_id(self._trump) if self._trump >= 0 else None

    @property
    def passed_out(self) -> bool:
        """Nobody bid (only where the opener may pass): no contract, no play."""
        return self._phase == OVER and self._info is None

    @property
    def gave_up(self) -> bool:
        """Whether the declarer conceded a plain Parti before the first lead."""
        return self._gave_up

    @property
    def played(self) -> bool:
        """Whether the hand was played out (not given up, passed out or left unplayed)."""
        return len(self._tricks) == TRICKS

    def cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds now, ascending (a new list: changing it changes nothing)."""
        self._seats.check(seat)
        return list(cards_of(self._hands[seat]))

    @property
    def tricks(self) -> list[tuple[int, tuple[Card, ...], int]]:
        """Completed tricks: (leader, cards in playing order, winner)."""
        return list(self._tricks)

    @property
    def current_trick(self) -> tuple[int, tuple[Card, ...]]:
        """(leader, cards played so far) of the trick in progress."""
        return self._leader, tuple(self._trick)

    @property
    def kontra_levels(self) -> dict[str, dict[int, int]]:
        """Kontra level per component id and per defender seat (0: none); empty before play."""
        return self._kontra.as_dict() if self._kontra is not None else {}

    @property
    def marriages(self) -> list[tuple[int, SuitId, int]]:
        """Announced marriages: (seat, suit, value)."""
        return [(seat, suit_id(s), v) for seat, s, v in self._marriages]

    @property
    def exposed(self) -> bool:
        """Whether an open contract's cards lie face up now."""
        return self._exposed

    @property
    def talon(self) -> tuple[Card, ...]:
        """The final talon (known once the auction is over)."""
        return self._talon

    @property
    def bid_info(self) -> BidInfo | None:
        """The winning bid's catalogue entry (``game.catalog``); None before the auction ends
        and for a passed-out hand."""
        return self._info

    @property
    def uncontested(self) -> bool:
        """A plain Simple that nobody, the declarer included, overbid."""
        return self._auction.uncontested

    @property
    def multiplier(self) -> int:
        """The two-round auction's round-1 multiplier, where it still applies (else 1)."""
        return self._auction.multiplier()

    @property
    def pickups(self) -> dict[int, tuple[Card, ...]]:
        """The talon each pick-up took: history index of the pick-up -> its two cards."""
        return dict(self._pickups)

    @property
    def discards(self) -> tuple[int, ...]:
        """The history index of every discard, in order (kept as the hand plays)."""
        return tuple(self._discards)

    @property
    def talon_on_table(self) -> tuple[tuple[Card, ...], int] | None:
        """During the auction: the talon lying face down and the seat that laid it (or
        was dealt it); None when nobody has laid one yet or the auction is over."""
        auction = self._auction
        if self._phase != AUCTION or auction.talon is None:
            return None
        return tuple(auction.talon), auction.talon_by

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds now."""
        self._seats.check(seat)
        return self._hands[seat].bit_count()

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now; each one ``apply`` accepts.

        Example:
            >>> from ulti_rules import load_game
            >>> hand = load_game("wikipedia").new_hand(seed=7)
            >>> actions = hand.legal_actions()  # lay away two of twelve cards: 66 ways
            >>> len(actions), actions[0]
            (66, Discard(cards=(5, 6)))
        """
        phase = self._phase
        if phase is PLAY:
            legal = self._legal
            if legal < 0:
                legal = self._card_mask()
            if self._trick_no and not self._late_announce:  # after trick 1: cards only
                return plays_of(legal)
            others = self._play_words(self._turn)
            if not others:
                return plays_of(legal)
            self._offered = others  # cards go by play_card: only the others need offering
            return [*others, *plays_of(legal)]
        if phase is AUCTION:
            found = self._auction.legal(self._hands)
            if isinstance(found, list):  # the discards, a new list: the caller's
                k = self._hands[self._auction.turn].bit_count()
                # Every pair of the seat's cards (the usual case): ``apply`` then knows a
                # discard by its cards, with no copy of the list kept nor searched.
                self._offered = _EVERY_PAIR if 2 * len(found) == k * (k - 1) else tuple(found)
                return found
            listed = found
        elif phase is KONTRA:
            assert self._kontra is not None
            seat = self._kturn
            moment = AFTER_CARD if self._kafter else ROUND
            listed = self._kontra.words(seat, seat == self._declarer, moment)
        elif phase is TRUMP:
            listed = tuple(DECLARE[s] for s in self._trump_choices())
            if self._can_give_up():
                listed += (GIVE_UP,)
        else:
            return []
        self._offered = listed  # immutable: the caller gets a list of its own
        return list(listed)

    def _play_words(self, seat: int) -> tuple[Action, ...]:
        """What ``seat`` may do in the play besides a card: kontras at the first trick,
        marriages, giving up (a legal list asks it at the first trick, and at every card
        where marriages may be announced later)."""
        words: tuple[Action, ...] = ()
        if self._trick_no == 0:
            assert self._kontra is not None
            words = self._kontra.actions(seat, seat == self._declarer, TRICK1)
        suits = self._announceable(seat)
        if suits:
            words += tuple(map(ANNOUNCE.__getitem__, suits))
        if self._can_give_up():
            words += (GIVE_UP,)
        return words

    def legal_cards(self) -> int:
        """Fast path: the cards the seat to act may play now, as a bit mask (0 if none)."""
        legal = self._legal
        if legal >= 0:
            return legal
        if self._phase is not PLAY:
            return 0
        return self._card_mask()

    def _card_mask(self) -> int:
        """``legal_cards()`` worked out (in the play, not known yet since the last change)."""
        seat = self._turn
        # A marriage due before the card (``_due_open``, inlined: asked before every card)
        if self._needs_due and (not self._trick_no or self._late_announce) and self._due(seat):
            self._legal = 0
            return 0
        hand = self._hands[seat]
        if not self._trick:
            legal = hand
        elif self._standard_duties:
            # The play duties inlined for speed; tricks.legal_mask is the same rule for any duties.
            legal = hand & self._led
            if legal:
                legal = legal & self._beat[self._best] or legal
            else:
                trumps = hand & self._trump_mask
                legal = (trumps & self._beat[self._best] or trumps) if trumps else hand
        else:
            assert self._tables is not None
            legal = legal_mask(self._tables, hand, self._led, self._best)
        if (
            seat == self._ulti_seat
            and legal & self._t7
            and legal != self._t7
            and self._trick_no < 9
        ):
            legal &= ~self._t7
        self._legal = legal
        return legal

    def legal_card_list(self) -> tuple[Card, ...]:
        """Fast path: ``legal_cards()`` as a tuple of cards, ascending."""
        legal = self._legal
        return cards_of(legal if legal >= 0 else self.legal_cards())

    # ------------------------------------------------------------------ applying

    def apply(self, action: Action) -> None:
        """Take ``action`` for the seat to act; IllegalAction (hand unchanged) if illegal.

        Example:
            >>> from ulti_rules import Play, load_game
            >>> hand = load_game("wikipedia").new_hand(seed=7)
            >>> hand.apply(Play(0))
            Traceback (most recent call last):
            ...
            ulti_rules.errors.IllegalAction: discard two cards first: you hold the talon
            >>> hand.apply(hand.legal_actions()[0])
            >>> print(hand.step, hand.current_player)
            bid 1
        """
        phase = self._phase
        if phase is PLAY and type(action) is Play:
            self.play_card(action.card)
            return
        offered, self._offered = self._offered, ()
        if phase is KONTRA:  # about a fifth of a random hand's actions: the shortest way
            # A pass is always open in the kontra phase; a kontra listed just now is legal.
            if type(action) is not Pass and not any(map(is_, repeat(action), offered)):
                reason = self.why_refused(action)
                if reason is not None:
                    self._offered = offered
                    raise IllegalAction(reason)
            speaker = self._kturn
            taken = len(self._history)
            try:
                self._undo.append(None)
                self._history.append((speaker, action))
                if self._kafter:
                    self._after_card_word(speaker, action)
                else:
                    self._kontra_round(speaker, action)
            except BaseException:
                self._restore(taken)
                raise
            return
        if offered is _EVERY_PAIR:  # the discards listed were every pair of the seat's cards
            if type(action) is not Discard or not self._holds_pair(action.cards):
                reason = self.why_refused(action)
                if reason is not None:
                    self._offered = offered
                    raise IllegalAction(reason)
        elif not any(map(is_, repeat(action), offered)):  # not one legal_actions() just listed
            reason = self.why_refused(action)
            if reason is not None:
                self._offered = offered
                raise IllegalAction(reason)
        taken = len(self._history)
        try:
            self._take(phase, action)
        except BaseException:
            self._restore(taken)
            raise

    def _holds_pair(self, cards: tuple[Card, ...]) -> bool:
        """Whether ``cards`` (a Discard's: distinct cards, ascending) are two cards the seat
        to act holds."""
        hand = self._hands[self._auction.turn]
        return len(cards) == 2 and (hand >> cards[0]) & 1 == 1 and (hand >> cards[1]) & 1 == 1

    def _take(self, phase: Phase, action: Action) -> None:
        """The effect of an action ``apply`` found legal, its undo entry first."""
        self._undo.append(None)
        if phase is AUCTION:  # the most frequent case first: about fourteen actions a hand
            auction = self._auction
            if type(action) is PickUp:
                assert auction.talon is not None
                self._pickups[len(self._history)] = auction.talon
            elif type(action) is Discard:
                self._discards.append(len(self._history))
            self._history.append((auction.turn, action))
            auction.apply(action, self._hands)
            if auction.done:
                self._finish_auction()
            return
        seat = self.current_player
        assert seat is not None
        if phase is TRUMP:
            self._history.append((seat, action))
            if isinstance(action, GiveUp):
                self._give_up()
            else:
                assert isinstance(action, DeclareTrump)
                self._start_play(suit_number(action.suit))
        elif phase is PLAY:
            self._history.append((seat, action))
            self._legal = -1
            if isinstance(action, Announce):
                self._announce(seat, suit_number(action.suit))
            elif isinstance(action, Kontra):
                assert self._kontra is not None
                self._kontra.apply(action, seat, seat == self._declarer)
            else:
                self._give_up()

    def _restore(self, taken: int) -> None:
        """The hand after its first ``taken`` actions, whatever an action after them did
        before it failed half way (a fault, a Ctrl-C): they are played again on the same
        deal (``_replay``), so an app that catches the error holds a hand it can go on with."""
        self._replay([action for _, action in self._history[:taken]])

    def play_card(self, card: Card) -> None:
        """Fast path for ``apply(Play(card))``: the same checks and the same effect."""
        legal = self._legal
        if legal < 0:
            legal = self.legal_cards()
        # ``type(card) is int`` first: a bool, str or float is no card (True is not card 1).
        if type(card) is not int or card < 0 or not (legal >> card) & 1:
            raise IllegalAction(self._why_play_refused(card))
        seat = self._turn
        self._offered = ()
        trick = self._trick
        last = len(trick) + 1 == self._n_active  # this card closes the trick
        wait = self._wait_kontra
        history = self._history
        taken = len(history)
        try:  # (free in Python 3.11 unless something raises)
            if wait:  # his card may open his kontra word: keep everything
                self._undo.append((card, seat, _played_over(self)))
            else:  # what the card changes follows from the trick (``undo``)
                self._undo.append(_TRICK_END if last else _IN_TRICK)
            history.append(_SEAT_PLAYS[seat][card])
            self._hands[seat] ^= 1 << card
            self._legal = -1
            if trick:
                if (self._beat[self._best] >> card) & 1:
                    self._best = card
                    self._best_seat = seat
            else:
                self._led = SUIT_MASKS[card >> 3]
                self._best = card
                self._best_seat = seat
            trick.append(card)
            if wait and self._opens_word(seat):
                return  # his word first; the trick goes on when he has spoken
            if not last:
                self._turn = self._after[seat]
                return
            self._close_trick()
        except BaseException:
            self._restore(taken)
            raise

    def _close_trick(self) -> None:
        winner = self._best_seat
        a, b, c = self._trick  # three active seats, always
        self._tricks.append((self._leader, (a, b, c), winner))
        self._trick = []
        self._led = 0
        self._best = -1
        done = self._trick_no = self._trick_no + 1
        self._leader = self._turn = winner
        self._wait_kontra = False
        if done == TRICKS:
            self._phase = OVER
            return
        if done == self._expose_at:
            self._exposed = True
        if done == 1 and self._has_kontra_round:
            speaker = self._next_speaker(self._declarer, 0)
            if speaker >= 0:
                self._phase = KONTRA
                self._kturn = speaker

    def why_refused(self, action: object) -> str | None:
        """None if the seat to act may take ``action`` now, else the rule it breaks.

        Actions are checked by exact type: a subclass of an action class could
        change how it compares or what it carries, so it is refused, not trusted.
        """
        if type(action) not in ACTION_CLASSES or not isinstance(action, Action):
            return not_an_action(action)
        phase = self._phase
        if phase == OVER:
            return Said("the hand is over")
        if phase == AUCTION:
            return self._auction.why_refused(action, self._hands)
        if phase == TRUMP:
            if isinstance(action, GiveUp):
                return None if self._can_give_up() else self._why_no_give_up()
            if not isinstance(action, DeclareTrump):
                return Said("the declarer names the trump suit first")
            assert self._info is not None
            suit = suit_number(action.suit)
            if suit not in self._info.suits:
                return Said(
                    "{suit} cannot be trump in {bid} under this ruleset",
                    suit=SUITS[suit],
                    bid=self._info.name,
                )
            if suit not in self._trump_choices():
                return requirement_words(self._info, (suit,))
            return None
        seat = self._turn if phase == PLAY else self._kturn
        is_declarer = seat == self._declarer
        if isinstance(action, Kontra):
            assert self._kontra is not None
            if phase == PLAY and self._trick_no > 0:
                return Said("the kontra window has closed: kontras are called at the first trick")
            moment = TRICK1 if phase == PLAY else AFTER_CARD if self._kafter else ROUND
            return self._kontra.why_refused(action, seat, is_declarer, moment)
        if phase == KONTRA:
            if isinstance(action, Pass):
                return None
            return self._kontra_word_words()
        if isinstance(action, Play):
            card = action.card
            return (
                None
                if type(card) is int and card >= 0 and (self.legal_cards() >> card) & 1
                else self._why_play_refused(card)
            )
        if isinstance(action, Announce):
            return self._why_no_announce(seat, suit_number(action.suit), is_declarer)
        if isinstance(action, GiveUp):
            return None if self._can_give_up() else self._why_no_give_up()
        quoted = action_words(action, self._bid_name)
        return Said("'{action}' is not an action of the play: play a card", action=quoted)

    def _bid_name(self, bid_id: str) -> str:
        """A bid's name by its id, said in the language of the sentence it is part of."""
        info = self._cat.by_id.get(bid_id)
        return info.name if info is not None else bid_id

    # ------------------------------------------------------------------ undo

    def undo(self) -> Action:
        """Take back the last action and return it: the hand is as it was before it.

        A card is taken back in a few steps (search players undo cards again and
        again); any other action by replaying the actions before it on the same deal.
        IllegalAction if no action has been taken.

        Example:
            >>> from ulti_rules import load_game
            >>> hand = load_game("wikipedia").new_hand(seed=7)
            >>> first = hand.legal_actions()[0]
            >>> hand.apply(first)
            >>> hand.undo() == first, hand.history
            (True, ())
        """
        entries, history = self._undo, self._history
        if not entries:
            raise IllegalAction("nothing to undo: no action has been taken yet")
        entry = entries[-1]
        self._offered = ()
        if entry is None:  # a fresh hand replayed, whose slots replace these all at once
            return self._replay_all_but_last()
        # A card is taken back in place, its undo entry and action dropped last: should
        # anything raise halfway (a Ctrl-C), the hand is put back after the actions still
        # in its history (``_restore``): as it was, or taken back whole if both were dropped.
        try:
            if entry is _IN_TRICK or entry is _TRICK_END:  # a card ``play_random`` played
                seat, action = history[-1]
                assert isinstance(action, Play)
                card = action.card
                if entry is _TRICK_END:  # it closed a trick: open the trick again
                    leader, cards, _ = self._tricks.pop()
                    self._trick = list(cards)
                    done = self._trick_no = self._trick_no - 1
                    self._leader = leader
                    # what closing it may have changed besides (``_close_trick``)
                    self._phase, self._facts, self._final_contract = PLAY, None, None
                    self._exposed = self._expose_at == 0 or 0 < self._expose_at <= done
                    if done == 0 and self._has_kontra_round:
                        self._kturn, self._kround_passed = -1, 0
                self._trick.pop()
                self._hands[seat] |= 1 << card
                self._turn = seat
                self._legal = -1
                self._rejudge_trick()
                self._own_kontra()
                entries.pop()
                history.pop()
                return action
            card, seat, saved = entry
            card_played: Play = PLAYS[card]
            if saved[_TRICK_NO] != self._trick_no:  # the card closed a trick: open it again
                _, cards, _ = self._tricks.pop()
                self._trick = list(cards[:-1])
            else:
                self._trick.pop()
            self._hands[seat] |= 1 << card
            for name, value in zip(_PLAY_CHANGES, saved, strict=True):
                setattr(self, name, value)
            self._own_kontra()
            entries.pop()
            history.pop()
            return card_played
        except BaseException:
            self._restore(len(history))
            raise

    def _rejudge_trick(self) -> None:
        """The suit led and the card (and seat) winning the trick so far, from its cards:
        what a card taken back by ``undo`` had changed."""
        trick = self._trick
        if not trick:
            self._led, self._best = 0, -1
            self._best_seat = self._tricks[-1][2] if self._tricks else -1
            return
        beat, after = self._beat, self._after
        seat = self._best_seat = self._leader
        best = trick[0]
        for card in trick[1:]:
            seat = after[seat]
            if (beat[best] >> card) & 1:
                best, self._best_seat = card, seat
        self._led, self._best = SUIT_MASKS[trick[0] >> 3], best

    def _own_kontra(self) -> None:
        """Back where kontras may be called again: chains a clone may share become our own."""
        if self._kontra is not None and (self._trick_no == 0 or self._phase is KONTRA):
            self._kontra = self._kontra.clone()

    def _replay_all_but_last(self) -> Action:
        actions = self.actions
        self._replay(actions[:-1])
        return actions[-1]

    def _replay(self, actions: Sequence[Action]) -> None:
        """This hand after ``actions`` from the deal: played on a fresh hand, then taken
        over slot by slot, Ctrl-C held off meanwhile (a press there would leave the hand
        half one, half the other; it is answered once the hand is whole).

        ``actions`` are ones this hand took (an undo, a failed action put right): each is
        offered as ``legal_actions()`` would offer it, so that ``apply`` does not check
        it again (about a third of an undo's time went to checking what was checked when
        taken)."""
        with ctrl_c_held():
            fresh = Hand(self._game, deal=self._deal, dealer=self._seats.dealer)
            fresh._seed = self._seed
            fresh._deal = self._deal  # the same deal, not an equal copy
            for action in actions:
                fresh._offered = (action,)
                fresh.apply(action)
            for name in Hand.__slots__:
                setattr(self, name, getattr(fresh, name))

    # ------------------------------------------------------------------ fused fast path

    def play_random(self, rng: random.Random) -> int:
        """Fast path: play random legal cards until a decision that is not a card, or the end.

        Each card is ``rng.choice(self.legal_card_list())``, exactly as a loop over
        ``legal_card_list()`` / ``play_card()`` would choose it, and is undoable like any
        card; it stops at the kontra round, a marriage that must be announced first, or
        when the hand is over. Returns the number of cards played.

        Under the usual duties (follow, trump, beat), with no marriage due and no
        defender's kontra word after his card, the trick loop runs here on local
        variables, the rule of ``legal_cards`` inlined; a trick that ends the hand,
        opens the kontra round or lays an open contract's cards down is closed by the
        general code, and any other ruleset plays card by card.

        Should anything raise on the way (a Ctrl-C), the hand is as it was before the call
        (or, interrupted on its way out, as after it; docs/engine.md, "Undo").
        """
        if self._phase is not PLAY:
            return 0
        taken = len(self._history)
        try:
            return self._play_random(rng)
        except BaseException:
            self._restore(taken)
            raise

    def _play_random(self, rng: random.Random) -> int:
        self._offered = ()
        if self._due_open() or self._wait_kontra or not self._standard_duties:
            return self._play_random_checked(rng)
        choice = rng.choice
        hands, trick, history, undo = self._hands, self._trick, self._history, self._undo
        beat, trump_mask, after, n = self._beat, self._trump_mask, self._after, self._n_active
        tricks, seat_plays = self._tricks, _SEAT_PLAYS
        b0, b1, b2, b3 = BYTE_CARDS
        ulti_seat, t7 = self._ulti_seat, self._t7
        seat, best, best_seat, led = self._turn, self._best, self._best_seat, self._led
        leader, done = self._leader, self._trick_no
        special = self._special_tricks
        played = 0
        while True:
            if not trick:  # a whole trick, its three cards unrolled
                first = seat
                hand = hands[first]
                legal = hand
                if first == ulti_seat and legal & t7 and legal != t7 and done < 9:
                    legal &= ~t7
                c0 = choice(
                    b0[legal & 255]
                    + b1[(legal >> 8) & 255]
                    + b2[(legal >> 16) & 255]
                    + b3[legal >> 24]
                )
                hands[first] = hand ^ (1 << c0)
                led, best, best_seat = SUIT_MASKS[c0 >> 3], c0, first
                second = after[first]
                hand = hands[second]
                legal = hand & led
                if legal:
                    legal = legal & beat[best] or legal
                else:
                    trumps = hand & trump_mask
                    legal = (trumps & beat[best] or trumps) if trumps else hand
                if second == ulti_seat and legal & t7 and legal != t7 and done < 9:
                    legal &= ~t7
                c1 = choice(
                    b0[legal & 255]
                    + b1[(legal >> 8) & 255]
                    + b2[(legal >> 16) & 255]
                    + b3[legal >> 24]
                )
                hands[second] = hand ^ (1 << c1)
                if (beat[best] >> c1) & 1:
                    best, best_seat = c1, second
                third = after[second]
                hand = hands[third]
                legal = hand & led
                if legal:
                    legal = legal & beat[best] or legal
                else:
                    trumps = hand & trump_mask
                    legal = (trumps & beat[best] or trumps) if trumps else hand
                if third == ulti_seat and legal & t7 and legal != t7 and done < 9:
                    legal &= ~t7
                c2 = choice(
                    b0[legal & 255]
                    + b1[(legal >> 8) & 255]
                    + b2[(legal >> 16) & 255]
                    + b3[legal >> 24]
                )
                hands[third] = hand ^ (1 << c2)
                if (beat[best] >> c2) & 1:
                    best_seat = third
                history.extend(
                    (seat_plays[first][c0], seat_plays[second][c1], seat_plays[third][c2])
                )
                undo.extend(_WHOLE_TRICK)
                played += 3
                if done in special:  # the general code closes it (last trick, kontra round...)
                    trick.extend((c0, c1, c2))
                    self._best_seat, self._leader, self._trick_no = best_seat, first, done
                    self._legal = -1
                    self._close_trick()
                    if self._phase is not PLAY:
                        return played
                    trick = self._trick  # empty: the next trick is unrolled too
                    seat, leader, done = self._turn, self._leader, self._trick_no
                    continue
                tricks.append((first, (c0, c1, c2), best_seat))
                done += 1
                seat = leader = best_seat
                if done == TRICKS:  # the last trick: the hand is over
                    self._turn = self._leader = seat
                    self._best_seat, self._led, self._best = seat, 0, -1
                    self._trick_no, self._legal, self._phase = done, -1, OVER
                    return played
                continue
            hand = hands[seat]
            if not trick:
                legal = hand
            else:
                legal = hand & led
                if legal:
                    legal = legal & beat[best] or legal
                else:
                    trumps = hand & trump_mask
                    legal = (trumps & beat[best] or trumps) if trumps else hand
            if seat == ulti_seat and legal & t7 and legal != t7 and done < 9:
                legal &= ~t7
            card = choice(cards_of(legal))
            played += 1
            if len(trick) + 1 < n:  # the trick goes on: a light undo entry
                undo.append(_IN_TRICK)
                history.append(seat_plays[seat][card])
                hands[seat] = hand ^ (1 << card)
                if not trick:
                    led, best, best_seat = SUIT_MASKS[card >> 3], card, seat
                elif (beat[best] >> card) & 1:
                    best, best_seat = card, seat
                trick.append(card)
                seat = after[seat]
                continue
            if done not in special:  # the trick's last card, and play goes on
                undo.append(_TRICK_END)
                history.append(seat_plays[seat][card])
                hands[seat] = hand ^ (1 << card)
                if (beat[best] >> card) & 1:
                    best_seat = seat
                a, b = trick
                tricks.append((leader, (a, b, card), best_seat))
                trick.clear()
                led, best = 0, -1
                done += 1
                seat = leader = best_seat
                if done == TRICKS:  # the last trick: the hand is over
                    self._turn = self._leader = seat
                    self._best_seat, self._led, self._best = seat, 0, -1
                    self._trick_no, self._legal, self._phase = done, -1, OVER
                    return played
                continue
            self._turn, self._best, self._best_seat, self._led = seat, best, best_seat, led
            self._leader, self._trick_no, self._legal = leader, done, legal
            self.play_card(card)  # the general code closes this trick
            if self._phase is not PLAY:
                return played
            trick = self._trick
            seat, best, best_seat, led = self._turn, self._best, self._best_seat, self._led
            leader, done = self._leader, self._trick_no
            if self._due_open() or self._wait_kontra:  # not expected: the checked loop
                return played + self._play_random_checked(rng)

    def _play_random_checked(self, rng: random.Random) -> int:
        choice = rng.choice
        played = 0
        while self._phase is PLAY:
            legal = self._legal
            if legal < 0:
                legal = self.legal_cards()
            if not legal:
                break
            self.play_card(choice(cards_of(legal)))
            played += 1
        return played

    # ------------------------------------------------------------------ auction

    def _finish_auction(self) -> None:
        auction = self._auction
        self._talon = auction.final_talon
        info = auction.bid
        if info is None:
            self._phase = OVER
            return
        self._info = info
        declarer = self._declarer = auction.bidder
        self._defenders, start = self._kontra_start(info, declarer)
        self._kontra = start.clone()
        if auction.uncontested and self._ruleset.simple.lost_unplayed:
            # Lost without play: the trump is what the bid leaves no choice about (named
            # with it, a fixed suit, the red suit), as the score keeper reads it.
            if auction.bid_trump >= 0:
                self._trump = auction.bid_trump
            elif info.trump != "none" and len(info.suits) == 1:
                self._trump = info.suits[0]
            self._phase = OVER
            return
        if info.trump == "suit" and auction.bid_trump < 0:
            self._phase = TRUMP
            return
        self._start_play(auction.bid_trump)

    def _kontra_start(self, info: BidInfo, declarer: int) -> tuple[tuple[int, ...], KontraChains]:
        """The defenders, and the kontra chains every hand of this bid, declarer and dealer
        starts from (each hand plays on a copy): built once, kept in the catalogue's memo."""
        key = ("kontra chains", info.id, declarer, self._seats.dealer)
        memo = self._cat.memo
        found = memo.get(key)
        if found is None:
            defenders = tuple(s for s in self._seats.active if s != declarer)
            memos = self._game.derived("kontra memos", Memos)
            found = memo[key] = (defenders, KontraChains(self._ruleset, info, defenders, memos))
        return found  # type: ignore[return-value]

    def _trump_choices(self) -> tuple[int, ...]:
        """The suits the declarer may name: those whose marriages the bid needs he holds;
        every suit of the bid when he holds none, as after a talon taken unseen that
        brought none (the auction's ``_unsuitable``): the bid's 100 is then lost."""
        assert self._info is not None
        suits = self._info.suits
        return feasible_suits(self._info, self._hands[self._declarer], suits) or suits

    # ------------------------------------------------------------------ play

    def _start_play(self, trump: int) -> None:
        info = self._info
        assert info is not None and self._kontra is not None
        self._trump = trump
        key = ("play start", info.id, trump, self._declarer, self._seats.dealer)
        memo = self._cat.memo
        found = memo.get(key)
        if found is None:
            found = memo[key] = _play_start(self, info, trump, self._kontra)
        start: _PlayStart = found  # type: ignore[assignment]
        (
            self._tables,
            self._beat,
            self._trump_mask,
            self._standard_duties,
            self._turn,
            self._ulti_seat,
            self._t7,
            self._needs_due,
            self._late_announce,
            self._expose_at,
            self._has_kontra_round,
            self._special_tricks,
            self._wait_kontra,
        ) = start
        self._leader = self._turn
        self._exposed = self._expose_at == 0
        self._announced = {s: [] for s in self._seats.active}
        self._legal = -1
        self._phase = PLAY

    def _announce_window(self) -> bool:
        # _late_announce is marriages.announce == "on_play" in a trump game; outside one
        # nothing is announceable whatever the window.
        return self._trick_no == 0 or self._late_announce

    def _due_open(self) -> bool:
        """Whether a marriage may still be due before a card (cheap: asked before each)."""
        return self._needs_due and (self._trick_no == 0 or self._late_announce)

    def _announceable(self, seat: int) -> tuple[int, ...]:
        # Asked at each card while announcing is open: the window (``_announce_window``)
        # inlined, and no King and Over of a suit (the usual case) means nothing to announce.
        if self._trump < 0 or not (self._trick_no == 0 or self._late_announce):
            return ()
        hand = self._hands[seat]
        if not marriages_in(hand):
            return ()
        assert self._info is not None
        return announceable(
            self._ruleset,
            self._info,
            self._trump,
            hand,
            seat == self._declarer,
            self._announced[seat],
        )

    def _due(self, seat: int) -> tuple[int, ...]:
        hand = self._hands[seat]
        if not self._announce_window() or not marriages_in(hand):
            return ()
        assert self._info is not None
        return due(
            self._ruleset,
            self._info,
            self._trump,
            hand,
            seat == self._declarer,
            self._announced[seat],
        )

    def _why_no_announce(self, seat: int, suit: int, is_declarer: bool) -> str | None:
        if suit in self._announceable(seat):
            return None
        if self._trump < 0:
            return Said("marriages are announced only in trump games")
        if not self._announce_window():
            return Said("marriages are announced at the first trick, before your card")
        hand = self._hands[seat]
        king, over = make_card(Suit(suit), Rank.KING), make_card(Suit(suit), Rank.OVER)
        if suit in self._announced[seat]:
            return Said("that marriage is announced already")
        if not (hand >> king) & 1 or not (hand >> over) & 1:
            return Said(
                "a marriage is the {king} and the {over}, and you do not hold both",
                king=card_name(king),
                over=card_name(over),
            )
        assert self._info is not None
        return hundred_limit_words(self._info, is_declarer)

    def _announce(self, seat: int, suit: int) -> None:
        value = (
            self._ruleset.marriages.trump_value
            if suit == self._trump
            else self._ruleset.marriages.plain_value
        )
        self._announced[seat].append(suit)
        self._marriages.append((seat, suit, value))

    def _why_play_refused(self, card: object) -> str:
        """Why ``card`` is refused: the message ``play_card`` raises, the same as
        ``apply(Play(card))`` would (worked out only once the card is refused)."""
        if type(card) is not int or not 0 <= card < 32:
            hint = " (cards in notation: parse_card)" if isinstance(card, str) else ""
            return f"{card!r} is not a card: a card is an int from 0 to 31{hint}"
        if self._phase is not PLAY:
            # play_card says what apply(Play(card)) says: the phase's own reason ("the hand
            # is over", "discard two cards first", the kontra word). Asked only once the
            # card is refused, so the legal card pays nothing for it.
            reason = self.why_refused(PLAYS[card])
            return reason if reason is not None else Said("no card is played now")
        seat = self._turn
        hand = self._hands[seat]
        if not (hand >> card) & 1:
            return Said("you do not hold the {card}", card=card_name(card))
        pending = self._due(seat) if self._needs_due else ()
        if pending:
            if seat == self._declarer and self._info is not None and self._info.hundred:
                return Said(
                    "announce your marriage first: the bid marriage is announced before "
                    "the declarer's first card"
                )
            return Said(
                "announce your marriage first: announcing marriages is not optional in this ruleset"
            )
        tables = self._tables
        assert tables is not None and self._info is not None
        if self._trick:
            base = legal_mask(tables, hand, self._led, self._best)
            if not (base >> card) & 1:
                return why_refused(tables, hand, self._led, self._best, card)
        return Said(
            "the {contract} declarer keeps the trump 7 ({card}) until the last trick",
            contract=self._info.keeps_seven,
            card=card_name(card),
        )

    # ------------------------------------------------------------------ give up, kontra round

    def _can_give_up(self) -> bool:
        info = self._info
        return (
            info is not None
            and info.plain_parti
            and self._ruleset.simple.give_up_allowed
            and self._phase in (TRUMP, PLAY)
            and not self._tricks
            and not self._trick
            and self.current_player == self._declarer
        )

    def _why_no_give_up(self) -> str:
        if not self._ruleset.simple.give_up_allowed:
            return Said("this ruleset does not let the declarer give up")
        if self._info is None or not self._info.plain_parti:
            return Said("only a plain (non-red, uncombined) Parti may be given up")
        if self.current_player != self._declarer:
            return Said("only the declarer may give up")
        return Said("giving up is possible only before the first lead")

    def _give_up(self) -> None:
        self._gave_up = True
        self._phase = OVER

    def _next_speaker(self, start: int, passed: int) -> int:
        """The next seat from ``start`` on that has not passed and can call; -1 if none.
        ``passed``: the seats (a mask) that passed since the last kontra."""
        kontra = self._kontra
        assert kontra is not None
        speaker, self._kround_passed = kontra.round_speaker(
            start, self._after, self._n_active, self._declarer, passed
        )
        return speaker

    def _kontra_word_words(self) -> str:
        if self._kafter:
            return Said(
                "your kontra word right after your card to the first trick: call a kontra or "
                "pass; then the trick goes on"
            )
        return Said("the kontra round after the first trick comes first: call a kontra or pass")

    def _opens_word(self, seat: int) -> bool:
        """After a defender's card to trick 1, where his window opens only then: give him
        the word (the kontra phase) if he can call anything."""
        kontra = self._kontra
        assert kontra is not None
        if seat == self._declarer or not kontra.can_call(seat, False, AFTER_CARD):
            return False
        self._phase = KONTRA
        self._kturn = seat
        self._kafter = True
        return True

    def _after_card_word(self, seat: int, action: Action) -> None:
        """A defender's word right after his own card: he calls as long as he likes and
        can; a pass (or nothing left to call) lets the trick go on."""
        kontra = self._kontra
        assert kontra is not None
        if isinstance(action, Kontra):
            kontra.apply(action, seat, False)
            if kontra.can_call(seat, False, AFTER_CARD):
                return
        self._kafter = False
        self._phase = PLAY
        self._legal = -1
        if len(self._trick) < self._n_active:
            self._turn = self._after[seat]
        else:
            self._close_trick()

    def _kontra_round(self, seat: int, action: Action) -> None:
        kontra = self._kontra
        assert kontra is not None
        if type(action) is Kontra:  # (checked: of the class itself)
            kontra.apply(action, seat, seat == self._declarer)
            start, passed = seat, 0  # a kontra opens the word to everybody again
        else:
            start, passed = self._after[seat], self._kround_passed | 1 << seat
        speaker, self._kround_passed = kontra.round_speaker(
            start, self._after, self._n_active, self._declarer, passed
        )
        if speaker < 0:
            self._phase = PLAY
            self._legal = -1
        else:
            self._kturn = speaker

    # ------------------------------------------------------------------ results

    @property
    def facts(self) -> Facts | None:
        """What happened, for settlement; None until over, and for a hand not played out."""
        if self._phase != OVER or len(self._tricks) != TRICKS:
            return None
        if self._facts is None:
            from .facts import build_facts

            self._facts = build_facts(self)
        return self._facts

    @property
    def contract(self) -> Contract | None:
        """What was bid and doubled; None during the auction and for a passed-out hand."""
        info = self._info
        if info is None:
            return None
        contract = self._final_contract
        if contract is not None:
            return contract
        # Most hands call no kontra: their contract is one of a few per bid, declarer,
        # dealer (the order of the defenders) and trump, kept in the catalogue's memo (the
        # game's) and shared, as it is immutable. A hand with kontras builds its own.
        key = None
        assert self._kontra is not None
        if not any(self._kontra.node.flat):
            auction = self._auction
            key = (
                "contract",
                info.id,
                self._declarer,
                self._seats.dealer,
                self._trump,
                self._gave_up,
                auction.uncontested,
                auction.multiplier(),
            )
            contract = self._cat.memo.get(key)  # type: ignore[assignment]
        if contract is None:
            from .facts import build_contract

            contract = build_contract(self)
            if key is not None:
                self._cat.memo[key] = contract  # type: ignore[assignment]
        if self._phase is OVER:
            self._final_contract = contract
        return contract

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see now (``to_dict()``: as plain data)."""
        from .observation import observe

        return observe(self, seat)


_COPIED_SLOTS = frozenset(
    {
        "_hands",
        "_history",
        "_pickups",
        "_discards",
        "_auction",
        "_trick",
        "_tricks",
        "_kontra",
        "_announced",
        "_marriages",
        "_undo",
    }
)
"""The slots that play changes in place: ``Hand.clone`` copies these, shares the rest."""

_SHARED_SLOTS: tuple[str, ...] = tuple(s for s in Hand.__slots__ if s not in _COPIED_SLOTS)

_PLAY_CHANGES = (
    "_legal",
    "_best",
    "_best_seat",
    "_led",
    "_turn",
    "_phase",
    "_kturn",
    "_kafter",
    "_trick_no",
    "_leader",
    "_wait_kontra",
    "_exposed",
    "_kround_passed",
    "_facts",
    "_final_contract",
)
"""The single values a card (with the trick it may close) changes: what ``undo`` restores."""
_TRICK_NO = _PLAY_CHANGES.index("_trick_no")
_played_over = attrgetter(*_PLAY_CHANGES)

_EVERY_PAIR: tuple[Any, ...] = ("every pair of the cards held",)
"""``Hand._offered`` after ``legal_actions()`` listed every pair of the seat's cards to
discard: no action is this string, so ``apply`` asks ``_holds_pair`` instead of searching."""
_IN_TRICK: tuple[Any, ...] = ("a card within a trick",)
_TRICK_END: tuple[Any, ...] = ("a card that closed a trick",)
_WHOLE_TRICK = (_IN_TRICK, _IN_TRICK, _TRICK_END)
"""Undo entries of the cards ``play_random`` plays: the card and seat are the history's
last entry, and what else the card changed follows from the trick's cards."""

_SEAT_PLAYS: tuple[tuple[tuple[int, Play], ...], ...] = tuple(
    tuple((seat, PLAYS[card]) for card in range(32)) for seat in range(4)
)
"""``_SEAT_PLAYS[seat][card]``: the history entry of that card played by that seat (shared:
a history holds thirty of them a hand)."""


class _PlayStart(NamedTuple):
    """What the play starts from, the same for every hand of one bid, trump, declarer and
    dealer: worked out once (``Hand._start_play``, kept in the catalogue's memo)."""

    tables: RankTables
    beat: tuple[int, ...]
    trump_mask: int
    standard_duties: bool
    """Follow, trump and beat: the duties the fast paths inline."""
    lead: int
    ulti_seat: int
    """The declarer who keeps the trump 7 to the last trick, or -1."""
    t7: int
    needs_due: bool
    """A marriage may be due before a card (the bid marriage, or marriages not optional)."""
    late_announce: bool
    """Marriages may be announced after trick 1 (``marriages.announce: on_play``)."""
    expose_at: int
    has_kontra_round: bool
    special_tricks: frozenset[int]
    """Tricks (0-based) whose end ``play_random`` leaves to ``_close_trick``: the one that
    lays an open contract down, the first where a kontra round follows."""
    wait_kontra: bool


def _play_start(hand: Hand, info: BidInfo, trump: int, kontra: KontraChains) -> _PlayStart:
    """What ``hand``'s play starts from, worked out from its bid, trump, declarer and rules."""
    ruleset = hand.ruleset
    tables = hand.game.tables(trump)
    declarer = hand._declarer
    marriages = ruleset.marriages
    # The bid marriage is due unless the ruleset lets it go unannounced (and says what
    # then becomes of the 100: in_hundred_game.unannounced).
    bid_marriage_due = info.hundred and marriages.in_hundred_game.unannounced == "required"
    expose_at = ruleset.open_games.after_trick if info.open else -1
    has_round = kontra.has_round
    special = {expose_at - 1}  # (the last trick ends the hand in the loop itself)
    if has_round:
        special.add(0)
    return _PlayStart(
        tables=tables,
        beat=tables.beat,
        trump_mask=tables.trump_mask,
        standard_duties=tables.must_follow and tables.must_trump and tables.must_beat,
        lead=declarer if ruleset.play.first_lead == "declarer" else hand.seats.forehand,
        ulti_seat=declarer if info.keeps_seven and trump >= 0 else -1,
        t7=_SEVENS[trump] if trump >= 0 else 0,
        needs_due=trump >= 0 and (bid_marriage_due or not marriages.optional),
        late_announce=trump >= 0 and marriages.announce == "on_play",
        expose_at=expose_at,
        has_kontra_round=has_round,
        special_tricks=frozenset(special),
        wait_kontra=kontra.defenders_wait,
    )


_WHAT_A_DEAL_IS = (
    "a deal is a Deal, a (hands, rest) pair (one card list per seat, then the cards "
    "beside the hands) or the mapping Deal.to_dict() gives"
)


def _deal_parts(deal: object) -> tuple[Sequence[object], object]:
    """The hands and the rest of an explicit deal in any form ``Hand`` takes.

    Whatever the shape, a deal that is not one is a ``BadDeal`` saying what a deal is:
    a mapping unpacked as a pair would be read as its keys, an int would not unpack.
    """
    if isinstance(deal, Deal):
        hands, rest = deal.hands, deal.rest
    elif isinstance(deal, Mapping):  # a record's plain data: Deal.to_dict()
        read = Deal.from_dict(deal)
        hands, rest = read.hands, read.rest
    elif isinstance(deal, (str, bytes)) or not isinstance(deal, Sequence) or len(deal) != 2:
        raise BadDeal(f"{_WHAT_A_DEAL_IS}, not {_shown(deal)}")
    else:
        hands, rest = deal
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise BadDeal(f"{_WHAT_A_DEAL_IS}; its hands are {_shown(hands)}, not one list per seat")
    return hands, rest


def _shown(value: object) -> str:
    """A value in a message, its type named and kept short (a list by its length)."""
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        return f"a {type(value).__name__} of {len(value)}"
    return f"{type(value).__name__} {value!r}"[:80]


_INTERNED: Recent[tuple[type, str], Ruleset] = Recent(16)


def _unpickle(
    ruleset: Ruleset, deal: Deal, dealer: int, seed: int | str | None, actions: Sequence[Action]
) -> Hand:
    """Rebuild a pickled hand by replaying its actions (``Hand.__reduce__``).

    Equal rulesets are interned (the last 16), so that hands loaded one by one share
    one ruleset and its game's tables are built once.
    """
    key = (type(ruleset), ruleset.model_dump_json())
    ruleset = _INTERNED.setdefault(key, ruleset)
    registry = get_registry()
    missing = sorted({spec.kind for spec in ruleset.contracts.values()} - set(registry.kinds))
    if missing:
        raise PluginError(
            f"cannot load a pickled hand of '{ruleset.name}': this process has no contract "
            f"kind {', '.join(repr(k) for k in missing)} (install or register its plugin)"
        )
    hand = Hand(ruleset, deal=deal, dealer=dealer, registry=registry)
    hand._seed = seed
    for action in actions:
        hand.apply(action)
    return hand
