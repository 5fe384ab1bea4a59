"""Scoring: facts (what happened) -> settlement (who pays whom, per component).

``settle`` is the one entry point; the score keeper (``table_facts``) and the
session ledger (``ledger``) build on it.
"""

from .settlement import Settlement, SettlementError, SettlementLine, Share, settle

__all__ = ["Settlement", "SettlementError", "SettlementLine", "Share", "settle"]
