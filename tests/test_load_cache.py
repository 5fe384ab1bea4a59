"""The in-memory cache of validated rulesets (``ruleset/load_cache.py``) hands a ruleset out
again only while everything it was loaded from is as it was: the files, the names looked
up in the chain, and the folders a name or a path was resolved against. Each test loads
twice in one process, as a server or a notebook does, with no cache cleared between."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from ulti_rules import RulesetError
from ulti_rules.ruleset import loading
from ulti_rules.ruleset.loading import load_ruleset

from cache_support import OLD, counted_validations

OURS = "extends: wikipedia\ntitle: Ours\ncontracts: {parti: {names: {en: Our Simple}}}\n"


def simple_name(path: str | Path) -> str:
    return load_ruleset(path).contracts["parti"].names.en


def dated_back(*paths: Path) -> None:
    for path in paths:
        os.utime(path, (OLD, OLD))


def test_a_user_file_that_takes_over_a_name_in_the_chain_is_seen(
    sealed_user_folders: Path, tmp_path: Path
) -> None:
    """A club file `extends: tournament`; the user then saves a `tournament.yaml` of their
    own: the next load builds on it, and on the bundled one again once it is gone."""
    club = tmp_path / "club.yaml"
    club.write_text("name: club\ntitle: A club\nextends: tournament\n", "utf-8")
    dated_back(club, sealed_user_folders)
    assert simple_name(club) == "Simple"
    with counted_validations() as calls:
        assert simple_name(club) == "Simple"
    assert calls == []  # the second load came from the cache
    shadow = sealed_user_folders / "tournament.yaml"
    shadow.write_text(OURS, "utf-8")
    dated_back(shadow)
    os.utime(sealed_user_folders, (OLD + 60, OLD + 60))  # the folder's listing is kept
    assert simple_name(club) == "Our Simple"
    shadow.unlink()
    os.utime(sealed_user_folders, (OLD + 120, OLD + 120))
    assert simple_name(club) == "Simple"


def test_a_name_the_user_folders_now_find_elsewhere_is_seen(
    sealed_user_folders: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another rulesets folder put first (``ULTI_RULES_PATH``) that holds the name."""
    club = tmp_path / "club.yaml"
    club.write_text("name: club\ntitle: A club\nextends: wikipedia\n", "utf-8")
    other = tmp_path / "other"
    other.mkdir()
    (other / "wikipedia.yaml").write_text(OURS, "utf-8")
    dated_back(club, other / "wikipedia.yaml", other, sealed_user_folders)
    assert simple_name(club) == "Simple"
    monkeypatch.setenv("ULTI_RULES_PATH", os.pathsep.join([str(other), str(sealed_user_folders)]))
    assert simple_name(club) == "Our Simple"


def test_a_path_let_in_by_a_rulesets_folder_is_refused_once_that_folder_is_not_one(
    sealed_user_folders: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file may build on a file outside its own folder only inside a rulesets folder
    (docs/security.md): a ruleset loaded while it was one is not handed out after."""
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "base.yaml").write_text(OURS, "utf-8")
    club = tmp_path / "club" / "club.yaml"
    club.parent.mkdir()
    club.write_text(f"name: club\ntitle: A club\nextends: {shared / 'base.yaml'}\n", "utf-8")
    dated_back(club, shared / "base.yaml")
    monkeypatch.setenv("ULTI_RULES_PATH", os.pathsep.join([str(sealed_user_folders), str(shared)]))
    assert simple_name(club) == "Our Simple"
    monkeypatch.setenv("ULTI_RULES_PATH", str(sealed_user_folders))
    with pytest.raises(RulesetError, match="outside"):
        load_ruleset(club)


def test_a_file_changed_while_it_is_validated_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Saved after the load read it and before the cache took its stamp: the stamp would
    vouch for bytes that were never validated, so nothing is kept."""
    base = tmp_path / "base.yaml"
    base.write_text(OURS, "utf-8")
    club = tmp_path / "club.yaml"
    club.write_text("name: club\ntitle: A club\nextends: ./base.yaml\n", "utf-8")
    dated_back(base, club)
    real = loading._checked

    def saved_meanwhile(*args: object) -> object:
        base.write_text(OURS.replace("Our Simple", "Their Simple"), "utf-8")
        dated_back(base)  # an old time too: only the content tells
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(loading, "_checked", saved_meanwhile)
    assert simple_name(club) == "Our Simple"
    monkeypatch.setattr(loading, "_checked", real)
    assert simple_name(club) == "Their Simple"


def test_a_file_read_only_to_be_dropped_is_watched(tmp_path: Path) -> None:
    """``without: [./b.yaml]`` reads b.yaml to know what to drop; b.yaml is no file of the
    merged chain, yet a change to it changes the ruleset."""
    for name in ("a", "c"):
        (tmp_path / f"{name}.yaml").write_text(
            f"fragment: Names {name}\ncontracts: {{parti: {{names: {{en: From {name}}}}}}}\n",
            "utf-8",
        )
    (tmp_path / "base.yaml").write_text("extends: [wikipedia, ./a.yaml, ./c.yaml]\n", "utf-8")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    club = tmp_path / "club.yaml"
    club.write_text("name: club\ntitle: A club\nextends: ./base.yaml\nwithout: [./b.yaml]\n")
    dated_back(*(tmp_path / f"{n}.yaml" for n in ("a", "c", "base", "club")))
    assert simple_name(club) == "From c"
    (tmp_path / "b.yaml").unlink()
    (tmp_path / "b.yaml").symlink_to(tmp_path / "c.yaml")
    assert simple_name(club) == "From a"
