"""The ruleset schema: every point on which the sources differ, as a typed setting.

One base model (``Strict``: ``extra="forbid"``, ``frozen=True``) so that a typo in a
club file is an error, never a silent default. Field descriptions double as the
JSON Schema help text that editors show, and as the reference in docs/rulesets.md.

The contract catalogue is a mapping id -> entry whose shape depends on its
``kind``; the kinds are registered through the plugin manager, so the concrete
model with the right union of kinds is built by :func:`ruleset_model`.

A loaded ruleset is deeply immutable: lists are tuples and mappings are
:class:`~ulti_rules.frozen.FrozenDict` (``ruleset/frozen.py``), so tables the engine
caches per ruleset can never go stale. Numbers are whole numbers as YAML writes them, within bounds
that make sense at a card table (``scalars.py``); names are non-blank.
"""

# No ``from __future__ import annotations`` here: pydantic would compile every field's
# annotation from its text at import (about 2 ms of each `ulti` command that loads a
# ruleset); the few forward references are quoted instead.

import copy
import threading
import weakref
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, SupportsIndex

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from ..cards import RANK_IDS, RankId, SuitId
from ..recent import Recent
from ..said import Named
from .frozen import FrozenList, FrozenMap, Items
from .ranking import BUILTIN_RULES
from .scalars import AS_WHOLE, Flag, Line, Name, Whole, whole_number
from .titles import title_text

Side = Literal["declarer", "defenders"]

# The bounds of the numbers: far beyond any house rule, close enough that no number in
# a ruleset can make a hand unplayable or a settlement absurdly slow.
MAX_VALUE = 1000
"""The most a contract, a silent bonus or giving up may be worth, per defender."""
MAX_CARD_POINTS = 100
"""The most one card, the last trick or a marriage may count."""
MAX_COMPONENTS = 8
"""The most components one bid may hold (a bid holds one of each kind)."""
MAX_BID_VALUE = 2 * MAX_COMPONENTS * MAX_VALUE
"""A red bid of MAX_COMPONENTS components each worth MAX_VALUE."""
MAX_BIDS = 1000
"""The longest ladder, and the highest rank."""
KONTRA_LEVEL_LIMIT = 16
"""The highest kontra level any ruleset allows; ``max_level: null`` means this one."""
MAX_KONTRA_MULTIPLIER = 2**KONTRA_LEVEL_LIMIT
"""The largest factor of a named kontra level: doubling at every one of the levels."""
CARDS_PER_PLAYER = 10
"""Each active player plays ten cards, one per trick."""
TALON_CARDS = 2

Value = Annotated[int, Field(ge=0, le=MAX_VALUE), AS_WHOLE]
CardPoints = Annotated[int, Field(ge=0, le=MAX_CARD_POINTS), AS_WHOLE]
PacketCount = Annotated[int, Field(ge=0, le=CARDS_PER_PLAYER + TALON_CARDS), AS_WHOLE]


class Strict(BaseModel):
    """Base of every ruleset model: unknown keys are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Names(Strict):
    """A name in the three languages the framework prints."""

    hu: Name = Field(description="Hungarian name.")
    en: Name = Field(description="English name.")
    de: Name | None = Field(default=None, description="German name (falls back to English).")

    def get(self, lang: str) -> str:
        value = getattr(self, lang, None) if lang in ("hu", "en", "de") else None
        return value or self.en

    def named(self) -> Named:
        """The English name, which a sentence said in Hungarian or German says in its
        language (``said.Named``)."""
        return Named(self.en, {"hu": self.hu, "en": self.en, "de": self.de or self.en})


class Titles(Strict):
    """A ruleset's title in the languages the framework prints: at least one of them."""

    hu: Line | None = Field(default=None, description="The title in Hungarian.")
    en: Line | None = Field(default=None, description="The title in English.")
    de: Line | None = Field(default=None, description="The title in German.")

    @model_validator(mode="after")
    def _one_at_least(self) -> "Titles":
        if self.hu is None and self.en is None and self.de is None:
            raise ValueError("give the title in at least one language: hu, en or de")
        return self

    def get(self, lang: str) -> str:
        """The title in ``lang``; else in English, else in the first language given."""
        return title_text(self.__dict__, lang)


def _title_form(value: Any) -> str:
    """Which form of title ``value`` is: asked of the data when validating, of the
    validated value when serialising."""
    return "Titles" if isinstance(value, Mapping | Titles) else "Line"


Title = Annotated[
    Annotated[Line, Tag("Line")] | Annotated[Titles, Tag("Titles")],
    Discriminator(_title_form),
]
"""A title: a mapping is read as the title in each language, anything else as one line
(so that a mistake in either is said in its own terms, not as both). The tags are
capitalised as type names are: the loader leaves them out of the key it shows."""


# --------------------------------------------------------------------------- players, deal


class Players(Strict):
    count: Annotated[Literal[3, 4], BeforeValidator(whole_number)] = Field(
        default=3, description="3, or 4 with the dealer sitting out of each hand."
    )
    sitting_out_dealer_pays: Flag = Field(
        default=False,
        description="Four players only: whether the dealer who sits out shares the defenders' "
        "payments (DE: 'meist' not). When true the dealer pays and receives as a third defender.",
    )


class Deal(Strict):
    packets: Annotated[
        FrozenList[FrozenList[PacketCount]],
        Items(1, 32),
    ] = Field(
        default=((7, 5, 5), (5, 5, 5)),
        description="Cards dealt per round to each active seat, forehand (right of the dealer) "
        "first. 7+5/5+5 gives 12/10/10; [[12,10,10]] deals in one go; [[5,5,5],[5,5,5]] with "
        "talon 'set_aside' is the Italian deal. Each seat must receive 10 cards, forehand 12 "
        "where the talon is dealt to him.",
    )
    talon: Literal["forehand", "set_aside", "none"] = Field(
        default="forehand",
        description="Where the two cards beyond the 30 go: 'forehand' (dealt to forehand, who "
        "discards them as the talon), 'set_aside' (face down on the table as the talon), 'none' "
        "(no talon: the two cards are out of play; IT variant, what happens to them is OPEN).",
    )
    misdeal_redeal_same_dealer: Flag = Field(
        default=True,
        description="A card exposed while dealing voids the deal: no hand, nobody pays (IT). "
        "true: the same dealer deals again; false: the deal passes on as after a hand. "
        "Read by the session ledger (ulti ledger add --misdeal).",
    )

    @model_validator(mode="after")
    def _counts(self) -> "Deal":
        """Every active seat plays ten cards; forehand also takes the talon when dealt it.

        The engine deals ``packets`` round by round to the three active seats (four
        players: the dealer sits out), so each column must add up to that seat's hand.
        """
        if any(len(p) != 3 for p in self.packets):
            raise ValueError("each packet round must list three counts, forehand first")
        per_seat = tuple(sum(column) for column in zip(*self.packets, strict=True))
        talon = TALON_CARDS if self.talon == "forehand" else 0
        expected = (CARDS_PER_PLAYER + talon, CARDS_PER_PLAYER, CARDS_PER_PLAYER)
        if per_seat != expected:
            where = {
                "forehand": "forehand also takes the two talon cards",
                "set_aside": "the two cards left over are the talon",
                "none": "the two cards left over are out of play",
            }[self.talon]
            raise ValueError(
                f"the packets deal {per_seat[0]}, {per_seat[1]} and {per_seat[2]} cards to "
                f"forehand and the next two seats; with talon '{self.talon}' they must deal "
                f"{expected[0]}, {expected[1]} and {expected[2]} (each player plays "
                f"{CARDS_PER_PLAYER} cards; {where})"
            )
        return self


# --------------------------------------------------------------------------- points and ranks


class Points(Strict):
    card_points: FrozenMap[RankId, CardPoints] = Field(
        default={"ace": 10, "ten": 10},
        validate_default=True,
        description="Card points per rank, 0 to 100; ranks not listed score 0. IT 'some clubs': "
        "ace 11.",
    )
    last_trick: CardPoints = Field(
        default=10, description="Bonus for winning the last trick, 0 to 100."
    )
    talon_to: Literal["declarer", "defenders", "nobody"] = Field(
        default="defenders",
        description="Who scores the card points in the talon at the end (with no talon, of the "
        "two cards out of play): WP the declarer; DE, HU the defenders; 'nobody' (IT's untold "
        "no-talon deal, OPEN): they count for neither side.",
    )
    talon_counts_toward_hundred: Flag = Field(
        default=True,
        description="Whether talon points that go to the declarer count toward a 40-100 / 20-100 "
        "and a silent 100 (OPEN for WP).",
    )

    def total(self) -> int:
        """All card points in the deck plus the last-trick bonus (90 by default)."""
        return 4 * sum(self.card_points.values()) + self.last_trick


DEFAULT_TRUMP_ORDER: tuple[RankId, ...] = (
    "ace",
    "ten",
    "king",
    "over",
    "under",
    "nine",
    "eight",
    "seven",
)
DEFAULT_PLAIN_ORDER: tuple[RankId, ...] = (
    "ace",
    "king",
    "over",
    "under",
    "ten",
    "nine",
    "eight",
    "seven",
)


class Ranks(Strict):
    trump_game: FrozenList[RankId] = Field(
        default=DEFAULT_TRUMP_ORDER,
        description="Rank order, high to low, of the trump suit in a trump game (tens high).",
    )
    trump_game_side_suits: FrozenList[RankId] = Field(
        default=DEFAULT_TRUMP_ORDER,
        description="Rank order of the non-trump suits in a trump game (IT: tens low).",
    )
    no_trump: FrozenList[RankId] = Field(
        default=DEFAULT_PLAIN_ORDER,
        description="Rank order in a no-trump game (Betli, plain Durchmars): tens low.",
    )

    @model_validator(mode="after")
    def _permutations(self) -> "Ranks":
        for name in ("trump_game", "trump_game_side_suits", "no_trump"):
            order = getattr(self, name)
            if sorted(order) != sorted(RANK_IDS):
                raise ValueError(f"{name} must list each of the eight ranks exactly once")
        return self


# --------------------------------------------------------------------------- marriages, trump, play


class HundredGameMarriages(Strict):
    declarer: Literal["bid_only", "all"] = Field(
        default="bid_only",
        description="Which marriages the declarer may announce in a 40-100 / 20-100: only the "
        "bid one (WP, DE, HU, GT) or all.",
    )
    defenders: Literal["none", "all"] = Field(
        default="none",
        description="Whether the defenders may announce marriages in a hundred game (OPEN: WP "
        "'no player may declare more' = none; 'all' counts them for the defenders).",
    )
    unannounced: Literal["required", "lost", "parti"] = Field(
        default="required",
        description="A 40-100 / 20-100 whose marriage the declarer never announced. "
        "'required': he must announce it (the engine asks before his first card); a score "
        "sheet without it counts no marriage toward the 100 (out of reach with 90 card "
        "points). 'lost': he may leave it unannounced, and the 100 is then lost whatever the "
        "points. 'parti': he may, and the 100 is then void: the Parti it replaced is settled "
        "in its place (the catalogue's Parti, red doubled, under the 100's kontra).",
    )


class Marriages(Strict):
    trump_value: CardPoints = Field(default=40, description="King + Over of trumps, 0 to 100.")
    plain_value: CardPoints = Field(default=20, description="King + Over of a side suit, 0 to 100.")
    announce: Literal["first_trick", "on_play"] = Field(
        default="first_trick",
        description="When marriages are announced: while playing to the first trick (WP, DE, HU, "
        "GT) or when a card of the pair is played (IT).",
    )
    count_in_parti: Flag = Field(
        default=True,
        description="Marriages count toward the Parti/Simple (WP, HU, GT, IT) or only toward a "
        "100 (DE).",
    )
    require_trick: Flag = Field(
        default=False, description="A marriage counts only if its side took a trick (HU, GT)."
    )
    optional: Flag = Field(
        default=True, description="Announcing is optional (HU: may be withheld for tactics)."
    )
    in_hundred_game: HundredGameMarriages = Field(
        default_factory=HundredGameMarriages,
        description="What may be announced in a 40-100 or 20-100, and a hundred game whose "
        "marriage was never announced.",
    )


class Trump(Strict):
    fixed: SuitId | None = Field(
        default=None, description="A suit that is always trump (IT variant: hearts)."
    )
    named: Literal["after_auction", "in_bid"] = Field(
        default="after_auction",
        description="Non-red trumps are named after the auction (WP, DE, HU, GT) or in the bid "
        "(IT).",
    )
    red_suit: SuitId = Field(default="hearts", description="The suit a red (piros) bid fixes.")
    red_suit_needs_red_bid: Flag = Field(
        default=True,
        description="Hearts may be trump only through a red bid (WP, DE, HU); GT lets the "
        "declarer of a non-red bid choose hearts too.",
    )
    red_no_trump: Flag = Field(
        default=True,
        description="Whether no-trump bids have a red, double-value form (Rebetli, Plain "
        "Redurchmars: C19, all sources); false makes the ladder check reject them.",
    )


class Play(Strict):
    first_lead: Literal["declarer", "forehand"] = Field(
        default="declarer", description="Who leads to the first trick (IT: forehand)."
    )
    must_follow: Flag = Field(default=True, description="Follow suit when able.")
    must_trump: Flag = Field(default=True, description="If void, play a trump when able.")
    must_beat: Flag = Field(
        default=True,
        description="Beat the highest card in the trick when able, also without trumps (C13).",
    )


class OpenGames(Strict):
    exposes: Literal["declarer", "all"] = Field(
        default="declarer",
        description="Who lays the cards face up in an open (terített) contract (WP 'all players').",
    )
    after_trick: Whole = Field(
        default=1, ge=0, le=10, description="Exposed after this trick (0 to 10)."
    )
    red_allowed: Flag = Field(
        default=True, description="Whether open contracts have a red form (GT: no)."
    )


# --------------------------------------------------------------------------- auction


class TwoRoundAuction(Strict):
    first_round_cards: Whole = Field(
        default=5,
        ge=1,
        le=CARDS_PER_PLAYER,
        description="Cards each player holds in round 1 (1 to 10).",
    )
    multiplier: Whole = Field(
        default=2,
        ge=1,
        le=16,
        description="A round-1 bid counts this much, with its kontras, while it stands (1 to 16).",
    )
    opener_must_bid: Flag = Field(
        default=False, description="Whether the round-1 opener must bid (OPEN)."
    )
    end_passes: Whole = Field(
        default=2, ge=1, le=3, description="Consecutive passes after a bid that end round 1 (OPEN)."
    )
    trump_named: Literal["with_bid", "before_extra_cards"] = Field(
        default="with_bid",
        description="When the round-1 winner's trump is fixed (OPEN): named with the round-1 bid, "
        "or named by the winner before taking the extra cards.",
    )
    overcall_by: Literal["rank", "value"] = Field(
        default="rank",
        description="Round-2 threshold against the standing round-1 bid (OPEN): ladder rank only, "
        "or value (round-1 value times the multiplier).",
    )
    same_trump_binds_others: Flag = Field(
        default=False, description="Whether 'same trump' binds other round-2 bidders too (OPEN)."
    )


class Auction(Strict):
    opener_must_bid: Flag = Field(
        default=True, description="Forehand must open with a bid (WP, DE, HU, GT; IT: may pass)."
    )
    opener_pass_is_simple: Flag = Field(
        default=False,
        description="GT 'Pasar': forehand's pass is a bid of the plain Simple, not a pass.",
    )
    end_passes: Whole = Field(
        default=3,
        ge=1,
        le=3,
        description="Consecutive passes, the last bidder's own included, that end the auction "
        "(IT: 2).",
    )
    self_robbing: Flag = Field(
        default=True,
        description="A bidder whom both others passed may pick the talon up again and bid higher.",
    )
    talon_exchange_optional: Flag = Field(
        default=False,
        description="Whether a bidder may bid without picking up the talon (IT: optional "
        "exchange). When false every bid after the opening one picks the talon up.",
    )
    min_components: Whole = Field(
        default=1,
        ge=1,
        le=MAX_COMPONENTS,
        description="Every winning bid has at least this many components (IT); no more than the "
        "largest bid on the ladder holds.",
    )
    all_pass: Literal["redeal", "pass_out", "forehand_pays"] = Field(
        default="redeal",
        description="What happens when nobody bids (only possible where the opener may pass; "
        "the engine ends such a hand passed out, with no contract): 'redeal' voids it and the "
        "same dealer deals again; 'pass_out' counts it as played with no payments and the deal "
        "passes on; 'forehand_pays' counts it as played, forehand pays all_pass_payment to "
        "each other player, and the deal passes on. Read by the session ledger (ulti ledger "
        "add --passed-out).",
    )
    all_pass_payment: Value | None = Field(
        default=None,
        description="With all_pass: forehand_pays, what forehand pays each other player "
        "(0 to 1000; with four players the dealer who sits out too, where he shares the "
        "payments). Required then, and only then.",
        validate_default=True,
    )
    two_round: TwoRoundAuction | None = Field(
        default=None, description="The WP two-round auction; absent for the usual one."
    )

    @field_validator("all_pass_payment")
    @classmethod
    def _all_pass_payment(cls, value: int | None, info: ValidationInfo) -> int | None:
        """The amount goes with forehand_pays: required by it, meaningless without it."""
        rule = info.data.get("all_pass")
        if rule is None:
            return value  # all_pass itself is wrong, and reported
        if rule == "forehand_pays" and value is None:
            raise ValueError(
                "all_pass: forehand_pays needs all_pass_payment, what forehand pays each "
                "other player when everybody passed (e.g. all_pass_payment: 1)"
            )
        if rule != "forehand_pays" and value is not None:
            raise ValueError(
                f"all_pass_payment is paid only under all_pass: forehand_pays, not under "
                f"'{rule}': remove it (all_pass_payment: null), or set all_pass: forehand_pays"
            )
        return value


class Simple(Strict):
    uncontested: Literal["play", "lose_double"] = Field(
        default="play",
        description="A plain non-red Simple that nobody overbid: played normally, or lost double "
        "(WP 'usually').",
    )
    uncontested_played_out: Flag = Field(
        default=True, description="With 'lose_double': whether the hand is still played (OPEN)."
    )
    give_up_allowed: Flag = Field(
        default=False,
        description="The declarer of a plain, non-red, uncombined Parti may give up before the "
        "first lead (DE, HU).",
    )
    give_up_cost: Value = Field(
        default=2, description="What giving up costs, per defender (0 to 1000)."
    )

    @property
    def lost_unplayed(self) -> bool:
        """An uncontested Simple is lost double without the hand being played: no trick,
        so no kontra (kontras are called at the first trick). The engine ends such a hand
        at once; the settlement and the score keeper refuse a kontra on one."""
        return self.uncontested == "lose_double" and not self.uncontested_played_out


# --------------------------------------------------------------------------- kontra


class KontraLevel(Strict):
    names: Names = Field(description="What the call is called.")
    multiplier: Whole = Field(
        ge=1,
        le=MAX_KONTRA_MULTIPLIER,
        description="Factor on the component at this level (1 to 65536).",
    )
    by: Side = Field(description="Which side calls this level.")


class Kontra(Strict):
    levels: Annotated[FrozenList[KontraLevel], Items(0, KONTRA_LEVEL_LIMIT)] = Field(
        description="The chain, level 1 first (at most 16 levels). The defenders open it and the "
        "sides alternate."
    )
    max_level: Annotated[int, Field(ge=0, le=KONTRA_LEVEL_LIMIT), AS_WHOLE] | None = Field(
        default=None,
        description="Highest level allowed, 0 to 16; null means as high as the framework goes, "
        "16 (levels beyond the named ones double again and are called 'N× kontra').",
    )
    window: Literal["own_card_trick1", "end_trick1", "before_lead_trick2"] = Field(
        default="before_lead_trick2",
        description="Until when kontras may be called: level 1, and the later levels too unless "
        "later_window says otherwise.",
    )
    per_defender_in_no_trump: Flag = Field(
        default=True,
        description="In no-trump components a kontra binds only the defender who called it "
        "(WP, DE, HU); false binds both (GT).",
    )
    per_defender_in_trump: Flag = Field(
        default=False, description="In trump components a kontra binds only its caller."
    )
    later_window: Literal["same", "own_card_trick1", "end_trick1", "before_lead_trick2"] = Field(
        default="same",
        description="Until when Rekontra and the levels after it may be called; 'same' keeps "
        "window. DE, HU: Kontra with one's card to trick 1 (window: own_card_trick1), the rest "
        "before trick 2 is led (before_lead_trick2).",
    )
    window_opens: Literal["first_trick", "after_own_card"] = Field(
        default="first_trick",
        description="When a defender's window opens: 'first_trick' (on his turn at the first "
        "trick, before his card, as every source has it) or 'after_own_card' (only once his "
        "own card to trick 1 is down: he calls right after it, before the next card, and in "
        "the kontra round after trick 1 where the windows reach it). The declarer's calls "
        "are not affected.",
    )

    @model_validator(mode="after")
    def _chain(self) -> "Kontra":
        """The defenders open the chain and the sides alternate; each call raises the
        stake or keeps it (a Rekontra worth less than the Kontra it answers is a slip; the
        levels past the named ones double on from the last). Every level that breaks
        either is said at once, each at its own key: one at a time, a club mended its
        chain in as many runs of `ulti check` as it had slips."""
        found: list[InitErrorDetails] = []
        for i, level in enumerate(self.levels):
            expected: Side = "defenders" if i % 2 == 0 else "declarer"
            if level.by != expected:
                why = PydanticCustomError(
                    "kontra_side",
                    "kontra level {level} must be called by the {side}: the defenders open "
                    "the chain and the sides alternate",
                    {"level": i + 1, "side": expected},
                )
                found.append({"type": why, "loc": ("levels", i, "by"), "input": level.by})
            below = self.levels[i - 1].multiplier if i else level.multiplier
            if level.multiplier < below:
                why = PydanticCustomError(
                    "kontra_multiplier",
                    "kontra level {level} multiplies by {now}, less than level {lower}'s "
                    "{below}: each call raises the stake, so write {below} or more",
                    {"level": i + 1, "now": level.multiplier, "lower": i, "below": below},
                )
                found.append(
                    {"type": why, "loc": ("levels", i, "multiplier"), "input": level.multiplier}
                )
        if found:
            raise ValidationError.from_exception_data(type(self).__name__, found)
        return self

    @property
    def level_cap(self) -> int:
        """The highest level that may be called: ``max_level``, else KONTRA_LEVEL_LIMIT."""
        return KONTRA_LEVEL_LIMIT if self.max_level is None else self.max_level

    def window_of(self, level: int) -> str:
        """Until when ``level`` may be called: ``window`` for level 1, else ``later_window``."""
        return self.window if level == 1 or self.later_window == "same" else self.later_window

    def multiplier(self, level: int) -> int:
        """The factor at ``level`` (0 = no kontra); unnamed levels keep doubling."""
        if level > KONTRA_LEVEL_LIMIT:
            raise ValueError(f"kontra level {level} is beyond the limit {KONTRA_LEVEL_LIMIT}")
        if level <= 0:
            return 1
        if level <= len(self.levels):
            return self.levels[level - 1].multiplier
        last = self.levels[-1].multiplier if self.levels else 1
        return int(last * 2 ** (level - len(self.levels)))

    def name(self, level: int, lang: str = "en") -> str:
        if level <= 0:
            return ""
        if level <= len(self.levels):
            return self.levels[level - 1].names.get(lang)
        return f"{self.multiplier(level)}× kontra"

    def named(self, level: int) -> Named:
        """``name(level)``, which a sentence said in another language says in it."""
        return Named(self.name(level), {lang: self.name(level, lang) for lang in ("hu", "de")})


# --------------------------------------------------------------------------- contracts


KIND_DESCRIPTION = "The contract kind that judges this component."


def _kind_described(schema: dict[str, Any]) -> None:
    """A kind's parameter model restates ``kind`` as its own name (``Literal["betli"]``),
    which drops the description: editors show it all the same."""
    kind = schema.get("properties", {}).get("kind")
    if isinstance(kind, dict):
        kind.setdefault("description", KIND_DESCRIPTION)


class ContractSpec(Strict):
    """What every catalogue entry has; a kind's parameter model adds its own fields.

    Strict, so that a kind's own parameters (a plugin's too) take no ``true`` or ``'4'``
    for a number either. A kind with a list parameter should declare it
    ``FrozenList[...]`` (``ruleset/frozen.py``): frozen like the rest of the ruleset,
    and read from a YAML list even under strict mode.
    """

    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, json_schema_extra=_kind_described
    )

    kind: str = Field(description=KIND_DESCRIPTION)
    names: Names = Field(description="Names of the component.")
    value: Value = Field(description="Base value per defender, 0 to 1000 (red doubles it).")
    open: Flag = Field(default=False, description="Open (terített): exposed after the first trick.")


# --------------------------------------------------------------------------- silent bonuses


HUNDRED = "hundred"
DURCHMARS = "durchmars"
"""The built-in kinds whose silent feats have options of their own."""


class MarriageValues(Strict):
    """A silent 100's value by the marriage it was made with."""

    trump: Value = Field(description="Made with the trump 40 (0 to 1000).")
    plain: Value = Field(description="Made with a side-suit 20 (0 to 1000).")


class SilentBonus(Strict):
    condition: Name = Field(
        description="What must happen: the name of the contract kind that judges it (hundred, "
        "ulti, durchmars, or a plugin's kind such as four_aces)."
    )
    names: Names = Field(description="Names of the bonus.")
    value: Value = Field(description="Value when made, per defender (0 to 1000).")
    red_value: Annotated[int, Field(ge=0, le=2 * MAX_VALUE), AS_WHOLE] | None = Field(
        default=None,
        description="Value in a red game (0 to 2000); null means twice the value.",
    )
    loss_factor: Whole = Field(
        default=2,
        ge=0,
        le=10,
        description="On a loss the declarer pays value × loss_factor (WP, DE: 2; GT: 1; IT: 0 = "
        "no loss).",
    )
    scored_by: Literal["declarer", "either_side"] = Field(
        default="declarer",
        description="Who can achieve it: only the declarer (WP), or either side (DE 'whoever', "
        "HU, GT: a defender's feat is the declarer's loss).",
    )
    parti: Literal["adds", "replaces"] = Field(
        default="adds",
        description="Whether it is paid beside the Parti or replaces the Parti's value (DE, HU, "
        "GT: the Parti becomes 2 or 3).",
    )
    kontra_from: Annotated[FrozenList[Name], Items(0, MAX_BIDS)] = Field(
        default=("parti",),
        description="Contract ids whose kontra level it takes over: the first of them that the "
        "bid holds (WP: the bid it is listed under, e.g. [parti, forty_hundred, ...]; HU, GT: "
        "[parti]). A single id may be written without brackets; [] (or null) means no kontra.",
    )

    @field_validator("kontra_from", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        if value is None:
            return []
        return [value] if isinstance(value, str) else value

    def kontra_host(self, components: Sequence[str]) -> str | None:
        """The component of a bid whose kontra this bonus follows, if it holds any."""
        return next((cid for cid in self.kontra_from if cid in components), None)

    applies_to: Literal["auto"] | Annotated[FrozenList[Name], Items(0, MAX_BIDS)] = Field(
        default="auto",
        description="Bid ids it applies to, or 'auto': the trump bids the condition's kind allows "
        "(e.g. silent ulti in every trump bid without an Ulti).",
    )

    marriage_values: MarriageValues | None = Field(
        default=None,
        description="A silent 100 only: its value by the marriage it was made with, e.g. "
        "{trump: 2, plain: 4} (2 with the 40, 4 with a 20): with the 40 whenever the side's "
        "trump marriage counts toward it, with a 20 when only side-suit ones do (card points "
        "alone: `value`); a red game doubles it. Null: `value`, whatever the marriage.",
    )
    counts_marriages: Literal["all", "one"] = Field(
        default="all",
        description="A silent 100 only: which of the side's announced marriages count toward "
        "its 100: `all` of them (today), or `one`, as in a bid 100 (a single marriage must do).",
    )
    defenders: Literal["one", "together"] = Field(
        default="one",
        description="A silent Durchmars only: the defenders' feat (their win, or the declarer's "
        "loss) is one defender taking every trick (WP), or the two `together`.",
    )
    against_everyone: Flag = Field(
        default=False,
        description="A defender's feat is his own, paid by everyone: the other defender pays "
        "him too, and on a failure he pays both (SN: 'silent Ulti is played against everyone'). "
        "Needs scored_by: either_side and parti: adds; not for a silent 100, which is the "
        "side's.",
    )

    @field_validator("marriage_values", "counts_marriages")
    @classmethod
    def _hundred_only(cls, value: object, info: ValidationInfo) -> object:
        """Settings of the silent 100 are mistakes elsewhere (their defaults aside)."""
        if value is None or value == "all":
            return value
        condition = info.data.get("condition")
        if condition is not None and condition != HUNDRED:
            raise ValueError(
                f"{info.field_name} is for a silent 100 (condition: {HUNDRED}), which counts "
                f"marriages; this bonus's condition is '{condition}'"
            )
        if info.field_name == "marriage_values" and info.data.get("red_value") is not None:
            raise ValueError(
                "set red_value or marriage_values, not both: with marriage_values a red game "
                "doubles the marriage's value"
            )
        return value

    @field_validator("defenders")
    @classmethod
    def _durchmars_only(cls, value: str, info: ValidationInfo) -> str:
        condition = info.data.get("condition")
        if value == "together" and condition is not None and condition != DURCHMARS:
            raise ValueError(
                f"defenders: together is for a silent Durchmars (condition: {DURCHMARS}); "
                f"this bonus's condition is '{condition}'"
            )
        return value

    @field_validator("against_everyone")
    @classmethod
    def _a_defenders_own_feat(cls, value: bool, info: ValidationInfo) -> bool:
        if not value:
            return value
        if info.data.get("scored_by") == "declarer":
            raise ValueError(
                "against_everyone is about a defender's feat, and with scored_by: declarer no "
                "defender scores one: set scored_by: either_side"
            )
        if info.data.get("condition") == HUNDRED:
            raise ValueError(
                "a silent 100 is the defending side's feat, not one defender's: there is no "
                "one defender for the other to pay"
            )
        if info.data.get("parti") == "replaces":
            raise ValueError(
                "a bonus that replaces the Parti's value is paid as the Parti, which the "
                "sides settle with each other: set parti: adds to play it against everyone"
            )
        return value

    def red(self) -> int:
        return self.red_value if self.red_value is not None else 2 * self.value

    def value_with(self, marriage: Literal["trump", "plain"] | None, red: bool) -> int:
        """What the feat is worth per defender: by its marriage where the bonus says so."""
        if marriage is None or self.marriage_values is None:
            return self.red() if red else self.value
        base = self.base_with(marriage)
        return 2 * base if red else base

    def base_with(self, marriage: Literal["trump", "plain"] | None) -> int:
        """The non-red value of the feat (by its marriage where the bonus says so)."""
        values = self.marriage_values
        if marriage is None or values is None:
            return self.value
        return values.trump if marriage == "trump" else values.plain


class SilentRules(Strict):
    """How silent bonuses combine in one hand (the top-level ``silent:`` block)."""

    replacing: Literal["highest", "all"] = Field(
        default="highest",
        description="When several bonuses that replace the Parti's value are made in one hand "
        "(a silent 100 and a silent Durchmars): only the `highest` counts, or `all` are paid, "
        "the highest as the Parti's value and each other on a line of its own.",
    )


# --------------------------------------------------------------------------- ladder


def _derived(schema: dict[str, Any]) -> None:
    """No default in the JSON Schema: an absent number is derived, not 0."""
    schema.pop("default", None)


class Bid(Strict):
    """One bid of the ladder. ``value`` and ``rank`` may be left out of a file: the loader
    derives them (``ladder.derive_ladder``) and a loaded ruleset always has both; 0 only
    marks "not derived yet", and ``model_fields_set`` tells what the file wrote."""

    id: Name = Field(description="Stable identifier, used by records and the score keeper.")
    rank: Whole = Field(
        default=0,
        ge=1,
        le=MAX_BIDS,
        description="Place in the overcall order, 1 to 1000; equal ranks exclude each other. "
        "Written only under a ranking rule that reads it (ranking: table); other rules "
        "derive it.",
        json_schema_extra=_derived,
    )
    value: Whole = Field(
        default=0,
        ge=0,
        le=MAX_BID_VALUE,
        description="Total per defender, 0 to 16000. Optional: derived from the components "
        "(red doubles each); if written, it is checked against that sum.",
        json_schema_extra=_derived,
    )
    components: Annotated[FrozenList[Name], Items(1, MAX_COMPONENTS)] = Field(
        description="Contract ids, implied Parti included."
    )
    red: Flag = Field(
        default=False, description="The red (piros, Hearts) form: doubles every component."
    )
    names: Names = Field(description="Names of the bid, as the ladder and the players say it.")
    aliases: Annotated[FrozenList[Name], Items(0, 32)] = Field(
        default=(), description="Other names people type for this bid (e.g. 'Pasar', 'Passz')."
    )
    rank_exception: Flag = Field(
        default=False,
        description="This bid's rank is declared lower than its value would give (WP: red Ulti "
        "and red Four Aces under the 4+6 Durchmars bids); the rank check skips it.",
    )


class Session(Strict):
    end: Literal["none", "heart_ace"] = Field(
        default="none",
        description="'heart_ace' (DE 'Das Herz-Ass gibt'): whoever holds the Ace of hearts after "
        "the next auction deals the last round of three.",
    )
    hands: Annotated[int, Field(ge=1, le=10_000), AS_WHOLE] | None = Field(
        default=None,
        description="Planned number of hands (IT: 24); the ledger ends the session after that "
        "many deals (a redeal does not count).",
    )


# --------------------------------------------------------------------------- the ruleset


def _merge_keys_schema(schema: dict[str, Any]) -> None:
    """``with`` and ``without`` in the JSON Schema for editors: the loader reads them (and
    ``extends``) before validation, so they are no fields (a field cannot be called
    ``with``), but a club file may hold them."""
    names = {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
    schema.setdefault("properties", {}).update(
        {
            "with": {
                **names,
                "description": "Rule fragments merged on top of this file, in order (a "
                "name or a path each).",
            },
            "without": {
                **names,
                "description": "Fragments that the rulesets this file extends use, left out.",
            },
        }
    )


class Ruleset(Strict):
    """A complete, validated ruleset (after ``extends`` has been merged)."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_merge_keys_schema)

    name: Name = Field(description="Short name, used to pick the ruleset.")
    title: Title = Field(
        description="One line that says what these rules are, shown by `ulti rulesets`, at "
        "the head of the rulebook and of `ulti play`: a line, or a mapping from language "
        "(hu, en, de) to the line in it. A file that extends another and gives a title "
        "replaces the whole title, every language of it."
    )
    sources: Annotated[FrozenList[Line], Items(0, 100)] = Field(
        default=(), description="Where these rules come from."
    )
    extends: str | list[str] | None = Field(
        default=None,
        description="The ruleset this one builds on (a name, or a path relative to this file), "
        "or a list of them and of fragments, merged in order before this file.",
    )
    players: Players = Field(
        default_factory=Players, description="How many play, and who pays with four."
    )
    direction: Literal["counter_clockwise", "clockwise"] = Field(
        default="counter_clockwise",
        description="Direction of play and of the deal: counter_clockwise (the Hungarian "
        "custom) or clockwise.",
    )
    deal: Deal = Field(
        default_factory=Deal,
        description="How the cards are dealt: packets, the talon, a misdeal.",
    )
    points: Points = Field(
        default_factory=Points,
        description="Card points, the last trick's bonus, and who takes the talon's points.",
    )
    ranks: Ranks = Field(
        default_factory=Ranks,
        description="The order of the ranks in trump games (trumps and side suits) and "
        "no-trump games.",
    )
    marriages: Marriages = Field(
        default_factory=Marriages,
        description="What the King and Over of one suit are worth, how they are announced "
        "and where they count.",
    )
    trump: Trump = Field(
        default_factory=Trump, description="The red suit, a fixed trump, and when trump is named."
    )
    play: Play = Field(
        default_factory=Play,
        description="The first lead, and following suit, trumping and beating the trick.",
    )
    open_games: OpenGames = Field(
        default_factory=OpenGames,
        description="When the declarer's cards are laid face up in an open contract.",
    )
    auction: Auction = Field(
        default_factory=Auction,
        description="The bidding: the opening pass, self-robbing, how it ends, the fewest "
        "components a bid may have, a deal nobody bids, two rounds.",
    )
    simple: Simple = Field(
        default_factory=Simple,
        description="The Simple (Parti): giving it up, and an uncontested Simple.",
    )
    kontra: Kontra = Field(
        description="The kontra chain: its levels and their names, when a kontra may be "
        "called, and whom it binds."
    )
    contracts: FrozenMap[Name, ContractSpec] = Field(
        description="The contract catalogue: id -> kind, names, value and the kind's parameters."
    )
    silent_bonuses: FrozenMap[Name, SilentBonus] = Field(
        default={},
        validate_default=True,
        description="Feats scored without being bid (a silent 100, Ulti or Durchmars): "
        "id -> condition, names, value.",
    )
    silent: SilentRules = Field(
        default_factory=SilentRules,
        description="How silent bonuses are scored beside the bid.",
    )
    ranking: Name = Field(
        default="table",
        description="The ranking rule that orders the ladder: 'table' (the ranks as listed), "
        "'value' (by total; equal totals exclude each other), 'value_then_listed' (ties in "
        "listed order), 'value_then_squares' (ties by the sum of squared component values), "
        "'value_then_squares_then_red' (then red above plain), or a rule a plugin registers.",
        examples=[rule.name for rule in BUILTIN_RULES],
    )
    ladder: Annotated[FrozenList[Bid], Items(1, MAX_BIDS)] = Field(
        description="Every legal bid, with its components (and its rank under ranking: table)."
    )
    session: Session = Field(
        default_factory=Session,
        description="When a session of hands ends (`ulti ledger`).",
    )

    def title_in(self, lang: str) -> str:
        """The title in ``lang`` (a title written as one line: that line, in any language)."""
        title = self.title
        return title if isinstance(title, str) else title.get(lang)

    def bid(self, bid_id: str) -> Bid:
        """The ladder's bid with id ``bid_id``; KeyError if the ladder has none."""
        for bid in self.ladder:
            if bid.id == bid_id:
                return bid
        raise KeyError(bid_id)

    def __getstate__(self) -> dict[Any, Any]:
        """The fields, without what a ruleset keeps beside them (``KEPT_BESIDE``): the
        compiled game is built again from the rules where they are loaded."""
        state = super().__getstate__()
        fields = state.get("__dict__")
        if isinstance(fields, dict) and not KEPT_BESIDE.isdisjoint(fields):
            kept = {k: v for k, v in fields.items() if k not in KEPT_BESIDE}
            state = {**state, "__dict__": kept}
        return state

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> "Ruleset":
        """A deep copy of the rules (without the compiled game: the copy builds its own)."""
        model = type(self)
        new = model.__new__(model)
        new.__setstate__(copy.deepcopy(self.__getstate__(), memo))
        return new

    def __reduce_ex__(self, protocol: SupportsIndex) -> Any:
        """Pickle a ruleset of a :func:`ruleset_model` class by the kinds it was built for.

        That class is made at run time, so pickle cannot find it by name; the kinds'
        parameter models can be (each lives in an importable module), and unpickling
        builds the same class again from them, in this process or another.
        """
        kinds = _KINDS_OF.get(type(self))
        if kinds is None:
            return super().__reduce_ex__(protocol)
        return (_restore, (kinds, self.__getstate__()))


GAME_KEY = "_ulti_game"
"""Where a ruleset object keeps its compiled game (``Game.of``): in its ``__dict__``, not a
field, so it is never compared, dumped, hashed or pickled, and dies with the ruleset."""

REGISTRY_KEY = "_ulti_registry"
"""Where a ruleset object keeps the plugin registry it was validated against
(``load_ruleset``), kept as the game is: a ruleset is only valid with that registry, so
``Game.of`` and the scoring read it with that one unless told otherwise."""

KEPT_BESIDE = frozenset({GAME_KEY, REGISTRY_KEY})
"""What a ruleset object keeps in its ``__dict__`` beside its fields."""

_Kinds = tuple[tuple[str, type[ContractSpec]], ...]
MODELS_KEPT = 16
"""Ruleset model classes kept, one per set of contract kinds (a program has one per plugin
registry it builds: a few). A class no longer kept lives on in the rulesets made of it."""
_MODEL_CACHE: Recent[_Kinds, type[Ruleset]] = Recent(MODELS_KEPT)
_LIVE_MODELS: weakref.WeakValueDictionary[_Kinds, type[Ruleset]] = weakref.WeakValueDictionary()
"""Every model class still alive, by its kinds: one no longer kept is still the class of
its kinds while a ruleset of it lives, so that rulesets of the same kinds stay equal."""
_KINDS_OF: weakref.WeakKeyDictionary[type[Ruleset], _Kinds] = weakref.WeakKeyDictionary()
"""The kinds each model class was built for (to pickle its rulesets): gone with the class."""
_BUILDING = threading.RLock()  # a kind's model that asks for a class while built


def _restore(kinds: _Kinds, state: dict[Any, Any]) -> Ruleset:
    """Unpickle a ruleset: its class from ``kinds`` (see ``Ruleset.__reduce_ex__``)."""
    model = ruleset_model(dict(kinds))
    ruleset = model.__new__(model)
    ruleset.__setstate__(state)
    return ruleset


def ruleset_model(kinds: Mapping[str, type[ContractSpec]]) -> type[Ruleset]:
    """The Ruleset model whose catalogue accepts exactly the given kinds.

    Built per set of registered kinds (and cached) so that a kind from a plugin
    is validated with its own parameters and the JSON Schema lists it.
    """
    key = tuple(sorted(kinds.items()))
    cached = _MODEL_CACHE.get(key) or _LIVE_MODELS.get(key)
    if cached is not None:
        return _MODEL_CACHE.setdefault(key, cached)
    with _BUILDING:  # one class per kinds, whichever thread asks first
        cached = _LIVE_MODELS.get(key)
        if cached is None:
            cached = _built_model(kinds)
            _KINDS_OF[cached] = key  # its rulesets pickle from the moment it is handed out
            _LIVE_MODELS[key] = cached
        return _MODEL_CACHE.setdefault(key, cached)


def _built_model(kinds: Mapping[str, type[ContractSpec]]) -> type[Ruleset]:
    """A new Ruleset class for ``kinds`` (:func:`ruleset_model` keeps one per kinds)."""
    models = tuple(kinds[name] for name in sorted(kinds))
    entry: Any
    if len(models) == 1:
        entry = models[0]
    else:
        from typing import Union

        entry = Annotated[Union[models], Field(discriminator="kind")]  # noqa: UP007
    model = type(
        "Ruleset",
        (Ruleset,),
        {
            "__annotations__": {"contracts": FrozenMap[Name, entry]},
            "contracts": Field(
                description="The contract catalogue: id -> kind, names, value and the kind's "
                "parameters."
            ),
            "__module__": __name__,
            "__doc__": Ruleset.__doc__,
        },
    )
    return model
