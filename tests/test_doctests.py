"""The usage examples in the public API's docstrings run, and print what they show.

The examples (``>>>``, as python-chess writes them) are the first code a reader of the
API reference (the docs site) copies; this runs them with the suite, so one that stops
working fails here. Each module below must hold examples: a module whose examples
were all deleted fails too.
"""

from __future__ import annotations

import doctest
import importlib
import io

import pytest

MODULES = (
    "ulti_rules.engine.hand",  # Hand, legal_actions, apply, undo, clone
    "ulti_rules.engine.observation",  # Observation
    "ulti_rules.game.game",  # Game, Game.settle
    "ulti_rules.ruleset.loading",  # load_ruleset, load_game
    "ulti_rules.bots",  # play_out
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(module):
        runner.run(test, out=out.write)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0, f"{name} has no docstring examples"
    assert result.failed == 0, out.getvalue()


EXAMPLES = (
    ("ulti_rules.engine.hand", "Hand"),
    ("ulti_rules.engine.hand", "Hand.legal_actions"),
    ("ulti_rules.engine.hand", "Hand.apply"),
    ("ulti_rules.engine.hand", "Hand.undo"),
    ("ulti_rules.engine.hand", "Hand.clone"),
    ("ulti_rules.engine.observation", "Observation"),
    ("ulti_rules.game.game", "Game"),
    ("ulti_rules.game.game", "Game.settle"),
    ("ulti_rules.ruleset.loading", "load_ruleset"),
    ("ulti_rules.ruleset.loading", "load_game"),
    ("ulti_rules.bots", "play_out"),
)
"""The public API's main doors: each shows an example of its use."""


@pytest.mark.parametrize(("module", "qualname"), EXAMPLES)
def test_the_main_api_shows_examples(module: str, qualname: str) -> None:
    target: object = importlib.import_module(module)
    for part in qualname.split("."):
        target = getattr(target, part)
    assert ">>> " in (target.__doc__ or ""), f"{qualname} has no example"
