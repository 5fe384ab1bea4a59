"""Ranking rules: how a ladder's overcall order follows from its bids.

The sources disagree on the order (docs/rules.md#ranking-rules): WP stores a table no
formula reproduces, SN ranks by value alone, DE and HU break ties at equal value. So the
ruleset names its rule (``ranking:``) and the rule is code: a function from the bids,
with their totals and component values, to one rank each. Rules register through
the ``register_ranking_rules`` hook, the built-in ones below too; a rule that derives
ranks gets them renumbered 1..k here, equal numbers staying equal (equal ranks
exclude each other: whoever bids first keeps it).

This module knows no plugins and no loader: ``ladder.py`` calls the rules and turns
what goes wrong into positioned problems.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..i18n import N_

TABLE = "table"
"""The rule in force when a ruleset names none: the ranks as the ladder lists them."""


@dataclass(frozen=True)
class RankedBid:
    """One bid as a ranking rule sees it."""

    id: str
    components: tuple[str, ...]
    """Its contract ids, as the ladder lists them."""
    values: tuple[int, ...]
    """Each component's value in this bid, red already doubled."""
    total: int
    """The bid's total per defender: the sum of ``values``."""
    red: bool
    listed: int
    """Its place in the ladder as written, from 0."""
    rank: int | None
    """The rank the ladder lists for it, if any (only the table rule reads it)."""


RankFunction = Callable[[Sequence[RankedBid]], Sequence[int]]
"""Bids in ladder order -> one whole number each, higher overcalls lower, equal
numbers exclude each other. Only the order matters: ranks are renumbered 1..k."""


@dataclass(frozen=True)
class RankingRule:
    """A named rule, what ``ranking:`` in a ruleset picks."""

    name: str
    description: str
    """One line, shown by ``ulti ladder`` and in the unknown-rule error."""
    rank: RankFunction
    reads_ranks: bool = False
    """True for a rule that takes the ranks written in the ladder (the table rule):
    ranks are then required and checked. False: ranks are derived, and a rank written
    in the ladder is an error."""


def dense_ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """1..k by ascending key, equal keys sharing a rank: for rules written as sort keys."""
    order = {key: i + 1 for i, key in enumerate(sorted(set(keys)))}
    return [order[key] for key in keys]


def _table(bids: Sequence[RankedBid]) -> list[int]:
    return [bid.rank or 0 for bid in bids]


def _value(bids: Sequence[RankedBid]) -> list[int]:
    return dense_ranks([(bid.total,) for bid in bids])


def _value_then_listed(bids: Sequence[RankedBid]) -> list[int]:
    return dense_ranks([(bid.total, bid.listed) for bid in bids])


def _squares(bid: RankedBid) -> int:
    return sum(value * value for value in bid.values)


def _value_then_squares(bids: Sequence[RankedBid]) -> list[int]:
    return dense_ranks([(bid.total, _squares(bid)) for bid in bids])


def _value_then_squares_then_red(bids: Sequence[RankedBid]) -> list[int]:
    return dense_ranks([(bid.total, _squares(bid), int(bid.red)) for bid in bids])


BUILTIN_RULES: tuple[RankingRule, ...] = (
    RankingRule(
        TABLE,
        N_(
            "the ranks as the ladder lists them; a higher value never ranks lower unless a "
            "bid sets rank_exception"
        ),
        _table,
        reads_ranks=True,
    ),
    RankingRule(
        "value",
        N_(
            "by total value alone; equal totals exclude each other, whoever bids first keeps "
            "it (SN's competition rule)"
        ),
        _value,
    ),
    RankingRule(
        "value_then_listed",
        N_(
            "by total value; equal totals rank in the order the ladder lists them, a later "
            "bid above an earlier one"
        ),
        _value_then_listed,
    ),
    RankingRule(
        "value_then_squares",
        N_(
            "by total value, then by the sum of the squared component values (fewer, larger "
            "components rank higher); bids equal in both exclude each other"
        ),
        _value_then_squares,
    ),
    RankingRule(
        "value_then_squares_then_red",
        N_(
            "as value_then_squares, then the red form above the plain one; bids equal in all "
            "three exclude each other"
        ),
        _value_then_squares_then_red,
    ),
)


def normalise(ranks: Sequence[int], rule: RankingRule) -> list[int]:
    """What a rule returned as ranks 1..k (a rule that reads ranks keeps them as written)."""
    return list(ranks) if rule.reads_ranks else dense_ranks([(rank,) for rank in ranks])
