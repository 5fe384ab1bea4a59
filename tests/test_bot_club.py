"""The club bot: legal, seeded, and playing the way a club player does.

Positions are dealt explicitly (dealer 0, so forehand, the declarer, is seat 1, then
seat 2, then seat 0) and played up to the card the test is about. Cards in Hungarian
notation: M Makk (acorns, the trump where there is one), Z Zöld (leaves), P Piros
(hearts), T Tök (bells); A X K F(első) Al(só) IX VIII VII.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import seed as fixed_seed
from ulti_rules.bots import ClubPlayer, bot, play_out
from ulti_rules.bots.bid_shape import Part, bid_shapes
from ulti_rules.bots.hand_strength import HandView, chance
from ulti_rules.bots.talon import choose_discard
from ulti_rules.cards import format_card, parse_card, parse_cards, suit_number
from ulti_rules.engine import Action, Announce, Bid, Hand, Kontra, Pass, Play
from ulti_rules.ruleset.loading import load_game, load_ruleset

from conftest import BUNDLED_RULESETS
from engine_fixtures import bid_and_play, deal_of
from ruleset_strategies import Club, club_rulesets


def mask(text: str) -> int:
    return sum(1 << card for card in parse_cards(text))


class Checked:
    """Wraps a bot: asserts each choice is among the legal actions, and keeps them."""

    name: ClassVar[str] = "checked"
    description: ClassVar[str] = "a bot under test"

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.chosen: list[tuple[int, Action]] = []

    def choose(self, hand: Hand, rng: random.Random) -> Action:
        seat = hand.current_player
        assert seat is not None
        action = self.inner.choose(hand, rng)
        assert action in hand.legal_actions(), (action, hand.phase, hand.step)
        self.chosen.append((seat, action))
        return action


def play(hand: Hand, *cards: str) -> None:
    for card in cards:
        hand.play_card(parse_card(card))


def pass_kontra_round(hand: Hand) -> None:
    while hand.phase == "kontra":
        hand.apply(Pass())


def club_card(hand: Hand, seed: int = 0) -> str:
    """The card the club bot plays for the seat to act (after announcing its marriages)."""
    club, rng = ClubPlayer(), random.Random(seed)
    action = club.choose(hand, rng)
    while isinstance(action, Announce):
        hand.apply(action)
        action = club.choose(hand, rng)
    assert isinstance(action, Play), action
    return format_card(action.card)


# --------------------------------------------------------------------------- the whole game


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_every_choice_is_legal(name: str) -> None:
    """Every bundled ruleset (Four Aces' fragment in ``wikipedia``): seeded hands of three
    club bots, each choice among the legal actions, every hand played to its end."""
    game = load_game(name)
    rng = random.Random(5)
    for seed in range(10):
        checked = Checked(ClubPlayer())
        hand = play_out(
            game.new_hand(seed=seed, dealer=seed % game.ruleset.players.count), checked, rng
        )
        assert hand.is_over and checked.chosen


@settings(
    max_examples=12,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@fixed_seed(9)
@given(club=club_rulesets())
def test_every_choice_is_legal_under_drawn_club_rulesets(club: Club) -> None:
    """Any club's ladder, values and rules (``ruleset_strategies``): the bot adapts, and
    never crashes or chooses an illegal action."""
    with tempfile.TemporaryDirectory() as folder:
        rules = load_ruleset(club.write(Path(folder)))
    rng = random.Random(1)
    for seed in range(2):
        hand = Hand(rules, seed=seed, dealer=seed % rules.players.count)
        assert play_out(hand, Checked(ClubPlayer()), rng).is_over


def test_the_same_seed_plays_the_same_hand() -> None:
    game = load_game("wikipedia")
    one = play_out(game.new_hand(seed=4), bot("club"), random.Random(9))
    two = play_out(game.new_hand(seed=4), bot("club"), random.Random(9))
    assert one.history == two.history and one.facts == two.facts
    histories = {
        play_out(game.new_hand(seed=s), bot("club"), random.Random(1)).history for s in range(4)
    }
    assert len(histories) == 4


def test_it_is_registered_with_its_description() -> None:
    club = bot("club")
    assert isinstance(club, ClubPlayer)
    assert club.description == "bids from an evaluation of its hand, plays like a club player"


def test_it_never_chains_kontras() -> None:
    """Against random bots that double and redouble: at most one call per component per
    club seat, never above Rekontra, under the unlimited kontra of ``wikipedia``."""
    game = load_game("wikipedia")
    rng = random.Random(2)
    calls = 0
    for seed in range(60):
        club = Checked(ClubPlayer())
        seats: list[Any] = [bot("random"), bot("random"), bot("random")]
        seats[seed % 3] = club
        play_out(game.new_hand(seed=seed, dealer=seed % 3), seats, rng)
        called: set[tuple[int, str]] = set()
        for seat, action in club.chosen:
            if isinstance(action, Kontra):
                calls += 1
                assert action.level <= 2
                for component in action.components:
                    assert (seat, component) not in called
                    called.add((seat, component))
    assert calls > 0, "the club bot does call kontra on a strong hand"


def test_it_beats_the_simple_bot() -> None:
    """A small run of what benchmarks/bench_bots.py measures: one club seat, rotating,
    against two simple seats wins on average."""
    game = load_game("wikipedia")
    rng = random.Random(3)
    total = 0
    hands = 90
    for seed in range(hands):
        seat = seed % 3
        players: list[Any] = [bot("simple")] * 3
        players[seat] = bot("club")
        hand = play_out(game.new_hand(seed=seed, dealer=(seed // 3) % 3), players, rng)
        if hand.contract is not None:
            total += game.settle(hand.contract, hand.facts, trusted=True).payments[seat]
    assert total / hands > 1.0


# --------------------------------------------------------------------------- bidding


def test_a_strong_hand_bids_higher_than_a_weak_one() -> None:
    game = load_game("wikipedia")
    ranks = {info.id: info.bid.rank for info in game.catalog.ladder}

    def opening(cards: str) -> str:
        hand = game.new_hand(deal=deal_of(game.ruleset, 0, {1: cards}), dealer=0)
        club = ClubPlayer()
        rng = random.Random(0)
        hand.apply(club.choose(hand, rng))  # the discard
        action = club.choose(hand, rng)
        assert isinstance(action, Bid)
        return action.bid

    strong = opening("MA MX MK MF MAl MIX MVIII MVII ZA PA TA TX")
    weak = opening("MVII MVIII ZVII ZVIII ZIX PVII PVIII PIX TVII TVIII TIX ZAl")
    assert ranks[strong] > ranks[weak]
    assert bid_shapes(game)[strong].purpose == "allwin", "every card a winner: a Durchmars"


def test_an_unknown_kind_counts_only_where_the_hand_is_trivially_strong() -> None:
    """A plugin's kind is worth bidding only where a Durchmars in that trump is near sure."""
    game = load_game("wikipedia")
    unknown = Part("plugin", "unknown", 4, 0, False, True, 0)
    view = HandView(game, 0)
    acorns = suit_number("acorns")
    everything = mask("MA MX MK MF MAl MIX MVIII MVII ZA PA")
    ordinary = mask("MA MX MK MIX ZA ZK PVII PVIII TA TVII")
    assert chance(view, everything, acorns, unknown) >= 0.95
    assert chance(view, ordinary, acorns, unknown) == 0.0


def test_the_discard_voids_a_short_suit_and_keeps_the_trump_seven() -> None:
    game = load_game("wikipedia")
    hand = mask("MA MX MK MAl MIX MVII ZA ZX ZK TVIII PVII PVIII")
    pair = choose_discard(game, hand, suit_number("acorns"), "points")
    kept = hand & ~mask(" ".join(format_card(c) for c in pair))
    assert kept & mask("MA MX MK MAl MIX MVII ZA") == mask("MA MX MK MAl MIX MVII ZA")
    assert not kept & mask("TVIII") or not kept & mask("PVII PVIII"), "a side suit voided"


def test_points_go_to_the_talon_only_where_they_count_for_the_declarer() -> None:
    """A bare ten: thrown in the talon where its points are the declarer's (WP), kept
    where the talon's points go to the defenders (DE)."""
    hand = mask("MA MX MK MF MAl MIX ZA ZK ZF TX TVIII PA")
    acorns = suit_number("acorns")
    declarers = choose_discard(load_game("wikipedia"), hand, acorns, "points")
    defenders = choose_discard(load_game("older-20-100"), hand, acorns, "points")
    assert parse_card("TX") in declarers
    assert parse_card("TX") not in defenders


# --------------------------------------------------------------------------- the play


SMEAR_DEAL = {
    1: "MA MX MK MF MAl MIX MVIII MVII PVII PVIII ZX ZK",
    2: "PA PX PK PF PAl PIX TA TX ZF ZAl",
    0: "ZA ZVII ZVIII ZIX TVII TVIII TIX TAl TF TK",
}


def test_it_smears_an_ace_onto_its_partners_trick() -> None:
    """The partner's Piros Ász takes the trick; void in hearts and without trumps, the
    club bot gives it the Zöld Ász rather than a low card."""
    game = load_game("older-20-100")
    hand = game.new_hand(deal=deal_of(game.ruleset, 0, SMEAR_DEAL), dealer=0)
    bid_and_play(hand, "parti", "ZX ZK", trump="acorns")
    play(hand, "PVII", "PA")
    assert hand.current_player == 0
    assert club_card(hand) == "ZA"


BETLI_DEAL = {
    1: "MA ZA PAl PIX PVII MVII MVIII MIX ZVII ZVIII TVII TVIII",
    2: "MK PF PA PK ZX ZK TA TX TK TF",
    0: "PX PVIII MX MF MAl ZF ZAl ZIX TAl TIX",
}


def test_the_betli_declarer_ducks_with_his_highest_card_that_stays_under() -> None:
    game = load_game("wikipedia")
    hand = game.new_hand(deal=deal_of(game.ruleset, 0, BETLI_DEAL), dealer=0)
    bid_and_play(hand, "betli", "MA ZA")
    play(hand, "MVII", "MK", "MX")
    pass_kontra_round(hand)
    play(hand, "PF", "PVIII")
    assert hand.current_player == 1
    assert club_card(hand) == "PAl"


LEAD_DEAL = {
    1: "MX MK MF MAl MIX MVIII MVII ZX ZK ZVII PVIII PVII",
    2: "MA ZA PX PK PAl PIX TA TX TAl TVII",
    0: "ZF ZAl ZIX ZVIII PA PF TK TF TIX TVIII",
}


def lead_position(bid: str, ruff: str) -> Hand:
    """The declarer has shown out of bells (he trumped a bell with ``ruff``) and lost a
    trick since; seat 0, sitting before him, is to lead."""
    game = load_game("older-20-100")
    hand = game.new_hand(deal=deal_of(game.ruleset, 0, LEAD_DEAL), dealer=0)
    bid_and_play(hand, bid, "ZX ZK", trump="acorns")
    play(hand, "ZVII", "ZA", "ZVIII")
    pass_kontra_round(hand)
    play(hand, "TVII", "TVIII", ruff)
    play(hand, "PVII", "PIX", "PA")
    assert hand.current_player == 0
    return hand


def test_a_defender_leads_through_the_declarer_a_suit_he_must_answer() -> None:
    card = club_card(lead_position("parti", "MVII"))
    assert card[0] != "T", "not bells, which the declarer has shown out of: he would trump"
    assert card[0] != "M"


def test_against_an_ulti_a_defender_leads_the_suit_the_declarer_must_trump() -> None:
    """Against an Ulti the lead makes the declarer spend a trump (his 7 stays back), and
    the defender's own trumps stay in hand for the last trick."""
    card = club_card(lead_position("ulti", "MVIII"))
    assert card[0] == "T"


def test_the_ulti_declarer_wins_the_last_trick_with_the_trump_seven() -> None:
    """Played out by club bots from the lead above: the declarer's Makk VII goes to the
    last trick."""
    hand = lead_position("ulti", "MVIII")
    play_out(hand, bot("club"), random.Random(1))
    assert hand.facts is not None
    assert hand.facts.trump_seven_last_trick == 1
    assert parse_card("MVII") in hand.tricks[-1][1]


# --------------------------------------------------------------------------- the random bot


def test_the_random_bot_calls_a_kontra_only_now_and_then() -> None:
    """Where a kontra is legal it calls one about one time in ten (``KONTRA_CHANCE``), so
    the unlimited chains of ``wikipedia`` stay short."""
    game = load_game("wikipedia")
    rng = random.Random(4)
    offered = called = 0
    highest = 0
    for seed in range(150):
        hand = game.new_hand(seed=seed, dealer=seed % 3)
        random_bot = bot("random")
        while not hand.is_over:
            legal = hand.legal_actions()
            action = random_bot.choose(hand, rng)
            if any(isinstance(a, Kontra) for a in legal):
                offered += 1
                called += isinstance(action, Kontra)
            hand.apply(action)
        if hand.contract is not None:
            highest = max([highest, *(max(v.values()) for v in hand.contract.kontra.values())])
    assert offered > 200
    assert 0.04 < called / offered < 0.18
    assert highest <= 4
