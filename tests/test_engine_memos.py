"""What the engine works out once and shares, checked against working it out afresh.

Random legal play asks the same questions again and again; the answers are memoised
by the game (the auction's legal lists per situation, the kontra chains' situations as
nodes of a graph, what the play starts from) and the deal's shuffle is
``random.shuffle`` inlined. Each test here fails if a memo answers otherwise than the
computation it stands for, or if the shuffle deals other cards than ``random.shuffle``.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from itertools import combinations

import pytest
from ulti_rules.engine import Hand, Kontra, Pass
from ulti_rules.engine import kontra as kontra_module
from ulti_rules.engine.actions import DISCARDS
from ulti_rules.engine.auction import Auction
from ulti_rules.engine.deal import shuffled_deck
from ulti_rules.engine.kontra import ROUND, TRICK1, KontraChains, Memos
from ulti_rules.engine.masks import cards_of
from ulti_rules.engine.phase import Step
from ulti_rules.engine.trump import marriages_in
from ulti_rules.game import Game
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.seeding import seeded

from conftest import BUNDLED_RULESETS


@pytest.mark.parametrize("seed", [*range(200), "seven", "", 2**70, -12])
def test_the_shuffle_deals_what_random_shuffle_deals(seed: int | str) -> None:
    deck = list(range(32))
    seeded(seed).shuffle(deck)
    assert shuffled_deck(seed) == deck
    if not (isinstance(seed, int) and seed < 0):  # as random.Random deals them: unchanged
        deck = list(range(32))
        random.Random(seed).shuffle(deck)
        assert shuffled_deck(seed) == deck


def test_a_negative_seed_deals_its_own_cards() -> None:
    """``random.Random(-n)`` is ``random.Random(n)``: seeds -k..k dealt each deal twice
    (found by a simulate review)."""
    decks = {seed: tuple(shuffled_deck(seed)) for seed in range(-300, 301)}
    assert len(set(decks.values())) == len(decks)
    assert shuffled_deck(-12) == list(decks[-12])  # and the same every time


def random_states(name: str, hands: int, step: str) -> list[Hand]:
    """Copies of random hands of ``name`` at every auction state of ``step``."""
    game = Game.of(load_ruleset(name))
    found = []
    for number in range(hands):
        rng = random.Random(number)
        hand = game.new_hand(seed=number, dealer=number % game.ruleset.players.count)
        while not hand.is_over:
            if hand.phase == "auction" and hand.step == step:
                found.append(hand.clone())
            hand.apply(rng.choice(hand.legal_actions()))
    return found


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_the_memoised_auction_lists_are_the_computed_ones(name: str) -> None:
    """Every bid, speak, round-1 and confirm list comes from the memo; each equals what the
    auction's rules give for that very hand, so the memo's key holds all they depend on."""
    asked = 0
    for step in ("speak", "bid", "round1", "confirm"):
        for hand in random_states(name, 40, step):
            auction: Auction = hand._auction
            seat = auction.turn
            listed = auction.legal(hand._hands)
            assert listed == tuple(auction._compute_legal(seat, hand._hands[seat], Step(step)))
            asked += 1
    assert asked > 100


def oracle_discards(auction: Auction, hand: int) -> list[object]:
    """The legal discards by asking, pair by pair, whether a bid stays makeable."""
    if not auction._discard_needs_bid():
        return [DISCARDS[p] for p in combinations(cards_of(hand), 2)]
    confirm = auction.confirm_due
    situation = auction._situation(confirm)
    if auction._at_all(situation, confirm)[1]:
        return [DISCARDS[p] for p in combinations(cards_of(hand), 2)]
    # the whole hand makes no bid (a round-1 bid to confirm, or a talon taken unseen that
    # brought no marriage): the bid is made unsuitable, and any pair may go
    forced = not auction._feasible_with(marriages_in(hand), situation, confirm)
    return [
        DISCARDS[(a, b)]
        for a, b in combinations(cards_of(hand), 2)
        if forced
        or auction._feasible_with(marriages_in(hand & ~(1 << a) & ~(1 << b)), situation, confirm)
    ]


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_the_discards_listed_are_those_that_keep_a_bid(name: str) -> None:
    """The discard list (every pair but those losing the last makeable bid, cut out of the
    full list by their places) against a pair-by-pair oracle; some lists must lose pairs."""
    cut = 0
    for hand in random_states(name, 60, "discard"):
        auction: Auction = hand._auction
        held = hand._hands[auction.turn]
        listed = list(auction.legal(hand._hands))
        assert listed == oracle_discards(auction, held)
        for pair in combinations(cards_of(held), 2):
            assert (hand.why_refused(DISCARDS[pair]) is None) == (DISCARDS[pair] in listed)
        cut += len(listed) < len(list(combinations(cards_of(held), 2)))
    if name == "wikipedia":
        assert cut > 0, "no discard list lost a pair: the refused case went untested"


def betli_chains(memos: Memos) -> KontraChains:
    ruleset = load_ruleset("wikipedia")
    return KontraChains(ruleset, Game.of(ruleset).bid("betli"), (0, 2), memos)


def test_kontra_nodes_are_shared_and_stand_for_their_levels() -> None:
    """Chains of one setting reach the same node by the same kontras; a copy shares the
    node, and a kontra on the copy leaves the original where it was."""
    memos = Memos()
    one, two = betli_chains(memos), betli_chains(memos)
    assert two.setting is one.setting and two.node is one.node
    copy = one.clone()
    copy.apply(Kontra(("betli",), 1), 0, False)
    assert one.as_dict() == {"betli": {0: 0, 2: 0}}
    assert copy.as_dict() == {"betli": {0: 1, 2: 0}}, "in Betli each defender has his chain"
    two.apply(Kontra(("betli",), 1), 0, False)
    assert two.node is copy.node, "the same kontra from the same levels: the same node"
    two.apply(Kontra(("betli",), 2, 0), 1, True)
    assert two.as_dict() == {"betli": {0: 2, 2: 0}} and copy.as_dict() == {"betli": {0: 1, 2: 0}}
    other = betli_chains(Memos())
    assert other.setting is not one.setting and other.node == one.node, "equal by the levels"


def test_kontra_answers_from_the_nodes_match_building_them_afresh() -> None:
    """At every kontra situation of random wikipedia hands, the kontras listed (and whether
    each seat can call in the round) equal those built from the levels alone."""
    game = Game.of(load_ruleset("wikipedia"))
    checked = 0
    for number in range(150):
        rng = random.Random(number)
        hand = game.new_hand(seed=number, dealer=number % 3)
        while not hand.is_over:
            chains = hand._kontra
            if chains is not None and hand.phase in ("play", "kontra") and hand._trick_no == 0:
                moment = ROUND if hand.phase == "kontra" else TRICK1
                for seat in hand.seats.active:
                    declarer = seat == hand._declarer
                    assert chains.actions(seat, declarer, moment) == tuple(
                        chains._build_actions(seat, declarer, moment)
                    )
                    checked += 1
            hand.apply(rng.choice(hand.legal_actions()))
    assert checked > 1000


def random_steps(game: Game, hands: int) -> Iterator[Hand]:
    """Each step of ``hands`` random hands of ``game`` (seeds 0, 1, ..., the dealer
    rotating), before its random action is taken."""
    players = game.ruleset.players.count
    for number in range(hands):
        rng = random.Random(number)
        hand = game.new_hand(seed=number, dealer=number % players)
        while not hand.is_over:
            yield hand
            hand.apply(rng.choice(hand.legal_actions()))


def play_random_hands(game: Game, hands: int) -> None:
    """Play :func:`random_steps`' hands to their end, for what the game's memos learn."""
    for _ in random_steps(game, hands):
        pass


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_every_kontra_leads_where_it_raises_the_levels_whether_remembered_or_not(
    name: str,
) -> None:
    """A node keeps each kontra called from it under one int (components, level, target,
    caller and side): at every kontra situation of random hands, every kontra listed
    leads, the first time and again, to the levels it raises when worked out afresh. Two
    kontras packed to one key would lead the second to the first one's levels."""
    moved = again = 0
    for hand in random_steps(Game(load_ruleset(name)), 60):  # fresh memos: learnt here
        chains = hand._kontra
        if chains is not None and hand.phase in ("play", "kontra"):
            for seat in hand.seats.active:
                declarer = seat == hand._declarer
                for moment in (TRICK1, ROUND):
                    for action in chains.actions(seat, declarer, moment):
                        for _ in range(2):
                            copy = chains.clone()
                            expected = copy._raise(action, seat, declarer)
                            copy.apply(action, seat, declarer)
                            assert copy.node.flat == expected, (name, hand.seed, action)
                            moved += 1
                        again += 1
    assert moved > 1000 and again > 500


def test_a_kontra_whose_components_skipped_the_sorting_leads_where_the_sorted_one_does() -> None:
    """A Kontra sorts its components when built; one that skipped that (its fields set
    afterwards, as a crafted pickle may) is still taken, and moves the chains as the
    sorted one does, instead of failing the node's look-up of its key."""
    taken = 0
    for hand in random_steps(Game(load_ruleset("wikipedia")), 40):
        listed = [a for a in hand.legal_actions() if type(a) is Kontra and len(a.components) > 1]
        if listed and taken < 20:
            action = listed[0]
            unsorted = Kontra(action.components, action.level, action.against)
            object.__setattr__(unsorted, "components", tuple(reversed(action.components)))
            one, other = hand.clone(), hand.clone()
            one.apply(action)
            other.apply(unsorted)
            assert other.kontra_levels == one.kontra_levels
            taken += 1
    assert taken == 20


def spoken_next(hand: Hand, start: int, passed: int) -> tuple[int, int]:
    """The kontra round's next speaker worked out from the rule, without the node's memo:
    the first seat from ``start`` on, in the order of play, that has not passed and has a
    kontra to call; the seats passed over join ``passed``."""
    chains = hand._kontra
    assert chains is not None
    seat = start
    for _ in range(len(hand.seats.active)):
        if not passed >> seat & 1:
            if chains._build_actions(seat, seat == hand._declarer, ROUND):
                return seat, passed
            passed |= 1 << seat
        seat = hand.seats.after[seat]
    return -1, passed


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_the_kontra_round_s_next_speaker_kept_by_the_node_is_the_rule_s(name: str) -> None:
    """Every question the kontra round asks in random hands (who speaks next, from which
    seat, after which passes, with which declarer and seating: a node is shared by hands
    of other declarers and, with four players, other seats sitting out) is answered as
    the rule says, the first time and when the node answers it again."""
    game = Game(load_ruleset(name))  # fresh memos: answers learnt in this test only
    players = game.ruleset.players.count
    asked = again = 0
    for hand in random_steps(game, 40):
        chains = hand._kontra
        if chains is not None and hand.phase == "kontra" and not hand._kafter:
            seats, declarer = hand.seats, hand._declarer
            count = len(seats.active)
            for start in seats.active:
                for passed in range(1 << players):
                    known = (start | passed << 2 | declarer << 6) in chains.node
                    answer = chains.round_speaker(start, seats.after, count, declarer, passed)
                    assert answer == spoken_next(hand, start, passed), (hand.seed, start, passed)
                    asked += 1
                    again += known
    assert asked > 500 and again > 50


def test_the_kontra_tables_stay_bounded_and_answer_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for only a few nodes and answers the tables are emptied again and again:
    hands play exactly as with room for all, and no table outgrows its limit."""
    name = "wikipedia"

    def play(limit: int | None) -> list[object]:
        if limit is not None:
            monkeypatch.setattr(kontra_module, "_LIMIT", limit)
            monkeypatch.setattr(kontra_module, "_NODE_LIMIT", limit)
        game = Game(load_ruleset(name))  # a game of its own: fresh memos
        seen: list[object] = []
        for number in range(60):
            rng = random.Random(number)
            hand = game.new_hand(seed=number, dealer=number % 3)
            while not hand.is_over:
                hand.apply(rng.choice(hand.legal_actions()))
            seen.append((hand.history, hand.kontra_levels))
        if limit is not None:
            memos = game.derived("kontra memos", Memos)
            assert memos.nodes == sum(len(s.nodes) for s in memos.settings.values()) <= limit
            assert all(len(s.by_view) <= limit for s in memos.settings.values())
            assert all(len(s.edge_keys) <= limit for s in memos.settings.values())
            assert len(memos.answers) <= limit
        return seen

    assert play(4) == play(None)


def test_nodes_that_a_side_sees_alike_share_one_answer() -> None:
    """A node keeps the answer of its side's view itself, not a copy: 2,000 random hands
    meet some 7,000 nodes, and two tuples made for each node and seat were most of the
    objects the garbage collector walked (122,000 tuples after 6,000 hands, 58,000 now)."""
    game = Game(load_ruleset("wikipedia"))
    play_random_hands(game, 80)
    memos = game.derived("kontra memos", Memos)
    kept = shared = 0
    for setting in memos.settings.values():
        answers = {id(answer) for answer in setting.by_view.values()}
        for node in setting.nodes.values():
            for (seat, declarer, _moment), answer in node.answers():
                if setting.view(node.flat, seat, declarer) is not None:
                    kept += 1
                    shared += id(answer) in answers
                kontras, words = answer
                assert words == (*kontras, Pass())
    assert kept > 100 and shared == kept


def test_each_hand_plays_from_its_own_start_of_play() -> None:
    """What the play starts from is kept per bid, trump, declarer and dealer: the same bid
    by another declarer leads, and keeps the trump 7, from his own seat."""
    game = Game.of(load_ruleset("wikipedia"))
    starts = {}
    for number in range(300):
        rng = random.Random(number)
        hand = game.new_hand(seed=number, dealer=number % 3)
        while hand.phase == "auction" or hand.phase == "trump":
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.phase != "play":
            continue
        info = hand.bid_info
        assert info is not None
        expected_lead = (
            hand.declarer if game.ruleset.play.first_lead == "declarer" else hand.seats.forehand
        )
        assert hand.current_player == expected_lead
        assert hand._ulti_seat == (hand.declarer if info.keeps_seven else -1)
        starts[(info.id, hand.declarer)] = hand._turn
    assert len({declarer for _, declarer in starts}) == 3


def test_the_nodes_share_one_int_for_each_key() -> None:
    """An int above 256 is a new object each time it is computed: every node kept copies
    of the same few keys, 2.1 MB of 20.2 MB after 12,000 random hands. The keys of the
    answers a node keeps are now the module's own objects, and the keys of the kontras
    that lead on from it its setting's."""
    game = Game(load_ruleset("wikipedia"))
    play_random_hands(game, 60)
    memos = game.derived("kontra memos", Memos)
    keys = [
        key
        for setting in memos.settings.values()
        for node in setting.nodes.values()
        for key in node
        if kontra_module._ACTIONS_KEYS <= key < kontra_module._ACTIONS_KEYS_END
    ]
    assert len(keys) > 100
    assert all(key is kontra_module._ANSWER_KEYS[key - kontra_module._ACTIONS_KEYS] for key in keys)
    edges = [
        (setting, key)
        for setting in memos.settings.values()
        for node in setting.nodes.values()
        for key in node
        if key < 0
    ]
    assert len(edges) > 100
    assert all(key is setting.edge_keys[key] for setting, key in edges)


def test_a_node_keeps_what_it_learns_itself() -> None:
    """A node was an object holding a dict of what it learnt: two objects for the garbage
    collector to walk per situation, tens of thousands of them. The node is now the dict
    (17.3 MB and 55,300 walked objects after 12,000 random hands, 18.1 MB and 75,500
    before); it still stands for its levels, whatever it has learnt."""
    game = Game(load_ruleset("wikipedia"))
    play_random_hands(game, 40)
    memos = game.derived("kontra memos", Memos)
    nodes = [node for setting in memos.settings.values() for node in setting.nodes.values()]
    learnt = [node for node in nodes if len(node) > 0]
    assert len(learnt) > 50
    for node in learnt:
        assert not any(type(part) is dict for part in gc.get_referents(node)), node
        assert node == kontra_module._Node(node.flat) and hash(node) == hash(node.flat)
