"""The YAML reader reads the parser's events once, keeping no node graph: what an alias or
a merge key (``<<``) repeats is copied with its positions and its problems, and what the
file does not keep (a duplicate key's value, what a key of the mapping overrides) is read
for its anchors but says nothing where it stands.

Each case runs with libyaml's parser and with the pure-Python one."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from ulti_rules.ruleset import safe_yaml
from ulti_rules.ruleset.safe_yaml import YamlError, load_text
from yaml.nodes import ScalarNode

PARSERS = ["python"] + (["libyaml"] if hasattr(safe_yaml, "_CLoader") else [])


@pytest.fixture(params=PARSERS, autouse=True)
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "python":
        monkeypatch.setattr(safe_yaml, "_LOADER", safe_yaml._PyLoader)
    yield request.param


def where(text: str) -> tuple[Any, dict[tuple[Any, ...], tuple[int, int, int, int]]]:
    """The data, and each path's key and value positions as (line, column, line, column)."""
    document = load_text(text)
    return document.data, {
        path: (p.key.line, p.key.column, p.value.line, p.value.column)
        for path, p in document.positions.items()
    }


def problems(text: str) -> list[tuple[int, int, str, tuple[Any, ...]]]:
    with pytest.raises(YamlError) as caught:
        load_text(text)
    return [(i.mark.line, i.mark.column, i.message, i.path) for i in caught.value.issues if i.mark]


def test_an_alias_of_a_merged_mapping_points_where_its_keys_were_written() -> None:
    data, positions = where("base:\n  <<: &x {b: 2}\n  c: 1\nother: *x\n")
    assert data == {"base": {"c": 1, "b": 2}, "other": {"b": 2}}
    assert list(data["base"]) == ["c", "b"]  # own keys first, then merged ones
    assert positions[("base", "b")] == (2, 11, 2, 14)  # where b was written, in the merge
    assert positions[("other",)] == (4, 1, 2, 7)  # its key here, its value at the anchor
    assert positions[("other", "b")] == (2, 11, 2, 14)


def test_an_alias_is_a_copy_not_a_share() -> None:
    data, _ = where("a: &x {b: [1]}\nc: *x\n")
    data["a"]["b"].append(2)
    assert data["c"] == {"b": [1]}


def test_a_problem_inside_a_value_the_file_drops_is_said_where_an_alias_repeats_it() -> None:
    """The second ``a`` is a duplicate: its value is not kept, and the duplicate key in
    it is not a problem there; ``c`` repeats it, and there it is."""
    assert problems("a: 1\na: &x {b: 2, b: 3}\nc: *x\n") == [
        (
            2,
            1,
            "duplicate key 'a' (first set at line 1); YAML would silently keep only the last",
            ("a",),
        ),
        (
            2,
            14,
            "duplicate key 'b' (first set at line 2); YAML would silently keep only the last",
            ("c", "b"),
        ),
    ]


def test_a_problem_under_a_merged_key_the_mapping_overrides_is_not_said() -> None:
    text = "m:\n  <<: {b: {x: 1, x: 2}, c: {y: 1, y: 2}}\n  b: 0\n"
    assert problems(text) == [
        (
            2,
            35,
            "duplicate key 'y' (first set at line 2); YAML would silently keep only the last",
            ("m", "c", "y"),
        ),
    ]


def test_an_anchored_merge_key_repeated_as_a_value_cannot_be_read() -> None:
    assert problems("m: {&k <<: {a: 1}}\nn: *k\n") == [
        (1, 5, "cannot read '<<' as !!merge", ("n",))
    ]


def test_a_long_list_is_read_whole_with_every_item_placed() -> None:
    items = ", ".join(str(i) for i in range(5_000))
    data, positions = where(f"xs: [{items}]\n")
    assert data == {"xs": list(range(5_000))}
    assert positions[("xs", 4_999)][:2] == (1, 6 + len(items) - len("4999"))


@pytest.mark.parametrize("tag", ["!!int", "!!float"])
def test_an_empty_number_is_a_problem_not_an_internal_error(tag: str) -> None:
    """``!!int ''`` made PyYAML's constructor index an empty string: `ulti check` said
    "internal error: IndexError" for a club file, a sheet or a record holding it."""
    assert problems(f"title: {tag} ''\n") == [(1, 8, f"cannot read '' as {tag}", ("title",))]


def test_a_list_written_as_a_key_is_said_there_and_not_where_an_alias_repeats_it() -> None:
    """The second ``a`` is a duplicate, so nothing in its value is said; the list in it
    written as a key is an anchor that ``b`` repeats as a value, which is no problem."""
    dup = "duplicate key 'a' (first set at line 1); YAML would silently keep only the last"
    assert problems("a: 1\na: {? &k [1]: 2}\nb: *k\n") == [(2, 1, dup, ("a",))]


GENEROUS_SECONDS = 5.0
"""CPU time of this process: a bound to catch a blow-up (these take milliseconds), not to
measure speed."""


def read_within_bound(text: str) -> Any:
    start = time.process_time()
    data = load_text(text).data
    assert time.process_time() - start < GENEROUS_SECONDS
    return data


def test_merges_nested_deep_are_read_in_linear_time() -> None:
    """A merged mapping copied the entries of its own merges, dead ones too: the logs
    doubled at every level (20 levels: 1.7 s and 158 MB; 24 would take half a minute)."""
    depth = 24
    assert read_within_bound("m: " + "{<<: " * depth + "{a: 1}" + "}" * depth + "\n") == {
        "m": {"a": 1}
    }


def test_a_merge_of_a_thousand_aliases_is_read_in_linear_time() -> None:
    """Every item of a ``<<`` list was given the whole list's log to filter: 1,000 aliases
    of a mapping of 47 keys took 18 s."""
    keys = ", ".join(f"k{i}: {i}" for i in range(47))
    text = f"a: &a {{{keys}}}\nm: {{<<: [{', '.join(['*a'] * 1_000)}]}}\n"
    data = read_within_bound(text)
    assert data["m"] == data["a"] and len(data["m"]) == 47


def test_a_plain_value_repeated_is_resolved_once_and_read_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reader remembers what a plain scalar's text stands for (PyYAML's resolver is
    regular expressions in Python): quoted text, an explicit tag and a value that cannot
    be read are each still read where they stand."""
    asked: list[str] = []  # plain scalars
    loader = safe_yaml._LOADER
    real = loader.resolve

    def resolve(self: Any, kind: Any, value: Any, implicit: Any) -> str:
        if kind is ScalarNode and implicit[0]:
            asked.append(value)
        return real(self, kind, value, implicit)  # type: ignore[no-any-return]

    monkeypatch.setattr(loader, "resolve", resolve)
    text = "a: [1, 1, '1', \"1\", !!str 1, 1, true, true, yes, yes, null, ~, 1.5, 1.5, x, x]\n"
    data, _ = where(text)
    read = [1, 1, "1", "1", "1", 1, True, True, "yes", "yes", None, None, 1.5, 1.5, "x", "x"]
    assert data == {"a": read}
    assert all(asked.count(v) == 1 for v in ("1", "true", "yes", "null", "1.5", "x")), asked
    bad = problems("a: !!int x\nb: !!int x\nc: !!float ''\nd: !!float ''\n")
    assert [(line, column) for line, column, _, _ in bad] == [(1, 4), (2, 4), (3, 4), (4, 4)]
