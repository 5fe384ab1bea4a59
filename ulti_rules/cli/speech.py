"""What a command says, in the language it was asked for: the catalogue's sentences and
the ruleset's names of bids, contracts, silent bonuses, kontra levels and suits.

One way for every command (`score`, `replay`, `ledger`, `simulate`, `play`, `ladder`) to
get a word in Hungarian, English or German: sentences are English message ids filled in
by ``str.format`` (docs/translating.md), names come from the ruleset's ``names``
(``Names.get``) and the suits from the catalogue, as in the rulebook.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import FR_SUIT_SYMBOL, Faces, Suit, SuitId, suit_label, suit_number
from ..i18n import Translator, translator
from ..rulebook.words import SUIT_WORDS
from ..ruleset.schema import Ruleset
from ..said import say_in


class Speech:
    """The catalogue in one language (``_``, ``ngettext``) and the names in it."""

    def __init__(self, lang: str = "en") -> None:
        self.text: Translator = translator(lang)
        self.lang = self.text.lang

    @property
    def english(self) -> bool:
        return self.lang == "en"

    def _(self, message: str, **values: Any) -> str:
        """The message in this language, its ``{placeholders}`` filled in."""
        said = self.text.gettext(message)
        return said.format(**values) if values else said

    def ngettext(self, singular: str, plural: str, n: int, **values: Any) -> str:
        """The singular or plural message for ``n`` (``{n}`` is filled in too)."""
        return self.text.ngettext(singular, plural, n).format(n=n, **values)

    def said(self, text: str) -> str:
        """A sentence the library wrote (a rule a card breaks, an error) in this
        language where it is a :class:`~ulti_rules.said.Said`; other text as it is."""
        return say_in(self.text.gettext, text, self.lang)

    def join(self, items: Sequence[str]) -> str:
        """``a, b and c`` in this language."""
        if len(items) <= 1:
            return "".join(items)
        return self._("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])

    # ---------------------------------------------------------------- the ruleset's names

    def bid(self, ruleset: Ruleset, bid_id: str) -> str:
        try:
            return ruleset.bid(bid_id).names.get(self.lang)
        except KeyError:  # a bid the ruleset does not (or no longer) have: its id
            return bid_id

    def bid_text(self, ruleset: Ruleset, bid_id: str) -> str:
        """``Ulti (ulti)``: the name a table says, and the id the records use."""
        try:
            return f"{ruleset.bid(bid_id).names.get(self.lang)} ({bid_id})"
        except KeyError:
            return bid_id

    def contract(self, ruleset: Ruleset, cid: str) -> str:
        spec = ruleset.contracts.get(cid)
        return spec.names.get(self.lang) if spec is not None else cid

    def bonus(self, ruleset: Ruleset, bonus_id: str) -> str:
        bonus = ruleset.silent_bonuses.get(bonus_id)
        return bonus.names.get(self.lang) if bonus is not None else bonus_id

    def level(self, ruleset: Ruleset, level: int) -> str:
        """A kontra level's name (``8× kontra`` beyond the named ones)."""
        return ruleset.kontra.name(level, self.lang)

    def suit(self, suit: SuitId, faces: Faces | None = None) -> str:
        """English: the id (``hearts``), with the face beside it where ``faces`` is given
        (``hearts (Piros)``); else the catalogue's word (``piros``, ``Herz``), with the
        French symbol for French faces."""
        if self.english:
            return suit if faces is None else suit_label(suit_number(suit), faces)
        word = self._(SUIT_WORDS[suit])
        return f"{word} ({FR_SUIT_SYMBOL[Suit(suit_number(suit))]})" if faces == "fr" else word
