"""A kind's nature is told by its flags (``is_parti``, ``is_hundred``), never by its name.

A plugin kind that is the built-in Parti (or 100) under another name is registered
here, and a club plays it in place of ``parti`` (or ``hundred``): the ladder check,
the ladder's derived silent values, the catalogue's Parti and the rulebook treat it
exactly as the built-in kind, as the engine's catalogue does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal

import pytest
from ulti_rules import ContractKind, ContractSpec, Ruleset, hookimpl
from ulti_rules.bots.bid_shape import bid_shapes
from ulti_rules.contracts.builtin import Hundred, HundredSpec, Parti
from ulti_rules.game import Game
from ulti_rules.plugins import Registry
from ulti_rules.rulebook.as_text import render_text
from ulti_rules.rulebook.build import build_rulebook
from ulti_rules.rulebook.document import Paragraph, Rulebook
from ulti_rules.ruleset.ladder import check_ladder, parti_contract, silent_values
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring.unannounced import parti

from test_plugin_facts import registry_with


class PlainGameSpec(ContractSpec):
    kind: Literal["plain_game"] = "plain_game"


class PlainGame(Parti):
    """Plain game: the Parti under a club's own name."""

    name = "plain_game"
    params = PlainGameSpec  # type: ignore[assignment]
    is_parti = True


class BigHundredSpec(HundredSpec):
    kind: Literal["big_hundred"] = "big_hundred"  # type: ignore[assignment]


class BigHundred(Hundred):
    """Big hundred: the 100 under a club's own name."""

    name = "big_hundred"
    params = BigHundredSpec  # type: ignore[assignment]
    is_hundred = True


class RenamedKinds:
    @hookimpl
    def register_contract_kinds(self, register: Callable[[type[ContractKind]], None]) -> None:
        register(PlainGame)
        register(BigHundred)


@pytest.fixture(scope="module")
def registry() -> Registry:
    return registry_with(RenamedKinds())


Club = Callable[[str], Ruleset]


def club_with(registry: Registry, folder: Path, settings: str = "") -> tuple[Club, Club]:
    """Loaders of WP with the Parti (first) or the 100s (second) of a kind named in the
    call, and ``settings`` (YAML lines) on top; every club is named alike, so that two
    rulebooks differ only where the kinds make them."""

    def load(kind: str, contracts: str) -> Ruleset:
        path = folder / kind / "club.yaml"
        path.parent.mkdir()
        path.write_text(
            f"name: club\ntitle: A club\nextends: wikipedia\ncontracts:\n{contracts}{settings}",
            "utf-8",
        )
        return load_ruleset(path, registry)

    def with_parti(kind: str) -> Ruleset:
        return load(kind, f"  parti: {{kind: {kind}}}\n")

    def with_hundreds(kind: str) -> Ruleset:
        return load(
            kind,
            f"  forty_hundred: {{kind: {kind}}}\n  twenty_hundred: {{kind: {kind}}}\n"
            f"silent_bonuses:\n  silent_hundred: {{condition: {kind}}}\n",
        )

    return with_parti, with_hundreds


def both_partis(registry: Registry, tmp_path: Path, settings: str = "") -> tuple[Ruleset, Ruleset]:
    with_parti, _ = club_with(registry, tmp_path, settings)
    builtin, renamed = with_parti("parti"), with_parti("plain_game")
    assert renamed.contracts["parti"].kind == "plain_game"
    return builtin, renamed


def issues(ruleset: Ruleset, registry: Registry) -> list[tuple[str, str]]:
    return [(issue.path, issue.message) for issue in check_ladder(ruleset, registry)]


@pytest.mark.parametrize(
    "settings",
    [
        "auction: {opener_pass_is_simple: true}\n",
        "marriages: {in_hundred_game: {unannounced: parti}}\n",
    ],
    ids=["opening-pass", "void-hundred"],
)
def test_the_ladder_check_finds_a_renamed_parti(
    registry: Registry, tmp_path: Path, settings: str
) -> None:
    """An opening pass bids the plain Simple, a void 100 is settled as the Parti: both
    need one, and the renamed Parti is one, as it is to the engine."""
    builtin, renamed = both_partis(registry, tmp_path, settings)  # the loader checks them
    assert issues(renamed, registry) == issues(builtin, registry) == []
    assert [(b.value, b.rank) for b in renamed.ladder] == [
        (b.value, b.rank) for b in builtin.ladder
    ]
    plains = [Game.of(ruleset).catalog.plain_simple for ruleset in (builtin, renamed)]
    assert [plain.id if plain is not None else None for plain in plains] == ["parti"] * 2


def test_the_ladder_check_keeps_a_renamed_parti_from_a_kind_that_replaces_it(
    registry: Registry, tmp_path: Path
) -> None:
    checked = []
    for ruleset in both_partis(registry, tmp_path):
        first = ruleset.ladder[0]
        bad = first.model_copy(
            update={
                "id": "parti_hundred",
                "components": ("parti", "forty_hundred"),
                "names": first.names.model_copy(update={"hu": "ph", "en": "PH", "de": "PH"}),
                "aliases": (),
            }
        )
        checked.append(
            issues(ruleset.model_copy(update={"ladder": (*ruleset.ladder, bad)}), registry)
        )
    builtin, renamed = checked
    assert renamed == builtin
    assert any("holds a Parti (parti) beside forty_hundred" in message for _, message in renamed)


def test_parti_contract_finds_a_renamed_parti(registry: Registry, tmp_path: Path) -> None:
    builtin, renamed = both_partis(registry, tmp_path)
    assert parti_contract(renamed, registry) == parti_contract(builtin, registry) == "parti"
    assert isinstance(parti(renamed, registry).kind, PlainGame)  # a void 100's stand-in


def test_silent_values_take_a_renamed_parti_for_the_parti(
    registry: Registry, tmp_path: Path
) -> None:
    """The silent 100 goes only with the bids that carry a Parti: the renamed one too."""
    builtin, renamed = both_partis(registry, tmp_path)
    pairs = list(zip(builtin.ladder, renamed.ladder, strict=True))
    assert [silent_values(renamed, b, registry) for _, b in pairs] == [
        silent_values(builtin, b, registry) for b, _ in pairs
    ]
    assert [Game.of(renamed).silent_values(b.id) for _, b in pairs] == [
        Game.of(builtin).silent_values(b.id) for b, _ in pairs
    ]
    assert any("silent_hundred" in silent_values(renamed, b, registry) for _, b in pairs)


def test_the_rulebook_reads_a_renamed_parti_as_the_parti(
    registry: Registry, tmp_path: Path
) -> None:
    builtin, renamed = both_partis(registry, tmp_path)
    for lang in ("en", "hu", "de"):
        assert render_text(build_rulebook(renamed, lang)) == render_text(
            build_rulebook(builtin, lang)
        )


def _section(book: Rulebook, key: str) -> str:
    (section,) = (s for s in book.sections if s.key == key)
    return " ".join(b.text for b in section.blocks if isinstance(b, Paragraph))


def _said(book: Rulebook) -> str:
    return " ".join(render_text(book).split())


def test_a_renamed_hundred_is_a_hundred(registry: Registry, tmp_path: Path) -> None:
    """Its silent bonus goes only beside a Parti, and the rulebook tells the 100 games'
    marriage rules for it, as for the built-in 100s."""
    _, with_hundreds = club_with(registry, tmp_path)
    builtin, renamed = with_hundreds("hundred"), with_hundreds("big_hundred")
    assert renamed.contracts["forty_hundred"].kind == "big_hundred"
    pairs = list(zip(builtin.ladder, renamed.ladder, strict=True))
    assert [silent_values(renamed, b, registry) for _, b in pairs] == [
        silent_values(builtin, b, registry) for b, _ in pairs
    ]
    old, new = build_rulebook(builtin, "en"), build_rulebook(renamed, "en")
    assert "In a 40-100 or 20-100" in _section(new, "marriages")
    said = "All the side's announced marriages count toward its 100."
    assert said in _said(new)
    for lang in ("en", "hu", "de"):  # the whole text: the kinds' names appear nowhere
        assert render_text(build_rulebook(renamed, lang)) == render_text(
            build_rulebook(builtin, lang)
        )
    beside = "It can be made in every trump bid that holds a Simple"
    assert beside in _said(new) and beside in _said(old)


def test_the_club_bot_plays_a_renamed_parti_and_hundred_as_the_built_in_ones(
    registry: Registry, tmp_path: Path
) -> None:
    """The bot's task of each component (how it bids and discards for it) comes from the
    kind's flags for a plugin's kind: the renamed Parti and 100 are no "unknown" task."""
    with_parti, with_hundreds = club_with(registry, tmp_path)
    for builtin, renamed, task in (
        (with_parti("parti"), with_parti("plain_game"), "parti"),
        (with_hundreds("hundred"), with_hundreds("big_hundred"), "hundred"),
    ):
        shapes = [bid_shapes(Game.of(ruleset)) for ruleset in (builtin, renamed)]
        tasks = [{bid: shape.tasks for bid, shape in found.items()} for found in shapes]
        assert tasks[1] == tasks[0]
        assert any(task in bid_tasks for bid_tasks in tasks[1].values())


@pytest.mark.parametrize("flag", ["is_parti", "is_hundred"])
def test_a_flag_that_is_not_true_or_false_is_refused(flag: str) -> None:
    """A kind saying ``is_parti = "yes"`` would be a Parti to some checks and not to
    others (a truthy string): the plugin's kind is refused at registration."""
    odd = type("OddGame", (PlainGame,), {flag: "yes"})

    class OddKinds:
        @hookimpl
        def register_contract_kinds(self, register: Callable[[type[ContractKind]], None]) -> None:
            register(odd)

    built = registry_with(OddKinds())
    (failure,) = built.failures
    assert failure.message == f"contract kind 'plain_game': {flag} must be True or False"
    assert "plain_game" not in built.kinds
