"""Settlement: from the bid, its kontras and the facts to who pays whom.

Amounts are per defender and signed for the declarer (+n: that defender pays him
n). Each component is made or failed on its own (docs/rules.md#settlement) and is
worth its value × the red factor × that defender's kontra multiplier × the two-round
multiplier; a failed component adds its kind's failure penalty (the Ulti's 4, red 8), under
kontra only where the ruleset says so, times the two-round multiplier (a round-1 bid
counts double whole). Silent bonuses add lines of their own or
replace the Parti's value (``silent.py``). Every number comes from the ruleset,
every condition from the contract kinds; nothing here knows a contract's name.

Four players: the dealer sits out and settles nothing, unless
``players.sitting_out_dealer_pays``; then he settles like a third defender who
called no kontra of his own: a kontra that binds both defenders binds him too, a
personal one (no-trump components) does not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import methodcaller
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

from pydantic import BaseModel, ConfigDict, Field

from ..cards import SUIT_IDS, SuitId
from ..errors import UltiError
from ..facts import Contract, Facts
from ..facts import trusted as _trusted
from ..game import Game
from ..game.catalog import BidInfo
from ..plugins import Registry
from ..ruleset.schema import Bid, Ruleset
from . import notes as _notes
from .judging import (
    Component,
    SilentRule,
    SilentVerdict,
    component_judge,
    components,
    failure_penalty,
    judge_silent,
    judged,
    silent_rules,
)
from .possible import impossibilities
from .silent import own_feat, split, stake
from .unannounced import in_place

if TYPE_CHECKING:
    from ..engine.facts_view import FactsView


class SettlementError(UltiError):
    """The contract or the facts do not fit the ruleset (an unknown bid, a stray kontra)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Share(_Model):
    """One defender's part of a line."""

    seat: int
    kontra_level: int = Field(description="0 = no kontra.")
    kontra: int = Field(description="The kontra multiplier at that level.")
    penalty: int = Field(
        description="Failure penalty included in the amount (red and kontra "
        "applied as the ruleset says)."
    )
    amount: int = Field(description="What this defender pays the declarer (negative: is paid).")


class Transfer(_Model):
    """A payment on a line between two players neither of whom is the declarer: a silent
    bonus played against everyone, settled between the defenders (no kontra between them)."""

    payer: int
    payee: int
    amount: int = Field(ge=0, description="What the payer pays the payee.")


class SettlementLine(_Model):
    """One component, silent bonus, or the cost of giving up."""

    what: str = Field(description="Component id, silent bonus id, or 'give_up'.")
    name: str = Field(description="English name from the ruleset.")
    source: Literal["component", "silent", "give_up"]
    by: Literal["declarer", "defenders"] = Field(
        default="declarer", description="The side whose feat it was (defenders: silent only)."
    )
    made: bool
    base: int = Field(description="Value per defender in a non-red game.")
    red: int = Field(description="Red factor: 2 in a red (Hearts) bid, else 1.")
    value: int = Field(
        description="Value per defender in this game (base × red, or the "
        "ruleset's red value of a silent bonus)."
    )
    multiplier: int = Field(
        default=1, description="Two-round auction round-1 factor; ×2 for an uncontested Simple."
    )
    replaced_by: str | None = Field(
        default=None, description="The silent bonus whose value the Parti took (DE, HU, GT)."
    )
    note: str = ""
    shares: list[Share] = Field(description="One per paying defender.")
    transfers: list[Transfer] = Field(
        default=[],
        description="Payments between defenders: a defender's silent feat played against "
        "everyone (the other defender pays him, or he pays the other).",
    )
    kontra: int | None = Field(description="Kontra multiplier when the same for every defender.")
    penalty: int | None = Field(description="Penalty per defender when the same for all.")
    amount: int | None = Field(description="Amount per defender when the same for all.")


class Settlement(_Model):
    """The itemised result of a hand: lines, then the payment per seat (sum zero)."""

    ruleset: str
    bid: str
    bid_name: str
    red: bool
    trump: SuitId | None
    declarer: int
    defenders: list[int] = Field(description="Seats that settle with the declarer.")
    sitting_out: int | None = None
    lines: list[SettlementLine]
    per_defender: dict[int, int] = Field(description="Total each defender pays the declarer.")
    payments: dict[int, int] = Field(description="Net result per seat; sums to zero.")

    @property
    def declarer_total(self) -> int:
        """What the declarer wins (or, negative, loses) in all."""
        return self.payments[self.declarer]

    def line(self, what: str) -> SettlementLine:
        """The line for component or silent bonus id ``what``; KeyError if there is none."""
        for line in self.lines:
            if line.what == what:
                return line
        raise KeyError(what)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: what `ulti score --json` prints under ``settlement``."""
        return self.model_dump(mode="json")


Shares = Sequence[tuple[int, int, int, int, int]]
"""A line's shares while a hand is settled: (seat, kontra level, kontra, penalty, amount)
for each payer, in the order of ``_Table.payers``."""
Transfers = Sequence[tuple[int, int, int]]
"""A line's transfers while a hand is settled: (payer, payee, amount)."""


_HEAD = (
    "what",
    "name",
    "source",
    "by",
    "made",
    "base",
    "red",
    "value",
    "multiplier",
    "replaced_by",
    "note",
)
"""The fields of a line before its shares, in the model's order: a ``_Line``'s head."""
_SHARE = tuple(Share.model_fields)
_TRANSFER = tuple(Transfer.model_fields)


class _Line:
    """One line as plain values: what the payments add up, and what becomes a
    :class:`SettlementLine` when the whole settlement is asked for (built unchecked, as
    the engine builds its facts: every value is made here, in its final form)."""

    __slots__ = ("given", "head", "shares", "transfers")

    def __init__(
        self,
        head: tuple[Any, ...],
        given: frozenset[str],
        shares: Shares,
        transfers: Transfers = (),
    ) -> None:
        self.head = head
        """The values of ``_HEAD``, defaults filled in."""
        self.given = given
        """The fields the line names (``model_fields_set``)."""
        self.shares = shares
        self.transfers = transfers

    def model(self) -> SettlementLine:
        shares = self.shares
        first = shares[0] if shares else (0, 0, None, None, None)
        fields = dict(zip(_HEAD, self.head, strict=True))
        fields["shares"] = [
            _trusted(Share, dict(zip(_SHARE, share, strict=True))) for share in shares
        ]
        fields["transfers"] = [
            _trusted(Transfer, dict(zip(_TRANSFER, transfer, strict=True)))
            for transfer in self.transfers
        ]
        for index, name in ((2, "kontra"), (3, "penalty"), (4, "amount")):
            same = all(share[index] == first[index] for share in shares)
            fields[name] = first[index] if same else None
        return _trusted(SettlementLine, fields, self.given)


_LINE_FIELDS = frozenset(SettlementLine.model_fields)
_COMPONENT = _LINE_FIELDS - {"by"}
"""The fields each kind of line names (``model_fields_set``), as when lines were
validated from the fields given: a component line leaves ``by`` to its default, a
silent one ``multiplier`` and ``replaced_by``, a forfeit the three of them."""
_SILENT = _LINE_FIELDS - {"multiplier", "replaced_by"}
_GIVE_UP = _LINE_FIELDS - {"by", "multiplier", "replaced_by"}
_LOST_DOUBLE = _LINE_FIELDS - {"by", "replaced_by"}


class _Plan:
    """What settling one bid of a game needs that no hand changes: its components, the
    silent bonuses it allows with their kinds and kontra hosts, the components' failure
    penalties. Kept by the game (``Game.derived``), built on first use; each part is
    built when first needed, so a kind's fault shows where it showed before."""

    __slots__ = (
        "_judges",
        "_penalties",
        "_silent",
        "bid",
        "comps",
        "has_parti",
        "info",
        "red",
        "settled",
        "voidable",
    )

    def __init__(self, game: Game, info: BidInfo) -> None:
        self.info = info
        self.bid = info.bid
        self.red = 2 if info.bid.red else 1
        self.comps = tuple(components(game.ruleset, info.bid, game.registry))
        self.voidable = game.ruleset.marriages.in_hundred_game.unannounced == "parti"
        """Whether a 100 may be settled as a Parti (``unannounced.py``): else every hand
        settles ``settled``, whether it ``has_parti``."""
        self.settled: tuple[tuple[Component, Component | None], ...] = tuple(
            (comp, None) for comp in self.comps
        )
        self.has_parti = any(comp.kind.is_parti for comp in self.comps)
        self._penalties: dict[str, tuple[int, bool]] = {}
        self._judges: dict[str, Callable[[Facts], bool]] = {}
        self._silent: tuple[tuple[SilentRule, ...], dict[str, Component | None]] | None = None

    def penalty(self, comp: Component) -> tuple[int, bool]:
        """``failure_penalty(comp)``, asked of its kind once."""
        found = self._penalties.get(comp.id)
        if found is None:
            found = self._penalties[comp.id] = failure_penalty(comp)
        return found

    def judge(self, comp: Component, ruleset: Ruleset) -> Callable[[Facts], bool]:
        """``component_judge(comp)``, prepared once."""
        found = self._judges.get(comp.id)
        if found is None:
            found = self._judges[comp.id] = component_judge(comp, ruleset)
        return found

    def silent(self, game: Game) -> tuple[tuple[SilentRule, ...], dict[str, Component | None]]:
        """The silent bonuses the bid allows, and the component whose kontra each follows."""
        if self._silent is None:
            bid = self.bid
            rules = silent_rules(game.ruleset, bid, game.registry, game.silent_values(bid.id))
            ids = [c.id for c in self.comps]
            hosts = {}
            for rule in rules:
                host_id = rule.bonus.kontra_host(ids)
                hosts[rule.id] = next((c for c in self.comps if c.id == host_id), None)
            self._silent = rules, hosts
        return self._silent


def _check_seats(ruleset: Ruleset, contract: Contract, facts: Facts | None) -> None:
    """The contract's seats and the facts' fit the table: refuse them where they do not."""
    count = ruleset.players.count
    out = contract.sitting_out
    if count == 4 and out is None:
        raise SettlementError("four players: the contract must say which dealer sits out")
    if count == 3 and out is not None:
        raise SettlementError(f"seat {out} sits out, but the ruleset is for three players")
    if out is not None and out not in range(count):
        raise SettlementError(f"seat {out} sits out, but the seats are 0..{count - 1}")
    seats = [s for s in range(count) if s != out]
    if facts is not None and sorted(facts.seats) != seats:
        raise SettlementError(
            f"the facts name the active seats {sorted(facts.seats)}, the contract and "
            f"ruleset give {seats}"
        )
    if contract.declarer not in seats:
        raise SettlementError(f"the declarer's seat {contract.declarer} is not an active seat")


class _Table:
    """Who settles what with whom, for one bid, declarer and dealer sitting out: kept by
    the game (``Game.derived``), the same for every hand they play. The hand's own
    kontras come with its contract (``levels``)."""

    __slots__ = (
        "_quick",
        "dealer_pays",
        "defenders",
        "info",
        "multiplier",
        "no_kontra",
        "payers",
        "plan",
        "ruleset",
        "seats",
    )

    def __init__(self, game: Game, plan: _Plan, declarer: int, out: int | None) -> None:
        ruleset = game.ruleset
        self.ruleset = ruleset
        self.plan = plan
        self.info = plan.info
        self.multiplier = ruleset.kontra.multiplier
        self.seats = tuple(range(ruleset.players.count))
        """Every seat at the table, in order: the keys of the payments."""
        self.defenders = tuple(s for s in range(ruleset.players.count) if s not in (out, declarer))
        self.dealer_pays = out is not None and ruleset.players.sitting_out_dealer_pays
        self.payers = self.defenders + ((out,) if self.dealer_pays and out is not None else ())
        self.no_kontra = tuple((seat, 0, 1) for seat in self.payers)
        """(seat, level, multiplier) of every payer where no kontra applies."""
        self._quick: _Quick | bool | None = False

    def quick(self, game: Game) -> _Quick | None:
        """The brief way to settle this table's hands without kontra, prepared on first
        use; None where its bid needs the general way."""
        quick = self._quick
        if quick is False:
            quick = self._quick = _Quick.of(game, self)
        return quick  # type: ignore[return-value]

    def per_defender(self, component: Component) -> bool:
        return component.id in self.info.per_defender

    def levels(
        self, contract: Contract, component: Component | None
    ) -> tuple[tuple[int, int, int], ...]:
        """Each payer's kontra level on ``component`` and its multiplier, as (seat, level,
        multiplier) in the order of ``payers`` (None: no kontra applies)."""
        if component is None:
            return self.no_kontra
        given = contract.kontra.get(component.id)
        if not given or not any(given.values()):
            return self.no_kontra
        levels = [given.get(d, 0) for d in self.defenders]
        if self.dealer_pays:
            levels.append(levels[0] if not self.per_defender(component) else 0)
        multiplier = self.multiplier
        return tuple(
            (seat, level, multiplier(level) if level else 1)
            for seat, level in zip(self.payers, levels, strict=True)
        )


def _check_contract(
    ruleset: Ruleset, table: _Table, contract: Contract, comps: Sequence[Component]
) -> None:
    info = table.info
    bid = info.bid
    if not info.biddable:
        least = ruleset.auction.min_components
        raise SettlementError(
            f"bid '{bid.id}' cannot have won the auction: every bid has at least {least} "
            f"components in this ruleset (auction.min_components), and it has "
            f"{len(bid.components)}"
        )
    by_id = {c.id: c for c in comps}
    max_level = ruleset.kontra.level_cap  # max_level, or the framework's limit
    for cid, per_seat in contract.kontra.items():
        comp = by_id.get(cid)
        if comp is None:
            raise SettlementError(
                f"kontra on '{cid}', which is not a component of the bid '{bid.id}' "
                f"({', '.join(bid.components)})"
            )
        for seat, level in per_seat.items():
            if seat not in table.defenders:
                raise SettlementError(f"kontra on '{cid}' for seat {seat}, which is not a defender")
            if level < 0 or (max_level is not None and level > max_level):
                limit = f"0..{max_level}" if max_level is not None else "0 or more"
                raise SettlementError(
                    f"kontra level {level} on '{cid}': the ruleset allows {limit}"
                )
        if not table.per_defender(comp):
            levels = {per_seat.get(d, 0) for d in table.defenders}
            if len(levels) > 1:
                raise SettlementError(
                    f"a kontra on '{cid}' binds both defenders in this ruleset, but their "
                    f"levels differ ({', '.join(str(per_seat.get(d, 0)) for d in table.defenders)})"
                )
    trump = info.trump
    if trump == "none" and contract.trump is not None:
        raise SettlementError(
            f"bid '{bid.id}' is played without trumps, but trump is {contract.trump}"
        )
    if trump != "none" and contract.trump is None and not _forfeit(ruleset, contract):
        raise SettlementError(f"bid '{bid.id}' needs a trump suit")
    if trump == "red" and contract.trump != ruleset.trump.red_suit:
        raise SettlementError(
            f"bid '{bid.id}' is a red bid: trump is {ruleset.trump.red_suit}, not {contract.trump}"
        )
    named = contract.trump
    if trump == "suit" and named is not None and SUIT_IDS[named] not in info.suits:
        _refuse_suit_trump(ruleset, bid, named)
    two_round = ruleset.auction.two_round
    allowed = {1} | ({two_round.multiplier} if two_round is not None else set())
    if contract.multiplier not in allowed:
        raise SettlementError(
            f"multiplier {contract.multiplier}: this ruleset allows "
            f"{' or '.join(map(str, sorted(allowed)))} (round 1 of a two-round auction)"
        )
    plain_simple = info.plain_parti
    if contract.gave_up:
        if not ruleset.simple.give_up_allowed:
            raise SettlementError("this ruleset does not allow giving up")
        if not plain_simple:
            raise SettlementError(
                f"only a plain, non-red, uncombined Simple may be given up, not '{bid.id}'"
            )
        if _kontra_called(contract):
            raise SettlementError("a hand given up before the first lead cannot carry a kontra")
    if contract.uncontested and not plain_simple:
        raise SettlementError(
            f"'uncontested' is about a plain, non-red Simple nobody overbid, not '{bid.id}'"
        )
    if contract.uncontested and ruleset.simple.lost_unplayed and _kontra_called(contract):
        raise SettlementError(
            "an uncontested Simple is lost double here before any card is played "
            "(simple.uncontested_played_out: false), so no kontra can be called on it"
        )


def _kontra_called(contract: Contract) -> bool:
    return any(any(v for v in seats.values()) for seats in contract.kontra.values())


def _refuse_suit_trump(ruleset: Ruleset, bid: Bid, suit: SuitId) -> None:
    """Why a suit bid's trump is not one its declarer could name (the catalogue's
    ``suits``): the fixed suit where one is always trump, and never the red suit where
    only a red bid (worth double) may make it trump; it would be paid at the wrong value."""
    rules = ruleset.trump
    if rules.fixed is not None:
        raise SettlementError(f"trump is always {rules.fixed} in this ruleset, not {suit}")
    if suit == rules.red_suit and rules.red_suit_needs_red_bid:
        raise SettlementError(
            f"{suit} is trump only in a red bid in this ruleset, and '{bid.id}' is not red "
            "(its red form doubles every component)"
        )


def _check_facts(ruleset: Ruleset, contract: Contract, facts: Facts) -> None:
    """Facts that could not have happened would give a wrong payment: refuse them."""
    if facts.declarer != contract.declarer:
        raise SettlementError(
            f"the facts say seat {facts.declarer} declared, the contract seat {contract.declarer}"
        )
    if facts.trump != contract.trump:
        raise SettlementError(
            f"the facts say trump was {facts.trump}, the contract {contract.trump}"
        )
    contradictions = impossibilities(facts, ruleset)
    if contradictions:
        raise SettlementError(
            "the facts are impossible: " + "; ".join(c.message for c in contradictions)
        )


def _component_line(
    table: _Table,
    contract: Contract,
    comp: Component,
    facts: Facts,
    replacing: SilentVerdict | None,
    void: Component | None = None,
    itemised: bool = True,
) -> _Line:
    """One component; ``void``: the 100 it is settled in place of, whose kontra it takes
    (``marriages.in_hundred_game.unannounced: parti``, ``unannounced.py``). Not
    ``itemised``: the shares alone, for the payments (no names, no notes)."""
    plan = table.plan
    red = plan.red
    base, value = comp.spec.value, comp.spec.value * red
    if replacing is not None:
        base, value = replacing.base, replacing.value
    ok = judged(comp, plan.judge(comp, table.ruleset), facts)
    penalty, penalty_kontra = plan.penalty(comp)
    mult = contract.multiplier
    shares = []
    for seat, level, k in table.levels(contract, void or comp):
        pen = 0 if ok else penalty * red * (k if penalty_kontra else 1) * mult
        amount = value * k * mult if ok else -(value * k * mult + pen)
        shares.append((seat, level, k, pen, amount))
    if not itemised:
        return _Line((comp.id, None, "component", "declarer", ok), _COMPONENT, shares)
    note = ""
    if replacing is not None or void is not None:
        notes = []
        if replacing is not None:
            notes.append(_notes.WORTH.format(bonus=replacing.bonus.names.en))
        if void is not None:
            notes.append(_notes.UNANNOUNCED.format(contract=void.spec.names.en))
        note = _notes.join(notes)
    replaced_by = replacing.id if replacing is not None else None
    head = (comp.id, comp.spec.names.en, "component", "declarer", ok, base, red, value, mult)
    return _Line((*head, replaced_by, note), _COMPONENT, shares)


def _silent_line(
    table: _Table,
    contract: Contract,
    verdict: SilentVerdict,
    host: Component | None,
    beside: SilentVerdict | None,
) -> _Line:
    """One silent bonus, under the kontra of ``host``; ``beside``: the bonus the Parti
    took the value of, where this one would replace the Parti too and is paid beside it
    (``silent.replacing: all``).

    Against everyone (SN), a defender's own feat is settled between him and the
    declarer as usual, and between him and every other payer by a transfer; the
    other payers settle nothing with the declarer on this line.
    """
    per_kontra = stake(verdict)
    maker = own_feat(verdict)
    shares = [
        (seat, level, k, 0, per_kontra * k if maker in (None, seat) else 0)
        for seat, level, k in table.levels(contract, host)
    ]
    outcome = verdict.outcome
    transfers = []
    if maker is not None:
        for seat in table.payers:
            if seat != maker:
                payer, payee = (seat, maker) if outcome.made else (maker, seat)
                transfers.append((payer, payee, abs(per_kontra)))
    notes = []
    if not outcome.made:
        notes.append(_notes.LOST.format(factor=verdict.bonus.loss_factor))
    if maker is not None:
        notes.append(_notes.OTHER_PAYS if outcome.made else _notes.PAYS_OTHER)
    if beside is not None and verdict.bonus.parti == "replaces" and outcome.made:
        notes.append(_notes.BESIDE.format(bonus=beside.bonus.names.en))
    head = (verdict.id, verdict.bonus.names.en, "silent", outcome.side, outcome.made)
    values = (verdict.base, table.plan.red, verdict.value, 1, None, _notes.join(notes))
    return _Line((*head, *values), _SILENT, shares, transfers)


def _forfeit(ruleset: Ruleset, contract: Contract) -> bool:
    return decided_before_play(ruleset, contract.gave_up, contract.uncontested)


def decided_before_play(ruleset: Ruleset, gave_up: bool, uncontested: bool) -> bool:
    """The hand is decided before play: given up, or an uncontested Simple lost double
    (the settlement's and the score sheet's one answer).

    Its trump need not have been named then (DE: trump is named at the first lead).
    """
    return gave_up or (uncontested and ruleset.simple.uncontested == "lose_double")


def _forfeit_lines(table: _Table, contract: Contract) -> list[_Line]:
    """A hand decided before play: given up, or an uncontested Simple lost double."""
    if contract.gave_up:
        cost = table.ruleset.simple.give_up_cost
        shares = [(seat, 0, 1, 0, -cost) for seat in table.payers]
        note = _notes.GAVE_UP
        given_up = ("give_up", "Give up", "give_up", "declarer", False, cost, 1, cost, 1, None)
        return [_Line((*given_up, note), _GIVE_UP, shares)]
    (parti,) = table.plan.comps
    mult = 2 * contract.multiplier
    value = parti.spec.value
    levels = table.levels(contract, parti)
    shares = [(seat, level, k, 0, -value * k * mult) for seat, level, k in levels]
    note = (  # the round-1 factor too, or the line's ×4 reads as a mistake
        _notes.LOST_DOUBLE
        if contract.multiplier == 1
        else _notes.LOST_DOUBLE_ROUND_ONE.format(factor=contract.multiplier)
    )
    head = (parti.id, parti.spec.names.en, "component", "declarer", False, value, 1, value, mult)
    return [_Line((*head, None, note), _LOST_DOUBLE, shares)]


def _table(game: Game, contract: Contract, facts: Facts | None, trusted: bool) -> _Table:
    """The table the contract is settled at; a contract and facts from outside checked
    first (the bid, the seats)."""
    if not trusted:
        _bid_info(game, contract)
        _check_seats(game.ruleset, contract, facts)
    key = ("settlement table", contract.bid, contract.declarer, contract.sitting_out)
    return game.derived(key, lambda: _new_table(game, contract))


def _new_table(game: Game, contract: Contract) -> _Table:
    info = _bid_info(game, contract)
    plan = game.derived(("settlement plan", info.id), lambda: _Plan(game, info))
    return _Table(game, plan, contract.declarer, contract.sitting_out)


def _bid_info(game: Game, contract: Contract) -> BidInfo:
    try:
        return game.bid(contract.bid)
    except KeyError:
        raise SettlementError(
            f"'{contract.bid}' is not a bid of the ruleset '{game.ruleset.name}'"
        ) from None


def _lines(
    game: Game,
    contract: Contract,
    facts: Facts | None,
    trusted: bool,
    itemised: bool = True,
    table: _Table | None = None,
) -> tuple[_Table, list[_Line]]:
    """The hand's lines: what both ``settle`` and ``settle_brief`` add up (the latter
    not ``itemised``: its component lines carry their shares alone). ``table``: the
    contract's (``_table``), where the caller has it."""
    if table is None:
        table = _table(game, contract, facts, trusted)
    ruleset, plan = table.ruleset, table.plan
    if not trusted:
        _check_contract(ruleset, table, contract, plan.comps)
    if _forfeit(ruleset, contract):
        return table, _forfeit_lines(table, contract)
    if facts is None:
        raise SettlementError("the hand was played: settling it needs its facts")
    if not trusted:
        _check_facts(ruleset, contract, facts)
    rules, hosts = plan.silent(game)
    verdicts = judge_silent(rules, plan.bid.red, facts, ruleset) if rules else []
    settled: Sequence[tuple[Component, Component | None]]
    if plan.voidable:
        settled = in_place(ruleset, plan.comps, facts, game.registry)  # a void 100: the Parti
        has_parti = any(c.kind.is_parti for c, _ in settled)
    else:
        settled, has_parti = plan.settled, plan.has_parti
    replacing, apart = split(verdicts, has_parti, ruleset.silent.replacing)
    lines = [
        _component_line(
            table, contract, c, facts, replacing if c.kind.is_parti else None, void, itemised
        )
        for c, void in settled
    ]
    lines += [_silent_line(table, contract, v, hosts[v.id], replacing) for v in apart]
    return table, lines


def _owed(table: _Table, lines: list[_Line]) -> list[int]:
    """What each payer pays the declarer, in the order of ``table.payers``."""
    owed = [0] * len(table.payers)
    for line in lines:
        for index, share in enumerate(line.shares):
            owed[index] += share[4]
    return owed


def _payments(
    game: Game, contract: Contract, table: _Table, lines: list[_Line], owed: list[int]
) -> dict[int, int]:
    """The net result per seat (sum zero): the payers' shares, then the transfers."""
    payments = dict.fromkeys(table.seats, 0)
    for seat, amount in zip(table.payers, owed, strict=True):
        payments[seat] = -amount
    payments[contract.declarer] = sum(owed)
    for line in lines:
        for payer, payee, amount in line.transfers:
            payments[payer] -= amount
            payments[payee] += amount
    return payments


def _check_given(contract: Contract | None) -> None:
    """A passed-out hand's ``hand.contract`` is None: say so, not an AttributeError from
    deep inside (checked even for ``trusted=True``, as ``hand.contract`` is trusted)."""
    if contract is None:
        raise SettlementError(
            "there is no contract to settle: the hand was passed out (hand.contract is None)"
        )


def settle(
    game: Game | Ruleset,
    contract: Contract,
    facts: Facts | None,
    registry: Registry | None = None,
    *,
    trusted: bool = False,
) -> Settlement:
    """Settle one hand. ``facts`` may be None only for a hand decided before play
    (given up, or an uncontested Simple the ruleset loses double).

    ``game`` is the hand's game (``hand.game``, ``load_game``); a ruleset stands for
    ``Game.of(ruleset, registry)``. A contract and facts typed in are checked for what
    the ruleset does not allow and what could not have happened; ``trusted=True`` skips
    that for the ones the engine built from a hand it played (``hand.contract``,
    ``hand.facts``), which hold nothing of the kind."""
    _check_given(contract)
    game = Game.of(game, registry)
    table, lines = _lines(game, contract, facts, trusted)
    owed = _owed(table, lines)
    bid = table.plan.bid
    return _trusted(
        Settlement,
        {
            "ruleset": game.ruleset.name,
            "bid": bid.id,
            "bid_name": bid.names.en,
            "red": bid.red,
            "trump": contract.trump,
            "declarer": contract.declarer,
            "defenders": list(table.payers),
            "sitting_out": contract.sitting_out,
            "lines": [line.model() for line in lines],
            "per_defender": dict(zip(table.payers, owed, strict=True)),
            "payments": _payments(game, contract, table, lines, owed),
        },
    )


class Brief(NamedTuple):
    """A hand's settlement in brief: the payments, and what each line was about."""

    payments: dict[int, int]
    """The net result per seat, as ``Settlement.payments``."""
    components: tuple[tuple[str, bool], ...]
    """(component id, made) of each component line, in the settlement's order."""
    silent: tuple[tuple[str, str, bool], ...]
    """(silent bonus id, the side whose feat it was, made) of each silent line."""


def settle_brief(
    game: Game | Ruleset,
    contract: Contract,
    facts: Facts | FactsView | None,
    registry: Registry | None = None,
    *,
    trusted: bool = False,
) -> Brief:
    """``settle(...)`` in brief, without the models: the same lines, judged and added up
    the same way (``ulti simulate`` keeps totals and counts made components and silent
    feats). ``facts`` may be the light view of a played hand (``engine.facts.facts_view``),
    which answers every attribute of ``Facts`` the contract kinds read."""
    _check_given(contract)
    game = Game.of(game, registry)
    model_facts = cast(Facts | None, facts)
    table = _table(game, contract, model_facts, trusted)
    if (
        trusted
        and model_facts is not None
        and not (contract.gave_up or contract.uncontested)
        and not any(map(any, map(_VALUES, contract.kontra.values())))
    ):
        quick = table.quick(game)
        if quick is not None:
            return quick.brief(contract, model_facts)
    table, lines = _lines(game, contract, model_facts, trusted, itemised=False, table=table)
    payments = dict.fromkeys(table.seats, 0)
    total = 0
    components, silent = [], []
    for line in lines:
        for share in line.shares:
            payments[share[0]] -= share[4]
            total += share[4]
        for payer, payee, amount in line.transfers:
            payments[payer] -= amount
            payments[payee] += amount
        head = line.head
        if head[2] == "component":
            components.append((head[0], head[4]))
        elif head[2] == "silent":
            silent.append((head[0], head[3], head[4]))
    payments[contract.declarer] += total
    return Brief(payments, tuple(components), tuple(silent))


_VALUES = methodcaller("values")


class _Quick:
    """A table's hands in brief where adding up is all there is: no kontra (checked per
    hand), no 100 the Parti may stand in for, no silent bonus that replaces the Parti's
    value or is played against everyone (checked once, here). Every payer then pays the
    same on every line, and each line is its judge's verdict times its value; the
    lines are judged in the order ``_lines`` judges them, so a plugin's fault shows
    as it would there. tests/test_settle_from_view.py holds it equal to ``settle``."""

    __slots__ = ("comps", "payers", "plan", "red", "rules", "ruleset", "seats")

    def __init__(self, game: Game, table: _Table, rules: tuple[SilentRule, ...]) -> None:
        plan = table.plan
        self.plan = plan
        self.ruleset = game.ruleset
        self.red = plan.red
        self.rules = rules
        self.comps = tuple(
            (comp, plan.judge(comp, game.ruleset), comp.spec.value * plan.red)
            for comp in plan.comps
        )
        self.seats = table.seats
        self.payers = table.payers

    @classmethod
    def of(cls, game: Game, table: _Table) -> _Quick | None:
        plan = table.plan
        if plan.voidable:
            return None
        rules, _ = plan.silent(game)
        for rule in rules:
            bonus = rule.bonus
            if bonus.against_everyone or (plan.has_parti and bonus.parti == "replaces"):
                return None
        return cls(game, table, rules)

    def brief(self, contract: Contract, facts: Facts) -> Brief:
        owed = 0  # what each payer pays the declarer
        silent = []
        if self.rules:
            for verdict in judge_silent(self.rules, self.red == 2, facts, self.ruleset):
                owed += stake(verdict)
                outcome = verdict.outcome
                silent.append((verdict.id, outcome.side, outcome.made))
        components = []
        penalty_of, mult, red = self.plan.penalty, contract.multiplier, self.red
        for comp, judge, value in self.comps:
            ok = judged(comp, judge, facts)
            penalty = penalty_of(comp)[0]
            owed += value * mult if ok else -(value + penalty * red) * mult
            components.append((comp.id, ok))
        payments = dict.fromkeys(self.seats, 0)
        payers = self.payers
        for seat in payers:
            payments[seat] = -owed
        payments[contract.declarer] = owed * len(payers)
        return Brief(payments, tuple(components), tuple(silent))


def settle_payments(
    game: Game | Ruleset,
    contract: Contract,
    facts: Facts | FactsView | None,
    registry: Registry | None = None,
    *,
    trusted: bool = False,
) -> dict[int, int]:
    """``settle(...).payments`` without the itemised settlement: the same lines, judged and
    added up the same way, but no models built (``ulti simulate`` keeps only the totals).
    ``facts`` may be the light view of a played hand (``engine.facts.facts_view``), which
    answers every attribute of ``Facts`` the contract kinds read."""
    return settle_brief(game, contract, facts, registry, trusted=trusted).payments
