"""The session ledger: the hands of one sitting, the deal's rotation, running totals.

Every hand is kept as a complete score-keeper document (``table_facts``), whether it
was typed in at a table or taken from an engine record, so the ledger can always be
re-settled and read by a person. The deal passes to the right after every hand;
with four players the dealer sits out. A deal that comes to nothing is kept too, as
an entry without a document: a misdeal (``deal.misdeal_redeal_same_dealer``), which
pays nobody, or an auction everybody passed (``auction.all_pass``), which pays what
the ruleset says (forehand may pay each other player); the ruleset says whether the
same dealer deals again or the deal passes on, and the entry keeps what it said.

The ledger pins its ruleset's content hash when the session begins (an older ledger
without one is pinned at its next hand). A ruleset that changed since (a club file
edited mid-session) is named as such before any hand is added; the table either
restores it or accepts the change (``accept_ruleset_change``), and the hand at which
the new rules took over keeps their hash.
The German ending "Das Herz-Ass gibt" is an option: whoever holds the Ace of hearts
after the auction of the hand it is called on deals, at his next deal, the last round
of three deals.
"""

from __future__ import annotations

import importlib.metadata
import itertools
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    StrictStr,
    model_validator,
)

from ..errors import Problem, ProblemsError
from ..facts import Contract, Facts
from ..game.seating import dealer_after
from ..plugins import Registry
from ..quoting import shorten
from ..ruleset.loading import content_hash, load_ruleset, locate, ruleset_folders
from ..ruleset.positions import Where
from ..ruleset.references import OutsideReference, confine, expand_home, is_path
from ..ruleset.safe_yaml import MAX_NODES
from ..ruleset.scalars import LINE_BREAK, Name, composed, visible_text
from ..ruleset.schema import Ruleset
from ..said import Said
from .all_pass import all_pass_payments, redealt
from .ledger_checks import out_of_turn, players_for, session_players
from .settlement import Settlement
from .sheet import PLAYER_NAME_LENGTH, PlayerName, Sheet, SheetError
from .table_facts import (
    TableHand,
    hand_from_sheet,
    ruleset_location,
    sheet_from,
    sheet_ruleset,
)

FORMAT: Literal["ulti-ledger/1"] = "ulti-ledger/1"
LAST_ROUND = 3
"""'Das Herz-Ass gibt': one last round of three deals."""
Kind = Literal["played", "misdeal", "passed_out"]


MAX_PAYMENT = 10**9
"""The largest result of one hand a ledger holds: far beyond any game, small enough
that a tampered 5,000-digit number is a clean error, not a slow one."""
MOST_SHOWN = f"{MAX_PAYMENT:,}"
"""MAX_PAYMENT as a message says it (``1,000,000,000``)."""


class LedgerError(ProblemsError):
    """The ledger file is unreadable or inconsistent, or a hand does not fit the session.

    ``problems`` lists what is wrong: positioned in the file for a ledger that was
    read, one unplaced problem for a hand that does not fit.
    """

    within = Said("the ledger")

    @classmethod
    def of(cls, problems: Sequence[Problem]) -> LedgerError:
        """One error for every problem of a file, in file order."""
        return cls(problems, ordered=True)


NUL_IN_RULESET = Said("a ruleset's name or path cannot hold a NUL character (\\0)")
"""No system takes such a path: said before any path is touched (it would be a ValueError)."""
RULESET_REF_LENGTH = 4096
"""The longest ruleset reference a ledger keeps: a name, or a path (PATH_MAX)."""

RulesetRef = Annotated[
    str,
    BeforeValidator(visible_text(RULESET_REF_LENGTH)),
    Field(min_length=1, max_length=RULESET_REF_LENGTH),
]
Payment = Annotated[StrictInt, Field(ge=-MAX_PAYMENT, le=MAX_PAYMENT)]
Hash = Annotated[StrictStr, Field(pattern=r"^sha256:[0-9a-f]{64}$")]
Version = Annotated[StrictStr, Field(min_length=1, max_length=64)]


def program_version() -> str:
    """The ulti-rules version settling hands now: a ledger refuses a hand this very
    version settled otherwise, and only notes one another version did (a later fix to
    settlement must not make an older session unreadable)."""
    global _VERSION
    if _VERSION is None:
        try:
            _VERSION = importlib.metadata.version("ulti-rules")
        except importlib.metadata.PackageNotFoundError:  # a source tree without metadata
            _VERSION = "unknown"
    return _VERSION


_VERSION: str | None = None
"""A ruleset's content hash, as ``ruleset.loading.content_hash`` writes it."""


class LedgerHand(BaseModel):
    """One deal of the session: a settled hand, or a deal that came to nothing.

    ``kind`` and ``redeal`` came later than ``ulti-ledger/1``'s first files, and
    ``declarer``, ``bid``, ``source`` and ``sheet`` became optional then; the defaults
    say "played, and the deal passed on", so those files load unchanged.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    number: StrictInt = Field(
        ge=1,
        le=MAX_NODES,
        description="1 for the first hand of the session (no ledger holds more hands than "
        "the reader's limit of values).",
    )
    dealer: PlayerName
    declarer: PlayerName | None = Field(
        default=None, description="None unless the hand was played."
    )
    bid: Name | None = Field(default=None, description="The winning bid's id; None unless played.")
    source: StrictStr | None = Field(
        default=None,
        description="The file the hand was added from; None for a misdeal or a passed-out "
        "hand told to the ledger at the table.",
    )
    sheet: dict[str, Any] | None = Field(
        default=None, description="The complete score-keeper document; None unless played."
    )
    payments: dict[PlayerName, Payment] = Field(description="Result per player; sums to zero.")
    heart_ace: PlayerName | None = Field(
        default=None, description="Who held the Ace of hearts after this hand's auction."
    )
    kind: Kind = Field(
        default="played",
        description="'played' (settled), 'misdeal' (a card exposed while dealing), "
        "'passed_out' (everybody passed).",
    )
    redeal: StrictBool = Field(
        default=False,
        description="The same dealer deals again: the deal does not pass on. Only for a "
        "misdeal or a passed-out hand, as the ruleset said when it was added.",
    )
    ruleset_hash: Hash | None = Field(
        default=None,
        description="Set on the hand from which a changed ruleset was accepted "
        "(--accept-ruleset-change): the new rules' content hash. None: the rules of the "
        "hand before.",
    )
    settled_by: Version | None = Field(
        default=None,
        description="Set on the first hand an ulti-rules version settled after another one "
        "(or after a ledger written before versions were noted): that version. None: the "
        "version of the hand before.",
    )

    @model_validator(mode="after")
    def _consistent(self) -> LedgerHand:
        played = self.kind == "played"
        if played and (self.declarer is None or self.bid is None or self.sheet is None):
            raise ValueError(Said("a played hand needs its declarer, bid and sheet"))
        if not played and (self.declarer, self.bid, self.sheet) != (None, None, None):
            raise ValueError(
                Said("a misdeal hand has no declarer, bid or sheet")
                if self.kind == "misdeal"
                else Said("a passed_out hand has no declarer, bid or sheet")
            )
        if self.kind == "misdeal" and any(self.payments.values()):
            raise ValueError(Said("a misdeal hand pays nobody"))
        if played and self.redeal:
            raise ValueError(Said("after a played hand the deal passes on (redeal is false)"))
        if self.kind == "misdeal" and self.heart_ace is not None:
            raise ValueError(Said("a misdeal has no auction to call the end on"))
        return self


class Ledger(BaseModel):
    """One session: who plays, under which rules, and every hand so far."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["ulti-ledger/1"] = FORMAT
    ruleset: RulesetRef = Field(
        description="Ruleset name, or the path of a club file: relative to the ledger's "
        "folder, or absolute into a rulesets folder (``ruleset/references.py``)."
    )
    players: list[PlayerName] = Field(min_length=1)
    first_dealer: PlayerName
    end: Literal["none", "heart_ace"] = "none"
    ruleset_hash: Hash | None = Field(
        default=None,
        description="The content hash of the rules the session plays, pinned when it began "
        "(or at the first hand added since pinning came in) and when a change was accepted.",
    )
    settled_by: Version | None = Field(
        default=None,
        description="The ulti-rules version that settled the latest hands. Every hand "
        "under the rules in force now is settled again when the ledger is read: one this "
        "version settled must pay what that gives, one another version settled is noted "
        "where it differs (``Ledger.notes``).",
    )
    hands: list[LedgerHand] = []
    _loaded: tuple[str, Registry | None, Ruleset, str] | None = PrivateAttr(default=None)
    """The ruleset (and its content hash) as loaded for ``ruleset`` and a registry."""
    _folder: Path | None = PrivateAttr(default=None)
    """The folder of the file it was read from: a path in ``ruleset`` is read from there."""
    _notes: list[Problem] = PrivateAttr(default_factory=list)

    @property
    def notes(self) -> list[Problem]:
        """What reading the file found worth saying but not refusing: the hands another
        ulti-rules version settled (``settled_by``) that this one settles otherwise, each
        as a positioned problem. The ledger keeps what those hands paid."""
        return list(self._notes)

    def __eq__(self, other: object) -> bool:
        """Equal sessions: the ruleset a ledger has loaded is a cache, not content."""
        if not isinstance(other, Ledger):
            return NotImplemented
        return self.model_dump() == other.model_dump()

    def rules(self, registry: Registry | None = None) -> Ruleset:
        """The session's ruleset, loaded on first use and kept with this ledger object:
        reading, checking, adding a hand and reporting it each need it."""
        return self._rules(registry)[2]

    def rules_hash(self, registry: Registry | None = None) -> str:
        """The content hash of :meth:`rules`, worked out once with it."""
        return self._rules(registry)[3]

    def _rules(self, registry: Registry | None) -> tuple[str, Registry | None, Ruleset, str]:
        loaded = self._loaded
        if loaded is None or loaded[0] != self.ruleset or loaded[1] is not registry:
            ref: str | Path = self.ruleset
            if self._folder is not None:  # read from a file, perhaps somebody else's
                ref = locate(self.ruleset, self._folder, registry, referrer="this ledger")
            ruleset = load_ruleset(ref, registry)
            loaded = self._loaded = (self.ruleset, registry, ruleset, content_hash(ruleset))
        return loaded

    # ------------------------------------------------------------------ rotation

    def ruleset_change(self, ruleset: Ruleset) -> str | None:
        """What changed since the ruleset was pinned, in words; None if it has not (or
        nothing is pinned yet)."""
        now = self._hash_of(ruleset)
        pinned = self.ruleset_hash
        if pinned is None or pinned == now:
            return None
        what = (
            Said("the club file {path}", path=shorten(self.ruleset))
            if is_path(self.ruleset)
            else Said("the ruleset '{name}'", name=shorten(self.ruleset))
        )
        return Said(
            "{what} changed since the session began (content hash {then} then, {now} now)",
            what=what,
            then=_short(pinned),
            now=_short(now),
        )

    def _hash_of(self, ruleset: Ruleset) -> str:
        loaded = self._loaded
        return loaded[3] if loaded is not None and loaded[2] is ruleset else content_hash(ruleset)

    def dealer_of(self, number: int, ruleset: Ruleset) -> str:
        """Who deals hand ``number`` (1-based): the deal passes to the right after each
        hand, except after a redeal; hands not added yet are counted as passing it on."""
        return next(itertools.islice(self.dealers(ruleset), number - 1, None))

    def dealers(self, ruleset: Ruleset) -> Iterator[str]:
        """Who deals hand 1, 2, ... without end, as :meth:`dealer_of` says: the rotation
        (``seating.dealer_after``) counting the deals that passed it on. The ledger's
        checks walk the hands with it."""
        if len(self.players) != ruleset.players.count:  # a loaded ledger is refused first
            raise ValueError(
                f"the ledger has {len(self.players)} players and its ruleset "
                f"'{ruleset.name}' {ruleset.players.count}"
            )
        start = self.players.index(self.first_dealer)
        passes = 0
        for number in itertools.count(1):
            yield self.players[dealer_after(ruleset, start, passes)]
            passes += self._passes_on(number)

    def _passes_on(self, number: int) -> bool:
        """Whether hand ``number`` passes the deal on; one not added yet is assumed to."""
        return number > len(self.hands) or not self.hands[number - 1].redeal

    def totals(self) -> dict[str, int]:
        totals = dict.fromkeys(self.players, 0)
        for hand in self.hands:
            for name, amount in hand.payments.items():
                totals[name] += amount
        return totals

    def last_round(self, ruleset: Ruleset) -> tuple[int, int] | None:
        """The first and last hand numbers of the final round, once the end was called."""
        called = next((h for h in self.hands if h.heart_ace is not None), None)
        if called is None or called.heart_ace is None:
            return None
        first = called.number + 1
        while self.dealer_of(first, ruleset) != called.heart_ace:
            first += 1
        last, deals = first, int(self._passes_on(first))
        while deals < LAST_ROUND:  # a redeal is not one of the three deals
            last += 1
            deals += self._passes_on(last)
        return first, last

    def deals(self) -> int:
        """Deals that passed the deal on (a redeal does not count): what ``session.hands``
        counts, e.g. IT's 24 hands, each player dealing eight times."""
        return sum(1 for number in range(1, len(self.hands) + 1) if self._passes_on(number))

    def planned_over(self, ruleset: Ruleset) -> bool:
        """Whether the ruleset's planned number of hands (``session.hands``) is played."""
        return self.planned_end(ruleset) is not None

    def planned_end(self, ruleset: Ruleset) -> int | None:
        """The number of the hand that played the last planned deal (``session.hands``
        deals, counted as :meth:`deals` counts them), if one has; else None."""
        planned = ruleset.session.hands
        if planned is None:
            return None
        deals = 0
        for number in range(1, len(self.hands) + 1):
            deals += self._passes_on(number)
            if deals >= planned:
                return number
        return None

    def is_over(self, ruleset: Ruleset) -> bool:
        last = self.last_round(ruleset)
        return (last is not None and len(self.hands) >= last[1]) or self.planned_over(ruleset)

    def over_text(self, ruleset: Ruleset) -> str:
        """Why the session is over (call only when it is)."""
        last = self.last_round(ruleset)
        if last is not None and len(self.hands) >= last[1]:
            return Said("the session is over: the last round ended with hand {number}",
                        number=last[1])  # fmt: skip
        return Said("the session is over: its {planned} planned hands are played",
                    planned=ruleset.session.hands)  # fmt: skip


def _short(digest: str) -> str:
    return digest[: len("sha256:") + 12] + "…"


# --------------------------------------------------------------------------- adding


ACCEPT_OPTION = "--accept-ruleset-change"


def check_pinned(
    ledger: Ledger, registry: Registry | None = None, *, accept_ruleset_change: bool = False
) -> None:
    """Refuse to add to a session whose ruleset changed since it was pinned, unless the
    table accepts the change; say what changed and what to do."""
    _check_pin(ledger, ledger.rules(registry), accept_ruleset_change)


def _check_pin(ledger: Ledger, ruleset: Ruleset, accept_ruleset_change: bool) -> None:
    change = ledger.ruleset_change(ruleset)
    if change is not None and not accept_ruleset_change:
        raise LedgerError(
            Said(
                "{change}: the hands so far were settled under the old rules; restore the "
                "file to go on under them, or add this hand with {option} to settle it and "
                "the next ones under the new rules (the ledger then pins them)",
                change=change,
                option=ACCEPT_OPTION,
            )
        )


def _append(ledger: Ledger, entry: LedgerHand, ruleset: Ruleset) -> LedgerHand:
    """Append ``entry``, pinning the rules it was settled under (marking a change)."""
    now = ledger._hash_of(ruleset)
    if ledger.ruleset_hash is not None and ledger.ruleset_hash != now:
        entry = entry.model_copy(update={"ruleset_hash": now})
    ledger.ruleset_hash = now
    version = program_version()
    if ledger.settled_by != version and ledger.hands:
        entry = entry.model_copy(update={"settled_by": version})
    ledger.settled_by = version
    ledger.hands.append(entry)
    return entry


def ruleset_reference(ref: str, folder: Path, registry: Registry | None = None) -> str | None:
    """How a file in ``folder`` (a ledger, a hand record) names the ruleset the user typed,
    so that it reads it back: a name stays a name; a club file in the folder by its path
    from there (the two can move together), one in a rulesets folder by its absolute path.
    None for any other file: one the folder's file could not name (``ruleset/references.py``)."""
    location = ruleset_location(ref, Path.cwd())
    if not isinstance(location, Path):
        return str(location)
    real, home = os.path.realpath(location), os.path.realpath(folder)
    if real.startswith(home.rstrip(os.sep) + os.sep):
        return os.path.relpath(real, home)
    try:
        confine(str(location), folder, ruleset_folders(registry), referrer="the ledger")
    except OutsideReference:
        return None
    return str(location)


def _ruleset_ref(ref: str, folder: Path | None, registry: Registry | None) -> str:
    """How the ledger in ``folder`` names the ruleset (``ruleset_reference``); a file it
    could not name is refused now, with what to do."""
    if folder is None:
        return str(ruleset_location(ref, Path.cwd()))
    named = ruleset_reference(ref, folder, registry)
    if named is None:
        raise LedgerError(
            Said(
                "{ref} lies outside the ledger's folder ({folder}) and the rulesets folders, "
                "so the ledger could not name it safely: start the ledger in the club file's "
                "folder, or put the club file in a rulesets folder ($ULTI_RULES_PATH) and "
                "name it",
                ref=ref,
                folder=folder,
            )
        )
    return named


def new_ledger(
    ruleset_ref: str,
    players: list[str],
    first_dealer: str | None,
    end: Literal["none", "heart_ace"] | None,
    registry: Registry | None = None,
    *,
    folder: Path | None = None,
) -> Ledger:
    """A new session; ``folder`` is where its file will be (a club file's path is kept
    relative to it)."""
    if "\0" in ruleset_ref:
        raise LedgerError(NUL_IN_RULESET)
    ref = _ruleset_ref(ruleset_ref, folder, registry)
    ruleset = load_ruleset(ruleset_location(ruleset_ref, Path.cwd()), registry)
    count = ruleset.players.count
    players = [composed(p) for p in players]  # as the file will hold them (``PlayerName``)
    if len(players) != count:
        raise LedgerError(players_for(ruleset, len(players)))
    if len(set(players)) != len(players) or any(not p.strip() for p in players):
        raise LedgerError(Said("every player needs a different, non-empty name"))
    broken = next((p for p in players if LINE_BREAK.search(p)), None)
    if broken is not None:  # it would print a line of its own in every table
        raise LedgerError(
            Said(
                "a player's name must be one line: {name} holds a line break",
                name=repr(shorten(broken)),
            )
        )
    long = next((p for p in players if len(p) > PLAYER_NAME_LENGTH), None)
    if long is not None:
        raise LedgerError(
            Said(
                "a player's name is at most {most} characters, as on a score sheet: {name} "
                "is {length}",
                most=PLAYER_NAME_LENGTH,
                name=repr(shorten(long)),
                length=len(long),
            )
        )
    dealer = composed(first_dealer) if first_dealer else players[0]
    if dealer not in players:
        raise LedgerError(
            Said(
                "the first dealer '{dealer}' is not one of {players}",
                dealer=shorten(dealer),
                players=", ".join(players),
            )
        )
    ledger = Ledger(
        ruleset=ref,
        players=players,
        first_dealer=dealer,
        end=end if end is not None else ruleset.session.end,
        ruleset_hash=content_hash(ruleset),
    )
    ledger._folder = folder
    return ledger


def _next_deal(ledger: Ledger, ruleset: Ruleset, accept_ruleset_change: bool) -> tuple[int, str]:
    """The next hand's number and dealer; LedgerError once the session is over, or
    while its ruleset changed unaccepted."""
    _check_pin(ledger, ruleset, accept_ruleset_change)
    if ledger.is_over(ruleset):
        raise LedgerError(ledger.over_text(ruleset))
    number = len(ledger.hands) + 1
    return number, ledger.dealer_of(number, ruleset)


def _check_heart_ace(ledger: Ledger, heart_ace: str | None) -> None:
    if heart_ace is None:
        return
    if ledger.end != "heart_ace":
        raise LedgerError(
            Said("this session does not end by the Ace of hearts (ledger new --end heart-ace)")
        )
    if any(h.heart_ace is not None for h in ledger.hands):
        raise LedgerError(Said("the end was already called"))
    if composed(heart_ace) not in ledger.players:
        raise LedgerError(
            Said(
                "'{name}' is not one of {players}",
                name=shorten(heart_ace),
                players=", ".join(ledger.players),
            )
        )


def add_hand(
    ledger: Ledger,
    sheet: Sheet,
    where: Where,
    base: Path,
    *,
    source: str,
    heart_ace: str | None = None,
    registry: Registry | None = None,
    accept_ruleset_change: bool = False,
) -> tuple[LedgerHand, TableHand, Settlement]:
    """Settle a score-keeper document as the session's next hand and append it.

    The document may leave out the ruleset's players and the dealer: the session
    knows them. What it does say must agree with the session.
    """
    ruleset = ledger.rules(registry)
    number, dealer = _next_deal(ledger, ruleset, accept_ruleset_change)
    problems = []
    if sheet.players is not None and sheet.players != ledger.players:
        problems.append(where.problem(("players",), session_players(ledger.players)))
    if sheet.dealer is not None and sheet.dealer != dealer:
        problems.append(where.problem(("dealer",), out_of_turn(dealer, number, sheet.dealer)))
    if problems:
        raise SheetError(problems)
    if sheet.ruleset is not None and not _names_session_rules(sheet.ruleset, base, ledger):
        given = sheet_ruleset(sheet, where, base, registry)
        if content_hash(given) != ledger._hash_of(ruleset):
            said = Said(
                "this hand is from ruleset '{given}', the session plays '{ruleset}' ({ref})",
                given=given.name,
                ruleset=ruleset.name,
                ref=shorten(ledger.ruleset),
            )
            raise SheetError([where.problem(("ruleset",), said)])
    complete = sheet.model_copy(
        update={"players": ledger.players, "dealer": dealer, "ruleset": ledger.ruleset}
    )
    hand = hand_from_sheet(complete, where, base, registry, ruleset=ruleset)
    settlement = hand.settle(registry)
    _check_heart_ace(ledger, heart_ace)
    if any(abs(amount) > MAX_PAYMENT for amount in settlement.payments.values()):
        raise LedgerError(
            Said(
                "a payment of this hand is beyond what a ledger keeps ({most} a hand)",
                most=MOST_SHOWN,
            )
        )
    entry = LedgerHand(
        number=number,
        dealer=dealer,
        declarer=hand.name(hand.contract.declarer),
        bid=hand.contract.bid,
        source=source,
        sheet=complete.model_dump(mode="json", exclude_defaults=True),
        payments={hand.name(s): amount for s, amount in settlement.payments.items()},
        heart_ace=heart_ace,
    )
    return _append(ledger, entry, ruleset), hand, settlement


def _names_session_rules(ref: str, base: Path, ledger: Ledger) -> bool:
    """Whether a sheet's ``ruleset:`` (in folder ``base``) is the session's very reference:
    the same name, or a path to the same file. Then it is not loaded a second time."""
    if not is_path(ref) or not is_path(ledger.ruleset):
        return ref == ledger.ruleset
    if ledger._folder is None or "\0" in ref:
        return False
    mine = os.path.realpath(ledger._folder / ledger.ruleset)
    written = expand_home(ref)
    return written is not None and os.path.realpath(base / written) == mine


def add_played(
    ledger: Ledger,
    contract: Contract,
    facts: Facts | None,
    *,
    source: str,
    dealer: int | None = None,
    heart_ace: str | None = None,
    registry: Registry | None = None,
    accept_ruleset_change: bool = False,
) -> tuple[LedgerHand, TableHand, Settlement]:
    """Add a hand the engine played (seats are the session's players, in order).

    It goes through the very document a table would type (``sheet_from``), so an
    engine hand and a typed-in one are kept and settled alike.
    """
    ruleset = ledger.rules(registry)
    data = sheet_from(ruleset, contract, facts, players=ledger.players, dealer=dealer)
    del data["ruleset"]  # the session's own: nothing to check, and add_hand writes it
    where = Where(source, {})
    sheet = Sheet.validate_with_positions(data, where)
    return add_hand(
        ledger,
        sheet,
        where,
        Path.cwd(),
        source=source,
        heart_ace=heart_ace,
        registry=registry,
        accept_ruleset_change=accept_ruleset_change,
    )


def may_pass_out(ruleset: Ruleset) -> bool:
    """Whether everybody may pass: only where the opener may pass (and a pass is not
    GT's 'Pasar', a bid of the plain Simple)."""
    auction = ruleset.auction
    return not auction.opener_must_bid and not auction.opener_pass_is_simple


def _add_unplayed(
    ledger: Ledger,
    ruleset: Ruleset,
    kind: Kind,
    *,
    redeal: bool,
    source: str | None,
    dealer: str | None,
    heart_ace: str | None,
    accept_ruleset_change: bool,
) -> LedgerHand:
    number, expected = _next_deal(ledger, ruleset, accept_ruleset_change)
    if dealer is not None and dealer != expected:
        raise LedgerError(out_of_turn(expected, number, dealer))
    _check_heart_ace(ledger, heart_ace)
    payments = dict.fromkeys(ledger.players, 0)
    if kind == "passed_out":
        seat_of = ledger.players.index(expected)
        for seat, amount in all_pass_payments(ruleset, seat_of).items():
            payments[ledger.players[seat]] = amount
    entry = LedgerHand(
        number=number,
        dealer=expected,
        source=source,
        payments=payments,
        heart_ace=heart_ace,
        kind=kind,
        redeal=redeal,
    )
    return _append(ledger, entry, ruleset)


def add_misdeal(
    ledger: Ledger,
    *,
    source: str | None = None,
    registry: Registry | None = None,
    accept_ruleset_change: bool = False,
) -> LedgerHand:
    """A card was exposed while dealing: no hand, nobody pays. With the ruleset's
    ``deal.misdeal_redeal_same_dealer`` the same dealer deals again; without it the
    deal passes on as after a hand."""
    ruleset = ledger.rules(registry)
    return _add_unplayed(
        ledger,
        ruleset,
        "misdeal",
        redeal=ruleset.deal.misdeal_redeal_same_dealer,
        source=source,
        dealer=None,
        heart_ace=None,
        accept_ruleset_change=accept_ruleset_change,
    )


def add_passed_out(
    ledger: Ledger,
    *,
    source: str | None = None,
    dealer: str | None = None,
    heart_ace: str | None = None,
    registry: Registry | None = None,
    accept_ruleset_change: bool = False,
) -> LedgerHand:
    """Everybody passed: no contract. With ``auction.all_pass: redeal`` nobody pays and
    the same dealer deals again; with ``pass_out`` nobody pays and the deal passes on;
    with ``forehand_pays`` forehand pays ``all_pass_payment`` to each other player and the
    deal passes on. ``dealer``, if given (an engine record's), must be the next dealer.
    """
    ruleset = ledger.rules(registry)
    if not may_pass_out(ruleset):
        rule = (
            Said(
                "a pass by the opener is a bid of the plain Simple (auction.opener_pass_is_simple)"
            )
            if ruleset.auction.opener_pass_is_simple
            else Said("the opener must bid (auction.opener_must_bid)")
        )
        raise LedgerError(
            Said(
                "under '{ruleset}' nobody can pass a hand out: {rule}",
                ruleset=ruleset.name,
                rule=rule,
            )
        )
    return _add_unplayed(
        ledger,
        ruleset,
        "passed_out",
        redeal=redealt(ruleset),
        source=source,
        dealer=dealer,
        heart_ace=heart_ace,
        accept_ruleset_change=accept_ruleset_change,
    )


# --------------------------------------------------------------------------- taking back


def take_back(ledger: Ledger) -> LedgerHand:
    """Remove the session's last hand (one added twice, or added wrong) and return it:
    the deal, the totals and the end follow from the hands that stay. Only the last one
    goes, since every later deal depends on the hands before it.

    A hand where accepted new rules took over is kept (the pin before it is kept nowhere
    else); one where another ulti-rules version took over gives the version back to the
    last hand that names one, else to none (then the hands left are noted, not refused,
    where this version settles them otherwise)."""
    if not ledger.hands:
        raise LedgerError(Said("the session has no hand to take back"))
    last = ledger.hands[-1]
    if last.ruleset_hash is not None:
        raise LedgerError(
            Said(
                "hand {number} is where the changed rules were accepted ({option}); it cannot "
                "be taken back, as the rules pinned before it are not kept: start a new "
                "ledger, or add the next hand as it should be",
                number=last.number,
                option=ACCEPT_OPTION,
            )
        )
    ledger.hands.pop()
    if last.settled_by is not None:
        earlier = [h.settled_by for h in ledger.hands if h.settled_by is not None]
        ledger.settled_by = earlier[-1] if earlier else None
    return last
