"""`ulti rulesets / show / check / ladder / schema`, run as a person runs them.

Most tests go through the installed entry point in a subprocess (the ``ulti``
fixture), so the console script, the plugin entry point and the exit codes are
what is tested. A few in-process tests pin the shared error handler.
"""

from __future__ import annotations

import errno
import importlib.metadata
import json
import re
import subprocess
import sys
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any, Union, get_args, get_origin

import click
import pytest
import yaml
from click.testing import CliRunner
from pydantic import BaseModel
from ulti_rules import console, load_ruleset
from ulti_rules.cli import COMMANDS, main
from ulti_rules.cli.common import DEBUG_ENV, EXIT_INTERRUPTED, UltiGroup
from ulti_rules.errors import Problem, RulesetError, UltiError
from ulti_rules.plugins import get_registry
from ulti_rules.ruleset.schema import Names, Titles, ruleset_model

from cli_in_process import run_in

RunUlti = Callable[..., subprocess.CompletedProcess[str]]
BOX = "│"


def table_rows(text: str) -> list[list[str]]:
    """The body rows of a rich table printed without a terminal."""
    return [
        [cell.strip() for cell in line.strip().strip(BOX).split(BOX)]
        for line in text.splitlines()
        if line.startswith(BOX)
    ]


def ok(result: Any) -> Any:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


# --------------------------------------------------------------------------- ulti rulesets


def test_rulesets_lists_the_five_bundled(ulti: RunUlti, bundled_names: tuple[str, ...]) -> None:
    result = ok(ulti("rulesets"))
    rows = table_rows(result.stdout)
    assert sorted(row[0] for row in rows) == sorted(bundled_names)
    for name, title, origin, path in rows:
        assert origin == "bundled"
        assert title
        assert Path(path).name == f"{name}.yaml"
        assert Path(path).is_file()
    assert result.stderr == ""


def test_rulesets_shows_user_files_and_notes_shadowing(
    ulti: RunUlti, sealed_user_folders: Path
) -> None:
    (sealed_user_folders / "club.yaml").write_text(
        "name: club\ntitle: Our club\nextends: wikipedia\n", encoding="utf-8"
    )
    (sealed_user_folders / "wikipedia.yaml").write_text(
        "name: wikipedia\ntitle: Wikipedia as we play it\nextends: wikipedia\n", encoding="utf-8"
    )
    result = ok(ulti("rulesets"))
    rows = {row[0]: row for row in table_rows(result.stdout)}
    assert rows["club"][1:] == ["Our club", "user", str(sealed_user_folders / "club.yaml")]
    assert rows["wikipedia"][1:] == [
        "Wikipedia as we play it",
        "user",
        str(sealed_user_folders / "wikipedia.yaml"),
    ]
    notes = [line for line in result.stderr.splitlines() if line.startswith("ulti: note:")]
    assert len(notes) == 1
    assert str(sealed_user_folders / "wikipedia.yaml") in notes[0]
    assert "shadows" in notes[0]
    assert notes[0].rstrip().endswith("the name 'wikipedia' means the user file")
    # The shadowing file extends the ruleset it hides, and still loads.
    assert len(json.loads(ok(ulti("ladder", "wikipedia", "--json")).stdout)) == 54


# --------------------------------------------------------------------------- ulti ladder


@pytest.fixture
def wikipedia_rows(ulti: RunUlti) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(ok(ulti("ladder", "wikipedia", "--json")).stdout)
    return rows


def test_ladder_json_has_54_bids_on_42_ranks(wikipedia_rows: list[dict[str, Any]]) -> None:
    assert len(wikipedia_rows) == 54
    assert len({row["rank"] for row in wikipedia_rows}) == 42
    ranks = [row["rank"] for row in wikipedia_rows]
    assert ranks == sorted(ranks)
    for row in wikipedia_rows:
        assert {"rank", "value", "components", "red", "open", "names"} <= row.keys()
        assert isinstance(row["red"], bool)
        assert isinstance(row["open"], bool)
        assert set(row["names"]) == {"hu", "en", "de"}
        assert all(isinstance(name, str) and name for name in row["names"].values())
        assert row["components"]
        for component in row["components"]:
            assert set(component) == {"id", "value"}
        assert sum(c["value"] for c in row["components"]) == row["value"]


def test_ladder_table_shows_every_bid_untruncated(
    ulti: RunUlti, wikipedia_rows: list[dict[str, Any]]
) -> None:
    result = ok(ulti("ladder", "wikipedia"))
    rows = table_rows(result.stdout)
    assert len(rows) == 54
    assert len({row[0] for row in rows}) == 42
    for shown, bid in zip(rows, wikipedia_rows, strict=True):
        rank, value, components, name, _silent, trump = shown
        assert int(rank) == bid["rank"]
        assert int(value) == bid["value"]
        assert components == "+".join(str(c["value"]) for c in bid["components"])
        assert name == bid["names"]["en"]
        assert (trump == "no trump") == (bid["trump"] == "none")
    assert "54 bids in 42 ranks" in result.stdout


def test_ladder_in_hungarian(ulti: RunUlti, wikipedia_rows: list[dict[str, Any]]) -> None:
    rows = table_rows(ok(ulti("ladder", "wikipedia", "--lang", "hu")).stdout)
    assert [row[3] for row in rows] == [bid["names"]["hu"] for bid in wikipedia_rows]
    assert any("csendes" in row[4] for row in rows)  # silent bonuses by their Hungarian names
    stdout = ok(ulti("ladder", "wikipedia", "--lang", "hu")).stdout
    assert "Bemondás" in stdout and "Adu" in stdout and "54 bemondás, 42 rangon" in stdout
    trumps = {row[5] for row in rows}
    assert trumps == {"választott szín", "piros", "színtelen"}
    as_json = json.loads(ok(ulti("ladder", "wikipedia", "--lang", "hu", "--json")).stdout)
    assert [bid["name"] for bid in as_json] == [bid["names"]["hu"] for bid in wikipedia_rows]


def test_ladder_of_a_club_file_by_path(ulti: RunUlti, tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text(docs_example(), encoding="utf-8")
    rows = json.loads(ok(ulti("ladder", "./club.yaml", "--json")).stdout)
    assert len(rows) == 54


@pytest.mark.parametrize("name", ["tournament", "older-20-100", "four-player", "two-round-auction"])
def test_every_bundled_ladder_prints(ulti: RunUlti, name: str) -> None:
    rows = json.loads(ok(ulti("ladder", name, "--json")).stdout)
    table = table_rows(ok(ulti("ladder", name)).stdout)
    assert len(table) == len(rows) > 0


# --------------------------------------------------------------------------- ulti show


def test_show_prints_the_file_as_written(ulti: RunUlti, repo_root: Path) -> None:
    for name in ("wikipedia", "four-player"):
        shown = ok(ulti("show", name)).stdout
        assert shown == (repo_root / "rulesets" / f"{name}.yaml").read_text(encoding="utf-8")


def test_show_resolved_merges_the_variant_onto_its_base(ulti: RunUlti, tmp_path: Path) -> None:
    raw = yaml.safe_load(ok(ulti("show", "four-player")).stdout)
    base = yaml.safe_load(ok(ulti("show", "--resolved", "wikipedia")).stdout)
    text = ok(ulti("show", "--resolved", "four-player")).stdout
    resolved = yaml.safe_load(text)
    assert raw["extends"] == "wikipedia"
    assert "extends" not in resolved
    assert resolved["name"] == "four-player"
    assert resolved["players"] == {**base["players"], **raw["players"]}
    assert resolved["players"] != base["players"]
    assert resolved["ladder"] == base["ladder"]
    assert resolved["contracts"] == base["contracts"]
    # The merged result is a complete ruleset on its own.
    (tmp_path / "merged.yaml").write_text(text, encoding="utf-8")
    assert ok(ulti("check", "merged.yaml")).stdout == "1 file checked: 1 ok\n"


def test_show_keeps_non_ascii_readable(ulti: RunUlti) -> None:
    assert "négy ász" in ok(ulti("show", "--resolved", "wikipedia")).stdout


# --------------------------------------------------------------------------- ulti check


TINY = """\
name: tiny
title: Tiny
kontra:
  levels:
    - {names: {hu: Kontra, en: Kontra}, multiplier: 2, by: defenders}
contracts:
  parti: {kind: parti, names: {hu: Parti, en: Simple}, value: 1}
  ulti: {kind: ulti, names: {hu: Ulti, en: Ulti}, value: 4}
ladder:
  - {id: parti, rank: 1, value: 1, components: [parti], names: {hu: Parti, en: Simple}}
  - {id: ulti, rank: 2, value: 6, components: [parti, ulti], names: {hu: Ulti, en: Ulti}}
"""

BROKEN = {
    "misspelt_key": (
        "name: club\ntitle: Club\nextends: wikipedia\nsimple:\n  give_up_alowed: true\n",
        "club.yaml:5:3: simple.give_up_alowed: unknown key 'give_up_alowed' "
        "(did you mean 'give_up_allowed'?)",
    ),
    "wrong_type": (
        "name: club\ntitle: Club\nextends: wikipedia\ncontracts:\n  ulti:\n    value: four\n",
        "club.yaml:6:5: contracts.ulti.value: should be a whole number, not text ('four')",
    ),
    "total_does_not_add_up": (
        TINY,
        "club.yaml:11:25: ladder.1.value: bid 'ulti' has value 6, but its components sum to "
        "1 + 4 = 5",
    ),
    "unknown_kind": (
        "name: club\ntitle: Club\nextends: wikipedia\ncontracts:\n  mystery:\n"
        "    kind: ulty\n    names: {hu: x, en: x}\n    value: 3\n",
        "club.yaml:6:5: contracts.mystery.kind: unknown contract kind 'ulty' "
        "(did you mean 'ulti'?); installed kinds: ",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_check_reports_the_problem_with_its_position(
    ulti: RunUlti, tmp_path: Path, case: str
) -> None:
    text, expected = BROKEN[case]
    (tmp_path / "club.yaml").write_text(text, encoding="utf-8")
    result = ulti("check", "club.yaml")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 2, result.stdout
    assert lines[0].startswith(expected)
    assert lines[1] == "1 file checked: 0 ok, 1 with 1 problem"
    assert result.stderr == ""


def test_check_reports_every_problem_of_a_file(ulti: RunUlti, tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: wikipedia\n"
        "simple:\n  give_up_alowed: true\n"
        "contracts:\n  ulti:\n    value: four\n"
        "  mystery:\n    kind: ulty\n    names: {hu: x, en: x}\n    value: 3\n",
        encoding="utf-8",
    )
    result = ulti("check", "club.yaml")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert [re.match(r"club\.yaml:(\d+):(\d+): (\S+):", line).groups() for line in lines[:-1]] == [  # type: ignore[union-attr]
        ("5", "3", "simple.give_up_alowed"),
        ("8", "5", "contracts.ulti.value"),
        ("10", "5", "contracts.mystery.kind"),
    ]
    assert lines[-1] == "1 file checked: 0 ok, 1 with 3 problems"


def test_check_reports_an_extends_cycle_with_its_chain(ulti: RunUlti, tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("name: a\ntitle: A\nextends: ./b.yaml\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("name: b\ntitle: B\nextends: ./a.yaml\n", encoding="utf-8")
    result = ulti("check", "a.yaml")
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "a.yaml:3:10: extends: cycle a.yaml -> b.yaml -> a.yaml",
        "1 file checked: 0 ok, 1 with 1 problem",
    ]


def test_check_summarises_several_files(ulti: RunUlti, tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(docs_example(), encoding="utf-8")
    (tmp_path / "bad.yaml").write_text(TINY, encoding="utf-8")
    result = ulti("check", "good.yaml", "bad.yaml", "missing.yaml")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("bad.yaml:11:25: ladder.1.value:")
    assert lines[1] == "missing.yaml: no such file"
    assert lines[2] == "3 files checked: 1 ok, 2 with 2 problems"


def test_check_accepts_a_good_club_file(ulti: RunUlti, tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text(docs_example(), encoding="utf-8")
    result = ok(ulti("check", str(tmp_path / "club.yaml")))
    assert result.stdout == "1 file checked: 1 ok\n"
    assert result.stderr == ""


def test_the_ladder_caption_is_not_wrapped_in_a_pipe(ulti: RunUlti) -> None:
    """docs/cli.md: piped, nothing is cut or wrapped, so that grep sees every line whole."""
    lines = ulti("ladder", "tournament").stdout.splitlines()
    assert lines[-1].startswith("ranking: value — by total value alone;")
    assert lines[-1].endswith("whoever bids first keeps it (SN's competition rule)")
    # the title, longer than the table, was cut in two ("... Rekontra" / "only (tournament)")
    title = load_ruleset("tournament").title_in("en")
    assert lines[0] == f"{title} (tournament)"


def test_check_by_name_beside_a_folder_of_that_name(ulti: RunUlti, tmp_path: Path) -> None:
    """A club keeps club/club.yaml in a rulesets folder: `ulti check club` run beside the
    folder checks the ruleset 'club', as `ulti ladder club` shows it, not the folder."""
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "club.yaml").write_text("name: club\ntitle: c\nextends: wikipedia\n", "utf-8")
    done = ulti("check", "club", env={"ULTI_RULES_PATH": str(folder)})
    assert (done.returncode, done.stdout) == (0, "1 file checked: 1 ok\n")
    (tmp_path / "plain").write_text("name: plain\ntitle: p\nextends: wikipedia\n", "utf-8")
    assert ulti("check", "plain").stdout == "1 file checked: 1 ok\n"  # a file here: a path


def test_check_accepts_every_bundled_file(ulti: RunUlti, repo_root: Path) -> None:
    files = sorted(str(p) for p in (repo_root / "rulesets").glob("*.yaml"))
    result = ok(ulti("check", *files))
    assert result.stdout == f"{len(files)} files checked: {len(files)} ok\n"


# --------------------------------------------------------------------------- errors and usage


def test_missing_file_is_a_clear_user_error(ulti: RunUlti) -> None:
    for command in (["show"], ["show", "--resolved"], ["ladder"]):
        result = ulti(*command, "nope.yaml")
        assert result.returncode == 1
        assert result.stdout == ""
        assert result.stderr == "ulti: error: nope.yaml: no such file\n"


def test_show_refuses_what_every_reader_refuses(ulti: RunUlti, tmp_path: Path) -> None:
    """`show` printed a file as written whatever its size (20 MB of it): it keeps the
    bounds the other readers keep, as `show --resolved` does."""
    (tmp_path / "big.yaml").write_text("# x\n" * 300_000, encoding="utf-8")
    (tmp_path / "latin1.yaml").write_bytes(b"name: club\ntitle: caf\xe9\n")
    for command in (["show"], ["show", "--resolved"]):
        big = ulti(*command, str(tmp_path / "big.yaml"))
        assert big.returncode == 1 and big.stdout == ""
        assert big.stderr.endswith(
            "big.yaml: the file is 1.1 MiB; files over 1.0 MiB are not read\n"
        )
        latin1 = ulti(*command, str(tmp_path / "latin1.yaml"))
        assert latin1.returncode == 1 and latin1.stdout == ""
        assert latin1.stderr.endswith("latin1.yaml:2:1: not UTF-8 text (byte 0xe9)\n")


def test_unknown_name_suggests_the_right_one(ulti: RunUlti) -> None:
    result = ulti("ladder", "wikipeda")
    assert result.returncode == 1
    assert result.stderr.startswith("ulti: error: wikipeda: no ruleset named 'wikipeda'")
    assert "did you mean 'wikipedia'?" in result.stderr


def test_a_broken_ruleset_stops_ladder_with_every_problem(ulti: RunUlti, tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: wikipedia\nsimple: {give_up_alowed: true}\n"
        "contracts: {ulti: {value: four}}\n",
        encoding="utf-8",
    )
    result = ulti("ladder", "club.yaml")
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0].startswith("club.yaml:4:10: simple.give_up_alowed:")
    assert lines[1].startswith("club.yaml:5:20: contracts.ulti.value:")
    assert lines[2] == "ulti: error: 2 problems in the ruleset"


@pytest.mark.parametrize(
    "args",
    [
        ["ladder", "wikipedia", "--lang", "fr"],
        ["ladder"],
        ["show"],
        ["check"],
        ["frobnicate"],
        ["rulesets", "--colour"],
    ],
)
def test_usage_errors_exit_2(ulti: RunUlti, args: list[str]) -> None:
    result = ulti(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Usage: ulti" in result.stderr


def test_version(ulti: RunUlti) -> None:
    version = importlib.metadata.version("ulti-rules")
    assert ok(ulti("--version")).stdout == f"ulti {version}\n"


def test_help_lists_every_command(ulti: RunUlti) -> None:
    text = ok(ulti("--help")).stdout
    for name in ("rulesets", "show", "check", "ladder", "schema"):
        assert re.search(rf"^\s+{name}\s+\S", text, re.MULTILINE), name
        assert ok(ulti(name, "--help")).stdout.startswith(f"Usage: ulti {name}")


def test_every_command_and_option_has_help() -> None:
    def commands(group: click.Group) -> Iterator[click.Command]:
        ctx = click.Context(group)
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            assert command is not None, name
            yield command
            if isinstance(command, click.Group):
                yield from commands(command)

    for command in commands(main):
        assert command.help, command.name
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.help, f"{command.name} {param.name}"


# --------------------------------------------------------------------------- ulti schema


def test_schema_is_json_schema_with_plugin_kinds(ulti: RunUlti) -> None:
    text = ok(ulti("schema")).stdout
    schema = json.loads(text)
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert {"name", "title", "extends", "kontra", "contracts", "ladder"} <= set(
        schema["properties"]
    )
    assert set(schema["required"]) >= {"name", "title", "kontra", "contracts", "ladder"}
    assert '"four_aces"' in text  # the plugin's kind is part of the catalogue's union


def test_every_setting_in_the_schema_is_described(ulti: RunUlti) -> None:
    """An editor shows each key's description on hover: every property of every model
    has one, a kind's restated ``kind`` and a section block included."""
    schema = json.loads(ok(ulti("schema")).stdout)
    bare = []

    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            for key, prop in node.get("properties", {}).items():
                if not (isinstance(prop, dict) and str(prop.get("description", "")).strip()):
                    bare.append(f"{where}.{key}")
            for key, value in node.items():
                walk(value, f"{where}.{key}" if key != "properties" else where)
        elif isinstance(node, list):
            for item in node:
                walk(item, where)

    walk(schema, "")
    assert bare == []


# --------------------------------------------------------------------------- the error handler


def _group_raising(exc: BaseException) -> click.Group:
    group = UltiGroup(name="ulti")

    @group.command()
    def boom() -> None:
        """Raise."""
        raise exc

    return group


@pytest.mark.parametrize(
    ("exc", "stderr"),
    [
        (UltiError("the hand is over"), "ulti: error: the hand is over\n"),
        (
            OSError(errno.EACCES, "Permission denied", "club.yaml"),
            "ulti: error: club.yaml: Permission denied\n",
        ),
        (
            RulesetError(
                [Problem("a.yaml", 1, 2, "x", "bad"), Problem("a.yaml", 3, 4, "y", "worse")]
            ),
            "a.yaml:1:2: x: bad\na.yaml:3:4: y: worse\nulti: error: 2 problems in the ruleset\n",
        ),
        (
            RulesetError([Problem("a.yaml", None, None, "", "no such file")]),
            "ulti: error: a.yaml: no such file\n",
        ),
    ],
)
def test_errors_become_one_message_and_exit_1(
    exc: Exception, stderr: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    result = CliRunner().invoke(_group_raising(exc), ["boom"])
    assert result.exit_code == 1
    assert result.stderr == stderr
    assert result.stdout == ""


def test_an_unexpected_exception_is_one_line_unless_debugging(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    group = _group_raising(ZeroDivisionError("division by zero"))
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    result = CliRunner().invoke(group, ["boom"])
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "ulti: error: internal error: ZeroDivisionError: division by zero"
    )
    assert len(result.stderr.splitlines()) == 1
    monkeypatch.setenv(DEBUG_ENV, "1")
    result = CliRunner().invoke(group, ["boom"])
    assert isinstance(result.exception, ZeroDivisionError)


def _set_name_interrupted() -> RuntimeError:
    """What Python raises when Ctrl-C comes while a class is made (a pydantic model
    imported on first use): the KeyboardInterrupt as the cause of a RuntimeError."""
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as inner:
            raise RuntimeError("Error calling __set_name__ on '_alternate' in 'Kontra'") from inner
    except RuntimeError as outer:
        return outer


@pytest.mark.parametrize("debugging", [False, True])
def test_ctrl_c_inside_another_error_is_ctrl_c(
    monkeypatch: pytest.MonkeyPatch, debugging: bool
) -> None:
    """It was an "internal error, please report it" with status 1 (1 run in 80 of a
    Ctrl-C at a random moment, found by a file-safety review)."""
    if debugging:
        monkeypatch.setenv(DEBUG_ENV, "1")
    else:
        monkeypatch.delenv(DEBUG_ENV, raising=False)
    result = CliRunner().invoke(_group_raising(_set_name_interrupted()), ["boom"])
    assert result.exit_code == EXIT_INTERRUPTED
    assert result.stderr == "\nAborted!\n"


def test_ctrl_c_while_the_command_is_imported_is_no_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The console script imported the whole command before anything could answer a
    Ctrl-C: a traceback for the first tenth of a second of every start."""

    class Importing(types.ModuleType):
        def __getattr__(self, name: str) -> object:
            raise KeyboardInterrupt

    monkeypatch.setitem(sys.modules, "ulti_rules.cli", Importing("ulti_rules.cli"))
    with pytest.raises(SystemExit) as ended:
        console.main()
    assert ended.value.code == EXIT_INTERRUPTED
    assert capsys.readouterr().err == "\nAborted!\n"


def test_check_notes_what_a_club_file_removes(tmp_path: Path) -> None:
    """`ulti:` with nothing under it is null: it removed Ulti without a word, while the
    docs said `ulti check` would name the ranks left (found by a fault review)."""
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: wikipedia\nladder:\n  ulti:\n"
        "silent_bonuses:\n  silent_durchmars: null\n",
        encoding="utf-8",
    )
    done = run_in(tmp_path)("check", "club.yaml")
    assert (done.returncode, done.stdout) == (0, "1 file checked: 1 ok\n")
    assert done.stderr == (
        "ulti: note: club.yaml:5:3: ladder.ulti: removes the bid 'ulti' (a key left without "
        "a value is null too)\n"
        "ulti: note: club.yaml:7:3: silent_bonuses.silent_durchmars: removes the silent bonus "
        "'silent_durchmars' (a key left without a value is null too)\n"
    )


IDLE = (
    "ulti: note: club.yaml:{line}:3: {path}: changes nothing under these rules, which read "
    "the same without this line: delete it, or change the rule that leaves it unused\n"
)


def test_check_notes_a_setting_that_changes_nothing_under_the_file_s_rules(
    tmp_path: Path,
) -> None:
    """A cost of giving up where nobody may give up, a kontra window where kontra is not
    played: `ulti diff` says such a setting "changes nothing under these rules", and
    `ulti check` says so at the line, without failing the file. A setting that changes
    the play, and one that restates what it inherits, get no note."""
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: wikipedia\n"
        "simple:\n  give_up_cost: 3\n  uncontested_played_out: false\n"
        "kontra:\n  max_level: 0\n  window: end_trick1\n"
        "marriages:\n  require_trick: true\n",
        encoding="utf-8",
    )
    done = run_in(tmp_path)("check", "club.yaml")
    assert (done.returncode, done.stdout) == (0, "1 file checked: 1 ok\n")
    assert done.stderr == IDLE.format(line=5, path="simple.give_up_cost") + IDLE.format(
        line=9, path="kontra.window"
    )


def test_check_notes_a_move_that_changes_no_rank(tmp_path: Path) -> None:
    """Under ranking: value the listed order ranks nothing: `ulti diff` said the file
    plays the same, and `ulti check` had no word for the line (a review). Under
    value_then_listed the same move breaks a tie of values, and is no note."""
    move = "ladder:\n  betli:\n    before: ulti\n"
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: tournament\n" + move, encoding="utf-8"
    )
    (tmp_path / "tie.yaml").write_text(
        "name: tie\ntitle: Tie\nextends: tournament\nranking: value_then_listed\n" + move,
        encoding="utf-8",
    )
    ulti = run_in(tmp_path)
    done = ulti("check", "club.yaml", "tie.yaml")
    assert (done.returncode, done.stdout) == (0, "2 files checked: 2 ok\n")
    assert done.stderr == (
        "ulti: note: club.yaml:6:5: ladder.betli.before: lists the bid elsewhere, which "
        "changes no bid's rank under ranking: value: delete it, or change the rule that "
        "leaves it unused\n"
    )


def test_check_notes_only_what_the_file_itself_writes(tmp_path: Path) -> None:
    """The base turns kontra off and writes a window: checking the club notes the club's
    own kontra lines, not the base's (the base's check notes its own)."""
    (tmp_path / "base.yaml").write_text(
        "title: Base\nextends: wikipedia\nkontra:\n  max_level: 0\n  window: end_trick1\n",
        encoding="utf-8",
    )
    (tmp_path / "club.yaml").write_text(
        "title: Club\nextends: ./base.yaml\nkontra:\n  per_defender_in_trump: true\n",
        encoding="utf-8",
    )
    ulti = run_in(tmp_path)
    done = ulti("check", "club.yaml")
    assert (done.returncode, done.stderr) == (
        0,
        IDLE.format(line=4, path="kontra.per_defender_in_trump"),
    )
    base = ulti("check", "base.yaml")
    assert base.stderr == IDLE.format(line=5, path="kontra.window").replace(
        "club.yaml", "base.yaml"
    )


def test_check_notes_nothing_for_a_file_with_a_problem(tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text(
        "title: Club\nextends: wikipedia\nsimple:\n  give_up_cost: 3\n  give_up: true\n",
        encoding="utf-8",
    )
    done = run_in(tmp_path)("check", "club.yaml")
    assert done.returncode == 1
    assert done.stdout.startswith("club.yaml:5:3: simple.give_up: unknown key 'give_up'")
    assert done.stderr == ""


def test_ctrl_c_in_any_command_exits_130_not_as_a_user_error() -> None:
    """Click says "Aborted!" and exits 1, the status of a mistake in the input; a script
    running `ulti` tells an interrupt by the shell's 130 (128 + SIGINT), as `ulti play`
    has always ended on Ctrl-C."""
    result = CliRunner().invoke(_group_raising(KeyboardInterrupt()), ["boom"])
    assert result.exit_code == 130
    assert result.stderr == "\nAborted!\n"
    assert result.stdout == ""


def test_main_uses_the_error_handler() -> None:
    assert isinstance(main, UltiGroup)


# --------------------------------------------------------------------------- the docs


DOCS = Path(__file__).resolve().parent.parent / "docs"


def docs_example() -> str:
    """The example club file of docs/rulesets.md, exactly as printed there."""
    text = (DOCS / "rulesets.md").read_text(encoding="utf-8")
    section = text.split("## An example club file", 1)[1]
    match = re.search(r"```yaml\n(.*?)```", section, re.DOTALL)
    assert match, "docs/rulesets.md lost its example club file"
    return match.group(1)


def _leaves(data: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for key, value in data.items():
            out.update(_leaves(value, f"{prefix}{key}."))
        return out
    return {prefix.rstrip("."): data}


def test_docs_example_changes_exactly_three_settings(ulti: RunUlti, tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text(docs_example(), encoding="utf-8")
    assert ok(ulti("check", "club.yaml")).stdout == "1 file checked: 1 ok\n"
    club = _leaves(yaml.safe_load(ok(ulti("show", "--resolved", "club.yaml")).stdout))
    base = _leaves(yaml.safe_load(ok(ulti("show", "--resolved", "wikipedia")).stdout))
    changed = {key for key in club.keys() | base.keys() if club.get(key) != base.get(key)}
    named = {key for key in changed if key == "name" or key.split(".")[0] == "title"}
    assert changed - named == {
        "kontra.max_level",
        "marriages.require_trick",
        "contracts.ulti.failure_penalty",
    }


def _models_in(tp: Any) -> list[type[BaseModel]]:
    origin = get_origin(tp)
    if origin is Annotated:
        return _models_in(get_args(tp)[0])
    if origin in (Union, types.UnionType):
        return [model for arg in get_args(tp) for model in _models_in(arg)]
    return [tp] if isinstance(tp, type) and issubclass(tp, BaseModel) else []


def _field_paths(model: type[BaseModel], prefix: str = "") -> Iterator[str]:
    """Every settable key, spelt as docs/rulesets.md spells it (``ladder[].rank``)."""
    for name, field in model.model_fields.items():
        path = prefix + name
        yield path
        tp = field.annotation
        origin = get_origin(tp)
        if origin is list:
            inner, joint = get_args(tp)[0], "[]."
        elif origin in (dict, typing.Mapping, Mapping):
            inner, joint = get_args(tp)[1], ".<id>."
        else:
            inner, joint = tp, "."
        for sub in _models_in(inner):
            if sub not in (Names, Titles):  # one setting each, documented once
                yield from _field_paths(sub, path + joint)


def test_docs_describe_every_ruleset_setting() -> None:
    text = (DOCS / "rulesets.md").read_text(encoding="utf-8")
    model = ruleset_model(get_registry().param_models())
    paths = set(_field_paths(model))
    assert "contracts.<id>.failure_penalty" in paths  # the walk reaches the kinds' settings
    missing = sorted(path for path in paths if f"`{path}`" not in text)
    assert not missing, f"docs/rulesets.md does not describe: {', '.join(missing)}"


def test_docs_cli_describes_every_command() -> None:
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert sum(c.target.startswith("rulesets:") for c in COMMANDS.values()) == 5
    for name in COMMANDS:
        assert f"## `ulti {name}" in text, name


def test_docs_plugins_quotes_the_four_aces_plugin_as_it_is(repo_root: Path) -> None:
    text = (DOCS / "plugins.md").read_text(encoding="utf-8")
    quoted = re.findall(r"```python\n(.*?)```", text, re.DOTALL)[:2]  # the kind, the entry
    assert len(quoted) == 2, "docs/plugins.md lost its Four Aces example"
    folder = repo_root / "plugins" / "ulti_four_aces"
    source = "".join((folder / f).read_text(encoding="utf-8") for f in ("kind.py", "__init__.py"))
    lines = [line for block in quoted for line in block.splitlines() if line.strip()]
    assert "class FourAces(ContractKind):" in lines
    position = 0
    for line in lines:
        found = source.find(line, position)
        assert found >= 0, f"docs/plugins.md quotes a line the plugin no longer has: {line!r}"
        position = found + len(line)


def test_the_ladder_s_ranking_rule_is_described_in_the_chosen_language(tmp_path: Path) -> None:
    """The caption's rule was the one English line of `ulti ladder --lang hu` (review)."""
    done = run_in(tmp_path)("ladder", "tournament", "--lang", "de")
    assert "allein nach dem Gesamtwert" in done.stdout
    assert "by total value" not in done.stdout


def test_ctrl_c_after_the_command_ended_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C during the interpreter's shutdown ended a finished command with status 130
    and no message: once the command has ended, the console script ignores it."""
    import signal

    ran: list[object] = []

    def command() -> None:
        ran.append(signal.getsignal(signal.SIGINT))
        ran.append(console.ends_the_process)
        raise SystemExit(0)

    fake = types.ModuleType("ulti_rules.cli")
    fake.main = command  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ulti_rules.cli", fake)
    monkeypatch.setattr(console, "ends_the_process", False)  # given back for the next test
    before = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit) as ended:
            console.main()
        assert ended.value.code == 0
        # while the command runs, Ctrl-C is answered as ever; the process ends with it
        assert ran == [before, True]
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)
