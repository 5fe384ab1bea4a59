"""The Four Aces contract kind: its parameters, the fact it judges by, and how it judges.

Imported by the plugin's ``register_contract_kinds`` hook, not by the entry module: a
kind class builds a pydantic model, which listing rulesets never needs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from ulti_rules import (
    N_,
    PLAYERS,
    CanDeal,
    ContractKind,
    ContractSpec,
    Facts,
    FactSpec,
    Rank,
    Ruleset,
    Said,
    SilentOutcome,
    Translator,
    rank_of,
)


class FourAcesSpec(ContractSpec):
    kind: Literal["four_aces"] = "four_aces"


CARDS = 32
"""The Hungarian pack: every ruleset plays all of it."""
ACES = frozenset(card for card in range(CARDS) if rank_of(card) == Rank.ACE)


def _ace_winners(facts: Facts) -> tuple[int, ...]:
    """For each ace played, the seat that won its trick (the engine's way to the fact)."""
    return tuple(
        trick.winner for trick in facts.tricks or () for card in trick.cards if card in ACES
    )


def _possible(
    winners: tuple[int, ...],
    facts: Facts,
    name: Callable[[int], str],
    *,
    ruleset: Ruleset | None = None,
    can_deal: CanDeal | None = None,
) -> list[str]:
    """What a table cannot have written: more than four aces, an ace in nobody's trick,
    nobody taking an ace when the talon cannot have held them all; given the ruleset and
    ``can_deal``, aces the card points leave no room for where the fact puts them.

    Each is a :class:`Said`: whole sentences, so that the score keeper says them in the
    table's language (they are in ulti-rules' catalogues)."""
    found: list[str] = [Said("there are four aces")] if len(winners) > 4 else []
    in_tricks = sum(facts.tricks_won.values()) * len(facts.seats)
    talon = CARDS - in_tricks
    if in_tricks and not winners and talon < len(ACES):
        found.append(
            Said(
                "nobody took an ace, but only {talon} cards lie in the talon: at least "
                "{missing} aces were in the tricks; say who won them",
                talon=talon,
                missing=len(ACES) - talon,
            )
        )
    found += [
        Said("{player} took an ace but won no trick", player=name(seat))
        for seat in sorted(set(winners))
        if seat in facts.seats and facts.tricks_won.get(seat, 0) == 0
    ]
    takers = set(winners)
    if found or ruleset is None or can_deal is None or not takers <= set(facts.seats):
        return found
    return _within_points(takers, facts, name, ruleset, can_deal)


def _within_points(
    takers: set[int],
    facts: Facts,
    name: Callable[[int], str],
    ruleset: Ruleset,
    can_deal: CanDeal,
) -> list[str]:
    """Whether some deal of the cards puts the aces where ``takers`` says, at the card
    points written: in the declarer's tricks if and only if the declarer took one; in
    the defenders' tricks, at least one for each defender named and all in the tricks of
    those named, none if neither is; the rest in the talon (at most two, whose points
    count as written). Which deals the points allow is the score keeper's ``can_deal``,
    exact for any card points (an ace a club values at 0 fits anywhere)."""
    aces = len(ACES)
    declarer = facts.declarer
    named = [s for s in facts.seats if s != declarer and s in takers]
    named_tricks = sum(facts.tricks_won.get(s, 0) for s in named)
    splits = [
        (mine, theirs, aces - mine - theirs)
        for mine in range(aces + 1)
        for theirs in range(aces + 1 - mine)
        if aces - mine - theirs <= 2
    ]

    def declarer_fits(mine: int) -> bool:
        return (mine > 0) == (declarer in takers)

    def defenders_fit(theirs: int) -> bool:
        if not named:
            return theirs == 0
        return len(named) <= theirs <= 3 * named_tricks

    # The splits the fact allows are tried first: one that can be dealt ends the check
    # (the usual case: a ledger checks every hand again at each `ulti ledger add`, and
    # the twelve splits were each a `can_deal`). The others only word the problem.
    if any(
        can_deal({"ace": split})
        for split in splits
        if declarer_fits(split[0]) and defenders_fit(split[1])
    ):
        return []
    dealt = [split for split in splits if can_deal({"ace": split})]
    if not dealt:  # no deal at all gives these points: the score keeper says so
        return []
    from ulti_rules import deck_words  # the score keeper's: not imported for a ladder

    words = deck_words(ruleset)
    who = name(declarer)
    found: list[str] = []
    if not any(declarer_fits(mine) for mine, _, _ in dealt):
        points = _side_points(facts, ruleset, declarer=True)
        if declarer in takers:
            found.append(
                Said(
                    "{player} took an ace, but {given}{room}: take {player} out of aces, or "
                    "correct points",
                    player=who,
                    given="",
                    room=_no_room(True, points, words),
                )
            )
        else:
            found.append(
                Said(
                    "{player}, the declarer, is not in aces, but {points} cannot be made "
                    "without an ace ({words}): add {player} to aces, or correct points",
                    player=who,
                    points=_points_of(True, points),
                    words=words,
                )
            )
    # Each side on its own; where each could be right alone but not both together, the
    # defenders' side given the declarer's.
    given: str = ""
    deals = dealt
    if not found and any(defenders_fit(theirs) for _, theirs, _ in dealt):
        given = (
            Said("with {player} in aces, ", player=who)
            if declarer in takers
            else Said("with {player} not in aces, ", player=who)
        )
        deals = [split for split in dealt if declarer_fits(split[0])]
    if not any(defenders_fit(theirs) for _, theirs, _ in deals):
        points = _side_points(facts, ruleset, declarer=False)
        if not named:
            first, second = (name(s) for s in facts.seats if s != declarer)
            found.append(
                Said(
                    "neither {first} nor {second} is in aces, but {given}{points} cannot be "
                    "made without an ace ({words}): add who took it to aces, or correct points",
                    first=first,
                    second=second,
                    given=given,
                    points=_points_of(False, points),
                    words=words,
                )
            )
        else:
            found.append(_named_defenders(named, points, deals, given, facts, name, words))
    return found


def _named_defenders(
    named: list[int],
    points: tuple[int, int],
    dealt: list[tuple[int, int, int]],
    given: str,
    facts: Facts,
    name: Callable[[int], str],
    words: str,
) -> str:
    """Why the defenders' aces cannot be where ``named`` says, in the deals ``dealt``:
    too few for one each, or too many for the tricks of those named."""
    most = max(theirs for _, theirs, _ in dealt)
    if most < len(named):
        room = _no_room(False, points, words, most)
        if len(named) == 1:
            return Said(
                "{player} took an ace, but {given}{room}: take {player} out of aces, or "
                "correct points",
                player=name(named[0]),
                given=given,
                room=room,
            )
        first, second = (name(s) for s in named)
        pair = {"first": first, "second": second, "given": given, "room": room}
        if most:
            return Said(
                "{first} and {second} each took an ace, but {given}{room}: take {first} or "
                "{second} out of aces, or correct points",
                **pair,
            )
        return Said(
            "{first} and {second} each took an ace, but {given}{room}: take {first} and "
            "{second} out of aces, or correct points",
            **pair,
        )
    least = min(theirs for _, theirs, _ in dealt if theirs >= len(named))
    tricks = sum(facts.tricks_won.get(s, 0) for s in named)
    values: dict[str, object] = {
        "given": given,
        "points": _points_of(False, points),
        "least": least,
        "words": words,
        "tricks": tricks,
    }
    if len(named) > 1:  # both defenders: all their tricks
        if tricks == 1:
            return Said(
                "{given}{points} need {least} aces in their tricks ({words}), and their "
                "{tricks} trick cannot hold them all: correct points or tricks",
                **values,
            )
        return Said(
            "{given}{points} need {least} aces in their tricks ({words}), and their "
            "{tricks} tricks cannot hold them all: correct points or tricks",
            **values,
        )
    (other,) = (s for s in facts.seats if s != facts.declarer and s not in named)
    values.update(player=name(named[0]), other=name(other))
    if tricks == 1:
        return Said(
            "{given}{points} need {least} aces in their tricks ({words}), and {player}'s "
            "{tricks} trick cannot hold them all: add {other} to aces, or correct points",
            **values,
        )
    return Said(
        "{given}{points} need {least} aces in their tricks ({words}), and {player}'s "
        "{tricks} tricks cannot hold them all: add {other} to aces, or correct points",
        **values,
    )


def _side_points(facts: Facts, ruleset: Ruleset, *, declarer: bool) -> tuple[int, int]:
    """A side's card points as written, and the last trick's bonus among them (0 if the
    other side won it)."""
    points = facts.declarer_points if declarer else facts.defender_points
    won_last = (facts.last_trick_winner == facts.declarer) == declarer
    return points, ruleset.points.last_trick if won_last else 0


def _points_of(declarer: bool, points: tuple[int, int]) -> Said:
    """``the defenders' 30 card points, 20 besides the last trick's 10,``: a side's
    points as a sentence names them (the sentence translated with them)."""
    total, last = points
    values = {"total": total, "rest": total - last, "last": last}
    if declarer and last:
        return Said(
            "the declarer's {total} card points, {rest} besides the last trick's {last},",
            **values,
        )
    if declarer:
        return Said("the declarer's {total} card points", **values)
    if last:
        return Said(
            "the defenders' {total} card points, {rest} besides the last trick's {last},",
            **values,
        )
    return Said("the defenders' {total} card points", **values)


def _no_room(declarer: bool, points: tuple[int, int], words: str, most: int = 0) -> Said:
    """``the defenders' 20 card points cannot include an ace (...)``: a side without
    room for more than ``most`` aces."""
    total, last = points
    if not most and total == 0 and declarer:
        return Said("the declarer has no card points")
    if not most and total == 0:
        return Said("the defenders have no card points")
    if not most and total == last:
        bare = _points_of(declarer, (total, 0))
        return Said("{points} are only the last trick's {last}", points=bare, last=last)
    values = {"points": _points_of(declarer, points), "words": words, "most": most}
    if most > 1:
        return Said("{points} cannot include more than {most} aces ({words})", **values)
    if most == 1:
        return Said("{points} cannot include more than one ace ({words})", **values)
    return Said("{points} cannot include an ace ({words})", **values)


ACE_WINNERS = FactSpec(
    name="ace_winners",
    form=PLAYERS,
    description=N_("who won the tricks that held an ace"),  # in ulti-rules' catalogues
    sheet_key="aces",
    compute=_ace_winners,
    check=_possible,
)
"""Who took the aces: not a core fact, since only this kind judges by it."""


ACE_CARDS = sum(1 << card for card in ACES)
"""The aces as a bit mask, as ``facts.cards_won`` holds cards."""


def _ace_takers(facts: Facts) -> set[int]:
    """The seats that won a trick holding an ace; aces left in the talon do not count.
    Where the facts hold the tricks, their ``cards_won`` says it (what ``ace_winners`` is
    computed from, without building it); typed in at a table, the fact does."""
    won = facts.cards_won
    if won is not None:
        return {seat for seat, cards in won.items() if cards & ACE_CARDS}
    return set(ACE_WINNERS.of(facts))  # "the facts do not say who won ...", translated


class FourAces(ContractKind):
    """Four Aces: the declarer wins every trick in which an ace is played."""

    name = "four_aces"
    params = FourAcesSpec
    facts = (ACE_WINNERS,)
    implied_by = frozenset({"durchmars"})  # every trick holds every ace trick

    def judge(self, spec: ContractSpec, facts: Facts, ruleset: Ruleset) -> bool:
        return _ace_takers(facts) <= {facts.declarer}

    def rulebook_sentences(
        self, spec: ContractSpec | None, ruleset: Ruleset, text: Translator
    ) -> tuple[str, ...]:
        """The rulebook's words for Four Aces, from the catalogue it is handed."""
        if spec is None:
            return (text.gettext("One player wins every trick in which an ace is played."),)
        return (
            text.gettext(
                "The declarer must win every trick in which an ace is played; an ace left "
                "in the talon does not count."
            ),
        )

    def judge_silent(
        self, facts: Facts, ruleset: Ruleset, *, either_side: bool
    ) -> SilentOutcome | None:
        """One player won every ace trick: the declarer's feat, or one defender's (WP's
        loss case; a defenders' feat only where either side may score it)."""
        takers = _ace_takers(facts)
        if len(takers) != 1:
            return None
        (seat,) = takers
        if seat == facts.declarer:
            return SilentOutcome("declarer", True, seat)
        if either_side:
            return SilentOutcome("defenders", True, seat)
        return SilentOutcome("declarer", False, seat)
