"""Hand records: a played hand as a readable YAML or JSON document, and its replay.

A record holds what is needed to play the hand again and what came of it: the
ruleset (its name and the content hash of the resolved ruleset), the players by
seat, the dealer, the seed, the deal in card notation, every action in order with
the seat that took it, and the contract and facts. The format is in
docs/records.md.

Nothing in a record is trusted: :func:`replay` deals the recorded cards and applies
every action through the rules, so a tampered record is refused at the first
action the rules do not allow ("action 17 (play PVII by seat 2): must follow
hearts (Piros)"), and the contract and facts it states must be the ones the
replay produces.

A record made under a ruleset whose content has since changed (another hash) is
refused by default: its actions may still be legal while the settlement they lead
to is not what the table played for. ``check_hash=False`` (``ulti replay
--ignore-hash``) replays it under the ruleset as it is now.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    PrivateAttr,
    ValidationError,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from . import safe_files
from .cards import Card, CardParseError, format_cards, parse_cards
from .contracts.fact_specs import PLAYERS, FactForm
from .engine import Action, BadDeal, Deal, Hand, action_from_dict
from .engine.deal import deal_cards
from .errors import IllegalAction, MoreProblems, Problem, ProblemsError, RulesetError
from .facts import Contract, Facts
from .frozen import FrozenDict
from .game import Game
from .game.game import not_a_ruleset
from .plugins import Registry, get_registry
from .quoting import shorten, shorten_quoted, shorten_said
from .ruleset.hints import did_you_mean
from .ruleset.loading import check_name, content_hash, load_ruleset, locate
from .ruleset.positions import Where, leading, yaml_problems
from .ruleset.pydantic_problems import error_message, validation_problems
from .ruleset.references import OutsideReference, expand_home, is_path
from .ruleset.safe_yaml import KeyPath, Position, YamlError, read_file
from .ruleset.scalars import decimal_point_hint, describe
from .ruleset.schema import Ruleset
from .said import Said, said_of
from .scoring.sheet import PlayerName

FORMAT: Literal["ulti-hand/1"] = "ulti-hand/1"
SUFFIXES = (".yaml", ".yml", ".json")


def _seed(value: Any) -> Any:
    """A seed as a hand takes one: a whole number or a text. One problem for anything else
    (a fraction, true/false, a list), not one for each kind it is not; and ``true`` is not
    taken for seed 1, nor ``2.0`` for seed 2."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise PydanticCustomError(
        "seed_type",
        "should be a whole number or a text, not {given}{hint}",
        {"given": describe(value), "hint": decimal_point_hint(value)},
    )


Seed = Annotated[int | str | None, BeforeValidator(_seed)]
"""The seed a record's deal was shuffled with (null for a given deal)."""


class RecordError(ProblemsError):
    """A record that cannot be read, or that does not replay; ``problems`` says what,
    each at its key of the file where the record was read from one."""

    within = Said("the record")


class _RulesetUnloaded(RecordError):
    """The ruleset a record names does not load: its problems, each at the record's
    ``ruleset`` key, are counted as the ruleset's (``3 problems in the ruleset``)."""

    within = RulesetError.within


class RecordExists(RecordError):
    """A record's name is taken: :func:`save` does not overwrite it (another writer, or a
    record kept from before, may be there)."""


# --------------------------------------------------------------------------- fields


def _read_deal(value: Any) -> Deal:
    if isinstance(value, Deal):
        return value
    if not isinstance(value, Mapping):
        raise ValueError("the deal is a mapping with 'hands' (one per seat) and 'rest'")
    extra = set(value) - {"hands", "rest"}
    if extra:
        raise ValueError(f"the deal has unknown keys: {', '.join(sorted(map(str, extra)))}")
    try:
        return Deal.from_dict(value)
    except (BadDeal, CardParseError) as exc:
        raise ValueError(*exc.args) from None  # a Said stays one: translatable


Step = tuple[int, Action]
"""One recorded action: the seat that took it, and the action."""


def _read_step(value: Any) -> Step:
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], Action):
        return value
    if not isinstance(value, Mapping) or "seat" not in value:
        raise ValueError("an action is a mapping with the 'seat' that took it and its 'type'")
    data = dict(value)
    seat = data.pop("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise ValueError(f"'seat' must be a seat number, not {seat!r}")
    return seat, action_from_dict(data)  # MalformedAction is a ValueError, a card's too


def _write_step(step: Step) -> dict[str, Any]:
    return {"seat": step[0], **step[1].to_dict()}


_CORE_FACTS = frozenset(Facts.model_fields)
_WRITTEN_FACTS = _CORE_FACTS - {"extra"}
"""The core facts as a record writes them: the declared facts beside them, not under
``extra`` (``_write_facts``)."""
_OLD_FACTS: Mapping[str, FactForm[Any]] = {"ace_winners": PLAYERS}
"""Declared facts that records stated before facts were declared (then a core fact,
under every ruleset): read whatever plugins are installed, so such records still read."""
_FACT_EXAMPLES = {"players": "[0, 2, 2, 1]", "player": "1", "count": "2", "flag": "true"}
"""How a record writes a declared fact of each form (``fact_specs.FORMS``): seats, not
the names a score sheet gives."""


def _read_facts(value: Any) -> Any:
    """Cards in the facts may be written in notation (``"MA MX PVII"``), as records do.

    A key that is no core fact is a fact a contract kind declares (``ace_winners``),
    written beside the core ones as records always had it: it goes into ``extra``.
    Its name and the shape of its value are checked by :func:`record_from_data`
    (``_declared_facts``); whether the ruleset's kinds compute it, and its value, by
    replay against the engine.
    """
    if not isinstance(value, Mapping):
        return value
    data = {k: v for k, v in value.items() if k in _CORE_FACTS}
    declared = {k: v for k, v in value.items() if k not in _CORE_FACTS}
    if declared:
        given = data.get("extra")
        data["extra"] = {**given, **declared} if isinstance(given, Mapping) else declared
    if isinstance(data.get("talon"), str):
        data["talon"] = _cards(data["talon"])
    tricks = data.get("tricks")
    if isinstance(tricks, list):
        data["tricks"] = [
            {**t, "cards": _cards(t["cards"])}
            if isinstance(t, Mapping) and isinstance(t.get("cards"), str)
            else t
            for t in tricks
        ]
    return data


def _cards(text: str) -> list[int]:
    try:
        return parse_cards(text)
    except CardParseError as exc:
        raise ValueError(*exc.args) from None


def _write_facts(facts: Facts | None) -> dict[str, Any] | None:
    """The facts as a record writes them: declared facts beside the core ones."""
    if facts is None:
        return None
    data = facts.model_dump(mode="json")
    data.update(data.pop("extra"))
    if data.get("talon") is not None:
        data["talon"] = format_cards(data["talon"])
    if data.get("tricks") is not None:
        data["tricks"] = [{**t, "cards": format_cards(t["cards"])} for t in data["tricks"]]
    return data


RecordedDeal = Annotated[Deal, PlainValidator(_read_deal), PlainSerializer(lambda d: d.to_dict())]
RecordedStep = Annotated[Step, PlainValidator(_read_step), PlainSerializer(_write_step)]
RecordedFacts = Annotated[Facts | None, BeforeValidator(_read_facts), PlainSerializer(_write_facts)]


class HandRecord(BaseModel):
    """One finished hand, as saved: enough to replay it, and what it came to."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["ulti-hand/1"] = FORMAT
    ruleset: str = Field(description="The ruleset's name, or a path relative to the record.")
    ruleset_hash: str = Field(description="content_hash() of the resolved ruleset.")
    players: list[PlayerName] = Field(
        description="The players' names, seat 0 first: as on a score sheet, not empty and at "
        "most 40 characters."
    )
    dealer: int = Field(ge=0, description="The dealer's seat.")
    seed: Seed = Field(
        default=None, description="The seed the deal was shuffled with; null for a given deal."
    )
    deal: RecordedDeal = Field(description="The cards per seat and the rest, in card notation.")
    actions: list[RecordedStep] = Field(description="Every action in order, with its seat.")
    contract: Contract | None = Field(description="What was bid and doubled; null if passed out.")
    facts: RecordedFacts = Field(description="What happened; null for a hand not played out.")

    _source: str | None = PrivateAttr(default=None)
    _positions: Mapping[KeyPath, Position] = PrivateAttr(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        """The record as plain data (the document that ``save`` writes)."""
        return self.model_dump(mode="json")

    def problem(self, path: KeyPath, message: str) -> Problem:
        """``message`` at the key ``path`` (or its closest ancestor) of the file the record
        was loaded from: ``hand.yaml:57:5: message``; unplaced for a record made in memory.
        The message names what it is about (``action 17 (...)``), so the key path is not
        repeated in it."""
        problem = Where(self._source or "", self._positions).problem(path, message)
        return dataclasses.replace(problem, path="")


# --------------------------------------------------------------------------- making and saving


def record_of(
    hand: Hand,
    ruleset_name: str,
    *,
    players: Sequence[str] | None = None,
    ruleset_hash: str | None = None,
) -> HandRecord:
    """The record of a finished hand; ``ruleset_name`` is how the ruleset is found again.

    ``ruleset_hash`` may be passed when many hands share one ruleset (it is the
    ruleset's ``content_hash``, which costs a dump of the whole ruleset). A name (or an
    absolute path) that finds other rules than the hand's is a RecordError: the record
    would carry the hand's hash under it, and its replay say the rules changed since.
    """
    if not hand.is_over:
        raise RecordError("a record is made of a finished hand, and this one is not over")
    count = hand.ruleset.players.count
    names = list(players) if players is not None else [f"P{i + 1}" for i in range(count)]
    if len(names) != count:
        raise RecordError(f"'{hand.ruleset.name}' is for {count} players, not {len(names)}")
    found_hash = ruleset_hash or content_hash(hand.ruleset)
    _check_ruleset_name(hand, ruleset_name, found_hash)
    try:
        return HandRecord(
            ruleset=ruleset_name,
            ruleset_hash=found_hash,
            players=names,
            dealer=hand.dealer,
            seed=hand.seed,  # None for a given deal: a hand takes a seed or a deal, not both
            deal=hand.deal,
            actions=list(hand.history),
            contract=hand.contract,
            facts=hand.facts,
        )
    except ValidationError as exc:  # a player's name that no record may hold
        given = {"players": names}  # where the errors are: what the caller gave
        problems = validation_problems(exc, given, _IN_MEMORY, lambda e, _: _message(e, given))
        raise RecordError(problems) from None


def _check_ruleset_name(hand: Hand, ruleset_name: str, found_hash: str) -> None:
    """RecordError if ``ruleset_name`` finds rules other than the hand's. A relative path
    is read from the folder the record will be saved in, not known here, and a reference
    that finds no ruleset is one the replay says so of: both are left to the replay."""
    if is_path(ruleset_name):
        written = expand_home(ruleset_name)  # None: ~nosuchuser, which the replay says
        if written is None or not written.is_absolute():
            return
    try:
        named = load_ruleset(ruleset_name, hand.registry)
    except RulesetError:
        return
    if named is not hand.ruleset and content_hash(named) != found_hash:
        raise RecordError(
            f"the hand was played under '{hand.ruleset.name}', and '{shorten(ruleset_name)}' "
            "finds other rules: name the ruleset the hand was played under"
        )


def _suffix(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        message = f"a record is saved as .yaml, .yml or .json, not '{suffix}'"
        raise RecordError([Problem.unplaced(message, str(path))])
    return suffix


class _Line(dict[str, Any]):
    """A mapping written on one line in YAML (an action, a trick, a marriage)."""


class _Column(list[Any]):
    """A list written one item a line in YAML (the hands of the deal)."""


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """The safe dumper (libyaml's where built): ``_Line`` mappings and lists of plain
    values on one line, ``_Column`` lists one item a line."""


def _represent_line(dumper: yaml.SafeDumper, data: _Line) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True)


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flat = not isinstance(data, _Column) and not any(isinstance(v, dict | list) for v in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flat)


_Dumper.add_representer(_Line, _represent_line)
_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(_Column, _represent_list)


def _lines(data: dict[str, Any]) -> dict[str, Any]:
    """Mark the mappings that read best on one line each."""
    data["deal"]["hands"] = _Column(data["deal"]["hands"])
    data["actions"] = [_Line(a) for a in data["actions"]]
    facts = data.get("facts")
    if facts is not None:
        if facts.get("tricks") is not None:
            facts["tricks"] = [_Line(t) for t in facts["tricks"]]
        facts["marriages"] = [_Line(m) for m in facts["marriages"]]
        for key in ("tricks_won", "card_points"):
            if facts.get(key) is not None:
                facts[key] = _Line(facts[key])
    contract = data.get("contract")
    if contract is not None:
        contract["kontra"] = {c: _Line(levels) for c, levels in contract["kontra"].items()}
    return data


def dumps(record: HandRecord, suffix: str = ".yaml") -> str:
    """The record as YAML (an action a line) or, for ``.json``, as JSON."""
    data = record.to_data()
    if suffix == ".json":
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    text: str = yaml.dump(
        _lines(data),
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=1000,
    )
    return text


def save(record: HandRecord, path: Path | str, *, overwrite: bool = False) -> Path:
    """Write the record; the suffix (.yaml, .yml or .json) picks the format.

    The file appears whole or not at all. A name that is taken (a symlink included) is
    refused unless ``overwrite``, which replaces that entry itself: a symlink is never
    written through (``safe_files``). Temporary files that killed writers left in the
    folder are removed first (``safe_files.sweep_temps``: never a live writer's).
    """
    path = Path(path)
    data = dumps(record, _suffix(path)).encode("utf-8")
    safe_files.sweep_temps(path.parent)
    try:
        if overwrite:
            safe_files.replace(path, data)
        else:
            safe_files.create(path, data)
    except FileExistsError:
        taken = Said("already exists; a record is not overwritten")
        raise RecordExists([Problem.unplaced(taken, str(path))]) from None
    except OSError as exc:
        failed = Said("cannot write the file: {why}", why=exc.strerror or str(exc))
        raise RecordError([Problem.unplaced(failed, str(path))]) from None
    return path


# --------------------------------------------------------------------------- loading


def _message(err: ErrorDetails, data: Any, *, hint: bool = True) -> str:
    """A pydantic error as a person reads it: values quoted to 40 characters (the card
    parser and the engine quote what they were given whole); without ``hint`` (a problem
    that will not be shown) no did-you-mean."""
    message = error_message(err, data, HandRecord, docs="docs/records.md", hint=hint)
    return message if err["type"] == "extra_forbidden" else shorten_said(message)


_IN_MEMORY = Where("", {})
"""Places the problems of a record made in memory: by key path, in no file."""


def _declared_facts(
    data: dict[str, Any], where: Where, registry: Registry | None
) -> tuple[dict[str, Any], list[Problem]]:
    """The record's ``facts`` keys that are neither core facts nor facts a kind of
    ``registry`` (default: the process's) declares, each a problem at its key with a
    did-you-mean; a declared fact's value in another shape than its form's, one problem
    at its key. Returns the data without those keys (so that the model does not say them
    again, as a list of union errors) and the problems."""
    facts = data.get("facts")
    if not isinstance(facts, Mapping) or all(key in _WRITTEN_FACTS for key in facts):
        return data, []  # the plugins are not asked for a record of core facts only
    found = registry if registry is not None else get_registry()
    forms = {**_OLD_FACTS, **{name: spec.form for name, spec in found.facts.items()}}
    known = [*_WRITTEN_FACTS, *forms]
    unknown = [("facts", key) for key in facts if key not in _WRITTEN_FACTS and key not in forms]
    hinted = leading(unknown, where.order)  # a did-you-mean only where it can be shown
    kept: dict[Any, Any] = {}
    problems: list[Problem] = []
    for key, value in facts.items():
        form = forms.get(key) if isinstance(key, str) else None
        if key in _WRITTEN_FACTS:
            kept[key] = value
        elif form is None:
            hint = did_you_mean(str(key), known) if ("facts", key) in hinted else ""
            message = Said(
                "unknown key '{key}'{hint} (see docs/records.md)", key=shorten(str(key)), hint=hint
            )
            problems.append(where.problem(("facts", key), message))
        else:
            try:
                form.validate(value)
            except ValidationError:
                given = json.dumps(value, ensure_ascii=False, default=str)
                message = Said(
                    "write it like {key}: {shape} (not {given})",
                    key=key,
                    shape=_FACT_EXAMPLES[form.name],
                    given=shorten(given),
                )
                problems.append(where.problem(("facts", key), message))
            else:
                kept[key] = value
    return {**data, "facts": kept}, problems


def record_from_data(
    data: Any,
    source: str | None = None,
    positions: Mapping[KeyPath, Position] | None = None,
    registry: Registry | None = None,
) -> HandRecord:
    """Check the shape of a record (read from the file ``source``); RecordError lists
    every problem, positioned where the file is known, in the order of the file.

    A key of its ``facts`` must be a core fact or one that a contract kind of
    ``registry`` (default: the process's) declares."""
    positions = positions or {}
    where = Where(source or "the record", positions)
    if not isinstance(data, dict):
        raise RecordError(
            [where.problem((), "a record is a mapping of keys (see docs/records.md)")]
        )
    if data.get("format") != FORMAT:
        message = f"not a hand record: 'format' must be '{FORMAT}'"
        if "format" not in data:  # another document (a score sheet): said of the file
            raise RecordError([where.problem((), message)])
        given = data["format"]
        if isinstance(given, str) and given.startswith(FORMAT.split("/")[0] + "/"):
            # "not text ('ulti-hand/2')": it is text, and a hand record; of another version
            message = (
                f"a hand record of another version ('{shorten(given)}'): this ulti-rules "
                f"reads '{FORMAT}'; a newer ulti-rules may read it"
            )
        else:
            message += f", not {describe(given)}"
        raise RecordError([where.problem(("format",), message)])
    checked, problems = _declared_facts(data, where, registry)
    try:
        record = HandRecord.model_validate(checked)
    except ValidationError as exc:
        problems += validation_problems(
            exc, data, where, lambda err, hint: _message(err, data, hint=hint)
        )
    if problems:
        raise RecordError(problems, ordered=True) from None
    record._source = source
    record._positions = positions
    return record


def read_document(path: Path) -> tuple[Any, Mapping[KeyPath, Position]]:
    """The data of a YAML or JSON file and the position of every key (bounded, safe)."""
    try:
        document = read_file(path)
    except YamlError as exc:
        raise RecordError(yaml_problems(exc, str(path))) from None
    return document.data, document.positions


def is_record(data: Any) -> bool:
    """Whether a document says it is a hand record (rather than a score-keeper sheet)."""
    return isinstance(data, dict) and data.get("format") == FORMAT


def load_record(path: Path | str, registry: Registry | None = None) -> HandRecord:
    """Read a record saved by :func:`save` (or written by hand) and check its shape: its
    declared facts against the kinds of ``registry`` (default: the process's)."""
    path = Path(path)
    data, positions = read_document(path)
    return record_from_data(data, str(path), positions, registry)


# --------------------------------------------------------------------------- replaying


def ruleset_of(
    record: HandRecord, base: Path | None = None, registry: Registry | None = None
) -> Ruleset:
    """The record's ruleset, found by its name.

    A path is read relative to ``base`` (by default the folder the record was loaded
    from, else the current one) and must stay inside it or a rulesets folder: a record
    from someone else cannot make ``ulti`` read any file (``ruleset/references.py``).

    A ruleset that is not found or does not load (a club file that is not there or is
    wrong, a plugin it needs not installed) is a RecordError at the record's
    ``ruleset`` key, saying the ruleset's own problems with their places in its files
    (the RulesetError is its ``__cause__``).
    """
    ref = record.ruleset
    if base is None:
        base = Path(record._source).parent if record._source is not None else Path.cwd()
    try:
        location = locate(ref, base, registry, referrer="this record")
        if isinstance(location, str):
            check_name(location, registry)
        elif not location.exists():
            message = Said(
                "no such file: {path}: the record names its ruleset '{ref}', a path read "
                "relative to the record's folder (replay it with --ruleset NAME|PATH)",
                path=str(location),
                ref=shorten(ref),
            )
            raise RecordError([record.problem(("ruleset",), message)])
        return load_ruleset(location, registry)
    except OutsideReference as exc:
        raise RecordError([record.problem(("ruleset",), str(exc))]) from None
    except RulesetError as exc:
        raise _RulesetUnloaded(_not_loaded(record, exc)) from exc
    except OSError as exc:  # a file the system will not read
        why = Said(
            "{ref}: cannot read it: {reason}", ref=shorten(ref), reason=exc.strerror or str(exc)
        )
        raise RecordError([record.problem(("ruleset",), why)]) from exc


def _not_loaded(record: HandRecord, exc: RulesetError) -> list[Problem]:
    """The problems of the ruleset a record names, each at the record's ``ruleset`` key:
    one of no place (a name no ruleset has) as it is; one in a file of the ruleset with
    that place (``club.yaml:3:1: scoring: ...``), where it is mended."""
    ref = shorten(record.ruleset)
    problems: list[Problem] = []
    for problem in exc.problems:
        if isinstance(problem, MoreProblems):  # the count of those left out, kept
            problems.append(problem)
            continue
        where = dataclasses.replace(problem, message="").shown()
        message = (
            Said(
                "the ruleset '{ref}' does not load: {where}: {problem}",
                ref=ref,
                where=where,
                problem=problem.message,
            )
            if where
            else problem.message
        )
        problems.append(record.problem(("ruleset",), message))
    return problems


def _first_difference(recorded: Any, replayed: Any, path: str = "") -> tuple[str, Any, Any]:
    """The first place where two plain-data trees differ: (dotted path, one, the other)."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in list(recorded) + [k for k in replayed if k not in recorded]:
            if recorded.get(key) != replayed.get(key):
                sub = f"{path}.{key}" if path else str(key)
                return _first_difference(recorded.get(key), replayed.get(key), sub)
    if isinstance(recorded, list) and isinstance(replayed, list) and len(recorded) == len(replayed):
        for i, (a, b) in enumerate(zip(recorded, replayed, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{path}.{i}" if path else str(i))
    return path, recorded, replayed


def _declared_only(stated: Facts | None, played: Facts | None) -> Facts | None:
    """The record's facts without the declared facts the replay does not compute: a
    record from before declared facts states who took the aces under every ruleset,
    and one no contract of the ruleset judges by settles nothing."""
    if stated is None or played is None or set(stated.extra) <= set(played.extra):
        return stated
    kept = {k: v for k, v in stated.extra.items() if k in played.extra}
    return stated.model_copy(update={"extra": FrozenDict(kept)})


def _check_outcome(record: HandRecord, hand: Hand) -> None:
    facts = _declared_only(record.facts, hand.facts)
    for name, stated, played in (
        ("contract", record.contract, hand.contract),
        ("facts", facts, hand.facts),
    ):
        if stated == played:
            continue
        if name == "facts":
            a, b = _write_facts(facts), _write_facts(hand.facts)
        else:
            a = stated.model_dump(mode="json") if stated is not None else None
            b = played.model_dump(mode="json") if played is not None else None
        path, ours, theirs = _first_difference(a, b)
        key = f"{name}.{path}" if path else name
        keys = tuple(int(k) if k.isdigit() else k for k in key.split("."))
        message = shorten_quoted(
            f"the record's {shorten(key)} is {json.dumps(ours, ensure_ascii=False)}, "
            f"but the replayed hand gives {json.dumps(theirs, ensure_ascii=False)}"
        )
        raise RecordError([record.problem(keys, message)])


_HASH = re.compile(r"sha256:[0-9a-f]{64}")


def _hash_text(given: str) -> str:
    """A content hash for a message: whole if it is one, else quoted to 40 characters."""
    return given if _HASH.fullmatch(given) else f"'{shorten(given)}'"


def _twice_at(deal: Deal) -> KeyPath | None:
    """The hand (or the rest) that holds a card a second time, the line a card was
    edited on; None if none does."""
    seen: set[Card] = set()
    for at, cards in [*((("deal", "hands", i), h) for i, h in enumerate(deal.hands)),
                      (("deal", "rest"), deal.rest)]:  # fmt: skip
        for card in cards:
            if card in seen:
                return at
            seen.add(card)
    return None


def _deal_at(record: HandRecord, game: Game) -> KeyPath:
    """Where a deal the engine refuses shows, found as ``game.seating`` and
    ``engine.deal.check_deal`` check, in their order: the dealer who is no seat; the
    hand (or the rest) holding a card a second time; the hand of the dealer who sits out
    holding cards; the first hand, then the rest, dealt another count of cards; else
    (cards missing, say) the deal itself."""
    ruleset, deal = game.ruleset, record.deal
    if not 0 <= record.dealer < ruleset.players.count:
        return ("dealer",)
    if len(deal.hands) != ruleset.players.count:
        return ("deal", "hands")
    twice = _twice_at(deal)
    if twice is not None:
        return twice
    seats = game.seating(record.dealer)
    counts = [len(cards) for cards in deal.hands]
    rest = len(deal.rest)
    to_forehand = ruleset.auction.two_round is None and ruleset.deal.talon == "forehand"
    if to_forehand and counts[seats.forehand] == 10 and rest == 2:  # the talon beside it
        counts[seats.forehand], rest = 12, 0
    sitting = seats.sitting_out
    if sitting is not None and counts[sitting]:
        return ("deal", "hands", sitting)
    per_seat, left = game.deal_pattern
    for seat, count in zip(seats.active, per_seat, strict=True):
        if counts[seat] != count:
            return ("deal", "hands", seat)
    return ("deal", "rest") if rest != left else ("deal",)


def _seed_dealing(hand: Hand, seed: int | str) -> int | str | None:
    """The seed that deals the hand's cards: ``seed``, or for a negative one also as it
    dealt before it had cards of its own (``random.Random`` took -5 as 5, ``seeding.py``:
    a record saved then still replays, its hand seeded truthfully with 5); else None."""
    if deal_cards(hand.game, hand.seats, seed) == hand.deal:
        return seed
    if isinstance(seed, int) and seed < 0 and deal_cards(hand.game, hand.seats, -seed) == hand.deal:
        return -seed
    return None


def _label(index: int, seat: int, action: Action) -> Said:
    return Said(
        "action {index} ({action} by seat {seat})",
        index=index,
        action=shorten(str(action)),
        seat=seat,
    )


def replay(
    record: HandRecord,
    ruleset: Ruleset | Game | None = None,
    *,
    registry: Registry | None = None,
    check_hash: bool = True,
    before_each: Callable[[Hand], object] | None = None,
) -> Hand:
    """Play the record again through the rules and return the finished hand.

    ``before_each(hand)`` is called before each action is applied, for a reader that
    wants to see the hand as it was then (``ulti replay`` prints the phases): the record
    is played once.

    ``ruleset`` is a Ruleset or a Game (``load_game``); it defaults to the one the
    record names (:func:`ruleset_of`). RecordError names the first thing that does not
    hold: the ruleset the record names (not found, or not loading), its hash (unless
    ``check_hash`` is false), the deal, the first illegal action by its index (counted
    from 0, as in the record's list) and the rule it breaks, an early end, or the first
    stated fact or contract detail that the replay does not produce.
    """
    if ruleset is None:
        ruleset = ruleset_of(record, registry=registry)
    elif not isinstance(ruleset, Ruleset | Game):
        raise not_a_ruleset(
            ruleset,
            taker="replay takes a Game or a Ruleset as ruleset",
            other="; or leave ruleset out for the one the record names",
        )
    game = Game.of(ruleset, registry)
    ruleset = game.ruleset
    found = content_hash(ruleset)
    if check_hash and found != record.ruleset_hash:
        # a record that names its ruleset, replayed under another: no change of rules
        if not is_path(record.ruleset) and ruleset.name != record.ruleset:
            changed = (
                f"the record was played under '{shorten(record.ruleset)}' with content hash "
                f"{_hash_text(record.ruleset_hash)}, and the ruleset given, '{ruleset.name}', "
                f"has other rules ({found}): give the one the record names, or replay anyway "
                "with --ignore-hash"
            )
        else:
            changed = (
                f"the record was played under '{shorten(record.ruleset)}' with content hash "
                f"{_hash_text(record.ruleset_hash)}, and the ruleset '{ruleset.name}' has "
                f"{found}: its rules changed since (replay anyway with --ignore-hash)"
            )
        raise RecordError([record.problem(("ruleset_hash",), changed)])
    count = ruleset.players.count
    if len(record.players) != count:
        names = len(record.players)
        message = f"'{ruleset.name}' is for {count} players, and the record names {names}"
        raise RecordError([record.problem(("players",), message)])
    try:
        hand = Hand(game, deal=record.deal, dealer=record.dealer)
    except BadDeal as exc:
        said = shorten_quoted(str(exc))  # "the deal: the deal must hold ..." said it twice
        message = said if said.startswith("the deal") else f"the deal: {said}"
        raise RecordError([record.problem(_deal_at(record, game), message)]) from None
    if record.seed is not None:
        seed = _seed_dealing(hand, record.seed)
        if seed is None:
            message = f"the deal is not the one seed {record.seed!r} deals"
            raise RecordError([record.problem(("deal",), message)])
        # dealt again from the seed: a hand takes a seed or a deal, and has the one it took
        hand = Hand(game, seed=seed, dealer=record.dealer)
    for index, (seat, action) in enumerate(record.actions):
        label = _label(index, seat, action)
        wrong: str
        if hand.is_over:
            wrong = Said("{label}: the hand is over already", label=label)
        elif seat != hand.current_player:
            wrong = Said(
                "{label}: it is seat {seat}'s turn ({step})",
                label=label,
                seat=hand.current_player,
                step=hand.step,
            )
        else:
            if before_each is not None:
                before_each(hand)
            try:
                hand.apply(action)
                continue
            except IllegalAction as exc:
                why = said_of(exc)
                wrong = Said("{label}: {why}", label=label, why=shorten_said(why))
        raise RecordError([record.problem(("actions", index), wrong)])
    if not hand.is_over:
        message = (
            f"the record ends after {len(record.actions)} actions, before the hand is over: "
            f"seat {hand.current_player} is to act ({hand.step})"
        )
        raise RecordError([record.problem(("actions",), message)])
    _check_outcome(record, hand)
    return hand


__all__ = [
    "FORMAT",
    "HandRecord",
    "RecordError",
    "dumps",
    "is_record",
    "load_record",
    "read_document",
    "record_from_data",
    "record_of",
    "replay",
    "ruleset_of",
    "save",
]
