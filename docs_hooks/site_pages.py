"""The MkDocs hook (mkdocs.yml ``hooks:``) that adds the generated pages to the site.

At build time, never committed: the home page from README.md, the CLI reference from
the click commands, the API reference pages (mkdocstrings) and the rulebook of each
bundled ruleset in three languages; their nav sections are added after the written
pages'.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the generators beside this hook (mkdocs loads it by path)

from api_reference import api_nav, api_pages  # noqa: E402
from cli_reference import cli_reference_page  # noqa: E402
from rulebooks import rulebook_nav, rulebook_pages  # noqa: E402

README = HERE.parent / "README.md"


def home_page() -> str:
    """README.md, its ``docs/x.md`` links made links within the site."""
    return re.sub(r"\]\(docs/", "](", README.read_text(encoding="utf-8"))


def generated_pages() -> dict[str, str]:
    """Every generated page: its path in the site's docs -> its Markdown."""
    return {
        "index.md": home_page(),
        "reference/cli.md": cli_reference_page(),
        **api_pages(),
        **rulebook_pages(),
    }


def on_config(config: MkDocsConfig, **_: Any) -> MkDocsConfig:
    nav = config.nav or []
    config.nav = [
        {"Home": "index.md"},
        *nav,
        {"Rulebooks": rulebook_nav()},
        {"CLI reference": "reference/cli.md"},
        {"API reference": api_nav()},
    ]
    return config


def on_files(files: Files, config: MkDocsConfig, **_: Any) -> Files:
    for uri, text in generated_pages().items():
        files.append(File.generated(config, uri, content=text))
    return files
