"""Paths written in files from other people stay inside their folders, and nothing is quoted.

A club file's ``extends:`` and the ``ruleset:`` of a score sheet or a hand record are
written by someone else; ``ulti`` must not read (and show) any file the user can read
because such a file names it. Each case checks that the target's content never appears
in what ``ulti`` prints.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from ulti_rules.bots import SimpleBidder, play_out
from ulti_rules.cli import main
from ulti_rules.engine import Hand
from ulti_rules.errors import RulesetError
from ulti_rules.plugins import Registry
from ulti_rules.records import RecordError, load_record, record_of, replay, save
from ulti_rules.ruleset import finding
from ulti_rules.ruleset.loading import check_file, find_rulesets, load_ruleset
from ulti_rules.ruleset.references import ALLOW_OUTSIDE_ENV, allow_outside_paths

SECRET = "s3cr3t-token-do-not-print"
SHEET = """\
ruleset: {ruleset}
players: [Anna, Ben, Carla]
declarer: Anna
bid: Simple Hearts
trump: hearts
points: {{declarer: 50, defenders: 40}}
tricks: {{Anna: 5, Ben: 3, Carla: 2}}
last_trick: {{winner: Ben}}
marriages: {{Anna: [acorns], Carla: [hearts]}}
aces: [Anna, Ben]
"""


def ulti(*args: str, env: dict[str, str] | None = None) -> Result:
    """`ulti ARGS` in-process; an unexpected exception fails the test instead of passing
    as a clean error."""
    result = CliRunner().invoke(main, list(args), env={"ULTI_DEBUG": "1", **(env or {})})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "internal error" not in result.stderr
    return result


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A private file outside the folder the club files live in."""
    private = tmp_path / "private"
    private.mkdir()
    path = private / "secret.yaml"
    path.write_text(f"token: {SECRET}\n{SECRET}\n", encoding="utf-8")
    return path


@pytest.fixture
def club_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "downloads" / "club"
    folder.mkdir(parents=True)
    return folder


def club(folder: Path, extends: str, name: str = "club") -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\ntitle: A club\nextends: {extends}\n", encoding="utf-8")
    return path


def assert_refused_unread(result: Result, target: str) -> None:
    assert result.exit_code == 1, result.output
    text = result.output  # stdout and stderr: `check` reports on stdout, others on stderr
    assert SECRET not in text and "root:x:0" not in text
    assert "outside the folder" in text
    assert target in text


# --------------------------------------------------------------------------- extends


@pytest.mark.parametrize("how", ["absolute", "dotdot"])
def test_extends_outside_the_folder_is_refused_unread(
    how: str, club_dir: Path, secret: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = str(secret) if how == "absolute" else "../../private/secret.yaml"
    path = club(club_dir, target)
    monkeypatch.chdir(club_dir)
    result = ulti("check", str(path))
    assert_refused_unread(result, target)
    assert result.output.startswith("club.yaml:3:10: extends:")  # positioned at the value


def test_extends_etc_passwd_is_refused_unread(club_dir: Path) -> None:
    result = ulti("check", str(club(club_dir, "/etc/passwd")))
    assert_refused_unread(result, "/etc/passwd")


def test_a_symlink_inside_the_folder_that_leads_out_is_refused(
    club_dir: Path, secret: Path
) -> None:
    (club_dir / "base.yaml").symlink_to(secret)
    result = ulti("check", str(club(club_dir, "./base.yaml")))
    assert_refused_unread(result, "./base.yaml")


def test_paths_inside_the_folder_and_rulesets_folders_are_followed(
    club_dir: Path, sealed_user_folders: Path
) -> None:
    sub = club_dir / "bases"
    sub.mkdir()
    club(sub, "wikipedia", name="base")
    assert check_file(club(club_dir, "bases/base.yaml")) == []
    # a rulesets folder ($ULTI_RULES_PATH) may be named by an absolute path from anywhere
    club(sealed_user_folders, "wikipedia", name="shared")
    shared = sealed_user_folders / "shared.yaml"
    assert check_file(club(club_dir, str(shared), name="other")) == []


def test_the_user_may_allow_outside_paths(club_dir: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    club(elsewhere, "wikipedia", name="base")
    path = club(club_dir, "../../elsewhere/base.yaml")
    assert check_file(path) != []
    with allow_outside_paths():
        assert check_file(path) == []
    assert ulti("check", str(path)).exit_code == 1
    assert ulti("--allow-outside-paths", "check", str(path)).exit_code == 0
    assert ulti("check", str(path), env={ALLOW_OUTSIDE_ENV: "1"}).exit_code == 0


def test_a_file_that_is_no_ruleset_is_not_quoted(tmp_path: Path) -> None:
    """Even a file the user names himself is described, not printed."""
    path = tmp_path / "notes.yaml"
    path.write_text(f"{SECRET} and more text\n", encoding="utf-8")
    result = ulti("check", str(path))
    assert result.exit_code == 1
    assert SECRET not in result.output
    assert "the top level must be a mapping of keys" in result.output


# --------------------------------------------------------------------------- sheets, records


@pytest.mark.parametrize("ref", ["/etc/passwd", "../private/secret.yaml"])
def test_a_score_sheet_names_no_file_outside_its_folder(
    ref: str, tmp_path: Path, secret: Path
) -> None:
    folder = tmp_path / "sheets"
    folder.mkdir()
    sheet = folder / "hand.yaml"
    sheet.write_text(SHEET.format(ruleset=ref), encoding="utf-8")
    result = ulti("score", str(sheet))
    assert_refused_unread(result, ref)
    assert f"{sheet}:1:" in result.output


def test_a_score_sheet_may_name_a_club_file_beside_it(tmp_path: Path) -> None:
    club(tmp_path, "wikipedia")
    sheet = tmp_path / "hand.yaml"
    sheet.write_text(SHEET.format(ruleset="./club.yaml"), encoding="utf-8")
    result = ulti("score", str(sheet))
    assert result.exit_code == 0, result.stderr
    assert "Anna" in result.stdout


def test_a_record_names_no_ruleset_outside_its_folder(tmp_path: Path, secret: Path) -> None:
    hand = Hand(load_ruleset("wikipedia"), seed=3)
    play_out(hand, SimpleBidder(), random.Random(3))
    folder = tmp_path / "records"
    folder.mkdir()
    path = save(record_of(hand, "wikipedia"), folder / "hand.yaml")
    text = path.read_text(encoding="utf-8")
    assert "ruleset: wikipedia\n" in text
    path.write_text(text.replace("ruleset: wikipedia\n", "ruleset: /etc/passwd\n"), "utf-8")
    result = ulti("replay", str(path))
    assert_refused_unread(result, "/etc/passwd")
    assert f"{path}:" in result.output
    with pytest.raises(RecordError, match="outside the folder"):
        replay(load_record(path))


def test_a_path_through_a_folder_not_there_is_shown_as_written(club_dir: Path) -> None:
    """``./gone/../base.yaml`` fails at ``gone``; it was said as "no such file: base.yaml"
    of a base.yaml that is there."""
    (club_dir / "base.yaml").write_text("extends: wikipedia\n", "utf-8")
    path = club(club_dir, "./gone/../base.yaml")
    with pytest.raises(RulesetError) as refused:
        load_ruleset(path)
    assert f"no such file: {club_dir / 'gone' / '..' / 'base.yaml'}" in str(refused.value)


# --------------------------------------------------------------------------- ~user

NO_USER = "~nosuchuser_zz"
"""A ``~user`` with no home folder: pathlib raises RuntimeError for it, which was an
internal error (found by a fuzzer)."""


def test_a_file_naming_the_home_of_no_user_is_a_positioned_problem(club_dir: Path) -> None:
    path = club(club_dir, f"{NO_USER}/base.yaml")
    for args in (["ladder", str(path)], ["check", str(path)]):
        result = ulti(*args)
        assert result.exit_code == 1, result.output
        assert f"{path}:3:10: extends: '{NO_USER}/base.yaml' is not read: there is no user" in (
            result.output
        )
    with pytest.raises(RulesetError, match="there is no user 'nosuchuser_zz' on this system"):
        load_ruleset(path)


def test_a_sheet_a_record_and_a_ledger_naming_the_home_of_no_user_are_refused(
    tmp_path: Path,
) -> None:
    ref = f"{NO_USER}/club.yaml"
    sheet = tmp_path / "hand.yaml"
    sheet.write_text(SHEET.format(ruleset=ref), encoding="utf-8")
    result = ulti("score", str(sheet))
    assert result.exit_code == 1 and "there is no user" in result.output, result.output
    hand = Hand(load_ruleset("wikipedia"), seed=3)
    play_out(hand, SimpleBidder(), random.Random(3))
    record = save(record_of(hand, "wikipedia"), tmp_path / "record.yaml")
    record.write_text(
        record.read_text("utf-8").replace("ruleset: wikipedia\n", f"ruleset: {ref}\n"), "utf-8"
    )
    result = ulti("replay", str(record))
    assert result.exit_code == 1 and "there is no user" in result.output, result.output
    ledger = tmp_path / "session.json"
    made = ulti("ledger", "new", str(ledger), "--ruleset", "wikipedia", "--players", "A,B,C")
    assert made.exit_code == 0, made.output
    data = json.loads(ledger.read_text(encoding="utf-8"))
    data["ruleset"] = ref
    ledger.write_text(json.dumps(data), encoding="utf-8")
    for args in (["ledger", "show", str(ledger)], ["ledger", "add", str(ledger), str(sheet)]):
        result = ulti(*args)
        assert result.exit_code == 1 and "there is no user" in result.output, result.output


def test_a_path_typed_for_no_user_or_too_long_is_a_clean_error(tmp_path: Path) -> None:
    """The user's own paths are not confined, but still answered in words."""
    with pytest.raises(RulesetError, match="no such file"):
        load_ruleset(f"{NO_USER}/club.yaml")
    too_long = str(tmp_path / ("a" * 300 + ".yaml"))
    with pytest.raises(RulesetError, match="cannot read the file: File name too long"):
        load_ruleset(too_long)
    for target in (f"{NO_USER}/club.yaml", too_long):
        result = ulti("ladder", target)
        assert result.exit_code == 1, result.output


def test_a_search_folder_in_the_home_of_no_user_is_a_folder_not_there(
    monkeypatch: pytest.MonkeyPatch, sealed_user_folders: Path
) -> None:
    monkeypatch.setenv(
        "ULTI_RULES_PATH", os.pathsep.join([f"{NO_USER}/r", str(sealed_user_folders)])
    )
    assert finding.user_dirs()[0] == sealed_user_folders
    assert load_ruleset("wikipedia").name == "wikipedia"
    result = ulti("rulesets")
    assert result.exit_code == 0, result.output


# --------------------------------------------------------------------------- special files, bounds


def within(seconds: float, run: Callable[[], Result]) -> Result:
    """Run in a thread and fail (rather than hang the suite) if it takes too long."""
    box: list[Result] = []
    worker = threading.Thread(target=lambda: box.append(run()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert box, f"still running after {seconds} s"
    return box[0]


def test_a_fifo_and_a_device_are_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "club.yaml"
    os.mkfifo(fifo)
    for target in (str(fifo), "/dev/zero"):
        result = within(3, lambda t=target: ulti("check", t))  # type: ignore[misc]
        assert result.exit_code == 1
        assert "not a regular file" in result.output
    sheet = tmp_path / "hand.yaml"
    os.mkfifo(sheet)
    result = within(3, lambda: ulti("score", str(sheet)))
    assert result.exit_code == 1 and "not a regular file" in result.output


def test_a_long_text_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    """A 0.9 MB file whose 1,000 aliases repeat a 0.9 MB title: 0.9 GB once expanded."""
    lines = ["name: bomb", "title: &t " + "x" * 900_000, "extends: wikipedia", "sources:"]
    lines += ["  - *t"] * 1000
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # CPU time: other work on the machine (parallel tests) does not count
    start = time.process_time()
    for args in (["check", str(path)], ["show", "--resolved", str(path)]):
        result = ulti(*args)
        assert result.exit_code == 1
        assert "of text with aliases expanded" in result.output
        assert "bomb.yaml:6:5:" in result.output  # the second alias crosses the 2 MiB bound
    assert time.process_time() - start < 3


def test_each_search_folder_is_listed_once_per_run(
    sealed_user_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ulti rulesets` with many club files reads each folder once, not once per title."""
    for i in range(200):
        club(sealed_user_folders, "wikipedia", name=f"c{i}")
    old = time.time() - 60  # older than the racy window: the listing may be kept
    os.utime(sealed_user_folders, (old, old))
    listed: list[str] = []
    real_scandir = os.scandir

    def counting(path: os.PathLike[str] | str | int) -> object:
        if not isinstance(path, int):  # a folder by its descriptor: a removal's, not ours
            listed.append(os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(finding.os, "scandir", counting)
    finding._SCANS.clear()
    sources = find_rulesets(Registry())
    assert sum(1 for s in sources if s.name.startswith("c")) == 200
    assert all(s.title == "A club" for s in sources if s.name.startswith("c"))
    assert listed.count(str(sealed_user_folders)) == 1


# --------------------------------------------------------------------------- ledgers


def test_a_ledger_names_no_file_outside_its_folder(tmp_path: Path) -> None:
    ledger = tmp_path / "session.json"
    made = ulti("ledger", "new", str(ledger), "--ruleset", "wikipedia", "--players", "A,B,C")
    assert made.exit_code == 0, made.output
    data = json.loads(ledger.read_text(encoding="utf-8"))
    data["ruleset"] = "/etc/passwd"
    ledger.write_text(json.dumps(data), encoding="utf-8")
    for args in (["ledger", "show", str(ledger)], ["ledger", "add", str(ledger), "--misdeal"]):
        result = ulti(*args)
        assert_refused_unread(result, "/etc/passwd")
        assert f"{ledger}:1:" in result.output


def test_a_ledger_keeps_a_club_file_beside_it_by_relative_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "evening"
    folder.mkdir()
    club(folder, "wikipedia")
    monkeypatch.chdir(tmp_path)
    made = ulti(
        "ledger", "new", "evening/s.json", "--ruleset", "evening/club.yaml", "--players", "A,B,C"
    )
    assert made.exit_code == 0, made.output
    assert json.loads((folder / "s.json").read_text(encoding="utf-8"))["ruleset"] == "club.yaml"
    moved = tmp_path / "archive"
    folder.rename(moved)  # the ledger and its club file move together
    assert ulti("ledger", "add", str(moved / "s.json"), "--misdeal").exit_code == 0


def test_a_ledger_cannot_be_started_on_a_club_file_it_could_not_read_back(
    tmp_path: Path, club_dir: Path
) -> None:
    path = club(club_dir, "wikipedia")
    ledger = tmp_path / "elsewhere" / "s.json"
    ledger.parent.mkdir()
    args = ["ledger", "new", str(ledger), "--ruleset", str(path), "--players", "A,B,C"]
    refused = ulti(*args)
    assert refused.exit_code == 1
    assert "outside the ledger's folder" in refused.output and not ledger.exists()
    assert ulti("--allow-outside-paths", *args).exit_code == 0
    assert ulti("ledger", "show", str(ledger)).exit_code == 1  # confined again
    assert ulti("--allow-outside-paths", "ledger", "show", str(ledger)).exit_code == 0
