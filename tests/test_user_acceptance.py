"""What tripped the four kinds of users when they followed the docs, fixed and kept fixed.

A club organiser writing a club file (and its typical mistakes), a table keeping score
with `ulti score` and `ulti ledger`, an app builder embedding `Hand` and saving records,
a researcher running `ulti simulate`: each case is a mistake or a confusion met while
using the package from the docs alone, run through the installed `ulti` where it is a
command-line matter.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import RunUlti

DOCS = Path(__file__).resolve().parent.parent / "docs"
HEAD = 'name: club\ntitle: "Club"\nextends: wikipedia\n'


def check(ulti: RunUlti, tmp_path: Path, text: str) -> list[str]:
    """The problem lines `ulti check` prints for ``text`` saved as club.yaml."""
    (tmp_path / "club.yaml").write_text(text, encoding="utf-8")
    done = ulti("check", "club.yaml")
    assert done.returncode == 1, done.stdout
    lines = done.stdout.splitlines()
    assert lines[-1].startswith("1 file checked: 0 ok")
    return lines[:-1]


# --------------------------------------------------------------------------- the club organiser


@pytest.mark.parametrize(
    ("text", "position", "hint"),
    [
        (HEAD + "kontra:\n\tmax_level: 3\n", "5:1", "a tab character: YAML indents with spaces"),
        (
            HEAD + "kontra:\n  max_level: 3\n marriages:\n  require_trick: true\n",
            "6:2",
            "check the indentation: the keys of one mapping start in the same column "
            "(this mapping's first key is at line 1, column 1)",
        ),
        (
            "name: club\ntitle: Club: our rules\nextends: wikipedia\n",
            "2:12",
            'quote a value that holds one (title: "Club: our rules")',
        ),
        (
            HEAD + "contracts:\n  ulti:\n    names: {hu: ulti, en: Ulti\n    value: 4\n",
            "7:10",
            "the '{' at line 6, column 12 is not closed with '}'",
        ),
        (HEAD + 'title: "Club\n', "5:1", "the quote at line 4, column 8 is never closed"),
    ],
    ids=["tab", "indentation", "unquoted-colon", "unclosed-brace", "unclosed-quote"],
)
def test_a_yaml_syntax_error_says_what_it_usually_means(
    ulti: RunUlti, tmp_path: Path, text: str, position: str, hint: str
) -> None:
    (line,) = check(ulti, tmp_path, text)
    assert line.startswith(f"club.yaml:{position}: ")
    assert hint in line


def test_a_setting_at_the_wrong_level_says_where_it_belongs(ulti: RunUlti, tmp_path: Path) -> None:
    text = HEAD + (
        "require_trick: true\n"
        "marriages:\n  talon_to: defenders\n  in_hundred_game: {declarer: all}\n"
        "  defenders: all\n"
        "contracts:\n  failure_penalty: 2\n"
        "points:\n  card_points: 10\n"
    )
    assert check(ulti, tmp_path, text) == [
        "club.yaml:4:1: require_trick: unknown key 'require_trick' "
        "(it belongs at marriages.require_trick)",
        "club.yaml:6:3: marriages.talon_to: unknown key 'talon_to' (it belongs at points.talon_to)",
        "club.yaml:8:3: marriages.defenders: unknown key 'defenders' "
        "(it belongs at marriages.in_hundred_game.defenders)",
        "club.yaml:10:3: contracts.failure_penalty: should be a mapping of keys, not a number (2) "
        "(it belongs at contracts.<id>.failure_penalty)",
        # where it belongs already: only its value is wrong, so no hint
        "club.yaml:12:3: points.card_points: should be a mapping of keys, not a number (10)",
    ]


def test_a_ladder_written_as_if_it_merged_by_id_is_explained(ulti: RunUlti, tmp_path: Path) -> None:
    text = HEAD + "ladder:\n  - id: parti\n    names: {hu: passz, en: Pass}\n"
    lines = check(ulti, tmp_path, text)
    assert lines[0].startswith("club.yaml:5:5: ladder.0: missing required key ")
    assert lines[0].endswith(
        "; a `ladder:` list replaces the inherited ladder whole: to change only the bid "
        "'parti', write the ladder as a mapping by id, which merges (`ladder: {parti: {...}}`)"
    )
    assert not [line for line in lines[1:] if "replaces the inherited ladder" in line]
    # the form the hint names does what was meant
    (tmp_path / "club.yaml").write_text(
        HEAD + "ladder:\n  parti:\n    names: {hu: passz, en: Pass}\n", encoding="utf-8"
    )
    assert ulti("check", "club.yaml").stdout == "1 file checked: 1 ok\n"


def test_the_documented_recipe_for_restating_the_ladder_works(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """docs/rulesets.md: copy the base's resolved ladder (its last section) and edit it.

    The copy carries no totals (they are derived), so a changed contract value needs no
    edit of the bids: only the order can break, and ulti check names the bid that breaks it.
    """
    shown = ulti("show", "--resolved", "wikipedia")
    assert shown.returncode == 0, shown.stderr
    ladder = shown.stdout[shown.stdout.index("\nladder:\n") + 1 :]
    assert "\n  value:" not in ladder
    changed = HEAD + "contracts:\n  betli:\n    value: 6\n" + ladder
    lines = check(ulti, tmp_path, changed)
    assert len(lines) == 1
    assert ": ladder.17.rank: bid 'betli_red' (1 component) ranks below" in lines[0]
    assert "at the same value 12" in lines[0]  # 2 × 6: the new total, derived
    (tmp_path / "club.yaml").write_text(HEAD + ladder, encoding="utf-8")
    assert ulti("check", "club.yaml").stdout == "1 file checked: 1 ok\n"
    ranked = HEAD + "ranking: value_then_squares\ncontracts:\n  betli:\n    value: 6\n"
    (tmp_path / "club.yaml").write_text(ranked, encoding="utf-8")
    assert ulti("check", "club.yaml").stdout == "1 file checked: 1 ok\n"


def test_extends_with_a_file_name_of_a_known_ruleset_suggests_the_name(
    ulti: RunUlti, tmp_path: Path
) -> None:
    (line,) = check(ulti, tmp_path, 'name: club\ntitle: "Club"\nextends: wikipedia.yaml\n')
    assert line == (
        "club.yaml:3:10: extends: no such file: wikipedia.yaml "
        "(to extend the ruleset by name, write 'extends: wikipedia')"
    )


def test_a_word_where_true_or_false_belongs(ulti: RunUlti, tmp_path: Path) -> None:
    (line,) = check(ulti, tmp_path, HEAD + "marriages:\n  require_trick: yes please\n")
    assert line == (
        "club.yaml:5:3: marriages.require_trick: should be true or false, not text ('yes please')"
    )


def test_rank_messages_count_one_component_in_the_singular(ulti: RunUlti, tmp_path: Path) -> None:
    text = HEAD + (
        "ladder:\n"
        "  - {id: parti, rank: 1, value: 1, components: [parti], names: {hu: p, en: p}}\n"
        "  - {id: betli, rank: 2, value: 5, components: [betli], names: {hu: b, en: b}}\n"
        "  - {id: ulti, rank: 3, value: 5, components: [parti, ulti], names: {hu: u, en: u}}\n"
    )
    (line,) = check(ulti, tmp_path, text)
    assert "bid 'betli' (1 component) ranks below 'ulti' (2 components)" in line


def test_a_name_that_is_a_file_beside_says_the_path_to_write(ulti: RunUlti, tmp_path: Path) -> None:
    """A name reaches the rulesets folders, not the club's own folder: a club that keeps
    last20.yaml beside its file and writes `extends: last20` is told what reaches it."""
    (tmp_path / "last20.yaml").write_text(HEAD.replace("club", "last20"), encoding="utf-8")
    (tmp_path / "kontra.yaml").write_text("fragment: our kontra\nkontra: {max_level: 2}\n")
    (line,) = check(ulti, tmp_path, 'name: club\ntitle: "Club"\nextends: last20\n')
    assert line.startswith("club.yaml:3:10: extends: no ruleset named 'last20'; known rulesets:")
    assert line.endswith(
        "; the file last20.yaml beside this one is reached by a path: ./last20.yaml"
    )
    (line,) = check(ulti, tmp_path, HEAD + "with: [kontra]\n")
    assert line.startswith(
        "club.yaml:4:8: with.0: no fragment named 'kontra'; the file kontra.yaml beside this "
        "one is reached by a path: ./kontra.yaml; known fragments:"
    )


def test_a_flag_that_forbids_inherited_bids_is_said_once_at_the_clubs_line(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """Turning red no-trump bids off named each bundled bid at the bundled file's line."""
    (line,) = check(ulti, tmp_path, HEAD + "trump: {red_no_trump: false}\n")
    assert line == (
        "club.yaml:4:9: trump.red_no_trump: false, but the bids betli_red, plain_durchmars_red "
        "need it true: remove them too (ladder: {betli_red: null, plain_durchmars_red: null}), "
        "or leave it true"
    )
    fixed = (
        HEAD
        + "trump: {red_no_trump: false}\nladder: {betli_red: null, plain_durchmars_red: null}\n"
    )
    (tmp_path / "club.yaml").write_text(fixed, encoding="utf-8")
    assert ulti("check", "club.yaml").returncode == 0


OPEN_ULTI = HEAD + (
    "contracts:\n"
    "  open_ulti: {kind: ulti, names: {hu: terített ulti, en: Open Ulti}, value: 8, open: true}\n"
    "ladder:\n"
    "  open_ulti:\n"
    "    rank: {rank}\n"
    "    components: [parti, open_ulti]\n"
    "    names: {hu: terített ulti, en: Open Ulti}\n"
)


def test_one_wrong_rank_is_said_once_at_the_club_line_with_the_ranks_that_fit(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """A new bid ranked too high passes 25 bundled bids: it is the bid the club wrote
    that is named, at its own line, not the 25 at lines of files the club never wrote."""
    (line,) = check(ulti, tmp_path, OPEN_ULTI.replace("{rank}", "30"))
    assert line == (
        "club.yaml:8:5: ladder.open_ulti.rank: bid 'open_ulti' (value 9) has rank 30, not "
        "below 'forty_hundred_durchmars' (value 10, rank 14); a lower value must rank lower "
        "unless one of them sets rank_exception (and 24 more like it); its value 9 fits a "
        "rank from 11 to 13"
    )
    (tmp_path / "club.yaml").write_text(OPEN_ULTI.replace("{rank}", "12"), encoding="utf-8")
    assert ulti("check", "club.yaml").returncode == 0


BETLI_SIX = "name: club\ntitle: c\nextends: wikipedia\ncontracts: {betli: {value: 6}}\n"


def test_the_ranks_that_fit_count_the_components_at_equal_value(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """Betli worth 6 makes the red Betli 12, the value of three 100 bids of more
    components ranked above it: the hint said ranks 15 to 19 by value alone, where it
    stood already. Each rank it names now ends the clash, and none beside them does."""
    club_line, line = check(ulti, tmp_path, BETLI_SIX)
    assert ": contracts.betli.value: the new value of 'betli' (6) puts bid 'betli_red' " in (
        club_line
    )
    assert ": ladder.13.rank: bid 'betli_red' (1 component) ranks below " in line
    assert line.endswith("; its value 12 fits a rank from 18 to 19")

    def clashes(rank: int) -> list[str]:
        text = BETLI_SIX + f"ladder: {{betli_red: {{rank: {rank}}}}}\n"
        lines = check(ulti, tmp_path, text)
        return [p for p in lines if "betli_red" in p and "list the bids in rank order" not in p]

    assert [rank for rank in range(14, 22) if not clashes(rank)] == [18, 19]


def test_check_takes_a_ruleset_name_like_the_other_commands(
    ulti: RunUlti, tmp_path: Path, sealed_user_folders: Path
) -> None:
    (sealed_user_folders / "club.yaml").write_text(HEAD, encoding="utf-8")
    done = ulti("check", "club", "wikipedia", "clubb")
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "clubb: no ruleset named 'clubb' (did you mean 'club'?); known rulesets: club, "
        "four-player, older-20-100, tournament, two-round-auction, wikipedia",
        "3 files checked: 2 ok, 1 with 1 problem",
    ]
    (tmp_path / "club").write_text("title: [", encoding="utf-8")  # a file of that name wins
    assert ulti("check", "club").stdout.startswith("club:2:1: ")


# --------------------------------------------------------------------------- the table


def score(ulti: RunUlti, tmp_path: Path, text: str) -> Any:
    (tmp_path / "hand.yaml").write_text(text, encoding="utf-8")
    return ulti("score", "hand.yaml")


def test_the_settlement_heading_is_one_line_however_long_the_bid(
    ulti: RunUlti, tmp_path: Path
) -> None:
    done = score(
        ulti,
        tmp_path,
        "ruleset: four-player\nplayers: [Anna, Ben, Carla, Dani]\ndealer: Ben\n"
        "declarer: Dani\nbid: 40-100 Ulti\ntrump: makk\nkontra: {ulti: {Anna: kontra}}\n"
        "points: {declarer: 60, defenders: 30}\ntricks: {Dani: 7, Carla: 2, Anna: 1}\n"
        "last_trick: {winner: Dani, trump_seven: Dani}\nmarriages: {Dani: [makk]}\n"
        "aces: [Dani, Carla]\n",
    )
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first == "40-100 Ulti (forty_hundred_ulti), acorns: declarer Dani [four-player]"


def test_a_hand_given_up_before_trump_was_named_is_not_called_no_trump(
    ulti: RunUlti, tmp_path: Path
) -> None:
    done = score(
        ulti, tmp_path, "ruleset: older-20-100\ndeclarer: P3\nbid: Simple\ngave_up: true\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == (
        "Simple (parti), trump not named: declarer P3 [older-20-100]"
    )
    betli = score(
        ulti,
        tmp_path,
        "ruleset: wikipedia\ndeclarer: P1\nbid: Betli\npoints: {declarer: 0, defenders: 90}\n"
        "tricks: {P2: 5, P3: 5}\nlast_trick: {winner: P2}\n",
    )
    assert betli.stdout.splitlines()[0] == "Betli (betli), no trump: declarer P1 [wikipedia]"


def test_a_single_problem_in_a_hand_is_an_error_line(ulti: RunUlti, tmp_path: Path) -> None:
    done = score(ulti, tmp_path, "ruleset: wikipedia\ndeclarer: P1\nbid: Simple\ngave_up: true\n")
    assert done.returncode == 1
    assert done.stderr == (
        "ulti: error: hand.yaml:4:1: gave_up: 'wikipedia' does not allow giving up "
        "(simple.give_up_allowed: false), and a plain Simple ('parti') wins the auction there "
        "only as the first bid, left standing, so it is lost double as uncontested: write "
        "uncontested: true instead of gave_up\n"
    )


def test_a_trump_bid_without_trump_points_at_the_bid(ulti: RunUlti, tmp_path: Path) -> None:
    done = score(ulti, tmp_path, "ruleset: wikipedia\ndeclarer: P1\nbid: Ulti\n")
    assert done.returncode == 1
    assert done.stderr == (
        "ulti: error: hand.yaml:3:1: bid: 'ulti' is a trump bid: say which suit was trump "
        "(trump: acorns)\n"
    )


def test_a_fact_in_the_wrong_shape_is_shown_how_it_is_written(
    ulti: RunUlti, tmp_path: Path
) -> None:
    done = score(
        ulti,
        tmp_path,
        "ruleset: wikipedia\ndeclarer: P1\nbid: Simple\ntrump: makk\n"
        "points: 50\ntricks: [5, 3, 2]\nlast_trick: P1\naces: P1\n",
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "hand.yaml:5:1: points: write it like points: {declarer: 60, defenders: 30, talon: 0} "
        "(not 50)",
        "hand.yaml:6:1: tricks: write it like tricks: {Anna: 6, Ben: 2, Carla: 2} (not [5, 3, 2])",
        "hand.yaml:7:1: last_trick: write it like last_trick: {winner: Anna, trump_seven: Anna} "
        "(not 'P1')",
        "hand.yaml:8:1: aces: write it like aces: [Anna, Ben] (not 'P1')",
        "ulti: error: 4 problems",
    ]


def test_ledger_show_names_the_bids_and_explains_its_cells(ulti: RunUlti, tmp_path: Path) -> None:
    assert (
        ulti(
            "ledger", "new", "s.json", "--ruleset", "older-20-100", "--players", "A,B,C"
        ).returncode
        == 0
    )
    (tmp_path / "h.yaml").write_text("declarer: B\nbid: parti\ngave_up: true\n", encoding="utf-8")
    added = ulti("ledger", "add", "s.json", "h.yaml", "--heart-ace", "C")
    assert added.returncode == 0, added.stderr
    shown = ulti("ledger", "show", "s.json")
    assert shown.returncode == 0, shown.stderr
    row = next(line for line in shown.stdout.splitlines() if line.startswith("│ 1 "))
    assert "Simple (parti), A♥: C" in row and "-4 (-4)" in row
    assert "Under each player: the hand's result (the running total)." in shown.stdout


# --------------------------------------------------------------------------- the app builder


def test_the_engine_quick_start_runs_as_printed() -> None:
    text = (DOCS / "engine.md").read_text(encoding="utf-8")
    match = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert match, "docs/engine.md lost its quick start"
    code = match.group(1)
    assert "action_from_dict" in code and "settle(" in code
    exec(compile(code, "engine.md", "exec"), {"__name__": "engine_md"})


def test_a_record_whose_relative_ruleset_path_is_gone_says_how_to_replay_it(
    ulti: RunUlti, tmp_path: Path
) -> None:
    done = ulti("simulate", "--hands", "1", "--seed", "4", "--quiet", "--save-records", "out")
    assert done.returncode == 0, done.stderr
    record = tmp_path / "out" / "hand-0001.yaml"
    text = record.read_text(encoding="utf-8").replace(
        "ruleset: wikipedia\n", "ruleset: club.yaml\n"
    )
    record.write_text(text, encoding="utf-8")
    refused = ulti("replay", str(record))
    assert refused.returncode == 1
    assert refused.stderr == (  # at the record's ruleset line, the one to mend
        f"ulti: error: {record}:2:1: no such file: {tmp_path / 'out' / 'club.yaml'}: the "
        "record names its ruleset 'club.yaml', a path read relative to the record's folder "
        "(replay it with --ruleset NAME|PATH)\n"
    )
    again = ulti("replay", str(record), "--ruleset", "wikipedia")
    assert again.returncode == 0, again.stderr


# --------------------------------------------------------------------------- the researcher


def test_simulate_json_is_the_same_but_for_its_timing(ulti: RunUlti) -> None:
    runs = [ulti("simulate", "--hands", "15", "--seed", "9", "--json") for _ in range(2)]
    data = [json.loads(run.stdout) for run in runs]
    assert runs[0].stdout == runs[1].stdout  # the timing is on stderr
    assert runs[0].stderr.startswith("Speed: ")
    assert sum(data[0]["totals"].values()) == 0


# --------------------------------------------------------------------------- the docs


def test_the_readme_lists_every_page_of_the_docs(repo_root: Path) -> None:
    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    for page in sorted(DOCS.glob("*.md")):
        assert f"(docs/{page.name})" in readme, page.name


def test_cli_md_covers_every_command() -> None:
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    for name in (
        "rulesets",
        "show",
        "check",
        "ladder",
        "schema",
        "score",
        "ledger",
        "replay",
        "simulate",
    ):
        assert f"## `ulti {name}" in text, name


# --------------------------------------------------------------------------- a newcomer


def test_the_readme_first_command_plays_a_whole_hand_with_its_settlement(ulti: RunUlti) -> None:
    """The README's first command installs, then runs one `ulti` command: a whole hand among
    bots, from the deal to the itemised settlement."""
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```sh\n(.*?)\n```", readme, re.DOTALL)
    assert first, "README.md lost its first command"
    install, _, command = first.group(1).rpartition(" && ulti ")
    assert "pip install -e '.[dev]'" in install
    assert command == "play --auto --seed 1"
    done = ulti(*command.split())
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Hand 1: " in out and "Auction" in out
    assert re.search(r"^ +10\. ", out, re.MULTILINE), "the tenth trick is not shown"
    assert "Payments" in out and "Session after 1 hand:" in out
