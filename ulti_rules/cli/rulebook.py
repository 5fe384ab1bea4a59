"""`ulti rulebook`: the complete rules of a ruleset, as a document people read.

Text for the terminal, Markdown, or one self-contained HTML page that prints on A4, in
Hungarian, English or German (docs/rulebook.md). The document is built by
``ulti_rules.rulebook``; this module only picks the ruleset, the language and the file.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..said import Said
from .common import note
from .completion import complete_ruleset
from .language import command_lang, lang_option
from .terminal import echo, printable

FORMATS = ("text", "md", "html")


@click.command("rulebook")
@click.argument("ruleset", metavar="NAME|PATH", shell_complete=complete_ruleset)
@lang_option("Language of the rulebook.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="text (80 columns, for a terminal), md (Markdown) or html (one page to print on A4).",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the rulebook to this file instead of printing it.",
)
def rulebook_command(ruleset: str, lang: str | None, fmt: str, output: Path | None) -> None:
    """Print the complete rules of a ruleset as a rulebook.

    Players and the deal, cards and points, the auction, every contract and its
    value, the bid ladder, trump, marriages, kontra, the silent bonuses, giving up
    and the end of a session: every setting of the ruleset in plain sentences, with
    the ruleset's own names for bids, contracts and kontra levels.
    """
    from ..rulebook import load_rulebook, render
    from ..safe_files import write_output

    book = load_rulebook(ruleset, command_lang(lang))
    text = printable(render(book, fmt))
    if output is None:
        echo(text, nl=False)
        return
    write_output(output, text.encode("utf-8"))
    note(
        Said(
            "wrote the {format} rulebook of {ruleset} to {path}",
            format=fmt,
            ruleset=book.meta["ruleset"],
            path=output,
        )
    )
