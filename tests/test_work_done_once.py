"""A command does each piece of work once: the ruleset validated once per command, a
record replayed once (issue 8: `ulti ledger add` validated the ruleset 6 times and read
YAML 8 times; `ulti replay` replayed the record twice)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from ulti_rules import records
from ulti_rules.engine import Hand
from ulti_rules.records import load_record
from ulti_rules.ruleset import loading, safe_yaml
from ulti_rules.ruleset.parsed_files import PARSED
from ulti_rules.scoring import sheet

from conftest import RunUlti
from ledger_support import two_hand_session


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts ruleset validations, YAML files read and actions applied, from a clean
    load cache (what one command run in a fresh process does)."""
    calls: Counter[str] = Counter()

    def counting(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            if name == "read":
                calls[f"read {Path(args[0]).name}"] += 1
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(loading, "_validate", counting("validate", loading._validate))
    read = counting("read", safe_yaml.read_file)
    for module in (safe_yaml, sheet, records):  # each module's own binding
        monkeypatch.setattr(module, "read_file", read)
    monkeypatch.setattr(PARSED, "read", counting("read", PARSED.read))  # ruleset files
    PARSED.clear()
    monkeypatch.setattr(Hand, "apply", counting("apply", Hand.apply))
    loading.LOADED.clear()
    yield calls
    loading.LOADED.clear()


def test_ledger_add_validates_the_ruleset_once(
    tmp_path: Path, ulti: RunUlti, counted: Counter[str]
) -> None:
    ledger, hand = two_hand_session(tmp_path)
    loading.LOADED.clear()
    counted.clear()
    done = ulti("ledger", "add", str(ledger), str(hand))
    assert done.returncode == 0, done.stderr
    assert counted["validate"] == 1
    read = {key: n for key, n in counted.items() if key.startswith("read ")}
    assert "read hand.yaml" in read and "read wikipedia.yaml" in read
    assert set(read.values()) == {1}, read  # each file once: the sheet, the ruleset's chain


def test_replay_plays_the_record_once(tmp_path: Path, ulti: RunUlti, counted: Counter[str]) -> None:
    records = tmp_path / "records"
    done = ulti(
        "simulate", "wikipedia", "--hands", "1", "--seed", "4", "--save-records", str(records)
    )
    assert done.returncode == 0, done.stderr
    (record,) = sorted(records.iterdir())
    actions = len(load_record(record).actions)
    counted.clear()
    loading.LOADED.clear()
    done = ulti("replay", str(record))
    assert done.returncode == 0, done.stderr
    assert counted["validate"] == 1
    assert 0 < counted["apply"] <= actions
