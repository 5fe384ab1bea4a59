"""The rulebook as Markdown: headings, paragraphs, bulleted entries and pipe tables.

Every text is escaped, so a name with ``*``, ``_`` or ``|`` in it stays text.
"""

from __future__ import annotations

import re

from .document import Block, Items, Paragraph, Rulebook, Table

_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~])")
_LINE_START = re.compile(r"^(\d+)([.)])|^([-+=])")


def escape(text: str) -> str:
    """Text that Markdown shows as written, on one line."""
    text = _SPECIAL.sub(r"\\\1", " ".join(text.split()))
    return _LINE_START.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", text)


def render_markdown(book: Rulebook) -> str:
    out: list[str] = [f"# {escape(book.title)}", "", f"*{escape(book.subtitle)}*", ""]
    out += [f"## {escape(book.contents)}", ""]
    for number, section in enumerate(book.sections, 1):
        out.append(f"{number}. [{escape(section.title)}](#{section.key})")
    for number, section in enumerate(book.sections, 1):
        out += ["", f'<a id="{section.key}"></a>', "", f"## {number}\\. {escape(section.title)}"]
        for block in section.blocks:
            out += ["", *_block(block)]
    if book.colophon:
        out += ["", "---", "", f"*{escape(book.colophon)}*"]
    return "\n".join(out) + "\n"


def _paragraph(paragraph: Paragraph) -> str:
    text = escape(paragraph.text)
    return text if paragraph.term is None else f"**{escape(paragraph.term)}** — {text}"


def _block(block: Block) -> list[str]:
    if isinstance(block, Paragraph):
        return [_paragraph(block)]
    if isinstance(block, Items):
        return [f"- {_paragraph(item)}" for item in block.items]
    return _table(block)


def _table(table: Table) -> list[str]:
    def row(cells: tuple[str, ...]) -> str:
        return "| " + " | ".join(escape(cell) or " " for cell in cells) + " |"

    rule = (
        "|"
        + "|".join(
            "---:" if table.alignment(i) == "right" else "---" for i in range(len(table.header))
        )
        + "|"
    )
    lines = [row(table.header), rule, *(row(cells) for cells in table.rows)]
    if table.caption:
        lines += ["", f"*{escape(table.caption)}*"]
    return lines
