"""A ruleset's title in each language: written as one line or as a mapping from language
to line, replaced whole by a file that extends, shown in each command's language, and
left out of what a record pins (the content hash) but for its English line."""

from __future__ import annotations

from pathlib import Path

import pytest
from ulti_rules.ruleset.loading import content_hash, load_ruleset
from ulti_rules.ruleset.safe_yaml import NOT_TEXT, read_heading

from conftest import RunUlti

WIKIPEDIA_HU = "A Wikipédia szerinti alapszabályok"
WIKIPEDIA_DE = "Wikipedia-Standard: 54 Gebote"
WIKIPEDIA_EN = "Wikipedia standard: 54 bids"


def club(folder: Path, title: str, name: str = "club") -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\n{title}\nextends: wikipedia\n", encoding="utf-8")
    return path


def test_a_title_in_one_language_replaces_the_inherited_one_in_every_language(
    tmp_path: Path,
) -> None:
    rules = load_ruleset(club(tmp_path, "title:\n  hu: Kocsmai ulti"))
    assert [rules.title_in(lang) for lang in ("hu", "en", "de")] == ["Kocsmai ulti"] * 3


def test_a_title_in_several_languages_is_said_in_each_else_in_english(tmp_path: Path) -> None:
    rules = load_ruleset(club(tmp_path, "title: {hu: Kocsmai ulti, en: Pub Ulti}"))
    assert (rules.title_in("hu"), rules.title_in("en"), rules.title_in("de")) == (
        "Kocsmai ulti",
        "Pub Ulti",
        "Pub Ulti",
    )
    line = load_ruleset(club(tmp_path, "title: Kocsmai ulti", "line"))
    assert {line.title_in(lang) for lang in ("hu", "en", "de")} == {"Kocsmai ulti"}


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        (
            "title:\n  hu: X\n  fr: Y",
            "club.yaml:4:3: title.fr: unknown key 'fr'; allowed here: de, en, hu",
        ),
        (
            "title:\n  hu: X\n  eng: Y",
            "club.yaml:4:3: title.eng: unknown key 'eng' (did you mean 'en'?)",
        ),
        (
            "title: {}",
            "club.yaml:2:1: title: give the title in at least one language: hu, en or de",
        ),
        ("title: [a, b]", "club.yaml:2:1: title: should be text, not a list"),
        ("title:\n  hu: [1]", "club.yaml:3:3: title.hu: should be text, not a list"),
        ("title:\n  de: '  '", "club.yaml:3:3: title.de: must not be empty"),
    ],
)
def test_a_mistaken_title_is_said_at_its_line(
    ulti: RunUlti, tmp_path: Path, title: str, expected: str
) -> None:
    club(tmp_path, title)
    result = ulti("check", "club.yaml")
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == expected


def test_translating_a_title_leaves_the_content_hash(tmp_path: Path) -> None:
    """Records and ledgers pin a ruleset by its hash: adding the title's translations (as
    the bundled rulesets did) must not make every saved record differ."""
    line = load_ruleset(club(tmp_path, "title: Pub Ulti", "line"))
    both = load_ruleset(club(tmp_path, "title: {en: Pub Ulti, hu: Kocsmai ulti}", "line2"))
    renamed = load_ruleset(club(tmp_path, "title: {en: Pub Ulti, hu: Kocsma}", "line3"))
    other = load_ruleset(club(tmp_path, "title: {en: Our Ulti, hu: Kocsmai ulti}", "line4"))
    strip = lambda rules: rules.model_copy(update={"name": "x"})  # noqa: E731 - names differ
    assert content_hash(strip(line)) == content_hash(strip(both)) == content_hash(strip(renamed))
    assert content_hash(strip(other)) != content_hash(strip(line))


def test_the_quick_heading_reads_a_title_in_each_language(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text("name: a\ntitle:\n  hu: Kocsmai ulti\n  de: Kneipe\nladder: []\n", "utf-8")
    assert read_heading(path, ["title"]) == {
        "name": "a",
        "title": {"hu": "Kocsmai ulti", "de": "Kneipe"},
    }
    path.write_text("name: a\ntitle:\n  hu: [x]\n  de: Kneipe\nladder: []\n", "utf-8")
    assert read_heading(path, ["title"]) == {"name": "a", "title": NOT_TEXT}


def test_ulti_rulesets_lists_a_title_in_english_else_in_the_language_given(
    ulti: RunUlti, tmp_path: Path
) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    club(folder, "title:\n  hu: Kocsmai ulti", "kocsma")
    club(folder, "title: {de: Kneipen-Ulti, en: Pub Ulti}", "pub")
    listed = ulti("rulesets", env={"ULTI_RULES_PATH": str(folder), "COLUMNS": "200"}).stdout
    rows = {
        line.split("│")[1].strip(): line.split("│")[2].strip()
        for line in listed.splitlines()
        if line.startswith("│")
    }
    assert rows["kocsma"] == "Kocsmai ulti"
    assert rows["pub"] == "Pub Ulti"
    assert rows["wikipedia"].startswith(WIKIPEDIA_EN)


@pytest.mark.parametrize(
    ("lang", "title"), [("hu", WIKIPEDIA_HU), ("de", WIKIPEDIA_DE), ("en", WIKIPEDIA_EN)]
)
def test_the_rulebook_ladder_and_play_show_the_title_in_their_language(
    ulti: RunUlti, lang: str, title: str
) -> None:
    book = ulti("rulebook", "wikipedia", "--lang", lang).stdout
    assert book.splitlines()[2].startswith(title)
    ladder = ulti("ladder", "wikipedia", "--lang", lang, env={"COLUMNS": "300"}).stdout
    assert title in ladder.splitlines()[0]
    played = ulti("play", "--auto", "--seed", "1", "--lang", lang, "--save-records", "recs")
    assert title in played.stdout
    replayed = ulti("replay", "recs/hand-0001.yaml", "--lang", lang).stdout
    assert title in replayed.splitlines()[1]


def test_ulti_diff_names_the_language_whose_title_alone_differs(
    ulti: RunUlti, tmp_path: Path
) -> None:
    club(tmp_path, "title: {hu: Kocsmai ulti, de: Kneipen-Ulti}", "a")
    club(tmp_path, "title: {hu: Kocsmai ulti, de: Kneipe}", "b")
    said = ulti("diff", "a.yaml", "b.yaml", "--lang", "hu").stdout
    assert "A cím német nyelven most „Kneipe” (eddig „Kneipen-Ulti”)." in said
    said = ulti("diff", "a.yaml", "b.yaml", "--lang", "de").stdout
    assert "Der Titel ist jetzt „Kneipe“ (bisher „Kneipen-Ulti“)." in said
