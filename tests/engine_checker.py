"""An independent rules checker for played hands, written apart from the engine.

It reads only the ruleset (rank orders, card points, play duties), the contract
kinds (whether a component keeps the trump 7) and the facts the engine reports,
and re-derives everything the slow, obvious way: each seat's hand before every
trick is the cards it still plays from then on; a card's strength is its place
in the ruleset's rank list; the duties of C13 are spelled out as in the rules.
It shares no code with ``ulti_rules.engine``.
"""

from __future__ import annotations

from ulti_rules.facts import Contract, Facts
from ulti_rules.plugins import Registry
from ulti_rules.ruleset.schema import Ruleset

SUITS = ["acorns", "leaves", "hearts", "bells"]
RANKS = ["ace", "ten", "king", "over", "under", "nine", "eight", "seven"]


def suit(card: int) -> str:
    return SUITS[card // 8]


def rank(card: int) -> str:
    return RANKS[card % 8]


class Checker:
    """Checks one played hand against the rules; every failure is an AssertionError."""

    def __init__(self, ruleset: Ruleset, registry: Registry, facts: Facts, contract: Contract):
        self.ruleset = ruleset
        self.facts = facts
        self.contract = contract
        self.trump = facts.trump
        bid = ruleset.bid(contract.bid)
        self.keeps_seven = any(
            registry.kinds[ruleset.contracts[c].kind].keeps_trump_seven for c in bid.components
        )

    # ------------------------------------------------------------------ card strength

    def order(self, card_suit: str) -> list[str]:
        ranks = self.ruleset.ranks
        if self.trump is None:
            return list(ranks.no_trump)
        if card_suit == self.trump:
            return list(ranks.trump_game)
        return list(ranks.trump_game_side_suits)

    def strength(self, card: int, led: str) -> int:
        """Higher wins; -1 for a card that cannot win (off-suit, not trump)."""
        place = 8 - self.order(suit(card)).index(rank(card))
        if self.trump is not None and suit(card) == self.trump:
            return 100 + place
        if suit(card) == led:
            return place
        return -1

    def allowed(self, hand: list[int], trick: list[int]) -> list[int]:
        """The cards the rules of C13 allow from ``hand`` onto ``trick`` (Ulti rule aside)."""
        if not trick:
            return list(hand)
        play = self.ruleset.play
        led = suit(trick[0])
        best = max(self.strength(c, led) for c in trick)
        same = [c for c in hand if suit(c) == led]
        if same and play.must_follow:
            if play.must_beat:
                beaters = [c for c in same if self.strength(c, led) > best]
                if beaters:
                    return beaters
            return same
        trumps = [c for c in hand if self.trump is not None and suit(c) == self.trump]
        if trumps and play.must_trump:
            if play.must_beat:
                beaters = [c for c in trumps if self.strength(c, led) > best]
                if beaters:
                    return beaters
            return trumps
        return list(hand)

    # ------------------------------------------------------------------ the checks

    def check(self) -> None:
        facts = self.facts
        tricks = facts.tricks
        assert tricks is not None and len(tricks) == 10, "a played hand has 10 tricks"
        seats = facts.seats
        assert len(seats) == 3, "three seats play"
        if self.contract.sitting_out is not None:
            assert self.contract.sitting_out not in seats, "the dealer who sits out does not play"
        # Conservation: every card once, in a trick or in the talon.
        played = [c for t in tricks for c in t.cards]
        talon = list(facts.talon or ())
        assert sorted(played + talon) == list(range(32)), "the 32 cards are conserved"
        # Order of play.
        first = facts.declarer if self.ruleset.play.first_lead == "declarer" else seats[0]
        assert tricks[0].leader == first, "the first lead is the ruleset's"
        owner: dict[int, int] = {}
        order_of = {s: i for i, s in enumerate(seats)}
        for k, t in enumerate(tricks):
            if k:
                assert t.leader == tricks[k - 1].winner, "the trick winner leads next"
            assert len(t.cards) == 3
            for i, card in enumerate(t.cards):
                owner[card] = seats[(order_of[t.leader] + i) % 3]
        for seat in seats:
            assert sum(1 for c in played if owner[c] == seat) == 10, "each seat plays 10 cards"
        # Every card legal, every winner right.
        sevens_early: list[int] = []
        for k, t in enumerate(tricks):
            so_far: list[int] = []
            for card in t.cards:
                seat = owner[card]
                hand = [c for tt in tricks[k:] for c in tt.cards if owner[c] == seat]
                allowed = self.allowed(hand, so_far)
                assert card in allowed, (
                    f"trick {k + 1}: seat {seat} played {card}, allowed {allowed}"
                )
                if (
                    self.keeps_seven
                    and seat == facts.declarer
                    and self.trump is not None
                    and suit(card) == self.trump
                    and rank(card) == "seven"
                    and k < 9
                ):
                    assert allowed == [card], "the Ulti declarer keeps the trump 7 unless forced"
                    sevens_early.append(k)
                so_far.append(card)
            led = suit(t.cards[0])
            strongest = max(t.cards, key=lambda c: self.strength(c, led))
            assert t.winner == owner[strongest], f"trick {k + 1} is won by the strongest card"
        # Points.
        values = self.ruleset.points.card_points
        pts = {s: 0 for s in seats}
        for t in tricks:
            pts[t.winner] += sum(values.get(rank(c), 0) for c in t.cards)  # type: ignore[call-overload]
        pts[tricks[-1].winner] += self.ruleset.points.last_trick
        assert facts.card_points == pts, "card points per seat"
        assert facts.declarer_points == pts[facts.declarer]
        assert facts.defender_points == sum(p for s, p in pts.items() if s != facts.declarer)
        talon_pts = sum(values.get(rank(c), 0) for c in talon)  # type: ignore[call-overload]
        assert facts.talon_points == talon_pts
        total = facts.declarer_points + facts.defender_points + facts.talon_points
        assert total == self.ruleset.points.total(), "card points and last trick add up"
        won = {s: sum(1 for t in tricks if t.winner == s) for s in seats}
        assert facts.tricks_won == won
        assert facts.last_trick_winner == tricks[-1].winner
        # The trump 7 and the aces.
        if self.trump is not None:
            seven = SUITS.index(self.trump) * 8 + RANKS.index("seven")
            where = next((k for k, t in enumerate(tricks) if seven in t.cards), None)
            if where == 9:
                assert facts.trump_seven_last_trick == owner[seven]
                assert facts.trump_seven_early is None
            elif where is not None:
                assert facts.trump_seven_early == owner[seven]
                assert facts.trump_seven_last_trick is None
        # Who took the aces: a fact only rulesets with Four Aces declare (its plugin's).
        aces = [t.winner for t in tricks for c in t.cards if rank(c) == "ace"]
        kinds = {c.kind for c in self.ruleset.contracts.values()}
        kinds |= {b.condition for b in self.ruleset.silent_bonuses.values()}
        if "four_aces" in kinds:
            assert facts.extra["ace_winners"] == tuple(aces)
        else:
            assert "ace_winners" not in facts.extra
        # Marriages: only in trump games, held at the start of play, valued by the ruleset.
        for m in facts.marriages:
            assert self.trump is not None, "marriages only in trump games"
            s = SUITS.index(m.suit)
            king, over = s * 8 + RANKS.index("king"), s * 8 + RANKS.index("over")
            assert owner[king] == m.seat and owner[over] == m.seat, "a marriage is held"
            want = (
                self.ruleset.marriages.trump_value
                if m.suit == self.trump
                else self.ruleset.marriages.plain_value
            )
            assert m.value == want


def check_played_hand(
    ruleset: Ruleset, registry: Registry, facts: Facts, contract: Contract
) -> None:
    Checker(ruleset, registry, facts, contract).check()
