"""A ruleset's title in a language: written as one line (the same in every language) or
as a mapping from language to line.

Kept apart from the schema so that `ulti rulesets`, which lists titles without loading
any ruleset model, reads them the same way as the validated ``Ruleset.title_in``.
"""

from __future__ import annotations

from typing import Any

FALLBACK = ("en", "hu", "de")
"""Where a title lacks the language asked for: English, else the first one given."""


def title_text(title: Any, lang: str = "en") -> str:
    """``title`` as written (a line, or a mapping from language to line) in ``lang``, else
    in English, else in the first language of ``FALLBACK`` that it has; '' if none."""
    if isinstance(title, str):
        return title
    if not isinstance(title, dict):
        return ""
    for key in (lang, *FALLBACK):
        found = title.get(key)
        if isinstance(found, str) and found.strip():
            return found
    return ""
