"""`ulti replay FILE` through the installed entry point: a readable hand, tampering refused."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from ulti_rules.bots import SimpleBidder, play_out
from ulti_rules.cards import format_card
from ulti_rules.engine import Hand
from ulti_rules.records import dumps, record_of, save
from ulti_rules.ruleset.loading import load_ruleset

from cli_in_process import run_in
from conftest import RunUlti


def played(name: str = "wikipedia", seed: int = 21) -> Hand:
    rules = load_ruleset(name)
    hand = Hand(rules, seed=seed, dealer=seed % rules.players.count)
    return play_out(hand, SimpleBidder(), random.Random(seed))


def test_a_record_prints_trick_by_trick(tmp_path: Path, ulti: RunUlti) -> None:
    hand = played()
    save(record_of(hand, "wikipedia", players=["Anna", "Ben", "Carla"]), tmp_path / "hand.yaml")
    done = ulti("replay", "hand.yaml")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Ruleset: wikipedia" in out and "(matches the ruleset)" in out
    for section in ("Deal", "Auction", "Contract:", "Marriages:", "Kontras:", "Tricks", "Facts"):
        assert f"\n{section}" in out, section
    names = ["Anna", "Ben", "Carla"]
    for number, (leader, cards, winner) in enumerate(hand.tricks, start=1):
        line = next(x for x in out.splitlines() if x.strip().startswith(f"{number}. "))
        assert line.strip().startswith(f"{number}. {names[leader]} leads: ")
        assert line.endswith(f"-> {names[winner]}")
        for card in cards:
            assert format_card(card) in line
    facts = hand.facts
    assert facts is not None
    assert f"(declarer) {facts.declarer_points}, the defenders {facts.defender_points}" in out
    assert "Payments" in out and "declarer" in out


def test_french_faces(tmp_path: Path, ulti: RunUlti) -> None:
    hand = played(seed=22)
    save(record_of(hand, "wikipedia"), tmp_path / "hand.json")
    done = ulti("replay", "hand.json", "--faces", "fr")
    assert done.returncode == 0, done.stderr
    first = next(x for x in done.stdout.splitlines() if x.strip().startswith("1. "))
    for card in hand.tricks[0][1]:
        assert format_card(card, "fr", symbols=True) in first


def test_a_tampered_record_names_the_bad_action(tmp_path: Path, ulti: RunUlti) -> None:
    hand = played(seed=23)
    text = dumps(record_of(hand, "wikipedia"))
    lines = text.splitlines()
    # Give the second card of the first trick to the wrong seat: its seat field changes.
    first_play = next(i for i, x in enumerate(lines) if "type: play" in x)
    start = lines.index("actions:") + 1
    index = first_play - start + 1
    seat = hand.history[index][0]
    wrong = (seat + 1) % 3
    lines[first_play + 1] = lines[first_play + 1].replace(f"seat: {seat},", f"seat: {wrong},")
    (tmp_path / "bad.yaml").write_text("\n".join(lines) + "\n", "utf-8")
    done = ulti("replay", "bad.yaml")
    assert done.returncode == 1
    assert done.stdout == ""
    action = hand.history[index][1]
    assert done.stderr.startswith(
        f"ulti: error: bad.yaml:{first_play + 2}:3: action {index} ({action} by seat {wrong}): "
        f"it is seat {seat}'s turn"
    ), done.stderr


def a_strangers_card(tmp_path: Path) -> tuple[dict[str, Any], int, int, str]:
    """A record whose first card played is one its player does not hold, as bad.json: its
    data, the action's index, the seat and the card."""
    hand = played(seed=24)
    data = record_of(hand, "wikipedia").to_data()
    index = next(i for i, a in enumerate(data["actions"]) if a["type"] == "play")
    seat = data["actions"][index]["seat"]
    stranger = format_card(hand.deal.hands[(seat + 1) % 3][0])
    data["actions"][index]["card"] = stranger
    (tmp_path / "bad.json").write_text(json.dumps(data), "utf-8")
    return data, index, seat, stranger


def test_an_illegal_card_names_the_rule(tmp_path: Path, ulti: RunUlti) -> None:
    _, index, seat, stranger = a_strangers_card(tmp_path)
    done = ulti("replay", "bad.json")
    assert done.returncode == 1
    assert f"action {index} (play {stranger} by seat {seat}): you do not hold" in done.stderr


def test_a_bad_record_is_refused_in_the_readers_language(tmp_path: Path, ulti: RunUlti) -> None:
    """The engine's refusal and the card reader's were translated, and `ulti replay`
    printed them in English all the same: the record's label made them plain text."""
    data, index, seat, card = a_strangers_card(tmp_path)
    done = ulti("replay", "bad.json", "--lang", "hu")
    assert done.returncode == 1
    assert f"lépés {index} (play {card}, hely: {seat}): nincs a kezedben: " in done.stderr
    data["actions"][index]["card"] = "QQ"
    (tmp_path / "bad.json").write_text(json.dumps(data), "utf-8")
    done = ulti("replay", "bad.json", "--lang", "de")
    assert done.returncode == 1
    assert f"actions.{index}: keine Karte: 'QQ' (" in done.stderr, done.stderr


def test_a_changed_ruleset_is_refused_unless_ignored(tmp_path: Path, ulti: RunUlti) -> None:
    save(record_of(played(seed=25), "wikipedia"), tmp_path / "hand.yaml")
    (tmp_path / "club.yaml").write_text(
        "extends: wikipedia\nname: club\ntitle: Wikipedia with give-up\n"
        "simple: {give_up_allowed: true}\n",
        "utf-8",
    )
    done = ulti("replay", "hand.yaml", "--ruleset", "./club.yaml")
    assert done.returncode == 1
    # another ruleset than the record names: its rules did not change (a review)
    assert "the ruleset given, 'club', has other rules (sha256:" in done.stderr
    assert "give the one the record names, or replay anyway with --ignore-hash" in done.stderr
    done = ulti("replay", "hand.yaml", "--ruleset", "./club.yaml", "--ignore-hash")
    assert done.returncode == 0, done.stderr
    assert (
        "ulti: note: hand.yaml: replayed under 'club', whose rules are not those of "
        "'wikipedia', which the record names"
    ) in done.stderr
    assert "DIFFERS from the ruleset" in done.stdout


def test_not_a_record(tmp_path: Path, ulti: RunUlti) -> None:
    (tmp_path / "sheet.yaml").write_text("declarer: Anna\nbid: parti\n", "utf-8")
    done = ulti("replay", "sheet.yaml")
    assert done.returncode == 1
    assert "ulti: error: sheet.yaml: not a hand record: 'format' must be 'ulti-hand/1'" in (
        done.stderr
    )
    done = ulti("replay", "missing.yaml")
    assert done.returncode == 1 and "missing.yaml: cannot read the file" in done.stderr


CLUB = "name: club\ntitle: Club\nextends: wikipedia\nkontra: {max_level: 2}\n"


@pytest.mark.parametrize("command", ["simulate", "play"])
def test_records_of_a_club_file_name_it_relative_to_their_folder(
    tmp_path: Path, command: str
) -> None:
    """Records named the club file by its absolute path, which `ulti replay` refuses as
    outside their folder: none of them replayed (found by a fault review). Now the path
    is relative to the folder: a club file kept there replays as it is; one outside is
    said at once, with the way to replay."""
    run = run_in(tmp_path)
    (tmp_path / "club.yaml").write_text(CLUB, encoding="utf-8")
    (tmp_path / "inside").mkdir()
    (tmp_path / "inside" / "club.yaml").write_text(CLUB, encoding="utf-8")
    args = {
        "simulate": ["simulate", "club.yaml", "--hands", "3", "--seed", "3", "--quiet"],
        "play": ["play", "--auto", "--seed", "3", "--ruleset", "club.yaml"],
    }[command]
    inside = run(*args, "--save-records", ".", cwd=tmp_path / "inside")
    assert inside.returncode == 0 and "note" not in inside.stderr, inside.stderr
    assert "ruleset: club.yaml\n" in (tmp_path / "inside" / "hand-0001.yaml").read_text("utf-8")
    assert run("replay", "inside/hand-0001.yaml").returncode == 0
    outside = run(*args, "--save-records", "recs")
    assert outside.stderr.splitlines()[0] == (
        f"ulti: note: the records name their ruleset {tmp_path / 'club.yaml'}, outside recs "
        "and the rulesets folders: replay them with `ulti replay --ruleset club.yaml RECORD`, "
        "or keep the ruleset in the folder (docs/security.md)"
    )
    assert run("replay", "recs/hand-0001.yaml", "--ruleset", "club.yaml").returncode == 0


def test_records_of_a_club_file_in_a_rulesets_folder_name_it_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rulesets folder is read from anywhere: its file is named by its absolute path,
    without a note, and a record moved elsewhere still replays (found by a review)."""
    rules = tmp_path / "myrules"
    rules.mkdir()
    (rules / "club.yaml").write_text(CLUB, encoding="utf-8")
    monkeypatch.setenv("ULTI_RULES_PATH", str(rules))
    run = run_in(tmp_path)
    done = run("simulate", "myrules/club.yaml", "--hands", "2", "--quiet", "--save-records", "recs")
    assert "note" not in done.stderr, done.stderr
    kept = (tmp_path / "recs" / "hand-0001.yaml").read_text("utf-8")
    assert f"ruleset: {rules / 'club.yaml'}\n" in kept
    (tmp_path / "moved").mkdir()
    (tmp_path / "moved" / "hand-0001.yaml").write_text(kept, encoding="utf-8")
    assert run("replay", "moved/hand-0001.yaml").returncode == 0


def test_a_refused_action_names_its_bids_in_the_language_asked(
    tmp_path: Path, ulti: RunUlti
) -> None:
    """A record whose fifth action bids the plain Simple over Simple Hearts: the refusal
    said "a(z) Simple nem magasabb a(z) Simple Hearts bemondásnál", the bids in English
    (the message was cut to size and its names lost their languages on the way)."""
    from ulti_rules.engine import Bid, Discard, PickUp

    hand = Hand(load_ruleset("wikipedia"), seed=3, dealer=2)
    hand.apply(next(a for a in hand.legal_actions() if isinstance(a, Discard)))
    hand.apply(Bid("parti_red"))
    hand.apply(PickUp())
    hand.apply(next(a for a in hand.legal_actions() if isinstance(a, Discard)))
    hand.apply(Bid("ulti"))
    play_out(hand, SimpleBidder(), random.Random(3))
    text = dumps(record_of(hand, "wikipedia", players=["Anna", "Ben", "Carla"]))
    assert text.count("bid: ulti") == 1
    (tmp_path / "hand.yaml").write_text(text.replace("bid: ulti", "bid: parti"), "utf-8")
    said = {
        "en": "Simple does not overcall Simple Hearts",
        "hu": "a(z) parti nem magasabb a(z) piros parti bemondásnál",
        "de": "Parti",
    }
    for lang, words in said.items():
        done = ulti("replay", "hand.yaml", "--lang", lang)
        assert done.returncode == 1
        assert words in done.stderr, (lang, done.stderr)
        if lang != "en":
            assert "Simple" not in done.stderr, done.stderr
