"""The rulebook as one self-contained HTML page that prints well on A4.

Inline CSS only: no script, no font, image or style sheet fetched from anywhere, so the
page opens offline and prints the same everywhere. Every text is escaped.
"""

from __future__ import annotations

from html import escape

from .document import Block, Items, Paragraph, Rulebook, Table

STYLE = """
@page { size: A4; margin: 18mm 17mm 20mm 17mm; }
:root { --ink: #1d1a16; --red: #9b1c1c; --rule: #b9ab91; --paper: #fffdf8; }
* { box-sizing: border-box; }
html { background: #ddd6c8; }
body {
  margin: 0; color: var(--ink);
  font: 10.5pt/1.45 "Liberation Serif", "DejaVu Serif", Georgia, "Times New Roman", serif;
  hyphens: auto; text-rendering: optimizeLegibility;
}
.sheet {
  background: var(--paper); max-width: 210mm; margin: 10mm auto; padding: 16mm 17mm 18mm;
  box-shadow: 0 1px 4px rgba(0, 0, 0, .25);
}
header.cover p { text-align: center; }
header.cover { text-align: center; border-bottom: 3px double var(--rule); padding-bottom: 6mm;
  margin-bottom: 6mm; }
.kicker { font-variant: small-caps; letter-spacing: .18em; color: var(--red); margin: 0;
  font-size: 10pt; }
h1 { font-size: 27pt; font-weight: normal; font-variant: small-caps; letter-spacing: .06em;
  margin: 2mm 0 1mm; }
.subtitle { font-style: italic; font-size: 12pt; margin: 0 auto; max-width: 34em; }
.ornament { color: var(--red); letter-spacing: .5em; margin: 3mm 0 0; font-size: 9pt; }
nav.contents { columns: 2; column-gap: 10mm; font-size: 10pt; margin-bottom: 4mm; }
nav.contents h2 { column-span: all; text-align: center; border: 0; margin: 0 0 2mm;
  font-size: 11pt; letter-spacing: .12em; }
nav.contents ol { margin: 0; padding-left: 6mm; }
nav.contents a { color: inherit; text-decoration: none; }
h2 { font-size: 13.5pt; font-weight: bold; font-variant: small-caps; letter-spacing: .04em;
  color: var(--red); border-bottom: 1px solid var(--rule); padding-bottom: 1mm;
  margin: 7mm 0 2.5mm; break-after: avoid; page-break-after: avoid; }
h2 .num { color: var(--ink); font-variant: normal; margin-right: .4em; }
p { margin: 0 0 2mm; text-align: justify; orphans: 3; widows: 3; }
ul.entries { list-style: none; padding: 0; margin: 0 0 2mm; }
ul.entries li { margin: 0 0 2mm; padding-left: 4mm; text-indent: -4mm; break-inside: avoid; }
ul.entries li p { text-indent: -4mm; }
strong.term { font-variant: small-caps; letter-spacing: .02em; font-size: 1.05em; }
table { border-collapse: collapse; width: 100%; margin: 2mm 0 1mm; font-size: 9pt;
  font-variant-numeric: tabular-nums; page-break-inside: auto; }
thead { display: table-header-group; }
tr { break-inside: avoid; page-break-inside: avoid; }
th { text-align: left; font-weight: bold; border-top: 1.5px solid var(--ink);
  border-bottom: 1px solid var(--ink); padding: 1.2mm 1.5mm; vertical-align: bottom; }
td { padding: .8mm 1.5mm; border-bottom: .5px solid #e3dccd; vertical-align: top; }
tbody tr:nth-child(even) td { background: #f6f1e6; }
tbody tr:last-child td { border-bottom: 1.5px solid var(--ink); }
.right { text-align: right; }
.caption { font-size: 9pt; font-style: italic; text-align: right; margin: 0 0 3mm; }
footer { margin-top: 8mm; border-top: 1px solid var(--rule); padding-top: 2mm;
  font-size: 8.5pt; font-style: italic; text-align: center; }
@media print {
  html, .sheet { background: none; }
  .sheet { margin: 0; padding: 0; max-width: none; box-shadow: none; }
  nav.contents a::after { content: ""; }
  h2 { break-after: avoid-page; }
  section { break-inside: auto; }
}
"""


def render_html(book: Rulebook) -> str:
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{escape(book.lang)}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(book.title)} — {escape(book.subtitle)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        '<div class="sheet">',
        '<header class="cover">',
        f'<p class="kicker">{escape(book.meta.get("ruleset", ""))}</p>',
        f"<h1>{escape(book.title)}</h1>",
        f'<p class="subtitle">{escape(book.subtitle)}</p>',
        '<p class="ornament">&#9670; &#9670; &#9670;</p>',
        "</header>",
        '<nav class="contents">',
        f"<h2>{escape(book.contents)}</h2>",
        "<ol>",
        *(f'<li><a href="#{escape(s.key)}">{escape(s.title)}</a></li>' for s in book.sections),
        "</ol>",
        "</nav>",
        "<main>",
    ]
    for number, section in enumerate(book.sections, 1):
        out.append(f'<section id="{escape(section.key)}">')
        out.append(f'<h2><span class="num">{number}.</span>{escape(section.title)}</h2>')
        out += [_block(block) for block in section.blocks]
        out.append("</section>")
    out.append("</main>")
    if book.colophon:
        out.append(f"<footer>{escape(book.colophon)}</footer>")
    out += ["</div>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


def _text(paragraph: Paragraph) -> str:
    text = escape(paragraph.text)
    if paragraph.term is None:
        return text
    return f'<strong class="term">{escape(paragraph.term)}</strong> — {text}'


def _block(block: Block) -> str:
    if isinstance(block, Paragraph):
        return f"<p>{_text(block)}</p>"
    if isinstance(block, Items):
        items = "".join(f"<li>{_text(item)}</li>" for item in block.items)
        return f'<ul class="entries">{items}</ul>'
    return _table(block)


def _table(table: Table) -> str:
    def cell(tag: str, i: int, text: str) -> str:
        css = ' class="right"' if table.alignment(i) == "right" else ""
        return f"<{tag}{css}>{escape(text)}</{tag}>"

    head = "".join(cell("th", i, text) for i, text in enumerate(table.header))
    body = "".join(
        "<tr>" + "".join(cell("td", i, text) for i, text in enumerate(row)) + "</tr>"
        for row in table.rows
    )
    html = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    if table.caption:
        html += f'<p class="caption">{escape(table.caption)}</p>'
    return html
