"""`ulti score FILE`: settle a hand played with real cards from what the table knows.

The document format is in docs/score-keeper.md. The settlement is printed line by
line (what, made or failed, base, red ×, kontra ×, penalty, per defender) and then
the payment per player, in ``--lang``; ``--json`` prints the same for programs, with
ids and the settlement's English names in every language (``settlement_view.py``).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import click

from ..plugins import stdout_to_stderr
from ..scoring.table_facts import settle_sheet
from .common import echo_json, stdout_console
from .language import command_lang, lang_option
from .settlement_view import settlement_json, settlement_tables
from .speech import Speech


@click.command("score")
@click.argument("file", metavar="FILE")
@lang_option("Language of the settlement (names and words; --json keeps ids).")
@click.option("--json", "as_json", is_flag=True, help="Print the settlement as JSON.")
def score_command(file: str, lang: str | None, as_json: bool) -> None:
    """Settle a hand played with real cards.

    FILE is a YAML or JSON document with the ruleset, the bid, trump, kontras and
    what the table knows at the end (card points, tricks, the last trick and the
    trump 7, marriages, who took the aces); see docs/score-keeper.md.
    """
    speech = Speech(command_lang(lang))
    with stdout_to_stderr() if as_json else contextlib.nullcontext():  # plugins' prints
        hand, settlement = settle_sheet(Path(file))
    if as_json:
        echo_json(settlement_json(settlement, hand.players))
        return
    console = stdout_console()
    for table in settlement_tables(settlement, hand.players, hand.ruleset, speech):
        console.print(table)
