"""`ulti ledger new|add|undo|show`: a session's hands, the deal's rotation, running totals."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ulti_rules import settle
from ulti_rules.engine import Hand, Pass
from ulti_rules.records import record_of, save
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring.ledger import (
    Ledger,
    LedgerError,
    add_hand,
    add_misdeal,
    add_passed_out,
    add_played,
    new_ledger,
    take_back,
)
from ulti_rules.scoring.ledger_file import load_ledger, save_ledger
from ulti_rules.scoring.sheet import SheetError, read_sheet
from ulti_rules.scoring.table_facts import active_seats

from cli_in_process import Ran, run_in

ULTI_MADE = """\
declarer: {declarer}
bid: ulti
trump: acorns
kontra: {{ulti: kontra}}
points: {{declarer: 60, defenders: 30}}
tricks: {{{declarer}: 6, {a}: 2, {b}: 2}}
last_trick: {{winner: {declarer}, trump_seven: {declarer}}}
"""
GIVE_UP = "declarer: {declarer}\nbid: parti\ngave_up: true\n"


def forehands_give_up(ledger: Ledger, tmp_path: Path) -> tuple[Any, Any]:
    """The next hand's forehand gives up his plain Parti: no bid ranks below it in
    older-20-100, so only forehand's opening bid can be one (the score keeper checks)."""
    rules = load_ruleset(ledger.ruleset)
    dealer = ledger.players.index(ledger.dealer_of(len(ledger.hands) + 1, rules))
    forehand = ledger.players[active_seats(rules, dealer)[0]]
    return read_sheet(Path(hand_file(tmp_path, GIVE_UP.format(declarer=forehand))))


@pytest.fixture
def ulti(tmp_path: Path) -> Callable[..., Ran]:
    """These tests are about the commands, not processes: run `ulti` in-process."""
    return run_in(tmp_path)


def hand_file(tmp_path: Path, text: str, name: str = "hand.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return str(path)


def ulti_made(tmp_path: Path, declarer: str, others: tuple[str, str], name: str) -> str:
    text = ULTI_MADE.format(declarer=declarer, a=others[0], b=others[1])
    return hand_file(tmp_path, text, name)


def test_a_session_through_the_command(tmp_path: Path, ulti: Any) -> None:
    ledger = str(tmp_path / "friday.json")
    done = ulti("ledger", "new", ledger, "--ruleset", "older-20-100", "--players", "Anna,Ben,Carla")
    assert done.returncode == 0, done.stderr
    assert "Anna deals first" in done.stdout and "by the Ace of hearts" in done.stdout
    first = ulti_made(tmp_path, "Anna", ("Ben", "Carla"), "h1.yaml")
    done = ulti("ledger", "add", ledger, first)
    assert done.returncode == 0, done.stderr
    assert "Hand 1, dealt by Anna" in done.stdout
    assert "Next: hand 2, dealt by Ben." in done.stdout
    done = ulti(
        "ledger", "add", ledger, hand_file(tmp_path, GIVE_UP.format(declarer="Carla")), "--json"
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["hand"] == 2
    assert data["totals"] == {"Anna": 18 + 2, "Ben": -9 + 2, "Carla": -9 - 4}
    assert (data["next_dealer"], data["over"]) == ("Carla", False)  # as the text's "Next:"
    shown = ulti("ledger", "show", ledger, "--json")
    assert shown.returncode == 0, shown.stderr
    session = json.loads(shown.stdout)
    assert [h["dealer"] for h in session["hands"]] == ["Anna", "Ben"]
    assert [h["declarer"] for h in session["hands"]] == ["Anna", "Carla"]
    assert session["totals"] == {"Anna": 20, "Ben": -7, "Carla": -13}
    assert session["next_dealer"] == "Carla"
    text = ulti("ledger", "show", ledger)
    assert text.returncode == 0, text.stderr
    assert "+18 (+18)" in text.stdout and "-4 (-13)" in text.stdout
    assert "Next: hand 3, dealt by Carla." in text.stdout


def test_a_new_session_says_its_planned_hands(tmp_path: Path, ulti: Any) -> None:
    """`ulti ledger new` said 'it ends when you stop' of a session of 9 planned hands."""
    said = ulti("ledger", "new", "s.json", "--ruleset", "tournament", "--players", "A,B,C")
    assert said.stdout.endswith("A deals first; it ends after 9 hands.\n")
    said = ulti("ledger", "new", "w.json", "--ruleset", "wikipedia", "--players", "A,B,C")
    assert said.stdout.endswith("A deals first; it ends when you stop.\n")


def test_the_deal_passes_to_the_right_and_a_wrong_dealer_is_refused(
    tmp_path: Path, ulti: Any
) -> None:
    ledger = str(tmp_path / "s.json")
    ulti(
        "ledger",
        "new",
        ledger,
        "--ruleset",
        "wikipedia",
        "--players",
        "Anna,Ben,Carla",
        "--dealer",
        "Carla",
    )
    text = (
        ULTI_MADE.format(declarer="Anna", a="Ben", b="Carla") + "dealer: Anna\naces: [Anna, Ben]\n"
    )
    done = ulti("ledger", "add", ledger, hand_file(tmp_path, text))
    assert done.returncode == 1
    assert "the deal passes to the right: Carla deals hand 1, not Anna" in done.stderr
    assert load_ledger(Path(ledger)).hands == []


def test_the_session_ruleset_and_players_must_match(tmp_path: Path) -> None:
    ledger = new_ledger("wikipedia", ["Anna", "Ben", "Carla"], None, None)
    text = "ruleset: older-20-100\n" + GIVE_UP.format(declarer="Anna")
    sheet, where = read_sheet(Path(hand_file(tmp_path, text)))
    with pytest.raises(SheetError, match="the session plays 'wikipedia'"):
        add_hand(ledger, sheet, where, tmp_path, source="x")
    text = "players: [Anna, Ben, Dora]\n" + GIVE_UP.format(declarer="Anna")
    sheet, where = read_sheet(Path(hand_file(tmp_path, text)))
    with pytest.raises(SheetError, match="the session's players are Anna, Ben, Carla"):
        add_hand(ledger, sheet, where, tmp_path, source="x")


def test_four_players_the_dealer_sits_out(tmp_path: Path) -> None:
    players = ["Anna", "Ben", "Carla", "Dani"]
    ledger = new_ledger("four-player", players, "Dani", None)
    rules = load_ruleset("four-player")
    assert [ledger.dealer_of(n, rules) for n in range(1, 6)] == [
        "Dani",
        "Anna",
        "Ben",
        "Carla",
        "Dani",
    ]
    sheet, where = read_sheet(
        Path(
            hand_file(
                tmp_path,
                ULTI_MADE.format(declarer="Anna", a="Ben", b="Carla") + "aces: [Anna, Ben]\n",
            )
        )
    )
    entry, _, settlement = add_hand(ledger, sheet, where, tmp_path, source="h1")
    assert entry.dealer == "Dani"
    assert entry.payments == {"Anna": 18, "Ben": -9, "Carla": -9, "Dani": 0}
    assert settlement.sitting_out == 3
    # hand 2 is dealt by Anna, who sits out and cannot declare
    with pytest.raises(SheetError, match="Anna deals and sits out"):
        add_hand(ledger, sheet, where, tmp_path, source="h2")


def test_heart_ace_ending(tmp_path: Path) -> None:
    ledger = new_ledger("older-20-100", ["Anna", "Ben", "Carla"], "Anna", None)
    assert ledger.end == "heart_ace"  # the ruleset's session.end
    rules = load_ruleset("older-20-100")
    add_hand(ledger, *forehands_give_up(ledger, tmp_path), tmp_path, source="h1")
    assert ledger.last_round(rules) is None
    with pytest.raises(LedgerError, match="not one of Anna, Ben, Carla"):
        add_hand(
            ledger, *forehands_give_up(ledger, tmp_path), tmp_path, source="h2", heart_ace="Dora"
        )
    # hand 2 (Ben deals): Anna holds the Ace of hearts after the auction; she deals hand 4,
    # so hands 4, 5, 6 are the last round
    add_hand(ledger, *forehands_give_up(ledger, tmp_path), tmp_path, source="h2", heart_ace="Anna")
    assert ledger.last_round(rules) == (4, 6)
    with pytest.raises(LedgerError, match="already called"):
        add_hand(
            ledger, *forehands_give_up(ledger, tmp_path), tmp_path, source="h3", heart_ace="Ben"
        )
    for number in range(3, 7):
        assert not ledger.is_over(rules)
        add_hand(ledger, *forehands_give_up(ledger, tmp_path), tmp_path, source=f"h{number}")
    assert ledger.is_over(rules)
    with pytest.raises(LedgerError, match="the session is over: the last round ended with hand 6"):
        add_hand(ledger, *forehands_give_up(ledger, tmp_path), tmp_path, source="h7")
    # each gave up twice as forehand (-4 each) and collected 2 four times as a defender
    assert [h.sheet["declarer"] for h in ledger.hands] == ["Ben", "Carla", "Anna"] * 2
    assert ledger.totals() == {"Anna": 0, "Ben": 0, "Carla": 0}


def test_heart_ace_needs_the_option(tmp_path: Path) -> None:
    ledger = new_ledger("older-20-100", ["Anna", "Ben", "Carla"], None, "none")
    sheet, where = read_sheet(Path(hand_file(tmp_path, GIVE_UP.format(declarer="Ben"))))
    with pytest.raises(LedgerError, match="does not end by the Ace of hearts"):
        add_hand(ledger, sheet, where, tmp_path, source="h1", heart_ace="Anna")


def test_the_ledger_file_round_trips_and_keeps_whole_documents(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    ledger = new_ledger("older-20-100", ["Anna", "Ben", "Carla"], None, None)
    text = ulti_made(tmp_path, "Anna", ("Ben", "Carla"), "h1.yaml")
    sheet, where = read_sheet(Path(text))
    add_hand(ledger, sheet, where, tmp_path, source=text)
    save_ledger(ledger, path)
    again = load_ledger(path)
    assert again == ledger
    kept = again.hands[0].sheet
    assert kept["players"] == ["Anna", "Ben", "Carla"] and kept["dealer"] == "Anna"
    assert kept["kontra"] == {"ulti": "kontra"}


def test_ledger_user_errors(tmp_path: Path, ulti: Any) -> None:
    ledger = tmp_path / "s.json"
    done = ulti("ledger", "new", str(ledger), "--ruleset", "wikipedia", "--players", "Anna,Ben")
    assert done.returncode == 1
    assert "'wikipedia' is for 3 players, not 2" in done.stderr
    ulti("ledger", "new", str(ledger), "--ruleset", "wikipedia", "--players", "Anna,Ben,Carla")
    again = ulti("ledger", "new", str(ledger), "--ruleset", "wikipedia", "--players", "A,B,C")
    assert again.returncode == 1 and "already exists" in again.stderr
    (tmp_path / "broken.json").write_text("{not json", "utf-8")
    broken = ulti("ledger", "show", "broken.json")
    assert broken.returncode == 1
    assert broken.stderr.startswith("ulti: error: broken.json:2:1: ")
    assert "the '{' at line 1, column 1 is not closed" in broken.stderr
    (tmp_path / "list.json").write_text("[1, 2]", "utf-8")
    listed = ulti("ledger", "show", "list.json")
    assert listed.returncode == 1
    assert "list.json: not a ledger: 'format' must be 'ulti-ledger/1'" in listed.stderr
    missing = ulti("ledger", "show", "none.json")
    assert missing.returncode == 1
    assert "none.json: cannot read the file: No such file or directory" in missing.stderr
    assert ulti("ledger", "add", "none.json", "--misdeal").stderr == (
        "ulti: error: none.json: cannot read the file: No such file or directory\n"
    )
    impossible = hand_file(
        tmp_path,
        ULTI_MADE.format(declarer="Anna", a="Ben", b="Carla").replace(
            "defenders: 30", "defenders: 35"
        ),
    )
    done = ulti("ledger", "add", str(ledger), impossible)
    assert done.returncode == 1
    assert "the card points add up to 95" in done.stderr


def test_engine_hands_enter_the_ledger_like_typed_ones() -> None:
    rules = load_ruleset("wikipedia")
    ledger = new_ledger("wikipedia", ["Anna", "Ben", "Carla"], "Ben", None)
    expected = dict.fromkeys(ledger.players, 0)
    for number, seed in enumerate((3, 11, 29), start=1):
        dealer = ledger.players.index(ledger.dealer_of(number, rules))
        hand = Hand(rules, seed=seed, dealer=dealer)
        rng = random.Random(seed)
        while not hand.is_over:
            actions = hand.legal_actions()
            passes = [a for a in actions if isinstance(a, Pass)]
            hand.apply(passes[0] if passes and rng.random() < 0.8 else rng.choice(actions))
        assert hand.contract is not None
        entry, _, settlement = add_played(
            ledger, hand.contract, hand.facts, source=f"engine seed {seed}"
        )
        assert settlement == settle(rules, hand.contract, hand.facts)
        assert entry.dealer == ledger.players[dealer]
        for seat, amount in settlement.payments.items():
            expected[ledger.players[seat]] += amount
    assert ledger.totals() == expected


# --------------------------------------------------------------------------- deals not played


def club_file(tmp_path: Path, misdeal: str = "true", all_pass: str = "redeal") -> str:
    """A club ruleset after the Italian rules: the opener may pass, so all may pass."""
    path = tmp_path / "club.yaml"
    path.write_text(
        "name: club\nextends: wikipedia\n"
        f"deal: {{misdeal_redeal_same_dealer: {misdeal}}}\n"
        f"auction: {{opener_must_bid: false, all_pass: {all_pass}}}\n",
        "utf-8",
    )
    return str(path)


def wikipedia_ulti(tmp_path: Path, declarer: str, name: str) -> str:
    """An Ulti made by ``declarer`` (the other two of Anna, Ben, Carla defend)."""
    a, b = (p for p in ("Anna", "Ben", "Carla") if p != declarer)
    text = ULTI_MADE.format(declarer=declarer, a=a, b=b) + f"aces: [{declarer}, {a}]\n"
    return hand_file(tmp_path, text, name)


def new_session(ulti: Any, ledger: str, ruleset: str) -> None:
    done = ulti("ledger", "new", ledger, "--ruleset", ruleset, "--players", "Anna,Ben,Carla")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("setting", "said", "next_dealer"),
    [("true", "Anna deals again", "Anna"), ("false", "the deal passes on", "Ben")],
)
def test_a_misdeal_follows_the_ruleset(
    tmp_path: Path, ulti: Any, setting: str, said: str, next_dealer: str
) -> None:
    ledger = str(tmp_path / "s.json")
    new_session(ulti, ledger, club_file(tmp_path, misdeal=setting))
    done = ulti("ledger", "add", ledger, "--misdeal")
    assert done.returncode == 0, done.stderr
    assert f"Hand 1, dealt by Anna: misdeal — {said}." in done.stdout
    assert f"Next: hand 2, dealt by {next_dealer}." in done.stdout
    done = ulti("ledger", "add", ledger, wikipedia_ulti(tmp_path, "Carla", "h2.yaml"))
    assert done.returncode == 0, done.stderr
    assert f"Hand 2, dealt by {next_dealer}:" in done.stdout
    session = json.loads(ulti("ledger", "show", ledger, "--json").stdout)
    misdeal, played = session["hands"]
    assert (misdeal["kind"], misdeal["redeal"], misdeal["dealer"]) == (
        "misdeal",
        setting == "true",
        "Anna",
    )
    assert misdeal["declarer"] is None and misdeal["bid"] is None and misdeal["source"] is None
    assert misdeal["payments"] == {"Anna": 0, "Ben": 0, "Carla": 0}
    assert played["kind"] == "played" and played["payments"]["Carla"] > 0
    assert session["totals"] == played["payments"]  # the misdeal paid nobody
    text = ulti("ledger", "show", ledger)
    assert text.returncode == 0, text.stderr
    assert f"misdeal — {said}" in text.stdout


@pytest.mark.parametrize(
    ("setting", "said", "next_dealer"),
    [("redeal", "Anna deals again", "Anna"), ("pass_out", "passed out", "Ben")],
)
def test_a_hand_nobody_bid_follows_the_ruleset(
    tmp_path: Path, ulti: Any, setting: str, said: str, next_dealer: str
) -> None:
    ledger = str(tmp_path / "s.json")
    new_session(ulti, ledger, club_file(tmp_path, all_pass=setting))
    done = ulti("ledger", "add", ledger, "--passed-out", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data == {
        "hand": 1,
        "kind": "passed_out",
        "dealer": "Anna",
        "redeal": setting == "redeal",
        "payments": {"Anna": 0, "Ben": 0, "Carla": 0},
        "totals": {"Anna": 0, "Ben": 0, "Carla": 0},
        "next_dealer": next_dealer,
        "over": False,
    }
    shown = ulti("ledger", "show", ledger)
    assert f"all passed — {said}" in shown.stdout
    assert f"Next: hand 2, dealt by {next_dealer}." in shown.stdout
    hand = wikipedia_ulti(tmp_path, "Carla", "h2.yaml")
    wrong = "Ben" if next_dealer == "Anna" else "Anna"
    text = Path(hand).read_text("utf-8") + f"dealer: {wrong}\n"
    done = ulti("ledger", "add", ledger, hand_file(tmp_path, text, "wrong.yaml"))
    assert done.returncode == 1
    assert f"the deal passes to the right: {next_dealer} deals hand 2, not {wrong}" in done.stderr
    done = ulti("ledger", "add", ledger, hand)
    assert done.returncode == 0, done.stderr
    assert f"Hand 2, dealt by {next_dealer}:" in done.stdout


def test_nobody_can_pass_out_where_the_opener_must_bid(tmp_path: Path, ulti: Any) -> None:
    ledger = str(tmp_path / "s.json")
    new_session(ulti, ledger, "wikipedia")
    before = Path(ledger).read_text("utf-8")
    done = ulti("ledger", "add", ledger, "--passed-out")
    assert done.returncode == 1
    assert "under 'wikipedia' nobody can pass a hand out: the opener must bid" in done.stderr
    for args, message in [
        ((), "give a HAND, --misdeal or --passed-out"),
        (("--misdeal", "--passed-out"), "give only one of --misdeal, --passed-out"),
        (("h.yaml", "--misdeal"), "give only one of HAND, --misdeal"),
        (("--misdeal", "--heart-ace", "Anna"), "a misdeal has no auction"),
    ]:
        done = ulti("ledger", "add", ledger, *args)
        assert done.returncode == 1 and message in done.stderr, done.stderr
    assert Path(ledger).read_text("utf-8") == before


def passed_out_record(club: str, seed: int, dealer: int, path: Path) -> None:
    """The engine's record of a hand in which everybody passed."""
    hand = Hand(load_ruleset(club), seed=seed, dealer=dealer)
    while not hand.is_over:
        actions = hand.legal_actions()
        hand.apply(next((a for a in actions if isinstance(a, Pass)), actions[0]))
    assert hand.passed_out and hand.contract is None
    save(record_of(hand, "club.yaml", players=["Anna", "Ben", "Carla"]), path)


@pytest.mark.parametrize(("setting", "second"), [("redeal", 0), ("pass_out", 1)])
def test_a_passed_out_engine_record_enters_the_ledger(
    tmp_path: Path, ulti: Any, setting: str, second: int
) -> None:
    ledger = str(tmp_path / "s.json")
    club = club_file(tmp_path, all_pass=setting)
    new_session(ulti, ledger, club)
    passed_out_record(club, 5, 0, tmp_path / "r1.yaml")
    done = ulti("ledger", "add", ledger, "r1.yaml")
    assert done.returncode == 0, done.stderr
    said = "Anna deals again" if setting == "redeal" else "passed out"
    assert f"Hand 1, dealt by Anna: all passed — {said}." in done.stdout
    # the next record must be dealt by the dealer the setting says
    passed_out_record(club, 6, 1 - second, tmp_path / "wrong.yaml")
    done = ulti("ledger", "add", ledger, "wrong.yaml")
    names = ["Anna", "Ben"]
    assert done.returncode == 1
    assert f"{names[second]} deals hand 2, not {names[1 - second]}" in done.stderr
    passed_out_record(club, 6, second, tmp_path / "r2.yaml")
    done = ulti("ledger", "add", ledger, "r2.yaml", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["dealer"] == names[second]
    session = json.loads(ulti("ledger", "show", ledger, "--json").stdout)
    assert [h["source"] for h in session["hands"]] == ["r1.yaml", "r2.yaml"]
    assert [h["kind"] for h in session["hands"]] == ["passed_out", "passed_out"]
    assert session["next_dealer"] == ("Anna" if setting == "redeal" else "Carla")
    assert session["totals"] == {"Anna": 0, "Ben": 0, "Carla": 0}


def test_four_players_a_redeal_keeps_the_dealer_who_sits_out(tmp_path: Path) -> None:
    players = ["Anna", "Ben", "Carla", "Dani"]
    ledger = new_ledger("four-player", players, "Dani", None)
    rules = load_ruleset("four-player")
    assert rules.deal.misdeal_redeal_same_dealer
    entry = add_misdeal(ledger)
    assert (entry.number, entry.dealer, entry.redeal) == (1, "Dani", True)
    assert entry.payments == dict.fromkeys(players, 0)
    assert [ledger.dealer_of(n, rules) for n in range(1, 5)] == ["Dani", "Dani", "Anna", "Ben"]
    with pytest.raises(LedgerError, match="nobody can pass a hand out"):
        add_passed_out(ledger)
    sheet, where = read_sheet(
        Path(
            hand_file(
                tmp_path,
                ULTI_MADE.format(declarer="Anna", a="Ben", b="Carla") + "aces: [Anna, Ben]\n",
            )
        )
    )
    played, _, settlement = add_hand(ledger, sheet, where, tmp_path, source="h2")
    assert (played.number, played.dealer) == (2, "Dani")
    assert settlement.sitting_out == 3 and played.payments["Dani"] == 0
    assert ledger.totals() == played.payments
    assert ledger.dealer_of(3, rules) == "Anna"


def test_heart_ace_ending_counts_deals_not_redeals(tmp_path: Path) -> None:
    ledger = new_ledger("older-20-100", ["Anna", "Ben", "Carla"], "Anna", None)
    rules = load_ruleset("older-20-100")

    def play(source: str, heart_ace: str | None = None) -> None:
        sheet, where = forehands_give_up(ledger, tmp_path)
        add_hand(ledger, sheet, where, tmp_path, source=source, heart_ace=heart_ace)

    play("h1")  # Anna deals
    play("h2", heart_ace="Anna")  # Ben deals; Anna deals the last round from hand 4
    assert ledger.last_round(rules) == (4, 6)
    add_misdeal(ledger)  # hand 3: Carla deals again as hand 4, so Anna's deal is hand 5
    assert [h.dealer for h in ledger.hands] == ["Anna", "Ben", "Carla"]
    assert ledger.last_round(rules) == (5, 7)
    play("h4")
    assert ledger.hands[-1].dealer == "Carla"
    add_misdeal(ledger)  # hand 5, Anna's: not one of the last three deals
    assert ledger.last_round(rules) == (5, 8)
    for source in ("h6", "h7"):
        play(source)
        assert not ledger.is_over(rules)
    play("h8")
    assert [h.dealer for h in ledger.hands[4:]] == ["Anna", "Anna", "Ben", "Carla"]
    assert ledger.is_over(rules)
    with pytest.raises(LedgerError, match="the session is over: the last round ended with hand 8"):
        add_misdeal(ledger)
    played = [h for h in ledger.hands if h.kind == "played"]
    assert len(played) == 6
    # the forehands of Anna's, Ben's, Carla's deals, twice: each -4 twice, +2 four times
    assert [h.sheet["declarer"] for h in played] == ["Ben", "Carla", "Anna"] * 2
    assert ledger.totals() == {"Anna": 0, "Ben": 0, "Carla": 0}


def test_an_old_ledger_file_still_loads(tmp_path: Path) -> None:
    old = {
        "format": "ulti-ledger/1",
        "ruleset": "older-20-100",
        "players": ["Anna", "Ben", "Carla"],
        "first_dealer": "Anna",
        "end": "none",
        "hands": [
            {
                "number": 1,
                "dealer": "Anna",
                "declarer": "Ben",
                "bid": "parti",
                "source": "h1.yaml",
                "sheet": {"declarer": "Ben", "bid": "parti", "gave_up": True},
                "payments": {"Anna": 2, "Ben": -4, "Carla": 2},
                "heart_ace": None,
            }
        ],
    }
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old), "utf-8")
    ledger = load_ledger(path)
    assert ledger.hands[0].kind == "played" and not ledger.hands[0].redeal
    assert ledger.dealer_of(2, load_ruleset("older-20-100")) == "Ben"
    add_misdeal(ledger)
    save_ledger(ledger, path)
    again = load_ledger(path)
    assert again == ledger
    assert again.totals() == {"Anna": 2, "Ben": -4, "Carla": 2}
    assert again.dealer_of(3, load_ruleset("older-20-100")) == "Ben"


def test_an_entry_not_played_pays_nobody(tmp_path: Path) -> None:
    data = Ledger(ruleset="wikipedia", players=["A", "B", "C"], first_dealer="A")
    entry = {"number": 1, "dealer": "A", "kind": "misdeal", "redeal": True}
    for bad, message in [
        ({"payments": {"A": 2, "B": -1, "C": -1}}, "a misdeal hand pays nobody"),
        ({"payments": {}, "declarer": "A"}, "a misdeal hand has no declarer, bid or sheet"),
        ({"payments": {}, "heart_ace": "A"}, "a misdeal has no auction"),
        ({"payments": {}, "kind": "played"}, "a played hand needs its declarer, bid and sheet"),
    ]:
        text = data.model_dump(mode="json") | {"hands": [entry | bad]}
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(text), "utf-8")
        with pytest.raises(LedgerError, match=message):
            load_ledger(path)


def test_a_planned_session_length_ends_the_session(tmp_path: Path, ulti: Any) -> None:
    """session.hands (IT: 24) counts deals that passed on; a redeal is not one of them."""
    club = tmp_path / "short.yaml"
    club.write_text("name: short\nextends: wikipedia\nsession: {hands: 2}\n", "utf-8")
    ledger = str(tmp_path / "s.json")
    new_session(ulti, ledger, str(club))
    first = ulti("ledger", "add", ledger, wikipedia_ulti(tmp_path, "Ben", "h1.yaml"))
    assert first.returncode == 0, first.stderr
    assert "1 of 2 planned hands are played" in first.stdout
    misdeal = ulti("ledger", "add", ledger, "--misdeal")  # Ben deals again: not a deal
    assert misdeal.returncode == 0, misdeal.stderr
    second = ulti("ledger", "add", ledger, wikipedia_ulti(tmp_path, "Carla", "h2.yaml"))
    assert second.returncode == 0, second.stderr
    assert "The session is over: its 2 planned hands are played." in second.stdout
    more = ulti("ledger", "add", ledger, wikipedia_ulti(tmp_path, "Anna", "h3.yaml"))
    assert more.returncode == 1
    assert "its 2 planned hands are played" in more.stderr
    session = json.loads(ulti("ledger", "show", ledger, "--json").stdout)
    assert (session["planned_hands"], session["deals"], session["over"]) == (2, 2, True)


COMPOSED, DECOMPOSED = "J\u00f3zsef", "Jo\u0301zsef"  # 'József' with 'ó', and 'o' + accent


def test_a_name_in_either_unicode_form_is_one_player(tmp_path: Path, ulti: Any) -> None:
    """'József' typed with a combining accent and with 'ó' looked alike and were two
    players: a session of "Anna, József, József", and a hand refused with "'József' is
    not a player (Anna, Ben, József)" (found by a fault review)."""
    ledger = str(tmp_path / "s.json")
    new = ("ledger", "new", ledger, "--ruleset", "wikipedia", "--players")
    twice = ulti(*new, f"Anna,{DECOMPOSED},{COMPOSED}")
    assert twice.returncode == 1
    assert "every player needs a different, non-empty name" in twice.stderr
    made = ulti(*new, f"Anna,Ben,{DECOMPOSED}", "--dealer", DECOMPOSED)
    assert made.returncode == 0, made.stderr
    assert load_ledger(Path(ledger)).players == ["Anna", "Ben", COMPOSED]
    hand = ulti_made(tmp_path, COMPOSED, ("Anna", "Ben"), "h1.yaml")
    with open(hand, "a", encoding="utf-8") as more:
        more.write(f"aces: [Anna, {DECOMPOSED}]\n")
    added = ulti("ledger", "add", ledger, hand, "--json")
    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout)["totals"] == {"Anna": -9, "Ben": -9, COMPOSED: 18}


def test_a_hand_settlement_refuses_is_said_at_its_file_and_key(tmp_path: Path, ulti: Any) -> None:
    """A flag the bid gives no meaning: the table is told where, and the ledger is kept."""
    ledger = str(tmp_path / "s.json")
    ulti("ledger", "new", ledger, "--ruleset", "wikipedia", "--players", "Anna,Ben,Carla")
    before = (tmp_path / "s.json").read_text("utf-8")
    hand = hand_file(tmp_path, "declarer: Ben\nbid: betli\nuncontested: true\n", "h.yaml")
    done = ulti("ledger", "add", ledger, hand)
    assert done.returncode == 1
    assert done.stderr.startswith(f"ulti: error: {hand}:3:1: uncontested: ")
    assert (tmp_path / "s.json").read_text("utf-8") == before


def test_an_uncontested_simple_of_another_than_forehand_is_refused(
    tmp_path: Path, ulti: Any
) -> None:
    """Carla deals in a four-player session: Dani is forehand, and only his opening
    Simple can stand uncontested; Anna is not charged for it."""
    ledger = str(tmp_path / "s.json")
    players = "Anna,Ben,Carla,Dani"
    ulti(
        "ledger",
        "new",
        ledger,
        "--ruleset",
        "four-player",
        "--players",
        players,
        "--dealer",
        "Carla",
    )
    text = "declarer: {declarer}\nbid: Simple\nuncontested: true\n"
    wrong = hand_file(tmp_path, text.format(declarer="Anna"), "h.yaml")
    done = ulti("ledger", "add", ledger, wrong)
    assert done.returncode == 1
    assert f"{wrong}:1:1: declarer: an uncontested Simple is forehand's opening bid" in done.stderr
    assert "with Carla dealing, Dani is forehand" in done.stderr
    right = hand_file(tmp_path, text.format(declarer="Dani"), "h.yaml")
    done = ulti("ledger", "add", ledger, right, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["payments"] == {"Anna": 2, "Ben": 2, "Carla": 0, "Dani": -4}


def test_a_hand_added_twice_is_noted_and_taken_back(tmp_path: Path, ulti: Any) -> None:
    """The same file added again with the same play: said at once, and `ulti ledger undo`
    takes the last hand back, the totals and the deal as before it."""
    ledger = str(tmp_path / "s.json")
    ulti("ledger", "new", ledger, "--ruleset", "older-20-100", "--players", "Anna,Ben,Carla")
    hand = ulti_made(tmp_path, "Anna", ("Ben", "Carla"), "h1.yaml")
    first = ulti("ledger", "add", ledger, hand)
    assert first.returncode == 0 and "again" not in first.stderr
    again = ulti("ledger", "add", ledger, hand, "--heart-ace", "Carla")
    assert again.returncode == 0, again.stderr
    assert (
        f"ulti: note: hand 2 is hand 1 again (the same file {hand}, the same play): if it "
        f"was added twice, `ulti ledger undo {ledger}` takes it back"
    ) in again.stderr
    undone = ulti("ledger", "undo", ledger)
    assert undone.returncode == 0, undone.stderr
    assert undone.stdout.startswith(
        "Took back hand 2, dealt by Ben: Ulti (ulti), declarer Anna, A♥: Carla "
        "(Anna +18, Ben -9, Carla -9)."
    )
    assert "Next: hand 2, dealt by Ben." in undone.stdout
    shown = json.loads(ulti("ledger", "show", ledger, "--json").stdout)
    assert shown["totals"] == {"Anna": 18, "Ben": -9, "Carla": -9}
    assert [h["number"] for h in shown["hands"]] == [1] and shown["last_round"] is None
    data = json.loads(ulti("ledger", "undo", ledger, "--json").stdout)
    assert data["removed"]["number"] == 1 and "sheet" not in data["removed"]
    assert data["totals"] == {"Anna": 0, "Ben": 0, "Carla": 0} and data["next_dealer"] == "Anna"
    empty = ulti("ledger", "undo", ledger)
    assert empty.returncode == 1
    assert empty.stderr == "ulti: error: the session has no hand to take back\n"


def test_the_hand_that_accepted_new_rules_is_not_taken_back(tmp_path: Path) -> None:
    ledger = new_ledger("wikipedia", ["Anna", "Ben", "Carla"], None, None)
    add_misdeal(ledger)
    ledger.hands[-1] = ledger.hands[-1].model_copy(update={"ruleset_hash": "sha256:" + "0" * 64})
    with pytest.raises(LedgerError, match="hand 1 is where the changed rules were accepted"):
        take_back(ledger)
    assert len(ledger.hands) == 1


def test_taking_back_where_another_version_took_over_gives_the_version_back() -> None:
    ledger = new_ledger("wikipedia", ["Anna", "Ben", "Carla"], None, None)
    for _ in range(3):
        add_misdeal(ledger)
    hands = ledger.hands
    hands[1] = hands[1].model_copy(update={"settled_by": "0.1"})
    hands[2] = hands[2].model_copy(update={"settled_by": "0.2"})
    ledger.settled_by = "0.2"
    assert take_back(ledger).number == 3 and ledger.settled_by == "0.1"
    assert take_back(ledger).number == 2 and ledger.settled_by is None
