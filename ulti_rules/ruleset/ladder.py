"""The bid ladder: checks at load time, and the questions the engine and CLI ask of it.

The ladder is data because the sources' ranks cannot all be derived from a formula
(RULES.md §4.2). What *can* be checked is that the data is self-consistent: each
bid's total is the sum of its components, the components may be played together,
and a higher total never ranks lower unless the ruleset says so (``rank_exception``).
Problems come back as dotted key paths that the loader turns into file:line:col.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..contracts.base import ContractKind
from ..plugins import Registry
from .schema import Bid, ContractSpec, Ruleset

Trump = Literal["suit", "red", "none"]
PARTI_KIND = "parti"
"""The kind of the Parti / Simple: what a ``replaces_parti`` kind stands in for."""


@dataclass(frozen=True)
class LadderIssue:
    """A problem found in a validated ruleset, at a dotted key path (``ladder.3.value``)."""

    path: str
    message: str


# --------------------------------------------------------------------------- helpers


def _kind(registry: Registry, spec: ContractSpec) -> ContractKind | None:
    return registry.kinds.get(spec.kind)


def _specs(ruleset: Ruleset, bid: Bid) -> list[ContractSpec]:
    """The catalogue entries of a bid's components (unknown ids left out)."""
    return [ruleset.contracts[c] for c in bid.components if c in ruleset.contracts]


def _needs_trump(registry: Registry, spec: ContractSpec) -> bool:
    kind = _kind(registry, spec)
    return kind.needs_trump(spec) if kind is not None else True


def _red_factor(bid: Bid) -> int:
    return 2 if bid.red else 1


# --------------------------------------------------------------------------- queries


def bid_trump(ruleset: Ruleset, bid: Bid, registry: Registry) -> Trump:
    """Whether the bid is played with a trump the declarer names, with the red suit, or none.

    A bid is a trump bid as soon as one component needs a trump; the combination
    checks make sure no-trump components never stand beside one.
    """
    if any(_needs_trump(registry, spec) for spec in _specs(ruleset, bid)):
        return "red" if bid.red else "suit"
    return "none"


def can_overcall(new: Bid, current: Bid | None) -> bool:
    """A bid may follow another only from a strictly higher rank; equal ranks exclude each other."""
    return current is None or new.rank > current.rank


def silent_values(ruleset: Ruleset, bid: Bid, registry: Registry) -> dict[str, int]:
    """Silent bonus id -> its value (red value in a red bid) where the bid allows it.

    ``applies_to`` as a list names the bids outright. ``auto`` reads the pattern of
    the WP ladder's silent columns (RULES.md §5.2): only trump bids; never where
    the bid already holds a component of the bonus's kind (no silent Ulti inside an
    Ulti) or one that claims its feat (``implied_by``: no silent Four Aces inside a
    Durchmars); and only beside a Parti when the bonus stands in for the Parti's result
    (the silent 100 of WP's table, and any bonus with ``parti: replaces``).
    """
    kinds_in_bid = {spec.kind for spec in _specs(ruleset, bid)}
    trump = bid_trump(ruleset, bid, registry)
    values: dict[str, int] = {}
    for bonus_id, bonus in ruleset.silent_bonuses.items():
        if bonus.applies_to == "auto":
            kind = registry.kinds.get(bonus.condition)
            claimed = kind is not None and bool(kind.implied_by & kinds_in_bid)
            if trump == "none" or bonus.condition in kinds_in_bid or claimed:
                continue
            needs_parti = bonus.condition == "hundred" or bonus.parti == "replaces"
            if needs_parti and PARTI_KIND not in kinds_in_bid:
                continue
        elif bid.id not in bonus.applies_to:
            continue
        values[bonus_id] = bonus.red() if bid.red else bonus.value
    return values


def ladder_rows(ruleset: Ruleset, registry: Registry, lang: str = "en") -> list[dict[str, Any]]:
    """One plain row per bid, in ladder order: what ``ulti ladder --json`` prints."""
    rows: list[dict[str, Any]] = []
    for bid in ruleset.ladder:
        specs = _specs(ruleset, bid)
        rows.append(
            {
                "id": bid.id,
                "rank": bid.rank,
                "value": bid.value,
                "components": [
                    {"id": cid, "value": ruleset.contracts[cid].value * _red_factor(bid)}
                    for cid in bid.components
                    if cid in ruleset.contracts
                ],
                "red": bid.red,
                "open": any(spec.open for spec in specs),
                "names": {code: bid.names.get(code) for code in ("hu", "en", "de")},
                "name": bid.names.get(lang),
                "silent": silent_values(ruleset, bid, registry),
                "trump": bid_trump(ruleset, bid, registry),
            }
        )
    return rows


# --------------------------------------------------------------------------- checks


def check_ladder(ruleset: Ruleset, registry: Registry) -> list[LadderIssue]:
    """Every problem with the catalogue and the ladder of a schema-valid ruleset."""
    issues: list[LadderIssue] = []
    unsound: set[int] = set()
    for i, bid in enumerate(ruleset.ladder):
        found = list(_check_bid(ruleset, registry, i, bid))
        if any(".components." in f.path or f.path.endswith(".value") for f in found):
            unsound.add(i)  # its value is not to be trusted: rank it only once it is fixed
        issues.extend(found)
    issues.extend(_changed_value_hints(ruleset, issues))
    issues.extend(_check_duplicates(ruleset))
    issues.extend(_check_ranks(ruleset, unsound))
    issues.extend(_check_silent(ruleset, registry))
    issues.extend(_check_opening_pass(ruleset))
    issues.extend(_check_min_components(ruleset))
    return issues


def _check_min_components(ruleset: Ruleset) -> Iterable[LadderIssue]:
    """A minimum no bid on the ladder reaches would leave nothing to win the auction with."""
    needed = ruleset.auction.min_components
    largest = max((len(bid.components) for bid in ruleset.ladder), default=0)
    if needed > largest:
        yield LadderIssue(
            "auction.min_components",
            f"every winning bid must have at least {needed} components, but the largest bid "
            f"on the ladder has {largest}: no bid could win the auction",
        )


def _check_opening_pass(ruleset: Ruleset) -> Iterable[LadderIssue]:
    """GT's "Pasar" opens with the plain Simple: the ladder must have one, and allow it."""
    if not ruleset.auction.opener_pass_is_simple:
        return
    plain = [
        bid
        for bid in ruleset.ladder
        if len(bid.components) == 1
        and not bid.red
        and bid.components[0] in ruleset.contracts
        and ruleset.contracts[bid.components[0]].kind == PARTI_KIND
    ]
    if not plain:
        yield LadderIssue(
            "auction.opener_pass_is_simple",
            "the opening pass bids the plain Simple, but the ladder has no plain (non-red) "
            "Parti bid",
        )
    elif ruleset.auction.min_components > 1:
        yield LadderIssue(
            "auction.opener_pass_is_simple",
            f"the opening pass bids the plain Simple, a single component, which "
            f"auction.min_components: {ruleset.auction.min_components} forbids",
        )


def _changed_value_hints(ruleset: Ruleset, issues: list[LadderIssue]) -> Iterable[LadderIssue]:
    """One hint at a contract whose new value left several bids with stale totals.

    A club that changes ``contracts.ulti.value`` in an ``extends`` file inherits the base
    ladder's totals; each bid then fails on its own, and this says why in one line.
    """
    stale = [
        ruleset.ladder[int(issue.path.split(".")[1])]
        for issue in issues
        if issue.path.startswith("ladder.") and issue.path.endswith(".value")
    ]
    if len(stale) < 2:
        return
    shared = set.intersection(*(set(bid.components) for bid in stale))
    for cid in sorted(shared):
        users = sum(1 for bid in ruleset.ladder if cid in bid.components)
        if users == len(stale):
            yield LadderIssue(
                f"contracts.{cid}.value",
                f"every bid with '{cid}' ({users}) now totals differently: when a component's "
                "value changes, restate the 'value' of each bid that holds it, in a `ladder:` "
                "of this file (it replaces the base's whole ladder; `ulti show BASE` prints "
                "one to copy); the lines below name each bid",
            )


def _check_bid(ruleset: Ruleset, registry: Registry, i: int, bid: Bid) -> Iterable[LadderIssue]:
    at = f"ladder.{i}"
    known: list[tuple[str, ContractSpec]] = []
    for j, cid in enumerate(bid.components):
        spec = ruleset.contracts.get(cid)
        if spec is None:
            yield LadderIssue(
                f"{at}.components.{j}",
                f"bid '{bid.id}' names component '{cid}', which is not in contracts "
                f"(known: {', '.join(sorted(ruleset.contracts))})",
            )
        else:
            known.append((cid, spec))
    if len(known) < len(bid.components):
        return  # the total and the combination cannot be judged without every component
    yield from _check_combination(ruleset, registry, at, bid, known)
    factor = _red_factor(bid)
    expected = factor * sum(spec.value for _, spec in known)
    if bid.value != expected:
        if len(known) == 1:
            red = " (red doubles it)" if bid.red else ""
            total = f"its component '{known[0][0]}'{red} is worth {expected}"
        else:
            terms = " + ".join(str(factor * spec.value) for _, spec in known)
            red = " (red doubles each)" if bid.red else ""
            total = f"its components{red} sum to {terms} = {expected}"
        yield LadderIssue(f"{at}.value", f"bid '{bid.id}' has value {bid.value}, but {total}")


def _check_combination(
    ruleset: Ruleset,
    registry: Registry,
    at: str,
    bid: Bid,
    known: list[tuple[str, ContractSpec]],
) -> Iterable[LadderIssue]:
    where = f"{at}.components"
    by_kind: dict[str, list[str]] = {}
    for cid, spec in known:
        by_kind.setdefault(spec.kind, []).append(cid)
    for kind_name, ids in by_kind.items():
        if len(ids) > 1:
            yield LadderIssue(
                where,
                f"bid '{bid.id}' holds {' and '.join(ids)}, two components of kind "
                f"'{kind_name}'; a bid can hold one of each kind",
            )
    no_trump = [cid for cid, spec in known if not _needs_trump(registry, spec)]
    if no_trump and len(known) > 1:
        yield LadderIssue(
            where,
            f"bid '{bid.id}' combines the no-trump component {', '.join(no_trump)} with "
            "others; a no-trump component stands alone",
        )
    if PARTI_KIND in by_kind:
        replacing = [
            cid
            for cid, spec in known
            if (kind := _kind(registry, spec)) is not None and kind.replaces_parti
        ]
        if replacing:
            yield LadderIssue(
                where,
                f"bid '{bid.id}' holds a Parti ({', '.join(by_kind[PARTI_KIND])}) beside "
                f"{', '.join(replacing)}, which replaces the Parti",
            )
    if bid.red:
        if no_trump and not ruleset.trump.red_no_trump:
            yield LadderIssue(
                f"{at}.red",
                f"bid '{bid.id}' is a red no-trump bid, but trump.red_no_trump is false",
            )
        opened = [cid for cid, spec in known if spec.open]
        if opened and not ruleset.open_games.red_allowed:
            yield LadderIssue(
                f"{at}.red",
                f"bid '{bid.id}' is red with the open component {', '.join(opened)}, but "
                "open_games.red_allowed is false",
            )


def _check_duplicates(ruleset: Ruleset) -> Iterable[LadderIssue]:
    seen_ids: dict[str, int] = {}
    seen_bids: dict[tuple[frozenset[str], bool], int] = {}
    for i, bid in enumerate(ruleset.ladder):
        if bid.id in seen_ids:
            yield LadderIssue(
                f"ladder.{i}.id",
                f"bid id '{bid.id}' is used twice (first at ladder.{seen_ids[bid.id]})",
            )
        else:
            seen_ids[bid.id] = i
        key = (frozenset(bid.components), bid.red)
        if key in seen_bids:
            first = ruleset.ladder[seen_bids[key]]
            yield LadderIssue(
                f"ladder.{i}.components",
                f"bid '{bid.id}' is the same bid as '{first.id}' (ladder.{seen_bids[key]}): "
                "the same components and red flag",
            )
        else:
            seen_bids[key] = i


def _count(components: Sequence[str]) -> str:
    return f"{len(components)} component{'' if len(components) == 1 else 's'}"


def _check_ranks(ruleset: Ruleset, unsound: set[int]) -> Iterable[LadderIssue]:
    """Ranks run 1..n in listed order; higher value ranks higher, and at equal value fewer
    components never rank lower. Bids in ``unsound`` (bad total) are left out of the
    comparisons, so one wrong number gives one message."""
    ladder = ruleset.ladder
    ranks = sorted({bid.rank for bid in ladder})
    missing = sorted(set(range(1, (ranks[-1] if ranks else 0) + 1)) - set(ranks))
    if missing:
        yield LadderIssue(
            "ladder",
            f"ranks must run from 1 without gaps; missing: {', '.join(map(str, missing))}",
        )
    for i in range(1, len(ladder)):
        if ladder[i].rank < ladder[i - 1].rank:
            yield LadderIssue(
                f"ladder.{i}.rank",
                f"bid '{ladder[i].id}' (rank {ladder[i].rank}) is listed after "
                f"'{ladder[i - 1].id}' (rank {ladder[i - 1].rank}); list the bids in rank order",
            )
    for i, high in enumerate(ladder):
        for j, low in enumerate(ladder):
            if high.rank_exception or low.rank_exception or i == j or {i, j} & unsound:
                continue
            outvalues = high.value > low.value
            fewer_at_par = high.value == low.value and len(high.components) < len(low.components)
            if outvalues and high.rank <= low.rank:
                yield LadderIssue(
                    f"ladder.{i}.rank",
                    f"bid '{high.id}' (value {high.value}) has rank {high.rank}, not above "
                    f"'{low.id}' (value {low.value}, rank {low.rank}); a higher value must "
                    "rank higher unless one of them sets rank_exception",
                )
            elif fewer_at_par and high.rank < low.rank:
                yield LadderIssue(
                    f"ladder.{i}.rank",
                    f"bid '{high.id}' ({_count(high.components)}) ranks below "
                    f"'{low.id}' ({_count(low.components)}) at the same value "
                    f"{high.value}; at equal value more components never rank higher (WP, "
                    "DE) unless one of them sets rank_exception",
                )


def _check_silent(ruleset: Ruleset, registry: Registry) -> Iterable[LadderIssue]:
    bid_ids = {bid.id for bid in ruleset.ladder}
    for bonus_id, bonus in ruleset.silent_bonuses.items():
        at = f"silent_bonuses.{bonus_id}"
        if bonus.condition not in registry.kinds:
            yield LadderIssue(
                f"{at}.condition",
                f"condition '{bonus.condition}' is not a registered contract kind "
                f"(known: {', '.join(sorted(registry.kinds))})"
                f"{registry.missing_kind_hint(bonus.condition)}",
            )
        if bonus.applies_to != "auto":
            for j, bid_id in enumerate(bonus.applies_to):
                if bid_id not in bid_ids:
                    yield LadderIssue(
                        f"{at}.applies_to.{j}", f"'{bid_id}' is not the id of a bid in the ladder"
                    )
        for j, cid in enumerate(bonus.kontra_from):
            if cid not in ruleset.contracts:
                yield LadderIssue(
                    f"{at}.kontra_from.{j}" if len(bonus.kontra_from) > 1 else f"{at}.kontra_from",
                    f"kontra_from '{cid}' is not a contract id "
                    f"(known: {', '.join(sorted(ruleset.contracts))})",
                )
