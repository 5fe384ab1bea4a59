"""The rulebook: the complete rules of a ruleset as a document people read.

``build_rulebook`` turns a resolved ruleset into a document (``document.py``: sections
of paragraphs, lists and tables) in Hungarian, English or German; ``render`` writes it
as text for a terminal, Markdown, or one self-contained HTML page for A4. `ulti
rulebook` is the command (docs/rulebook.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .build import build_rulebook, load_rulebook
    from .document import Items, Paragraph, Rulebook, Section, Table

FORMATS: tuple[str, ...] = ("text", "md", "html")

_LAZY = {
    "build_rulebook": ".build",
    "load_rulebook": ".build",
    "Items": ".document",
    "Paragraph": ".document",
    "Rulebook": ".document",
    "Section": ".document",
    "Table": ".document",
}
"""The package's names, imported when first used (PEP 562): commands that only need a
module of it (the suit words of ``words.py``) do not pay for the whole rulebook."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)


def render(book: Rulebook, fmt: str = "text") -> str:
    """The rulebook in ``fmt``: ``text`` (80 columns), ``md`` or ``html``."""
    from .as_html import render_html
    from .as_markdown import render_markdown
    from .as_text import render_text

    renderers: dict[str, Callable[[Rulebook], str]] = {
        "text": render_text,
        "md": render_markdown,
        "html": render_html,
    }
    return renderers[fmt](book)


__all__ = [
    "FORMATS",
    "Items",
    "Paragraph",
    "Rulebook",
    "Section",
    "Table",
    "build_rulebook",
    "load_rulebook",
    "render",
]
