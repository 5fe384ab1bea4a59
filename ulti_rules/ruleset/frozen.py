"""Frozen, bounded lists and maps for the ruleset models: what makes a loaded ruleset
deeply immutable.

pydantic's ``frozen=True`` stops ``ruleset.name = ...`` but not ``ruleset.ladder.clear()``,
and the engine caches tables per ruleset object: a ladder changed in place would leave
them stale. So every list of the ruleset models is validated into a tuple
(:data:`FrozenList`) and every mapping into a :class:`~ulti_rules.frozen.FrozenDict`
(:data:`FrozenMap`). Both compare equal to the list/dict they came from, dump to the same
JSON, and survive copy, deepcopy and pickle.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BeforeValidator, GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from ..frozen import freeze_mapping

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


def _as_list(value: Any) -> Any:
    """Only a YAML list (or a tuple) becomes a tuple: text or a mapping is not iterated.

    The error keeps pydantic's ``list_type``, so the loader says "should be a list".
    """
    if isinstance(value, list | tuple):
        return value
    raise PydanticCustomError("list_type", "Input should be a valid list")


FrozenList = Annotated[tuple[T, ...], BeforeValidator(_as_list)]
"""A list in the file, a tuple once validated."""
FrozenMap = Annotated[Mapping[K, V], AfterValidator(freeze_mapping)]
"""A mapping in the file, a FrozenDict once validated. A default must be validated too
(``validate_default=True``), or it stays the plain dict it was written as."""


@dataclass(frozen=True)
class Items:
    """How many items a list may hold: ``Annotated[FrozenList[Bid], Items(1, 1000)]``.

    Checked on the list as written, before its items are validated, with a message for
    a person (pydantic's own speaks of tuples); the JSON Schema shows the bounds.
    """

    least: int
    most: int

    def _check(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            if len(value) < self.least:
                raise PydanticCustomError(
                    "too_short",
                    "must list at least {least} item{s}",
                    {"least": self.least, "s": "" if self.least == 1 else "s"},
                )
            if len(value) > self.most:
                raise PydanticCustomError(
                    "too_long",
                    "lists {count} items; at most {most} are allowed",
                    {"count": len(value), "most": self.most},
                )
        return value

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.no_info_before_validator_function(self._check, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        found = handler(schema)
        if self.least:
            found["minItems"] = self.least
        found["maxItems"] = self.most
        return found
