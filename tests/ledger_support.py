"""A small session for the ledger tests: two hands of one Ulti, saved as a ledger file."""

from __future__ import annotations

from pathlib import Path

from ulti_rules.scoring.ledger import add_hand, new_ledger
from ulti_rules.scoring.ledger_file import save_ledger
from ulti_rules.scoring.sheet import read_sheet

from settlement_support import BEN_MAKES_ULTI, LEDGER_PLAYERS


def two_hand_session(folder: Path) -> tuple[Path, Path]:
    """``folder/s.json``: a wikipedia session of Anna, Ben and Carla with two hands of
    BEN_MAKES_ULTI; and ``folder/hand.yaml``, that hand, to add again."""
    hand = folder / "hand.yaml"
    hand.write_text(BEN_MAKES_ULTI, "utf-8")
    ledger = new_ledger("wikipedia", LEDGER_PLAYERS, None, None)
    sheet, where = read_sheet(hand)
    for _ in range(2):
        add_hand(ledger, sheet, where, folder, source="hand.yaml")
    path = folder / "s.json"
    save_ledger(ledger, path)
    return path, hand
