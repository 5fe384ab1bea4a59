"""A settlement line's notes: written from the sentences of ``scoring/notes.py`` and read
back by them, so that ``--lang`` says them in Hungarian and German."""

from __future__ import annotations

from pathlib import Path

import pytest
from ulti_rules.scoring import notes

from conftest import RunUlti

LOST_SILENT_ULTI = """\
ruleset: wikipedia
players: [Anna, Ben, Carla]
declarer: Anna
bid: Simple Hearts
trump: hearts
points: {declarer: 60, defenders: 30}
tricks: {Anna: 6, Ben: 2, Carla: 2}
last_trick: {winner: Ben, trump_seven: Anna}
aces: [Anna, Ben]
"""
"""A made Simple Hearts (a plain Simple is never played here) whose silent Ulti is lost:
its line carries the note ``lost: 2 × value``."""

VALUES = {"bonus": "Silent 100", "contract": "40-100", "factor": "2"}
SENTENCES = (
    notes.WORTH,
    notes.UNANNOUNCED,
    notes.LOST,
    notes.OTHER_PAYS,
    notes.PAYS_OTHER,
    notes.BESIDE,
    notes.GAVE_UP,
    notes.LOST_DOUBLE,
)


def test_every_note_is_read_back_to_its_sentence_and_values() -> None:
    written = [sentence.format(**VALUES) for sentence in SENTENCES]
    read = notes.read(notes.join(written))
    assert [sentence for sentence, _values in read] == list(SENTENCES)
    for sentence, values in read:
        assert sentence is not None
        assert sentence.format(**values) == sentence.format(**VALUES)


def test_a_note_of_no_sentence_is_kept_as_written() -> None:
    assert notes.read("a plugin's own words; gave up before the first lead") == [
        (None, {"text": "a plugin's own words"}),
        (notes.GAVE_UP, {}),
    ]
    assert notes.read("") == []


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "lost: 2 × value"), ("hu", "bukott: 2 × érték"), ("de", "verloren: 2 × Wert")],
)
def test_score_says_the_note_in_the_language(
    ulti: RunUlti, tmp_path: Path, lang: str, said: str
) -> None:
    sheet = tmp_path / "hand.yaml"
    sheet.write_text(LOST_SILENT_ULTI, encoding="utf-8")
    done = ulti("score", str(sheet), "--lang", lang)
    assert done.returncode == 0, done.stderr
    assert said in done.stdout
