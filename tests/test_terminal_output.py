"""Names and titles from other people reach the terminal escaped, never as control codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from rich.table import Table
from ulti_rules.cli import main
from ulti_rules.cli.common import stdout_console
from ulti_rules.cli.terminal import json_text, printable

HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x9b1A\u202eZ"
"""Retitle the window, clear the screen, move the cursor (C1 CSI), reverse the text."""
SHOWN = "\\x1b]0;pwned\\x07\\x1b[2J\\x9b1A\\u202eZ"


def ulti(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args), env={"ULTI_DEBUG": "1"})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def assert_no_controls(text: str) -> None:
    for char in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert char not in text, repr(text)


def test_printable_escapes_controls_and_keeps_text() -> None:
    assert printable(HOSTILE) == SHOWN
    hidden = "\u200e\u200f\u061c\u2028\u2029\u200b\ufeff"
    assert printable(f"A{hidden}B") == "A\\u200e\\u200f\\u061c\\u2028\\u2029\\u200b\\ufeffB"
    assert printable("Ko\u200dcka") == "Ko\u200dcka"  # a joiner stays
    assert printable("Anna\tBen\nPiros Ász ♥") == "Anna\tBen\nPiros Ász ♥"
    # JSON stays valid and says the same thing
    assert json.loads(json_text({"name": HOSTILE})) == {"name": HOSTILE}
    assert_no_controls(json_text({"name": HOSTILE}))


def test_a_table_escapes_its_cells_but_keeps_rich_styling() -> None:
    console = stdout_console()
    table = Table(title=f"Session {HOSTILE}")
    table.add_column(HOSTILE)
    table.add_row(HOSTILE)
    with console.capture() as captured:
        console.print(table)
    text = captured.get()
    assert_no_controls(text)
    assert text.count(SHOWN.replace("\\x07", "")) == 3  # rich itself drops the bell


def yaml_string(text: str) -> str:
    """A YAML double-quoted scalar holding ``text`` (YAML cannot hold raw controls)."""
    return json.dumps(text)  # JSON strings are YAML double-quoted strings


@pytest.fixture
def hostile_club(sealed_user_folders: Path) -> Path:
    path = sealed_user_folders / "evil.yaml"
    path.write_text(
        f"name: evil\ntitle: {yaml_string('Club ' + HOSTILE)}\nextends: wikipedia\n",
        encoding="utf-8",
    )
    return path


def test_a_ruleset_title_is_escaped_in_rulesets_and_ladder(hostile_club: Path) -> None:
    for args in (["rulesets"], ["ladder", "evil"], ["ladder", "evil", "--json"]):
        result = ulti(*args)
        assert result.exit_code == 0, result.output
        assert_no_controls(result.output)
    assert "Club \\x1b]0;pwned" in ulti("rulesets").output


def test_player_names_are_escaped_in_score_and_ledger(tmp_path: Path) -> None:
    anna = "Anna" + HOSTILE
    sheet = tmp_path / "hand.yaml"
    sheet.write_text(
        "ruleset: wikipedia\n"
        f"players: [{yaml_string(anna)}, Ben, Carla]\n"
        f"declarer: {yaml_string(anna)}\n"
        "bid: Simple Hearts\ntrump: hearts\n"
        "points: {declarer: 50, defenders: 40}\n"
        f"tricks: {{{yaml_string(anna)}: 5, Ben: 3, Carla: 2}}\n"
        f"last_trick: {{winner: Ben}}\naces: [{yaml_string(anna)}, Ben]\n",
        encoding="utf-8",
    )
    for args in (["score", str(sheet)], ["score", str(sheet), "--json"]):
        result = ulti(*args)
        assert result.exit_code == 0, result.output
        assert_no_controls(result.output)
        assert "Anna" in result.output
    ledger = tmp_path / "session.json"
    players = f"{anna},B,C"
    result = ulti("ledger", "new", str(ledger), "--ruleset", "wikipedia", "--players", players)
    assert result.exit_code == 0, result.output
    assert_no_controls(result.output)
    assert SHOWN in result.output
    shown = ulti("ledger", "show", str(ledger))
    assert shown.exit_code == 0, shown.output
    assert_no_controls(shown.output)


def test_error_messages_escape_what_they_quote(tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    path.write_text(
        f"name: club\ntitle: t\nextends: wikipedia\n{yaml_string(HOSTILE)}: 1\n", encoding="utf-8"
    )
    result = ulti("check", str(path))
    assert result.exit_code == 1
    assert_no_controls(result.output)
    assert "unknown key" in result.output


FORGED = "Anna\nDealer: Mallory (seat 1)"
"""A name whose second line passes for a line of the program's own output."""


def test_a_name_or_title_with_a_line_break_is_refused_where_it_is_read(tmp_path: Path) -> None:
    """A newline is no control character to escape (every message has them), so a name
    that holds one printed a forged line of its own, as in ``ulti replay``: names and
    titles are one line, refused at the key that holds another."""
    sheet = tmp_path / "hand.yaml"
    sheet.write_text(
        f"ruleset: wikipedia\nplayers: [{yaml_string(FORGED)}, Ben, Carla]\n"
        "declarer: Ben\nbid: Simple\nuncontested: true\n",
        encoding="utf-8",
    )
    result = ulti("score", str(sheet))
    assert result.exit_code == 1
    assert f"{sheet}:2:11: players.0: must be one line; it holds a line break" in result.output
    assert "Mallory" not in result.output
    record = tmp_path / "recs"
    assert (
        ulti("simulate", "wikipedia", "--hands", "1", "--save-records", str(record)).exit_code == 0
    )
    saved = next(record.iterdir())
    text = saved.read_text("utf-8")
    saved.write_text(text.replace("players: [P1,", f"players: [{yaml_string(FORGED)},"), "utf-8")
    replayed = ulti("replay", str(saved))
    assert replayed.exit_code == 1
    assert "players.0: must be one line" in replayed.output
    assert "Dealer: Mallory" not in replayed.output
    ledger = tmp_path / "session.json"
    made = ulti(
        "ledger", "new", str(ledger), "--ruleset", "wikipedia", "--players", f"{FORGED},B,C"
    )
    assert made.exit_code != 0
    assert "must be one line" in made.output and not ledger.exists()
    club = tmp_path / "club.yaml"
    club.write_text(
        f"name: club\ntitle: {yaml_string('Club' + chr(0x2028) + 'X')}\nextends: wikipedia\n",
        encoding="utf-8",
    )
    checked = ulti("check", str(club))
    assert checked.exit_code == 1
    assert "title: must be one line" in checked.output
