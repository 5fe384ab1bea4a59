"""docs/plugins.md's walk-through, run as it stands: a new kind with a fact of its own,
from an empty folder to a hand played by the engine and the same hand in `ulti score`.

The files are the doc's code blocks (each marked ``<!-- walkthrough: PATH -->``), so the
doc cannot drift from what works. The plugin is "installed" without pip, as
``pip install`` would leave it: a ``*.dist-info`` folder whose ``entry_points.txt`` is
made from the doc's own ``pyproject.toml``, beside the module, on ``sys.path``.
"""

from __future__ import annotations

import importlib
import json
import re
import runpy
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from ulti_rules import plugins

from cli_in_process import run_in

DOC = Path(__file__).resolve().parent.parent / "docs" / "plugins.md"
BLOCK = re.compile(r"<!-- walkthrough(-output)?: (\S+) -->\n```\w*\n(.*?)```", re.DOTALL)
MODULE = "ulti_four_kings"


def blocks() -> tuple[dict[str, str], dict[str, str]]:
    """The walk-through's files and the outputs it shows, by path."""
    files: dict[str, str] = {}
    outputs: dict[str, str] = {}
    for output, path, text in BLOCK.findall(DOC.read_text(encoding="utf-8")):
        (outputs if output else files)[path] = text
    return files, outputs


def install(project: Path, site: Path) -> None:
    """What ``pip install`` leaves on ``sys.path``: the module and its dist-info."""
    meta = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    dist = site / f"{meta['name'].replace('-', '_')}-{meta['version']}.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n", "utf-8"
    )
    points = meta["entry-points"]["ulti_rules"]
    lines = "".join(f"{name} = {target}\n" for name, target in points.items())
    (dist / "entry_points.txt").write_text(f"[ulti_rules]\n{lines}", "utf-8")
    for module in project.glob("*.py"):
        (site / module.name).write_text(module.read_text(encoding="utf-8"), "utf-8")


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The walk-through's folders written from the doc, the plugin installed; the club
    folder is the current one, as in the doc."""
    files, _ = blocks()
    for path, text in files.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, "utf-8")
    site = tmp_path / "site"
    install(tmp_path / "ulti-four-kings", site)
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    monkeypatch.chdir(tmp_path / "club")
    plugins.reset()
    yield tmp_path / "club"
    plugins.reset()
    sys.modules.pop(MODULE, None)


def test_the_doc_shows_every_file_of_the_walk_through() -> None:
    files, outputs = blocks()
    assert set(files) == {
        "ulti-four-kings/pyproject.toml",
        "ulti-four-kings/ulti_four_kings.py",
        "club/kings-club.yaml",
        "club/play.py",
        "club/hand.yaml",
    }
    assert set(outputs) == {"club/play.py"}


def test_the_plugin_is_found_through_its_entry_point(club: Path) -> None:
    registry = plugins.get_registry()
    assert registry.kind_owner["four_kings"] == "four_kings"
    assert registry.plugins["four_kings"] == "ulti-four-kings 1.0"
    assert registry.facts["king_winners"].sheet_key == "kings"
    done = run_in(club)("check", "kings-club.yaml")
    assert (done.returncode, done.stdout.strip()) == (0, "1 file checked: 1 ok")


def test_the_engine_hand_and_the_typed_in_hand_settle_alike(
    club: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, outputs = blocks()
    played: dict[str, Any] = runpy.run_path(str(club / "play.py"))
    printed = capsys.readouterr().out
    assert "$ python play.py\n" + printed == outputs["club/play.py"]

    names, facts = played["NAMES"], played["facts"]
    engine = {names[seat]: amount for seat, amount in played["payments"].items()}
    sheet = yaml.safe_load((club / "hand.yaml").read_text(encoding="utf-8"))
    # The sheet says what the engine's hand says: who took the kings (each name once).
    kings = [names[s] for s in dict.fromkeys(facts.extra["king_winners"])]
    assert sheet["kings"] == kings
    assert sheet["aces"] == [names[s] for s in dict.fromkeys(facts.extra["ace_winners"])]

    done = run_in(club)("score", "hand.yaml", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["payments"] == engine
    assert engine["Anna"] > 0  # the walk-through's Four Kings is made


def test_the_sheet_without_the_plugin_fact_is_told_its_key(club: Path) -> None:
    text = (club / "hand.yaml").read_text(encoding="utf-8")
    kings = next(line for line in text.splitlines() if line.startswith("kings:"))
    (club / "no-kings.yaml").write_text(text.replace(kings + "\n", ""), "utf-8")
    (club / "typo.yaml").write_text(text.replace("kings:", "king:"), "utf-8")
    run = run_in(club)
    missing = run("score", "no-kings.yaml")
    assert missing.returncode == 1
    assert (
        "judging the component 'four_kings': the facts do not say who won the tricks that "
        "held a king; add 'kings:' to the document" in missing.stderr
    )
    typo = run("score", "typo.yaml")
    line = text.splitlines().index(kings) + 1
    assert f"typo.yaml:{line}:1: king: unknown key 'king' (did you mean 'kings'?)" in typo.stderr
