"""What a person types at `ulti play`, and what the table and `ulti replay` say back.

Found by a review of `ulti play` and `ulti replay`: a choice typed exactly as it was
listed ('passen', 'Talon aufnehmen') was refused; cards in words that docs/play.md lists
('seven of hearts') were not read; a refused card was named as it was typed ('pk'); a
replay called the person 'You' in Hungarian and said 'You passes'. The layout on a
narrow terminal is tested on a real one, in test_play_terminal.py.

A few checks need the Hungarian and German sentences for the person ('von dir', 'Te
hívsz'); they say so, and fail until the catalogues have those messages.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from ulti_rules.bots import bot
from ulti_rules.cards import card_name, format_card, parse_card
from ulti_rules.cli.choice_reading import choices_of, read_choice
from ulti_rules.cli.play_words import Words
from ulti_rules.cli.settlement_view import all_pass_text
from ulti_rules.cli.speech import Speech
from ulti_rules.cli.table_view import PROMPTS
from ulti_rules.engine import Bid, Hand, Kontra, Pass, PickUp, Play
from ulti_rules.engine.phase import Step
from ulti_rules.game import Game
from ulti_rules.i18n import LANGS, translator
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.ruleset.schema import Ruleset

from conftest import RunUlti

DOCS = Path(__file__).resolve().parent.parent / "docs"
NAMES = ["Anna", "You", "Carla"]


def words_for(ruleset: Ruleset, lang: str, names: list[str] = NAMES) -> Words:
    you = translator(lang).gettext("You")
    return Words(ruleset, lang, "hu", [you if n == "You" else n for n in names], you)


def decisions(ruleset: Ruleset, seeds: range) -> Iterator[Hand]:
    """Every decision but a discard of hands the simple bot plays, the hand before it."""
    game, player = Game.of(ruleset), bot("simple")
    for seed in seeds:
        rng = random.Random(seed)
        hand = game.new_hand(seed=seed, dealer=seed % ruleset.players.count)
        while not hand.is_over:
            if hand.step != Step.DISCARD:
                yield hand
            hand.apply(player.choose(hand, rng))


# --------------------------------------------------------------------------- 1. as listed


@pytest.mark.parametrize("ruleset_name", ["wikipedia", "two-round-auction"])
def test_every_choice_is_read_as_it_is_listed(ruleset_name: str) -> None:
    """Every label of every question, typed as printed (with a bid's value or without),
    in each language, names its own choice (or, where two are labelled alike, asks for
    the number)."""
    ruleset = load_ruleset(ruleset_name)
    tables = {lang: words_for(ruleset, lang) for lang in LANGS}
    asked = 0
    for hand in decisions(ruleset, range(3)):
        for words in tables.values():
            choices = choices_of(hand.legal_actions(), words)
            for choice in choices:
                typed = [choice.label, re.sub(r" \(\d+\)$", "", choice.label)]
                for text in typed:
                    reading = read_choice(text, choices, hand.why_refused, words)
                    alike = [c for c in choices if c.label == choice.label]
                    if len(alike) > 1:
                        assert "could be" in reading.hint or reading.action, text
                    else:
                        assert reading.action == choice.action, (words.lang, text, reading)
                    asked += 1
    assert asked > 500


def _parts(prompt: str) -> list[str]:
    """The choices a question names in its own words: 'Talon aufnehmen oder passen'."""
    return [p.strip() for p in re.split(r",? (?:or|oder|vagy) |\?", prompt) if p.strip()]


@pytest.mark.parametrize("lang", LANGS)
def test_the_question_s_own_words_are_read(lang: str) -> None:
    """'Pick up the talon, or pass' (and 'Felveszed a talont, vagy passz?', 'Talon
    aufnehmen oder passen'): each part picks up or passes; 'Kontra oder passen' too."""
    ruleset = load_ruleset("wikipedia")
    words = words_for(ruleset, lang)
    speak = choices_of([PickUp(), Pass()], words)
    said = translator(lang).gettext(PROMPTS[Step.SPEAK])
    picked = [read_choice(part, speak, lambda _: None, words).action for part in _parts(said)]
    assert picked == [PickUp(), Pass()], said
    kontra = choices_of([Kontra(("parti",), 1), Pass()], words)
    said = translator(lang).gettext(PROMPTS[Step.KONTRA])
    called = [read_choice(part, kontra, lambda _: None, words).action for part in _parts(said)]
    assert called == [Kontra(("parti",), 1), Pass()], said


@pytest.mark.parametrize(
    ("lang", "typed", "said"),
    [
        ("de", "passen", "Du passt"),
        ("de", "Talon aufnehmen", "Du nimmst den Talon auf"),
        ("en", "pick up the talon", "You pick up the talon"),
        ("hu", "talon felvétele", "Felveszed a talont"),
        ("hu", "felveszed a talont", "Felveszed a talont"),
    ],
)
def test_the_talon_is_picked_up_or_passed_as_listed(
    ulti: RunUlti, lang: str, typed: str, said: str
) -> None:
    done = ulti("play", "--seed", "5", "--lang", lang, "--bots", "simple", input=f"{typed}\n")
    assert done.returncode == 0, done.stderr
    assert f"\n  {said}" in done.stdout
    assert "steht nicht zur Wahl" not in done.stdout and "nem választható" not in done.stdout
    assert "is not a choice" not in done.stdout


def test_kontra_or_pass_takes_pass_as_listed(ulti: RunUlti) -> None:
    done = ulti(
        "play", "--seed", "5", "--lang", "de", "--bots", "simple", input="passen\n1\npassen\n"
    )
    assert "Kontra oder passen: passen\n  Du passt" in done.stdout


def test_the_hint_names_the_words_that_pick_up_the_talon(ulti: RunUlti) -> None:
    done = ulti("play", "--seed", "5", "--bots", "simple", input="xx\n")
    assert "'xx' is not a choice: type a number (1-2), 'pick up' or 'pass';" in done.stdout


# --------------------------------------------------------------------------- 4. cards in words


def _documented_cards() -> list[str]:
    """The cards in words that docs/play.md and docs/cards.md promise are read."""
    play = re.search(r"^\| Play a card \| (.*) \|$", (DOCS / "play.md").read_text(), re.M)
    page = (DOCS / "cards.md").read_text()
    reading = page[page.index("## Reading a card") : page.index("A list of cards")]
    assert play is not None
    found = re.findall(r"`([^`]+)`", play.group(1)) + re.findall(r"`([^`]+)`", reading)
    in_words = [text for text in found if re.search("[a-z]", text) and "," not in text]
    named = [text for text in in_words if not text.startswith("ulti ")]
    return [text for text in named if " " in text or "-" in text[1:]]


def test_the_documented_cards_in_words_are_read() -> None:
    documented = _documented_cards()
    assert "seven of hearts" in documented and "makk hetes" in documented
    for text in documented:
        parse_card(text)  # raises for a card the docs promise and the program refuses


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("seven of clubs", "MVII"),
        ("nine of clubs", "MIX"),
        ("Eight of Diamonds", "TVIII"),
        ("ten of spades", "ZX"),
        ("seven of acorns", "MVII"),
        ("jack of bells", "TAl"),
        ("makk hetes", "MVII"),
        ("Tök tízes", "TX"),
        ("zold kilences", "ZIX"),
        ("piros nyolcas", "PVIII"),
        ("Herz Sieben", "PVII"),
        ("Herz-Sieben", "PVII"),
        ("Eichel Ober", "MF"),
        ("Schellen König", "TK"),
        ("Grün Ass", "ZA"),
    ],
)
def test_ranks_in_words(text: str, card: str) -> None:
    assert format_card(parse_card(text)) == card


def test_cards_in_words_are_laid_down(ulti: RunUlti) -> None:
    """Seat 2 holds MK MIX MVII ...: 'seven of clubs' was refused ("not a card:
    'seven'")."""
    for script in ("seven of clubs\nmakk kilences\n", "seven of clubs, makk kilences\n"):
        done = ulti("play", "--seat", "2", "--seed", "3", "--bots", "simple", input=script)
        assert "You discard two cards: MIX MVII" in done.stdout, script
        assert "not a card" not in done.stdout


# --------------------------------------------------------------------------- 7. the card refused


def _following(ruleset: Ruleset) -> tuple[Hand, int]:
    """A hand whose seat to play must follow (or beat), and a card it holds and may not
    play."""
    for hand in decisions(ruleset, range(20)):
        if hand.step != Step.PLAY:
            continue
        seat = hand.current_player
        assert seat is not None
        legal = {a.card for a in hand.legal_actions() if isinstance(a, Play)}
        barred = [c for c in hand.cards(seat) if c not in legal]
        if len(legal) > 1 and barred:
            return hand, barred[0]
    raise AssertionError("no hand in which a card is refused")


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_card_is_named_as_the_table_writes_it(lang: str) -> None:
    ruleset = load_ruleset("wikipedia")
    hand, card = _following(ruleset)
    words = words_for(ruleset, lang)
    choices = choices_of(hand.legal_actions(), words)
    for typed in (format_card(card).lower(), card_name(card).lower()):
        hint = read_choice(typed, choices, hand.why_refused, words).hint
        no = {"en": "not", "hu": "nem", "de": "nicht"}[lang]
        assert hint.startswith(f"{no} {format_card(card)}: "), hint


def test_a_card_not_held_is_named_as_the_table_writes_it(ulti: RunUlti) -> None:
    done = ulti("play", "--seat", "2", "--seed", "3", "--bots", "simple", input="pvii\n")
    assert "you do not hold PVII" in done.stdout


# --------------------------------------------------------------------------- 5, 6. "you"


def answer(prompt: str, lang: str) -> str:
    """Seat 2's answers: lay down the first two cards, bid Simple Hearts, then pass
    where one may, else the first choice."""
    said = translator(lang).gettext
    if prompt.startswith(said("Card to lay down")):
        return "1 2"
    if prompt.startswith(said("Your bid")):
        return "piros parti"
    return "pass" if said("pass") in prompt.lower() else "1"


def played(ulti: RunUlti, monkeypatch: pytest.MonkeyPatch, lang: str) -> Path:
    """The record of a whole hand seat 2 played at a table in ``lang`` (forehand,
    Simple Hearts)."""

    def ask(console: Console, prompt: object = "", **_: object) -> str:
        return answer(str(prompt), lang)

    monkeypatch.setattr(Console, "input", ask)
    done = ulti(
        "play", "--seat", "2", "--seed", "3", "--bots", "simple", "--hands", "1",
        "--save-records", lang, "--lang", lang,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return Path(lang) / "hand-0001.yaml"


@pytest.fixture
def record(ulti: RunUlti, monkeypatch: pytest.MonkeyPatch) -> Path:
    return played(ulti, monkeypatch, "en")


THIRD_PERSON = re.compile(
    r"\bYou (bids|passes|picks|discards|names|announces|calls|plays|leads|gives)\b"
)


def test_the_replay_speaks_to_the_person(ulti: RunUlti, record: Path) -> None:
    out = ulti("replay", str(record)).stdout
    assert "You discard MK MIX" in out and "You bid Simple Hearts (parti_red)" in out
    assert "  You pass" in out and "You lead: You " in out
    assert not THIRD_PERSON.search(out), THIRD_PERSON.search(out)


def test_the_replay_names_the_person_in_its_language(ulti: RunUlti, record: Path) -> None:
    hungarian = ulti("replay", str(record), "--lang", "hu").stdout
    assert re.search(r"^  Te +[MZPT]", hungarian, re.MULTILINE)  # the deal
    assert "Bemondod: piros parti (parti_red)" in hungarian and "Passzolsz" in hungarian
    assert "You passzol" not in hungarian and "│ You " not in hungarian
    german = ulti("replay", str(record), "--lang", "de").stdout
    assert re.search(r"^  Du +[MZPT]", german, re.MULTILINE)
    assert "You passt" not in german and "│ You " not in german


def test_no_you_is_left_in_a_hungarian_or_german_replay(ulti: RunUlti, record: Path) -> None:
    """Needs the new messages in the catalogues ('You lead', 'Contract: {bid} by You,
    {trump}', 'You discard {cards}')."""
    for lang in ("hu", "de"):
        out = ulti("replay", str(record), "--lang", lang).stdout
        assert not re.search(r"\bYou\b", out), (lang, re.findall(r".*\bYou\b.*", out))


def test_a_record_from_a_german_table_replays_in_english(
    tmp_path: Path, ulti: RunUlti, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record names the person "You" whatever the table's language, so that a ledger
    or study reading records of tables in two languages counts one player."""
    record = played(ulti, monkeypatch, "de")
    text = (tmp_path / record).read_text()
    assert "players: [Anna, You, Carla]" in text and not re.search(r"\bDu\b", text)
    out = ulti("replay", str(record)).stdout
    assert "You bid Simple Hearts (parti_red)" in out and "You lead: You " in out
    assert not re.search(r"\bDu\b", out)


def test_a_record_that_named_the_person_du_still_replays_as_the_person(
    tmp_path: Path, ulti: RunUlti, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Records saved at a German table before they all said "You" named the person
    "Du": they still replay to the person."""
    record = tmp_path / played(ulti, monkeypatch, "de")
    record.write_text(record.read_text().replace("[Anna, You, Carla]", "[Anna, Du, Carla]"))
    out = ulti("replay", str(record)).stdout
    assert "You bid Simple Hearts (parti_red)" in out and "You lead: You " in out


def test_the_live_table_says_the_standing_bid_of_the_person(ulti: RunUlti) -> None:
    """Needs 'Standing bid: {bid} by You' in the German catalogue."""
    done = ulti(
        "play", "--seat", "2", "--seed", "1", "--bots", "simple",
        input="1 2\npiros parti\n",
    )  # fmt: skip
    assert "Standing bid: Simple Hearts by You" in done.stdout
    german = ulti(
        "play", "--seat", "2", "--seed", "1", "--bots", "simple", "--lang", "de",
        input="1 2\npiros parti\n",
    )  # fmt: skip
    assert "Stehendes Gebot: Herz-Parti von dir" in german.stdout


def test_a_kontra_against_the_person() -> None:
    """'gegen Du', 'Te ellen'. Needs '{level} on {components} against You' in the
    catalogues."""
    ruleset = load_ruleset("wikipedia")
    against = Kontra(("betli",), 2, against=1)
    assert words_for(ruleset, "en").kontra(against) == "Rekontra on Betli against You"
    assert words_for(ruleset, "de").kontra(against).endswith(" gegen dich")
    assert words_for(ruleset, "hu").kontra(against).endswith(", ellened")


@pytest.mark.parametrize(
    ("setting", "dealer", "said"),
    [
        ("all_pass: redeal", 1, "You deal again"),
        ("all_pass: forehand_pays", 0, "You (forehand) pay 2 each to Anna and Carla"),
        ("all_pass: forehand_pays", 1, "Carla (forehand) pays 2 each to You and Anna"),
        ("all_pass: forehand_pays", 2, "Anna (forehand) pays 2 each to You and Carla"),
    ],
)
def test_a_hand_nobody_bid_speaks_to_the_person(
    tmp_path: Path, setting: str, dealer: int, said: str
) -> None:
    payment = "\n  all_pass_payment: 2" if "forehand_pays" in setting else ""
    club = f"name: club\nextends: wikipedia\nauction:\n  {setting}{payment}\n"
    (tmp_path / "club.yaml").write_text(club)
    ruleset = load_ruleset(tmp_path / "club.yaml")
    assert all_pass_text(ruleset, dealer, NAMES, Speech("en")) == said


@pytest.mark.parametrize(
    ("lang", "hint"),
    [
        ("en", "not pass: the opener must bid"),
        ("hu", "nem pass: a nyitónak be kell mondania valamit"),
        ("de", "nicht pass: wer eröffnet, muss bieten"),
    ],
)
def test_the_opener_who_types_pass_is_told_he_must_bid(lang: str, hint: str) -> None:
    """'pass' is no misspelt bid (it was read as 'piros passz', Simple Hearts): the rule
    that forbids it is the hint, in the player's language."""
    game = Game.of(load_ruleset("wikipedia"))
    hand = game.new_hand(seed=3)
    hand.apply(hand.legal_actions()[0])  # forehand's discard: now he bids
    words = words_for(game.ruleset, lang)
    reading = read_choice("pass", choices_of(hand.legal_actions(), words), hand.why_refused, words)
    assert (reading.action, reading.hint) == (None, hint)


def test_a_pass_or_a_bid_that_does_not_overcall_is_told_why() -> None:
    """Whoever picks the talon up must bid higher: 'pass', and a bid the standing one
    already beats, get that rule, not a guess at a bid with a like name."""
    game = Game.of(load_ruleset("wikipedia"))
    hand = game.new_hand(seed=3)
    hand.apply(hand.legal_actions()[0])
    hand.apply(Bid("parti_red"))
    hand.apply(PickUp())
    hand.apply(hand.legal_actions()[0])  # the next player's discard
    words = words_for(game.ruleset, "en")
    choices = choices_of(hand.legal_actions(), words)
    hints = [read_choice(typed, choices, hand.why_refused, words).hint for typed in
             ("pass", "simple", "Simple Hearts")]  # fmt: skip
    assert hints == [
        "not pass: you took the talon, so you must bid higher",
        "not simple: Simple does not overcall Simple Hearts",
        "not Simple Hearts: Simple Hearts does not overcall Simple Hearts",
    ]


def test_in_the_kontra_round_a_contracts_name_still_points_at_its_kontra() -> None:
    """The kontra round offers pass and kontras named after their contracts: 'simple' was
    taken for the bid Simple and refused (the auction is over), where the old hint named
    the kontra on the Simple."""
    game = Game.of(load_ruleset("wikipedia"))
    player = bot("simple")
    for seed in range(200):
        hand = game.new_hand(seed=seed)

        def kontra_round(hand: Hand) -> bool:  # kontras and a pass, no card to play
            kinds = {type(a) for a in hand.legal_actions()}
            return Kontra in kinds and Pass in kinds and Play not in kinds

        while not hand.is_over and not kontra_round(hand):
            hand.apply(player.choose(hand, random.Random(seed)))
        if hand.is_over:
            continue
        words = words_for(game.ruleset, "en")
        choices = choices_of(hand.legal_actions(), words)
        if not any("Simple" in c.label for c in choices):
            continue
        reading = read_choice("simple", choices, hand.why_refused, words)
        assert (reading.hint or "").startswith("'simple' is not a choice; did you mean "), reading
        return
    pytest.fail("no kontra on the Simple offered in 200 hands")
