"""The bid ladder: totals and ranks derived at load time, the checks, and the questions
the engine and CLI ask of it.

A bid is its components (and its red flag): its total is their sum, red doubling
each, so a file never has to type it (a typed ``value`` is only a check). Its rank
comes from the ruleset's ranking rule (``ranking.py``): the table rule reads the
ranks the ladder lists, because WP's cannot be derived from any formula
(docs/rules.md#the-wikipedia-ladder), and then a higher total must never rank lower
unless the ruleset says so (``rank_exception``); the other rules derive the ranks.
Problems come back as dotted key paths that the loader turns into file:line:col.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Literal

from ..contracts.base import ContractKind
from ..errors import MAX_PROBLEMS, Problem, RulesetError
from ..plugins import BUILTIN, Registry, describe_exception, printable, short_repr
from ..quoting import shorten
from .hints import did_you_mean
from .ranking import TABLE, RankedBid, RankingRule, normalise
from .schema import Bid, ContractSpec, Ruleset, SilentBonus

Trump = Literal["suit", "red", "none"]
UNANNOUNCED = "marriages.in_hundred_game.unannounced"


@dataclass(frozen=True)
class LadderIssue:
    """A problem found in a validated ruleset, at a dotted key path (``ladder.3.value``)."""

    path: str
    message: str
    setting: str | None = None
    """The flag whose ``false`` forbids what the bid holds, where one does: several bids
    one flag forbids are said once, at that flag (``_grouped_by_setting``)."""
    clash: tuple[int, ...] = ()
    """For a bid out of the order of a listed ladder: its place, then the places of the
    bids it clashes with; for the line that sums them up, the places of the bids named.
    The loader looks there for the club's changed value that broke the order."""
    listed: tuple[int, ...] = ()
    """For a bid listed after one of a higher rank: its place and that bid's. The loader
    looks there for a bid a club file moved (``after``/``before``) out of order."""


# --------------------------------------------------------------------------- helpers


def _kind(registry: Registry, spec: ContractSpec) -> ContractKind | None:
    return registry.kinds.get(spec.kind)


def is_parti(spec: ContractSpec, registry: Registry) -> bool:
    """Whether ``spec`` is a Parti / Simple: its registered kind says so (``is_parti``),
    whatever the kind is called. The one test of it for the ladder, the rulebook and
    scoring, as the engine's catalogue asks the same flag."""
    kind = _kind(registry, spec)
    return kind is not None and kind.is_parti


def is_plain_parti(ruleset: Ruleset, bid: Bid, registry: Registry) -> bool:
    """Whether ``bid`` is the plain Simple: a Parti alone, not red (the bid an opening
    pass stands for, and the one a declarer may give up)."""
    if len(bid.components) != 1 or bid.red:
        return False
    spec = ruleset.contracts.get(bid.components[0])
    return spec is not None and is_parti(spec, registry)


def silent_needs_parti(bonus: SilentBonus, registry: Registry) -> bool:
    """Whether ``applies_to: auto`` offers ``bonus`` only in a bid holding a Parti, as it
    stands in for the Parti's result: a bonus with ``parti: replaces``, and the feat of
    a 100 kind (``is_hundred``: WP's silent 100 goes only with bids that carry a Simple).
    The one test of it for the ladder and the rulebook."""
    kind = registry.kinds.get(bonus.condition)
    return bonus.parti == "replaces" or (kind is not None and kind.is_hundred)


def _specs(ruleset: Ruleset, bid: Bid) -> list[ContractSpec]:
    """The catalogue entries of a bid's components (unknown ids left out)."""
    return [ruleset.contracts[c] for c in bid.components if c in ruleset.contracts]


def _needs_trump(registry: Registry, spec: ContractSpec) -> bool:
    kind = _kind(registry, spec)
    return kind.needs_trump(spec) if kind is not None else True


def _red_factor(bid: Bid) -> int:
    return 2 if bid.red else 1


def component_values(ruleset: Ruleset, bid: Bid) -> list[int]:
    """Each known component's value in this bid, red doubled (unknown ids left out)."""
    return [spec.value * _red_factor(bid) for spec in _specs(ruleset, bid)]


def bid_total(ruleset: Ruleset, bid: Bid) -> int:
    """The bid's total per defender: its components' values summed, red doubling each."""
    return sum(component_values(ruleset, bid))


def _typed(bid: Bid, key: str) -> bool:
    """Whether the file wrote ``key`` for this bid (else it is derived)."""
    return key in bid.model_fields_set


# --------------------------------------------------------------------------- ranking


def ranking_rule(ruleset: Ruleset, registry: Registry) -> RankingRule | None:
    """The ranking rule the ruleset names, if it is registered."""
    return registry.ranking_rules.get(ruleset.ranking)


def _deriving_rules(registry: Registry) -> list[str]:
    return [name for name, rule in registry.ranking_rules.items() if not rule.reads_ranks]


def _or_list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _ranked_bids(ruleset: Ruleset) -> list[RankedBid]:
    return [
        RankedBid(
            id=bid.id,
            components=tuple(bid.components),
            values=tuple(values := component_values(ruleset, bid)),
            total=sum(values),
            red=bid.red,
            listed=i,
            rank=bid.rank if _typed(bid, "rank") else None,
        )
        for i, bid in enumerate(ruleset.ladder)
    ]


def _rule_ranks(ruleset: Ruleset, registry: Registry) -> tuple[list[int] | None, list[LadderIssue]]:
    """The ranks the ruleset's rule gives, 1..k; or None and why not (at ``ranking``).

    A plugin's rule is other people's code: an exception or an answer that is not one
    whole number per bid is a problem naming the plugin, never a traceback.
    """
    rule = ranking_rule(ruleset, registry)
    if rule is None:
        names = list(registry.ranking_rules)
        hint = did_you_mean(ruleset.ranking, names)
        return None, [
            LadderIssue(
                "ranking",
                f"unknown ranking rule '{ruleset.ranking}'{hint}; the rules: "
                f"{', '.join(names) or 'none'}{_failed_plugins(registry)}",
            )
        ]
    owner = registry.ranking_owner.get(rule.name, BUILTIN)
    bids = _ranked_bids(ruleset)
    if owner == BUILTIN:
        return normalise(rule.rank(bids), rule), []
    where = f"ranking rule '{rule.name}' of plugin '{owner}'"
    try:
        ranks = rule.rank(bids)
    except (Exception, SystemExit) as exc:
        return None, [
            LadderIssue("ranking", printable(f"{where} failed: {describe_exception(exc)}"))
        ]
    if not (
        isinstance(ranks, Sequence)
        and not isinstance(ranks, str | bytes)
        and len(ranks) == len(bids)
        and all(isinstance(r, int) and not isinstance(r, bool) for r in ranks)
    ):
        return None, [
            LadderIssue(
                "ranking",
                printable(
                    f"{where} returned {short_repr(ranks)}, not one whole number for each of "
                    f"the {len(bids)} bids"
                ),
            )
        ]
    return normalise(ranks, rule), []


def _failed_plugins(registry: Registry) -> str:
    failed = [f"'{f.plugin}'" for f in registry.failures]
    if not failed:
        return ""
    return f" (plugin {', '.join(failed)} failed and was skipped; it may provide the rule)"


def derive_ladder(ruleset: Ruleset, registry: Registry) -> Ruleset:
    """The ruleset with every bid's ``value`` and ``rank`` derived: what the loader returns.

    Run it on a ruleset ``check_ladder`` passed; RulesetError if the rule cannot rank.
    Each bid keeps its ``model_fields_set`` (what the file wrote), so checking the
    result again gives the same answer.
    """
    ranks, issues = _rule_ranks(ruleset, registry)
    if ranks is None:
        raise RulesetError([Problem(ruleset.name, None, None, i.path, i.message) for i in issues])
    ladder = []
    for bid, rank in zip(ruleset.ladder, ranks, strict=True):
        fields = {name: getattr(bid, name) for name in type(bid).model_fields}
        fields.update(value=bid_total(ruleset, bid), rank=rank)
        ladder.append(type(bid).model_construct(set(bid.model_fields_set), **fields))
    return ruleset.model_copy(update={"ladder": tuple(ladder)})


Writer = Callable[[tuple[str | int, ...]], int | None]
"""Which file wrote a key: 0 for the file loaded (merged last), higher for the files
merged before it; None if none did."""


def numbers_in_force(
    merged: dict[str, Any], writer: Writer, registry: Registry, own: int = 0
) -> dict[str, Any]:
    """The merged mapping without the typed numbers a more derived file has overruled.

    A total typed in a base file checked the base's component values; when a file
    merged after it changes one of them (or the bid's components or red flag), that
    total is stale by design and is derived instead. Likewise, under a ranking rule
    that derives ranks, ranks (and ``rank_exception``) were written for another rule
    and are not used, unless the file loaded (``own``: its ``writer`` number; fragments
    it adds ``with`` are merged after it) or the file choosing the rule wrote them: those
    are kept, for ``check_ladder`` to refuse with the rule in force. A fragment's ranks
    place its bids on a ladder that lists them; under a derived order they are not used.
    """
    ladder = merged.get("ladder")
    if not isinstance(ladder, list):
        return merged
    name = merged.get("ranking", TABLE)
    rule = registry.ranking_rules.get(name) if isinstance(name, str) else None
    chooser = writer(("ranking",)) if rule is not None and not rule.reads_ranks else None
    kept: list[Any] = []
    for i, bid in enumerate(ladder):
        if not isinstance(bid, dict):
            kept.append(bid)
            continue
        drop = set()
        if chooser is not None:
            for key in ("rank", "rank_exception"):
                at = writer(("ladder", i, key)) if key in bid else None
                if at is not None and at not in (own, chooser):
                    drop.add(key)
        total_at = writer(("ladder", i, "value")) if "value" in bid else None
        if total_at is not None:
            components = bid.get("components")
            parts: list[tuple[str | int, ...]] = [("ladder", i, "components"), ("ladder", i, "red")]
            if isinstance(components, list):
                parts += [("contracts", c, "value") for c in components if isinstance(c, str)]
            if any((at := writer(part)) is not None and at < total_at for part in parts):
                drop.add("value")
        kept.append({k: v for k, v in bid.items() if k not in drop} if drop else bid)
    return {**merged, "ladder": kept}


# --------------------------------------------------------------------------- queries


def bid_trump(ruleset: Ruleset, bid: Bid, registry: Registry) -> Trump:
    """Whether the bid is played with a trump the declarer names, with the red suit, or none.

    A bid is a trump bid as soon as one component needs a trump; the combination
    checks make sure no-trump components never stand beside one.
    """
    if any(_needs_trump(registry, spec) for spec in _specs(ruleset, bid)):
        return "red" if bid.red else "suit"
    return "none"


def parti_contract(ruleset: Ruleset, registry: Registry) -> str | None:
    """The catalogue's Parti: the id of its first entry of a (registered) Parti kind
    (``is_parti``); None if it has none. A void 100 is settled as this Parti
    (``unannounced: parti``)."""
    return next((cid for cid, spec in ruleset.contracts.items() if is_parti(spec, registry)), None)


def can_overcall(new: Bid, current: Bid | None) -> bool:
    """A bid may follow another only from a strictly higher rank; equal ranks exclude each other."""
    return current is None or new.rank > current.rank


def silent_values(ruleset: Ruleset, bid: Bid, registry: Registry) -> dict[str, int]:
    """Silent bonus id -> its value (red value in a red bid) where the bid allows it.

    ``applies_to`` as a list names the bids outright. ``auto`` reads the pattern of
    the WP ladder's silent columns (docs/rules.md#where-silent-bonuses-apply): only
    trump bids; never where the bid already holds a component of the bonus's kind (no
    silent Ulti inside an Ulti) or one that claims its feat (``implied_by``: no silent
    Four Aces inside a Durchmars); and only beside a Parti when the bonus stands in for
    the Parti's result (``silent_needs_parti``: the silent 100 of WP's table, and any
    bonus with ``parti: replaces``).
    """
    specs = _specs(ruleset, bid)
    kinds_in_bid = {spec.kind for spec in specs}
    holds_parti = any(is_parti(spec, registry) for spec in specs)
    trump = bid_trump(ruleset, bid, registry)
    values: dict[str, int] = {}
    for bonus_id, bonus in ruleset.silent_bonuses.items():
        if bonus.applies_to == "auto":
            kind = registry.kinds.get(bonus.condition)
            claimed = kind is not None and bool(kind.implied_by & kinds_in_bid)
            if trump == "none" or bonus.condition in kinds_in_bid or claimed:
                continue
            if not holds_parti and silent_needs_parti(bonus, registry):
                continue
        elif bid.id not in bonus.applies_to:
            continue
        values[bonus_id] = bonus.red() if bid.red else bonus.value
    return values


def ladder_rows(ruleset: Ruleset, registry: Registry, lang: str = "en") -> list[dict[str, Any]]:
    """One plain row per bid of a loaded (derived) ruleset, lowest rank first, in ladder
    order within a rank: what ``ulti ladder --json`` prints."""
    rows: list[dict[str, Any]] = []
    for bid in sorted(ruleset.ladder, key=lambda bid: bid.rank):
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


def check_ladder(
    ruleset: Ruleset,
    registry: Registry,
    *,
    set_aside: frozenset[str] = frozenset(),
    removed: frozenset[str] = frozenset(),
) -> list[LadderIssue]:
    """Every problem with the catalogue and the ladder of a schema-valid ruleset.

    Typed totals and ranks are judged by what the file wrote (``model_fields_set``),
    so a derived ruleset checks the same as the one it came from. ``set_aside``: the ids
    of contracts the file has, left out for problems of their own (the loader checks the
    rest of a broken file), which a bid's unknown component is still told apart from.
    ``removed``: contracts a file removed (null), whose removal's own problem names every
    bid and bonus that still uses them; their uses are not said again.
    """
    issues: list[LadderIssue] = []
    unsound: set[int] = set()
    contract_ids = sorted({*ruleset.contracts, *set_aside})
    for i, bid in enumerate(ruleset.ladder):
        found = list(_check_bid(ruleset, registry, i, bid, contract_ids, removed))
        if any(".components." in f.path or f.path.endswith(".value") for f in found) or any(
            cid not in ruleset.contracts for cid in bid.components
        ):
            unsound.add(i)  # its total is unknown or in doubt: rank it only once it is fixed
        issues.extend(found)
    issues = _grouped_by_setting(ruleset, issues)
    issues.extend(_changed_value_hints(ruleset, issues))
    issues.extend(_check_duplicates(ruleset))
    issues.extend(_check_names(ruleset))
    issues.extend(_check_ranking(ruleset, registry, unsound))
    issues.extend(_check_silent(ruleset, registry, removed))
    issues.extend(_check_opening_pass(ruleset, registry))
    issues.extend(_check_min_components(ruleset))
    issues.extend(check_unannounced_hundred(ruleset, registry))
    return issues


def check_unannounced_hundred(ruleset: Ruleset, registry: Registry) -> list[LadderIssue]:
    """``unannounced: parti`` settles a void 100 as the catalogue's Parti: there must be
    one, or the first such hand would fail to settle long after ``ulti check`` passed."""
    if ruleset.marriages.in_hundred_game.unannounced != "parti":
        return []
    if parti_contract(ruleset, registry) is not None:
        return []
    return [
        LadderIssue(
            UNANNOUNCED,
            "'parti' settles the Parti in place of a 100 whose marriage was never announced, "
            "but the contracts hold no entry of kind parti: add one (e.g. contracts: {parti: "
            "{kind: parti, names: ..., value: 1}}), or choose 'lost' or 'required'",
        )
    ]


def _check_min_components(ruleset: Ruleset) -> Iterable[LadderIssue]:
    """A minimum no bid on the ladder reaches would leave nothing to win the auction with;
    one only bids that need a marriage reach would leave a forehand without a marriage,
    who must speak, with no bid at all."""
    needed = ruleset.auction.min_components
    largest = max((len(bid.components) for bid in ruleset.ladder), default=0)
    if needed > largest:
        yield LadderIssue(
            "auction.min_components",
            f"every winning bid must have at least {needed} components, but the largest bid "
            f"on the ladder has {largest}: no bid could win the auction",
        )
        return
    free = [len(bid.components) for bid in ruleset.ladder if not _needs_marriage(ruleset, bid)]
    if needed > 1 and not any(size >= needed for size in free):
        yield LadderIssue(
            "auction.min_components",
            f"every bid of at least {needed} components needs a marriage (a 40-100 or "
            "20-100): a player who must bid without one could not; the bids that need none "
            f"have at most {max(free, default=0)} components",
        )


def _needs_marriage(ruleset: Ruleset, bid: Bid) -> bool:
    """Whether a component of ``bid`` (a 100) can only be bid holding a marriage."""
    return any(
        getattr(ruleset.contracts.get(cid), "marriage", None) is not None for cid in bid.components
    )


def _check_opening_pass(ruleset: Ruleset, registry: Registry) -> Iterable[LadderIssue]:
    """GT's "Pasar" opens with the plain Simple: the ladder must have one, and allow it."""
    if not ruleset.auction.opener_pass_is_simple:
        return
    if not any(is_plain_parti(ruleset, bid, registry) for bid in ruleset.ladder):
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
                f"every bid with '{cid}' ({users}) now totals differently: leave `value:` out "
                "of these bids and each total is derived from its components, or restate the "
                "'value' of each; the lines below name each bid",
            )


def _grouped_by_setting(ruleset: Ruleset, issues: list[LadderIssue]) -> list[LadderIssue]:
    """Several bids that one setting forbids, said once at that setting with the line
    that removes them: a club that turns ``open_games.red_allowed`` off means its own
    line, not six lines of the file it extends. One bid stays at that bid (perhaps the
    club's new one)."""
    for setting in dict.fromkeys(issue.setting for issue in issues if issue.setting):
        hit = [issue for issue in issues if issue.setting == setting]
        if len(hit) < 2:
            continue
        ids = [ruleset.ladder[int(issue.path.split(".")[1])].id for issue in hit]
        removal = ", ".join(f"{bid_id}: null" for bid_id in ids)
        issues = [issue for issue in issues if issue not in hit]
        issues.append(
            LadderIssue(
                setting,
                f"false, but the bids {', '.join(ids)} need it true: remove them too "
                f"(ladder: {{{removal}}}), or leave it true",
            )
        )
    return issues


def _check_bid(
    ruleset: Ruleset,
    registry: Registry,
    i: int,
    bid: Bid,
    contract_ids: list[str],
    removed: frozenset[str],
) -> Iterable[LadderIssue]:
    at = f"ladder.{i}"
    known: list[tuple[str, ContractSpec]] = []
    for j, cid in enumerate(bid.components):
        spec = ruleset.contracts.get(cid)
        if spec is None and cid in removed:
            continue  # its removal says so (the total below waits for every component)
        if spec is None:
            yield LadderIssue(
                f"{at}.components.{j}",
                f"bid '{bid.id}' names component '{cid}', which is not in contracts"
                f"{did_you_mean(cid, contract_ids)} (known: {', '.join(contract_ids)})",
            )
        else:
            known.append((cid, spec))
    if len(known) < len(bid.components):
        return  # the total and the combination cannot be judged without every component
    yield from _check_combination(ruleset, registry, at, bid, known)
    factor = _red_factor(bid)
    expected = factor * sum(spec.value for _, spec in known)
    if _typed(bid, "value") and bid.value != expected:
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
    partis = [cid for cid, spec in known if is_parti(spec, registry)]
    if partis:
        replacing = [
            cid
            for cid, spec in known
            if (kind := _kind(registry, spec)) is not None and kind.replaces_parti
        ]
        if replacing:
            yield LadderIssue(
                where,
                f"bid '{bid.id}' holds a Parti ({', '.join(partis)}) beside "
                f"{', '.join(replacing)}, which replaces the Parti",
            )
    if bid.red:
        if no_trump and not ruleset.trump.red_no_trump:
            yield LadderIssue(
                f"{at}.red",
                f"bid '{bid.id}' is a red no-trump bid, but trump.red_no_trump is false",
                "trump.red_no_trump",
            )
        opened = [cid for cid, spec in known if spec.open]
        if opened and not ruleset.open_games.red_allowed:
            yield LadderIssue(
                f"{at}.red",
                f"bid '{bid.id}' is red with the open component {', '.join(opened)}, but "
                "open_games.red_allowed is false",
                "open_games.red_allowed",
            )


def _check_duplicates(ruleset: Ruleset) -> Iterable[LadderIssue]:
    seen_ids: dict[str, int] = {}
    seen_bids: dict[tuple[frozenset[str], bool], int] = {}
    for i, bid in enumerate(ruleset.ladder):
        if bid.id in seen_ids:
            yield LadderIssue(
                f"ladder.{i}.id",
                f"bid id '{bid.id}' is used twice: each bid has an id of its own (the "
                f"first is named '{ruleset.ladder[seen_ids[bid.id]].names.en}')",
            )
        else:
            seen_ids[bid.id] = i
        key = (frozenset(bid.components), bid.red)
        if key in seen_bids:
            first = ruleset.ladder[seen_bids[key]]
            yield LadderIssue(
                f"ladder.{i}.components",
                f"bid '{bid.id}' is the same bid as '{first.id}': the same components and red flag",
            )
        else:
            seen_bids[key] = i


def _check_names(ruleset: Ruleset) -> Iterable[LadderIssue]:
    """No two bids answer to the same word: the score keeper and ``ulti play`` read a bid
    by its id, any of its names or an alias (case aside), and a word two bids share
    would settle or play whichever comes first. A word that is a bid's id is that bid's;
    any other word is the first bid's that says it. Each bid that says another's words
    is told once, at the first of them (the ids themselves are checked above)."""
    ladder = ruleset.ladder
    owner = {bid.id.casefold(): i for i, bid in enumerate(ladder)}
    said: list[tuple[int, str, str]] = []
    for i, bid in enumerate(ladder):
        names = bid.names
        said += [
            (i, f"names.{lang}", word)
            for lang in ("hu", "en", "de")
            if (word := getattr(names, lang)) is not None
        ]
        said += [(i, f"aliases.{k}", alias) for k, alias in enumerate(bid.aliases)]
    for i, _, word in said:
        owner.setdefault(word.casefold(), i)
    clashes: dict[tuple[int, int], tuple[str, list[str]]] = {}
    for i, where, word in said:
        other = owner[word.casefold()]
        if other != i and ladder[other].id != ladder[i].id:  # an id used twice: said above
            _, words = clashes.setdefault((i, other), (where, []))
            if word not in words:
                words.append(word)
    for (i, other), (where, words) in clashes.items():
        quoted = ", ".join(f"'{shorten(word)}'" for word in words)
        yield LadderIssue(
            f"ladder.{i}.{where}",
            f"bid '{ladder[i].id}' answers to {quoted}, as bid '{ladder[other].id}' does: "
            "a score sheet or a player saying it could mean either; give each bid names and "
            "aliases of its own",
        )


def _count(components: Sequence[str]) -> str:
    return f"{len(components)} component{'' if len(components) == 1 else 's'}"


def _check_ranking(
    ruleset: Ruleset, registry: Registry, unsound: set[int]
) -> Iterable[LadderIssue]:
    """The rule must be known and able to rank; then its own checks on the written ranks."""
    rule = ranking_rule(ruleset, registry)
    if rule is None or not rule.reads_ranks:
        _, issues = _rule_ranks(ruleset, registry)
        yield from issues
        if rule is not None:
            yield from _written_ranks(ruleset, rule)
        return
    missing = [i for i, bid in enumerate(ruleset.ladder) if not _typed(bid, "rank")]
    derive = _or_list(_deriving_rules(registry))
    if missing and len(missing) == len(ruleset.ladder):
        yield LadderIssue(
            "ladder",
            f"no bid has a rank, and ranking: {rule.name} takes the ranks the ladder lists: "
            f"write each bid's rank, or derive the order with ranking: {derive}",
        )
        return
    for i in missing:
        yield LadderIssue(
            f"ladder.{i}",
            f"bid '{ruleset.ladder[i].id}' has no rank, and ranking: {rule.name} takes the "
            f"ranks the ladder lists: write `rank:`, or derive the order with ranking: {derive}",
        )
    yield from _check_ranks(ruleset, registry, unsound, set(missing))


def _written_ranks(ruleset: Ruleset, rule: RankingRule) -> Iterable[LadderIssue]:
    """A rank written under a rule that derives them would be silently overruled: say so."""
    written = [
        (i, key)
        for i, bid in enumerate(ruleset.ladder)
        for key in ("rank", "rank_exception")
        if _typed(bid, key)
    ]
    why = (
        f"ranking: {rule.name} derives the ranks ({rule.description}); leave out `rank` and "
        f"`rank_exception`, or list the ranks yourself under ranking: {TABLE}"
    )
    if len(written) > 1 and {i for i, _ in written} == set(range(len(ruleset.ladder))):
        yield LadderIssue("ranking", f"every bid of the ladder writes its rank, but {why}")
        return
    for i, key in written:
        yield LadderIssue(
            f"ladder.{i}.{key}", f"bid '{ruleset.ladder[i].id}' writes `{key}`, but {why}"
        )


def _check_ranks(
    ruleset: Ruleset, registry: Registry, unsound: set[int], unranked: set[int]
) -> Iterable[LadderIssue]:
    """Ranks rise in listed order; higher value ranks higher, and at equal value fewer
    components never rank lower. Ranks only order the bids, so gaps are fine: dropping a
    fragment (``without: [four-aces]``) leaves the Wikipedia table's numbers as they are.
    Bids in ``unsound`` (unknown total) and ``unranked`` are left out of the comparisons,
    so one wrong number gives one message; each bid that breaks the order is named once,
    and when several do, one line says how to fix them all."""
    ladder = ruleset.ladder
    unsound = unsound | unranked
    listed = [i for i in range(len(ladder)) if i not in unranked]
    for before, i in pairwise(listed):
        if ladder[i].rank < ladder[before].rank:
            yield LadderIssue(
                f"ladder.{i}.rank",
                f"bid '{ladder[i].id}' (rank {ladder[i].rank}) is listed after "
                f"'{ladder[before].id}' (rank {ladder[before].rank}); list the bids in rank "
                "order",
                listed=(i, before),
            )
    totals = [  # a bid that names a missing (removed) contract has no known total
        bid_total(ruleset, bid) if all(c in ruleset.contracts for c in bid.components) else None
        for bid in ladder
    ]
    checked = [
        (i, bid, total)
        for i, (bid, total) in enumerate(zip(ladder, totals, strict=True))
        if not bid.rank_exception and i not in unsound
    ]
    clashes: dict[int, list[tuple[int, int]]] = {}
    for i, high, high_total in checked if _may_clash(checked) else ():
        for j, low, low_total in checked:
            if i != j and _clash(high, high_total, low, low_total):
                clashes.setdefault(i, []).append((i, j))
                clashes.setdefault(j, []).append((i, j))
    broken: list[int] = []
    for k in _fewest_to_blame(clashes):
        bid, pairs = ladder[k], clashes[k]
        i, j = pairs[0]
        high_total, low_total = totals[i], totals[j]
        assert high_total is not None and low_total is not None  # no clash without both
        first = (
            _out_of_order(bid, high_total, ladder[j], low_total)
            if i == k
            else _below(ladder[i], high_total, bid, low_total)
        )
        more = f" (and {len(pairs) - 1} more like it)" if len(pairs) > 1 else ""
        broken.append(k)
        partners = tuple(dict.fromkeys(i if j == k else j for i, j in pairs))
        yield LadderIssue(
            f"ladder.{k}.rank",
            first + more + _fitting_ranks(ladder, totals, k),
            clash=(k, *partners),
        )
    if len(broken) > 1:
        yield LadderIssue(
            "ranking",
            f"{len(broken)} bids break the order of ranking: {TABLE} "
            f"({bid_list([ladder[k].id for k in broken])}); {order_fix(registry, len(broken))}",
            clash=tuple(broken),
        )


def bid_list(ids: Sequence[str]) -> str:
    """``a, b, c``: at most eight ids, then ``...``."""
    return ", ".join(ids[:8]) + (", ..." if len(ids) > 8 else "")


def order_fix(registry: Registry, count: int) -> str:
    """How to mend ``count`` bids out of the order of a listed ladder in one step."""
    them = "them" if count > 1 else "it"
    these = "these bids" if count > 1 else "the bid"
    return f"fix {them} in one step: {derive_fix(registry)}, or mark {these} `rank_exception: true`"


def derive_fix(registry: Registry) -> str:
    """The first half of :func:`order_fix`: derive the order from the values."""
    return (
        f"derive the order from the values with ranking: "
        f"{_or_list(_deriving_rules(registry))} (docs/rulesets.md)"
    )


def _fewest_to_blame(clashes: Mapping[int, list[tuple[int, int]]]) -> list[int]:
    """The bids to name for ``clashes`` (each bid's pairs of bids out of order), in
    ladder order: one wrong number in a new bid clashes with every bid it passes, and it
    is that bid the club wrote, not the twenty-five it passes. So the bid in the most
    clashes is named first and its clashes are settled, until none is left (a thousand
    bids all out of order take a thousand rounds of a thousand counts, not more)."""
    open_with = {k: {i if j == k else j for i, j in pairs} for k, pairs in clashes.items()}
    blamed = []
    while open_with:
        worst = max(open_with, key=lambda k: (len(open_with[k]), -k))
        blamed.append(worst)
        for other in open_with.pop(worst):
            left = open_with[other]
            left.discard(worst)
            if not left:
                del open_with[other]
    return sorted(blamed)


def _below(high: Bid, high_total: int, low: Bid, low_total: int) -> str:
    """``_out_of_order(high, ..., low, ...)`` told of ``low``, the bid named."""
    if high_total > low_total:
        return (
            f"bid '{low.id}' (value {low_total}) has rank {low.rank}, not below "
            f"'{high.id}' (value {high_total}, rank {high.rank}); a lower value must rank "
            "lower unless one of them sets rank_exception"
        )
    return (
        f"bid '{low.id}' ({_count(low.components)}) ranks above '{high.id}' "
        f"({_count(high.components)}) at the same value {low_total}; at equal value more "
        "components never rank higher (WP, DE) unless one of them sets rank_exception"
    )


def _fitting_ranks(ladder: Sequence[Bid], totals: Sequence[int | None], k: int) -> str:
    """Where bid ``k``'s value lets it rank among the others: above every bid worth less,
    below every bid worth more, and at equal value not below a bid of more components nor
    above one of fewer (``_clash``; bids with rank_exception or no known value aside)."""
    value = totals[k]
    if value is None:
        return ""
    size = len(ladder[k].components)
    others = [
        (total, bid.rank, len(bid.components))
        for i, (bid, total) in enumerate(zip(ladder, totals, strict=True))
        if i != k and total is not None and not bid.rank_exception
    ]
    lowest = max(
        (
            rank + 1 if total < value else rank
            for total, rank, parts in others
            if total < value or (total == value and parts > size)
        ),
        default=1,
    )
    highest = min(
        (
            rank - 1 if total > value else rank
            for total, rank, parts in others
            if total > value or (total == value and parts < size)
        ),
        default=None,
    )
    if highest is None:
        return f"; its value {value} fits rank {lowest} or higher"
    if lowest > highest:
        return ""
    if lowest == highest:
        return f"; its value {value} fits rank {lowest}"
    return f"; its value {value} fits a rank from {lowest} to {highest}"


def _may_clash(checked: Sequence[tuple[int, Bid, int | None]]) -> bool:
    """Whether any two of ``checked`` may :func:`_clash`; False only where none does.

    The pairs are compared only where this says they may: a sound ladder of a thousand
    bids is a sort, not a million comparisons. No clash means: every bid of a higher total
    ranks above every bid of a lower one, and at one total every bid of fewer components
    ranks at least as high as every bid of more. Both are read from each group's lowest
    and highest rank, groups in ascending order."""
    groups: dict[int, dict[int, list[int]]] = {}
    for _, bid, total in checked:
        if total is not None:
            groups.setdefault(total, {}).setdefault(len(bid.components), []).append(bid.rank)
    below = -math.inf  # the highest rank of the lower totals
    for total in sorted(groups):
        by_count = groups[total]
        if min(min(ranks) for ranks in by_count.values()) <= below:
            return True
        more = -math.inf  # the highest rank of the bids of more components, at this total
        for count in sorted(by_count, reverse=True):
            ranks = by_count[count]
            if min(ranks) < more:
                return True
            more = max(more, *ranks)
        below = more  # every rank of this total is above ``below`` already
    return False


def _clash(high: Bid, high_total: int | None, low: Bid, low_total: int | None) -> bool:
    """Whether ``high`` may not rank where it does beside ``low`` (``_out_of_order`` says
    why): a higher value at no higher rank, or at equal value fewer components lower."""
    if high_total is None or low_total is None:
        return False
    if high_total > low_total:
        return high.rank <= low.rank
    return (
        high_total == low_total
        and len(high.components) < len(low.components)
        and high.rank < low.rank
    )


def _out_of_order(high: Bid, high_total: int, low: Bid, low_total: int) -> str:
    """Why ``high`` may not rank where it does beside ``low``; '' if it may."""
    if high_total > low_total and high.rank <= low.rank:
        return (
            f"bid '{high.id}' (value {high_total}) has rank {high.rank}, not above "
            f"'{low.id}' (value {low_total}, rank {low.rank}); a higher value must "
            "rank higher unless one of them sets rank_exception"
        )
    fewer = len(high.components) < len(low.components)
    if high_total == low_total and fewer and high.rank < low.rank:
        return (
            f"bid '{high.id}' ({_count(high.components)}) ranks below "
            f"'{low.id}' ({_count(low.components)}) at the same value "
            f"{high_total}; at equal value more components never rank higher (WP, "
            "DE) unless one of them sets rank_exception"
        )
    return ""


def _check_silent(
    ruleset: Ruleset, registry: Registry, removed: frozenset[str] = frozenset()
) -> Iterable[LadderIssue]:
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
            hinted = 0  # a hostile list of thousands is matched only as far as shown
            for j, bid_id in enumerate(bonus.applies_to):
                if bid_id not in bid_ids:
                    hinted += 1
                    hint = did_you_mean(bid_id, sorted(bid_ids)) if hinted <= MAX_PROBLEMS else ""
                    yield LadderIssue(
                        f"{at}.applies_to.{j}",
                        f"'{shorten(bid_id)}' is not the id of a bid in the ladder{hint}",
                    )
        for j, cid in enumerate(bonus.kontra_from):
            if cid not in ruleset.contracts and cid not in removed:
                yield LadderIssue(
                    f"{at}.kontra_from.{j}",  # the loader places a lone id written bare
                    f"kontra_from '{cid}' is not a contract id"
                    f"{did_you_mean(cid, ruleset.contracts)} "
                    f"(known: {', '.join(sorted(ruleset.contracts))})",
                )
