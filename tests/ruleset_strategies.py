"""A hypothesis strategy that draws club rulesets, as a club organiser would write them.

Each drawn :class:`Club` is a YAML mapping that ``extends:`` a bundled ruleset
(mostly ``wikipedia``; also ``four-player``, ``two-round-auction``, ``older-20-100``
and ``tournament``) and overrides settings from every section of the schema
(``ulti_rules/ruleset/schema.py``), each within its domain: the talon mode with
packets that fit it, the auction's opener and end-pass rules, the two-round auction,
``min_components``, trump modes, card points and the last trick, rank orders,
marriages, kontra chains (their levels named as clubs name them, non-ASCII too), caps
and windows, the ranking rule with changed contract values, the catalogue's ``open``
flags, a 100's ``marriage`` and a Durchmars's ``trump``, the ladder (bids removed, bids
given aliases, ``rank_exception`` flipped, new bids of the catalogue's components), the
session (``session.end``, ``session.hands``), and the house rules (all-pass payments,
the unannounced 100, the silent-bonus settings, ``silent.replacing``, ``without:
[four-aces]``).

The cross-field rules the loader enforces are kept while drawing, so every club
must load: a club the loader refuses is a bug here, or a valid club refused there.
Draws shrink towards the plain base ruleset (every choice's first option is "leave
the base as it is"), so a failure shrinks to the few settings that cause it.

``auction.min_components`` is drawn no higher than the largest bid that needs no marriage:
the loader refuses a higher one (a forehand without a marriage could not bid).

The ladder is kept valid by construction, as ``ulti_rules/ruleset/ladder.py`` checks it:
the catalogue changes are drawn first, and every bid they (or the club's trump and
open-game rules) make impossible is removed (``fits``: one component of each kind, a
component without trumps alone, no Parti beside a 100 or a Durchmars, red only where
``trump.red_no_trump`` and ``open_games.red_allowed`` allow it). A new bid is drawn from
the combinations that fit and the ladder lacks; under ``ranking: table`` it gets a rank
that keeps the table's order (``rank_range``), or ``rank_exception: true`` where no rank
does, and an exception is cleared only where the bid keeps the order without it. Names
the score keeper reads (a bid's aliases, a kontra level's names) are never another
bid's or level's, as a club's would not be.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from itertools import pairwise, product
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from ulti_rules.cards import RANK_IDS, SUIT_IDS
from ulti_rules.plugins import get_registry
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.ruleset.schema import KONTRA_LEVEL_LIMIT, MAX_BIDS

from conftest import yaml_text

BASES = (
    *("wikipedia",) * 3,
    "four-player",
    "two-round-auction",
    "older-20-100",
    "tournament",
)
"""The bundled rulesets a club extends; wikipedia most often."""
DERIVED_RULES = ("value", "value_then_listed", "value_then_squares", "value_then_squares_then_red")
"""The built-in ranking rules that derive the ranks (``ranking.py``)."""
FOUR_ACES = "four-aces"
SUITS = tuple(SUIT_IDS)
RANKS = tuple(RANK_IDS)
SMALL = (0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 20)
"""Values a club would write; the bounds of each domain are drawn too, now and then."""

KONTRA_NAMES = (
    ("Kontra", "Kontra", "Kontra"),
    ("Rekontra", "Rekontra", "Re"),
    ("Szubkontra", "Subkontra", "Sub"),
    ("Mordkontra", "Mordkontra", "Mord"),
    ("Hirschkontra", "Hirschkontra", "Hirsch"),
    ("Fedák Sári", "Fedák Sári", "Fedák Sári"),
    ("Kerekes bicikli", "Kerekes bicikli", "Kerekes bicikli"),
    ("Buborék", "Bubble", "Blase"),
    ("Bombakontra", "Bomb kontra", "Bombenkontra"),
    ("Szupplé", "Supple", "Supplé"),
)
"""Kontra levels' names (hu, en, de): the bundled rulesets' (after the sources), and a
few a club might make up."""
LETTERS = "aábcdeéfghiíjklmnoóöőpqrstuúüűvwxyzßÁÉŐŰ"
"""Letters for a name a club makes up (no digits: a kontra level's name is no number)."""
ALIAS_WORDS = ("klub", "házi", "Club", "unser", "nuestro", "piros-fehér", "Pasar")
"""The first word of an alias a club gives a bid (``<word> <the bid's id in words>``)."""

Data = dict[str, Any]


def names(en: str) -> dict[str, str]:
    return {"hu": en, "en": en}


@dataclass(frozen=True)
class Club:
    """One drawn club file: the ruleset it extends and the mapping it writes."""

    base: str
    data: Data

    @property
    def name(self) -> str:
        return str(self.data["name"])

    def text(self) -> str:
        return yaml_text(self.data)

    def write(self, folder: Path) -> Path:
        path = folder / f"{self.name}.yaml"
        path.write_text(self.text(), encoding="utf-8")
        return path

    def __repr__(self) -> str:
        return f"Club(base={self.base!r}):\n{self.text()}"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """A failing example prints as the club file it is (hypothesis's pretty printer)."""
        printer.text(repr(self))


# --------------------------------------------------------------------------- what a base holds


@dataclass(frozen=True)
class ContractShape:
    kind: str
    open: bool
    trump: bool
    """Played with trumps (the kind's ``needs_trump``): a component without stands alone."""
    value: int
    replaces_parti: bool
    """Its kind stands in for the Parti (a 100, a Durchmars): never beside one in a bid."""
    marriage: str | None
    """A 100's marriage (``trump`` or ``plain``); None for other kinds."""


@dataclass(frozen=True)
class BidShape:
    id: str
    components: tuple[str, ...]
    red: bool
    rank: int
    rank_exception: bool = False


@dataclass(frozen=True)
class BaseView:
    """What a club must know of the ruleset it extends to write valid overrides."""

    contracts: dict[str, ContractShape]
    bids: tuple[BidShape, ...]
    bonuses: dict[str, Data]
    """id -> the bonus's settings as loaded (``model_dump``)."""
    ranking: str
    four_aces: bool
    two_round: bool
    red_no_trump: bool
    red_allowed: bool
    """The base's ``trump.red_no_trump`` and ``open_games.red_allowed``."""

    def without_four_aces(self) -> BaseView:
        """The view after ``without: [four-aces]``: no Four Aces contract, bids or bonus."""
        return replace(
            self,
            contracts={k: v for k, v in self.contracts.items() if v.kind != "four_aces"},
            bids=tuple(b for b in self.bids if "four_aces" not in b.components),
            bonuses={
                k: {
                    **v,
                    "kontra_from": [c for c in v["kontra_from"] if c != "four_aces"],
                }
                for k, v in self.bonuses.items()
                if v["condition"] != "four_aces"
            },
            four_aces=False,
        )

    def with_catalogue(self, changes: Data) -> BaseView:
        """The view after the club's ``contracts`` changes of ``open``, a 100's
        ``marriage`` and a Durchmars's ``trump`` (``catalogue_changes``)."""
        contracts = dict(self.contracts)
        for cid, change in changes.items():
            shape = contracts[cid]
            contracts[cid] = replace(
                shape,
                open=change.get("open", shape.open),
                trump=change.get("trump", shape.trump),
                marriage=change.get("marriage", shape.marriage),
            )
        return replace(self, contracts=contracts)

    def total(self, components: tuple[str, ...], red: bool) -> int:
        """A bid's total at the base's values (red doubles each component)."""
        return sum(self.contracts[c].value for c in components) * (2 if red else 1)


@cache
def base_view(name: str) -> BaseView:
    rules = load_ruleset(name)
    kinds = get_registry().kinds
    contracts = {
        cid: ContractShape(
            kind=spec.kind,
            open=spec.open,
            trump=kinds[spec.kind].needs_trump(spec),
            value=spec.value,
            replaces_parti=kinds[spec.kind].replaces_parti,
            marriage=getattr(spec, "marriage", None),
        )
        for cid, spec in rules.contracts.items()
    }
    return BaseView(
        contracts=contracts,
        bids=tuple(
            BidShape(b.id, tuple(b.components), b.red, b.rank, b.rank_exception)
            for b in rules.ladder
        ),
        bonuses={k: b.model_dump(mode="json") for k, b in rules.silent_bonuses.items()},
        ranking=rules.ranking,
        four_aces=any(shape.kind == "four_aces" for shape in contracts.values()),
        two_round=rules.auction.two_round is not None,
        red_no_trump=rules.trump.red_no_trump,
        red_allowed=rules.open_games.red_allowed,
    )


# --------------------------------------------------------------------------- small draws


def sometimes(draw: st.DrawFn, tenths: int) -> bool:
    """True with about ``tenths``/10 odds; shrinks to False (the base's own setting)."""
    return draw(st.integers(0, 9)) >= 10 - tenths


def small(draw: st.DrawFn, high: int) -> int:
    """A small value as clubs write them, or anything up to ``high`` now and then."""
    if sometimes(draw, 1):
        return draw(st.integers(0, high))
    return draw(st.sampled_from([v for v in SMALL if v <= high]))


def flag(draw: st.DrawFn) -> bool:
    return draw(st.booleans())


def pick(draw: st.DrawFn, options: tuple[Any, ...] | list[Any]) -> Any:
    return draw(st.sampled_from(list(options)))


def set_some(draw: st.DrawFn, tenths: int, choices: dict[str, st.SearchStrategy[Any]]) -> Data:
    """Each key, with ``tenths``/10 odds, set to a draw from its strategy."""
    return {key: draw(strategy) for key, strategy in choices.items() if sometimes(draw, tenths)}


# --------------------------------------------------------------------------- sections


def packets(draw: st.DrawFn, talon: str) -> list[list[int]]:
    """Packet rounds that deal each active seat its hand (forehand 12 with the talon)."""
    totals = (12 if talon == "forehand" else 10, 10, 10)
    rounds = draw(st.integers(1, 4))
    columns = []
    for total in totals:
        cuts = sorted(
            draw(st.lists(st.integers(0, total), min_size=rounds - 1, max_size=rounds - 1))
        )
        bounds = [0, *cuts, total]
        columns.append([b - a for a, b in pairwise(bounds)])
    return [[column[r] for column in columns] for r in range(rounds)]


def deal_section(draw: st.DrawFn) -> Data:
    talon = pick(draw, ("forehand", "set_aside", "none"))
    return {"talon": talon, "packets": packets(draw, talon)}


def points_section(draw: st.DrawFn) -> Data:
    section: Data = {}
    if sometimes(draw, 6):
        ranks = draw(st.lists(st.sampled_from(RANKS), max_size=4, unique=True))
        section["card_points"] = {rank: small(draw, 100) for rank in ranks}
    if sometimes(draw, 5):
        section["last_trick"] = small(draw, 100)
    section.update(
        set_some(
            draw,
            3,
            {
                "talon_to": st.sampled_from(["declarer", "defenders", "nobody"]),
                "talon_counts_toward_hundred": st.booleans(),
            },
        )
    )
    return section


def ranks_section(draw: st.DrawFn) -> Data:
    orders = st.permutations(list(RANKS))
    return set_some(
        draw, 4, {"trump_game": orders, "trump_game_side_suits": orders, "no_trump": orders}
    )


def marriages_section(draw: st.DrawFn) -> Data:
    section = set_some(
        draw,
        3,
        {
            "announce": st.sampled_from(["first_trick", "on_play"]),
            "count_in_parti": st.booleans(),
            "require_trick": st.booleans(),
            "optional": st.booleans(),
        },
    )
    for key in ("trump_value", "plain_value"):
        if sometimes(draw, 3):
            section[key] = small(draw, 100)
    hundred = set_some(
        draw,
        4,
        {
            "declarer": st.sampled_from(["bid_only", "all"]),
            "defenders": st.sampled_from(["none", "all"]),
            "unannounced": st.sampled_from(["required", "lost", "parti"]),
        },
    )
    if hundred:
        section["in_hundred_game"] = hundred
    return section


def trump_section(draw: st.DrawFn) -> Data:
    section = set_some(
        draw,
        3,
        {
            "named": st.sampled_from(["after_auction", "in_bid"]),
            "red_suit": st.sampled_from(SUITS),
            "red_suit_needs_red_bid": st.booleans(),
            "red_no_trump": st.booleans(),
        },
    )
    if sometimes(draw, 2):
        section["fixed"] = pick(draw, SUITS)
    return section


def play_section(draw: st.DrawFn) -> Data:
    return set_some(
        draw,
        2,
        {
            "first_lead": st.sampled_from(["declarer", "forehand"]),
            "must_follow": st.booleans(),
            "must_trump": st.booleans(),
            "must_beat": st.booleans(),
        },
    )


def open_games_section(draw: st.DrawFn) -> Data:
    return set_some(
        draw,
        3,
        {
            "exposes": st.sampled_from(["declarer", "all"]),
            "after_trick": st.integers(0, 10),
            "red_allowed": st.booleans(),
        },
    )


def simple_section(draw: st.DrawFn) -> Data:
    section = set_some(
        draw,
        3,
        {
            "uncontested": st.sampled_from(["play", "lose_double"]),
            "uncontested_played_out": st.booleans(),
            "give_up_allowed": st.booleans(),
        },
    )
    if sometimes(draw, 2):
        section["give_up_cost"] = small(draw, 1000)
    return section


def level_names(draw: st.DrawFn, level: int, taken: set[str]) -> dict[str, str]:
    """A kontra level's names as a club writes them: the sources' (Szubkontra, Mordkontra,
    ...), or a word of its own, non-ASCII letters and all. The score keeper reads a level
    by any of its names, so no name is another level's (``K<level>`` if the draw is)."""
    if sometimes(draw, 2):
        word = draw(st.text(LETTERS, min_size=1, max_size=12))
        drawn = {"hu": word.capitalize(), "en": word}
    elif sometimes(draw, 7):
        hu, en, de = pick(draw, KONTRA_NAMES)
        drawn = {"hu": hu, "en": en, "de": de} if flag(draw) else {"hu": hu, "en": en}
    else:
        drawn = names(f"K{level}")
    if {n.casefold() for n in drawn.values()} & taken:
        drawn = names(f"K{level}")  # letters only above: never another level's
    taken |= {n.casefold() for n in drawn.values()}
    return drawn


def kontra_levels(draw: st.DrawFn) -> list[Data]:
    count = (
        draw(st.integers(0, KONTRA_LEVEL_LIMIT)) if sometimes(draw, 2) else draw(st.integers(1, 7))
    )
    doubling = not sometimes(draw, 3)
    levels = []
    taken: set[str] = set()
    multiplier = 1
    for i in range(count):  # each call raises the stake or keeps it (the schema's check)
        multiplier = (
            2 ** (i + 1) if doubling else draw(st.integers(multiplier, 2**KONTRA_LEVEL_LIMIT))
        )
        levels.append(
            {
                "names": level_names(draw, i + 1, taken),
                "multiplier": multiplier,
                "by": "defenders" if i % 2 == 0 else "declarer",
            }
        )
    return levels


def kontra_section(draw: st.DrawFn) -> Data:
    windows = ["own_card_trick1", "end_trick1", "before_lead_trick2"]
    section = set_some(
        draw,
        3,
        {
            "window": st.sampled_from(windows),
            "later_window": st.sampled_from(["same", *windows]),
            "window_opens": st.sampled_from(["first_trick", "after_own_card"]),
            "per_defender_in_no_trump": st.booleans(),
            "per_defender_in_trump": st.booleans(),
            "max_level": st.none() | st.integers(0, KONTRA_LEVEL_LIMIT),
        },
    )
    if sometimes(draw, 3):
        section["levels"] = kontra_levels(draw)
    return section


def two_round_section(draw: st.DrawFn) -> Data:
    return set_some(
        draw,
        4,
        {
            "first_round_cards": st.integers(1, 10),
            "multiplier": st.integers(1, 16),
            "opener_must_bid": st.booleans(),
            "end_passes": st.integers(1, 3),
            "trump_named": st.sampled_from(["with_bid", "before_extra_cards"]),
            "overcall_by": st.sampled_from(["rank", "value"]),
            "same_trump_binds_others": st.booleans(),
        },
    )


def auction_section(draw: st.DrawFn, view: BaseView, largest: int) -> Data:
    """The auction; ``largest``: the most components of a bid on the club's ladder that
    needs no marriage (a minimum above it is refused: a forehand without a marriage could
    not bid)."""
    section = set_some(
        draw,
        3,
        {
            "opener_must_bid": st.booleans(),
            "end_passes": st.integers(1, 3),
            "self_robbing": st.booleans(),
            "talon_exchange_optional": st.booleans(),
            "min_components": st.integers(1, largest),
        },
    )
    if sometimes(draw, 2) and section.get("min_components", 1) == 1:
        section["opener_pass_is_simple"] = flag(draw)
    if sometimes(draw, 4):
        rule = pick(draw, ("redeal", "pass_out", "forehand_pays"))
        section["all_pass"] = rule
        if rule == "forehand_pays":
            section["all_pass_payment"] = small(draw, 1000)
    if view.two_round:
        two = two_round_section(draw)
        if two:
            section["two_round"] = two
    elif sometimes(draw, 1):
        section["two_round"] = two_round_section(draw)
    return section


# --------------------------------------------------------------------------- catalogue


def catalogue_changes(draw: st.DrawFn, view: BaseView) -> Data:
    """What makes a component another game: ``open``, a 100's ``marriage`` and whether a
    Durchmars has trumps. Drawn before the ladder, which must then drop the bids they
    break (``ladder_removals``); ``contracts_section`` writes them with the values."""
    section: Data = {}
    if not sometimes(draw, 3):
        return section
    for cid, shape in view.contracts.items():
        change: Data = {}
        if sometimes(draw, 1):
            change["open"] = not shape.open
        if shape.kind == "hundred" and sometimes(draw, 2):
            change["marriage"] = "plain" if shape.marriage == "trump" else "trump"
        if shape.kind == "durchmars" and sometimes(draw, 2):
            change["trump"] = not shape.trump
        if change:
            section[cid] = change
    return section


def contracts_section(draw: st.DrawFn, view: BaseView, derived: bool, catalogue: Data) -> Data:
    """Changed contract values (only where the ranking rule derives the order from them:
    under ``table`` a new value would break the written ranks) and kinds' parameters,
    beside the ``catalogue`` changes drawn before the ladder."""
    section: Data = {cid: dict(change) for cid, change in catalogue.items()}
    for cid, shape in view.contracts.items():
        kind = shape.kind
        change: Data = section.get(cid, {})
        if derived and sometimes(draw, 3):
            change["value"] = small(draw, 1000)
        if kind == "ulti" and sometimes(draw, 3):
            change["failure_penalty"] = small(draw, 1000)
            change["penalty_multiplied_by_kontra"] = flag(draw)
        if kind == "hundred" and sometimes(draw, 2):
            change["target"] = pick(draw, (1, 40, 60, 80, 100, 120, 200, 1000))
        if change:
            section[cid] = change
    return section


def trump_kinds(view: BaseView) -> list[str]:
    """Conditions a new silent bonus may have: the trump kinds of the catalogue."""
    kinds = {c.kind for c in view.contracts.values() if c.trump and c.kind != "parti"}
    return sorted(kinds)


def bonus_changes(draw: st.DrawFn, current: Data, view: BaseView, bid_ids: list[str]) -> Data:
    """Overrides for one silent bonus whose settings (as merged so far) are ``current``;
    keeps the schema's cross-field rules on the merged result."""
    change = set_some(
        draw,
        3,
        {
            "value": st.sampled_from(SMALL),
            "loss_factor": st.integers(0, 10),
            "scored_by": st.sampled_from(["declarer", "either_side"]),
            "parti": st.sampled_from(["adds", "replaces"]),
        },
    )
    if sometimes(draw, 2):
        ids = sorted(view.contracts)
        change["kontra_from"] = draw(st.lists(st.sampled_from(ids), max_size=4, unique=True))
    if sometimes(draw, 2):
        change["applies_to"] = draw(st.lists(st.sampled_from(bid_ids), max_size=8, unique=True))
    merged = {**current, **change}
    condition = merged["condition"]
    if condition == "hundred":
        if sometimes(draw, 3):
            change["counts_marriages"] = pick(draw, ("all", "one"))
        if sometimes(draw, 3) and merged.get("red_value") is None:
            change["marriage_values"] = {"trump": small(draw, 1000), "plain": small(draw, 1000)}
        elif sometimes(draw, 2) and merged.get("marriage_values") is None:
            change["red_value"] = small(draw, 2000)
    elif sometimes(draw, 2):
        change["red_value"] = small(draw, 2000)
    if condition == "durchmars" and sometimes(draw, 5):
        change["defenders"] = pick(draw, ("one", "together"))
    merged = {**current, **change}
    if condition != "hundred" and sometimes(draw, 3):
        change.update(against_everyone=True, scored_by="either_side", parti="adds")
    elif merged.get("against_everyone") and (
        merged["scored_by"] != "either_side" or merged["parti"] != "adds"
    ):
        change["against_everyone"] = False  # the base's feat no longer fits the club's
    return change


def new_bonus(draw: st.DrawFn, view: BaseView, bid_ids: list[str], number: int) -> Data:
    condition = pick(draw, trump_kinds(view))
    bonus: Data = {
        "condition": condition,
        "names": names(f"Club silent {condition} {number}"),
        "value": small(draw, 1000),
    }
    bonus.update(
        bonus_changes(draw, {**bonus, "scored_by": "declarer", "parti": "adds"}, view, bid_ids)
    )
    return bonus


def silent_section(draw: st.DrawFn, view: BaseView, bid_ids: list[str]) -> Data:
    section: Data = {}
    for bonus_id, current in view.bonuses.items():
        if sometimes(draw, 1):
            section[bonus_id] = None  # removed
        elif sometimes(draw, 5):
            change = bonus_changes(draw, current, view, bid_ids)
            if change:
                section[bonus_id] = change
    for number in range(draw(st.integers(0, 2)) if sometimes(draw, 2) else 0):
        section[f"club_silent_{number}"] = new_bonus(draw, view, bid_ids, number)
    return section


# --------------------------------------------------------------------------- the club


def red_rules(view: BaseView, trump: Data, open_games: Data) -> tuple[bool, bool]:
    """``trump.red_no_trump`` and ``open_games.red_allowed`` as the club plays them."""
    return (
        trump.get("red_no_trump", view.red_no_trump),
        open_games.get("red_allowed", view.red_allowed),
    )


def fits(view: BaseView, components: tuple[str, ...], red: bool, reds: tuple[bool, bool]) -> bool:
    """Whether a bid of ``components`` is one the loader takes (``ladder._check_combination``):
    one component of each kind; a component without trumps alone; no Parti beside a kind
    that replaces it; red only where ``reds`` (``red_rules``) allow it."""
    shapes = [view.contracts[c] for c in components]
    kinds = [s.kind for s in shapes]
    no_trump = not all(s.trump for s in shapes)
    red_no_trump, red_allowed = reds
    return not (
        len(set(kinds)) < len(kinds)
        or (no_trump and len(shapes) > 1)
        or ("parti" in kinds and any(s.replaces_parti for s in shapes))
        or (red and no_trump and not red_no_trump)
        or (red and any(s.open for s in shapes) and not red_allowed)
    )


def ladder_removals(draw: st.DrawFn, view: BaseView, trump: Data, open_games: Data) -> set[str]:
    """Bids the club removes: those its trump and open-game rules and its changed
    catalogue (``catalogue_changes``) forbid, and a few more."""
    reds = red_rules(view, trump, open_games)
    gone = {bid.id for bid in view.bids if not fits(view, bid.components, bid.red, reds)}
    if sometimes(draw, 2):
        others = sorted(b.id for b in view.bids if b.id != "parti" and b.id not in gone)
        gone |= set(draw(st.lists(st.sampled_from(others), max_size=6, unique=True)))
    return gone


def out_of_order(high: BidShape, high_total: int, low: BidShape, low_total: int) -> bool:
    """``ranking: table``'s check (``ladder._out_of_order``): a higher total ranks higher,
    and at an equal total more components never rank higher."""
    fewer = len(high.components) < len(low.components)
    return (high_total > low_total and high.rank <= low.rank) or (
        high_total == low_total and fewer and high.rank < low.rank
    )


def ordered(view: BaseView, bid: BidShape, bids: list[BidShape]) -> bool:
    """Whether ``bid`` keeps the table's order beside each bid without ``rank_exception``."""
    total = view.total(bid.components, bid.red)
    for other in bids:
        if other.id == bid.id or other.rank_exception:
            continue
        theirs = view.total(other.components, other.red)
        if out_of_order(bid, total, other, theirs) or out_of_order(other, theirs, bid, total):
            return False
    return True


def rank_range(
    view: BaseView, components: tuple[str, ...], red: bool, bids: list[BidShape]
) -> tuple[int, int]:
    """The ranks at which a new bid keeps the table's order (``ordered``): ``(low, high)``,
    empty when ``low > high``."""
    total, count = view.total(components, red), len(components)
    low, high = 1, MAX_BIDS
    for bid in bids:
        if bid.rank_exception:
            continue
        theirs = view.total(bid.components, bid.red)
        if total > theirs or (total == theirs and count < len(bid.components)):
            low = max(low, bid.rank + (total > theirs))
        elif total < theirs or (total == theirs and count > len(bid.components)):
            high = min(high, bid.rank - (total < theirs))
    return low, high


def aliases(draw: st.DrawFn, bid_id: str) -> list[str]:
    """Other names for a bid (none clears the base's): each says the bid's id, so that no
    two bids share one (the score keeper reads a bid by any of them)."""
    words = draw(st.lists(st.sampled_from(ALIAS_WORDS), max_size=3, unique=True))
    said = bid_id.replace("_", " ")
    return [f"{word} {said}" for word in words]


Shape = tuple[tuple[str, ...], bool]
"""A bid's components and red flag."""


def combinations(view: BaseView, reds: tuple[bool, bool]) -> list[Shape]:
    """Every bid the loader takes (``fits``) of the catalogue's components, in its order:
    at most one component of each kind with trumps, or one without trumps alone."""
    by_kind: dict[str, list[str | None]] = {}
    for cid, shape in view.contracts.items():
        if shape.trump:
            by_kind.setdefault(shape.kind, [None]).append(cid)
    chosen = (tuple(c for c in choice if c is not None) for choice in product(*by_kind.values()))
    alone = [(cid,) for cid, shape in view.contracts.items() if not shape.trump]
    return [
        (components, red)
        for components in [*(c for c in chosen if c), *alone]
        for red in (False, True)
        if fits(view, components, red, reds)
    ]


def new_bid(
    draw: st.DrawFn, view: BaseView, bids: list[BidShape], table: bool, possible: list[Shape]
) -> tuple[Data, BidShape] | None:
    """A bid the ladder lacks, of the ``possible`` ones; under ``table`` at a rank that keeps
    the order, or with ``rank_exception`` where none does. None if none is left."""
    taken = {(frozenset(b.components), b.red) for b in bids}
    options = [(c, red) for c, red in possible if (frozenset(c), red) not in taken]
    if not options:
        return None
    components, red = pick(draw, options)
    number = sum(1 for b in bids if b.id.startswith("club_bid_"))
    bid_id = f"club_bid_{number}"
    entry: Data = {
        "components": list(components),
        "names": {"hu": f"klub licit {number}", "en": f"Club bid {number}"},
    }
    if red:
        entry["red"] = True
    shape = BidShape(bid_id, components, red, rank=0)
    if table:
        low, high = rank_range(view, components, red, bids)
        exception = low > high
        rank = draw(st.integers(1, MAX_BIDS) if exception else st.integers(low, high))
        entry["rank"] = rank
        if exception:
            entry["rank_exception"] = True
        shape = replace(shape, rank=rank, rank_exception=exception)
    if sometimes(draw, 3):
        entry["aliases"] = aliases(draw, bid_id)
    return entry, shape


def ladder_changes(
    draw: st.DrawFn, view: BaseView, bids: list[BidShape], table: bool, reds: tuple[bool, bool]
) -> tuple[Data, list[BidShape]]:
    """Bids the club edits (aliases; under ``table``, ``rank_exception`` set on any bid, or
    cleared where the bid keeps the order without it) and bids it adds: the ``ladder``
    entries, and the bids after them."""
    entries: Data = {}
    if sometimes(draw, 3):
        ids = [b.id for b in bids]
        for bid_id in draw(st.lists(st.sampled_from(ids), min_size=1, max_size=3, unique=True)):
            entries[bid_id] = {"aliases": aliases(draw, bid_id)}
    if table and sometimes(draw, 3):
        for _ in range(draw(st.integers(1, 3))):
            flippable = [
                b
                for b in bids
                if not b.rank_exception or ordered(view, replace(b, rank_exception=False), bids)
            ]
            bid = pick(draw, flippable)
            flipped = replace(bid, rank_exception=not bid.rank_exception)
            bids = [flipped if b.id == bid.id else b for b in bids]
            entries.setdefault(bid.id, {})["rank_exception"] = flipped.rank_exception
    possible = combinations(view, reds) if sometimes(draw, 3) else []
    for _ in range(draw(st.integers(1, 3)) if possible else 0):
        added = new_bid(draw, view, bids, table, possible)
        if added is None:
            break
        entry, shape = added
        entries[shape.id] = entry
        bids = [*bids, shape]
    return entries, bids


def session_section(draw: st.DrawFn) -> Data:
    """How the session ends, and its planned hands: mostly few, so that the property
    test's session ledger reaches its end (``null`` keeps none planned)."""
    section: Data = {}
    if sometimes(draw, 4):
        section["end"] = pick(draw, ("none", "heart_ace"))
    if sometimes(draw, 3):
        if sometimes(draw, 1):
            section["hands"] = None
        elif sometimes(draw, 2):
            section["hands"] = draw(st.integers(1, 10_000))
        else:
            section["hands"] = pick(draw, (1, 2, 3, 4, 6, 24))
    return section


def club_title(draw: st.DrawFn, base: str) -> str | dict[str, str]:
    """A title as a club writes it: one line, or a line in some of the languages (one
    alone, often: the club's own), which replaces the base's title in every language."""
    line = f"A drawn club on {base}"
    if sometimes(draw, 2):
        return line
    langs = draw(st.lists(st.sampled_from(("hu", "en", "de")), min_size=1, max_size=3, unique=True))
    return {lang: f"{line} ({lang}) {draw(st.text(LETTERS, max_size=8))}" for lang in langs}


@st.composite
def club_rulesets(draw: st.DrawFn) -> Club:
    """A club file extending a bundled ruleset, with settings drawn from every section."""
    base = pick(draw, BASES)
    view = base_view(base)
    data: Data = {"name": "club", "title": club_title(draw, base), "extends": base}
    if view.four_aces and sometimes(draw, 3):
        data["without"] = [FOUR_ACES]
        view = view.without_four_aces()

    sections: Data = {}
    if sometimes(draw, 3):
        sections["players"] = {"count": pick(draw, (3, 4)), "sitting_out_dealer_pays": flag(draw)}
    if sometimes(draw, 1):
        sections["direction"] = "clockwise"
    sections["deal"] = deal_section(draw) if sometimes(draw, 4) else {}
    if sometimes(draw, 4):  # whether a misdeal passes the deal on: the session's end nears
        sections["deal"]["misdeal_redeal_same_dealer"] = flag(draw)
    sections["points"] = points_section(draw)
    sections["ranks"] = ranks_section(draw) if sometimes(draw, 2) else {}
    sections["marriages"] = marriages_section(draw)
    sections["trump"] = trump_section(draw)
    sections["play"] = play_section(draw)
    sections["open_games"] = open_games_section(draw)
    sections["simple"] = simple_section(draw)
    sections["kontra"] = kontra_section(draw)

    catalogue = catalogue_changes(draw, view)
    view = view.with_catalogue(catalogue)
    gone = ladder_removals(draw, view, sections["trump"], sections["open_games"])
    ranking = view.ranking
    if sometimes(draw, 5):
        ranking = pick(
            draw, (*DERIVED_RULES, "table") if view.ranking == "table" else DERIVED_RULES
        )
        sections["ranking"] = ranking
    reds = red_rules(view, sections["trump"], sections["open_games"])
    kept = [b for b in view.bids if b.id not in gone]
    changed, bids = ladder_changes(draw, view, kept, ranking == "table", reds)
    bid_ids = [b.id for b in bids]
    largest = max(
        len(b.components)
        for b in bids
        if all(view.contracts[c].marriage is None for c in b.components)
    )
    sections["auction"] = auction_section(draw, view, largest)

    sections["contracts"] = contracts_section(draw, view, ranking != "table", catalogue)
    sections["silent_bonuses"] = silent_section(draw, view, bid_ids)
    if sometimes(draw, 3):
        sections["silent"] = {"replacing": pick(draw, ("highest", "all"))}
    sections["ladder"] = {**{bid_id: None for bid_id in sorted(gone)}, **changed}
    sections["session"] = session_section(draw)
    data.update({key: value for key, value in sections.items() if value not in ({}, None)})
    return Club(base, data)
