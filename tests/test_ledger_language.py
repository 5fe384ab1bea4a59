"""A session's refusals are said in the language of `ulti ledger` (``--lang``), as its
settlements are: they were English at a Hungarian or German table."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import RunUlti
from ledger_support import two_hand_session


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "under 'wikipedia' nobody can pass a hand out: the opener must bid "
               "(auction.opener_must_bid)"),
        ("hu", "a(z) 'wikipedia' szerint nem passzolhatja el mindenki a leosztást: a kezdőnek "
               "licitálnia kell (auction.opener_must_bid)"),
        ("de", "unter 'wikipedia' kann niemand ein Spiel ganz passen lassen: die Vorhand muss "
               "bieten (auction.opener_must_bid)"),
    ],
)  # fmt: skip
def test_a_hand_that_does_not_fit_the_session_is_refused_in_the_table_s_language(
    tmp_path: Path, ulti: RunUlti, lang: str, said: str
) -> None:
    ledger, _ = two_hand_session(tmp_path)
    done = ulti("ledger", "add", str(ledger), "--passed-out", "--lang", lang)
    assert done.returncode == 1
    assert done.stderr == f"ulti: error: {said}\n"


def test_a_wrong_ace_of_hearts_holder_is_refused_in_hungarian(
    tmp_path: Path, ulti: RunUlti
) -> None:
    ledger, hand = two_hand_session(tmp_path)
    done = ulti("ledger", "add", str(ledger), str(hand), "--heart-ace", "Dora", "--lang", "hu")
    assert done.returncode == 1
    assert done.stderr == (
        "ulti: error: ez a játék nem a piros ásszal ér véget (ledger new --end heart-ace)\n"
    )
