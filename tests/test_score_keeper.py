"""`ulti score`: the score keeper's document, its checks, and what it prints."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from ulti_rules.scoring.sheet import SheetError
from ulti_rules.scoring.table_facts import settle_sheet

from cli_in_process import run_in
from settlement_support import ULTI_SHEET

GOOD = ULTI_SHEET


def write(tmp_path: Path, text: str, name: str = "hand.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def problems(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(SheetError) as caught:
        settle_sheet(write(tmp_path, text))
    return [str(p) for p in caught.value.problems]


def replace(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new)


# --------------------------------------------------------------------------- impossible facts


def test_points_adding_to_95_are_refused(tmp_path: Path) -> None:
    found = problems(tmp_path, replace(GOOD, "defenders: 30", "defenders: 35"))
    assert found == [
        f"{tmp_path / 'hand.yaml'}:6:1: points: the card points add up to 95 (declarer 60 + "
        "defenders 35 + talon 0), but the deck and the last trick hold 90"
    ]


def test_eleven_tricks_are_refused(tmp_path: Path) -> None:
    (found,) = problems(tmp_path, replace(GOOD, "Ben: 2,", "Ben: 3,"))
    assert found.endswith(":7:1: tricks: the trick counts add up to 11, not 10")


def test_a_durchmars_with_a_lost_trick_is_refused(tmp_path: Path) -> None:
    text = replace(
        GOOD, "tricks: {Anna: 6, Ben: 2, Carla: 2}", "tricks: {Anna: 9, Ben: 1}\ndurchmars: Anna"
    )
    (found,) = problems(tmp_path, text)
    assert found.endswith(
        "durchmars: Anna took every trick (a durchmars), but tricks gives Anna 9 and Ben 1"
    )


def test_every_contradiction_is_listed_at_once(tmp_path: Path) -> None:
    text = replace(replace(GOOD, "defenders: 30", "defenders: 35"), "Ben: 2,", "Ben: 3,")
    found = problems(tmp_path, text)
    assert [p.split(": ")[1] for p in found] == ["points", "tricks"]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "tricks: {Anna: 6, Ben: 2, Carla: 2}",
            "tricks: {Anna: 10}",
            "the defenders took 0 tricks and cannot have 30 card points (at most 0)",
        ),
        (
            "tricks: {Anna: 6, Ben: 2, Carla: 2}",
            "tricks: {Anna: 1, Ben: 4, Carla: 5}",
            "the declarer took 1 trick and cannot have 60 card points (at most 40)",
        ),
        (
            "tricks: {Anna: 6, Ben: 2, Carla: 2}",
            "tricks: {Anna: 8, Ben: 2, Carla: 0}\nmarriages: {Carla: [bells], Ben: [bells]}",
            "the King and Over of bells make one marriage, announced twice (Carla and Ben)",
        ),
        (
            "trump_seven: Anna}",
            "trump_seven: Anna}\ntrump_seven_early: Ben",
            "there is one trump 7: it cannot be played both before and in the last trick",
        ),
    ],
)
def test_other_impossible_facts(tmp_path: Path, old: str, new: str, message: str) -> None:
    found = problems(tmp_path, replace(GOOD, old, new))
    assert any(message in p for p in found), found


def test_an_ace_taker_without_a_trick_is_refused(tmp_path: Path) -> None:
    text = replace(
        GOOD, "tricks: {Anna: 6, Ben: 2, Carla: 2}", "tricks: {Anna: 8, Ben: 0, Carla: 2}"
    )
    assert any("Ben took an ace but won no trick" in p for p in problems(tmp_path, text))


# --------------------------------------------------------------------------- the document


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "bid: ulti",
            "bid: ulty",
            "bid: 'ulty' is not a bid of 'wikipedia' (did you mean 'ulti'?)",
        ),
        (
            "declarer: Anna",
            "declarer: Ana",
            "declarer: 'Ana' is not a player (Anna, Ben, Carla) (did you mean 'Anna'?)",
        ),
        ("trump: acorns", "trump: spoons", "trump: 'spoons' is not a suit"),
        ("trump: acorns", "trump: hearts", "hearts is trump only in a red bid here"),
        ("trump: acorns\n", "", "'ulti' is a trump bid: say which suit was trump"),
        ("bid: ulti", "bid: betli", "trump: 'betli' is played without trumps; leave trump out"),
        ("bid: ulti", "bid: ulti\nkontra: {betli: 1}", "kontra.betli: 'betli' is not a component"),
        (
            "bid: ulti",
            "bid: ulti\nkontra: {ulti: superkontra}",
            "'superkontra' is not a kontra level",
        ),
        (
            "bid: ulti",
            "bid: ulti\nkontra: {ulti: {Ben: 1, Carla: 2}}",
            "a kontra on 'ulti' binds both defenders here, so their levels cannot differ",
        ),
        ("bid: ulti", "bid: ulti\nkontra: {ulti: {Anna: 1}}", "Anna is not a defender"),
        ("bid: ulti", "bid: ulti\nround_one: true", "'wikipedia' has no two-round auction"),
        (
            "players: [Anna, Ben, Carla]",
            "players: [Anna, Ben]",
            "'wikipedia' is for 3 players, not 2",
        ),
        (
            "points: {declarer: 60, defenders: 30}",
            "points: {declarer: 60}",
            "points: missing required key 'defenders'",
        ),
        ("aces: [Anna, Ben]", "aces: [Anna, Ben]\nfoo: 1", "foo: unknown key"),
        ("aces: [Anna, Ben]\n", "", "add 'aces:' to the document"),
        ("ruleset: wikipedia\n", "", "missing: ruleset"),
    ],
)
def test_document_mistakes_are_named(tmp_path: Path, old: str, new: str, message: str) -> None:
    found = problems(tmp_path, replace(GOOD, old, new))
    assert any(message in p for p in found), found


def test_a_key_given_twice_is_refused(tmp_path: Path) -> None:
    (found,) = problems(tmp_path, GOOD + "tricks: {Anna: 8, Ben: 0, Carla: 2}\n")
    assert found.startswith(f"{tmp_path / 'hand.yaml'}:10:")
    assert "tricks" in found


def test_not_a_mapping_and_broken_yaml(tmp_path: Path) -> None:
    assert "must be a mapping" in problems(tmp_path, "- a\n- b\n")[0]
    (broken,) = problems(tmp_path, "ruleset: [wikipedia\n")
    assert broken.startswith(str(tmp_path / "hand.yaml") + ":")


def test_kontra_names_and_numbers(tmp_path: Path) -> None:
    text = replace(GOOD, "bid: ulti", "bid: ulti\nkontra: {ulti: {Ben: Rekontra}, parti: 1}")
    hand, result = settle_sheet(write(tmp_path, text))
    assert hand.contract.kontra == {"ulti": {1: 2, 2: 2}, "parti": {1: 1, 2: 1}}
    assert result.line("ulti").amount == 16
    assert result.line("parti").amount == 2


def test_per_defender_kontra_in_a_no_trump_game(tmp_path: Path) -> None:
    text = """\
ruleset: wikipedia
players: [Anna, Ben, Carla]
declarer: Anna
bid: Betli
kontra: {betli: {Ben: kontra}}
points: {declarer: 0, defenders: 90}
tricks: {Ben: 5, Carla: 5}
last_trick: {winner: Carla}
"""
    hand, result = settle_sheet(write(tmp_path, text))
    assert hand.contract.kontra == {"betli": {1: 1, 2: 0}}
    assert result.per_defender == {1: 10, 2: 5}


def test_bid_by_components_suits_in_any_language_and_json(tmp_path: Path) -> None:
    data: dict[str, Any] = {
        "ruleset": "wikipedia",
        "declarer": "P2",
        "bid": {"components": ["ulti", "parti"], "red": True},
        "trump": "Piros",
        "points": {"declarer": 60, "defenders": 30},
        "tricks": {"P2": 6, "P1": 2, "P3": 2},
        "last_trick": {"winner": "P2", "trump_seven": "P2"},
        "marriages": {"P1": ["zöld"]},
        "aces": ["P2", "P3"],
    }
    hand, result = settle_sheet(write(tmp_path, json.dumps(data), "hand.json"))
    assert hand.contract.bid == "ulti_red"
    assert hand.contract.trump == "hearts"
    assert hand.facts is not None and hand.facts.marriages[0].value == 20
    assert result.payments == {0: -10, 1: 20, 2: -10}


def test_ruleset_path_relative_to_the_document(tmp_path: Path) -> None:
    club = tmp_path / "club"
    club.mkdir()
    (club / "ours.yaml").write_text(
        "name: ours\ntitle: Our club\nextends: wikipedia\ncontracts:\n  ulti:\n"
        "    failure_penalty: 6\n",
        "utf-8",
    )
    text = replace(GOOD, "ruleset: wikipedia", "ruleset: club/ours.yaml")
    _, result = settle_sheet(write(tmp_path, text))
    assert result.ruleset == "ours"
    assert result.line("ulti").amount == 4


def test_four_players_need_the_dealer_who_sits_out(tmp_path: Path) -> None:
    text = replace(GOOD, "ruleset: wikipedia", "ruleset: four-player")
    text = replace(text, "players: [Anna, Ben, Carla]", "players: [Anna, Ben, Carla, Dani]")
    assert any("missing: dealer" in p for p in problems(tmp_path, text))
    assert any("Anna deals and sits out" in p for p in problems(tmp_path, text + "dealer: Anna\n"))
    hand, result = settle_sheet(write(tmp_path, text + "dealer: Dani\n"))
    assert hand.contract.sitting_out == 3
    assert result.payments[3] == 0
    assert sum(result.payments.values()) == 0


def test_give_up_needs_no_play_facts_nor_trump(tmp_path: Path) -> None:
    text = "ruleset: older-20-100\ndeclarer: P1\nbid: parti\ngave_up: true\n"
    _, result = settle_sheet(write(tmp_path, text))
    assert result.payments == {0: -4, 1: 2, 2: 2}
    refused = problems(tmp_path, text.replace("older-20-100", "wikipedia"))
    assert refused == [
        f"{tmp_path / 'hand.yaml'}:4:1: gave_up: 'wikipedia' does not allow giving up "
        "(simple.give_up_allowed: false), and a plain Simple ('parti') wins the auction there "
        "only as the first bid, left standing, so it is lost double as uncontested: write "
        "uncontested: true instead of gave_up"
    ]


def test_a_hand_given_up_with_play_facts_is_a_contradiction(tmp_path: Path) -> None:
    """It was settled as given up, the tricks and points read by nobody (fault review)."""
    text = "ruleset: older-20-100\ndeclarer: P1\nbid: parti\ngave_up: true\n"
    played = text + "points: {declarer: 60, defenders: 30}\ntricks: {P1: 6, P2: 2, P3: 2}\n"
    assert problems(tmp_path, played) == [
        f"{tmp_path / 'hand.yaml'}:5:1: points: the hand was given up before the first lead, "
        "so it has no points: leave out the play (points, tricks), or gave_up"
    ]


@pytest.mark.parametrize(
    "line", ["aces: [P1, P2]", "trump_seven_early: P2", "marriages: {P1: [acorns]}"]
)
def test_a_hand_given_up_with_any_fact_of_play_is_refused(tmp_path: Path, line: str) -> None:
    """The facts read after the play's were dropped without a word (found by a review)."""
    text = (
        f"ruleset: older-20-100\ndeclarer: P1\nbid: parti\ntrump: acorns\ngave_up: true\n{line}\n"
    )
    key = line.split(":")[0]
    assert problems(tmp_path, text) == [
        f"{tmp_path / 'hand.yaml'}:6:1: {key}: the hand was given up before the first lead, "
        f"so it has no {key}: leave out the play ({key}), or gave_up"
    ]


@pytest.mark.parametrize(("written", "said"), [("null", "null"), ("true", "true"), ("3", "3")])
def test_a_key_in_the_wrong_shape_shows_what_was_written_in_yaml_words(
    tmp_path: Path, written: str, said: str
) -> None:
    text = replace(GOOD, "trump: acorns\n", f"trump: acorns\nkontra: {written}\n")
    (found,) = problems(tmp_path, text)
    assert found.endswith(
        f"kontra: write it like kontra: {{ulti: {{Ben: kontra}}}} or {{parti: 1}} (not {said})"
    )


# --------------------------------------------------------------------------- the command


def test_ulti_score_prints_the_settlement(tmp_path: Path, ulti: Any) -> None:
    path = write(tmp_path, replace(GOOD, "bid: ulti", "bid: ulti\nkontra: {ulti: kontra}"))
    done = ulti("score", str(path))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for expected in (
        "Ulti (ulti), acorns: declarer Anna [wikipedia]",
        "Simple",
        "made",
        "×2",
        "+8",
        "Payments",
        "declarer",
        "+18",
        "-9",
    ):
        assert expected in out, expected
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") > 4}
    assert "+8" in rows["Ulti"] and "×2" in rows["Ulti"]


def test_ulti_score_shows_amounts_per_defender_where_they_differ(tmp_path: Path, ulti: Any) -> None:
    text = """\
ruleset: wikipedia
players: [Anna, Ben, Carla]
declarer: Anna
bid: betli
kontra: {betli: {Carla: 2}}
points: {declarer: 0, defenders: 90}
tricks: {Ben: 5, Carla: 5}
last_trick: {winner: Carla}
"""
    done = ulti("score", str(write(tmp_path, text)))
    assert done.returncode == 0, done.stderr
    assert "Ben +5, Carla +20" in done.stdout
    assert "Ben ×1, Carla ×4" in done.stdout


def test_ulti_score_json(tmp_path: Path, ulti: Any) -> None:
    done = ulti("score", str(write(tmp_path, GOOD)), "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["players"] == ["Anna", "Ben", "Carla"]
    assert data["payments"] == {"Anna": 10, "Ben": -5, "Carla": -5}
    assert [line["what"] for line in data["settlement"]["lines"]] == ["parti", "ulti"]


def test_ulti_score_user_errors_exit_1_without_traceback(tmp_path: Path, ulti: Any) -> None:
    bad = write(
        tmp_path, replace(replace(GOOD, "defenders: 30", "defenders: 35"), "Ben: 2,", "Ben: 3,")
    )
    done = ulti("score", str(bad))
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[0].endswith(
        "the card points add up to 95 (declarer 60 + defenders 35 + talon 0), "
        "but the deck and the last trick hold 90"
    )
    assert lines[1].endswith("the trick counts add up to 11, not 10")
    assert lines[2] == "ulti: error: 2 problems"
    missing = ulti("score", str(tmp_path / "nope.yaml"))
    assert missing.returncode == 1
    assert "nope.yaml: cannot read the file" in missing.stderr
    unknown_ruleset = ulti("score", str(write(tmp_path, replace(GOOD, "wikipedia", "wikipeda"))))
    assert unknown_ruleset.returncode == 1
    assert "wikipeda" in unknown_ruleset.stderr


# --------------------------------------------------------------------------- the documentation

DOC = Path(__file__).resolve().parent.parent / "docs" / "score-keeper.md"
EXAMPLE = re.compile(
    r"^### (?P<title>.+?)\n.*?```yaml\n(?P<yaml>.*?)```\n\nResult: (?P<result>.+?)$", re.S | re.M
)


def documented_examples() -> list[tuple[str, str, dict[str, int]]]:
    found = []
    for match in EXAMPLE.finditer(DOC.read_text("utf-8")):
        result = {}
        for part in match["result"].split(", "):
            name, amount = part.rsplit(" ", 1)
            result[name] = int(amount)
        found.append((match["title"], match["yaml"], result))
    return found


def test_the_documentation_has_an_example_per_contract() -> None:
    titles = [title for title, _, _ in documented_examples()]
    assert len(titles) >= 16
    for kind in (
        "Simple",
        "40-100",
        "20-100",
        "Ulti",
        "Four Aces",
        "Betli",
        "Durchmars",
        "Open",
        "red",
    ):
        assert any(kind in title for title in titles), kind


@pytest.mark.parametrize(
    ("title", "document", "result"),
    [pytest.param(*example, id=example[0]) for example in documented_examples()],
)
def test_documented_example_settles_as_printed(
    title: str, document: str, result: dict[str, int], tmp_path: Path
) -> None:
    hand, settlement = settle_sheet(write(tmp_path, document))
    assert {hand.name(s): v for s, v in settlement.payments.items()} == result, title


def test_every_contradiction_and_a_hint_in_one_run(tmp_path: Path) -> None:
    """A table sees all that is wrong with its sheet at once, with did-you-mean for typos."""
    sheet = tmp_path / "hand.yaml"
    sheet.write_text(
        "ruleset: wikipedia\nplayers: [Anna, Ben, Carla]\ndeclarer: Anna\nbid: Ulti\n"
        "trump: acorns\npoints: {declarer: 60, defenders: 35, talon: 0}\n"
        "tricks: {Anna: 8, Ben: 3}\nlast_trick: {winner: Anna, trump_seven: Anna}\n"
        "aces: [Anna, Anna, Ben, Anna]\ndurchmars: Anna\n",
        encoding="utf-8",
    )
    with pytest.raises(SheetError) as caught:
        settle_sheet(sheet)
    text = str(caught.value)
    assert "add up to 95" in text
    assert "add up to 11, not 10" in text
    assert "took every trick (a durchmars)" in text
    sheet.write_text(sheet.read_text(encoding="utf-8") + "triks: 3\n", encoding="utf-8")
    with pytest.raises(SheetError) as caught:
        settle_sheet(sheet)
    assert "unknown key 'triks' (did you mean 'tricks'?)" in str(caught.value)


def test_german_suit_words_name_the_trump(tmp_path: Path) -> None:
    """Eichel (German faces) and Kreuz (French faces) both mean acorns, as in cards.py."""
    text = (
        "ruleset: wikipedia\nplayers: [Anna, Ben, Carla]\ndeclarer: Anna\nbid: Ulti\n"
        "trump: {trump}\npoints: {{declarer: 60, defenders: 30, talon: 0}}\n"
        "tricks: {{Anna: 6, Ben: 2, Carla: 2}}\nlast_trick: {{winner: Anna, trump_seven: Anna}}\n"
        "aces: [Anna, Ben]\n"
    )
    results = []
    for word in ("acorns", "Eichel", "Kreuz"):
        sheet = tmp_path / f"{word}.yaml"
        sheet.write_text(text.format(trump=word), encoding="utf-8")
        hand, settlement = settle_sheet(sheet)
        assert hand.contract.trump == "acorns"
        results.append(settlement.payments)
    assert results[0] == results[1] == results[2]


# --------------------------------------------------------------------------- names


COMPOSED, DECOMPOSED = "J\u00f3zsef", "Jo\u0301zsef"  # 'József' with 'ó', and 'o' + accent


def test_a_name_typed_with_a_combining_accent_is_the_same_player(tmp_path: Path) -> None:
    """Some keyboards and copied text give 'ó' as 'o' and a combining accent: the two look
    alike, and were two players ("'József' is not a player (Anna, József, Carla)")."""
    text = replace(GOOD, "Ben", COMPOSED)  # in tricks and aces
    text = replace(
        text, f"players: [Anna, {COMPOSED}, Carla]", f"players: [Anna, {DECOMPOSED}, Carla]"
    )
    hand, settlement = settle_sheet(write(tmp_path, text))
    assert hand.players == ["Anna", COMPOSED, "Carla"]
    assert sum(settlement.payments.values()) == 0


def test_the_same_name_in_both_forms_is_one_name_twice(tmp_path: Path) -> None:
    text = replace(
        GOOD, "players: [Anna, Ben, Carla]", f"players: [Anna, {COMPOSED}, {DECOMPOSED}]"
    )
    assert any("every player needs a different name" in p for p in problems(tmp_path, text))


def test_a_bid_below_min_components_cannot_have_won(tmp_path: Path) -> None:
    """``auction.min_components`` holds at the table too: the engine never lets a lone
    Simple win under ``min_components: 2``, so a sheet that says it did is refused at
    its bid, and a two-component bid settles."""
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: Two components\nextends: wikipedia\nauction: {min_components: 2}\n",
        "utf-8",
    )
    ours = replace(GOOD, "ruleset: wikipedia", "ruleset: ./club.yaml")
    simple = replace(ours, "bid: ulti", "bid: parti")
    (found,) = problems(tmp_path, simple)
    assert found.endswith(
        "hand.yaml:4:1: bid: 'parti' cannot have won the auction: every bid of 'club' has "
        "at least 2 components (auction.min_components), and it has 1"
    )
    refused = run_in(tmp_path)("score", "hand.yaml")
    assert refused.returncode == 1
    assert "(auction.min_components), and it has 1" in refused.stderr
    _, result = settle_sheet(write(tmp_path, ours))
    assert result.line("ulti").amount == 4
    # a lone Simple wins under wikipedia, as the opening bid left standing (uncontested)
    lone = "ruleset: wikipedia\ndeclarer: P1\nbid: parti\nuncontested: true\n"
    _, wikipedia = settle_sheet(write(tmp_path, lone))
    assert wikipedia.line("parti").amount == -2


def test_yes_is_not_true_on_a_sheet(tmp_path: Path) -> None:
    """YAML 1.1 reads `yes` as true; the sheet says true or false as such, like a ruleset."""
    sheet = "ruleset: older-20-100\nplayers: [Anna, Ben, Carla]\ndeclarer: Anna\nbid: parti\n"
    (tmp_path / "hand.yaml").write_text(sheet + "gave_up: yes\n", encoding="utf-8")
    done = run_in(tmp_path)("score", "hand.yaml")
    assert done.returncode == 1
    assert "hand.yaml:5:1: gave_up: should be true or false, not text ('yes')" in done.stderr
    (tmp_path / "hand.yaml").write_text(sheet + "gave_up: true\n", encoding="utf-8")
    assert run_in(tmp_path)("score", "hand.yaml").returncode == 0


def test_a_misspelt_declarer_does_not_hide_the_other_misspelt_names(
    tmp_path: Path, ulti: Any
) -> None:
    """Without a declarer the facts are not built, so 'Ana' under tricks, the last trick
    and aces showed only once 'Anya' was mended: every name is now checked at once."""
    text = replace(ULTI_SHEET, "declarer: Anna", "declarer: Anya")
    text = replace(text, "tricks: {Anna: 6,", "tricks: {Ana: 6,")
    text = replace(text, "last_trick: {winner: Anna, trump_seven: Anna}",
                   "last_trick: {winner: Bem, trump_seven: declarer}")  # fmt: skip
    text = replace(text, "aces: [Anna, Ben]", "aces: [Anna, Carl]\nkontra: {ulti: {Bne: 1}}")
    said = problems(tmp_path, text)
    assert [line.split(": ", 2)[1] for line in said] == [
        "declarer", "tricks.Ana", "last_trick.winner", "aces.1", "kontra.ulti.Bne"
    ]  # fmt: skip
    assert "'Bem' is not a player (Anna, Ben, Carla) (did you mean 'Ben'?)" in said[2]
    done = ulti("score", "hand.yaml")
    assert done.returncode == 1
    assert done.stderr.endswith("ulti: error: 5 problems\n"), done.stderr


@pytest.mark.parametrize(
    ("old", "new", "first"),
    [
        ("bid: ulti", "bid: Ultti",
         "bid: 'Ultti' is not a bid of 'wikipedia' (did you mean 'ulti'?)"),
        ("trump: acorns", "trump: acorn", "trump: 'acorn' is not a suit (acorns, leaves, hearts, "
         "bells; or makk, zöld, piros, tök) (did you mean 'acorns'?)"),
    ],
)  # fmt: skip
def test_a_wrong_bid_or_trump_does_not_hide_the_misspelt_names(
    tmp_path: Path, ulti: Any, old: str, new: str, first: str
) -> None:
    """Without the bid or its trump the facts are not built, and a misspelt player under
    tricks showed only once the bid was mended (docs/score-keeper.md: all the misspelt
    names show in one run)."""
    text = replace(
        replace(GOOD, old, new), "tricks: {Anna: 6, Ben: 2,", "tricks: {Anna: 6, Benn: 2,"
    )
    said = problems(tmp_path, text)
    assert [line.split(": ", 1)[1] for line in said] == [
        first + ("; `ulti ladder` lists them" if old.startswith("bid") else ""),
        "tricks.Benn: 'Benn' is not a player (Anna, Ben, Carla) (did you mean 'Ben'?)",
    ]
    done = ulti("score", "hand.yaml")
    assert (done.returncode, done.stderr.splitlines()[-1]) == (1, "ulti: error: 2 problems")


def test_a_misspelt_marriage_suit_gets_a_hint(tmp_path: Path) -> None:
    text = replace(
        GOOD, "aces: [Anna, Ben]", "aces: [Anna, Ben]\nmarriages: {Anna: [acorns, bels]}"
    )
    (said,) = problems(tmp_path, text)
    assert said.endswith("marriages.Anna.1: 'bels' is not a suit (did you mean 'bells'?)")


def test_a_misspelt_kontra_level_is_matched_against_every_name_of_the_levels(
    tmp_path: Path,
) -> None:
    """A club that calls its first level Kontra in Hungarian and Double in English: 'Kontar'
    is Kontra, not the Subkontra that the English names alone made closest."""
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: c\nextends: wikipedia\nkontra:\n  max_level: 3\n  levels:\n"
        "    - {names: {hu: Kontra, en: Double}, multiplier: 2, by: defenders}\n"
        "    - {names: {hu: Rekontra, en: Redouble}, multiplier: 2, by: declarer}\n"
        "    - {names: {hu: Szubkontra, en: Subkontra}, multiplier: 2, by: defenders}\n",
        encoding="utf-8",
    )
    text = replace(GOOD, "ruleset: wikipedia", "ruleset: club.yaml")
    (said,) = problems(tmp_path, text + "kontra: {ulti: {Ben: Kontar}}\n")
    assert said.endswith(
        "kontra.ulti.Ben: 'Kontar' is not a kontra level: write a number (0 = none, 1 = Double, "
        "... up to 3) or one of Double, Redouble, Subkontra (did you mean 'Kontra'?)"
    )
    _, result = settle_sheet(write(tmp_path, text + "kontra: {ulti: {Ben: Kontra}}\n"))
    assert {share.seat: share.kontra_level for share in result.line("ulti").shares}[1] == 1


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("hu", "'Ana' nem játékos (Anna, Ben, Carla) (erre gondoltál: 'Anna'?)"),
        ("de", "'Ana' ist kein Spieler (Anna, Ben, Carla) (meintest du 'Anna'?)"),
    ],
)
def test_a_name_that_is_no_player_is_said_in_the_table_s_language(
    tmp_path: Path, ulti: Any, lang: str, said: str
) -> None:
    write(tmp_path, replace(ULTI_SHEET, "tricks: {Anna: 6,", "tricks: {Ana: 6,"))
    done = ulti("score", "hand.yaml", "--lang", lang)
    assert done.returncode == 1
    assert f"\nhand.yaml:7:10: tricks.Ana: {said}\n" in done.stderr, done.stderr
