"""What engine and scoring need to know about each bid of the ladder, computed once per game.

Everything here comes from the ruleset data and the contract kinds: whether a bid
is played with a trump the declarer names, with the red suit or without; which
marriages its hundred components need; whether a component makes the declarer
keep the trump 7; whether a kontra on a component binds both defenders. Nothing
here looks at a bid's name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..cards import SUIT_IDS
from ..contracts.base import ContractKind
from ..plugins import Registry
from ..ruleset.ladder import bid_trump, is_plain_parti
from ..ruleset.schema import Bid, ContractSpec, Ruleset

TrumpMode = Literal["suit", "red", "none"]


@dataclass(frozen=True)
class BidInfo:
    """One bid of the ladder, as the engine uses it."""

    bid: Bid
    trump: TrumpMode
    """'suit': a trump the declarer names; 'red': the red suit; 'none': no trump."""
    trump_marriages: int
    """Components that need the trump marriage in the declarer's hand (40-100)."""
    plain_marriages: int
    """Components that need a side-suit marriage in the declarer's hand (20-100)."""
    keeps_seven: str | None
    """The name of a component that makes the declarer keep the trump 7 (English, said
    in the language of the refusal it is part of)."""
    open: bool
    plain_parti: bool
    """A lone, non-red Parti: the bid that may be given up or flagged uncontested."""
    per_defender: frozenset[str]
    """Components whose kontra binds only the defender who called it."""
    suits: tuple[int, ...]
    """The trumps it may be played in, before looking at a hand (empty: no trump): the red
    suit for a red bid; else the fixed suit, or any suit the declarer may name (the red one
    only where a non-red bid may name it)."""
    hundred: bool
    """It needs a marriage in the declarer's hand."""
    biddable: bool
    """It has the ``auction.min_components`` every bid needs: a smaller one may not be
    bid, so it never wins an auction and is never settled."""

    @property
    def id(self) -> str:
        return self.bid.id

    @property
    def names_trump(self) -> bool:
        """Whether the declarer names the trump: a suit bid with no fixed suit, so more
        than one suit is open to it (``suits``)."""
        return len(self.suits) > 1

    @property
    def name(self) -> str:
        """The bid's English name, said in the language of a sentence it is part of."""
        return self.bid.names.named()


@dataclass(frozen=True)
class Catalog:
    """The ladder of one ruleset as :class:`BidInfo`, in rank order."""

    ladder: tuple[BidInfo, ...]
    by_id: dict[str, BidInfo]
    ranks: tuple[int, ...]
    """``ranks[i]`` is the rank of ``ladder[i]``: the overcall threshold by bisection."""
    memo: dict[tuple[object, ...], tuple[object, ...]] = field(default_factory=dict, compare=False)
    """Answers the auction computes again and again (the legal bids in a situation)."""
    legal: dict[tuple[object, ...], tuple[object, ...]] = field(default_factory=dict, compare=False)
    """The auction's legal actions per step, situation and marriages held (``Auction.legal``,
    the most frequent question: a table of its own, so that its key needs no tag)."""

    @property
    def plain_simple(self) -> BidInfo | None:
        """The lowest plain Parti: what GT's opening "Pasar" bids."""
        return next((b for b in self.ladder if b.plain_parti), None)


def kontra_is_personal(ruleset: Ruleset, kind: ContractKind, spec: ContractSpec) -> bool:
    """Whether a kontra on this component binds only the defender who called it (HU: in
    no-trump games each defender doubles for himself), else both defenders."""
    if kind.needs_trump(spec):
        return ruleset.kontra.per_defender_in_trump
    return ruleset.kontra.per_defender_in_no_trump


def _info(ruleset: Ruleset, registry: Registry, bid: Bid) -> BidInfo:
    trump_marriages = plain_marriages = 0
    keeps_seven: str | None = None
    per_defender: set[str] = set()
    specs = [ruleset.contracts[c] for c in bid.components]
    kinds = [registry.kinds[s.kind] for s in specs]
    for cid, spec, kind in zip(bid.components, specs, kinds, strict=True):
        marriage = getattr(spec, "marriage", None)
        if marriage == "trump":
            trump_marriages += 1
        elif marriage == "plain":
            plain_marriages += 1
        if kind.keeps_trump_seven and keeps_seven is None:
            keeps_seven = spec.names.named()
        if kontra_is_personal(ruleset, kind, spec):
            per_defender.add(cid)
    trump = bid_trump(ruleset, bid, registry)
    return BidInfo(
        bid=bid,
        trump=trump,
        trump_marriages=trump_marriages,
        plain_marriages=plain_marriages,
        keeps_seven=keeps_seven,
        open=any(s.open for s in specs),
        plain_parti=is_plain_parti(ruleset, bid, registry),
        per_defender=frozenset(per_defender),
        suits=_suits(ruleset, trump),
        hundred=trump_marriages + plain_marriages > 0,
        biddable=len(bid.components) >= ruleset.auction.min_components,
    )


def _suits(ruleset: Ruleset, trump: TrumpMode) -> tuple[int, ...]:
    """Red bids: the red suit; suit bids: the fixed suit, or any the declarer may name."""
    if trump == "none":
        return ()
    red = int(SUIT_IDS[ruleset.trump.red_suit])
    if trump == "red":
        return (red,)
    if ruleset.trump.fixed is not None:
        return (int(SUIT_IDS[ruleset.trump.fixed]),)
    return tuple(s for s in range(4) if not (s == red and ruleset.trump.red_suit_needs_red_bid))


def build_catalog(ruleset: Ruleset, registry: Registry) -> Catalog:
    """The ladder of ``ruleset`` as the engine and scoring read it (``Game.catalog``)."""
    ordered = sorted(ruleset.ladder, key=lambda bid: bid.rank)
    infos = tuple(_info(ruleset, registry, bid) for bid in ordered)
    return Catalog(infos, {b.id: b for b in infos}, tuple(b.bid.rank for b in infos))
