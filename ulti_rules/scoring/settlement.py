"""Settlement: from the bid, its kontras and the facts to who pays whom.

Amounts are per defender and signed for the declarer (+n: that defender pays him
n). Each component is made or failed on its own (C17) and is worth its value ×
the red factor × that defender's kontra multiplier × the two-round multiplier; a
failed component adds its kind's failure penalty (the Ulti's 4, red 8), under
kontra only where the ruleset says so. Silent bonuses add lines of their own or
replace the Parti's value (``silent.py``). Every number comes from the ruleset,
every condition from the contract kinds; nothing here knows a contract's name.

Four players: the dealer sits out and settles nothing, unless
``players.sitting_out_dealer_pays``; then he settles like a third defender who
called no kontra of his own: a kontra that binds both defenders binds him too, a
personal one (no-trump components) does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..cards import SUIT_IDS, SuitId
from ..errors import UltiError
from ..facts import Contract, Facts
from ..game import Game
from ..game.catalog import BidInfo
from ..plugins import Registry
from ..ruleset.schema import Bid, Ruleset
from .judging import Component, SilentVerdict, components, failure_penalty, made, silent_verdicts
from .possible import impossibilities
from .silent import own_feat, split, stake
from .unannounced import in_place


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


Data = dict[str, Any]
"""A line, share or transfer as plain data while a hand is settled: validated into the
models above once, in one call, when the settlement is complete (one pydantic call per
hand instead of one per share and line: settling is in every simulated hand)."""


def _line(shares: list[Data], **fields: Any) -> Data:
    def same(values: list[int]) -> int | None:
        return values[0] if values and len(set(values)) == 1 else None

    fields.setdefault("transfers", [])  # given, so the model copies no default
    return dict(
        shares=shares,
        kontra=same([s["kontra"] for s in shares]),
        penalty=same([s["penalty"] for s in shares]),
        amount=same([s["amount"] for s in shares]),
        **fields,
    )


class _Table:
    """Who sits where in this hand, and the kontra levels each payer settles at."""

    def __init__(self, game: Game, info: BidInfo, contract: Contract, facts: Facts | None) -> None:
        ruleset = game.ruleset
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
        self.ruleset = ruleset
        self.info = info
        self.contract = contract
        self.defenders = [s for s in seats if s != contract.declarer]
        self.dealer_pays = out is not None and ruleset.players.sitting_out_dealer_pays
        self.payers = self.defenders + ([out] if self.dealer_pays and out is not None else [])

    def per_defender(self, component: Component) -> bool:
        return component.id in self.info.per_defender

    def levels(self, component: Component | None) -> dict[int, int]:
        """Each payer's kontra level on ``component`` (None: no kontra applies)."""
        if component is None:
            return dict.fromkeys(self.payers, 0)
        given = self.contract.kontra.get(component.id, {})
        levels = {d: given.get(d, 0) for d in self.defenders}
        if self.dealer_pays and self.contract.sitting_out is not None:
            binding = not self.per_defender(component)
            levels[self.contract.sitting_out] = levels[self.defenders[0]] if binding else 0
        return levels


def _check_contract(ruleset: Ruleset, table: _Table, comps: Sequence[Component]) -> None:
    contract = table.contract
    info = table.info
    bid = info.bid
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
        if any(any(v for v in seats.values()) for seats in contract.kontra.values()):
            raise SettlementError("a hand given up before the first lead cannot carry a kontra")
    if contract.uncontested and not plain_simple:
        raise SettlementError(
            f"'uncontested' is about a plain, non-red Simple nobody overbid, not '{bid.id}'"
        )


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
    bid: Bid,
    comp: Component,
    facts: Facts,
    replacing: SilentVerdict | None,
    void: Component | None = None,
) -> Data:
    """One component; ``void``: the 100 it is settled in place of, whose kontra it takes
    (``marriages.in_hundred_game.unannounced: parti``, ``unannounced.py``)."""
    red = 2 if bid.red else 1
    base, value = comp.spec.value, comp.spec.value * red
    if replacing is not None:
        base, value = replacing.base, replacing.value
    ok = made(comp, facts, table.ruleset)
    penalty, penalty_kontra = failure_penalty(comp)
    mult = table.contract.multiplier
    shares = []
    notes = [f"worth {replacing.bonus.names.en}"] if replacing is not None else []
    if void is not None:
        notes.append(f"in place of the {void.spec.names.en}: its marriage was never announced")
    for seat, level in table.levels(void or comp).items():
        k = table.ruleset.kontra.multiplier(level)
        pen = 0 if ok else penalty * red * (k if penalty_kontra else 1) * mult
        amount = value * k * mult if ok else -(value * k * mult + pen)
        shares.append(dict(seat=seat, kontra_level=level, kontra=k, penalty=pen, amount=amount))
    return _line(
        shares,
        what=comp.id,
        name=comp.spec.names.en,
        source="component",
        made=ok,
        base=base,
        red=red,
        value=value,
        multiplier=mult,
        replaced_by=replacing.id if replacing is not None else None,
        note="; ".join(notes),
    )


def _silent_line(
    table: _Table,
    bid: Bid,
    verdict: SilentVerdict,
    comps: Sequence[Component],
    beside: SilentVerdict | None,
) -> Data:
    """One silent bonus; ``beside``: the bonus the Parti took the value of, where this
    one would replace the Parti too and is paid beside it (``silent.replacing: all``).

    Against everyone (SN), a defender's own feat is settled between him and the
    declarer as usual, and between him and every other payer by a transfer; the
    other payers settle nothing with the declarer on this line.
    """
    host_id = verdict.bonus.kontra_host([c.id for c in comps])
    host = next((c for c in comps if c.id == host_id), None)
    per_kontra = stake(verdict)
    maker = own_feat(verdict)
    shares = []
    for seat, level in table.levels(host).items():
        k = table.ruleset.kontra.multiplier(level)
        amount = per_kontra * k if maker in (None, seat) else 0
        shares.append(dict(seat=seat, kontra_level=level, kontra=k, penalty=0, amount=amount))
    outcome = verdict.outcome
    transfers = []
    if maker is not None:
        for seat in table.payers:
            if seat != maker:
                payer, payee = (seat, maker) if outcome.made else (maker, seat)
                transfers.append(dict(payer=payer, payee=payee, amount=abs(per_kontra)))
    notes = []
    if not outcome.made:
        notes.append(f"lost: {verdict.bonus.loss_factor} × value")
    if maker is not None:
        notes.append(
            "against everyone: the other defender pays too"
            if outcome.made
            else "against everyone: pays the other defender too"
        )
    if beside is not None and verdict.bonus.parti == "replaces" and outcome.made:
        notes.append(f"paid beside the Parti worth {beside.bonus.names.en}")
    return _line(
        shares,
        what=verdict.id,
        name=verdict.bonus.names.en,
        source="silent",
        by=outcome.side,
        made=outcome.made,
        base=verdict.base,
        red=2 if bid.red else 1,
        value=verdict.value,
        note="; ".join(notes),
        transfers=transfers,
    )


def _forfeit(ruleset: Ruleset, contract: Contract) -> bool:
    """The hand is decided before play: given up, or an uncontested Simple lost double.

    Its trump need not have been named then (DE: trump is named at the first lead).
    """
    return contract.gave_up or (
        contract.uncontested and ruleset.simple.uncontested == "lose_double"
    )


def _forfeit_lines(table: _Table, comps: Sequence[Component]) -> list[Data]:
    """A hand decided before play: given up, or an uncontested Simple lost double."""
    if table.contract.gave_up:
        cost = table.ruleset.simple.give_up_cost
        shares = [
            dict(seat=s, kontra_level=0, kontra=1, penalty=0, amount=-cost) for s in table.payers
        ]
        return [
            _line(
                shares,
                what="give_up",
                name="Give up",
                source="give_up",
                made=False,
                base=cost,
                red=1,
                value=cost,
                note="gave up before the first lead",
            )
        ]
    (parti,) = comps
    mult = 2 * table.contract.multiplier
    shares = []
    for seat, level in table.levels(parti).items():
        k = table.ruleset.kontra.multiplier(level)
        amount = -parti.spec.value * k * mult
        shares.append(dict(seat=seat, kontra_level=level, kontra=k, penalty=0, amount=amount))
    return [
        _line(
            shares,
            what=parti.id,
            name=parti.spec.names.en,
            source="component",
            made=False,
            base=parti.spec.value,
            red=1,
            value=parti.spec.value,
            multiplier=mult,
            note="uncontested plain Simple: lost double",
        )
    ]


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
    ``Game.of(ruleset, registry)``. Facts typed in are checked for what could not have
    happened; ``trusted=True`` skips that for facts the engine built from a hand it
    played (``hand.facts``), which hold nothing impossible."""
    game = Game.of(game, registry)
    ruleset, registry = game.ruleset, game.registry
    try:
        info = game.bid(contract.bid)
    except KeyError:
        raise SettlementError(
            f"'{contract.bid}' is not a bid of the ruleset '{ruleset.name}'"
        ) from None
    bid = info.bid
    table = _Table(game, info, contract, facts)
    comps = game.derived(("components", bid.id), lambda: tuple(components(ruleset, bid, registry)))
    _check_contract(ruleset, table, comps)
    if _forfeit(ruleset, contract):
        lines = _forfeit_lines(table, comps)
    else:
        if facts is None:
            raise SettlementError("the hand was played: settling it needs its facts")
        if not trusted:
            _check_facts(ruleset, contract, facts)
        verdicts = silent_verdicts(ruleset, bid, facts, registry, game.silent_values(bid.id))
        settled = in_place(ruleset, comps, facts, registry)  # a void 100: the Parti instead
        has_parti = any(c.kind.is_parti for c, _ in settled)
        replacing, apart = split(verdicts, has_parti, ruleset.silent.replacing)
        lines = [
            _component_line(table, bid, c, facts, replacing if c.kind.is_parti else None, void)
            for c, void in settled
        ]
        lines += [_silent_line(table, bid, v, comps, replacing) for v in apart]
    per_defender = {seat: sum(_share(line, seat) for line in lines) for seat in table.payers}
    payments = {seat: 0 for seat in range(ruleset.players.count)}
    for seat, amount in per_defender.items():
        payments[seat] -= amount
        payments[contract.declarer] += amount
    for transfer in (t for line in lines for t in line.get("transfers", ())):
        payments[transfer["payer"]] -= transfer["amount"]
        payments[transfer["payee"]] += transfer["amount"]
    data: Data = dict(
        ruleset=ruleset.name,
        bid=bid.id,
        bid_name=bid.names.en,
        red=bid.red,
        trump=contract.trump,
        declarer=contract.declarer,
        defenders=table.payers,
        sitting_out=contract.sitting_out,
        lines=lines,
        per_defender=per_defender,
        payments=payments,
    )
    return Settlement.model_validate(data)


def _share(line: Data, seat: int) -> int:
    amount: int = next(s["amount"] for s in line["shares"] if s["seat"] == seat)
    return amount
