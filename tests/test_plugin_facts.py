"""Facts a contract kind declares: computed by the engine, typed into a score sheet,
kept in records, and asked for by name when missing.

Four Aces' ``ace_winners`` is such a fact now, no core field; a test kind here declares
one fact of each other form (one player, a count, yes/no), so that every form goes the
whole way: engine, sheet, settlement, and the sheet the engine's hand writes.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
import yaml
from ulti_rules import (
    COUNT,
    FLAG,
    PLAYER,
    PLAYERS,
    Bid,
    ContractKind,
    ContractSpec,
    Discard,
    Facts,
    FactSpec,
    Hand,
    Pass,
    Play,
    Rank,
    Ruleset,
    hookimpl,
    plugins,
    rank_of,
    settle,
)
from ulti_rules.bots import RandomBot, play_out
from ulti_rules.contracts.fact_specs import CORE_SHEET_KEYS
from ulti_rules.errors import PluginError
from ulti_rules.plugins import Registry, build_registry, new_manager
from ulti_rules.records import (
    RecordError,
    dumps,
    load_record,
    record_from_data,
    record_of,
    replay,
)
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring.sheet import Sheet, SheetError, read_sheet
from ulti_rules.scoring.table_facts import hand_from_sheet, settle_sheet, sheet_from

import ulti_four_aces
from cli_in_process import run_in
from settlement_support import ULTI_SHEET
from ulti_four_aces.kind import ACE_WINNERS

RECORDS = Path(__file__).parent / "fixtures" / "records"
NAMES = ["Anna", "Ben", "Carla"]


# --------------------------------------------------------------------------- a test kind


def _king_tricks(facts: Facts) -> list[tuple[int, int]]:
    """(trick number, winner) of every trick that held a king."""
    return [
        (number, trick.winner)
        for number, trick in enumerate(facts.tricks or ())
        if any(rank_of(card) == Rank.KING for card in trick.cards)
    ]


def _first_king(facts: Facts) -> int | None:
    found = _king_tricks(facts)
    return found[0][1] if found else None


FIRST_KING = FactSpec(
    name="first_king_winner",
    form=PLAYER,
    description="who won the first trick that held a king",
    sheet_key="first_king",
    compute=_first_king,
)
KING_TRICKS = FactSpec(
    name="king_tricks",
    form=COUNT,
    description="how many tricks held a king",
    sheet_key="king_tricks",
    compute=lambda facts: len(_king_tricks(facts)),
    check=lambda n, facts, name: ["there are four kings"] if n > 4 else [],
)
KING_LAST = FactSpec(
    name="king_in_last_trick",
    form=FLAG,
    description="whether the last trick held a king",
    sheet_key="king_last",
    compute=lambda facts: any(number == 9 for number, _ in _king_tricks(facts)),
)


class KingRaceSpec(ContractSpec):
    kind: Literal["king_race"] = "king_race"


class KingRace(ContractKind):
    """King Race: the declarer wins the first trick that holds a king (test kind)."""

    name = "king_race"
    params = KingRaceSpec
    facts = (FIRST_KING, KING_TRICKS, KING_LAST)

    def judge(self, spec: ContractSpec, facts: Facts, ruleset: Ruleset) -> bool:
        # All three facts are read, so that a sheet missing any is asked for it.
        return (
            FIRST_KING.of(facts) == facts.declarer
            and KING_TRICKS.of(facts) >= 0
            and KING_LAST.of(facts) in (True, False)
        )


class KingRacePlugin:
    @hookimpl
    def register_contract_kinds(self, register: Callable[[type[ContractKind]], None]) -> None:
        register(KingRace)


CLUB = """\
name: race-club
title: "Wikipedia with a King Race"
extends: wikipedia
contracts:
  king_race: {kind: king_race, names: {hu: királyverseny, en: King Race}, value: 4}
ladder:
  king_race: {rank: 4, components: [parti, king_race], names: {hu: királyverseny, en: King Race}}
"""


def registry_with(*extra: object) -> Registry:
    pm = new_manager(autoload=False)
    pm.register(ulti_four_aces, name="four_aces")
    for i, plugin in enumerate(extra):
        pm.register(plugin, name=f"test_plugin_{i}")
    return build_registry(pm)


@pytest.fixture
def race(tmp_path: Path) -> Iterator[tuple[Registry, Ruleset]]:
    """The King Race plugin installed for the whole process, and the club that plays it."""
    pm = new_manager(autoload=False)
    pm.register(ulti_four_aces, name="four_aces")
    pm.register(KingRacePlugin(), name="king_race")
    plugins.reset(pm)
    (tmp_path / "club.yaml").write_text(CLUB, "utf-8")
    registry = plugins.get_registry()
    yield registry, load_ruleset(tmp_path / "club.yaml", registry)
    plugins.reset()


def bid_and_play(ruleset: Ruleset, bid: str, seed: int, registry: Registry | None = None) -> Hand:
    """Forehand (seat 0) bids ``bid``; nobody bids more, calls kontra or announces; each
    plays the first card allowed."""
    hand = Hand(ruleset, seed=seed, dealer=2, registry=registry)
    hand.apply(Discard(hand.cards(0)[:2]))
    hand.apply(Bid(bid))
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.apply(next((a for a in legal if isinstance(a, Pass | Play)), legal[0]))
    return hand


def sheet_of(hand: Hand, folder: Path, ruleset_ref: str, registry: Registry | None = None) -> Path:
    assert hand.contract is not None
    doc = sheet_from(
        hand.ruleset,
        hand.contract,
        hand.facts,
        ruleset_ref=ruleset_ref,
        players=NAMES,
        registry=registry,
    )
    path = folder / "hand.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), "utf-8")
    return path


def sheet_problems(path: Path, registry: Registry | None = None) -> list[str]:
    with pytest.raises(SheetError) as caught:
        settle_sheet(path, registry)
    return [str(p) for p in caught.value.problems]


# --------------------------------------------------------------------------- Four Aces


def test_who_took_the_aces_is_the_plugins_fact_not_a_core_one() -> None:
    assert "ace_winners" not in Facts.model_fields
    registry = registry_with()
    assert registry.facts["ace_winners"] is ACE_WINNERS
    assert registry.fact_owner("ace_winners") == "four_aces"
    wikipedia = load_ruleset("wikipedia", registry)
    assert [f.name for f in registry.facts_for(wikipedia)] == ["ace_winners"]
    assert registry.facts_for(load_ruleset("older-20-100", registry)) == ()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_engine_computes_the_ace_fact_only_where_a_kind_judges_by_it(seed: int) -> None:
    for name, declared in (("wikipedia", True), ("older-20-100", False)):
        ruleset = load_ruleset(name)
        hand = Hand(ruleset, seed=seed)
        play_out(hand, [RandomBot()] * 3, random.Random(seed))
        if hand.facts is None:
            continue
        tricks = hand.facts.tricks or ()
        aces = tuple(t.winner for t in tricks for c in t.cards if rank_of(c) == Rank.ACE)
        if declared:
            assert hand.facts.extra == {"ace_winners": aces}
        else:
            assert hand.facts.extra == {}


@pytest.mark.parametrize("seed", [4, 91, 98])
def test_four_aces_settles_alike_from_the_engine_and_from_the_sheet(
    seed: int, tmp_path: Path
) -> None:
    ruleset = load_ruleset("wikipedia")
    hand = bid_and_play(ruleset, "four_aces", seed)
    assert hand.contract is not None and hand.facts is not None
    engine = settle(ruleset, hand.contract, hand.facts)
    doc = yaml.safe_load(sheet_of(hand, tmp_path, "wikipedia").read_text("utf-8"))
    winners = hand.facts.extra["ace_winners"]
    assert doc["aces"] == [NAMES[s] for s in dict.fromkeys(winners)]
    _, typed = settle_sheet(tmp_path / "hand.yaml")
    assert typed.payments == engine.payments
    assert typed.line("four_aces").made == (set(winners) <= {0})


def test_a_missing_ace_fact_names_its_sheet_key(tmp_path: Path) -> None:
    path = tmp_path / "hand.yaml"
    path.write_text(ULTI_SHEET.replace("aces: [Anna, Ben]\n", ""), "utf-8")
    (found,) = sheet_problems(path)
    assert found.startswith(f"{path}: the bid allows the silent bonus 'Silent Four Aces'")
    assert found.endswith(
        "; add 'aces:' to the document (who won the tricks that held an ace, written like "
        "aces: [Anna, Ben]; see docs/score-keeper.md)"
    )
    # a Hungarian table read the middle of it in English (found by an acceptance run)
    done = run_in(tmp_path)("score", "hand.yaml", "--lang", "hu")
    assert done.stderr == (
        "ulti: error: hand.yaml: a bemondásban jár a(z) 'csendes négy ász' csendes bemondás, "
        "de az elbírálása nem sikerült: nincs megadva, ki vitte el az ászt tartalmazó "
        "ütéseket; írd be a dokumentumba: 'aces:' (ki vitte el az ászt tartalmazó ütéseket, "
        "így írva: aces: [Anna, Ben]; lásd docs/score-keeper.md)\n"
    )


def test_ledger_add_names_the_missing_key_too(tmp_path: Path) -> None:
    run = run_in(tmp_path)
    made = run("ledger", "new", "s.json", "--ruleset", "wikipedia", "--players", "Anna,Ben,Carla")
    assert made.returncode == 0, made.stderr
    (tmp_path / "hand.yaml").write_text(ULTI_SHEET.replace("aces: [Anna, Ben]\n", ""), "utf-8")
    added = run("ledger", "add", "s.json", "hand.yaml")
    assert added.returncode == 1
    assert "add 'aces:' to the document" in added.stderr
    (tmp_path / "hand.yaml").write_text(ULTI_SHEET, "utf-8")
    added = run("ledger", "add", "s.json", "hand.yaml", "--json")
    assert added.returncode == 0, added.stderr
    kept = json.loads((tmp_path / "s.json").read_text("utf-8"))["hands"][0]["sheet"]
    assert kept["aces"] == ["Anna", "Ben"]  # kept as the table wrote it


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("ace: [Anna, Ben]", "9:1: ace: unknown key 'ace' (did you mean 'aces'?)"),
        ("aces: Anna", "9:1: aces: write it like aces: [Anna, Ben] (not 'Anna')"),
        (
            "aces: [Anna, Bem]",
            "9:14: aces.1: 'Bem' is not a player (Anna, Ben, Carla) (did you mean 'Ben'?)",
        ),
        ("aces: [Anna, Anna, Ben, Anna, Ben]", "9:1: aces: there are four aces"),
        ("aces: [Anna, Carla]\ntricks: {Anna: 8, Ben: 2}", "aces: Carla took an ace but"),
        (  # Four Aces was paid as made: nobody took an ace, so none the defenders
            "aces: []",
            "9:1: aces: nobody took an ace, but only 2 cards lie in the talon: at least 2 "
            "aces were in the tricks; say who won them",
        ),
    ],
)
def test_the_ace_fact_in_a_sheet_is_checked_where_it_is_written(
    tmp_path: Path, line: str, message: str
) -> None:
    text = ULTI_SHEET.replace("aces: [Anna, Ben]", line)
    if "tricks: {Anna: 8" in line:
        text = text.replace("tricks: {Anna: 6, Ben: 2, Carla: 2}\n", "")
    path = tmp_path / "hand.yaml"
    path.write_text(text, "utf-8")
    assert any(message in p for p in sheet_problems(path)), sheet_problems(path)


@pytest.mark.parametrize("name", ["wikipedia", "four-player"])
def test_the_ace_check_never_refuses_a_hand_the_engine_played(name: str) -> None:
    """What the engine computes is what a table writes: the sheet's check holds for it."""
    ruleset = load_ruleset(name)
    checked = 0
    for seed in range(120):
        hand = Hand(ruleset, seed=seed, dealer=seed % ruleset.players.count)
        play_out(hand, [RandomBot()] * ruleset.players.count, random.Random(seed))
        facts = hand.facts
        if facts is None or "ace_winners" not in facts.extra:
            continue
        winners = tuple(dict.fromkeys(facts.extra["ace_winners"]))  # each name once
        assert ACE_WINNERS.check is not None
        assert list(ACE_WINNERS.check(winners, facts, str)) == []
        checked += 1
    assert checked > 60


def test_a_seat_that_sat_out_took_no_ace(tmp_path: Path) -> None:
    text = (
        ULTI_SHEET.replace("ruleset: wikipedia", "ruleset: four-player")
        .replace("players: [Anna, Ben, Carla]", "players: [Anna, Ben, Carla, Dani]")
        .replace("aces: [Anna, Ben]", "aces: [Anna, Dani]\ndealer: Dani")
    )
    path = tmp_path / "hand.yaml"
    path.write_text(text, "utf-8")
    assert any("aces: Dani did not play this hand" in p for p in sheet_problems(path))


def test_the_sheets_own_keys_and_the_reserved_ones_agree() -> None:
    """A declared fact cannot take a key the sheet has (fact_specs keeps the list)."""
    assert set(Sheet.model_fields) == CORE_SHEET_KEYS


# --------------------------------------------------------------------------- records


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDS.glob("*.yaml")))
def test_old_records_keep_ace_winners_beside_the_core_facts(name: str) -> None:
    path = RECORDS / name
    stated = yaml.safe_load(path.read_text("utf-8"))["facts"]["ace_winners"]
    record = load_record(path)
    assert record.facts is not None and record.facts.extra == {"ace_winners": tuple(stated)}
    again = yaml.safe_load(dumps(record))["facts"]
    assert list(again)[-1] == "ace_winners" and again["ace_winners"] == stated
    assert replay(record).facts == record.facts


def test_an_old_record_without_four_aces_in_its_rules_still_replays() -> None:
    """Before declared facts every record stated who took the aces, whatever its rules."""
    ruleset = load_ruleset("older-20-100")
    for seed in range(20):
        hand = Hand(ruleset, seed=seed)
        play_out(hand, [RandomBot()] * 3, random.Random(seed))
        if hand.facts is not None:
            break
    assert hand.facts is not None and hand.facts.extra == {}
    data = record_of(hand, "older-20-100").to_data()
    data["facts"]["ace_winners"] = [0, 1, 2, 0]
    old = record_from_data(data)
    assert old.facts is not None and old.facts.extra == {"ace_winners": (0, 1, 2, 0)}
    assert replay(old).facts == hand.facts


def test_a_record_that_drops_or_changes_a_declared_fact_is_refused() -> None:
    data = load_record(RECORDS / "old-betli-both-rekontra.yaml").to_data()
    changed = json.loads(json.dumps(data))
    changed["facts"]["ace_winners"] = [0, 0, 0, 0]
    with pytest.raises(RecordError, match=r"the record's facts\.ace_winners\.\d is 0, but the"):
        replay(record_from_data(changed))
    del data["facts"]["ace_winners"]
    with pytest.raises(RecordError, match=r"facts\.ace_winners is null, but the replayed"):
        replay(record_from_data(data))


def test_replay_prints_the_declared_facts(tmp_path: Path) -> None:
    done = run_in(RECORDS)("replay", "old-betli-both-rekontra.yaml")
    assert done.returncode == 0, done.stderr
    stated = yaml.safe_load((RECORDS / "old-betli-both-rekontra.yaml").read_text("utf-8"))
    winners = ", ".join(f"P{s + 1}" for s in stated["facts"]["ace_winners"])
    assert f"  Who won the tricks that held an ace: {winners}\n" in done.stdout


# --------------------------------------------------------------------------- every form


@pytest.mark.parametrize("seed", [1, 5, 91])
def test_each_form_goes_from_the_engine_through_the_sheet(
    seed: int, race: tuple[Registry, Ruleset], tmp_path: Path
) -> None:
    registry, ruleset = race
    assert {f.name for f in registry.facts_for(ruleset)} == {
        "ace_winners",
        "first_king_winner",
        "king_tricks",
        "king_in_last_trick",
    }
    hand = bid_and_play(ruleset, "king_race", seed, registry)
    assert hand.contract is not None and hand.facts is not None
    extra = hand.facts.extra
    kings = _king_tricks(hand.facts)
    assert extra["first_king_winner"] == (kings[0][1] if kings else None)
    assert extra["king_tricks"] == len(kings)
    assert extra["king_in_last_trick"] is any(n == 9 for n, _ in kings)
    engine = settle(ruleset, hand.contract, hand.facts, registry)
    path = sheet_of(hand, tmp_path, "club.yaml", registry)
    doc = yaml.safe_load(path.read_text("utf-8"))
    first = extra["first_king_winner"]
    assert doc["first_king"] == (None if first is None else NAMES[first])
    assert (doc["king_tricks"], doc["king_last"]) == (len(kings), extra["king_in_last_trick"])
    table, typed = settle_sheet(path)
    assert table.facts is not None
    typed_in = dict(table.facts.extra)  # the sheet names each ace taker once
    assert set(typed_in.pop("ace_winners")) == set(extra["ace_winners"])
    assert typed_in == {k: v for k, v in extra.items() if k != "ace_winners"}
    assert typed.payments == engine.payments
    done = run_in(tmp_path)("score", "hand.yaml", "--json")
    assert json.loads(done.stdout)["payments"] == {NAMES[s]: v for s, v in engine.payments.items()}


RACE_SHEET = """\
ruleset: club.yaml
players: [Anna, Ben, Carla]
declarer: Anna
bid: king_race
trump: acorns
points: {declarer: 60, defenders: 30}
tricks: {Anna: 6, Ben: 2, Carla: 2}
last_trick: {winner: Anna}
aces: [Anna, Ben]
first_king: Anna
king_tricks: 3
king_last: false
"""


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("first_king: Anna", "first_king: [Anna]", "first_king: write it like first_king: Anna"),
        ("first_king: Anna", "first_king: Dora", "first_king: 'Dora' is not a player"),
        ("king_tricks: 3", "king_tricks: three", "king_tricks: should be a whole number"),
        ("king_tricks: 3", "king_tricks: 5", "king_tricks: there are four kings"),
        ("king_tricks: 3", "king_tricks: -1", "king_tricks: should be at least 0, not -1"),
        ("king_last: false", "king_last: 1", "king_last: "),
        ("king_last: false", "kings_last: false", "(did you mean 'king_last'?)"),
        ("first_king: Anna\n", "", "add 'first_king:' to the document (who won the first"),
        ("king_tricks: 3\n", "", "add 'king_tricks:' to the document"),
        ("king_last: false\n", "", "add 'king_last:' to the document"),
    ],
)
def test_each_form_is_checked_in_a_sheet(
    race: tuple[Registry, Ruleset], tmp_path: Path, old: str, new: str, message: str
) -> None:
    (tmp_path / "good.yaml").write_text(RACE_SHEET, "utf-8")
    _, made = settle_sheet(tmp_path / "good.yaml")
    assert made.line("king_race").made
    assert old in RACE_SHEET
    path = tmp_path / "hand.yaml"
    path.write_text(RACE_SHEET.replace(old, new), "utf-8")
    assert any(message in p for p in sheet_problems(path)), sheet_problems(path)


def test_first_king_null_says_nobody(race: tuple[Registry, Ruleset], tmp_path: Path) -> None:
    path = tmp_path / "hand.yaml"
    path.write_text(RACE_SHEET.replace("first_king: Anna", "first_king: null"), "utf-8")
    table, settlement = settle_sheet(path)
    assert table.facts is not None and table.facts.extra["first_king_winner"] is None
    assert not settlement.line("king_race").made


# --------------------------------------------------------------------------- plugin faults


def _kind_with(*facts: FactSpec[Any], name: str = "faulty", raw: Any = None) -> object:
    """A plugin with one kind ``name`` declaring ``facts`` (or ``raw`` as its facts)."""
    spec_cls = type(
        f"{name}Spec",
        (ContractSpec,),
        {"__annotations__": {"kind": Literal[name]}, "kind": name},  # type: ignore[valid-type]
    )
    kind_cls = type(
        f"{name}Kind",
        (ContractKind,),
        {
            "name": name,
            "params": spec_cls,
            "facts": facts if raw is None else raw,
            "judge": lambda *a: True,
        },
    )

    class Plugin:
        @hookimpl
        def register_contract_kinds(self, register: Callable[[type[Any]], None]) -> None:
            register(kind_cls)

    return Plugin()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "Aces"}, "name must be lower-case letters"),
        ({"name": "tricks"}, "the core facts already have that name"),
        ({"sheet_key": "points"}, "the score sheet already has the key 'points'"),
        ({"sheet_key": "two words"}, "sheet_key must be lower-case letters"),
        ({"form": "players"}, "form must be one of ulti_rules' forms"),
        ({"description": " "}, "needs a description"),
        ({"compute": 3}, "compute (and check) must be functions"),
    ],
)
def test_a_bad_fact_declaration_fails_when_the_plugin_is_imported(
    fields: dict[str, Any], message: str
) -> None:
    given: dict[str, Any] = {
        "name": "kings",
        "form": PLAYERS,
        "description": "who won the kings",
        "sheet_key": "kings",
        "compute": lambda facts: (),
    }
    with pytest.raises(ValueError, match=re.escape(message)):
        FactSpec(**(given | fields))


def test_two_plugins_declaring_one_fact_differently_keep_the_first() -> None:
    other = FactSpec(
        name="ace_winners",
        form=PLAYERS,
        description="something else",
        sheet_key="aces2",
        compute=lambda facts: (),
    )
    registry = registry_with(_kind_with(other))
    (failure,) = registry.failures
    assert failure.plugin == "test_plugin_0"
    assert "declares the fact 'ace_winners', which another kind declares otherwise" in (
        failure.message
    )
    assert "faulty" not in registry.kinds and "four_aces" in registry.kinds
    same_key = FactSpec(
        name="aces_again",
        form=PLAYERS,
        description="who won the tricks that held an ace",
        sheet_key="aces",
        compute=lambda facts: (),
    )
    assert "score-sheet key 'aces'" in registry_with(_kind_with(same_key)).failures[0].message
    shared = registry_with(_kind_with(ACE_WINNERS))
    assert shared.failures == [] and "faulty" in shared.kinds


def test_facts_that_are_not_a_tuple_of_fact_specs_are_refused() -> None:
    (failure,) = registry_with(_kind_with(raw=[FIRST_KING])).failures
    assert failure.message == "contract kind 'faulty': facts must be a tuple of FactSpec"


@pytest.mark.parametrize(
    ("compute", "message"),
    [
        (lambda facts: 1 / 0, "fact 'odd' of plugin 'test_plugin_0' failed in compute: "),
        (lambda facts: "Anna", "fact 'odd' of plugin 'test_plugin_0' computed 'Anna', not a list"),
        (lambda facts: (7,), "names seat 7, which did not play the hand"),
    ],
)
def test_a_failing_compute_names_the_fact_and_its_plugin(
    compute: Callable[[Facts], Any], message: str, tmp_path: Path
) -> None:
    odd = FactSpec(name="odd", form=PLAYERS, description="odd", sheet_key="odd", compute=compute)
    registry = registry_with(_kind_with(odd))
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: t\nextends: wikipedia\ncontracts:\n"
        "  faulty: {kind: faulty, names: {hu: f, en: f}, value: 4}\n",
        "utf-8",
    )
    ruleset = load_ruleset(tmp_path / "club.yaml", registry)
    hand = bid_and_play(ruleset, "four_aces", 1, registry)
    with pytest.raises(PluginError, match=re.escape(message)):
        _ = hand.facts


# --------------------------------------------------------------- which facts a sheet takes


OLDER_SHEET = ULTI_SHEET.replace("ruleset: wikipedia", "ruleset: older-20-100")


def test_a_sheet_takes_every_installed_kinds_facts_and_ignores_unused_ones(
    tmp_path: Path,
) -> None:
    """older-20-100 plays no Four Aces; its sheet may still say who took the aces."""
    path = tmp_path / "hand.yaml"
    path.write_text(OLDER_SHEET, "utf-8")
    table, settled = settle_sheet(path)
    assert table.facts is not None and table.facts.extra == {"ace_winners": (0, 1)}
    path.write_text(OLDER_SHEET.replace("aces: [Anna, Ben]\n", ""), "utf-8")
    assert settle_sheet(path)[1].payments == settled.payments


def test_a_fact_no_kind_of_the_settling_registry_declares_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "hand.yaml"
    path.write_text(OLDER_SHEET, "utf-8")
    sheet, where = read_sheet(path)  # read with Four Aces installed
    bare = build_registry(new_manager(autoload=False))  # settled without it
    with pytest.raises(SheetError) as caught:
        hand_from_sheet(sheet, where, tmp_path, bare)
    (found,) = [str(p) for p in caught.value.problems]
    assert found == f"{path}:9:1: aces: unknown key 'aces': no installed contract kind declares it"
