"""Judging a hand: which bid components were made, and which silent feats happened.

The conditions belong to the contract kinds; this module only asks them, in the
order the ladder lists the components, and asks the ladder which silent bonuses
the bid allows. No contract name appears here.

A kind may come from a plugin, so what it raises or returns is checked here: an
exception (other than MissingFact) or an answer of the wrong type becomes a
PluginError naming the kind and its plugin. A built-in kind's exception is a bug of
ours and is let through.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..contracts.base import ContractKind, MissingFact, SilentOutcome
from ..contracts.builtin import BUILTIN_KINDS, PreparedKind
from ..errors import PluginError, UltiError
from ..facts import Facts
from ..plugins import BUILTIN, Registry, plugin_fault, printable, short_repr
from ..ruleset.ladder import silent_values
from ..ruleset.schema import Bid, ContractSpec, Ruleset, SilentBonus
from ..said import Said, said_of


class JudgingError(UltiError):
    """The ruleset names something no registered kind can judge."""


@dataclass(frozen=True)
class Component:
    """A bid component with its catalogue entry and the kind that judges it."""

    id: str
    spec: ContractSpec
    kind: ContractKind
    owner: str = BUILTIN
    """The plugin that registered the kind."""


@dataclass(frozen=True)
class SilentVerdict:
    """A silent bonus the bid allows and what happened to its feat."""

    id: str
    bonus: SilentBonus
    value: int
    """Per defender in this bid: the red value in a red bid, by the feat's marriage where
    the bonus has marriage_values."""
    outcome: SilentOutcome
    base: int
    """The value in a non-red bid (by the feat's marriage, likewise)."""


def kind_named(registry: Registry, name: str, what: str) -> ContractKind:
    kind = registry.kinds.get(name)
    if kind is None:
        raise JudgingError(
            f"{what} needs the contract kind '{name}', which no installed plugin registers "
            f"(known: {', '.join(sorted(registry.kinds))}){registry.missing_kind_hint(name)}"
        )
    return kind


def components(ruleset: Ruleset, bid: Bid, registry: Registry) -> list[Component]:
    """The bid's components in ladder order, implied Parti included."""
    found = []
    for cid in bid.components:
        spec = ruleset.contracts.get(cid)
        if spec is None:
            raise JudgingError(f"bid '{bid.id}' names component '{cid}', which is not in contracts")
        kind = kind_named(registry, spec.kind, f"component '{cid}'")
        found.append(Component(cid, spec, kind, registry.kind_owner.get(spec.kind, BUILTIN)))
    return found


def _kind_failed(kind: ContractKind, owner: str, method: str, exc: BaseException) -> PluginError:
    return plugin_fault(f"contract kind '{kind.name}'", owner, exc, method)


def _wrong_answer(
    kind: ContractKind, owner: str, method: str, got: object, want: str
) -> PluginError:
    return PluginError(
        printable(
            f"contract kind '{kind.name}' of plugin '{owner}' returned {short_repr(got)} "
            f"from {method}, not {want}"
        )
    )


def component_judge(component: Component, ruleset: Ruleset) -> Callable[[Facts], bool]:
    """How ``component`` is judged in every hand of ``ruleset``, prepared once (settlement
    keeps it per bid): a built-in kind's own judge, the ruleset read now
    (``builtin.PreparedKind``); any other kind's ``judge``, asked with the ruleset."""
    kind, spec = component.kind, component.spec
    if type(kind) in BUILTIN_KINDS and component.owner == BUILTIN:
        assert isinstance(kind, PreparedKind)
        return kind.judging(spec, ruleset)
    judge = kind.judge
    return lambda facts: judge(spec, facts, ruleset)


def judged(component: Component, judge: Callable[[Facts], bool], facts: Facts) -> bool:
    """Whether the declarer made ``component``, by its ``judge`` (``component_judge``);
    each is judged on its own (C17). A plugin's fault or wrong answer is a PluginError."""
    try:
        verdict = judge(facts)
    except MissingFact as exc:
        said = Said(
            "judging the component '{component}': {problem}",
            component=component.id,
            problem=said_of(exc),
        )
        raise MissingFact(said, exc.fact) from None
    except (Exception, SystemExit) as exc:
        if component.owner == BUILTIN:
            raise
        raise _kind_failed(component.kind, component.owner, "judge", exc) from exc
    if verdict is True or verdict is False:
        return verdict
    raise _wrong_answer(component.kind, component.owner, "judge", verdict, "True or False")


def made(component: Component, facts: Facts, ruleset: Ruleset) -> bool:
    """Whether the declarer made this component; each is judged on its own (C17)."""
    return judged(component, component_judge(component, ruleset), facts)


def failure_penalty(component: Component) -> tuple[int, bool]:
    """What the failed component costs on top of its value, and whether kontra multiplies it."""
    try:
        penalty = component.kind.failure_penalty(component.spec)
    except (Exception, SystemExit) as exc:
        if component.owner == BUILTIN:
            raise
        raise _kind_failed(component.kind, component.owner, "failure_penalty", exc) from exc
    if not (
        isinstance(penalty, tuple)
        and len(penalty) == 2
        and type(penalty[0]) is int
        and penalty[0] >= 0
        and isinstance(penalty[1], bool)
    ):
        raise _wrong_answer(
            component.kind, component.owner, "failure_penalty", penalty, "(points >= 0, True/False)"
        )
    return penalty


def _check_outcome(outcome: object, players: int) -> bool:
    """Whether a judge_silent answer is None or a SilentOutcome that makes sense."""
    if outcome is None:
        return True
    return (
        isinstance(outcome, SilentOutcome)
        and outcome.side in ("declarer", "defenders")
        and isinstance(outcome.made, bool)
        and (outcome.seat is None or (type(outcome.seat) is int and 0 <= outcome.seat < players))
        and outcome.marriage in (None, "trump", "plain")
    )


def _silent_method(kind: ContractKind) -> str:
    """The method a fault is reported in: a plugin's own judge_silent_bonus, else the
    judge_silent it delegates to."""
    own = type(kind).judge_silent_bonus is not ContractKind.judge_silent_bonus
    return "judge_silent_bonus" if own else "judge_silent"


@dataclass(frozen=True)
class SilentRule:
    """A silent bonus a bid allows, with its value in that bid and the kind that judges
    it: all that judging its feat needs besides the hand (settlement keeps these per
    game and bid)."""

    id: str
    bonus: SilentBonus
    value: int
    kind: ContractKind
    owner: str
    judge: Callable[[Facts], SilentOutcome | None]
    """The feat in a hand (``silent_judge``)."""


def silent_judge(
    bonus: SilentBonus, kind: ContractKind, owner: str, ruleset: Ruleset
) -> Callable[[Facts], SilentOutcome | None]:
    """How the feat of ``bonus`` is judged in every hand of ``ruleset``, prepared once: a
    built-in kind's own judge (``builtin.PreparedKind``), else the kind's
    ``judge_silent_bonus``."""
    if type(kind) in BUILTIN_KINDS and owner == BUILTIN:
        assert isinstance(kind, PreparedKind)
        return kind.silent_judging(bonus, ruleset)
    judge = kind.judge_silent_bonus
    return lambda facts: judge(bonus, facts, ruleset)


def silent_rules(
    ruleset: Ruleset,
    bid: Bid,
    registry: Registry,
    values: Mapping[str, int] | None = None,
) -> tuple[SilentRule, ...]:
    """The silent bonuses ``bid`` allows, in the ruleset's order; ``values``: the bid's
    silent values where the caller has them (``Game.silent_values``)."""
    if values is None:
        values = silent_values(ruleset, bid, registry)
    rules = []
    for bonus_id, value in values.items():
        bonus = ruleset.silent_bonuses[bonus_id]
        kind = kind_named(registry, bonus.condition, f"silent bonus '{bonus_id}'")
        owner = registry.kind_owner.get(bonus.condition, BUILTIN)
        judge = silent_judge(bonus, kind, owner, ruleset)
        rules.append(SilentRule(bonus_id, bonus, value, kind, owner, judge))
    return tuple(rules)


def judge_silent(
    rules: Sequence[SilentRule], red: bool, facts: Facts, ruleset: Ruleset
) -> list[SilentVerdict]:
    """Every one of ``rules`` whose feat was attempted or achieved in ``facts``, judged by
    its kind; ``red``: the bid is red (a bonus valued by its marriage doubles)."""
    verdicts = []
    for rule in rules:
        try:
            outcome = rule.judge(facts)
        except MissingFact as exc:
            said = Said(
                "the bid allows the silent bonus '{bonus}', and judging it failed: {problem}",
                bonus=rule.bonus.names.named(),  # its name in the sentence's language
                problem=said_of(exc),
            )
            raise MissingFact(said, exc.fact) from None
        except (Exception, SystemExit) as exc:
            if rule.owner == BUILTIN:
                raise
            raise _kind_failed(rule.kind, rule.owner, _silent_method(rule.kind), exc) from exc
        if outcome is None:
            continue
        if rule.owner != BUILTIN and not _check_outcome(outcome, ruleset.players.count):
            kind = rule.kind
            raise _wrong_answer(
                kind, rule.owner, _silent_method(kind), outcome, "a SilentOutcome or None"
            )
        bonus, value = rule.bonus, rule.value
        if outcome.marriage is not None and bonus.marriage_values is not None:
            value = bonus.value_with(outcome.marriage, red)
        base = bonus.base_with(outcome.marriage)
        verdicts.append(SilentVerdict(rule.id, bonus, value, outcome, base))
    return verdicts
