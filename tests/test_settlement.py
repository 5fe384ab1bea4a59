"""Settlement arithmetic on hand-built facts, under a small in-test WP-like ruleset."""

from __future__ import annotations

import json

import pytest
from ulti_rules import MissingFact, Settlement, settle
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring import SettlementError

from settlement_support import make_contract, make_facts, make_ruleset

WP = make_ruleset()


def per_defender(result: Settlement) -> int:
    """The per-defender total when both defenders pay the same."""
    totals = set(result.per_defender.values())
    assert len(totals) == 1, result.per_defender
    return totals.pop()


def assert_zero_sum(result: Settlement) -> None:
    assert sum(result.payments.values()) == 0


# --------------------------------------------------------------------------- components


ALL_MADE = dict(
    tricks={0: 10, 1: 0, 2: 0},
    declarer_points=90,
    defender_points=0,
    marriages=[(0, "acorns", 40)],
    seven_last=0,
)


def test_combined_bid_all_made() -> None:
    result = settle(WP, make_contract("forty_hundred_ulti_durchmars"), make_facts(**ALL_MADE))
    assert [line.amount for line in result.lines] == [4, 4, 6]
    assert per_defender(result) == 14
    assert result.payments == {0: 28, 1: -14, 2: -14}


def test_combined_bid_durchmars_failed() -> None:
    facts = make_facts(
        tricks={0: 9, 1: 1, 2: 0},
        declarer_points=80,
        defender_points=10,
        marriages=[(0, "acorns", 40)],
        seven_last=0,
    )
    result = settle(WP, make_contract("forty_hundred_ulti_durchmars"), facts)
    assert [(line.what, line.made) for line in result.lines] == [
        ("forty_hundred", True),
        ("ulti", True),
        ("durchmars", False),
    ]
    assert per_defender(result) == 2
    kontra = {"durchmars": {1: 1, 2: 1}}
    doubled = settle(WP, make_contract("forty_hundred_ulti_durchmars", kontra=kontra), facts)
    assert doubled.line("durchmars").amount == -12
    assert doubled.line("durchmars").kontra == 2
    assert per_defender(doubled) == -4
    assert doubled.payments == {0: -8, 1: 4, 2: 4}


@pytest.mark.parametrize(("level", "loss"), [(0, -8), (1, -12), (2, -20), (3, -36)])
def test_ulti_penalty_is_not_multiplied_by_kontra(level: int, loss: int) -> None:
    facts = make_facts(seven_last=0, last=1)
    result = settle(WP, make_contract("ulti", kontra={"ulti": {1: level, 2: level}}), facts)
    ulti = result.line("ulti")
    assert not ulti.made
    assert ulti.penalty == 4
    assert ulti.amount == loss


def test_ulti_penalty_multiplied_where_the_ruleset_says() -> None:
    rules = make_ruleset(contracts={"ulti": {"penalty_multiplied_by_kontra": True}})
    facts = make_facts(seven_last=0, last=1)
    result = settle(rules, make_contract("ulti", kontra={"ulti": {1: 1, 2: 1}}), facts)
    assert result.line("ulti").penalty == 8
    assert result.line("ulti").amount == -16


def test_red_ulti_lost_doubles_value_and_penalty() -> None:
    facts = make_facts(trump="hearts", seven_last=0, last=2)
    result = settle(WP, make_contract("ulti_red", trump="hearts"), facts)
    ulti = result.line("ulti")
    assert (ulti.base, ulti.red, ulti.value, ulti.penalty, ulti.amount) == (4, 2, 8, 8, -16)
    assert result.line("parti").amount == 2


def test_ulti_lost_when_the_seven_was_played_early() -> None:
    facts = make_facts(seven_early=0)
    assert not settle(WP, make_contract("ulti"), facts).line("ulti").made


def test_implied_parti_is_its_own_line_with_its_own_kontra() -> None:
    facts = make_facts(declarer_points=40, defender_points=50, seven_last=0)
    result = settle(WP, make_contract("ulti", kontra={"parti": {1: 1, 2: 1}}), facts)
    assert result.line("parti").amount == -2
    assert result.line("ulti").amount == 4
    assert per_defender(result) == 2


def test_parti_counts_marriages_and_talon_as_the_ruleset_says() -> None:
    facts = make_facts(
        declarer_points=30, defender_points=50, talon_points=10, marriages=[(0, "acorns", 40)]
    )
    assert settle(WP, make_contract("simple"), facts).line("parti").made  # 30+10+40 > 50
    card_points_only = make_ruleset(marriages={"count_in_parti": False})
    assert not settle(card_points_only, make_contract("simple"), facts).line("parti").made
    talon_to_defenders = make_ruleset(points={"talon_to": "defenders"})
    facts2 = make_facts(declarer_points=40, defender_points=40, talon_points=10)
    assert not settle(talon_to_defenders, make_contract("simple"), facts2).line("parti").made
    assert settle(WP, make_contract("simple"), facts2).line("parti").made


def test_marriage_needs_a_trick_where_the_ruleset_says() -> None:
    four_marriages = [(0, "acorns", 40), (0, "bells", 20), (0, "leaves", 20), (0, "hearts", 20)]
    facts = make_facts(
        tricks={0: 0, 1: 5, 2: 5},
        declarer_points=0,
        defender_points=90,
        marriages=four_marriages,
        last=1,
    )
    assert settle(WP, make_contract("simple"), facts).line("parti").made  # 100 > 90
    strict = make_ruleset(marriages={"require_trick": True})
    assert not settle(strict, make_contract("simple"), facts).line("parti").made


def test_hundred_counts_only_the_bid_marriage() -> None:
    facts = make_facts(
        declarer_points=50, defender_points=40, marriages=[(0, "acorns", 40), (0, "bells", 20)]
    )
    assert not settle(WP, make_contract("forty_hundred"), facts).line("forty_hundred").made
    facts = make_facts(declarer_points=60, defender_points=30, marriages=[(0, "acorns", 40)])
    assert settle(WP, make_contract("forty_hundred"), facts).line("forty_hundred").made
    # the 40 does not count toward a 20-100
    facts = make_facts(declarer_points=70, defender_points=20, marriages=[(0, "acorns", 40)])
    assert not settle(WP, make_contract("twenty_hundred"), facts).line("twenty_hundred").made
    facts = make_facts(declarer_points=80, defender_points=10, marriages=[(0, "bells", 20)])
    assert settle(WP, make_contract("twenty_hundred"), facts).line("twenty_hundred").made


def test_hundred_talon_points_count_only_where_the_ruleset_says() -> None:
    facts = make_facts(
        declarer_points=50, defender_points=30, talon_points=10, marriages=[(0, "acorns", 40)]
    )
    assert settle(WP, make_contract("forty_hundred"), facts).line("forty_hundred").made
    no_talon = make_ruleset(points={"talon_counts_toward_hundred": False})
    assert not settle(no_talon, make_contract("forty_hundred"), facts).line("forty_hundred").made


def test_betli_and_durchmars() -> None:
    betli_made = make_facts(
        trump=None, tricks={0: 0, 1: 5, 2: 5}, declarer_points=0, defender_points=90, last=1
    )
    assert settle(WP, make_contract("betli", trump=None), betli_made).line("betli").amount == 5
    betli_lost = make_facts(
        trump=None, tricks={0: 1, 1: 4, 2: 5}, declarer_points=0, defender_points=90, last=1
    )
    assert settle(WP, make_contract("betli", trump=None), betli_lost).line("betli").amount == -5
    assert (
        settle(WP, make_contract("open_betli", trump=None), betli_lost).line("open_betli").amount
        == -20
    )
    all_tricks = make_facts(
        trump=None, tricks={0: 10, 1: 0, 2: 0}, declarer_points=90, defender_points=0
    )
    result = settle(WP, make_contract("plain_durchmars", trump=None), all_tricks)
    assert result.line("plain_durchmars").amount == 6


def test_no_trump_kontra_binds_only_its_caller() -> None:
    facts = make_facts(
        trump=None, tricks={0: 0, 1: 5, 2: 5}, declarer_points=0, defender_points=90, last=1
    )
    result = settle(WP, make_contract("betli", trump=None, kontra={"betli": {1: 1}}), facts)
    line = result.line("betli")
    assert line.amount is None and line.kontra is None
    assert {s.seat: s.amount for s in line.shares} == {1: 10, 2: 5}
    assert result.payments == {0: 15, 1: -10, 2: -5}


def test_trump_kontra_must_bind_both_defenders() -> None:
    with pytest.raises(SettlementError, match="binds both defenders"):
        settle(WP, make_contract("ulti", kontra={"ulti": {1: 1}}), make_facts(seven_last=0))
    per_caller = make_ruleset(kontra={"per_defender_in_trump": True})
    result = settle(
        per_caller, make_contract("ulti", kontra={"ulti": {1: 1}}), make_facts(seven_last=0)
    )
    assert {s.seat: s.amount for s in result.line("ulti").shares} == {1: 8, 2: 4}


def test_four_aces_bid_needs_the_ace_fact() -> None:
    made = make_facts(aces=[0, 0, 0])
    assert settle(WP, make_contract("four_aces"), made).line("four_aces").amount == 4
    lost = make_facts(aces=[0, 1, 0, 0])
    assert settle(WP, make_contract("four_aces"), lost).line("four_aces").amount == -4
    with pytest.raises(MissingFact, match="aces"):
        settle(WP, make_contract("four_aces"), make_facts(aces=None))


# --------------------------------------------------------------------------- silent bonuses


def test_silent_ulti_lost_costs_double_and_red_doubles_again() -> None:
    facts = make_facts(seven_last=0, last=1)
    line = settle(WP, make_contract("simple"), facts).line("silent_ulti")
    assert (line.made, line.amount) == (False, -4)
    red = make_facts(trump="hearts", seven_last=0, last=1)
    line = settle(WP, make_contract("simple_red", trump="hearts"), red).line("silent_ulti")
    assert (line.value, line.amount) == (4, -8)


def test_silent_ulti_made_and_a_defenders_seven_ignored_by_declarer_only_rules() -> None:
    made = settle(WP, make_contract("simple"), make_facts(seven_last=0))
    assert made.line("silent_ulti").amount == 2
    defenders_seven = settle(WP, make_contract("simple"), make_facts(seven_last=1, last=0))
    assert all(line.what != "silent_ulti" for line in defenders_seven.lines)


def test_silent_bonus_follows_the_kontra_of_its_host() -> None:
    facts = make_facts(seven_last=0)
    result = settle(WP, make_contract("simple", kontra={"parti": {1: 2, 2: 2}}), facts)
    assert result.line("silent_ulti").kontra == 4
    assert result.line("silent_ulti").amount == 8
    unkontrad = make_ruleset(silent_bonuses={"silent_ulti": {"kontra_from": None}})
    result = settle(unkontrad, make_contract("simple", kontra={"parti": {1: 2, 2: 2}}), facts)
    assert result.line("silent_ulti").amount == 2


def test_silent_bonus_not_offered_inside_its_own_bid() -> None:
    result = settle(WP, make_contract("ulti"), make_facts(seven_last=0))
    assert [line.what for line in result.lines] == ["parti", "ulti"]


def test_silent_100_adds_or_replaces() -> None:
    facts = make_facts(declarer_points=80, defender_points=10, marriages=[(0, "bells", 20)])
    adds = settle(WP, make_contract("simple"), facts)
    assert [(line.what, line.amount) for line in adds.lines] == [("parti", 1), ("silent_100", 2)]
    replaces = make_ruleset(silent_bonuses={"silent_100": {"parti": "replaces"}})
    result = settle(replaces, make_contract("simple", kontra={"parti": {1: 1, 2: 1}}), facts)
    assert [line.what for line in result.lines] == ["parti"]
    parti = result.line("parti")
    assert (parti.replaced_by, parti.value, parti.amount) == ("silent_100", 2, 4)


def test_defenders_reaching_100_is_the_declarers_loss_under_wp() -> None:
    facts = make_facts(
        tricks={0: 2, 1: 4, 2: 4},
        declarer_points=10,
        defender_points=80,
        marriages=[(1, "bells", 20)],
    )
    line = settle(WP, make_contract("simple"), facts).line("silent_100")
    assert (line.made, line.amount) == (False, -4)


def test_silent_durchmars_replacing_beats_silent_100() -> None:
    rules = make_ruleset(
        silent_bonuses={
            "silent_100": {"parti": "replaces", "scored_by": "either_side"},
            "silent_durchmars": {"parti": "replaces", "scored_by": "either_side"},
        }
    )
    facts = make_facts(**ALL_MADE | {"seven_last": None})
    result = settle(rules, make_contract("simple"), facts)
    # Every trick holds every ace trick too, so the silent Four Aces (which adds) is made
    # beside it; the silent 100 gets no line: the Parti takes the higher replacing value.
    assert [line.what for line in result.lines] == ["parti", "silent_four_aces"]
    assert result.line("parti").replaced_by == "silent_durchmars"
    assert result.line("parti").amount == 3


def test_either_side_silent_ulti_pays_the_declarer_for_a_defenders_failure() -> None:
    rules = make_ruleset(
        silent_bonuses={"silent_ulti": {"scored_by": "either_side", "loss_factor": 1}}
    )
    beaten = settle(rules, make_contract("simple"), make_facts(seven_last=1, last=0))
    line = beaten.line("silent_ulti")
    assert (line.by, line.made, line.amount) == ("defenders", False, 2)
    won = settle(rules, make_contract("simple"), make_facts(seven_last=2, last=2))
    line = won.line("silent_ulti")
    assert (line.by, line.made, line.amount) == ("defenders", True, -2)


def test_silent_bonus_without_loss() -> None:
    rules = make_ruleset(silent_bonuses={"silent_ulti": {"loss_factor": 0}})
    line = settle(rules, make_contract("simple"), make_facts(seven_last=0, last=1)).line(
        "silent_ulti"
    )
    assert (line.made, line.amount) == (False, 0)


def test_silent_four_aces_by_one_defender() -> None:
    facts = make_facts(aces=[1, 1, 1])
    line = settle(WP, make_contract("simple"), facts).line("silent_four_aces")
    assert (line.made, line.amount) == (False, -4)
    split = settle(WP, make_contract("simple"), make_facts(aces=[0, 1]))
    assert all(line.what != "silent_four_aces" for line in split.lines)


# --------------------------------------------------------------------------- before play


def test_uncontested_simple_lost_double_or_played() -> None:
    lose_double = make_ruleset(simple={"uncontested": "lose_double"})
    result = settle(lose_double, make_contract("simple", uncontested=True), None)
    assert result.line("parti").amount == -2
    assert result.line("parti").multiplier == 2
    assert result.payments == {0: -4, 1: 2, 2: 2}
    played = settle(WP, make_contract("simple", uncontested=True), make_facts())
    assert played.line("parti").amount == 1
    with pytest.raises(SettlementError, match="plain, non-red Simple"):
        settle(lose_double, make_contract("ulti", uncontested=True), None)


def test_give_up() -> None:
    rules = make_ruleset(simple={"give_up_allowed": True, "give_up_cost": 2})
    result = settle(rules, make_contract("simple", gave_up=True), None)
    assert [(line.what, line.amount) for line in result.lines] == [("give_up", -2)]
    assert result.payments == {0: -4, 1: 2, 2: 2}
    with pytest.raises(SettlementError, match="does not allow giving up"):
        settle(WP, make_contract("simple", gave_up=True), None)
    with pytest.raises(SettlementError, match="only a plain"):
        settle(rules, make_contract("ulti", gave_up=True), None)


def test_played_hand_needs_facts() -> None:
    with pytest.raises(SettlementError, match="needs its facts"):
        settle(WP, make_contract("simple"), None)


# --------------------------------------------------------------------------- table, multipliers


def test_two_round_multiplier_doubles_bid_lines() -> None:
    rules = make_ruleset(auction={"two_round": {"multiplier": 2}})
    facts = make_facts(seven_last=0, last=1)
    result = settle(rules, make_contract("ulti", multiplier=2), facts)
    assert result.line("parti").amount == 2
    assert result.line("ulti").amount == -16
    with pytest.raises(SettlementError, match="multiplier 2"):
        settle(WP, make_contract("ulti", multiplier=2), facts)


@pytest.mark.parametrize("dealer_pays", [False, True])
def test_four_players(dealer_pays: bool) -> None:
    rules = make_ruleset(players={"count": 4, "sitting_out_dealer_pays": dealer_pays})
    facts = make_facts(declarer=1, seats=[1, 2, 3], tricks={1: 6, 2: 2, 3: 2}, seven_last=1)
    contract = make_contract("ulti", declarer=1, sitting_out=0, kontra={"ulti": {2: 1, 3: 1}})
    result = settle(rules, contract, facts)
    assert_zero_sum(result)
    if dealer_pays:
        assert result.defenders == [2, 3, 0]
        assert result.payments == {0: -9, 1: 27, 2: -9, 3: -9}
    else:
        assert result.payments == {0: 0, 1: 18, 2: -9, 3: -9}
    betli = make_facts(
        declarer=1,
        trump=None,
        seats=[1, 2, 3],
        tricks={1: 0, 2: 5, 3: 5},
        declarer_points=0,
        defender_points=90,
        last=2,
    )
    result = settle(
        rules,
        make_contract("betli", declarer=1, trump=None, sitting_out=0, kontra={"betli": {2: 1}}),
        betli,
    )
    expected = {2: 10, 3: 5} | ({0: 5} if dealer_pays else {})
    assert result.per_defender == expected
    with pytest.raises(SettlementError, match="sits out"):
        settle(rules, make_contract("ulti", declarer=1), facts)


def test_contract_checks() -> None:
    facts = make_facts(seven_last=0)
    with pytest.raises(SettlementError, match="not a bid"):
        settle(WP, make_contract("grand_slam"), facts)
    with pytest.raises(SettlementError, match="not a component"):
        settle(WP, make_contract("simple", kontra={"ulti": {1: 1, 2: 1}}), facts)
    with pytest.raises(SettlementError, match="red bid"):
        settle(WP, make_contract("ulti_red", trump="acorns"), facts)
    with pytest.raises(SettlementError, match="without trumps"):
        settle(WP, make_contract("betli"), facts)
    with pytest.raises(SettlementError, match="the facts say trump"):
        settle(WP, make_contract("simple", trump="bells"), facts)
    capped = make_ruleset(kontra={"max_level": 1})
    with pytest.raises(SettlementError, match=r"allows 0\.\.1"):
        settle(capped, make_contract("simple", kontra={"parti": {1: 2, 2: 2}}), facts)


def test_settlement_is_json() -> None:
    result = settle(WP, make_contract("ulti"), make_facts(seven_last=0))
    data = json.loads(json.dumps(result.to_dict()))
    assert data["payments"] == {"0": 10, "1": -5, "2": -5}
    assert data["lines"][1]["what"] == "ulti"
    assert Settlement.model_validate(data) == result


def test_silent_bonus_follows_the_first_kontra_host_the_bid_holds() -> None:
    """WP: a silent bonus is doubled with the bid it is listed under, not always the Parti."""
    wikipedia = load_ruleset("wikipedia")
    silent_ulti = wikipedia.silent_bonuses["silent_ulti"]
    assert silent_ulti.kontra_host(wikipedia.bid("forty_hundred").components) == "forty_hundred"
    assert silent_ulti.kontra_host(wikipedia.bid("parti").components) == "parti"
    contract = make_contract(
        "forty_hundred", kontra={"forty_hundred": {1: 1, 2: 1}}, trump="acorns"
    )
    marriage = [(0, "acorns", 40)]
    result = settle(wikipedia, contract, make_facts(seven_last=0, marriages=marriage))
    assert result.line("silent_ulti").kontra == 2
    assert result.line("forty_hundred").kontra == 2


def test_settle_refuses_impossible_facts_from_an_app() -> None:
    """The public settle() never pays for a hand that could not have happened."""
    impossible = make_facts(declarer_points=60, defender_points=35)
    with pytest.raises(SettlementError, match=r"the facts are impossible: .*95"):
        settle(WP, make_contract("ulti"), impossible)
    eleven = make_facts(tricks={0: 8, 1: 2, 2: 1})
    with pytest.raises(SettlementError, match="11"):
        settle(WP, make_contract("ulti"), eleven)


def test_a_bid_below_min_components_is_refused() -> None:
    """The engine refuses every bid with fewer components than ``auction.min_components``
    (the Italian tournament rule), so no such contract is settled."""
    rules = make_ruleset(auction={"min_components": 2})
    with pytest.raises(SettlementError, match=r"at least 2 components .*it has 1"):
        settle(rules, make_contract("simple"), make_facts())
    made = settle(rules, make_contract("ulti"), make_facts())
    assert made.payments == settle(WP, make_contract("ulti"), make_facts()).payments
