"""Rulesets that pass the checks can be played: bounds on every number, non-empty names,
no silent type conversions, packets that deal the deck (issue 11, item 6)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from pydantic_core import PydanticCustomError
from ulti_rules.errors import Problem
from ulti_rules.ruleset.loading import check_file, load_ruleset
from ulti_rules.ruleset.scalars import whole_number
from ulti_rules.ruleset.schema import KONTRA_LEVEL_LIMIT


def club(tmp_path: Path, text: str, base: str = "wikipedia") -> Path:
    """A club file extending ``base`` with ``text`` (YAML) added."""
    path = tmp_path / "club.yaml"
    path.write_text(
        f"name: club\ntitle: Club\nextends: {base}\n" + textwrap.dedent(text).lstrip("\n"),
        encoding="utf-8",
    )
    return path


def only_problem(tmp_path: Path, text: str, base: str = "wikipedia") -> Problem:
    problems = check_file(club(tmp_path, text, base))
    assert len(problems) == 1, [str(p) for p in problems]
    return problems[0]


def assert_refused(tmp_path: Path, text: str, path: str, message: str, line: int = 4) -> None:
    problem = only_problem(tmp_path, text)
    assert (problem.line, problem.path) == (line, path), str(problem)
    assert message in problem.message, str(problem)


# --------------------------------------------------------------------------- points, marriages


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("points: {card_points: {ace: -10}}", "points.card_points.ace"),
        ("points: {last_trick: -5}", "points.last_trick"),
        ("marriages: {trump_value: -40}", "marriages.trump_value"),
        ("marriages: {plain_value: -20}", "marriages.plain_value"),
    ],
)
def test_points_and_marriages_are_never_negative(tmp_path: Path, text: str, path: str) -> None:
    assert_refused(tmp_path, text, path, "should be at least 0, not ")


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("points: {card_points: {ace: 101}}", "points.card_points.ace"),
        ("points: {last_trick: 1000}", "points.last_trick"),
        ("marriages: {trump_value: 400}", "marriages.trump_value"),
    ],
)
def test_points_and_marriages_have_an_upper_bound(tmp_path: Path, text: str, path: str) -> None:
    assert_refused(tmp_path, text, path, "should be at most 100, not ")


def test_zero_and_the_bounds_themselves_are_playable(tmp_path: Path) -> None:
    ruleset = load_ruleset(
        club(tmp_path, "points: {card_points: {ace: 100, seven: 0}, last_trick: 0}\n")
    )
    assert ruleset.points.card_points == {"ace": 100, "ten": 10, "seven": 0}  # merged
    assert ruleset.points.total() == 4 * 110


# --------------------------------------------------------------------------- the deal


def test_packets_must_deal_every_seat_its_hand(tmp_path: Path) -> None:
    """The issue's repro: 14 + -1 + 19 adds up to 32, but no seat can hold -1 cards."""
    problems = check_file(club(tmp_path, "deal: {packets: [[14, -1, 19]]}\n"))
    assert [(p.path, p.message) for p in problems] == [
        ("deal.packets.0.0", "should be at most 12, not 14"),
        ("deal.packets.0.1", "should be at least 0, not -1"),
        ("deal.packets.0.2", "should be at most 12, not 19"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("deal: {packets: [[10, 12, 10]]}", "must deal 12, 10 and 10"),
        ("deal: {packets: [[6, 5, 5], [5, 5, 6]]}", "must deal 12, 10 and 10"),
        ("deal: {packets: [[12, 10, 10]], talon: set_aside}", "must deal 10, 10 and 10"),
        ("deal: {packets: [[11, 11, 10]], talon: none}", "must deal 10, 10 and 10"),
    ],
)
def test_packets_add_up_per_seat_not_only_in_total(
    tmp_path: Path, text: str, expected: str
) -> None:
    problem = only_problem(tmp_path, text)
    assert problem.path == "deal"
    assert expected in problem.message


def test_packets_with_four_players_deal_the_three_active_seats(tmp_path: Path) -> None:
    ok = load_ruleset(club(tmp_path, "deal: {packets: [[12, 10, 10]]}\n", base="four-player"))
    assert (ok.players.count, ok.deal.packets) == (4, ((12, 10, 10),))
    problem = only_problem(tmp_path, "deal: {packets: [[8, 8, 8], [4, 4, 0]]}\n", "four-player")
    assert "must deal 12, 10 and 10" in problem.message


# --------------------------------------------------------------------------- auction, ladder


def test_min_components_beyond_the_schema_bound(tmp_path: Path) -> None:
    assert_refused(
        tmp_path, "auction: {min_components: 99}", "auction.min_components", "should be at most "
    )


def test_min_components_beyond_the_largest_bid(tmp_path: Path) -> None:
    largest = max(len(bid.components) for bid in load_ruleset("wikipedia").ladder)
    problem = only_problem(tmp_path, f"auction: {{min_components: {largest + 1}}}\n")
    assert problem.path == "auction.min_components"
    assert f"the largest bid on the ladder has {largest}" in problem.message
    load_ruleset(club(tmp_path, f"auction: {{min_components: {largest}}}\n"))  # the edge plays


def test_a_ladder_needs_a_bid(tmp_path: Path) -> None:
    assert_refused(tmp_path, "ladder: []", "ladder", "must list at least 1 item")


@pytest.mark.parametrize(
    ("text", "path", "message"),
    [
        (
            "contracts: {ulti: {value: 1001}}",
            "contracts.ulti.value",
            "should be at most 1000, not ",
        ),
        ("simple: {give_up_cost: -1}", "simple.give_up_cost", "should be at least 0, not "),
        (
            "silent_bonuses: {silent_ulti: {loss_factor: 11}}",
            "silent_bonuses.silent_ulti.loss_factor",
            "should be at most 10, not ",
        ),
        ("session: {hands: 0}", "session.hands", "should be at least 1, not "),
        (
            "auction: {two_round: {first_round_cards: 11}}",
            "auction.two_round.first_round_cards",
            "should be at most 10, not ",
        ),
        (
            "auction: {two_round: {multiplier: 0}}",
            "auction.two_round.multiplier",
            "should be at least 1, not ",
        ),
    ],
)
def test_values_and_counts_are_bounded(tmp_path: Path, text: str, path: str, message: str) -> None:
    assert_refused(tmp_path, text, path, message)


# --------------------------------------------------------------------------- kontra


def test_max_level_is_bounded(tmp_path: Path) -> None:
    assert_refused(
        tmp_path,
        f"kontra: {{max_level: {KONTRA_LEVEL_LIMIT + 1}}}",
        "kontra.max_level",
        f"should be at most {KONTRA_LEVEL_LIMIT}, not ",
    )
    capped = load_ruleset(club(tmp_path, f"kontra: {{max_level: {KONTRA_LEVEL_LIMIT}}}\n"))
    assert capped.kontra.level_cap == KONTRA_LEVEL_LIMIT


def test_an_unlimited_chain_stops_at_the_framework_limit() -> None:
    kontra = load_ruleset("wikipedia").kontra
    assert kontra.max_level is None
    assert kontra.level_cap == KONTRA_LEVEL_LIMIT
    assert kontra.multiplier(KONTRA_LEVEL_LIMIT) == 2**KONTRA_LEVEL_LIMIT
    with pytest.raises(ValueError, match="beyond the limit"):
        kontra.multiplier(KONTRA_LEVEL_LIMIT + 1)


def test_named_levels_and_their_multipliers_are_bounded(tmp_path: Path) -> None:
    level = "{names: {hu: K, en: K}, multiplier: 2, by: %s}"
    sides = ["defenders", "declarer"] * KONTRA_LEVEL_LIMIT
    many = ", ".join(level % side for side in sides[: KONTRA_LEVEL_LIMIT + 1])
    assert_refused(
        tmp_path, f"kontra: {{levels: [{many}]}}", "kontra.levels", "lists 17 items; at most 16"
    )
    zero = "{names: {hu: K, en: K}, multiplier: 0, by: defenders}"
    assert_refused(
        tmp_path,
        f"kontra: {{levels: [{zero}]}}",
        "kontra.levels.0.multiplier",
        "should be at least 1, not 0",
    )


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("text", "path", "line"),
    [
        ("name: ''\ntitle: Club\nextends: wikipedia\n", "name", 1),
        ("name: club\ntitle: '   '\nextends: wikipedia\n", "title", 2),
    ],
)
def test_name_and_title_are_not_empty(tmp_path: Path, text: str, path: str, line: int) -> None:
    file = tmp_path / "club.yaml"
    file.write_text(text, encoding="utf-8")
    (problem,) = check_file(file)
    assert (problem.line, problem.path, problem.message) == (line, path, "must not be empty")


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("contracts: {ulti: {names: {hu: '', en: Ulti}}}", "contracts.ulti.names.hu"),
        ("contracts: {ulti: {names: {hu: ulti, en: ' '}}}", "contracts.ulti.names.en"),
        ("contracts: {ulti: {names: {hu: ulti, en: Ulti, de: ''}}}", "contracts.ulti.names.de"),
        ("sources: [ok, '']", "sources.1"),
    ],
)
def test_every_name_is_not_empty(tmp_path: Path, text: str, path: str) -> None:
    assert_refused(tmp_path, text, path, "must not be empty")


def test_a_bid_id_and_a_kontra_name_are_not_empty(tmp_path: Path) -> None:
    bid = "ladder: [{id: '', rank: 1, value: 1, components: [parti], names: {hu: p, en: p}}]"
    assert_refused(tmp_path, bid, "ladder.0.id", "must not be empty")
    level = "kontra: {levels: [{names: {hu: '', en: K}, multiplier: 2, by: defenders}]}"
    assert_refused(tmp_path, level, "kontra.levels.0.names.hu", "must not be empty")


def test_names_have_a_length_limit(tmp_path: Path) -> None:
    long = "x" * 81
    assert_refused(
        tmp_path,
        f"contracts: {{ulti: {{names: {{hu: {long}, en: Ulti}}}}}}",
        "contracts.ulti.names.hu",
        "is 81 characters long; at most 80",
    )


# --------------------------------------------------------------------------- strict types


@pytest.mark.parametrize(
    ("text", "path", "message"),
    [
        (
            "points: {card_points: {ace: true}}",
            "points.card_points.ace",
            "should be a whole number, not true/false",
        ),
        (
            "points: {card_points: {ace: '10'}}",
            "points.card_points.ace",
            "should be a whole number, not text ('10'); write it without quotes: 10",
        ),
        (
            "points: {last_trick: 10.0}",
            "points.last_trick",
            "should be a whole number, not a decimal number (10.0); write it without the "
            "decimal point: 10",
        ),
        (
            "kontra: {max_level: .inf}",
            "kontra.max_level",
            "should be a whole number, not infinity (.inf)",
        ),
        (
            "points: {last_trick: 10.5}",
            "points.last_trick",
            "should be a whole number, not a decimal number (10.5)",
        ),
        ("players: {count: 3.0}", "players.count", "should be a whole number"),
        ("play: {must_follow: 1}", "play.must_follow", "should be true or false, not a number (1)"),
        (
            "contracts: {ulti: {failure_penalty: true}}",
            "contracts.ulti.failure_penalty",
            "should be a whole number, not true/false",
        ),
        (
            "contracts: {durchmars: {trump: 'yes'}}",
            "contracts.durchmars.trump",
            "should be true or false",
        ),
    ],
)
def test_no_silent_conversions(tmp_path: Path, text: str, path: str, message: str) -> None:
    assert_refused(tmp_path, text, path, message)


@pytest.mark.parametrize("word", ["yes", "no", "on", "off", "y", "n", "Yes", "OFF"])
def test_the_yaml_1_1_words_for_true_and_false_are_text(tmp_path: Path, word: str) -> None:
    """PyYAML reads YAML 1.1, where these are booleans: the docs promise true/false as
    such, so a club's `require_trick: yes` is said, never read as true."""
    assert_refused(
        tmp_path,
        f"marriages: {{require_trick: {word}}}",
        "marriages.require_trick",
        f"should be true or false, not text ('{word}')",
    )


@pytest.mark.parametrize("word", ["true", "True", "TRUE"])
def test_yaml_1_2_true_is_true(tmp_path: Path, word: str) -> None:
    file = tmp_path / "club.yaml"
    file.write_text(
        f"name: club\ntitle: c\nextends: wikipedia\nmarriages: {{require_trick: {word}}}\n"
    )
    assert check_file(file) == []


def test_a_title_no_stays_text(tmp_path: Path) -> None:
    file = tmp_path / "club.yaml"
    file.write_text("name: club\ntitle: No\nextends: wikipedia\n", encoding="utf-8")
    assert load_ruleset(file).title == "No"


def test_a_number_where_text_is_meant(tmp_path: Path) -> None:
    file = tmp_path / "club.yaml"
    file.write_text("name: club\ntitle: 5\nextends: wikipedia\n", encoding="utf-8")
    (problem,) = check_file(file)
    assert (problem.path, problem.message) == (
        "title",
        "should be text, not a number (5); put it in quotes",
    )


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("contracts: {ulti: {failure_penalty: 1001}}", "should be at most 1000, not "),
        ("contracts: {ulti: {failure_penalty: '4'}}", "should be a whole number, not text ('4')"),
        ("contracts: {forty_hundred: {target: 0}}", "should be at least 1, not "),
        ("contracts: {forty_hundred: {target: true}}", "should be a whole number, not true/false"),
    ],
)
def test_a_kinds_own_numbers_are_bounded_and_strict(
    tmp_path: Path, setting: str, message: str
) -> None:
    path = tmp_path / "club.yaml"
    path.write_text(f"name: club\ntitle: t\nextends: wikipedia\n{setting}\n", encoding="utf-8")
    problems = check_file(path)
    assert problems, setting
    assert any(message in p.message for p in problems), problems


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (10.0, "should be a whole number, not a decimal number (10.0); write it without the "
         "decimal point: 10"),
        (10.5, "should be a whole number, not a decimal number (10.5)"),
        ("10", "should be a whole number, not text ('10'); write it without quotes: 10"),
        (True, "should be a whole number, not true/false"),
    ],
)  # fmt: skip
def test_a_whole_number_written_otherwise_says_how_to_write_it(given: object, said: str) -> None:
    with pytest.raises(PydanticCustomError) as caught:
        whole_number(given)
    assert str(caught.value) == said
