"""`ulti rulebook`: every setting as a sentence in each language, the structure of the
document, golden snippets, and the three formats."""

from __future__ import annotations

import errno
import gettext
import json
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from ulti_rules import safe_files
from ulti_rules.contracts.base import ContractKind
from ulti_rules.contracts.builtin import BetliSpec
from ulti_rules.i18n import LANGS, Translator, translator
from ulti_rules.plugins import get_registry
from ulti_rules.rulebook import Items, Paragraph, Table, build_rulebook, load_rulebook, render
from ulti_rules.rulebook.kinds import kind_sentences
from ulti_rules.rulebook.words import Words
from ulti_rules.ruleset.loading import load_game, load_raw, load_ruleset

from conftest import BUNDLED_RULESETS, RunUlti
from rulebook_support import CLUBS, schema_settings

EVERY = (*BUNDLED_RULESETS, *map(str, CLUBS))
SECTIONS = (
    "about",
    "players",
    "cards",
    "auction",
    "contracts",
    "ladder",
    "trump",
    "open",
    "play",
    "marriages",
    "kontra",
    "silent",
    "simple",
    "settlement",
    "session",
    "ids",
    "sources",
)


def text_of(name: str, lang: str) -> str:
    return render(load_rulebook(name, lang), "text")


# --------------------------------------------------------------------------- every setting


class StrictCatalogue(gettext.NullTranslations):
    """A catalogue that fails on a message it does not hold (instead of printing English):
    the rulebook asks it for every sentence it writes."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.real = translator(lang).catalogue

    def gettext(self, message: str) -> str:
        text = self.real.gettext(message)
        assert text != message or message in ("Kontra",), f"not in the catalogue: {message!r}"
        return text

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        text = self.real.ngettext(singular, plural, n)
        assert text not in (singular, plural), f"not in the catalogue: {singular!r}"
        return text


@pytest.mark.parametrize("lang", LANGS)
def test_every_setting_of_the_schema_has_a_sentence(lang: str) -> None:
    """Each setting (walked from the pydantic models, plugin kinds included) is stated by
    some sentence or table of the rulebooks of the bundled rulesets and the test clubs,
    in each language; and every sentence names only settings that exist."""
    settings = schema_settings()
    stated: set[str] = set()
    for name in EVERY:
        book = load_rulebook(name, lang)
        for block in book.blocks():
            if block.settings:
                text = block.text if isinstance(block, Paragraph) else str(block)
                assert text.strip(), (name, block)
            stated |= set(block.settings)
    assert sorted(settings - stated) == [], "settings with no sentence in the rulebook"
    assert sorted(stated - settings) == [], "sentences that name no setting"


@pytest.mark.parametrize("lang", ("hu", "de"))
def test_every_sentence_comes_from_the_catalogue(lang: str) -> None:
    """Not one English sentence slips into a Hungarian or German rulebook."""
    strict = Translator(lang, StrictCatalogue(lang))
    registry = get_registry()
    for name in EVERY:
        ruleset = load_ruleset(name, registry)
        build_rulebook(ruleset, lang, registry=registry, raw=load_raw(name), text=strict)


# --------------------------------------------------------------------------- structure


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_rulebook_has_its_sections_in_order(name: str, lang: str) -> None:
    book = load_rulebook(name, lang)
    assert tuple(section.key for section in book.sections) == SECTIONS
    assert book.lang == lang
    assert all(section.blocks for section in book.sections)
    english = load_rulebook(name, "en")
    if lang != "en":
        assert book.title != english.title
        for ours, theirs in zip(book.sections, english.sections, strict=True):
            assert ours.title != theirs.title or ours.title == "Kontra", ours.title
    ladder = [b for b in book.section("ladder").blocks if isinstance(b, Table)]
    assert len(ladder) == 1
    assert len(ladder[0].rows) == len(load_ruleset(name).ladder)


def test_the_ladder_table_is_the_rulesets_ladder_with_totals_and_ranks() -> None:
    book = load_rulebook("wikipedia", "hu")
    (table,) = [b for b in book.section("ladder").blocks if isinstance(b, Table)]
    assert table.header[:4] == ("Rang", "Érték", "Komponensek", "Bemondás")
    rows = {row[3]: row for row in table.rows}
    assert rows["piros parti"][:3] == ("2", "2", "2")
    assert rows["ulti"][:3] == ("5", "5", "1+4")
    assert rows["piros ulti"][:3] == ("13", "10", "2+8")
    assert table.caption == "54 bemondás, 42 rangon"


# --------------------------------------------------------------------------- golden snippets

GOLDEN = [
    ("wikipedia", "en", "Ulti — Worth 4. The declarer must win the last trick with the trump 7."),
    ("wikipedia", "en", "Kontra may be called from the end of the auction until the second"),
    ("wikipedia", "hu", "Ulti — Értéke 4. A felvevőnek az utolsó ütést az aduhetessel kell"),
    ("wikipedia", "hu", "Hárman játszanak, mindenki a maga javára."),
    ("wikipedia", "hu", "  * Négy ász — Értéke 4. A felvevőnek el kell vinnie minden ütést,"),
    ("wikipedia", "de", "Der Alleinspieler muss den letzten Stich mit der Trumpf-7 machen."),
    ("wikipedia", "de", "Bei einem Bestandteil mit Trumpf gilt ein Kontra für beide Gegner."),
    ("wikipedia", "de", "Vier Asse — Wert 4. Der Alleinspieler muss jeden Stich machen, in"),
    ("tournament", "en", "The chain stops at Rekontra (level 2)."),
    ("tournament", "en", "It leaves out the rule fragment four-aces of the rules it builds on."),
    ("tournament", "hu", "Mindenki ellen megy: a védőnek, aki eléri, a felvevő és a másik"),
    ("tournament", "de", "Die Gebote stehen allein nach ihrem Gesamtwert."),
    ("older-20-100", "de", "„Das Herz-Ass gibt“: Merkt euch, wer am Ende des nächsten Bietens"),
    ("older-20-100", "hu", "A 20 és a 40 csak a 100-ba számít; a parti sorsát egyedül a pontok"),
    ("older-20-100", "en", "Kontra is called with one's own card to the first trick."),
    ("four-player", "en", "Four sit at the table, but only three play each hand: the dealer"),
    ("two-round-auction", "en", "The auction is played in two rounds. In the first round each"),
    ("two-round-auction", "de", "Geboten wird in zwei Durchgängen. Im ersten hat jeder 5 Karten."),
    # the chain ends at Rekontra there: "and the calls after it" named none
    ("tournament", "en", "Rekontra may be made until the second trick is led."),
    ("wikipedia", "en", "Rekontra and the calls after it may be made until the second trick"),
    # a raise counts as usual, and the first round's ×2 is on the settlement's lines
    # (the rulebook said neither: an acceptance review)
    (
        "two-round-auction",
        "en",
        "A first-round bid counts 2 times, with the kontras on it, for as long as it stands: "
        "the winner's raise, and any later bid, counts as usual.",
    ),
    (
        "two-round-auction",
        "en",
        "A bid that stood from the first round counts 2 times on the lines of its components, "
        "penalties included; the silent bonuses' lines do not.",
    ),
]


@pytest.mark.parametrize(("name", "lang", "snippet"), GOLDEN)
def test_golden_snippets(name: str, lang: str, snippet: str) -> None:
    """Sentences as the text prints them (wrapping aside)."""
    assert " ".join(snippet.split()) in " ".join(text_of(name, lang).split())


def test_the_rulesets_own_names_are_used() -> None:
    hu = text_of("wikipedia", "hu")
    for name in ("piros parti", "ulti", "betli", "durchmars", "terített betli", "Fedák Sári"):
        assert name in hu
    de = text_of("wikipedia", "de")
    for name in ("Herz-Parti", "Vier Asse", "Rekontra", "Stich", "Trumpf", "Kontra"):
        assert name in de


# --------------------------------------------------------------------------- kinds


class Mystery(ContractKind):
    """Mystery: the declarer does something no sentence was written for."""

    name = "mystery"
    params = BetliSpec


def test_a_kind_without_sentences_is_described_and_a_plugin_kind_speaks_for_itself() -> None:
    registry = get_registry()
    ruleset = load_ruleset("wikipedia", registry)
    w = Words(ruleset, registry, translator("de"))
    spec = ruleset.contracts["betli"]
    assert kind_sentences(w, Mystery(), spec) == [(Mystery().describe(), ())]
    four_aces = registry.kinds["four_aces"]
    said = kind_sentences(w, four_aces, ruleset.contracts["four_aces"])
    assert said == [(four_aces.rulebook_sentences(spec, ruleset, w.translator)[0], ())]
    assert "Ass" in said[0][0]


# --------------------------------------------------------------------------- formats


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
@pytest.mark.parametrize("lang", LANGS)
def test_text_fits_80_columns(name: str, lang: str) -> None:
    text = text_of(name, lang)
    too_wide = [line for line in text.splitlines() if len(line) > 80]
    assert too_wide == []


@pytest.mark.parametrize("name", ("wikipedia", "two-round-auction"))
@pytest.mark.parametrize("lang", LANGS)
def test_markdown_is_valid_with_its_tables(name: str, lang: str) -> None:
    book = load_rulebook(name, lang)
    tokens = MarkdownIt("commonmark").enable("table").parse(render(book, "md"))
    tables = [b for s in book.sections for b in s.blocks if isinstance(b, Table)]
    assert sum(t.type == "table_open" for t in tokens) == len(tables)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings[0] == book.title
    assert [h.split(". ", 1)[-1] for h in headings[2:]] == [s.title for s in book.sections]
    rows = sum(t.type == "tr_open" for t in tokens)
    assert rows == sum(len(t.rows) + 1 for t in tables)
    items = [b for s in book.sections for b in s.blocks if isinstance(b, Items)]
    assert sum(t.type == "bullet_list_open" for t in tokens) == len(items)


EVIL = "Club *x* | <script>alert(1)</script> & `y` [z](http://e.example)"


@pytest.fixture
def evil_club(tmp_path: Path) -> Path:
    path = tmp_path / "evil.yaml"
    path.write_text(
        "extends: wikipedia\n"
        f"title: {EVIL!r}\n"
        "contracts:\n"
        f"  betli: {{names: {{hu: {EVIL!r}, en: {EVIL!r}}}}}\n",
        encoding="utf-8",
    )
    return path


def test_every_format_escapes_the_rulesets_words(evil_club: Path) -> None:
    book = load_rulebook(evil_club, "en")
    html = render(book, "html")
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    md = render(book, "md")
    tokens = MarkdownIt("commonmark").enable("table").parse(md)
    inline = [c for t in tokens if t.children for c in t.children]
    raw_html = [t for t in [*tokens, *inline] if t.type in ("html_inline", "html_block")]
    assert not [t for t in raw_html if "script" in t.content]
    assert not [c for c in inline if c.type == "link_open" and "e.example" in str(c.attrs)]
    assert EVIL in "".join(c.content for c in inline if c.type == "text")


@pytest.mark.parametrize("lang", LANGS)
def test_html_is_one_page_that_prints_on_a4(lang: str) -> None:
    html = render(load_rulebook("wikipedia", lang), "html")
    assert html.startswith("<!DOCTYPE html>")
    assert f'<html lang="{lang}">' in html
    assert "@page { size: A4" in html and "@media print" in html
    assert "thead { display: table-header-group; }" in html
    for external in ("<script", "<link", "src=", "@import", "url(", "http:", "https:"):
        assert external not in html, external
    assert re.findall(r'href="([^"]*)"', html) == [f"#{key}" for key in SECTIONS]


# --------------------------------------------------------------------------- the command


def test_the_command_prints_text_and_writes_files(ulti: RunUlti, tmp_path: Path) -> None:
    done = ulti("rulebook", "wikipedia", "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("RULES OF ULTI\n")
    out = tmp_path / "wp.html"
    done = ulti("rulebook", "wikipedia", "--lang", "hu", "--format", "html", "--output", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert '<html lang="hu">' in out.read_text(encoding="utf-8")
    done = ulti("rulebook", "tournament", "--format", "md", "-o", "t.md", cwd=tmp_path)
    assert (tmp_path / "t.md").read_text(encoding="utf-8").startswith("# Rules of Ulti\n")


def test_a_rulebook_that_cannot_be_written_leaves_the_old_file_whole(
    ulti: RunUlti, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills up while the new rulebook is written: the old one is still there,
    whole (it was truncated first, then cut at 4 KB), and the error names the file."""
    old = tmp_path / "old.html"
    old.write_text("the club's own notes", encoding="utf-8")
    old.chmod(0o640)

    def disk_full(fd: int, data: bytes) -> None:
        os.write(fd, data[:4096])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(safe_files, "_write_all", disk_full)
    done = ulti("rulebook", "wikipedia", "--format", "html", "-o", "old.html", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == (
        "ulti: error: old.html: cannot write the file: No space left on device\n"
    )
    assert old.read_text(encoding="utf-8") == "the club's own notes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.html"], "no temporary file"
    monkeypatch.undo()
    link = tmp_path / "link.html"
    link.symlink_to(old)
    done = ulti("rulebook", "wikipedia", "--format", "html", "-o", "link.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and old.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert stat.S_IMODE(old.stat().st_mode) == 0o640


def test_an_output_file_that_cannot_be_written_is_an_error_not_a_usage_error(
    ulti: RunUlti, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An existing file on a read-only file system: click's own check answered it with
    exit status 2 and its usage text, where a new file there got status 1 and
    `ulti: error:` (docs/cli.md: 1 if the file cannot be written)."""
    book = tmp_path / "book.txt"
    book.write_text("old", encoding="utf-8")
    real_access = os.access

    def read_only(path: object, mode: int, *args: object, **kwargs: object) -> bool:
        if mode & os.W_OK and Path(str(path)).resolve().parent == tmp_path.resolve():
            return False
        return real_access(path, mode, *args, **kwargs)  # type: ignore[arg-type]

    def refused(fd: int, data: bytes) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(os, "access", read_only)
    monkeypatch.setattr(safe_files, "_write_all", refused)
    said = {
        "book.txt": "the file is read-only; make it writable (chmod u+w) to change it",
        "new.txt": "cannot write the file: Read-only file system",
    }
    for name, why in said.items():
        done = ulti("rulebook", "wikipedia", "-o", name, cwd=tmp_path)
        assert done.returncode == 1, done.stderr
        assert done.stderr == f"ulti: error: {name}: {why}\n"
    assert book.read_text(encoding="utf-8") == "old"


def test_a_rulebook_written_to_a_device_goes_through_it(ulti: RunUlti) -> None:
    """`-o /dev/null` (or /dev/stdout) is written, never replaced by a file."""
    done = ulti("rulebook", "wikipedia", "-o", os.devnull)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


@pytest.mark.skipif(not Path("/dev/shm").is_dir(), reason="no /dev/shm here")
def test_a_file_under_dev_is_still_replaced_whole(ulti: RunUlti) -> None:
    """Only a name for an open file (/dev/stdout, /dev/fd/N) is written through: a
    regular file in /dev/shm is replaced like any other, not appended to."""
    folder = Path(tempfile.mkdtemp(dir="/dev/shm"))
    try:
        old = folder / "rules.txt"
        old.write_text("last year's rules", encoding="utf-8")
        done = ulti("rulebook", "wikipedia", "-o", str(old))
        assert done.returncode == 0, done.stderr
        assert old.read_text(encoding="utf-8").startswith("RULES OF ULTI\n")
    finally:
        shutil.rmtree(folder)


def test_the_language_comes_from_the_environment(ulti: RunUlti) -> None:
    hu = ulti("rulebook", "wikipedia", env={"ULTI_LANG": "hu", "LANG": "de_DE.UTF-8"})
    assert hu.stdout.startswith("AZ ULTI SZABÁLYAI")
    de = ulti("rulebook", "wikipedia", env={"ULTI_LANG": "", "LANG": "de_DE.UTF-8"})
    assert de.stdout.startswith("DIE REGELN DES ULTI")


def test_mistakes_are_clear_errors(ulti: RunUlti, tmp_path: Path) -> None:
    done = ulti("rulebook", "wikipedia", env={"ULTI_LANG": "fr"})
    assert done.returncode == 1
    assert "ULTI_LANG: unknown language 'fr'; use hu (Hungarian), en (English) or de" in done.stderr
    done = ulti("rulebook", "wikipedia", "--lang", "fr")
    assert done.returncode == 2 and "'hu', 'en', 'de'" in done.stderr
    done = ulti("rulebook", "wikipedia", "--format", "pdf")
    assert done.returncode == 2 and "'text', 'md', 'html'" in done.stderr
    done = ulti("rulebook", "wikipedai")
    assert done.returncode == 1 and "no ruleset named 'wikipedai'" in done.stderr
    done = ulti("rulebook", "wikipedia", "-o", str(tmp_path / "missing" / "x.txt"))
    assert done.returncode == 1 and "No such file or directory" in done.stderr


def test_the_kontra_sentence_says_doubling_only_where_each_call_doubles(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """A club's chain of ×4 then ×4 was described as 'each call doubling again' (×4 then ×2
    before a level worth less than the one below was refused)."""
    (tmp_path / "club.yaml").write_text(
        "name: club\ntitle: c\nextends: wikipedia\nkontra:\n  max_level: 2\n  levels:\n"
        "    - {names: {hu: Kontra, en: Double}, multiplier: 4, by: defenders}\n"
        "    - {names: {hu: Rekontra, en: Redouble}, multiplier: 4, by: declarer}\n",
        encoding="utf-8",
    )
    club = " ".join(ulti("rulebook", "club.yaml").stdout.split())
    assert "doubling again" not in club
    assert "each level multiplies the component's value by its factor in the table below" in club
    bundled = " ".join(ulti("rulebook", "wikipedia").stdout.split())
    assert "and so on, each call doubling again." in bundled


# --------------------------------------------------------------------------- what the engine does


def _bonus_text(name: str, bonus_id: str) -> str:
    """The English rulebook's entry on one silent bonus."""
    book = load_rulebook(name, "en")
    ruleset = load_ruleset(name)
    term = ruleset.silent_bonuses[bonus_id].names.get("en")
    (entry,) = [b for b in book.blocks() if isinstance(b, Paragraph) and b.term == term]
    return entry.text


@pytest.mark.parametrize(
    ("name", "bonus_id", "bid_id"),
    [
        ("wikipedia", "silent_hundred", "durchmars"),  # a silent 100 only beside a Simple
        ("wikipedia", "silent_four_aces", "durchmars"),  # a Durchmars claims every ace
        ("older-20-100", "silent_durchmars", "forty_hundred"),  # replaces: beside a Simple
    ],
)
def test_where_an_auto_silent_bonus_is_made_is_said_in_full(
    name: str, bonus_id: str, bid_id: str
) -> None:
    """``applies_to: auto`` leaves a trump bid without the bonus's kind out when the bonus
    needs a Simple beside it, or when a component claims its feat: the sentence says so,
    and does not claim "every trump bid without a component of its own kind"."""
    game = load_game(name)
    assert bonus_id not in game.silent_values(bid_id)  # what the engine does
    bid = load_ruleset(name).bid(bid_id)
    kinds = {load_ruleset(name).contracts[c].kind for c in bid.components}
    bonus = load_ruleset(name).silent_bonuses[bonus_id]
    assert bonus.condition not in kinds  # so "every bid without its kind" would include it
    text = _bonus_text(name, bonus_id)
    if bonus.condition == "four_aces":
        assert "A bid holding Durchmars or Open Durchmars offers none" in text
    else:
        assert "every trump bid without a component of its own kind" not in text
        assert "every trump bid that holds a Simple and no component of its own kind" in text


SILENT_ULTI_LOST_BY_A_DEFENDER = """\
ruleset: older-20-100
players: [Anna, Ben, Carla]
dealer: Carla
declarer: Anna
bid: 40-100
trump: acorns
points: {declarer: 70, defenders: 20, talon: 0}
marriages: {Anna: [acorns]}
tricks: {Anna: 7, Ben: 2, Carla: 1}
last_trick: {winner: Anna, trump_seven: Ben}
"""


def test_a_silent_bonus_either_side_makes_costs_the_failing_side(
    ulti: RunUlti, tmp_path: Path
) -> None:
    """older-20-100: Ben's trump 7 beaten in the last trick is the defenders' failure of
    the silent Ulti, and each pays the declarer 2 × 2: the rulebook must not say that a
    failure costs the declarer."""
    sheet = tmp_path / "hand.yaml"
    sheet.write_text(SILENT_ULTI_LOST_BY_A_DEFENDER, encoding="utf-8")
    done = ulti("score", str(sheet), "--json")
    assert done.returncode == 0, done.stderr
    lines = {line["what"]: line for line in json.loads(done.stdout)["settlement"]["lines"]}
    silent = lines["silent_ulti"]
    assert (silent["by"], silent["made"], silent["amount"]) == ("defenders", False, 4)
    text = _bonus_text("older-20-100", "silent_ulti")
    assert "A failure costs the side that failed 2 times its value: 4, in a red bid 8." in text
    assert "costs the declarer" not in text
    wikipedia = _bonus_text("wikipedia", "silent_ulti")  # only the declarer's 7 counts there
    assert "A failure costs the declarer 2 times its value: 4, in a red bid 8." in wikipedia


def _auction_and_deal(name: str) -> str:
    book = load_rulebook(name, "en")
    return " ".join(
        b.text
        for key in ("players", "auction")
        for b in book.section(key).blocks
        if isinstance(b, Paragraph)
    )


def test_the_two_round_auction_deals_and_opens_as_the_engine_does(tmp_path: Path) -> None:
    """In a two-round auction every seat first holds ``first_round_cards`` and nobody a
    talon; the round-1 winner takes the two cards laid aside (``deal_plan``): the rulebook
    must not describe the packets' 12 cards for forehand, nor forehand laying the talon
    away to open."""
    game = load_game("two-round-auction")
    hand = game.new_hand(seed=1, dealer=0)
    forehand = game.seating(0).forehand
    assert hand.step == "round1" and len(hand.cards(forehand)) == 5
    text = _auction_and_deal("two-round-auction")
    assert "Each player is first dealt 5 cards; two cards are laid aside for the winner" in text
    assert "7 to forehand" not in text and "Forehand then holds 12 cards" not in text
    assert "Forehand opens the auction: he lays two cards face down" not in text
    club = tmp_path / "club.yaml"
    club.write_text(
        "extends: two-round-auction\nauction: {two_round: {opener_must_bid: false}}\n",
        encoding="utf-8",
    )
    hand = load_game(club).new_hand(seed=3, dealer=0)
    for _ in range(3):  # nobody bids in round 1: forehand takes the extra cards
        hand.apply(next(a for a in hand.legal_actions() if a.to_dict()["type"] == "pass"))
    assert hand.step == "discard" and len(hand.cards(forehand)) == 12
    text = _auction_and_deal(str(club))
    assert "If nobody bids in the first round, forehand takes the two cards laid aside" in text
    assert "Forehand opens the auction: he lays two cards face down as the talon" in text


def test_the_hungarian_marriage_sentence_says_the_club_s_values(tmp_path: Path) -> None:
    """It named "(a 40 és a 20)" beside any values, so a club counting 50 and 30 read
    "aduban 50, más színben 30 pontot ér (a 40 és a 20)" (found by a rulebook review)."""
    club = tmp_path / "club.yaml"
    club.write_text(
        "name: club\ntitle: Club\nextends: wikipedia\n"
        "marriages: {trump_value: 50, plain_value: 30}\n",
        "utf-8",
    )
    text = " ".join(text_of(str(club), "hu").split())
    assert "aduban 50, más színben 30 pontot ér." in text
    assert "a 40 és a 20" not in text
