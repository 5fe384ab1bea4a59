"""Ruleset files are parsed once per content (``ruleset/parsed_files.py``): a club file's
base is not parsed again for every club file, and nothing a caller does to what it read,
nor a file changed within its timestamp's tick, reaches the next reader."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from ulti_rules.ruleset import loading, parsed_files
from ulti_rules.ruleset.finding import bundled_dir
from ulti_rules.ruleset.loading import load_raw, load_ruleset
from ulti_rules.ruleset.parsed_files import PARSED, ParsedFiles
from ulti_rules.ruleset.safe_yaml import YamlError


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The first line of every text parsed, from an empty cache."""
    seen: list[str] = []
    real = parsed_files.load_text

    def counting(text: str, **kwargs: int) -> object:
        seen.append(text.splitlines()[0] if text else "")
        return real(text, **kwargs)

    monkeypatch.setattr(parsed_files, "load_text", counting)
    PARSED.clear()
    loading.LOADED.clear()
    return seen


def club(folder: Path, name: str, extra: str = "") -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\ntitle: {name}\nextends: wikipedia\n{extra}", encoding="utf-8")
    return path


def test_club_files_on_one_base_parse_the_base_once(tmp_path: Path, parses: list[str]) -> None:
    clubs = [club(tmp_path, f"club{i}", f"# club {i}\n") for i in range(5)]
    rulesets = [load_ruleset(path) for path in clubs]
    assert [r.name for r in rulesets] == [f"club{i}" for i in range(5)]
    base = (bundled_dir() / "wikipedia.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert parses.count(base) == 1
    assert parses.count("name: club0") == 1
    assert len(parses) == len(set(parses))  # each text once: the club files, their base's chain


def test_a_file_changed_within_its_timestamp_is_parsed_again(
    tmp_path: Path, parses: list[str]
) -> None:
    path = tmp_path / "club.yaml"
    path.write_text("name: club\ntitle: One\nextends: wikipedia\n", encoding="utf-8")
    stamp = path.stat()
    assert load_raw(path)["title"] == "One"
    path.write_text("name: club\ntitle: Two\nextends: wikipedia\n", encoding="utf-8")
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # same size, same time
    assert path.stat().st_mtime_ns == stamp.st_mtime_ns
    assert load_raw(path)["title"] == "Two"


def test_what_a_caller_changes_never_reaches_the_next_reader(
    tmp_path: Path, parses: list[str]
) -> None:
    path = club(tmp_path, "club", "points: {last_trick: 20}\n")
    first = load_raw(path)
    first["points"]["last_trick"] = 99
    first["title"] = "changed"
    first.clear()
    second = load_raw(path)
    assert second["points"] == {"last_trick": 20} and second["title"] == "club"
    assert len(parses) == 1  # read twice, parsed once
    document = PARSED.read(path)
    with pytest.raises(TypeError):
        document.positions[("title",)] = document.positions[("name",)]  # type: ignore[index]


def test_a_file_with_an_error_reports_it_on_every_read(tmp_path: Path, parses: list[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("name: bad\nkey: [unclosed\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(YamlError):
            PARSED.read(path)
    assert len(parses) == 2
    assert len(PARSED) == 0


def test_the_cache_is_bounded_by_entries_and_by_nodes(tmp_path: Path) -> None:
    cache = ParsedFiles(entries=3, nodes=20)
    for i in range(5):
        path = tmp_path / f"f{i}.yaml"
        path.write_text(f"key: {i}\n", encoding="utf-8")
        assert cache.read(path).data == {"key": i}
    assert len(cache) == 3 and cache.held == 3 * 2  # each: the mapping and its one key
    big = tmp_path / "big.yaml"
    big.write_text(f"key: [{', '.join('x' * 30)}]\n", encoding="utf-8")
    assert cache.read(big).data == {"key": ["x"] * 30}
    assert len(cache) == 3  # larger than the whole budget: parsed, never kept
    middle = tmp_path / "middle.yaml"
    middle.write_text(f"key: [{', '.join('y' * 17)}]\n", encoding="utf-8")
    cache.read(middle)
    assert cache.held == 19 and len(cache) == 1  # the older ones made room
    cache.clear()
    assert len(cache) == 0 and cache.held == 0


def test_a_short_file_of_aliases_is_weighed_by_what_it_expands_to(
    tmp_path: Path, parses: list[str]
) -> None:
    """A review found 32 files of 209 bytes each, aliases expanding to about 100,000
    values, kept whole (1 GB at its peak) while the cache counted 6.8 KB of text."""
    ten = ", ".join(["x"] * 10)
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(
        f"a: &a [{ten}]\nb: &b [{', '.join(['*a'] * 10)}]\nc: &c [{', '.join(['*b'] * 10)}]\n"
        f"d: &d [{', '.join(['*c'] * 10)}]\ne: [*d, *d, *d]\n",
        encoding="utf-8",
    )
    assert bomb.stat().st_size < 250
    document = PARSED.read(bomb)
    assert len(document.positions) > parsed_files.NODES
    assert len(PARSED) == 0 and PARSED.held == 0  # parsed, not kept
    PARSED.read(bomb)
    assert len(parses) == 2


def test_two_paths_to_one_text_share_an_entry(tmp_path: Path, parses: list[str]) -> None:
    text = "name: same\ntitle: Same\nextends: wikipedia\n"
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(text, encoding="utf-8")
        assert PARSED.read(tmp_path / name).data["name"] == "same"
    assert parses == ["name: same"]
