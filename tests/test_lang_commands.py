"""`--lang` on score, replay, ledger, simulate and play: the ruleset's names and the
catalogue's words in Hungarian and German, and English unchanged by default."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import RunUlti
from settlement_support import ULTI_SHEET

WORDS = {
    "hu": {"simple": "parti", "payments": "Kifizetések", "declarer": "felvevő"},
    "de": {"simple": "Parti", "payments": "Zahlungen", "declarer": "Alleinspieler"},
}


def ok(done: object) -> str:
    assert done.returncode == 0, done.stderr  # type: ignore[attr-defined]
    return done.stdout  # type: ignore[attr-defined,no-any-return]


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "hand.yaml"
    path.write_text(ULTI_SHEET, encoding="utf-8")
    return path


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_score_speaks_the_language(ulti: RunUlti, sheet: Path, lang: str) -> None:
    out = ok(ulti("score", str(sheet), "--lang", lang))
    words = WORDS[lang]
    assert f"│ {words['simple']} " in out  # the Simple line by the ruleset's name
    assert words["payments"] in out and words["declarer"] in out
    assert "Simple" not in out and "Payments" not in out
    heading = {  # one colon, after the suit: "makk: felvevő: Anna" read twice over
        "hu": "ulti (ulti), makk, felvevő: Anna [wikipedia]",
        "de": "Ulti (ulti), Eichel: Alleinspieler Anna [wikipedia]",
    }
    assert heading[lang] in out


def test_ulti_lang_and_the_locale_choose_too(ulti: RunUlti, sheet: Path) -> None:
    assert "Kifizetések" in ok(ulti("score", str(sheet), env={"ULTI_LANG": "hu"}))
    assert "Zahlungen" in ok(ulti("score", str(sheet), env={"LANG": "de_DE.UTF-8"}))


def test_english_by_default_and_json_keeps_ids(ulti: RunUlti, sheet: Path) -> None:
    plain = ok(ulti("score", str(sheet), env={"LANG": "C.UTF-8"}))
    assert plain == ok(ulti("score", str(sheet), "--lang", "en"))
    assert "Ulti (ulti), acorns: declarer Anna [wikipedia]" in plain
    assert "│ Simple " in plain and "Payments" in plain
    as_json = ok(ulti("score", str(sheet), "--json", "--lang", "hu"))
    assert as_json == ok(ulti("score", str(sheet), "--json"))


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("hu", ("Licit", "Ütések", "Tények", "passzol")), ("de", ("Bieten", "Stiche", "passt"))],
)
def test_replay_speaks_the_language(
    ulti: RunUlti, tmp_path: Path, lang: str, expected: tuple[str, ...]
) -> None:
    ok(ulti("simulate", "--hands", "3", "--seed", "2", "-q", "--save-records", "recs"))
    for record in sorted((tmp_path / "recs").glob("*.yaml")):
        out = ok(ulti("replay", str(record), "--lang", lang))
        if "Tricks" in ok(ulti("replay", str(record))):
            break
    assert all(word in out for word in expected), out
    assert "Auction" not in out and "Payments" not in out


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_ledger_speaks_the_language(ulti: RunUlti, sheet: Path, tmp_path: Path, lang: str) -> None:
    book = str(tmp_path / "s.json")
    ok(ulti("ledger", "new", book, "--ruleset", "wikipedia", "--players", "Anna,Ben,Carla"))
    added = ok(ulti("ledger", "add", book, str(sheet), "--lang", lang))
    shown = ok(ulti("ledger", "show", book, "--lang", lang))
    words = {"hu": ("Összesítés", "ulti (ulti)", "Következik"),
             "de": ("Summen", "Ulti (ulti)", "Als Nächstes")}[lang]  # fmt: skip
    assert WORDS[lang]["payments"] in added and words[0] in added
    assert words[1] in shown and words[2] in shown and "Totals" not in shown


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("hu", ("Összesítés 5 leosztás után", "oszt;", "Bemondás")),
     ("de", ("Summen nach 5 Spielen", "gibt;", "Gebot"))],
)  # fmt: skip
def test_simulate_speaks_the_language(ulti: RunUlti, lang: str, expected: tuple[str, ...]) -> None:
    out = ok(ulti("simulate", "--hands", "5", "--seed", "1", "--lang", lang))
    assert all(word in out for word in expected), out
    assert "Totals after" not in out


def test_simulate_json_stays_english(ulti: RunUlti) -> None:
    args = ("simulate", "--hands", "3", "--seed", "1", "--json")
    assert ok(ulti(*args, "--lang", "hu")) == ok(ulti(*args))


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("hu", ("1. leosztás", "Licit", "Viszontlátásra!", "Te")),
     ("de", ("Spiel 1", "Bieten", "Auf Wiedersehen.", "Du"))],
)  # fmt: skip
def test_play_speaks_the_language(ulti: RunUlti, lang: str, expected: tuple[str, ...]) -> None:
    out = ok(ulti("play", "--seat", "2", "--seed", "3", "--bots", "simple", "--lang", lang))
    assert all(word in out for word in expected), out
    assert "Goodbye." not in out and "Auction" not in out


def test_play_auto_names_the_contract_in_hungarian(ulti: RunUlti) -> None:
    out = ok(ulti("play", "--auto", "--seed", "1", "--bots", "simple", "--lang", "hu"))
    assert "Játék:" in out and "Kifizetések" in out
