"""Whether a hand's facts could have happened: the score keeper's guard against typos.

A table types the facts in by hand, so points that add up to 95 or eleven tricks
must be refused with the contradiction named, never settled. The checks read
only :class:`Facts` and the ruleset's numbers (deck points, last-trick bonus,
marriage values), so they hold for every ruleset and for engine facts too. Given
the bid, the marriages are also checked against what the bid lets each side
announce (a 40-100's declarer announces only the trump marriage, and must).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

from ..cards import DE_SUIT_NAMES, HU_SUIT_NAMES, RANK_IDS, RANK_WORDS, SUIT_IDS
from ..facts import Facts
from ..i18n import translator
from ..ruleset.schema import TALON_CARDS, Bid, Ruleset
from ..said import Named, Said

TRICKS = 10
CARDS_PER_TRICK = 3
SUITS = 4


@dataclass(frozen=True)
class Impossibility:
    """One contradiction; ``topic`` says which part of the facts it is about."""

    topic: str
    """points, tricks, last_trick, trump_seven (the last trick's), trump_seven_early or
    marriages (a declared fact such as who took the aces is checked by its kind's
    ``FactSpec.check``, which may ask :func:`can_deal`)."""
    message: str


def suit_named(suit: str) -> Named:
    """A suit as a problem of a sheet names it: its id in English (``acorns``, as a sheet
    writes it), the suit's own word in Hungarian and German (``makk``, ``Eichel``), which
    a sheet takes as well."""
    return suits_named([suit])


def suits_named(suits: Iterable[str]) -> Named:
    """Suits, ``acorns, bells``, named as :func:`suit_named` names one (an id no suit has
    stays as it is)."""
    ids = list(suits)
    found = [SUIT_IDS.get(suit) for suit in ids]
    return Named(
        ", ".join(ids),
        {
            "hu": ", ".join(
                HU_SUIT_NAMES[s].lower() if s is not None else i
                for s, i in zip(found, ids, strict=True)
            ),
            "de": ", ".join(
                DE_SUIT_NAMES[s] if s is not None else i for s, i in zip(found, ids, strict=True)
            ),
        },
    )


def impossibilities(
    facts: Facts, ruleset: Ruleset, name: Callable[[int], str] = str, bid: Bid | None = None
) -> list[Impossibility]:
    """Every contradiction in the facts (empty when they are possible).

    With ``bid``, also the marriages that bid does not let a side announce.
    """
    found: list[Impossibility] = []
    tricks = _tricks(facts, name)
    found += tricks
    points = _points(facts, ruleset)
    found += points
    if not tricks and not points:
        found += _split(facts, ruleset)
    found += _last_trick(facts, ruleset, name)
    found += _trump_seven(facts, name)
    found += _marriages(facts, ruleset, name)
    if bid is not None and facts.trump is not None:
        found += _bid_marriages(facts, ruleset, bid, name)
    return found


def _tricks(facts: Facts, name: Callable[[int], str]) -> list[Impossibility]:
    found = []
    strangers = sorted(set(facts.tricks_won) - set(facts.seats))
    if strangers:
        who = ", ".join(name(s) for s in strangers)
        found.append(
            Impossibility(
                "tricks", Said("{players} did not play this hand but won tricks", players=who)
            )
        )
    negative = [s for s, n in facts.tricks_won.items() if n < 0]
    for seat in negative:
        found.append(
            Impossibility(
                "tricks",
                Said("{player} cannot win a negative number of tricks", player=name(seat)),
            )
        )
    total = sum(facts.tricks_won.values())
    if total != TRICKS:
        found.append(Impossibility("tricks", trick_total(total)))
    return found


def trick_total(total: int) -> Said:
    """The trick counts that do not add up to ten (the sheet reader leaves it out where
    the counts written, a sitting-out dealer's among them, do: he is told so instead)."""
    return Said("the trick counts add up to {total}, not {tricks}", total=total, tricks=TRICKS)


def _side_tricks(facts: Facts, declarer_side: bool) -> int:
    return sum(n for s, n in facts.tricks_won.items() if (s == facts.declarer) == declarer_side)


def _points(facts: Facts, ruleset: Ruleset) -> list[Impossibility]:
    found = []
    deck = ruleset.points.total()
    values = ruleset.points.card_points.values()
    top_card = max(values, default=0)
    negative = (
        (facts.declarer_points, Said("the declarer cannot have negative card points")),
        (facts.defender_points, Said("the defenders cannot have negative card points")),
        (facts.talon_points, Said("the talon cannot have negative card points")),
    )
    found += [Impossibility("points", said) for points, said in negative if points < 0]
    total = facts.declarer_points + facts.defender_points + facts.talon_points
    if total != deck:
        found.append(
            Impossibility(
                "points",
                Said(
                    "the card points add up to {total} (declarer {declarer} + defenders "
                    "{defenders} + talon {talon}), but the deck and the last trick hold {deck}",
                    total=total,
                    declarer=facts.declarer_points,
                    defenders=facts.defender_points,
                    talon=facts.talon_points,
                    deck=deck,
                ),
            )
        )
    if facts.talon_points > 2 * top_card:
        found.append(
            Impossibility(
                "points",
                Said(
                    "the talon holds two cards, at most {most} card points, not {points}",
                    most=2 * top_card,
                    points=facts.talon_points,
                ),
            )
        )
    last_side_is_declarer = facts.last_trick_winner == facts.declarer
    sides = ((True, facts.declarer_points), (False, facts.defender_points))
    for declarer_side, points in sides:
        tricks = _side_tricks(facts, declarer_side)
        bonus = ruleset.points.last_trick if last_side_is_declarer == declarer_side else 0
        most = tricks * CARDS_PER_TRICK * top_card + (bonus if tricks else 0)
        if points > most:
            found.append(Impossibility("points", _too_many(declarer_side, tricks, points, most)))
    return found


def _too_many(declarer_side: bool, tricks: int, points: int, most: int) -> Said:
    """A side's card points beyond what its tricks can hold."""
    values = {"tricks": tricks, "points": points, "most": most}
    if declarer_side and tricks == 1:
        return Said(
            "the declarer took {tricks} trick and cannot have {points} card points "
            "(at most {most})",
            **values,
        )
    if declarer_side:
        return Said(
            "the declarer took {tricks} tricks and cannot have {points} card points "
            "(at most {most})",
            **values,
        )
    if tricks == 1:
        return Said(
            "the defenders took {tricks} trick and cannot have {points} card points "
            "(at most {most})",
            **values,
        )
    return Said(
        "the defenders took {tricks} tricks and cannot have {points} card points (at most {most})",
        **values,
    )


# --------------------------------------------------------------------------- points and cards

Deck = tuple[tuple[int, int], ...]
"""The deck as (card value, how many cards have it), by value: 8 × ace, 24 × 0, ..."""


def _deck(ruleset: Ruleset, without: frozenset[str] = frozenset()) -> Deck:
    """The deck by card value; ``without`` ranks (ids) left out."""
    return _deck_of(tuple(ruleset.points.card_points.items()), without)


@lru_cache(maxsize=256)
def _deck_of(card_points: tuple[tuple[str, int], ...], without: frozenset[str]) -> Deck:
    """``_deck`` by the ruleset's card values: a score keeper asks for the same few decks
    for every hand of a ledger (the Four Aces check asks twelve times a hand)."""
    values = dict(card_points)
    counts = Counter(values.get(rank, 0) for rank in RANK_IDS if rank not in without)
    return tuple(sorted((value, SUITS * n) for value, n in counts.items() if n))


@lru_cache(maxsize=1024)
def _sums(deck: Deck, cards: int) -> int:
    """The card points ``cards`` cards of ``deck`` can hold: bit ``p`` set if ``p`` can be.

    A subset sum over at most eight values: for each count of cards taken, a bit set of
    the reachable totals (Python ints as bit sets), one value group at a time.
    """
    reach = [1] + [0] * cards  # reach[c]: totals reachable with c cards
    for value, available in deck:
        grown = list(reach)
        for taken in range(1, available + 1):
            for c in range(cards - taken + 1):
                if reach[c]:
                    grown[c + taken] |= reach[c] << (taken * value)
        reach = grown
    return reach[cards]


def _holds(deck: Deck, cards: int, points: int) -> bool:
    return points >= 0 and bool(_sums(deck, cards) >> points & 1)


def _without(deck: Deck, values: tuple[int, ...]) -> Deck | None:
    """``deck`` less one card of each of ``values``; None if it has too few."""
    left = dict(deck)
    for value in values:
        if left.get(value, 0) == 0:
            return None
        left[value] -= 1
    return tuple(sorted(left.items()))


def deck_words(ruleset: Ruleset) -> Said:
    """``cards count ace 11, ten 10, ..., every other card 0``: the ranks by their ids in
    English (as a ruleset writes them), by the words of the cards in another language.
    Public (``ulti_rules.deck_words``): a plugin's check of card points says it too."""
    counted = [(rank, v) for rank, v in ruleset.points.card_points.items() if v]
    if not counted:
        return Said("cards count nothing, every other card 0")

    def words(lang: str) -> str:
        gettext = translator(lang).gettext
        said = [f"{gettext(RANK_WORDS[r]) if r in RANK_WORDS else r} {v}" for r, v in counted]
        return ", ".join(said)

    english = ", ".join(f"{rank} {v}" for rank, v in counted)
    return Said(
        "cards count {counted}, every other card 0",
        counted=Named(english, {"hu": words("hu"), "de": words("de")}),
    )


def _split(facts: Facts, ruleset: Ruleset) -> list[Impossibility]:
    """Whether some cards could hold each side's points: the declarer's tricks, the
    defenders' tricks and the two-card talon are a partition of the deck.

    The totals already add up (checked before), so it is enough to find a talon of the
    talon's points and, from the cards left, the declarer's tricks' points.
    """
    deck = _deck(ruleset)
    last = ruleset.points.last_trick
    declarer_cards = CARDS_PER_TRICK * _side_tricks(facts, True)
    defender_cards = CARDS_PER_TRICK * _side_tricks(facts, False)
    declarer_won_last = facts.last_trick_winner == facts.declarer
    declarer = facts.declarer_points - (last if declarer_won_last else 0)
    defenders = facts.defender_points - (0 if declarer_won_last else last)
    if declarer < 0 or defenders < 0:
        return []  # the last-trick check names this
    found = []
    alone = (
        (True, declarer_cards, declarer, declarer_won_last),
        (False, defender_cards, defenders, not declarer_won_last),
    )
    for declarer_side, cards, points, has_last in alone:
        if not _holds(deck, cards, points):
            besides = last if has_last else 0
            said = _cannot_hold(declarer_side, cards, points, besides, deck_words(ruleset))
            found.append(Impossibility("points", said))
    if not _holds(deck, TALON_CARDS, facts.talon_points):
        found.append(
            Impossibility(
                "points",
                Said(
                    "the talon's two cards cannot hold {points} card points: {deck}",
                    points=facts.talon_points,
                    deck=deck_words(ruleset),
                ),
            )
        )
    if found or _dealable(
        deck,
        (declarer_cards, declarer),
        (defender_cards, defenders),
        (TALON_CARDS, facts.talon_points),
    ):
        return found
    return [
        Impossibility(
            "points",
            Said(
                "no deal of the cards gives the declarer {declarer}, the defenders {defenders} "
                "and the talon {talon} card points: {deck}",
                declarer=facts.declarer_points,
                defenders=facts.defender_points,
                talon=facts.talon_points,
                deck=deck_words(ruleset),
            ),
        )
    ]


def _cannot_hold(declarer_side: bool, cards: int, points: int, last: int, deck: Said) -> Said:
    """A side's tricks that no cards fill with its card points (``last``: the last
    trick's points it has besides, if any)."""
    values = {"tricks": cards // CARDS_PER_TRICK, "cards": cards, "points": points, "deck": deck}
    one = values["tricks"] == 1  # "took 1 tricks" read wrong; a trick is 3 cards
    if declarer_side and last:
        if one:
            return Said(
                "the declarer took {tricks} trick ({cards} cards), which cannot hold "
                "{points} card points besides the last trick's {last}: {deck}",
                last=last,
                **values,
            )
        return Said(
            "the declarer took {tricks} tricks ({cards} cards), which cannot hold {points} "
            "card points besides the last trick's {last}: {deck}",
            last=last,
            **values,
        )
    if declarer_side:
        if one:
            return Said(
                "the declarer took {tricks} trick ({cards} cards), which cannot hold "
                "{points} card points: {deck}",
                **values,
            )
        return Said(
            "the declarer took {tricks} tricks ({cards} cards), which cannot hold {points} "
            "card points: {deck}",
            **values,
        )
    if last:
        if one:
            return Said(
                "the defenders took {tricks} trick ({cards} cards), which cannot hold "
                "{points} card points besides the last trick's {last}: {deck}",
                last=last,
                **values,
            )
        return Said(
            "the defenders took {tricks} tricks ({cards} cards), which cannot hold {points} "
            "card points besides the last trick's {last}: {deck}",
            last=last,
            **values,
        )
    if one:
        return Said(
            "the defenders took {tricks} trick ({cards} cards), which cannot hold "
            "{points} card points: {deck}",
            **values,
        )
    return Said(
        "the defenders took {tricks} tricks ({cards} cards), which cannot hold {points} "
        "card points: {deck}",
        **values,
    )


Part = tuple[int, int]
"""Cards and card points of one part of the deal: the declarer's tricks, the defenders'
tricks, or the talon."""


def _dealable(deck: Deck, declarer: Part, defenders: Part, talon: Part) -> bool:
    """Whether ``deck`` splits into the three parts, each with its cards and points.

    A talon of the talon's cards and points is tried one choice of values at a time
    (it holds at most two cards); from the cards left, the declarer's tricks must be
    able to hold theirs, and the defenders then hold the rest, which is what they need
    when the cards and points add up.
    """
    parts = (declarer, defenders, talon)
    if any(cards < 0 or points < 0 for cards, points in parts):
        return False
    if sum(cards for cards, _ in parts) != sum(n for _, n in deck):
        return False
    if sum(points for _, points in parts) != sum(value * n for value, n in deck):
        return False
    talon_cards, talon_points = talon
    for chosen in combinations_with_replacement([value for value, _ in deck], talon_cards):
        if sum(chosen) != talon_points:
            continue
        rest = _without(deck, chosen)
        if rest is not None and _holds(rest, *declarer):
            return True
    return False


Held = Mapping[str, tuple[int, int, int]]
"""Of each rank (``ace``, ``king``, ...), how many cards lie in the declarer's tricks,
the defenders' tricks and the talon."""


def can_deal(facts: Facts, ruleset: Ruleset, held: Held) -> bool:
    """Whether the 32 cards can lie so that the declarer's tricks, the defenders' tricks
    and the talon hold the card points the facts give them (the last trick's bonus to
    its winner's side) and, of each rank in ``held``, exactly the cards it says.

    ``can_deal(facts, ruleset, {"ace": (2, 1, 1)})``: two aces in the declarer's tricks,
    one in the defenders', one in the talon. ``{}`` asks only whether the points can be.
    The cards of each side are its tricks times three and the talon's two; which seat of
    a side took which card is not asked. A rank a club values at 0 leaves the points as
    they are wherever its cards lie. A rank id no card has raises ValueError.
    """
    values: dict[str, int] = dict(ruleset.points.card_points.items())
    last = ruleset.points.last_trick
    declarer_won_last = facts.last_trick_winner == facts.declarer
    parts = [
        [
            CARDS_PER_TRICK * _side_tricks(facts, True),
            facts.declarer_points - (last if declarer_won_last else 0),
        ],
        [
            CARDS_PER_TRICK * _side_tricks(facts, False),
            facts.defender_points - (0 if declarer_won_last else last),
        ],
        [TALON_CARDS, facts.talon_points],
    ]
    for rank, counts in held.items():
        if rank not in RANK_IDS:
            raise ValueError(f"no card has the rank {rank!r} (ranks: {', '.join(RANK_IDS)})")
        if len(counts) != len(parts) or any(n < 0 for n in counts) or sum(counts) != SUITS:
            return False
        for part, n in zip(parts, counts, strict=True):
            part[0] -= n
            part[1] -= n * values.get(rank, 0)
    declarer, defenders, talon = ((cards, points) for cards, points in parts)
    return _dealable(_deck(ruleset, frozenset(held)), declarer, defenders, talon)


def _last_trick(facts: Facts, ruleset: Ruleset, name: Callable[[int], str]) -> list[Impossibility]:
    winner = facts.last_trick_winner
    if winner not in facts.seats:
        return [Impossibility("last_trick", did_not_play(name(winner)))]
    found = []
    if facts.tricks_won.get(winner, 0) == 0:
        found.append(
            Impossibility(
                "last_trick",
                Said("{player} won the last trick but no trick at all", player=name(winner)),
            )
        )
    side_points = facts.declarer_points if winner == facts.declarer else facts.defender_points
    if side_points < ruleset.points.last_trick:
        values = {"player": name(winner), "last": ruleset.points.last_trick, "points": side_points}
        if winner == facts.declarer and side_points:
            said = Said(
                "{player} won the last trick, worth {last}, but the declarer has only {points} "
                "card points",
                **values,
            )
        elif winner == facts.declarer:
            said = Said(
                "{player} won the last trick, worth {last}, but the declarer has no card points",
                **values,
            )
        elif side_points:
            said = Said(
                "{player} won the last trick, worth {last}, but the defenders have only "
                "{points} card points",
                **values,
            )
        else:
            said = Said(
                "{player} won the last trick, worth {last}, but the defenders have no card points",
                **values,
            )
        found.append(Impossibility("last_trick", said))
    return found


def did_not_play(player: str) -> Said:
    """``Anna did not play this hand``: a player named where only the hand's players can be."""
    return Said("{player} did not play this hand", player=player)


def _trump_seven(facts: Facts, name: Callable[[int], str]) -> list[Impossibility]:
    """One trump 7, in a trump game, played by a player of the hand; each problem is about
    the fact that says it (``trump_seven``: the last trick's, ``trump_seven_early``)."""
    last, early = facts.trump_seven_last_trick, facts.trump_seven_early
    if facts.trump is None and (last is not None or early is not None):
        topic = "trump_seven" if last is not None else "trump_seven_early"
        return [Impossibility(topic, Said("a no-trump game has no trump 7"))]
    found = []
    if last is not None and early is not None:
        found.append(
            Impossibility(
                "trump_seven",
                Said("there is one trump 7: it cannot be played both before and in the last trick"),
            )
        )
    for topic, seat in (("trump_seven", last), ("trump_seven_early", early)):
        if seat is not None and seat not in facts.seats:
            found.append(Impossibility(topic, did_not_play(name(seat))))
    return found


def _marriages(facts: Facts, ruleset: Ruleset, name: Callable[[int], str]) -> list[Impossibility]:
    if not facts.marriages:
        return []
    if facts.trump is None:
        return [Impossibility("marriages", Said("marriages are announced only in trump games"))]
    found = []
    seen: dict[str, int] = {}
    for marriage in facts.marriages:
        if marriage.seat not in facts.seats:
            found.append(Impossibility("marriages", did_not_play(name(marriage.seat))))
        if marriage.suit in seen:
            found.append(
                Impossibility(
                    "marriages",
                    Said(
                        "the King and Over of {suit} make one marriage, announced twice "
                        "({first} and {second})",
                        suit=suit_named(marriage.suit),
                        first=name(seen[marriage.suit]),
                        second=name(marriage.seat),
                    ),
                )
            )
        seen[marriage.suit] = marriage.seat
        expected = (
            ruleset.marriages.trump_value
            if marriage.suit == facts.trump
            else ruleset.marriages.plain_value
        )
        if marriage.value != expected:
            found.append(
                Impossibility(
                    "marriages",
                    Said(
                        "a marriage in {suit} is worth {expected} here, not {value}",
                        suit=suit_named(marriage.suit),
                        expected=expected,
                        value=marriage.value,
                    ),
                )
            )
    return found


def _bid_marriages(
    facts: Facts, ruleset: Ruleset, bid: Bid, name: Callable[[int], str]
) -> list[Impossibility]:
    """In a hundred game (a bid with a 40-100 or 20-100) the ruleset limits the marriages.

    As the engine does (``engine/marriages.py``): with ``in_hundred_game.declarer:
    bid_only`` the declarer announces the bid's marriages (a 40-100: the trump one; a
    20-100: one side suit) and no other; with ``defenders: none`` the defenders
    announce none. Outside hundred games every marriage held may be announced. (A bid
    marriage missing from the facts is not refused: a declarer who no longer holds it
    cannot announce it, and loses the 100.)
    """
    needs = [getattr(ruleset.contracts.get(cid), "marriage", None) for cid in bid.components]
    trump_needed, plain_needed = needs.count("trump"), needs.count("plain")
    if not trump_needed and not plain_needed:
        return []
    limits = ruleset.marriages.in_hundred_game
    game = bid.names.named()
    own = [m for m in facts.marriages if m.seat == facts.declarer]
    trump_made = sum(1 for m in own if m.suit == facts.trump)
    plain_made = len(own) - trump_made
    found = []
    declarer = name(facts.declarer)
    if limits.declarer == "bid_only" and (trump_made > trump_needed or plain_made > plain_needed):
        values = {"bid": game, "declarer": declarer, "suits": suits_named(m.suit for m in own)}
        if trump_needed and plain_needed:
            said = Said(
                "in a {bid} the declarer announces only the bid marriage (the trump marriage "
                "and a side-suit marriage), but {declarer} announced {suits}",
                **values,
            )
        elif trump_needed:
            said = Said(
                "in a {bid} the declarer announces only the bid marriage (the trump marriage), "
                "but {declarer} announced {suits}",
                **values,
            )
        else:
            said = Said(
                "in a {bid} the declarer announces only the bid marriage (a side-suit "
                "marriage), but {declarer} announced {suits}",
                **values,
            )
        found.append(Impossibility("marriages", said))
    if limits.defenders == "none":
        theirs = [m for m in facts.marriages if m.seat != facts.declarer]
        if theirs:
            who = ", ".join(dict.fromkeys(name(m.seat) for m in theirs))
            found.append(
                Impossibility(
                    "marriages",
                    Said(
                        "in a {bid} the defenders announce no marriages here, but {players} did",
                        bid=game,
                        players=who,
                    ),
                )
            )
    return found
