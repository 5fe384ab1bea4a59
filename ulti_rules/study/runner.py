"""Playing a study's hands: seeds fixed per turn of the deal, each hand settled into plain data.

A study is a row of *turns*: turn ``t`` is dealt by seat ``t × step`` (the deal passes
on after every hand, as at a table). Most turns are one hand. A hand everybody passed
under ``auction.all_pass: redeal`` does not count at a table: the same dealer deals
again, so such a turn holds the redeals too, until a hand is bid. Each turn's seed is
drawn up front from ``seeding.seeded(seed)``; the turn's own generator then gives each
of its hands a deal seed and a seed for the bots' generator. Nothing a hand does
reaches another turn, so the turns can be played in any order, by any number of
processes, and the hands come out the same: the dealer sequence is the one a table
would follow, without playing the hands before to know it.

Each hand gets fresh bots too: a bot that learned between hands would make the result
depend on which process played which turns.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from operator import itemgetter, methodcaller
from typing import TYPE_CHECKING, NamedTuple

from ..bots import bot as make_bot
from ..bots import play_out
from ..engine.facts import facts_view
from ..errors import UltiError
from ..game.seating import direction_step, passed_on
from ..records import HandRecord, record_of
from ..ruleset.loading import load_game
from ..said import Said
from ..scoring.all_pass import all_pass_payments, redealt
from ..scoring.settlement import settle_brief
from ..seeding import seeded

if TYPE_CHECKING:
    from ..bots import Bot
    from ..engine import Hand
    from ..facts import Contract

PLAYED, GIVEN_UP, NOT_PLAYED, PASSED_OUT = "played", "given up", "not played", "passed out"
"""How a hand ended: played out; given up before the first lead; decided before play (an
uncontested Simple lost double); nobody bid."""


@dataclass(frozen=True)
class StudySpec:
    """What a study plays; plain data, so that each worker process builds its own table."""

    ruleset: str
    """A ruleset name, or the absolute path of its file."""
    bots: tuple[str, ...]
    """One bot name per seat."""
    seed: int
    hands: int
    records: bool = False
    """Keep each hand's record (``--save-records``)."""
    whole_turns: bool = False
    """Play ``hands`` turns of the deal whole, each with the redeals its rules call for,
    instead of stopping at ``hands`` hands: two studies compared then hold the same deals
    (``--compare``), though one ruleset deals again where nobody bids and the other not."""
    ruleset_hash: str | None = None
    """The ruleset's content hash, written into each record (computed once)."""
    records_ruleset: str | None = None
    """How the records name the ruleset, where not as ``ruleset`` (a path relative to
    their folder, so that ``ulti replay`` finds it)."""

    def __post_init__(self) -> None:
        """Refuse a study no seed repeats (``seed=None`` drew its seeds from the system)
        and a negative number of hands: each played on silently."""
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ValueError(f"a study's seed is an int, so that it repeats; not {self.seed!r}")
        if self.hands < 0:
            raise ValueError(f"a study plays 0 hands or more, not {self.hands}")


class HandResult(NamedTuple):
    """One hand as the study counts it: who dealt and declared, what was bid and how it
    ended, the payment per seat, and what the settlement says of each line."""

    turn: int
    seed: int
    """The deal seed: ``game.new_hand(seed=seed, dealer=dealer)`` deals it again."""
    bot_seed: int
    """The seed of the bots' ``random.Random``: with it, ``play_out`` plays it again."""
    dealer: int
    outcome: str
    declarer: int | None
    bid: str | None
    trump: str | None
    made: bool
    """Every component of the bid made (a hand given up or lost uncontested: not made)."""
    payments: tuple[int, ...]
    """Net result per seat; sums to zero."""
    components: tuple[tuple[str, bool], ...]
    """(component id, made) for each component line of the settlement."""
    kontras: tuple[tuple[str, int], ...]
    """(component id, highest level any defender reached) for each component doubled."""
    silent: tuple[tuple[str, str, bool], ...]
    """(silent bonus id, the side whose feat it was, made) for each silent line."""

    @property
    def kontra_level(self) -> int:
        """The highest kontra level of the hand (0: none)."""
        return max((level for _, level in self.kontras), default=0)


def turn_seeds(seed: int, turns: int) -> list[int]:
    """The seeds of the first ``turns`` turns (those of :func:`each_turn_seed`)."""
    return list(itertools.islice(each_turn_seed(seed), turns))


def each_turn_seed(seed: int) -> Iterator[int]:
    """The seed of each turn in order, drawn from the study's seed as they are wanted: a
    study of a billion hands never holds a billion seeds."""
    draw = seeded(seed).getrandbits
    while True:
        yield draw(64)


def seat_names(players: int) -> list[str]:
    """The players' names in a study: P1, P2, ... by seat."""
    return [f"P{seat + 1}" for seat in range(players)]


def dealer_of(turn: int, players: int, step: int) -> int:
    """Who deals turn ``turn``: seat 0 deals turn 0, and the deal passes by ``step`` (+1
    or -1, ``seating.direction_step``) once a turn (a turn's redeals do not pass it), as
    a session's ledger rotates it (``seating.passed_on``, which ``Ledger.dealer_of`` asks
    too)."""
    return passed_on(0, turn, step, players)


def result_of(
    hand: Hand,
    contract: Contract | None,
    *,
    turn: int = 0,
    bot_seed: int = 0,
) -> HandResult:
    """A finished hand settled: its payments and the verdict of each component and silent
    bonus, which the summary counts."""
    seed = hand.seed if isinstance(hand.seed, int) else 0
    dealer = hand.dealer
    if contract is None:
        paid = all_pass_payments(hand.ruleset, dealer)
        payments = tuple(paid[seat] for seat in range(len(paid)))
        return HandResult(
            turn, seed, bot_seed, dealer, PASSED_OUT, None, None, None, False, payments, (), (), ()
        )
    # The light view of the facts and the settlement in brief: the same payments and
    # verdicts as ``settle(hand.game, contract, hand.facts)`` without building the models
    # (tests/test_settle_from_view.py holds them equal).
    view = facts_view(hand)
    brief = settle_brief(hand.game, contract, view, trusted=True)
    components = brief.components
    outcome = GIVEN_UP if contract.gave_up else PLAYED if view is not None else NOT_PLAYED
    made = outcome != GIVEN_UP and all(map(_MADE, components))
    kontra = contract.kontra
    kontras = (
        tuple(
            (cid, top)
            for cid, seats in kontra.items()
            if (top := max(seats.values(), default=0)) > 0
        )
        if any(map(any, map(_VALUES, kontra.values())))
        else ()
    )
    return _result(
        (
            turn,
            seed,
            bot_seed,
            dealer,
            outcome,
            contract.declarer,
            contract.bid,
            contract.trump,
            made,
            tuple(brief.payments.values()),  # keyed by seat, in seat order
            components,
            kontras,
            brief.silent,
        )
    )


_MADE = itemgetter(1)
_VALUES = methodcaller("values")
_result = partial(tuple.__new__, HandResult)
"""A HandResult from its fields in order, made in C (its ``__new__`` is Python): once a hand."""


MAX_DEALS_A_TURN = 1000
"""Deals of one turn (the first, and its redeals where nobody bid) before a study stops
with an error: bots that never bid would deal again for ever. Random bots bid more often
than not; a thousand passed-out deals in a row is a bot that cannot bid."""

SETTLED_TOGETHER = 32
"""Hands played before they are settled, together. Settling a hand right after playing
it runs the settlement's code cold and pushes the engine's out of the processor's
caches, so that the next hand plays slower too: settled in batches, each runs warm
(docs/performance.md, "Settling in batches"). The results are the same either way."""


class Finished(NamedTuple):
    """A hand played out and not yet settled: the hand, its contract (None: passed out),
    and what its result records of how it was played."""

    hand: Hand
    contract: Contract | None
    turn: int
    bot_seed: int


def results_of(finished: Sequence[Finished]) -> list[HandResult]:
    """Played hands settled (``result_of``), in order."""
    return [
        result_of(done.hand, done.contract, turn=done.turn, bot_seed=done.bot_seed)
        for done in finished
    ]


class Stopped(Exception):
    """A chunk of turns cut short because the study no longer needs it (it has its hands,
    failed elsewhere, or was interrupted): never a result."""


Played = tuple[HandResult, HandRecord | None]
"""A hand's result, and its record where the study keeps records."""


class Table:
    """Where a study's hands are played: the game and the bots, set up once per process."""

    def __init__(self, spec: StudySpec) -> None:
        self.spec = spec
        self.game = load_game(spec.ruleset)
        ruleset = self.game.ruleset
        self.players = ruleset.players.count
        self.step = direction_step(ruleset)
        self.redeal = redealt(ruleset)
        self.names = seat_names(self.players)
        if len(spec.bots) != self.players:  # too few failed mid-hand, too many went unseen
            raise ValueError(
                f"{len(spec.bots)} bots for the {self.players} seats of {ruleset.name!r}: "
                "name one bot per seat"
            )
        self._bot_classes: list[type[Bot]] = [type(make_bot(name)) for name in spec.bots]

    def _bots(self) -> list[Bot]:
        """Fresh bots for one hand, one per seat. A class that fails to build is built
        again the registry's way, which names the plugin whose bot it is (a bot that
        built at the start may fail at a later hand)."""
        try:
            return [bot_cls() for bot_cls in self._bot_classes]
        except (Exception, SystemExit):
            return [make_bot(name) for name in self.spec.bots]

    def deal_and_play(self, turn: int, dealer: int, seed: int, bot_seed: int) -> Finished:
        """One hand dealt from ``seed`` and played by the bots from ``bot_seed``, not yet
        settled."""
        hand = play_out(
            self.game.new_hand(seed=seed, dealer=dealer), self._bots(), random.Random(bot_seed)
        )
        return Finished(hand, hand.contract, turn, bot_seed)

    def settle(self, finished: Sequence[Finished]) -> list[Played]:
        """Played hands settled, in order, each with its record where the study keeps them."""
        results = results_of(finished)
        if not self.spec.records:
            return [(result, None) for result in results]
        return [
            (
                result,
                record_of(
                    done.hand,
                    self.spec.records_ruleset or self.spec.ruleset,
                    players=self.names,
                    ruleset_hash=self.spec.ruleset_hash,
                ),
            )
            for result, done in zip(results, finished, strict=True)
        ]

    def play_turns(
        self,
        start: int,
        seeds: Sequence[int],
        budget: int,
        stop: Callable[[], bool] | None = None,
    ) -> list[Played]:
        """The hands of turns ``start``, ``start + 1``, ... (one seed each), stopping after
        ``budget`` hands: no more can be needed from here, as every turn before holds one.

        The hands are settled :data:`SETTLED_TOGETHER` at a time, after they are played.
        ``stop`` is asked before each hand; when it says yes the study no longer wants
        these hands, and :class:`Stopped` is raised instead of giving part of them."""
        played: list[Played] = []
        waiting: list[Finished] = []
        count = 0
        for turn, turn_seed in enumerate(seeds, start):
            dealer = dealer_of(turn, self.players, self.step)
            draw = random.Random(turn_seed).getrandbits
            dealt = 0
            while count < budget:
                if dealt == MAX_DEALS_A_TURN:
                    raise UltiError(
                        Said(
                            "nobody bid in {n} deals of turn {turn}: the bots ({bots}) never "
                            "bid under these rules, and the deal is dealt again each time",
                            n=dealt,
                            turn=turn,
                            bots=", ".join(self.spec.bots),
                        )
                    )
                dealt += 1
                if stop is not None and stop():
                    raise Stopped(f"turns from {start} stopped after {count} hands")
                seed, bot_seed = draw(32), draw(32)
                done = self.deal_and_play(turn, dealer, seed, bot_seed)
                waiting.append(done)
                count += 1
                if len(waiting) == SETTLED_TOGETHER:
                    played += self.settle(waiting)
                    waiting.clear()
                if not self.redeal or done.contract is not None:  # else nobody bid: deal again
                    break
            if count >= budget:
                break
        played += self.settle(waiting)
        return played
