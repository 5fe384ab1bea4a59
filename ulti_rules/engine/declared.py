"""The facts a ruleset's contract kinds declare (``contracts/fact_specs.py``), computed
for a played hand by the kinds' own functions and checked, since plugins compute them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import ValidationError

from ..contracts.fact_specs import FactSpec
from ..errors import PluginError
from ..facts import Facts, FactValue
from ..frozen import FrozenDict
from ..plugins import Registry, plugin_fault, printable, short_repr

NO_EXTRA: FrozenDict[str, FactValue] = FrozenDict()
"""The declared facts of a game whose kinds declare none."""


def declared_facts(
    facts: Facts, specs: Iterable[FactSpec[Any]], registry: Registry
) -> FrozenDict[str, FactValue]:
    """The declared facts of a played hand, each computed by its kind's function from
    the core ``facts`` and checked against its form.

    A function that raises or returns a value of another form, or a seat that did not
    play, is a PluginError naming the fact and its plugin (looked up only then).
    """
    values: dict[str, FactValue] = {}
    for spec in specs:
        try:
            value = spec.compute(facts)
        except (Exception, SystemExit) as exc:
            owner = registry.fact_owner(spec.name)
            raise plugin_fault(f"fact '{spec.name}'", owner, exc, "compute") from exc
        form = spec.form
        name = form.name
        if name == "players" and type(value) is tuple and _all_seats(value):
            checked: Any = value  # already the form's type: what validating would give
        elif name == "player" and (value is None or type(value) is int):
            checked = value
        else:
            try:
                checked = form.validate(value)
            except ValidationError:
                raise PluginError(
                    printable(
                        f"fact '{spec.name}' of plugin '{registry.fact_owner(spec.name)}' "
                        f"computed {short_repr(value)}, not {form.written}"
                    )
                ) from None
        named = form.seats(checked)
        if named and not set(facts.seats).issuperset(named):
            strangers = sorted(set(named).difference(facts.seats))
            raise PluginError(
                f"fact '{spec.name}' of plugin '{registry.fact_owner(spec.name)}' names "
                f"seat {strangers[0]}, which did not play the hand"
            )
        values[spec.name] = checked
    return FrozenDict(values)


def _all_seats(value: tuple[Any, ...]) -> bool:
    """Every item an ``int`` itself (not a bool, not a subclass): what a strict int
    form accepts as it is."""
    return _INT_ONLY.issuperset(map(type, value))


_INT_ONLY = frozenset({int})
