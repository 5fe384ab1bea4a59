"""The rulebook as a document: sections of paragraphs, lists and tables, in one language.

Built once from a ruleset (``build.py``) and handed to a renderer per format (text,
Markdown, HTML), so the three formats say the same thing. Every block names the
settings it states (``settings``: schema paths such as ``deal.talon`` or
``contracts.*.value``): the test that every setting has a sentence reads them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

Align = Literal["left", "right"]


@dataclass(frozen=True)
class Paragraph:
    """Running text; ``term`` (a name) leads it in bold, as in a glossary entry."""

    text: str
    settings: tuple[str, ...] = ()
    term: str | None = None


@dataclass(frozen=True)
class Items:
    """A bulleted list of short paragraphs."""

    items: tuple[Paragraph, ...]
    settings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Table:
    """A table with a header row; ``align`` per column, ``caption`` below it."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: tuple[Align, ...] = ()
    caption: str | None = None
    settings: tuple[str, ...] = ()

    def alignment(self, column: int) -> Align:
        return self.align[column] if column < len(self.align) else "left"


Block = Paragraph | Items | Table


@dataclass(frozen=True)
class Section:
    """One numbered section; ``key`` is its anchor, the same in every language."""

    key: str
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Rulebook:
    """The whole document: a title, a subtitle (the ruleset's own title), the sections."""

    lang: str
    title: str
    subtitle: str
    sections: tuple[Section, ...]
    colophon: str = ""
    contents: str = "Contents"
    meta: dict[str, str] = field(default_factory=dict)

    def blocks(self) -> Iterator[Block]:
        """Every block, section by section, list items included."""
        for section in self.sections:
            for block in section.blocks:
                yield block
                if isinstance(block, Items):
                    yield from block.items

    def settings(self) -> set[str]:
        """Every setting some block states."""
        return {setting for block in self.blocks() for setting in block.settings}

    def section(self, key: str) -> Section:
        """The section with anchor ``key``; KeyError if there is none."""
        for section in self.sections:
            if section.key == key:
                return section
        raise KeyError(key)
