"""Studies: bots play many seeded hands of a ruleset, and what happened is counted.

What ``ulti simulate`` runs, kept free of the command line so a program can run a study
too. ``runner.py`` plays and settles each hand into a plain :class:`HandResult` (seeds
fixed per turn of the deal, so every hand can be played on its own);
``workers.py`` spreads the turns over processes and gives the results back in order;
``summary.py`` counts them (bids won and made, components, payments, kontras, silent
bonuses); ``compare.py`` sets two summaries side by side; ``plot.py`` draws one
(matplotlib, an optional extra).
"""

from __future__ import annotations

from .runner import HandResult, StudySpec, Table, dealer_of, each_turn_seed, turn_seeds
from .summary import Summary
from .workers import played_hands

__all__ = [
    "HandResult",
    "StudySpec",
    "Summary",
    "Table",
    "dealer_of",
    "each_turn_seed",
    "played_hands",
    "turn_seeds",
]
