"""The HTML rulebook opened in headless Chromium (Debian package ``chromium``): it loads,
its headings and tables are in the DOM, and the browser logs no console message.

Skipped where Chromium is missing, unless ``ULTI_REQUIRE_CHROMIUM=1`` (CI), which makes a
missing browser a failure. The page has no script, so a console message can only be an
error the page caused (a refused resource, a parse problem): the browser's log on stderr
(``--enable-logging=stderr``) must hold no ``CONSOLE`` line and no ``Uncaught``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from html import escape
from pathlib import Path

import pytest
from ulti_rules.rulebook import Table, load_rulebook, render

REQUIRE_ENV = "ULTI_REQUIRE_CHROMIUM"
CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser")


def chromium() -> str:
    for candidate in CANDIDATES:
        found = shutil.which(candidate)
        if found:
            return found
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{REQUIRE_ENV}=1 but there is no Chromium: apt-get install -y chromium")
    pytest.skip("no Chromium here (apt-get install -y chromium; CI sets ULTI_REQUIRE_CHROMIUM=1)")


def open_page(browser: str, page: Path, profile: Path) -> subprocess.CompletedProcess[str]:
    """Chromium's DOM of ``page`` after loading it, and its log."""
    return subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile}",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def console_lines(log: str) -> list[str]:
    return [line for line in log.splitlines() if "CONSOLE" in line or "Uncaught" in line]


def test_the_hungarian_rulebook_opens_in_chromium_without_console_errors(tmp_path: Path) -> None:
    browser = chromium()
    book = load_rulebook("wikipedia", "hu")
    page = tmp_path / "wikipedia-hu.html"
    page.write_text(render(book, "html"), encoding="utf-8")
    done = open_page(browser, page, tmp_path / "profile")
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert '<html lang="hu">' in dom
    assert f"<h1>{escape(book.title)}</h1>" in dom
    for section in book.sections:
        assert escape(section.title) in dom, section.title
    tables = [b for s in book.sections for b in s.blocks if isinstance(b, Table)]
    assert dom.count("<table>") == len(tables) == 3  # ranks, the ladder, the kontra chain
    assert "<td>piros parti</td>" in dom
    assert console_lines(done.stderr) == []


def test_a_page_that_logs_to_the_console_is_caught(tmp_path: Path) -> None:
    """The check above itself: a page that logs to the console fails it (a test of its
    own: each Chromium start takes about 1.4 s, and no test may take 3)."""
    browser = chromium()
    noisy = tmp_path / "noisy.html"
    noisy.write_text(
        '<!DOCTYPE html><html lang="en"><body><script>console.error("boom")</script></body></html>',
        encoding="utf-8",
    )
    assert console_lines(open_page(browser, noisy, tmp_path / "profile").stderr) != []
