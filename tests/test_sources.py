"""What ships cites sources a user can find, and every ``docs/rules.md#...`` it cites exists.

The project's notes and the original rule texts behind them (``RULES.md``, ``seeds/...``)
are not in the package: a bundled file names the public document by title, or a section
of docs/rules.md, which ships. A bare ``§4.2`` is such a note's section number, so it is
refused too.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
SHIPPED = ("rulesets", "plugins", "docs", "README.md", "ulti_rules")
TEXT = {".py", ".yaml", ".yml", ".md", ".txt", ".toml", ".json", ".cfg", ".ini", ".po", ".html"}
UNSHIPPED = re.compile(r"RULES\.md|RULES §|seeds/|§\s*\d")
CITED = re.compile(r"rules\.md#([\w-]+)")
HEADING = re.compile(r"^(#{1,6}) +(.+?) *#*$")
FENCE = re.compile(r"^(```|~~~)")


def text_files(*tops: str) -> list[Path]:
    """The text files under these paths, caches left out."""
    found: list[Path] = []
    for top in tops:
        path = ROOT / top
        candidates = [path] if path.is_file() else sorted(path.rglob("*"))
        found += [
            p
            for p in candidates
            if p.is_file() and p.suffix in TEXT and "__pycache__" not in p.parts
        ]
    return found


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation out, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def headings(path: Path) -> list[str]:
    """The headings of a markdown file, outside code blocks."""
    found, fenced = [], False
    for line in path.read_text("utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and (match := HEADING.match(line)):
            found.append(match.group(2))
    return found


def anchors(path: Path) -> set[str]:
    """Every anchor of a markdown file, repeated headings numbered as GitHub numbers them."""
    found: set[str] = set()
    counts: dict[str, int] = {}
    for heading in headings(path):
        base = slug(heading)
        count = counts.get(base, 0)
        counts[base] = count + 1
        found.add(f"{base}-{count}" if count else base)
    return found


def test_slug_follows_github() -> None:
    assert slug("The Ulti penalty") == "the-ulti-penalty"
    assert slug("40-100 and 20-100") == "40-100-and-20-100"
    assert slug("`ranking`: the order of the ladder") == "ranking-the-order-of-the-ladder"
    assert slug("`open_games`") == "open_games"


def test_shipped_files_cite_no_unshipped_notes() -> None:
    bad = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in text_files(*SHIPPED)
        for number, line in enumerate(path.read_text("utf-8", errors="replace").splitlines(), 1)
        if UNSHIPPED.search(line)
    ]
    assert not bad, (
        "cite the public source by title or a docs/rules.md section instead:\n" + "\n".join(bad)
    )


def test_every_cited_rules_anchor_exists() -> None:
    known = anchors(RULES)
    missing = [
        f"{path.relative_to(ROOT)}:{number}: #{anchor}"
        for path in text_files(*SHIPPED, "tests", "benchmarks")
        for number, line in enumerate(path.read_text("utf-8", errors="replace").splitlines(), 1)
        for anchor in CITED.findall(line)
        if anchor not in known
    ]
    assert not missing, "docs/rules.md has no such section:\n" + "\n".join(missing)


def test_links_in_rules_reach_their_sections() -> None:
    """rules.md's links to its own sections and to the other docs' sections all land."""
    text = RULES.read_text("utf-8")
    missing = []
    for target, anchor in re.findall(r"\]\(([\w./-]*)#([\w-]+)\)", text):
        doc = RULES if not target else RULES.parent / target
        if not doc.is_file() or anchor not in anchors(doc):
            missing.append(f"{target}#{anchor}")
    assert not missing, f"docs/rules.md links to sections that do not exist: {missing}"


def test_rules_headings_give_the_same_anchor_everywhere() -> None:
    """Plain headings (letters, digits, single spaces and hyphens) get the same anchor from
    GitHub and from a docs generator's slug, so citations stay valid wherever it is read."""
    odd = [h for h in headings(RULES) if not re.fullmatch(r"[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*", h)]
    assert not odd, f"headings that different generators would anchor differently: {odd}"
    slugs = [slug(h) for h in headings(RULES)]
    assert len(set(slugs)) == len(slugs), "two headings share an anchor"


def test_rules_names_its_sources_by_public_title() -> None:
    text = RULES.read_text("utf-8")
    for title in (
        'Wikipedia article "Ulti"',
        '"Ulti – Ausführliche Regeln"',
        '"Egy kis szabályismertető"',
        "GameTwist",
        '"Ulti – Come si gioca"',
        '"Klasszikus önrablós"',
    ):
        assert title in text, title
