"""The API reference: one page per part of the public API, from the docstrings.

The names are ``ulti_rules.__all__`` (each where ``ulti_rules._WHERE`` says it is
defined) and the bots' functions; each page is a list of mkdocstrings ``:::`` blocks,
so a new public name appears on the site without anyone writing a page.
"""

from __future__ import annotations

import ulti_rules

PAGES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "loading": (
        "Loading rules",
        "Rulesets by name or path, and the game compiled from one.",
        (".ruleset.loading", ".ruleset.schema", ".ruleset.ranking", ".game"),
    ),
    "hand": (
        "The hand",
        "The hand engine: a hand, its actions, what a seat sees.",
        (".engine", ".engine.phase"),
    ),
    "settlement": (
        "Settling",
        "What happened in a hand, and the payments it brings.",
        (".facts", ".scoring.settlement"),
    ),
    "bots": ("Bots", "Computer players, and playing a hand out with them.", ()),
    "cards": ("Cards", "Cards, suits and ranks, and their notation.", (".cards",)),
    "plugins": (
        "Plugins",
        "What a plugin implements: contract kinds, the facts they need, the hooks, its "
        "words in every language; and the registry of what the plugins brought.",
        (
            ".contracts.base",
            ".contracts.fact_specs",
            ".hookspecs",
            ".i18n",
            ".said",
            ".scoring.possible",
            ".plugins",
        ),
    ),
    "errors": ("Errors", "Every error the library raises.", (".errors",)),
}
"""Each page: its title, a line saying what it holds, and the modules whose public
names it lists (every module of ``ulti_rules._WHERE`` is on exactly one page)."""

BOTS = ("ulti_rules.bots.play_out", "ulti_rules.bots.Bot", "ulti_rules.bots.bot",
        "ulti_rules.bots.bots")  # fmt: skip
"""The bots' public API: not in ``ulti_rules`` itself (bots are a tool layer)."""


def public_names() -> dict[str, str]:
    """Each public name of ``ulti_rules`` and the dotted path of its definition."""
    return {name: f"ulti_rules{ulti_rules._WHERE[name]}.{name}" for name in ulti_rules.__all__}


def api_pages(folder: str = "reference/api") -> dict[str, str]:
    """``folder/PAGE.md`` -> the page's mkdocstrings blocks, and ``folder/index.md``."""
    where = public_names()
    placed = {module for _, _, modules in PAGES.values() for module in modules}
    missing = sorted({ulti_rules._WHERE[name] for name in where} - placed)
    if missing:
        raise ValueError(f"public modules on no API page: {', '.join(missing)}")
    pages = {}
    index = [
        "# API reference",
        "",
        "The public API is the names of the `ulti_rules` package (`from ulti_rules import "
        "Hand`); plugins import nothing else. The examples in the docstrings run in the "
        "test suite.",
        "",
    ]
    for page, (title, line, modules) in PAGES.items():
        if page == "bots":
            paths = list(BOTS)
        else:
            paths = [path for name, path in where.items() if ulti_rules._WHERE[name] in modules]
        blocks = [f"::: {path}" for path in paths]
        pages[f"{folder}/{page}.md"] = "\n\n".join([f"# {title}", line, *blocks]) + "\n"
        index.append(f"- [{title}]({page}.md): {line}")
    pages[f"{folder}/index.md"] = "\n".join(index) + "\n"
    return pages


def api_nav(folder: str = "reference/api") -> list[object]:
    """The nav section of the pages ``api_pages`` writes."""
    nav: list[object] = [{"Overview": f"{folder}/index.md"}]
    nav += [{title: f"{folder}/{page}.md"} for page, (title, _, _) in PAGES.items()]
    return nav
