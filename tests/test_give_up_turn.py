"""`ulti score` takes `gave_up` only where the engine gives the declarer a turn to give up.

A declarer gives up on his own turn before the first card: naming the trump, or at his
first lead. Two house rules leave him none: an uncontested Simple lost double before play
(the hand ends with the auction), and forehand's lead where the trump is named in the bid
and the declarer is not forehand. The engine offers no `GiveUp` there, so a sheet that
says the declarer gave up is refused, not paid as a give-up that cannot happen.
"""

from __future__ import annotations

import random
from pathlib import Path

from ulti_rules import load_game
from ulti_rules.engine import GiveUp

from conftest import RunUlti

LOSE_DOUBLE = """\
name: giveup-ld
title: WP lose double, with giving up allowed
extends: wikipedia
simple:
  give_up_allowed: true
  give_up_cost: 1
"""

FOREHAND_LEADS = """\
name: it-giveup
title: Italian lead, trump in the bid, with giving up
extends: wikipedia
trump:
  named: in_bid
play:
  first_lead: forehand
auction:
  opener_must_bid: false
simple:
  uncontested: play
  give_up_allowed: true
"""


def offered_give_up(path: Path, hands: int) -> set[tuple[int, int]]:
    """(declarer, forehand) of every engine hand where GiveUp was offered."""
    game = load_game(path)
    seen = set()
    for seed in range(hands):
        hand = game.new_hand(seed=seed, dealer=seed % 3)
        rng = random.Random(seed)
        while not hand.is_over:
            legal = hand.legal_actions()
            if GiveUp() in legal:
                seen.add((hand.declarer, (hand.dealer + 1) % 3))
                break
            bids = [a for a in legal if getattr(a, "bid", None) == "parti"]
            hand.apply(bids[0] if bids and rng.random() < 0.7 else rng.choice(legal))
    return seen


def test_no_give_up_where_an_uncontested_simple_is_lost_before_play(
    ulti: RunUlti, tmp_path: Path
) -> None:
    (tmp_path / "club.yaml").write_text(LOSE_DOUBLE, "utf-8")
    assert offered_give_up(tmp_path / "club.yaml", 60) == set()
    (tmp_path / "hand.yaml").write_text(
        "ruleset: club.yaml\nplayers: [Anna, Ben, Carla]\ndeclarer: Anna\nbid: Simple\n"
        "gave_up: true\n",
        "utf-8",
    )
    ran = ulti("score", "hand.yaml")
    assert ran.returncode == 1
    assert ran.stderr.startswith("ulti: error: hand.yaml:5:1: gave_up: a plain Simple ('parti')")
    assert "the declarer never has a turn to give up; write uncontested: true" in ran.stderr


def test_under_forehand_s_lead_only_a_forehand_declarer_gives_up(
    ulti: RunUlti, tmp_path: Path
) -> None:
    (tmp_path / "club.yaml").write_text(FOREHAND_LEADS, "utf-8")
    offered = offered_give_up(tmp_path / "club.yaml", 60)
    assert offered and all(declarer == forehand for declarer, forehand in offered)
    sheet = (
        "ruleset: club.yaml\nplayers: [Anna, Ben, Carla]\ndealer: Anna\n{who}bid: Simple\n"
        "gave_up: true\n"
    )
    (tmp_path / "hand.yaml").write_text(sheet.format(who="declarer: Carla\n"), "utf-8")
    ran = ulti("score", "hand.yaml")
    assert ran.returncode == 1
    assert ran.stderr == (
        "ulti: error: hand.yaml:6:1: gave_up: in 'it-giveup' forehand leads the first card "
        "(play.first_lead: forehand) and the trump is not named after the auction, so the "
        "declarer gives up only as forehand, before his lead: with Anna dealing, Ben is "
        "forehand, not Carla\n"
    )
    (tmp_path / "hand.yaml").write_text(sheet.format(who="declarer: Ben\n"), "utf-8")
    ran = ulti("score", "hand.yaml", "--json")
    assert ran.returncode == 0, ran.stderr
    assert '"Ben": -4' in ran.stdout
