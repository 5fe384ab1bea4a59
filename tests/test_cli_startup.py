"""What `ulti` imports to start: the lazy command group, the light package, the plugin
manager that lists files without building a model, and the layering below the bots.

Speed itself is shown by benchmarks/bench_startup.py (docs/performance.md); these tests
pin what makes it fast, in a fresh interpreter, by the modules it ends up with.
"""

from __future__ import annotations

import ast
import gc
import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from ulti_rules import entry_points, plugins
from ulti_rules.cli import COMMANDS, main

REPO = Path(__file__).resolve().parent.parent
HEAVY = ("pydantic", "rich", "ulti_rules.engine", "ulti_rules.ruleset.schema")
COMMAND_MODULES = sorted(
    {f"ulti_rules.cli.{c.target.partition(':')[0]}" for c in COMMANDS.values()}
)

PROBE = """
import json, sys
{setup}
print(json.dumps(sorted(sys.modules)), file=sys.__stderr__)
"""


def modules_after(setup: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``setup``."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(setup=setup)],
        cwd=REPO,
        env={**os.environ, "PYTHONUTF8": "1", "NO_COLOR": "1"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return set(found)


def run_main(*args: str) -> str:
    """The source that runs `ulti ARGS` as the console script does, output discarded."""
    return (
        "import contextlib, io\n"
        "from ulti_rules.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    try: main({list(args)!r}, prog_name='ulti')\n"
        "    except SystemExit as exit:\n"
        "        assert not exit.code, exit.code\n"
    )


# --------------------------------------------------------------------------- the lazy group


def test_help_imports_no_command_module_no_pydantic_no_rich_no_engine() -> None:
    loaded = modules_after(run_main("--help"))
    assert not [m for m in HEAVY if m in loaded]
    assert not [m for m in COMMAND_MODULES if m in loaded]
    assert "ulti_rules.plugins" not in loaded  # --help loads no plugin


def test_a_commands_help_imports_only_its_own_module() -> None:
    loaded = modules_after(run_main("simulate", "--help"))
    assert [m for m in COMMAND_MODULES if m in loaded] == ["ulti_rules.cli.simulate"]


def test_each_short_help_in_the_map_is_the_commands_own() -> None:
    ctx = click.Context(main)
    for name, lazy in COMMANDS.items():
        command = main.get_command(ctx, name)
        assert command is not None, name
        assert command.name == name
        assert lazy.help == command.get_short_help_str(limit=10_000), name


def test_help_lists_every_command_with_the_short_help_of_the_map() -> None:
    result = CliRunner().invoke(main, ["--help"], prog_name="ulti", terminal_width=200)
    assert result.exit_code == 0
    listed = result.stdout.split("Commands:\n", 1)[1].splitlines()
    assert [line.split(None, 1) for line in listed if line.strip()] == [
        [name, COMMANDS[name].help] for name in sorted(COMMANDS)
    ]


@pytest.mark.skipif(
    not hasattr(click.exceptions, "NoSuchCommand"), reason="click < 8.4 suggests no command"
)
def test_an_unknown_command_still_gets_a_did_you_mean() -> None:
    result = CliRunner().invoke(main, ["ladderr"], prog_name="ulti")
    assert result.exit_code == 2
    assert "No such command 'ladderr'" in result.stderr
    assert "Did you mean one of: 'ladder', 'ledger'?" in result.stderr


# --------------------------------------------------------------------------- the package


def test_importing_the_package_imports_none_of_its_api() -> None:
    loaded = modules_after("import ulti_rules")
    assert not [m for m in loaded if m.startswith("ulti_rules.")]
    assert "pydantic" not in loaded


def test_every_public_name_imports_and_is_listed() -> None:
    import ulti_rules

    tree = ast.parse((REPO / "ulti_rules" / "__init__.py").read_text(encoding="utf-8"))
    (checking,) = [n for n in tree.body if isinstance(n, ast.If)]  # if TYPE_CHECKING:
    typed = {a.asname or a.name for n in ast.walk(checking) if isinstance(n, ast.ImportFrom)
             for a in n.names}  # fmt: skip
    assert typed == set(ulti_rules._WHERE) == set(ulti_rules.__all__)
    namespace: dict[str, Any] = {}
    exec(f"from ulti_rules import {', '.join(ulti_rules.__all__)}", namespace)
    assert all(namespace[name] is getattr(ulti_rules, name) for name in ulti_rules.__all__)
    assert set(ulti_rules.__all__) <= set(dir(ulti_rules))
    with pytest.raises(AttributeError, match="no attribute 'Nonsense'"):
        ulti_rules.Nonsense  # noqa: B018


# --------------------------------------------------------------------------- listing rulesets


def test_listing_the_plugins_rulesets_builds_no_model() -> None:
    """The plugin manager, and the Four Aces entry module it imports, are light: the
    files the plugins ship are known without a kind, a pydantic model or the engine."""
    loaded = modules_after(
        "from ulti_rules.plugins import get_registry\n"
        "registry = get_registry()\n"
        "assert registry.fragments and registry.known_failures == [], registry.known_failures\n"
    )
    assert "ulti_four_aces" in loaded
    assert "ulti_four_aces.kind" not in loaded
    assert "ulti_rules.ruleset.ranking" not in loaded  # the rules come with the code hooks
    assert not [m for m in (*HEAVY, "ulti_rules.contracts", "ulti_rules.bots") if m in loaded]


def test_rulesets_imports_no_pydantic() -> None:
    loaded = modules_after(run_main("rulesets"))
    assert "ulti_rules.cli.rulesets" in loaded
    assert not [m for m in HEAVY if m != "rich" and m in loaded]


def test_listing_files_that_are_not_rulesets_imports_no_pydantic(tmp_path: Path) -> None:
    """A broken file, a list and a file whose title is inherited take the slow ways to a
    title (a whole read, its YAML problems, the parent's heading): still no model."""
    (tmp_path / "broken.yaml").write_text("extends: [unclosed\n", encoding="utf-8")
    (tmp_path / "listed.yaml").write_text("- a\n- b\n", encoding="utf-8")
    (tmp_path / "heir.yaml").write_text("extends: wikipedia\n", encoding="utf-8")
    loaded = modules_after(
        "import os\n"
        f"os.environ['ULTI_RULES_PATH'] = {str(tmp_path)!r}\n"
        "from ulti_rules.ruleset.finding import find_rulesets\n"
        "titles = {s.name: s.title for s in find_rulesets()}\n"
        "assert titles['broken'] == titles['listed'] == '', titles\n"
        "assert titles['heir'] == titles['wikipedia'] != '', titles\n" + run_main("rulesets")
    )
    assert "ulti_rules.cli.rulesets" in loaded
    assert not [m for m in HEAVY if m != "rich" and m in loaded]


def test_a_ladder_of_a_cached_ruleset_imports_no_yaml(tmp_path: Path) -> None:
    """With the ruleset read back from the disk cache, nothing is parsed: PyYAML's import
    (a tenth of the command's start-up) and the reader's module are left out."""
    setup = f"import os\nos.environ['ULTI_CACHE_DIR'] = {str(tmp_path)!r}\n" + run_main(
        "ladder", "wikipedia"
    )
    cold = modules_after(setup)
    assert "yaml" in cold and "ulti_rules.ruleset.schema" in cold
    warm = modules_after(setup)
    assert "ulti_rules.ruleset.schema" in warm  # the ruleset was loaded, from the cache
    assert not [m for m in ("yaml", "ulti_rules.ruleset.safe_yaml") if m in warm]


def test_the_code_hooks_wait_until_a_kind_is_needed() -> None:
    calls: list[str] = []

    class Plugin:
        @plugins.hookspecs.hookimpl
        def register_contract_kinds(self, register: Any) -> None:
            calls.append("kinds")
            raise RuntimeError("no kinds today")

        @plugins.hookspecs.hookimpl
        def register_fragments(self, register: Any) -> None:
            calls.append("fragments")
            register(REPO / "plugins" / "ulti_four_aces" / "four-aces.yaml")

    pm = plugins.new_manager(autoload=False)
    pm.register(Plugin(), name="moody")
    registry = plugins.build_registry(pm)
    assert calls == ["fragments"]
    assert [owner for _, owner in registry.fragments] == ["moody"]
    assert registry.known_failures == []
    (failure,) = registry.failures  # the first read of the code asks for it
    assert calls == ["fragments", "kinds"]
    assert str(failure) == (
        "plugin 'moody' failed in register_contract_kinds and is skipped: "
        "RuntimeError: no kinds today"
    )
    assert registry.fragments == []  # left out whole: its files too
    assert "moody" not in registry.plugins
    assert "parti" in registry.kinds


def test_a_failure_found_late_is_warned_once_by_the_cli(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Plugin:
        @plugins.hookspecs.hookimpl
        def register_contract_kinds(self, register: Any) -> None:
            raise RuntimeError("no kinds today")

    pm = plugins.new_manager(autoload=True)  # Four Aces too, which wikipedia needs
    pm.register(Plugin(), name="moody")
    plugins.reset(pm)
    monkeypatch.setenv("ULTI_DEBUG", "1")
    try:
        listed = CliRunner().invoke(main, ["rulesets"])
        ladder = CliRunner().invoke(main, ["ladder", "wikipedia", "--json"])
    finally:
        plugins.reset()
    warning = "ulti: warning: plugin 'moody' failed in register_contract_kinds and is skipped"
    assert listed.exit_code == 0 and ladder.exit_code == 0, (listed.stderr, ladder.stderr)
    assert listed.stderr.count(warning) + ladder.stderr.count(warning) == 1


# --------------------------------------------------------------------------- entry points


def test_entry_points_are_found_as_importlib_metadata_finds_them() -> None:
    found, unreadable = entry_points.find("ulti_rules")
    expected = [(ep.name, ep.value) for ep in importlib.metadata.entry_points(group="ulti_rules")]
    assert sorted((ep.name, ep.value) for ep in found) == sorted(expected)
    assert unreadable == []
    (four_aces,) = [ep for ep in found if ep.name == "four_aces"]
    version = importlib.metadata.version("ulti-rules")
    assert four_aces.dist == f"ulti-rules {version}"
    assert four_aces.load() is sys.modules["ulti_four_aces"] or four_aces.load().__name__ == (
        "ulti_four_aces"
    )


@pytest.mark.parametrize(
    "text",
    [
        "[ulti_rules]\na = m\n# a comment\nb = m.n:o.p [extra]\n\n[console_scripts]\nx=y:z\n",
        "  [ulti_rules]  \n  spaced   =   mod : attr  \n",
        "before = a section\n[ulti_rules]\nc = d\n",
    ],
)
def test_entry_points_files_are_read_as_importlib_metadata_reads_them(text: str) -> None:
    ours = entry_points.parse(text)
    theirs = importlib.metadata.EntryPoints._from_text(text)
    assert ours == [(ep.group, ep.name, ep.value) for ep in theirs]


def test_an_entry_points_line_without_a_value_is_refused_by_both() -> None:
    text = "[ulti_rules]\nno equals sign\n"
    with pytest.raises(ValueError):
        entry_points.parse(text)
    with pytest.raises((TypeError, ValueError)):
        list(importlib.metadata.EntryPoints._from_text(text))


# --------------------------------------------------------------------------- layering


def runtime_imports(path: Path) -> list[tuple[str, list[str]]]:
    """``(module, names)`` of every import in the file that is not under
    ``if TYPE_CHECKING:``, relative ones resolved against the ``ulti_rules`` package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, list[str]]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for orelse in child.orelse:
                    visit(orelse)
                continue
            if isinstance(child, ast.Import):
                found.extend((alias.name, []) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = "ulti_rules" if child.level == 1 else ""
                module = ".".join(p for p in (base, child.module or "") if p)
                found.append((module, [alias.name for alias in child.names]))
            visit(child)

    visit(tree)
    return found


@pytest.mark.parametrize("name", ["plugins.py", "hookspecs.py", "entry_points.py"])
def test_the_plugin_manager_imports_no_bot_and_not_the_package(name: str) -> None:
    package = REPO / "ulti_rules"
    for module, names in runtime_imports(package / name):
        assert not module.startswith("ulti_rules.bots"), (name, module)
        assert not (module == "ulti_rules" and "bots" in names), (name, names)
        if module == "ulti_rules":  # `from . import x`: submodules only, no public name
            for imported in names:
                assert (package / f"{imported}.py").exists() or (package / imported).is_dir()


def test_building_the_whole_registry_imports_no_bot_and_no_engine() -> None:
    loaded = modules_after(
        "from ulti_rules.plugins import get_registry\n"
        "registry = get_registry()\n"
        "assert registry.kinds and registry.ranking_rules and not registry.failures\n"
    )
    assert "ulti_four_aces.kind" in loaded
    assert not [m for m in loaded if m.startswith(("ulti_rules.bots", "ulti_rules.engine"))]


# --------------------------------------------------------------------------- a ladder's start-up


def test_a_ladder_builds_no_facts_model_and_no_game() -> None:
    """`ulti ladder` validates one ruleset: the facts models stay unbuilt (a kind only
    names them), and no game is compiled."""
    loaded = modules_after(
        run_main("ladder", "wikipedia") + "from ulti_rules.facts import Contract, Facts\n"
        "assert not Facts.__pydantic_complete__ and not Contract.__pydantic_complete__\n"
    )
    assert "ulti_rules.ruleset.schema" in loaded
    assert not [m for m in loaded if m.startswith(("ulti_rules.game", "ulti_rules.engine"))]
    # The suit words come from the rulebook's ``words``; the rulebook itself stays unread.
    assert "ulti_rules.rulebook.build" not in loaded
    assert "ulti_rules.rulebook.document" not in loaded


def test_a_command_collects_garbage_less_often_and_gives_the_collector_back() -> None:
    from ulti_rules.cli import YOUNG, _fewer_collections

    before = gc.get_threshold()
    with _fewer_collections(YOUNG):
        assert gc.get_threshold() == (YOUNG, *before[1:])
        made = [[index] for index in range(5_000)]  # containers the collector tracks
    assert gc.get_threshold() == before
    assert gc.get_count()[0] < len(made)  # what the command made counts as old now
    result = CliRunner().invoke(main, ["ladder", "wikipedia", "--json"])
    assert result.exit_code == 0, result.stderr
    assert gc.get_threshold() == before


def test_the_console_script_leaves_the_collector_as_the_command_set_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The console script's process ends with the command: giving the collector back
    walked every object the command had made once more, just before the exit."""
    from ulti_rules import console
    from ulti_rules.cli import YOUNG, _fewer_collections

    before = gc.get_threshold()
    monkeypatch.setattr(console, "ends_the_process", True)
    try:
        with _fewer_collections(YOUNG):
            made = [[index] for index in range(5_000)]
        assert gc.get_threshold() == (YOUNG, *before[1:])
        assert gc.get_count()[0] >= len(made)  # not collected on the way out
    finally:
        gc.set_threshold(*before)


def test_a_command_leaves_a_frozen_heap_frozen_and_never_counts_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A process that froze its heap (a pre-fork server; the forked ledger writers of the
    tests) keeps it frozen through a command, and the command does not count the frozen
    objects: ``gc.get_freeze_count()`` walks them one by one, 0.3 s at the end of every
    forked writer's ``ledger add``."""
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with monkeypatch.context() as patched:
            patched.setattr(gc, "get_freeze_count", lambda: pytest.fail("counted"))
            result = CliRunner().invoke(main, ["ladder", "wikipedia", "--json"])
        assert result.exit_code == 0, result.stderr
        assert gc.get_freeze_count() > frozen // 2  # a few may be freed; none unfrozen
    finally:
        gc.unfreeze()
