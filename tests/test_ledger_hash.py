"""The ledger pins its ruleset's content hash and says clearly when it changed (issue 7,
item 8): a club file edited mid-session is named before any hand is added; the table
restores it or accepts the change (`ulti ledger add --accept-ruleset-change`); an older
ledger without a pin is pinned at its next hand; a record or a sheet of another ruleset
is named as such.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from ulti_rules.bots import bot, play_out
from ulti_rules.engine import Hand
from ulti_rules.records import record_of, save
from ulti_rules.ruleset.loading import content_hash, load_ruleset

from cli_in_process import run_in

CLUB = "name: club\ntitle: Club\nextends: wikipedia\nkontra: {max_level: 3}\n"
EDITED = "name: club\ntitle: Club\nextends: wikipedia\nkontra: {max_level: 2}\n"
ULTI = """\
declarer: {declarer}
bid: ulti
trump: acorns
points: {{declarer: 60, defenders: 30}}
tricks: {{Anna: 4, Ben: 3, Carla: 3}}
last_trick: {{winner: {declarer}, trump_seven: {declarer}}}
aces: [{declarer}]
"""


@pytest.fixture
def ulti(tmp_path: Path) -> Any:
    return run_in(tmp_path)


def session(tmp_path: Path, ulti: Any) -> Path:
    (tmp_path / "club.yaml").write_text(CLUB, encoding="utf-8")
    done = ulti("ledger", "new", "s.json", "--ruleset", "club.yaml", "--players", "Anna,Ben,Carla")
    assert done.returncode == 0, done.stderr
    return tmp_path / "s.json"


def hand(tmp_path: Path, declarer: str, name: str = "h.yaml") -> str:
    (tmp_path / name).write_text(ULTI.format(declarer=declarer), encoding="utf-8")
    return name


def stored(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


def test_a_new_ledger_pins_the_rules(tmp_path: Path, ulti: Any) -> None:
    ledger = session(tmp_path, ulti)
    assert stored(ledger)["ruleset_hash"] == content_hash(load_ruleset(tmp_path / "club.yaml"))
    shown = json.loads(ulti("ledger", "show", "s.json", "--json").stdout)
    assert shown["ruleset_changed"] is False
    assert shown["ruleset_hash"] == shown["ruleset_hash_now"]


def test_an_edited_club_file_is_named_before_any_hand(tmp_path: Path, ulti: Any) -> None:
    ledger = session(tmp_path, ulti)
    assert ulti("ledger", "add", "s.json", hand(tmp_path, "Anna")).returncode == 0
    pinned = stored(ledger)["ruleset_hash"]
    (tmp_path / "club.yaml").write_text(EDITED, encoding="utf-8")
    before = ledger.read_text("utf-8")
    done = ulti("ledger", "add", "s.json", hand(tmp_path, "Ben"))
    assert done.returncode == 1
    assert "the club file club.yaml changed since the session began" in done.stderr
    assert f"(content hash {pinned[:19]}… then, " in done.stderr
    assert "--accept-ruleset-change" in done.stderr
    assert ledger.read_text("utf-8") == before
    for unplayed in ("--misdeal",):
        refused = ulti("ledger", "add", "s.json", unplayed)
        assert refused.returncode == 1 and "changed since the session began" in refused.stderr
    shown = ulti("ledger", "show", "s.json")
    assert shown.returncode == 0, shown.stderr
    assert "changed since the session began" in shown.stderr
    assert json.loads(ulti("ledger", "show", "s.json", "--json").stdout)["ruleset_changed"]


def test_restoring_the_file_plays_on(tmp_path: Path, ulti: Any) -> None:
    session(tmp_path, ulti)
    (tmp_path / "club.yaml").write_text(EDITED, encoding="utf-8")
    assert ulti("ledger", "add", "s.json", hand(tmp_path, "Anna")).returncode == 1
    (tmp_path / "club.yaml").write_text(CLUB, encoding="utf-8")
    done = ulti("ledger", "add", "s.json", hand(tmp_path, "Anna"))
    assert done.returncode == 0, done.stderr


def test_accepting_the_change_pins_the_new_rules(tmp_path: Path, ulti: Any) -> None:
    ledger = session(tmp_path, ulti)
    assert ulti("ledger", "add", "s.json", hand(tmp_path, "Anna")).returncode == 0
    (tmp_path / "club.yaml").write_text(EDITED, encoding="utf-8")
    done = ulti("ledger", "add", "s.json", hand(tmp_path, "Ben"), "--accept-ruleset-change")
    assert done.returncode == 0, done.stderr
    now = content_hash(load_ruleset(tmp_path / "club.yaml"))
    data = stored(ledger)
    assert data["ruleset_hash"] == now
    assert [h["ruleset_hash"] for h in data["hands"]] == [None, now]
    done = ulti("ledger", "add", "s.json", hand(tmp_path, "Carla"))
    assert done.returncode == 0, "the new rules are the session's now"
    assert stored(ledger)["hands"][2]["ruleset_hash"] is None
    text = ulti("ledger", "show", "s.json")
    assert text.returncode == 0 and not text.stderr
    assert "(new rules from here)" in text.stdout


def test_a_change_the_hands_no_longer_fit_is_said_first(tmp_path: Path, ulti: Any) -> None:
    session(tmp_path, ulti)
    assert ulti("ledger", "add", "s.json", hand(tmp_path, "Anna")).returncode == 0
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: four-player\n", encoding="utf-8"
    )
    done = ulti("ledger", "show", "s.json")
    assert done.returncode == 1
    first, second = done.stderr.splitlines()[:2]
    assert "ruleset: the club file club.yaml changed since the session began" in first
    assert "the session's hands no longer fit the new rules" in first
    assert "'club' is for 4 players, not 3" in second


def test_an_older_ledger_is_pinned_at_its_next_hand(tmp_path: Path, ulti: Any) -> None:
    ledger = session(tmp_path, ulti)
    data = stored(ledger)
    del data["ruleset_hash"]
    ledger.write_text(json.dumps(data), encoding="utf-8")
    shown = json.loads(ulti("ledger", "show", "s.json", "--json").stdout)
    assert shown["ruleset_hash"] is None and shown["ruleset_changed"] is None
    done = ulti("ledger", "add", "s.json", hand(tmp_path, "Anna"))
    assert done.returncode == 0, done.stderr
    assert "pinned no ruleset yet; it now pins" in done.stderr
    assert stored(ledger)["ruleset_hash"] == content_hash(load_ruleset(tmp_path / "club.yaml"))


def test_a_tampered_pin_is_a_positioned_error(tmp_path: Path, ulti: Any) -> None:
    ledger = session(tmp_path, ulti)
    text = ledger.read_text("utf-8")
    ledger.write_text(text.replace('"sha256:', '"md5:'), encoding="utf-8")
    done = ulti("ledger", "show", "s.json")
    assert done.returncode == 1
    assert "s.json:" in done.stderr and "ruleset_hash" in done.stderr


def engine_record(ruleset: str, path: Path, name: str) -> None:
    hand = play_out(
        Hand(load_ruleset(ruleset), seed=4, dealer=0),
        bot("simple"),
        random.Random(4),
    )
    save(record_of(hand, name, players=["Anna", "Ben", "Carla"]), path)


def test_a_record_of_another_ruleset_is_named(tmp_path: Path, ulti: Any) -> None:
    ledger = session(tmp_path, ulti)
    engine_record("wikipedia", tmp_path / "r.yaml", "wikipedia")
    before = ledger.read_text("utf-8")
    done = ulti("ledger", "add", "s.json", "r.yaml")
    assert done.returncode == 1
    assert (
        "this record is from ruleset 'wikipedia', the session plays 'club' (club.yaml)"
        in done.stderr
    )
    assert "--ignore-hash" not in done.stderr
    assert ledger.read_text("utf-8") == before


def test_a_record_of_the_rules_before_a_change_is_named(tmp_path: Path, ulti: Any) -> None:
    session(tmp_path, ulti)
    engine_record(str(tmp_path / "club.yaml"), tmp_path / "old.yaml", "club.yaml")
    (tmp_path / "club.yaml").write_text(EDITED, encoding="utf-8")
    done = ulti("ledger", "add", "s.json", "old.yaml")
    assert done.returncode == 1
    assert "changed since the session began" in done.stderr, "the pin speaks first"
    done = ulti("ledger", "add", "s.json", "old.yaml", "--accept-ruleset-change")
    assert done.returncode == 1
    assert "this record is from ruleset 'club' as it was then" in done.stderr
    assert "--ignore-hash" not in done.stderr


def test_a_sheet_of_another_ruleset_is_named(tmp_path: Path, ulti: Any) -> None:
    session(tmp_path, ulti)
    name = hand(tmp_path, "Anna")
    text = (tmp_path / name).read_text("utf-8")
    (tmp_path / name).write_text("ruleset: wikipedia\n" + text, encoding="utf-8")
    done = ulti("ledger", "add", "s.json", name)
    assert done.returncode == 1
    assert "this hand is from ruleset 'wikipedia', the session plays 'club'" in done.stderr
