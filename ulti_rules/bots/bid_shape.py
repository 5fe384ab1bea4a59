"""What a bid asks of its declarer, read once per game from the catalogue: the club bot's menu.

A club player knows a bid by what it makes him do: score more than the defenders
(Parti), reach 100 with a marriage, win the last trick with the trump 7 (Ulti), take
no trick (Betli), take every trick (Durchmars). The bot reads that from each
component's contract kind (the built-in kinds by their registered names and flags)
and its value from the ruleset, so a club's ladder and values are what it bids by.
A plugin's kind it does not know is ``unknown``: such a bid is not biddable unless the
hand is trivially strong (see ``hand_strength``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..contracts.base import ContractKind
from ..contracts.builtin import HundredSpec
from ..game import Game
from ..game.catalog import BidInfo, TrumpMode
from ..ruleset.schema import ContractSpec

Task = Literal["parti", "hundred", "ulti", "betli", "durchmars", "unknown"]
"""What a component asks of the declarer, as the bot plays it."""
Purpose = Literal["points", "hundred", "betli", "allwin"]
"""What a declarer's discard serves: a trump game of points (Parti, Ulti), one with a
100, a Betli, or a Durchmars (``allwin``: every trick)."""

KNOWN_TASKS: dict[str, Task] = {
    "parti": "parti",
    "hundred": "hundred",
    "ulti": "ulti",
    "betli": "betli",
    "durchmars": "durchmars",
}
"""The built-in kinds by their registered names (a plugin cannot take these names)."""


@dataclass(frozen=True, slots=True)
class Part:
    """One component of a bid, as the bot weighs it."""

    id: str
    task: Task
    value: int
    """Its value in this bid, per defender (doubled in a red bid)."""
    penalty: int
    """Paid on top of the value when it fails (the Ulti's failure penalty; red doubled)."""
    open: bool
    trump: bool
    """Played with a trump suit."""
    need: int
    """A 100: the card points needed beside its marriage (target minus the marriage)."""
    key: int = 0
    """The same number for parts whose chance is the same (task, need, open, trump)."""


@dataclass(frozen=True, slots=True)
class BidShape:
    """A bid of the ladder as the bot sees it: its parts, its trump mode, its rank."""

    info: BidInfo
    parts: tuple[Part, ...]
    red: bool
    uncontested_cost: int
    """What a lone plain Parti costs when nobody overbids it and it is not played
    (``simple.uncontested: lose_double``); 0 where it is played as usual."""
    purpose: Purpose
    """What the declarer's discard serves (``talon``)."""
    tasks: frozenset[Task]
    """What its components ask."""

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def trump(self) -> TrumpMode:
        return self.info.trump

    def has(self, task: Task) -> bool:
        return task in self.tasks


def _task(kind: ContractKind, spec: ContractSpec) -> Task:
    """What a component asks, as the bot plays it: a built-in kind by its name; a plugin's
    Parti, or 100 with a 100's settings, by its flag (``is_parti``, ``is_hundred``)."""
    known = KNOWN_TASKS.get(spec.kind)
    if known is not None:
        return known
    if kind.is_parti:
        return "parti"
    if kind.is_hundred and isinstance(spec, HundredSpec):
        return "hundred"
    return "unknown"


def _shape(game: Game, info: BidInfo, keys: dict[tuple[object, ...], int]) -> BidShape:
    ruleset, registry = game.ruleset, game.registry
    factor = 2 if info.bid.red else 1
    parts = []
    for cid in info.bid.components:
        spec = ruleset.contracts[cid]
        kind = registry.kinds[spec.kind]
        task = _task(kind, spec)
        penalty, _ = kind.failure_penalty(spec)
        need = 0
        if task == "hundred":
            assert isinstance(spec, HundredSpec)  # as _task makes sure
            marriages = ruleset.marriages
            value = marriages.trump_value if spec.marriage == "trump" else marriages.plain_value
            need = spec.target - value
        trump = kind.needs_trump(spec)
        key = keys.setdefault((task, need, spec.open, trump), len(keys))
        parts.append(
            Part(
                id=cid,
                task=task,
                value=spec.value * factor,
                penalty=penalty * factor,
                open=spec.open,
                trump=trump,
                need=need,
                key=key,
            )
        )
    cost = 0
    simple = ruleset.simple
    if info.plain_parti and simple.uncontested == "lose_double":
        cost = 2 * info.bid.value
    tasks = frozenset(p.task for p in parts)
    purpose: Purpose = "points"
    if "betli" in tasks:
        purpose = "betli"
    elif "durchmars" in tasks or "unknown" in tasks:
        purpose = "allwin"
    elif "hundred" in tasks:
        purpose = "hundred"
    return BidShape(info, tuple(parts), info.bid.red, cost, purpose, tasks)


def bid_shapes(game: Game) -> dict[str, BidShape]:
    """Every bid of the game's ladder by id, built once per game (kept by the game)."""

    def build() -> dict[str, BidShape]:
        keys: dict[tuple[object, ...], int] = {}
        return {info.id: _shape(game, info, keys) for info in game.catalog.ladder}

    return game.derived(("club bot", "bid shapes"), build)
