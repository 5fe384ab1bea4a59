"""A club file from a stranger: refused quickly, with a clear message and no traceback.

Each case runs with libyaml's parser and with the pure-Python one, since a machine
without libyaml falls back to the latter. The time bound is generous (the cases take
milliseconds); it is there to catch a hang, not to measure speed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from ulti_rules.errors import Problem
from ulti_rules.plugins import Registry
from ulti_rules.ruleset import safe_yaml
from ulti_rules.ruleset.loading import check_file
from ulti_rules.ruleset.safe_yaml import MAX_DEPTH, YamlError, load_text

PARSERS = ["python"] + (["libyaml"] if hasattr(safe_yaml, "_CLoader") else [])
GENEROUS_SECONDS = 5.0
"""In this process's CPU time, so that a busy machine (the tests run in parallel) does not
count, and a blow-up in the work does."""


@pytest.fixture(params=PARSERS, autouse=True)
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "python":
        monkeypatch.setattr(safe_yaml, "_LOADER", safe_yaml._PyLoader)
    yield request.param


def refused(path: Path) -> Problem:
    """The single problem reported for ``path``, within the time bound."""
    start = time.process_time()
    problems = check_file(path, Registry())
    elapsed = time.process_time() - start
    assert elapsed < GENEROUS_SECONDS, elapsed
    assert len(problems) == 1, problems
    return problems[0]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_billion_laughs_is_refused(tmp_path: Path) -> None:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        this, prev = chr(ord("a") + i), chr(ord("a") + i - 1)
        lines.append(f"{this}: &{this} [{', '.join(['*' + prev] * 9)}]")
    problem = refused(write(tmp_path, "\n".join(lines) + "\n"))
    assert problem.message == "more than 100000 nodes (aliases expanded)"
    assert problem.line == 6  # the alias that crosses the bound


def test_many_aliases_to_a_small_list_are_refused(tmp_path: Path) -> None:
    text = "a: &a [1]\n" + "".join(f"k{i}: *a\n" for i in range(1500))
    problem = refused(write(tmp_path, text))
    assert problem.message == "more than 1000 aliases to mappings or lists"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("[" * 10_000 + "]" * 10_000, 1),
        ("{a: " * 10_000 + "1" + "}" * 10_000, 1),
        ("- " * 10_000 + "x\n", 1),
        ("".join(" " * i + "a:\n" for i in range(200)), MAX_DEPTH + 1),
    ],
    ids=["flow-lists", "flow-mappings", "block-lists", "block-mappings"],
)
def test_deep_nesting_is_refused(tmp_path: Path, text: str, line: int) -> None:
    problem = refused(write(tmp_path, text))
    assert (problem.line, problem.message) == (line, f"nested deeper than {MAX_DEPTH} levels")


def test_aliases_cannot_nest_past_the_bound(tmp_path: Path) -> None:
    deep = "[" * 40 + "]" * 40
    text = f"a: &a {deep}\nb: &b [{'[' * 20}*a{']' * 20}]\nc: [[[*b]]]\n"
    problem = refused(write(tmp_path, text))
    assert problem.message == f"nested deeper than {MAX_DEPTH} levels (aliases expanded)"
    assert problem.line == 3


def test_a_50_megabyte_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    chunk = b"title: " + b"x" * 1017 + b"\n"  # 1 KiB
    with path.open("wb") as stream:
        for _ in range(50 * 1024):
            stream.write(chunk)
    problem = refused(path)
    assert problem.message == "the file is 50.0 MiB; files over 1.0 MiB are not read"
    assert problem.line is None


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        (
            "title: !!python/object/apply:os.system ['echo pwned']\n",
            "!!python/object/apply:os.system",
        ),
        (
            "title: !!python/object:collections.OrderedDict {}\n",
            "!!python/object:collections.OrderedDict",
        ),
        ("title: !!python/name:os.system ''\n", "!!python/name:os.system"),
        ("title: !include other.yaml\n", "!include"),
        ("title: !!binary aGVsbG8=\n", "!!binary"),
        ("sources: !!set {a, b}\n", "!!set"),
        ("title: !!map text\n", "!!map"),
        ("sources: !!seq {a: 1}\n", "!!seq"),
    ],
)
def test_tags_beyond_plain_data_are_refused_by_name(tmp_path: Path, text: str, tag: str) -> None:
    problem = refused(write(tmp_path, text))
    assert problem.message.startswith(f"tag {tag} is not allowed on ")
    assert (problem.line, problem.column) == (1, len(text.split(":")[0]) + 3)


def test_duplicate_keys_are_errors_at_every_level(tmp_path: Path) -> None:
    text = "title: a\ndeal:\n  talon: none\n  talon: forehand\ntitle: b\n"
    problems = check_file(write(tmp_path, text), Registry())
    assert [(p.line, p.column, p.path) for p in problems] == [
        (4, 3, "deal.talon"),
        (5, 1, "title"),
    ]
    assert problems[0].message.startswith("duplicate key 'talon' (first set at line 3)")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: &x [*x]\n", "alias *x refers to a node that contains it"),
        ("a: *nowhere\n", "alias *nowhere has no anchor before it"),
        ("a: &x 1\nb: &x 2\n", "anchor &x is defined twice"),
        (
            "title: a\n---\ntitle: b\n",
            "the file must hold one YAML document; this is a second one",
        ),
        ("title: !!int twelve\n", "cannot read 'twelve' as !!int"),
        ("value: " + "9" * 5000 + "\n", "cannot read"),
        ("[a]: 1\n", "a key must be text, not a list"),
    ],
)
def test_other_malformed_yaml(tmp_path: Path, text: str, message: str) -> None:
    assert message in refused(write(tmp_path, text)).message


def test_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("title: ok\nname: Négy ász\n".encode("latin-1"))
    problem = refused(path)
    assert (problem.line, problem.message) == (2, "not UTF-8 text (byte 0xe9)")


def test_merge_keys_still_work_and_keep_positions() -> None:
    document = load_text("base: &b {k: 1, j: 2}\nm:\n  <<: *b\n  j: 3\n")
    assert document.data == {"base": {"k": 1, "j": 2}, "m": {"k": 1, "j": 3}}
    assert (document.positions[("m", "j")].key.line, document.positions[("m", "k")].key.line) == (
        4,
        1,
    )


def test_dates_stay_text_and_aliases_are_copies() -> None:
    document = load_text("title: 2024-05-01\na: &a [1]\nb: *a\n")
    assert document.data["title"] == "2024-05-01"
    assert document.data["a"] == document.data["b"]
    assert document.data["a"] is not document.data["b"]


def test_load_text_refuses_a_long_text() -> None:
    with pytest.raises(YamlError) as caught:
        load_text("#" * (safe_yaml.MAX_BYTES + 1))
    assert "files over 1.0 MiB are not read" in str(caught.value)
