"""The ruleset loader: lookup by name, extends, positioned problems, content hashes."""

from __future__ import annotations

import os
import shutil
import textwrap
from pathlib import Path

import pytest
from ulti_rules.errors import Problem, RulesetError
from ulti_rules.plugins import Registry, build_registry, get_registry, new_manager
from ulti_rules.ruleset import finding, loading
from ulti_rules.ruleset.ladder import LadderIssue
from ulti_rules.ruleset.loading import (
    RulesetSource,
    bundled_dir,
    check_file,
    content_hash,
    find_rulesets,
    load_raw,
    load_resolved,
    load_ruleset,
    resolve,
    user_dirs,
)
from ulti_rules.ruleset.schema import Ruleset

import ulti_four_aces

FIXTURES = Path(__file__).parent / "fixtures" / "loading"
BUNDLED = ["wikipedia", "tournament", "older-20-100", "four-player", "two-round-auction"]


@pytest.fixture(autouse=True)
def no_user_rulesets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The developer's own ruleset folders never leak into a test."""
    monkeypatch.delenv(loading.PATH_ENV, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))


@pytest.fixture
def registry() -> Registry:
    """Built-in kinds plus the Four Aces plugin, on a fresh manager."""
    pm = new_manager(autoload=False)
    pm.register(ulti_four_aces)
    return build_registry(pm)


@pytest.fixture
def bundled(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty stand-in for the bundled folder, for the lookup tests."""
    folder = tmp_path / "bundled"
    folder.mkdir()
    monkeypatch.setattr(finding, "bundled_dir", lambda: folder)
    return folder


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def copy_base(folder: Path, name: str = "base.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(FIXTURES / "base.yaml", folder / name))


def problems_of(name_or_path: str | Path, registry: Registry) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        load_ruleset(name_or_path, registry)
    assert all(isinstance(p, Problem) for p in caught.value.problems)
    return [str(p) for p in caught.value.problems]


# --------------------------------------------------------------------------- extends


def test_extends_by_relative_path_merges_deeply(registry: Registry) -> None:
    ruleset = load_ruleset(FIXTURES / "child.yaml", registry)
    assert ruleset.name == "child"  # no name: of its own, so the file stem
    assert ruleset.title == "A child of the minimal ruleset"
    ulti = ruleset.contracts["ulti"]
    assert (ulti.kind, ulti.names.en, ulti.value) == ("ulti", "ulti", 5)  # kind, names from base
    assert ulti.failure_penalty == 3  # type: ignore[attr-defined]
    assert [level.multiplier for level in ruleset.kontra.levels] == [2, 4]  # kept from base
    assert ruleset.kontra.max_level == 2
    assert [bid.id for bid in ruleset.ladder] == ["parti"]  # a list replaces the whole list
    assert ruleset.extends is None


def test_extends_by_name_from_a_user_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, registry: Registry, bundled: Path
) -> None:
    clubs = tmp_path / "clubs"
    copy_base(clubs)
    write(clubs, "club.yaml", "extends: base\ntitle: Our club\nsources: [our notebook]\n")
    monkeypatch.setenv(loading.PATH_ENV, str(clubs))
    ruleset = load_ruleset("club", registry)
    assert (ruleset.name, ruleset.title, ruleset.sources) == ("club", "Our club", ("our notebook",))
    assert ruleset.contracts["parti"].value == 1


def test_resolved_mapping_lists_replace_and_null_overrides(tmp_path: Path) -> None:
    write(
        tmp_path,
        "base.yaml",
        """
        name: base
        sources: [a, b, c]
        kontra: {max_level: 3, window: end_trick1}
        auction: {two_round: {multiplier: 3}, end_passes: 2}
        """,
    )
    child = write(
        tmp_path,
        "child.yaml",
        """
        extends: base.yaml
        sources: [d]
        kontra: {max_level: null}
        auction: {two_round: null}
        """,
    )
    raw = load_raw(child, Registry())
    assert raw["extends"] == "base.yaml" and "name" not in raw
    resolved = load_resolved(child, Registry())
    assert resolved == {
        "name": "child",
        "sources": ["d"],
        "kontra": {"max_level": None, "window": "end_trick1"},
        "auction": {"two_round": None, "end_passes": 2},
    }


def test_extends_cycle_prints_the_chain(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "extends: ./b.yaml\n")
    write(tmp_path, "b.yaml", "title: b\nextends: ./a.yaml\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulesetError) as caught:
        load_ruleset("a.yaml", Registry())
    assert [str(p) for p in caught.value.problems] == [
        "a.yaml:1:10: extends: cycle a.yaml -> b.yaml -> a.yaml"
    ]


def test_a_file_extending_itself_by_path_is_a_cycle(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    write(tmp_path, "self.yaml", "title: me\nextends: self.yaml\n")
    monkeypatch.chdir(tmp_path)
    assert check_file("self.yaml", Registry()) == [
        Problem("self.yaml", 2, 10, "extends", "cycle self.yaml -> self.yaml")
    ]


def test_extends_of_a_missing_base(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    write(tmp_path, "by_path.yaml", "title: x\nextends: sub/nowhere.yaml\n")
    write(tmp_path, "by_name.yaml", "title: x\nextends: wikipdia\n")
    write(tmp_path, "not_text.yaml", "extends: {a: b}\n")  # a list of names is fine
    monkeypatch.chdir(tmp_path)
    registry = Registry()
    by_path = check_file("by_path.yaml", registry)
    assert [(p.line, p.column, p.path) for p in by_path] == [(2, 10, "extends")]
    assert by_path[0].message.startswith("no such file: ")
    (by_name,) = check_file("by_name.yaml", registry)
    assert (by_name.line, by_name.column, by_name.path) == (2, 10, "extends")
    assert "no ruleset named 'wikipdia' (did you mean 'wikipedia'?)" in by_name.message
    (not_text,) = check_file("not_text.yaml", registry)
    assert str(not_text) == (
        "not_text.yaml:1:10: extends: must name a ruleset or give the path of a YAML file "
        "(or a list of them)"
    )


def test_every_missing_base_is_said_at_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The first one stopped the reading: the misspelt name after it showed only once the
    path was mended."""
    write(tmp_path, "two.yaml", "title: x\nextends: [./nope.yaml, wikipdia]\n")
    monkeypatch.chdir(tmp_path)
    assert [(p.line, p.column, p.path) for p in check_file("two.yaml", get_registry())] == [
        (2, 11, "extends.0"),
        (2, 24, "extends.1"),
    ]


# --------------------------------------------------------------------------- positioned problems


def test_problem_positions_follow_the_file_that_set_the_key(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, registry: Registry
) -> None:
    base = (FIXTURES / "base.yaml").read_text(encoding="utf-8")
    base = base.replace("    value: 4\n", "    value: four\n")  # contracts.ulti.value
    (tmp_path / "base.yaml").write_text(base, encoding="utf-8")
    write(
        tmp_path,
        "club.yaml",
        """
        extends: ./base.yaml
        title: Club
        contracts:
          ulti:
            failure_penalty: lots
        """,
    )
    monkeypatch.chdir(tmp_path)
    value_line = base.splitlines().index("    value: four") + 1
    assert problems_of("club.yaml", registry) == [
        "club.yaml:5:5: contracts.ulti.failure_penalty: should be a whole number, "
        "not text ('lots')",
        f"base.yaml:{value_line}:5: contracts.ulti.value: should be a whole number, "
        "not text ('four')",
    ]


def test_every_problem_is_reported_at_once_in_line_order(
    monkeypatch: pytest.MonkeyPatch, registry: Registry
) -> None:
    monkeypatch.chdir(FIXTURES)
    assert problems_of("broken.yaml", registry) == [
        "broken.yaml:6:5: contracts.ulti.valeu: unknown key 'valeu' (did you mean 'value'?)",
        "broken.yaml:8:5: contracts.aces.kind: unknown contract kind 'fuor_aces' "
        "(did you mean 'four_aces'?); installed kinds: betli, durchmars, four_aces, hundred, "
        "parti, ulti",
        "broken.yaml:13:5: contracts.betli.value: should be a whole number, not text ('lots')",
        "broken.yaml:16:5: ladder.0: missing required key 'names'",
    ]


def test_a_misspelt_component_beside_a_broken_contract_is_told_apart_from_it(
    tmp_path: Path,
) -> None:
    """The ladder is checked beside a contract whose value is wrong, with that contract
    set aside: it was left out of the known ids, as if the file had none (and a misspelt
    component had no did-you-mean)."""
    path = tmp_path / "combo.yaml"
    path.write_text(
        "name: combo\ntitle: c\nextends: wikipedia\ncontracts:\n  betli:\n    value: six\n"
        "ladder:\n  ulti: {components: [parti, ulty]}\n",
        encoding="utf-8",
    )
    value, component = (f"{p.line}:{p.column}: {p.path}: {p.message}" for p in check_file(path))
    assert value == "6:5: contracts.betli.value: should be a whole number, not text ('six')"
    assert component.startswith(
        "8:30: ladder.ulti.components.1: bid 'ulti' names component 'ulty', which is not in "
        "contracts (did you mean 'ulti'?) (known: betli, durchmars, "
    )


def club(tmp_path: Path, text: str) -> Path:
    copy_base(tmp_path)
    return write(
        tmp_path, "club.yaml", "extends: ./base.yaml\n" + textwrap.dedent(text).lstrip("\n")
    )


def test_unknown_key_without_a_close_match_lists_the_allowed_keys(
    tmp_path: Path, registry: Registry
) -> None:
    path = club(tmp_path, "deal:\n  shuffle: riffle\n")
    (problem,) = check_file(path, registry)
    assert (problem.line, problem.column, problem.path) == (3, 3, "deal.shuffle")
    assert problem.message == (
        "unknown key 'shuffle'; allowed here: misdeal_redeal_same_dealer, packets, talon"
    )


def test_the_keys_allowed_at_the_top_include_with_and_without(
    tmp_path: Path, registry: Registry
) -> None:
    """`with` and `without` are merged away before validation, but they are keys a file
    may write: the list of allowed keys said they were not."""
    path = club(tmp_path, "kx99: 1\n")
    (problem,) = check_file(path, registry)
    assert problem.message.startswith("unknown key 'kx99'; allowed here: ")
    allowed = problem.message.split("allowed here: ")[1].split(", ")
    assert {"with", "without", "extends", "title"} <= set(allowed)
    assert allowed == sorted(allowed)


def test_a_kontra_level_called_by_the_wrong_side_is_said_at_its_by(
    tmp_path: Path, registry: Registry
) -> None:
    """The check of the whole chain named the `kontra:` line, not the level's `by`."""
    levels = "".join(
        f"    - {{names: {{hu: K{n}, en: K{n}}}, multiplier: {2**n}, by: {by}}}\n"
        for n, by in ((1, "defenders"), (2, "declarer"), (3, "declarer"))
    )
    path = club(tmp_path, "kontra:\n  levels:\n" + levels)
    (problem,) = check_file(path, registry)
    assert (problem.line, problem.path) == (6, "kontra.levels.2.by")
    assert problem.message == (
        "kontra level 3 must be called by the defenders: the defenders open the chain and "
        "the sides alternate"
    )


def test_a_misspelt_kontra_from_is_said_at_its_item_with_a_hint(tmp_path: Path) -> None:
    """At the item of a list (it was said at the key when the list had one item), or at
    the key of a lone id written bare; with a did-you-mean, as a bid's component has."""
    path = tmp_path / "kf.yaml"
    path.write_text(
        "name: k\ntitle: k\nextends: wikipedia\nsilent_bonuses:\n"
        "  silent_ulti: {kontra_from: [partii]}\n  silent_hundred: {kontra_from: partyy}\n"
        "  silent_durchmars:\n    kontra_from: [parti, ulty]\n",
        encoding="utf-8",
    )
    found = [(p.line, p.column, p.path, p.message.split(" (known")[0]) for p in check_file(path)]
    assert found == [
        (5, 31, "silent_bonuses.silent_ulti.kontra_from.0",
         "kontra_from 'partii' is not a contract id (did you mean 'parti'?)"),
        (6, 20, "silent_bonuses.silent_hundred.kontra_from",
         "kontra_from 'partyy' is not a contract id (did you mean 'parti'?)"),
        (8, 26, "silent_bonuses.silent_durchmars.kontra_from.1",
         "kontra_from 'ulty' is not a contract id (did you mean 'ulti'?)"),
    ]  # fmt: skip


def test_every_slip_in_a_kontra_chain_is_said_at_once(tmp_path: Path, registry: Registry) -> None:
    """A Rekontra worth less than the Kontra and called by the wrong side, and a third
    level by the wrong side too: three problems in one run, each at its own key (the
    chain's checks stopped at the first, so the multiplier showed only once the sides
    were mended)."""
    levels = "".join(
        f"    - {{names: {{hu: K{n}, en: K{n}}}, multiplier: {m}, by: {by}}}\n"
        for n, m, by in ((1, 2, "defenders"), (2, 1, "defenders"), (3, 8, "declarer"))
    )
    problems = check_file(club(tmp_path, "kontra:\n  levels:\n" + levels), registry)
    assert [(p.line, p.path, p.message.split(":")[0]) for p in problems] == [
        (5, "kontra.levels.1.multiplier", "kontra level 2 multiplies by 1, less than level 1's 2"),
        (5, "kontra.levels.1.by", "kontra level 2 must be called by the declarer"),
        (6, "kontra.levels.2.by", "kontra level 3 must be called by the defenders"),
    ]


def test_unknown_top_level_key_is_hinted(tmp_path: Path, registry: Registry) -> None:
    (problem,) = check_file(club(tmp_path, "kontras: {}\n"), registry)
    assert (problem.line, problem.path) == (2, "kontras")
    assert problem.message == "unknown key 'kontras' (did you mean 'kontra'?)"


def test_wrong_types_and_literals(tmp_path: Path, registry: Registry) -> None:
    path = club(
        tmp_path,
        """
        players: 4
        deal: {talon: forhand}
        sources: notes
        points: {card_points: {acee: 11}}
        silent_bonuses:
          ulti:
            condition: ulti
            names: {hu: csendes ulti, en: silent ulti}
            value: 2
            applies_to: 5
        """,
    )
    assert [(p.line, p.path, p.message) for p in check_file(path, registry)] == [
        (
            2,
            "players",
            "should be a mapping of keys (count, sitting_out_dealer_pays), not a number (4)",
        ),
        (
            3,
            "deal.talon",
            "should be 'forehand', 'set_aside' or 'none', not text ('forhand') (did you mean "
            "'forehand'?)",
        ),
        (4, "sources", "should be a list, not text ('notes'): write [notes]"),
        (
            5,
            "points.card_points.acee",
            "should be 'ace', 'ten', 'king', 'over', 'under', 'nine', 'eight' or 'seven' "
            "(did you mean 'ace'?)",
        ),
        (
            11,
            "silent_bonuses.ulti.applies_to",
            "should be 'auto' or a list, not a number (5)",
        ),
    ]


def test_a_value_none_of_the_allowed_ones_says_what_was_written(
    tmp_path: Path, registry: Registry
) -> None:
    """Pydantic's "Input should be 3 or 4" read unlike every other problem, and did not
    say what the file had; "not a number (5)" then read as if 5 were no number."""
    path = club(tmp_path, "players: {count: 5}\ntrump: {red_suit: piros}\n")
    assert [(p.path, p.message) for p in check_file(path, registry)] == [
        ("players.count", "should be 3 or 4, not 5"),
        (
            "trump.red_suit",
            "should be 'acorns', 'leaves', 'hearts' or 'bells', not text ('piros') (did you "
            "mean 'hearts'?)",  # the Hungarian word for it
        ),
    ]


def test_a_scalar_where_a_mapping_goes_names_its_keys_or_the_value_meant(
    tmp_path: Path, registry: Registry
) -> None:
    path = club(tmp_path, "kontra: {levels: [Kontra, Rekontra]}\ncontracts: {ulti: 5, newone: 5}\n")
    assert [(p.path, p.message) for p in check_file(path, registry)] == [
        (
            "kontra.levels.0",
            "should be a mapping of keys (names, multiplier, by), not text ('Kontra')",
        ),
        (
            "kontra.levels.1",
            "should be a mapping of keys (names, multiplier, by), not text ('Rekontra')",
        ),
        (
            "contracts.ulti",
            "should be a mapping of keys, not a number (5); to change its value, write "
            "ulti: {value: 5}",
        ),
        # nothing inherited to change: a new contract is written whole
        ("contracts.newone", "should be a mapping of keys, not a number (5)"),
    ]


def test_model_checks_read_without_pydantic_prefix(tmp_path: Path, registry: Registry) -> None:
    path = club(tmp_path, "deal:\n  packets: [[1, 2, 3]]\n")
    (problem,) = check_file(path, registry)
    assert str(problem).endswith(
        "club.yaml:2:1: deal: the packets deal 1, 2 and 3 cards to forehand and the next two "
        "seats; with talon 'forehand' they must deal 12, 10 and 10 (each player plays 10 cards; "
        "forehand also takes the two talon cards)"
    )


def test_missing_kind_and_missing_top_level_keys(tmp_path: Path, registry: Registry) -> None:
    path = write(
        tmp_path,
        "bare.yaml",
        """
        # a comment before the first key
        title: Bare
        contracts:
          ulti: {names: {hu: ulti, en: ulti}, value: 4}
        """,
    )
    assert [(p.line, p.column, p.path, p.message) for p in check_file(path, registry)] == [
        (2, 1, "", "missing required key 'kontra'"),
        (2, 1, "", "missing required key 'ladder'"),
        (
            4,
            3,
            "contracts.ulti",
            "missing 'kind': say which contract kind judges this entry; installed kinds: "
            "betli, durchmars, four_aces, hundred, parti, ulti",
        ),
    ]


def test_ladder_issues_are_positioned_like_schema_problems(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, registry: Registry
) -> None:
    def check_ladder(ruleset: Ruleset, registry: Registry, **_: object) -> list[LadderIssue]:
        return [
            LadderIssue("ladder.0.value", "the total is not the sum of its components"),
            LadderIssue("contracts.ulti", "no bid uses this contract"),
        ]

    monkeypatch.setattr(loading, "check_ladder", check_ladder)
    path = club(
        tmp_path,
        "ladder:\n  - {id: p, rank: 1, value: 3, components: [parti],\n"
        "     names: {hu: p, en: p}}\n",
    )
    problems = check_file(path, registry)
    base_lines = (FIXTURES / "base.yaml").read_text(encoding="utf-8").splitlines()
    ulti_line = base_lines.index("  ulti:") + 1
    assert [(Path(p.file).name, p.line, p.column, p.path) for p in problems] == [
        ("club.yaml", 3, 22, "ladder.0.value"),
        ("base.yaml", ulti_line, 3, "contracts.ulti"),
    ]


def test_yaml_level_problems(tmp_path: Path, registry: Registry) -> None:
    cases = {
        "syntax.yaml": ("title: [one, two\nname: x\n", "did not find expected ',' or ']'"),
        "list.yaml": (
            "- a\n- b\n",
            "the top level must be a mapping of keys (name, title, ...), not a list",
        ),
        "empty.yaml": ("# nothing here\n", "the file is empty"),
        "dupe.yaml": (
            "title: a\nname: b\ntitle: c\n",
            "duplicate key 'title' (first set at line 1)",
        ),
        "key.yaml": ("title: a\ntrue: 1\n", "key 'true' is read as true/false; quote it: 'true'"),
    }
    for name, (text, expected) in cases.items():
        path = write(tmp_path, name, text)
        problems = check_file(path, registry)
        assert len(problems) == 1, (name, problems)
        assert expected in problems[0].message, (name, problems)
        assert problems[0].file.endswith(name)
    (syntax,) = check_file(tmp_path / "syntax.yaml", registry)
    assert (syntax.line, syntax.column) == (2, 5)


def test_a_missing_file_is_a_problem_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, registry: Registry
) -> None:
    monkeypatch.chdir(tmp_path)
    assert check_file("nowhere.yaml", registry) == [
        Problem("nowhere.yaml", None, None, "", "no such file")
    ]
    (problem,) = check_file(tmp_path, registry)
    assert problem.message == "not a regular file"


# --------------------------------------------------------------------------- lookup by name


def test_lookup_order_user_path_then_xdg_then_plugin_then_bundled(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, bundled: Path
) -> None:
    first, second, xdg = tmp_path / "first", tmp_path / "second", tmp_path / "xdg"
    plugin_dir = tmp_path / "plugin"
    files = {
        "first": write(first, "x.yaml", "title: first\n"),
        "second": write(second, "x.yaml", "title: second\n"),
        "xdg": write(xdg / "ulti-rules" / "rulesets", "x.yaml", "title: xdg\n"),
        "plugin": write(plugin_dir, "x.yaml", "title: plugin\n"),
        "bundled": write(bundled, "x.yaml", "title: bundled\n"),
    }
    monkeypatch.setenv(loading.PATH_ENV, f"{first}{os.pathsep}{second}")
    order = ["first", "second", "xdg", "plugin", "bundled"]
    for i, title in enumerate(order):
        plugin_files = [(files["plugin"], "ulti_club_plugin")] if i <= order.index("plugin") else []
        source = resolve("x", Registry(rulesets=plugin_files))
        below = files[order[i + 1]] if i + 1 < len(order) else None
        assert (source.title, source.path, source.shadows) == (title, files[title], below)
        assert source.origin == {"plugin": "plugin", "bundled": "bundled"}.get(title, "user")
        assert source.plugin == ("ulti_club_plugin" if title == "plugin" else None)
        files[title].unlink()


def test_xdg_defaults_to_dot_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv(loading.PATH_ENV, "")
    assert user_dirs() == [tmp_path / ".config" / "ulti-rules" / "rulesets"]


def test_the_user_folders_follow_each_change_of_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The folders are kept between loads (a load by name asks for them every time), and
    worked out again whenever a variable they come from changes."""
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv(loading.PATH_ENV, str(tmp_path / "a"))
    first = user_dirs()
    first.append(tmp_path / "not a folder of ours")  # the caller's own list
    assert user_dirs() == [
        tmp_path / "a",
        tmp_path / "home" / ".config" / "ulti-rules" / "rulesets",
    ]
    monkeypatch.setenv(loading.PATH_ENV, str(tmp_path / "b"))
    assert user_dirs()[0] == tmp_path / "b"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert user_dirs() == [tmp_path / "b", tmp_path / "xdg" / "ulti-rules" / "rulesets"]
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "other"))
    assert user_dirs()[1] == tmp_path / "other" / ".config" / "ulti-rules" / "rulesets"
    monkeypatch.setenv(loading.PATH_ENV, f"~/mine{os.pathsep}~")
    assert user_dirs()[:2] == [tmp_path / "other" / "mine", tmp_path / "other"]


def test_a_folder_of_another_users_home_is_looked_up_every_time(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``~user`` comes from the password database, which no variable stands for: such a
    path is never kept, so a user made (or a home moved) since the last load counts."""
    homes = {"alice": str(tmp_path / "alice")}

    def expanded(path: str) -> str:
        user, _, rest = path[1:].partition("/")
        if not path.startswith("~") or not user:
            return str(tmp_path / "me" / rest) if path.startswith("~") else path
        return f"{homes[user]}/{rest}" if user in homes else path

    monkeypatch.setattr(os.path, "expanduser", expanded)
    monkeypatch.setenv(loading.PATH_ENV, "~alice/rules")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert user_dirs()[0] == tmp_path / "alice" / "rules"
    homes["alice"] = str(tmp_path / "moved")
    assert user_dirs()[0] == tmp_path / "moved" / "rules"
    del homes["alice"]  # ~alice names no home now: no folder
    assert user_dirs() == [tmp_path / "xdg" / "ulti-rules" / "rulesets"]


def test_find_rulesets_lists_each_name_once_and_reports_shadowing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, bundled: Path
) -> None:
    user = tmp_path / "user"
    mine = write(user, "wikipedia.yaml", "title: Our Wikipedia\n")
    write(user, "solo.yml", "title: Only ours\n")
    theirs = write(bundled, "wikipedia.yaml", "title: The Wikipedia standard\n")
    write(bundled, "tournament.yaml", "title: Tournament\n")
    monkeypatch.setenv(loading.PATH_ENV, str(user))
    assert find_rulesets(Registry()) == [
        RulesetSource("solo", "Only ours", "user", user / "solo.yml", None),
        RulesetSource("tournament", "Tournament", "bundled", bundled / "tournament.yaml", None),
        RulesetSource("wikipedia", "Our Wikipedia", "user", mine, theirs),
    ]


def test_a_club_file_may_extend_the_ruleset_it_shadows(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, registry: Registry, bundled: Path
) -> None:
    copy_base(bundled, "wikipedia.yaml")
    user = tmp_path / "user"
    write(user, "wikipedia.yaml", "extends: wikipedia\ntitle: Wikipedia as we play it\n")
    monkeypatch.setenv(loading.PATH_ENV, str(user))
    source = resolve("wikipedia", registry)
    assert (source.origin, source.shadows) == ("user", bundled / "wikipedia.yaml")
    ruleset = load_ruleset("wikipedia", registry)
    assert (ruleset.name, ruleset.title) == ("wikipedia", "Wikipedia as we play it")
    assert ruleset.contracts["ulti"].value == 4  # from the bundled file it hides
    assert resolve("wikipedia", registry).title == "Wikipedia as we play it"


def test_a_file_extending_its_own_name_needs_something_below(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, bundled: Path
) -> None:
    user = tmp_path / "user"
    write(user, "lonely.yaml", "extends: lonely\n")
    monkeypatch.setenv(loading.PATH_ENV, str(user))
    (problem,) = check_file("lonely", Registry())
    assert (problem.line, problem.column, problem.path) == (1, 10, "extends")
    assert problem.message.startswith("this file is the ruleset 'lonely' itself")


def test_an_unknown_name_suggests_and_lists(bundled: Path) -> None:
    write(bundled, "wikipedia.yaml", "title: W\n")
    write(bundled, "tournament.yaml", "title: T\n")
    with pytest.raises(RulesetError) as caught:
        resolve("wikipdia", Registry())
    assert str(caught.value) == (
        "wikipdia: no ruleset named 'wikipdia' (did you mean 'wikipedia'?); "
        "known rulesets: tournament, wikipedia"
    )
    with pytest.raises(RulesetError) as caught:
        resolve("Tournament", Registry())
    assert "(did you mean 'tournament'?)" in str(caught.value)
    with pytest.raises(RulesetError) as caught:
        resolve("bridge", Registry())
    assert "did you mean" not in str(caught.value)


def test_a_name_typed_as_a_file_gets_a_hint(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, bundled: Path
) -> None:
    write(bundled, "wikipedia.yaml", "title: W\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulesetError) as caught:
        resolve("wikipedia.yaml", Registry())
    assert str(caught.value) == (
        "wikipedia.yaml: no such file (to pick the ruleset by name, say 'wikipedia')"
    )


# --------------------------------------------------------------------------- content hash


def test_content_hash_is_stable_and_sensitive(tmp_path: Path, registry: Registry) -> None:
    first = content_hash(load_ruleset(FIXTURES / "base.yaml", registry))
    assert first == content_hash(load_ruleset(FIXTURES / "base.yaml", registry))
    assert first.startswith("sha256:") and len(first) == len("sha256:") + 64
    # a file that extends the base and changes nothing hashes the same
    shutil.copy(FIXTURES / "base.yaml", tmp_path / "base.yaml")
    copy = write(
        tmp_path, "same.yaml", "extends: ./base.yaml\nname: base\ntitle: A minimal test ruleset\n"
    )
    assert content_hash(load_ruleset(copy, registry)) == first
    changed = write(
        tmp_path, "changed.yaml", "extends: ./base.yaml\nname: base\nkontra: {max_level: 5}\n"
    )
    assert content_hash(load_ruleset(changed, registry)) != first


# --------------------------------------------------------------------------- the bundled rulesets


def test_bundled_dir_is_the_checkout_rulesets_folder() -> None:
    assert (bundled_dir() / "wikipedia.yaml").is_file()


@pytest.mark.parametrize("name", BUNDLED)
def test_each_bundled_ruleset_loads(name: str, registry: Registry) -> None:
    source = resolve(name, registry)
    assert (source.origin, source.path.parent) == ("bundled", bundled_dir())
    ruleset = load_ruleset(name, registry)
    assert ruleset.title_in("en") == source.title != ""
    assert ruleset.title_in("hu") not in ("", source.title)  # every bundled title translated
    assert ruleset.title_in("de") not in ("", source.title, ruleset.title_in("hu"))
    assert ruleset.ladder


def test_every_bundled_ruleset_is_found_and_checks_clean() -> None:
    """Through the process-wide registry, as the CLI sees them."""
    bundled = [s for s in find_rulesets() if s.origin == "bundled"]
    assert set(BUNDLED) <= {s.name for s in bundled}
    for source in bundled:
        assert check_file(source.path) == [], source.name


def test_ladder_totals_are_checked_even_when_other_keys_are_broken(
    tmp_path: Path, registry: Registry
) -> None:
    """A club organiser sees every mistake in one run, not one kind per run."""
    path = club(
        tmp_path,
        """
        points:
          last_trik: 10
        ladder:
          - id: simple
            rank: 1
            value: 3
            components: [parti]
            names: {hu: Parti, en: Simple}
          - id: broken
            rank: 2
            value: nine
            components: [parti]
            names: {hu: x, en: y}
        """,
    )
    found = problems_of(path, registry)
    assert any("points.last_trik: unknown key 'last_trik'" in p for p in found)
    assert any("ladder.1.value: should be a whole number, not text ('nine')" in p for p in found)
    assert any(
        "club.yaml:7:5: " in p
        and "ladder.0.value: bid 'simple' has value 3, but its component 'parti' is worth 1" in p
        for p in found
    ), found


def test_ladder_totals_are_checked_beside_unknown_top_level_keys(
    tmp_path: Path, registry: Registry
) -> None:
    """Keys set aside at the top are left out of the copy the ladder is checked on (a
    file of 45,000 of them was copied whole to drop them again), and the rest is checked."""
    path = club(
        tmp_path,
        """
        colour: red
        ladder:
          - id: simple
            rank: 1
            value: 3
            components: [parti]
            names: {hu: Parti, en: Simple}
        flavour: {sweet: true}
        """,
    )
    found = problems_of(path, registry)
    assert any("colour: unknown key 'colour'" in p for p in found), found
    assert any("flavour: unknown key 'flavour'" in p for p in found), found
    assert any(
        "ladder.0.value: bid 'simple' has value 3, but its component 'parti' is worth 1" in p
        for p in found
    ), found
