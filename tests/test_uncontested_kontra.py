"""No kontra on an uncontested Simple the ruleset loses double without playing the hand.

Kontras are called at the first trick; under `wikipedia` (`simple.uncontested:
lose_double`, `uncontested_played_out: false`) the hand ends before it, and the engine
never offers one. `ulti score` charged such a sheet double again (-8 for the -4 the rules
give). Where the hand is still played out (`uncontested_played_out: true`), a kontra is
called as in any hand and doubles the loss (the engine offers it then).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ulti_rules import Contract, load_game, settle
from ulti_rules.engine import Bid, Discard, Kontra, Pass
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring.settlement import SettlementError

from conftest import RunUlti

PLAYED_OUT = "name: up\ntitle: Up\nextends: wikipedia\nsimple: {uncontested_played_out: true}\n"


def uncontested(kontra: int) -> Contract:
    levels = {"parti": {1: kontra, 2: kontra}} if kontra else {}
    return Contract(bid="parti", declarer=0, trump=None, uncontested=True, kontra=levels)


def test_a_kontra_on_an_unplayed_uncontested_simple_is_refused() -> None:
    rules = load_ruleset("wikipedia")
    assert settle(rules, uncontested(0), None).declarer_total == -4
    with pytest.raises(SettlementError, match="no kontra can be called on it"):
        settle(rules, uncontested(1), None)


def test_where_it_is_played_out_the_kontra_doubles_the_loss(tmp_path: Path) -> None:
    club = tmp_path / "up.yaml"
    club.write_text(PLAYED_OUT, "utf-8")
    rules = load_ruleset(club)
    assert settle(rules, uncontested(0), None).declarer_total == -4
    assert settle(rules, uncontested(1), None).declarer_total == -8


@pytest.mark.parametrize(("text", "offered"), [("", False), (PLAYED_OUT, True)])
def test_the_engine_offers_a_kontra_exactly_where_one_is_settled(
    tmp_path: Path, text: str, offered: bool
) -> None:
    """Forehand lays two cards away and bids the Simple, the others pass: under
    wikipedia the hand is over at once; played out, a defender may call a kontra."""
    club = tmp_path / "club.yaml"
    club.write_text(text or "name: wp\ntitle: Wp\nextends: wikipedia\n", "utf-8")
    game = load_game(club)
    for seed in range(8):
        hand = game.new_hand(seed=seed)
        hand.apply(next(a for a in hand.legal_actions() if isinstance(a, Discard)))
        hand.apply(Bid("parti"))
        while hand.phase == "auction":
            hand.apply(Pass())
        assert hand.contract is not None and hand.contract.uncontested
        seen = set()
        while not hand.is_over:
            legal = hand.legal_actions()
            seen |= {isinstance(action, Kontra) for action in legal}
            hand.apply(next((a for a in legal if not isinstance(a, Kontra)), legal[0]))
        assert (True in seen) is offered, seed


def test_ulti_score_refuses_it(ulti: RunUlti, tmp_path: Path) -> None:
    sheet = tmp_path / "u.yaml"
    sheet.write_text(
        "ruleset: wikipedia\nplayers: [Anna, Ben, Carla]\ndealer: Carla\ndeclarer: Anna\n"
        "bid: Simple\nuncontested: true\nkontra: {parti: 1}\n",
        "utf-8",
    )
    done = ulti("score", str(sheet))
    assert done.returncode == 1
    assert "u.yaml:7:1: kontra: under 'wikipedia' an uncontested Simple" in done.stderr
    assert "kontras are called at the first trick: leave kontra out" in done.stderr
