"""`ulti diff` says every setting of the schema in words: each one is changed in a generated
ruleset, and the difference must be found and said in a sentence (not a field path), in
each language."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ulti_rules.i18n import LANGS, Translator
from ulti_rules.rulebook.diff import compare_rulesets
from ulti_rules.rulebook.diff_words import describe_differences
from ulti_rules.ruleset.loading import load_resolved, load_ruleset

from conftest import yaml_text
from rulebook_support import FIXTURES, schema_settings
from test_rulebook import StrictCatalogue

Data = dict[str, Any]
Change = Callable[[Data], None]

ITALIAN = str(FIXTURES / "italian-table.yaml")
SILENT = str(FIXTURES / "silent-club.yaml")


def put(path: str, value: Any) -> Change:
    """Set ``path`` (dots; a number picks a list item) to ``value``."""

    def change(data: Data) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node.setdefault(key, {})
        fresh = copy.deepcopy(value)  # a later change must not edit the case's own value
        if isinstance(node, list):
            node[int(last)] = fresh
        else:
            node[last] = fresh

    return change


def bid(ident: str, key: str, value: Any) -> Change:
    def change(data: Data) -> None:
        (entry,) = [b for b in data["ladder"] if b["id"] == ident]
        entry[key] = copy.deepcopy(value)

    return change


def both(*changes: Change) -> Change:
    def change(data: Data) -> None:
        for one in changes:
            one(data)

    return change


def by_value(data: Data) -> None:
    """Ranking by value: the table's ranks are left out."""
    data["ranking"] = "value"
    for entry in data["ladder"]:
        entry.pop("rank", None)
        entry.pop("rank_exception", None)


def drop_bids(*idents: str) -> Change:
    def change(data: Data) -> None:
        data["ladder"] = [b for b in data["ladder"] if b["id"] not in idents]

    return change


def drop_open_red(data: Data) -> None:
    """No red bid with an open component: the ladder check's condition for red_allowed."""
    opened = {ident for ident, spec in data["contracts"].items() if spec.get("open")}
    data["ladder"] = [
        b for b in data["ladder"] if not (b.get("red") and opened & set(b["components"]))
    ]


RED_NO_TRUMP = ("betli_red", "plain_durchmars_red", "open_betli_red", "plain_open_durchmars_red")
NAMES = {"hu": "valami", "en": "Something", "de": "Etwas"}

# setting -> (base ruleset, change to both first, the change, the setting reported)
CASES: dict[str, tuple[str, Change | None, Change, str]] = {
    "auction.all_pass": (
        ITALIAN,
        None,
        both(put("auction.all_pass", "pass_out"), put("auction.all_pass_payment", None)),
        "auction.all_pass",
    ),
    "auction.all_pass_payment": (
        ITALIAN,
        None,
        put("auction.all_pass_payment", 2),
        "auction.all_pass_payment",
    ),
    "auction.end_passes": ("wikipedia", None, put("auction.end_passes", 2), ""),
    "auction.min_components": ("wikipedia", None, put("auction.min_components", 2), ""),
    "auction.opener_must_bid": ("wikipedia", None, put("auction.opener_must_bid", False), ""),
    "auction.opener_pass_is_simple": (
        "wikipedia",
        None,
        put("auction.opener_pass_is_simple", True),
        "",
    ),
    "auction.self_robbing": ("wikipedia", None, put("auction.self_robbing", False), ""),
    "auction.talon_exchange_optional": (
        "wikipedia",
        None,
        put("auction.talon_exchange_optional", True),
        "",
    ),
    "auction.two_round": ("wikipedia", None, put("auction.two_round", {}), ""),
    "auction.two_round.end_passes": (
        "two-round-auction",
        None,
        put("auction.two_round.end_passes", 1),
        "",
    ),
    "auction.two_round.first_round_cards": (
        "two-round-auction",
        None,
        put("auction.two_round.first_round_cards", 4),
        "",
    ),
    "auction.two_round.multiplier": (
        "two-round-auction",
        None,
        put("auction.two_round.multiplier", 3),
        "",
    ),
    "auction.two_round.opener_must_bid": (
        "two-round-auction",
        None,
        put("auction.two_round.opener_must_bid", False),
        "",
    ),
    "auction.two_round.overcall_by": (
        "two-round-auction",
        None,
        put("auction.two_round.overcall_by", "value"),
        "",
    ),
    "auction.two_round.same_trump_binds_others": (
        "two-round-auction",
        None,
        put("auction.two_round.same_trump_binds_others", True),
        "",
    ),
    "auction.two_round.trump_named": (
        "two-round-auction",
        None,
        put("auction.two_round.trump_named", "with_bid"),
        "",
    ),
    "contracts.*.failure_penalty": (
        "wikipedia",
        None,
        put("contracts.ulti.failure_penalty", 6),
        "",
    ),
    "contracts.*.kind": (
        "wikipedia",
        put("contracts.extra", {"kind": "betli", "names": NAMES, "value": 5}),
        put("contracts.extra", {"kind": "durchmars", "names": NAMES, "value": 5, "trump": False}),
        "",
    ),
    "contracts.*.marriage": (
        "wikipedia",
        None,
        put("contracts.twenty_hundred.marriage", "trump"),
        "",
    ),
    "contracts.*.names": ("wikipedia", None, put("contracts.betli.names", NAMES), ""),
    "contracts.*.open": ("wikipedia", None, put("contracts.betli.open", True), ""),
    "contracts.*.penalty_multiplied_by_kontra": (
        "wikipedia",
        None,
        put("contracts.ulti.penalty_multiplied_by_kontra", True),
        "",
    ),
    "contracts.*.target": ("wikipedia", None, put("contracts.forty_hundred.target", 110), ""),
    "contracts.*.trump": (
        "wikipedia",
        put("contracts.extra", {"kind": "durchmars", "names": NAMES, "value": 5, "trump": True}),
        put("contracts.extra.trump", False),
        "",
    ),
    "contracts.*.value": ("tournament", None, put("contracts.ulti.value", 5), ""),
    "deal.misdeal_redeal_same_dealer": (
        "wikipedia",
        None,
        put("deal.misdeal_redeal_same_dealer", False),
        "",
    ),
    "deal.packets": ("wikipedia", None, put("deal.packets", [[12, 10, 10]]), ""),
    "deal.talon": (
        "wikipedia",
        None,
        both(put("deal.talon", "set_aside"), put("deal.packets", [[5, 5, 5], [5, 5, 5]])),
        "",
    ),
    "direction": ("wikipedia", None, put("direction", "clockwise"), ""),
    "kontra.later_window": ("wikipedia", None, put("kontra.later_window", "end_trick1"), ""),
    "kontra.levels[].multiplier": (
        "wikipedia",
        None,
        put("kontra.levels.1.multiplier", 3),
        "",
    ),
    "kontra.levels[].names": ("wikipedia", None, put("kontra.levels.0.names", NAMES), ""),
    "kontra.max_level": ("wikipedia", None, put("kontra.max_level", 3), ""),
    "kontra.per_defender_in_no_trump": (
        "wikipedia",
        None,
        put("kontra.per_defender_in_no_trump", False),
        "",
    ),
    "kontra.per_defender_in_trump": (
        "wikipedia",
        None,
        put("kontra.per_defender_in_trump", True),
        "",
    ),
    "kontra.window": ("wikipedia", None, put("kontra.window", "end_trick1"), ""),
    "kontra.window_opens": ("wikipedia", None, put("kontra.window_opens", "after_own_card"), ""),
    "ladder[].aliases": ("wikipedia", None, bid("parti", "aliases", ["Passz"]), ""),
    "ladder[].components": (
        "tournament",
        put("contracts.extra", {"kind": "betli", "names": NAMES, "value": 7}),
        bid("betli", "components", ["extra"]),
        "",
    ),
    "ladder[].id": ("wikipedia", None, bid("betli", "id", "misere"), "ladder"),
    "ladder[].names": ("wikipedia", None, bid("betli", "names", NAMES), ""),
    "ladder[].rank": ("wikipedia", None, by_value, ""),
    "ladder[].rank_exception": ("wikipedia", None, bid("betli", "rank_exception", True), ""),
    "ladder[].red": ("tournament", drop_bids("betli_red"), bid("betli", "red", True), ""),
    "marriages.announce": ("wikipedia", None, put("marriages.announce", "on_play"), ""),
    "marriages.count_in_parti": ("wikipedia", None, put("marriages.count_in_parti", False), ""),
    "marriages.in_hundred_game.declarer": (
        "wikipedia",
        None,
        put("marriages.in_hundred_game.declarer", "all"),
        "",
    ),
    "marriages.in_hundred_game.defenders": (
        "wikipedia",
        None,
        put("marriages.in_hundred_game.defenders", "all"),
        "",
    ),
    "marriages.in_hundred_game.unannounced": (
        "wikipedia",
        None,
        put("marriages.in_hundred_game.unannounced", "lost"),
        "",
    ),
    "marriages.optional": ("wikipedia", None, put("marriages.optional", False), ""),
    "marriages.plain_value": ("wikipedia", None, put("marriages.plain_value", 30), ""),
    "marriages.require_trick": ("wikipedia", None, put("marriages.require_trick", True), ""),
    "marriages.trump_value": ("wikipedia", None, put("marriages.trump_value", 50), ""),
    "name": ("wikipedia", None, put("name", "anna"), ""),
    "open_games.after_trick": ("wikipedia", None, put("open_games.after_trick", 2), ""),
    "open_games.exposes": ("wikipedia", None, put("open_games.exposes", "declarer"), ""),
    "open_games.red_allowed": (
        "wikipedia",
        drop_open_red,
        put("open_games.red_allowed", False),
        "",
    ),
    "play.first_lead": ("wikipedia", None, put("play.first_lead", "forehand"), ""),
    "play.must_beat": ("wikipedia", None, put("play.must_beat", False), ""),
    "play.must_follow": ("wikipedia", None, put("play.must_follow", False), ""),
    "play.must_trump": ("wikipedia", None, put("play.must_trump", False), ""),
    "players.count": ("wikipedia", None, put("players.count", 4), ""),
    "players.sitting_out_dealer_pays": (
        "four-player",
        None,
        put("players.sitting_out_dealer_pays", True),
        "",
    ),
    "points.card_points": (
        "wikipedia",
        None,
        put("points.card_points", {"ace": 11, "ten": 10}),
        "",
    ),
    "points.last_trick": ("wikipedia", None, put("points.last_trick", 20), ""),
    "points.talon_counts_toward_hundred": (
        "wikipedia",
        None,
        put("points.talon_counts_toward_hundred", True),
        "",
    ),
    "points.talon_to": ("wikipedia", None, put("points.talon_to", "defenders"), ""),
    "ranking": ("wikipedia", None, by_value, ""),
    "ranks.no_trump": (
        "wikipedia",
        None,
        put("ranks.no_trump", ["ace", "ten", "king", "over", "under", "nine", "eight", "seven"]),
        "",
    ),
    "ranks.trump_game": (
        "wikipedia",
        None,
        put("ranks.trump_game", ["ace", "king", "ten", "over", "under", "nine", "eight", "seven"]),
        "",
    ),
    "ranks.trump_game_side_suits": (
        "wikipedia",
        None,
        put(
            "ranks.trump_game_side_suits",
            ["ace", "king", "over", "under", "ten", "nine", "eight", "seven"],
        ),
        "",
    ),
    "session.end": ("wikipedia", None, put("session.end", "heart_ace"), ""),
    "session.hands": ("wikipedia", None, put("session.hands", 24), ""),
    "silent.replacing": (SILENT, None, put("silent.replacing", "highest"), ""),
    "silent_bonuses.*.against_everyone": (
        SILENT,
        None,
        put("silent_bonuses.silent_ulti.against_everyone", False),
        "",
    ),
    "silent_bonuses.*.applies_to": (
        "wikipedia",
        None,
        put("silent_bonuses.silent_ulti.applies_to", ["parti"]),
        "",
    ),
    "silent_bonuses.*.condition": (
        "wikipedia",
        None,
        put("silent_bonuses.silent_four_aces.condition", "ulti"),
        "",
    ),
    "silent_bonuses.*.counts_marriages": (
        SILENT,
        None,
        put("silent_bonuses.silent_hundred.counts_marriages", "all"),
        "",
    ),
    "silent_bonuses.*.defenders": (
        SILENT,
        None,
        put("silent_bonuses.silent_durchmars.defenders", "one"),
        "",
    ),
    "silent_bonuses.*.kontra_from": (
        "wikipedia",
        None,
        put("silent_bonuses.silent_ulti.kontra_from", ["parti"]),
        "",
    ),
    "silent_bonuses.*.loss_factor": (
        "wikipedia",
        None,
        put("silent_bonuses.silent_ulti.loss_factor", 1),
        "",
    ),
    "silent_bonuses.*.marriage_values": (
        SILENT,
        None,
        put("silent_bonuses.silent_hundred.marriage_values", None),
        "",
    ),
    "silent_bonuses.*.marriage_values.plain": (
        SILENT,
        None,
        put("silent_bonuses.silent_hundred.marriage_values.plain", 5),
        "",
    ),
    "silent_bonuses.*.marriage_values.trump": (
        SILENT,
        None,
        put("silent_bonuses.silent_hundred.marriage_values.trump", 3),
        "",
    ),
    "silent_bonuses.*.names": (
        "wikipedia",
        None,
        put("silent_bonuses.silent_ulti.names", NAMES),
        "",
    ),
    "silent_bonuses.*.parti": (
        "wikipedia",
        None,
        put("silent_bonuses.silent_hundred.parti", "replaces"),
        "",
    ),
    "silent_bonuses.*.red_value": (
        "wikipedia",
        None,
        put("silent_bonuses.silent_ulti.red_value", 5),
        "",
    ),
    "silent_bonuses.*.scored_by": (
        "wikipedia",
        None,
        put("silent_bonuses.silent_ulti.scored_by", "either_side"),
        "",
    ),
    "silent_bonuses.*.value": ("wikipedia", None, put("silent_bonuses.silent_ulti.value", 3), ""),
    "simple.give_up_allowed": (  # in WP a plain Simple is only ever uncontested, lost unplayed
        "wikipedia",
        put("simple.uncontested", "play"),
        put("simple.give_up_allowed", True),
        "",
    ),
    "simple.give_up_cost": (ITALIAN, None, put("simple.give_up_cost", 4), ""),
    "simple.uncontested": ("wikipedia", None, put("simple.uncontested", "play"), ""),
    "simple.uncontested_played_out": (
        "wikipedia",
        None,
        put("simple.uncontested_played_out", True),
        "",
    ),
    "sources": ("wikipedia", None, put("sources", ["A club's own sheet"]), ""),
    "title": ("wikipedia", None, put("title", "Anna's club"), ""),
    "trump.fixed": ("wikipedia", None, put("trump.fixed", "acorns"), ""),
    "trump.named": ("wikipedia", None, put("trump.named", "in_bid"), ""),
    "trump.red_no_trump": (
        "wikipedia",
        drop_bids(*RED_NO_TRUMP),
        put("trump.red_no_trump", False),
        "",
    ),
    "trump.red_suit": ("wikipedia", None, put("trump.red_suit", "bells"), ""),
    "trump.red_suit_needs_red_bid": (
        "wikipedia",
        None,
        put("trump.red_suit_needs_red_bid", False),
        "",
    ),
}
NOT_RULES = {
    "extends": "how a file is put together: compared after merging (test_diff.py)",
    "with": "fragments merged in: compared after merging",
    "without": "fragments left out: compared after merging",
    "ladder[].value": "derived from the components' values: said with contracts.*.value",
    "kontra.levels[].by": "fixed by the level's place: the defenders open, the sides alternate",
}
STRICT = True
NAMES_ONLY = {"name", "title", "sources", "ladder[].aliases", "ladder[].rank_exception"}


def test_every_setting_has_a_case() -> None:
    assert sorted(schema_settings() - set(CASES) - set(NOT_RULES)) == []
    assert sorted(set(CASES) & set(NOT_RULES)) == []


def _written(data: Data, path: Path) -> Path:
    for key in ("extends", "with", "without"):
        data.pop(key, None)
    path.write_text(yaml_text(data), encoding="utf-8")
    return path


@functools.cache
def _resolved(base: str) -> Data:
    """A base ruleset's data, ``extends`` and fragments merged: read once per base (each
    case changes a deep copy)."""
    return load_resolved(base)


@pytest.mark.parametrize("setting", sorted(CASES))
def test_a_changed_setting_is_said_in_words(setting: str, tmp_path: Path) -> None:
    base, prepare, change, reported = CASES[setting]
    reported = reported or setting
    data = copy.deepcopy(_resolved(base))
    if prepare is not None:
        prepare(data)
    if prepare is None:  # the base itself, loaded once per run (the load cache)
        before = load_ruleset(base)
    else:
        before = load_ruleset(_written(copy.deepcopy(data), tmp_path / "a.yaml"))
    change(data)
    after = load_ruleset(_written(data, tmp_path / "b.yaml"))
    found = [d for d in compare_rulesets(before, after) if d.setting == reported]
    assert found, f"{setting}: no difference found"
    for lang in LANGS:
        text = None if lang == "en" or not STRICT else Translator(lang, StrictCatalogue(lang))
        diff = describe_differences(before, after, lang, text=text)
        said = [s for s in diff.said() if s.difference.setting == reported]
        assert said, (setting, lang)
        for one in said:
            assert one.difference.plays == (reported not in NAMES_ONLY and "names" not in reported)
            assert one.text.strip(), (setting, lang)
            for raw in (reported, one.difference.path):  # a field path, not words
                assert "." not in raw or raw not in one.text, one.text


def test_two_bonuses_changed_alike_are_each_said_with_their_own_name(tmp_path: Path) -> None:
    """The second of two silent bonuses given the same value was said with the first's
    name (the sentence was remembered without whose it was), and the text dropped it as
    said: `ulti diff wikipedia older-20-100` missed five rule differences of Silent Ulti
    and Silent Durchmars (found by a diff review)."""
    data = copy.deepcopy(_resolved("wikipedia"))
    for ident in ("silent_hundred", "silent_ulti"):
        data["silent_bonuses"][ident]["value"] = 3
    after = load_ruleset(_written(data, tmp_path / "b.yaml"))
    diff = describe_differences(load_ruleset("wikipedia"), after)
    said = {s.difference.path: s.text for s in diff.said() if s.difference.plays}
    assert said["silent_bonuses.silent_hundred.value"].startswith("Silent 100: Worth 3")
    assert said["silent_bonuses.silent_ulti.value"].startswith("Silent Ulti: Worth 3")
    older = load_ruleset("older-20-100")
    for phrased in describe_differences(load_ruleset("wikipedia"), older).said():
        subject = phrased.difference.subject
        if phrased.difference.setting.startswith("silent_bonuses.*.") and subject:
            name = older.silent_bonuses[subject].names.en  # the bonus's own name opens it
            assert phrased.text.startswith(f"{name}:"), (subject, phrased.text)


def test_a_sentence_two_settings_share_is_said_once() -> None:
    """Silent 100's loss_factor and scored_by both change "A failure costs ...": the
    second line said that sentence again before its own (an acceptance review)."""
    diff = describe_differences(load_ruleset("wikipedia"), load_ruleset("older-20-100"))
    lines = [s.text for s in diff.said() if s.text.startswith("Silent 100:")]
    assert len([line for line in lines if "A failure costs" in line]) == 1
    assert any(line.startswith("Silent 100: Either side can make it. (Was: ") for line in lines)


def test_a_changed_kontra_window_says_the_later_calls_follow_it(tmp_path: Path) -> None:
    """With `later_window: same`, Rekontra's window moves with Kontra's: the rulebook said
    so, the diff did not (found by a diff review). There, with the declarer leading to the
    first trick, Rekontra can never be called (a club-organiser review)."""
    data = copy.deepcopy(_resolved("wikipedia"))
    data["kontra"]["window"] = "own_card_trick1"
    after = load_ruleset(_written(data, tmp_path / "b.yaml"))
    (said,) = [
        s.text
        for s in describe_differences(load_ruleset("wikipedia"), after).said()
        if s.difference.setting == "kontra.window"
    ]
    assert (
        "Rekontra and the calls after it can never be called: Rekontra is made with one's own "
        "card to the first trick" in said
    )
    assert "(Was: " in said and "Rekontra and the calls after it may be made until" in said


def test_kontra_levels_that_double_as_unnamed_ones_would_differ_in_names_only(
    tmp_path: Path,
) -> None:
    """Dropping the names of levels 4 and up changes no multiplier (an unnamed level
    doubles again, and the sides alternate): a difference of names, exit status 0. Where
    a dropped level did not double, the chain plays otherwise (found by a diff review)."""
    data = copy.deepcopy(_resolved("wikipedia"))
    data["kontra"]["levels"] = data["kontra"]["levels"][:3]
    three = load_ruleset(_written(copy.deepcopy(data), tmp_path / "three.yaml"))
    named = describe_differences(load_ruleset("wikipedia"), three)
    assert named.plays_the_same
    (levels,) = [s for s in named.said() if s.difference.setting == "kontra.levels"]
    assert (
        levels.text.startswith("Kontra levels removed: Mordkontra") and not levels.difference.plays
    )
    data["kontra"]["levels"][2]["multiplier"] = 6  # a Szubkontra that triples, not doubles
    tripled = load_ruleset(_written(copy.deepcopy(data), tmp_path / "tripled.yaml"))
    data["kontra"]["levels"] = data["kontra"]["levels"][:2]
    two = load_ruleset(_written(data, tmp_path / "two.yaml"))
    (levels,) = [
        s
        for s in describe_differences(tripled, two).said()
        if s.difference.setting == "kontra.levels"
    ]
    assert levels.difference.plays, "level 3 is ×6 in one and ×8 (doubling again) in the other"
