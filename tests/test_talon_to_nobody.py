"""``points.talon_to: nobody``: the talon's card points (with no talon, those of the two
cards out of play, IT's untold "senza tallone") count for neither side, in the engine and
in `ulti score` alike."""

from __future__ import annotations

import json
import random
from pathlib import Path

import yaml
from ulti_rules import load_game
from ulti_rules.bots import bot, play_out
from ulti_rules.scoring.table_facts import sheet_from

from conftest import RunUlti

SHEET = """\
ruleset: {ruleset}
players: [Anna, Ben, Carla]
declarer: Anna
bid: Simple Hearts
trump: hearts
points: {{declarer: 40, defenders: 30, talon: 20}}
tricks: {{Anna: 5, Ben: 3, Carla: 2}}
last_trick: {{winner: Anna}}
aces: [Anna, Ben]
"""


def club(tmp_path: Path, talon_to: str, talon: str = "forehand") -> Path:
    path = tmp_path / f"t-{talon_to}-{talon}.yaml"
    path.write_text(
        f"name: t-{talon_to}\nextends: wikipedia\npoints: {{talon_to: {talon_to}}}\n"
        + ("deal: {packets: [[5, 5, 5], [5, 5, 5]], talon: none}\n" if talon == "none" else ""),
        "utf-8",
    )
    return path


def test_the_score_keeper_counts_the_talon_for_nobody(ulti: RunUlti, tmp_path: Path) -> None:
    """40 against 30 with 20 in the talon: the declarer's Simple with the talon, the
    defenders' with it, and the declarer's again with it counted for nobody."""
    paid = {}
    for talon_to in ("declarer", "defenders", "nobody"):
        path = club(tmp_path, talon_to)
        (tmp_path / "hand.yaml").write_text(SHEET.format(ruleset=path.name), "utf-8")
        ran = ulti("score", "hand.yaml", "--json")
        assert ran.returncode == 0, ran.stderr
        paid[talon_to] = json.loads(ran.stdout)["payments"]["Anna"]
    assert paid == {"declarer": 4, "defenders": -4, "nobody": 4}


def test_the_engine_and_the_score_keeper_agree_with_no_talon_counted(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """Engine hands without a talon (the two cards out of play) and with one, settled by
    the engine and, as sheets, by `ulti score`: the same payments; and a side's Simple is
    decided on its tricks alone."""
    simple = bot("simple")
    for talon in ("none", "forehand"):
        path = club(tmp_path, "nobody", talon)
        game = load_game(path)
        settled = 0
        for seed in range(40):
            hand = play_out(game.new_hand(seed=seed, dealer=seed % 3), simple, random.Random(seed))
            if hand.facts is None or hand.contract is None:
                continue
            assert hand.facts.talon_points >= 0
            engine = game.settle(hand.contract, hand.facts).payments
            sheet = sheet_from(game.ruleset, hand.contract, hand.facts, ruleset_ref=path.name)
            (tmp_path / "hand.yaml").write_text(yaml.safe_dump(sheet), "utf-8")
            ran = ulti("score", "hand.yaml", "--json")
            assert ran.returncode == 0, ran.stderr
            by_name = json.loads(ran.stdout)["payments"]
            names = [by_name[f"P{seat + 1}"] for seat in range(3)]
            assert names == [engine[seat] for seat in range(3)], seed
            settled += 1
        assert settled >= 20
