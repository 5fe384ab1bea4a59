"""What a session's state is, in words: who deals next, the planned hands, the last
round, or why the session is over. Said by `ulti ledger` and `ulti play`, in ``--lang``."""

from __future__ import annotations

from functools import cache

from ..i18n import LANGS, N_, translator
from ..ruleset.schema import Ruleset
from ..scoring.ledger import Ledger
from .speech import Speech

YOU = N_("You")
"""The person's name at `ulti play`'s table, in the table's language (``You``, ``Te``,
``Du``): the records of a hand name him so."""


@cache
def you_names() -> frozenset[str]:
    """The person's name in every language: ``You``, ``Te``, ``Du``."""
    return frozenset(translator(lang).gettext(YOU) for lang in LANGS)


def is_you(name: str) -> bool:
    """Whether ``name`` is the person at the table (his seat in a record of `ulti play`),
    of whom a sentence is said as to him: "You deal again", not "You deals again"."""
    return name in you_names()


def over_text(ledger: Ledger, ruleset: Ruleset, say: Speech) -> str:
    """``The session is over: ...`` (call only when it is; ``Ledger.over_text`` in words)."""
    last = ledger.last_round(ruleset)
    if last is not None and len(ledger.hands) >= last[1]:
        return say._("The session is over: the last round ended with hand {number}.",
                     number=last[1])  # fmt: skip
    return say._("The session is over: its {planned} planned hands are played.",
                 planned=ruleset.session.hands)  # fmt: skip


def status_text(ledger: Ledger, ruleset: Ruleset, say: Speech) -> str:
    """``Next: hand 3, dealt by Ben.``, with the planned hands and the last round where
    the session has them; or why the session is over."""
    if ledger.is_over(ruleset):
        return over_text(ledger, ruleset, say)
    number = len(ledger.hands) + 1
    dealer = ledger.dealer_of(number, ruleset)
    parts = [say._("Next: hand {number}, dealt by {dealer}.", number=number, dealer=dealer)]
    if ruleset.session.hands is not None:
        parts.append(
            say._(
                "{played} of {planned} planned hands are played.",
                played=ledger.deals(),
                planned=ruleset.session.hands,
            )
        )
    last = ledger.last_round(ruleset)
    if last is not None:
        dealer = ledger.dealer_of(last[0], ruleset)
        if is_you(dealer):
            said = say._("The last round is hands {first}-{last}, from your deal.",
                         first=last[0], last=last[1])  # fmt: skip
        else:
            said = say._("The last round is hands {first}-{last}, from {dealer}'s deal.",
                         first=last[0], last=last[1], dealer=dealer)  # fmt: skip
        parts.append(said)
    return " ".join(parts)
