"""The notes a settlement line carries, in one place: the settlement writes them in
English from these sentences, and a view reads them back by the same sentences to say
them in another language, so the two can never drift apart."""

from __future__ import annotations

import re

from ..i18n import N_

WORTH = N_("worth {bonus}")
UNANNOUNCED = N_("in place of the {contract}: its marriage was never announced")
LOST = N_("lost: {factor} × value")
OTHER_PAYS = N_("against everyone: the other defender pays too")
PAYS_OTHER = N_("against everyone: pays the other defender too")
BESIDE = N_("paid beside the Parti worth {bonus}")
GAVE_UP = N_("gave up before the first lead")
LOST_DOUBLE = N_("uncontested plain Simple: lost double")
LOST_DOUBLE_ROUND_ONE = N_("uncontested plain Simple: lost double, and ×{factor} as a round-1 bid")

SEPARATOR = "; "
"""Between the notes of one line (``SettlementLine.note`` is one string)."""

_FIELD = re.compile(r"\{(\w+)\}")


def _pattern(sentence: str) -> re.Pattern[str]:
    """``sentence`` with each ``{name}`` a named group, the rest literal."""
    parts = _FIELD.split(sentence)  # literal, name, literal, name, ..., literal
    said = (re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+)" for i, part in enumerate(parts))
    return re.compile("".join(said))


_PATTERNS = tuple(
    (_pattern(sentence), sentence)
    for sentence in (
        WORTH,
        UNANNOUNCED,
        LOST,
        OTHER_PAYS,
        PAYS_OTHER,
        BESIDE,
        GAVE_UP,
        LOST_DOUBLE,
        LOST_DOUBLE_ROUND_ONE,
    )
)


def join(notes: list[str]) -> str:
    """A line's notes as its one ``note`` string."""
    return SEPARATOR.join(notes)


def read(note: str) -> list[tuple[str | None, dict[str, str]]]:
    """Each note of ``note`` as (its sentence, the values filled in); a note that is
    not one of these sentences (a plugin's) as (None, {"text": the note})."""
    read_back: list[tuple[str | None, dict[str, str]]] = []
    for part in note.split(SEPARATOR) if note else ():
        for pattern, sentence in _PATTERNS:
            found = pattern.fullmatch(part)
            if found is not None:
                read_back.append((sentence, found.groupdict()))
                break
        else:
            read_back.append((None, {"text": part}))
    return read_back
