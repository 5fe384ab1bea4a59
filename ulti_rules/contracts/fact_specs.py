"""Facts a contract kind needs beyond the core ones: what they are, how the engine
computes them, and how a table writes them in a score sheet.

The core :class:`~ulti_rules.facts.Facts` hold what every Ulti is judged by (tricks,
card points, marriages, the trump 7). A kind that judges by something else — who
won the tricks holding aces, or kings — declares it as a :class:`FactSpec` in its
``facts``. Then the engine computes it once per hand from the played tricks, a
score sheet accepts it under its own key (validated, with positions), a hand record
keeps it, and a sheet that lacks it is told which key to add. The values live in
``Facts.extra`` under the fact's name; nothing in the core names them.

How people write a fact is one of a few *forms* (a list of players, one player, a
count, yes/no): the score keeper knows how to read and write each, so a plugin
never parses a document.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Annotated, Any, Generic, Literal, TypeVar, cast

from pydantic import Field, StrictBool, StrictInt, TypeAdapter

from ..facts import Facts
from ..said import Said
from .base import MissingFact

T = TypeVar("T")

FormName = Literal["players", "player", "count", "flag"]

COUNT_LIMIT = 10_000
"""The largest count a fact of the ``count`` form holds: a hand has 32 cards and 10
tricks, so anything near it is a typo, not a count."""


@dataclass(frozen=True, eq=False)
class FactForm(Generic[T]):
    """How people write one kind of fact, and the type of its value.

    Only the forms below exist: the score keeper reads and writes each one (player
    names to seats and back), so a kind picks one instead of parsing text itself.
    """

    name: FormName
    value_type: Any = field(repr=False)
    """The type of the value in ``Facts.extra`` (checked where values come in)."""
    example: str = field(repr=False)
    """How a table writes one, shown in messages: ``[Anna, Ben]``."""
    written: str = field(repr=False)
    """In words, for docs and messages."""

    @cached_property
    def _adapter(self) -> TypeAdapter[T]:
        return TypeAdapter(self.value_type)

    def validate(self, value: Any) -> T:
        """``value`` as this form's type (a list becomes a tuple), or pydantic's
        ValidationError: values from a plugin's code or a record are checked here."""
        return self._adapter.validate_python(value)

    def seats(self, value: T) -> tuple[int, ...]:
        """The seats a value of this form names (for the checks every seat fact gets)."""
        if self.name == "players":
            return cast("tuple[int, ...]", value)  # a string: no type built at each call
        if self.name == "player" and value is not None:
            return (cast(int, value),)
        return ()


PLAYERS: FactForm[tuple[int, ...]] = FactForm(
    "players",
    tuple[StrictInt, ...],
    "[Anna, Ben]",
    "a list of player names (a sheet needs each name once); the value is their seats",
)
"""Who did something, e.g. who won the tricks holding an ace: seats in ``Facts``,
player names in a sheet."""
PLAYER: FactForm[int | None] = FactForm(
    "player",
    StrictInt | None,
    "Anna",
    "one player's name, or null for nobody; the value is the seat or None",
)
"""The one player who did something, or None for nobody."""
COUNT: FactForm[int] = FactForm(
    "count",
    Annotated[StrictInt, Field(ge=0, le=COUNT_LIMIT)],
    "2",
    f"a whole number from 0 to {COUNT_LIMIT}",
)
"""How many times something happened."""
FLAG: FactForm[bool] = FactForm("flag", StrictBool, "true", "true or false")
"""Whether something happened."""

FORMS: dict[str, FactForm[Any]] = {f.name: f for f in (PLAYERS, PLAYER, COUNT, FLAG)}

CORE_FACTS = frozenset(Facts.model_fields)
"""Names a declared fact cannot take: the core facts (records write both side by side)."""
CORE_SHEET_KEYS = frozenset(
    {
        "ruleset",
        "players",
        "dealer",
        "declarer",
        "bid",
        "trump",
        "kontra",
        "gave_up",
        "uncontested",
        "round_one",
        "points",
        "tricks",
        "durchmars",
        "last_trick",
        "trump_seven_early",
        "marriages",
    }
)
"""The score sheet's own keys, which a declared fact's ``sheet_key`` cannot take (a test
keeps this in step with ``scoring.sheet.Sheet``)."""
_IDENTIFIER = re.compile(r"[a-z][a-z0-9_]{0,39}")

Check = Callable[[T, Facts, Callable[[int], str]], Iterable[str]]
"""``check(value, facts, name)``: what makes a typed-in value impossible, in words;
``name(seat)`` is the player's name. It may also take any of :data:`CHECK_ARGUMENTS` by
name, with a default (``ruleset=None``), and is then handed them."""
CanDeal = Callable[[Mapping[str, tuple[int, int, int]]], bool]
"""``can_deal(held)``: whether the 32 cards can lie so that the declarer's tricks, the
defenders' tricks and the talon hold the card points the facts give them (the last
trick's bonus to its winner's side) and, of each rank in ``held``, exactly that many
cards in each: ``can_deal({"ace": (2, 1, 1)})`` puts two aces in the declarer's tricks,
one in the defenders' and one in the talon (the four of a rank in all)."""
CHECK_ARGUMENTS = ("ruleset", "can_deal")
"""What a check may take by name besides ``(value, facts, name)``: ``ruleset``, the
Ruleset the hand is settled by (its card points: ``ruleset.points``), and ``can_deal``
(:data:`CanDeal`), None where the facts' card points are already refused. A check
written without them is called as it always was."""


@lru_cache(maxsize=256)
def _takes(check: Callable[..., Iterable[str]]) -> frozenset[str]:
    """Which of :data:`CHECK_ARGUMENTS` ``check`` takes by name (all, for a ``**``
    parameter; none for a check without a signature Python can read)."""
    try:
        parameters = inspect.signature(check).parameters.values()
    except (TypeError, ValueError):
        return frozenset()
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return frozenset(CHECK_ARGUMENTS)
    by_name = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return frozenset(p.name for p in parameters if p.name in CHECK_ARGUMENTS and p.kind in by_name)


@dataclass(frozen=True)
class FactSpec(Generic[T]):
    """One fact a contract kind judges by that the core facts lack.

    ``compute`` runs once per hand played by the engine, on the core facts (every
    trick with its leader, cards and winner; the seats; the declarer; the trump):
    keep it a plain loop over ``facts.tricks``. ``check``, if given, names what
    makes a value typed into a score sheet impossible (every seat a ``players`` or
    ``player`` fact names must have played the hand; that is checked for all).
    Two kinds may declare the same fact by sharing one FactSpec object.
    """

    name: str
    """The key in ``Facts.extra`` and in a record's facts: ``ace_winners``."""
    form: FactForm[T]
    description: str
    """What it says, in words that finish "the facts do not say ...": ``who won the
    tricks that held an ace``."""
    sheet_key: str
    """The score sheet's key for it: ``aces``."""
    compute: Callable[[Facts], T] = field(repr=False)
    check: Check[T] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        for what, text in (("name", self.name), ("sheet_key", self.sheet_key)):
            if not isinstance(text, str) or not _IDENTIFIER.fullmatch(text):
                raise ValueError(
                    f"fact {self.name!r}: {what} must be lower-case letters, digits and _, "
                    f"at most 40, starting with a letter; not {text!r}"
                )
        if self.name in CORE_FACTS:
            raise ValueError(f"fact '{self.name}': the core facts already have that name")
        if self.sheet_key in CORE_SHEET_KEYS:
            raise ValueError(
                f"fact '{self.name}': the score sheet already has the key '{self.sheet_key}'"
            )
        if not any(self.form is form for form in FORMS.values()):
            raise ValueError(
                f"fact '{self.name}': form must be one of ulti_rules' forms "
                f"({', '.join(f.upper() for f in FORMS)}), not {self.form!r}"
            )
        if not isinstance(self.description, str) or not self.description.strip():
            raise ValueError(f"fact '{self.name}' needs a description")
        if not callable(self.compute) or not (self.check is None or callable(self.check)):
            raise ValueError(f"fact '{self.name}': compute (and check) must be functions")

    def problems(
        self, value: T, facts: Facts, name: Callable[[int], str], **context: Any
    ) -> list[str]:
        """What ``check`` finds impossible in ``value`` (nothing without a check), handed
        those of ``context`` (:data:`CHECK_ARGUMENTS`) it takes."""
        if self.check is None:
            return []
        check = cast("Callable[..., Iterable[str]]", self.check)
        takes = _takes(check)
        taken = {key: given for key, given in context.items() if key in takes}
        return list(check(value, facts, name, **taken))

    def of(self, facts: Facts, message: str | None = None) -> T:
        """The fact's value in ``facts``; MissingFact naming it when it was not recorded
        (the score keeper then asks for its sheet key)."""
        if self.name not in facts.extra:
            said = Said("the facts do not say {what}", what=Said(self.description))
            raise MissingFact(message or said, self.name)
        return cast(T, facts.extra[self.name])


__all__ = [
    "CHECK_ARGUMENTS",
    "COUNT",
    "FLAG",
    "FORMS",
    "PLAYER",
    "PLAYERS",
    "CanDeal",
    "FactForm",
    "FactSpec",
]
