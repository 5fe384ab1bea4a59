"""What `ulti play` prints of a hand: the deal, each call, each trick, the result.

The view has a viewer: the human's seat, who sees what his seat's observation shows
(his own cards and discards, the talon he laid, the hands an open contract lays face
up), or nobody (``--auto``), who sees every card. Everything goes through the rich
console of ``console.py``: colours only on a terminal, every name made printable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from ..cards import RANK_IDS, Card, rank_of, suit_number, suit_of
from ..engine import Action, Bid, DeclareTrump, Discard, Hand, Kontra, Pass, PickUp, Play
from ..engine.phase import Phase, Step
from ..i18n import N_
from ..scoring.settlement import Settlement
from .choice_reading import Choice
from .play_words import Words
from .settlement_view import all_pass_text, settlement_tables, signed

HEADING = "bold"
DIM = "dim"
INDENT = "  "
CARD_GAP = "   "
"""Between two numbered cards (``1 MK   2 MIX``)."""
COLUMN_GAP = 2
"""Spaces at least between two columns of wrapped choices."""
MOST_COLUMNS = 4
TRICK_INDENT = 6
"""Where a trick's line goes on when it wraps: under its first card (``  10. ``)."""


@dataclass(frozen=True)
class Before:
    """What the view remembers of the hand before an action, to tell what it changed."""

    tricks: int
    phase: Phase
    exposed: bool


def named_trump(hand: Hand) -> int:
    """The trump suit's number once it is named, else -1: in play the hand's; in the
    auction the suit named last, with the standing bid (a suit named in the bid, or the
    round-1 winner's of a two-round auction) unless a later bid named none. The hand was
    sorted trump-first only from the first card, though the suit stood from round 1."""
    if hand.trump is not None:
        return suit_number(hand.trump)
    for _, action in reversed(hand.history):
        if isinstance(action, DeclareTrump):
            return suit_number(action.suit)
        if isinstance(action, Bid):
            return suit_number(action.trump) if action.trump is not None else -1
    return -1


def sort_hand(hand: Hand, cards: Sequence[Card]) -> list[Card]:
    """Cards grouped by suit (the trump first, once named), each suit high to low in the
    ruleset's rank order for this contract (tens low without trumps)."""
    ranks = hand.ruleset.ranks
    info = hand.bid_info
    no_trump = info is not None and info.trump == "none"
    trump = -1 if no_trump else named_trump(hand)

    def order(card: Card) -> tuple[int, int]:
        suit = int(suit_of(card))
        if no_trump:
            line = ranks.no_trump
        elif suit == trump or trump < 0:
            line = ranks.trump_game
        else:
            line = ranks.trump_game_side_suits
        position = [RANK_IDS[r] for r in line].index(rank_of(card))
        return (-1 if suit == trump else suit), position

    return sorted(cards, key=order)


class TableView:
    """Prints one session's hands for a viewer (a seat, or None for every card)."""

    def __init__(self, console: Console, words: Words, viewer: int | None) -> None:
        self.console = console
        self.words = words
        self.viewer = viewer
        self._contract_shown = False
        self._rest_shown = True

    # ------------------------------------------------------------------ helpers

    def line(self, *parts: str | Text, style: str = "") -> None:
        text = Text(style=style)
        for part in parts:
            text.append(part) if isinstance(part, str) else text.append_text(part)
        self.console.print(text)

    def name(self, seat: int) -> Text:
        return Text(self.words.names[seat], style="bold" if self.words.is_you(seat) else "")

    def hand_text(self, hand: Hand, cards: Sequence[Card]) -> Text:
        """Cards sorted by suit, a double space between suits."""
        text = Text()
        last = None
        for card in sort_hand(hand, cards):
            suit = suit_of(card)
            if last is not None:
                text.append("  " if suit != last else " ")
            text.append_text(self.words.card(card))
            last = suit
        return text or Text(self.words._("(no cards)"))

    def sees(self, seat: int) -> bool:
        """Whether the viewer may see ``seat``'s hidden cards (his own, or all in --auto)."""
        return self.viewer is None or self.viewer == seat

    # ------------------------------------------------------------------ a hand begins

    def begin(self, number: int, hand: Hand) -> None:
        self._contract_shown = False
        self._rest_shown = hand.ruleset.auction.two_round is None
        seats, words, said = hand.seats, self.words, self.words.said
        self.console.print()
        head = Text(words._("Hand {number}:", number=number) + " ", style=HEADING)
        if seats.sitting_out is not None:
            deals = said(hand.dealer, N_("You deal and sit out"), N_("{name} deals and sits out"))
        else:
            deals = said(hand.dealer, N_("You deal"), N_("{name} deals"))
        forehand = said(seats.forehand, N_("You are forehand"), N_("{name} is forehand"))
        head.append(f"{deals}, {forehand}")
        self.console.print(head)
        self.deal(hand)
        if self.viewer is not None and self.viewer == seats.sitting_out:
            self.line(words._("You sit this hand out and watch."), style=DIM)
        rest = hand.deal.rest
        if rest and self.viewer is None:
            talon = hand.ruleset.deal.talon == "set_aside"
            label = words._("talon") if talon else words._("out of play")
            if hand.ruleset.auction.two_round is not None:
                label = words._("extra cards for the round-1 winner")
            self.line(f"  {label}: ", words.cards(sorted(rest)), style=DIM)
        self.console.print()
        self.line(words._("Auction"), style=HEADING)

    def deal(self, hand: Hand) -> None:
        """The cards of every seat the viewer may see, one row each."""
        seats = hand.seats
        width = max(len(self.words.names[s]) for s in seats.active)
        for seat in seats.active:
            if not self.sees(seat):
                continue
            row = Text("  ")
            row.append_text(self.name(seat)).append(" " * (width - len(self.words.names[seat])))
            row.append("  ").append_text(self.hand_text(hand, hand.cards(seat)))
            if len(hand.cards(seat)) > 10:
                row.append("  " + self.words._("(with the talon)"), style=DIM)
            self.console.print(row)

    # ------------------------------------------------------------------ each action

    def before(self, hand: Hand) -> Before:
        return Before(len(hand.tricks), hand.phase, hand.exposed)

    def after(self, hand: Hand, seat: int, action: Action, before: Before) -> None:
        """Print what ``seat``'s ``action`` did: the call, a finished trick, the contract
        once play begins, the cards an open contract lays face up.

        A trick is printed when the hand counts it finished, whatever the action: under
        ``kontra.window_opens: after_own_card`` the last card of trick 1 opens its
        player's kontra word first, and his kontra or pass closes the trick."""
        if isinstance(action, Play):
            pass  # a card shows in its trick
        elif isinstance(action, Pass) and before.phase is Phase.KONTRA and self.viewer is None:
            pass  # a pass in the kontra round says nothing worth a line to the onlooker
        else:
            shown = None
            index = len(hand.history) - 1
            if self.sees(seat) and isinstance(action, Discard):
                shown = action.cards
            elif self.sees(seat) and isinstance(action, PickUp):
                shown = hand.pickups.get(index)
            text = Text("  ").append_text(self.words.action(seat, action, shown))
            if isinstance(action, Kontra):
                text.stylize("bold")
            self.console.print(text)
        if len(hand.tricks) > before.tricks:
            self.trick(hand, len(hand.tricks))
        if not self._rest_shown and self._round_one_over(hand):
            self._rest_shown = True
            self.line("  " + self.words._("The rest of the cards are dealt:"), style=DIM)
            self.deal(hand)
        if not self._contract_shown and hand.phase in (Phase.PLAY, Phase.KONTRA, Phase.OVER):
            self._contract_shown = True
            self.contract(hand)
        if hand.exposed and not before.exposed:
            self.exposed(hand)

    @staticmethod
    def _round_one_over(hand: Hand) -> bool:
        """Two-round auction: whether the rest of the cards are dealt (a hand holds more
        than the round-1 cards)."""
        two_round = hand.ruleset.auction.two_round
        if two_round is None:
            return False
        first = two_round.first_round_cards
        return any(len(hand.cards(seat)) > first for seat in hand.seats.active)

    def contract(self, hand: Hand) -> None:
        """The winning bid once the auction (and the naming of trump) is over."""
        bid, declarer = hand.bid, hand.declarer
        self.console.print()
        if bid is None or declarer is None:
            return
        words = self.words
        value = hand.ruleset.bid(bid).value
        text = Text(words._("Contract:") + " ", style=HEADING)
        plays = words.said(
            declarer,
            N_("You play {bid} ({value} per defender)"),
            N_("{name} plays {bid} ({value} per defender)"),
            bid=words.bid(bid),
            value=value,
        )
        info = hand.bid_info
        if hand.trump:
            trump = words._("trump {suit}", suit=words.suit(hand.trump))
        elif info is not None and info.trump == "none":
            trump = words._("no trump")
        else:  # a trump bid given up, or left unplayed (an uncontested Simple)
            trump = words._("trump not named")
        text.append(f"{plays}, {trump}")
        if hand.multiplier != 1:
            text.append(", " + words._("round-1 bid ×{multiplier}", multiplier=hand.multiplier))
        self.console.print(text)
        if hand.phase != Phase.OVER:
            self.line(words._("Tricks"), style=HEADING)

    def exposed(self, hand: Hand) -> None:
        seen = hand.observation(self.viewer if self.viewer is not None else hand.dealer).exposed
        who = [s for s in seen if s != self.viewer]
        if not who:
            return
        self.line("  " + self.words._("Cards laid face up:"), style="bold")
        width = max(len(self.words.names[seat]) for seat in who)
        for seat in who:
            pad = " " * (width - len(self.words.names[seat]))
            self.line("    ", self.name(seat), pad, "  ", self.hand_text(hand, seen[seat]))

    def trick(self, hand: Hand, number: int) -> None:
        leader, cards, winner = hand.tricks[number - 1]
        text = Text(f"  {number:>2}. ")
        seat = leader
        for i, card in enumerate(cards):
            if i:
                text.append(", ")
            text.append_text(self.name(seat)).append(" ").append_text(self.words.card(card))
            seat = hand.seats.next(seat)
        text.append("  → ").append_text(self.name(winner))
        points = self.points(hand, number)
        tally = Text(points, style=DIM) if points else None
        whole = text + Text("   ") + tally if tally is not None else text
        width = self.console.width
        if cell_len(whole.plain) <= width:
            self.console.print(whole)
            return
        # A narrow terminal: the cards wrap under the first card, not at its left edge,
        # and the points stay whole on a line of their own ("Ben 10 :" / "0 defenders")
        lines = text.wrap(self.console, max(width - TRICK_INDENT, 20), overflow="fold")
        for i, line in enumerate(lines):
            self.console.print(line if i == 0 else Text(" " * TRICK_INDENT) + line)
        if tally is not None:
            self.console.print(Text(" " * TRICK_INDENT) + tally)

    def points(self, hand: Hand, upto: int) -> str:
        """The running card points of a parti-type contract (Simple, 100): the declarer's
        and the defenders', the last-trick bonus included once it is won; else ''."""
        declarer, info = hand.declarer, hand.bid_info
        if declarer is None or info is None or not counts_points(hand):
            return ""
        tables = hand.game.tables(suit_number(hand.trump) if hand.trump else -1)
        mine = theirs = 0
        for _, cards, winner in hand.tricks[:upto]:
            got = sum(tables.points[c] for c in cards)
            if winner == declarer:
                mine += got
            else:
                theirs += got
        if upto == len(hand.tricks) and hand.is_over and hand.tricks:
            if hand.tricks[-1][2] == declarer:
                mine += hand.ruleset.points.last_trick
            else:
                theirs += hand.ruleset.points.last_trick
        return self.words._(
            "{name} {mine} : {theirs} defenders",
            name=self.words.names[declarer],
            mine=mine,
            theirs=theirs,
        )

    # ------------------------------------------------------------------ the human's turn

    def situation(self, hand: Hand, seat: int) -> None:
        """What the seat to act sees before choosing: its cards, the talon it laid, the
        standing bid, the trick so far, the hands face up."""
        seen, _ = hand.observation(seat), self.words._
        self.console.print()
        if seen.talon is not None and seen.phase == Phase.AUCTION:
            self.line(
                "  " + _("The talon you laid:") + " ", self.words.cards(seen.talon), style=DIM
            )
        bidder = next((s for s, a in reversed(seen.history) if isinstance(a, Bid)), None)
        if seen.phase == Phase.AUCTION and seen.bid is not None and bidder is not None:
            standing = self.words.said(
                bidder,
                N_("Standing bid: {bid} by You"),
                N_("Standing bid: {bid} by {name}"),
                bid=self.words.bid(seen.bid),
            )
            self.line(f"  {standing}")
        for other, cards in seen.exposed.items():
            if other != seat:
                self.line("  ", self.name(other), " " + _("(face up):") + " ",
                          self.hand_text(hand, cards))  # fmt: skip
        trick = seen.current_trick
        # in the kontra phase too: a word right after one's own card (after_own_card)
        if trick is not None and seen.phase in (Phase.PLAY, Phase.KONTRA):
            text = Text("  " + _("Trick {number}:", number=len(seen.tricks) + 1) + " ")
            who = trick.leader
            for i, card in enumerate(trick.cards):
                if i:
                    text.append(", ")
                text.append_text(self.name(who)).append(" ").append_text(self.words.card(card))
                who = hand.seats.next(who)
            self.console.print(text)
        label = _("Your hand (with the talon):") if len(seen.hand) > 10 else _("Your hand:")
        self.line(f"  {label} ", self.hand_text(hand, seen.hand), style="")

    def choices(self, choices: Sequence[Choice]) -> None:
        """The numbered choices, in columns as wide as the longest; where even two such
        columns do not fit (a narrow terminal, long bid names), in columns whose labels
        wrap under themselves, as few lines in all as the width allows: a number never
        parts from its label."""
        room = (self.console.width if self.console.is_terminal else 100) - len(INDENT)
        for line in choice_lines([(str(c.number), c.label) for c in choices], room):
            self.line(INDENT + line)

    def numbered_hand(self, hand: Hand, cards: Sequence[Card]) -> list[Card]:
        """The hand numbered in its sorted order (for laying two cards down); returns it.
        Lines break between two cards, never between a card and its number."""
        ordered = sort_hand(hand, cards)
        room = self.console.width - len(INDENT)
        text = Text(INDENT)
        used = 0
        for number, card in enumerate(ordered, start=1):
            cell = Text(f"{number} ").append_text(self.words.card(card))
            if used and used + len(CARD_GAP) + cell.cell_len > room:
                self.console.print(text)
                text, used = Text(INDENT), 0
            elif used:
                text.append(CARD_GAP)
                used += len(CARD_GAP)
            text.append_text(cell)
            used += cell.cell_len
        self.console.print(text)
        return ordered

    def hint(self, message: str) -> None:
        self.line(f"  {self.words.say.said(message)}", style="yellow")

    # ------------------------------------------------------------------ the end

    def end(self, hand: Hand, settlement: Settlement | None) -> None:
        """The result: nobody bid, or the card points, the talon and the itemised
        settlement (``settlement_view``, as `ulti score` prints it)."""
        words = self.words
        self.console.print()
        if hand.contract is None:
            names = words.names
            what = all_pass_text(hand.ruleset, hand.dealer, names, words.say)
            self.line(words._("Nobody bid: {what}.", what=what), style="")
            return
        if not self._contract_shown:
            self._contract_shown = True
            self.contract(hand)
        facts = hand.facts
        contract = hand.contract
        if contract.gave_up:
            self.line(words.said(contract.declarer, N_("You gave up."), N_("{name} gave up.")))
        elif facts is None:
            self.line(words._("Not played: nobody bid after the lone Simple (uncontested)."))
        else:
            points = words._(
                "Card points: {name} (declarer) {points}, the defenders {defenders}; the talon",
                name=words.names[facts.declarer],
                points=facts.declarer_points,
                defenders=facts.defender_points,
            )
            self.line(points + " ", words.cards(hand.talon), f" ({facts.talon_points})")
            for seat, suit, value in hand.marriages:
                self.line(
                    words._("Marriage: {name}, {suit} ({value})", name=words.names[seat],
                            suit=words.suit(suit), value=value)
                )  # fmt: skip
        if settlement is not None:
            for table in settlement_tables(settlement, words.names, hand.ruleset, words.say):
                self.console.print(table)

    def session(self, played: int, totals: dict[str, int], next_text: str) -> None:
        """The session's totals after ``played`` hands, and whose deal is next."""
        amounts = ", ".join(f"{name} {signed(amount)}" for name, amount in totals.items())
        self.console.print()
        after = self.words.say.ngettext(
            "Session after {n} hand:", "Session after {n} hands:", played
        )
        self.line(f"{after} ", amounts, style=HEADING)
        if next_text:
            self.line(next_text)


def choice_lines(cells: Sequence[tuple[str, str]], room: int) -> list[str]:
    """Numbered labels (``("3", "Ulti (5)")``) laid out in ``room`` columns of text,
    numbered down each column. Each column as wide as the longest cell, as many as fit
    (at least three spaces apart); where fewer than two fit, the labels wrap within
    their columns, the number on the first line and the rest indented under the label,
    in the number of columns (1 to 4) that takes the fewest lines."""
    if not cells:
        return []
    digits = max(len(number) for number, _ in cells)
    joined = [f"{number:>{digits}} {label}" for number, label in cells]
    width = max(cell_len(c) for c in joined) + 3
    per_line = max(1, min(len(joined), room // width))
    if per_line > 1 or len(joined) == 1:
        rows = -(-len(joined) // per_line)
        return ["".join(_pad(c, width) for c in joined[row::rows]).rstrip() for row in range(rows)]
    labels = [label for _, label in cells]
    best: tuple[int, int, list[int]] | None = None
    for columns in range(1, min(MOST_COLUMNS, len(cells)) + 1):
        found = _best_widths(
            labels, columns, room - columns * (digits + 1) - (columns - 1) * COLUMN_GAP
        )
        if found is not None and (best is None or found[0] < best[0]):
            best = (found[0], columns, found[1])
    if best is None:  # not even one column fits its longest word: one per line, as it is
        return joined
    _, columns, widths = best
    rows = -(-len(cells) // columns)
    lines = []
    for row in range(rows):
        wrapped = [
            (cells[index][0], _wrap(labels[index], widths[column]), widths[column])
            for column in range(columns)
            if (index := column * rows + row) < len(cells)
        ]
        for depth in range(max(len(lines_of) for _, lines_of, _ in wrapped)):
            parts = []
            for number, lines_of, label_width in wrapped:
                shown = f"{number:>{digits}} " if depth == 0 else " " * (digits + 1)
                text = lines_of[depth] if depth < len(lines_of) else ""
                parts.append(shown + _pad(text, label_width))
            lines.append((" " * COLUMN_GAP).join(parts).rstrip())
    return lines


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken between words (a word wider
    than ``width`` stands alone on its line)."""
    lines: list[str] = []
    for word in text.split():
        if lines and cell_len(lines[-1]) + 1 + cell_len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _best_widths(labels: Sequence[str], columns: int, room: int) -> tuple[int, list[int]] | None:
    """The label widths of ``columns`` columns (numbered down) within ``room`` cells that
    take the fewest lines, and that number; None where the columns cannot hold their
    longest words."""
    rows = -(-len(labels) // columns)
    groups = [list(labels[c * rows : (c + 1) * rows]) for c in range(columns)]
    if not groups[-1]:
        return None
    # Each column's useful widths: the narrowest at which its labels take so many lines.
    useful: list[list[int]] = []
    heights: list[dict[int, list[int]]] = []
    for group in groups:
        least = max(cell_len(word) for label in group for word in label.split() or [""])
        most = max(cell_len(label) for label in group)
        at: dict[int, list[int]] = {}
        for width in range(least, most + 1):
            lines = [len(_wrap(label, width)) for label in group]
            if not at or lines != at[max(at)]:
                at[width] = lines
        useful.append(sorted(at))
        heights.append(at)
    best: tuple[int, list[int]] | None = None
    for head in product(*useful[:-1]):
        left = room - sum(head)
        last = [w for w in useful[-1] if w <= left]
        if not last:
            continue
        widths = [*head, last[-1]]
        height = [heights[c][widths[c]] for c in range(columns)]
        total = sum(
            max(height[c][r] for c in range(columns) if r < len(height[c])) for r in range(rows)
        )
        if best is None or total < best[0]:
            best = (total, widths)
    return best


def counts_points(hand: Hand) -> bool:
    """Whether card points decide part of this contract: a Simple or a 100 among its
    components (the kinds say so: ``is_parti``, and a bid that needs a marriage)."""
    info = hand.bid_info
    if info is None:
        return False
    if info.hundred:
        return True
    contracts = hand.ruleset.contracts
    kinds = hand.registry.kinds
    return any(
        getattr(kinds.get(contracts[cid].kind), "is_parti", False)
        for cid in info.bid.components
        if cid in contracts
    )


PROMPTS: dict[Step, str] = {
    Step.BID: N_("Your bid"),
    Step.CONFIRM: N_("Confirm or raise your bid"),
    Step.ROUND1: N_("Your round-1 bid"),
    Step.SPEAK: N_("Pick up the talon, or pass"),
    Step.TRUMP: N_("Name trump"),
    Step.ROUND1_TRUMP: N_("Name trump"),
    Step.PLAY: N_("Your card"),
    Step.KONTRA: N_("Kontra, or pass"),
}


def step_prompt(
    step: Step, words: Words | None = None, actions: Sequence[Action] | None = None
) -> str:
    """The question for the seat to act, in ``words``' language; in the play, where no
    card is on offer (a marriage due first), not "Your card", which a card then answered
    with "no card is due now"."""
    message = PROMPTS.get(step, N_("Your choice"))
    if step is Step.PLAY and actions is not None and not any(type(a) is Play for a in actions):
        message = N_("Your choice")
    return words._(message) if words is not None else message
