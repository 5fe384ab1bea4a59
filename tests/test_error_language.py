"""Errors in the command's language: a translatable error (``ulti_rules.said.Said``) is
said in Hungarian or German where the command speaks it, in English everywhere else, and
its English text is what it always was."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from ulti_rules.errors import Problem, RulesetError, capped
from ulti_rules.i18n import translator
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.said import Said, say_in

from conftest import RunUlti

# --------------------------------------------------------------------------- the sentence


def test_a_said_sentence_is_its_english_text_and_keeps_what_made_it() -> None:
    hint = Said(" (did you mean '{word}'?)", word="wikipedia")
    template = "no ruleset named '{name}'{hint}; known rulesets: {listing}"
    said = Said(template, name="wikipedi", hint=hint, listing="wikipedia")
    assert (
        said == "no ruleset named 'wikipedi' (did you mean 'wikipedia'?); known rulesets: wikipedia"
    )
    assert isinstance(said, str) and said.template == template
    assert said.values["hint"] is hint
    assert said.translated(translator("de").gettext) == (
        "kein Regelwerk namens 'wikipedi' (meintest du 'wikipedia'?); "
        "bekannte Regelwerke: wikipedia"
    )


def test_a_said_sentence_crosses_a_process_boundary_whole() -> None:
    """Pickled (an error from a `--workers` process), it is still translatable."""
    error = RulesetError([Problem("club.yaml", 3, 1, "ladder", Said("no such file"))])
    again = pickle.loads(pickle.dumps(error))
    message = again.problems[0].message
    assert isinstance(message, Said) and message.template == "no such file"
    assert again.problems[0].shown(translator("hu").gettext) == (
        "club.yaml:3:1: ladder: nincs ilyen fájl"
    )


def test_a_translation_that_does_not_fit_shows_the_english() -> None:
    said = Said("{n} problems", n=3)
    assert say_in(lambda _message: "{count} hiba", said) == "3 problems"
    assert say_in(lambda message: message, "plain text") == "plain text"


def test_the_count_line_of_a_capped_list_is_translatable() -> None:
    problems = [Problem("f.yaml", line, 1, "", f"bad {line}") for line in range(1, 6)]
    more = capped(problems, limit=2)[-1]
    assert str(more) == "f.yaml: ... and 3 more problems (only the first 2 are shown)"
    assert more.shown(translator("de").gettext) == (
        "f.yaml: ... und 3 weitere Probleme (nur die ersten 2 werden gezeigt)"
    )


def test_the_library_raises_translatable_errors() -> None:
    with pytest.raises(RulesetError) as caught:
        load_ruleset("wikipedi")
    message = caught.value.problems[0].message
    assert isinstance(message, Said)
    assert message.startswith("no ruleset named 'wikipedi' (did you mean 'wikipedia'?)")


# --------------------------------------------------------------------------- the commands


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "ulti: error: wikipedi: no ruleset named 'wikipedi' (did you mean 'wikipedia'?)"),
        ("hu", "ulti: error: wikipedi: nincs 'wikipedi' nevű szabálykészlet (erre gondoltál: "),
        ("de", "ulti: error: wikipedi: kein Regelwerk namens 'wikipedi' (meintest du "),
    ],
)
def test_an_unknown_ruleset_is_said_in_the_language_of_the_command(
    ulti: RunUlti, lang: str, expected: str
) -> None:
    done = ulti("ladder", "wikipedi", "--lang", lang)
    assert done.returncode == 1
    assert done.stderr.startswith(expected), done.stderr


def test_ulti_lang_speaks_for_the_errors_too(ulti: RunUlti) -> None:
    done = ulti("rulebook", "nosuch", env={"ULTI_LANG": "de"})
    assert done.returncode == 1
    assert "kein Regelwerk namens 'nosuch'; bekannte Regelwerke: " in done.stderr


def test_a_command_with_no_language_option_keeps_its_errors_english(ulti: RunUlti) -> None:
    """`ulti show` prints YAML, in no language: its errors stay English under ULTI_LANG."""
    done = ulti("show", "nosuch", env={"ULTI_LANG": "hu"})
    assert done.returncode == 1
    assert "no ruleset named 'nosuch'" in done.stderr


def test_an_option_error_is_said_in_the_language_of_the_command(ulti: RunUlti) -> None:
    done = ulti("play", "--bots", "simple,", "--lang", "hu")
    assert done.returncode == 1
    assert done.stderr == (
        "ulti: error: --bots: egy gépi játékos neve hiányzik innen: 'simple,' "
        "(pl. --bots simple,random)\n"
    )
    done = ulti("simulate", "wikipedia", "--bots", "club,simple", "--lang", "de")
    assert done.returncode == 1
    assert "--bots nennt 2 Bots, aber 'wikipedia' wird zu 3 gespielt" in done.stderr


def test_a_rulesets_problems_keep_their_place_and_the_count_is_translated(
    ulti: RunUlti, tmp_path: Path
) -> None:
    club = tmp_path / "club.yaml"
    club.write_text(
        "extends: wikipedia\npoints: {last_trick: many}\nplayers: {count: 9}\n", encoding="utf-8"
    )
    done = ulti("ladder", str(club), "--lang", "hu")
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert lines[0].startswith("club.yaml:2:10: points.last_trick: ")
    assert lines[1].startswith("club.yaml:3:11: players.count: ")
    assert lines[-1] == "ulti: error: a szabálykészlet: 2 hiba"
    english = ulti("ladder", str(club), "--lang", "en")
    assert english.stderr.splitlines()[-1] == "ulti: error: 2 problems in the ruleset"


def test_diff_says_its_trouble_in_its_language_with_status_2(ulti: RunUlti) -> None:
    done = ulti("diff", "wikipedia", "wikipedai", "--lang", "de")
    assert done.returncode == 2
    assert "kein Regelwerk namens 'wikipedai' (meintest du 'wikipedia'?)" in done.stderr


def test_an_unknown_parent_in_a_club_file_is_said_in_the_language_of_the_command(
    ulti: RunUlti, tmp_path: Path
) -> None:
    club = tmp_path / "club.yaml"
    club.write_text("extends: wikipedi\n", encoding="utf-8")
    done = ulti("ladder", str(club), "--lang", "hu")
    assert done.returncode == 1
    assert done.stderr.startswith("ulti: error: club.yaml:1:10: extends: nincs 'wikipedi' nevű ")
    assert "(erre gondoltál: 'wikipedia'?)" in done.stderr
    english = ulti("ladder", str(club))
    assert "extends: no ruleset named 'wikipedi' (did you mean 'wikipedia'?)" in english.stderr


def test_the_discard_hints_are_in_the_language_of_the_table(ulti: RunUlti) -> None:
    """Seat 2 lays two cards down first (seed 3): a word that is no card, the same card
    twice, a number past the hand, each get a hint in Hungarian; then a person leaves."""
    done = ulti(
        "play", "--seat", "2", "--seed", "3", "--bots", "simple", "--lang", "hu",
        input="zzz\n1 1\n99\nquit\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "nem lap: 'zzz' (írd pl. így: PVII, MA, ZX magyar kártyával" in done.stdout
    assert "két különböző lapot, nem többet: kezdd újra" in done.stdout
    assert "nincs 99. lap: a lapjaid 1-től 12-ig vannak számozva" in done.stdout
