"""`--lang` for every command that prints the program's words: one option, one rule.

The language is the option, else ``ULTI_LANG``, else the locale, else English
(``ulti_rules.i18n.resolve_lang``); an unknown ``ULTI_LANG`` is a user error that lists
the languages. Light: importing it reads no catalogue.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..i18n import LANG_ENV, LANGS, resolve_lang
from .common import LANG_META

F = TypeVar("F", bound=Callable[..., Any])


def lang_option(help_text: str = "Language of the output.") -> Callable[[F], F]:
    """The ``--lang hu|en|de`` option; the command calls :func:`command_lang` on its value."""
    return click.option(
        "--lang",
        type=click.Choice(LANGS, case_sensitive=False),
        default=None,
        help=f"{help_text} Default: ${LANG_ENV}, else the locale (LANG), else en.",
    )


def command_lang(option: str | None) -> str:
    """The language a command speaks: ``--lang``, else ``ULTI_LANG``, else the locale.

    Noted on the click context, so that the command's errors are said in it too
    (``common.speaking``)."""
    lang = resolve_lang(option)
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta[LANG_META] = lang
    return lang
