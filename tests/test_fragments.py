"""Several parents, and rule fragments: parts of a ruleset that plugins and clubs ship.

`extends: [a, b]` merges in order; `with: [fragment]` merges a fragment on top of the
file; `without: [fragment]` drops one that a parent adds. The Four Aces plugin ships its
contract, bids and silent bonus as the fragment `four-aces`, which `wikipedia` uses.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from ulti_rules import hookimpl
from ulti_rules.errors import RulesetError
from ulti_rules.plugins import (
    AUTOLOAD_ENV,
    PluginFailure,
    Registry,
    build_registry,
    get_registry,
    new_manager,
)
from ulti_rules.ruleset.loading import (
    find_fragments,
    find_rulesets,
    load_raw,
    load_resolved,
    load_ruleset,
)

import ulti_four_aces
from cli_in_process import run_in

BASE = Path(__file__).parent / "fixtures" / "loading" / "base.yaml"
BETLI_FRAGMENT = """\
fragment: "Betli: the contract and its bid"
contracts:
  betli: {kind: betli, names: {hu: betli, en: Betli}, value: 5}
ladder:
  betli: {rank: 3, value: 5, components: [betli], names: {hu: betli, en: Betli}}
"""


@pytest.fixture(scope="module")
def registry() -> Registry:
    pm = new_manager(autoload=False)
    pm.register(ulti_four_aces)
    return build_registry(pm)


@pytest.fixture
def folder(tmp_path: Path, sealed_user_folders: Path) -> Path:
    """A club folder holding ``base.yaml``; the fragment ``betli-bids`` is in the user's
    rulesets folder, found by name."""
    shutil.copy(BASE, tmp_path / "base.yaml")
    (sealed_user_folders / "betli-bids.yaml").write_text(BETLI_FRAGMENT, encoding="utf-8")
    return tmp_path


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def problems(path: Path | str, registry: Registry) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path, registry)
    return [str(p) for p in caught.value.problems]


def uses(bid: dict[str, Any], contract: str) -> bool:
    return contract in bid["components"]


# --------------------------------------------------------------------------- four aces


def test_the_four_aces_plugin_ships_its_fragment(registry: Registry) -> None:
    assert [path for path, _ in registry.fragments] == [ulti_four_aces.FRAGMENT]
    (source,) = [s for s in find_fragments(registry) if s.name == "four-aces"]
    assert (source.origin, source.path, source.fragment) == (
        "plugin",
        ulti_four_aces.FRAGMENT,
        True,
    )
    assert source.title.startswith("Four Aces")
    assert "four-aces" not in {s.name for s in find_rulesets(registry)}


def test_wikipedia_takes_four_aces_from_the_fragment(registry: Registry) -> None:
    raw = load_raw("wikipedia", registry)
    fragment = yaml.safe_load(ulti_four_aces.FRAGMENT.read_text(encoding="utf-8"))
    assert raw["with"] == ["four-aces"]
    assert "four_aces" not in raw["contracts"] and "silent_four_aces" not in raw["silent_bonuses"]
    assert not [bid for bid in raw["ladder"] if uses(bid, "four_aces")]
    resolved = load_resolved("wikipedia", registry)
    added = [bid for bid in resolved["ladder"] if uses(bid, "four_aces")]
    assert [bid["id"] for bid in added] == list(fragment["ladder"])
    assert [bid for bid in resolved["ladder"] if not uses(bid, "four_aces")] == raw["ladder"]
    assert resolved["contracts"]["four_aces"] == fragment["contracts"]["four_aces"]
    ruleset = load_ruleset("wikipedia", registry)
    ranks = [bid.rank for bid in ruleset.ladder]
    assert ranks == sorted(ranks)  # each Four Aces bid joined at its rank
    for bid_id in fragment["ladder"]:  # ... ahead of the bids it shares its rank with
        i = next(i for i, bid in enumerate(ruleset.ladder) if bid.id == bid_id)
        assert i == 0 or ruleset.ladder[i - 1].rank < ruleset.ladder[i].rank
    host = ruleset.silent_bonuses["silent_ulti"].kontra_from
    assert host.index("four_aces") == host.index("ulti") + 1


def test_without_drops_the_fragment_from_an_inherited_ruleset(
    tmp_path: Path, registry: Registry
) -> None:
    club = write(tmp_path, "club.yaml", "extends: wikipedia\ntitle: C\nwithout: [four-aces]\n")
    resolved = load_resolved(club, registry)
    wikipedia = load_resolved("wikipedia", registry)
    assert "four_aces" not in resolved["contracts"]
    assert "silent_four_aces" not in resolved["silent_bonuses"]
    assert not [bid for bid in resolved["ladder"] if uses(bid, "four_aces")]
    assert all("four_aces" not in b["kontra_from"] for b in resolved["silent_bonuses"].values())
    assert resolved["ladder"] == [b for b in wikipedia["ladder"] if not uses(b, "four_aces")]
    assert resolved["kontra"] == wikipedia["kontra"]
    assert resolved["auction"] == wikipedia["auction"]


def test_a_club_without_four_aces_plays_and_shows_none(tmp_path: Path) -> None:
    """Through `ulti`: a club on the Wikipedia standard that drops Four Aces. It orders
    its ladder by a rule that derives the ranks (the table rule keeps WP's rank numbers,
    which the twelve Four Aces bids leave with gaps)."""
    deriving = next(n for n, r in get_registry().ranking_rules.items() if not r.reads_ranks)
    (tmp_path / "club.yaml").write_text(
        f"name: club\ntitle: Club\nextends: wikipedia\nwithout: [four-aces]\nranking: {deriving}\n",
        encoding="utf-8",
    )
    ulti = run_in(tmp_path)
    assert ulti("check", "club.yaml").stdout == "1 file checked: 1 ok\n"
    rows = json.loads(ulti("ladder", "club.yaml", "--json").stdout)
    wikipedia = json.loads(ulti("ladder", "wikipedia", "--json").stdout)
    without = [r["id"] for r in wikipedia if all(c["id"] != "four_aces" for c in r["components"])]
    assert sorted(row["id"] for row in rows) == sorted(without)
    assert all("silent_four_aces" not in row["silent"] for row in rows)


@pytest.mark.parametrize("adds", ["with: four-aces", "extends: [tournament, four-aces]"])
def test_tournament_takes_four_aces_by_with_or_by_extends_alike(tmp_path: Path, adds: str) -> None:
    """`tournament` has no silent Durchmars and ranks its bids by value. The fragment's
    restated kontra_from of the silent Durchmars brought back a half-written bonus, and
    its WP ranks were refused under `with:` (and dropped under `extends:`), each error in
    the plugin's file, which the organiser cannot change (found by a fault review). A
    fragment changes only what the rules have, and its ranks give way to a derived order."""
    extends = "extends: tournament\n" if adds.startswith("with") else ""
    (tmp_path / "club.yaml").write_text(
        f"name: club\ntitle: Club\n{extends}{adds}\n", encoding="utf-8"
    )
    ulti = run_in(tmp_path)
    assert ulti("check", "club.yaml").stdout == "1 file checked: 1 ok\n"
    rules = load_ruleset(tmp_path / "club.yaml")
    assert "four_aces" in rules.contracts and "silent_four_aces" in rules.silent_bonuses
    assert "silent_durchmars" not in rules.silent_bonuses
    rows = json.loads(ulti("ladder", "club.yaml", "--json").stdout)
    four_aces = next(r for r in rows if r["id"] == "four_aces")
    ulti_row = next(r for r in rows if r["id"] == "ulti")
    assert four_aces["rank"] == ulti_row["rank"]  # equal value: ranked alike, by value
    played = ulti("simulate", "club.yaml", "--hands", "30", "--quiet", "--json")
    assert played.returncode == 0, played.stderr


def test_a_club_file_bringing_back_half_a_removed_bonus_is_refused_in_that_file(
    tmp_path: Path,
) -> None:
    """The leniency is a fragment's: a club file's own half entry is its mistake."""
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: tournament\n"
        "silent_bonuses:\n  silent_durchmars:\n    kontra_from: [parti]\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesetError) as caught:
        load_ruleset(tmp_path / "club.yaml")
    assert {p.file for p in caught.value.problems} == {str(tmp_path / "club.yaml")}
    assert any("missing required key 'condition'" in str(p) for p in caught.value.problems)


def test_a_fragment_s_half_entry_of_an_id_nobody_removed_is_checked(folder: Path) -> None:
    """A typo in a fragment is no removed bonus: it is refused, not left out."""
    write(
        folder,
        "typo.yaml",
        'fragment: "a typo"\nsilent_bonuses:\n  silent_ulty:\n    kontra_from: [parti]\n',
    )
    club = write(
        folder, "club.yaml", "name: club\ntitle: Club\nextends: wikipedia\nwith: ./typo.yaml\n"
    )
    with pytest.raises(RulesetError, match="silent_ulty"):
        load_ruleset(club)


def test_a_club_without_four_aces_keeps_the_wikipedia_table(tmp_path: Path) -> None:
    """Under the table rule the remaining bids keep WP's rank numbers (with gaps where the
    Four Aces bids were) and so their order; `ulti check` accepts it."""
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: wikipedia\nwithout: [four-aces]\n", encoding="utf-8"
    )
    ulti = run_in(tmp_path)
    assert ulti("check", "club.yaml").stdout == "1 file checked: 1 ok\n"
    rows = json.loads(ulti("ladder", "club.yaml", "--json").stdout)
    wikipedia = json.loads(ulti("ladder", "wikipedia", "--json").stdout)
    kept = [r for r in wikipedia if all(c["id"] != "four_aces" for c in r["components"])]
    assert [(r["id"], r["rank"]) for r in rows] == [(r["id"], r["rank"]) for r in kept]
    assert len(rows) == 42 and len({r["rank"] for r in rows}) < 42


def test_a_failed_plugin_is_named_where_its_fragment_is_missing() -> None:
    broken = Registry(failures=[PluginFailure("four_aces", None, "load", "ImportError: gone")])
    (found,) = problems("wikipedia", broken)
    assert "wikipedia.yaml:" in found
    assert ": with.0: no fragment named 'four-aces'; known fragments: none" in found
    assert found.endswith("plugin 'four_aces' failed and was skipped (it may ship it)")


def test_a_plugin_registering_a_missing_fragment_is_left_out(tmp_path: Path) -> None:
    class Ghost:
        @hookimpl
        def register_fragments(self, register: Any) -> None:
            register(tmp_path / "ghost.yaml")

    pm = new_manager(autoload=False)
    pm.register(Ghost(), name="ghost")
    found = build_registry(pm)
    (failure,) = found.failures
    assert (failure.plugin, failure.phase) == ("ghost", "register_fragments")
    assert (
        failure.message
        == f"registered the fragment {tmp_path / 'ghost.yaml'}, which does not exist"
    )
    assert found.fragments == []


# --------------------------------------------------------------------------- several parents


def test_several_parents_merge_in_order_and_a_shared_base_once(
    folder: Path, registry: Registry
) -> None:
    write(
        folder,
        "a.yaml",
        "extends: ./base.yaml\nkontra: {max_level: 1}\ncontracts:\n  ulti: {value: 5}\n",
    )
    write(
        folder,
        "b.yaml",
        "extends: ./base.yaml\nkontra: {max_level: 2}\nmarriages: {require_trick: true}\n",
    )
    club = write(folder, "club.yaml", "extends: [./a.yaml, ./b.yaml]\ntitle: Club\n")
    resolved = load_resolved(club, registry)
    assert resolved["kontra"]["max_level"] == 2  # the later parent wins
    assert resolved["contracts"]["ulti"]["value"] == 5  # b's base did not undo a's change
    assert resolved["marriages"] == {"require_trick": True}
    assert resolved["title"] == "Club"
    own = write(folder, "own.yaml", "extends: [./a.yaml, ./b.yaml]\nkontra: {max_level: 0}\n")
    assert load_resolved(own, registry)["kontra"]["max_level"] == 0  # the file itself last


def test_a_problem_points_at_the_parent_that_set_the_key(
    folder: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(folder, "a.yaml", "extends: ./base.yaml\nkontra: {max_level: 1}\n")
    write(folder, "b.yaml", "extends: ./base.yaml\n\nkontra:\n  max_level: lots\n")
    write(folder, "club.yaml", "extends: [./a.yaml, ./b.yaml]\ntitle: Club\n")
    monkeypatch.chdir(folder)
    assert problems("club.yaml", registry) == [
        "b.yaml:4:3: kontra.max_level: should be a whole number, not text ('lots')"
    ]


def test_a_cycle_through_a_list_prints_the_chain(
    folder: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(folder, "a.yaml", "title: A\nextends: [./base.yaml, ./b.yaml]\n")
    write(folder, "b.yaml", "extends: ./a.yaml\n")
    monkeypatch.chdir(folder)
    assert problems("a.yaml", registry) == [
        "a.yaml:2:24: extends.1: cycle a.yaml -> b.yaml -> a.yaml"
    ]


def test_show_resolved_prints_the_merge_of_several_parents(folder: Path) -> None:
    write(folder, "a.yaml", "extends: ./base.yaml\nkontra: {max_level: 1}\n")
    write(folder, "club.yaml", "title: Club\nextends: [./a.yaml, betli-bids]\n")
    ulti = run_in(folder)
    shown = ulti("show", "--resolved", "club.yaml")
    assert shown.returncode == 0, shown.stderr
    resolved = yaml.safe_load(shown.stdout)
    assert resolved["kontra"]["max_level"] == 1
    assert [bid["id"] for bid in resolved["ladder"]] == ["parti", "red_parti", "betli", "ulti"]
    assert not {"extends", "with", "without", "fragment"} & set(resolved)
    assert ulti("check", "club.yaml").stdout == "1 file checked: 1 ok\n"


# --------------------------------------------------------------------------- fragments


def test_a_fragment_joins_by_with_or_by_extends_in_its_order(
    folder: Path, registry: Registry
) -> None:
    """In `extends` the fragment comes before the file's own keys; in `with`, after."""
    change = "contracts:\n  betli: {names: {en: Our Betli}}\n"
    before = write(folder, "before.yaml", "title: C\nextends: [./base.yaml, betli-bids]\n" + change)
    after = write(
        folder, "after.yaml", "title: C\nextends: ./base.yaml\nwith: betli-bids\n" + change
    )
    assert load_ruleset(before, registry).contracts["betli"].names.en == "Our Betli"
    with_it = load_ruleset(after, registry)
    assert with_it.contracts["betli"].names.en == "Betli"
    assert [bid.id for bid in with_it.ladder] == ["parti", "red_parti", "betli", "ulti"]


def test_a_club_drops_an_inherited_fragment_and_checks_clean(folder: Path) -> None:
    write(folder, "rich.yaml", "title: Rich\nextends: ./base.yaml\nwith: [betli-bids]\n")
    write(folder, "club.yaml", "title: Club\nextends: ./rich.yaml\nwithout: [betli-bids]\n")
    ulti = run_in(folder)
    assert ulti("check", "rich.yaml", "club.yaml").stdout == "2 files checked: 2 ok\n"
    resolved = yaml.safe_load(ulti("show", "--resolved", "club.yaml").stdout)
    assert "betli" not in resolved["contracts"]
    assert [bid["id"] for bid in resolved["ladder"]] == ["parti", "red_parti", "ulti"]


def test_checking_a_fragment_alone_says_what_it_is() -> None:
    """A fragment is no playable ruleset, but a sound one passes `ulti check`: its keys and
    values are checked merged onto wikipedia, and a note says where the rest is checked."""
    done = run_in(Path.cwd())("check", "four-aces")
    assert (done.returncode, done.stdout) == (0, "1 file checked: 1 ok\n")
    assert done.stderr.startswith("ulti: note: ")
    assert done.stderr.endswith(
        "four-aces.yaml:14:1: fragment: 'four-aces' is a fragment, merged onto a ruleset: its "
        "keys and values were checked merged onto 'wikipedia'; add it to a ruleset (`with: "
        "[four-aces]`) and check that ruleset for the rest\n"
    )


def test_checking_a_fragment_finds_its_misspelt_keys(folder: Path) -> None:
    """A misspelt key in a fragment was found only once a ruleset merged it: `ulti check`
    names it at its line with the did-you-mean a ruleset gets, also inside an entry the
    fragment changes (the kind of Ulti, the bid, come from the ruleset it is merged onto)."""
    write(
        folder,
        "tiszai.yaml",
        """
        fragment: "Kontra up to Szubkontra"
        kontr:
          max_level: 3
        kontra:
          max_levl: 3
          window: own_card_trick
        contracts:
          ulti:
            failure_penalti: 2
        ladder:
          ulti:
            rnak: 5
        silent_bonuses:
          silent_ulty:
            kontra_from: [parti]
        """,
    )
    done = run_in(folder)("check", "tiszai.yaml")
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "tiszai.yaml:2:1: kontr: unknown key 'kontr' (did you mean 'kontra'?)",
        "tiszai.yaml:5:3: kontra.max_levl: unknown key 'max_levl' (did you mean 'max_level'?)",
        "tiszai.yaml:6:3: kontra.window: should be 'own_card_trick1', 'end_trick1' or "
        "'before_lead_trick2', not text ('own_card_trick') (did you mean 'own_card_trick1'?)",
        "tiszai.yaml:9:5: contracts.ulti.failure_penalti: unknown key 'failure_penalti' (did "
        "you mean 'failure_penalty'?)",
        "tiszai.yaml:12:5: ladder.ulti.rnak: unknown key 'rnak' (did you mean 'rank'?)",
        "tiszai.yaml:14:3: silent_bonuses.silent_ulty: there is no silent bonus 'silent_ulty' "
        "among the inherited ones (did you mean 'silent_ulti'?); a new silent bonus must be "
        "complete, and this one lacks condition, names, value",
        "1 file checked: 0 ok, 1 with 6 problems",
    ]
    assert done.stderr == ""


def test_checking_a_fragment_leaves_to_its_ruleset_what_depends_on_it(folder: Path) -> None:
    """What the ruleset it joins must settle is not the fragment's mistake: changing a bid
    wikipedia lacks, a new contract it completes elsewhere. The head is still checked."""
    write(
        folder,
        "other.yaml",
        """
        fragment: "Changes to a ladder that is not wikipedia's"
        contracts:
          kismars: {value: 6}
        ladder:
          kismars: {rank: 7}
        """,
    )
    write(folder, "named.yaml", 'fragment: "a fragment with a name"\nname: named\n')
    ulti = run_in(folder)
    done = ulti("check", "other.yaml")
    assert (done.returncode, done.stdout) == (0, "1 file checked: 1 ok\n")
    assert "'other' is a fragment" in done.stderr
    named = ulti("check", "named.yaml")
    assert named.returncode == 1
    assert named.stdout.startswith("named.yaml:2:1: name: a fragment cannot set 'name'")


def test_rulesets_lists_fragments_after_the_table(folder: Path) -> None:
    done = run_in(folder)("rulesets")
    assert done.returncode == 0
    table, _, rest = done.stdout.partition("Fragments, added to a ruleset with `with: [NAME]`")
    assert "four-aces" not in table and "betli-bids" not in table
    lines = rest.splitlines()[1:]
    assert [line.split(" — ")[0].strip() for line in lines] == ["betli-bids", "four-aces"]
    assert "Betli: the contract and its bid (user: " in lines[0]
    assert "(plugin four_aces: " in lines[1]


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (
            "extends: ./base.yaml\nwith: [betli-bid]\n",
            "with.0",
            "no fragment named 'betli-bid' (did you mean 'betli-bids'?); known fragments: "
            "betli-bids, four-aces",
        ),
        (
            "extends: [betli-bids, ./base.yaml]\n",
            "extends.0",
            "'betli-bids' is a fragment, which is merged onto a ruleset: list a ruleset before "
            "it (extends: [<ruleset>, betli-bids]), or add it with `with: [betli-bids]`",
        ),
        (
            "extends: ./base.yaml\nwith: [wikipedia]\n",
            "with.0",
            "'wikipedia' is a ruleset, not a fragment (a file whose first key is `fragment:`); "
            "add a ruleset's rules with `extends:`",
        ),
        (
            "extends: wikipedia\nwithout: [betli-bids]\n",
            "without.0",
            "nothing to drop: what this file builds on does not use the fragment 'betli-bids'; "
            "it uses four-aces",
        ),
        (
            "extends: wikipedia\nwithout: [four-aces]\nwith: [four-aces]\n",
            "with.0",
            "this file both adds the fragment 'four-aces' and drops it (without:); keep one of "
            "the two",
        ),
        (
            "extends: ./base.yaml\nwithout: tournament\n",
            "without",
            "'tournament' is a ruleset, not a fragment (a file whose first key is `fragment:`); "
            "`without:` drops a fragment that a ruleset you extend uses",
        ),
    ],
    ids=[
        "unknown-name",
        "fragment-first",
        "with-a-ruleset",
        "drops-nothing",
        "adds-and-drops",
        "without-a-ruleset",
    ],
)
def test_fragment_mistakes_are_positioned(
    folder: Path,
    registry: Registry,
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    where: str,
    message: str,
) -> None:
    club = write(folder, "club.yaml", "title: Club\n" + text)
    monkeypatch.chdir(folder)
    (found,) = problems("club.yaml", registry)
    line = next(
        i
        for i, row in enumerate(club.read_text().splitlines(), 1)
        if row.startswith(where.split(".")[0] + ":")
    )
    assert found.startswith(f"club.yaml:{line}:")
    assert found.endswith(f": {where}: {message}")


def test_a_fragment_cannot_set_the_rulesets_title(
    folder: Path, registry: Registry, sealed_user_folders: Path
) -> None:
    (sealed_user_folders / "titled.yaml").write_text(
        'fragment: "A part"\ntitle: Mine now\n', encoding="utf-8"
    )
    club = write(folder, "club.yaml", "title: Club\nextends: ./base.yaml\nwith: [titled]\n")
    (found,) = problems(club, registry)
    assert found == (
        f"{sealed_user_folders / 'titled.yaml'}:2:1: title: a fragment cannot set 'title': it "
        "is merged into rulesets that have their own (describe the fragment in `fragment:`)"
    )


def test_a_fragment_missing_where_no_plugin_is_loaded_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With plugin autoloading switched off, `wikipedia` (and every club file on it) said
    only "no fragment named 'four-aces'; known fragments: none" at its own `with:` line."""
    monkeypatch.setenv(AUTOLOAD_ENV, "1")
    (found,) = problems("wikipedia", Registry())
    assert found.endswith(
        "known fragments: none; no plugin is loaded (ULTI_RULES_DISABLE_PLUGIN_AUTOLOAD is "
        "set), and a plugin may ship it"
    )
    monkeypatch.delenv(AUTOLOAD_ENV)
    (found,) = problems("wikipedia", Registry())
    assert found.endswith("known fragments: none")  # plugins loaded, none ships it


@pytest.mark.parametrize(
    ("adds", "entry"),
    [
        ("extends: [older-20-100, four-aces]\n", "3:25: extends.1"),
        ("extends: older-20-100\nwith: [four-aces]\n", "4:8: with.0"),
    ],
)
def test_a_fragment_whose_ranks_fit_another_ladder_is_said_where_it_is_added(
    tmp_path: Path, adds: str, entry: str
) -> None:
    """Four Aces on the older ladder: its Wikipedia ranks break the order there. The sum-up
    line was said at `ranking` (line 1, a key the file did not write), as if a contract's
    value had changed."""
    path = tmp_path / "ofa.yaml"
    path.write_text("name: ofa\ntitle: ofa\n" + adds, encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    first = str(caught.value.problems[0]).replace(str(tmp_path) + "/", "")
    assert first.startswith(
        f"ofa.yaml:{entry}: the fragment 'four-aces' ranks 10 of its bids "
        "(forty_hundred_four_aces, ulti_four_aces,"
    )
    assert "for another ladder than this one: they break the order of ranking: table; " in first
    assert "twenty_hundred_ulti_four_aces_red)" in first  # all ten, to mark each
    assert "as after a contract's value changed" not in first
    # merged after the file, the fragment's bids are none its ladder: can mark
    marked = "or mark these bids `rank_exception: true`"
    moved = "or add the fragment in extends after the ruleset (extends: [older-20-100, four-aces])"
    assert (marked in first, moved in first) == (("with" not in adds), ("with" in adds))
