"""`ulti ledger new|add|show`: a session's hands, the deal's rotation, running totals."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from ulti_rules import settle
from ulti_rules.engine import Hand, Pass
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring.ledger import (
    LedgerError,
    add_hand,
    add_played,
    load_ledger,
    new_ledger,
    save_ledger,
)
from ulti_rules.scoring.sheet import SheetError, read_sheet

ULTI_MADE = """\
declarer: {declarer}
bid: ulti
trump: acorns
kontra: {{ulti: kontra}}
points: {{declarer: 60, defenders: 30}}
tricks: {{{declarer}: 6, {a}: 2, {b}: 2}}
last_trick: {{winner: {declarer}, trump_seven: {declarer}}}
"""
GIVE_UP = "declarer: {declarer}\nbid: parti\ngave_up: true\n"


def hand_file(tmp_path: Path, text: str, name: str = "hand.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return str(path)


def ulti_made(tmp_path: Path, declarer: str, others: tuple[str, str], name: str) -> str:
    text = ULTI_MADE.format(declarer=declarer, a=others[0], b=others[1])
    return hand_file(tmp_path, text, name)


def test_a_session_through_the_command(tmp_path: Path, ulti: Any) -> None:
    ledger = str(tmp_path / "friday.json")
    done = ulti("ledger", "new", ledger, "--ruleset", "older-20-100", "--players", "Anna,Ben,Carla")
    assert done.returncode == 0, done.stderr
    assert "Anna deals first" in done.stdout and "by the Ace of hearts" in done.stdout
    first = ulti_made(tmp_path, "Anna", ("Ben", "Carla"), "h1.yaml")
    done = ulti("ledger", "add", ledger, first)
    assert done.returncode == 0, done.stderr
    assert "Hand 1, dealt by Anna" in done.stdout
    assert "Next: hand 2, dealt by Ben." in done.stdout
    done = ulti(
        "ledger", "add", ledger, hand_file(tmp_path, GIVE_UP.format(declarer="Carla")), "--json"
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["hand"] == 2
    assert data["totals"] == {"Anna": 18 + 2, "Ben": -9 + 2, "Carla": -9 - 4}
    shown = ulti("ledger", "show", ledger, "--json")
    assert shown.returncode == 0, shown.stderr
    session = json.loads(shown.stdout)
    assert [h["dealer"] for h in session["hands"]] == ["Anna", "Ben"]
    assert [h["declarer"] for h in session["hands"]] == ["Anna", "Carla"]
    assert session["totals"] == {"Anna": 20, "Ben": -7, "Carla": -13}
    assert session["next_dealer"] == "Carla"
    text = ulti("ledger", "show", ledger)
    assert text.returncode == 0, text.stderr
    assert "+18 (+18)" in text.stdout and "-4 (-13)" in text.stdout
    assert "Next: hand 3, dealt by Carla." in text.stdout


def test_the_deal_passes_to_the_right_and_a_wrong_dealer_is_refused(
    tmp_path: Path, ulti: Any
) -> None:
    ledger = str(tmp_path / "s.json")
    ulti(
        "ledger",
        "new",
        ledger,
        "--ruleset",
        "wikipedia",
        "--players",
        "Anna,Ben,Carla",
        "--dealer",
        "Carla",
    )
    text = (
        ULTI_MADE.format(declarer="Anna", a="Ben", b="Carla") + "dealer: Anna\naces: [Anna, Ben]\n"
    )
    done = ulti("ledger", "add", ledger, hand_file(tmp_path, text))
    assert done.returncode == 1
    assert "the deal passes to the right: Carla deals hand 1, not Anna" in done.stderr
    assert load_ledger(Path(ledger)).hands == []


def test_the_session_ruleset_and_players_must_match(tmp_path: Path) -> None:
    ledger = new_ledger("wikipedia", ["Anna", "Ben", "Carla"], None, None)
    text = "ruleset: older-20-100\n" + GIVE_UP.format(declarer="Anna")
    sheet, where = read_sheet(Path(hand_file(tmp_path, text)))
    with pytest.raises(SheetError, match="the session plays 'wikipedia'"):
        add_hand(ledger, sheet, where, tmp_path, source="x")
    text = "players: [Anna, Ben, Dora]\n" + GIVE_UP.format(declarer="Anna")
    sheet, where = read_sheet(Path(hand_file(tmp_path, text)))
    with pytest.raises(SheetError, match="the session's players are Anna, Ben, Carla"):
        add_hand(ledger, sheet, where, tmp_path, source="x")


def test_four_players_the_dealer_sits_out(tmp_path: Path) -> None:
    players = ["Anna", "Ben", "Carla", "Dani"]
    ledger = new_ledger("four-player", players, "Dani", None)
    rules = load_ruleset("four-player")
    assert [ledger.dealer_of(n, rules) for n in range(1, 6)] == [
        "Dani",
        "Anna",
        "Ben",
        "Carla",
        "Dani",
    ]
    sheet, where = read_sheet(
        Path(
            hand_file(
                tmp_path,
                ULTI_MADE.format(declarer="Anna", a="Ben", b="Carla") + "aces: [Anna, Ben]\n",
            )
        )
    )
    entry, _, settlement = add_hand(ledger, sheet, where, tmp_path, source="h1")
    assert entry.dealer == "Dani"
    assert entry.payments == {"Anna": 18, "Ben": -9, "Carla": -9, "Dani": 0}
    assert settlement.sitting_out == 3
    # hand 2 is dealt by Anna, who sits out and cannot declare
    with pytest.raises(SheetError, match="Anna deals and sits out"):
        add_hand(ledger, sheet, where, tmp_path, source="h2")


def test_heart_ace_ending(tmp_path: Path) -> None:
    ledger = new_ledger("older-20-100", ["Anna", "Ben", "Carla"], "Anna", None)
    assert ledger.end == "heart_ace"  # the ruleset's session.end
    rules = load_ruleset("older-20-100")
    give_up, where = read_sheet(Path(hand_file(tmp_path, GIVE_UP.format(declarer="Ben"))))
    add_hand(ledger, give_up, where, tmp_path, source="h1")
    assert ledger.last_round(rules) is None
    with pytest.raises(LedgerError, match="not one of Anna, Ben, Carla"):
        add_hand(ledger, give_up, where, tmp_path, source="h2", heart_ace="Dora")
    # hand 2 (Ben deals): Anna holds the Ace of hearts after the auction; she deals hand 4,
    # so hands 4, 5, 6 are the last round
    add_hand(ledger, give_up, where, tmp_path, source="h2", heart_ace="Anna")
    assert ledger.last_round(rules) == (4, 6)
    with pytest.raises(LedgerError, match="already called"):
        add_hand(ledger, give_up, where, tmp_path, source="h3", heart_ace="Ben")
    for number in range(3, 7):
        assert not ledger.is_over(rules)
        add_hand(ledger, give_up, where, tmp_path, source=f"h{number}")
    assert ledger.is_over(rules)
    with pytest.raises(LedgerError, match="the session is over: the last round ended with hand 6"):
        add_hand(ledger, give_up, where, tmp_path, source="h7")
    assert ledger.totals() == {"Anna": 6 * 2, "Ben": 6 * -4 + 0, "Carla": 6 * 2}


def test_heart_ace_needs_the_option(tmp_path: Path) -> None:
    ledger = new_ledger("older-20-100", ["Anna", "Ben", "Carla"], None, "none")
    sheet, where = read_sheet(Path(hand_file(tmp_path, GIVE_UP.format(declarer="Ben"))))
    with pytest.raises(LedgerError, match="does not end by the Ace of hearts"):
        add_hand(ledger, sheet, where, tmp_path, source="h1", heart_ace="Anna")


def test_the_ledger_file_round_trips_and_keeps_whole_documents(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    ledger = new_ledger("older-20-100", ["Anna", "Ben", "Carla"], None, None)
    text = ulti_made(tmp_path, "Anna", ("Ben", "Carla"), "h1.yaml")
    sheet, where = read_sheet(Path(text))
    add_hand(ledger, sheet, where, tmp_path, source=text)
    save_ledger(ledger, path)
    again = load_ledger(path)
    assert again == ledger
    kept = again.hands[0].sheet
    assert kept["players"] == ["Anna", "Ben", "Carla"] and kept["dealer"] == "Anna"
    assert kept["kontra"] == {"ulti": "kontra"}


def test_ledger_user_errors(tmp_path: Path, ulti: Any) -> None:
    ledger = tmp_path / "s.json"
    done = ulti("ledger", "new", str(ledger), "--ruleset", "wikipedia", "--players", "Anna,Ben")
    assert done.returncode == 1
    assert "'wikipedia' is for 3 players, not 2" in done.stderr
    ulti("ledger", "new", str(ledger), "--ruleset", "wikipedia", "--players", "Anna,Ben,Carla")
    again = ulti("ledger", "new", str(ledger), "--ruleset", "wikipedia", "--players", "A,B,C")
    assert again.returncode == 1 and "already exists" in again.stderr
    (tmp_path / "broken.json").write_text("{not json", "utf-8")
    broken = ulti("ledger", "show", str(tmp_path / "broken.json"))
    assert broken.returncode == 1 and "not a ledger" in broken.stderr
    missing = ulti("ledger", "show", str(tmp_path / "none.json"))
    assert missing.returncode == 1 and "cannot read the ledger" in missing.stderr
    impossible = hand_file(
        tmp_path,
        ULTI_MADE.format(declarer="Anna", a="Ben", b="Carla").replace(
            "defenders: 30", "defenders: 35"
        ),
    )
    done = ulti("ledger", "add", str(ledger), impossible)
    assert done.returncode == 1
    assert "the card points add up to 95" in done.stderr


def test_engine_hands_enter_the_ledger_like_typed_ones() -> None:
    rules = load_ruleset("wikipedia")
    ledger = new_ledger("wikipedia", ["Anna", "Ben", "Carla"], "Ben", None)
    expected = dict.fromkeys(ledger.players, 0)
    for number, seed in enumerate((3, 11, 29), start=1):
        dealer = ledger.players.index(ledger.dealer_of(number, rules))
        hand = Hand(rules, seed=seed, dealer=dealer)
        rng = random.Random(seed)
        while not hand.is_over:
            actions = hand.legal_actions()
            passes = [a for a in actions if isinstance(a, Pass)]
            hand.apply(passes[0] if passes and rng.random() < 0.8 else rng.choice(actions))
        assert hand.contract is not None
        entry, _, settlement = add_played(
            ledger, hand.contract, hand.facts, source=f"engine seed {seed}"
        )
        assert settlement == settle(rules, hand.contract, hand.facts)
        assert entry.dealer == ledger.players[dealer]
        for seat, amount in settlement.payments.items():
            expected[ledger.players[seat]] += amount
    assert ledger.totals() == expected
