"""`ulti play` in-process: scripted answers on stdin, bots only (--auto), bad options.

Every run names its bots (``--bots simple``) and its seed, so the hands are the same on
every run whatever the default bot becomes. The scripted games answer in a way that fits
any position (the numbers of the first choices, ``pass``), so they finish whatever the
bots do. The real terminal (colours, Ctrl-C as a keystroke) is in test_play_terminal.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console
from ulti_rules.records import load_record, replay

from conftest import RunUlti

TRICK = re.compile(r"^\s+(\d+)\. .+  → ", re.MULTILINE)


class Player:
    """A person at the table who reads each question (``Console.input``'s prompt) and
    answers it: two cards to lay down, ``bid`` for the first bid, ``pass`` where one may
    pass, else the first choice; ``another`` to "Another hand?". Ctrl-C (a
    KeyboardInterrupt) at the first question of hand ``interrupt_in``."""

    def __init__(self, bid: str = "1", another: list[str] | None = None) -> None:
        self.bid = bid
        self.another = another if another is not None else ["n"]
        self.asked: list[str] = []
        self.interrupt_in: int | None = None

    def __call__(self, console: Console, prompt: object = "") -> str:
        text = str(prompt)
        self.asked.append(text)
        hands = 1 + sum(q.startswith("Another hand") for q in self.asked[:-1])
        if self.interrupt_in == hands:
            raise KeyboardInterrupt
        if text.startswith("Another hand"):
            return self.another.pop(0)
        if "lay down" in text:
            return "1 2"
        if text.startswith("Your bid"):
            bid, self.bid = self.bid, "1"
            return bid
        return "pass" if "pass" in text else "1"


@pytest.fixture
def player(monkeypatch: pytest.MonkeyPatch) -> Player:
    seated = Player()

    def ask(console: Console, prompt: object = "", **_: object) -> str:
        return seated(console, prompt)

    monkeypatch.setattr(Console, "input", ask)
    return seated


def test_auto_prints_the_whole_hand_and_its_settlement(ulti: RunUlti) -> None:
    done = ulti("play", "--auto", "--seed", "1", "--bots", "simple")
    again = ulti("play", "--auto", "--seed", "1", "--bots", "simple")
    assert done.returncode == 0, done.stderr
    assert done.stdout == again.stdout  # the seed deals the cards and drives the bots
    out = done.stdout
    assert "\x1b" not in out  # no colour off a terminal
    assert out.startswith("Ulti under 'wikipedia': Wikipedia standard")
    assert "Hand 1: Anna deals, Ben is forehand" in out
    for name in ("Anna", "Ben", "Carla"):  # the deal of every seat
        assert re.search(rf"^  {name} +\S", out, re.MULTILINE), name
    assert "Auction" in out and "Contract: " in out
    assert [int(n) for n in TRICK.findall(out)] == list(range(1, 11))
    assert "Card points: " in out and "Payments" in out
    assert "Session after 1 hand: " in out and "Next: hand 2, dealt by Ben." in out


def test_auto_plays_hands_and_rotates_the_deal(ulti: RunUlti) -> None:
    done = ulti("play", "--auto", "--seed", "4", "--bots", "simple", "--hands", "3")
    assert done.returncode == 0, done.stderr
    assert re.findall(r"^Hand (\d): (\w+) deals", done.stdout, re.MULTILINE) == [
        ("1", "Anna"),
        ("2", "Ben"),
        ("3", "Carla"),
    ]
    # The session totals are the sums of the hands' payments.
    payments = re.findall(r"│ (\w+) +│ (?:declarer|defender) +│ +([+-]?\d+) │", done.stdout)
    totals: dict[str, int] = {}
    for name, amount in payments:
        totals[name] = totals.get(name, 0) + int(amount)
    last = re.findall(r"^Session after 3 hands: (.*)$", done.stdout, re.MULTILINE)[-1]
    shown = {name: int(v) for name, v in re.findall(r"(\w+) ([+-]?\d+)", last)}
    assert len(payments) == 9 and shown == totals


def test_four_player_dealer_sits_out(ulti: RunUlti) -> None:
    done = ulti("play", "--auto", "--ruleset", "four-player", "--seed", "2", "--bots", "simple")
    assert done.returncode == 0, done.stderr
    assert "Hand 1: Anna deals and sits out, Ben is forehand" in done.stdout
    assert "Dora" in done.stdout


def test_a_game_bids_plays_ten_tricks_and_settles(
    tmp_path: Path, ulti: RunUlti, player: Player
) -> None:
    # Seat 2 is forehand in the first hand (seat 1 deals): lay two down, bid by name.
    player.bid = "piros parti"
    done = ulti(
        "play", "--seat", "2", "--seed", "3", "--bots", "simple", "--hands", "1",
        "--save-records", "records",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "You sit in seat 2; the bots: Anna (simple, seat 1), Carla (simple, seat 3)." in out
    assert "Hand 1: Anna deals, You are forehand" in out
    assert "Your hand (with the talon): " in out
    assert "You discard two cards: " in out
    assert "You bid Simple Hearts" in out
    assert [int(n) for n in TRICK.findall(out)] == list(range(1, 11))
    assert "You" in "".join(re.findall(r"^\s+\d+\. .*$", out, re.MULTILINE))
    assert "Payments" in out and "Session after 1 hand: " in out
    assert not any(q.startswith("Another hand") for q in player.asked)  # --hands 1
    assert player.asked[:2] == ["Card to lay down: ", "Your bid: "]
    record = tmp_path / "records" / "hand-0001.yaml"
    assert f"Record: {Path('records') / 'hand-0001.yaml'}" in out
    hand = replay(load_record(record))
    assert hand.is_over and len(hand.tricks) == 10
    assert load_record(record).players == ["Anna", "You", "Carla"]


def test_bids_by_name_in_the_chosen_language(ulti: RunUlti) -> None:
    # Scripted on stdin: the first two questions of forehand are always these two.
    done = ulti(
        "play", "--seat", "2", "--seed", "3", "--bots", "simple", "--lang", "hu",
        input="1 2\nHerz-Parti\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr  # then the end of input: goodbye
    assert " 1 parti (1)" in done.stdout  # the bid list in Hungarian, with its values
    assert "Bemondod: piros parti" in done.stdout  # typed in German, said in Hungarian
    assert "Letett lap: 1 2\n" in done.stdout  # a script's answers are echoed


def test_french_faces(ulti: RunUlti) -> None:
    done = ulti("play", "--auto", "--seed", "1", "--bots", "simple", "--faces", "fr")
    assert done.returncode == 0, done.stderr
    assert re.search(r"(10|[AKQJ987])[♣♠♥♦]", done.stdout)
    assert not re.search(r"\b[MZPT](VII|IX|Al)\b", done.stdout)


def test_bad_input_gets_a_hint_and_the_question_again(ulti: RunUlti) -> None:
    script = "\n".join(["zzz", "99", "3 3", "?", "1", "1", "1 2", "ultimate", "xyz"]) + "\n"
    done = ulti("play", "--seat", "2", "--seed", "3", "--bots", "simple", input=script)
    assert done.returncode == 0, done.stderr  # the end of input ends the game
    out = done.stdout
    assert "not a card: 'zzz' (write e.g. PVII" in out
    assert "there is no card 99: your cards are numbered 1-12" in out
    assert out.count("two different cards, no more: start again") == 2  # '3 3', then 1 and 1
    assert "You discard two cards: " in out
    assert "'ultimate' is not a choice" in out  # ... did you mean (names containing it)
    assert "'xyz' is not a choice: type a number (1-" in out
    assert "Traceback" not in out
    assert out.rstrip().endswith("Goodbye.")


def test_quit_and_end_of_input_end_the_game_cleanly(ulti: RunUlti) -> None:
    for script in ("quit\n", ""):
        done = ulti("play", "--seat", "2", "--seed", "3", "--bots", "simple", input=script)
        assert done.returncode == 0, done.stderr
        assert done.stdout.rstrip().endswith("Goodbye.")
        assert "Session after" not in done.stdout  # no hand was finished


def test_another_hand_is_asked_and_the_session_goes_on(ulti: RunUlti, player: Player) -> None:
    player.another = ["maybe", "", "no"]
    done = ulti("play", "--seat", "3", "--seed", "5", "--bots", "simple")
    assert done.returncode == 0, done.stderr
    assert "type y (or Enter) for another hand, n to stop" in done.stdout  # to 'maybe'
    assert "Hand 2: Ben deals, You are forehand" in done.stdout  # Enter: yes
    assert "Session after 2 hands: " in done.stdout
    assert "Next: hand 3, dealt by You." in done.stdout
    assert "Hand 3" not in done.stdout
    assert done.stdout.rstrip().endswith("Goodbye.")


def test_ctrl_c_keeps_the_records_saved_so_far(
    tmp_path: Path, ulti: RunUlti, player: Player
) -> None:
    """Ctrl-C (a KeyboardInterrupt) at the first question of hand 2: status 130, hand 1's
    record kept. The keystroke itself, on a terminal, is in test_play_terminal.py."""
    player.another = ["y"]
    player.interrupt_in = 2
    done = ulti("play", "--seat", "2", "--seed", "3", "--bots", "simple", "--save-records", "r")
    assert done.returncode == 130
    assert "Interrupted: the hand in progress is not counted." in done.stdout
    assert "Session after 1 hand: " in done.stdout
    assert "Records: r/hand-0001.yaml" in done.stdout
    assert done.stdout.rstrip().endswith("Goodbye.")
    assert [p.name for p in (tmp_path / "r").iterdir()] == ["hand-0001.yaml"]
    assert replay(load_record(tmp_path / "r" / "hand-0001.yaml")).is_over


def test_records_are_numbered_after_those_already_there(tmp_path: Path, ulti: RunUlti) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "hand-0007.yaml").write_text("kept\n")
    done = ulti(
        "play", "--auto", "--seed", "1", "--bots", "simple", "--hands", "2",
        "--save-records", "records",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == [
        "hand-0007.yaml",
        "hand-0008.yaml",
        "hand-0009.yaml",
    ]
    assert (folder / "hand-0007.yaml").read_text() == "kept\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--seat", "4"), "--seat 4: 'wikipedia' is played by 3, seats 1 to 3"),
        (("--auto", "--seat", "1"), "--seat is your seat at the table"),
        (("--bots", "simple,simple,simple"), "--bots names 3 bots, but 2 seats are the bots'"),
        (("--bots", "simple,"), "--bots: a bot's name is missing"),
        (("--bots", "nobody"), "no bot is called 'nobody'"),
        (("--ruleset", "nosuch"), "nosuch"),
    ],
)
def test_bad_options_are_clear_errors(ulti: RunUlti, args: tuple[str, ...], message: str) -> None:
    done = ulti("play", *args)
    assert done.returncode == 1
    assert done.stderr.startswith("ulti: error: ")
    assert message in done.stderr


def test_records_into_a_file_is_refused(tmp_path: Path, ulti: RunUlti) -> None:
    (tmp_path / "taken").write_text("")
    done = ulti("play", "--auto", "--bots", "simple", "--save-records", "taken")
    assert done.returncode == 1
    assert "ulti: error: taken is not a folder" in done.stderr


def test_names_from_a_club_file_are_escaped(tmp_path: Path, ulti: RunUlti) -> None:
    (tmp_path / "club.yaml").write_text(
        'name: club\nextends: wikipedia\ntitle: "Club \\e]0;owned\\a night"\n'
    )
    done = ulti("play", "--auto", "--seed", "1", "--bots", "simple", "--ruleset", "club.yaml")
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert "Club \\x1b]0;owned" in done.stdout


# --------------------------------------------------------------------------- found by a review


def test_card_numbers_follow_the_hand_as_shown(ulti: RunUlti) -> None:
    """The hand was shown trump first, the numbers in card order: '1' played the MVII
    under a hand shown 'PA PX ...' (found by a fault review)."""
    done = ulti(
        "play", "--seat", "2", "--seed", "3",
        input="1 2\npiros parti\npass\n?\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    screen = done.stdout.split("Your card: ?")[1]
    shown = re.search(r"Your hand: (.*)", screen).group(1).split()  # type: ignore[union-attr]
    numbered = dict(re.findall(r"\b(\d+) ([MZPT](?:VII|VIII|IX|X|Al|F|K|A))\b", screen))
    assert [numbered[str(n)] for n in range(1, len(numbered) + 1)] == shown[: len(numbered)]


def test_a_marriage_is_announced_by_its_suit_alone(ulti: RunUlti) -> None:
    """docs/play.md: "the suit: piros, hearts, Herz, P, h, ♥"; only 'announce hearts' or
    the number was read (found by a fault review)."""
    for typed in ("hearts", "piros", "P", "♥"):
        done = ulti(
            "play", "--seat", "2", "--seed", "3",
            input=f"1 2\npiros parti\npass\n{typed}\n",
        )  # fmt: skip
        assert "You announce the hearts (Piros) marriage" in done.stdout, typed


def test_a_trump_the_bid_forbids_is_refused_with_the_rule_and_hints_an_allowed_one(
    ulti: RunUlti,
) -> None:
    done = ulti(
        "play", "--seat", "2", "--seed", "3",
        input="1 2\nulti\npass\npiros\nxyz\n",
    )  # fmt: skip
    out = done.stdout
    assert "not piros: hearts (Piros) cannot be trump in Ulti under this ruleset" in out
    assert "or a suit (acorns, makk, M, c)" in out  # not the refused 'piros'


def test_a_simple_left_unplayed_says_trump_not_named(ulti: RunUlti) -> None:
    """An uncontested Simple, lost double without play, read "no trump": a Simple is a
    trump game (found by a fault review)."""
    done = ulti(
        "play", "--seat", "2", "--seed", "3", "--hands", "1",
        "--save-records", "records", input="1 2\nparti\npass\n",
    )  # fmt: skip
    assert "You play Simple (1 per defender), trump not named" in done.stdout
    replayed = ulti("replay", "records/hand-0001.yaml")
    assert "Contract: Simple (parti) by You, trump not named" in replayed.stdout


def test_a_hungarian_question_ends_with_its_question_mark(ulti: RunUlti, player: Player) -> None:
    player.bid = "pass"
    ulti("play", "--seat", "3", "--seed", "3", "--bots", "simple", "--lang", "hu", "--hands", "1")
    assert player.asked and not any(q.endswith("?: ") for q in player.asked), player.asked


def test_replay_says_a_plugin_s_fact_in_the_chosen_language(ulti: RunUlti) -> None:
    """The Four Aces fact was the one English line of a German replay (fault review)."""
    done = ulti("play", "--auto", "--seed", "1", "--save-records", "records")
    assert done.returncode == 0, done.stderr
    german = ulti("replay", "records/hand-0001.yaml", "--lang", "de").stdout
    english = ulti("replay", "records/hand-0001.yaml").stdout
    assert "Who won the tricks that held an ace: " in english
    assert "Wer die Stiche machte, in denen ein Ass lag: " in german
    assert "Who won" not in german


def test_the_ace_of_hearts_ends_the_session_where_the_ruleset_says_so(
    ulti: RunUlti, player: Player
) -> None:
    """`session.end: heart_ace` (older-20-100): 'end' at "Another hand?" calls the end;
    whoever holds the Ace of hearts when the next auction ends deals the last round of
    three, and the session is over after it (`ulti play` used to go on for ever)."""
    player.another = ["end", *[""] * 8]
    done = ulti(
        "play", "--ruleset", "older-20-100", "--seat", "3", "--seed", "5", "--bots", "simple"
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    questions = [q for q in player.asked if q.startswith("Another hand")]
    assert questions[0].startswith("Another hand? [Y/n/end]")
    assert "The end is called: whoever holds the Ace of hearts" in out
    last = re.search(r"The last round is hands (\d+)-(\d+)", out)
    assert last is not None, out[-2000:]
    first, final = int(last[1]), int(last[2])
    assert final == first + 2 and first >= 3  # hand 2 decided it; the round begins after it
    assert f"The session is over: the last round ended with hand {final}." in out
    assert f"Hand {final}: " in out and f"Hand {final + 1}:" not in out
    assert len(questions) == final - 1  # nobody is asked after the last hand
    assert all(q.startswith("Another hand? [Y/n]:") for q in questions[1:])  # called once


def test_the_end_is_not_offered_where_the_session_does_not_end_so(
    ulti: RunUlti, player: Player
) -> None:
    player.another = ["end", "n"]
    done = ulti("play", "--seat", "3", "--seed", "5", "--bots", "simple")
    assert done.returncode == 0, done.stderr
    assert "type y (or Enter) for another hand, n to stop" in done.stdout  # 'end' is no answer
    assert "The end is called" not in done.stdout


@pytest.mark.parametrize(("lang", "word"), [("hu", "Vége"), ("de", "ende"), ("hu", "end")])
def test_the_end_is_called_in_the_table_s_language(lang: str, word: str) -> None:
    from ulti_rules.cli.play import _another
    from ulti_rules.cli.speech import Speech

    asked: list[str] = []

    def read_line(prompt: str) -> str:
        asked.append(prompt)
        return word

    assert _another(object(), read_line, Speech(lang), True) == "end"  # type: ignore[arg-type]
    assert asked == [Speech(lang)._("Another hand? [Y/n/end]:") + " "]
    assert "[Y/n/end]" not in asked[0]  # said in the table's language
