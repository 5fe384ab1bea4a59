"""Settlement properties over random engine hands, for every bundled ruleset.

A hand is played out by a random policy (passing often, so that the auction and
the kontra round end at varied heights), then settled. The properties: payments
sum to zero; a component made never costs the declarer; one more kontra level on
one component doubles exactly the lines that follow its kontra; and typing the
hand's facts into the score keeper gives the very same settlement.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ulti_rules import Contract, Facts, Ruleset, Settlement, settle
from ulti_rules.engine import Action, Bid, GiveUp, Hand, Kontra, Pass
from ulti_rules.game.catalog import kontra_is_personal
from ulti_rules.plugins import get_registry
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring.possible import impossibilities
from ulti_rules.scoring.table_facts import settle_sheet, sheet_from

BUNDLED = ("wikipedia", "tournament", "older-20-100", "four-player", "two-round-auction")
FIXTURES = Path(__file__).parent / "fixtures" / "rulesets"
CLUBS = (str(FIXTURES / "gametwist.yaml"), str(FIXTURES / "four-player-dealer-pays.yaml"))


pytestmark = pytest.mark.usefixtures("club_fixtures_in_rulesets_path")


RULESETS = (*BUNDLED, *CLUBS)
"""Every bundled ruleset, and club files where either side scores silent bonuses and where
the sitting-out dealer pays."""
PASS_RATES = (0.5, 0.8)
GIVE_UP_RATE = 0.3
KONTRA_RATES = (0.05, 0.2, 0.6)
BID_LOW_RATES = (0.15, 0.4, 0.8)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
HANDS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    derandomize=True,
)

_RULESETS: dict[str, Ruleset] = {}


def ruleset(name: str) -> Ruleset:
    if name not in _RULESETS:
        _RULESETS[name] = load_ruleset(name)
    return _RULESETS[name]


@dataclass(frozen=True)
class _Temper:
    """How one random hand is played: how low it bids, how often it passes and doubles."""

    bid_low: float
    passing: float
    kontra: float


def _choose(actions: list[Action], rng: random.Random, temper: _Temper) -> Action:
    """Low bids and few kontras in some hands (where silent bonuses live), wild in others."""
    bids = [a for a in actions if isinstance(a, Bid)]
    if bids:  # listed from the lowest; a geometric pick keeps most bids low
        index = 0
        while index < len(bids) - 1 and rng.random() > temper.bid_low:
            index += 1
        return bids[index]
    give_ups = [a for a in actions if isinstance(a, GiveUp)]
    if give_ups and rng.random() < GIVE_UP_RATE:
        return give_ups[0]
    passes = [a for a in actions if isinstance(a, Pass)]
    if passes and rng.random() < temper.passing:
        return passes[0]
    calm = [a for a in actions if not isinstance(a, Kontra | GiveUp)]
    if calm and rng.random() > temper.kontra:
        return rng.choice(calm)
    return rng.choice(actions)


def play_out(rules: Ruleset, seed: int) -> tuple[Contract, Facts | None]:
    """A random legal hand under ``rules``, the same for the same seed."""
    rng = random.Random(seed)
    hand = Hand(rules, seed=seed, dealer=rng.randrange(rules.players.count))
    temper = _Temper(rng.choice(BID_LOW_RATES), rng.choice(PASS_RATES), rng.choice(KONTRA_RATES))
    while not hand.is_over:
        hand.apply(_choose(hand.legal_actions(), rng, temper))
    contract = hand.contract
    assert contract is not None
    return contract, hand.facts


@pytest.mark.parametrize("name", RULESETS, ids=lambda n: Path(n).stem)
@HANDS
@given(seed=SEEDS)
def test_payments_sum_to_zero_and_made_never_costs(name: str, seed: int) -> None:
    rules = ruleset(name)
    contract, facts = play_out(rules, seed)
    result = settle(rules, contract, facts)
    assert sum(result.payments.values()) == 0
    assert set(result.payments) == set(range(rules.players.count))
    for line in result.lines:
        if line.made and line.by == "declarer":
            assert all(share.amount >= 0 for share in line.shares), line
        if not line.made and line.by == "declarer" and line.source != "silent":
            assert all(share.amount <= 0 for share in line.shares), line
    if contract.sitting_out is not None and not rules.players.sitting_out_dealer_pays:
        assert result.payments[contract.sitting_out] == 0
    if facts is not None:
        assert impossibilities(facts, rules) == []


def _follows(result: Settlement, rules: Ruleset, component: str) -> set[str]:
    """The lines whose kontra is this component's: itself, and silent bonuses hosted by it."""
    hosted = {
        line.what
        for line in result.lines
        if line.source == "silent"
        and rules.silent_bonuses[line.what].kontra_host(rules.bid(result.bid).components)
        == component
    }
    return {component} | hosted


@pytest.mark.parametrize("name", RULESETS, ids=lambda n: Path(n).stem)
@HANDS
@given(seed=SEEDS, pick=st.integers(min_value=0, max_value=10))
def test_one_more_kontra_level_doubles_exactly_its_lines(name: str, seed: int, pick: int) -> None:
    rules = ruleset(name)
    contract, facts = play_out(rules, seed)
    if contract.gave_up:
        return  # no kontra before the first lead
    if contract.uncontested and rules.simple.lost_unplayed:
        return  # lost double before the first trick, where kontras are called
    before = settle(rules, contract, facts)
    components = [line.what for line in before.lines if line.source == "component"]
    component = components[pick % len(components)]
    spec = rules.contracts[component]
    kind = get_registry().kinds[spec.kind]
    personal = kontra_is_personal(rules, kind, spec)
    _, penalty_follows_kontra = kind.failure_penalty(spec)
    defenders = [s for s in before.defenders if s != contract.sitting_out]
    raised_seats = defenders[:1] if personal else defenders
    levels = dict(contract.kontra.get(component, {}))
    current = {s: levels.get(s, 0) for s in defenders}
    if rules.kontra.max_level is not None and max(current.values()) >= rules.kontra.max_level:
        return
    for seat in raised_seats:
        level = current[seat]
        assert rules.kontra.multiplier(level + 1) == 2 * rules.kontra.multiplier(level)
        levels[seat] = level + 1
    raised = contract.model_copy(update={"kontra": {**contract.kontra, component: levels}})
    after = settle(rules, raised, facts)
    follows = _follows(before, rules, component)
    doubling = set(raised_seats)
    if not personal and contract.sitting_out in after.defenders:
        doubling.add(contract.sitting_out)  # a paying dealer shares a kontra that binds all
    assert [line.what for line in after.lines] == [line.what for line in before.lines]
    for old, new in zip(before.lines, after.lines, strict=True):
        for old_share, new_share in zip(old.shares, new.shares, strict=True):
            if old.what not in follows or new_share.seat not in doubling:
                assert new_share == old_share, (old.what, new_share.seat)
                continue
            assert new_share.kontra == 2 * old_share.kontra
            # the penalty is paid on top of a failed line's value: amount = -(value × k + penalty)
            assert new_share.amount + new_share.penalty == 2 * (
                old_share.amount + old_share.penalty
            )
            factor = 2 if penalty_follows_kontra and old.what == component else 1
            assert new_share.penalty == factor * old_share.penalty


@pytest.mark.parametrize("name", RULESETS, ids=lambda n: Path(n).stem)
@HANDS
@given(seed=SEEDS)
def test_score_keeper_agrees_with_the_engine(name: str, seed: int, tmp_path: Path) -> None:
    rules = ruleset(name)
    contract, facts = play_out(rules, seed)
    players = ["Anna", "Ben", "Carla", "Dani"][: rules.players.count]
    document = sheet_from(rules, contract, facts, ruleset_ref=name, players=players)
    path = tmp_path / f"hand-{seed}.yaml"
    path.write_text(yaml.safe_dump(document, allow_unicode=True, sort_keys=False), "utf-8")
    hand, typed = settle_sheet(path)
    same = ("bid", "declarer", "trump", "gave_up", "uncontested", "multiplier", "sitting_out")
    assert {k: getattr(hand.contract, k) for k in same} == {k: getattr(contract, k) for k in same}
    assert typed == settle(rules, contract, facts)


def test_engine_hand_through_ulti_score(tmp_path: Path, ulti: object) -> None:
    """One engine hand per bundled ruleset through the real `ulti score` entry point."""
    import json

    for name in BUNDLED:
        rules = ruleset(name)
        contract, facts = play_out(rules, seed=len(name))
        document = sheet_from(rules, contract, facts)
        path = tmp_path / f"{name}.yaml"
        path.write_text(yaml.safe_dump(document, allow_unicode=True), "utf-8")
        done = ulti("score", str(path), "--json")  # type: ignore[operator]
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["settlement"] == settle(rules, contract, facts).to_dict()
