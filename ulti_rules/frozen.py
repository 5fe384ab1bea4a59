"""A read-only dict: mappings in shared results (facts, contracts) that no caller can change.

The engine caches a hand's facts and hands the same object to every reader, and
settlement passes it to every contract kind, plugins included. A plain dict there
would let one reader change what the next one sees; ``FrozenDict`` refuses every
change in place. It stays a ``dict`` subclass so that JSON dumping, pydantic
serialisation, ``==`` with plain dicts and ``isinstance(x, dict)`` keep working.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """A dict whose contents are fixed when it is built (hashable if its values are)."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(f"{type(self).__name__} is read-only: build a new mapping instead")

    __setitem__ = __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        # The default reduce of a dict subclass refills it item by item, which is refused.
        return (type(self), (dict(self),))

    def __copy__(self) -> FrozenDict[K, V]:
        return self


def freeze_mapping(value: Mapping[K, V]) -> FrozenDict[K, V]:
    """``value`` as a FrozenDict (a pydantic after-validator; nested levels freeze their own)."""
    return value if isinstance(value, FrozenDict) else FrozenDict(value)
