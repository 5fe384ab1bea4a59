"""The third hostile-input round: what came with `ulti ledger undo`, the notes of `ulti
check` on settings that change nothing, `without:` of a fragment nobody provides, and
the engine's refusals said with values.

Each test is one defect found: a name too long for any file system in `with:`,
`without:` or `extends:` came back whole and unpositioned; a record's refused bid or
action was quoted at 1,000 characters or whole (the refusal became a ``Said``, whose
quotes are the template's); a club file of a few thousand valid lines kept `ulti check`
busy for minutes; and a ledger in a folder that cannot be written named a temporary
file instead of the ledger.
"""

from __future__ import annotations

import errno
import os
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from ulti_rules import safe_files
from ulti_rules.bots import SimpleBidder, play_out
from ulti_rules.engine import Hand
from ulti_rules.errors import MAX_PROBLEMS, problem_count
from ulti_rules.records import dumps, record_of
from ulti_rules.ruleset import loading
from ulti_rules.ruleset.hints import did_you_mean
from ulti_rules.ruleset.loading import check_file, load_ruleset
from ulti_rules.safe_files import TEMP_INFIX

from cli_in_process import run_in
from ledger_support import two_hand_session

LONG = 100_000
"""A name far longer than any file system allows (255 bytes)."""


@pytest.fixture
def ulti(tmp_path: Path) -> Any:
    return run_in(tmp_path)


@pytest.mark.parametrize(
    ("key", "written", "said"),
    [
        ("without", "without: [{name}]", "3:11: without.0: no fragment named"),
        ("with", "with: [{name}]", "3:8: with.0: no fragment named"),
        ("extends", "", "2:10: extends: no ruleset named"),
    ],
)
def test_a_name_too_long_for_a_file_is_positioned_and_quoted_short(
    tmp_path: Path, ulti: Any, key: str, written: str, said: str
) -> None:
    """The hint "the file NAME.yaml beside this one" asked the file system about a
    100,000-character name: ENAMETOOLONG came back as `club.yaml: aaaa… (the whole name)
    .yaml: File name too long`, with no line, 100 kB on one line."""
    name = "a" * LONG
    parent = name if key == "extends" else "wikipedia"
    text = f"name: club\nextends: {parent}\n" + written.format(name=name) + "\n"
    (tmp_path / "club.yaml").write_text(text, "utf-8")
    for command in ("check", "ladder"):
        ran = ulti(command, "club.yaml")
        assert ran.returncode == 1
        shown = ran.stdout + ran.stderr
        assert f"club.yaml:{said} '{'a' * 40}…'" in shown
        assert len(shown) < 1000, shown[:300]


@pytest.fixture(scope="module")
def record_data() -> dict[str, Any]:
    hand = play_out(
        Hand(load_ruleset("wikipedia"), seed=11, dealer=2), SimpleBidder(), random.Random(11)
    )
    data: dict[str, Any] = yaml.safe_load(
        dumps(record_of(hand, "wikipedia", players=["Anna", "Ben", "Carla"]))
    )
    return data


def with_action(data: dict[str, Any], make: Any) -> str:
    """The record with the action after its first bid replaced by ``make(that action)``."""
    actions = [dict(action) for action in data["actions"]]
    first = next(i for i, action in enumerate(actions) if action["type"] == "bid")
    actions[first + 1] = make(actions[first + 1])
    return yaml.safe_dump({**data, "actions": actions}, sort_keys=False)


@pytest.mark.parametrize("lang", ["en", "hu", "de"])
@pytest.mark.parametrize(
    ("make", "quoted"),
    [
        (lambda a: {"seat": a["seat"], "type": "bid", "bid": "b" * LONG}, "'" + "b" * 40 + "…'"),
        (  # an action of another phase is quoted in the hint's words, its values cut
            lambda a: {"seat": a["seat"], "type": "kontra", "level": 1, "components": ["k" * LONG]},
            {
                "en": "'kontra level 1 on " + "k" * 40 + "…' is not an action of the auction",
                "hu": "'1. fokú kontra erre: " + "k" * 40 + "…' nem a licit lépése",
                "de": "'Kontra der Stufe 1 auf " + "k" * 40 + "…' ist keine Handlung der",
            },
        ),
    ],
    ids=["bid", "kontra"],
)
def test_a_refused_action_quotes_what_the_record_gave_short(
    tmp_path: Path, ulti: Any, record_data: dict[str, Any], make: Any, quoted: str, lang: str
) -> None:
    """Since the engine's refusals are ``Said``s, the value in quotes ("there is no bid
    '...'") is the template's, not the value's, and was cut only at 1,000 characters; an
    action the auction does not take was said whole: 20 kB on one line, in any language."""
    (tmp_path / "hand.yaml").write_text(with_action(record_data, make), "utf-8")
    ran = ulti("replay", "hand.yaml", "--lang", lang)
    assert ran.returncode == 1
    assert (quoted if isinstance(quoted, str) else quoted[lang]) in ran.stderr
    assert len(ran.stderr) < 300, ran.stderr[:400]


def many_contracts(count: int) -> str:
    """A club file of ``count`` new contracts, each writing two settings that differ from
    the schema's defaults: every one of them is judged by `ulti check`'s idle notes."""
    lines = ["name: club", "extends: wikipedia", "contracts:"]
    for i in range(count):
        lines += [
            f"  c{i}:",
            "    kind: ulti",
            f"    names: {{hu: C{i}, en: C{i}, de: C{i}}}",
            "    value: 4",
            "    failure_penalty: 5",
            "    penalty_multiplied_by_kontra: true",
        ]
    return "\n".join(lines) + "\n"


def test_check_judges_the_settings_of_a_large_club_file_within_a_budget(
    tmp_path: Path, ulti: Any
) -> None:
    """Each setting judged costs a merge, a validation and a comparison of the whole
    ruleset: 1,500 lines of new contracts took 12 s, 9,000 lines over two minutes. The
    lines judged are bounded by their cost, and the rest named in one note."""
    (tmp_path / "club.yaml").write_text(many_contracts(250), "utf-8")
    ran = ulti("check", "club.yaml")  # the budget counts values, not seconds: no clock here
    assert ran.returncode == 0, ran.stdout
    notes = ran.stderr.splitlines()
    assert len(notes) == 1, notes
    assert "and those after it (" in notes[0] and "in all) were not judged" in notes[0]
    assert notes[0].startswith("ulti: note: club.yaml:")


def test_a_did_you_mean_among_hundreds_of_new_entries_is_sought_for_those_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each incomplete new contract was matched against every other id for a did-you-mean:
    3,000 of them took two and a half minutes (found by a review). Only the entries that
    can be shown are matched now: at most the hundred problems a check shows."""
    sought: list[str] = []

    def counted(word: str, options: Any) -> str:
        sought.append(word)
        return did_you_mean(word, options)

    monkeypatch.setattr(loading, "did_you_mean", counted)
    entries = "".join(f"  contract{i}x:\n    value: 3\n" for i in range(300))
    (tmp_path / "club.yaml").write_text(f"extends: wikipedia\ncontracts:\n{entries}", "utf-8")
    problems = check_file(tmp_path / "club.yaml")
    assert problem_count(problems) == 300  # each one problem, said or counted
    assert 0 < len([w for w in sought if w.startswith("contract")]) <= MAX_PROBLEMS


def test_a_small_club_file_is_judged_line_by_line(tmp_path: Path, ulti: Any) -> None:
    """The budget leaves every line of a club file of ordinary size judged."""
    (tmp_path / "club.yaml").write_text(
        "name: club\nextends: wikipedia\nsimple:\n  give_up_cost: 3\n", "utf-8"
    )
    ran = ulti("check", "club.yaml")
    assert ran.returncode == 0, ran.stdout
    assert ran.stderr == (
        "ulti: note: club.yaml:4:3: simple.give_up_cost: changes nothing under these rules, "
        "which read the same without this line: delete it, or change the rule that leaves it "
        "unused\n"
    )


def test_a_ledger_in_a_read_only_folder_names_the_ledger_and_the_folder(
    tmp_path: Path, ulti: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ulti ledger undo` (and `add`) in a folder nobody may write to said
    `.../.s.json.ulti-tmp-3888-f6ffba07: Permission denied`: a name the person never typed,
    and not what to do. (The tests run as root, whom no folder refuses: the refusal is
    the system's answer, given here.)"""
    path, _ = two_hand_session(tmp_path)
    before = path.read_bytes()
    real_open = os.open

    def refused(name: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if TEMP_INFIX in os.fsdecode(name):
            raise PermissionError(errno.EACCES, "Permission denied", os.fsdecode(name))
        return real_open(name, flags, *args, **kwargs)

    monkeypatch.setattr(safe_files.os, "open", refused)
    ran = ulti("ledger", "undo", "s.json")
    assert ran.returncode == 1
    assert ran.stderr == (
        f"ulti: error: {path}: Permission denied (it is written through a new file beside "
        "it: its folder must be writable)\n"
    )
    assert path.read_bytes() == before


def test_a_fragment_with_thousands_of_unknown_keys_is_capped(tmp_path: Path, ulti: Any) -> None:
    """`ulti check FRAGMENT` printed every problem of a fragment, one a line: 45,000 lines
    for 45,000 unknown keys (a ruleset's are capped at a hundred and a count, as every
    reader's). Five thousand show it."""
    keys = "".join(f"k{i}: 1\n" for i in range(5_000))
    (tmp_path / "frag.yaml").write_text("fragment: a stranger's\n" + keys, "utf-8")
    ran = ulti("check", "frag.yaml")
    assert ran.returncode == 1
    lines = ran.stdout.splitlines()
    assert len(lines) == 102, lines[-3:]
    assert lines[-2] == "frag.yaml: ... and 4900 more problems (only the first 100 are shown)"
    assert lines[-1] == "1 file checked: 0 ok, 1 with 5000 problems"
