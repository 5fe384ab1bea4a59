"""The human's seat at `ulti play`: shows what the seat sees, asks, reads the answer.

Every decision lists the legal actions, numbered; the answer may be the number, a card
in either notation, a bid's name, a suit, ``pass``. Laying two cards down takes both
in one line or one at a time. A line that names nothing legal gets a hint and the
question again; ``?`` shows the choices again; ``quit`` or the end of input leaves the
table (:class:`LeftTheTable`), Ctrl-C raises ``KeyboardInterrupt`` as usual: the
command says goodbye either way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import Card, CardParseError, parse_card
from ..engine import Action, Discard, Hand, Play
from ..engine.phase import Step
from .choice_reading import accepted_text, choices_of, fold, read_choice
from .play_words import Words
from .table_view import TableView, sort_hand, step_prompt

QUIT_WORDS = ("quit", "exit", "q", "bye")
HELP_WORDS = ("?", "help")


class LeftTheTable(Exception):
    """The person left: the end of input (Ctrl-D), or ``quit``."""


class HumanSeat:
    """Chooses for the seat to act by asking the person at the terminal."""

    def __init__(self, view: TableView, read_line: Callable[[str], str]) -> None:
        self.view = view
        self.read_line = read_line

    def ask(self, prompt: str) -> str:
        try:
            # "Name trump: ", but a question ("Felveszed a talont, vagy passz?") ends as it is
            text = self.read_line(f"{prompt} " if prompt.endswith("?") else f"{prompt}: ")
        except EOFError:
            raise LeftTheTable from None
        if fold(text) in QUIT_WORDS:
            raise LeftTheTable
        return text

    def choose(self, hand: Hand) -> Action:
        """One legal action for ``hand.current_player``, as the person answers."""
        seat = hand.current_player
        assert seat is not None
        seen = hand.observation(seat)
        if seen.step == Step.DISCARD:
            self.view.situation(hand, seat)
            return self.discard(hand, seen.hand, seen.legal_actions)
        actions = seen.legal_actions
        if len(actions) == 1 and isinstance(actions[0], Play):
            return actions[0]  # the last card, or the only legal one: no question
        self.view.situation(hand, seat)
        choices = choices_of(_in_hand_order(hand, actions), self.view.words)
        self.view.choices(choices)
        while True:
            text = self.ask(step_prompt(seen.step, self.view.words, actions))
            if text.strip() in HELP_WORDS:
                self.view.situation(hand, seat)
                self.view.choices(choices)
                self.view.hint(accepted_text(choices, self.view.words))
                continue
            reading = read_choice(text, choices, hand.why_refused, self.view.words)
            if reading.action is not None:
                return reading.action
            self.view.hint(reading.hint)

    def discard(self, hand: Hand, cards: Sequence[Card], legal: Sequence[Action]) -> Action:
        """Two cards laid down, by their numbers or names, in one line or one at a time."""
        ordered = self.view.numbered_hand(hand, cards)
        _ = self.view.words._
        accepted = _(
            "type two numbers (1 7) or cards (MA ZX, 7h Ac), or one at a time; "
            "'?' shows your hand again, 'quit' ends the game"
        )
        self.view.hint(_("Lay two cards down: {accepted}", accepted=accepted))
        picked: list[Card] = []
        while True:
            text = self.ask(_("Card to lay down") if not picked else _("Second card to lay down"))
            if text.strip() in HELP_WORDS:
                ordered = self.view.numbered_hand(hand, cards)
                self.view.hint(accepted)
                continue
            got = _read_cards(text, ordered, self.view.words)
            if isinstance(got, str):
                self.view.hint(got)
                continue
            both = picked + got
            if len(set(both)) != len(both) or len(both) > 2:
                self.view.hint(_("two different cards, no more: start again"))
                picked = []
                continue
            picked = both
            if len(picked) < 2:
                continue
            action = Discard(tuple(picked))
            if action in legal:
                return action
            why = hand.why_refused(action)
            reason = (
                self.view.words.say.said(why) if why else _("that is not a discard you may make")
            )
            self.view.hint(_("not these two: {why}; choose again", why=reason))
            picked = []


def _read_cards(text: str, ordered: Sequence[Card], words: Words) -> list[Card] | str:
    """The cards a line names (numbers into ``ordered``, or notation), or a hint in the
    player's language."""
    _ = words._
    whole = text.strip()
    if not whole:
        return _("type a card's number or the card, e.g. 3 or MA")
    in_words = _in_words(whole)
    if in_words is not None:  # "Piros Ász", "seven of hearts", "makk hetes piros ász"
        found: list[Card] = []
        for card in in_words:
            held = _held(card, ordered, words)
            if isinstance(held, str):
                return held
            found += held
        return found
    cards: list[Card] = []
    for token in whole.replace(",", " ").split():
        if token.isdigit():
            number = int(token)
            if not 1 <= number <= len(ordered):
                return _(
                    "there is no card {number}: your cards are numbered 1-{count}",
                    number=number,
                    count=len(ordered),
                )
            cards.append(ordered[number - 1])
            continue
        try:
            card = parse_card(token)
        except CardParseError as exc:
            said: str = exc.args[0]  # a Said: the hint says it in the table's language
            return said
        held = _held(card, ordered, words)
        if isinstance(held, str):
            return held
        cards += held
    return cards


def _in_words(line: str) -> list[Card] | None:
    """One or two cards written in words (``Piros Ász``, ``seven of hearts``, ``makk
    hetes, tök ász``), or None when the line is not that."""
    parts = line.replace(",", " ").split()
    if len(parts) < 2:
        return None
    whole = _card_in(parts)
    if whole is not None:
        return [whole]
    for cut in range(1, len(parts)):  # "seven of clubs, Herz-Sieben": two cards
        first, second = _card_in(parts[:cut]), _card_in(parts[cut:])
        if first is not None and second is not None:
            return [first, second]
    return None


def _card_in(parts: list[str]) -> Card | None:
    try:
        return parse_card(" ".join(parts))
    except CardParseError:
        return None


def _held(card: Card, ordered: Sequence[Card], words: Words) -> list[Card] | str:
    if card not in ordered:  # named as the table writes it: 'pk' is the PK
        return words._("you do not hold {typed}", typed=words.card_plain(card))
    return [card]


def _in_hand_order(hand: Hand, actions: Sequence[Action]) -> list[Action]:
    """The legal actions with the cards in the order the hand is shown above them, so
    that card 1 is the first card shown (the engine lists them by card number)."""
    cards = [action.card for action in actions if isinstance(action, Play)]
    place = {card: i for i, card in enumerate(sort_hand(hand, cards))}
    return sorted(actions, key=lambda a: place[a.card] if isinstance(a, Play) else len(place))
