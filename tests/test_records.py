"""Hand records: save and load in YAML and JSON, replay through the rules, tampering refused."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ulti_rules.bots import SimpleBidder, play_out
from ulti_rules.cards import format_card
from ulti_rules.engine import Action, Hand, Play
from ulti_rules.errors import IllegalAction
from ulti_rules.records import (
    HandRecord,
    RecordError,
    dumps,
    load_record,
    record_from_data,
    record_of,
    replay,
    save,
)
from ulti_rules.ruleset.loading import content_hash, load_ruleset
from ulti_rules.ruleset.schema import Ruleset

from conftest import BUNDLED_RULESETS
from engine_fixtures import fixture_ruleset
from engine_support import choose

RULESETS: dict[str, Ruleset] = {}

# Variants that end a hand without play, so records of those hands replay too.
VARIANTS: dict[str, dict[str, Any]] = {
    "give-up": {"simple.give_up_allowed": True},
    "opener-may-pass": {"auction.opener_must_bid": False},
}


def ruleset(name: str) -> Ruleset:
    if name not in RULESETS:
        RULESETS[name] = (
            fixture_ruleset(**VARIANTS[name]) if name in VARIANTS else load_ruleset(name)
        )
    return RULESETS[name]


def varied_hand(rules: Ruleset, seed: int) -> Hand:
    """A hand played to its end by a varied random policy (kontras, marriages, give-ups)."""
    rng = random.Random(seed)
    hand = Hand(rules, seed=seed, dealer=seed % rules.players.count)
    while not hand.is_over:
        hand.apply(choose(rng, hand.legal_actions()))
    return hand


def simple_hand(name: str = "wikipedia", seed: int = 11) -> Hand:
    rules = ruleset(name)
    return play_out(Hand(rules, seed=seed, dealer=seed % 3), SimpleBidder(), random.Random(seed))


def data_of(hand: Hand, name: str = "wikipedia") -> dict[str, Any]:
    return record_of(hand, name).to_data()


def refused(data: dict[str, Any], rules: Ruleset | None = None) -> str:
    record = record_from_data(data)
    with pytest.raises(RecordError) as caught:
        replay(record, rules)
    return str(caught.value)


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("suffix", [".yaml", ".yml", ".json"])
def test_save_and_load_round_trip(tmp_path: Path, suffix: str) -> None:
    hand = simple_hand()
    record = record_of(hand, "wikipedia", players=["Anna", "Ben", "Carla"])
    path = save(record, tmp_path / f"hand{suffix}")
    text = path.read_text("utf-8")
    loaded = load_record(path)
    assert loaded.to_data() == record.to_data()
    again = replay(loaded)
    assert again.history == hand.history
    assert again.facts == hand.facts and again.contract == hand.contract
    if suffix == ".json":
        assert json.loads(text)["format"] == "ulti-hand/1"
    else:
        # Readable: the deal and the tricks in card notation, one action a line.
        assert "- {seat: " in text
        assert f"cards: {' '.join(format_card(c) for c in hand.tricks[0][1])}" in text
        assert yaml.safe_load(text)["players"] == ["Anna", "Ben", "Carla"]


def test_the_record_names_the_ruleset_by_name_and_hash() -> None:
    record = record_of(simple_hand(), "wikipedia")
    assert record.ruleset == "wikipedia"
    assert record.ruleset_hash == content_hash(load_ruleset("wikipedia"))
    assert record.players == ["P1", "P2", "P3"]
    assert record.seed == 11 and record.dealer == 11 % 3


def test_only_a_finished_hand_is_recorded() -> None:
    hand = Hand(ruleset("wikipedia"), seed=1)
    with pytest.raises(RecordError, match="finished hand"):
        record_of(hand, "wikipedia")


def test_unknown_suffix_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"\.yaml, \.yml or \.json"):
        save(record_of(simple_hand(), "wikipedia"), tmp_path / "hand.txt")


@pytest.mark.parametrize("name", [*BUNDLED_RULESETS, *VARIANTS])
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), as_json=st.booleans())
def test_every_record_replays(tmp_path: Path, name: str, seed: int, as_json: bool) -> None:
    rules = ruleset(name)
    hand = varied_hand(rules, seed)
    record = record_of(hand, name)
    # hypothesis reuses tmp_path for every example: each one replaces the last
    path = save(record, tmp_path / ("hand.json" if as_json else "hand.yaml"), overwrite=True)
    loaded = load_record(path)
    again = replay(loaded, rules)
    assert again.history == hand.history
    assert again.deal == hand.deal
    assert again.contract == hand.contract
    assert again.facts == hand.facts
    assert loaded.to_data() == record.to_data()


def test_records_of_hands_not_played_out_replay() -> None:
    ends = set()
    for name in ("give-up", "opener-may-pass", "wikipedia"):
        rules = ruleset(name)
        for seed in range(60):
            hand = varied_hand(rules, seed)
            if hand.facts is not None:
                continue
            ends.add("passed out" if hand.contract is None else "gave up" if hand.gave_up else "-")
            data = json.loads(dumps(record_of(hand, name), ".json"))
            assert data["facts"] is None
            again = replay(record_from_data(data), rules)
            assert again.history == hand.history and again.contract == hand.contract
    assert {"passed out", "gave up"} <= ends


# --------------------------------------------------------------------------- tampering


def first_play_with_a_choice(hand: Hand) -> tuple[int, int, int]:
    """(index, card played, a card its seat held but could not play) of an early action."""
    probe = Hand(hand.ruleset, seed=hand.seed, dealer=hand.dealer)
    for index, (seat, action) in enumerate(hand.history):
        if isinstance(action, Play):
            held = set(probe.cards(seat)) - set(probe.legal_card_list())
            if held:
                return index, action.card, min(held)
        probe.apply(action)
    raise AssertionError("no play with an illegal card in hand")


def test_a_changed_card_is_refused_at_its_action() -> None:
    hand = simple_hand(seed=3)
    index, _, illegal = first_play_with_a_choice(hand)
    data = data_of(hand)
    data["actions"][index]["card"] = format_card(illegal)
    seat = data["actions"][index]["seat"]
    probe = Hand(hand.ruleset, seed=hand.seed, dealer=hand.dealer)
    for _, action in hand.history[:index]:
        probe.apply(action)
    with pytest.raises(IllegalAction) as rule:
        probe.apply(Play(illegal))
    message = refused(data)
    assert message == f"action {index} (play {format_card(illegal)} by seat {seat}): {rule.value}"


def test_a_card_not_held_is_refused() -> None:
    hand = simple_hand(seed=4)
    data = data_of(hand)
    index = next(i for i, a in enumerate(data["actions"]) if a["type"] == "play")
    seat = data["actions"][index]["seat"]
    other = next(c for s, h in enumerate(hand.deal.hands) if s != seat for c in h)
    data["actions"][index]["card"] = format_card(other)
    message = refused(data)
    assert message.startswith(f"action {index} (play {format_card(other)} by seat {seat}): ")
    assert "you do not hold" in message


def test_swapped_actions_are_refused_at_the_first_of_them() -> None:
    hand = simple_hand(seed=5)
    data = data_of(hand)
    plays = [i for i, a in enumerate(data["actions"]) if a["type"] == "play"]
    index = plays[4]
    actions = data["actions"]
    actions[index], actions[index + 1] = actions[index + 1], actions[index]
    message = refused(data)
    assert message.startswith(f"action {index} (")
    assert f"it is seat {actions[index + 1]['seat']}'s turn (play)" in message


def first_break(probe: Hand, hand: Hand) -> tuple[int, int, Action, str]:
    """Where ``hand``'s actions stop fitting ``probe`` (dealt otherwise): the index,
    seat and action, and why."""
    for index, (seat, action) in enumerate(hand.history):
        if probe.current_player != seat:
            return index, seat, action, f"it is seat {probe.current_player}'s turn ({probe.step})"
        reason = probe.why_refused(action)
        if reason is not None:
            return index, seat, action, reason
        probe.apply(action)
    raise AssertionError("the changed deal should break the hand")


def test_a_changed_deal_is_refused() -> None:
    hand = simple_hand(seed=6)
    data = data_of(hand)
    hands = [h.split() for h in data["deal"]["hands"]]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    data["deal"]["hands"] = [" ".join(h) for h in hands]
    assert refused(data) == "the deal is not the one seed 6 deals"
    # Without the seed the deal is taken as given: the replay stops at the first
    # action that the changed cards make illegal (or that is no longer that seat's turn).
    data["seed"] = None
    index, seat, action, reason = first_break(
        Hand(hand.ruleset, deal=(hands, []), dealer=hand.dealer), hand
    )
    assert refused(data) == f"action {index} ({action} by seat {seat}): {reason}"


def test_a_deal_that_is_not_a_deal_is_refused() -> None:
    data = data_of(simple_hand(seed=7))
    hands = data["deal"]["hands"]
    hands[0] = hands[0].replace(hands[0].split()[0], hands[1].split()[0])
    data["seed"] = None
    said = refused(data)  # it was "the deal: the deal must hold ..."
    assert said.startswith("the deal must hold each of the 32 cards exactly once; missing ")


def test_a_card_edited_in_the_deal_is_refused_at_its_hand_line(tmp_path: Path) -> None:
    """One hand's card made another's: refused at `deal:`, not at the line edited."""
    path = tmp_path / "hand.yaml"
    save(record_of(simple_hand(seed=7), "wikipedia"), path)
    lines = path.read_text("utf-8").split("\n")
    first, second = [i for i, line in enumerate(lines) if line.startswith("  - ")][:2]
    card = lines[first].split()[1]
    lines[second] = lines[second].replace(lines[second].split()[1], card, 1)
    path.write_text("\n".join(lines), "utf-8")
    with pytest.raises(RecordError) as caught:
        replay(load_record(path))
    (problem,) = caught.value.problems
    assert problem.line == second + 1
    assert problem.message.startswith("the deal must hold each of the 32 cards exactly once")


def test_an_edited_fact_is_refused_naming_it() -> None:
    hand = simple_hand(seed=8)
    data = data_of(hand)
    data["facts"]["declarer_points"] += 10
    true = hand.facts.declarer_points  # type: ignore[union-attr]
    assert refused(data) == (
        f"the record's facts.declarer_points is {true + 10}, but the replayed hand gives {true}"
    )
    data = data_of(hand)
    data["facts"]["tricks"][2]["winner"] = (data["facts"]["tricks"][2]["winner"] + 1) % 3
    assert "the record's facts.tricks.2.winner is" in refused(data)


def test_an_edited_contract_is_refused() -> None:
    data = data_of(simple_hand(seed=9))
    data["contract"]["multiplier"] = 2
    assert refused(data) == ("the record's contract.multiplier is 2, but the replayed hand gives 1")


def test_a_record_cut_short_or_run_long_is_refused() -> None:
    data = data_of(simple_hand(seed=10))
    short = {**data, "actions": data["actions"][:-1]}
    assert "before the hand is over" in refused(short)
    extra = {**data, "actions": [*data["actions"], data["actions"][-1]]}
    assert f"action {len(data['actions'])} (" in refused(extra)
    assert "the hand is over already" in refused(extra)


def test_positions_are_named_for_a_loaded_record(tmp_path: Path) -> None:
    hand = simple_hand(seed=3)
    index, _, illegal = first_play_with_a_choice(hand)
    data = data_of(hand)
    data["actions"][index]["card"] = format_card(illegal)
    path = save(record_from_data(data), tmp_path / "bad.yaml")
    line = (
        path.read_text("utf-8")
        .splitlines()
        .index(next(x for x in path.read_text("utf-8").splitlines() if x.startswith("actions:")))
    )
    with pytest.raises(RecordError) as caught:
        replay(load_record(path))
    assert str(caught.value).startswith(f"{path}:{line + 2 + index}:3: action {index} (")


# --------------------------------------------------------------------------- the ruleset's hash


def test_a_changed_ruleset_is_refused_unless_asked() -> None:
    hand = simple_hand(seed=12)
    record = record_from_data(data_of(hand))
    changed = load_ruleset("wikipedia").model_copy(update={"title": "Edited since"})
    with pytest.raises(RecordError) as caught:
        replay(record, changed)
    assert "its rules changed since" in str(caught.value)
    assert record.ruleset_hash in str(caught.value) and content_hash(changed) in str(caught.value)
    again = replay(record, changed, check_hash=False)
    assert again.history == hand.history


# --------------------------------------------------------------------------- malformed files


def write(tmp_path: Path, text: str, name: str = "hand.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def test_a_malformed_action_is_reported_with_its_line(tmp_path: Path) -> None:
    text = dumps(record_of(simple_hand(), "wikipedia"))
    text = text.replace("type: pass}", "type: passs}", 1)
    path = write(tmp_path, text)
    lines = text.splitlines()
    line = next(i for i, x in enumerate(lines, 1) if "passs" in x)
    with pytest.raises(RecordError) as caught:
        load_record(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}:3: actions.")
    assert "unknown action type 'passs'" in message


def test_not_a_record(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="not a hand record: 'format' must be 'ulti-hand/1'"):
        load_record(write(tmp_path, "declarer: Anna\nbid: parti\n"))
    with pytest.raises(RecordError, match="a record is a mapping"):
        load_record(write(tmp_path, "- 1\n- 2\n"))
    with pytest.raises(RecordError, match=r"hand.yaml:\d+:\d+: did not find"):
        load_record(write(tmp_path, "format: [unclosed\n"))
    # "must be 'ulti-hand/1', not text ('ulti-hand/2')": a record, of another version
    with pytest.raises(RecordError) as caught:
        load_record(write(tmp_path, "format: ulti-hand/2\n"))
    assert str(caught.value).endswith(
        "hand.yaml:1:1: format: a hand record of another version ('ulti-hand/2'): this "
        "ulti-rules reads 'ulti-hand/1'; a newer ulti-rules may read it"
    )
    with pytest.raises(RecordError, match=r"must be 'ulti-hand/1', not text \('ulti-ledger/1'\)"):
        load_record(write(tmp_path, "format: ulti-ledger/1\n"))


def test_unknown_and_missing_keys(tmp_path: Path) -> None:
    data = data_of(simple_hand())
    data["colour"] = "blue"
    del data["deal"]
    path = write(tmp_path, json.dumps(data), "hand.json")
    with pytest.raises(RecordError) as caught:
        load_record(path)
    message = str(caught.value)
    assert "hand.json: missing required key 'deal'" in message
    assert "colour: unknown key" in message


def test_the_record_model_refuses_bad_cards() -> None:
    data = data_of(simple_hand())
    data["deal"]["hands"][0] = "MA XX"
    with pytest.raises(RecordError, match="not a card: 'XX'"):
        record_from_data(data)
    assert isinstance(record_from_data(data_of(simple_hand())), HandRecord)


def test_a_given_deal_is_recorded_without_a_seed() -> None:
    seeded = Hand(ruleset("wikipedia"), seed=1)
    hands = [list(h) for h in seeded.deal.hands]
    hands[1][0], hands[2][0] = hands[2][0], hands[1][0]
    hand = Hand(ruleset("wikipedia"), deal=(hands, []))
    play_out(hand, SimpleBidder(), random.Random(1))
    record = record_of(hand, "wikipedia")
    assert record.seed is None
    assert replay(record).history == hand.history


def test_a_record_of_a_negative_seed_saved_before_it_dealt_its_own_cards_replays() -> None:
    """Seed -5 dealt what 5 deals until a negative seed had cards of its own: a record
    saved then names seed -5 with the cards of 5, and still replays; the cards of no
    other seed are refused."""
    hand = Hand(ruleset("wikipedia"), seed=5)
    play_out(hand, SimpleBidder(), random.Random(5))
    data = record_of(hand, "wikipedia").to_data()
    data["seed"] = -5
    assert replay(record_from_data(data)).history == hand.history
    data["seed"] = -6
    with pytest.raises(RecordError, match="the deal is not the one seed -6 deals"):
        replay(record_from_data(data))
    new = Hand(ruleset("wikipedia"), seed=-5)
    play_out(new, SimpleBidder(), random.Random(5))
    assert replay(record_of(new, "wikipedia")).history == new.history
