"""The docs site's generated pages and nav (mkdocs.yml, docs_hooks/).

CI builds the site with `mkdocs build --strict` (.ci/run); these checks run without
MkDocs: every written page is in the nav, and the generators write the CLI reference
from every command and option, an API block for every public name, and a rulebook of
every bundled ruleset in each language.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click
import pytest
import ulti_rules
from ulti_rules.cli import main
from ulti_rules.i18n import LANGS

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "docs_hooks"))

import api_reference  # noqa: E402
import cli_reference  # noqa: E402
import rulebooks  # noqa: E402


def nav_pages() -> set[str]:
    """The pages mkdocs.yml's nav lists (``- page.md`` or ``- Title: page.md``)."""
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:") :]
    return set(re.findall(r"^\s*-\s+(?:[^:\n]+:\s+)?([\w./-]+\.md)\s*$", nav, re.M))


def test_every_written_page_is_in_the_nav() -> None:
    written = {path.name for path in (REPO / "docs").glob("*.md")}
    assert written - nav_pages() == set()
    assert nav_pages() - written == set()  # a page listed but gone


def walk(command: click.Command, path: str) -> list[tuple[str, click.Command]]:
    found = [(path, command)]
    if isinstance(command, click.Group):
        ctx = click.Context(command)
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None
            found += walk(sub, f"{path} {name}")
    return found


def test_the_cli_reference_has_every_command_and_option() -> None:
    page = cli_reference.cli_reference_page()
    commands = walk(main, "ulti")
    assert len(commands) > 10
    for path, command in commands:
        assert f"`{path}`\n\n```text\nUsage: {path} " in page, path
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                assert param.opts[-1] in page, (path, param.opts)


def test_the_api_reference_has_every_public_name() -> None:
    pages = api_reference.api_pages()
    blocks = "\n".join(pages.values())
    for name, path in api_reference.public_names().items():
        assert f"::: {path}\n" in blocks, name
    assert "::: ulti_rules.bots.play_out" in blocks
    listed = {entry for item in api_reference.api_nav() for entry in item.values()}
    assert listed == set(pages)


def test_a_new_public_module_needs_a_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(ulti_rules._WHERE, "Extra", ".extra")
    monkeypatch.setattr(ulti_rules, "__all__", [*ulti_rules.__all__, "Extra"])
    with pytest.raises(ValueError, match=r"\.extra"):
        api_reference.api_pages()


def test_a_rulebook_of_each_bundled_ruleset_in_each_language(
    bundled_names: tuple[str, ...],
) -> None:
    pages = rulebooks.rulebook_pages()
    for name in bundled_names:
        for lang in LANGS:
            page = pages[f"rulebooks/{name}/{lang}.md"]
            assert page.startswith("# "), (name, lang)
            assert "| " in page  # the ladder table
    titles = {lang: pages[f"rulebooks/wikipedia/{lang}.md"].splitlines()[0] for lang in LANGS}
    assert len(set(titles.values())) == len(LANGS), titles  # each in its own language
    index = pages["rulebooks/index.md"]
    assert all(f"({name}/de.md)" in index for name in bundled_names)
