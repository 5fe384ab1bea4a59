"""Bids, contracts and silent bonuses merged by id on `extends` (docs/rulesets.md).

A club file adds a bid, changes one field of one bid, or removes a bid, a contract or a
silent bonus without restating the rest; a mistake points at the line that made it.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest
import yaml
from ulti_rules.errors import RulesetError
from ulti_rules.plugins import Registry, build_registry, get_registry, new_manager
from ulti_rules.ruleset.loading import content_hash, load_raw, load_resolved, load_ruleset

import ulti_four_aces
from cli_in_process import run_in

BASE = Path(__file__).parent / "fixtures" / "loading" / "base.yaml"


@pytest.fixture(scope="module")
def registry() -> Registry:
    pm = new_manager(autoload=False)
    pm.register(ulti_four_aces)
    return build_registry(pm)


def club(folder: Path, text: str, name: str = "club.yaml") -> Path:
    """``base.yaml`` (the loader tests' minimal ruleset) and a club file extending it."""
    shutil.copy(BASE, folder / "base.yaml")
    path = folder / name
    body = textwrap.dedent(text).lstrip("\n")
    path.write_text("extends: ./base.yaml\ntitle: Club\n" + body, encoding="utf-8")
    return path


def problems(path: Path, registry: Registry) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path, registry)
    return [str(p).replace(str(path.parent) + "/", "") for p in caught.value.problems]


def line_of(path: Path, text: str) -> int:
    return path.read_text(encoding="utf-8").splitlines().index(text) + 1


BETLI = """
contracts:
  betli: {kind: betli, names: {hu: betli, en: Betli}, value: 5}
"""


# --------------------------------------------------------------------------- the three edits


def test_a_new_id_adds_a_bid_in_rank_order(tmp_path: Path, registry: Registry) -> None:
    path = club(
        tmp_path,
        BETLI
        + textwrap.dedent(
            """
            ladder:
              betli: {rank: 3, value: 5, components: [betli], names: {hu: betli, en: Betli}}
            """
        ),
    )
    ruleset = load_ruleset(path, registry)
    assert [bid.id for bid in ruleset.ladder] == ["parti", "red_parti", "betli", "ulti"]
    betli = ruleset.bid("betli")
    assert (betli.rank, betli.value, betli.components, betli.names.en) == (
        3,
        5,
        ("betli",),
        "Betli",
    )
    base = load_ruleset(BASE, registry)
    assert [b for b in ruleset.ladder if b.id != "betli"] == list(base.ladder)


def test_an_inherited_id_changes_one_field_and_keeps_the_rest(
    tmp_path: Path, registry: Registry
) -> None:
    path = club(tmp_path, "ladder:\n  ulti:\n    names: {en: Our Ulti}\n")
    ruleset = load_ruleset(path, registry)
    base = load_ruleset(BASE, registry)
    ulti, before = ruleset.bid("ulti"), base.bid("ulti")
    assert (ulti.names.en, ulti.names.hu) == ("Our Ulti", before.names.hu)  # names merge too
    assert ulti.model_copy(update={"names": before.names}) == before
    assert [b for b in ruleset.ladder if b.id != "ulti"] == [
        b for b in base.ladder if b.id != "ulti"
    ]


def test_null_removes_a_bid_and_a_contract(tmp_path: Path, registry: Registry) -> None:
    path = club(tmp_path, "ladder: {ulti: null}\ncontracts: {ulti: null}\n")
    ruleset = load_ruleset(path, registry)
    assert [bid.id for bid in ruleset.ladder] == ["parti", "red_parti"]
    assert "ulti" not in ruleset.contracts


def test_null_removes_a_silent_bonus(tmp_path: Path, registry: Registry) -> None:
    path = tmp_path / "club.yaml"
    path.write_text(
        "extends: wikipedia\ntitle: Club\nsilent_bonuses: {silent_durchmars: null}\n",
        encoding="utf-8",
    )
    ruleset = load_ruleset(path, registry)
    wikipedia = load_ruleset("wikipedia", registry)
    assert set(ruleset.silent_bonuses) == set(wikipedia.silent_bonuses) - {"silent_durchmars"}
    assert ruleset.ladder == wikipedia.ladder


def test_a_ladder_list_still_replaces_the_whole_ladder(tmp_path: Path, registry: Registry) -> None:
    path = club(
        tmp_path,
        "ladder:\n  - {id: only, rank: 1, value: 1, components: [parti], names: {hu: p, en: p}}\n",
    )
    assert [bid.id for bid in load_ruleset(path, registry).ladder] == ["only"]


def test_after_and_before_place_a_bid(tmp_path: Path, registry: Registry) -> None:
    path = club(
        tmp_path,
        BETLI
        + textwrap.dedent(
            """
            ladder:
              betli: {after: ulti, rank: 3, value: 5, components: [betli], names: {hu: b, en: b}}
              red_parti: {before: parti}
            """
        ),
    )
    resolved = load_resolved(path, registry)
    assert [bid["id"] for bid in resolved["ladder"]] == ["red_parti", "parti", "ulti", "betli"]
    assert all("after" not in bid and "before" not in bid for bid in resolved["ladder"])


def test_a_move_that_breaks_the_rank_order_is_said_at_the_move(
    tmp_path: Path, registry: Registry
) -> None:
    """The rank the moved bid keeps was written by the base: the club's `after:` is what
    put it out of order, so that is the line named."""
    path = club(tmp_path, "ladder:\n  parti:\n    after: ulti\n")
    (found,) = problems(path, registry)
    assert found.startswith(
        f"club.yaml:{line_of(path, '    after: ulti')}:5: ladder.parti.after: listing 'parti' "
        "after 'ulti' breaks the order of the ranks a file below lists: bid 'parti' (rank 1) "
        "is listed after 'ulti'"
    )


def test_a_move_that_puts_the_bid_beside_it_out_of_order_is_said_at_the_move(
    tmp_path: Path, registry: Registry
) -> None:
    """Moved up, the bid is in order itself; the one now listed after it is not, and its
    rank's line is in the base: the club's move is still the line named (it named the
    base file's line, a file the club never opened)."""
    path = club(tmp_path, "ladder:\n  ulti:\n    before: parti\n")
    (found,) = problems(path, registry)
    assert found.startswith(
        f"club.yaml:{line_of(path, '    before: parti')}:5: ladder.ulti.before: listing 'ulti' "
        "before 'parti' breaks the order of the ranks a file below lists: bid 'parti'"
    )
    assert found.endswith("or give 'ulti' a rank of its own here")


def test_a_move_under_a_rule_that_derives_the_ranks_is_no_written_rank(
    tmp_path: Path, registry: Registry
) -> None:
    """The moved bid's rank is the base's, which a deriving rule drops: the move was
    refused as if the club wrote `rank`."""
    path = club(tmp_path, "ranking: value_then_listed\nladder:\n  parti:\n    after: ulti\n")
    ladder = load_ruleset(path, registry).ladder
    assert [bid.id for bid in ladder] == ["red_parti", "ulti", "parti"]
    assert [bid.rank for bid in ladder] == [2, 3, 1]  # by value: the listing breaks ties only


def test_merge_by_id_is_followed_through_several_files(tmp_path: Path, registry: Registry) -> None:
    club(tmp_path, "ladder:\n  ulti: {names: {en: Middle}}\n", name="middle.yaml")
    top = tmp_path / "top.yaml"
    top.write_text(
        "extends: ./middle.yaml\nladder:\n  ulti: {names: {hu: felső}}\n  red_parti: null\n",
        encoding="utf-8",
    )
    resolved = load_resolved(top, registry)
    assert [bid["id"] for bid in resolved["ladder"]] == ["parti", "ulti"]
    assert resolved["ladder"][1]["names"] == {"hu": "felső", "en": "Middle"}
    assert load_raw(top, registry)["ladder"]["red_parti"] is None  # as written


# --------------------------------------------------------------------------- mistakes


def test_an_unknown_id_suggests_the_close_one_at_its_line(
    tmp_path: Path, registry: Registry
) -> None:
    path = club(tmp_path, "ladder:\n  ulit:\n    names: {en: Our Ulti}\n")
    (found,) = problems(path, registry)
    assert found.startswith(
        f"club.yaml:{line_of(path, '  ulit:')}:3: ladder.ulit: there is no bid 'ulit' in the "
        "inherited ladder (did you mean 'ulti'?); a new bid must be complete, and this one lacks "
    )
    assert "components" in found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "contracts:\n  ulit:\n    failure_penalty: 2\n",
            "contracts.ulit: there is no contract 'ulit' among the inherited ones (did you mean "
            "'ulti'?); a new contract must be complete, and this one lacks kind, names, value",
        ),
        (
            "silent_bonuses:\n  silent_ulti: {condition: ulti, names: {hu: cs, en: S}, value: 2}"
            "\n  silent_ulty:\n    loss_factor: 0\n",
            "silent_bonuses.silent_ulty: there is no silent bonus 'silent_ulty' among the "
            "inherited ones (did you mean 'silent_ulti'?); a new silent bonus must be complete, "
            "and this one lacks condition, names, value",
        ),
    ],
)
def test_a_misspelt_inherited_entry_is_said_as_one(
    tmp_path: Path, registry: Registry, text: str, expected: str
) -> None:
    """It used to be three 'missing required key' problems that led the club to write a
    whole new entry, leaving the one it meant to change as it was."""
    path = club(tmp_path, text)
    line = line_of(path, "  " + expected.split(".")[1].split(":")[0] + ":")
    assert problems(path, registry) == [f"club.yaml:{line}:3: {expected}"]


@pytest.mark.parametrize(
    ("key", "meant"),
    [
        ("ulti", "silent_ulti"),  # a part of its id
        ("csendes_ulti", "silent_ulti"),  # its Hungarian name
        ("Stilles_Ulti", "silent_ulti"),  # its German name
        ("hundred", "silent_hundred"),
    ],
)
def test_an_inherited_entry_named_by_a_part_of_its_id_or_by_its_name_is_suggested(
    tmp_path: Path, registry: Registry, key: str, meant: str
) -> None:
    """``silent_bonuses: {ulti: {value: 3}}`` means the Silent Ulti, whose id no spelling
    distance finds; it used to be two 'missing required key' problems."""
    path = tmp_path / "club.yaml"
    path.write_text(f"extends: wikipedia\nsilent_bonuses:\n  {key}:\n    value: 3\n", "utf-8")
    (found,) = problems(path, registry)
    assert (
        f"there is no silent bonus '{key}' among the inherited ones (did you mean '{meant}'?)"
        in (found)
    )


def test_a_part_several_entries_share_suggests_none(tmp_path: Path, registry: Registry) -> None:
    path = tmp_path / "club.yaml"  # open_betli, open_durchmars, plain_open_durchmars
    path.write_text("extends: wikipedia\ncontracts:\n  open:\n    value: 3\n", "utf-8")
    assert not any("did you mean" in p for p in problems(path, registry))


def test_a_new_entry_near_no_inherited_id_says_each_missing_key(
    tmp_path: Path, registry: Registry
) -> None:
    path = club(tmp_path, "silent_bonuses:\n  feat:\n    value: 2\n")
    assert problems(path, registry) == [
        "club.yaml:4:3: silent_bonuses.feat: missing required key 'condition'",
        "club.yaml:4:3: silent_bonuses.feat: missing required key 'names'",
    ]


def test_an_incomplete_new_bid_names_what_it_lacks(tmp_path: Path, registry: Registry) -> None:
    path = club(tmp_path, BETLI + "ladder:\n  betli: {rank: 3, names: {hu: b, en: b}}\n")
    (found,) = problems(path, registry)
    assert found.startswith(
        f"club.yaml:{line_of(path, '  betli: {rank: 3, names: {hu: b, en: b}}')}:3: "
        "ladder.betli: bid 'betli' is new (the inherited ladder has no such id); a new bid "
        "must be complete, and this one lacks components"
    )


def test_removing_what_is_not_there_suggests_the_close_one(
    tmp_path: Path, registry: Registry
) -> None:
    path = club(tmp_path, "contracts: {utli: null}\nladder: {red_party: null}\n")
    assert problems(path, registry) == [
        "club.yaml:3:13: contracts.utli: there is no contract 'utli' to remove (did you mean "
        "'ulti'?): null removes an inherited entry",
        "club.yaml:4:10: ladder.red_party: there is no bid 'red_party' to remove (did you mean "
        "'red_parti'?): null removes an inherited bid",
    ]


def test_removing_a_contract_that_bids_use_names_them(tmp_path: Path, registry: Registry) -> None:
    path = club(tmp_path, "contracts:\n  ulti: null\n")
    assert problems(path, registry) == [
        "club.yaml:4:3: contracts.ulti: contract 'ulti' is removed, but the bid ulti still uses "
        "it; remove or change it too (ladder: {ulti: null}). A key left without a value is null "
        "too: keys meant for the contract go indented under its id"
    ]


def test_a_contract_left_without_its_keys_says_what_removed_it(tmp_path: Path) -> None:
    """`ulti:` with its keys not indented under it: 24 bids named twice, and no word that
    the empty key was the removal."""
    path = tmp_path / "club.yaml"
    path.write_text(
        "extends: wikipedia\ntitle: Club\ncontracts:\n  ulti:\n  value: 5\n", encoding="utf-8"
    )
    found = problems(path, get_registry())
    assert found[0].startswith(
        "club.yaml:4:3: contracts.ulti: contract 'ulti' is removed, but the bids ulti, "
        "forty_hundred_ulti,"
    )
    assert ", ... (24 in all) and the kontra_from of silent_hundred," in found[0]
    assert "(ladder: {ulti: null, forty_hundred_ulti: null," in found[0]  # all, to copy
    assert found[0].endswith("keys meant for the contract go indented under its id")


def test_a_change_the_merge_refuses_does_not_hide_the_rest_of_the_file(
    tmp_path: Path, registry: Registry
) -> None:
    """A bid removed that is not there, beside a misspelt component and a silent bonus
    naming no bid: the ladder's checks were skipped once the merge had a problem, so the
    other two showed only when the first was mended."""
    path = tmp_path / "club.yaml"
    path.write_text(
        "extends: wikipedia\ntitle: Club\nladder:\n  nonexistent_bid: null\n"
        "  ulti: {components: [parti, ulty]}\nsilent_bonuses:\n"
        "  silent_ulti: {applies_to: [nosuch]}\n",
        encoding="utf-8",
    )
    assert [line.split(": ", 2)[:2] for line in problems(path, registry)] == [
        ["club.yaml:4:3", "ladder.nonexistent_bid"],
        ["club.yaml:5:30", "ladder.ulti.components.1"],
        ["club.yaml:7:30", "silent_bonuses.silent_ulti.applies_to.0"],
    ]


def test_a_list_written_as_a_component_beside_a_removal_is_a_problem_not_a_crash(
    tmp_path: Path, registry: Registry
) -> None:
    """The ladder checked beside a schema error after a removal met a list among the
    components and stopped with an internal error (found by a review)."""
    path = tmp_path / "club.yaml"
    path.write_text(
        "extends: wikipedia\ntitle: Club\ncontracts:\n  betli: null\n"
        "ladder: {ulti: {components: [parti, [x]]}}\n",
        encoding="utf-8",
    )
    found = [line.split(": ", 2)[1] for line in problems(path, registry)]
    assert found == ["contracts.betli", "ladder.ulti.components.1"]


def test_the_ranks_that_fit_leave_out_bids_of_a_removed_contract(
    tmp_path: Path, registry: Registry
) -> None:
    """A bid that names a removed contract has no known total: counted with the rest of
    its components, it narrowed the ranks a changed bid fits (39 fits too here)."""
    path = tmp_path / "club.yaml"
    path.write_text(
        "extends: wikipedia\ntitle: Club\ncontracts:\n  durchmars: null\n"
        "  twenty_hundred: {value: 12}\n",
        encoding="utf-8",
    )
    (said,) = [p for p in problems(path, registry) if "'twenty_hundred_ulti_four_aces_red'" in p]
    assert said.endswith("; its value 40 fits a rank from 39 to 40")


def test_a_removed_contract_named_by_a_silent_bonus_is_named(
    tmp_path: Path, registry: Registry
) -> None:
    path = tmp_path / "club.yaml"
    path.write_text(
        "extends: wikipedia\ntitle: Club\ncontracts: {durchmars: null}\n", encoding="utf-8"
    )
    (found,) = problems(path, registry)
    assert found.startswith("club.yaml:3:13: contracts.durchmars: contract 'durchmars' is removed")
    assert "the kontra_from of silent_hundred, silent_ulti, silent_durchmars" in found
    assert "durchmars: null" in found and "ulti_durchmars: null" in found


def test_a_bid_that_renames_its_id_or_places_itself_twice(
    tmp_path: Path, registry: Registry
) -> None:
    path = club(
        tmp_path,
        "ladder:\n  ulti: {id: ultimate}\n  parti: {after: red_parti, before: ulti}\n"
        "  red_parti: {after: ulty}\n",
    )
    assert problems(path, registry) == [
        "club.yaml:4:10: ladder.ulti.id: the bid's id is the key it is written under ('ulti'); "
        "to rename a bid, remove it (null) and add it under its new id",
        "club.yaml:5:3: ladder.parti: give 'after' or 'before', not both",
        "club.yaml:6:15: ladder.red_parti.after: 'after' names the bid this one is listed after: "
        "the id of another bid of the ladder, not text ('ulty') (did you mean 'ulti'?)",
    ]


def test_a_ladder_mapping_needs_a_ladder_to_change(tmp_path: Path, registry: Registry) -> None:
    path = tmp_path / "alone.yaml"
    path.write_text(
        "title: Alone\nkontra: {levels: []}\ncontracts: {}\nladder:\n  parti: {rank: 1}\n",
        encoding="utf-8",
    )
    assert (
        "alone.yaml:4:1: ladder: a ladder written as a mapping changes an inherited ladder bid "
        "by bid (id: changes), but nothing this file builds on has a ladder: write it as a list"
    ) in problems(path, registry)


def test_problems_in_a_merged_bid_point_at_the_file_that_wrote_the_key(
    tmp_path: Path, registry: Registry
) -> None:
    """Both the child's own key and the base's key, although a new bid moved the index."""
    path = club(
        tmp_path,
        BETLI
        + textwrap.dedent(
            """
            ladder:
              betli: {rank: 1, value: 5, components: [betli], names: {hu: b, en: b}}
              ulti:
                red: maybe
            """
        ),
    )
    base_text = BASE.read_text(encoding="utf-8").replace(
        "    rank: 3\n    value: 5", "    rank: three\n    value: 5"
    )
    (tmp_path / "base.yaml").write_text(base_text, encoding="utf-8")
    rank_line = base_text.splitlines().index("    rank: three") + 1
    assert problems(path, registry) == [
        # each path as its file writes it: the club's mapping by id, the base's list by place
        f"club.yaml:{line_of(path, '    red: maybe')}:5: ladder.ulti.red: should be true or "
        "false, not text ('maybe')",
        # (the club's new betli moved ulti to place 3 of the merged ladder; base.yaml lists
        # it third, at place 2)
        f"base.yaml:{rank_line}:5: ladder.2.rank: should be a whole number, not text ('three')",
    ]


def test_a_bid_list_written_as_if_it_merged_gets_the_mapping_hint(
    tmp_path: Path, registry: Registry
) -> None:
    path = club(tmp_path, "ladder:\n  - id: ulti\n    names: {hu: u, en: Our Ulti}\n")
    found = problems(path, registry)
    assert found[0].endswith(
        "a `ladder:` list replaces the inherited ladder whole: to change only the bid 'ulti', "
        "write the ladder as a mapping by id, which merges (`ladder: {ulti: {...}}`)"
    )


# --------------------------------------------------------------------------- through `ulti`


def test_ulti_check_and_show_resolved_on_a_club_that_merges_by_id(tmp_path: Path) -> None:
    """The docs' example: one bid added, one renamed, one removed with its contract."""
    (tmp_path / "club.yaml").write_text(
        textwrap.dedent(
            """\
            name: club
            title: "Our club: Wikipedia with an Open Betli Hearts"
            extends: wikipedia
            ladder:
              open_betli_red:
                rank: 41
                components: [open_betli]
                red: true
                names: {hu: piros terített betli, en: Open Betli Hearts}
              ulti:
                names: {en: Simple Ulti}
              plain_open_durchmars: null
            contracts:
              plain_open_durchmars: null
            """
        ),
        encoding="utf-8",
    )
    ulti = run_in(tmp_path)
    done = ulti("check", "club.yaml")
    assert (done.returncode, done.stdout) == (0, "1 file checked: 1 ok\n")
    shown = ulti("show", "--resolved", "club.yaml")
    resolved = yaml.safe_load(shown.stdout)
    wikipedia = yaml.safe_load(ulti("show", "--resolved", "wikipedia").stdout)
    ids = [bid["id"] for bid in resolved["ladder"]]
    expected = [b["id"] for b in wikipedia["ladder"] if b["id"] != "plain_open_durchmars"]
    expected.insert(expected.index("twenty_hundred_open_durchmars_red"), "open_betli_red")
    assert ids == expected
    assert "plain_open_durchmars" not in resolved["contracts"]
    ulti_bid = next(b for b in resolved["ladder"] if b["id"] == "ulti")
    assert ulti_bid["names"]["en"] == "Simple Ulti"
    assert ulti_bid["names"]["hu"] == "ulti"
    rows = json.loads(ulti("ladder", "club.yaml", "--json").stdout)
    assert [row["id"] for row in rows] == ids
    (added,) = [row for row in rows if row["id"] == "open_betli_red"]
    assert added["value"] == 2 * resolved["contracts"]["open_betli"]["value"]  # red doubles


def test_ulti_check_reports_an_unknown_id_with_its_position(tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: wikipedia\nladder:\n  ulit_red:\n"
        "    names: {hu: x, en: y}\n",
        encoding="utf-8",
    )
    done = run_in(tmp_path)("check", "club.yaml")
    assert done.returncode == 1
    first = done.stdout.splitlines()[0]
    assert first.startswith(
        "club.yaml:5:3: ladder.ulit_red: there is no bid 'ulit_red' in the inherited ladder "
        "(did you mean 'ulti_red'?)"
    )


def test_merging_keeps_the_bundled_rulesets_as_their_records_pinned_them(
    repo_root: Path, registry: Registry
) -> None:
    """The saved records name wikipedia's content hash: the merge (and the Four Aces
    fragment) must resolve to exactly the ruleset they were played under."""
    records = sorted((repo_root / "tests" / "fixtures" / "records").glob("*.yaml"))
    pinned = {
        (data["ruleset"], data["ruleset_hash"])
        for data in (yaml.safe_load(p.read_text(encoding="utf-8")) for p in records)
    }
    assert pinned
    for name, hashed in pinned:
        assert content_hash(load_ruleset(name, registry)) == hashed
