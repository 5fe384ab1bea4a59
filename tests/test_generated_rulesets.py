"""Random legal play under drawn club rulesets (issue 7, item 9).

``ruleset_strategies.club_rulesets`` draws a club file that extends a bundled ruleset
and changes settings from every section (talon modes and packets, the auction, trump
modes, card points, kontra chains, caps and windows, four players, the two-round
auction, ranking rules with changed values, the house rules). Each club is written
to a file and loaded through the real loader: every drawn club must load. Then a few
hands are played by a random policy (kontras at a bounded rate, so hands end),
checking at every step that

- every listed action is accepted (a sample of them, each on a clone);
- actions not listed (a random one; a card not listed; a bid not above the standing
  one) are refused with ``IllegalAction`` and change nothing: state, history,
  observations and legal actions are as before;
- every card is in exactly one place (a hand, the talon, the cards not yet dealt or
  out of play, a trick);

and at the end that the hand ended; a played hand passes the independent checker
(``engine_checker``: the play, the winners, the card points) and its points add up
to the ruleset's total (the deck's card points and the last trick); the settlement
is zero-sum; and the score keeper, given the facts as a table writes them
(``sheet_from``, beside the club file), settles it exactly as the engine did. A hand
nobody bid goes the ledger's way: ``ulti ledger add --passed-out`` pays what
``auction.all_pass`` says, zero-sum.

The default run (CI) draws 40 clubs and plays 3 hands under each, the same ones
every run. For more, nightly-style, with new draws each run::

    ULTI_GENERATED_EXAMPLES=2000 pytest tests/test_generated_rulesets.py

(``--generated-examples 2000`` works too where tests/conftest.py registers it;
``ULTI_GENERATED_HANDS`` sets the hands per club.)
"""

from __future__ import annotations

import os
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ulti_rules import settle
from ulti_rules.engine import Action, Bid, GiveUp, Hand, Kontra, Pass, Play
from ulti_rules.engine.masks import cards_of
from ulti_rules.errors import IllegalAction
from ulti_rules.plugins import get_registry
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.ruleset.schema import Ruleset
from ulti_rules.scoring.all_pass import all_pass_payments
from ulti_rules.scoring.ledger import add_passed_out, may_pass_out, new_ledger
from ulti_rules.scoring.table_facts import settle_sheet, sheet_from

from engine_checker import check_played_hand
from engine_support import random_action, snapshot
from ruleset_strategies import Club, club_rulesets

DEFAULT_EXAMPLES = 40
HANDS_PER_CLUB = int(os.environ.get("ULTI_GENERATED_HANDS", "3"))
PLAYERS = ["Anna", "Ben", "Carla", "Dani"]
MAX_STEPS = 2000
KONTRA_RATES = (0.0, 0.1, 0.3)
"""How often a seat that may call a kontra does (bounded, so that the chain stops)."""
PASS_RATES = (0.3, 0.6)
EVERY_ACTION_UNTIL = 2
"""Each listed action is tried until this many tricks are played; a sample after."""


def examples(config: pytest.Config) -> int | None:
    """The number of clubs asked for (``--generated-examples`` or the environment), if any."""
    asked = config.getoption("--generated-examples", default=None) or os.environ.get(
        "ULTI_GENERATED_EXAMPLES"
    )
    return int(asked) if asked else None


# --------------------------------------------------------------------------- one hand


@dataclass(frozen=True)
class Temper:
    """How one random hand is played."""

    kontra: float
    passing: float


def choose(rng: random.Random, legal: list[Action], temper: Temper) -> Action:
    """A random legal action: kontras at the hand's rate, low bids, passes now and then."""
    kontras = [a for a in legal if isinstance(a, Kontra)]
    calm = [a for a in legal if not isinstance(a, Kontra)]
    if not calm or (kontras and rng.random() < temper.kontra):
        return rng.choice(kontras)
    passes = [a for a in calm if isinstance(a, Pass)]
    if passes and rng.random() < temper.passing:
        return passes[0]
    bids = [a for a in calm if isinstance(a, Bid)]
    if bids and rng.random() < 0.7:
        return rng.choice(bids[:4])  # listed from the lowest
    kinds = sorted({a.type for a in calm})
    kind = rng.choice(kinds)
    return rng.choice([a for a in calm if a.type == kind])


def state(hand: Hand) -> tuple[Any, ...]:
    """Everything a refused action must leave as it was."""
    seen = tuple(hand.observation(seat) for seat in range(hand.seats.players))
    return snapshot(hand), hand.history, hand.legal_actions(), seen


def illegal_probes(rng: random.Random, hand: Hand, legal: list[Action]) -> list[Action]:
    """Actions the hand does not list now: a random one, a card, a bid not above the
    standing one (each only if it is indeed not listed)."""
    probes: list[Action] = [random_action(rng, hand)]
    if hand.phase == "play":
        listed = {a.card for a in legal if isinstance(a, Play)}
        others = [card for card in range(32) if card not in listed]
        probes.append(Play(rng.choice(others)))
    standing = hand.bid
    if hand.phase == "auction" and standing is not None:
        rank = hand.ruleset.bid(standing).rank
        lower = [bid.id for bid in hand.ruleset.ladder if bid.rank <= rank]
        probes.append(Bid(rng.choice(lower), rng.choice((None, "acorns", "hearts"))))
    return [probe for probe in probes if probe not in legal]


def conserved(hand: Hand) -> None:
    """Every card in exactly one place: a hand, a trick, the talon, or not yet dealt."""
    places = [card for seat in range(hand.seats.players) for card in hand.cards(seat)]
    if hand.seats.sitting_out is not None:
        assert hand.cards(hand.seats.sitting_out) == [], "the dealer who sits out holds nothing"
    places += [card for _, cards, _ in hand.tricks for card in cards]
    places += hand.current_trick[1]
    if hand.phase == "auction":
        auction = hand._auction  # the talon on the table, the cards out of play or still to come
        places += auction.talon or ()
        places += auction.rest
        places += auction.extra
        places += [card for mask in auction.later.values() for card in cards_of(mask)]
    else:
        places += hand.talon
    assert sorted(places) == list(range(32)), f"cards lost or doubled ({hand.step})"


def play_checking(rules: Ruleset, seed: int, rng: random.Random) -> Hand:
    """A random legal hand, with every check of the module docstring at every step."""
    hand = Hand(rules, seed=seed, dealer=rng.randrange(rules.players.count))
    temper = Temper(rng.choice(KONTRA_RATES), rng.choice(PASS_RATES))
    steps = 0
    while not hand.is_over:
        steps += 1
        assert steps < MAX_STEPS, "a hand always ends"
        conserved(hand)
        legal = hand.legal_actions()
        assert legal, f"the seat to act always has an action ({hand.phase}, {hand.step})"
        every = len(hand.tricks) < EVERY_ACTION_UNTIL and hand.phase != "auction"
        tried = legal if every else rng.sample(legal, min(len(legal), 3))
        for action in tried:
            try:
                hand.clone().apply(action)
            except IllegalAction as refused:
                raise AssertionError(f"{action} is listed but refused: {refused}") from None
        for probe in illegal_probes(rng, hand, legal):
            before = state(hand)
            with pytest.raises(IllegalAction):
                hand.apply(probe)
            assert state(hand) == before, f"refusing {probe} changed the hand"
        hand.apply(choose(rng, legal, temper))
    conserved(hand)
    assert hand.legal_actions() == [] and hand.current_player is None
    return hand


# --------------------------------------------------------------------------- its end


def check_passed_out(rules: Ruleset, hand: Hand, club_file: Path) -> None:
    """Nobody bid: only where the opener may pass; the ledger pays what all_pass says."""
    assert may_pass_out(rules), "a hand is passed out only where the opener may pass"
    assert hand.contract is None and hand.facts is None
    players = PLAYERS[: rules.players.count]
    dealer = players[hand.dealer]
    ledger = new_ledger(str(club_file), players, dealer, None, folder=club_file.parent)
    entry = add_passed_out(ledger, dealer=dealer)
    payments = all_pass_payments(rules, hand.dealer)
    assert entry.payments == {players[seat]: amount for seat, amount in payments.items()}
    assert sum(payments.values()) == 0
    assert entry.redeal == (rules.auction.all_pass == "redeal")
    forehand = hand.seats.forehand
    if rules.auction.all_pass == "forehand_pays":
        paid = [seat for seat, amount in payments.items() if amount > 0]
        assert all(payments[seat] == rules.auction.all_pass_payment for seat in paid)
        assert payments[forehand] == -len(paid) * (rules.auction.all_pass_payment or 0)
    else:
        assert set(payments.values()) == {0}


def check_settled(rules: Ruleset, hand: Hand, club_file: Path, number: int) -> None:
    """Points add up; the settlement is zero-sum and the score keeper's is the same."""
    contract, facts = hand.contract, hand.facts
    assert contract is not None
    if facts is None:
        assert contract.gave_up or (
            contract.uncontested and not rules.simple.uncontested_played_out
        ), "a hand with a contract is played out unless given up or decided unplayed"
    else:
        check_played_hand(rules, get_registry(), facts, contract)
        total = facts.declarer_points + facts.defender_points + facts.talon_points
        assert total == rules.points.total(), "card points and the last trick add up"
    result = settle(rules, contract, facts)
    assert set(result.payments) == set(range(rules.players.count))
    assert sum(result.payments.values()) == 0, "the settlement is zero-sum"
    players = PLAYERS[: rules.players.count]
    sheet = sheet_from(
        rules, contract, facts, ruleset_ref=club_file.name, players=players, dealer=hand.dealer
    )
    sheet_file = club_file.parent / f"hand-{number}.yaml"
    sheet_file.write_text(yaml.safe_dump(sheet, allow_unicode=True, sort_keys=False), "utf-8")
    table, typed = settle_sheet(sheet_file)
    same = ("bid", "declarer", "trump", "gave_up", "uncontested", "multiplier", "sitting_out")
    assert {k: getattr(table.contract, k) for k in same} == {
        k: getattr(contract, k) for k in same
    }
    assert typed == result, "the score keeper settles the table's facts as the engine did"


def check_club(club: Club, seed: int) -> None:
    """Load the drawn club through the real loader, then play and check a few hands."""
    with tempfile.TemporaryDirectory() as folder:
        club_file = club.write(Path(folder))
        rules = load_ruleset(club_file)  # every drawn club must load
        rng = random.Random(seed)
        for number in range(HANDS_PER_CLUB):
            hand = play_checking(rules, rng.randrange(2**32), rng)
            if hand.passed_out:
                check_passed_out(rules, hand, club_file)
            else:
                check_settled(rules, hand, club_file, number)


# --------------------------------------------------------------------------- the tests


def test_random_legal_play_under_drawn_club_rulesets(pytestconfig: pytest.Config) -> None:
    asked = examples(pytestconfig)

    @settings(
        max_examples=asked or DEFAULT_EXAMPLES,
        derandomize=asked is None,  # CI: the same clubs every run; asked for more: new ones
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(club=club_rulesets(), seed=st.integers(0, 2**32 - 1))
    def every_club(club: Club, seed: int) -> None:
        check_club(club, seed)

    every_club()
