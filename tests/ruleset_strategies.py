"""A hypothesis strategy that draws club rulesets, as a club organiser would write them.

Each drawn :class:`Club` is a YAML mapping that ``extends:`` a bundled ruleset
(mostly ``wikipedia``; also ``four-player``, ``two-round-auction``, ``older-20-100``
and ``tournament``) and overrides settings from every section of the schema
(``ulti_rules/ruleset/schema.py``), each within its domain: the talon mode with
packets that fit it, the auction's opener and end-pass rules, the two-round auction,
``min_components``, trump modes, card points and the last trick, rank orders,
marriages, kontra chains, caps and windows, the ranking rule with changed contract
values, and the house rules (all-pass payments, the unannounced 100, the silent-bonus
settings, ``silent.replacing``, ``without: [four-aces]``).

The cross-field rules the loader enforces are kept while drawing, so every club
must load: a club the loader refuses is a bug here, or a valid club refused there.
Draws shrink towards the plain base ruleset (every choice's first option is "leave
the base as it is"), so a failure shrinks to the few settings that cause it.

``auction.min_components`` is drawn no higher than the largest bid that needs no marriage:
the loader refuses a higher one (a forehand without a marriage could not bid).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from ulti_rules.cards import RANK_IDS, SUIT_IDS
from ulti_rules.plugins import get_registry
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.ruleset.schema import KONTRA_LEVEL_LIMIT

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
class BidShape:
    id: str
    components: tuple[str, ...]
    red: bool


@dataclass(frozen=True)
class BaseView:
    """What a club must know of the ruleset it extends to write valid overrides."""

    contracts: dict[str, tuple[str, bool, bool]]
    """id -> (kind, open, needs a trump)."""
    bids: tuple[BidShape, ...]
    bonuses: dict[str, Data]
    """id -> the bonus's settings as loaded (``model_dump``)."""
    ranking: str
    four_aces: bool
    two_round: bool

    def without_four_aces(self) -> BaseView:
        """The view after ``without: [four-aces]``: no Four Aces contract, bids or bonus."""
        return BaseView(
            contracts={k: v for k, v in self.contracts.items() if v[0] != "four_aces"},
            bids=tuple(b for b in self.bids if "four_aces" not in b.components),
            bonuses={
                k: {
                    **v,
                    "kontra_from": [c for c in v["kontra_from"] if c != "four_aces"],
                }
                for k, v in self.bonuses.items()
                if v["condition"] != "four_aces"
            },
            ranking=self.ranking,
            four_aces=False,
            two_round=self.two_round,
        )


@cache
def base_view(name: str) -> BaseView:
    rules = load_ruleset(name)
    kinds = get_registry().kinds
    contracts = {
        cid: (spec.kind, spec.open, kinds[spec.kind].needs_trump(spec))
        for cid, spec in rules.contracts.items()
    }
    return BaseView(
        contracts=contracts,
        bids=tuple(BidShape(b.id, tuple(b.components), b.red) for b in rules.ladder),
        bonuses={k: b.model_dump(mode="json") for k, b in rules.silent_bonuses.items()},
        ranking=rules.ranking,
        four_aces=any(kind == "four_aces" for kind, _, _ in contracts.values()),
        two_round=rules.auction.two_round is not None,
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
    section: Data = {"talon": talon, "packets": packets(draw, talon)}
    if sometimes(draw, 2):
        section["misdeal_redeal_same_dealer"] = flag(draw)
    return section


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
                "talon_to": st.sampled_from(["declarer", "defenders"]),
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


def kontra_levels(draw: st.DrawFn) -> list[Data]:
    count = (
        draw(st.integers(0, KONTRA_LEVEL_LIMIT)) if sometimes(draw, 2) else draw(st.integers(1, 7))
    )
    doubling = not sometimes(draw, 3)
    levels = []
    for i in range(count):
        multiplier = 2 ** (i + 1) if doubling else draw(st.integers(1, 2**KONTRA_LEVEL_LIMIT))
        levels.append(
            {
                "names": names(f"K{i + 1}"),
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


def contracts_section(draw: st.DrawFn, view: BaseView, derived: bool) -> Data:
    """Changed contract values (only where the ranking rule derives the order from them:
    under ``table`` a new value would break the written ranks) and kinds' parameters."""
    section: Data = {}
    for cid, (kind, _, _) in view.contracts.items():
        change: Data = {}
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
    kinds = {kind for kind, _, trump in view.contracts.values() if trump and kind != "parti"}
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


def ladder_removals(draw: st.DrawFn, view: BaseView, trump: Data, open_games: Data) -> set[str]:
    """Bids the club removes: those its trump and open-game rules forbid, and a few more."""
    gone: set[str] = set()
    for bid in view.bids:
        specs = [view.contracts[c] for c in bid.components]
        no_trump = not any(trump_needed for _, _, trump_needed in specs)
        opened = any(is_open for _, is_open, _ in specs)
        if bid.red and no_trump and trump.get("red_no_trump") is False:
            gone.add(bid.id)
        if bid.red and opened and open_games.get("red_allowed") is False:
            gone.add(bid.id)
    if sometimes(draw, 2):
        others = sorted(b.id for b in view.bids if b.id != "parti" and b.id not in gone)
        gone |= set(draw(st.lists(st.sampled_from(others), max_size=6, unique=True)))
    return gone


@st.composite
def club_rulesets(draw: st.DrawFn) -> Club:
    """A club file extending a bundled ruleset, with settings drawn from every section."""
    base = pick(draw, BASES)
    view = base_view(base)
    data: Data = {"name": "club", "title": f"A drawn club on {base}", "extends": base}
    if view.four_aces and sometimes(draw, 3):
        data["without"] = [FOUR_ACES]
        view = view.without_four_aces()

    sections: Data = {}
    if sometimes(draw, 3):
        sections["players"] = {"count": pick(draw, (3, 4)), "sitting_out_dealer_pays": flag(draw)}
    if sometimes(draw, 1):
        sections["direction"] = "clockwise"
    if sometimes(draw, 4):
        sections["deal"] = deal_section(draw)
    sections["points"] = points_section(draw)
    sections["ranks"] = ranks_section(draw) if sometimes(draw, 2) else {}
    sections["marriages"] = marriages_section(draw)
    sections["trump"] = trump_section(draw)
    sections["play"] = play_section(draw)
    sections["open_games"] = open_games_section(draw)
    sections["simple"] = simple_section(draw)
    sections["kontra"] = kontra_section(draw)

    gone = ladder_removals(draw, view, sections["trump"], sections["open_games"])
    bids = [b for b in view.bids if b.id not in gone]
    bid_ids = [b.id for b in bids]
    largest = max(
        len(b.components)
        for b in bids
        if all(view.contracts[c][0] != "hundred" for c in b.components)
    )
    sections["auction"] = auction_section(draw, view, largest)

    ranking = view.ranking
    if sometimes(draw, 5):
        ranking = pick(
            draw, (*DERIVED_RULES, "table") if view.ranking == "table" else DERIVED_RULES
        )
        sections["ranking"] = ranking
    sections["contracts"] = contracts_section(draw, view, derived=ranking != "table")
    sections["silent_bonuses"] = silent_section(draw, view, bid_ids)
    if sometimes(draw, 3):
        sections["silent"] = {"replacing": pick(draw, ("highest", "all"))}
    if gone:
        sections["ladder"] = {bid_id: None for bid_id in sorted(gone)}
    data.update({key: value for key, value in sections.items() if value not in ({}, None)})
    return Club(base, data)
