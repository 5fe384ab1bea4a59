"""The kontra chain as docs/rules.md#kontra has it: windows per level, per-defender chains, records.

Golden hands under ``older-20-100`` (DE): a defender says Kontra with his card to
trick 1, the declarer (who leads trick 1) answers in the round after it, the
defenders may say Szubkontra there, and play goes on. In Betli each defender has
his own chain, and the declarer's Rekontra may answer one defender alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ulti_rules import settle
from ulti_rules.cards import format_card, parse_card
from ulti_rules.engine import Hand, Kontra, Pass, action_from_dict
from ulti_rules.errors import IllegalAction
from ulti_rules.records import dumps, load_record, record_of, replay, save
from ulti_rules.ruleset.loading import content_hash, load_ruleset
from ulti_rules.ruleset.schema import Ruleset

from conftest import RunUlti
from engine_fixtures import bid_and_play, deal_of, fixture_ruleset
from engine_support import snapshot

RECORDS = Path(__file__).parent / "fixtures" / "records"

DECLARER, A, B = 1, 2, 0  # dealer 0: seat 1 is forehand and bids; seat 2 plays second

_RULESETS: dict[str, Ruleset] = {}


def older() -> Ruleset:
    if "older" not in _RULESETS:
        _RULESETS["older"] = load_ruleset("older-20-100")
    return _RULESETS["older"]


def kontras(hand: Hand) -> list[Kontra]:
    return [a for a in hand.legal_actions() if isinstance(a, Kontra)]


def play_first(hand: Hand) -> None:
    hand.play_card(hand.legal_card_list()[0])


def finish(hand: Hand) -> None:
    while not hand.is_over:
        assert hand.phase == "play", "no second kontra round"
        play_first(hand)


def refused(hand: Hand, action: Kontra, words: str) -> None:
    """``action`` is refused with a message containing ``words``, the hand unchanged."""
    before = snapshot(hand)
    assert action not in hand.legal_actions()
    with pytest.raises(IllegalAction) as caught:
        hand.apply(action)
    assert words in str(caught.value)
    assert snapshot(hand) == before


def betli_hand(rules: Ruleset, *, a_kontra: bool, b_kontra: bool) -> Hand:
    """Betli by seat 1; trick 1 played with the chosen defenders saying Kontra at their card."""
    hand = Hand(rules, seed=21, dealer=0)
    bid_and_play(hand, "betli", " ".join(_notation(hand.cards(DECLARER)[:2])))
    assert hand.current_player == DECLARER and kontras(hand) == []
    play_first(hand)
    assert hand.current_player == A
    if a_kontra:
        assert kontras(hand) == [Kontra(("betli",), 1)]
        hand.apply(Kontra(("betli",), 1))
        assert kontras(hand) == [], "a defender's next level in his chain is the declarer's"
    play_first(hand)
    assert hand.current_player == B
    if b_kontra:
        assert kontras(hand) == [Kontra(("betli",), 1)], "B has his own chain"
        hand.apply(Kontra(("betli",), 1))
    play_first(hand)
    return hand


def _notation(cards: list[int]) -> list[str]:
    return [format_card(c) for c in cards]


# --------------------------------------------------------------------------- DE windows


def test_older_ruleset_sets_the_de_windows() -> None:
    kontra = older().kontra
    assert (kontra.window, kontra.later_window) == ("own_card_trick1", "before_lead_trick2")
    assert [kontra.window_of(level) for level in (1, 2, 3, 7)] == [
        "own_card_trick1",
        *["before_lead_trick2"] * 3,
    ]
    wikipedia = load_ruleset("wikipedia").kontra
    assert wikipedia.later_window == "same"
    assert {wikipedia.window_of(level) for level in (1, 2, 5)} == {"before_lead_trick2"}


def test_ulti_kontra_at_the_card_rekontra_and_szubkontra_in_the_round() -> None:
    """DE: Kontra with one's card to trick 1; the declarer, who led it, answers after it,
    the defenders say Szubkontra, the declarer declines Mordkontra, and play goes on."""
    rules = older()
    deal = deal_of(rules, 0, {DECLARER: "MVII MA MX MK MF TA TX ZA ZX PA PVII PVIII"})
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "ulti", "PVII PVIII", trump="acorns")
    assert kontras(hand) == [], "nothing to answer yet, and Kontra is the defenders'"
    hand.play_card(parse_card("ZA"))
    assert hand.current_player == A
    assert set(kontras(hand)) == {
        Kontra(("parti",), 1),
        Kontra(("ulti",), 1),
        Kontra(("parti", "ulti"), 1),
    }
    hand.apply(Kontra(("ulti",), 1))
    play_first(hand)
    assert hand.current_player == B
    assert kontras(hand) == [Kontra(("parti",), 1)], "the Ulti's one chain is raised already"
    play_first(hand)

    # The round after trick 1: the declarer first, and only Rekontra and beyond.
    assert hand.phase == "kontra" and hand.current_player == DECLARER
    assert hand.legal_actions() == [Kontra(("ulti",), 2), Pass()]
    hand.apply(Kontra(("ulti",), 2))
    assert hand.phase == "kontra" and hand.current_player == A
    assert hand.legal_actions() == [Kontra(("ulti",), 3), Pass()]
    refused(hand, Kontra(("parti",), 1), "Kontra (level 1) is called at the first trick")
    hand.apply(Pass())
    assert hand.current_player == B
    hand.apply(Kontra(("ulti",), 3))  # the shared chain: B's Szubkontra binds both
    assert hand.current_player == DECLARER
    assert hand.legal_actions() == [Kontra(("ulti",), 4), Pass()]
    hand.apply(Pass())
    assert hand.phase == "play", "nobody can call anything more: the round is over"
    assert hand.current_player == hand.tricks[0][2], "the winner of trick 1 leads"
    assert kontras(hand) == []
    refused(hand, Kontra(("ulti",), 4), "the kontra window has closed")
    finish(hand)
    contract = hand.contract
    assert contract is not None and hand.facts is not None
    assert contract.kontra == {"parti": {A: 0, B: 0}, "ulti": {A: 3, B: 3}}
    line = settle(rules, contract, hand.facts).line("ulti")
    assert {s.seat: s.kontra for s in line.shares} == {A: 8, B: 8}


def test_defenders_may_not_open_the_chain_in_the_round_under_de() -> None:
    hand = betli_hand(older(), a_kontra=False, b_kontra=False)
    assert hand.phase == "play", "no kontra said at the card: nothing to answer, no round"
    assert hand.kontra_levels == {"betli": {A: 0, B: 0}}


def test_wikipedia_round_still_takes_a_first_kontra() -> None:
    """One window for every level (later_window: same): the round after trick 1 takes a
    defender's first Kontra too, as before the setting existed."""
    hand = betli_hand(load_ruleset("wikipedia"), a_kontra=False, b_kontra=False)
    assert hand.phase == "kontra" and hand.current_player == A
    assert hand.legal_actions() == [Kontra(("betli",), 1), Pass()]


def test_later_levels_may_close_before_the_first() -> None:
    rules = fixture_ruleset(**{"kontra.later_window": "own_card_trick1"})
    hand = betli_hand(rules, a_kontra=True, b_kontra=False)
    assert hand.phase == "kontra" and hand.current_player == B, "the declarer cannot answer now"
    assert hand.legal_actions() == [Kontra(("betli",), 1), Pass()]
    hand.apply(Kontra(("betli",), 1))
    assert hand.phase == "play", "Rekontra's window closed with the declarer's card"
    assert hand.kontra_levels == {"betli": {A: 1, B: 1}}


def test_max_level_ends_the_chain() -> None:
    rules = fixture_ruleset(
        **{
            "kontra.window": "own_card_trick1",
            "kontra.later_window": "before_lead_trick2",
            "kontra.max_level": 2,
        }
    )
    hand = betli_hand(rules, a_kontra=True, b_kontra=True)
    assert hand.phase == "kontra" and hand.current_player == DECLARER
    hand.apply(Kontra(("betli",), 2))
    assert hand.phase == "play", "Szubkontra is beyond max_level: nobody can speak"
    assert hand.kontra_levels == {"betli": {A: 2, B: 2}}
    refused(hand, Kontra(("betli",), 3), "the kontra window has closed")


def test_max_level_refuses_the_call_in_the_round() -> None:
    rules = fixture_ruleset(**{"kontra.max_level": 2})
    hand = betli_hand(rules, a_kontra=True, b_kontra=False)
    hand.apply(Kontra(("betli",), 2, against=A))
    assert hand.current_player == B, "A's Szubkontra is beyond max_level: A cannot speak"
    assert hand.legal_actions() == [Kontra(("betli",), 1), Pass()]
    refused(hand, Kontra(("betli",), 3), "kontra goes no higher than level 2")


# --------------------------------------------------------------------------- per defender


def test_betli_rekontra_against_one_defender_settles_per_defender() -> None:
    """A says Kontra, B does not, the declarer rekontras A: x4 with A, x1 with B."""
    rules = older()
    hand = betli_hand(rules, a_kontra=True, b_kontra=False)
    assert hand.phase == "kontra" and hand.current_player == DECLARER
    assert hand.legal_actions() == [
        Kontra(("betli",), 2),
        Kontra(("betli",), 2, against=A),
        Pass(),
    ]
    refused(hand, Kontra(("betli",), 2, against=B), "seat 0's kontra chain on 'betli' stands at")
    hand.apply(Kontra(("betli",), 2, against=A))
    assert hand.current_player == A, "B has no chain to raise and Kontra is past"
    hand.apply(Pass())
    assert hand.phase == "play"
    finish(hand)
    facts, contract = hand.facts, hand.contract
    assert facts is not None and contract is not None
    assert contract.kontra == {"betli": {A: 2, B: 0}}
    line = settle(rules, contract, facts).line("betli")
    sign = 1 if line.made else -1
    assert {s.seat: (s.kontra, s.amount) for s in line.shares} == {
        A: (4, sign * 5 * 4),
        B: (1, sign * 5),
    }


def test_declarer_answers_one_of_two_kontras() -> None:
    """Both defenders say Kontra; the declarer rekontras A only, so the two chains part:
    A says Szubkontra on his own chain, B (at Kontra) has nothing to say."""
    rules = older()
    hand = betli_hand(rules, a_kontra=True, b_kontra=True)
    assert hand.phase == "kontra" and hand.current_player == DECLARER
    assert hand.legal_actions() == [
        Kontra(("betli",), 2),
        Kontra(("betli",), 2, against=B),
        Kontra(("betli",), 2, against=A),
        Pass(),
    ]
    hand.apply(Kontra(("betli",), 2, against=A))
    assert hand.kontra_levels == {"betli": {A: 2, B: 1}}
    assert hand.current_player == DECLARER, "a caller may call again"
    assert hand.legal_actions() == [
        Kontra(("betli",), 2),
        Kontra(("betli",), 2, against=B),
        Pass(),
    ]
    hand.apply(Pass())
    assert hand.current_player == A
    assert hand.legal_actions() == [Kontra(("betli",), 3), Pass()]
    hand.apply(Kontra(("betli",), 3))
    assert hand.kontra_levels == {"betli": {A: 3, B: 1}}
    assert hand.current_player == DECLARER, "B, at Kontra, has nothing to say"
    assert hand.legal_actions() == [
        Kontra(("betli",), 2),
        Kontra(("betli",), 2, against=B),
        Kontra(("betli",), 4),
        Kontra(("betli",), 4, against=A),
        Pass(),
    ]
    hand.apply(Pass())
    assert hand.phase == "play"
    finish(hand)
    facts, contract = hand.facts, hand.contract
    assert facts is not None and contract is not None
    assert contract.kontra == {"betli": {A: 3, B: 1}}
    line = settle(rules, contract, facts).line("betli")
    assert {s.seat: s.kontra for s in line.shares} == {A: 8, B: 2}


def test_szubkontra_only_in_ones_own_chain() -> None:
    """A's chain at Rekontra, B's at nothing: A may say Szubkontra, B only his own Kontra
    (where the round still takes level 1)."""
    hand = betli_hand(fixture_ruleset(), a_kontra=True, b_kontra=False)
    hand.apply(Kontra(("betli",), 2))  # the old form: every chain at level 1, here A's
    assert hand.kontra_levels == {"betli": {A: 2, B: 0}}
    assert hand.current_player == A
    assert hand.legal_actions() == [Kontra(("betli",), 3), Pass()]
    hand.apply(Pass())
    assert hand.current_player == B
    assert hand.legal_actions() == [Kontra(("betli",), 1), Pass()]
    refused(hand, Kontra(("betli",), 3), "your own kontra chain on 'betli' stands at level 0")
    refused(hand, Kontra(("betli",), 3, against=A), "only the declarer names the defender")
    hand.apply(Kontra(("betli",), 1))
    assert hand.kontra_levels == {"betli": {A: 2, B: 1}}
    assert hand.current_player == DECLARER
    assert hand.legal_actions() == [
        Kontra(("betli",), 2),
        Kontra(("betli",), 2, against=B),
        Pass(),
    ]


def test_a_rekontra_on_both_chains_without_against() -> None:
    hand = betli_hand(older(), a_kontra=True, b_kontra=True)
    hand.apply(Kontra(("betli",), 2))
    assert hand.kontra_levels == {"betli": {A: 2, B: 2}}


def test_illegal_kontras_are_refused_with_the_rule() -> None:
    rules = older()
    deal = deal_of(rules, 0, {DECLARER: "MVII MA MX MK MF TA TX ZA ZX PA PVII PVIII"})
    hand = Hand(rules, deal=deal, dealer=0)
    bid_and_play(hand, "ulti", "PVII PVIII", trump="acorns")
    refused(hand, Kontra(("ulti",), 1), "kontra level 1 is called by the defenders")
    refused(hand, Kontra(("ulti",), 2), "no kontra on 'ulti' stands at level 1")
    refused(hand, Kontra(("betli",), 2), "'betli' is not a component of the bid")
    play_first(hand)
    refused(hand, Kontra(("ulti",), 2), "kontra level 2 is called by the declarer")
    refused(hand, Kontra(("ulti",), 3), "'ulti' stands at kontra level 0, not 2")
    refused(hand, Kontra(("ulti",), 1, against=B), "only the declarer names the defender")
    hand.apply(Kontra(("ulti", "parti"), 1))
    play_first(hand)
    play_first(hand)
    assert hand.phase == "kontra" and hand.current_player == DECLARER
    refused(hand, Kontra(("ulti",), 2, against=A), "binds both defenders")
    refused(hand, Kontra(("ulti",), 2, against=DECLARER), "seat 1 is not a defender")
    refused(hand, Kontra(("ulti",), 2, against=7), "seat 7 is not a defender")
    refused(hand, Kontra(("ulti",), 4), "no kontra on 'ulti' stands at level 3")


@pytest.mark.parametrize("bad", [True, -1, "2", 1.0])
def test_a_kontra_against_must_name_a_seat(bad: object) -> None:
    with pytest.raises(ValueError, match="not a seat to kontra against"):
        Kontra(("betli",), 2, against=bad)  # type: ignore[arg-type]


def test_against_travels_through_records_only_when_named() -> None:
    plain, aimed = Kontra(("betli",), 2), Kontra(("betli",), 2, against=0)
    assert plain.to_dict() == {"type": "kontra", "components": ["betli"], "level": 2}
    assert aimed.to_dict() == {**plain.to_dict(), "against": 0}
    assert action_from_dict(aimed.to_dict()) == aimed
    assert action_from_dict(plain.to_dict()) == plain
    assert action_from_dict({**plain.to_dict(), "against": None}) == plain
    assert str(aimed) == "kontra level 2 on betli against seat 0"
    with pytest.raises(ValueError, match="unknown keys: target"):
        action_from_dict({**plain.to_dict(), "target": 0})


# --------------------------------------------------------------------------- records


@pytest.mark.parametrize(
    "name",
    [
        "old-betli-both-rekontra.yaml",
        "old-plain-durchmars-chains.yaml",
        "old-ulti-durchmars-shared.yaml",
    ],
)
def test_records_from_before_against_replay_unchanged(name: str) -> None:
    """Records saved before ``against`` and ``later_window`` existed: the ruleset hash still
    matches, and every action and the outcome replay as recorded."""
    record = load_record(RECORDS / name)
    assert record.ruleset_hash == content_hash(load_ruleset(record.ruleset))
    hand = replay(record)
    assert hand.history == tuple(record.actions)
    assert hand.contract == record.contract and hand.facts == record.facts


def test_an_old_rekontra_answers_both_kontras() -> None:
    record = load_record(RECORDS / "old-betli-both-rekontra.yaml")
    assert [(s, a.to_dict()) for s, a in record.actions if a.type == "kontra"][-1] == (
        1,
        {"type": "kontra", "components": ["betli"], "level": 2},
    )
    assert record.contract is not None
    assert record.contract.kontra == {"betli": {2: 2, 0: 2}}


def test_a_record_with_against_replays(tmp_path: Path, ulti: RunUlti) -> None:
    hand = betli_hand(older(), a_kontra=True, b_kontra=True)
    hand.apply(Kontra(("betli",), 2, against=B))
    while hand.phase == "kontra":
        hand.apply(Pass())
    finish(hand)
    record = record_of(hand, "older-20-100", players=["Anna", "Ben", "Carla"])
    assert "against: 0" in dumps(record)
    again = replay(load_record(save(record, tmp_path / "hand.yaml")))
    assert again.history == hand.history
    assert again.contract is not None and again.contract.kontra == {"betli": {A: 1, B: 2}}
    done = ulti("replay", "hand.yaml")
    assert done.returncode == 0, done.stderr
    assert "Ben calls Rekontra on Betli against Anna (after the first trick)" in done.stdout
    assert "Betli stands at: Carla Kontra, Anna Rekontra" in done.stdout


def test_hash_leaves_out_a_later_window_at_its_default() -> None:
    base = fixture_ruleset()
    same = fixture_ruleset(**{"kontra.later_window": "same"})
    other = fixture_ruleset(**{"kontra.later_window": "before_lead_trick2"})
    assert content_hash(same) == content_hash(base)
    assert content_hash(other) != content_hash(base)


def test_hands_of_one_game_on_several_threads_forget_kontra_nodes_safely(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At the node limit a game's kontra tables were cleared while other threads' hands
    added to them: 'dictionary changed size during iteration', in the middle of an apply,
    334 times in 32,000 hands (found by a fault review). With a tiny limit, so that the
    tables are forgotten again and again, threads play as one thread does."""
    import random
    import sys
    import threading

    from ulti_rules.engine import kontra as kontra_module
    from ulti_rules.ruleset.loading import load_game

    monkeypatch.setattr(kontra_module, "_NODE_LIMIT", 40)
    game = load_game("wikipedia")

    def play(first: int, out: dict[int, object]) -> None:
        for seed in range(first, first + 60):
            rng = random.Random(seed)
            hand = game.new_hand(seed=seed, dealer=seed % 3)
            while not hand.is_over:
                legal = hand.legal_actions()
                kontras = [a for a in legal if type(a) is Kontra]
                hand.apply(
                    rng.choice(kontras) if kontras and rng.random() < 0.5 else rng.choice(legal)
                )
            out[seed] = (hand.history, hand.kontra_levels)

    alone: dict[int, object] = {}
    for first in range(0, 240, 60):
        play(first, alone)
    together: dict[int, object] = {}
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=play, args=(f, together)) for f in range(0, 240, 60)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert together == alone
