"""When everybody passes, forehand pays each other player (``auction.all_pass:
forehand_pays`` with ``auction.all_pass_payment``; issue 7, item 6).

The hand has no contract: the engine ends it passed out, `ulti ledger add --passed-out`
and the engine's record of it enter the session with forehand's payment, and the deal
passes on. `ulti score` settles contracts only; a sheet has no passed-out form.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ulti_rules.engine import Hand, Pass
from ulti_rules.errors import RulesetError
from ulti_rules.records import record_of, save
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring.all_pass import all_pass_payments, redealt
from ulti_rules.scoring.ledger import add_passed_out, new_ledger

from cli_in_process import run_in

PLAYERS = ["Anna", "Ben", "Carla"]


def club(tmp_path: Path, auction: str, extends: str = "wikipedia", more: str = "") -> str:
    (tmp_path / "club.yaml").write_text(
        f"name: club\ntitle: Club\nextends: {extends}\n"
        f"auction: {{opener_must_bid: false, {auction}}}\n{more}",
        encoding="utf-8",
    )
    return str(tmp_path / "club.yaml")


def test_forehand_pays_each_other_player(tmp_path: Path) -> None:
    rules = load_ruleset(club(tmp_path, "all_pass: forehand_pays, all_pass_payment: 2"))
    assert not redealt(rules)
    # Dealer 0: forehand is seat 1 (the deal and the play pass to the next seat).
    assert all_pass_payments(rules, 0) == {0: 2, 1: -4, 2: 2}
    assert all_pass_payments(rules, 2) == {0: -4, 1: 2, 2: 2}


@pytest.mark.parametrize("setting", ["redeal", "pass_out"])
def test_the_other_rules_pay_nobody(tmp_path: Path, setting: str) -> None:
    rules = load_ruleset(club(tmp_path, f"all_pass: {setting}"))
    assert all_pass_payments(rules, 1) == {0: 0, 1: 0, 2: 0}
    assert redealt(rules) == (setting == "redeal")


@pytest.mark.parametrize("dealer_pays", [False, True])
def test_four_players_the_dealer_who_sits_out(tmp_path: Path, dealer_pays: bool) -> None:
    more = f"players: {{sitting_out_dealer_pays: {str(dealer_pays).lower()}}}\n"
    path = club(tmp_path, "all_pass: forehand_pays, all_pass_payment: 1", "four-player", more)
    payments = all_pass_payments(load_ruleset(path), 3)
    # Dealer 3 sits out; forehand is seat 0, then seats 1 and 2.
    assert payments == {0: -3 if dealer_pays else -2, 1: 1, 2: 1, 3: 1 if dealer_pays else 0}
    assert sum(payments.values()) == 0


@pytest.mark.parametrize(
    ("auction", "message"),
    [
        ("all_pass: forehand_pays", "all_pass: forehand_pays needs all_pass_payment"),
        ("all_pass_payment: 1", "all_pass_payment is paid only under all_pass: forehand_pays"),
    ],
)
def test_the_amount_goes_with_the_rule(tmp_path: Path, auction: str, message: str) -> None:
    with pytest.raises(RulesetError, match=message) as refused:
        load_ruleset(club(tmp_path, auction))
    assert "auction.all_pass_payment" in str(refused.value)


def passed_out_record(path: str, dealer: int, out: Path) -> Hand:
    """The engine's hand (and record) in which everybody passed."""
    hand = Hand(load_ruleset(path), seed=3, dealer=dealer)
    while not hand.is_over:  # forehand discards his two extra cards, then all pass
        actions = hand.legal_actions()
        hand.apply(Pass() if Pass() in actions else actions[0])
    assert hand.is_over and hand.passed_out and hand.contract is None
    save(record_of(hand, "club.yaml", players=PLAYERS), out)
    return hand


def test_through_the_engine_and_the_ledger(tmp_path: Path) -> None:
    path = club(tmp_path, "all_pass: forehand_pays, all_pass_payment: 1")
    ulti = run_in(tmp_path)
    done = ulti("ledger", "new", "s.json", "--ruleset", "club.yaml", "--players", "Anna,Ben,Carla")
    assert done.returncode == 0, done.stderr
    hand = passed_out_record(path, 0, tmp_path / "r1.yaml")
    engine = all_pass_payments(hand.ruleset, hand.dealer)
    done = ulti("ledger", "add", "s.json", "r1.yaml", "--json")
    assert done.returncode == 0, done.stderr
    added = json.loads(done.stdout)
    assert added["payments"] == {PLAYERS[s]: v for s, v in engine.items()}
    assert added["payments"] == {"Anna": 1, "Ben": -2, "Carla": 1}  # Ben, forehand, pays
    assert (added["kind"], added["redeal"]) == ("passed_out", False)
    # Typed in at the table: Ben deals hand 2, so Carla is forehand and pays.
    done = ulti("ledger", "add", "s.json", "--passed-out")
    assert done.returncode == 0, done.stderr
    assert "Hand 2, dealt by Ben: all passed — Carla pays 1 to each." in done.stdout
    assert "Next: hand 3, dealt by Carla." in done.stdout
    shown = ulti("ledger", "show", "s.json", "--json")
    session = json.loads(shown.stdout)
    assert session["totals"] == {"Anna": 2, "Ben": -1, "Carla": -1}
    text = ulti("ledger", "show", "s.json").stdout
    assert "all passed — Ben pays 1 to each" in text


def test_the_library_adds_it_too(tmp_path: Path) -> None:
    ledger = new_ledger(
        club(tmp_path, "all_pass: forehand_pays, all_pass_payment: 3"), PLAYERS, "Carla", None
    )
    entry = add_passed_out(ledger)
    assert entry.dealer == "Carla" and not entry.redeal
    assert entry.payments == {"Anna": -6, "Ben": 3, "Carla": 3}


def test_score_settles_no_passed_out_hand(tmp_path: Path) -> None:
    """A score sheet is a contract: a hand nobody bid is told to the ledger instead."""
    club(tmp_path, "all_pass: forehand_pays, all_pass_payment: 1")
    (tmp_path / "hand.yaml").write_text(
        "ruleset: club.yaml\nplayers: [Anna, Ben, Carla]\n", encoding="utf-8"
    )
    done: Any = run_in(tmp_path)("score", "hand.yaml")
    assert done.returncode == 1
    assert "missing required key 'declarer'" in done.stderr
    assert "missing required key 'bid'" in done.stderr
