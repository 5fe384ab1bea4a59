"""Each kontra call raises the stake or keeps it: a level whose multiplier is less than the
level below's is refused at its line (a Rekontra worth less than the Kontra it answers is
a slip in a club file; the rulebook and the settlement took it as written)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ulti_rules.ruleset.loading import check_file, load_ruleset

LEVELS = """\
name: km
title: Km
extends: wikipedia
kontra:
  levels:
    - {{names: {{en: Kontra, hu: Kontra}}, multiplier: {first}, by: defenders}}
    - {{names: {{en: Rekontra, hu: Rekontra}}, multiplier: {second}, by: declarer}}
"""


def club(tmp_path: Path, first: int, second: int) -> Path:
    path = tmp_path / "km.yaml"
    path.write_text(LEVELS.format(first=first, second=second), "utf-8")
    return path


def test_a_level_worth_less_than_the_one_below_is_refused_at_its_line(tmp_path: Path) -> None:
    (problem,) = check_file(club(tmp_path, 4, 2))
    assert (problem.line, problem.path) == (7, "kontra.levels.1.multiplier")
    assert problem.message == (
        "kontra level 2 multiplies by 2, less than level 1's 4: each call raises the stake, "
        "so write 4 or more"
    )


@pytest.mark.parametrize(("first", "second"), [(2, 2), (2, 3), (2, 4)])
def test_a_level_worth_as_much_or_more_is_accepted(tmp_path: Path, first: int, second: int) -> None:
    rules = load_ruleset(club(tmp_path, first, second))
    assert [rules.kontra.multiplier(level) for level in (1, 2, 3)] == [first, second, 2 * second]
