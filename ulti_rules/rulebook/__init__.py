"""The rulebook: the complete rules of a ruleset as a document people read.

``build_rulebook`` turns a resolved ruleset into a document (``document.py``: sections
of paragraphs, lists and tables) in Hungarian, English or German; ``render`` writes it
as text for a terminal, Markdown, or one self-contained HTML page for A4. `ulti
rulebook` is the command (docs/rulebook.md).
"""

from __future__ import annotations

from collections.abc import Callable

from .as_html import render_html
from .as_markdown import render_markdown
from .as_text import render_text
from .build import build_rulebook, load_rulebook
from .document import Items, Paragraph, Rulebook, Section, Table

RENDERERS: dict[str, Callable[[Rulebook], str]] = {
    "text": render_text,
    "md": render_markdown,
    "html": render_html,
}
FORMATS: tuple[str, ...] = tuple(RENDERERS)


def render(book: Rulebook, fmt: str = "text") -> str:
    """The rulebook in ``fmt``: ``text`` (80 columns), ``md`` or ``html``."""
    return RENDERERS[fmt](book)


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
