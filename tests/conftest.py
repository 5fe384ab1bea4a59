"""Shared fixtures: a sealed environment, and `ulti` run in-process (or as a real process).

Every test runs with ``ULTI_RULES_PATH`` and ``XDG_CONFIG_HOME`` pointing at empty
temporary folders, so a developer's own club files never change a result, and with the
disk cache of validated rulesets off (``ULTI_CACHE_DIR=``).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest
import yaml
from ulti_rules import plugins

import plugin_site

REPO = Path(__file__).resolve().parent.parent
BUNDLED_RULESETS = ("wikipedia", "tournament", "older-20-100", "four-player", "two-round-auction")

RunUlti = Callable[..., subprocess.CompletedProcess[str]]

# Ctrl-C is tested by sending SIGINT to `ulti` and to forked writers. A shell starts a
# background job (`bash .ci/run &`) with SIGINT ignored, and an ignored signal stays
# ignored through fork and exec, so every such test failed there: the tests take Ctrl-C
# back as Python's own, which every process they start then inherits as the default.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _import_without_assertion_rewriting(*names: str) -> None:
    """Import ``names`` past pytest's assertion-rewriting import hook.

    hypothesis is a pytest plugin, so pytest marks every module of its distribution for
    rewriting, and where bytecode is not written (``PYTHONDONTWRITEBYTECODE``, as on
    these machines) each process parsed and rewrote its 73 modules again: importing it
    took 0.69 s of CPU instead of 0.09 s, in every xdist worker. Our tests' asserts are
    rewritten as before; hypothesis's own asserts are its internal checks."""
    hooks = [f for f in sys.meta_path if type(f).__name__ == "AssertionRewritingHook"]
    for hook in hooks:
        sys.meta_path.remove(hook)
    try:
        for name in names:
            # Not installed: the tests that use it say so themselves.
            with contextlib.suppress(ImportError):
                __import__(name)
    finally:
        sys.meta_path[:0] = hooks


_import_without_assertion_rewriting("hypothesis", "hypothesis.strategies")


def _end_without_teardown() -> None:
    """Registered as an xdist worker is configured, before the modules the tests import
    register theirs (multiprocessing's among them), so it runs after them: the worker
    has handed every result over by then, and the interpreter's teardown of its heap
    (every module and object of some 1,400 tests) took about 1.6 s at the end of each
    run."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


GC_THRESHOLDS = (10_000, 20, 100)
"""The cyclic garbage collector's thresholds in a test process (Python's: 700, 10, 10).
A worker keeps some 400,000 objects alive (modules, collected tests, loaded rulesets,
hypothesis's state), and with Python's thresholds each of its full collections (34 and
53 in the two workers of one run) walked them all: 11.6 s of the suite's CPU went to
collecting (timed with ``gc.callbacks`` in both workers), 4.8 s with these (docs/
performance.md, "The test suite"). Cyclic garbage still goes, later."""


def pytest_configure(config: pytest.Config) -> None:
    gc.set_threshold(*GC_THRESHOLDS)
    if hasattr(config, "workerinput"):  # this process is an xdist worker, not a child of one
        atexit.register(_end_without_teardown)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--generated-examples",
        type=int,
        default=None,
        help="clubs drawn by tests/test_generated_rulesets.py (default 50, the same draws "
        "every run; more draws new ones each run)",
    )


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The checkout under test."""
    return REPO


@pytest.fixture(scope="session")
def bundled_names() -> tuple[str, ...]:
    """The rulesets that ship with the package."""
    return BUNDLED_RULESETS


_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed:
        item.stash[_FAILED] = True
    return report


@pytest.fixture
def tmp_path(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Path]:
    """pytest's ``tmp_path``, a new folder for each test, kept or removed as the test ends
    by ``tmp_path_retention_policy`` (here "failed": only a failed test's is kept), made
    in a folder of its own: pytest's leaves a ``<name>current`` link beside the folders
    for each test name, and making a folder and a link among some 1,500 of them cost
    about 2 ms a test on the ext4 of these machines."""
    base = tmp_path_factory.getbasetemp() / "tests"
    base.mkdir(exist_ok=True)
    prefix = re.sub(r"[\W]", "_", request.node.name)[:30] + "-"
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=base))
    yield path
    policy = request.config.getini("tmp_path_retention_policy")
    failed = request.node.stash.get(_FAILED, False)
    if policy == "none" or (policy == "failed" and not failed):
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(autouse=True)
def process_registry_kept() -> Iterator[None]:
    """Every test leaves the process's plugin manager and registry as it found them.

    A test that installs its own (``plugins.reset(pm)``) and then forgets it left a new
    registry behind, and rulesets a later test had cached (validated against the one
    before) were refused beside it: the suite failed run in one process (``pytest``
    without ``-n``) and passed under ``-n auto`` by the order of the files alone."""
    kept = plugins._manager, plugins._registry
    yield
    plugins._manager, plugins._registry = kept


def _new_user_folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """A home with an empty rulesets folder and an empty config folder."""
    home = tmp_path_factory.mktemp("home")
    rules = home / "rules"
    config = home / "config"
    rules.mkdir()
    config.mkdir()
    return home, rules, config


def _seal(monkeypatch: pytest.MonkeyPatch, rules: Path, config: Path) -> None:
    monkeypatch.setenv("ULTI_RULES_PATH", str(rules))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))


@pytest.fixture(scope="session")
def _shared_empty_user_folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    _, rules, config = _new_user_folders(tmp_path_factory)
    return rules, config


@pytest.fixture(autouse=True)
def _sealed_from_the_user(
    _shared_empty_user_folders: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """No test sees the user's own rulesets or settings: the user folders are empty ones,
    shared by the tests that only read them (three folders made and removed for each of
    some 2,800 tests cost about two seconds of a run). A test that writes there asks for
    ``sealed_user_folders``, folders of its own; one that writes into the shared ones
    anyway fails, and they are emptied for the next."""
    rules, config = _shared_empty_user_folders
    _seal(monkeypatch, rules, config)
    monkeypatch.delenv("ULTI_RULES_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    # Nor the user's cache of validated rulesets: off, unless a test gives it a folder
    # (tests/test_disk_cache.py), so that every other test validates what it loads.
    monkeypatch.setenv("ULTI_CACHE_DIR", "")
    yield
    ours = config / "ulti-rules"  # other programs' settings (matplotlib's, chromium's) may stay
    written = sorted(os.listdir(rules)) + (["ulti-rules"] if ours.exists() else [])
    if written:
        shutil.rmtree(rules)
        rules.mkdir()
        shutil.rmtree(ours, ignore_errors=True)
        pytest.fail(
            f"the test wrote {written} into the shared empty user folders; "
            "ask for the `sealed_user_folders` fixture to get folders of its own"
        )


@pytest.fixture
def sealed_user_folders(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """Empty user folders of this test's own; returns the ``ULTI_RULES_PATH`` folder.
    Removed as the test ends, so that they do not pile up beside every test's folder."""
    home, rules, config = _new_user_folders(tmp_path_factory)
    _seal(monkeypatch, rules, config)
    yield rules
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def club_fixtures_in_rulesets_path(
    sealed_user_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tests/fixtures/rulesets is a rulesets folder too, so a score sheet written in a
    temporary folder may name a club fixture by its path (docs/security.md)."""
    fixtures = REPO / "tests" / "fixtures" / "rulesets"
    monkeypatch.setenv(
        "ULTI_RULES_PATH", os.pathsep.join([str(sealed_user_folders), str(fixtures)])
    )


def yaml_text(data: object) -> str:
    """``data`` as a YAML document, keys in their order, written by libyaml where PyYAML
    has it: the pure-Python writer took 40% of the time of the tests that write whole
    rulesets (the text is the same YAML to every reader)."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False)


def ulti_executable() -> str:
    """The `ulti` script installed next to this interpreter (the venv under test)."""
    beside = Path(sys.executable).parent / ("ulti.exe" if os.name == "nt" else "ulti")
    if beside.exists():
        return str(beside)
    found = shutil.which("ulti")
    if found is None:
        pytest.fail("the `ulti` entry point is not installed; run `pip install -e '.[dev]'` first")
    return found


@pytest.fixture
def ulti(tmp_path: Path) -> RunUlti:
    """Run `ulti` as a person would, but in-process (click's CliRunner): no tty, in
    ``tmp_path``, stdout and stderr apart, a ``CompletedProcess`` back. Starting the
    console script costs about half a second each, so the real subprocess is kept for the
    few tests about the script itself (``ulti_process``).

    ``ULTI_DEBUG=1`` makes an unexpected exception escape, and every call asserts that
    none did, so a bug can never pass as a clean user error.
    """
    from click.testing import CliRunner
    from ulti_rules.cli import main

    def run(
        *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, input: str = ""
    ) -> subprocess.CompletedProcess[str]:
        full_env = {"ULTI_DEBUG": "1", "PYTHONUTF8": "1", "NO_COLOR": "1", **(env or {})}
        before = os.getcwd()
        os.chdir(cwd or tmp_path)
        try:
            result = CliRunner().invoke(
                main, list(args), env=full_env, input=input, prog_name="ulti"
            )
        finally:
            os.chdir(before)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        done = subprocess.CompletedProcess(
            ["ulti", *args], result.exit_code, result.stdout, result.stderr
        )
        assert "Traceback" not in done.stderr, done.stderr
        assert "internal error" not in done.stderr, done.stderr
        return done

    return run


@pytest.fixture
def ulti_process(tmp_path: Path) -> RunUlti:
    """Run the installed `ulti` console script as a real subprocess, no tty, in
    ``tmp_path``: for the tests about the script, its exit codes and packaging."""
    exe = ulti_executable()

    def run(
        *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        full_env = dict(os.environ, ULTI_DEBUG="1", PYTHONUTF8="1", NO_COLOR="1")
        full_env.update(env or {})
        result = subprocess.run(
            [exe, *args],
            cwd=cwd or tmp_path,
            env=full_env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
        )
        assert "Traceback" not in result.stderr, result.stderr
        assert "internal error" not in result.stderr, result.stderr
        return result

    return run


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[plugin_site.Site]:
    """A folder on sys.path for made-up plugin distributions (``plugin_site.Site``), the
    plugin registry forgotten before and after."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.chdir(tmp_path)
    plugins.reset()
    made = plugin_site.Site(folder)
    yield made
    plugins.reset()
    for module in made.modules:
        sys.modules.pop(module, None)
