"""The disk cache of validated rulesets (``ulti_rules/ruleset/disk_cache.py``).

A command that loads a ruleset validated earlier reads it back instead of validating it,
while every file of its chain, the folders names are looked up in, the code and the
plugins are as they were. Anything else (a change, a damaged or foreign entry, a folder
others may write to) falls back to validating, with the same result as without a cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ulti_rules import RulesetError, load_game, plugins
from ulti_rules.ruleset import disk_cache, loading
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.ruleset.references import allow_outside_paths

from cache_support import OLD, cache_in, counted_validations, load_through_disk
from conftest import BUNDLED_RULESETS

CLUB = "name: club\ntitle: A club\nextends: ./base.yaml\n"
BASE = "extends: wikipedia\ncontracts: {parti: {names: {en: Simple A}}}\n"


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pickle"))


def club_files(folder: Path) -> Path:
    """A club file extending a base file beside it, both dated an hour back."""
    folder.mkdir(exist_ok=True)
    (folder / "base.yaml").write_text(BASE, "utf-8")
    club = folder / "club.yaml"
    club.write_text(CLUB, "utf-8")
    for file in (club, folder / "base.yaml"):
        os.utime(file, (OLD, OLD))
    return club


def fresh_load(path: str | Path) -> tuple[object, int]:
    """Load as a new command would (nothing in memory): the ruleset, and how many files
    were validated."""
    loading.LOADED.clear()
    with counted_validations() as calls:
        ruleset = load_ruleset(path)
    return ruleset, len(calls)


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_a_ruleset_read_back_is_the_one_validated(name: str, tmp_path: Path) -> None:
    read = load_through_disk(name, tmp_path / "cache")
    fresh = load_ruleset(name)
    assert read.model_dump() == fresh.model_dump()
    assert plugins.get_registry() is loading.registry_of(read)
    played = load_game(read).new_hand(seed=7)
    again = load_game(fresh).new_hand(seed=7)
    assert played.legal_actions() == again.legal_actions()


def test_an_entry_is_the_users_alone(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    with cache_in(folder):
        fresh_load("wikipedia")
    (entry,) = entries(folder)
    assert folder.stat().st_mode & 0o777 == 0o700
    assert entry.stat().st_mode & 0o777 == 0o600


def test_a_change_to_a_file_of_the_chain_is_seen_even_at_the_same_size_and_time(
    tmp_path: Path,
) -> None:
    club = club_files(tmp_path / "club")
    with cache_in(tmp_path / "cache"):
        first, validated = fresh_load(club)
        assert (first.contracts["parti"].names.en, validated) == ("Simple A", 1)
        assert fresh_load(club)[1] == 0
        base = club.parent / "base.yaml"
        base.write_text(BASE.replace("Simple A", "Simple B"), "utf-8")
        os.utime(base, (OLD, OLD))  # the same size and modification time as before
        changed, validated = fresh_load(club)
        assert (changed.contracts["parti"].names.en, validated) == ("Simple B", 1)
        assert fresh_load(club)[1] == 0


def test_a_new_file_that_hides_a_name_is_seen(sealed_user_folders: Path, tmp_path: Path) -> None:
    club = sealed_user_folders / "club.yaml"
    club.write_text("title: A club\nextends: wikipedia\n", "utf-8")
    os.utime(sealed_user_folders, (OLD, OLD))
    with cache_in(tmp_path / "cache"):
        assert fresh_load("club")[1] == 1
        assert fresh_load("club")[1] == 0
        # a user's own wikipedia.yaml now comes before the bundled one
        (sealed_user_folders / "wikipedia.yaml").write_text(
            "title: Ours\nextends: wikipedia\ncontracts: {parti: {names: {en: Our Simple}}}\n",
            "utf-8",
        )
        os.utime(sealed_user_folders, (OLD + 60, OLD + 60))
        ruleset, validated = fresh_load("club")
        assert validated == 1
        assert ruleset.contracts["parti"].names.en == "Our Simple"


def test_a_folder_changed_within_two_seconds_is_not_trusted(
    sealed_user_folders: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "cache"
    with cache_in(folder):
        os.utime(sealed_user_folders)  # changed now
        assert fresh_load("wikipedia")[1] == 1
        assert entries(folder) == []
        os.utime(sealed_user_folders, (OLD, OLD))
        assert fresh_load("wikipedia")[1] == 1
        assert len(entries(folder)) == 1
        os.utime(sealed_user_folders)
        assert fresh_load("wikipedia")[1] == 1  # the entry is not read


def test_the_code_it_rests_on_is_its_files_as_they_are(tmp_path: Path) -> None:
    package = tmp_path / "a_plugin"
    package.mkdir()
    (package / "__init__.py").write_text("", "utf-8")
    (package / "kind.py").write_text("X = 1\n", "utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        import a_plugin  # type: ignore[import-not-found]

        read = disk_cache._code.__wrapped__  # not once per process, as a command reads it
        before = read((a_plugin,))
        assert str(package / "kind.py") in {f for f, _, _ in before[1]}
        os.utime(package / "kind.py", (OLD, OLD))
        assert read((a_plugin,)) != before
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("a_plugin", None)


def test_another_version_of_the_code_reads_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with cache_in(tmp_path / "cache"):
        fresh_load("wikipedia")
        real = disk_cache._code
        monkeypatch.setattr(disk_cache, "_code", lambda modules: (real(modules), "changed"))
        assert fresh_load("wikipedia")[1] == 1
        assert fresh_load("wikipedia")[1] == 0  # written again for this code


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],
        lambda data: data[:-1] + bytes([data[-1] ^ 1]),
        lambda data: b"",
        lambda data: b"not a cache entry",
    ],
    ids=["truncated", "one bit", "empty", "foreign"],
)
def test_a_damaged_entry_is_passed_over_and_written_again(damage: object, tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    with cache_in(folder):
        fresh_load("tournament")
        (entry,) = entries(folder)
        entry.write_bytes(damage(entry.read_bytes()))  # type: ignore[operator]
        ruleset, validated = fresh_load("tournament")
        assert validated == 1 and ruleset.name == "tournament"
        assert fresh_load("tournament")[1] == 0


def test_an_entry_that_unpickles_to_something_else_is_passed_over(tmp_path: Path) -> None:
    """Even with a good checksum: an entry for another file, or of another format."""
    folder = tmp_path / "cache"
    with cache_in(folder):
        fresh_load("wikipedia")
        (entry,) = entries(folder)
        import pickle

        for kept in [
            (disk_cache.FORMAT + 1, "x", None, (), None),
            (disk_cache.FORMAT, "/elsewhere/wikipedia.yaml", None, (), None),
            "a string",
        ]:
            body = pickle.dumps(kept)
            entry.write_bytes(disk_cache._MAGIC + b"\n" + hashlib.sha256(body).digest() + body)
            assert fresh_load("wikipedia")[1] == 1
            assert fresh_load("wikipedia")[1] == 0


def test_a_folder_others_may_write_to_is_never_read(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    with cache_in(folder):
        fresh_load("wikipedia")
        folder.chmod(0o777)
        try:
            assert fresh_load("wikipedia")[1] == 1
        finally:
            folder.chmod(0o700)
        assert fresh_load("wikipedia")[1] == 0


def test_an_entry_that_is_a_symlink_is_never_followed(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    with cache_in(folder):
        fresh_load("wikipedia")
        (entry,) = entries(folder)
        elsewhere = tmp_path / "elsewhere.pickle"
        entry.rename(elsewhere)
        entry.symlink_to(elsewhere)
        assert fresh_load("wikipedia")[1] == 1


def test_off_when_the_variable_is_empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv(disk_cache.CACHE_ENV, "")
    assert disk_cache.cache_dir() is None
    fresh_load("wikipedia")
    assert not (tmp_path / "xdg").exists()
    monkeypatch.delenv(disk_cache.CACHE_ENV)
    assert disk_cache.cache_dir() == tmp_path / "xdg" / "ulti-rules"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/is/ignored")
    assert disk_cache.cache_dir() == Path.home() / ".cache" / "ulti-rules"


def test_a_folder_that_cannot_be_made_changes_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", "utf-8")
    with cache_in(blocker / "cache"):
        ruleset, validated = fresh_load("wikipedia")
        assert validated == 1 and ruleset.name == "wikipedia"
        assert fresh_load("wikipedia")[1] == 1


def test_a_ruleset_with_problems_is_never_kept(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: wikipedia\ncontracts: {ulti: {value: many}}\n", "utf-8")
    with cache_in(folder):
        for _ in range(2):
            loading.LOADED.clear()
            with pytest.raises(RulesetError, match="value"):
                load_ruleset(bad)
    assert entries(folder) == []


def test_a_ruleset_loaded_with_outside_paths_allowed_is_not_read_without(tmp_path: Path) -> None:
    base = tmp_path / "base.yaml"
    base.write_text(BASE, "utf-8")
    club = tmp_path / "club" / "club.yaml"
    club.parent.mkdir()
    club.write_text("title: A club\nextends: ../base.yaml\n", "utf-8")
    with cache_in(tmp_path / "cache"):
        with allow_outside_paths():
            assert fresh_load(club)[1] == 1
            assert fresh_load(club)[1] == 0
        loading.LOADED.clear()
        with pytest.raises(RulesetError, match="outside"):
            load_ruleset(club)


def test_another_registry_has_only_the_memory_cache(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    own = plugins.build_registry(plugins.new_manager())
    with cache_in(folder):
        loading.LOADED.clear()
        load_ruleset("wikipedia", own)
    assert entries(folder) == []


def test_at_most_so_many_entries_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(disk_cache, "MAX_ENTRIES", 2)
    folder = tmp_path / "cache"
    with cache_in(folder):
        for name in BUNDLED_RULESETS[:4]:
            fresh_load(name)
            time.sleep(0.01)  # distinct modification times
        kept = entries(folder)
        assert len(kept) == 2
        assert fresh_load(BUNDLED_RULESETS[3])[1] == 0
        assert fresh_load(BUNDLED_RULESETS[0])[1] == 1


def test_a_command_reads_what_an_earlier_one_validated(tmp_path: Path, ulti: object) -> None:
    with cache_in(tmp_path / "cache"):
        loading.LOADED.clear()
        first = ulti("ladder", "wikipedia")  # type: ignore[operator]
        loading.LOADED.clear()
        with counted_validations() as calls:
            second = ulti("ladder", "wikipedia")  # type: ignore[operator]
    assert first.returncode == second.returncode == 0
    assert second.stdout == first.stdout
    assert calls == []


PROBE = """
import hashlib, json, sys
from ulti_rules import load_ruleset
rules = load_ruleset("wikipedia")
# pydantic looks for its own plugins when it first builds a validator: a validation does
# (and so does a dump, below), reading the entry does not
validated = "pydantic.plugin._loader" in sys.modules
dump = json.dumps(rules.model_dump(mode="json"), sort_keys=True).encode()
print(json.dumps([hashlib.sha256(dump).hexdigest(), validated]))
"""


def test_another_process_reads_what_one_validated(tmp_path: Path) -> None:
    """Across processes: the ruleset's class is made at run time, and a new process makes
    it again from the kinds before it reads the entry."""
    env = {**os.environ, disk_cache.CACHE_ENV: str(tmp_path / "cache")}
    with cache_in(tmp_path / "cache"):  # the search folders dated back
        pass
    runs = [
        subprocess.run(
            [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
        )
        for _ in range(2)
    ]
    (first, validated), (second, again) = (json.loads(run.stdout) for run in runs)
    assert (validated, again) == (True, False)
    assert first == second
