"""The message catalogues: which language, every message translated, the .mo files fresh,
and Babel only at development time."""

from __future__ import annotations

import gettext
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from ulti_rules import i18n
from ulti_rules.i18n import LanguageError, locale_lang, resolve_lang, translator

REPO = Path(__file__).resolve().parent.parent
SOURCES = (REPO / "ulti_rules", REPO / "plugins" / "ulti_four_aces")
TRANSLATED = ("hu", "de")
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def po_path(lang: str) -> Path:
    return i18n.LOCALES / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


KEYWORDS = {**DEFAULT_KEYWORDS, "Said": None}
"""Babel's keywords and ``Said`` (a translatable error's message id, ``ulti_rules/said.py``):
the ``-k Said`` of the extract command in docs/translating.md."""


def extracted() -> dict[str | tuple[str, str], str]:
    """Every message the code marks (``_``, ``ngettext``, ``gettext``, ``N_``, ``Said``), by
    Babel's own extractor, with the file it is in."""
    found: dict[str | tuple[str, str], str] = {}
    for folder in SOURCES:
        for filename, _line, message, _comments, _context in extract_from_dir(
            str(folder), keywords=KEYWORDS
        ):
            found[message] = f"{folder.name}/{filename}"
    return found


# --------------------------------------------------------------------------- the language


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "hu_HU.UTF-8"}, "hu"),
        ({"LANG": "de_AT.UTF-8"}, "de"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "de_DE.UTF-8", "LANG": "hu_HU.UTF-8"}, "de"),
        ({"LC_MESSAGES": "hu_HU", "LANG": "de_DE"}, "hu"),
        ({"LANGUAGE": "fr:de:hu", "LANG": "hu_HU.UTF-8"}, "de"),
        ({"ULTI_LANG": "hu", "LANG": "de_DE.UTF-8"}, "hu"),
        ({"ULTI_LANG": " DE ", "LANG": "hu_HU.UTF-8"}, "de"),
    ],
)
def test_the_language_comes_from_ulti_lang_then_the_locale(
    environ: dict[str, str], expected: str
) -> None:
    assert resolve_lang(None, environ) == expected


def test_the_option_wins_over_everything() -> None:
    assert resolve_lang("de", {"ULTI_LANG": "hu", "LANG": "hu_HU.UTF-8"}) == "de"


@pytest.mark.parametrize(("option", "environ"), [("fr", {}), (None, {"ULTI_LANG": "klingon"})])
def test_an_unknown_language_is_an_error_that_lists_ours(
    option: str | None, environ: dict[str, str]
) -> None:
    with pytest.raises(LanguageError) as caught:
        resolve_lang(option, environ)
    message = str(caught.value)
    assert all(code in message for code in ("hu", "en", "de")), message
    assert (option or environ["ULTI_LANG"]) in message


def test_a_locale_we_do_not_speak_is_no_language_at_all() -> None:
    assert locale_lang({"LANG": "fr_FR.UTF-8", "LANGUAGE": ""}) is None


def test_translators_speak_their_language_and_are_read_once() -> None:
    assert translator("en").gettext("The bid ladder") == "The bid ladder"
    assert translator("hu").gettext("The bid ladder") == "A bemondások rangsora"
    assert translator("de").gettext("The bid ladder") == "Die Rangfolge der Gebote"
    assert translator("de").ngettext("{n} bid", "{n} bids", 2) == "{n} Gebote"
    assert translator("hu") is translator("hu")
    with pytest.raises(LanguageError):
        translator("fr")


# --------------------------------------------------------------------------- the catalogues


def test_every_message_the_code_uses_is_translated_in_each_catalogue() -> None:
    used = extracted()
    assert len(used) > 200, "the extractor found too few messages: is the marker scan broken?"
    for lang in TRANSLATED:
        with po_path(lang).open("rb") as handle:
            catalogue = read_po(handle, locale=lang)
        untranslated = []
        for message, where in used.items():
            key = message[0] if isinstance(message, tuple) else message
            entry = catalogue.get(key)
            strings = () if entry is None else entry.string
            strings = (strings,) if isinstance(strings, str) else strings
            if entry is None or not all(strings) or "fuzzy" in entry.flags:
                untranslated.append(f"{where}: {key!r}")
                continue
            wanted = set(PLACEHOLDER.findall(key))
            if isinstance(message, tuple):  # plural forms: "the same deal" needs no {n}
                wanted |= set(PLACEHOLDER.findall(message[1]))
                for text in strings:
                    found = set(PLACEHOLDER.findall(text))
                    assert wanted - {"n"} <= found <= wanted, (lang, key, text)
                continue
            for text in strings:
                assert set(PLACEHOLDER.findall(text)) == wanted, (lang, key, text)
        assert untranslated == [], f"{lang}: no translation for\n" + "\n".join(untranslated)


def test_the_template_lists_exactly_the_messages_in_the_code() -> None:
    with (i18n.LOCALES / f"{i18n.DOMAIN}.pot").open("rb") as handle:
        template = {message.id for message in read_po(handle) if message.id}
    used = {m[0] if isinstance(m, tuple) else m for m in extracted()}
    template_ids = {m[0] if isinstance(m, tuple) else m for m in template}
    assert template_ids == used, "run the extract and update commands of docs/translating.md"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalogue_is_not_stale(lang: str) -> None:
    """The committed .mo says what its .po says: compile the .po again and compare."""
    with po_path(lang).open("rb") as handle:
        catalogue = read_po(handle, locale=lang)
    fresh = io.BytesIO()
    write_mo(fresh, catalogue)
    fresh.seek(0)
    compiled = po_path(lang).with_suffix(".mo")
    with compiled.open("rb") as handle:
        committed = gettext.GNUTranslations(handle)
    assert committed._catalog == gettext.GNUTranslations(fresh)._catalog, (  # type: ignore[attr-defined]
        f"{compiled} is stale: pybabel compile -d ulti_rules/i18n/locales -D ulti"
    )


# --------------------------------------------------------------------------- run time

PROBE = """
import contextlib, io, json, sys
from ulti_rules.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try: main({args!r}, prog_name="ulti")
    except SystemExit: pass
print(json.dumps(sorted(sys.modules)), file=sys.__stderr__)
"""


def modules_after(*args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(args=list(args))],
        cwd=REPO,
        env={**os.environ, "PYTHONUTF8": "1", "NO_COLOR": "1"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_babel_is_never_imported_at_run_time_nor_the_catalogues_by_help() -> None:
    rulebook = modules_after("rulebook", "wikipedia", "--lang", "hu")
    assert "ulti_rules.i18n" in rulebook
    assert not {m for m in rulebook if m == "babel" or m.startswith("babel.")}
    assert "ulti_rules.i18n" not in modules_after("--help")


# --------------------------------------------------------------------------- lines left in English


def test_simulate_rulebook_and_ledger_lines_speak_the_language(tmp_path: Path) -> None:
    """Lines an i18n review found in English (or with English plurals) in hu/de runs."""
    from cli_in_process import run_in

    ulti = run_in(tmp_path)
    hu = ulti("simulate", "--hands", "1", "--lang", "hu", "--save-records", "r")
    assert hu.returncode == 0, hu.stderr
    assert "Jegyzőkönyvek: r/hand-0001.yaml" in hu.stdout and "Records:" not in hu.stdout
    assert hu.stderr.startswith("Sebesség: ") and "leosztás/s (1 folyamat, " in hu.stderr
    de = ulti("simulate", "--hands", "1", "--lang", "de")
    assert "(1 Spiel) und gewonnen wurde" in de.stdout
    assert (
        "the same deal (seed 0"
        in ulti("simulate", "--hands", "1", "--compare", "tournament").stdout
    )
    assert "(1 hand) and was made" in ulti("simulate", "--hands", "1").stdout
    book = ulti("rulebook", "wikipedia", "--lang", "de", "-o", "book.txt")
    assert book.stderr == "ulti: note: das Regelbuch von wikipedia (text) steht in book.txt\n"
    ledger = ulti(
        "ledger", "new", "s.json", "--ruleset", "wikipedia", "--players", "A,B,C", "--lang", "hu"
    )
    assert ledger.returncode == 0, ledger.stderr
    assert "s.json: játék: A, B, C" in ledger.stdout + ledger.stderr
