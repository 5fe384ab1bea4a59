"""Imports point one way: each module imports only its own layer and the layers below.

The layers (docs/architecture.md), bottom up:

0. base — cards, facts, errors, the ruleset schema and the file readers it needs;
1. kinds — contract kinds and the plugin manager;
2. rules — the loader, ladder and merge, and the ``Game`` compiled from a ruleset;
3. play — the engine and scoring;
4. tools — bots, hand records, studies and the rulebook;
5. cli — the ``ulti`` command;
6. api — the package's public names (``ulti_rules/__init__.py``).

Every import counts, also one inside a function; only imports under
``if TYPE_CHECKING:`` (type hints, never run) are free. ``ALLOWED`` lists the few
deliberate exceptions, each with its reason.

A plugin (``plugins/``, and the examples in docs/plugins.md) sits above them all: it
imports the public names of ``ulti_rules`` itself and no submodule, not even for a type.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from pathlib import Path

import pytest
import ulti_rules

PACKAGE = Path(ulti_rules.__file__).parent
REPO = PACKAGE.parent

LAYERS: dict[str, int] = {
    "cards": 0,
    "quoting": 0,
    "said": 0,
    "frozen": 0,
    "errors": 0,
    "facts": 0,
    "json_positions": 0,
    "safe_files": 0,
    "interrupts": 0,
    "seeding": 0,
    "recent": 0,
    "entry_points": 0,
    "ruleset": 0,
    "ruleset.schema": 0,
    "ruleset.frozen": 0,
    "ruleset.ranking": 0,
    "ruleset.scalars": 0,
    "ruleset.titles": 0,
    "ruleset.safe_yaml": 0,
    "ruleset.yaml_data": 0,
    "ruleset.positions": 0,
    "ruleset.hints": 0,
    "ruleset.references": 0,
    "ruleset.load_cache": 0,
    "ruleset.stamps": 0,
    "ruleset.cache_folder": 0,
    "ruleset.headings": 0,
    "ruleset.code_files": 0,
    "ruleset.pydantic_problems": 0,
    "i18n": 0,
    "contracts": 1,
    "plugins": 1,
    "hookspecs": 1,
    "ruleset.finding": 2,
    "ruleset.loading": 2,
    "ruleset.disk_cache": 2,
    "ruleset.reads": 0,
    "ruleset.merging": 2,
    "ruleset.base_merges": 2,
    "ruleset.ladder": 2,
    "game": 2,
    "engine": 3,
    "scoring": 3,
    "bots": 4,
    "records": 4,
    "rulebook": 4,
    "study": 4,
    "cli": 5,
    "console": 5,
    "": 6,
}
NAMES = ("base", "kinds", "rules", "play", "tools", "cli", "api")

ALLOWED = {
    ("game.game", "engine.hand"): "Game.new_hand, the door into the engine built on it",
    ("game.game", "scoring.settlement"): "Game.settle, the door into scoring built on it",
}


def layer(module: str) -> int:
    """The layer of a module: its longest listed prefix."""
    if module == "":
        return LAYERS[""]
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        key = ".".join(parts[:end])
        if key in LAYERS:
            return LAYERS[key]
    raise AssertionError(f"ulti_rules.{module} is in no layer: add it to LAYERS")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name: str) -> bool:
    base = PACKAGE.joinpath(*name.split(".")) if name else PACKAGE
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(path: Path) -> set[str]:
    """The ulti_rules modules ``path`` imports when run (relative to the package)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return imports_in(path.read_text(encoding="utf-8"), package)


def imports_in(source: str, package: str) -> set[str]:
    """The ulti_rules modules a module of ``package`` with this source imports when run."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            elif node.module and node.module.startswith("ulti_rules"):
                target = node.module.removeprefix("ulti_rules").lstrip(".")
            else:
                target = None
            if target is not None:
                for alias in node.names:
                    sub = f"{target}.{alias.name}" if target else alias.name
                    found.add(sub if is_module(sub) else target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("ulti_rules"):
                    found.add(alias.name.removeprefix("ulti_rules").lstrip("."))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source))
    return found


LAZY_TABLES = {
    "": "_WHERE",
    "rulebook": "_LAZY",
    "cli": "COMMANDS",
}
"""The modules that import by a name written as a string (PEP 562 ``__getattr__``, the
CLI's lazy commands): the table in each whose entries are those imports."""

STRING_IMPORTERS = {
    "": "the public names, from _WHERE",
    "rulebook": "the package's names, from _LAZY",
    "cli.lazy_group": "the commands of cli.COMMANDS",
    "entry_points": "a plugin's module, named by its distribution (outside the package)",
}
"""Every module that calls ``importlib.import_module``, and what it imports so."""


def lazy_imports(name: str) -> set[str]:
    """The modules ``ulti_rules.<name>``'s lazy table imports by name (package-relative)."""
    module = importlib.import_module(f"ulti_rules.{name}" if name else "ulti_rules")
    table = getattr(module, LAZY_TABLES[name])
    found = set()
    for entry in table.values():
        target = entry.target.partition(":")[0] if hasattr(entry, "target") else entry
        target = target if target.startswith(".") else f".{target}"
        found.add(importlib.util.resolve_name(target, module.__name__))
    return {target.removeprefix("ulti_rules").lstrip(".") for target in found}


def upward_imports() -> list[str]:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        own = layer(name)
        found = imports(path) | (lazy_imports(name) if name in LAZY_TABLES else set())
        for target in sorted(found):
            if layer(target) > own and (name, target) not in ALLOWED:
                wrong.append(
                    f"ulti_rules.{name} ({NAMES[own]}) imports ulti_rules.{target or '(package)'} "
                    f"({NAMES[layer(target)]})"
                )
    return wrong


def test_no_import_goes_up_a_layer() -> None:
    assert upward_imports() == []


def test_every_import_by_a_string_is_known() -> None:
    """A module added that imports by a string the walk cannot read is listed here, and
    its table in LAZY_TABLES if its targets are modules of the package."""
    calling = {
        module_name(path)
        for path in PACKAGE.rglob("*.py")
        if string_imports(path.read_text(encoding="utf-8"))
    }
    assert calling == set(STRING_IMPORTERS)
    assert lazy_imports("rulebook") == {"rulebook.build", "rulebook.document"}
    assert "scoring.settlement" in lazy_imports("") and "cli.score" in lazy_imports("cli")


def string_imports(source: str) -> int:
    """How many calls import by a string: ``importlib.import_module``, ``import_module``
    imported from importlib (under any name), ``__import__`` (``builtins.__import__``)."""
    tree = ast.parse(source)
    bare = {"import_module", "__import__"} | {
        alias.asname
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "importlib"
        for alias in node.names
        if alias.name == "import_module" and alias.asname
    }
    return sum(
        isinstance(node, ast.Call)
        and (
            getattr(node.func, "attr", None) in ("import_module", "__import__")
            or getattr(node.func, "id", None) in bare
        )
        for node in ast.walk(tree)
    )


def test_the_string_import_check_sees_each_form() -> None:
    source = (
        "import builtins, importlib\nfrom importlib import import_module\n"
        "from importlib import import_module as load\n"
        "importlib.import_module('ulti_rules.cli')\nimport_module('x')\n__import__('y')\n"
        "builtins.__import__('z')\nload('w')\n"
    )
    assert string_imports(source) == 5


def test_the_walk_sees_an_upward_import_in_a_lazy_table(monkeypatch: pytest.MonkeyPatch) -> None:
    import ulti_rules.rulebook

    monkeypatch.setitem(ulti_rules.rulebook._LAZY, "main", "..cli")
    assert upward_imports() == ["ulti_rules.rulebook (tools) imports ulti_rules.cli (cli)"]


def test_every_module_has_a_layer() -> None:
    for path in PACKAGE.rglob("*.py"):
        layer(module_name(path))


def test_the_allowed_exceptions_still_exist() -> None:
    """An exception nobody needs any more is taken out of the list."""
    for name, target in ALLOWED:
        path = PACKAGE.joinpath(*name.split(".")).with_suffix(".py")
        assert target in imports(path), (name, target)


def test_the_walk_sees_an_upward_import_inside_a_function() -> None:
    """The check itself: an import in a function body counts, one under TYPE_CHECKING not;
    ``from . import x`` names the module x."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import schema\n"
        "if TYPE_CHECKING:\n    from ..engine import Hand\n"
        "def f():\n    from ..cli import main\n"
    )
    assert imports_in(source, "ruleset") == {"cli", "ruleset.schema"}


def submodule_imports(source: str) -> list[str]:
    """The ``ulti_rules`` submodules a plugin's source imports, TYPE_CHECKING included
    (``from ulti_rules import engine`` too: that is the submodule, not a public name), or
    reaches as an attribute of the package (``ulti_rules.plugins.reset()``)."""
    found = []
    tree = ast.parse(source)
    package = {"ulti_rules"} | {
        alias.asname
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name == "ulti_rules" and alias.asname
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in package
            and is_module(node.attr)
        ):
            names = [f"ulti_rules.{node.attr}"]
        elif isinstance(node, ast.ImportFrom) and node.module == "ulti_rules" and not node.level:
            names = [f"ulti_rules.{a.name}" for a in node.names if is_module(a.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [name for name in names if name.startswith("ulti_rules.")]
    return found


def plugin_sources() -> dict[str, str]:
    """Every plugin module in the repository, and each Python example of docs/plugins.md."""
    sources = {
        str(path.relative_to(REPO)): path.read_text(encoding="utf-8")
        for path in sorted((REPO / "plugins").rglob("*.py"))
    }
    guide = (REPO / "docs" / "plugins.md").read_text(encoding="utf-8")
    for number, block in enumerate(re.findall(r"```python\n(.*?)```", guide, re.S), 1):
        sources[f"docs/plugins.md, example {number}"] = block
    return sources


def test_plugins_import_only_the_public_names() -> None:
    """The Four Aces plugin took its message marker and translator from
    ``ulti_rules.i18n``, as did the guide that says a plugin never imports a submodule."""
    sources = plugin_sources()
    assert any(name.startswith("plugins/") for name in sources)
    assert any(name.startswith("docs/") for name in sources)
    wrong = {
        name: found for name, source in sources.items() if (found := submodule_imports(source))
    }
    assert wrong == {}


def test_the_plugin_check_sees_a_submodule_import() -> None:
    source = (
        "from ulti_rules import Hand\n"
        "import ulti_rules\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from ulti_rules.engine import Hand\n"
        "def f():\n    import ulti_rules.i18n\n"
        "from ulti_rules import Game, scoring\n"
        "ulti_rules.plugins.reset()\nulti_rules.load_game('wikipedia')\n"
        "import ulti_rules as u\nu.records.save\n"
    )
    assert sorted(submodule_imports(source)) == [
        "ulti_rules.engine",
        "ulti_rules.i18n",
        "ulti_rules.plugins",
        "ulti_rules.records",
        "ulti_rules.scoring",
    ]


def picture_layers() -> dict[str, int]:
    """Each module or folder docs/architecture.md's picture of the layers names, and the
    layer it is drawn in (a file named bare, ``hints.py``, as its file name)."""
    doc = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    picture = doc.split("## The layers", 1)[1].split("```", 2)[1]
    drawn: dict[str, int] = {}
    number = -1
    for line in picture.splitlines():
        head = re.match(r"\s*(\d)\s+(\w+)\s", line)
        if head:
            number = int(head.group(1))
            assert NAMES[number] == head.group(2), line
        line = re.sub(r"\([^)]*\)", "", line)  # the words in brackets name no module
        for found in re.findall(r"(?:ulti_rules/)?([a-z0-9_]+(?:/[a-z0-9_]+)*(?:\.py|/))", line):
            drawn[found] = number
    return drawn


def test_the_picture_in_docs_architecture_is_the_layers() -> None:
    """Every module the picture draws is in that layer of ``LAYERS``, and every layer of
    ``LAYERS`` is drawn."""
    drawn = picture_layers()
    modules = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    wrong = []
    for name, number in drawn.items():
        if name.endswith("/"):  # a folder: its package
            candidates = [name.rstrip("/").replace("/", ".")]
        elif "/" in name:
            candidates = [name.removesuffix(".py").replace("/", ".")]
        else:  # a file named bare: any module of that file name
            stem = name.removesuffix(".py")
            candidates = [m for m in modules if m.rpartition(".")[2] == stem or m == stem]
            candidates = candidates or ([""] if name == "__init__.py" else [])
        layers = {layer(m) for m in candidates if m in modules or m == ""}
        if number not in layers:
            wrong.append(f"{name} drawn in {NAMES[number]}, in {sorted(NAMES[n] for n in layers)}")
    assert wrong == []
    assert set(drawn.values()) == set(range(len(NAMES)))
    assert len(drawn) > 40
