"""The files beneath a loaded ruleset are merged once per content (``ruleset/base_merges``):
club files on one base merge it once, each load gets a merge of its own, and a base
that changed is merged afresh."""

from __future__ import annotations

from pathlib import Path

import pytest
from ulti_rules.errors import RulesetError
from ulti_rules.ruleset import loading, merging
from ulti_rules.ruleset.base_merges import BASES, BaseMerges
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.ruleset.merging import Merged
from ulti_rules.ruleset.parsed_files import PARSED


@pytest.fixture
def merges(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The layer of every file merged, from empty caches."""
    seen: list[int] = []
    real = merging.Merged.apply

    def counting(self: Merged, layer: int, *args: object, **kwargs: object) -> None:
        seen.append(layer)
        real(self, layer, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(merging.Merged, "apply", counting)
    BASES.clear()
    PARSED.clear()
    loading.LOADED.clear()
    return seen


def club(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\nextends: wikipedia\n{body}", encoding="utf-8")
    return path


def test_club_files_on_one_base_merge_it_once(tmp_path: Path, merges: list[int]) -> None:
    paths = [club(tmp_path, f"c{i}", f"simple:\n  give_up_cost: {i}\n") for i in (1, 2, 3)]
    costs = [load_ruleset(path) for path in paths]
    # wikipedia.yaml (layer 0) and the Four Aces fragment (1) once; each club file (2) once.
    assert merges == [0, 1, 2, 2, 2]
    assert [r.simple.give_up_cost for r in costs] == [1, 2, 3]


def test_a_ruleset_loaded_on_a_kept_base_is_the_one_loaded_afresh(
    tmp_path: Path, merges: list[int]
) -> None:
    body = (
        "ranking: value\nladder:\n  ulti: {after: betli}\n  four_aces: null\n"
        "  forty_hundred_four_aces: null\ncontracts: {betli: {value: 6}}\n"
    )
    load_ruleset(club(tmp_path, "warm", "simple:\n  give_up_cost: 4\n"))  # keeps the base
    kept = load_ruleset(club(tmp_path, "moved", body))
    BASES.clear()
    loading.LOADED.clear()
    fresh = load_ruleset(tmp_path / "moved.yaml")
    assert kept is not fresh
    assert kept.model_dump() == fresh.model_dump()
    assert [b.id for b in kept.ladder] == [b.id for b in fresh.ladder]


def test_what_a_load_does_with_its_merge_never_reaches_the_next(tmp_path: Path) -> None:
    bases = BaseMerges()
    made: list[Merged] = []

    def merge() -> Merged:
        merged = Merged()
        merged.apply(0, {"points": {"last_trick": 10}, "ladder": [{"id": "a"}]}, {})
        merged.places[("points",)] = (0, None)  # type: ignore[assignment]
        made.append(merged)
        return merged

    first = bases.merged([b"digest"], merge)
    first.data["points"]["last_trick"] = 99
    first.data["ladder"].append({"id": "b"})
    first.places.clear()
    first.moved["a"] = (1, ("ladder", "a"), "b")
    first.gone.add(("contracts", "x"))
    second = bases.merged([b"digest"], merge)
    assert len(made) == 1
    assert second.data == {"points": {"last_trick": 10}, "ladder": [{"id": "a"}]}
    assert second.places == {("points",): (0, None)}
    assert not second.moved and not second.gone


def test_a_base_that_changed_is_merged_again(tmp_path: Path, merges: list[int]) -> None:
    base = tmp_path / "base.yaml"
    base.write_text("name: base\nextends: wikipedia\npoints: {last_trick: 10}\n", encoding="utf-8")
    own = tmp_path / "own.yaml"
    own.write_text("name: own\nextends: ./base.yaml\n", encoding="utf-8")
    assert load_ruleset(own).points.last_trick == 10
    base.write_text("name: base\nextends: wikipedia\npoints: {last_trick: 20}\n", encoding="utf-8")
    assert load_ruleset(own).points.last_trick == 20
    base.write_text("name: base\nextends: wikipedia\nno_such_key: 1\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="no_such_key"):
        load_ruleset(own)


def test_bases_kept_are_bounded() -> None:
    bases = BaseMerges(entries=3)
    for i in range(10):
        bases.merged([bytes([i + 1])], Merged)
    assert len(bases) == 3


def test_a_file_without_a_digest_is_merged_each_time() -> None:
    bases = BaseMerges()
    made: list[Merged] = []

    def merge() -> Merged:
        made.append(Merged())
        return made[-1]

    bases.merged([b"x", b""], merge)
    bases.merged([b"x", b""], merge)
    assert len(made) == 2 and len(bases) == 0


def test_a_copy_of_a_merge_moves_bids_on_its_own() -> None:
    merged = Merged()
    merged.moved["a"] = (0, ("ladder", "a"), "b")
    copy = merged.copy()
    copy.moved.clear()
    assert merged.moved == {"a": (0, ("ladder", "a"), "b")}


def test_a_base_of_expanded_aliases_is_merged_for_each_load_never_kept(
    tmp_path: Path, merges: list[int]
) -> None:
    """258 bytes of aliases expand to some 60,000 values: ``ParsedFiles`` does not keep such
    a file, and its merge (larger still, with the places of its keys) is not kept either.
    Eight such bases once held 114 MB after their loads had failed (a review)."""
    ten = ", ".join(["x"] * 10)
    bomb = (
        f"a: &a [{ten}]\n  b: &b [{', '.join(['*a'] * 10)}]\n"
        f"  c: &c [{', '.join(['*b'] * 10)}]\n  d: &d [{', '.join(['*c'] * 10)}]\n"
        "  e: [*d, *d, *d, *d, *d]\n"
    )
    (tmp_path / "base.yaml").write_text(
        f"name: base\nextends: wikipedia\njunk:\n  {bomb}", encoding="utf-8"
    )
    own = tmp_path / "own.yaml"
    own.write_text("name: own\nextends: ./base.yaml\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(RulesetError, match="unknown key 'junk'"):
            load_ruleset(own)
    assert len(BASES) == 0 and BASES.held == 0
    assert merges.count(0) == 2  # wikipedia merged beneath each load: nothing was kept


def test_the_merge_kept_is_apart_from_the_data_it_was_made_of() -> None:
    bases = BaseMerges()
    source = {"sources": ["a rule sheet"]}  # a list is taken into the merge as it is

    def merge() -> Merged:
        merged = Merged()
        merged.apply(0, source, {})
        return merged

    bases.merged([b"d"], merge)
    source["sources"].append("changed")  # the first loader changes its file's data
    assert bases.merged([b"d"], merge).data == {"sources": ["a rule sheet"]}
