"""Bid totals derived from the components, and the ladder's order from a ranking rule.

Each rule is tried on a small ladder whose ranks are worked out by hand in the test;
the bundled ladders must come out exactly as typed; a club that changes one value
writes one line (``ulti check``, ``ulti ladder``, the engine and ``ulti score``); a
plugin registers a rule of its own. The 32-rank ladder is built from the Hungarian
club's bid list (docs/rules.md#the-hungarian-club-ladder) and the squared-values rule
alone.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from ulti_rules import hookimpl
from ulti_rules.engine import Bid, Discard, Hand, PickUp
from ulti_rules.errors import IllegalAction, RulesetError
from ulti_rules.plugins import Registry, build_registry, new_manager
from ulti_rules.ruleset import ladder as ladder_module
from ulti_rules.ruleset.ladder import _clash, _may_clash, check_ladder, derive_ladder, ladder_rows
from ulti_rules.ruleset.loading import (
    check_file,
    content_hash,
    load_resolved,
    load_ruleset,
    registry_of,
)
from ulti_rules.ruleset.ranking import RankedBid
from ulti_rules.ruleset.schema import Ruleset, ruleset_model
from ulti_rules.scoring.table_facts import settle_sheet

import ulti_four_aces
from cli_in_process import run_in
from ruleset_fixtures import contracts, kontra_levels, names
from settlement_support import ULTI_SHEET


@pytest.fixture(scope="module")
def registry() -> Registry:
    pm = new_manager(autoload=False)
    pm.register(ulti_four_aces)
    return build_registry(pm)


def bid(bid_id: str, components: list[str], **extra: Any) -> dict[str, Any]:
    return {"id": bid_id, "components": components, "names": names(bid_id), **extra}


SMALL: dict[str, Any] = {
    "name": "small",
    "title": "a small ladder without totals or ranks",
    "kontra": {"levels": kontra_levels(1)},
    "contracts": contracts(
        "parti", "forty_hundred", "twenty_hundred", "ulti", "betli", "durchmars", "plain_durchmars"
    ),
    "ladder": [
        bid("parti", ["parti"]),  # 1
        bid("parti_red", ["parti"], red=True),  # 2
        bid("forty_hundred", ["forty_hundred"]),  # 4
        bid("ulti", ["parti", "ulti"]),  # 1 + 4 = 5
        bid("betli", ["betli"]),  # 5
        bid("durchmars", ["durchmars"]),  # 6
        bid("plain_durchmars", ["plain_durchmars"]),  # 6
        bid("forty_hundred_ulti", ["forty_hundred", "ulti"]),  # 4 + 4 = 8
        bid("twenty_hundred", ["twenty_hundred"]),  # 8
        bid("forty_hundred_red", ["forty_hundred"], red=True),  # 8
        bid("ulti_red", ["parti", "ulti"], red=True),  # 2 + 8 = 10
        bid("betli_red", ["betli"], red=True),  # 10
    ],
}
TOTALS = [1, 2, 4, 5, 5, 6, 6, 8, 8, 8, 10, 10]


def validated(registry: Registry, data: dict[str, Any]) -> Ruleset:
    return ruleset_model(registry.param_models()).model_validate(data)


def derived(registry: Registry, ranking: str, data: dict[str, Any] | None = None) -> Ruleset:
    """SMALL (or ``data``) under ``ranking``: checked clean, then derived."""
    data = copy.deepcopy(data or SMALL) | {"ranking": ranking}
    ruleset = validated(registry, data)
    assert check_ladder(ruleset, registry) == []
    return derive_ladder(ruleset, registry)


def ranks(ruleset: Ruleset) -> dict[str, int]:
    return {b.id: b.rank for b in ruleset.ladder}


# --------------------------------------------------------------------------- each rule


def test_totals_are_derived_from_the_components_red_doubling_each(registry: Registry) -> None:
    ruleset = derived(registry, "value")
    assert [b.value for b in ruleset.ladder] == TOTALS


def test_value_alone_lets_equal_totals_exclude_each_other(registry: Registry) -> None:
    assert ranks(derived(registry, "value")) == {
        "parti": 1,
        "parti_red": 2,
        "forty_hundred": 3,
        "ulti": 4,
        "betli": 4,
        "durchmars": 5,
        "plain_durchmars": 5,
        "forty_hundred_ulti": 6,
        "twenty_hundred": 6,
        "forty_hundred_red": 6,
        "ulti_red": 7,
        "betli_red": 7,
    }


def test_value_then_listed_breaks_ties_by_the_order_written(registry: Registry) -> None:
    assert list(ranks(derived(registry, "value_then_listed")).values()) == list(range(1, 13))
    data = copy.deepcopy(SMALL)
    ladder = data["ladder"]
    ladder[3], ladder[4] = ladder[4], ladder[3]  # Betli listed before Ulti
    swapped = ranks(derived(registry, "value_then_listed", data))
    assert (swapped["betli"], swapped["ulti"]) == (4, 5)


def test_value_then_squares_prefers_fewer_larger_components(registry: Registry) -> None:
    assert ranks(derived(registry, "value_then_squares")) == {
        "parti": 1,  # 1: 1
        "parti_red": 2,  # 2: 4
        "forty_hundred": 3,  # 4: 16
        "ulti": 4,  # 5: 1 + 16 = 17
        "betli": 5,  # 5: 25
        "durchmars": 6,  # 6: 36
        "plain_durchmars": 6,  # 6: 36, the same: they exclude each other
        "forty_hundred_ulti": 7,  # 8: 16 + 16 = 32
        "twenty_hundred": 8,  # 8: 64
        "forty_hundred_red": 8,  # 8: 64, red makes no difference here
        "ulti_red": 9,  # 10: 4 + 64 = 68
        "betli_red": 10,  # 10: 100
    }


def test_value_then_squares_then_red_puts_the_red_form_above(registry: Registry) -> None:
    found = ranks(derived(registry, "value_then_squares_then_red"))
    assert (found["twenty_hundred"], found["forty_hundred_red"]) == (8, 9)
    assert (found["durchmars"], found["plain_durchmars"]) == (6, 6)
    assert (found["ulti_red"], found["betli_red"]) == (10, 11)


def test_the_table_rule_keeps_the_written_ranks(registry: Registry) -> None:
    written = [1, 2, 3, 4, 5, 6, 6, 7, 7, 7, 8, 9]
    data = copy.deepcopy(SMALL)
    for entry, rank in zip(data["ladder"], written, strict=True):
        entry["rank"] = rank
    ruleset = derived(registry, "table", data)
    assert [b.rank for b in ruleset.ladder] == written
    assert [b.value for b in ruleset.ladder] == TOTALS


def test_a_derived_ruleset_checks_clean_again_and_lists_by_rank(registry: Registry) -> None:
    data = copy.deepcopy(SMALL)
    data["ladder"].reverse()  # any order: a value rule ranks the bids itself
    ruleset = derived(registry, "value", data)
    assert check_ladder(ruleset, registry) == []
    rows = ladder_rows(ruleset, registry)
    assert [row["rank"] for row in rows] == sorted(row["rank"] for row in rows)
    assert rows[0]["id"] == "parti" and rows[-1]["value"] == 10


# --------------------------------------------------------------------------- typed numbers


def test_a_typed_total_is_only_a_check_that_gives_the_sum(registry: Registry) -> None:
    data = copy.deepcopy(SMALL) | {"ranking": "value"}
    data["ladder"][3]["value"] = 6
    data["ladder"][10]["value"] = 10  # right: accepted
    issues = check_ladder(validated(registry, data), registry)
    assert [(i.path, i.message) for i in issues] == [
        ("ladder.3.value", "bid 'ulti' has value 6, but its components sum to 1 + 4 = 5")
    ]


def test_a_rank_written_under_a_value_rule_names_the_rule(registry: Registry) -> None:
    data = copy.deepcopy(SMALL) | {"ranking": "value_then_squares"}
    data["ladder"][4]["rank"] = 5
    (issue,) = check_ladder(validated(registry, data), registry)
    assert issue.path == "ladder.4.rank"
    assert "ranking: value_then_squares derives the ranks" in issue.message
    assert "ranking: table" in issue.message


def test_the_table_rule_needs_every_rank(registry: Registry) -> None:
    (issue,) = check_ladder(validated(registry, copy.deepcopy(SMALL)), registry)
    assert issue.path == "ladder"
    assert "no bid has a rank" in issue.message and "ranking: value" in issue.message
    data = copy.deepcopy(SMALL)
    for i, entry in enumerate(data["ladder"]):
        entry["rank"] = i + 1
    del data["ladder"][7]["rank"]
    issues = check_ladder(validated(registry, data), registry)
    assert [i.path for i in issues] == ["ladder.7"]
    assert "'forty_hundred_ulti' has no rank" in issues[0].message


# --------------------------------------------------------------------------- the bundled rulesets


def test_wikipedia_keeps_54_bids_on_42_ranks_and_its_typed_totals(registry: Registry) -> None:
    ruleset = load_ruleset("wikipedia", registry)
    assert ruleset.ranking == "table"
    assert len(ruleset.ladder) == 54
    assert len({b.rank for b in ruleset.ladder}) == 42
    written = {b["id"]: b for b in load_resolved("wikipedia", registry)["ladder"]}
    for loaded in ruleset.ladder:
        assert loaded.rank == written[loaded.id]["rank"]
        if "value" in written[loaded.id]:
            assert loaded.value == written[loaded.id]["value"], loaded.id


@pytest.mark.parametrize(
    "name", ["wikipedia", "tournament", "older-20-100", "four-player", "two-round-auction"]
)
def test_a_bundled_ruleset_without_totals_has_the_same_hash(
    registry: Registry, tmp_path: Path, name: str
) -> None:
    """The resolved file with every total left out loads to the very same ruleset:
    deriving the totals (and, under a value rule, the ranks) is typing them."""
    loaded = load_ruleset(name, registry)
    data = load_resolved(name, registry)
    for entry in data["ladder"]:
        entry.pop("value", None)
        if loaded.ranking != "table":
            entry.pop("rank", None)
            entry.pop("rank_exception", None)
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    assert content_hash(load_ruleset(path, registry)) == content_hash(loaded)


# --------------------------------------------------------------------------- the one-line club


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, "utf-8")
    return path


VALUE_BASE = "extends: wikipedia\nranking: value\n"
"""A base that ranks by value, as a club's (or `tournament`'s) would."""
ONE_LINE = "extends: ./value-base.yaml\ncontracts: {ulti: {value: 5}}\n"


@pytest.fixture
def one_line_club(tmp_path: Path) -> Path:
    write(tmp_path, "value-base.yaml", VALUE_BASE)
    return write(tmp_path, "club.yaml", ONE_LINE)


def test_the_one_line_club_passes_check_and_shows_its_ladder(
    tmp_path: Path, one_line_club: Path
) -> None:
    ulti = run_in(tmp_path)
    checked = ulti("check", "club.yaml")
    assert checked.returncode == 0, checked.stdout
    assert checked.stdout.strip() == "1 file checked: 1 ok"

    shown = ulti("ladder", "club.yaml", "--json")
    assert shown.returncode == 0, shown.stderr
    rows = {row["id"]: row for row in json.loads(shown.stdout)}
    assert len(rows) == 54
    assert (rows["ulti"]["value"], rows["ulti_red"]["value"]) == (1 + 5, 2 + 10)
    assert [c["value"] for c in rows["forty_hundred_ulti"]["components"]] == [4, 5]
    # the order follows the values: Ulti (6) now above Betli (5), level with Durchmars (6)
    assert rows["ulti"]["rank"] > rows["betli"]["rank"]
    assert rows["ulti"]["rank"] == rows["durchmars"]["rank"] == rows["plain_durchmars"]["rank"]
    for a in rows.values():
        for b in rows.values():
            assert (a["value"] < b["value"]) == (a["rank"] < b["rank"]), (a["id"], b["id"])

    table = ulti("ladder", "club.yaml")
    assert table.returncode == 0, table.stderr
    assert "ranking: value" in table.stdout
    assert re.search(r"│\s+6 │ 1\+5\s+│ Ulti\s+│", table.stdout)


def test_the_one_line_club_in_the_engine(one_line_club: Path, registry: Registry) -> None:
    """Under the value rule Ulti (6) and Trump Durchmars (6) exclude each other; under
    Wikipedia's table a Durchmars (rank 7) overcalls the Ulti (rank 5)."""

    def after_ulti(ruleset: Ruleset) -> Hand:
        hand = Hand(ruleset, seed=3, dealer=0, registry=registry)
        hand.apply(Discard(tuple(hand.cards(1)[:2])))
        hand.apply(Bid("ulti"))
        hand.apply(PickUp())
        hand.apply(Discard(tuple(hand.cards(2)[:2])))
        return hand

    club = after_ulti(load_ruleset(one_line_club, registry))
    assert Bid("durchmars") not in club.legal_actions()
    assert Bid("forty_hundred_four_aces") in club.legal_actions()  # 8 > 6
    with pytest.raises(IllegalAction, match="does not overcall"):
        club.apply(Bid("durchmars"))
    assert Bid("durchmars") in after_ulti(load_ruleset("wikipedia", registry)).legal_actions()


def test_the_one_line_club_through_ulti_score(tmp_path: Path, one_line_club: Path) -> None:
    sheet = write(
        tmp_path, "hand.yaml", ULTI_SHEET.replace("ruleset: wikipedia", "ruleset: ./club.yaml")
    )
    _, settlement = settle_sheet(sheet)
    lines = {line.what: line for line in settlement.lines}
    assert lines["ulti"].base == 5 and lines["parti"].base == 1
    done = run_in(tmp_path)("score", "hand.yaml", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["payments"] == {"Anna": 12, "Ben": -6, "Carla": -6}


def test_under_the_table_rule_one_summary_says_how_to_fix_the_order(tmp_path: Path) -> None:
    write(tmp_path, "club.yaml", "extends: wikipedia\ncontracts: {ulti: {value: 5}}\n")
    ulti = run_in(tmp_path)
    checked = ulti("check", "club.yaml")
    assert checked.returncode == 1
    problems = checked.stdout.splitlines()[:-1]
    # the one line is at the club's own change, not at the top of the file
    (summary,) = [p for p in problems if p.startswith("club.yaml:")]
    assert summary.startswith(
        "club.yaml:2:20: contracts.ulti.value: the new value of 'ulti' (5) puts "
    )
    assert "out of the order of ranking: table, whose ranks a file below lists" in summary
    assert "ranking: value" in summary and "rank_exception: true" in summary
    positioned = [p for p in problems if p is not summary]
    # wikipedia.yaml lists its ladder (a bid by its place), the four-aces fragment maps it
    # (a bid by its id)
    assert positioned and all(re.search(r": ladder\.\w+\.rank: bid '", p) for p in positioned)
    assert any(": ladder.forty_hundred_ulti_four_aces.rank: " in p for p in positioned)
    count = int(re.search(r"puts (\d+) bids \(", summary).group(1))  # type: ignore[union-attr]
    assert count == len(positioned)
    assert any(
        "bid 'ulti' (value 6) has rank 5, not above 'betli' (value 5" in p for p in positioned
    )
    assert not [p for p in positioned if ".value:" in p], "no stale totals: they are derived"

    write(
        tmp_path, "club.yaml", "extends: wikipedia\nranking: value\ncontracts: {ulti: {value: 5}}\n"
    )
    assert ulti("check", "club.yaml").returncode == 0, "the fix the summary names works"


def test_one_bid_put_out_of_order_by_a_new_value_is_said_at_the_clubs_line(
    tmp_path: Path,
) -> None:
    """The Betli at 6 leaves the red Betli (12, rank 15) below a three-part bid of 12 at
    rank 16. That rank is written in wikipedia.yaml, a file the club never opened: the
    club's own line, its new value, says what broke the order and how to mend it."""
    club = "extends: wikipedia\ncontracts:\n  betli:\n    value: 6\n"
    write(tmp_path, "club.yaml", club)
    at_club, in_base = check_file(tmp_path / "club.yaml")
    assert (Path(at_club.file).name, at_club.line, at_club.column, at_club.path) == (
        "club.yaml",
        4,
        5,
        "contracts.betli.value",
    )
    assert at_club.message.startswith(
        "the new value of 'betli' (6) puts bid 'betli_red' out of the order of ranking: "
        "table, whose ranks a file below lists; fix it in one step: derive the order from the "
        "values with ranking: value, "
    )
    assert at_club.message.endswith("or mark the bid `rank_exception: true`")
    assert (Path(in_base.file).name, in_base.path) == ("wikipedia.yaml", "ladder.13.rank")
    assert in_base.message.startswith("bid 'betli_red' (1 component) ranks below ")

    # both fixes the line names end the problem
    write(tmp_path, "club.yaml", club + "ranking: value\n")
    assert check_file(tmp_path / "club.yaml") == []
    write(tmp_path, "club.yaml", club + "ladder:\n  betli_red: {rank_exception: true}\n")
    assert check_file(tmp_path / "club.yaml") == []

    # a rank the club wrote itself is its own line, and no other is added
    write(tmp_path, "club.yaml", club + "ladder:\n  betli_red: {rank: 16}\n")
    (own,) = check_file(tmp_path / "club.yaml")
    assert (Path(own.file).name, own.line, own.path) == ("club.yaml", 6, "ladder.betli_red.rank")


def test_values_the_club_did_not_change_are_not_blamed(tmp_path: Path) -> None:
    """A base file that breaks its own order is told at its ranks: the club that extends
    it changed no value, so no line at the club's file takes the blame."""
    write(tmp_path, "base.yaml", "extends: wikipedia\ncontracts:\n  betli:\n    value: 6\n")
    write(tmp_path, "club.yaml", "extends: ./base.yaml\ncontracts:\n  ulti:\n    value: 4\n")
    problems = check_file(tmp_path / "club.yaml")
    assert [Path(p.file).name for p in problems] == ["base.yaml", "wikipedia.yaml"]
    assert problems[0].path == "contracts.betli.value"


def test_each_file_s_changed_values_are_said_at_its_own_line(tmp_path: Path) -> None:
    """A base that changed the Betli and a club that changed Four Aces: each file's line
    names its own values and the bids they put out of order, not the other file's."""
    write(tmp_path, "base.yaml", "extends: wikipedia\ncontracts:\n  betli:\n    value: 6\n")
    write(tmp_path, "club.yaml", "extends: ./base.yaml\ncontracts:\n  four_aces:\n    value: 5\n")
    problems = check_file(tmp_path / "club.yaml")
    at_values = {Path(p.file).name: p for p in problems if p.path.startswith("contracts.")}
    assert sorted(at_values) == ["base.yaml", "club.yaml"]
    assert at_values["club.yaml"].message.startswith("the new value of 'four_aces' (5) puts 10 ")
    assert "betli" not in at_values["club.yaml"].message
    assert at_values["base.yaml"].message.startswith(
        "the new value of 'betli' (6) puts bid 'betli_red' out of the order"
    )


def test_an_unknown_rule_is_positioned_with_did_you_mean(tmp_path: Path) -> None:
    write(tmp_path, "club.yaml", "extends: wikipedia\nranking: valeu\n")
    checked = run_in(tmp_path)("check", "club.yaml")
    assert checked.returncode == 1
    assert checked.stdout.splitlines()[0] == (
        "club.yaml:2:1: ranking: unknown ranking rule 'valeu' (did you mean 'value'?); the "
        "rules: table, value, value_then_listed, value_then_squares, value_then_squares_then_red"
    )
    assert checked.stdout.splitlines()[1] == "1 file checked: 0 ok, 1 with 1 problem"


def test_a_typed_total_that_disagrees_names_the_sum_at_its_line(tmp_path: Path) -> None:
    write(
        tmp_path,
        "club.yaml",
        "extends: wikipedia\nranking: value\nladder:\n"
        "  - {id: parti, components: [parti], names: {hu: parti, en: Simple}}\n"
        "  - {id: ulti, value: 6, components: [parti, ulti], names: {hu: ulti, en: Ulti}}\n",
    )
    (problem,) = check_file(tmp_path / "club.yaml")
    assert (Path(problem.file).name, problem.line, problem.column) == ("club.yaml", 5, 16)
    assert problem.path == "ladder.1.value"
    assert problem.message == "bid 'ulti' has value 6, but its components sum to 1 + 4 = 5"


def test_a_rank_in_the_clubs_own_file_under_a_value_rule_is_an_error(one_line_club: Path) -> None:
    folder = one_line_club.parent
    write(
        folder,
        "ranked.yaml",
        "extends: ./value-base.yaml\nladder:\n"
        "  - {id: parti, rank: 1, components: [parti], names: {hu: parti, en: Simple}}\n",
    )
    (problem,) = check_file(folder / "ranked.yaml")
    assert (Path(problem.file).name, problem.line, problem.path) == (
        "ranked.yaml",
        3,
        "ladder.0.rank",
    )
    assert "ranking: value derives the ranks" in problem.message


# --------------------------------------------------------------------------- a rule from a plugin


class _PartiLast:
    """HU's grouping as docs/rules.md#ranking-rules reads it (the DE rule): by total, and
    at an equal total a bid carrying the implied Parti below the others."""

    @hookimpl
    def register_ranking_rules(self, register: Any) -> None:
        def rank(bids: list[RankedBid]) -> list[int]:
            carries = [len(b.components) > 1 and "parti" in b.components for b in bids]
            return [2 * b.total + (0 if c else 1) for b, c in zip(bids, carries, strict=True)]

        register("parti_last", "by total; at an equal total the implied Parti below", rank)


class _Shaky:
    def __init__(self, answer: Any) -> None:
        self.answer = answer

    @hookimpl
    def register_ranking_rules(self, register: Any) -> None:
        def rank(bids: list[RankedBid]) -> Any:
            if isinstance(self.answer, Exception):
                raise self.answer
            return self.answer

        register("shaky", "a rule under test", rank)


def plugin_registry(plugin: object, name: str) -> Registry:
    pm = new_manager(autoload=False)
    pm.register(plugin, name=name)
    return build_registry(pm)


HU_CONTRACTS = """\
kontra:
  levels: [{names: {hu: kontra, en: Kontra}, multiplier: 2, by: defenders}]
contracts:
  parti: {kind: parti, names: {hu: parti, en: Simple}, value: 1}
  forty_hundred: {kind: hundred, names: {hu: 40-100, en: 40-100}, value: 4, marriage: trump}
  twenty_hundred: {kind: hundred, names: {hu: 20-100, en: 20-100}, value: 8, marriage: plain}
  ulti: {kind: ulti, names: {hu: ulti, en: Ulti}, value: 4}
  betli: {kind: betli, names: {hu: betli, en: Betli}, value: 5}
  open_betli: {kind: betli, names: {hu: terített betli, en: Open Betli}, value: 20, open: true}
  durchmars: {kind: durchmars, names: {hu: durchmars, en: Durchmars}, value: 6, trump: true}
  open_durchmars:
    {kind: durchmars, names: {hu: t. durchmars, en: Open D.}, value: 12, trump: true, open: true}
  plain_durchmars:
    {kind: durchmars, names: {hu: sz. n. durchmars, en: Plain D.}, value: 6, trump: false}
  plain_open_durchmars:
    {kind: durchmars, names: {hu: t. sz. n. d., en: Plain Open D.}, value: 24, trump: false,
     open: true}
"""

# docs/rules.md#the-hungarian-club-ladder, in its order: the Hungarian club's 38 bids, as
# id, components, red.
HU_BIDS: list[tuple[str, list[str], bool]] = [
    ("parti", ["parti"], False),
    ("parti_red", ["parti"], True),
    ("forty_hundred", ["forty_hundred"], False),
    ("ulti", ["parti", "ulti"], False),
    ("betli", ["betli"], False),
    ("plain_durchmars", ["plain_durchmars"], False),
    ("forty_hundred_ulti", ["forty_hundred", "ulti"], False),
    ("forty_hundred_red", ["forty_hundred"], True),
    ("twenty_hundred", ["twenty_hundred"], False),
    ("ulti_red", ["parti", "ulti"], True),
    ("forty_hundred_durchmars", ["forty_hundred", "durchmars"], False),
    ("ulti_durchmars", ["ulti", "durchmars"], False),
    ("betli_red", ["betli"], True),
    ("twenty_hundred_ulti", ["twenty_hundred", "ulti"], False),
    ("plain_durchmars_red", ["plain_durchmars"], True),
    ("forty_hundred_ulti_durchmars", ["forty_hundred", "ulti", "durchmars"], False),
    ("twenty_hundred_durchmars", ["twenty_hundred", "durchmars"], False),
    ("forty_hundred_ulti_red", ["forty_hundred", "ulti"], True),
    ("twenty_hundred_red", ["twenty_hundred"], True),
    ("forty_hundred_open_durchmars", ["forty_hundred", "open_durchmars"], False),
    ("ulti_open_durchmars", ["ulti", "open_durchmars"], False),
    ("twenty_hundred_ulti_durchmars", ["twenty_hundred", "ulti", "durchmars"], False),
    ("forty_hundred_durchmars_red", ["forty_hundred", "durchmars"], True),
    ("ulti_durchmars_red", ["ulti", "durchmars"], True),
    ("open_betli", ["open_betli"], False),
    ("forty_hundred_ulti_open_durchmars", ["forty_hundred", "ulti", "open_durchmars"], False),
    ("twenty_hundred_open_durchmars", ["twenty_hundred", "open_durchmars"], False),
    ("twenty_hundred_ulti_red", ["twenty_hundred", "ulti"], True),
    ("plain_open_durchmars", ["plain_open_durchmars"], False),
    ("twenty_hundred_ulti_open_durchmars", ["twenty_hundred", "ulti", "open_durchmars"], False),
    ("forty_hundred_ulti_durchmars_red", ["forty_hundred", "ulti", "durchmars"], True),
    ("twenty_hundred_durchmars_red", ["twenty_hundred", "durchmars"], True),
    ("forty_hundred_open_durchmars_red", ["forty_hundred", "open_durchmars"], True),
    ("ulti_open_durchmars_red", ["ulti", "open_durchmars"], True),
    ("twenty_hundred_ulti_durchmars_red", ["twenty_hundred", "ulti", "durchmars"], True),
    ("forty_hundred_ulti_open_durchmars_red", ["forty_hundred", "ulti", "open_durchmars"], True),
    ("twenty_hundred_open_durchmars_red", ["twenty_hundred", "open_durchmars"], True),
    ("twenty_hundred_ulti_open_durchmars_red", ["twenty_hundred", "ulti", "open_durchmars"], True),
]


def hu_club(folder: Path, ranking: str) -> Path:
    """The club file: only ids, components, red flags, names, and the rule."""
    lines = [f"name: hu-{ranking}", "title: HU's bids", f"ranking: {ranking}", HU_CONTRACTS]
    lines.append("ladder:")
    for bid_id, components, red in HU_BIDS:
        red_flag = ", red: true" if red else ""
        lines.append(
            f"  - {{id: {bid_id}, components: [{', '.join(components)}]{red_flag}, "
            f"names: {{hu: {bid_id}, en: {bid_id}}}}}"
        )
    return write(folder, f"hu-{ranking}.yaml", "\n".join(lines) + "\n")


# The groups of docs/rules.md#the-hungarian-club-ladder, typed from its "Group" column.
HU_GROUPS = [
    ["parti"],
    ["parti_red"],
    ["forty_hundred"],
    ["ulti"],
    ["betli"],
    ["plain_durchmars"],
    ["forty_hundred_ulti", "forty_hundred_red", "twenty_hundred"],
    ["ulti_red"],
    ["forty_hundred_durchmars", "ulti_durchmars", "betli_red"],
    ["twenty_hundred_ulti", "plain_durchmars_red"],
    ["forty_hundred_ulti_durchmars", "twenty_hundred_durchmars"],
    [
        "forty_hundred_ulti_red",
        "twenty_hundred_red",
        "forty_hundred_open_durchmars",
        "ulti_open_durchmars",
    ],
    ["twenty_hundred_ulti_durchmars"],
    [
        "forty_hundred_durchmars_red",
        "ulti_durchmars_red",
        "open_betli",
        "forty_hundred_ulti_open_durchmars",
        "twenty_hundred_open_durchmars",
    ],
    ["twenty_hundred_ulti_red", "plain_open_durchmars", "twenty_hundred_ulti_open_durchmars"],
    ["forty_hundred_ulti_durchmars_red", "twenty_hundred_durchmars_red"],
    ["forty_hundred_open_durchmars_red", "ulti_open_durchmars_red"],
    ["twenty_hundred_ulti_durchmars_red"],
    ["forty_hundred_ulti_open_durchmars_red", "twenty_hundred_open_durchmars_red"],
    ["twenty_hundred_ulti_open_durchmars_red"],
]


def groups(ruleset: Ruleset) -> list[list[str]]:
    by_rank: dict[int, list[str]] = {}
    for b in ruleset.ladder:
        by_rank.setdefault(b.rank, []).append(b.id)
    return [by_rank[rank] for rank in sorted(by_rank)]


def test_a_plugin_rule_reproduces_the_hungarian_club_ladder(tmp_path: Path) -> None:
    registry = plugin_registry(_PartiLast(), "parti-last")
    assert registry.ranking_owner["parti_last"] == "parti-last"
    ruleset = load_ruleset(hu_club(tmp_path, "parti_last"), registry)
    assert groups(ruleset) == HU_GROUPS
    assert [b.rank for b in ruleset.ladder] == sorted(b.rank for b in ruleset.ladder)


# The same 38 bids under value_then_squares, worked out by hand from the HU ladder's component
# values: (total; sum of the squared components).
HU_BY_SQUARES = [
    ["parti"],  # 1; 1
    ["parti_red"],  # 2; 4
    ["forty_hundred"],  # 4; 16
    ["ulti"],  # 5; 1 + 16 = 17
    ["betli"],  # 5; 25
    ["plain_durchmars"],  # 6; 36
    ["forty_hundred_ulti"],  # 8; 16 + 16 = 32
    ["forty_hundred_red", "twenty_hundred"],  # 8; 64
    ["forty_hundred_durchmars", "ulti_durchmars"],  # 10; 16 + 36 = 52
    ["ulti_red"],  # 10; 4 + 64 = 68
    ["betli_red"],  # 10; 100
    ["twenty_hundred_ulti"],  # 12; 64 + 16 = 80
    ["plain_durchmars_red"],  # 12; 144
    ["forty_hundred_ulti_durchmars"],  # 14; 16 + 16 + 36 = 68
    ["twenty_hundred_durchmars"],  # 14; 64 + 36 = 100
    ["forty_hundred_ulti_red"],  # 16; 64 + 64 = 128
    ["forty_hundred_open_durchmars", "ulti_open_durchmars"],  # 16; 16 + 144 = 160
    ["twenty_hundred_red"],  # 16; 256
    ["twenty_hundred_ulti_durchmars"],  # 18; 64 + 16 + 36 = 116
    ["forty_hundred_ulti_open_durchmars"],  # 20; 16 + 16 + 144 = 176
    # 20; 64 + 144 = 208, red or not
    ["forty_hundred_durchmars_red", "ulti_durchmars_red", "twenty_hundred_open_durchmars"],
    ["open_betli"],  # 20; 400
    ["twenty_hundred_ulti_open_durchmars"],  # 24; 64 + 16 + 144 = 224
    ["twenty_hundred_ulti_red"],  # 24; 256 + 64 = 320
    ["plain_open_durchmars"],  # 24; 576
    ["forty_hundred_ulti_durchmars_red"],  # 28; 64 + 64 + 144 = 272
    ["twenty_hundred_durchmars_red"],  # 28; 256 + 144 = 400
    ["forty_hundred_open_durchmars_red", "ulti_open_durchmars_red"],  # 32; 64 + 576 = 640
    ["twenty_hundred_ulti_durchmars_red"],  # 36; 256 + 64 + 144 = 464
    ["forty_hundred_ulti_open_durchmars_red"],  # 40; 64 + 64 + 576 = 704
    ["twenty_hundred_open_durchmars_red"],  # 40; 256 + 576 = 832
    ["twenty_hundred_ulti_open_durchmars_red"],  # 48; 256 + 64 + 576 = 896
]


def test_the_hungarian_bids_make_32_ranks_by_squared_values(
    tmp_path: Path, registry: Registry
) -> None:
    ruleset = load_ruleset(hu_club(tmp_path, "value_then_squares"), registry)
    assert len(HU_BY_SQUARES) == 32
    assert [sorted(g) for g in groups(ruleset)] == [sorted(g) for g in HU_BY_SQUARES]
    red = groups(load_ruleset(hu_club(tmp_path, "value_then_squares_then_red"), registry))
    assert len(red) == 34  # the red form steps above at 8; 64 and at 20; 208
    assert ["twenty_hundred"] in red and ["forty_hundred_red"] in red
    assert ["twenty_hundred_open_durchmars"] in red


def test_a_plugin_rule_that_fails_is_named_not_a_traceback(tmp_path: Path) -> None:
    club = write(tmp_path, "club.yaml", "extends: wikipedia\nranking: shaky\n")
    pm = new_manager(autoload=False)
    pm.register(ulti_four_aces)
    pm.register(_Shaky(ValueError("no order today")), name="shaky-plugin")
    (problem,) = check_file(club, build_registry(pm))
    assert (problem.line, problem.path) == (2, "ranking")
    assert problem.message == (
        "ranking rule 'shaky' of plugin 'shaky-plugin' failed: ValueError: no order today"
    )
    pm = new_manager(autoload=False)
    pm.register(ulti_four_aces)
    pm.register(_Shaky([1, 2]), name="shaky-plugin")
    (problem,) = check_file(club, build_registry(pm))
    assert problem.message == (
        "ranking rule 'shaky' of plugin 'shaky-plugin' returned [1, 2], not one whole number "
        "for each of the 54 bids"
    )


def test_a_rule_name_twice_keeps_the_first_and_names_both() -> None:
    class Clash:
        @hookimpl
        def register_ranking_rules(self, register: Any) -> None:
            register("value", "another value rule", lambda bids: [1] * len(bids))

    registry = plugin_registry(Clash(), "clash")
    assert registry.ranking_owner["value"] == "ulti_rules.builtin"
    (failure,) = registry.failures
    assert "ranking rule 'value' is registered twice: by ulti_rules.builtin and by clash" in str(
        failure
    )


def test_a_rule_that_is_not_a_function_is_refused() -> None:
    class Broken:
        @hookimpl
        def register_ranking_rules(self, register: Any) -> None:
            register("broken", "no function", 42)

    (failure,) = plugin_registry(Broken(), "broken").failures
    assert str(failure) == (
        "plugin 'broken' failed in register_ranking_rules and is skipped: ranking rule "
        "'broken' has rank 42, not a function"
    )


def test_derive_ladder_refuses_an_unknown_rule(registry: Registry) -> None:
    ruleset = validated(registry, copy.deepcopy(SMALL) | {"ranking": "nope"})
    with pytest.raises(RulesetError, match="unknown ranking rule 'nope'"):
        derive_ladder(ruleset, registry)


def _pairwise_clash(checked: list[tuple[int, Any, int | None]]) -> bool:
    return any(
        i != j and _clash(high, high_total, low, low_total)
        for i, high, high_total in checked
        for j, low, low_total in checked
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.none(), st.integers(1, 6)),  # the total (None: a removed contract)
            st.integers(1, 3),  # components
            st.integers(1, 8),  # rank
        ),
        max_size=12,
    )
)
def test_the_sort_finds_a_clash_exactly_where_the_pairs_do(
    bids: list[tuple[int | None, int, int]],
) -> None:
    """``_may_clash`` (a sort) stands in for comparing every pair of a sound ladder: it
    must say True exactly where some pair clashes, so that no clash goes unsaid."""
    checked = [
        (i, SimpleNamespace(components=("c",) * count, rank=rank, id=f"b{i}"), total)
        for i, (total, count, rank) in enumerate(bids)
    ]
    assert _may_clash(checked) == _pairwise_clash(checked)  # type: ignore[arg-type]


def test_a_sound_ladder_is_checked_without_comparing_every_pair(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compared: list[int] = []
    real = ladder_module._clash

    def counting(*args: Any) -> bool:
        compared.append(1)
        return real(*args)

    monkeypatch.setattr(ladder_module, "_clash", counting)
    wiki = load_ruleset("wikipedia")
    assert check_ladder(wiki, registry_of(wiki)) == []
    assert compared == []  # wikipedia's ladder is sound: no pair was compared
    low = wiki.ladder[1].model_copy(update={"rank": 0})  # parti_red below parti
    broken = wiki.model_copy(update={"ladder": [wiki.ladder[0], low, *wiki.ladder[2:]]})
    issues = check_ladder(broken, registry_of(wiki))
    assert [issue.clash for issue in issues if issue.clash] == [(0, 1)]  # parti and parti_red
    assert compared  # a clash: the pairs are compared to say which
