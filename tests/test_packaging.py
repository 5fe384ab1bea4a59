"""The wheel works on its own: bundled rulesets and the Four Aces plugin travel inside it.

The editable install that the other tests use reads rulesets/ from the checkout,
so only an installed wheel shows that ``force-include`` and the entry point are
right. The wheel goes into a fresh venv that borrows the already-installed
dependencies (a path line in a .pth file) instead of downloading them; a path line
does not run the checkout's editable-install hook, so ``ulti_rules`` can only come
from the wheel.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path
    workdir: Path

    @property
    def bin(self) -> Path:
        return self.venv / ("Scripts" if os.name == "nt" else "bin")

    def run(self, *args: str | Path) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ, ULTI_DEBUG="1", PYTHONUTF8="1", NO_COLOR="1")
        env.pop("PYTHONPATH", None)
        # The wheel is installed without bytecode (``--no-compile``): the first run that
        # imports a module compiles it and keeps the bytecode beside it, as a first use
        # of any installed package does, and the later runs read it (a machine that sets
        # PYTHONDONTWRITEBYTECODE made every run compile it all again: 2.8 s for the
        # ladder test's two runs, near the 3 s a test may take).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        result = subprocess.run(
            [str(a) for a in args],
            cwd=self.workdir,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
        )
        assert "Traceback" not in result.stderr, result.stderr
        return result


def _check(cmd: list[str], cwd: Path) -> None:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> Iterator[Installed]:
    try:
        import hatchling  # noqa: F401
    except ImportError:
        pytest.fail("hatchling is needed to build the wheel: pip install -e '.[dev]'")
    root = tmp_path_factory.mktemp("packaging")
    dist = root / "dist"
    # The build backend's own PEP 517 hook, as `pip wheel --no-build-isolation` calls it
    # (the same wheel, byte for byte, without starting pip once more).
    build = f"from hatchling.build import build_wheel; build_wheel({str(dist)!r})"
    _check([sys.executable, "-c", build], cwd=repo_root)
    wheels = list(dist.glob("ulti_rules-*.whl"))
    assert len(wheels) == 1, wheels
    venv = root / "venv"
    _check([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=root)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    borrowed = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site, "borrowed_dependencies.pth").write_text("\n".join(sorted(borrowed)) + "\n")
    # pip as the new venv's own interpreter runs it (it is borrowed with the rest):
    # `pip --python` starts pip twice, 1.4 s more of a suite held to a minute.
    _check(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "--no-compile",  # each run compiles what it imports: no phase of a test over 3 s
            "--quiet",
            str(wheels[0]),
        ],
        cwd=root,
    )
    workdir = root / "elsewhere"
    workdir.mkdir()
    yield Installed(wheels[0], venv, workdir)


def test_wheel_holds_bundled_rulesets_and_the_plugin(
    installed: Installed, bundled_names: tuple[str, ...]
) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        entry_text = wheel.read(entry_points).decode()
    for name in bundled_names:
        assert f"ulti_rules/_bundled/{name}.yaml" in names
    assert "ulti_four_aces/__init__.py" in names
    assert "ulti_rules/py.typed" in names
    assert "ulti_four_aces/py.typed" in names
    assert "[ulti_rules]\nfour_aces = ulti_four_aces" in entry_text
    assert "ulti = ulti_rules.console:main" in entry_text
    assert not any(n.startswith(("tests/", "rulesets/", "plugins/")) for n in names)


def test_installed_package_comes_from_the_wheel(installed: Installed) -> None:
    result = installed.run(
        installed.bin / "python",
        "-c",
        "import ulti_rules, ulti_four_aces; "
        "print(ulti_rules.__file__); print(ulti_four_aces.__file__)",
    )
    assert result.returncode == 0, result.stderr
    for line in result.stdout.splitlines():
        assert Path(line).resolve().is_relative_to(installed.venv.resolve()), line


def test_installed_ulti_lists_the_bundled_rulesets(
    installed: Installed, bundled_names: tuple[str, ...], repo_root: Path
) -> None:
    result = installed.run(installed.bin / "ulti", "rulesets")
    assert result.returncode == 0, result.stderr
    for name in bundled_names:
        assert f" {name} " in result.stdout
        assert f"_bundled{os.sep}{name}.yaml" in result.stdout
    assert str(repo_root / "rulesets") not in result.stdout


def test_installed_ulti_prints_ladders(installed: Installed) -> None:
    table = installed.run(installed.bin / "ulti", "ladder", "tournament")
    assert table.returncode == 0, table.stderr
    assert "Ulti" in table.stdout
    as_json = installed.run(installed.bin / "ulti", "ladder", "wikipedia", "--json")
    assert as_json.returncode == 0, as_json.stderr
    rows = json.loads(as_json.stdout)
    assert len(rows) == 54
    # Four Aces bids exist only because the plugin registered its kind from the wheel.
    assert any(c["id"] == "four_aces" for row in rows for c in row["components"])
