"""The auction: the talon-passing bidding and the two-round variant (docs/rules.md#the-auction).

Steps, each with one seat to act:

* ``discard``: the seat holds the talon (forehand's 12 cards at the start, or after
  a pick-up) and lays two cards face down.
* ``bid``: after a discard the seat must name a higher bid (the opener may pass
  where the ruleset lets him; GT's opening pass bids the plain Simple).
* ``speak``: pick the talon up, pass, or (where no talon is in play, or taking it
  is optional) bid straight away. A pass does not stop a later bid; the last
  bidder may pick his own talon up again (self-robbing).
* ``round1``: the two-round auction's first round: bid or pass holding five cards.
* ``round1_trump``: its winner names trump before the extra cards, where so set.
* ``confirm``: the round-1 winner, after discarding, confirms his bid or raises it
  keeping the same trump.

The auction ends after ``end_passes`` consecutive passes following a bid (the
last bidder's own included), or when every active seat passed without a bid.

Every check happens before anything changes: :meth:`Auction.why_refused` names
the broken rule, :meth:`Auction.apply` then mutates. :meth:`Auction.legal` lists
what ``why_refused`` accepts by asking the same questions (``_pass_allowed``,
``_direct_bid_allowed``, ``_may_rob``, ``_any_feasible``), never rules of its own.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import combinations

from ..cards import card_name, format_cards, suit_id, suit_number
from ..game.catalog import BidInfo, Catalog
from ..ruleset.ladder import can_overcall
from ..ruleset.schema import Ruleset
from ..said import Said
from .action_words import action_words
from .actions import (
    DECLARE,
    PASS,
    PICK_UP,
    Action,
    Bid,
    DeclareTrump,
    Discard,
    Pass,
    PickUp,
    discards_of,
)
from .deal import Deal, Seating
from .masks import cards_of, mask_of_distinct
from .phase import BID, CONFIRM, DISCARD, ROUND1, ROUND1_TRUMP, SPEAK, Step
from .tricks import SUITS
from .trump import (
    KINGS_AND_OVERS,
    MARRIAGE_MASKS,
    MARRIED,
    feasible_suits,
    feasible_with,
    marriages_in,
    requirement_words,
)

TALON_SIZE = 2


class Auction:
    """The state of the bidding; mutates the hands it is given (pick-ups, discards)."""

    __slots__ = (
        "bid",
        "bid_trump",
        "bidder",
        "bids_made",
        "cat",
        "confirm_due",
        "done",
        "extra",
        "later",
        "opening",
        "passes",
        "rest",
        "round1_bid",
        "round1_trump",
        "round1_winner",
        "ruleset",
        "seats",
        "standing_round1",
        "step",
        "talon",
        "talon_by",
        "talon_mask",
        "turn",
        "two_round",
    )

    def __init__(
        self, ruleset: Ruleset, cat: Catalog, seats: Seating, deal: Deal, hands: list[int]
    ) -> None:
        self.ruleset = ruleset
        self.cat = cat
        self.seats = seats
        self.bid: BidInfo | None = None
        self.bidder: int = -1
        self.bid_trump = -1
        """The trump named with the standing bid (-1: none named yet)."""
        self.bids_made = 0
        self.passes = 0
        self.done = False
        self.round1_bid: BidInfo | None = None
        self.round1_winner = -1
        self.round1_trump = -1
        self.standing_round1 = False
        self.talon: tuple[int, ...] | None = None
        """The talon lying on the table, or None while a seat holds it (or there is none)."""
        self.talon_by = -1
        """The seat that last laid the talon down (it knows the cards)."""
        self.talon_mask = 0
        """The talon's cards as a mask (0 while it is not on the table): read by the legal
        lists' key, a pick-up's question and a pick-up itself."""
        self.rest: tuple[int, ...] = ()
        """Cards out of play (no-talon deal)."""
        self.extra: tuple[int, ...] = ()
        self.later: dict[int, int] = {}
        self.turn = seats.forehand
        self.opening = True
        self.confirm_due = False
        two = self.two_round = ruleset.auction.two_round
        """The two-round settings (read at every step, so kept at hand), or None."""
        mode = ruleset.deal.talon
        if two is not None:
            first = two.first_round_cards
            for seat in seats.active:
                dealt = deal.hands[seat]
                hands[seat] = mask_of_distinct(dealt[:first])
                self.later[seat] = mask_of_distinct(dealt[first:])
            self.extra = tuple(deal.rest)
            self.step = ROUND1
            return
        for seat in seats.active:
            hands[seat] = mask_of_distinct(deal.hands[seat])
        if mode == "forehand":
            self.step = DISCARD
        elif mode == "set_aside":
            self.talon = tuple(deal.rest)
            self.talon_mask = mask_of_distinct(self.talon)
            self.step = SPEAK
        else:
            self.rest = tuple(deal.rest)
            self.step = SPEAK

    def clone(self) -> Auction:
        """An independent copy for ``Hand.clone``: only ``later`` is mutated in place."""
        new = Auction.__new__(Auction)
        for name in _SLOTS:
            setattr(new, name, getattr(self, name))
        new.later = dict(self.later)
        return new

    # ------------------------------------------------------------------ helpers

    def _carries_trump(self, info: BidInfo) -> bool:
        """Whether a bid of ``info`` names its trump suit in the Bid action itself."""
        return info.trump == "suit" and self._suit_bids_carry()

    def _suit_bids_carry(self) -> bool:
        """Whether, at this step, a bid played in a suit of its bidder's choice names it."""
        if self.ruleset.trump.fixed is not None:
            return False
        if self.ruleset.trump.named == "in_bid":
            return True
        two = self.two_round
        if self.step is ROUND1:
            return two is not None and two.trump_named == "with_bid"
        return self.step is CONFIRM or self._same_trump_binds()

    def _same_trump_binds(self, confirm: bool | None = None) -> bool:
        """Round 2 bids must keep the round-1 trump (the confirm step, or all if so set).

        ``confirm``: whether the question is asked for the confirm step (default: the
        step now), so that a discard can ask about the step that follows it.
        """
        if self.round1_winner < 0:  # no round-1 winner (the usual auction)
            return False
        if self.step is CONFIRM if confirm is None else confirm:
            return True
        two = self.two_round
        return two is not None and two.same_trump_binds_others

    def _resolved(self, info: BidInfo, named: int) -> int:
        """The trump a bid stands for: named, red, fixed, or -1 (none, or not named yet).
        Which it may be is the catalogue's ``info.suits``: a red or fixed trump is its one suit."""
        suits = info.suits
        if len(suits) == 1:  # red, or the fixed suit: nothing to name
            return suits[0]
        return named if suits else -1

    def _value_mode(self) -> bool:
        """Whether the standing bid is a round-1 bid overcalled by value, not by rank."""
        two = self.two_round
        return (
            self.standing_round1
            and two is not None
            and two.overcall_by == "value"
            and self.round1_bid is not None
        )

    def _overcalls(self, info: BidInfo) -> bool:
        """Whether ``info`` may follow the standing bid (ladder rank, or the round-1 value)."""
        if self._value_mode():
            two, first = self.two_round, self.round1_bid
            assert two is not None and first is not None
            return info.bid.value > first.bid.value * two.multiplier
        return can_overcall(info.bid, self.bid.bid if self.bid else None)

    def _situation(self, confirm: bool) -> tuple[object, ...]:
        """Everything the candidate bids depend on: the key of the answers memoised about them.

        ``confirm``: whether they are asked for the confirm step.
        """
        standing = self.bid.bid.id if self.bid is not None else None
        if self.two_round is None:  # the usual auction: the standing bid alone
            return (standing, confirm)
        binds = self._same_trump_binds(confirm)
        return (
            standing,
            confirm,
            self._value_mode(),
            binds,
            self.round1_trump if binds else -1,
        )

    def _candidates(self, confirm: bool | None = None) -> list[BidInfo]:
        """Bids the rank, component and trump rules allow now, before looking at marriages."""
        return list(self._iter_candidates(self.step is CONFIRM if confirm is None else confirm))

    def _iter_candidates(self, confirm: bool) -> Iterator[BidInfo]:
        cat = self.cat
        binds = self._same_trump_binds(confirm)
        standing = self.round1_bid if confirm else None
        if standing is not None and standing.biddable:
            yield standing
        if self._value_mode():
            two, first = self.two_round, self.round1_bid
            assert two is not None and first is not None
            floor = first.bid.value * two.multiplier
            pool: Sequence[BidInfo] = [i for i in cat.ladder if i.bid.value > floor]
        else:
            start = bisect_right(cat.ranks, self.bid.bid.rank) if self.bid is not None else 0
            pool = cat.ladder[start:]
        for info in pool:
            if info is standing or not info.biddable:
                continue
            if binds and not self._keeps_trump(info):
                continue
            yield info

    def _candidates_at_all(self, confirm: bool | None = None) -> tuple[bool, bool]:
        """(some candidate, some candidate needing no marriage) now; memoised per situation.

        A candidate needing no marriage is makeable by any hand.
        """
        if confirm is None:
            confirm = self.step is CONFIRM
        return self._at_all(self._situation(confirm), confirm)

    def _at_all(self, situation: tuple[object, ...], confirm: bool) -> tuple[bool, bool]:
        key = ("candidates", *situation)
        memo = self.cat.memo
        found = memo.get(key)
        if found is None:
            candidates = self._candidates(confirm)
            found = memo[key] = (bool(candidates), any(not i.hundred for i in candidates))
        return found  # type: ignore[return-value]

    def _any_feasible(self, hand: int, confirm: bool | None = None) -> bool:
        """Whether some candidate bid is makeable with ``hand`` (the answer of every pick-up)."""
        if confirm is None:
            confirm = self.step is CONFIRM
        situation = self._situation(confirm)
        return self._at_all(situation, confirm)[1] or self._feasible_with(
            marriages_in(hand), situation, confirm
        )

    def _talon_may_serve(self, seat: int, hand: int) -> bool:
        """Whether, for all ``seat`` knows, the talon on the table may make a bid makeable.

        Taking it obliges a higher bid, so it is offered only where one may follow; but
        the talon lies face down, and what a seat may do must not tell it what lies there.
        So a talon the seat laid itself counts with its cards; any other with every two
        cards the seat does not hold (only Kings and Overs matter). Should the talon then
        make no bid, the seat bids even so, "even if the hand is unsuitable" (HU):
        :meth:`_unsuitable`."""
        talon = self.talon
        if talon is None:
            return False
        if self.talon_by == seat:
            return self._any_feasible(hand | self.talon_mask)
        confirm = self.step is CONFIRM
        situation = self._situation(confirm)
        if self._at_all(situation, confirm)[1]:
            return True
        key = ("unseen talon", hand & KINGS_AND_OVERS, *situation)
        memo = self.cat.memo
        found = memo.get(key)
        if found is None:
            missing = [1 << card for card in cards_of(KINGS_AND_OVERS & ~hand)]
            completions = [0, *missing, *(a | b for a, b in combinations(missing, 2))]
            found = memo[key] = (
                any(
                    self._feasible_with(marriages_in(hand | more), situation, confirm)
                    for more in completions
                ),
            )
        return bool(found[0])

    def _unsuitable(self, hand: int) -> bool:
        """After taking a talon that made no bid makeable: every higher bid may be made,
        its marriages unheld (the bid is then lost), since taking the talon obliges one."""
        return self.step is BID and not self._any_feasible(hand)

    def _feasible_with(
        self, held: tuple[int, ...], situation: tuple[object, ...], confirm: bool
    ) -> bool:
        """Whether a candidate needing marriages is makeable holding the marriages ``held``.

        Only the marriages a hand holds matter: memoised per situation and marriages, so
        that the 66 discards of a hand cost a look-up each.
        """
        key = ("feasible", held, *situation)
        memo = self.cat.memo
        found = memo.get(key)
        if found is None:
            binds = self._same_trump_binds(confirm)
            found = memo[key] = (
                any(
                    self._trump_options(i, held, True, binds)
                    for i in self._iter_candidates(confirm)
                ),
            )
        return bool(found[0])

    def _keeps_trump(self, info: BidInfo) -> bool:
        """Whether ``info`` can be played in the round-1 trump (the 'same trump' rule)."""
        if info.names_trump:
            return self.round1_trump in info.suits
        return self._resolved(info, -1) == self.round1_trump

    def _trump_options(
        self, info: BidInfo, held: tuple[int, ...], check_marriages: bool, binds: bool
    ) -> tuple[int, ...]:
        """The suits a bid of ``info`` could be played in (-1 for no trump).

        ``held``: the suits in which the bidder holds King and Over; ``binds``: whether
        the round-1 trump binds (``_same_trump_binds``).
        """
        if info.trump == "none":
            return (-1,)
        suits = info.suits
        if binds:
            suits = (self.round1_trump,) if self.round1_trump in suits else ()
        if check_marriages and info.hundred:
            suits = feasible_with(info, held, suits)
        return suits

    def _confirm_forced(self, hand: int) -> bool:
        """No confirm or raise is makeable: the round-1 bid then stands as it is (and fails)."""
        return self.step is CONFIRM and not self._any_feasible(hand, True)

    def _bid_actions(self, hand: int) -> tuple[Bid, ...]:
        """Every Bid the seat may make now; memoised per situation in the catalogue."""
        check = self.step is not ROUND1 and not self._unsuitable(hand)
        if self._confirm_forced(hand):
            return (self._confirm_action(),)
        held = marriages_in(hand) if check else ()
        carry = self._suit_bids_carry()
        key = ("bids", held, check, carry, *self._situation(self.step is CONFIRM))
        memo = self.cat.memo
        found = memo.get(key)
        if found is None:
            found = tuple(self._compute_bid_actions(held, check, carry))
            memo[key] = found
        return found  # type: ignore[return-value]

    def _compute_bid_actions(self, held: tuple[int, ...], check: bool, carry: bool) -> list[Bid]:
        result: list[Bid] = []
        confirm = self.step is CONFIRM
        binds = self._same_trump_binds(confirm)
        for info in self._iter_candidates(confirm):
            options = self._trump_options(info, held, check, binds)
            if not options:
                continue
            if carry and info.trump == "suit":
                result.extend(_bid(self.cat.memo, info.id, s) for s in options)
            else:
                result.append(_bid(self.cat.memo, info.id, -1))
        return result

    def _confirm_action(self) -> Bid:
        assert self.round1_bid is not None
        if self._carries_trump(self.round1_bid):
            return _bid(self.cat.memo, self.round1_bid.id, self.round1_trump)
        return _bid(self.cat.memo, self.round1_bid.id, -1)

    def _direct_bid_allowed(self) -> bool:
        """In the speak step: whether a seat may bid without taking the talon."""
        if self.step is not SPEAK:
            return False
        if self.ruleset.deal.talon == "none" or self.ruleset.auction.talon_exchange_optional:
            return True
        return self.opening and self.ruleset.deal.talon == "set_aside"

    def _can_open(self, hand: int) -> bool:
        """In the opening speak step: whether the opener can bid straight away or take the
        talon lying on the table (which obliges a bid he can then make)."""
        if self._direct_bid_allowed() and self._bid_actions(hand):
            return True
        return self._talon_may_serve(self.turn, hand)

    def _may_rob(self, seat: int) -> bool:
        return seat != self.bidder or self.ruleset.auction.self_robbing

    def _discard_needs_bid(self) -> bool:
        """Whether the discard in progress must leave a makeable bid (no pass after it)."""
        return not (self.opening and self._opening_may_pass())

    def _opening_may_pass(self) -> bool:
        auction = self.ruleset.auction
        return (not auction.opener_must_bid) or auction.opener_pass_is_simple

    def _next_step_after_discard(self) -> Step:
        return CONFIRM if self.confirm_due else BID

    def _discard_ok(self, hand: int, pair: tuple[int, ...]) -> bool:
        """Whether discarding ``pair`` (two cards, ascending) leaves a bid to make then."""
        if not self._discard_needs_bid():
            return True
        confirm = self.confirm_due  # the bids that must remain are those of the next step
        situation = self._situation(confirm)
        if self._at_all(situation, confirm)[1] or self._feasible_with(
            marriages_in(hand & ~((1 << pair[0]) | (1 << pair[1]))), situation, confirm
        ):
            return True
        refused = self._refused_discards(hand)  # the rare case: is the bid forced?
        if refused is None:
            return True
        lost, pairs = refused
        return not (lost >> pair[0]) & 1 and not (lost >> pair[1]) & 1 and pair not in pairs

    def _legal_discards(self, hand: int) -> list[Action]:
        """The discards :meth:`_discard_ok` accepts, in ``combinations`` order."""
        refused = self._refused_discards(hand)
        if refused is None:  # the usual case: every pair
            return discards_of(cards_of(hand))
        lost, pairs = refused
        cards = cards_of(hand & ~lost)
        found = discards_of(cards)  # every pair without a card that alone loses the bid
        if pairs:  # and without the few pairs of marriage cards that lose it together
            where = {card: i for i, card in enumerate(cards)}
            n = len(cards)
            for first, second in sorted(pairs, reverse=True):  # from the end: indices hold
                i, j = where[first], where[second]
                del found[i * (2 * n - i - 1) // 2 + j - i - 1]  # the pair's place in the list
        return found

    def _refused_discards(self, hand: int) -> tuple[int, frozenset[tuple[int, int]]] | None:
        """What ``hand`` may not discard now: None if any pair may go, else the cards that
        may not go at all (a mask) and the pairs (ascending) of other cards that may not go
        together.

        The bids that must remain are those of the step after the discard. A discard can
        only lose marriages, and losing one never makes a bid makeable: so if the whole
        hand makes none, no discard does; else only the pairs holding a card of one of its
        marriages can be refused: asked about per card, and per second marriage card. That
        answer depends on the hand only through its Kings and Overs: memoised per situation
        and those cards.
        """
        if not self._discard_needs_bid():
            return None
        confirm = self.confirm_due
        situation = self._situation(confirm)
        if self._at_all(situation, confirm)[1]:  # a bid without marriages remains
            return None
        key = ("refused", hand & KINGS_AND_OVERS, *situation)
        memo = self.cat.memo
        found = memo.get(key)
        if found is None:
            found = memo[key] = (
                self._work_out_refused(hand & KINGS_AND_OVERS, situation, confirm),
            )
        return found[0]  # type: ignore[return-value]

    def _work_out_refused(
        self, hand: int, situation: tuple[object, ...], confirm: bool
    ) -> tuple[int, frozenset[tuple[int, int]]] | None:
        """:meth:`_refused_discards` for the Kings and Overs ``hand`` holds."""
        feasible = self._feasible_with
        held = marriages_in(hand)
        if not feasible(held, situation, confirm):
            # No discard holds a bid up: a round-1 bid is then confirmed anyway, and a talon
            # taken unseen obliges a bid even so (``_unsuitable``): any pair may go.
            return None
        married = cards_of(hand & sum(MARRIAGE_MASKS[s] for s in held))
        lost = 0
        for card in married:
            if not feasible(marriages_in(hand & ~(1 << card)), situation, confirm):
                lost |= 1 << card
        pairs: set[tuple[int, int]] = set()
        # Only a second card of another marriage can lose more than one card alone.
        for first, second in combinations(married, 2):
            if (lost >> first) & 1 or (lost >> second) & 1:
                continue
            if not feasible(
                marriages_in(hand & ~((1 << first) | (1 << second))), situation, confirm
            ):
                pairs.add((first, second))
        return (lost, frozenset(pairs)) if lost or pairs else None

    # ------------------------------------------------------------------ queries

    def legal(self, hands: list[int]) -> tuple[Action, ...] | list[Action]:
        """Every action the seat to act may take now: a tuple the memo shares (a caller
        copies it), or for the discards a new list (about 66 of them, listed afresh)."""
        seat = self.turn
        hand = hands[seat]
        step = self.step
        if step is DISCARD:
            return self._legal_discards(hand)
        if step is ROUND1_TRUMP:
            assert self.bid is not None
            return tuple(DECLARE[s] for s in self.bid.suits)
        # The answer depends on the hand only through the marriages it holds (with the
        # talon, for a pick-up): memoised per step, situation and those marriages, in a
        # table of its own (about eleven look-ups a random hand: the key is kept short).
        talon = self.talon
        known = (  # ``marriages_in``; for a pick-up, what the seat knows of the talon
            # (``_talon_may_serve``): its cards, or only its own
            None
            if talon is None
            else MARRIED[(hand | self.talon_mask) & KINGS_AND_OVERS]
            if self.talon_by == seat
            else hand & KINGS_AND_OVERS
        )
        may_rob = seat != self.bidder or self.ruleset.auction.self_robbing  # ``_may_rob``
        married = MARRIED[hand & KINGS_AND_OVERS]
        if self.two_round is None:  # ``_situation`` inlined: the standing bid alone
            bid = self.bid
            standing = None if bid is None else bid.bid.id
            key: tuple[object, ...] = (step, may_rob, self.opening, married, known, standing)
        else:
            situation = self._situation(step is CONFIRM)
            key = (step, may_rob, self.opening, married, known, *situation)
        memo = self.cat.legal
        found = memo.get(key)
        if found is None:
            found = memo[key] = tuple(self._compute_legal(seat, hand, step))
        return found  # type: ignore[return-value]

    def _compute_legal(self, seat: int, hand: int, step: Step) -> list[Action]:
        """The actions of a bid, speak, round1 or confirm step (:meth:`legal`'s memo)."""
        actions: list[Action] = []
        if step is SPEAK:
            rob = self._may_rob(seat)
            if rob and self._talon_may_serve(seat, hand):
                actions.append(PICK_UP)
            if rob and self._direct_bid_allowed():
                actions.extend(self._bid_actions(hand))
            if self._pass_allowed(hand):
                actions.append(PASS)
            return actions
        actions = list(self._bid_actions(hand))
        if self._pass_allowed(hand):
            actions.append(PASS)
        return actions

    def _pass_allowed(self, hand: int) -> bool:
        """Whether the seat to act may pass: the one rule that both :meth:`legal` and
        :meth:`why_refused` ask, so that the two can never disagree."""
        if self.step is SPEAK:
            if not self.opening or self._opening_may_pass():
                return True
            # The opener must bid (no talon, or one set aside): he passes only if no bid
            # at all is open to him, so that a hand never sticks with nothing to do.
            return not self._can_open(hand)
        if self.step is BID:
            return self.opening and self._opening_may_pass()
        if self.step is ROUND1:
            two = self.two_round
            return not (self.opening and two is not None and two.opener_must_bid)
        return False

    def why_refused(self, action: Action, hands: list[int]) -> str | None:
        """None if the seat to act may take ``action`` now, else the rule it breaks."""
        seat = self.turn
        hand = hands[seat]
        step = self.step
        if isinstance(action, Discard):
            if step is not DISCARD:
                return Said("there is nothing to discard now: discard right after taking the talon")
            if len(action.cards) != TALON_SIZE:
                return Said("the talon is {n} cards: discard exactly {n}", n=TALON_SIZE)
            for card in action.cards:
                if not (hand >> card) & 1:
                    return Said("you do not hold the {card}", card=card_name(card))
            if not self._discard_ok(hand, action.cards):
                cards = format_cards(action.cards)
                if self.bid:
                    return Said(
                        "after discarding {cards} you could make no bid above {bid}, and you "
                        "must bid after taking the talon",
                        cards=cards,
                        bid=self.bid.name,
                    )
                return Said(
                    "after discarding {cards} you could make no bid, and you must bid after "
                    "taking the talon",
                    cards=cards,
                )
            return None
        if step is DISCARD:
            return Said("discard two cards first: you hold the talon")
        if isinstance(action, DeclareTrump):
            if step is not ROUND1_TRUMP:
                return Said("trump is named after the auction, not during it")
            assert self.bid is not None
            if suit_number(action.suit) not in self.bid.suits:
                return Said(
                    "{suit} cannot be trump in {bid}",
                    suit=SUITS[suit_number(action.suit)],
                    bid=self.bid.name,
                )
            return None
        if step is ROUND1_TRUMP:
            return Said("name the trump suit of your round-1 bid first")
        if isinstance(action, PickUp):
            if step is BID:
                return Said("you have laid the talon down: now bid")
            if step is not SPEAK:
                return Said("there is no talon to take now")
            if self.talon is None:
                return Said("there is no talon in this deal")
            if not self._may_rob(seat):
                return Said(
                    "this ruleset has no self-robbing: you may not take back your own talon"
                )
            if not self._candidates_at_all()[0]:
                if self.bid is None:
                    return Said("no bid ranks above nothing: taking the talon obliges a higher bid")
                return Said(
                    "no bid ranks above {bid}: taking the talon obliges a higher bid",
                    bid=self.bid.name,
                )
            if not self._talon_may_serve(seat, hand):
                if self.talon_by == seat:
                    return Said(
                        "with your talon you could make no higher bid, and taking it obliges one"
                    )
                return Said(
                    "no two cards you could find in the talon would let you make a higher bid, "
                    "and taking it obliges one"
                )
            return None
        if isinstance(action, Pass):
            if self._pass_allowed(hand):
                return None
            if step is CONFIRM:
                return Said("confirm your round-1 bid or raise it")
            if step is ROUND1:
                return Said("the first speaker must open round 1 with a bid")
            if self.opening:
                return Said("the opener must bid")
            return Said("you took the talon, so you must bid higher")
        if isinstance(action, Bid):
            return self._why_bid_refused(action, hand)
        quoted = action_words(action, self._bid_name)
        return Said("'{action}' is not an action of the auction", action=quoted)

    def _bid_name(self, bid_id: str) -> str:
        """A bid's name by its id, said in the language of the sentence it is part of."""
        info = self.cat.by_id.get(bid_id)
        return info.name if info is not None else bid_id

    def _why_bid_refused(self, action: Bid, hand: int) -> str | None:
        info = self.cat.by_id.get(action.bid)
        if info is None:
            return Said("there is no bid '{bid}' in this ruleset's ladder", bid=action.bid)
        step = self.step
        if step is SPEAK:
            if not self._direct_bid_allowed():
                return Said("take the talon first: every bid picks the talon up")
            if not self._may_rob(self.turn):
                return Said("this ruleset has no self-robbing: you may not raise your own bid")
        if not info.biddable:
            least = self.ruleset.auction.min_components
            return Said("every bid needs at least {least} components in this ruleset", least=least)
        confirming = step is CONFIRM and info is self.round1_bid
        if not confirming and not self._overcalls(info):
            if self.bid is None:
                return Said("{bid} cannot be bid now", bid=info.name)
            return Said("{bid} does not overcall {standing}", bid=info.name, standing=self.bid.name)
        if self._same_trump_binds() and not confirming and not self._keeps_trump(info):
            if self.round1_trump < 0:
                return Said("a raise keeps the round-1 trump (no trump)")
            return Said("a raise keeps the round-1 trump ({suit})", suit=SUITS[self.round1_trump])
        carries = self._carries_trump(info)
        if carries and action.trump is None:
            return Said(
                "name the trump suit with the bid: {bid} is played with a trump", bid=info.name
            )
        if not carries and action.trump is not None:
            if info.names_trump:
                return Said("the trump suit is named after the auction, not with the bid")
            if info.trump == "none":
                return Said("{bid} has no trump suit to name", bid=info.name)
            return Said("{bid} fixes its trump suit itself", bid=info.name)
        if confirming:
            if (
                carries
                and action.trump is not None
                and suit_number(action.trump) != self.round1_trump
            ):
                return Said("a confirmation keeps the round-1 trump")
            if self._confirm_forced(hand):
                return None
        check = step is not ROUND1 and not self._unsuitable(hand)
        options = self._trump_options(info, (), False, self._same_trump_binds())
        if carries:
            assert action.trump is not None
            if suit_number(action.trump) not in options:
                suit = SUITS[suit_number(action.trump)]
                if self._same_trump_binds():
                    return Said(
                        "{suit} cannot be trump in {bid} here: a raise keeps the round-1 trump",
                        suit=suit,
                        bid=info.name,
                    )
                return Said("{suit} cannot be trump in {bid}", suit=suit, bid=info.name)
            options = (suit_number(action.trump),)
        if check and info.trump != "none" and not feasible_suits(info, hand, options):
            return requirement_words(info, options)
        return None

    # ------------------------------------------------------------------ changes

    def apply(self, action: Action, hands: list[int]) -> None:
        """Carry out an action that :meth:`why_refused` accepted (of an action class itself,
        never a subclass: the hand takes no other)."""
        seat = self.turn
        if type(action) is Pass:
            if (
                self.opening
                and self.step in (BID, SPEAK)
                and self.ruleset.auction.opener_pass_is_simple
            ):
                simple = self.cat.plain_simple
                assert simple is not None
                self._record_bid(simple, -1, seat, confirm=False)
                return
            self._pass(hands)
            return
        if type(action) is Bid:
            info = self.cat.by_id[action.bid]
            confirm = self.step is CONFIRM and info is self.round1_bid
            named = suit_number(action.trump) if action.trump else -1
            if confirm and named < 0:
                named = self.round1_trump
            self._record_bid(info, named, seat, confirm=confirm)
            return
        if type(action) is Discard:
            first, second = action.cards  # (checked: the talon's two)
            hands[seat] &= ~(1 << first | 1 << second)
            self.talon = action.cards
            self.talon_mask = 1 << first | 1 << second
            self.talon_by = seat
            self.step = self._next_step_after_discard()
            return
        if type(action) is PickUp:
            assert self.talon is not None
            hands[seat] |= self.talon_mask
            self.talon = None
            self.talon_mask = 0
            self.step = DISCARD
            self.opening = False
            return
        if type(action) is DeclareTrump:
            self.bid_trump = self.round1_trump = suit_number(action.suit)
            self._deal_rest(hands, seat)
            return
        raise AssertionError(f"unchecked action {action!r}")

    def _record_bid(self, info: BidInfo, named: int, seat: int, *, confirm: bool) -> None:
        was_round1 = self.step is ROUND1
        self.bid = info
        self.bidder = seat
        self.bid_trump = self._resolved(info, named)
        self.passes = 0
        self.opening = False
        if not confirm:
            self.bids_made += 0 if was_round1 else 1
        if self.step is CONFIRM:
            self.standing_round1 = confirm
            self.confirm_due = False
        elif not was_round1:
            self.standing_round1 = False
        self.step = ROUND1 if was_round1 else SPEAK
        self.turn = self.seats.after[seat]

    def _pass(self, hands: list[int]) -> None:
        self.passes += 1
        self.opening = False
        active = len(self.seats.active)
        if self.step is ROUND1:
            two = self.two_round
            assert two is not None
            if self.bid is not None and self.passes >= two.end_passes:
                self._end_round1(hands)
                return
            if self.bid is None and self.passes >= active:
                self._end_round1(hands)
                return
            self.turn = self.seats.after[self.turn]
            return
        end = self.ruleset.auction.end_passes
        if (self.bid is not None and self.passes >= end) or (
            self.bid is None and self.passes >= active
        ):
            self.done = True
            return
        self.turn = self.seats.after[self.turn]
        self.step = SPEAK

    def _end_round1(self, hands: list[int]) -> None:
        """Round 1 is over: its winner takes the extra cards (after naming trump, if so set)."""
        if self.bid is None:
            # Nobody bid in round 1: deal on, and bid as in the usual game (forehand has 12).
            self._deal_rest(hands, self.seats.forehand)
            self.round1_winner = -1
            return
        self.round1_bid = self.bid
        self.round1_winner = self.bidder
        self.round1_trump = self.bid_trump
        self.turn = self.bidder
        if self.bid.trump == "suit" and self.round1_trump < 0:
            self.step = ROUND1_TRUMP
            return
        self._deal_rest(hands, self.bidder)

    def _deal_rest(self, hands: list[int], receiver: int) -> None:
        hands[receiver] |= mask_of_distinct(self.extra)
        for seat, mask in self.later.items():
            hands[seat] |= mask
        self.extra = ()
        self.later = {}
        self.turn = receiver
        self.step = DISCARD
        self.passes = 0
        self.opening = self.round1_winner < 0 and self.bid is None
        self.confirm_due = self.round1_winner >= 0

    # ------------------------------------------------------------------ results

    @property
    def final_talon(self) -> tuple[int, ...]:
        return self.talon if self.talon is not None else self.rest

    @property
    def uncontested(self) -> bool:
        return self.bid is not None and self.bid.plain_parti and self.bids_made <= 1

    def multiplier(self) -> int:
        two = self.two_round
        if two is not None and self.standing_round1 and self.bid is self.round1_bid:
            return two.multiplier
        return 1


_SLOTS: tuple[str, ...] = Auction.__slots__


def _bid(memo: dict[tuple[object, ...], tuple[object, ...]], bid_id: str, trump: int) -> Bid:
    """The Bid action for a bid id and named suit (-1: none), built once per game (kept
    in the catalogue's memo, which the game owns)."""
    key = ("bid action", bid_id, trump)
    found = memo.get(key)
    if found is None:
        found = memo[key] = (Bid(bid_id, suit_id(trump) if trump >= 0 else None),)
    action = found[0]
    assert isinstance(action, Bid)
    return action
