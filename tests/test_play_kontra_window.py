"""`ulti play` prints every trick under ``kontra.window_opens: after_own_card``.

There the last card of trick 1 opens its player's kontra word, and his kontra or pass,
not the card, closes the trick: the view printed tricks after a card only, so trick 1
went missing from the list, for the onlooker (--auto) and for the person alike.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console

from conftest import RunUlti

TRICK = re.compile(r"^\s+(\d+)\. .+  → ", re.MULTILINE)
SEEDS = (2, 3, 4, 6)


@pytest.fixture
def after_own_card(tmp_path: Path) -> Path:
    ruleset = tmp_path / "v.yaml"
    ruleset.write_text(
        "name: v\ntitle: v\nextends: wikipedia\nkontra: {window_opens: after_own_card}\n"
    )
    return ruleset


@pytest.mark.parametrize("seed", SEEDS)
def test_the_onlooker_sees_every_trick(ulti: RunUlti, after_own_card: Path, seed: int) -> None:
    done = ulti("play", "--auto", "--ruleset", str(after_own_card), "--seed", str(seed),
                "--bots", "simple")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [int(n) for n in TRICK.findall(done.stdout)] == list(range(1, 11)), done.stdout


@pytest.mark.parametrize("kontra", ["pass", "1"])
@pytest.mark.parametrize("seat", [1, 2, 3])
def test_the_person_sees_every_trick(
    ulti: RunUlti,
    monkeypatch: pytest.MonkeyPatch,
    after_own_card: Path,
    seat: int,
    kontra: str,
) -> None:
    """The person as a defender passes, or says the first word on offer (a kontra where
    there is one), right after his card to trick 1."""

    def answer(console: Console, prompt: object = "", **_: object) -> str:
        text = str(prompt)
        if "lay down" in text:
            return "1 2"
        if text.startswith("Kontra, or pass"):
            return kontra
        return "pass" if "pass" in text else "1"

    monkeypatch.setattr(Console, "input", answer)
    for seed in SEEDS:
        done = ulti("play", "--seat", str(seat), "--ruleset", str(after_own_card),
                    "--seed", str(seed), "--bots", "simple", "--hands", "1")  # fmt: skip
        assert done.returncode == 0, done.stderr
        out = done.stdout
        if "Tricks" in out:  # a hand played out, not given up
            assert [int(n) for n in TRICK.findall(out)] == list(range(1, 11)), out


def test_the_person_sees_the_trick_so_far_when_his_card_opens_his_word(
    ulti: RunUlti, monkeypatch: pytest.MonkeyPatch, after_own_card: Path
) -> None:
    """Seat 3 plays the last card of trick 1 and is asked 'Kontra, or pass' before the
    trick closes: the cards on the table are shown with the question, as in the play."""

    def answer(console: Console, prompt: object = "", **_: object) -> str:
        text = str(prompt)
        return "1 2" if "lay down" in text else "pass" if "pass" in text else "1"

    monkeypatch.setattr(Console, "input", answer)
    done = ulti("play", "--seat", "3", "--ruleset", str(after_own_card), "--seed", "2",
                "--bots", "simple", "--hands", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    asked = "  Trick 1: Anna ZK, Ben ZVII, You ZA\n  Your hand: "
    assert asked in done.stdout, done.stdout
