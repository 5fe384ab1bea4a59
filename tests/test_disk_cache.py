"""The disk cache of validated rulesets (``ulti_rules/ruleset/disk_cache.py``).

A command that loads a ruleset validated earlier reads it back instead of validating it,
while every file of its chain, the folders names are looked up in, the code and the
plugins are as they were. Anything else (a change, a damaged or foreign entry, a folder
others may write to) falls back to validating, with the same result as without a cache.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from ulti_rules import RulesetError, load_game, plugins
from ulti_rules.ruleset import code_files, disk_cache, headings, loading
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.ruleset.references import allow_outside_paths

from cache_support import OLD, cache_in, counted_validations, load_through_disk
from conftest import BUNDLED_RULESETS

CLUB = "name: club\ntitle: A club\nextends: ./base.yaml\n"
BASE = "extends: wikipedia\ncontracts: {parti: {names: {en: Simple A}}}\n"


def entries(folder: Path) -> list[Path]:
    """The validated rulesets kept in ``folder`` (not the headings kept beside them)."""
    return sorted(p for p in folder.glob("*.pickle") if p.name != headings.FILE_NAME)


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


def test_a_symlink_whose_target_appears_takes_its_name_over(
    sealed_user_folders: Path, tmp_path: Path
) -> None:
    """A dangling link finds nothing, and the name goes on to the bundled ruleset; once
    its target exists (the user folder itself unchanged) the link is the name's file."""
    club = sealed_user_folders / "club.yaml"
    club.write_text("title: A club\nextends: wikipedia\n", "utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (sealed_user_folders / "wikipedia.yaml").symlink_to(elsewhere / "ours.yaml")
    os.utime(sealed_user_folders, (OLD, OLD))
    with cache_in(tmp_path / "cache"):
        assert fresh_load("club")[0].contracts["parti"].names.en == "Simple"
        assert fresh_load("club")[1] == 0
        (elsewhere / "ours.yaml").write_text(
            "title: Ours\nextends: wikipedia\ncontracts: {parti: {names: {en: Our Simple}}}\n",
            "utf-8",
        )
        ruleset, validated = fresh_load("club")
        assert (ruleset.contracts["parti"].names.en, validated) == ("Our Simple", 1)


def test_a_file_read_only_to_be_dropped_is_watched_too(tmp_path: Path) -> None:
    """``without: [./b.yaml]`` reads b.yaml to know what to drop: a link moved from one
    fragment to another changes what is dropped."""
    folder = tmp_path / "club"
    folder.mkdir()
    for name in ("a", "c"):
        (folder / f"{name}.yaml").write_text(
            f"fragment: Names {name}\n"
            f"contracts: {{parti: {{names: {{en: From {name.upper()}}}}}}}\n",
            "utf-8",
        )
    (folder / "base.yaml").write_text("extends: [wikipedia, ./a.yaml, ./c.yaml]\n", "utf-8")
    (folder / "b.yaml").symlink_to(folder / "a.yaml")
    club = folder / "club.yaml"
    club.write_text("title: A club\nextends: ./base.yaml\nwithout: [./b.yaml]\n", "utf-8")
    with cache_in(tmp_path / "cache"):
        assert fresh_load(club)[0].contracts["parti"].names.en == "From C"
        assert fresh_load(club)[1] == 0
        (folder / "b.yaml").unlink()
        (folder / "b.yaml").symlink_to(folder / "c.yaml")
        ruleset, validated = fresh_load(club)
        assert (ruleset.contracts["parti"].names.en, validated) == ("From A", 1)


def test_a_file_changed_while_it_is_validated_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    club = club_files(tmp_path / "club")
    base = club.parent / "base.yaml"
    real = loading._checked

    def saved_meanwhile(*args: object) -> object:
        base.write_text(BASE.replace("Simple A", "Simple B"), "utf-8")
        return real(*args)  # type: ignore[arg-type]

    folder = tmp_path / "cache"
    with cache_in(folder):
        monkeypatch.setattr(loading, "_checked", saved_meanwhile)
        assert fresh_load(club)[0].contracts["parti"].names.en == "Simple A"
        monkeypatch.setattr(loading, "_checked", real)
        ruleset, validated = fresh_load(club)
        assert (ruleset.contracts["parti"].names.en, validated) == ("Simple B", 1)


def test_a_file_changed_while_the_load_reads_it_twice_is_not_kept(tmp_path: Path) -> None:
    from ulti_rules.ruleset.reads import note_file, recording

    with recording() as outer, recording() as inner:
        note_file(tmp_path / "a.yaml", b"1" * 32)
        note_file(tmp_path / "a.yaml", b"2" * 32)
    kept = (str(tmp_path / "a.yaml"), str(tmp_path), b"")
    assert outer.files == inner.files == {str(tmp_path / "a.yaml"): kept}


def test_a_fifo_in_place_of_a_file_of_the_chain_does_not_hang(tmp_path: Path) -> None:
    club = club_files(tmp_path / "club")
    base = club.parent / "base.yaml"
    with cache_in(tmp_path / "cache"):
        fresh_load(club)
        base.unlink()
        os.mkfifo(base)
        loading.LOADED.clear()
        with pytest.raises(RulesetError, match="not a regular file"):
            load_ruleset(club)


def test_a_ruleset_that_names_home_is_read_again_for_another_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    homes = [tmp_path / "home1", tmp_path / "home2"]
    for n, home in enumerate(homes, 1):
        home.mkdir()
        (home / "base.yaml").write_text(BASE.replace("Simple A", f"Simple {n}"), "utf-8")
    club = tmp_path / "club.yaml"
    club.write_text("title: A club\nextends: ~/base.yaml\n", "utf-8")
    seen = []
    with cache_in(tmp_path / "cache"), allow_outside_paths():
        for n in (1, 2, 2, 1):
            monkeypatch.setenv("HOME", str(homes[n - 1]))
            ruleset, validated = fresh_load(club)
            seen.append((ruleset.contracts["parti"].names.en, validated))
    assert seen == [("Simple 1", 1), ("Simple 2", 1), ("Simple 2", 0), ("Simple 1", 1)]


def test_the_code_it_rests_on_is_its_files_as_they_are(tmp_path: Path) -> None:
    """Every package of a plugin, a namespace package's folders too; and none of it may
    have changed since the loader was imported."""
    for package in ("a_plugin", "ns_plugin"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "kind.py").write_text("X = 1\n", "utf-8")
    (tmp_path / "a_plugin" / "__init__.py").write_text("", "utf-8")
    for file in tmp_path.glob("*/*.py"):
        os.utime(file, (OLD, OLD))
    sys.path.insert(0, str(tmp_path))
    try:
        import a_plugin  # type: ignore[import-not-found]
        import ns_plugin.kind  # type: ignore[import-not-found]

        read = disk_cache._code.__wrapped__  # not once per process, as a command reads it
        before = read((a_plugin, ns_plugin.kind))
        assert before is not None
        stamped = {f for f, _, _ in before[1]}
        assert {str(tmp_path / p / "kind.py") for p in ("a_plugin", "ns_plugin")} <= stamped
        for package in ("a_plugin", "ns_plugin"):
            os.utime(tmp_path / package / "kind.py", (OLD + 60, OLD + 60))
            after = read((a_plugin, ns_plugin.kind))
            assert after is not None and after != before
            before = after
        os.utime(tmp_path / "ns_plugin" / "kind.py")  # changed after the loader's import
        assert read((a_plugin, ns_plugin.kind)) is None
    finally:
        sys.path.remove(str(tmp_path))
        for name in ("a_plugin", "ns_plugin", "ns_plugin.kind"):
            sys.modules.pop(name, None)


def test_the_yaml_reader_it_rests_on_is_its_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """PyYAML is told by its files, its C binding too, not by its ``__version__``: a
    ruleset read from the cache imports no YAML parser (tests/test_cli_startup.py). An
    upgrade rewrites them; a PyYAML whose files cannot be listed (imported from a zip)
    turns the cache off (found by a review: an upgrade there went unseen)."""
    import importlib.machinery
    import importlib.util

    import yaml

    read = disk_cache._code.__wrapped__
    code = read(())
    assert code is not None
    stamped = {f for f, _, _ in code[1]}
    package = Path(yaml.__file__).parent
    assert {str(package / "__init__.py"), str(package / "reader.py")} <= stamped
    binding = [
        f for f in os.listdir(package) if f.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    ]
    assert {str(package / f) for f in binding} <= stamped
    assert all("yaml" not in str(version).lower() for version in code[0])
    real = importlib.util.find_spec

    def zipped(name: str, *args: Any) -> Any:
        spec = real(name, *args)
        if name == "yaml" and spec is not None:
            spec = copy.copy(spec)  # the module's own: never changed for the others
            spec.submodule_search_locations = [str(package.parent / "yaml.zip" / "yaml")]
        return spec

    monkeypatch.setattr(code_files.importlib.util, "find_spec", zipped)
    assert code_files.pyyaml_files() is None
    assert read(()) is None


def test_nothing_is_kept_or_read_when_the_code_changed_after_its_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "cache"
    with cache_in(folder):
        fresh_load("wikipedia")
        monkeypatch.setattr(disk_cache, "_code", lambda modules: None)
        assert fresh_load("wikipedia")[1] == 1
        (entry,) = entries(folder)
        entry.unlink()
        assert fresh_load("wikipedia")[1] == 1
        assert entries(folder) == []


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
            (disk_cache.FORMAT + 1, "x", None, None, {}, {}, None),
            (disk_cache.FORMAT, "/elsewhere/wikipedia.yaml", None, None, {}, {}, None),
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


def test_a_relative_folder_is_the_one_in_the_working_folder_of_the_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Absolute at once: after a change of working folder, ``cache`` is another folder, and
    a cache read from one must not be written into the other (found by a review)."""
    monkeypatch.setenv(disk_cache.CACHE_ENV, "cache")
    monkeypatch.chdir(tmp_path)
    assert disk_cache.cache_dir() == tmp_path / "cache"
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert disk_cache.cache_dir() == tmp_path / "sub" / "cache"


def test_a_home_that_cannot_be_found_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(disk_cache.CACHE_ENV, "~no-such-user-here/cache")
    assert disk_cache.cache_dir() is None
    assert fresh_load("wikipedia")[1] == 1


def test_a_system_without_user_ids_has_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with cache_in(tmp_path / "cache"):
        monkeypatch.delattr(os, "getuid")
        assert disk_cache.cache_dir() is None
        assert fresh_load("wikipedia")[1] == 1
    assert not (tmp_path / "cache").exists()


def test_a_fault_of_the_cache_falls_back_to_validating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise ValueError("a bug in the cache")

    with cache_in(tmp_path / "cache"):
        monkeypatch.setattr(disk_cache.DiskCache, "get", broken)
        monkeypatch.setattr(disk_cache.DiskCache, "put", broken)
        ruleset, validated = fresh_load("wikipedia")
    assert (ruleset.name, validated) == ("wikipedia", 1)


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


def test_pruning_leaves_the_headings_kept_beside_the_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ulti rulesets` keeps its headings in the same folder (``headings.py``); a listing
    that finds every file unchanged never writes them again, so they are often the
    oldest file there (found by a review: pruning removed them first)."""
    monkeypatch.setattr(disk_cache, "MAX_ENTRIES", 1)
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    (folder / "headings.pickle").write_bytes(b"kept")
    os.utime(folder / "headings.pickle", (OLD, OLD))
    with cache_in(folder):
        for name in BUNDLED_RULESETS[:2]:
            fresh_load(name)
    assert len(entries(folder)) == 1
    assert (folder / "headings.pickle").read_bytes() == b"kept"


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


def test_a_path_let_in_by_a_rulesets_folder_is_refused_when_the_folder_is_gone(
    sealed_user_folders: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A path outside its file's folder is read if it leads into a rulesets folder; once
    that folder is no longer one, the file is refused again, also after it was kept."""
    (sealed_user_folders / "base.yaml").write_text(BASE, "utf-8")
    club = tmp_path / "club" / "club.yaml"
    club.parent.mkdir()
    club.write_text(f"title: A club\nextends: {sealed_user_folders / 'base.yaml'}\n", "utf-8")
    with cache_in(tmp_path / "cache"):
        assert fresh_load(club)[1] == 1
        assert fresh_load(club)[1] == 0
        monkeypatch.setenv("ULTI_RULES_PATH", str(tmp_path / "elsewhere"))
        loading.LOADED.clear()
        with pytest.raises(RulesetError, match="outside the folder"):
            load_ruleset(club)


def test_a_name_whose_file_is_a_link_is_followed_to_where_it_leads_now(
    sealed_user_folders: Path, tmp_path: Path
) -> None:
    """The user's wikipedia.yaml is a link to the club file itself (which extends
    wikipedia, so the bundled one below it is taken); pointed elsewhere, the name finds
    another file, with the same path."""
    club = tmp_path / "club.yaml"
    club.write_text("title: A club\nextends: wikipedia\n", "utf-8")
    other = tmp_path / "other.yaml"
    other.write_text(
        "title: Other\nextends: wikipedia\ncontracts: {parti: {names: {en: Other Simple}}}\n",
        "utf-8",
    )
    link = sealed_user_folders / "wikipedia.yaml"
    link.symlink_to(club)
    with cache_in(tmp_path / "cache"):
        assert fresh_load(club)[0].contracts["parti"].names.en == "Simple"
        assert fresh_load(club)[1] == 0
        link.unlink()
        link.symlink_to(other)
        os.utime(sealed_user_folders, (OLD, OLD))  # the folder's time as it was
        ruleset, validated = fresh_load(club)
    assert (ruleset.contracts["parti"].names.en, validated) == ("Other Simple", 1)


def test_a_file_reached_through_another_folder_is_confined_to_that_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A club file that is a link, reached through two folders: the path it names is
    inside the first folder and outside the second, so read from the second it is
    refused as a fresh load refuses it, not handed back from the first one's entry."""
    for folder in ("real", "d1", "d2"):
        (tmp_path / folder).mkdir()
    (tmp_path / "d1" / "base.yaml").write_text(BASE, "utf-8")
    real = tmp_path / "real" / "club.yaml"
    real.write_text(f"title: A club\nextends: {tmp_path / 'd1' / 'base.yaml'}\n", "utf-8")
    for folder in ("d1", "d2"):
        (tmp_path / folder / "club.yaml").symlink_to(real)
    with cache_in(tmp_path / "cache"):
        monkeypatch.chdir(tmp_path / "d1")
        assert fresh_load("club.yaml")[0].contracts["parti"].names.en == "Simple A"
        assert fresh_load("club.yaml")[1] == 0
        monkeypatch.chdir(tmp_path / "d2")
        loading.LOADED.clear()
        with pytest.raises(RulesetError, match="outside the folder"):
            load_ruleset("club.yaml")
        link = tmp_path / "cur"  # the same path, a folder link pointed elsewhere
        link.symlink_to(tmp_path / "d1")
        assert fresh_load(link / "club.yaml")[0].contracts["parti"].names.en == "Simple A"
        link.unlink()
        link.symlink_to(tmp_path / "d2")
        loading.LOADED.clear()
        with pytest.raises(RulesetError, match="outside the folder"):
            load_ruleset(link / "club.yaml")


@pytest.mark.parametrize("breaks", ["removed", "a file", "a link to itself"])
def test_a_path_through_a_folder_that_is_gone_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, breaks: str
) -> None:
    """``extends: ./sub/../base.yaml``: once ``sub`` is gone (or is a file, or a link
    loop) the path cannot be read, though its real path is the same; a fresh load says
    so, and so does a load with the cache on."""
    club = club_files(tmp_path / "club")
    club.write_text("title: A club\nextends: ./sub/../base.yaml\n", "utf-8")
    sub = club.parent / "sub"
    sub.mkdir()
    with cache_in(tmp_path / "cache"):
        monkeypatch.chdir(club.parent)
        assert fresh_load("club.yaml")[0].contracts["parti"].names.en == "Simple A"
        assert fresh_load("club.yaml")[1] == 0
        sub.rmdir()
        if breaks == "a file":
            sub.write_text("", "utf-8")
        elif breaks == "a link to itself":
            sub.symlink_to("sub")
        loading.LOADED.clear()
        with pytest.raises(RulesetError) as cached:
            load_ruleset("club.yaml")
    loading.LOADED.clear()
    with pytest.raises(RulesetError) as fresh:  # the cache off
        load_ruleset("club.yaml")
    assert str(cached.value) == str(fresh.value)
    assert "extends:" in str(fresh.value)


def test_a_name_that_found_two_answers_in_one_load_is_not_kept(tmp_path: Path) -> None:
    from ulti_rules.ruleset.reads import note_name, recording

    with recording() as reads:
        note_name("four-aces", [tmp_path / "a.yaml"])
        note_name("four-aces", [tmp_path / "a.yaml"])
        assert not reads.changed()
        note_name("four-aces", [tmp_path / "b.yaml", tmp_path / "a.yaml"])
    assert reads.changed()


class _Registry:
    """What ``_code_modules`` asks of a registry."""

    def __init__(self, kinds: dict[str, object]) -> None:
        self.kinds = kinds
        self.ranking_rules: dict[str, object] = {}


def test_the_code_of_every_class_a_kind_builds_on_is_stamped(tmp_path: Path) -> None:
    (tmp_path / "acme_base.py").write_text("class Base:\n    bonus = 1\n", "utf-8")
    (tmp_path / "acme_kind.py").write_text(
        "from acme_base import Base\n"
        "class Params(Base):\n    pass\n"
        "class Kind:\n    params = Params\n",
        "utf-8",
    )
    sys.path.insert(0, str(tmp_path))
    try:
        import acme_kind  # type: ignore[import-not-found]

        registry = _Registry({"acme": acme_kind.Kind()})
        modules = disk_cache._code_modules(registry, ())  # type: ignore[arg-type]
        assert modules is not None
        assert {m.__name__ for m in modules} == {"acme_kind", "acme_base"}
        typed = type("Typed", (), {"params": acme_kind.Params, "__module__": "in_a_notebook"})
        sys.modules["in_a_notebook"] = type(sys)("in_a_notebook")  # typed in: no file
        registry = _Registry({"acme": typed()})
        assert disk_cache._code_modules(registry, ()) is None  # type: ignore[arg-type]
    finally:
        sys.path.remove(str(tmp_path))
        for name in ("acme_kind", "acme_base", "in_a_notebook"):
            sys.modules.pop(name, None)
