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


def club_file(path: Path, extends: str | Path, more: str = "") -> Path:
    """A club file at ``path`` (its folder made) that builds on ``extends``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"name: club\ntitle: A club\nextends: {extends}\n{more}", "utf-8")
    return path


def refused_as_outside(path: Path) -> None:
    """Loading ``path`` now is refused: a path in its chain leads out of bounds."""
    with pytest.raises(RulesetError, match="outside"):
        load_ruleset(path)


def test_a_user_file_that_takes_over_a_name_in_the_chain_is_seen(
    sealed_user_folders: Path, tmp_path: Path
) -> None:
    """A club file `extends: tournament`; the user then saves a `tournament.yaml` of their
    own: the next load builds on it, and on the bundled one again once it is gone."""
    club = tmp_path / "club.yaml"
    club_file(club, "tournament")
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
    club_file(club, "wikipedia")
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
    club_file(club, shared / "base.yaml")
    dated_back(club, shared / "base.yaml")
    monkeypatch.setenv("ULTI_RULES_PATH", os.pathsep.join([str(sealed_user_folders), str(shared)]))
    assert simple_name(club) == "Our Simple"
    monkeypatch.setenv("ULTI_RULES_PATH", str(sealed_user_folders))
    refused_as_outside(club)


def test_a_file_changed_while_it_is_validated_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Saved after the load read it and before the cache took its stamp: the stamp would
    vouch for bytes that were never validated, so nothing is kept."""
    base = tmp_path / "base.yaml"
    base.write_text(OURS, "utf-8")
    club = tmp_path / "club.yaml"
    club_file(club, "./base.yaml")
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
    club_file(club, "./base.yaml", "without: [./b.yaml]\n")
    dated_back(*(tmp_path / f"{n}.yaml" for n in ("a", "c", "base", "club")))
    assert simple_name(club) == "From c"
    (tmp_path / "b.yaml").unlink()
    (tmp_path / "b.yaml").symlink_to(tmp_path / "c.yaml")
    assert simple_name(club) == "From a"


def test_a_rulesets_folder_reached_through_a_link_that_points_elsewhere_now_is_seen(
    sealed_user_folders: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ULTI_RULES_PATH`` names a link to the folder that lets a path in; the link then
    points to another folder: the same string, another folder, and the path is refused."""
    here, there = tmp_path / "here", tmp_path / "there"
    for folder in (here, there):
        folder.mkdir()
    (here / "base.yaml").write_text(OURS, "utf-8")
    link = tmp_path / "rules"
    link.symlink_to(here)
    club = tmp_path / "club" / "club.yaml"
    club_file(club, here / "base.yaml")
    dated_back(club, here / "base.yaml", here, there)
    monkeypatch.setenv("ULTI_RULES_PATH", str(link))
    assert simple_name(club) == "Our Simple"
    link.unlink()
    link.symlink_to(there)
    refused_as_outside(club)


def test_a_relative_rulesets_folder_read_from_another_working_folder_is_seen(
    sealed_user_folders: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for where in ("one", "two"):
        (tmp_path / where / "rules").mkdir(parents=True)
    base = tmp_path / "one" / "rules" / "base.yaml"
    base.write_text(OURS, "utf-8")
    club = tmp_path / "club" / "club.yaml"
    club_file(club, base)
    dated_back(club, base)
    monkeypatch.setenv("ULTI_RULES_PATH", "rules")
    monkeypatch.chdir(tmp_path / "one")
    assert simple_name(club) == "Our Simple"
    monkeypatch.chdir(tmp_path / "two")
    refused_as_outside(club)


def test_a_file_a_name_finds_but_the_chain_passes_over_is_watched(
    sealed_user_folders: Path, tmp_path: Path
) -> None:
    """A club's own ``wikipedia.yaml`` that ``extends: wikipedia`` passes over itself, here
    the user folder's ``wikipedia.yaml``, a link to it; once that link is a file of the
    user's own, the name finds that file first. No file of the chain changed."""
    club = tmp_path / "club" / "wikipedia.yaml"
    club_file(club, "wikipedia")
    mine = sealed_user_folders / "wikipedia.yaml"
    mine.symlink_to(club)
    dated_back(club, club.parent, sealed_user_folders)
    assert simple_name(club) == "Simple"
    mine.unlink()
    mine.write_text(OURS, "utf-8")  # which builds on the bundled wikipedia in turn
    dated_back(mine, sealed_user_folders)  # the folder's listing as it was
    assert simple_name(club) == "Our Simple"


def test_a_file_saved_just_after_the_disk_cache_checked_it_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ruleset read back from disk was checked against the bytes it was validated
    from; a save right after that check is not vouched for by the stamp taken next."""
    from ulti_rules.ruleset import disk_cache

    from cache_support import cache_in

    base = tmp_path / "base.yaml"
    base.write_text(OURS, "utf-8")
    club = tmp_path / "club.yaml"
    club_file(club, "./base.yaml")
    dated_back(base, club)
    with cache_in(tmp_path / "cache"):
        assert simple_name(club) == "Our Simple"  # validated, and kept on disk
        loading.LOADED.clear()  # as a new command starts
        real = disk_cache.DiskCache.get

        def saved_after(self: object, *args: object) -> object:
            kept = real(self, *args)  # type: ignore[arg-type]
            assert kept is not None
            base.write_text(OURS.replace("Our Simple", "Their Simple"), "utf-8")
            dated_back(base)
            return kept

        monkeypatch.setattr(disk_cache.DiskCache, "get", saved_after)
        assert simple_name(club) == "Our Simple"  # what the disk held when it was checked
        monkeypatch.setattr(disk_cache.DiskCache, "get", real)
        assert simple_name(club) == "Their Simple"


def test_a_file_rewritten_in_place_with_its_time_put_back_is_seen(tmp_path: Path) -> None:
    """Same file, same size, the modification time put back (``cp -p``, ``rsync -t``,
    ``touch -r``): the change time still moves."""
    base = tmp_path / "base.yaml"
    base.write_text(OURS, "utf-8")
    club = tmp_path / "club.yaml"
    club_file(club, "./base.yaml")
    dated_back(base, club)
    assert simple_name(club) == "Our Simple"
    with base.open("r+", encoding="utf-8") as rewritten:  # the same inode
        rewritten.write(OURS.replace("Our Simple", "Her Simple"))
    dated_back(base)
    assert simple_name(club) == "Her Simple"


def test_a_folder_moved_and_left_as_a_link_takes_its_paths_out_of_bounds(
    tmp_path: Path,
) -> None:
    """``extends: ./sub/base.yaml``; ``sub`` is moved out of the club's folder and a link
    left in its place: every file is the same, but the path now leads outside."""
    club = tmp_path / "club" / "club.yaml"
    sub = club.parent / "sub"
    sub.mkdir(parents=True)
    (sub / "base.yaml").write_text(OURS, "utf-8")
    club_file(club, "./sub/base.yaml")
    dated_back(sub / "base.yaml", club)
    assert simple_name(club) == "Our Simple"
    elsewhere = tmp_path / "elsewhere"
    sub.rename(elsewhere)
    sub.symlink_to(elsewhere)
    refused_as_outside(club)


def test_a_name_that_finds_another_file_while_the_load_runs_is_not_kept(
    sealed_user_folders: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The name's file is a link while the chain is read, and a file of its own before
    the ruleset is kept: same path, another file, and nothing is kept."""
    club = tmp_path / "club" / "wikipedia.yaml"
    club_file(club, "wikipedia")
    mine = sealed_user_folders / "wikipedia.yaml"
    mine.symlink_to(club)
    dated_back(club, club.parent, sealed_user_folders)
    real = loading._validate

    def replaced_meanwhile(*args: object) -> object:
        validated = real(*args)  # type: ignore[arg-type]
        mine.unlink()
        mine.write_text(OURS, "utf-8")
        dated_back(mine, sealed_user_folders)
        return validated

    monkeypatch.setattr(loading, "_validate", replaced_meanwhile)
    loading.LOADED.clear()
    assert simple_name(club) == "Simple"  # as the chain was when it was read
    monkeypatch.setattr(loading, "_validate", real)
    assert len(loading.LOADED) == 0
    assert simple_name(club) == "Our Simple"


def test_the_same_top_file_reached_through_another_folder_is_checked_there(
    tmp_path: Path,
) -> None:
    """The top file is loaded through a folder link, ``d`` to ``A``; ``d`` then points to
    ``B``, whose ``top.yaml`` and ``sub`` are links back into ``A``: the same files, but a
    path written in the top file is confined to ``B`` now, and ``./sub/base.yaml`` leaves it."""
    a, b = tmp_path / "A", tmp_path / "B"
    (a / "sub").mkdir(parents=True)
    b.mkdir()
    (a / "sub" / "base.yaml").write_text(OURS, "utf-8")
    (a / "top.yaml").write_text("name: club\ntitle: A club\nextends: ./sub/base.yaml\n", "utf-8")
    (b / "top.yaml").symlink_to(a / "top.yaml")
    (b / "sub").symlink_to(a / "sub")
    d = tmp_path / "d"
    d.symlink_to(a)
    dated_back(a / "sub" / "base.yaml", a / "top.yaml")
    assert simple_name(d / "top.yaml") == "Our Simple"
    d.unlink()
    d.symlink_to(b)
    refused_as_outside(d / "top.yaml")
