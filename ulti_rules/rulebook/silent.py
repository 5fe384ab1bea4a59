"""Silent bonuses: the feats paid without being bid, who scores them, what they cost."""

from __future__ import annotations

from ..contracts.builtin import Durchmars, Hundred
from ..plugins import BUILTIN, Registry
from ..ruleset.ladder import silent_needs_parti
from ..ruleset.schema import DURCHMARS, SilentBonus
from .document import Block, Items, Paragraph, Section
from .kinds import Sentence, kind_sentences
from .words import Words, sentence


def silent_bonuses(w: Words) -> Section:
    r = w.ruleset
    if not r.silent_bonuses:
        blocks: tuple[Block, ...] = (w.para(w._("No silent bonuses are paid.")),)
        return Section("silent", w._("Silent bonuses"), blocks)
    found: list[Block] = [
        w.para(
            w._(
                "A silent bonus is paid for a feat made without bidding it, in the bids whose "
                "ladder column shows a value. Silent bonuses are paid in trump games only."
            ),
        ),
    ]
    bonuses = list(r.silent_bonuses.values())
    shared = len(bonuses) > 1 and len({b.kontra_from for b in bonuses}) == 1
    found.append(Items(tuple(_bonus(w, bonus, shared_kontra=shared) for bonus in bonuses)))
    if shared:
        found.append(w.para(*_kontra(w, bonuses[0], every=True)))
    if any(bonus.parti == "replaces" for bonus in r.silent_bonuses.values()):
        if r.silent.replacing == "highest":
            text = w._(
                "When several bonuses that replace the value of the {simple} are made in one "
                "hand, only the highest counts.",
                simple=w.simple(),
            )
        else:
            text = w._(
                "When several bonuses that replace the value of the {simple} are made in one "
                "hand, all are paid: the highest as the value of the {simple}, each other one "
                "on a line of its own.",
                simple=w.simple(),
            )
        found.append(w.para(text, "silent.replacing"))
    return Section("silent", w._("Silent bonuses"), tuple(found))


def _bonus(w: Words, bonus: SilentBonus, *, shared_kontra: bool) -> Paragraph:
    said = bonus_sentences(w, bonus, shared_kontra=shared_kontra)
    settings = ["silent_bonuses.*.names", "silent_bonuses.*.condition"]
    settings += [state for _, states in said for state in states]
    text = " ".join(text for text, _ in said)
    return Paragraph(text, tuple(dict.fromkeys(settings)), sentence(w.name(bonus.names)))


def bonus_sentences(w: Words, bonus: SilentBonus, *, shared_kontra: bool = False) -> list[Sentence]:
    """What one silent bonus demands and costs, each sentence with the settings it states
    (``ulti diff`` compares them one by one)."""
    found: list[Sentence] = []

    def say(text: str, *states: str) -> None:
        found.append((text, states))

    kind = w.registry.kinds.get(bonus.condition)
    for text, states in kind_sentences(w, kind, None):
        say(text, *states)
    say(*_worth(w, bonus))
    made_only = never_fails(bonus, w.registry)
    if not made_only:
        say(_loss(w, bonus), "silent_bonuses.*.loss_factor", "silent_bonuses.*.scored_by")
    if bonus.scored_by == "declarer":
        say(
            w._("Only the declarer can make it; the defenders doing it is the declarer's failure."),
            "silent_bonuses.*.scored_by",
        )
    else:
        say(
            w._("Either side can make it."),
            "silent_bonuses.*.scored_by",
        )
        # (a replacing bonus a defender makes pays no defender as such: it is the Simple's
        # value, whichever side wins the Simple; against_everyone needs parti: adds)
        if bonus.parti == "replaces":
            pass
        elif bonus.against_everyone:
            say(
                w._(
                    "It is played against everyone: a defender who makes it is paid by the "
                    "declarer and the other defender alike, and pays both when it fails."
                ),
                "silent_bonuses.*.against_everyone",
            )
        else:
            say(
                w._("A defender who makes it is paid by the declarer alone."),
                "silent_bonuses.*.against_everyone",
            )
    simple = w.simple()
    if bonus.parti == "adds":
        say(w._("It is paid beside the {simple}.", simple=simple), "silent_bonuses.*.parti")
    else:
        say(
            w._(
                "It is paid in place of the {simple}: the {simple} is then worth the bonus.",
                simple=simple,
            ),
            "silent_bonuses.*.parti",
        )
    if made_only:
        say(
            _made(w, bonus),
            "silent_bonuses.*.loss_factor",
            "silent_bonuses.*.scored_by",
            "silent_bonuses.*.parti",
        )
    if not shared_kontra:
        say(*_kontra(w, bonus))
    if bonus.applies_to == "auto":
        say(*_auto(w, bonus))
    else:
        names = [w.bid(bid_id) for bid_id in bonus.applies_to]
        say(
            w._("It can be made in these bids only: {bids}.", bids=w.join(names))
            if names
            else w._("No bid lets it be made."),
            "silent_bonuses.*.applies_to",
        )
    condition = w.registry.kinds.get(bonus.condition)
    if condition is not None and condition.is_hundred:
        say(
            w._("All the side's announced marriages count toward its 100.")
            if bonus.counts_marriages == "all"
            else w._("Only one marriage counts toward its 100, as in a bid 100."),
            "silent_bonuses.*.counts_marriages",
        )
    if bonus.condition == DURCHMARS and bonus.scored_by == "either_side":
        say(
            w._("On the defenders' side, one defender must take every trick.")
            if bonus.defenders == "one"
            else w._(
                "On the defenders' side, the two defenders together taking every trick is enough."
            ),
            "silent_bonuses.*.defenders",
        )
    elif bonus.condition == DURCHMARS:
        say(
            w._("It fails when one defender takes every trick.")
            if bonus.defenders == "one"
            else w._("It fails when the defenders take every trick between them."),
            "silent_bonuses.*.defenders",
        )
    return found


MADE_ONLY: tuple[type[object], ...] = (Hundred, Durchmars)
"""The built-in kinds whose silent feat, under ``scored_by: either_side``, is only ever
made: whichever side reaches 100, or takes every trick, has made it (``builtin._feat``).
Under ``declarer`` the defenders' feat is the declarer's failure; a silent Ulti fails
whenever the trump 7 is beaten in the last trick."""


def never_fails(bonus: SilentBonus, registry: Registry) -> bool:
    """Whether the feat of ``bonus`` can only be made, never failed, so that its
    ``loss_factor`` is never paid: a built-in 100 or Durchmars that either side scores
    (:data:`MADE_ONLY`). A plugin's kind, or a subclass, judges by its own
    ``judge_silent_bonus`` (``judging.silent_judge``), which may report a failure."""
    kind = registry.kinds.get(bonus.condition)
    return (
        bonus.scored_by == "either_side"
        and type(kind) in MADE_ONLY
        and registry.kind_owner.get(bonus.condition, BUILTIN) == BUILTIN
    )


def _made(w: Words, bonus: SilentBonus) -> str:
    """What a bonus that never fails does when made (``scoring.silent``: ``split`` gives a
    replacing one to the Simple, with no line of its own; ``stake`` pays one beside it):
    said in place of what a failure would cost, which is never paid."""
    if bonus.parti == "replaces":
        return w._(
            "It never fails: whichever side does it has made it. Made, it has no line of its "
            "own: the {simple} is worth its value, whichever side then wins the {simple}.",
            simple=w.simple(),
        )
    return w._("It never fails: whichever side does it has made it, and is paid its value.")


def _loss(w: Words, bonus: SilentBonus) -> str:
    """What a failure costs: the declarer's alone where only he can make it, else the
    failing side's (a defender's trump 7 beaten in the last trick pays the declarer)."""
    loss, red_loss = bonus.value * bonus.loss_factor, bonus.red() * bonus.loss_factor
    if not bonus.loss_factor:
        return w._("A failure costs nothing.")
    if bonus.scored_by == "declarer":
        if bonus.loss_factor == 1:
            return w._(
                "A failure costs the declarer its value: {loss}, in a red bid {red_loss}.",
                loss=loss,
                red_loss=red_loss,
            )
        return w._(
            "A failure costs the declarer {factor} times its value: {loss}, in a red bid "
            "{red_loss}.",
            factor=bonus.loss_factor,
            loss=loss,
            red_loss=red_loss,
        )
    if bonus.loss_factor == 1:
        return w._(
            "A failure costs the side that failed its value: {loss}, in a red bid {red_loss}.",
            loss=loss,
            red_loss=red_loss,
        )
    return w._(
        "A failure costs the side that failed {factor} times its value: {loss}, in a red bid "
        "{red_loss}.",
        factor=bonus.loss_factor,
        loss=loss,
        red_loss=red_loss,
    )


def _auto(w: Words, bonus: SilentBonus) -> tuple[str, ...]:
    """Where ``applies_to: auto`` offers the bonus, in full (``ladder.silent_values``): a
    silent 100, or a bonus that replaces the Simple, only beside a Simple; none in a bid
    whose component already claims the feat (no silent Four Aces in a Durchmars)."""
    states = ["silent_bonuses.*.applies_to"]
    if silent_needs_parti(bonus, w.registry):
        text = w._(
            "It can be made in every trump bid that holds a {simple} and no component of its "
            "own kind, as the ladder shows.",
            simple=w.simple(),
        )
        states.append("silent_bonuses.*.parti")
    else:
        text = w._(
            "It can be made in every trump bid without a component of its own kind, as "
            "the ladder shows."
        )
    claiming = _claiming(w, bonus)
    if claiming:
        text += " " + w._(
            "A bid holding {names} offers none: that component already claims its feat.",
            names=w.join_or(claiming),
        )
    return (text, *states)


def _claiming(w: Words, bonus: SilentBonus) -> list[str]:
    """The trump contracts whose kind already claims the bonus's feat (``implied_by``)."""
    kind = w.registry.kinds.get(bonus.condition)
    if kind is None or not kind.implied_by:
        return []
    found = []
    for spec in w.ruleset.contracts.values():
        host = w.registry.kinds.get(spec.kind)
        if spec.kind in kind.implied_by and host is not None and host.needs_trump(spec):
            found.append(w.name(spec.names))
    return found


def _worth(w: Words, bonus: SilentBonus) -> tuple[str, ...]:
    values = bonus.marriage_values
    if values is not None:
        return (
            w._(
                "Worth {trump} when made with the trump marriage, {plain} with a side-suit "
                "marriage, {value} with card points alone; a red bid doubles these.",
                trump=values.trump,
                plain=values.plain,
                value=bonus.value,
            ),
            "silent_bonuses.*.value",
            "silent_bonuses.*.marriage_values",
            "silent_bonuses.*.marriage_values.trump",
            "silent_bonuses.*.marriage_values.plain",
        )
    return (
        w._("Worth {value}, in a red bid {red}.", value=bonus.value, red=bonus.red()),
        "silent_bonuses.*.value",
        "silent_bonuses.*.red_value",
    )


def _kontra(w: Words, bonus: SilentBonus, *, every: bool = False) -> tuple[str, ...]:
    """Whose kontra the bonus takes; ``every``: said once for all the bonuses."""
    hosts = [w.contract(cid) for cid in bonus.kontra_from]
    setting = "silent_bonuses.*.kontra_from"
    if not hosts:
        if every:
            return (w._("No kontra applies to a silent bonus."), setting)
        return (w._("No kontra applies to it."), setting)
    if len(hosts) == 1:
        if every:
            return (
                w._(
                    "A silent bonus takes the kontra called on this component: {name}.",
                    name=hosts[0],
                ),
                setting,
            )
        return (
            w._("It takes the kontra called on this component: {name}.", name=hosts[0]),
            setting,
        )
    if every:
        return (
            w._(
                "A silent bonus takes the kontra called on the first of these components that "
                "the bid holds: {names}.",
                names=", ".join(hosts),
            ),
            setting,
        )
    return (
        w._(
            "It takes the kontra called on the first of these components that the bid holds: "
            "{names}.",
            names=", ".join(hosts),
        ),
        setting,
    )
