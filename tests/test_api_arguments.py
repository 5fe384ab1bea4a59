"""Arguments that used to be taken and then silently misread (found by an acceptance
review): a seed given with a deal, and a record naming a ruleset its hand was not
played under."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from ulti_rules import load_game
from ulti_rules.bots import SimpleBidder, play_out
from ulti_rules.engine import BadDeal, Hand
from ulti_rules.records import RecordError, load_record, record_of, replay, save
from ulti_rules.ruleset.finding import resolve
from ulti_rules.ruleset.loading import load_ruleset


def played(rules_name: str = "wikipedia", seed: int = 3) -> Hand:
    hand = load_game(rules_name).new_hand(seed=seed)
    return play_out(hand, SimpleBidder(), random.Random(seed))


# --------------------------------------------------------------------------- seed and deal


def test_a_seed_with_a_deal_is_refused() -> None:
    """The seed would not have shuffled the deal, yet ``hand.seed`` said it had."""
    game = load_game("wikipedia")
    deal = game.new_hand(seed=2).deal
    with pytest.raises(BadDeal, match="a seed or given a deal, not both"):
        game.new_hand(seed=1, deal=deal)
    with pytest.raises(BadDeal, match="not both"):
        Hand(game.ruleset, seed=2, deal=deal)  # even the seed that dealt it
    given = game.new_hand(deal=deal)
    assert given.seed is None and given.deal == deal
    assert game.new_hand(seed=0).seed == 0  # a falsy seed is a seed


def test_a_replayed_hand_has_the_seed_that_dealt_it() -> None:
    hand = played()
    again = replay(record_of(hand, "wikipedia"))
    assert again.seed == hand.seed == 3 and again.deal == hand.deal
    assert again.history == hand.history


# --------------------------------------------------------------------------- record_of's ruleset


def test_a_record_naming_other_rules_is_refused_naming_the_hands() -> None:
    hand = played("wikipedia")
    with pytest.raises(RecordError) as caught:
        record_of(hand, "tournament")
    assert str(caught.value) == (
        "the hand was played under 'wikipedia', and 'tournament' finds other rules: "
        "name the ruleset the hand was played under"
    )
    other = resolve("tournament").path
    with pytest.raises(RecordError, match="played under 'wikipedia', and '/"):
        record_of(hand, str(other))  # an absolute path to another file


def test_rules_changed_in_memory_are_not_recorded_under_the_files_name() -> None:
    rules = load_ruleset("wikipedia")
    ulti = rules.contracts["ulti"].model_copy(update={"value": 9})
    changed = rules.model_copy(update={"contracts": {**rules.contracts, "ulti": ulti}})
    hand = play_out(Hand(changed, seed=3), SimpleBidder(), random.Random(3))
    with pytest.raises(RecordError, match="played under 'wikipedia', and 'wikipedia' finds"):
        record_of(hand, "wikipedia")


def test_a_reference_to_the_same_rules_is_recorded(tmp_path: Path) -> None:
    hand = played("wikipedia")
    bundled = resolve("wikipedia").path
    copy = tmp_path / "wikipedia.yaml"
    shutil.copyfile(bundled, copy)
    for ref in ("wikipedia", str(bundled), str(copy)):
        record = record_of(hand, ref)
        assert record.ruleset == ref
    # a relative path is read from the folder the record is saved in: left to replay
    path = save(record_of(hand, "wikipedia.yaml"), tmp_path / "hand.yaml")
    assert replay(load_record(path)).history == hand.history
    # a name no ruleset has: replay says so, or is given the ruleset
    assert replay(record_of(hand, "our-club"), hand.ruleset).history == hand.history
