"""The rulebook as plain text for a terminal: 80 columns, tables fitted by wrapping cells."""

from __future__ import annotations

import textwrap

from .document import Block, Items, Paragraph, Rulebook, Table

WIDTH = 80
GAP = "  "


def render_text(book: Rulebook, width: int = WIDTH) -> str:
    lines: list[str] = [book.title.upper(), "=" * min(len(book.title), width)]
    lines += [*textwrap.wrap(book.subtitle, width), ""]
    lines.append(book.contents)
    for number, section in enumerate(book.sections, 1):
        lines += textwrap.wrap(
            section.title, width, initial_indent=f"{number:>4}. ", subsequent_indent=" " * 6
        )
    for number, section in enumerate(book.sections, 1):
        heading = f"{number}. {section.title}"
        lines += ["", "", heading, "-" * min(len(heading), width)]
        for block in section.blocks:
            lines.append("")
            lines += _block(block, width)
    if book.colophon:
        lines += ["", "", *textwrap.wrap(book.colophon, width)]
    return "\n".join(lines) + "\n"


def _paragraph(paragraph: Paragraph, width: int, first: str = "", rest: str = "") -> list[str]:
    text = paragraph.text if paragraph.term is None else f"{paragraph.term} — {paragraph.text}"
    return textwrap.wrap(
        text,
        width,
        initial_indent=first,
        subsequent_indent=rest,
        break_on_hyphens=False,
    )


def _block(block: Block, width: int) -> list[str]:
    if isinstance(block, Paragraph):
        return _paragraph(block, width)
    if isinstance(block, Items):
        lines: list[str] = []
        for item in block.items:
            lines += _paragraph(item, width, "  * ", "    ")
        return lines
    return table_lines(block, width)


def _widths(table: Table, width: int) -> list[int]:
    """Each column's width: as wide as its cells, the widest narrowed until all fit."""
    columns = len(table.header)
    cells = [table.header, *table.rows]
    # a header wraps before a body cell does: it is read once, the cells in every row
    natural = [
        max([len(row[i]) for row in table.rows] + [len(w) for w in table.header[i].split()])
        for i in range(columns)
    ]
    longest_word = [
        max((len(word) for row in cells for word in row[i].split()), default=1)
        for i in range(columns)
    ]
    widths = natural[:]
    budget = width - len(GAP) * (columns - 1)
    for floor in (longest_word, [3] * columns):  # words whole if possible, else broken
        while sum(widths) > budget:
            shrinkable = [i for i in range(columns) if widths[i] > floor[i]]
            if not shrinkable:
                break
            widest = max(shrinkable, key=lambda i: widths[i])
            widths[widest] -= 1
    return widths


def _cell(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, break_on_hyphens=False) or [""]


def table_lines(table: Table, width: int = WIDTH) -> list[str]:
    """The table's lines: the header, a rule, the rows; cells wrapped within their column."""
    widths = _widths(table, width)

    def row_lines(row: tuple[str, ...]) -> list[str]:
        wrapped = [_cell(text, widths[i]) for i, text in enumerate(row)]
        height = max(len(cell) for cell in wrapped)
        out = []
        for line in range(height):
            parts = []
            for i, cell in enumerate(wrapped):
                text = cell[line] if line < len(cell) else ""
                right = table.alignment(i) == "right"
                parts.append(text.rjust(widths[i]) if right else text.ljust(widths[i]))
            out.append(GAP.join(parts).rstrip())
        return out

    lines = row_lines(table.header)
    lines.append(GAP.join("-" * w for w in widths))
    for row in table.rows:
        lines += row_lines(row)
    if table.caption:
        lines += textwrap.wrap(table.caption, width)
    return lines
