"""A ruleset that drops a plugin's fragment loads where the plugin is not installed.

`tournament` extends `wikipedia`, which adds the Four Aces plugin's fragment by name
(`with: [four-aces]`), and drops it (`without: [four-aces]`): it needs no plugin, and
docs/cli.md says only rulesets that use a plugin's contracts fail without it (found by a
review of `ulti simulate`). A `without:` entry that names no fragment anywhere in the
chain is still refused, as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ulti_rules import plugins

from conftest import RunUlti

NO_PLUGINS = {"ULTI_RULES_DISABLE_PLUGIN_AUTOLOAD": "1"}


@pytest.fixture(autouse=True)
def registry_of_this_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process-wide registry built without plugins must not outlive the test."""
    monkeypatch.setattr(plugins, "_manager", None)
    monkeypatch.setattr(plugins, "_registry", None)


def afresh() -> None:
    """The next command builds its registry again (with or without plugins)."""
    plugins._manager = None
    plugins._registry = None


def test_tournament_plays_without_the_four_aces_plugin(ulti: RunUlti) -> None:
    done = ulti("simulate", "tournament", "--hands", "20", "--quiet", env=NO_PLUGINS)
    assert done.returncode == 0, done.stderr
    ladder = ulti("ladder", "tournament", env=NO_PLUGINS)
    assert ladder.returncode == 0, ladder.stderr
    assert "four_aces" not in ladder.stdout  # no bid of the fragment on the ladder


def test_wikipedia_itself_still_needs_the_plugin(ulti: RunUlti) -> None:
    done = ulti("check", "wikipedia", env=NO_PLUGINS)
    assert done.returncode == 1
    assert "with.0: no fragment named 'four-aces'" in done.stdout


def test_a_club_dropping_the_plugins_fragment_loads_without_it(
    ulti: RunUlti, tmp_path: Path
) -> None:
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: wikipedia\nwithout: [four-aces]\n", "utf-8"
    )
    done = ulti("check", str(tmp_path / "club.yaml"), env=NO_PLUGINS)
    assert done.returncode == 0, done.stderr


def test_a_fragment_a_base_lists_in_extends_is_dropped_by_name_without_its_plugin(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """A club's base lists the fragment in ``extends`` (after its ruleset), not in
    ``with``: dropping it by name needs no plugin either, and plays as the ruleset."""
    (tmp_path / "base.yaml").write_text("extends: [tournament, four-aces]\n", "utf-8")
    (tmp_path / "club.yaml").write_text("extends: ./base.yaml\nwithout: [four-aces]\n", "utf-8")
    done = ulti("check", str(tmp_path / "club.yaml"), env=NO_PLUGINS)
    assert done.returncode == 0, done.stdout
    afresh()
    same = ulti("diff", "tournament", str(tmp_path / "club.yaml"), env=NO_PLUGINS)
    assert same.returncode == 0, same.stdout
    afresh()
    # listed first, the name can only be a ruleset, and none is called so
    (tmp_path / "base.yaml").write_text("extends: [four-aces, tournament]\n", "utf-8")
    refused = ulti("check", str(tmp_path / "club.yaml"), env=NO_PLUGINS)
    assert refused.returncode == 1
    assert "base.yaml:1:11: extends.0: no ruleset named 'four-aces'" in refused.stdout


def test_a_misspelt_drop_is_still_refused(ulti: RunUlti, tmp_path: Path) -> None:
    """With the plugin, the misspelling is named; without it, wikipedia's own need of the
    fragment is (the drop matches nothing, so nothing is dropped)."""
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: wikipedia\nwithout: [four-acez]\n", "utf-8"
    )
    done = ulti("check", str(tmp_path / "club.yaml"))
    assert done.returncode == 1
    assert "without.0: no fragment named 'four-acez'" in done.stdout, done.stdout
    afresh()
    alone = ulti("check", str(tmp_path / "club.yaml"), env=NO_PLUGINS)
    assert alone.returncode == 1
    assert "with.0: no fragment named 'four-aces'" in alone.stdout, alone.stdout


def test_a_path_in_without_is_never_taken_on_trust(ulti: RunUlti, tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: wikipedia\nwithout: [./four-aces.yaml]\n", "utf-8"
    )
    done = ulti("check", str(tmp_path / "club.yaml"), env=NO_PLUGINS)
    assert done.returncode == 1
    assert "without.0: no such file" in done.stdout, done.stdout


def test_a_drop_of_a_fragment_nothing_adds_is_refused_with_the_plugin_too(
    ulti: RunUlti, tmp_path: Path
) -> None:
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: older-20-100\nwithout: [four-aces]\n", "utf-8"
    )
    done = ulti("check", str(tmp_path / "club.yaml"))
    assert done.returncode == 1
    assert "nothing to drop" in done.stdout, done.stdout
    afresh()
    alone = ulti("check", str(tmp_path / "club.yaml"), env=NO_PLUGINS)
    assert alone.returncode == 1
    assert "without.0: no fragment named 'four-aces'" in alone.stdout, alone.stdout
