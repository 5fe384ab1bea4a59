"""The ladder checks catch each kind of bad ladder, and the ladder queries answer right.

Rulesets are built in the test from a small dict and validated with the built-in
kinds only (no plugins), so these tests stand on the schema and ladder.py alone.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ulti_rules.plugins import Registry, build_registry, new_manager
from ulti_rules.ruleset.ladder import (
    LadderIssue,
    bid_trump,
    can_overcall,
    check_ladder,
    ladder_rows,
    silent_values,
)
from ulti_rules.ruleset.schema import Ruleset, ruleset_model

from ruleset_fixtures import contracts


@pytest.fixture(scope="module")
def registry() -> Registry:
    return build_registry(new_manager(autoload=False))


def _names(en: str) -> dict[str, str]:
    return {"hu": en.lower(), "en": en}


def _bid(bid_id: str, rank: int, value: int, components: list[str], **extra: Any) -> dict[str, Any]:
    return {
        "id": bid_id,
        "rank": rank,
        "value": value,
        "components": components,
        "names": _names(bid_id.replace("_", " ").title()),
        **extra,
    }


BASE: dict[str, Any] = {
    "name": "test",
    "title": "a small ladder",
    "kontra": {
        "levels": [{"names": _names("Kontra"), "multiplier": 2, "by": "defenders"}],
    },
    "contracts": contracts(
        "parti",
        "forty_hundred",
        "twenty_hundred",
        "ulti",
        "betli",
        "durchmars",
        "open_durchmars",
        "plain_durchmars",
    ),
    "silent_bonuses": {
        "silent_hundred": {"condition": "hundred", "names": _names("Silent 100"), "value": 2},
        "silent_ulti": {"condition": "ulti", "names": _names("Silent Ulti"), "value": 2},
        "silent_durchmars": {
            "condition": "durchmars",
            "names": _names("Silent Durchmars"),
            "value": 3,
        },
    },
    "ladder": [
        _bid("parti", 1, 1, ["parti"]),
        _bid("forty_hundred", 2, 4, ["forty_hundred"]),
        _bid("ulti", 3, 5, ["parti", "ulti"]),
        _bid("betli", 4, 5, ["betli"]),
        _bid("durchmars", 5, 6, ["durchmars"]),
        _bid("plain_durchmars", 5, 6, ["plain_durchmars"]),
        _bid("forty_hundred_ulti", 6, 8, ["forty_hundred", "ulti"]),
        _bid("twenty_hundred", 6, 8, ["twenty_hundred"]),
        _bid("ulti_red", 7, 10, ["parti", "ulti"], red=True),
        _bid("betli_red", 8, 10, ["betli"], red=True),
        _bid("open_durchmars_red", 9, 24, ["open_durchmars"], red=True),
    ],
}


def _ruleset(registry: Registry, edit: dict[int, Any] | None = None, **top: Any) -> Ruleset:
    """BASE with top-level keys replaced and ladder entries patched by index."""
    data = copy.deepcopy(BASE)
    data.update(copy.deepcopy(top))
    for index, patch in (edit or {}).items():
        data["ladder"][index].update(patch)
    return ruleset_model(registry.param_models()).model_validate(data)


def _issues(ruleset: Ruleset, registry: Registry) -> list[LadderIssue]:
    return check_ladder(ruleset, registry)


def _paths(issues: list[LadderIssue]) -> list[str]:
    return [issue.path for issue in issues]


# --------------------------------------------------------------------------- the good case


def test_the_base_ladder_is_clean(registry: Registry) -> None:
    assert _issues(_ruleset(registry), registry) == []


# --------------------------------------------------------------------------- totals


def test_a_wrong_total_names_the_expected_sum(registry: Registry) -> None:
    issues = _issues(_ruleset(registry, {6: {"value": 9}}), registry)
    assert _paths(issues) == ["ladder.6.value"]
    assert "value 9" in issues[0].message
    assert "4 + 4 = 8" in issues[0].message


def test_a_red_total_counts_every_component_twice(registry: Registry) -> None:
    issues = _issues(_ruleset(registry, {8: {"value": 9}}), registry)
    assert _paths(issues) == ["ladder.8.value"]
    assert "2 + 8 = 10" in issues[0].message
    assert "red" in issues[0].message


# --------------------------------------------------------------------------- components


def test_an_unknown_component_is_named_at_its_position(registry: Registry) -> None:
    issues = _issues(_ruleset(registry, {2: {"components": ["parti", "ulty"]}}), registry)
    assert _paths(issues) == ["ladder.2.components.1"]
    assert "'ulty'" in issues[0].message
    assert "ulti" in issues[0].message  # the known ids are listed


def test_two_components_of_one_kind_cannot_combine(registry: Registry) -> None:
    bad = {7: {"components": ["forty_hundred", "twenty_hundred"], "value": 12, "rank": 6}}
    issues = _issues(_ruleset(registry, bad), registry)
    assert "ladder.7.components" in _paths(issues)
    assert any("kind 'hundred'" in issue.message for issue in issues)


def test_a_no_trump_component_stands_alone(registry: Registry) -> None:
    bad = {3: {"components": ["betli", "ulti"], "value": 9}}
    issues = _issues(_ruleset(registry, bad), registry)
    messages = [i.message for i in issues if i.path == "ladder.3.components"]
    assert messages and "no-trump component betli" in messages[0]


def test_a_parti_cannot_stand_beside_a_kind_that_replaces_it(registry: Registry) -> None:
    bad = {1: {"components": ["parti", "forty_hundred"], "value": 5, "rank": 3}}
    issues = _issues(_ruleset(registry, bad), registry)
    messages = [i.message for i in issues if i.path == "ladder.1.components"]
    assert messages and "replaces the Parti" in messages[0]


def test_red_no_trump_bids_need_the_setting(registry: Registry) -> None:
    issues = _issues(_ruleset(registry, trump={"red_no_trump": False}), registry)
    assert _paths(issues) == ["ladder.9.red"]
    assert "trump.red_no_trump" in issues[0].message


def test_red_open_bids_need_open_red_allowed(registry: Registry) -> None:
    issues = _issues(_ruleset(registry, open_games={"red_allowed": False}), registry)
    assert _paths(issues) == ["ladder.10.red"]
    assert "open_durchmars" in issues[0].message


# --------------------------------------------------------------------------- duplicates


def test_the_same_bid_twice_is_a_duplicate(registry: Registry) -> None:
    bad = {7: {"id": "hundred_ulti_again", "components": ["ulti", "forty_hundred"]}}
    issues = _issues(_ruleset(registry, bad), registry)
    assert _paths(issues) == ["ladder.7.components"]
    assert "'forty_hundred_ulti'" in issues[0].message


def test_an_id_used_twice_is_a_duplicate(registry: Registry) -> None:
    same = {7: {"id": "forty_hundred_ulti", "names": _names("Forty Hundred Ulti")}}
    issues = _issues(_ruleset(registry, same), registry)
    assert _paths(issues) == ["ladder.7.id"]  # said once: not as names they share too
    assert issues[0].message == (
        "bid id 'forty_hundred_ulti' is used twice: each bid has an id of its own (the first "
        "is named 'Forty Hundred Ulti')"
    )


def test_a_name_two_bids_answer_to_is_a_duplicate(registry: Registry) -> None:
    """The score keeper and `ulti play` read a bid by any name or alias: a shared one
    would settle whichever bid comes first."""
    shared = {9: {"names": {"hu": "piros betli", "en": "Betli", "de": "Rotbetli"}}}
    issues = _issues(_ruleset(registry, shared), registry)
    assert _paths(issues) == ["ladder.9.names.en"]
    assert "bid 'betli_red' answers to 'Betli', as bid 'betli' does" in issues[0].message


def test_names_are_compared_case_aside_and_told_once_per_pair_of_bids(
    registry: Registry,
) -> None:
    copied = {9: {"names": _names("BETLI"), "aliases": ["betli", "Misère"]}}
    issues = _issues(_ruleset(registry, copied), registry)
    assert _paths(issues) == ["ladder.9.names.hu"]
    assert "answers to 'betli', 'BETLI', as bid 'betli' does" in issues[0].message


def test_an_alias_that_is_another_bids_id_belongs_to_that_bid(registry: Registry) -> None:
    """A sheet's `bid: ulti` means the bid whose id is ulti, wherever the alias stands."""
    issues = _issues(_ruleset(registry, {0: {"aliases": ["Ulti", "Passz"]}}), registry)
    assert _paths(issues) == ["ladder.0.aliases.0"]
    assert "bid 'parti' answers to 'Ulti', as bid 'ulti' does" in issues[0].message


def test_a_bid_may_say_its_own_id_and_the_same_word_in_every_language(
    registry: Registry,
) -> None:
    own = {2: {"names": _names("ulti"), "aliases": ["ULTI"]}}
    assert _issues(_ruleset(registry, own), registry) == []


def test_the_red_flag_makes_a_different_bid(registry: Registry) -> None:
    ruleset = _ruleset(registry)
    assert ruleset.ladder[2].components == ruleset.ladder[8].components
    assert _issues(ruleset, registry) == []


# --------------------------------------------------------------------------- ranks


def test_ranks_only_order_the_bids_so_a_gap_is_fine(registry: Registry) -> None:
    """A dropped fragment leaves gaps in a table's numbers; the order is what counts."""
    data = copy.deepcopy(BASE)
    for bid in data["ladder"]:
        if bid["rank"] >= 6:
            bid["rank"] += 1
    ruleset = ruleset_model(registry.param_models()).model_validate(data)
    assert _issues(ruleset, registry) == []


def test_bids_are_listed_in_rank_order(registry: Registry) -> None:
    data = copy.deepcopy(BASE)
    data["ladder"][0], data["ladder"][1] = data["ladder"][1], data["ladder"][0]
    ruleset = ruleset_model(registry.param_models()).model_validate(data)
    assert _paths(_issues(ruleset, registry)) == ["ladder.1.rank"]


def test_a_rank_that_falls_as_value_rises_is_caught(registry: Registry) -> None:
    # Rebetli (10) placed level with the 8-point bids: a higher value no longer ranks higher.
    data = copy.deepcopy(BASE)
    data["ladder"][9]["rank"] = 6
    data["ladder"][10]["rank"] = 8
    data["ladder"].insert(8, data["ladder"].pop(9))
    ruleset = ruleset_model(registry.param_models()).model_validate(data)
    issues = _issues(ruleset, registry)
    assert issues, "a 10-point bid level with 8-point bids must be flagged"
    assert all(i.path.endswith(".rank") for i in issues)
    assert any("betli_red" in i.message and "value 10" in i.message for i in issues)


def test_a_declared_rank_exception_is_accepted(registry: Registry) -> None:
    # WP-style: the red Ulti (10) below a bid worth less, because the ruleset says so.
    data = copy.deepcopy(BASE)
    ladder = data["ladder"]
    ladder[8]["rank"], ladder[6]["rank"], ladder[7]["rank"] = 6, 7, 7
    ladder[6], ladder[7], ladder[8] = ladder[8], ladder[6], ladder[7]
    model = ruleset_model(registry.param_models())
    flagged = _issues(model.model_validate(data), registry)
    assert any("'ulti_red'" in i.message for i in flagged)
    ladder[6]["rank_exception"] = True
    assert _issues(model.model_validate(data), registry) == []


def test_more_components_never_rank_above_fewer_at_equal_value(registry: Registry) -> None:
    # 40-100 Ulti (4+4) above 20-100 (8): neither WP's nor DE's rule allows it.
    data = copy.deepcopy(BASE)
    ladder = data["ladder"]
    ladder[7]["rank"] = 6
    ladder[6]["rank"] = 7
    ladder[6], ladder[7] = ladder[7], ladder[6]
    for bid in ladder[8:]:
        bid["rank"] += 1
    ruleset = ruleset_model(registry.param_models()).model_validate(data)
    issues = _issues(ruleset, registry)
    assert _paths(issues) == ["ladder.6.rank"]
    assert "twenty_hundred" in issues[0].message and "forty_hundred_ulti" in issues[0].message


# --------------------------------------------------------------------------- silent bonuses


def test_silent_bonus_references_are_checked(registry: Registry) -> None:
    silent = copy.deepcopy(BASE["silent_bonuses"])
    silent["silent_ulti"]["condition"] = "ultimo"
    silent["silent_hundred"]["applies_to"] = ["parti", "nope"]
    silent["silent_durchmars"]["kontra_from"] = "simple"
    issues = _issues(_ruleset(registry, silent_bonuses=silent), registry)
    assert sorted(_paths(issues)) == [
        "silent_bonuses.silent_durchmars.kontra_from.0",  # the loader places a bare id at its key
        "silent_bonuses.silent_hundred.applies_to.1",
        "silent_bonuses.silent_ulti.condition",
    ]
    assert any("'ultimo' is not a registered contract kind" in i.message for i in issues)


def test_a_misspelt_bid_in_applies_to_gets_a_did_you_mean(registry: Registry) -> None:
    silent = copy.deepcopy(BASE["silent_bonuses"])
    silent["silent_hundred"]["applies_to"] = ["parti", "partii"]
    issues = _issues(_ruleset(registry, silent_bonuses=silent), registry)
    assert [i.message for i in issues] == [
        "'partii' is not the id of a bid in the ladder (did you mean 'parti'?)"
    ]


# --------------------------------------------------------------------------- queries


def test_bid_trump(registry: Registry) -> None:
    ruleset = _ruleset(registry)
    trump = {bid.id: bid_trump(ruleset, bid, registry) for bid in ruleset.ladder}
    assert trump["ulti"] == "suit"
    assert trump["ulti_red"] == "red"
    assert trump["open_durchmars_red"] == "red"
    assert trump["betli"] == trump["betli_red"] == trump["plain_durchmars"] == "none"
    assert trump["durchmars"] == "suit"


def test_can_overcall_needs_a_strictly_higher_rank(registry: Registry) -> None:
    ruleset = _ruleset(registry)
    bid = {b.id: b for b in ruleset.ladder}
    assert can_overcall(bid["parti"], None)
    assert can_overcall(bid["betli"], bid["ulti"])
    assert not can_overcall(bid["ulti"], bid["betli"])
    assert not can_overcall(bid["twenty_hundred"], bid["forty_hundred_ulti"])
    assert not can_overcall(bid["forty_hundred_ulti"], bid["twenty_hundred"])


def test_silent_values_auto(registry: Registry) -> None:
    ruleset = _ruleset(registry)
    values = {bid.id: silent_values(ruleset, bid, registry) for bid in ruleset.ladder}
    assert values["parti"] == {"silent_hundred": 2, "silent_ulti": 2, "silent_durchmars": 3}
    # no silent Ulti inside an Ulti; red doubles
    assert values["ulti_red"] == {"silent_hundred": 4, "silent_durchmars": 6}
    # silent 100 only beside a Parti
    assert values["forty_hundred"] == {"silent_ulti": 2, "silent_durchmars": 3}
    # no silent Durchmars inside a Durchmars
    assert values["durchmars"] == {"silent_ulti": 2}
    # none in no-trump bids
    assert values["betli"] == values["plain_durchmars"] == {}


def test_silent_values_replacing_the_parti_need_a_parti(registry: Registry) -> None:
    silent = copy.deepcopy(BASE["silent_bonuses"])
    silent["silent_durchmars"]["parti"] = "replaces"
    ruleset = _ruleset(registry, silent_bonuses=silent)
    bid = {b.id: b for b in ruleset.ladder}
    assert "silent_durchmars" in silent_values(ruleset, bid["ulti"], registry)
    assert "silent_durchmars" not in silent_values(ruleset, bid["forty_hundred"], registry)


def test_silent_values_explicit_list_and_red_value(registry: Registry) -> None:
    silent = copy.deepcopy(BASE["silent_bonuses"])
    silent["silent_ulti"]["applies_to"] = ["parti", "ulti_red"]
    silent["silent_ulti"]["red_value"] = 5
    ruleset = _ruleset(registry, silent_bonuses=silent)
    bid = {b.id: b for b in ruleset.ladder}
    assert silent_values(ruleset, bid["parti"], registry)["silent_ulti"] == 2
    assert silent_values(ruleset, bid["ulti_red"], registry)["silent_ulti"] == 5
    assert "silent_ulti" not in silent_values(ruleset, bid["forty_hundred"], registry)


def test_ladder_rows(registry: Registry) -> None:
    ruleset = _ruleset(registry)
    rows = ladder_rows(ruleset, registry, "hu")
    assert [row["id"] for row in rows] == [bid.id for bid in ruleset.ladder]
    red_ulti = rows[8]
    assert red_ulti == {
        "id": "ulti_red",
        "rank": 7,
        "value": 10,
        "components": [{"id": "parti", "value": 2}, {"id": "ulti", "value": 8}],
        "red": True,
        "open": False,
        "names": {"hu": "ulti red", "en": "Ulti Red", "de": "Ulti Red"},
        "name": "ulti red",
        "silent": {"silent_hundred": 4, "silent_durchmars": 6},
        "trump": "red",
    }
    assert rows[10]["open"] is True
    json.dumps(rows)  # the CLI prints exactly this


# --------------------------------------------------------------------------- property


@settings(max_examples=40, deadline=None)
@given(
    values=st.fixed_dictionaries(
        {cid: st.integers(min_value=1, max_value=30) for cid in BASE["contracts"]}
    ),
    victim=st.integers(min_value=0, max_value=len(BASE["ladder"]) - 1),
    delta=st.integers(min_value=1, max_value=5),
)
def test_any_consistent_ladder_is_clean_and_any_wrong_total_is_caught(
    registry: Registry, values: dict[str, int], victim: int, delta: int
) -> None:
    """Rebuild BASE's ladder for random contract values, totals summed and ranked by the WP
    rule (value, then fewer components); it must pass. Then break one total: exactly that
    total is reported."""
    data = copy.deepcopy(BASE)
    for cid, value in values.items():
        data["contracts"][cid]["value"] = value
    for bid in data["ladder"]:
        factor = 2 if bid.get("red") else 1
        bid["value"] = factor * sum(values[c] for c in bid["components"])
    keys = sorted({(b["value"], -len(b["components"])) for b in data["ladder"]})
    for bid in data["ladder"]:
        bid["rank"] = keys.index((bid["value"], -len(bid["components"]))) + 1
    data["ladder"].sort(key=lambda b: b["rank"])
    model = ruleset_model(registry.param_models())
    assert check_ladder(model.model_validate(data), registry) == []

    data["ladder"][victim]["value"] += delta
    broken = check_ladder(model.model_validate(data), registry)
    value_issues = [i for i in broken if i.path.endswith(".value")]
    assert _paths(value_issues) == [f"ladder.{victim}.value"]


def test_a_changed_component_value_gets_one_hint_at_the_component(registry: Registry) -> None:
    contracts = copy.deepcopy(BASE["contracts"])
    contracts["ulti"]["value"] = 5
    issues = _issues(_ruleset(registry, contracts=contracts), registry)
    stale = [i for i in issues if i.path.endswith(".value") and i.path.startswith("ladder.")]
    assert len(stale) == 3  # ulti, forty_hundred_ulti, ulti_red
    hints = [i for i in issues if i.path == "contracts.ulti.value"]
    assert len(hints) == 1
    assert "every bid with 'ulti' (3)" in hints[0].message
    assert "restate the 'value'" in hints[0].message


def test_a_single_wrong_total_gets_no_component_hint(registry: Registry) -> None:
    issues = _issues(_ruleset(registry, edit={2: {"value": 6}}), registry)
    assert _paths(issues) == ["ladder.2.value"]


def test_an_opening_pass_into_the_simple_needs_a_plain_simple_it_may_bid(
    registry: Registry,
) -> None:
    gt = {"opener_pass_is_simple": True}
    assert _issues(_ruleset(registry, auction=gt), registry) == []
    combined = _issues(_ruleset(registry, auction=gt | {"min_components": 2}), registry)
    assert _paths(combined) == ["auction.opener_pass_is_simple"]
    assert "min_components: 2 forbids" in combined[0].message
    no_simple = [copy.deepcopy(b) for b in BASE["ladder"] if b["id"] != "parti"]
    for bid in no_simple:
        bid["rank"] -= 1
    missing = _issues(_ruleset(registry, auction=gt, ladder=no_simple), registry)
    assert "auction.opener_pass_is_simple" in _paths(missing)


LISTED = """\
name: dup
title: Dup
extends: {base}
ladder:
  - {{id: zz, components: [parti, ulti], names: {{en: A, hu: A, de: A}}}}
  - {{id: yy, components: [parti, ulti, betli], names: {{en: B, hu: B, de: B}}}}
  - {{id: zz, components: [parti, durchmars], names: {{en: C, hu: C, de: C}}}}
  - {{id: xx, components: [ulti, parti], names: {{en: D, hu: D, de: D}}}}
"""


@pytest.mark.parametrize("base", ["wikipedia", "tournament"])
def test_an_id_written_twice_is_said_at_its_second_place(base: str, tmp_path: Any) -> None:
    """The label named the first place (ladder.0) and the message pointed at ladder.0
    too, for the bid written third (a review of club rules)."""
    from ulti_rules.ruleset.loading import check_file

    path = tmp_path / "dup.yaml"
    path.write_text(LISTED.format(base=base), "utf-8")
    problems = {p.message.split(":")[0]: p for p in check_file(path)}
    twice = problems["bid id 'zz' is used twice"]
    assert (twice.line, twice.path) == (7, "ladder.2.id")
    assert twice.message.endswith("each bid has an id of its own (the first is named 'A')")
    same = problems["bid 'xx' is the same bid as 'zz'"]
    assert (same.line, same.path) == (8, "ladder.3.components")


def test_bids_out_of_a_listed_order_are_not_blamed_on_a_changed_value(
    registry: Registry,
) -> None:
    """A club's own listed ladder breaks the order with no value changed: the summary
    said "as after a contract's value changed" all the same."""
    ladder = copy.deepcopy(BASE["ladder"])
    ladder[0]["rank"], ladder[1]["rank"] = ladder[1]["rank"], ladder[0]["rank"]
    ladder[2]["rank"], ladder[3]["rank"] = ladder[3]["rank"], ladder[2]["rank"]
    issues = _issues(_ruleset(registry, ladder=ladder), registry)
    summary = [i.message for i in issues if i.path == "ranking"]
    assert summary and "bids break the order of ranking: table (" in summary[0]
    assert "value changed" not in summary[0]
