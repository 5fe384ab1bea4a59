"""Reading a ledger (issue 11, the hostile-input round's follow-up): from the real file's
folder, fast at the size limits, checked against the sheet kept with each hand, quoting
no value at length, and a NUL byte as a positioned problem.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from ulti_rules.json_positions import json_positions
from ulti_rules.ruleset import positions, safe_yaml
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring import ledger as ledger_module
from ulti_rules.scoring import ledger_file, table_facts
from ulti_rules.scoring.ledger import LedgerError, add_hand, new_ledger, program_version
from ulti_rules.scoring.ledger_file import load_ledger, save_ledger
from ulti_rules.scoring.sheet import read_sheet
from ulti_rules.scoring.table_facts import settle_sheet

from cli_in_process import Ran, run_in
from ledger_support import two_hand_session
from settlement_support import BEN_MAKES_ULTI, LEDGER_PLAYERS, PAYMENTS

PLAYERS = LEDGER_PLAYERS


@pytest.fixture
def ulti(tmp_path: Path) -> Callable[..., Ran]:
    return run_in(tmp_path)


@pytest.fixture
def session(tmp_path: Path) -> Path:
    """s.json: a wikipedia session of Anna, Ben and Carla with two hands; hand.yaml."""
    return two_hand_session(tmp_path)[0]


def edited(path: Path, change: Callable[[dict[str, Any]], object]) -> bytes:
    data = json.loads(path.read_text("utf-8"))
    change(data)
    text = json.dumps(data, indent=2).encode("utf-8")
    path.write_bytes(text)
    return text


def problems(stderr: str) -> list[tuple[str, str]]:
    """(key path, message) of each positioned problem line."""
    found = re.findall(r"^(?:ulti: error: )?s\.json:\d+:\d+: ([^:]+): (.*)$", stderr, re.M)
    return [(path, message) for path, message in found]


# --------------------------------------------------------------------------- the real folder


def linked_session(tmp_path: Path, ulti: Callable[..., Ran]) -> tuple[Path, Path]:
    """A ledger in real/ on real/club.yaml, and other/link.json linking to it."""
    real, other = tmp_path / "real", tmp_path / "other"
    real.mkdir()
    other.mkdir()
    (real / "club.yaml").write_text("name: club\ntitle: C\nextends: wikipedia\n", "utf-8")
    done = ulti("ledger", "new", "real/l.json", "--ruleset", "real/club.yaml", "--players", "A,B,C")
    assert done.returncode == 0, done.stderr
    link = other / "link.json"
    link.symlink_to("../real/l.json")
    return real / "l.json", link


def test_show_through_a_symlink_reads_the_club_file_beside_the_real_ledger(
    tmp_path: Path, ulti: Callable[..., Ran]
) -> None:
    _, link = linked_session(tmp_path, ulti)
    assert ulti("ledger", "add", "other/link.json", "--misdeal").returncode == 0
    shown = ulti("ledger", "show", "other/link.json")
    assert shown.returncode == 0, shown.stderr
    assert shown.stderr == ""
    assert shown.stdout == ulti("ledger", "show", "real/l.json").stdout
    # a club file of that name beside the link is not the session's, and is not read
    (link.parent / "club.yaml").write_text(
        "name: club\ntitle: Other\nextends: tournament\n", "utf-8"
    )
    again = ulti("ledger", "show", "other/link.json", "--json")
    assert again.returncode == 0 and again.stderr == ""
    assert json.loads(again.stdout)["ruleset_changed"] is False
    assert load_ledger(link).rules().title == "C"


def test_ledger_new_through_a_symlink_names_the_club_file_from_the_real_folder(
    tmp_path: Path, ulti: Callable[..., Ran]
) -> None:
    real, link = linked_session(tmp_path, ulti)
    before = real.read_bytes()
    (link.parent / "club.yaml").write_text("name: club\ntitle: O\nextends: wikipedia\n", "utf-8")
    args = ("--players", "A,B,C", "--force")
    refused = ulti("ledger", "new", "other/link.json", "--ruleset", "other/club.yaml", *args)
    assert refused.returncode == 1
    assert "lies outside the ledger's folder" in refused.stderr
    assert real.read_bytes() == before  # it would have named real/club.yaml
    done = ulti("ledger", "new", "other/link.json", "--ruleset", "real/club.yaml", *args)
    assert done.returncode == 0, done.stderr
    assert json.loads(real.read_text("utf-8"))["ruleset"] == "club.yaml"
    assert link.is_symlink() and load_ledger(link).rules().title == "C"


def test_an_engine_record_joins_a_club_ledger_from_any_folder(
    tmp_path: Path, ulti: Callable[..., Ran]
) -> None:
    """The record's hand is the session's: its ruleset is not looked for again, least of
    all beside the current folder (there is no club.yaml there)."""
    real, _ = linked_session(tmp_path, ulti)
    saved = ulti("simulate", "real/club.yaml", "--hands", "1", "--quiet", "--save-records", "r")
    assert saved.returncode == 0, saved.stderr
    done = ulti("ledger", "add", "real/l.json", "r/hand-0001.yaml", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hand"] == 1
    assert load_ledger(real).hands[0].source == "r/hand-0001.yaml"


# --------------------------------------------------------------------------- at the limits


@pytest.fixture(scope="module")
def full_ledger(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A wikipedia session as large as a ledger may be: room for one more hand under
    100,000 values."""
    folder = tmp_path_factory.mktemp("full")
    hand = folder / "hand.yaml"
    hand.write_text(BEN_MAKES_ULTI, "utf-8")
    ledger = new_ledger("wikipedia", PLAYERS, None, None)
    sheet, where = read_sheet(hand)
    add_hand(ledger, sheet, where, folder, source="hand.yaml")
    data = ledger.model_dump(mode="json")
    first = data["hands"].pop()
    room = safe_yaml.MAX_NODES - ledger_file._size(data)[0]
    for index in range(room // ledger_file._size(first)[0] - 1):
        dealer = PLAYERS[index % 3]
        sheet_data = {**first["sheet"], "dealer": dealer}
        data["hands"].append({**first, "number": index + 1, "dealer": dealer, "sheet": sheet_data})
    text = json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8") + b"\n"
    values = ledger_file._size(data)[0]
    assert values > 0.98 * safe_yaml.MAX_NODES and len(text) < ledger_file.MAX_LEDGER_BYTES
    return text


@contextmanager
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """How often a command reads the ledger, reads it with positions, loads a ruleset."""
    calls = {"read": 0, "positioned": 0, "ruleset": 0}

    def counting(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return function(*args, **kwargs)

        return call

    monkeypatch.setattr(ledger_file, "_text", counting("read", ledger_file._text))
    monkeypatch.setattr(ledger_file, "load_text", counting("positioned", safe_yaml.load_text))
    for module in (ledger_module, table_facts):
        monkeypatch.setattr(module, "load_ruleset", counting("ruleset", load_ruleset))
    yield calls


@pytest.mark.parametrize(
    "args",
    [
        ("show", "full.json"),
        ("show", "full.json", "--json"),
        ("add", "full.json", "--misdeal"),
        ("add", "full.json", "wiki-hand.yaml"),
    ],
)
def test_a_ledger_at_the_limits_is_read_once(
    tmp_path: Path,
    ulti: Callable[..., Ran],
    full_ledger: bytes,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
) -> None:
    """Every hand is checked and settled again, from one reading of the file, without the
    positioned reader (it is for files with problems), and the ruleset is loaded once:
    also when the hand names the session's ruleset itself."""
    (tmp_path / "full.json").write_bytes(full_ledger)
    (tmp_path / "wiki-hand.yaml").write_text(f"ruleset: wikipedia\n{BEN_MAKES_ULTI}", "utf-8")
    ulti("ladder", "wikipedia")  # plugins loaded, as they are before any command's work
    with counted(monkeypatch) as calls:
        done = ulti("ledger", *args)
    assert done.returncode == 0, done.stderr
    assert calls == {"read": 1, "positioned": 0, "ruleset": 1}


def test_a_wrong_hand_in_a_full_ledger_is_positioned_without_a_second_reader(
    tmp_path: Path, ulti: Callable[..., Ran], full_ledger: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = json.loads(full_ledger)
    last = len(data["hands"]) - 1
    data["hands"][last]["payments"].update(Anna=-8, Carla=-10)
    text = json.dumps(data, indent=2)
    (tmp_path / "full.json").write_text(text, "utf-8")
    line = text[: text.rindex('"payments"')].count("\n") + 1
    with counted(monkeypatch) as calls:
        done = ulti("ledger", "show", "full.json")
    assert done.returncode == 1
    assert done.stderr == (
        f"ulti: error: full.json:{line}:7: hands.{last}.payments: settling the sheet kept with "
        "this hand gives Anna -9, Ben +18, Carla -9, not Anna -8, Ben +18, Carla -10\n"
    )
    assert calls == {"read": 1, "positioned": 0, "ruleset": 1}


def test_keys_are_found_in_json_where_the_yaml_reader_puts_them(session: Path) -> None:
    """Every key and item of a ledger, at the YAML reader's line and column; lines as
    YAML counts them (CRLF, and a line separator inside a name)."""
    data = json.loads(session.read_text("utf-8"))
    data["players"][2] = "Car\u2028la"  # YAML reads no key with one: not in payments
    data["hands"][0]["source"] = "a\x85b\rc.yaml"
    for text in (
        json.dumps(data, indent=2, ensure_ascii=False),
        json.dumps(data, indent=1, ensure_ascii=False).replace("\n", "\r\n"),
        json.dumps(data, ensure_ascii=False),
    ):
        expected = safe_yaml.load_text(text).positions
        found = json_positions(text, list(expected))
        assert {path: p.key for path, p in found.items() if path} == {
            path: p.key for path, p in expected.items() if path
        }
        assert found[()].value == expected[()].value
    missing = json_positions(json.dumps(data, indent=2), [("hands", 1, "sheet", "nothing")])
    assert ("hands", 1, "sheet", "nothing") not in missing
    assert ("hands", 1, "sheet") in missing


def test_a_ledger_over_the_value_limit_is_refused_before_it_is_read_with_positions(
    tmp_path: Path, ulti: Callable[..., Ran], full_ledger: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = json.loads(full_ledger)
    while ledger_file._size(data)[0] <= safe_yaml.MAX_NODES:
        data["hands"].append(data["hands"][-3] | {"number": len(data["hands"]) + 1})
    values = ledger_file._size(data)[0]
    (tmp_path / "full.json").write_text(json.dumps(data), "utf-8")
    for args in (("show", "full.json"), ("add", "full.json", "--misdeal")):
        with counted(monkeypatch) as calls:
            done = ulti("ledger", *args)
        assert done.returncode == 1
        assert done.stderr == (
            f"ulti: error: full.json: the ledger holds {values:,} values; more than 100,000 "
            "(about 1,400 hands) are not read: start a new ledger for the next hands\n"
        )
        assert calls["positioned"] == 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace(b'"end"', b'"first_dealer": "Ben", "end"'), "duplicate key"),
        (lambda t: t.replace(b'"Carla"', b"NaN", 1), "not a player: Carla; missing: NaN"),
        (lambda t: t.replace(b'"Carla"', '"Carla\x9f"'.encode(), 1), "control characters"),
        (
            lambda t: yaml.safe_dump({**json.loads(t), "first_dealer": "Dora"}).encode(),
            "first_dealer: 'Dora' is not one of the players",
        ),
    ],
)
def test_what_json_and_yaml_read_apart_goes_to_the_positioned_reader(
    session: Path,
    ulti: Callable[..., Ran],
    change: Callable[[bytes], bytes],
    message: str,
) -> None:
    """A duplicate key (JSON keeps the last silently), NaN, a character YAML refuses, a
    ledger written as YAML: the positioned reader decides, as it always did."""
    session.write_bytes(change(session.read_bytes()))
    done = ulti("ledger", "show", "s.json")
    assert done.returncode == 1
    assert message in done.stderr
    try:
        document = safe_yaml.load_text(session.read_text("utf-8"))
    except safe_yaml.YamlError as exc:  # what the positioned reader says, it says
        said = positions.yaml_problems(exc, "s.json")
        assert done.stderr == "".join(f"ulti: error: {p}\n" for p in said)
    else:  # read, then found wrong: every problem at its line
        assert document.data is not None
        for line in done.stderr.splitlines():
            assert re.match(r"(ulti: error: )?s\.json:\d+:\d+: |ulti: error: \d+ problems", line)


def test_a_ledger_written_as_yaml_is_read_as_before(session: Path) -> None:
    expected = load_ledger(session)
    as_yaml = session.with_name("s.yaml")
    as_yaml.write_text(yaml.safe_dump(json.loads(session.read_text("utf-8"))), "utf-8")
    assert load_ledger(as_yaml) == expected


# --------------------------------------------------------------------------- the kept sheets


def test_a_hand_must_be_what_its_sheet_settles_to(session: Path, ulti: Callable[..., Ran]) -> None:
    """The tester's edit: hand 1 made a Betli of Carla's that ruins Anna, its sheet still
    Ben's Ulti."""
    tampered = edited(
        session,
        lambda d: d["hands"][0].update(
            bid="betli",
            declarer="Carla",
            payments={"Anna": -1_000_000, "Ben": 500_000, "Carla": 500_000},
        ),
    )
    for args in (("show", "s.json"), ("show", "s.json", "--json"), ("add", "s.json", "hand.yaml")):
        done = ulti("ledger", *args)
        assert done.returncode == 1
        assert problems(done.stderr) == [
            ("hands.0.declarer", "the sheet kept with this hand says 'Ben' declared, not 'Carla'"),
            ("hands.0.bid", "the sheet kept with this hand says the bid was 'ulti', not 'betli'"),
            (
                "hands.0.payments",
                "settling the sheet kept with this hand gives Anna -9, Ben +18, Carla -9, "
                "not Anna -1000000, Ben +500000, Carla +500000",
            ),
        ]
        assert done.stdout == ""
        assert session.read_bytes() == tampered


def settled(folder: Path, sheet: str, ruleset: str = "wikipedia") -> str:
    """``Anna -9, Ben +18, Carla -9``: what the score keeper settles ``sheet`` to."""
    path = folder / "settle-me.yaml"
    path.write_text(f"ruleset: {ruleset}\nplayers: [Anna, Ben, Carla]\n{sheet}", "utf-8")
    table, settlement = settle_sheet(path)
    return ", ".join(f"{table.name(s)} {v:+d}" for s, v in sorted(settlement.payments.items()))


def test_a_sheet_settling_otherwise_is_found(session: Path) -> None:
    edited(session, lambda d: d["hands"][1]["sheet"].pop("kontra"))
    with pytest.raises(LedgerError) as caught:
        load_ledger(session)
    no_kontra = settled(session.parent, BEN_MAKES_ULTI.replace("kontra: {ulti: kontra}\n", ""))
    assert [(p.path, p.message) for p in caught.value.problems] == [
        (
            "hands.1.payments",
            f"settling the sheet kept with this hand gives {no_kontra}, "
            "not Anna -9, Ben +18, Carla -9",
        )
    ]
    assert no_kontra != "Anna -9, Ben +18, Carla -9"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: d["hands"][1]["sheet"].update(dealer="Carla"),
            [("hands.1.dealer", "the sheet kept with this hand says 'Carla' dealt, not 'Ben'")],
        ),
        (
            lambda d: d["hands"][0]["sheet"].update(players=["Anna", "Carla", "Ben"]),
            [("hands.0.sheet.players", "the session's players are Anna, Ben, Carla")],
        ),
        (
            lambda d: d["hands"][0]["sheet"]["tricks"].update(Ben=9),
            [("hands.0.sheet.tricks", "")],
        ),
    ],
)
def test_a_tampered_sheet_is_found(
    session: Path, change: Callable[[dict[str, Any]], object], expected: list[tuple[str, str]]
) -> None:
    edited(session, change)
    with pytest.raises(LedgerError) as caught:
        load_ledger(session)
    found = [(p.path, p.message if expected[0][1] else "") for p in caught.value.problems]
    assert found[: len(expected)] == expected
    assert all(p.line is not None for p in caught.value.problems)


def test_four_players_the_sheets_settle_again_with_the_dealer_sitting_out(
    tmp_path: Path,
) -> None:
    players = ["Anna", "Ben", "Carla", "Dani"]
    ledger = new_ledger("four-player", players, "Dani", None)
    hand = tmp_path / "h.yaml"
    hand.write_text(BEN_MAKES_ULTI, "utf-8")
    sheet, where = read_sheet(hand)
    add_hand(ledger, sheet, where, tmp_path, source="h.yaml")  # Dani deals, sits out
    path = tmp_path / "s.json"
    save_ledger(ledger, path)
    assert load_ledger(path) == ledger
    dani = ledger.hands[0].payments["Dani"]
    edited(path, lambda d: d["hands"][0]["payments"].update(Dani=dani + 1, Ben=PAYMENTS["Ben"] - 1))
    with pytest.raises(LedgerError) as caught:
        load_ledger(path)
    [problem] = caught.value.problems
    assert problem.path == "hands.0.payments"
    assert problem.message.startswith("settling the sheet kept with this hand gives Anna -9, ")
    assert f"not Anna -9, Ben +{PAYMENTS['Ben'] - 1}, Carla -9, Dani +{dani + 1}" in (
        problem.message
    )


def club(tmp_path: Path, kontra: int = 2) -> None:
    """All may pass, forehand then pays 2 to each; a Kontra is worth ×kontra."""
    (tmp_path / "club.yaml").write_text(
        "name: club\nextends: wikipedia\n"
        "deal: {misdeal_redeal_same_dealer: true}\n"
        "auction: {opener_must_bid: false, all_pass: forehand_pays, all_pass_payment: 2}\n"
        "kontra:\n  levels:\n"
        f"    - {{names: {{hu: Kontra, en: Kontra, de: Kontra}}, multiplier: {kontra}, "
        "by: defenders}\n"
        f"    - {{names: {{hu: Rekontra, en: Rekontra, de: Rekontra}}, multiplier: {2 * kontra}, "
        "by: declarer}\n",
        "utf-8",
    )


def test_a_deal_not_played_pays_and_redeals_as_the_ruleset_says(
    tmp_path: Path, ulti: Callable[..., Ran]
) -> None:
    club(tmp_path)
    args = ("--ruleset", "club.yaml", "--players", "Anna,Ben,Carla")
    assert ulti("ledger", "new", "s.json", *args).returncode == 0
    for flag in ("--passed-out", "--misdeal"):
        assert ulti("ledger", "add", "s.json", flag).returncode == 0
    path = tmp_path / "s.json"
    good = json.loads(path.read_text("utf-8"))
    assert good["hands"][0]["payments"] == {"Anna": 2, "Ben": -4, "Carla": 2}
    edited(path, lambda d: d["hands"][0].update(payments={"Anna": 0, "Ben": 0, "Carla": 0}))
    done = ulti("ledger", "show", "s.json")
    assert problems(done.stderr) == [
        (
            "hands.0.payments",
            "everybody passed: under 'club' (auction.all_pass) that pays Anna +2, Ben -4, "
            "Carla +2, not Anna +0, Ben +0, Carla +0",
        )
    ]
    path.write_text(json.dumps(good), "utf-8")
    edited(path, lambda d: d["hands"][1].update(redeal=False))
    done = ulti("ledger", "show", "s.json")
    assert problems(done.stderr) == [
        (
            "hands.1.redeal",
            "under 'club' the same dealer deals again after this hand "
            "(deal.misdeal_redeal_same_dealer): redeal is true",
        )
    ]


def test_hands_settled_under_rules_since_changed_are_not_settled_again(
    tmp_path: Path, ulti: Callable[..., Ran]
) -> None:
    """A Kontra doubles, then the club makes it triple and the table accepts: the first
    hand keeps what it was settled at, the hands from the change on are settled again."""
    club(tmp_path)
    (tmp_path / "hand.yaml").write_text(BEN_MAKES_ULTI, "utf-8")
    args = ("--ruleset", "club.yaml", "--players", "Anna,Ben,Carla")
    assert ulti("ledger", "new", "s.json", *args).returncode == 0
    assert ulti("ledger", "add", "s.json", "hand.yaml").returncode == 0
    doubled = settled(tmp_path, BEN_MAKES_ULTI, "club.yaml")
    club(tmp_path, kontra=3)
    tripled = settled(tmp_path, BEN_MAKES_ULTI, "club.yaml")
    assert doubled != tripled
    unaccepted = ulti("ledger", "show", "s.json")
    assert unaccepted.returncode == 0 and "changed since the session began" in unaccepted.stderr
    accepted = ulti("ledger", "add", "s.json", "hand.yaml", "--accept-ruleset-change")
    assert accepted.returncode == 0, accepted.stderr
    assert ulti("ledger", "add", "s.json", "hand.yaml").returncode == 0
    path = tmp_path / "s.json"
    hands = json.loads(path.read_text("utf-8"))["hands"]
    first = hands[0]["payments"]
    shown = ulti("ledger", "show", "s.json")
    assert shown.returncode == 0 and shown.stderr == ""
    edited(path, lambda d: d["hands"][2].update(payments=first))
    assert problems(ulti("ledger", "show", "s.json").stderr) == [
        (
            "hands.2.payments",
            f"settling the sheet kept with this hand gives {tripled}, not {doubled}",
        )
    ]


def test_while_the_rules_changed_unaccepted_the_sheets_still_name_dealer_and_declarer(
    tmp_path: Path, ulti: Callable[..., Ran]
) -> None:
    club(tmp_path)
    (tmp_path / "hand.yaml").write_text(BEN_MAKES_ULTI, "utf-8")
    args = ("--ruleset", "club.yaml", "--players", "Anna,Ben,Carla")
    assert ulti("ledger", "new", "s.json", *args).returncode == 0
    assert ulti("ledger", "add", "s.json", "hand.yaml").returncode == 0
    club(tmp_path, kontra=3)
    edited(tmp_path / "s.json", lambda d: d["hands"][0].update(declarer="Anna"))
    done = ulti("ledger", "show", "s.json")
    assert problems(done.stderr) == [
        ("hands.0.declarer", "the sheet kept with this hand says 'Ben' declared, not 'Anna'")
    ]


# --------------------------------------------------------------------------- hostile values

LONG = "x" * 100_000
HUGE = "DIGITS_4000"
"""Replaced by a number of 4,000 digits in the file's text."""
QUOTING: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "a 100 kB bid": (lambda d: d["hands"][0].update(bid=LONG), "hands.0.bid"),
    "a 100 kB player": (lambda d: d["players"].__setitem__(0, LONG), "players.0"),
    "a 41-character player": (lambda d: d["players"].__setitem__(0, "y" * 41), "players.0"),
    "a 100 kB declarer": (lambda d: d["hands"][1].update(declarer=LONG), "hands.1.declarer"),
    "a 200 kB ruleset": (lambda d: d.update(ruleset=LONG * 2), "ruleset"),
    "a 4,000-character ruleset name": (lambda d: d.update(ruleset=LONG[:4000]), "ruleset"),
    "a 4,000-character ruleset path": (
        lambda d: d.update(ruleset=LONG[:3995] + ".yaml"),
        "ruleset",
    ),
    "a far ruleset path": (lambda d: d.update(ruleset="../" * 1300 + "x.yaml"), "ruleset"),
    "a 4,000-digit number": (lambda d: d["hands"][0].update(number=HUGE), "hands.0.number"),
    "a 100 kB format": (lambda d: d.update(format=LONG), "format"),
    "a 1,000-character unknown key": (lambda d: d.update({LONG[:1000]: 1}), "x" * 40 + "…"),
    "a 1,000-character payee": (
        lambda d: d["hands"][0]["payments"].update({LONG[:1000]: 0}),
        "hands.0.payments." + "x" * 40 + "…",
    ),
    "a 100 kB key": (lambda d: d.update({LONG: 1}), ""),
    "a NUL byte in the ruleset": (lambda d: d.update(ruleset="a\u0000b.yaml"), "ruleset"),
}


@pytest.mark.parametrize("case", list(QUOTING))
def test_no_value_is_quoted_at_length_and_every_problem_is_positioned(
    session: Path, ulti: Callable[..., Ran], case: str
) -> None:
    change, key = QUOTING[case]
    data = json.loads(session.read_text("utf-8"))
    change(data)
    text = json.dumps(data, indent=2).replace(f'"{HUGE}"', "9" * 4000)
    session.write_text(text, "utf-8")
    for args in (("show", "s.json"), ("add", "s.json", "hand.yaml")):
        # CPU time: other work on the machine (parallel tests) does not count
        started = time.process_time()
        done = ulti("ledger", *args)
        assert time.process_time() - started < 3
        assert done.returncode == 1
        lines = done.stderr.splitlines()
        at = rf"{re.escape(key)}: " if key else ""  # YAML reads a key of at most 1,024
        assert any(re.match(rf"(ulti: error: )?s\.json:\d+:\d+: {at}", line) for line in lines), (
            done.stderr
        )
        assert max(map(len, lines)) < 500, done.stderr[:1000]
        assert "x" * 41 not in done.stderr and "9" * 41 not in done.stderr


def test_player_names_are_at_most_40_characters(tmp_path: Path, ulti: Callable[..., Ran]) -> None:
    name = "Z" * 41
    done = ulti("ledger", "new", "s.json", "--ruleset", "wikipedia", "--players", f"A,B,{name}")
    assert done.returncode == 1
    assert done.stderr == (
        "ulti: error: a player's name is at most 40 characters, as on a score sheet: "
        f"'{'Z' * 40}…' is 41\n"
    )
    assert not (tmp_path / "s.json").exists()
    ok = ulti("ledger", "new", "s.json", "--ruleset", "wikipedia", "--players", f"A,B,{name[1:]}")
    assert ok.returncode == 0, ok.stderr


def test_a_nul_byte_in_a_ruleset_given_to_the_library_is_a_ledger_error() -> None:
    with pytest.raises(LedgerError, match="cannot hold a NUL character"):
        new_ledger("a\0b.yaml", PLAYERS, None, None)
    assert os.path.sep  # the check comes before any path is touched


def test_hands_another_version_settled_are_noted_where_they_differ(session: Path) -> None:
    """A fix to settlement in a later ulti-rules must not make an older session unreadable:
    a hand another version settled otherwise is kept, and said. (It was not settled again
    at all, so that editing ``settled_by`` turned the check off: found by a fault review.)"""
    assert json.loads(session.read_text("utf-8"))["settled_by"] == program_version()
    edited(session, lambda d: d["hands"][1]["sheet"].pop("kontra"))  # now settles otherwise
    with pytest.raises(LedgerError):
        load_ledger(session)  # the same version: the difference is tampering
    edited(session, lambda d: d.update(settled_by="0.0.1"))
    ledger = load_ledger(session)  # another version settled them: kept as written, said
    assert ledger.hands[1].payments == PAYMENTS
    (noted,) = ledger.notes
    assert noted.path == "hands.1.payments" and noted.line is not None
    lines = session.read_text("utf-8").splitlines()
    assert lines[noted.line - 1].strip().startswith('"payments"')  # hand 2's, positioned
    assert noted.message.startswith("settling the sheet kept with this hand gives ")
    # the next hand is this version's, marked, and from it on hands are checked again
    sheet, where = read_sheet(session.parent / "hand.yaml")
    add_hand(ledger, sheet, where, session.parent, source="hand.yaml")
    save_ledger(ledger, session)
    data = json.loads(session.read_text("utf-8"))
    assert data["settled_by"] == program_version()
    assert data["hands"][2]["settled_by"] == program_version()
    assert data["hands"][1].get("settled_by") is None
    again = load_ledger(session)
    assert again.hands[2].payments == PAYMENTS
    assert [n.path for n in again.notes] == ["hands.1.payments"]  # still said, still kept


def test_a_forged_payment_behind_an_edited_version_is_said_on_every_read(
    session: Path, ulti: Callable[..., Ran]
) -> None:
    """Editing ``settled_by`` with the payments made a forged hand pass unchecked: now
    `ulti ledger show` and `ulti ledger add` name it each time (and keep the file)."""
    forged = {"Anna": -1000, "Ben": 500, "Carla": 500}
    edited(session, lambda d: (d["hands"][0].update(payments=forged), d.update(settled_by="0")))
    for args in (("ledger", "show", session.name), ("ledger", "add", session.name, "hand.yaml")):
        done = ulti(*args)
        assert done.returncode == 0, done.stderr
        first, second = done.stderr.splitlines()[:2]
        assert re.fullmatch(
            r"ulti: note: s\.json:\d+:\d+: hands\.0\.payments: settling the sheet kept with "
            r"this hand gives Anna -9, Ben \+18, Carla -9, not Anna -1000, Ben \+500, Carla \+500",
            first,
        ), first
        assert second == (
            "ulti: note: another version of ulti-rules settled the hands above (settled_by), "
            "and this one settles them otherwise; the ledger keeps what they paid"
        )
    # both notes in the table's language
    first, second = ulti("ledger", "show", session.name, "--lang", "hu").stderr.splitlines()[:2]
    assert "settling" not in first and "Anna -9, Ben +18, Carla -9" in first, first
    assert second == (
        "ulti: note: a fenti leosztásokat az ulti-rules egy másik változata számolta el "
        "(settled_by), ez a változat másként számolná; a pontozólap megtartja, amit akkor "
        "fizettek"
    )
    assert load_ledger(session).hands[0].payments == forged


def test_a_sheet_edited_to_another_ruleset_is_refused(session: Path) -> None:
    """The ruleset a kept sheet names was never read: edited to 'tournament' (or to
    '/etc/passwd') the ledger passed without a word (found by a fault review)."""
    for edit in ("tournament", "/etc/passwd"):
        edited(session, lambda d, edit=edit: d["hands"][0]["sheet"].update(ruleset=edit))
        with pytest.raises(LedgerError) as caught:
            load_ledger(session)
        (problem,) = caught.value.problems
        assert problem.path == "hands.0.sheet.ruleset"
        assert problem.message == f"the session plays 'wikipedia', not '{edit}'"


def test_what_a_kept_sheet_says_outright_is_refused_whoever_settled_it(session: Path) -> None:
    """Only what settling gives otherwise is a note for another version's hand: a dealer
    edited in its sheet is refused as before (it was noted; found by a review)."""
    edited(
        session,
        lambda d: (d["hands"][0]["sheet"].update(dealer="Carla"), d.update(settled_by="0.0.1")),
    )
    with pytest.raises(LedgerError) as caught:
        load_ledger(session)
    (problem,) = caught.value.problems
    assert problem.path == "hands.0.dealer"
    assert problem.message == "the sheet kept with this hand says 'Carla' dealt, not 'Anna'"


def test_a_value_none_of_the_allowed_ones_says_what_the_file_has(
    session: Path, ulti: Callable[..., Ran]
) -> None:
    """Pydantic's "Input should be 'none' or 'heart_ace'" did not say what was written,
    and read unlike the ledger's other problems."""
    edited(session, lambda d: d.update(end="hearts"))
    done = ulti("ledger", "show", session.name)
    assert done.returncode == 1
    assert re.fullmatch(
        r"ulti: error: s\.json:\d+:\d+: end: should be 'none' or 'heart_ace', not text "
        r"\('hearts'\)\n",
        done.stderr,
    ), done.stderr
