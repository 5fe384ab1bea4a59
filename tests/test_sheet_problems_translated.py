"""What `ulti score` and `ulti ledger` find wrong in a score sheet or a ledger file is said
in the command's language (``--lang``), as their settlements are: a Hungarian or German
table read the problems of its own sheet in English.

Each problem is a ``Said`` (docs/translating.md, "Errors"): its English text is what it
always was, and the catalogues say it, and every sentence and name inside it, in Hungarian
and German. The broken sheets and ledgers here reach (nearly) every problem the score
keeper's modules can find; each is checked against the catalogues.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from ulti_rules import i18n
from ulti_rules.errors import Problem, ProblemsError, RulesetError
from ulti_rules.i18n import translator
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.said import Said, say_in
from ulti_rules.scoring.ledger import Ledger, add_hand, new_ledger
from ulti_rules.scoring.ledger_file import load_ledger, save_ledger
from ulti_rules.scoring.possible import impossibilities
from ulti_rules.scoring.sheet import read_sheet
from ulti_rules.scoring.table_facts import settle_sheet

from conftest import RunUlti
from ledger_support import two_hand_session
from said_support import names_in, words
from settlement_support import BEN_MAKES_ULTI, LEDGER_PLAYERS, make_facts, sheet

LANGS = ("hu", "de")
PLACEHOLDER = re.compile(r"\{(\w*)\}")

# --------------------------------------------------------------------------- the sheets

FOUR = {"ruleset": "four-player", "players": "[Anna, Ben, Carla, Dani]", "dealer": "Dani"}
UNPLAYED = {"points": "", "tricks": "", "last_trick": "", "aces": ""}
CLUBS = {
    "played-out.yaml": "name: played-out\nextends: wikipedia\n"
    "simple: {uncontested_played_out: true}\n",
    "two.yaml": "name: two\nextends: wikipedia\nauction: {min_components: 2}\n",
    "capped.yaml": "name: capped\nextends: wikipedia\nkontra: {max_level: 2}\n",
}


SHEETS = {
    "points": sheet(points="{declarer: 60, defenders: 40}", tricks="{Anna: 6, Ben: 2, Carla: 3}"),
    "trump": sheet(bid="ulti", trump="spadez"),
    "bid": sheet(bid="ultimate"),
    "kontra": sheet(bid="ulti", trump="acorns", kontra="{ulti: superkontra, betli: 1}"),
    "marriages": sheet(marriages="{Ben: [hearts, hearts], Carla: [spadez]}"),
    "durchmars": sheet(durchmars="Ben"),
    "hundred": sheet(
        bid="40-100", trump="acorns", marriages="{Anna: [acorns, bells], Ben: [leaves]}"
    ),
    "cannot_hold": sheet(points="{declarer: 89, defenders: 1}"),
    "players": sheet(players="[Anna, Ben, Ben]"),
    "count": sheet(players="[Anna, Ben]"),
    "last_trick": sheet(
        points="{declarer: 0, defenders: 90}", tricks="{Anna: 1, Ben: 5, Carla: 4}"
    ),
    "defenders_last": sheet(
        points="{declarer: 85, defenders: 5}",
        tricks="{Anna: 8, Ben: 2}",
        last_trick="{winner: Ben}",
    ),
    "defenders_none": sheet(
        points="{declarer: 90, defenders: 0}",
        tricks="{Anna: 8, Ben: 2}",
        last_trick="{winner: Ben}",
    ),
    "cannot_hold_last": sheet(points="{declarer: 1, defenders: 89}", last_trick="{winner: Ben}"),
    "not_a_player": sheet(declarer="Dora"),
    "five_marriages": sheet(marriages="{Anna: [acorns, leaves, hearts, bells, acorns]}"),
    "twenty_hundred": sheet(bid="20-100", trump="acorns", marriages="{Anna: [bells, leaves]}"),
    "no_trick": sheet(tricks="{Anna: 6, Ben: 4}", last_trick="{winner: Carla}"),
    "durchmars_alone": sheet(durchmars="Ben", tricks="{Ben: 9}", aces="[Ben]"),
    "unknown_key": sheet(triks="{Anna: 6}"),
    "shape": sheet(points="50"),
    "twice": sheet(bid="{components: [parti, parti]}"),
    "no_such_components": sheet(bid="{components: [betli, ulti]}"),
    "no_such_red": sheet(bid="{components: [betli, ulti], red: true}"),
    "gave_up": sheet(gave_up="true"),
    "unsaid": sheet(bid="parti", trump="acorns"),
    "unsaid_played": sheet(ruleset="played-out.yaml", bid="parti", trump="acorns"),
    "missing": sheet(points="", last_trick=""),
    "missing_tricks": sheet(tricks=""),
    "no_trump_seven": sheet(
        bid="betli",
        trump="",
        points="{declarer: 0, defenders: 90}",
        tricks="{Ben: 5, Carla: 5}",
        last_trick="{winner: Ben, trump_seven: Ben}",
        aces="",
    ),
    "talon": sheet(points="{declarer: 40, defenders: 20, talon: 30}"),
    "not_mapping": "- a\n- b\n",
    "negative_tricks": sheet(tricks="{Anna: 10, Ben: 1, Carla: -1}"),
    "negative_points": sheet(points="{declarer: -10, defenders: 100}"),
    "too_many": sheet(tricks="{Anna: 1, Ben: 5, Carla: 4}"),
    "too_many_defenders": sheet(points="{declarer: 20, defenders: 70}", tricks="{Anna: 9, Ben: 1}"),
    "cannot_hold_defenders": sheet(
        points="{declarer: 88, defenders: 2}", tricks="{Anna: 9, Ben: 1}"
    ),
    "talon_hold": sheet(points="{declarer: 60, defenders: 29, talon: 1}"),
    "betli_trump": sheet(bid="betli", trump="acorns", aces=""),
    "red_trump": sheet(bid="piros ulti", trump="acorns"),
    "needs_trump": sheet(bid="ulti", trump=""),
    "red_only": sheet(bid="ulti", trump="hearts"),
    "uncontested_vain": sheet(
        ruleset="older-20-100", bid="parti", trump="acorns", uncontested="true", **UNPLAYED
    ),
    "give_up_not_plain": sheet(
        ruleset="older-20-100", bid="ulti", trump="acorns", gave_up="true", **UNPLAYED
    ),
    "give_up_kontra": sheet(
        ruleset="older-20-100",
        bid="parti",
        trump="acorns",
        gave_up="true",
        kontra="{parti: 1}",
        **UNPLAYED,
    ),
    "give_up_play": sheet(ruleset="older-20-100", bid="parti", trump="acorns", gave_up="true"),
    "uncontested_kontra": sheet(
        bid="parti", trump="acorns", uncontested="true", kontra="{parti: 1}", **UNPLAYED
    ),
    "uncontested_not_plain": sheet(bid="ulti", trump="acorns", uncontested="true"),
    "opener": sheet(
        bid="parti", trump="acorns", dealer="Carla", declarer="Ben", uncontested="true", **UNPLAYED
    ),
    "beyond": sheet(ruleset="capped.yaml", bid="ulti", trump="acorns", kontra="{ulti: Mordkontra}"),
    "beyond_number": sheet(ruleset="tournament", bid="ulti", trump="acorns", kontra="{ulti: 5}"),
    "not_defender": sheet(bid="ulti", trump="acorns", kontra="{ulti: {Anna: 1}}"),
    "binds": sheet(bid="ulti", trump="acorns", kontra="{ulti: {Ben: 1, Carla: 2}}"),
    "aces_twice": sheet(aces="[Anna, Anna]"),
    "aces_declarer_twice": sheet(aces="[Anna, declarer]"),
    "min_components": sheet(
        ruleset="two.yaml", bid="parti", trump="acorns", uncontested="true", **UNPLAYED
    ),
    "missing_ruleset": sheet(ruleset=""),
    "round_one": sheet(round_one="true"),
    "seven_twice": sheet(
        bid="ulti",
        trump="acorns",
        last_trick="{winner: Anna, trump_seven: Anna}",
        trump_seven_early="Ben",
    ),
    "no_trump_marriage": sheet(
        bid="betli",
        trump="",
        points="{declarer: 0, defenders: 90}",
        tricks="{Ben: 5, Carla: 5}",
        last_trick="{winner: Ben}",
        aces="",
        marriages="{Ben: [acorns]}",
    ),
    "no_aces": sheet(aces=""),
    "no_aces_bid": sheet(bid="four_aces", trump="acorns", aces=""),
    "four_missing_dealer": sheet(**{**FOUR, "dealer": ""}),
    "four_declarer_deals": sheet(**FOUR, declarer="Dani"),
    "four_sat_out": sheet(
        **FOUR, tricks="{Anna: 6, Ben: 2, Carla: 1, Dani: 1}", marriages="{Dani: [bells]}"
    ),
    "four_durchmars": sheet(**FOUR, durchmars="Dani", tricks="", aces=""),
    "four_aces": sheet(**FOUR, aces="[Anna, Dani]"),
    # the Four Aces plugin's own checks of the aces (it was English in a Hungarian list)
    "ace_no_trick": sheet(tricks="{Anna: 8, Carla: 2}", aces="[Anna, Ben]"),
    "ace_declarer_not_in": sheet(
        points="{declarer: 80, defenders: 10}", tricks="{Anna: 8, Ben: 1, Carla: 1}", aces="[Ben]"
    ),
    "ace_declarer_no_room": sheet(
        points="{declarer: 10, defenders: 80}",
        tricks="{Anna: 1, Ben: 5, Carla: 4}",
        last_trick="{winner: Anna}",
        aces="[Anna, Ben]",
    ),
    "ace_defenders_none": sheet(
        points="{declarer: 30, defenders: 60}",
        tricks="{Anna: 4, Ben: 3, Carla: 3}",
        last_trick="{winner: Ben}",
        aces="[Anna]",
    ),
    "ace_defender_no_room": sheet(
        points="{declarer: 80, defenders: 10}",
        tricks="{Anna: 8, Ben: 1, Carla: 1}",
        aces="[Anna, Ben, Carla]",
    ),
    "ace_nobody": sheet(aces="[]"),
    # the reader's own words (the YAML parser's stay English; the hint after them is ours)
    "unclosed": sheet(points="{declarer: 60, defenders: 30"),
    "duplicate": sheet(aces="[Anna, Ben]\ndeclarer: Ben"),
    "tab": sheet(aces="[Anna, Ben]\n\tbid: ulti"),
}
"""Broken sheets, each a table's mistake (or several): every problem the sheet reader, the
sheet's resolution against its ruleset and the check of the facts say."""


def write_sheet(folder: Path, name: str) -> Path:
    for club, text in CLUBS.items():
        (folder / club).write_text(text, "utf-8")
    path = folder / "hand.yaml"
    path.write_text(SHEETS[name], "utf-8")
    return path


# --------------------------------------------------------------------------- `ulti score`

SCORED = {
    "points": {
        "en": "hand.yaml:6:1: points: the card points add up to 100 (declarer 60 + defenders 40 "
        "+ talon 0), but the deck and the last trick hold 90\n"
        "hand.yaml:7:1: tricks: the trick counts add up to 11, not 10\n"
        "ulti: error: 2 problems\n",
        "hu": "hand.yaml:6:1: points: a pontok összege 100 (felvevő 60 + védők 40 + talon 0), de "
        "a lapok és az utolsó ütés együtt 90 pontot érnek\n"
        "hand.yaml:7:1: tricks: az ütések száma összesen 11, nem 10\n"
        "ulti: error: 2 hiba\n",
        "de": "hand.yaml:6:1: points: die Augen ergeben 100 (Alleinspieler 60 + Gegner 40 + Talon "
        "0), aber die Karten und der letzte Stich zählen zusammen 90\n"
        "hand.yaml:7:1: tricks: die Stiche ergeben zusammen 11, nicht 10\n"
        "ulti: error: 2 Probleme\n",
    },
    "trump": {
        "en": "ulti: error: hand.yaml:5:1: trump: 'spadez' is not a suit (acorns, leaves, hearts, "
        "bells; or makk, zöld, piros, tök) (did you mean 'spades'?)\n",
        "hu": "ulti: error: hand.yaml:5:1: trump: 'spadez' nem szín (makk, zöld, piros, tök; vagy "
        "acorns, leaves, hearts, bells) (erre gondoltál: 'spades'?)\n",
        "de": "ulti: error: hand.yaml:5:1: trump: 'spadez' ist keine Farbe (Eichel, Grün, Herz, "
        "Schellen; oder acorns, leaves, hearts, bells) (meintest du 'spades'?)\n",
    },
    "bid": {
        "en": "ulti: error: hand.yaml:4:1: bid: 'ultimate' is not a bid of 'wikipedia' (did you "
        "mean 'ulti'?); `ulti ladder` lists them\n",
        "hu": "ulti: error: hand.yaml:4:1: bid: 'ultimate' nincs a(z) 'wikipedia' bemondásai "
        "között (erre gondoltál: 'ulti'?); az `ulti ladder` felsorolja őket\n",
        "de": "ulti: error: hand.yaml:4:1: bid: 'ultimate' ist kein Gebot von 'wikipedia' "
        "(meintest du 'ulti'?); `ulti ladder` listet sie auf\n",
    },
    "kontra": {
        "en": "hand.yaml:10:10: kontra.ulti: 'superkontra' is not a kontra level: write a number "
        "(0 = none, 1 = Kontra, ... up to 16) or one of Kontra, Rekontra, Subkontra, Mordkontra, "
        "Hirschkontra, Fedák Sári, Kerekes bicikli (did you mean 'Subkontra'?)\n"
        "hand.yaml:10:29: kontra.betli: 'betli' is not a component of 'ulti' (parti, ulti)\n"
        "ulti: error: 2 problems\n",
        "hu": "hand.yaml:10:10: kontra.ulti: 'superkontra' nem kontraszint: írj egy számot "
        "(0 = nincs, 1 = Kontra, ... legfeljebb 16) vagy ezek egyikét: Kontra, Rekontra, "
        "Szubkontra, Mordkontra, Hirschkontra, Fedák Sári, Kerekes bicikli (erre gondoltál: "
        "'Subkontra'?)\n"
        "hand.yaml:10:29: kontra.betli: 'betli' nem komponense a(z) 'ulti' bemondásnak "
        "(parti, ulti)\n"
        "ulti: error: 2 hiba\n",
        "de": "hand.yaml:10:10: kontra.ulti: 'superkontra' ist keine Kontrastufe: schreib eine "
        "Zahl (0 = keine, 1 = Kontra, ... bis 16) oder eine von Kontra, Rekontra, Szubkontra, "
        "Mordkontra, Hirschkontra, Fedák Sári, Kerekes bicikli (meintest du 'Subkontra'?)\n"
        "hand.yaml:10:29: kontra.betli: 'betli' ist kein Bestandteil von 'ulti' (parti, ulti)\n"
        "ulti: error: 2 Probleme\n",
    },
    "marriages": {
        "en": "hand.yaml:10:1: marriages: the King and Over of hearts make one marriage, "
        "announced twice (Ben and Ben)\n"
        "hand.yaml:10:44: marriages.Carla.0: 'spadez' is not a suit (did you mean 'spades'?)\n"
        "ulti: error: 2 problems\n",
        "hu": "hand.yaml:10:1: marriages: a piros király és felső egyetlen pár, mégis kétszer "
        "mondták be (Ben és Ben)\n"
        "hand.yaml:10:44: marriages.Carla.0: 'spadez' nem szín (erre gondoltál: 'spades'?)\n"
        "ulti: error: 2 hiba\n",
        "de": "hand.yaml:10:1: marriages: König und Ober in Herz sind ein einziges Paar, zweimal "
        "angesagt (Ben und Ben)\n"
        "hand.yaml:10:44: marriages.Carla.0: 'spadez' ist keine Farbe (meintest du 'spades'?)\n"
        "ulti: error: 2 Probleme\n",
    },
    "durchmars": {
        "en": "ulti: error: hand.yaml:10:1: durchmars: Ben took every trick (a durchmars), but "
        "tricks gives Ben 2 and Anna 6, Carla 2\n",
        "hu": "ulti: error: hand.yaml:10:1: durchmars: Ben minden ütést elvitt (durchmars), de a "
        "tricks szerint Ben 2 ütést vitt, és ütést vitt még: Anna 6, Carla 2\n",
        "de": "ulti: error: hand.yaml:10:1: durchmars: Ben hat alle Stiche gemacht (ein "
        "Durchmars), aber tricks gibt Ben 2 und Anna 6, Carla 2\n",
    },
    "hundred": {
        "en": "hand.yaml:10:1: marriages: in a 40-100 the declarer announces only the bid "
        "marriage (the trump marriage), but Anna announced acorns, bells\n"
        "hand.yaml:10:1: marriages: in a 40-100 the defenders announce no marriages here, but "
        "Ben did\n"
        "ulti: error: 2 problems\n",
        "hu": "hand.yaml:10:1: marriages: a(z) 40-100 játékban a felvevő csak a bemondott párt "
        "mondja be (a 40-et), Anna mégis ezeket mondta be: makk, tök\n"
        "hand.yaml:10:1: marriages: a(z) 40-100 játékban itt a védők nem mondanak be 20-at vagy "
        "40-et, mégis bemondott: Ben\n"
        "ulti: error: 2 hiba\n",
        "de": "hand.yaml:10:1: marriages: bei 40-100 sagt der Alleinspieler nur das gebotene Paar "
        "an (das Trumpfpaar), aber Anna hat Eichel, Schellen angesagt\n"
        "hand.yaml:10:1: marriages: bei 40-100 sagen die Gegner hier keine Paare an, angesagt "
        "hat aber: Ben\n"
        "ulti: error: 2 Probleme\n",
    },
    "cannot_hold": {
        "en": "hand.yaml:6:1: points: the declarer took 6 tricks (18 cards), which cannot hold 79 "
        "card points besides the last trick's 10: cards count ace 10, ten 10, every other card 0\n"
        "hand.yaml:6:1: points: the defenders took 4 tricks (12 cards), which cannot hold 1 card "
        "points: cards count ace 10, ten 10, every other card 0\n"
        "ulti: error: 2 problems\n",
        "hu": "hand.yaml:6:1: points: a felvevő 6 ütést vitt (18 lap), ezekben az utolsó ütés 10 "
        "pontján felül nem lehet 79 pont: a lapok értéke: ász 10, tízes 10, minden más lap 0\n"
        "hand.yaml:6:1: points: a védők 4 ütést vittek (12 lap), ezekben nem lehet 1 pont: a "
        "lapok értéke: ász 10, tízes 10, minden más lap 0\n"
        "ulti: error: 2 hiba\n",
        "de": "hand.yaml:6:1: points: die Stiche des Alleinspielers (6, also 18 Karten) können "
        "neben den 10 des letzten Stichs keine 79 Augen enthalten: die Karten zählen: Ass 10, "
        "Zehn 10, jede andere 0\n"
        "hand.yaml:6:1: points: die Stiche der Gegner (4, also 12 Karten) können keine 1 Augen "
        "enthalten: die Karten zählen: Ass 10, Zehn 10, jede andere 0\n"
        "ulti: error: 2 Probleme\n",
    },
}
"""What `ulti score hand.yaml --lang LANG` prints on stderr for some of SHEETS: in English
the very words it always printed."""


@pytest.mark.parametrize("lang", ["en", *LANGS])
@pytest.mark.parametrize("case", list(SCORED))
def test_ulti_score_says_a_sheet_s_problems_in_its_language(
    tmp_path: Path, ulti: RunUlti, case: str, lang: str
) -> None:
    write_sheet(tmp_path, case)
    done = ulti("score", "hand.yaml", "--lang", lang)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == SCORED[case][lang]


def test_ulti_lang_chooses_the_language_of_a_sheet_s_problems(
    tmp_path: Path, ulti: RunUlti
) -> None:
    """Without ``--lang``, ``ULTI_LANG`` (else the locale) says which language, as for the
    settlement."""
    write_sheet(tmp_path, "trump")
    hungarian = ulti("score", "hand.yaml", env={"ULTI_LANG": "hu"})
    assert hungarian.stderr == SCORED["trump"]["hu"]
    english = ulti("score", "hand.yaml", env={"ULTI_LANG": "en"})
    assert english.stderr == SCORED["trump"]["en"]


# --------------------------------------------------------------------------- `ulti ledger`


def _tampered(data: dict[str, Any]) -> None:
    data["hands"][0].update(
        bid="betli",
        declarer="Carla",
        payments={"Anna": -1_000_000, "Ben": 500_000, "Carla": 500_000},
    )


def _setting(path: tuple[str | int, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        node = data
        for key in path[:-1]:
            node = node[key]
        if value is _GONE:
            del node[path[-1]]
        else:
            node[path[-1]] = value

    return change


_GONE = object()
EDITS: dict[str, Callable[[dict[str, Any]], None]] = {
    "tampered": _tampered,
    "payments": _setting(("hands", 0, "payments"), {"Anna": -9, "Ben": 18, "Dora": -9}),
    "format": _setting(("format",), "ulti-ledger/2"),
    "heart_ace": _setting(("hands", 1, "heart_ace"), "Anna"),
    "deal_turn": _setting(("hands", 1, "dealer"), "Anna"),
    "no_format": _setting(("format",), _GONE),
    "listed_twice": _setting(("players",), ["Anna", "Ben", "Anna"]),
    "first_dealer": _setting(("first_dealer",), "Dora"),
    "number": _setting(("hands", 1, "number"), 5),
    "hand_dealer": _setting(("hands", 1, "dealer"), "Dora"),
    "payments_missing": _setting(("hands", 0, "payments"), {"Anna": 9, "Ben": -9}),
    "payments_unknown": _setting(
        ("hands", 0, "payments"), {"Anna": -9, "Ben": 18, "Carla": -9, "Dora": 0}
    ),
    "sum": _setting(("hands", 0, "payments"), {"Anna": -9, "Ben": 19, "Carla": -9}),
    "players_count": _setting(("players",), ["Anna", "Ben", "Carla", "Dani"]),
    "no_bid": _setting(("hands", 0, "bid"), "ultimate"),
    "sheet_players": _setting(("hands", 0, "sheet", "players"), ["Anna", "Carla", "Ben"]),
    "sheet_ruleset": _setting(("hands", 0, "sheet", "ruleset"), "tournament"),
    "sheet_dealer": _setting(("hands", 1, "sheet", "dealer"), "Carla"),
    "sheet_kontra": _setting(("hands", 0, "sheet", "kontra"), {"ulti": "9999999999999"}),
    "sheet_kontra_17": _setting(("hands", 0, "sheet", "kontra"), {"ulti": "17"}),
    "played_no_sheet": _setting(("hands", 0, "sheet"), _GONE),
    "misdeal_declarer": _setting(("hands", 0, "kind"), "misdeal"),
    "passed_declarer": _setting(("hands", 0, "kind"), "passed_out"),
    "played_redeal": _setting(("hands", 0, "redeal"), True),
    "ruleset_gone": _setting(("ruleset",), "wikipedi"),
}
"""Edits of a two-hand session (``ledger_support.two_hand_session``), each a ledger file
edited into what no table could have written."""


def edited(folder: Path, edit: str) -> Path:
    path, _ = two_hand_session(folder)
    data = json.loads(path.read_text("utf-8"))
    EDITS[edit](data)
    path.write_text(json.dumps(data, indent=2), "utf-8")
    return path


SHOWN = {
    "tampered": {
        "en": "s.json:17:7: hands.0.declarer: the sheet kept with this hand says 'Ben' declared, "
        "not 'Carla'\n"
        "s.json:18:7: hands.0.bid: the sheet kept with this hand says the bid was 'ulti', not "
        "'betli'\n"
        "s.json:52:7: hands.0.payments: settling the sheet kept with this hand gives Anna -9, "
        "Ben +18, Carla -9, not Anna -1000000, Ben +500000, Carla +500000\n"
        "ulti: error: 3 problems in the ledger\n",
        "hu": "s.json:17:7: hands.0.declarer: a leosztással együtt tárolt eredménylap szerint "
        "'Ben' volt a felvevő, nem 'Carla'\n"
        "s.json:18:7: hands.0.bid: a leosztással együtt tárolt eredménylap szerint a bemondás "
        "'ulti' volt, nem 'betli'\n"
        "s.json:52:7: hands.0.payments: a leosztással együtt tárolt eredménylap elszámolása ezt "
        "adja: Anna -9, Ben +18, Carla -9, nem ezt: Anna -1000000, Ben +500000, Carla +500000\n"
        "ulti: error: a pontozólap: 3 hiba\n",
        "de": "s.json:17:7: hands.0.declarer: laut dem mit diesem Spiel aufbewahrten Spielzettel "
        "war 'Ben' Alleinspieler, nicht 'Carla'\n"
        "s.json:18:7: hands.0.bid: laut dem mit diesem Spiel aufbewahrten Spielzettel war das "
        "Gebot 'ulti', nicht 'betli'\n"
        "s.json:52:7: hands.0.payments: die Abrechnung des mit diesem Spiel aufbewahrten "
        "Spielzettels ergibt Anna -9, Ben +18, Carla -9, nicht Anna -1000000, Ben +500000, "
        "Carla +500000\n"
        "ulti: error: die Spielliste: 3 Probleme\n",
    },
    "payments": {
        "en": "ulti: error: s.json:52:7: hands.0.payments: one payment for each of the players "
        "(Anna, Ben, Carla); not a player: Dora; missing: Carla\n",
        "hu": "ulti: error: s.json:52:7: hands.0.payments: minden játékosnak egy kifizetés jár "
        "(Anna, Ben, Carla); nem játékos: Dora; hiányzik: Carla\n",
        "de": "ulti: error: s.json:52:7: hands.0.payments: eine Zahlung für jeden der Spieler "
        "(Anna, Ben, Carla); kein Spieler: Dora; es fehlt: Carla\n",
    },
    "format": {
        "en": "ulti: error: s.json:2:3: format: not a ledger: 'format' must be 'ulti-ledger/1', "
        "not 'ulti-ledger/2' (see docs/ledger.md)\n",
        "hu": "ulti: error: s.json:2:3: format: ez nem pontozólap: a 'format' értéke ez kell "
        "legyen: 'ulti-ledger/1', nem 'ulti-ledger/2' (lásd docs/ledger.md)\n",
        "de": "ulti: error: s.json:2:3: format: keine Spielliste: 'format' muss 'ulti-ledger/1' "
        "sein, nicht 'ulti-ledger/2' (siehe docs/ledger.md)\n",
    },
    "heart_ace": {
        "en": "ulti: error: s.json:106:7: hands.1.heart_ace: this session does not end by the Ace "
        "of hearts (its end is 'none')\n",
        "hu": "ulti: error: s.json:106:7: hands.1.heart_ace: ez a játék nem a piros ásszal ér "
        "véget (a vége: 'none')\n",
        "de": "ulti: error: s.json:106:7: hands.1.heart_ace: diese Sitzung endet nicht mit dem "
        "Herz-Ass (ihr Ende ist 'none')\n",
    },
    "deal_turn": {
        "en": "ulti: error: s.json:65:7: hands.1.dealer: the deal passes to the right: Ben deals "
        "hand 2, not Anna\n",
        "hu": "ulti: error: s.json:65:7: hands.1.dealer: az osztás jobbra halad: a(z) 2. "
        "leosztást Ben osztja, nem Anna\n",
        "de": "ulti: error: s.json:65:7: hands.1.dealer: das Geben geht nach rechts: Ben gibt "
        "Spiel 2, nicht Anna\n",
    },
}
"""What `ulti ledger show s.json --lang LANG` prints on stderr for some of EDITS."""


@pytest.mark.parametrize("lang", ["en", *LANGS])
@pytest.mark.parametrize("case", list(SHOWN))
def test_ulti_ledger_says_a_ledger_file_s_problems_in_its_language(
    tmp_path: Path, ulti: RunUlti, case: str, lang: str
) -> None:
    edited(tmp_path, case)
    done = ulti("ledger", "show", "s.json", "--lang", lang)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == SHOWN[case][lang]


ADDED = {
    "en": "h2.yaml:9:1: players: the session's players are Anna, Ben, Carla\n"
    "h2.yaml:10:1: dealer: the deal passes to the right: Carla deals hand 3, not Anna\n"
    "ulti: error: 2 problems\n",
    "hu": "h2.yaml:9:1: players: a játék játékosai: Anna, Ben, Carla\n"
    "h2.yaml:10:1: dealer: az osztás jobbra halad: a(z) 3. leosztást Carla osztja, nem Anna\n"
    "ulti: error: 2 hiba\n",
    "de": "h2.yaml:9:1: players: die Spieler der Sitzung sind Anna, Ben, Carla\n"
    "h2.yaml:10:1: dealer: das Geben geht nach rechts: Carla gibt Spiel 3, nicht Anna\n"
    "ulti: error: 2 Probleme\n",
}


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_ulti_ledger_add_says_a_sheet_that_does_not_fit_in_its_language(
    tmp_path: Path, ulti: RunUlti, lang: str
) -> None:
    ledger, _ = two_hand_session(tmp_path)
    before = ledger.read_bytes()
    (tmp_path / "h2.yaml").write_text(
        BEN_MAKES_ULTI + "players: [Anna, Carla, Ben]\ndealer: Anna\n", "utf-8"
    )
    done = ulti("ledger", "add", "s.json", "h2.yaml", "--lang", lang)
    assert done.returncode == 1
    assert done.stderr == ADDED[lang]
    assert ledger.read_bytes() == before


@pytest.mark.parametrize(
    ("lang", "none_given", "both_given", "exists"),
    [
        (
            "en",
            "give a HAND, --misdeal or --passed-out",
            "give only one of HAND, --misdeal",
            "s.json already exists; use --force to start it again",
        ),
        (
            "hu",
            "adj meg egy leosztást (HAND), vagy a --misdeal vagy a --passed-out kapcsolót",
            "ezek közül csak egyet adj meg: HAND, --misdeal",
            "s.json már létezik; az újrakezdéshez add meg a --force kapcsolót",
        ),
        (
            "de",
            "gib ein Spiel (HAND), --misdeal oder --passed-out an",
            "gib nur eines davon an: HAND, --misdeal",
            None,
        ),
    ],
)
def test_ulti_ledger_s_own_refusals_are_said_in_its_language(
    tmp_path: Path,
    ulti: RunUlti,
    lang: str,
    none_given: str,
    both_given: str,
    exists: str | None,
) -> None:
    two_hand_session(tmp_path)
    done = ulti("ledger", "add", "s.json", "--lang", lang)
    assert done.returncode == 1 and done.stderr == f"ulti: error: {none_given}\n"
    (tmp_path / "h.yaml").write_text(BEN_MAKES_ULTI, "utf-8")
    done = ulti("ledger", "add", "s.json", "h.yaml", "--misdeal", "--lang", lang)
    assert done.returncode == 1 and done.stderr == f"ulti: error: {both_given}\n"
    if exists is not None:
        again = ("ledger", "new", "s.json", "--ruleset", "wikipedia", "--players", "A,B,C")
        done = ulti(*again, "--lang", lang)
        assert done.returncode == 1 and done.stderr == f"ulti: error: {exists}\n"


# --------------------------------------------------------------------------- every problem


CLUB = "name: club\nextends: wikipedia\n"


def club_session(folder: Path, club: str = CLUB, hands: int = 2) -> Path:
    """``folder/s.json``: a session on ``folder/club.yaml`` with ``hands`` of BEN_MAKES_ULTI."""
    (folder / "club.yaml").write_text(club, "utf-8")
    (folder / "hand.yaml").write_text(BEN_MAKES_ULTI, "utf-8")
    ledger = new_ledger(str(folder / "club.yaml"), LEDGER_PLAYERS, None, None, folder=folder)
    sheet, where = read_sheet(folder / "hand.yaml")
    for _ in range(hands):
        add_hand(ledger, sheet, where, folder, source="hand.yaml")
    path = folder / "s.json"
    save_ledger(ledger, path)
    return path


def rewritten(path: Path, change: Callable[[dict[str, Any]], object]) -> Path:
    data = json.loads(path.read_text("utf-8"))
    change(data)
    path.write_text(json.dumps(data), "utf-8")
    return path


UNPLAYED_HAND = {"number": 2, "dealer": "Ben", "payments": {"Anna": 0, "Ben": 0, "Carla": 0}}


def _club_changed(folder: Path) -> None:
    path = club_session(folder)
    (folder / "club.yaml").write_text(CLUB + "session: {hands: 1}\n", "utf-8")
    load_ledger(path)


def _over(folder: Path) -> None:
    path = club_session(folder, CLUB + "session: {hands: 1}\n", hands=1)

    def again(data: dict[str, Any]) -> None:
        hand = dict(data["hands"][0], number=2, dealer="Ben")
        hand["sheet"] = dict(hand["sheet"], dealer="Ben")
        data["hands"].append(hand)

    load_ledger(rewritten(path, again))


def _called_twice(folder: Path) -> None:
    def twice(data: dict[str, Any]) -> None:
        data["end"] = "heart_ace"
        data["hands"][0]["heart_ace"] = "Anna"
        data["hands"][1]["heart_ace"] = "Ben"

    load_ledger(rewritten(club_session(folder), twice))


def _unplayed(club: str, **hand: Any) -> Callable[[Path], None]:
    """Hand 2 of a session on ``club`` made a deal not played: UNPLAYED_HAND with ``hand``."""

    def second(data: dict[str, Any]) -> None:
        data["hands"][1] = {**UNPLAYED_HAND, **hand}

    def session(folder: Path) -> None:
        load_ledger(rewritten(club_session(folder, club), second))

    return session


def _not_utf8(folder: Path) -> None:
    (folder / "s.json").write_bytes(b'{"format": "ulti-ledger/1",\n "x": "\xff"}')
    load_ledger(folder / "s.json")


def _not_a_file(folder: Path) -> None:
    (folder / "s.json").mkdir()
    load_ledger(folder / "s.json")


def _added(text: str) -> Callable[[Path], None]:
    def session(folder: Path) -> None:
        ledger = load_ledger(club_session(folder))
        (folder / "h2.yaml").write_text(BEN_MAKES_ULTI + text, "utf-8")
        sheet, where = read_sheet(folder / "h2.yaml")
        add_hand(ledger, sheet, where, folder, source="h2.yaml")

    return session


def _saved_over(folder: Path) -> None:
    path = club_session(folder)
    save_ledger(load_ledger(path), path, overwrite=False)


def _saved_nowhere(folder: Path) -> None:
    save_ledger(load_ledger(club_session(folder)), folder / "nope" / "s.json")


SESSIONS: dict[str, Callable[[Path], None]] = {
    "club_changed": _club_changed,
    "over": _over,
    "called_twice": _called_twice,
    "misdeal_pays": _unplayed(CLUB, kind="misdeal", payments={"Anna": 1, "Ben": -1, "Carla": 0}),
    "misdeal_called": _unplayed(CLUB, kind="misdeal", redeal=True, heart_ace="Anna"),
    "misdeal_redeal": _unplayed(
        CLUB + "deal: {misdeal_redeal_same_dealer: false}\n", kind="misdeal", redeal=True
    ),
    "passed_out": _unplayed(CLUB, kind="passed_out", payments={"Anna": 2, "Ben": -2, "Carla": 0}),
    "not_utf8": _not_utf8,
    "not_a_file": _not_a_file,
    "added_players": _added("players: [Anna, Carla, Ben]\ndealer: Anna\n"),
    "added_ruleset": _added("ruleset: tournament\n"),
    "saved_over": _saved_over,
    "saved_nowhere": _saved_nowhere,
}
"""Sessions that go wrong in other ways: a club file changed, a session over or ended
twice, a deal not played kept wrong, a file that is no text, a hand that does not fit, a
ledger not written."""


def problems_of(run: Callable[[], object]) -> list[Problem]:
    with pytest.raises(ProblemsError) as caught:
        run()
    return list(caught.value.problems)


def every_problem(folder: Path) -> Iterator[tuple[str, Problem]]:
    """Each problem of SHEETS, EDITS and SESSIONS, by the case that makes it."""
    for name in SHEETS:
        path = write_sheet(folder, name)
        for problem in problems_of(lambda: settle_sheet(path)):  # noqa: B023
            yield name, problem
    for name in EDITS:
        case = folder / f"edit-{name}"
        case.mkdir()
        path = edited(case, name)
        for problem in problems_of(lambda: load_ledger(path)):  # noqa: B023
            yield name, problem
    for name, session in SESSIONS.items():
        case = folder / f"session-{name}"
        case.mkdir()
        for problem in problems_of(lambda: session(case)):  # noqa: B023
            yield name, problem


def impossible_facts() -> Iterator[tuple[str, Problem]]:
    """What no sheet reaches (the reader refuses it first): a stranger's tricks, a marriage
    valued otherwise than the ruleset values it; and negative card points."""
    facts = make_facts(
        tricks={0: 6, 1: 2, 2: 1, 3: 1},
        talon_points=-5,
        defender_points=-5,
        marriages=[(1, "bells", 40)],
    )
    for issue in impossibilities(facts, load_ruleset("wikipedia"), lambda s: f"P{s + 1}"):
        yield "impossible", Problem.unplaced(issue.message)


@cache
def catalogue(lang: str) -> Catalog:
    path = i18n.LOCALES / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with path.open("rb") as handle:
        return read_po(handle, locale=lang)


def test_every_problem_of_a_sheet_or_a_ledger_is_said_in_hungarian_and_german(
    tmp_path: Path,
) -> None:
    """Every problem the broken sheets and ledgers make is a Said; each message in it (the
    sentence, a hint, a nested clause) is translated in both catalogues with the same
    placeholders, and the problem reads otherwise in each language than in English, with
    the names in it (suits, ranks, bids, kontra levels) said in that language."""
    templates: set[str] = set()
    cases: set[str] = set()
    for case, problem in [*every_problem(tmp_path), *impossible_facts()]:
        message = problem.message
        assert isinstance(message, Said), (case, str(problem))
        cases.add(case)
        for template in words(message):
            templates.add(template)
            for lang in LANGS:
                entry = catalogue(lang).get(template)
                assert entry is not None and entry.string, (lang, template)
                assert not entry.fuzzy, (lang, template)
                wanted = set(PLACEHOLDER.findall(template))
                assert set(PLACEHOLDER.findall(entry.string)) == wanted, (lang, template)
        for lang in LANGS:
            said = say_in(translator(lang).gettext, message, lang)
            assert said != str(message), (lang, str(message))
            for name in names_in(message):
                assert name.names.get(lang, str(name)) in said, (lang, said)
    assert cases == {*SHEETS, *EDITS, *SESSIONS, "impossible"}  # every case found a problem
    assert len(templates) >= 120, len(templates)


def test_several_problems_of_a_ledger_s_ruleset_are_each_said_in_its_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two problems of the session's ruleset without a line of their own were joined into
    one English string: each is now said in the ledger's language (found by a review)."""
    ledger, _ = two_hand_session(tmp_path)
    two = [
        Problem.unplaced(Said("the document"), "a.yaml"),
        Problem.unplaced(Said("the ledger"), "b.yaml"),
    ]

    def refused(self: Ledger, registry: object = None) -> None:
        raise RulesetError(two)

    monkeypatch.setattr(Ledger, "rules", refused)
    with pytest.raises(ProblemsError) as caught:
        load_ledger(ledger)
    (problem,) = caught.value.problems
    assert problem.message.endswith("the document; the ledger")
    hu = say_in(translator("hu").gettext, problem.message, "hu")
    assert hu.endswith("a dokumentum; a pontozólap"), hu
