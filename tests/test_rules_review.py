"""A rules review of the engine and the settlement: each test pins one rule of docs/rules.md.

Engine tests use the fixture ruleset (tests/engine_fixtures.py): dealer 0, so forehand
(the declarer here) is seat 1, then seat 2, then seat 0. Cards in Hungarian notation:
M Makk (acorns), Z Zöld (leaves), P Piros (hearts), T Tök (bells).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ulti_rules import settle
from ulti_rules.cards import parse_card
from ulti_rules.engine import Bid, Discard, Hand, Kontra, Pass, PickUp, Play
from ulti_rules.errors import IllegalAction
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring import SettlementError
from ulti_rules.scoring.table_facts import SheetError, settle_sheet

from engine_fixtures import bid_and_play, deal_of, fixture_ruleset
from settlement_support import make_contract, make_facts, make_ruleset


def c(text: str) -> int:
    return parse_card(text)


def play(hand: Hand, *cards: str) -> None:
    for card in cards:
        hand.apply(Play(c(card)))


def finish(hand: Hand) -> None:
    """Play the lowest legal card (and pass in the kontra round) until the hand is over."""
    while not hand.is_over:
        cards = hand.legal_card_list()
        if cards:
            hand.play_card(cards[0])
        else:
            hand.apply(Pass())


# --------------------------------------------------------------------------- C13: trumping


def test_void_player_undertrumps_when_the_trick_is_already_overtrumped() -> None:
    """DE's order of duties: void, so trump; beat if able; "any card" only with neither the
    suit nor a trump. A void player who cannot overtrump must undertrump, not discard."""
    rules = fixture_ruleset()
    deal = deal_of(
        rules,
        0,
        {
            1: "MIX MVIII TVII TVIII",
            2: "PA ZA ZX",
            0: "PVII PVIII ZVII ZIX ZVIII TA TX TK TF TAl",
        },
    )
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "simple_red", "TVII TVIII")
    play(hand, "MIX", "PA")
    # Seat 0 is void in acorns and cannot beat the Ace of trumps: it must still trump.
    assert set(hand.legal_card_list()) == {c("PVII"), c("PVIII")}
    with pytest.raises(IllegalAction, match=r"must trump: no acorns \(Makk\) in hand"):
        hand.apply(Play(c("ZVII")))
    play(hand, "PVIII")
    assert hand.tricks[0][2] == 2, "the Ace of trumps wins"


# --------------------------------------------------------------------------- ranks


def test_side_suit_tens_low_decide_the_trick_where_the_ruleset_says() -> None:
    """IT: side suits rank A K O U 10 9 8 7 in a trump game; the trump suit keeps its ten high."""
    tens_low = ["ace", "king", "over", "under", "ten", "nine", "eight", "seven"]
    rules = fixture_ruleset(**{"ranks.trump_game_side_suits": tens_low})
    deal = deal_of(rules, 0, {1: "ZX PX TVII TVIII", 2: "ZAl PK", 0: "ZVII PVII"})
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "simple_red", "TVII TVIII")
    play(hand, "ZX")
    assert c("ZAl") in hand.legal_card_list(), "the Under beats a side-suit ten here"
    play(hand, "ZAl", "ZVII")
    assert hand.tricks[0][2] == 2
    while hand.phase == "kontra":
        hand.apply(Pass())
    # Seat 2 leads its King of trumps; the declarer's trump ten is higher.
    play(hand, "PK", "PVII")
    assert c("PX") in hand.legal_card_list()
    play(hand, "PX")
    assert hand.tricks[1][2] == 1, "the trump ten beats the trump King"


# --------------------------------------------------------------------------- the Ulti 7

ULTI_DEALS = {
    # the declarer's only trump is the 7
    "seven only": (
        "MVII TA TX TK TF TAl TIX TVIII TVII PA PX PK",
        "MX MK MF MAl MIX MVIII ZA ZX PAl PF",
        "PX PK",
    ),
    # the declarer holds the 7 and the IX of trumps
    "seven and nine": (
        "MVII MIX TA TX TK TF TAl TIX TVIII TVII PA PX",
        "MX MK MF MAl MVIII ZA ZX PAl PF PK",
        "PA PX",
    ),
}


def ulti_hand(which: str, *, kontra: bool = False) -> Hand:
    """Acorns trump; the declarer (seat 1) is void in leaves. Seat 2 ruffs his lead with
    its only trump (calling kontra on the Ulti first, if asked) and leads a leaf to trick 2,
    seat 0 follows, and the declarer is to play."""
    declarer, seat0, discard = ULTI_DEALS[which]
    rules = fixture_ruleset()
    deal = deal_of(
        rules, 0, {1: declarer, 2: "MA ZVII ZVIII ZIX ZAl ZF ZK PVII PVIII PIX", 0: seat0}
    )
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "ulti", discard, trump="acorns")
    play(hand, "TA")
    if kontra:
        hand.apply(Kontra(("ulti",), 1))
    play(hand, "MA", "MVIII")
    assert hand.tricks[0][2] == 2
    while hand.phase == "kontra":
        hand.apply(Pass())
    play(hand, "ZVII", "ZX")  # seat 0 follows; the declarer plays last
    return hand


def test_ulti_declarer_keeps_the_seven_when_another_trump_is_legal() -> None:
    """WP: he may not play the trump 7 before the last trick unless the rules of play
    require it; void in leaves with two trumps, he ruffs with the other one."""
    hand = ulti_hand("seven and nine")
    assert hand.legal_card_list() == (c("MIX"),)
    with pytest.raises(IllegalAction, match=r"keeps the trump 7 \(Makk VII\)"):
        hand.apply(Play(c("MVII")))


def test_ulti_seven_forced_out_loses_the_ulti_with_an_unmultiplied_penalty() -> None:
    """Void with the 7 as his only trump he must ruff with it; the Ulti is then lost:
    value x kontra + 4 (WP, DE, HU: the penalty is not multiplied), the Simple judged apart."""
    hand = ulti_hand("seven only", kontra=True)
    assert hand.legal_card_list() == (c("MVII"),)
    play(hand, "MVII")
    finish(hand)
    facts, contract = hand.facts, hand.contract
    assert facts is not None and contract is not None
    assert facts.trump_seven_early == 1 and facts.trump_seven_last_trick is None
    result = settle(hand.ruleset, contract, facts)
    ulti = result.line("ulti")
    assert not ulti.made and ulti.kontra == 2 and ulti.penalty == 4
    assert ulti.amount == -(4 * 2 + 4)
    assert result.line("parti").kontra == 1, "the kontra named only the Ulti"
    assert sum(result.payments.values()) == 0


@pytest.mark.parametrize(("level", "loss"), [(0, -16), (1, -24), (2, -40)])
def test_red_ulti_penalty_is_8_and_not_multiplied_by_kontra(level: int, loss: int) -> None:
    rules = make_ruleset()
    facts = make_facts(trump="hearts", seven_last=0, last=2)
    kontra = {"ulti": {1: level, 2: level}} if level else None
    result = settle(rules, make_contract("ulti_red", trump="hearts", kontra=kontra), facts)
    assert result.line("ulti").penalty == 8
    assert result.line("ulti").amount == loss


# --------------------------------------------------------------------------- the auction


def test_min_components_leaves_only_combined_bids() -> None:
    """IT's tournament rule: every bid has at least two components (the implied Simple
    counts), for the opener and for every later bidder."""
    rules = fixture_ruleset(**{"auction.min_components": 2})
    hand = Hand(rules, seed=3, dealer=0)
    hand.apply(Discard(tuple(hand.cards(1)[:2])))
    assert [a for a in hand.legal_actions() if isinstance(a, Bid)] == [Bid("ulti"), Bid("ulti_red")]
    with pytest.raises(IllegalAction, match="at least 2 components"):
        hand.apply(Bid("simple"))
    hand.apply(Bid("ulti"))
    hand.apply(PickUp())
    hand.apply(Discard(tuple(hand.cards(2)[:2])))
    assert hand.legal_actions() == [Bid("ulti_red")], "betli (one component) is not offered"


# --------------------------------------------------------------------------- silent bonuses


def test_wp_silent_durchmars_lost_when_one_defender_takes_every_trick() -> None:
    """WP: the soloist pays twice the value, four times in a red bid (3 -> 6 -> 12), under
    the kontra of the bid's Simple; a Durchmars shared by both defenders is nobody's."""
    rules = make_ruleset()
    one_takes_all = make_facts(
        trump="hearts",
        tricks={0: 0, 1: 10, 2: 0},
        declarer_points=0,
        defender_points=90,
        aces=[1, 1, 1, 1],
        last=1,
    )
    result = settle(rules, make_contract("ulti_red", trump="hearts"), one_takes_all)
    line = result.line("silent_durchmars")
    assert (line.made, line.by, line.value, line.amount) == (False, "declarer", 6, -12)
    kontrad = make_contract("ulti_red", trump="hearts", kontra={"parti": {1: 1, 2: 1}})
    assert settle(rules, kontrad, one_takes_all).line("silent_durchmars").amount == -24
    shared = make_facts(
        trump="hearts",
        tricks={0: 0, 1: 5, 2: 5},
        declarer_points=0,
        defender_points=90,
        aces=[1, 2, 1, 2],
        last=2,
    )
    lines = settle(rules, make_contract("ulti_red", trump="hearts"), shared).lines
    assert "silent_durchmars" not in [line.what for line in lines]


# --------------------------------------------------------------------------- kontra per defender


def test_betli_kontra_by_one_defender_settles_per_defender() -> None:
    """WP, DE, HU: in a no-trump component a kontra binds only its caller; after his
    rekontra the declarer settles x4 with that defender and x1 with the other."""
    rules = fixture_ruleset()
    hand = Hand(rules, seed=21, dealer=0)
    hand.apply(Discard(tuple(hand.cards(1)[:2])))
    hand.apply(Bid("betli"))
    for _ in range(3):
        hand.apply(Pass())
    hand.play_card(hand.legal_card_list()[0])
    hand.apply(Kontra(("betli",), 1))  # seat 2 only
    hand.play_card(hand.legal_card_list()[0])
    hand.play_card(hand.legal_card_list()[0])
    assert hand.phase == "kontra" and hand.current_player == 1
    hand.apply(Kontra(("betli",), 2))
    finish(hand)
    facts, contract = hand.facts, hand.contract
    assert facts is not None and contract is not None
    assert contract.kontra == {"betli": {2: 2, 0: 0}}
    line = settle(rules, contract, facts).line("betli")
    sign = 1 if line.made else -1
    assert {s.seat: s.amount for s in line.shares} == {2: sign * 5 * 4, 0: sign * 5}
    assert line.amount is None and line.kontra is None, "the amounts differ per defender"


# --------------------------------------------------------------------------- trump and the bid


def test_a_non_red_bid_cannot_be_settled_with_the_red_suit_as_trump() -> None:
    """WP, DE, HU: hearts is trump only through the red bid, which doubles every component;
    a plain Ulti "in hearts" would be paid at single value, so it is refused."""
    rules = make_ruleset()
    facts = make_facts(trump="hearts", seven_last=0)
    with pytest.raises(SettlementError, match="hearts is trump only in a red bid"):
        settle(rules, make_contract("ulti", trump="hearts"), facts)
    gametwist_like = make_ruleset(trump={"red_suit_needs_red_bid": False})
    result = settle(gametwist_like, make_contract("ulti", trump="hearts"), facts)
    assert [line.amount for line in result.lines] == [1, 4], "GT: any suit, single value"


def test_a_fixed_trump_ruleset_settles_only_that_trump() -> None:
    rules = make_ruleset(trump={"fixed": "hearts"})
    with pytest.raises(SettlementError, match="trump is always hearts"):
        settle(rules, make_contract("ulti", trump="acorns"), make_facts(trump="acorns"))
    made = make_facts(trump="hearts", seven_last=0)
    result = settle(rules, make_contract("ulti", trump="hearts"), made)
    assert [line.amount for line in result.lines] == [1, 4], "IT: hearts always, single value"


def test_a_red_bid_in_a_wikipedia_hand_still_settles() -> None:
    result = settle(
        load_ruleset("wikipedia"),
        make_contract("ulti_red", trump="hearts"),
        make_facts(trump="hearts", seven_last=0),
    )
    assert [line.amount for line in result.lines] == [2, 8]


def test_the_score_keeper_names_a_trump_other_than_the_fixed_one(tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text("extends: wikipedia\nname: club\ntrump: {fixed: hearts}\n")
    document = tmp_path / "hand.yaml"
    document.write_text(
        "ruleset: ./club.yaml\nplayers: [Anna, Ben, Carla]\ndeclarer: Anna\nbid: ulti\n"
        "trump: acorns\npoints: {declarer: 60, defenders: 30}\n"
        "tricks: {Anna: 6, Ben: 2, Carla: 2}\nlast_trick: {winner: Anna, trump_seven: Anna}\n"
        "aces: [Anna, Ben]\n",
        "utf-8",
    )
    with pytest.raises(SheetError) as caught:
        settle_sheet(document)
    (problem,) = caught.value.problems
    assert problem.line == 5 and "trump is always hearts in 'club', not acorns" in str(problem)
    typed = document.read_text("utf-8").replace("trump: acorns", "trump: hearts")
    document.write_text(typed, "utf-8")
    _, result = settle_sheet(document)
    assert [line.amount for line in result.lines] == [1, 4]
