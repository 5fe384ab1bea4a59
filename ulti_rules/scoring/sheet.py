"""The score keeper's input: a small YAML or JSON document a table writes after a hand.

The format is documented in docs/score-keeper.md. This module only reads it
(safely, with the position of every key) and checks its shape; turning it into
:class:`Facts` and a :class:`Contract` is ``table_facts``' job.

Besides its own keys a sheet takes the facts that contract kinds declare
(``contracts/fact_specs.py``: Four Aces' ``aces``), under their sheet keys, for
every installed kind: one sheet template serves every ruleset, and a fact the
ruleset never judges by is checked and then unused. They are kept as the model's
extra keys, so the sheet dumps as it was written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from ..contracts.fact_specs import COUNT_LIMIT, FactSpec
from ..errors import Problem, ProblemsError
from ..plugins import Registry, get_registry
from ..quoting import QUOTED, shorten
from ..ruleset.hints import did_you_mean
from ..ruleset.positions import Where as Where  # where sheets' callers have long found it
from ..ruleset.positions import data_path, leading, yaml_problems
from ..ruleset.pydantic_problems import error_message, validation_problems
from ..ruleset.safe_yaml import KeyPath, Position, YamlError, read_file
from ..ruleset.scalars import AS_WHOLE, NAME_LENGTH, Flag, describe, visible_text
from ..said import Said


class SheetError(ProblemsError):
    """The document is unreadable, malformed, or describes an impossible hand; the
    problems in the order of the document, each once, capped (``errors.capped``)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems, ordered=True)


PLAYER_NAME_LENGTH = 40
"""The longest player name: a name a table writes down, not a paragraph."""
_player_text = visible_text(PLAYER_NAME_LENGTH, compose=True)


def _player(value: Any) -> str:
    """Player names may be written as numbers (``players: [1, 2, 3]``); they are names.

    Never empty or blank, and short: a name is printed in every table of the settlement.
    """
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and abs(value) < 10**PLAYER_NAME_LENGTH
    ):
        value = str(value)
    return _player_text(value)


WRITTEN = "written"
"""Validation context key: the sheet is a document as a person wrote it, where a kontra
level number in quotes (``'1'``) is refused like any number in quotes. A sheet a ledger
keeps (``Sheet.model_dump``) holds its levels as text, and is read without it."""


def _level(value: Any, info: ValidationInfo) -> str:
    """A kontra level as text: a number's digits, or a level's name.

    Whether a name is one of the ruleset's levels, and whether a number is within its
    cap (``max_level``, else the framework's limit), the reader checks against the
    ruleset, which it knows (a cap of 16 said to a table whose ruleset stops at 2 misled
    it); a number stays digits, so a huge one reaches no arithmetic. In a written
    document a number in quotes (``'1'``) is refused, like every number written as text.
    """
    if (
        isinstance(value, str)
        and value.strip().isascii()
        and value.strip().isdigit()
        and (info.context or {}).get(WRITTEN)
    ):
        raise PydanticCustomError(
            "kontra_level",
            "should be a kontra level: a number (written without quotes: {digits}) or the "
            "level's name (Kontra, Rekontra, ...), not {given}",
            {"digits": shorten(value.strip()), "given": describe(value)},
        )
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # its digits: the reader judges them against the ruleset's cap
    if isinstance(value, str) and value.strip() and len(value) <= NAME_LENGTH:
        return value
    raise PydanticCustomError(
        "kontra_level",
        "should be a kontra level: a number (0 = none) or the level's name (Kontra, "
        "Rekontra, ...), not {given}",
        {"given": describe(value)},
    )


Name = Annotated[str, BeforeValidator(_player), Field(min_length=1, max_length=PLAYER_NAME_LENGTH)]
"""A player's name (or ``declarer``/``defenders`` where a side may stand for one)."""
PlayerName = Annotated[
    str, BeforeValidator(_player_text), Field(min_length=1, max_length=PLAYER_NAME_LENGTH)
]
"""A player's name as a ledger or a record keeps it: one line of visible text, composed
(NFC), as short as on a score sheet; printed in every table and every line."""
Level = Annotated[str, BeforeValidator(_level)]
"""A kontra level: a number (0 = none) or a level's name (Kontra, Rekontra, ...)."""


def _kontra_shape(value: Any) -> str:
    return "per_player" if isinstance(value, dict) else "level"


KontraGiven = Annotated[
    Annotated[Level, Tag("level")] | Annotated[dict[Name, Level], Tag("per_player")],
    Discriminator(_kontra_shape),
]
"""One level for the component, or a level per defender: only the shape written is
validated, so a wrong level gets one message, not one per shape."""
CardPoints = Annotated[int, Field(le=10_000), AS_WHOLE]
"""Card points as written; negative ones are named as impossible by the reader."""


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BidByComponents(_Part):
    components: list[str] = Field(
        min_length=1, max_length=16, description="Contract ids, implied Parti included."
    )
    red: Flag = False


class PointsFact(_Part):
    declarer: CardPoints = Field(
        description="Card points in the declarer's tricks, last trick included."
    )
    defenders: CardPoints = Field(
        description="Card points in the defenders' tricks, last trick included."
    )
    talon: CardPoints = Field(default=0, description="Card points in the final talon.")


class LastTrick(_Part):
    winner: Name
    trump_seven: Name | None = Field(
        default=None, description="Who played the trump 7 to the last trick; omit if nobody."
    )


class Sheet(_Part):
    """One hand as a table knows it at the end; declared facts are its extra keys
    (read through :meth:`validate_with_positions`, which checks them)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    ruleset: str | None = Field(
        default=None,
        description="A ruleset name, or a path relative to this document. Required, except "
        "for a hand added to a ledger, which knows its ruleset.",
    )
    players: list[Name] | None = Field(
        default=None,
        description="Names in seating order, each to the right of the one before (the deal "
        "and the play go down the list). Default P1, P2, P3 (P4).",
    )
    dealer: Name | None = Field(default=None, description="Required with four players.")
    declarer: Name
    bid: str | BidByComponents = Field(description="A ladder id, name or alias; or components.")
    trump: str | None = Field(default=None, description="The trump suit; omit in no-trump bids.")
    kontra: dict[str, KontraGiven] = Field(
        default={}, description="Per component: a level, or a level per defender."
    )
    gave_up: Flag = False
    uncontested: Flag = False
    round_one: Flag = Field(
        default=False, description="Two-round auction: the bid stood from round 1 (×2)."
    )
    points: PointsFact | None = None
    tricks: dict[Name, Annotated[int, Field(ge=-10, le=10), AS_WHOLE]] | None = None
    durchmars: Name | None = Field(default=None, description="Who took every trick.")
    last_trick: LastTrick | None = None
    trump_seven_early: Name | None = Field(
        default=None, description="Who played the trump 7 before the last trick."
    )
    marriages: dict[Name, Annotated[list[str], Field(max_length=4)]] = Field(
        default={},
        description="Suits of the marriages each player announced: at most four (one per suit).",
    )

    @classmethod
    def validate_with_positions(
        cls,
        data: Any,
        where: Where,
        facts: Mapping[str, FactSpec[Any]] | None = None,
        *,
        written: bool = False,
    ) -> Sheet:
        """Shape-check ``data``; every problem at once, positioned, as SheetError.

        ``facts`` are the declared facts a sheet may give, by sheet key (default:
        those of every installed kind, :func:`sheet_facts`); any other unknown key is
        refused with a did-you-mean over both. ``written``: ``data`` is a document as a
        person wrote it (:func:`read_sheet`), where a kontra level number in quotes is
        refused; a sheet a ledger keeps has its levels as text.
        """
        facts = sheet_facts() if facts is None else facts
        problems: list[Problem] = []
        given: dict[Any, Any] = {}
        unknown = [key for key in data if key not in cls.model_fields and key not in facts]
        hinted = leading(((key,) for key in unknown), where.order)
        for key, value in data.items():
            spec = facts.get(key) if isinstance(key, str) else None
            if key in cls.model_fields:
                given[key] = value
            elif spec is not None:
                try:
                    given[key] = _FACT_SHAPES[spec.form.name].validate_python(value)
                except ValidationError as exc:
                    problems += validation_problems(
                        exc, value, _Inside(where, key), _fact_message(key, spec, value, data)
                    )
            else:
                hint = (
                    did_you_mean(str(key), [*cls.model_fields, *facts]) if (key,) in hinted else ""
                )
                problems.append(
                    where.problem(
                        (key,),
                        Said(
                            "unknown key '{key}'{hint} (see docs/score-keeper.md)",
                            key=shorten(str(key)),
                            hint=hint,
                        ),
                    )
                )
        try:
            sheet = cls.model_validate(given, context={WRITTEN: written})
        except ValidationError as exc:
            problems += validation_problems(
                exc, data, where, lambda err, hint: _message(err, data, hint=hint)
            )
        if problems:
            raise SheetError(problems)
        return sheet

    @property
    def declared(self) -> dict[str, Any]:
        """The declared facts given, by sheet key, as checked (names not yet seats)."""
        return dict(self.model_extra or {})


FACT_SHAPES: dict[str, Any] = {
    "players": Annotated[list[Name], Field(max_length=32)] | None,
    "player": Name | None,
    "count": Annotated[int, Field(ge=0, le=COUNT_LIMIT), AS_WHOLE] | None,
    "flag": Flag | None,
}
"""How a table writes a declared fact of each form (``fact_specs.FORMS``). Null is a
fact not given, except for one player, where it says nobody."""
_FACT_SHAPES = {form: TypeAdapter[Any](shape) for form, shape in FACT_SHAPES.items()}


def sheet_facts(registry: Registry | None = None) -> dict[str, FactSpec[Any]]:
    """The declared facts a sheet takes, by sheet key: every installed kind's."""
    registry = registry if registry is not None else get_registry()
    return {spec.sheet_key: spec for spec in registry.facts.values()}


_SHAPES = {
    "players": "[Anna, Ben, Carla]",
    "kontra": "{ulti: {Ben: kontra}} or {parti: 1}",
    "points": "{declarer: 60, defenders: 30, talon: 0}",
    "tricks": "{Anna: 6, Ben: 2, Carla: 2}",
    "last_trick": "{winner: Anna, trump_seven: Anna}",
    "marriages": "{Anna: [acorns], Ben: [bells]}",
}
"""How each structured key is written: shown when a table writes it in another shape
(a declared fact's comes from its form)."""
_SHAPE_ERRORS = frozenset({"dict_type", "model_type", "model_attributes_type", "list_type"})


def _given(value: Any) -> str:
    """A value written in the wrong shape, as written (``50``, ``'P1'``, ``null``) if it
    is short: YAML's words, not Python's ``None``."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    shown = repr(value)
    return shown if len(shown) <= QUOTED else describe(value)


def _message(err: ErrorDetails, data: Any, *, hint: bool = True) -> str:
    """A pydantic error as a table reads it: a structured key written in another shape
    is shown how it is written; without ``hint`` (a problem that will not be shown,
    ``positions.leading``) no did-you-mean."""
    key = err["loc"][0] if err["loc"] else None
    if err["type"] in _SHAPE_ERRORS and data_path(data, err["loc"]) == (key,) and key in _SHAPES:
        return _write_it_like(str(key), _SHAPES[key], err["input"])
    if err["type"] == "too_long" and err["loc"][:1] == ("marriages",):
        return Said("a player announces at most four marriages, one in each suit")
    return error_message(err, data, Sheet, docs="docs/score-keeper.md", hint=hint)


def _write_it_like(key: str, shape: str, given: Any) -> str:
    """A structured key written in another shape, and how it is written."""
    return Said(
        "write it like {key}: {shape} (not {given})", key=key, shape=shape, given=_given(given)
    )


def _fact_message(
    key: str, spec: FactSpec[Any], value: Any, data: Any
) -> Callable[[ErrorDetails, bool], str]:
    """How a declared fact's errors read: a value in the wrong shape is shown how the
    fact is written (``aces: [Anna, Ben]``)."""

    def message(err: ErrorDetails, hint: bool) -> str:
        shape = err["type"] in _SHAPE_ERRORS or isinstance(value, list | dict)
        if not err["loc"] and shape:
            return _write_it_like(key, spec.form.example, value)
        return _message({**err, "loc": (key, *err["loc"])}, data, hint=hint)

    return message


class _Inside:
    """Places the problems of one key's value (validated on its own) at that key."""

    def __init__(self, where: Where, key: str) -> None:
        self._where = where
        self._key = key

    def problem(self, path: KeyPath, message: str) -> Problem:
        return self._where.problem((self._key, *path), message)

    def order(self, path: KeyPath) -> tuple[int, int]:
        return self._where.order((self._key, *path))


def read_sheet(path: Path, registry: Registry | None = None) -> tuple[Sheet, Where]:
    """Read and shape-check a score-keeper document (YAML or JSON); it may give the
    declared facts of the kinds in ``registry`` (default: the process's)."""
    display = str(path)
    try:
        document = read_file(path)
    except YamlError as exc:
        raise SheetError(yaml_problems(exc, display)) from None
    return sheet_of(document.data, document.positions, display, registry)


def sheet_of(
    data: Any,
    positions: Mapping[KeyPath, Position],
    display: str,
    registry: Registry | None = None,
) -> tuple[Sheet, Where]:
    """A score-keeper document already read (``read_sheet`` without the reading: a caller
    that read the file to see whether it is a record does not read it again)."""
    where = Where(display, positions)
    if not isinstance(data, dict):
        mapping = Said("the document must be a mapping of keys (see docs/score-keeper.md)")
        raise SheetError([where.problem((), mapping)])
    sheet = Sheet.validate_with_positions(data, where, sheet_facts(registry), written=True)
    return sheet, where
