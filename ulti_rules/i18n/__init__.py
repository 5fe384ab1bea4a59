"""The program's own words in Hungarian, English and German: gettext catalogues.

Names of bids, contracts and kontra levels are data (a ruleset's ``names``); everything
else a command prints comes from the message catalogues in ``locales/``: English is the
message id, ``hu`` and ``de`` are compiled ``.mo`` files read by the standard library's
``gettext`` (Babel only compiles them, at development time: docs/translating.md).

Which language: ``--lang`` on the command, else ``ULTI_LANG``, else the locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``hu_HU.UTF-8`` is Hungarian), else
English. Every command asks :func:`resolve_lang` and :func:`translator`, nothing else.

Kept cheap to import: ``gettext`` is read when a translator is first asked for.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UltiError

if TYPE_CHECKING:
    import gettext

LANGS: tuple[str, ...] = ("hu", "en", "de")
"""The languages the program speaks; English is the catalogues' message ids."""
LANG_ENV = "ULTI_LANG"
LOCALE_ENV: tuple[str, ...] = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The locale variables, in the order the standard library's gettext reads them."""
DOMAIN = "ulti"
LOCALES = Path(__file__).with_name("locales")


class LanguageError(UltiError):
    """A language the program does not speak was asked for (an exit-1 user error)."""


def N_(message: str) -> str:
    """Mark a message for extraction where it is defined; translate it where it is used."""
    return message


def _check(lang: str, where: str) -> str:
    code = lang.strip().lower()
    if code not in LANGS:
        raise LanguageError(
            f"{where}: unknown language {lang!r}; use hu (Hungarian), en (English) or de (German)"
        )
    return code


def locale_lang(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the locale asks for, if it is one of ours.

    The first locale variable that is set decides, as in ``gettext.find``; ``LANGUAGE``
    may list several (``de:en``), and the first of ours wins. ``C``, ``POSIX`` or a
    language we do not speak (``fr_FR.UTF-8``) is no error: the answer is None.
    """
    env = os.environ if environ is None else environ
    for variable in LOCALE_ENV:
        value = env.get(variable)
        if not value:
            continue
        for entry in value.split(":"):
            code = entry.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            if code in LANGS:
                return code
        return None
    return None


def resolve_lang(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``option`` (``--lang``), else ``ULTI_LANG``, else the
    locale, else ``en``. An unknown ``option`` or ``ULTI_LANG`` is a
    :class:`LanguageError` that lists hu, en and de."""
    if option:
        return _check(option, "--lang")
    env = os.environ if environ is None else environ
    chosen = env.get(LANG_ENV, "").strip()
    if chosen:
        return _check(chosen, LANG_ENV)
    return locale_lang(env) or "en"


@dataclass(frozen=True)
class Translator:
    """The program's words in one language: ``gettext`` and ``ngettext``, and ``lang``
    to pick the ruleset's own names (``names.get(translator.lang)``)."""

    lang: str
    catalogue: gettext.NullTranslations = field(repr=False)

    def gettext(self, message: str) -> str:
        return self.catalogue.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalogue.ngettext(singular, plural, n)


@cache
def translator(lang: str = "en") -> Translator:
    """The translator for ``lang`` (hu, en or de), read once per process.

    English is the message ids themselves. A missing Hungarian or German catalogue is
    an error, not a quiet fall back to English: the wheel ships both.
    """
    import gettext

    code = _check(lang, "language")
    if code == "en":
        return Translator(code, gettext.NullTranslations())
    try:
        catalogue = gettext.translation(DOMAIN, localedir=LOCALES, languages=[code])
    except OSError as exc:
        raise LanguageError(f"the {code} message catalogue is missing ({exc})") from exc
    return Translator(code, catalogue)


__all__ = [
    "DOMAIN",
    "LANGS",
    "LANG_ENV",
    "LOCALES",
    "N_",
    "LanguageError",
    "Translator",
    "locale_lang",
    "resolve_lang",
    "translator",
]
