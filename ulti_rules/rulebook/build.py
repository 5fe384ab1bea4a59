"""Builds the rulebook of a resolved ruleset: its sections in a reader's order."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..i18n import Translator, translator
from ..plugins import Registry, get_registry
from ..ruleset.loading import registry_of
from ..ruleset.schema import Ruleset
from . import auction, catalogue, kontra, play, players, session, silent
from .document import Rulebook
from .words import Words


def build_rulebook(
    ruleset: Ruleset,
    lang: str = "en",
    *,
    registry: Registry | None = None,
    raw: Mapping[str, Any] | None = None,
    text: Translator | None = None,
) -> Rulebook:
    """The rules of ``ruleset`` as a document in ``lang`` (hu, en or de).

    ``raw`` is the top file as written (``load_raw``): what the ruleset builds on
    (``extends``, ``with``, ``without``) is merged away in the ruleset itself. ``text``
    replaces the catalogue of ``lang`` (a test's strict one).
    """
    w = Words(ruleset, registry_of(ruleset, registry), text or translator(lang))
    sections = (
        session.about(w, raw),
        players.players_and_deal(w),
        players.cards_and_points(w),
        auction.auction(w),
        catalogue.contracts(w),
        catalogue.ladder(w),
        play.trump_and_red(w),
        play.open_games(w),
        play.trick_play(w),
        play.marriages(w),
        kontra.kontra(w),
        silent.silent_bonuses(w),
        session.simple_game(w),
        session.settlement(w),
        session.session(w),
        catalogue.score_keeper(w),
        session.sources(w, ruleset.sources),
    )
    return Rulebook(
        lang=w.lang,
        title=w._("Rules of Ulti"),
        subtitle=ruleset.title_in(w.lang),
        sections=sections,
        colophon=w._(
            "Written out by ulti-rules from the ruleset “{name}” (ulti rulebook {name}).",
            name=ruleset.name,
        ),
        contents=w._("Contents"),
        meta={"ruleset": ruleset.name},
    )


def load_rulebook(
    name_or_path: str | Path, lang: str = "en", registry: Registry | None = None
) -> Rulebook:
    """Load a ruleset by name or path and build its rulebook."""
    from ..ruleset.loading import load_raw, load_ruleset

    registry = registry or get_registry()
    ruleset = load_ruleset(name_or_path, registry)
    return build_rulebook(ruleset, lang, registry=registry, raw=load_raw(name_or_path, registry))
