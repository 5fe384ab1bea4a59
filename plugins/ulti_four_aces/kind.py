"""The Four Aces contract kind: its parameters, the fact it judges by, and how it judges.

Imported by the plugin's ``register_contract_kinds`` hook, not by the entry module: a
kind class builds a pydantic model, which listing rulesets never needs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from ulti_rules import (
    PLAYERS,
    ContractKind,
    ContractSpec,
    Facts,
    FactSpec,
    Rank,
    Ruleset,
    SilentOutcome,
    rank_of,
)
from ulti_rules.i18n import N_, Translator


class FourAcesSpec(ContractSpec):
    kind: Literal["four_aces"] = "four_aces"


CARDS = 32
"""The Hungarian pack: every ruleset plays all of it."""
ACES = frozenset(card for card in range(CARDS) if rank_of(card) == Rank.ACE)


def _ace_winners(facts: Facts) -> tuple[int, ...]:
    """For each ace played, the seat that won its trick (the engine's way to the fact)."""
    return tuple(
        trick.winner for trick in facts.tricks or () for card in trick.cards if card in ACES
    )


def _possible(winners: tuple[int, ...], facts: Facts, name: Callable[[int], str]) -> list[str]:
    """What a table cannot have written: more than four aces, an ace in nobody's trick,
    nobody taking an ace when the talon cannot have held them all."""
    found = ["there are four aces"] if len(winners) > 4 else []
    in_tricks = sum(facts.tricks_won.values()) * len(facts.seats)
    talon = CARDS - in_tricks
    if in_tricks and not winners and talon < len(ACES):
        found.append(
            f"nobody took an ace, but only {talon} cards lie in the talon: at least "
            f"{len(ACES) - talon} aces were in the tricks; say who won them"
        )
    found += [
        f"{name(seat)} took an ace but won no trick"
        for seat in sorted(set(winners))
        if seat in facts.seats and facts.tricks_won.get(seat, 0) == 0
    ]
    return found


ACE_WINNERS = FactSpec(
    name="ace_winners",
    form=PLAYERS,
    description=N_("who won the tricks that held an ace"),  # in ulti-rules' catalogues
    sheet_key="aces",
    compute=_ace_winners,
    check=_possible,
)
"""Who took the aces: not a core fact, since only this kind judges by it."""


def _ace_takers(facts: Facts) -> set[int]:
    """The seats that won a trick holding an ace; aces left in the talon do not count."""
    return set(
        ACE_WINNERS.of(
            facts,
            "Four Aces is judged by who took the tricks holding aces, and the facts do not say",
        )
    )


class FourAces(ContractKind):
    """Four Aces: the declarer wins every trick in which an ace is played."""

    name = "four_aces"
    params = FourAcesSpec
    facts = (ACE_WINNERS,)
    implied_by = frozenset({"durchmars"})  # every trick holds every ace trick

    def judge(self, spec: ContractSpec, facts: Facts, ruleset: Ruleset) -> bool:
        return _ace_takers(facts) <= {facts.declarer}

    def rulebook_sentences(
        self, spec: ContractSpec | None, ruleset: Ruleset, text: Translator
    ) -> tuple[str, ...]:
        """The rulebook's words for Four Aces, from the catalogue it is handed."""
        if spec is None:
            return (text.gettext("One player wins every trick in which an ace is played."),)
        return (
            text.gettext(
                "The declarer must win every trick in which an ace is played; an ace left "
                "in the talon does not count."
            ),
        )

    def judge_silent(
        self, facts: Facts, ruleset: Ruleset, *, either_side: bool
    ) -> SilentOutcome | None:
        """One player won every ace trick: the declarer's feat, or one defender's (WP's
        loss case; a defenders' feat only where either side may score it)."""
        takers = _ace_takers(facts)
        if len(takers) != 1:
            return None
        (seat,) = takers
        if seat == facts.declarer:
            return SilentOutcome("declarer", True, seat)
        if either_side:
            return SilentOutcome("defenders", True, seat)
        return SilentOutcome("declarer", False, seat)
