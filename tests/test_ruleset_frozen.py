"""A loaded ruleset is deeply immutable, and survives copy, deepcopy and pickle (issue 11,
item 8): nothing can change it in place behind the engine's cached tables."""

from __future__ import annotations

import copy
import gc
import itertools
import json
import pickle
import weakref

import pytest
import yaml
from ulti_rules.frozen import FrozenDict
from ulti_rules.game import Game
from ulti_rules.plugins import get_registry
from ulti_rules.recent import Recent
from ulti_rules.ruleset import schema
from ulti_rules.ruleset.loading import content_hash, load_ruleset


@pytest.mark.parametrize(
    "change",
    [
        lambda rs: rs.ladder.clear(),
        lambda rs: rs.ladder[0].components.append("ulti"),
        lambda rs: rs.kontra.levels.pop(),
        lambda rs: rs.deal.packets[0].__setitem__(0, 32),
        lambda rs: rs.contracts.__setitem__("x", rs.contracts["ulti"]),
        lambda rs: rs.contracts.pop("ulti"),
        lambda rs: rs.points.card_points.update(seven=50),
        lambda rs: rs.silent_bonuses.clear(),
        lambda rs: rs.ranks.trump_game.reverse(),
    ],
)
def test_nothing_in_a_loaded_ruleset_changes_in_place(change: object) -> None:
    ruleset = load_ruleset("wikipedia")
    before = content_hash(ruleset)
    with pytest.raises((TypeError, AttributeError)):
        change(ruleset)  # type: ignore[operator]
    assert content_hash(ruleset) == before


def test_cached_tables_stay_true_to_the_ruleset() -> None:
    """The issue's repro: ``rs.ladder.clear()`` left the engine's catalogue stale."""
    ruleset = load_ruleset("wikipedia")
    registry = get_registry()
    bids = len(Game.of(ruleset, registry).catalog.ladder)
    with pytest.raises(AttributeError):
        ruleset.ladder.clear()  # type: ignore[attr-defined]
    assert len(ruleset.ladder) == bids == len(Game.of(ruleset, registry).catalog.ladder)


def test_lists_and_mappings_still_dump_as_json_and_yaml() -> None:
    ruleset = load_ruleset("wikipedia")
    assert isinstance(ruleset.ladder, tuple) and isinstance(ruleset.contracts, FrozenDict)
    data = ruleset.model_dump(mode="json")
    assert data["ladder"][0]["components"] == list(ruleset.ladder[0].components)
    assert data["deal"]["packets"] == [[7, 5, 5], [5, 5, 5]]
    assert yaml.safe_load(yaml.safe_dump(data)) == json.loads(json.dumps(data))


@pytest.mark.parametrize("name", ["wikipedia", "four-player", "two-round-auction"])
@pytest.mark.parametrize("duplicate", [copy.copy, copy.deepcopy])
def test_copy_and_deepcopy(name: str, duplicate: object) -> None:
    ruleset = load_ruleset(name)
    twin = duplicate(ruleset)  # type: ignore[operator]
    assert type(twin) is type(ruleset)
    assert twin == ruleset
    assert content_hash(twin) == content_hash(ruleset)


@pytest.mark.parametrize("name", ["wikipedia", "tournament", "older-20-100", "four-player"])
def test_pickle_round_trip(name: str) -> None:
    ruleset = load_ruleset(name)
    again = pickle.loads(pickle.dumps(ruleset))
    assert type(again) is type(ruleset)
    assert again == ruleset
    assert content_hash(again) == content_hash(ruleset)
    with pytest.raises(AttributeError):
        again.ladder.clear()  # type: ignore[attr-defined]


def test_unpickling_rebuilds_the_model_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a fresh process: the dynamic class is rebuilt from the kinds' parameter models."""
    ruleset = load_ruleset("wikipedia")
    data = pickle.dumps(ruleset)
    monkeypatch.setattr(schema, "_MODEL_CACHE", Recent(schema.MODELS_KEPT))
    monkeypatch.setattr(schema, "_LIVE_MODELS", weakref.WeakValueDictionary())
    monkeypatch.setattr(schema, "_KINDS_OF", weakref.WeakKeyDictionary())
    again = pickle.loads(data)
    assert type(again) is not type(ruleset)
    assert type(again).model_fields.keys() == type(ruleset).model_fields.keys()
    assert again.model_dump() == ruleset.model_dump()
    assert content_hash(again) == content_hash(ruleset)


def test_the_model_classes_kept_are_bounded_and_each_is_forgotten_with_its_rulesets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A program that builds registries of ever new kinds keeps a bounded number of model
    classes, in the cache and in what asks about them (the hint for a setting written at
    the wrong level); one no longer kept is still its kinds' class while a ruleset of it
    lives, so such a ruleset still pickles and equals itself read back."""
    from ulti_rules.ruleset.positions import setting_places

    monkeypatch.setattr(schema, "_MODEL_CACHE", Recent(2))
    ruleset = load_ruleset("wikipedia")  # its class is not in the cache just made
    kinds = get_registry().param_models()
    names = sorted(kinds)
    subsets = [
        {name: kinds[name] for name in chosen}
        for size in range(1, len(names))
        for chosen in itertools.combinations(names, size)
    ][:40]
    assert len(subsets) > 2 + 32  # more than the cache and the index keep
    first = weakref.ref(schema.ruleset_model(subsets[0]))
    built = []
    for subset in subsets[1:]:
        model = schema.ruleset_model(subset)
        setting_places(model, "failure_penalty")
        built.append(weakref.ref(model))
    del model
    assert len(schema._MODEL_CACHE) == 2
    gc.collect()
    assert first() is None  # nothing holds the class the cache let go of
    assert sum(ref() is not None for ref in built) <= 2 + 32  # the cache, the hints' index
    again = pickle.loads(pickle.dumps(ruleset))
    assert type(again) is type(ruleset) and again == ruleset
    assert schema.ruleset_model(dict(schema._KINDS_OF[type(ruleset)])) is type(ruleset)


def test_threads_that_ask_for_the_same_new_kinds_at_once_share_one_class(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each of eight threads asks for the class of the same kinds, not built yet, at the
    same moment, and the build is slow: one class is built, and it is the one kept for
    the kinds (two built at once could leave the loser's, soon gone, as the kinds')."""
    import threading
    import time

    monkeypatch.setattr(schema, "_MODEL_CACHE", Recent(schema.MODELS_KEPT))
    monkeypatch.setattr(schema, "_LIVE_MODELS", weakref.WeakValueDictionary())
    real = schema._built_model
    builds: list[object] = []

    def slow(kinds: object) -> type:
        builds.append(kinds)
        time.sleep(0.05)  # every thread is past the first look by now
        return real(kinds)  # type: ignore[arg-type]

    monkeypatch.setattr(schema, "_built_model", slow)
    kinds = get_registry().param_models()
    subset = {name: kinds[name] for name in sorted(kinds)[:2]}
    start = threading.Barrier(8)
    got: list[type] = []

    def ask() -> None:
        start.wait()
        got.append(schema.ruleset_model(subset))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(got) == 8 and len(set(got)) == 1 and len(builds) == 1
    assert schema._LIVE_MODELS[tuple(sorted(subset.items()))] is got[0]
