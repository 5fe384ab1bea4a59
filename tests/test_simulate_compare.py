"""`ulti simulate --compare`: the same deals and bots under two rulesets, side by side."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ulti_rules.study.compare import differences

from conftest import RunUlti


def compare(ulti: RunUlti, *args: str) -> dict[str, Any]:
    done = ulti("simulate", *args, "--json")
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def test_a_ruleset_against_itself_shows_no_difference(ulti: RunUlti) -> None:
    data = compare(
        ulti, "--hands", "25", "--seed", "2", "--bots", "random", "--compare", "wikipedia"
    )
    assert data["differences"] == {}
    assert data["a"] == data["b"]
    text = ulti("simulate", "--hands", "25", "--seed", "2", "--bots", "random", "--compare",
                "wikipedia").stdout  # fmt: skip
    assert text.splitlines()[0] == (
        "'wikipedia' (A) against 'wikipedia' (B): the same 25 deals (seed 2, bot random)"
    )
    assert text.splitlines()[-1] == "Differences: none; both rulesets played these deals alike"
    assert "| totals " not in text  # two summaries, no line per hand


def test_another_ruleset_plays_the_same_deals_differently(ulti: RunUlti) -> None:
    args = ("--hands", "40", "--seed", "3", "--bots", "random")
    data = compare(ulti, *args, "--compare", "tournament")
    alone = compare(ulti, *args)
    # A is the plain run of the first ruleset: the same hands, the same figures.
    assert data["a"] == {k: v for k, v in alone.items() if k not in ("seed", "bots", "players")}
    assert data["a"]["ruleset"] == "wikipedia" and data["b"]["ruleset"] == "tournament"
    # The same deals: every hand of B was dealt from the same seed by the same dealer.
    pairs = zip(data["a"]["results"], data["b"]["results"], strict=True)
    assert all((x["seed"], x["dealer"]) == (y["seed"], y["dealer"]) for x, y in pairs)
    changed = data["differences"]
    assert changed, "tournament's ladder and kontra chain are not wikipedia's"
    for path, row in changed.items():
        assert row["a"] != row["b"], path
        if row["change"] is not None:
            assert row["change"] == round(row["b"] - row["a"], 4)
    text = ulti("simulate", *args, "--compare", "tournament").stdout
    assert f"Differences: {len(changed)} figures differ (--json lists them)" in text
    quiet = compare(ulti, *args, "--compare", "tournament", "--quiet")
    assert "results" not in quiet["a"] and quiet["differences"] == changed


def test_differences_count_a_missing_bid_as_never_won() -> None:
    row = {"name": "Ulti", "won": 2, "share": 0.5, "made": 1, "made_rate": 0.5,
           "declarer_mean": 3.0}  # fmt: skip
    empty = {"outcomes": {"played": 4}, "kontra": {"none": 4}, "bids": {}, "components": {},
             "payments": {}, "silent": []}  # fmt: skip
    changed = differences(empty, {**empty, "bids": {"ulti": row}})
    assert changed["bids.ulti.won"] == {"a": 0, "b": 2, "change": 2}
    assert changed["bids.ulti.made_rate"] == {"a": None, "b": 0.5, "change": None}
    assert differences(empty, empty) == {}


def test_rulesets_that_cannot_share_deals_are_refused(ulti: RunUlti) -> None:
    done = ulti("simulate", "--hands", "2", "--compare", "four-player")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        "ulti: error: 'wikipedia' is played by 3 and 'four-player' by 4: the two cannot share "
        "deals; compare rulesets for the same number of players\n"
    )
    done = ulti("simulate", "--hands", "2", "--compare", "bridge")
    assert done.returncode == 1 and "bridge" in done.stderr
    done = ulti("simulate", "--hands", "2", "--compare", "tournament", "--save-records", "r")
    assert done.returncode == 1
    assert "--save-records keeps one ruleset's hands: leave it out with --compare" in done.stderr


def test_a_ruleset_that_deals_again_is_compared_on_the_same_deals(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """Where the opener may pass, a deal nobody bids is dealt again: counting hands, B
    ran out of them in 43 turns of A's 100 and only 1 hand in 100 had A's deal (found by
    a simulate review). Both now play the same turns of the deal, each whole."""
    (tmp_path / "omp.yaml").write_text(
        "name: omp\ntitle: t\nextends: wikipedia\nauction: {opener_must_bid: false}\n", "utf-8"
    )
    args = (
        "--hands",
        "30",
        "--seed",
        "1",
        "--bots",
        "random",
        "--compare",
        str(tmp_path / "omp.yaml"),
    )
    data = compare(ulti, *args)
    a, b = data["a"]["results"], data["b"]["results"]
    first_of_turn: dict[int, dict[str, Any]] = {}
    for hand in b:
        first_of_turn.setdefault(hand["turn"], hand)
    assert [x["turn"] for x in a] == list(range(1, 31)) == sorted(first_of_turn)
    assert all(
        (x["seed"], x["dealer"])
        == (first_of_turn[x["turn"]]["seed"], first_of_turn[x["turn"]]["dealer"])
        for x in a
    )
    assert len(b) > len(a), "the opener passed at least once and the deal was dealt again"
    assert data["b"]["outcomes"]["passed out"] == len(b) - len(a)
    assert compare(ulti, *args, "--workers", "2") == data
    text = ulti("simulate", *args).stdout.splitlines()
    assert text[1] == f"Hands dealt, redeals included: A 30, B {len(b)}"
