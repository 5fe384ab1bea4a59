"""`ulti diff A B`: golden outputs for the bundled rulesets and a club against its parent,
the exit status (0 same, 1 different, 2 trouble), --json, and files that resolve alike.

Run with ``ULTI_UPDATE_GOLDEN=1`` to write the golden files again after a wording change
(then read the diff of tests/fixtures/diff/ before committing it)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import RunUlti

FIXTURES = Path(__file__).parent / "fixtures" / "diff"
GOLDEN = [
    ("wikipedia", "tournament", "en", 1),
    ("wikipedia", "older-20-100", "en", 1),
    ("wikipedia", "two-round-auction", "en", 1),
    ("wikipedia", "four-player", "en", 1),
    ("wikipedia", "wikipedia", "en", 0),
    ("tournament", "club.yaml", "en", 1),
    ("tournament", "club.yaml", "hu", 1),
    ("tournament", "club.yaml", "de", 1),
    ("wikipedia", "renamed.yaml", "en", 0),
]


@pytest.mark.parametrize(("was", "now", "lang", "status"), GOLDEN)
def test_golden_output(ulti: RunUlti, was: str, now: str, lang: str, status: int) -> None:
    done = ulti("diff", was, now, "--lang", lang, cwd=FIXTURES)
    assert done.returncode == status, done.stderr
    assert done.stderr == ""
    golden = FIXTURES / f"{was}-{Path(now).stem}.{lang}.txt"
    if os.environ.get("ULTI_UPDATE_GOLDEN"):
        golden.write_text(done.stdout, encoding="utf-8")
    assert done.stdout == golden.read_text(encoding="utf-8")


def test_the_same_rules_say_so_in_words(ulti: RunUlti) -> None:
    done = ulti("diff", "wikipedia", "wikipedia")
    assert (done.returncode, done.stdout) == (
        0,
        "wikipedia and wikipedia play the same: no differences.\n",
    )
    hu = ulti("diff", "wikipedia", "wikipedia", "--lang", "hu")
    assert "nincs eltérés" in hu.stdout and hu.returncode == 0


def test_names_and_sources_do_not_count(ulti: RunUlti) -> None:
    """A file that only renames its parent plays the same: exit 0, the names listed apart."""
    done = ulti("diff", "wikipedia", "renamed.yaml", cwd=FIXTURES)
    assert done.returncode == 0
    assert "play the same; only names and sources differ" in done.stdout
    assert (
        "Names and sources, which do not change the play\n  * The ruleset is called renamed"
        in done.stdout
    )


def test_files_that_resolve_alike_have_no_differences(ulti: RunUlti, tmp_path: Path) -> None:
    """Compared after extends: a club that writes its parent's own values again is no change."""
    (tmp_path / "same.yaml").write_text(
        "name: wikipedia\nextends: wikipedia\n"
        "contracts: {ulti: {value: 4}}\npoints: {last_trick: 10}\n",
        encoding="utf-8",
    )
    done = ulti("diff", "wikipedia", "same.yaml", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (
        0,
        "wikipedia and same.yaml play the same: no differences.\n",
    )


def test_json_lists_every_difference(ulti: RunUlti) -> None:
    done = ulti("diff", "tournament", "club.yaml", "--json", cwd=FIXTURES)
    assert done.returncode == 1
    found = {row["setting"]: row for row in json.loads(done.stdout)}
    assert set(next(iter(found.values()))) == {"section", "setting", "was", "now", "text", "plays"}
    assert found["contracts.ulti.value"] == {
        "section": "contracts",
        "setting": "contracts.ulti.value",
        "was": 4,
        "now": 5,
        "text": "Ulti is worth 5 (was 4).",
        "plays": True,
    }
    assert found["kontra.max_level"]["text"] == "Kontra stops at Subkontra (was Rekontra)."
    assert found["contracts.betli.names"]["plays"] is False
    same = ulti("diff", "wikipedia", "wikipedia", "--json")
    assert (same.returncode, json.loads(same.stdout)) == (0, [])


def test_trouble_is_status_2_with_a_clear_error(ulti: RunUlti, tmp_path: Path) -> None:
    done = ulti("diff", "wikipedia", "wikipedai")
    assert done.returncode == 2 and "no ruleset named 'wikipedai'" in done.stderr
    assert "Traceback" not in done.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text("extends: wikipedia\npoints: {last_trick: many}\n", encoding="utf-8")
    done = ulti("diff", "wikipedia", str(broken))
    assert done.returncode == 2 and "points.last_trick" in done.stderr
    done = ulti("diff", "wikipedia", "tournament", env={"ULTI_LANG": "fr"})
    assert done.returncode == 2 and "unknown language 'fr'" in done.stderr
    done = ulti("diff", "wikipedia")
    assert done.returncode == 2 and "Missing argument 'B'" in done.stderr
