"""The rulebook of each bundled ruleset, in Hungarian, English and German, for the site.

The pages are what `ulti rulebook NAME --lang LANG --format md` prints, so the site shows
exactly the document a club prints; nothing is committed, every build writes them anew.
"""

from __future__ import annotations

from pathlib import Path

from ulti_rules.i18n import LANGS
from ulti_rules.rulebook import load_rulebook, render
from ulti_rules.ruleset.finding import bundled_dir, find_fragments
from ulti_rules.ruleset.references import SUFFIXES

LANG_NAMES = {"hu": "Magyar", "en": "English", "de": "Deutsch"}
"""Each language as its speakers name it: the rulebook's nav entries."""


def bundled_rulesets() -> list[Path]:
    """The bundled ruleset files (not fragments), in name order."""
    fragments = {source.path.resolve() for source in find_fragments()}
    return sorted(
        path
        for path in bundled_dir().iterdir()
        if path.suffix.lower() in SUFFIXES and path.resolve() not in fragments
    )


def rulebook_pages(folder: str = "rulebooks") -> dict[str, str]:
    """``folder/NAME/LANG.md`` -> the rulebook in Markdown, and ``folder/index.md``."""
    pages: dict[str, str] = {}
    rows = []
    for path in bundled_rulesets():
        links = []
        for lang in LANGS:
            book = load_rulebook(path, lang)
            pages[f"{folder}/{path.stem}/{lang}.md"] = render(book, "md")
            links.append(f"[{LANG_NAMES[lang]}]({path.stem}/{lang}.md)")
        rows.append(f"| `{path.stem}` | {' · '.join(links)} |")
    pages[f"{folder}/index.md"] = "\n".join(
        [
            "# Rulebooks of the bundled rulesets",
            "",
            "Each bundled ruleset written out as a rulebook, as `ulti rulebook NAME --lang "
            "LANG --format md` prints it ([the rulebook command](../rulebook.md)).",
            "",
            "| Ruleset | Rulebook |",
            "|---|---|",
            *rows,
            "",
        ]
    )
    return pages


def rulebook_nav(folder: str = "rulebooks") -> list[object]:
    """The nav section of the pages ``rulebook_pages`` writes."""
    nav: list[object] = [{"Overview": f"{folder}/index.md"}]
    for path in bundled_rulesets():
        nav.append(
            {path.stem: [{LANG_NAMES[lang]: f"{folder}/{path.stem}/{lang}.md"} for lang in LANGS]}
        )
    return nav
