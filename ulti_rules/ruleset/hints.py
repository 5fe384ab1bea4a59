"""Did-you-mean hints: a misspelt key or name should come back with the right one."""

from __future__ import annotations

from collections.abc import Iterable

from ..quoting import shorten
from ..said import Said


def close_matches(word: str, options: Iterable[str], n: int = 1) -> list[str]:
    """The options closest to ``word``, best first; a case-only difference wins."""
    choices = sorted(set(options))
    exact = [option for option in choices if option.lower() == word.lower() and option != word]
    if exact:
        return exact[:n]
    import difflib  # only when a name is wrong: not on every start-up

    by_lower: dict[str, str] = {}
    for option in choices:
        by_lower.setdefault(option.lower(), option)
    found = difflib.get_close_matches(word.lower(), list(by_lower), n=n, cutoff=0.6)
    return [by_lower[match] for match in found]


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest option, or '' when none is close."""
    found = close_matches(word, options)
    return Said(" (did you mean '{word}'?)", word=shorten(found[0])) if found else ""
