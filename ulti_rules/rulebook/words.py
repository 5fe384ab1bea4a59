"""The rulebook's words in one language: the catalogue's sentences and the ruleset's names.

Sentences are English message ids (``_``/``ngettext``, extracted by Babel) filled in with
``str.format``; the names of bids, contracts, bonuses and kontra levels come from the
ruleset (``names``), those of cards and suits from the catalogue.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..cards import RANK_WORDS
from ..i18n import N_, Translator
from ..plugins import Registry
from ..ruleset.schema import Names, Ruleset

if TYPE_CHECKING:
    from .document import Paragraph

SUIT_WORDS: dict[str, str] = {
    "acorns": N_("Acorns"),
    "leaves": N_("Leaves"),
    "hearts": N_("Hearts"),
    "bells": N_("Bells"),
}


def sentence(text: str) -> str:
    """The first letter up: a Hungarian name (``ulti``) may open a sentence."""
    return text[:1].upper() + text[1:]


class Words:
    """What every section builder needs: the ruleset, the registry, the language."""

    def __init__(self, ruleset: Ruleset, registry: Registry, translator: Translator) -> None:
        self.ruleset = ruleset
        self.registry = registry
        self.translator = translator
        self.lang = translator.lang

    # ---------------------------------------------------------------- the catalogue

    def _(self, message: str, **values: Any) -> str:
        """The message in this language, its ``{placeholders}`` filled in."""
        text = self.translator.gettext(message)
        return text.format(**values) if values else text

    def ngettext(self, singular: str, plural: str, n: int, **values: Any) -> str:
        """The singular or plural message for ``n`` (``{n}`` is filled in too)."""
        return self.translator.ngettext(singular, plural, n).format(n=n, **values)

    def para(self, text: str, *settings: str, term: str | None = None) -> Paragraph:
        # the document's classes are the rulebook's: a command that only needs the
        # words (its suits, in `ulti ladder`) does not import them
        from .document import Paragraph

        return Paragraph(sentence(text), tuple(settings), term)

    def join(self, items: Sequence[str]) -> str:
        """``a, b and c`` in this language."""
        if not items:
            return ""
        if len(items) == 1:
            return items[0]
        return self._("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])

    def join_or(self, items: Sequence[str]) -> str:
        """``a, b or c`` in this language."""
        if len(items) <= 1:
            return "".join(items)
        return self._("{first} or {last}", first=", ".join(items[:-1]), last=items[-1])

    # ---------------------------------------------------------------- names

    def name(self, names: Names) -> str:
        return names.get(self.lang)

    def contract(self, contract_id: str) -> str:
        spec = self.ruleset.contracts.get(contract_id)
        return self.name(spec.names) if spec is not None else contract_id

    def bid(self, bid_id: str) -> str:
        try:
            return self.name(self.ruleset.bid(bid_id).names)
        except KeyError:
            return bid_id

    def rank(self, rank_id: str) -> str:
        return self._(RANK_WORDS[rank_id])

    def ranks(self, order: Iterable[str]) -> str:
        return ", ".join(self.rank(rank) for rank in order)

    def suit(self, suit_id: str) -> str:
        return self._(SUIT_WORDS[suit_id])

    def level(self, level: int) -> str:
        """The kontra level's name (``N× kontra`` beyond the named ones)."""
        return self.ruleset.kontra.name(level, self.lang)

    def simple(self) -> str:
        """The plain Simple bid as the ruleset names it, else the catalogue's word."""
        from ..ruleset.ladder import is_plain_parti, parti_contract

        for bid in self.ruleset.ladder:
            if is_plain_parti(self.ruleset, bid, self.registry):
                return self.name(bid.names)
        parti = parti_contract(self.ruleset, self.registry)
        if parti is not None:
            return self.contract(parti)
        return self._("Simple")
