"""The issue-7 settings where the CLI meets them: a passed-out hand in `ulti simulate` and
`ulti replay`, `ulti check` on a void 100 with no Parti to settle, the transfers of a
bonus against everyone in the `ulti score` table, `--save-records` messages, and the
ranking-rule example of docs/plugins.md run as it stands.
"""

from __future__ import annotations

import errno
import itertools
import json
import os
import re
import types
from pathlib import Path
from typing import Any

import pytest
import ulti_rules
from ulti_rules import plugins, safe_files
from ulti_rules.errors import RulesetError
from ulti_rules.records import load_record
from ulti_rules.ruleset.loading import load_ruleset

from cli_in_process import run_in

PLAYERS = ["P1", "P2", "P3"]


def club(folder: Path, all_pass: str) -> Path:
    """Wikipedia where the opener may pass, with ``all_pass`` as written."""
    path = folder / "club.yaml"
    path.write_text(
        f"name: club\ntitle: Club\nextends: wikipedia\n"
        f"auction: {{opener_must_bid: false, {all_pass}}}\n",
        encoding="utf-8",
    )
    return path


def simulate(folder: Path, *more: str) -> dict[str, Any]:
    """`ulti simulate club.yaml` with random bots (they pass hands out), as JSON."""
    done = run_in(folder)(
        "simulate", "club.yaml", "--hands", "12", "--seed", "1", "--bot", "random", "--json",
        *more,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def passed_out(data: dict[str, Any]) -> list[dict[str, Any]]:
    found = [r for r in data["results"] if r["bid"] is None]
    assert found, "the seed must give passed-out hands"
    return found


# --------------------------------------------------------------------------- ulti simulate


def test_simulate_counts_what_forehand_pays_when_everybody_passes(tmp_path: Path) -> None:
    club(tmp_path, "all_pass: forehand_pays, all_pass_payment: 2")
    data = simulate(tmp_path)
    for result in passed_out(data):
        dealer = PLAYERS.index(result["dealer"])
        forehand = PLAYERS[(dealer + 1) % 3]  # the deal and the play pass to the next seat
        expected = {name: -4 if name == forehand else 2 for name in PLAYERS}
        assert result["payments"] == expected
    for name in PLAYERS:
        assert data["totals"][name] == sum(r["payments"][name] for r in data["results"])
    assert data["outcomes"]["passed out"] == len(passed_out(data))
    text = run_in(tmp_path)(
        "simulate", "club.yaml", "--hands", "12", "--seed", "1", "--bot", "random"
    )
    lines = [line for line in text.stdout.splitlines() if "passed out: nobody bid" in line]
    assert len(lines) == len(passed_out(data))
    first = passed_out(data)[0]
    forehand = PLAYERS[(PLAYERS.index(first["dealer"]) + 1) % 3]
    others = " and ".join(p for p in PLAYERS if p != forehand)
    assert f"passed out: nobody bid, {forehand} (forehand) pays 2 each to {others}: " in lines[0]


@pytest.mark.parametrize("setting", ["redeal", "pass_out"])
def test_simulate_passes_the_deal_on_except_after_a_redeal(tmp_path: Path, setting: str) -> None:
    club(tmp_path, f"all_pass: {setting}")
    data = simulate(tmp_path)
    results = data["results"]
    assert results[0]["dealer"] == "P1"
    for before, after in itertools.pairwise(results):
        seat = PLAYERS.index(before["dealer"])
        kept = before["bid"] is None and setting == "redeal"
        assert after["dealer"] == PLAYERS[seat if kept else (seat + 1) % 3], (before, after)
    assert any(r["bid"] is None for r in results[:-1]), "a passed-out hand with one after it"
    for result in passed_out(data):
        assert result["payments"] == dict.fromkeys(PLAYERS, 0)


# --------------------------------------------------------------------------- ulti replay


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ("all_pass: forehand_pays, all_pass_payment: 3", "(forehand) pays 3 each to"),
        ("all_pass: redeal", "deals again"),
        ("all_pass: pass_out", "nobody pays"),
    ],
)
def test_replay_says_what_a_passed_out_hand_costs(tmp_path: Path, setting: str, said: str) -> None:
    club(tmp_path, setting)
    data = simulate(tmp_path, "--save-records", "recs")
    result = passed_out(data)[0]
    path = f"recs/hand-{result['hand']:04d}.yaml"
    record = load_record(tmp_path / path)
    assert record.players[record.dealer] == result["dealer"]
    done = run_in(tmp_path)("replay", path, "--ruleset", "club.yaml")
    assert done.returncode == 0, done.stderr
    assert "nothing to settle" not in done.stdout
    rule = setting.split(",")[0].split(": ")[1]
    (line,) = [x for x in done.stdout.splitlines() if x.startswith("Nobody bid")]
    assert line.startswith(f"Nobody bid (auction.all_pass: {rule}): ") and said in line
    rows = {m[1]: int(m[2]) for m in re.finditer(r"│ (P\d)\s+│\s+([+-]?\d+) │", done.stdout)}
    if rule == "forehand_pays":  # the payments table: what the simulation counted
        assert rows == result["payments"] and sum(rows.values()) == 0
        assert sorted(rows.values()) == [-6, 3, 3]
    else:
        assert rows == {}, "nobody pays: no table"


# --------------------------------------------------------------------------- ulti check

NO_PARTI = """\
name: no-parti
title: A club without a Parti
kontra:
  levels: [{names: {hu: kontra, en: Kontra}, multiplier: 2, by: defenders}]
contracts:
  forty_hundred: {kind: hundred, names: {hu: 40-100, en: 40-100}, value: 4, marriage: trump}
  betli: {kind: betli, names: {hu: betli, en: Betli}, value: 5}
ladder:
  - {id: forty_hundred, rank: 1, components: [forty_hundred], names: {hu: 40-100, en: 40-100}}
  - {id: betli, rank: 2, components: [betli], names: {hu: betli, en: Betli}}
marriages:
  in_hundred_game:
    unannounced: UNANNOUNCED
"""


def test_check_refuses_a_void_hundred_with_no_parti_to_settle(tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text(NO_PARTI.replace("UNANNOUNCED", "parti"), "utf-8")
    done = run_in(tmp_path)("check", "club.yaml")
    assert done.returncode == 1
    line = NO_PARTI.splitlines().index("    unannounced: UNANNOUNCED") + 1
    (problem,) = [x for x in done.stdout.splitlines() if x.startswith("club.yaml:")]
    assert problem.startswith(f"club.yaml:{line}:5: marriages.in_hundred_game.unannounced: ")
    assert "no entry of kind parti" in problem and "choose 'lost'" in problem
    with pytest.raises(RulesetError, match="no entry of kind parti"):
        load_ruleset(str(tmp_path / "club.yaml"))
    for fine in ("lost", "required"):
        (tmp_path / "club.yaml").write_text(NO_PARTI.replace("UNANNOUNCED", fine), "utf-8")
        done = run_in(tmp_path)("check", "club.yaml")
        assert done.returncode == 0, done.stdout


# --------------------------------------------------------------------------- ulti score

CARLAS_SEVEN = """\
ruleset: tournament
players: [Anna, Ben, Carla]
dealer: Anna
declarer: Ben
bid: Simple Hearts
trump: hearts
points: {declarer: 20, defenders: 70}
"""
"""(A Simple Hearts: a plain Simple is always uncontested at the tournament, and unplayed.)"""


@pytest.mark.parametrize(
    ("end", "cell", "transfer"),
    [
        (  # Carla's silent Ulti made (red: 4): Ben pays her 4, and so does Anna
            "tricks: {Ben: 1, Carla: 9}\nlast_trick: {winner: Carla, trump_seven: Carla}\n",
            "Carla -4, Anna → Carla 4",
            {"payer": 0, "payee": 2, "amount": 4},
        ),
        (  # beaten by Anna: Carla pays Ben 4 × 2, and Anna too
            "tricks: {Ben: 1, Carla: 8, Anna: 1}\nlast_trick: {winner: Anna, trump_seven: Carla}\n",
            "Carla +8, Carla → Anna 8",
            {"payer": 2, "payee": 0, "amount": 8},
        ),
    ],
)
def test_score_table_shows_who_pays_whom_against_everyone(
    tmp_path: Path, end: str, cell: str, transfer: dict[str, int]
) -> None:
    (tmp_path / "hand.yaml").write_text(CARLAS_SEVEN + end, "utf-8")
    ulti = run_in(tmp_path)
    done = ulti("score", "hand.yaml")
    assert done.returncode == 0, done.stderr
    (row,) = [x for x in done.stdout.splitlines() if "Silent Ulti" in x]
    assert row.rstrip().rstrip("│").rstrip().endswith(cell)
    assert "Anna 0" not in row
    data = json.loads(ulti("score", "hand.yaml", "--json").stdout)
    (line,) = [x for x in data["settlement"]["lines"] if x["what"] == "silent_ulti"]
    assert line["transfers"] == [transfer]
    assert sum(data["payments"].values()) == 0


# --------------------------------------------------------------------------- --save-records


def test_save_records_into_a_dangling_symlink_says_so(tmp_path: Path) -> None:
    (tmp_path / "out2").symlink_to(tmp_path / "gone")
    ulti = run_in(tmp_path)
    for target in ("out2", "out2/deeper"):
        done = ulti("simulate", "--hands", "1", "--save-records", target)
        assert done.returncode == 1
        assert "File exists" not in done.stderr
        assert done.stderr.startswith("ulti: error: out2 is a dangling symlink (it points to ")
        assert "remove it, create its target, or choose another folder" in done.stderr
    assert not (tmp_path / "gone").exists(), "nothing was created through the link"


def test_the_records_line_names_what_was_saved(tmp_path: Path) -> None:
    ulti = run_in(tmp_path)
    one = ulti("simulate", "--hands", "1", "--save-records", "one")
    assert one.returncode == 0, one.stderr
    assert "Records: one/hand-0001.yaml\n" in one.stdout
    assert [p.name for p in (tmp_path / "one").iterdir()] == ["hand-0001.yaml"]
    three = ulti("simulate", "--hands", "3", "--save-records", "three")
    assert "Records: three/hand-0001.yaml ... hand-0003.yaml\n" in three.stdout


def _read_only_folder(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """``folder`` as on a read-only mount (root writes wherever the mode says no): no
    file can be made in it."""
    real_open = os.open

    def refuse(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & os.O_CREAT and Path(path).parent.resolve() == folder.resolve():
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)


@pytest.mark.parametrize(
    "command",
    [
        ["play", "--auto", "--hands", "2", "--seed", "1"],
        ["simulate", "--hands", "2", "--quiet"],
    ],
)
def test_a_records_folder_nothing_can_be_saved_in_is_refused_before_the_first_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    """`ulti play` played a whole hand before it found out, and ended the session."""
    (tmp_path / "recs").mkdir()
    _read_only_folder(monkeypatch, tmp_path / "recs")
    done = run_in(tmp_path)(*command, "--save-records", "recs")
    assert done.returncode == 1
    assert done.stderr == "ulti: error: recs: cannot write in this folder: Read-only file system\n"
    assert "Hand 1" not in done.stdout
    assert list((tmp_path / "recs").iterdir()) == []


def test_a_record_that_cannot_be_saved_mid_session_is_said_and_the_session_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills up during a session: each hand says its record was not saved,
    and every hand is still played and totalled."""
    ulti = run_in(tmp_path)
    (tmp_path / "recs").mkdir()

    def disk_full(path: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(safe_files, "create", disk_full)
    done = ulti("play", "--auto", "--hands", "3", "--seed", "1", "--save-records", "recs")
    assert done.returncode == 0, done.stderr
    lost = "The record of this hand was not saved: recs/hand-0001.yaml: cannot write the file: "
    assert done.stdout.count(lost + "No space left on device") == 3
    assert "Hand 3" in done.stdout and "Record:" not in done.stdout
    args = ("play", "--auto", "--hands", "1", "--seed", "1", "--save-records", "recs")
    saying = {
        "hu": ("A leosztás jegyzőkönyvét nem sikerült menteni", "a fájl nem írható"),
        "de": (
            "Das Protokoll dieses Spiels wurde nicht gespeichert",
            "die Datei kann nicht geschrieben werden",
        ),
    }
    for lang, (lost, why) in saying.items():
        said = ulti(*args, "--lang", lang)
        assert said.returncode == 0, said.stderr
        assert f"{lost}: recs/hand-0001.yaml: {why}: " in said.stdout, said.stdout
    monkeypatch.undo()
    kept = ulti("play", "--auto", "--hands", "3", "--seed", "1", "--save-records", "recs")
    assert kept.stdout.count("Record: recs/hand-000") == 3


def test_a_plot_file_that_cannot_be_replaced_is_refused_before_the_study(tmp_path: Path) -> None:
    """It was refused after every hand had been played (hours, in a big study)."""
    (tmp_path / "p.png").write_bytes(b"old")
    os.link(tmp_path / "p.png", tmp_path / "keep.png")
    done = run_in(tmp_path)("simulate", "--hands", "2", "--plot", "p.png")
    assert done.returncode == 1
    assert done.stderr.startswith("ulti: error: --plot p.png: the file has 2 hard links;")
    assert done.stdout == ""
    assert (tmp_path / "p.png").read_bytes() == b"old"


# --------------------------------------------------------------------------- docs/plugins.md

DOC = Path(__file__).resolve().parent.parent / "docs" / "plugins.md"
SMALL = """\
name: small
title: Small club
ranking: parti_last
kontra:
  levels: [{names: {hu: kontra, en: Kontra}, multiplier: 2, by: defenders}]
contracts:
  parti: {kind: parti, names: {hu: parti, en: Simple}, value: 1}
  ulti: {kind: ulti, names: {hu: ulti, en: Ulti}, value: 4}
  betli: {kind: betli, names: {hu: betli, en: Betli}, value: 5}
ladder:
  - {id: parti, components: [parti], names: {hu: parti, en: Simple}}
  - {id: betli, components: [betli], names: {hu: betli, en: Betli}}
  - {id: ulti, components: [parti, ulti], names: {hu: ulti, en: Ulti}}
"""


def test_the_ranking_rule_example_of_the_plugin_doc(tmp_path: Path) -> None:
    """The doc's rule, as a plugin module: registered, it orders a ladder and
    `ulti ladder` names it."""
    block = re.search(
        r"<!-- example: ranking-rule -->\n```python\n(.*?)```", DOC.read_text("utf-8"), re.S
    )
    assert block is not None
    module = types.ModuleType("parti_last_example")
    exec(compile(block[1], "docs/plugins.md", "exec"), module.__dict__)
    manager = plugins.new_manager(autoload=False)
    manager.register(module, name="parti-last")
    (tmp_path / "small.yaml").write_text(SMALL, "utf-8")
    plugins.reset(manager)
    try:
        ruleset = load_ruleset(str(tmp_path / "small.yaml"))
        ranks = {bid.id: bid.rank for bid in ruleset.ladder}
        # Ulti and Betli both total 5; the Ulti carries the implied Parti, so it ranks lower.
        assert ranks["parti"] < ranks["ulti"] < ranks["betli"]
        done = run_in(tmp_path)("ladder", "small.yaml")
        assert done.returncode == 0, done.stderr
        assert "ranking: parti_last — by total; at an equal total the implied Parti" in " ".join(
            done.stdout.split()
        )
    finally:
        plugins.reset()


def test_plugins_type_their_hooks_with_public_names() -> None:
    """What docs/plugins.md imports from ulti_rules for a ranking rule and a silent bonus."""
    from ulti_rules.ruleset.ranking import RankedBid
    from ulti_rules.ruleset.schema import SilentBonus

    assert ulti_rules.RankedBid is RankedBid and "RankedBid" in ulti_rules.__all__
    assert ulti_rules.SilentBonus is SilentBonus and "SilentBonus" in ulti_rules.__all__
