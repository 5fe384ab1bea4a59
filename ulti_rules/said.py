"""A sentence the program says, in English, that can still be said in another language.

Errors are raised deep in the library (the ruleset finder, a reader, a command's option
check), where nobody knows which language the person reading them speaks; they are
shown at the top, where the command does. A :class:`Said` is the English text itself —
a ``str``, so every caller, test and log that reads an error as text reads it as before
— that also keeps its message id and values, so the command that shows it can look the
id up in the catalogue of its language and fill the values in again
(``translated``). A message that is not a ``Said`` is shown as it is, in English.

The message id is marked for the catalogues by the name ``Said`` itself (Babel's
keyword, docs/translating.md), so it must be written out at the call:
``Said("no ruleset named '{name}'", name=name)``. A value may itself be a ``Said``,
translated with it: a hint inside a sentence. A value may also be a :class:`Named`: a
name the ruleset or the cards give in each language (a bid, a kontra level, a suit),
said in the sentence's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


class Named(str):
    """A name in English (the ``str`` itself) that knows itself in other languages: a
    bid's or a kontra level's ``names``, a suit's word. A sentence the engine says in
    English names a bid in English; said in Hungarian, it names the Hungarian bid."""

    names: Mapping[str, str]

    def __new__(cls, english: str, names: Mapping[str, str] | None = None) -> Named:
        text = super().__new__(cls, english)
        text.names = dict(names or {})
        return text

    def in_language(self, lang: str) -> str:
        """The name in ``lang``; English where the name has none in it."""
        return self.names.get(lang) or str.__str__(self)


class Said(str):
    """English text made from ``template.format(**values)``, keeping both."""

    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, /, **values: Any) -> Said:
        text = super().__new__(cls, template.format(**values) if values else template)
        text.template = template
        text.values = values
        return text

    def translated(self, gettext: Callable[[str], str], lang: str = "en") -> str:
        """The sentence in ``lang``, whose catalogue's ``gettext`` is given, values filled
        in (sentences translated the same way, names said in ``lang``)."""
        values = {key: _value_in(value, gettext, lang) for key, value in self.values.items()}
        template = gettext(self.template)
        return template.format(**values) if values else template


def _value_in(value: Any, gettext: Callable[[str], str], lang: str) -> Any:
    if isinstance(value, Said):
        return value.translated(gettext, lang)
    if isinstance(value, Named):
        return value.in_language(lang)
    return value


def say_in(gettext: Callable[[str], str], text: str, lang: str = "en") -> str:
    """``text`` in ``lang`` (``gettext``: its catalogue's) when it is a :class:`Said`;
    else as it is.

    A translation that cannot be filled in (its placeholders differ from the English
    ones: tests/test_i18n.py keeps the catalogues from that) shows the English: an error
    is never lost to a fault in its translation."""
    if not isinstance(text, Said):
        return text
    try:
        return text.translated(gettext, lang)
    except Exception:
        return str.__str__(text)


def said_of(exc: BaseException) -> str:
    """What ``exc`` says: its own :class:`Said` where it was raised with one (so that it
    can still be said in another language), else its text."""
    args = exc.args
    return args[0] if len(args) == 1 and isinstance(args[0], str) else str(exc)
