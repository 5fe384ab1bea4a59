"""`ulti plugins`: every installed plugin, its distribution, what it registered, and the
ones that failed (listed with their error while the rest keep working)."""

from __future__ import annotations

import json

import pytest
from ulti_rules import plugins

from conftest import RunUlti
from plugin_site import Site

RICH_PLUGIN = """\
from pathlib import Path

from ulti_rules import hookimpl

HERE = Path(__file__).parent


class Lazy:
    name = "lazy"
    description = "always passes"

    def choose(self, hand, rng):
        return hand.legal_actions()[0]


@hookimpl
def register_bots(register):
    register(Lazy)


@hookimpl
def register_ranking_rules(register):
    register("by_colour", "red bids first", lambda ruleset, bid: 0)


@hookimpl
def register_rulesets(register):
    register(HERE / "{ruleset}")
"""

RULESET = "name: lazy-club\ntitle: A club of lazy bots\nextends: wikipedia\n"


def test_the_four_aces_plugin_and_what_it_registered(ulti: RunUlti) -> None:
    result = ulti("plugins")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:5] == [
        "Plugins: 1 loaded, 0 failed",
        "",
        "four_aces (ulti-rules 0.1.0)",
        "  contract kinds: four_aces",
        "  fragments:      four-aces",
    ]
    data = json.loads(ulti("plugins", "--json").stdout)
    assert data == {
        "plugins": [
            {
                "name": "four_aces",
                "distribution": "ulti-rules 0.1.0",
                "contract_kinds": ["four_aces"],
                "bots": [],
                "ranking_rules": [],
                "fragments": ["four-aces"],
                "rulesets": [],
            }
        ],
        "failed": [],
    }


def test_builtin_lists_what_ulti_rules_registers_itself(ulti: RunUlti) -> None:
    out = ulti("plugins", "--builtin").stdout
    assert "built in\n  contract kinds: parti, hundred, ulti, betli, durchmars\n" in out
    assert "  bots:           random, simple" in out
    assert "  ranking rules:  table, value," in out
    assert "Plugins: 1 loaded, 0 failed" in out  # the built-ins are not a plugin


def test_a_plugin_with_bots_rules_and_rulesets_and_a_broken_one(site: Site, ulti: RunUlti) -> None:
    site.add("lazy", RICH_PLUGIN.format(ruleset="lazy-club.yaml"))
    (site.folder / "lazy-club.yaml").write_text(RULESET, "utf-8")
    site.add("broken", "raise ImportError('broken needs numpy')\n")
    result = ulti("plugins", cwd=site.folder)
    assert result.returncode == 0
    assert result.stderr == ""  # failures are listed on stdout, not warned about twice
    out = result.stdout
    assert out.startswith("Plugins: 2 loaded, 1 failed\n")
    assert (
        "\nlazy (lazy-plugin 1.0)\n"
        "  bots:           lazy\n"
        "  ranking rules:  by_colour\n"
        "  rulesets:       lazy-club\n"
    ) in out
    assert "\nfour_aces (ulti-rules 0.1.0)\n" in out  # the rest still works
    assert (
        "FAILED: plugin 'broken' (broken-plugin 1.0) failed to load and is skipped: "
        "ImportError: broken needs numpy"
    ) in out
    data = json.loads(ulti("plugins", "--json", cwd=site.folder).stdout)
    assert sorted(p["name"] for p in data["plugins"]) == ["four_aces", "lazy"]
    (failed,) = data["failed"]
    assert failed == {
        "name": "broken",
        "distribution": "broken-plugin 1.0",
        "phase": "load",
        "error": "ImportError: broken needs numpy",
    }
    lazy = next(p for p in data["plugins"] if p["name"] == "lazy")
    assert lazy["bots"] == ["lazy"] and lazy["rulesets"] == ["lazy-club"]


def test_no_plugin_installed(ulti: RunUlti, monkeypatch: pytest.MonkeyPatch) -> None:
    # The process-wide registry built without plugins must not outlive this test.
    monkeypatch.setattr(plugins, "_manager", None)
    monkeypatch.setattr(plugins, "_registry", None)
    result = ulti("plugins", env={"ULTI_RULES_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert result.returncode == 0
    assert result.stdout == (
        "Plugins: 0 loaded, 0 failed\nNo plugin is installed (see docs/plugins.md to write one).\n"
    )
