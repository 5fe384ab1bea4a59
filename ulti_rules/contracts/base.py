"""ContractKind: how one kind of contract component is described and judged.

The YAML says *which* components exist and what they are worth; a kind says what
its parameters are, whether it needs a trump suit, which play constraints it
adds, and how it is judged from a hand's facts. Kinds are registered through the
``register_contract_kinds`` hook, the built-in ones exactly like a plugin's.

Judging reads only :class:`~ulti_rules.facts.Facts` and the ruleset, never the
engine, so a hand typed in at a real table is judged exactly like a played one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from ..errors import UltiError
from ..ruleset.schema import ContractSpec, Ruleset, Side, SilentBonus

if TYPE_CHECKING:  # the facts models are only named here: a ladder never builds them
    from ..facts import Facts
    from .fact_specs import FactSpec


class MissingFact(UltiError):
    """Judging needs a fact that was not recorded (e.g. who took the aces).

    ``fact`` names the :class:`Facts` field or the declared fact (``FactSpec.name``),
    so that the score keeper can say which key of its document to fill in.
    """

    def __init__(self, message: str, fact: str | None = None) -> None:
        super().__init__(message)
        self.fact = fact


@dataclass(frozen=True)
class SilentOutcome:
    """What happened to an unbid feat, seen from the side that attempted it.

    ``side`` made or failed the feat; ``seat`` is the player who did (or whose
    trump 7 it was). Settlement turns it into money: the declarer's feat made is
    paid to him, failed costs him value × loss factor; a defenders' feat is paid
    the other way round (only where the ruleset lets either side score it).
    """

    side: Side
    made: bool
    seat: int | None = None
    marriage: Literal["trump", "plain"] | None = None
    """A silent 100's marriage, which sets its value where the bonus has marriage_values:
    ``trump`` (made with the 40) or ``plain`` (with a 20); None for every other feat."""

    def __repr__(self) -> str:
        shown = f", marriage={self.marriage!r}" if self.marriage is not None else ""
        return f"SilentOutcome(side={self.side!r}, made={self.made!r}, seat={self.seat!r}{shown})"


if TYPE_CHECKING:  # the rulebook's words (``rulebook_sentences``)
    from collections.abc import Sequence

    from ..i18n import Translator


class ContractKind:
    """Base of every contract kind. Subclasses set the class attributes."""

    name: ClassVar[str]
    params: ClassVar[type[ContractSpec]]
    is_parti: ClassVar[bool] = False
    """The Parti (Simple) itself: the plain game of card points that a lone bid of it may
    give up or leave uncontested, and that silent bonuses and a void 100 fall back on.
    Engine and scoring ask this flag, never a kind's name or class."""
    is_hundred: ClassVar[bool] = False
    """A 100 game (40-100, 20-100): card points plus a bid marriage reach a target. The
    rulebook tells the 100 games' marriage rules for these kinds, and ``applies_to:
    auto`` offers a silent bonus of such a kind only beside a Parti (the silent 100 is
    the Parti's result counted up to 100). Ask this flag, never a kind's name."""
    replaces_parti: ClassVar[bool] = False
    """A bid holding this component has no separate Parti (100s, trump Durchmars)."""
    keeps_trump_seven: ClassVar[bool] = False
    """The declarer must keep the trump 7 until the last trick unless forced (Ulti)."""
    implied_by: ClassVar[frozenset[str]] = frozenset()
    """Kinds whose bid component already claims this kind's feat (a Durchmars wins
    every ace trick), so a bid holding one offers no silent bonus of this kind."""
    facts: ClassVar[tuple[FactSpec[Any], ...]] = ()
    """Facts beyond the core ones that this kind judges by (``fact_specs.py``): the
    engine computes them for every hand of a ruleset that uses the kind, and a score
    sheet takes them under their own keys."""

    def needs_trump(self, spec: ContractSpec) -> bool:
        """Whether a component of this kind is played with a trump suit."""
        return True

    def describe(self) -> str:
        """A one-line description for people: the first line of the class docstring."""
        return (self.__doc__ or self.name).strip().splitlines()[0]

    def rulebook_sentences(
        self, spec: ContractSpec | None, ruleset: Ruleset, text: Translator
    ) -> Sequence[str] | None:
        """What a component of this kind demands, as sentences for ``ulti rulebook``, in
        the language of ``text`` (``text.gettext``, ``text.ngettext``, ``text.lang``), its
        own parameters included; ``spec`` None: the feat made unbid (a silent bonus).

        Optional: None (the default) lets the rulebook say it (the built-in kinds), or
        print :meth:`describe`.
        """
        return None

    def judge(self, spec: ContractSpec, facts: Facts, ruleset: Ruleset) -> bool:
        """Whether the declarer made a bid component of this kind."""
        raise NotImplementedError(f"contract kind '{self.name}' does not say how it is judged")

    def failure_penalty(self, spec: ContractSpec) -> tuple[int, bool]:
        """What a failed component costs on top of its value (before red), and whether
        kontra multiplies it. Only the Ulti has one among the built-in kinds."""
        return 0, False

    def judge_silent(
        self, facts: Facts, ruleset: Ruleset, *, either_side: bool
    ) -> SilentOutcome | None:
        """The unbid feat of this kind in the hand, or None if nobody attempted it.

        With ``either_side`` false only the declarer can score it: a kind then
        reports what the rules count as the declarer's failure (WP: the defenders
        reaching 100, one defender taking every trick) as ``side="declarer",
        made=False``. With it true a defender's feat is reported as the
        defenders'. Kinds without a silent form return None.
        """
        return None

    def judge_silent_bonus(
        self, bonus: SilentBonus, facts: Facts, ruleset: Ruleset
    ) -> SilentOutcome | None:
        """The unbid feat as the silent bonus ``bonus`` defines it: what judging asks.

        By default :meth:`judge_silent`, with ``either_side`` from the bonus's
        ``scored_by``. A kind whose feat has options of its own (a silent 100's
        marriages, a Durchmars by the two defenders together) reads them from ``bonus``.
        """
        return self.judge_silent(facts, ruleset, either_side=bonus.scored_by == "either_side")
