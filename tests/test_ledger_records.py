"""`ulti ledger add` takes engine hand records: replayed, then settled like `ulti score`."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from ulti_rules.bots import SimpleBidder, play_out
from ulti_rules.engine import Hand
from ulti_rules.records import dumps, record_of, save
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring.table_facts import sheet_from

from cli_in_process import Ran, run_in

RunUlti = Callable[..., Ran]
PLAYERS = ["Anna", "Ben", "Carla"]


@pytest.fixture
def ulti(tmp_path: Path) -> RunUlti:
    """These tests are about the commands, not processes: run `ulti` in-process."""
    return run_in(tmp_path)


def played(seed: int, dealer: int) -> Hand:
    hand = Hand(load_ruleset("wikipedia"), seed=seed, dealer=dealer)
    return play_out(hand, SimpleBidder(), random.Random(seed))


def test_an_engine_record_settles_like_the_score_keeper(tmp_path: Path, ulti: RunUlti) -> None:
    done = ulti("ledger", "new", "s.json", "--ruleset", "wikipedia", "--players", "Anna,Ben,Carla")
    assert done.returncode == 0, done.stderr
    for number, seed in enumerate((31, 32), start=1):
        dealer = number - 1  # the deal passes down the list of players
        hand = played(seed, dealer)
        assert hand.contract is not None
        save(record_of(hand, "wikipedia", players=PLAYERS), tmp_path / f"hand{number}.yaml")
        added = ulti("ledger", "add", "s.json", f"hand{number}.yaml", "--json")
        assert added.returncode == 0, added.stderr
        ledger_result = json.loads(added.stdout)
        assert ledger_result["hand"] == number
        sheet = sheet_from(
            hand.ruleset, hand.contract, hand.facts, players=PLAYERS, dealer=hand.dealer
        )
        (tmp_path / f"sheet{number}.yaml").write_text(yaml.safe_dump(sheet), "utf-8")
        scored = ulti("score", f"sheet{number}.yaml", "--json")
        assert scored.returncode == 0, scored.stderr
        score_result = json.loads(scored.stdout)
        assert ledger_result["payments"] == score_result["payments"]
        assert ledger_result["settlement"] == score_result["settlement"]
    shown = json.loads(ulti("ledger", "show", "s.json", "--json").stdout)
    assert [h["source"] for h in shown["hands"]] == ["hand1.yaml", "hand2.yaml"]


def test_a_record_out_of_turn_or_tampered_leaves_the_ledger(tmp_path: Path, ulti: RunUlti) -> None:
    assert (
        ulti("ledger", "new", "s.json", "--ruleset", "wikipedia", "--players", "A,B,C").returncode
        == 0
    )
    before = (tmp_path / "s.json").read_text("utf-8")
    # Dealt by seat 1, but the session's first hand is dealt by A (seat 0).
    save(record_of(played(33, dealer=1), "wikipedia"), tmp_path / "late.yaml")
    done = ulti("ledger", "add", "s.json", "late.yaml")
    assert done.returncode == 1
    assert "the deal passes to the right: A deals hand 1, not B" in done.stderr
    text = dumps(record_of(played(34, dealer=0), "wikipedia"))
    text = text.replace("declarer_points: ", "declarer_points: 1", 1)
    (tmp_path / "edited.yaml").write_text(text, "utf-8")
    done = ulti("ledger", "add", "s.json", "edited.yaml")
    assert done.returncode == 1
    assert "the record's facts.declarer_points is 1" in done.stderr
    assert (tmp_path / "s.json").read_text("utf-8") == before
