"""A loaded ruleset keeps the plugin registry it was validated against.

A ruleset is only valid with the kinds it was checked against: the game, the engine,
the settlement and the rulebook read it with that registry when none is given, and
refuse another one, instead of falling back to the process's registry.
"""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest
import yaml
from ulti_rules import Hand
from ulti_rules.game import Game
from ulti_rules.plugins import Registry, get_registry
from ulti_rules.rulebook.as_text import render_text
from ulti_rules.rulebook.build import build_rulebook
from ulti_rules.ruleset.loading import load_ruleset, registry_of
from ulti_rules.ruleset.schema import REGISTRY_KEY, Ruleset
from ulti_rules.scoring.sheet import read_sheet
from ulti_rules.scoring.table_facts import hand_from_sheet, sheet_from

from test_plugin_facts import CLUB, NAMES, KingRacePlugin, bid_and_play, registry_with


@pytest.fixture
def club(tmp_path: Path) -> tuple[Registry, Ruleset]:
    """A registry with the King Race kind (not the process's) and a club that plays it."""
    registry = registry_with(KingRacePlugin())
    (tmp_path / "club.yaml").write_text(CLUB, "utf-8")
    return registry, load_ruleset(tmp_path / "club.yaml", registry)


def test_a_loaded_ruleset_names_its_registry(club: tuple[Registry, Ruleset]) -> None:
    registry, ruleset = club
    assert "king_race" not in get_registry().kinds
    assert registry_of(ruleset) is registry
    assert Game.of(ruleset).registry is registry
    assert registry_of(load_ruleset("wikipedia")) is get_registry()


def test_a_hand_is_played_and_settled_without_naming_the_registry(
    club: tuple[Registry, Ruleset],
) -> None:
    registry, ruleset = club
    hand = bid_and_play(ruleset, "king_race", seed=3)
    assert hand.game.registry is registry
    assert hand.contract is not None and hand.facts is not None
    settled = hand.game.settle(hand.contract, hand.facts)
    assert [line.what for line in settled.lines][:2] == ["parti", "king_race"]
    assert sum(settled.payments.values()) == 0


def test_another_registry_for_a_loaded_ruleset_is_refused(
    club: tuple[Registry, Ruleset],
) -> None:
    _, ruleset = club
    with pytest.raises(ValueError, match="validated against another plugin registry"):
        Game.of(ruleset, get_registry())
    with pytest.raises(ValueError, match="load it with this one"):
        Hand(ruleset, seed=1, registry=get_registry())


def test_the_rulebook_reads_the_club_kind_without_the_registry(
    club: tuple[Registry, Ruleset],
) -> None:
    _, ruleset = club
    book = build_rulebook(ruleset, "en")
    assert "King Race" in render_text(book)


def test_a_changed_copy_gets_a_game_of_its_own() -> None:
    ruleset = load_ruleset("wikipedia")
    game = Game.of(ruleset)
    shorter = ruleset.model_copy(update={"ladder": ruleset.ladder[:5]})
    assert Game.of(shorter) is not game
    assert len(Game.of(shorter).catalog.ladder) == 5
    assert len(Game.of(ruleset).catalog.ladder) == len(ruleset.ladder)


def test_the_registry_is_kept_beside_the_fields(club: tuple[Registry, Ruleset]) -> None:
    registry, ruleset = club
    assert ruleset.__dict__[REGISTRY_KEY] is registry
    assert REGISTRY_KEY not in ruleset.model_dump()
    again = pickle.loads(pickle.dumps(ruleset))
    assert again == ruleset and REGISTRY_KEY not in again.__dict__
    deep = copy.deepcopy(ruleset)
    assert deep == ruleset and REGISTRY_KEY not in deep.__dict__


def test_a_sheet_of_the_club_is_settled_by_the_ruleset_s_registry(
    club: tuple[Registry, Ruleset], tmp_path: Path
) -> None:
    """As ``ulti ledger add`` reads a sheet: the session knows the ruleset, and its King
    Race facts are read by the registry that ruleset was validated against."""
    registry, ruleset = club
    hand = bid_and_play(ruleset, "king_race", seed=3)
    assert hand.contract is not None and hand.facts is not None
    doc = sheet_from(ruleset, hand.contract, hand.facts, ruleset_ref="club.yaml", players=NAMES)
    assert "first_king" in doc  # a fact only the club's registry declares
    path = tmp_path / "hand.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), "utf-8")
    sheet, where = read_sheet(path, registry)
    table = hand_from_sheet(sheet, where, tmp_path, ruleset=ruleset)
    assert table.settle().payments == hand.game.settle(hand.contract, hand.facts).payments
