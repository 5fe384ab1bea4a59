"""What a ``Said`` holds, for the tests that check every message is translated."""

from __future__ import annotations

from collections.abc import Iterator

from ulti_rules.engine.actions import Action
from ulti_rules.said import Named, Said


def words(said: Said) -> Iterator[str]:
    """The message ids of a Said and of the Saids inside it."""
    yield said.template
    for value in said.values.values():
        # an action quoted as itself would be its English label in every language
        assert not isinstance(value, Action), (said.template, value)
        if isinstance(value, Said):
            yield from words(value)


def names_in(said: Said) -> Iterator[Named]:
    """The names (bids, components, kontra levels, suits) in a Said and the Saids inside it."""
    for value in said.values.values():
        if isinstance(value, Named):
            yield value
        elif isinstance(value, Said):
            yield from names_in(value)
