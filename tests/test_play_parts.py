"""The parts of `ulti play`: reading a typed answer, sorting a hand, the session's
rotation, the record folder. Each on a hand built here, without the command."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from ulti_rules.cards import parse_card, parse_cards
from ulti_rules.cli import record_shelf
from ulti_rules.cli.choice_reading import Choice, choices_of, read_choice
from ulti_rules.cli.play_session import HEART_ACE, PlaySession, heart_ace_holder
from ulti_rules.cli.play_words import Words
from ulti_rules.cli.record_shelf import RecordShelf
from ulti_rules.cli.table_view import counts_points, sort_hand
from ulti_rules.engine import Announce, Bid, DeclareTrump, Discard, Hand, Kontra, Pass, PickUp, Play
from ulti_rules.engine.phase import Phase, Step
from ulti_rules.records import record_of
from ulti_rules.ruleset.loading import load_game, load_ruleset

NAMES = ["Anna", "You", "Carla"]


def _words(hand: Hand, lang: str = "en") -> Words:
    return Words(hand.ruleset, lang, "hu", NAMES)


def _after_lead() -> Hand:
    """Seed 11: seat 1 declares Simple Hearts and leads the Makk IX; seat 2 holds the
    Makk Ász (which he must play, to beat it), the Makk VIII and the Piros Ász, not the
    Makk X."""
    hand = load_game("wikipedia").new_hand(seed=11, dealer=0)
    hand.apply(hand.legal_actions()[0])
    hand.apply(Bid("parti_red"))
    while hand.phase == "auction":
        hand.apply(Pass())
    hand.apply(Play(parse_card("MIX")))
    return hand


def _ulti_in_acorns(seed: int) -> Hand:
    """Forehand (seat 1) bids Ulti, the others pass, acorns are trump: the play begins."""
    hand = load_game("wikipedia").new_hand(seed=seed, dealer=0)
    hand.apply(hand.legal_actions()[0])
    hand.apply(Bid("ulti"))
    for _ in range(3):
        hand.apply(Pass())
    hand.apply(DeclareTrump("acorns"))
    return hand


def _read(text: str, hand: Hand, choices: list[Choice]) -> Play | str:
    reading = read_choice(text, choices, hand.why_refused, _words(hand))
    if reading.action is None:
        return reading.hint
    assert isinstance(reading.action, Play)
    return reading.action


def test_a_card_by_number_or_in_either_notation() -> None:
    hand = _after_lead()
    choices = choices_of(hand.legal_actions(), _words(hand))
    ace = Play(parse_card("MA"))
    assert [c.action for c in choices if isinstance(c.action, Play)] == [ace]
    for typed in ("1", "MA", "ma", "Ac", "A♣", "Makk Ász", "ace of clubs"):
        assert _read(typed, hand, choices) == ace, typed


def test_a_card_the_rules_forbid_is_refused_with_the_rule() -> None:
    hand = _after_lead()
    choices = choices_of(hand.legal_actions(), _words(hand))
    assert _read("MVIII", hand, choices) == "not MVIII: must beat the Makk IX"
    assert _read("PA", hand, choices) == "not PA: must follow acorns (Makk)"
    assert _read("MX", hand, choices) == "not MX: you do not hold the Makk X"
    assert str(_read("99", hand, choices)).startswith("there is no choice 99: type a number")
    assert str(_read("QQ", hand, choices)).startswith("'QQ' is not a choice: type a number")


def test_the_hints_and_the_rule_a_card_breaks_are_in_the_players_language() -> None:
    hand = _after_lead()
    hungarian, german = _words(hand, "hu"), _words(hand, "de")
    choices = choices_of(hand.legal_actions(), hungarian)
    read = read_choice
    assert read("PA", choices, hand.why_refused, hungarian).hint == (
        "nem PA: színt kell adnod: makk"  # the suit in the sentence's language too
    )
    assert read("PA", choices, hand.why_refused, german).hint == (
        "nicht PA: du musst Eichel bedienen"
    )
    assert read("MVIII", choices, hand.why_refused, german).hint == (
        "nicht MVIII: du musst Makk IX schlagen"
    )
    assert read("MX", choices, hand.why_refused, german).hint == (
        "nicht MX: du hast Makk X nicht auf der Hand"
    )
    assert read("zz", choices, hand.why_refused, hungarian).hint.startswith(
        "'zz' nem választható: írj be "
    )
    # the library's own sentence stays English text for programs
    assert hand.why_refused(Play(parse_card("PA"))) == "must follow acorns (Makk)"


def test_cards_come_first_then_kontras_and_marriages() -> None:
    hand = _ulti_in_acorns(seed=5)
    hand.apply(hand.legal_actions()[0])  # the declarer leads; seat 2 may kontra
    words = _words(hand)
    choices = choices_of(hand.legal_actions(), words)
    kinds = [type(c.action).__name__ for c in choices]
    assert kinds[0] == "Play" and kinds.index("Kontra") > kinds.index("Play")
    # "kontra" names three calls: the hint lists them by number.
    hint = read_choice("kontra", choices, hand.why_refused, words).hint
    assert hint.startswith("'kontra' could be ") and hint.endswith(": type the number")
    assert "Kontra on Simple, Ulti" in hint
    exact = read_choice("Kontra on Ulti", choices, hand.why_refused, words).action
    assert exact == Kontra(("ulti",), 1)


def test_bids_by_any_name_or_alias_and_suits_by_letter() -> None:
    hand = load_game("wikipedia").new_hand(seed=5, dealer=0)
    hand.apply(hand.legal_actions()[0])
    words = _words(hand, "de")
    choices = choices_of(hand.legal_actions(), words)
    for typed, bid in [
        ("ulti", "ulti"),
        ("Herz-Ulti", "ulti_red"),
        ("piros ulti", "ulti_red"),
        ("Ulti Hearts", "ulti_red"),
        ("rebetli", "betli_red"),  # an alias
        ("négy ász", "four_aces"),
        ("negy asz", "four_aces"),  # accents may be left out
        ("plain_durchmars", "plain_durchmars"),
    ]:
        assert read_choice(typed, choices, hand.why_refused, words).action == Bid(bid), typed
    assert choices[0].label == "Parti (1)"  # German names, with the value
    # the hint in the player's language
    assert "meintest du" in read_choice("durch", choices, hand.why_refused, words).hint
    assert "did you mean" in read_choice("durch", choices, hand.why_refused, _words(hand)).hint
    # After the auction: trump by name or letter, in any language.
    hand.apply(Bid("ulti"))
    for _ in range(3):
        hand.apply(Pass())
    words = _words(hand)
    trumps = choices_of(hand.legal_actions(), words)
    for typed in ("makk", "acorns", "clubs", "Eichel", "M", "c", "♣"):
        assert read_choice(typed, trumps, hand.why_refused, words).action == DeclareTrump("acorns")


def test_pick_up_and_pass_by_word() -> None:
    hand = load_game("wikipedia").new_hand(seed=5, dealer=0)
    hand.apply(hand.legal_actions()[0])
    hand.apply(Bid("parti"))
    words = _words(hand)
    choices = choices_of(hand.legal_actions(), words)
    assert read_choice("Pass", choices, hand.why_refused, words).action == Pass()
    assert read_choice("pick up", choices, hand.why_refused, words).action == PickUp()
    assert read_choice("   ", choices, hand.why_refused, words).hint.startswith(
        "type a number (1-2)"
    )


def test_the_hand_is_sorted_by_suit_trump_first_in_the_contracts_rank_order() -> None:
    hand = load_game("wikipedia").new_hand(seed=5, dealer=0)
    cards = parse_cards("MVII MA MX TK PA PX PK ZAl ZX")
    assert sort_hand(hand, cards) == parse_cards("MA MX MVII ZX ZAl PA PX PK TK")
    hand.apply(hand.legal_actions()[0])
    hand.apply(Bid("betli"))  # no trump: tens low
    for _ in range(3):
        hand.apply(Pass())
    assert sort_hand(hand, cards) == parse_cards("MA MX MVII ZAl ZX PA PK PX TK")
    assert not counts_points(hand)


def test_the_round_1_trump_of_a_two_round_auction_is_sorted_first() -> None:
    """docs/play.md: the trump suit first once it is named. The round-1 winner's suit
    stands from round 1, but the hand was sorted trump-first only from the first card."""
    hand = load_game("two-round-auction").new_hand(seed=22)
    cards = parse_cards("MX MK ZK ZF PX TK TAl")
    hand.apply(Bid("parti"))
    while hand.step == "round1":
        hand.apply(Pass())
    assert sort_hand(hand, cards) == parse_cards("MX MK ZK ZF PX TK TAl")  # not named yet
    hand.apply(DeclareTrump("bells"))
    assert sort_hand(hand, cards) == parse_cards("TK TAl MX MK ZK ZF PX")


def test_card_points_count_in_a_simple_and_a_hundred_only() -> None:
    game = load_game("wikipedia")
    for bid, counts in [("parti_red", True), ("ulti_red", True), ("betli_red", False)]:
        hand = game.new_hand(seed=5, dealer=0)
        hand.apply(hand.legal_actions()[0])
        hand.apply(Bid(bid))
        for _ in range(3):
            hand.apply(Pass())
        assert counts_points(hand) is counts, bid


def test_the_session_rotates_the_deal_as_the_ledger_does(tmp_path: Path) -> None:
    """A passed-out hand under ``all_pass: redeal``: the same dealer deals again; a
    played hand passes the deal on."""
    club = tmp_path / "club.yaml"
    club.write_text(
        "name: club\nextends: wikipedia\nauction: {opener_must_bid: false, all_pass: redeal}\n"
    )
    ruleset = load_ruleset(club)
    session = PlaySession(ruleset, str(club), NAMES)
    assert session.next_dealer() == 0
    passed = Hand(ruleset, seed=1, dealer=0)
    passed.apply(passed.legal_actions()[0])  # forehand lays the talon down
    while not passed.is_over:
        passed.apply(Pass())
    assert passed.contract is None
    session.add(passed)
    assert session.next_dealer() == 0 and session.totals() == dict.fromkeys(NAMES, 0)
    played = Hand(ruleset, seed=2, dealer=0)
    played.apply(played.legal_actions()[0])
    played.apply(Bid("parti_red"))
    while not played.is_over:
        played.apply(played.legal_actions()[0])
    session.add(played)
    assert session.next_dealer() == 1
    assert session.next_text() == "Next: hand 3, dealt by You."
    payments = played.game.settle(played.contract, played.facts).payments  # type: ignore[arg-type]
    assert session.totals() == {NAMES[s]: v for s, v in payments.items()}


def test_the_record_folder_never_overwrites(tmp_path: Path) -> None:
    hand = load_game("wikipedia").new_hand(seed=2, dealer=0)
    hand.apply(hand.legal_actions()[0])
    hand.apply(Bid("parti_red"))
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0])
    record = record_of(hand, "wikipedia", players=NAMES)
    shelf = RecordShelf(tmp_path / "new" / "folder")
    assert shelf.save(record).name == "hand-0001.yaml"
    (shelf.folder / "hand-0003.json").write_text("{}")  # any record name counts
    (shelf.folder / "notes.txt").write_text("")
    assert shelf.save(record).name == "hand-0004.yaml"
    again = RecordShelf(shelf.folder)  # a new session in the same folder
    assert again.save(record).name == "hand-0005.yaml"
    assert (shelf.folder / "hand-0003.json").read_text() == "{}"


def test_the_record_folder_must_be_a_folder(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(Exception, match="is not a folder"):
        RecordShelf(tmp_path / "file")


def test_the_record_folder_under_a_dangling_symlink_says_so(tmp_path: Path) -> None:
    (tmp_path / "out").symlink_to(tmp_path / "gone")
    for folder in (tmp_path / "out", tmp_path / "out" / "deeper"):
        with pytest.raises(Exception, match="out is a dangling symlink"):
            RecordShelf(folder)
    assert not (tmp_path / "gone").exists(), "nothing was created through the link"


def test_the_ulti_rule_is_said_in_the_players_language() -> None:
    """Seed 0: the Ulti declarer in acorns holds the Makk VII and may not lead it."""
    hand = _ulti_in_acorns(seed=0)
    german = _words(hand, "de")
    choices = choices_of(hand.legal_actions(), german)
    assert read_choice("MVII", choices, hand.why_refused, german).hint == (
        "nicht MVII: der Alleinspieler des Ulti behält die Trumpf-Sieben (Makk VII) "
        "bis zum letzten Stich"
    )
    english = _words(hand)
    assert read_choice("MVII", choices, hand.why_refused, english).hint == (
        "not MVII: the Ulti declarer keeps the trump 7 (Makk VII) until the last trick"
    )


def test_a_record_name_taken_meanwhile_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another session saves hand-0002 between this one's look and its write: this
    record goes to hand-0003, and the other's is left as it was."""
    record = _a_record()
    shelf = RecordShelf(tmp_path)
    assert shelf.save(record).name == "hand-0001.yaml"
    real_save = record_shelf.save

    def another_writer_first(record: Any, path: Path) -> Path:
        if path.name == "hand-0002.yaml":
            path.write_text("the other session's record")
        return real_save(record, path)

    monkeypatch.setattr(record_shelf, "save", another_writer_first)
    assert shelf.save(record).name == "hand-0003.yaml"
    assert (tmp_path / "hand-0002.yaml").read_text() == "the other session's record"
    assert shelf.saved == [tmp_path / "hand-0001.yaml", tmp_path / "hand-0003.yaml"]


def test_sessions_saving_into_one_folder_at_once_lose_no_record(tmp_path: Path) -> None:
    record = _a_record()
    shelves = [RecordShelf(tmp_path) for _ in range(3)]
    with ThreadPoolExecutor(3) as pool:
        saved = list(pool.map(lambda shelf: [shelf.save(record) for _ in range(8)], shelves))
    names = sorted(path.name for paths in saved for path in paths)
    assert names == [f"hand-{n:04d}.yaml" for n in range(1, 25)]


def _a_record() -> Any:
    hand = load_game("wikipedia").new_hand(seed=2, dealer=0)
    hand.apply(hand.legal_actions()[0])
    hand.apply(Bid("parti_red"))
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0])
    return record_of(hand, "wikipedia", players=NAMES)


TALON_CLUBS = {
    "set_aside": "deal: {packets: [[5, 5, 5], [5, 5, 5]], talon: set_aside}\n",
    "none": "deal: {packets: [[5, 5, 5], [5, 5, 5]], talon: none}\n",
}


@pytest.mark.parametrize(
    "name", ["older-20-100", "wikipedia", "four-player", "two-round-auction", *TALON_CLUBS]
)
def test_the_heart_ace_holder_is_the_seat_holding_it_when_the_auction_ends(
    name: str, tmp_path: Path
) -> None:
    """``heart_ace_holder`` reads a finished hand; checked against the hands as they were
    the moment each random hand's auction ended, and who laid the talon then: a talon set
    aside or out of play, which nobody took, is nobody's (a review found the declarer
    named for it)."""
    if name in TALON_CLUBS:
        club = tmp_path / f"{name}.yaml"
        club.write_text(f"name: club\nextends: wikipedia\n{TALON_CLUBS[name]}", "utf-8")
        game = load_game(club)
    else:
        game = load_game(name)
    rng = random.Random(8)
    found: set[str] = set()
    for number in range(80):
        hand = game.new_hand(seed=number, dealer=number % game.ruleset.players.count)
        laid_by = None  # who laid the ace in a talon, as the auction goes
        while hand.phase == Phase.AUCTION and not hand.is_over:
            seat = hand.current_player
            actions = hand.legal_actions()
            kept = [a for a in actions if not isinstance(a, PickUp)]
            if name in TALON_CLUBS and kept and rng.random() < 0.8:
                actions = kept  # mostly leave the talon where it lies
            action = rng.choice(actions)
            hand.apply(action)
            if isinstance(action, Discard):
                laid_by = seat if HEART_ACE in action.cards else laid_by
            elif isinstance(action, PickUp):
                laid_by = None if HEART_ACE in hand.cards(seat) else laid_by
        holding = [s for s in range(game.ruleset.players.count) if HEART_ACE in hand.cards(s)]
        if holding:
            expected: int | None = holding[0]
            found.add("in a hand")
        elif laid_by is not None and laid_by == hand.declarer:
            expected = laid_by
            found.add("laid by the declarer")
        else:
            expected = None
            found.add("nobody")
        while not hand.is_over:
            hand.apply(rng.choice(hand.legal_actions()))
        assert heart_ace_holder(hand) == expected, (name, number)
    assert "in a hand" in found
    if name in TALON_CLUBS:
        assert "nobody" in found, found
    elif name == "wikipedia":
        assert "laid by the declarer" in found, found


def test_the_play_asks_for_a_card_only_where_a_card_is_on_offer() -> None:
    """A 40-100 declarer whose marriage is due before his card was asked "Your card", and
    a card typed then was refused as not due (an acceptance review)."""
    from ulti_rules.cli.table_view import step_prompt

    assert step_prompt(Step.PLAY, None, [Announce("hearts")]) == "Your choice"
    assert step_prompt(Step.PLAY, None, [Announce("hearts"), Play(3)]) == "Your card"
    assert step_prompt(Step.PLAY) == "Your card"
