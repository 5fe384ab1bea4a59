"""legal_actions() and apply() never disagree, above all where the opener must bid without
a talon in his hand (issue 7, item 8: no talon or one set aside, and
``auction.opener_must_bid: true``; the opener was offered a Pass that apply() refused).

Random legal play under such rulesets: at every step each listed action is accepted
(on a copy), and random actions that are not listed are refused with the hand
unchanged.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ulti_rules.engine import Hand, Pass
from ulti_rules.errors import IllegalAction
from ulti_rules.ruleset.schema import Ruleset

from cli_in_process import run_in
from engine_fixtures import fixture_ruleset
from legality_support import play_checking_every_step

TEN_EACH = [[5, 5, 5], [5, 5, 5]]

OPENER_MUST_BID: dict[str, dict[str, Any]] = {
    "no-talon": {"deal.packets": TEN_EACH, "deal.talon": "none"},
    "set-aside": {"deal.packets": TEN_EACH, "deal.talon": "set_aside"},
    "set-aside-optional-exchange": {
        "deal.packets": TEN_EACH,
        "deal.talon": "set_aside",
        "auction.talon_exchange_optional": True,
        "auction.end_passes": 2,
    },
    "no-talon-no-self-robbing": {
        "deal.packets": TEN_EACH,
        "deal.talon": "none",
        "auction.self_robbing": False,
        "auction.min_components": 1,
    },
    "set-aside-two-components": {
        "deal.packets": TEN_EACH,
        "deal.talon": "set_aside",
        "auction.min_components": 2,
    },
}
"""Every variant keeps ``auction.opener_must_bid: true`` (the default)."""

_BUILT: dict[str, Ruleset] = {}


def variant(name: str) -> Ruleset:
    if name not in _BUILT:
        _BUILT[name] = fixture_ruleset(**OPENER_MUST_BID[name])
        assert _BUILT[name].auction.opener_must_bid
    return _BUILT[name]


@pytest.mark.parametrize("name", tuple(OPENER_MUST_BID))
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 2), choices=st.integers(0, 2**32))
def test_every_listed_action_is_accepted_and_every_refusal_changes_nothing(
    name: str, seed: int, dealer: int, choices: int
) -> None:
    hand = play_checking_every_step(variant(name), seed, dealer, random.Random(choices))
    assert not hand.passed_out, "the opener must bid: a hand is never passed out"


@pytest.mark.parametrize("name", ["no-talon", "set-aside"])
def test_the_opener_who_must_bid_is_offered_no_pass(name: str) -> None:
    hand = Hand(variant(name), seed=11, dealer=0)
    assert hand.step == "speak"
    legal = hand.legal_actions()
    assert Pass() not in legal
    assert any(a.type == "bid" for a in legal)
    with pytest.raises(IllegalAction, match="the opener must bid"):
        hand.apply(Pass())


def test_the_opener_who_may_pass_still_can() -> None:
    ruleset = fixture_ruleset(**OPENER_MUST_BID["no-talon"], **{"auction.opener_must_bid": False})
    hand = Hand(ruleset, seed=11, dealer=0)
    assert Pass() in hand.legal_actions()
    hand.apply(Pass())
    assert hand.current_player == 2  # the next seat speaks


@pytest.mark.parametrize("talon", ["none", "set_aside"])
def test_simulate_with_random_bots_plays_every_hand(tmp_path: Any, talon: str) -> None:
    """`ulti simulate` used to abort at the first opener the random bot let pass."""
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Club\nextends: wikipedia\n"
        f"deal: {{packets: [[5, 5, 5], [5, 5, 5]], talon: {talon}}}\n",
        encoding="utf-8",
    )
    done = run_in(tmp_path)("simulate", "club.yaml", "--hands", "12", "--bot", "random", "-q")
    assert done.returncode == 0, done.stderr
    assert "passed out" not in done.stdout
