"""One derivation each: the rotation of the deal, the seating and the trumps a bid may
have are worked out in one place, and every other place asks it.

- the rotation: ``seating.dealer_after``, which ``Ledger.dealer_of`` / ``Ledger.dealers``
  count the redeals into; the ledger's checks and the study runner ask them;
- the seating: ``seating.build_seating``; ``sheet_from`` asks it who dealt a hand;
- the trumps: the catalogue's ``BidInfo.suits``; the engine's auction and the score
  keeper ask it (the score keeper only words why another trump is wrong).

Each test holds a former copy's caller to the single derivation over every bundled
ruleset (and a few club files reaching what none of them sets) and many seeds.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from ulti_rules import load_ruleset
from ulti_rules.bots import bot, play_out
from ulti_rules.cards import suit_id, suit_number
from ulti_rules.errors import Problem
from ulti_rules.game import Game
from ulti_rules.game.seating import (
    build_seating,
    dealer_after,
    dealer_with_forehand,
    direction_step,
)
from ulti_rules.ruleset.positions import Where
from ulti_rules.ruleset.schema import Ruleset
from ulti_rules.scoring.ledger import Ledger, LedgerHand
from ulti_rules.scoring.ledger_checks import ruleset_problems
from ulti_rules.scoring.sheet import SheetError, read_sheet, sheet_of
from ulti_rules.scoring.table_facts import hand_from_sheet, only_uncontested, sheet_from
from ulti_rules.study import runner
from ulti_rules.study.runner import PASSED_OUT, StudySpec, seat_names

REPO = Path(__file__).resolve().parent.parent
BUNDLED = sorted(path.stem for path in (REPO / "rulesets").glob("*.yaml"))
VARIANTS = {
    "fixed": "extends: wikipedia\ntrump: {fixed: acorns}\n",
    "fixed-red": "extends: wikipedia\ntrump: {fixed: hearts}\n",
    "free-red": "extends: wikipedia\ntrump: {red_suit_needs_red_bid: false}\n",
    "clockwise": "extends: wikipedia\ndirection: clockwise\n",
    "clockwise-four": "extends: four-player\ndirection: clockwise\n",
    "redeal": "extends: wikipedia\nauction: {opener_must_bid: false, all_pass: redeal}\n",
}
"""Club files for what no bundled ruleset sets: a fixed trump (the red suit too), the red
suit in any bid, a clockwise table, a deal dealt again where nobody bid."""
SUITS = ("acorns", "leaves", "hearts", "bells")
SEEDS = range(12)


@pytest.fixture(scope="module")
def clubs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("clubs")
    for name, body in VARIANTS.items():
        (folder / f"{name}.yaml").write_text(f"name: {name}\ntitle: {name}\n{body}", "utf-8")
    return folder


@pytest.fixture(params=[*BUNDLED, *VARIANTS])
def ref(request: pytest.FixtureRequest, clubs: Path) -> str:
    """A bundled ruleset's name, or a club file's absolute path."""
    name: str = request.param
    return name if name in BUNDLED else str(clubs / f"{name}.yaml")


@pytest.fixture
def ruleset(ref: str) -> Ruleset:
    return load_ruleset(ref)


TRUMP_VARIANTS = ("fixed", "fixed-red", "free-red")
"""The club files that set trumps; the others play a bundled ruleset's trumps."""


@pytest.fixture(params=[*BUNDLED, *TRUMP_VARIANTS])
def trump_rules(request: pytest.FixtureRequest, clubs: Path) -> Ruleset:
    """A bundled ruleset, or a club file that sets its trumps."""
    name: str = request.param
    return load_ruleset(name if name in BUNDLED else str(clubs / f"{name}.yaml"))


def passed_out(number: int, dealer: str, players: list[str], redeal: bool) -> LedgerHand:
    """A ledger entry as the rotation reads it: who dealt, and whether the deal passed on."""
    return LedgerHand(
        number=number,
        dealer=dealer,
        kind="passed_out",
        redeal=redeal,
        payments=dict.fromkeys(players, 0),
    )


def dealer_problems(problems: list[Problem]) -> list[tuple[str, str]]:
    return [(p.path, p.message) for p in problems if p.path.endswith(".dealer")]


# --------------------------------------------------------------------------- the seating


def test_the_rotation_and_the_dealer_of_a_forehand_are_the_seatings(ruleset: Ruleset) -> None:
    """The deal passes to the dealer's forehand, and a forehand names its dealer back."""
    n = ruleset.players.count
    for dealer in range(n):
        seating = build_seating(ruleset, dealer)
        assert dealer_after(ruleset, dealer, 0) == dealer
        assert dealer_after(ruleset, dealer, 1) == seating.forehand
        assert dealer_after(ruleset, dealer, n) == dealer
        assert dealer_with_forehand(ruleset, seating.forehand) == dealer


# --------------------------------------------------------------------------- the ledger


def test_the_ledger_checks_accept_exactly_the_dealers_of_dealer_of(ruleset: Ruleset) -> None:
    """Random sessions with redeals and dealers right or wrong: the checks refuse each
    wrong dealer, and only those, with the words they always said; ``dealer_of`` follows
    the seating (a redeal keeps the dealer, a deal that passes on goes to forehand)."""
    n = ruleset.players.count
    where = Where("s.json", {})
    refused = 0
    for seed in range(40):
        rng = random.Random(seed)
        players = [f"N{seat}" for seat in range(n)]
        ledger = Ledger(ruleset="x", players=players, first_dealer=rng.choice(players))
        for number in range(1, rng.randint(1, 8) + 1):
            right = ledger.dealer_of(number, ruleset)
            dealer = right if rng.random() < 0.7 else rng.choice(players)
            ledger.hands.append(passed_out(number, dealer, players, rng.random() < 0.3))
        dealers = [ledger.dealer_of(number, ruleset) for number in range(1, len(ledger.hands) + 1)]
        assert dealers[0] == ledger.first_dealer
        for before, after, hand in zip(dealers, dealers[1:], ledger.hands, strict=False):
            seat = players.index(before)
            expected = seat if hand.redeal else build_seating(ruleset, seat).forehand
            assert after == players[expected]
        expected_problems = [
            (
                f"hands.{index}.dealer",
                f"the deal passes to the right: {right} deals hand {index + 1}, not {hand.dealer}",
            )
            for index, (hand, right) in enumerate(zip(ledger.hands, dealers, strict=True))
            if hand.dealer != right
        ]
        problems = ruleset_problems(ledger, where, ruleset)
        assert dealer_problems(problems) == expected_problems
        assert len(problems) == len(expected_problems), "nothing but the dealers is wrong"
        refused += len(expected_problems)
        fixed = ledger.model_copy(
            update={
                "hands": [
                    h.model_copy(update={"dealer": d})
                    for h, d in zip(ledger.hands, dealers, strict=True)
                ]
            }
        )
        assert ruleset_problems(fixed, where, ruleset) == []
    assert refused > 0, "some dealer was wrong"


def test_the_planned_end_counts_the_deals_as_the_ledger_counts_them(tmp_path: Path) -> None:
    """``session.hands`` counts deals that passed on: the session's end, the check that
    nothing follows it, and ``deals()`` agree, redeals and all."""
    club = tmp_path / "short.yaml"
    club.write_text("name: short\ntitle: Short\nextends: wikipedia\nsession: {hands: 3}\n", "utf-8")
    ruleset = load_ruleset(str(club))
    players = ["A", "B", "C"]
    where = Where("s.json", {})
    for seed in range(30):
        rng = random.Random(seed)
        ledger = Ledger(ruleset="x", players=players, first_dealer="A")
        for number in range(1, rng.randint(1, 8) + 1):
            dealer = ledger.dealer_of(number, ruleset)
            ledger.hands.append(passed_out(number, dealer, players, rng.random() < 0.4))
        passes = [not hand.redeal for hand in ledger.hands]
        ended = next((n for n in range(1, len(passes) + 1) if sum(passes[:n]) >= 3), None)
        assert ledger.planned_end(ruleset) == ended
        assert ledger.planned_over(ruleset) == (ledger.deals() >= 3) == (ended is not None)
        after = [p.message for p in ruleset_problems(ledger, where, ruleset)]
        if ended is not None and ended < len(ledger.hands):
            assert after == [f"the session was over after hand {ended}: no hand comes after it"]
        else:
            assert after == []


def test_a_ledger_and_a_ruleset_of_other_tables_are_refused_by_the_rotation() -> None:
    """The rotation counts the ruleset's table; a ledger of another size (only reachable
    by building one: loading refuses it first) is told so, not an IndexError."""
    four = load_ruleset("four-player")
    ledger = Ledger(ruleset="four-player", players=["A", "B", "C"], first_dealer="A")
    with pytest.raises(
        ValueError, match="the ledger has 3 players and its ruleset 'four-player' 4"
    ):
        ledger.dealer_of(4, four)


# --------------------------------------------------------------------------- studies


def test_the_study_deals_as_a_ledger_rotates(ref: str, ruleset: Ruleset) -> None:
    """Each hand of a study is dealt by the seat ``runner.dealer_of`` gives its turn,
    which is the dealer ``Ledger.dealer_of`` gives the session of those hands (a hand
    nobody bid, dealt again, kept as a redeal)."""
    n = ruleset.players.count
    names = seat_names(n)
    redeals = 0
    for seed in range(4):
        hands = 10
        spec = StudySpec(ref, ("random",) * n, seed, hands)
        played = runner.Table(spec).play_turns(0, runner.turn_seeds(seed, hands), hands)
        results = [result for result, _ in played]
        assert len(results) == hands
        ledger = Ledger(ruleset="x", players=names, first_dealer=names[0])
        for number, result in enumerate(results, start=1):
            assert result.dealer == runner.dealer_of(result.turn, n, direction_step(ruleset))
            again = number < len(results) and results[number].turn == result.turn
            assert not again or result.outcome == PASSED_OUT
            redeals += again
            ledger.hands.append(passed_out(number, names[result.dealer], names, again))
        for number, result in enumerate(results, start=1):
            assert ledger.dealer_of(number, ruleset) == names[result.dealer]
        assert dealer_problems(ruleset_problems(ledger, Where("s.json", {}), ruleset)) == []
    if ruleset.name == "redeal":
        assert redeals > 0, "a study under rules that deal again dealt again"


# --------------------------------------------------------------------------- trumps


def _trump_sheet(ruleset: Ruleset, bid: str, trump: str | None, folder: Path) -> list[Problem]:
    """The problems ``ulti score`` finds in a sheet of ``bid`` with ``trump`` (written on
    line 5 of its file): those at its ``trump`` key, and at ``bid``."""
    names = seat_names(ruleset.players.count)
    declarer = build_seating(ruleset, 0).forehand
    lines = [
        f"players: [{', '.join(names)}]",
        f"dealer: {names[0]}",
        f"declarer: {names[declarer]}",
        f"bid: {bid}",
    ]
    if trump is not None:
        lines.append(f"trump: {trump}")
    path = folder / "hand.yaml"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    sheet, where = read_sheet(path)
    try:
        hand_from_sheet(sheet, where, folder, ruleset=ruleset)
    except SheetError as exc:
        return [p for p in exc.problems if p.path in ("trump", "bid")]
    return []


def test_the_score_keeper_accepts_exactly_the_trumps_of_the_catalogue(
    trump_rules: Ruleset, tmp_path: Path
) -> None:
    """Every biddable bid with every suit and with none: a trump ``BidInfo.suits`` allows
    passes, any other is refused at its key (line 5), in the words that say why."""
    ruleset = trump_rules
    game = Game.of(ruleset)
    red = ruleset.trump.red_suit
    checked = red_only = 0
    for info in game.catalog.ladder:
        if not info.biddable:
            continue
        allowed = [suit_id(s) for s in info.suits]
        for trump in SUITS:
            found = [
                (p.path, p.line, p.message) for p in _trump_sheet(ruleset, info.id, trump, tmp_path)
            ]
            if trump in allowed:
                assert [f for f in found if f[0] == "trump"] == [], (info.id, trump)
                continue
            if info.trump == "none":
                why = f"'{info.id}' is played without trumps; leave trump out"
            elif info.trump == "red":
                why = f"'{info.id}' is a red bid: trump is {red}"
            elif len(allowed) == 1:
                why = f"trump is always {allowed[0]} in '{ruleset.name}', not {trump}"
            else:
                assert trump == red
                why = f"{red} is trump only in a red bid here; '{info.id}' is not red"
                red_only += 1
            assert ("trump", 5, why) in found, (info.id, trump, found)
            checked += 1
        unsaid = _trump_sheet(ruleset, info.id, None, tmp_path)
        said = [p.message for p in unsaid]
        missing = f"'{info.id}' is a trump bid: say which suit was trump (trump: acorns)"
        if len(allowed) > 1 and not only_uncontested(game, info):
            assert missing in said, info.id
        else:
            assert missing not in said, info.id
    assert checked > 0, "some trump was refused"
    rules = ruleset.trump  # the catalogue against the settings it reads
    assert (red_only > 0) == (rules.red_suit_needs_red_bid and rules.fixed is None)


def test_the_engine_and_the_score_keeper_agree_on_the_trump_and_the_dealer(
    ruleset: Ruleset,
) -> None:
    """Hands the bots play: the engine's trump is one the catalogue allows; the sheet
    written of the hand (``sheet_from``, which finds its dealer by the seating) names
    the dealer who dealt, and the score keeper reads the same trump back."""
    game = Game.of(ruleset)
    n = ruleset.players.count
    names = seat_names(n)
    compared = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        hand = play_out(
            game.new_hand(seed=seed, dealer=seed % n), [bot("random") for _ in range(n)], rng
        )
        contract = hand.contract
        if contract is None:
            continue
        info = game.bid(contract.bid)
        if contract.trump is None:
            assert len(info.suits) != 1, "a red or fixed trump needs no naming"
        else:
            assert suit_number(contract.trump) in info.suits
        doc: dict[str, Any] = sheet_from(ruleset, contract, hand.facts)
        if hand.facts is not None or n == 4:
            assert doc["dealer"] == names[hand.dealer]
        sheet, where = sheet_of(doc, {}, "hand.yaml")
        table = hand_from_sheet(sheet, where, Path(), ruleset=ruleset)
        assert table.contract.trump == contract.trump
        compared += 1
    assert compared > 0


def test_a_missing_key_is_worded_alike_by_every_reader_and_in_each_language(
    tmp_path: Path,
) -> None:
    """One wording (``pydantic_problems.missing_key_message``): a ruleset, a score sheet
    and a hand record say a required key left out the same way, at the mapping that
    lacks it; the sheet says it in Hungarian and German too (it was English only)."""
    from ulti_rules.records import RecordError, load_record
    from ulti_rules.ruleset.loading import check_file

    from cli_in_process import run_in

    club = tmp_path / "club.yaml"
    club.write_text("name: club\nextends: wikipedia\nsilent_bonuses: {feat: {value: 2}}\n")
    said = [p.message for p in check_file(club)]
    assert "missing required key 'condition'" in said
    (tmp_path / "s.yaml").write_text(
        "ruleset: wikipedia\nplayers: [A, B, C]\nbid: ulti\ntrump: acorns\npoints: {declarer: 60}\n"
    )
    with pytest.raises(SheetError) as sheet:
        read_table(tmp_path / "s.yaml")
    assert [(p.path, p.message) for p in sheet.value.problems] == [
        ("", "missing required key 'declarer'"),
        ("points", "missing required key 'defenders'"),
    ]
    (tmp_path / "r.json").write_text('{"format": "ulti-hand/1", "ruleset": "wikipedia"}')
    with pytest.raises(RecordError) as record:
        load_record(tmp_path / "r.json")
    assert "missing required key 'deal'" in [p.message for p in record.value.problems]
    ulti = run_in(tmp_path)
    for lang, words in (
        ("hu", "hiányzó kötelező kulcs: 'declarer'"),
        ("de", "fehlender Pflichtschlüssel 'declarer'"),
    ):
        done = ulti("score", "s.yaml", "--lang", lang)
        assert done.returncode == 1 and f"s.yaml: {words}\n" in done.stderr, done.stderr


def read_table(path: Path) -> object:
    sheet, where = read_sheet(path)
    return hand_from_sheet(sheet, where, path.parent)
