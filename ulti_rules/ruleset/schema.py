"""The ruleset schema: every point on which the sources differ, as a typed setting.

One base model (``Strict``: ``extra="forbid"``, ``frozen=True``) so that a typo in a
club file is an error, never a silent default. Field descriptions double as the
JSON Schema help text that editors show, and as the reference in docs/rulesets.md.

The contract catalogue is a mapping id -> entry whose shape depends on its
``kind``; the kinds are registered through the plugin manager, so the concrete
model with the right union of kinds is built by :func:`ruleset_model`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..cards import RANK_IDS, RankId, SuitId

Side = Literal["declarer", "defenders"]


class Strict(BaseModel):
    """Base of every ruleset model: unknown keys are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Names(Strict):
    """A name in the three languages the framework prints."""

    hu: str = Field(description="Hungarian name.")
    en: str = Field(description="English name.")
    de: str | None = Field(default=None, description="German name (falls back to English).")

    def get(self, lang: str) -> str:
        value = getattr(self, lang, None) if lang in ("hu", "en", "de") else None
        return value or self.en


# --------------------------------------------------------------------------- players, deal


class Players(Strict):
    count: Literal[3, 4] = Field(
        default=3, description="3, or 4 with the dealer sitting out of each hand."
    )
    sitting_out_dealer_pays: bool = Field(
        default=False,
        description="Four players only: whether the dealer who sits out shares the defenders' "
        "payments (DE: 'meist' not). When true the dealer pays and receives as a third defender.",
    )


class Deal(Strict):
    packets: list[list[int]] = Field(
        default=[[7, 5, 5], [5, 5, 5]],
        description="Cards dealt per round to each active seat, forehand (right of the dealer) "
        "first. 7+5/5+5 gives 12/10/10; [[12,10,10]] deals in one go; [[5,5,5],[5,5,5]] with "
        "talon 'set_aside' is the Italian deal.",
    )
    talon: Literal["forehand", "set_aside", "none"] = Field(
        default="forehand",
        description="Where the two cards beyond the 30 go: 'forehand' (dealt to forehand, who "
        "discards them as the talon), 'set_aside' (face down on the table as the talon), 'none' "
        "(no talon: the two cards are out of play; IT variant, what happens to them is OPEN).",
    )
    misdeal_redeal_same_dealer: bool = Field(
        default=True,
        description="A card exposed while dealing voids the deal: no hand, nobody pays (IT). "
        "true: the same dealer deals again; false: the deal passes on as after a hand. "
        "Read by the session ledger (ulti ledger add --misdeal).",
    )

    @model_validator(mode="after")
    def _counts(self) -> Deal:
        per_seat = [sum(col) for col in zip(*self.packets, strict=False)] if self.packets else []
        if not self.packets or any(len(p) != 3 for p in self.packets):
            raise ValueError("each packet round must list three counts, forehand first")
        total = sum(per_seat)
        expected = 32 if self.talon == "forehand" else 30
        if total != expected:
            raise ValueError(
                f"the packets deal {total} cards; with talon '{self.talon}' "
                f"they must deal {expected}"
            )
        return self


# --------------------------------------------------------------------------- points and ranks


class Points(Strict):
    card_points: dict[RankId, int] = Field(
        default={"ace": 10, "ten": 10},
        description="Card points per rank; ranks not listed score 0. IT 'some clubs': ace 11.",
    )
    last_trick: int = Field(default=10, description="Bonus for winning the last trick.")
    talon_to: Side = Field(
        default="defenders",
        description="Who scores the card points in the talon at the end: WP the declarer; DE, HU "
        "the defenders.",
    )
    talon_counts_toward_hundred: bool = Field(
        default=True,
        description="Whether talon points that go to the declarer count toward a 40-100 / 20-100 "
        "(OPEN for WP).",
    )

    def total(self) -> int:
        """All card points in the deck plus the last-trick bonus (90 by default)."""
        return 4 * sum(self.card_points.values()) + self.last_trick


DEFAULT_TRUMP_ORDER: list[RankId] = [
    "ace",
    "ten",
    "king",
    "over",
    "under",
    "nine",
    "eight",
    "seven",
]
DEFAULT_PLAIN_ORDER: list[RankId] = [
    "ace",
    "king",
    "over",
    "under",
    "ten",
    "nine",
    "eight",
    "seven",
]


class Ranks(Strict):
    trump_game: list[RankId] = Field(
        default=DEFAULT_TRUMP_ORDER,
        description="Rank order, high to low, of the trump suit in a trump game (tens high).",
    )
    trump_game_side_suits: list[RankId] = Field(
        default=DEFAULT_TRUMP_ORDER,
        description="Rank order of the non-trump suits in a trump game (IT: tens low).",
    )
    no_trump: list[RankId] = Field(
        default=DEFAULT_PLAIN_ORDER,
        description="Rank order in a no-trump game (Betli, plain Durchmars): tens low.",
    )

    @model_validator(mode="after")
    def _permutations(self) -> Ranks:
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


class Marriages(Strict):
    trump_value: int = Field(default=40, description="King + Over of trumps.")
    plain_value: int = Field(default=20, description="King + Over of a side suit.")
    announce: Literal["first_trick", "on_play"] = Field(
        default="first_trick",
        description="When marriages are announced: while playing to the first trick (WP, DE, HU, "
        "GT) or when a card of the pair is played (IT).",
    )
    count_in_parti: bool = Field(
        default=True,
        description="Marriages count toward the Parti/Simple (WP, HU, GT, IT) or only toward a "
        "100 (DE).",
    )
    require_trick: bool = Field(
        default=False, description="A marriage counts only if its side took a trick (HU, GT)."
    )
    optional: bool = Field(
        default=True, description="Announcing is optional (HU: may be withheld for tactics)."
    )
    in_hundred_game: HundredGameMarriages = Field(default_factory=HundredGameMarriages)


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
    red_suit_needs_red_bid: bool = Field(
        default=True,
        description="Hearts may be trump only through a red bid (WP, DE, HU); GT lets the "
        "declarer of a non-red bid choose hearts too.",
    )
    red_no_trump: bool = Field(
        default=True,
        description="Whether no-trump bids have a red, double-value form (Rebetli, Plain "
        "Redurchmars: C19, all sources); false makes the ladder check reject them.",
    )


class Play(Strict):
    first_lead: Literal["declarer", "forehand"] = Field(
        default="declarer", description="Who leads to the first trick (IT: forehand)."
    )
    must_follow: bool = Field(default=True, description="Follow suit when able.")
    must_trump: bool = Field(default=True, description="If void, play a trump when able.")
    must_beat: bool = Field(
        default=True,
        description="Beat the highest card in the trick when able, also without trumps (C13).",
    )


class OpenGames(Strict):
    exposes: Literal["declarer", "all"] = Field(
        default="declarer",
        description="Who lays the cards face up in an open (terített) contract (WP 'all players').",
    )
    after_trick: int = Field(default=1, ge=0, le=10, description="Exposed after this trick.")
    red_allowed: bool = Field(
        default=True, description="Whether open contracts have a red form (GT: no)."
    )


# --------------------------------------------------------------------------- auction


class TwoRoundAuction(Strict):
    first_round_cards: int = Field(default=5, description="Cards each player holds in round 1.")
    multiplier: int = Field(default=2, description="Bids and kontras of round 1 count this much.")
    opener_must_bid: bool = Field(
        default=False, description="Whether the round-1 opener must bid (OPEN)."
    )
    end_passes: int = Field(
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
    same_trump_binds_others: bool = Field(
        default=False, description="Whether 'same trump' binds other round-2 bidders too (OPEN)."
    )


class Auction(Strict):
    opener_must_bid: bool = Field(
        default=True, description="Forehand must open with a bid (WP, DE, HU, GT; IT: may pass)."
    )
    opener_pass_is_simple: bool = Field(
        default=False,
        description="GT 'Pasar': forehand's pass is a bid of the plain Simple, not a pass.",
    )
    end_passes: int = Field(
        default=3,
        ge=1,
        le=3,
        description="Consecutive passes, the last bidder's own included, that end the auction "
        "(IT: 2).",
    )
    self_robbing: bool = Field(
        default=True,
        description="A bidder whom both others passed may pick the talon up again and bid higher.",
    )
    talon_exchange_optional: bool = Field(
        default=False,
        description="Whether a bidder may bid without picking up the talon (IT: optional "
        "exchange). When false every bid after the opening one picks the talon up.",
    )
    min_components: int = Field(
        default=1, ge=1, description="Every winning bid has at least this many components (IT)."
    )
    all_pass: Literal["redeal", "pass_out"] = Field(
        default="redeal",
        description="What happens when nobody bids (only possible where the opener may pass; "
        "the engine ends such a hand passed out, with no contract): 'redeal' voids it and the "
        "same dealer deals again; 'pass_out' counts it as played with no payments and the deal "
        "passes on. Read by the session ledger (ulti ledger add --passed-out).",
    )
    two_round: TwoRoundAuction | None = Field(
        default=None, description="The WP two-round auction; absent for the usual one."
    )


class Simple(Strict):
    uncontested: Literal["play", "lose_double"] = Field(
        default="play",
        description="A plain non-red Simple that nobody overbid: played normally, or lost double "
        "(WP 'usually').",
    )
    uncontested_played_out: bool = Field(
        default=True, description="With 'lose_double': whether the hand is still played (OPEN)."
    )
    give_up_allowed: bool = Field(
        default=False,
        description="The declarer of a plain, non-red, uncombined Parti may give up before the "
        "first lead (DE, HU).",
    )
    give_up_cost: int = Field(default=2, description="What giving up costs, per defender.")


# --------------------------------------------------------------------------- kontra


class KontraLevel(Strict):
    names: Names = Field(description="What the call is called.")
    multiplier: int = Field(gt=0, description="Factor on the component at this level.")
    by: Side = Field(description="Which side calls this level.")


class Kontra(Strict):
    levels: list[KontraLevel] = Field(
        description="The chain, level 1 first. The defenders open it and the sides alternate."
    )
    max_level: int | None = Field(
        default=None,
        ge=0,
        description="Highest level allowed; null means unlimited (levels beyond the named ones "
        "double again and are called 'N× kontra').",
    )
    window: Literal["own_card_trick1", "end_trick1", "before_lead_trick2"] = Field(
        default="before_lead_trick2",
        description="Until when kontras may be called: level 1, and the later levels too unless "
        "later_window says otherwise.",
    )
    per_defender_in_no_trump: bool = Field(
        default=True,
        description="In no-trump components a kontra binds only the defender who called it "
        "(WP, DE, HU); false binds both (GT).",
    )
    per_defender_in_trump: bool = Field(
        default=False, description="In trump components a kontra binds only its caller."
    )
    later_window: Literal["same", "own_card_trick1", "end_trick1", "before_lead_trick2"] = Field(
        default="same",
        description="Until when Rekontra and the levels after it may be called; 'same' keeps "
        "window. DE, HU: Kontra with one's card to trick 1 (window: own_card_trick1), the rest "
        "before trick 2 is led (before_lead_trick2).",
    )

    @model_validator(mode="after")
    def _alternate(self) -> Kontra:
        for i, level in enumerate(self.levels):
            expected: Side = "defenders" if i % 2 == 0 else "declarer"
            if level.by != expected:
                raise ValueError(
                    f"kontra level {i + 1} must be called by the {expected}: the defenders open "
                    "the chain and the sides alternate"
                )
        return self

    def window_of(self, level: int) -> str:
        """Until when ``level`` may be called: ``window`` for level 1, else ``later_window``."""
        return self.window if level == 1 or self.later_window == "same" else self.later_window

    def multiplier(self, level: int) -> int:
        """The factor at ``level`` (0 = no kontra); unnamed levels keep doubling."""
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


# --------------------------------------------------------------------------- contracts


class ContractSpec(Strict):
    """What every catalogue entry has; a kind's parameter model adds its own fields."""

    kind: str = Field(description="The contract kind that judges this component.")
    names: Names = Field(description="Names of the component.")
    value: int = Field(ge=0, description="Base value per defender (red doubles it).")
    open: bool = Field(default=False, description="Open (terített): exposed after the first trick.")


# --------------------------------------------------------------------------- silent bonuses


class SilentBonus(Strict):
    condition: str = Field(
        description="What must happen: the name of the contract kind that judges it (hundred, "
        "ulti, durchmars, or a plugin's kind such as four_aces)."
    )
    names: Names
    value: int = Field(ge=0, description="Value when made, per defender.")
    red_value: int | None = Field(
        default=None, description="Value in a red game; null means twice the value."
    )
    loss_factor: int = Field(
        default=2,
        ge=0,
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
    kontra_from: list[str] = Field(
        default=["parti"],
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

    applies_to: Literal["auto"] | list[str] = Field(
        default="auto",
        description="Bid ids it applies to, or 'auto': the trump bids the condition's kind allows "
        "(e.g. silent ulti in every trump bid without an Ulti).",
    )

    def red(self) -> int:
        return self.red_value if self.red_value is not None else 2 * self.value


# --------------------------------------------------------------------------- ladder


class Bid(Strict):
    id: str = Field(description="Stable identifier, used by records and the score keeper.")
    rank: int = Field(
        ge=1, description="Place in the overcall order; equal ranks exclude each other."
    )
    value: int = Field(ge=0, description="Total per defender; checked against the components.")
    components: list[str] = Field(min_length=1, description="Contract ids, implied Parti included.")
    red: bool = Field(
        default=False, description="The red (piros, Hearts) form: doubles every component."
    )
    names: Names
    aliases: list[str] = Field(
        default=[], description="Other names people type for this bid (e.g. 'Pasar', 'Passz')."
    )
    rank_exception: bool = Field(
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
    hands: int | None = Field(
        default=None,
        ge=1,
        description="Planned number of hands (IT: 24); the ledger ends the session after that "
        "many deals (a redeal does not count).",
    )


# --------------------------------------------------------------------------- the ruleset


class Ruleset(Strict):
    """A complete, validated ruleset (after ``extends`` has been merged)."""

    name: str = Field(description="Short name, used to pick the ruleset.")
    title: str = Field(description="One line shown by `ulti rulesets`.")
    sources: list[str] = Field(default=[], description="Where these rules come from.")
    extends: str | None = Field(
        default=None, description="A bundled ruleset name or a path relative to this file."
    )
    players: Players = Field(default_factory=Players)
    direction: Literal["counter_clockwise", "clockwise"] = Field(default="counter_clockwise")
    deal: Deal = Field(default_factory=Deal)
    points: Points = Field(default_factory=Points)
    ranks: Ranks = Field(default_factory=Ranks)
    marriages: Marriages = Field(default_factory=Marriages)
    trump: Trump = Field(default_factory=Trump)
    play: Play = Field(default_factory=Play)
    open_games: OpenGames = Field(default_factory=OpenGames)
    auction: Auction = Field(default_factory=Auction)
    simple: Simple = Field(default_factory=Simple)
    kontra: Kontra
    contracts: Mapping[str, ContractSpec] = Field(
        description="The contract catalogue: id -> kind, names, value and the kind's parameters."
    )
    silent_bonuses: dict[str, SilentBonus] = Field(default={})
    ladder: list[Bid] = Field(description="Every legal bid, with its rank.")
    session: Session = Field(default_factory=Session)

    def bid(self, bid_id: str) -> Bid:
        """The ladder's bid with id ``bid_id``; KeyError if the ladder has none."""
        for bid in self.ladder:
            if bid.id == bid_id:
                return bid
        raise KeyError(bid_id)


_MODEL_CACHE: dict[tuple[tuple[str, type[ContractSpec]], ...], type[Ruleset]] = {}


def ruleset_model(kinds: Mapping[str, type[ContractSpec]]) -> type[Ruleset]:
    """The Ruleset model whose catalogue accepts exactly the given kinds.

    Built per set of registered kinds (and cached) so that a kind from a plugin
    is validated with its own parameters and the JSON Schema lists it.
    """
    key = tuple(sorted(kinds.items()))
    cached = _MODEL_CACHE.get(key)
    if cached is not None:
        return cached
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
            "__annotations__": {"contracts": dict[str, entry]},
            "contracts": Field(
                description="The contract catalogue: id -> kind, names, value and the kind's "
                "parameters."
            ),
            "__module__": __name__,
            "__doc__": Ruleset.__doc__,
        },
    )
    _MODEL_CACHE[key] = model
    return model
