"""What a contract kind demands, in sentences: the kind's own, else the built-in ones, else
its description.

A kind says it itself through ``ContractKind.rulebook_sentences`` (a plugin's kind such
as Four Aces does). The built-in kinds' sentences are kept here, beside the rest of the
rulebook's words, keyed by their classes; a kind that says nothing gets its one-line
description, translated where the catalogue has it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..contracts.base import ContractKind
from ..contracts.builtin import (
    Betli,
    BetliSpec,
    Durchmars,
    DurchmarsSpec,
    Hundred,
    HundredSpec,
    Parti,
    Ulti,
    UltiSpec,
)
from ..ruleset.schema import ContractSpec
from .words import Words

Sentence = tuple[str, tuple[str, ...]]
"""A sentence and the settings (schema paths) it states."""


def _parti(w: Words, spec: ContractSpec | None) -> list[Sentence]:
    if spec is None:
        return []
    return [(w._("The declarer's side must score more than the defenders."), ())]


def _hundred(w: Words, spec: ContractSpec | None) -> list[Sentence]:
    if spec is None:
        return [(w._("A side reaches 100 without having bid it."), ())]
    assert isinstance(spec, HundredSpec)
    marriages = w.ruleset.marriages
    settings = ("contracts.*.marriage", "contracts.*.target")
    if spec.marriage == "trump":
        text = w._(
            "The declarer must hold the King and Over of trumps, announce them, and reach "
            "{target} with their {value} and his card points.",
            target=spec.target,
            value=marriages.trump_value,
        )
    else:
        text = w._(
            "The declarer must hold the King and Over of a side suit, announce them, and reach "
            "{target} with their {value} and his card points.",
            target=spec.target,
            value=marriages.plain_value,
        )
    return [(text, settings)]


def _ulti(w: Words, spec: ContractSpec | None) -> list[Sentence]:
    if spec is None:
        return [(w._("The last trick is won with the trump 7 by a player who did not bid it."), ())]
    assert isinstance(spec, UltiSpec)
    found: list[Sentence] = [(w._("The declarer must win the last trick with the trump 7."), ())]
    if spec.failure_penalty:
        found.append(
            (
                w._(
                    "If it fails, he pays {penalty} more on top of its value (in a red bid {red}).",
                    penalty=spec.failure_penalty,
                    red=2 * spec.failure_penalty,
                ),
                ("contracts.*.failure_penalty",),
            )
        )
        found.append(
            (
                w._("Kontra multiplies this penalty too.")
                if spec.penalty_multiplied_by_kontra
                else w._("Kontra does not multiply this penalty."),
                ("contracts.*.penalty_multiplied_by_kontra",),
            )
        )
    else:
        found.append(
            (
                w._("A failed one costs its value and nothing more."),
                ("contracts.*.failure_penalty", "contracts.*.penalty_multiplied_by_kontra"),
            )
        )
    return found


def _betli(w: Words, spec: ContractSpec | None) -> list[Sentence]:
    assert spec is None or isinstance(spec, BetliSpec)
    return [(w._("The declarer must take no trick."), ())]


def _durchmars(w: Words, spec: ContractSpec | None) -> list[Sentence]:
    if spec is None:
        return [(w._("One player takes every trick without having bid it."), ())]
    assert isinstance(spec, DurchmarsSpec)
    if spec.trump:
        text = w._("The declarer must take every trick, with a trump suit.")
    else:
        text = w._("The declarer must take every trick, without trumps.")
    return [(text, ("contracts.*.trump",))]


BUILTIN: dict[type[ContractKind], Callable[[Words, ContractSpec | None], list[Sentence]]] = {
    Parti: _parti,
    Hundred: _hundred,
    Ulti: _ulti,
    Betli: _betli,
    Durchmars: _durchmars,
}
"""The built-in kinds' sentences; ``spec`` None asks for the kind's feat made unbid."""


def kind_sentences(
    w: Words, kind: ContractKind | None, spec: ContractSpec | None
) -> list[Sentence]:
    """What a component of ``kind`` demands (``spec`` None: its feat as a silent bonus)."""
    if kind is None:
        return []
    own: Sequence[str] | None = kind.rulebook_sentences(spec, w.ruleset, w.translator)
    if own is not None:
        return [(text, ()) for text in own]
    for cls in type(kind).__mro__:
        builtin = BUILTIN.get(cls)
        if builtin is not None:
            return builtin(w, spec)
    return [(w._(kind.describe()), ())]
