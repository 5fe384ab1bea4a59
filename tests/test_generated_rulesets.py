"""Random legal play under drawn club rulesets (issue 7, item 9).

``ruleset_strategies.club_rulesets`` draws a club file that extends a bundled ruleset
and changes settings from every section (talon modes and packets, the auction, trump
modes, card points, kontra chains, caps and windows, four players, the two-round
auction, ranking rules with changed values, the house rules). Each club is written
to a file and loaded through the real loader: every drawn club must load, and the
ruleset the disk cache reads back (``cache_support.load_through_disk``) must equal the
one validated; the hands are played under the one read back. Then a few
hands are played by a random policy (kontras at a bounded rate, so hands end),
checking at every step that

- every listed action is accepted, each on a clone (all of them until two tricks are
  played, a sample after);
- actions not listed (a random one; a card not listed; a bid not above the standing
  one) are refused with ``IllegalAction`` and change nothing: state, history,
  observations and legal actions are as before;
- every card is in exactly one place (a hand, the talon, the cards not yet dealt or
  out of play, a trick);

and at the end that the hand ended; a played hand passes the independent checker
(``engine_checker``: the play, the winners, the card points) and its points add up
to the ruleset's total (the deck's card points and the last trick); the settlement
is zero-sum; and the score keeper, given the facts as a table writes them
(``sheet_from``, beside the club file, the bid now and then by an alias and a kontra
by its level's name), settles it exactly as the engine did. A hand nobody bid goes the
ledger's way: ``ulti ledger add --passed-out`` pays what ``auction.all_pass`` says,
zero-sum.

The club's hands are one session, kept in a ledger in memory as ``ulti play`` keeps
it (``Sitting``): each hand is dealt by the ledger's next dealer, enters it as the
engine's hand (settled as the engine did), and a few misdeals follow; the ledger must
end the session as ``session.hands`` and ``session.end: heart_ace`` say (worked out
here: the deals that passed on, the last round of three from the Ace of hearts'
holder's next deal), and then refuse another hand.

The default run (CI) draws 50 clubs and plays 3 hands under each, the same ones
every run, split over five tests that each draw from their own seed. For more,
nightly-style, with new draws each run::

    ULTI_GENERATED_EXAMPLES=2000 pytest tests/test_generated_rulesets.py

(or ``pytest tests/test_generated_rulesets.py --generated-examples 2000``;
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
from hypothesis import HealthCheck, event, given, settings
from hypothesis import seed as fixed_seed
from hypothesis import strategies as st
from ulti_rules import settle
from ulti_rules.cards import Rank, Suit, make_card, suit_number
from ulti_rules.engine import Action, Bid, Hand, Kontra, Pass, Play
from ulti_rules.engine.masks import cards_of
from ulti_rules.errors import IllegalAction
from ulti_rules.plugins import get_registry
from ulti_rules.ruleset.loading import check_file, load_ruleset
from ulti_rules.ruleset.schema import Ruleset
from ulti_rules.scoring.all_pass import all_pass_payments
from ulti_rules.scoring.ledger import (
    MAX_PAYMENT,
    Ledger,
    LedgerError,
    LedgerHand,
    add_misdeal,
    add_passed_out,
    add_played,
    new_ledger,
)
from ulti_rules.scoring.settlement import Settlement
from ulti_rules.scoring.sheet import read_sheet
from ulti_rules.scoring.table_facts import hand_from_sheet, settle_sheet, sheet_from

from cache_support import load_through_disk
from engine_checker import Checker, suit
from engine_support import random_action, snapshot
from ruleset_strategies import Club, club_rulesets

PARTS = 5
EXAMPLES_PER_PART = 10
"""50 clubs in all by default, as one test of 50 drew: the five seeds draw 44 different
clubs on all five bases (one test of 50 drew 42, none on four-player)."""
HANDS_PER_CLUB = int(os.environ.get("ULTI_GENERATED_HANDS", "3"))
PLAYERS = ["Anna", "Ben", "Carla", "Dani"]
MAX_STEPS = 2000
KONTRA_RATES = (0.0, 0.1, 0.3)
"""How often a seat that may call a kontra does (bounded, so that the chain stops)."""
PASS_RATES = (0.3, 0.6, 0.85)
"""How often a seat that may pass does: often, so that many hands end in low bids, where
silent bonuses live."""
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


def choose(rng: random.Random, hand: Hand, legal: list[Action], temper: Temper) -> Action:
    """A random legal action: kontras at the hand's rate, low bids, passes now and then,
    and the trump 7 mostly kept for the last trick (where silent Ultis are made or lost)."""
    kontras = [a for a in legal if isinstance(a, Kontra)]
    calm = [a for a in legal if not isinstance(a, Kontra)]
    if hand.trump is not None and rng.random() < 0.8:
        seven = make_card(Suit(suit_number(hand.trump)), Rank.SEVEN)
        kept = [a for a in calm if not (isinstance(a, Play) and a.card == seven)]
        if any(isinstance(a, Play) for a in kept):
            calm = kept
    if not calm or (kontras and rng.random() < temper.kontra):
        return rng.choice(kontras)
    passes = [a for a in calm if isinstance(a, Pass)]
    if passes and rng.random() < temper.passing:
        return passes[0]
    bids = [a for a in calm if isinstance(a, Bid)]
    if bids and rng.random() < 0.7:  # listed from the lowest: mostly one of the first few
        return bids[min(int(rng.expovariate(1.0)), len(bids) - 1)]
    kinds = sorted({a.type for a in calm})
    kind = rng.choice(kinds)
    return rng.choice([a for a in calm if a.type == kind])


def state(hand: Hand) -> tuple[Any, ...]:
    """Everything a refused action must leave as it was (``snapshot`` holds every slot;
    what the seat to act sees and may do are read through the public API too)."""
    seat = hand.current_player
    assert seat is not None
    return snapshot(hand), hand.history, hand.legal_actions(), hand.observation(seat)


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


def play_checking(rules: Ruleset, seed: int, rng: random.Random, dealer: int) -> Hand:
    """A random legal hand, with every check of the module docstring at every step."""
    hand = Hand(rules, seed=seed, dealer=dealer)
    temper = Temper(rng.choice(KONTRA_RATES), rng.choice(PASS_RATES))
    steps = 0
    while not hand.is_over:
        steps += 1
        assert steps < MAX_STEPS, "a hand always ends"
        conserved(hand)
        legal = hand.legal_actions()
        assert legal, f"the seat to act always has an action ({hand.phase}, {hand.step})"
        every = len(hand.tricks) < EVERY_ACTION_UNTIL
        tried = legal if every else rng.sample(legal, min(len(legal), 3))
        for action in tried:
            try:
                hand.clone().apply(action)
            except IllegalAction as refused:
                raise AssertionError(f"{action} is listed but refused: {refused}") from None
        probes = illegal_probes(rng, hand, legal)
        before = state(hand) if probes else None  # each refusal leaves it so: taken once
        for probe in probes:
            with pytest.raises(IllegalAction):
                hand.apply(probe)
            assert state(hand) == before, f"refusing {probe} changed the hand"
        hand.apply(choose(rng, hand, legal, temper))
    conserved(hand)
    assert hand.legal_actions() == [] and hand.current_player is None
    return hand


# --------------------------------------------------------------------------- its end


class RulesChecker(Checker):
    """The independent checker, with ``must_trump`` as the schema words it: a player
    who is void in the suit led trumps. (``Checker.allowed`` also makes a player who
    holds the suit but need not follow it, ``must_follow: false``, trump; the engine
    and the schema do not. Remove this class once engine_checker reads it so too.)"""

    def allowed(self, hand: list[int], trick: list[int]) -> list[int]:
        if trick and not self.ruleset.play.must_follow:
            led = suit(trick[0])
            if any(suit(card) == led for card in hand):
                return list(hand)
        return super().allowed(hand, trick)


LAST_ROUND = 3
"""The hands of the last round once the Ace of hearts' holder is known (docs/ledger.md)."""
RUN_OUT = 8
"""At most this many misdeals end a session after the club's hands (``Sitting.run_out``)."""


@dataclass
class Sitting:
    """The club's hands as one session's ledger keeps them (``ulti ledger``, ``ulti play``),
    beside what it must say, worked out here: who deals each hand (the deal passes on
    unless the same dealer deals again), the deals that count toward ``session.hands``,
    and under ``session.end: heart_ace`` the last round of three deals from the holder's
    next deal. A session that is over refuses the next hand, changing nothing; the table
    then begins a new one."""

    rules: Ruleset
    club_file: Path
    players: list[str]
    ledger: Ledger
    seat: int
    """The seat that deals next."""
    deals: list[tuple[int, bool]]
    """Each hand's dealer, and whether the deal passed on after it."""
    called: tuple[int, int] | None = None
    """The hand whose auction called the end, and the seat holding the Ace of hearts."""

    @classmethod
    def begin(cls, rules: Ruleset, club_file: Path, seat: int) -> Sitting:
        players = PLAYERS[: rules.players.count]
        ledger = new_ledger(str(club_file), players, players[seat], None, folder=club_file.parent)
        assert ledger.end == rules.session.end, "a session ends as its ruleset says"
        return cls(rules, club_file, players, ledger, seat, [])

    def step(self) -> int:
        return 1 if self.rules.direction == "counter_clockwise" else -1

    def dealer_of(self, number: int) -> int:
        """Who deals hand ``number``: as it was dealt, or the deal passing on from now."""
        if number <= len(self.deals):
            return self.deals[number - 1][0]
        later = number - len(self.deals) - 1
        return (self.seat + self.step() * later) % len(self.players)

    def passes_on(self, number: int) -> bool:
        return number > len(self.deals) or self.deals[number - 1][1]

    def last_round(self) -> tuple[int, int] | None:
        """The first and last hands of the last round, once the end is called."""
        if self.called is None:
            return None
        called, holder = self.called
        first = called + 1
        while self.dealer_of(first) != holder:
            first += 1
        last, counted = first, int(self.passes_on(first))
        while counted < LAST_ROUND:
            last += 1
            counted += self.passes_on(last)
        return first, last

    def over(self) -> bool:
        planned = self.rules.session.hands
        if planned is not None and sum(on for _, on in self.deals) >= planned:
            return True
        last = self.last_round()
        return last is not None and last[1] <= len(self.deals)

    def next_dealer(self) -> int:
        """The seat that deals the next hand, in this session or, once it is over, the
        next one."""
        if self.over():
            self.refuses_more()
            fresh = Sitting.begin(self.rules, self.club_file, self.seat)
            self.ledger, self.deals, self.called = fresh.ledger, [], None
        number = len(self.ledger.hands) + 1
        assert self.ledger.dealer_of(number, self.rules) == self.players[self.seat]
        return self.seat

    def heart_ace(self, rng: random.Random) -> int | None:
        """The seat whose Ace of hearts calls the end at this hand's auction, now and then."""
        if self.ledger.end != "heart_ace" or self.called is not None or rng.random() < 0.4:
            return None
        return rng.randrange(len(self.players))

    def name(self, seat: int | None) -> str | None:
        return None if seat is None else self.players[seat]

    def record(self, entry: LedgerHand, dealer: int, holder: int | None) -> None:
        """What the ledger appended, and all it must say now."""
        assert entry.number == len(self.deals) + 1 and entry.dealer == self.players[dealer]
        self.deals.append((dealer, not entry.redeal))
        if not entry.redeal:
            self.seat = (self.seat + self.step()) % len(self.players)
        if holder is not None:
            self.called = (entry.number, holder)
        rules = self.rules
        assert self.ledger.deals() == sum(on for _, on in self.deals)
        assert self.ledger.last_round(rules) == self.last_round()
        assert self.ledger.is_over(rules) == self.over(), "the session ends as its rules say"

    def add_played(self, hand: Hand, result: Settlement, number: int, rng: random.Random) -> None:
        """The engine's hand enters the session's ledger, which settles it as the engine
        did (``ulti play``, ``ulti ledger add`` of a record); a result beyond what a ledger
        keeps is refused."""
        contract, holder = hand.contract, self.heart_ace(rng)
        assert contract is not None

        def add() -> tuple[LedgerHand, object, Settlement]:
            return add_played(
                self.ledger,
                contract,
                hand.facts,
                source=f"hand {number}",
                dealer=hand.dealer,
                heart_ace=self.name(holder),
            )

        if any(abs(amount) > MAX_PAYMENT for amount in result.payments.values()):
            with pytest.raises(LedgerError, match="beyond what a ledger keeps"):
                add()
            assert len(self.ledger.hands) == len(self.deals)
            return
        entry, _, settled = add()
        assert settled == result, "the ledger settles the hand as the engine did"
        assert entry.payments == {self.players[s]: a for s, a in result.payments.items()}
        self.record(entry, hand.dealer, holder)

    def add_passed_out(self, hand: Hand, rng: random.Random) -> LedgerHand:
        holder = self.heart_ace(rng)
        try:
            entry = add_passed_out(
                self.ledger, dealer=self.players[hand.dealer], heart_ace=self.name(holder)
            )
        except LedgerError as refused:
            raise AssertionError(
                f"the ledger refuses a hand the engine passed out: {refused}"
            ) from None
        self.record(entry, hand.dealer, holder)
        return entry

    def refuses_more(self) -> None:
        before = self.ledger.model_dump()
        with pytest.raises(LedgerError, match="the session is over"):
            add_misdeal(self.ledger)
        assert self.ledger.model_dump() == before, "a refused hand changes nothing"

    def run_out(self) -> None:
        """Misdeals after the club's hands, up to the session's end where it is near: one
        that passes the deal on is a deal of the session, one dealt again is none."""
        for _ in range(RUN_OUT):
            if self.over():
                self.refuses_more()
                return
            dealer = self.seat
            entry = add_misdeal(self.ledger)
            assert not any(entry.payments.values())
            assert entry.redeal == self.rules.deal.misdeal_redeal_same_dealer
            self.record(entry, dealer, None)
            if entry.redeal:
                return  # no number of misdeals brings the end nearer


def check_passed_out(rules: Ruleset, hand: Hand, sitting: Sitting, rng: random.Random) -> None:
    """Nobody bid: the ledger takes the hand, and pays what ``auction.all_pass`` says."""
    assert hand.contract is None and hand.facts is None
    players = sitting.players
    entry = sitting.add_passed_out(hand, rng)
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


def as_written(rules: Ruleset, sheet: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The sheet as a table may write it: the bid by one of its aliases, a kontra level by
    one of its names (``ladder[].aliases``, ``kontra.levels[].names``), each now and then."""
    aliases = rules.bid(sheet["bid"]).aliases
    if aliases and rng.random() < 0.5:
        sheet["bid"] = rng.choice(aliases)
    levels = rules.kontra.levels

    def said(level: int) -> int | str:
        if not 1 <= level <= len(levels) or rng.random() < 0.5:
            return level
        names = levels[level - 1].names
        return rng.choice([n for n in (names.hu, names.en, names.de) if n])

    for cid, level in sheet.get("kontra", {}).items():
        per_seat = isinstance(level, dict)
        sheet["kontra"][cid] = {w: said(v) for w, v in level.items()} if per_seat else said(level)
    return sheet


def check_settled(
    rules: Ruleset, hand: Hand, club_file: Path, number: int, rng: random.Random | None = None
) -> Settlement:
    """Points add up; the settlement is zero-sum and the score keeper's is the same (given
    ``rng``, from a sheet that may name the bid and kontras as a table says them)."""
    contract, facts = hand.contract, hand.facts
    assert contract is not None
    if facts is None:
        assert contract.gave_up or (
            contract.uncontested and not rules.simple.uncontested_played_out
        ), "a hand with a contract is played out unless given up or decided unplayed"
    else:
        RulesChecker(rules, get_registry(), facts, contract).check()
        total = facts.declarer_points + facts.defender_points + facts.talon_points
        assert total == rules.points.total(), "card points and the last trick add up"
    result = settle(rules, contract, facts)
    assert set(result.payments) == set(range(rules.players.count))
    assert sum(result.payments.values()) == 0, "the settlement is zero-sum"
    players = PLAYERS[: rules.players.count]
    sheet = sheet_from(
        rules, contract, facts, ruleset_ref=club_file.name, players=players, dealer=hand.dealer
    )
    if rng is not None:
        sheet = as_written(rules, sheet, rng)
    sheet_file = club_file.parent / f"hand-{number}.yaml"
    sheet_file.write_text(yaml.safe_dump(sheet, allow_unicode=True, sort_keys=False), "utf-8")
    if number == 0:  # as `ulti score` reads it: the sheet names the club file beside it
        table, typed = settle_sheet(sheet_file)
    else:  # as `ulti ledger add` reads it: the session knows the ruleset
        read, where = read_sheet(sheet_file)
        table = hand_from_sheet(read, where, sheet_file.parent, ruleset=rules)
        typed = table.settle()
    same = ("bid", "declarer", "trump", "gave_up", "uncontested", "multiplier", "sitting_out")
    assert {k: getattr(table.contract, k) for k in same} == {k: getattr(contract, k) for k in same}
    assert typed == result, "the score keeper settles the table's facts as the engine did"
    return result


def check_title(written: str | dict[str, str], rules: Ruleset) -> None:
    """The club's title, however written, replaces the base's in every language: asked in
    a language it lacks, the English one, else the first it gives (hu, en, de)."""
    for lang in ("hu", "en", "de"):
        if isinstance(written, str):
            expected = written
        else:
            expected = next(written[k] for k in (lang, "en", "hu", "de") if k in written)
        assert rules.title_in(lang) == expected


def check_club(club: Club, seed: int) -> None:
    """Load the drawn club through the real loader, then play and check a few hands."""
    with tempfile.TemporaryDirectory() as folder:
        club_file = club.write(Path(folder))
        # every drawn club must load, and read back from the disk cache as it was validated
        rules = load_through_disk(club_file, Path(folder) / "cache")
        check_title(club.data["title"], rules)
        rng = random.Random(seed)
        sitting = Sitting.begin(rules, club_file, rng.randrange(rules.players.count))
        for number in range(HANDS_PER_CLUB):
            hand = play_checking(rules, rng.randrange(2**32), rng, sitting.next_dealer())
            event(f"hand: {outcome(rules, hand)}")
            if hand.passed_out:
                check_passed_out(rules, hand, sitting, rng)
            else:
                result = check_settled(rules, hand, club_file, number, rng)
                sitting.add_played(hand, result, number, rng)
        sitting.run_out()


def outcome(rules: Ruleset, hand: Hand) -> str:
    """How a hand ended, for ``--hypothesis-show-statistics``."""
    if hand.passed_out:
        return f"passed out ({rules.auction.all_pass})"
    contract = hand.contract
    assert contract is not None
    if contract.gave_up:
        return "given up"
    if hand.facts is None:
        return "uncontested, not played"
    kontra = max((lvl for levels in contract.kontra.values() for lvl in levels.values()), default=0)
    return "played" + (", with kontra" if kontra else "")


# --------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("part", range(PARTS))
def test_random_legal_play_under_drawn_club_rulesets(
    pytestconfig: pytest.Config, part: int
) -> None:
    """One of ``PARTS`` draws of clubs, each from its own seed, so that each test stays
    short while together they play the clubs of one long test."""
    asked = examples(pytestconfig)

    @settings(
        max_examples=-(-asked // PARTS) if asked else EXAMPLES_PER_PART,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(club=club_rulesets(), seed=st.integers(0, 2**32 - 1))
    def every_club(club: Club, seed: int) -> None:
        check_club(club, seed)

    if asked is None:  # CI: the same clubs every run; asked for more: new ones each run
        every_club = fixed_seed(part)(every_club)
    every_club()


# --------------------------------------------------------------------------- found bugs
# Found by the test above, fixed, and kept as examples.


def write_club(folder: Path, text: str) -> Path:
    path = folder / "club.yaml"
    path.write_text(f"name: club\ntitle: A club\n{text}", encoding="utf-8")
    return path


MARRIAGE_BIDS_ONLY = "extends: wikipedia\nwithout: [four-aces]\nauction: {min_components: 3}\n"
"""Every bid of three components holds a 40-100 or a 20-100: one needs a marriage."""


def test_a_minimum_only_marriage_bids_reach_is_refused(tmp_path: Path) -> None:
    """Found by the generated rulesets: with every bid of three components holding a 100, a
    forehand without a marriage was offered no action at the discard, and under a set-aside
    talon the engine passed out a hand whose opener must bid (which the ledger then refused).
    `ulti check` now refuses such a minimum."""
    for extra in ("", "deal: {talon: set_aside, packets: [[5, 5, 5], [5, 5, 5]]}\n"):
        problems = check_file(write_club(tmp_path, MARRIAGE_BIDS_ONLY + extra))
        assert [(p.path, p.line) for p in problems] == [("auction.min_components", 5)]
        assert "every bid of at least 3 components needs a marriage" in problems[0].message
        assert "the bids that need none have at most 2 components" in problems[0].message
    two = MARRIAGE_BIDS_ONLY.replace("min_components: 3", "min_components: 2")
    rules = load_ruleset(write_club(tmp_path, two))
    assert all(Hand(rules, seed=seed, dealer=0).legal_actions() for seed in range(20))


def test_an_unplayed_hand_under_a_fixed_trump_keeps_it(tmp_path: Path) -> None:
    club = write_club(tmp_path, "extends: wikipedia\ntrump: {fixed: acorns}\n")
    rules = load_ruleset(club)
    assert rules.simple.uncontested == "lose_double" and not rules.simple.uncontested_played_out
    hand = Hand(rules, seed=1, dealer=0)
    hand.apply(hand.legal_actions()[0])  # forehand discards
    hand.apply(Bid("parti"))
    while not hand.is_over:
        hand.apply(Pass())
    assert hand.contract is not None and hand.contract.uncontested and hand.facts is None
    check_settled(rules, hand, club, 0)
