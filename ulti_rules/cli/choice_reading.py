"""Reading what a person types at the table into one of the legal actions, or a hint.

Every legal action is a numbered :class:`Choice` with a label and the words that name
it: a bid by its name in any language or an alias (``ulti``, ``Herz-Ulti``), a suit by
its name or letter, ``pass``, a kontra by its level name. A card is read by the
notation of ``cards.py`` (``PVII``, ``7h``, ``Piros Ász``). Text that names no choice,
or several, gets a hint that says what is accepted; nothing typed ever raises.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..cards import (
    DE_SUIT_NAMES,
    EN_SUIT_NAMES,
    FR_SUIT_LETTER,
    FR_SUIT_SYMBOL,
    HU_SUIT_LETTER,
    HU_SUIT_NAMES,
    CardParseError,
    Suit,
    SuitId,
    parse_card,
    suit_id,
    suit_number,
)
from ..engine import Action, Announce, Bid, DeclareTrump, GiveUp, Kontra, Pass, PickUp, Play
from ..engine.actions import GIVE_UP, PASS, PICK_UP
from ..i18n import LANGS, N_, translator
from ..said import Said
from .play_words import Words

PASS_WORDS = ("pass", "passz", "passe", "passen", "-")
PICK_UP_WORDS = (
    "pick up", "pickup", "pick", "take", "talon", "take the talon",
    # the prompt's own words ("Felveszed a talont, vagy passz?"), and the answer to it
    "felveszem", "felveszem a talont", "felveszed a talont",
    "aufnehmen", "nehmen", "talon nehmen",
)  # fmt: skip
GIVE_UP_WORDS = ("give up", "giveup", "concede", "bedobom", "feladom", "aufgeben")
PASS_LABEL = N_("pass")
PICK_UP_LABEL = N_("pick up the talon")
GIVE_UP_LABEL = N_("give up")
NEAR = 6
"""How many choices a did-you-mean lists."""
ANNOUNCE_WORDS = ("announce", "marriage", "bemondom", "ansagen")


def fold(text: str) -> str:
    """Text as it is compared: lower case, accents dropped, spaces collapsed."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return " ".join(plain.split())


def suit_words(suit: SuitId) -> tuple[str, ...]:
    """Every way a suit may be typed: its id, its Hungarian, German and French names,
    letters and symbol."""
    s = Suit(suit_number(suit))
    return (
        suit,
        EN_SUIT_NAMES[s],
        HU_SUIT_NAMES[s],
        DE_SUIT_NAMES[s],
        HU_SUIT_LETTER[s],
        FR_SUIT_LETTER[s],
        FR_SUIT_SYMBOL[s],
    )


@dataclass(frozen=True)
class Choice:
    """One legal action as the person sees it: numbered in the list, with a label."""

    number: int
    action: Action
    label: str
    words: frozenset[str]
    """The folded texts that name this choice alone (a bid's names, ``pass``, ...)."""


@dataclass(frozen=True)
class Reading:
    """What a typed line came to: an action, or a hint to show (and ask again)."""

    action: Action | None = None
    hint: str = ""


def in_every_language(message: str) -> list[str]:
    """A message as each language says it (``pass``, ``passz``, ``passen``): a choice
    labelled in one language is read in all of them."""
    return [translator(lang).gettext(message) for lang in LANGS]


def _bid_names(words: Words, bid_id: str) -> list[str]:
    try:
        bid = words.ruleset.bid(bid_id)
    except KeyError:
        return [bid_id]
    names = [bid.names.hu, bid.names.en, bid.names.de or bid.names.en, *bid.aliases]
    return [*names, bid_id, bid_id.replace("_", " ")]


def _value(words: Words, bid_id: str) -> int:
    try:
        return words.ruleset.bid(bid_id).value
    except KeyError:
        return 0


def _describe(words: Words, action: Action) -> tuple[str, list[str]]:
    """The label of an action and the texts that name it (the label itself among them,
    as it is printed: what is listed can be typed)."""
    if isinstance(action, Play):
        return words.card_plain(action.card), []
    if isinstance(action, Bid):
        names = _bid_names(words, action.bid)
        value = _value(words, action.bid)
        label = words.bid(action.bid)
        if action.trump is not None:
            label = words._("{bid} in {suit}", bid=label, suit=words.suit(action.trump))
            names = [f"{n} {s}" for n in names for s in suit_words(action.trump)]
        names.append(label)  # without its value, and with it (the label as listed)
        return (f"{label} ({value})" if value else label), names
    if isinstance(action, Pass):
        return words._(PASS_LABEL), [*PASS_WORDS, *in_every_language(PASS_LABEL)]
    if isinstance(action, PickUp):
        return words._(PICK_UP_LABEL), [*PICK_UP_WORDS, *in_every_language(PICK_UP_LABEL)]
    if isinstance(action, GiveUp):
        return words._(GIVE_UP_LABEL), [*GIVE_UP_WORDS, *in_every_language(GIVE_UP_LABEL)]
    if isinstance(action, DeclareTrump):
        return words.suit(action.suit), list(suit_words(action.suit))
    if isinstance(action, Announce):  # "announce hearts", or the suit alone (docs/play.md)
        named = [f"{a} {s}" for a in ANNOUNCE_WORDS for s in suit_words(action.suit)]
        label = words._("announce the {suit} marriage", suit=words.suit(action.suit))
        return label, [*ANNOUNCE_WORDS, *named, *suit_words(action.suit)]
    if isinstance(action, Kontra):
        level = words.level(action.level)
        return words.kontra(action), [level, words.kontra(action)]
    return str(action), [str(action)]


def choices_of(actions: Sequence[Action], words: Words) -> list[Choice]:
    """The legal actions as numbered choices: the cards first (so that a card's number
    does not move when a kontra or a marriage is on offer), the rest in the engine's order."""
    ordered = sorted(actions, key=lambda action: not isinstance(action, Play))
    choices = []
    for number, action in enumerate(ordered, start=1):
        label, names = _describe(words, action)
        named = frozenset(fold(n) for n in (*names, label))
        choices.append(Choice(number, action, label, named))
    return choices


def accepted_text(choices: Sequence[Choice], words: Words) -> str:
    """What may be typed here, in one sentence, in the player's language."""
    _ = words._
    kinds = [_("a number (1-{n})", n=len(choices))] if len(choices) > 1 else ["1"]
    if any(isinstance(c.action, Play) for c in choices):
        kinds.append(_("a card (PVII, MA, 7h, A♣)"))
    if any(isinstance(c.action, Bid) for c in choices):
        kinds.append(_("a bid's name (ulti, 40-100)"))
    if any(isinstance(c.action, PickUp) for c in choices):
        kinds.append(_("'pick up'"))
    if any(isinstance(c.action, Pass) for c in choices):
        kinds.append(_("'pass'"))
    if any(isinstance(c.action, GiveUp) for c in choices):
        kinds.append(_("'give up'"))
    suits = [c.action.suit for c in choices if isinstance(c.action, (DeclareTrump, Announce))]
    if suits:  # named by the first suit on offer: never one that is refused here
        s = Suit(suit_number(suits[0]))
        hungarian = HU_SUIT_NAMES[s].lower()
        own = {"hu": hungarian, "de": DE_SUIT_NAMES[s]}.get(words.say.lang, suits[0])
        names = (own,) if own == hungarian else (own, hungarian)
        shown = ", ".join((*names, HU_SUIT_LETTER[s], FR_SUIT_LETTER[s]))
        kinds.append(_("a suit ({suit})", suit=shown))
    if any(isinstance(c.action, Kontra) for c in choices):
        kinds.append(_("a kontra's name"))
    listed = (
        _("{first} or {last}", first=", ".join(kinds[:-1]), last=kinds[-1])
        if len(kinds) > 1
        else kinds[0]
    )
    return _("type {listed}; '?' shows the choices again, 'quit' ends the game", listed=listed)


def _numbered(choices: Iterable[Choice]) -> str:
    return ", ".join(f"{c.number} {c.label}" for c in choices)


def read_choice(
    text: str, choices: Sequence[Choice], refused: Callable[[Action], str | None], words: Words
) -> Reading:
    """The choice ``text`` names, or a hint in the player's language. ``refused`` gives
    the rule that forbids an action the person named but may not take
    (``hand.why_refused``)."""
    _ = words._
    typed = fold(text)
    shown = text.strip()
    if not typed:
        return Reading(hint=accepted_text(choices, words))
    if typed.isdigit():
        number = int(typed)
        if 1 <= number <= len(choices):
            return Reading(choices[number - 1].action)
        accepted = accepted_text(choices, words)
        return Reading(
            hint=_("there is no choice {typed}: {accepted}", typed=shown, accepted=accepted)
        )
    named = [c for c in choices if typed in c.words]
    if len(named) == 1:
        return Reading(named[0].action)
    if len(named) > 1:
        listed = _numbered(named)
        return Reading(
            hint=_("'{typed}' could be {listed}: type the number", typed=shown, listed=listed)
        )
    unoffered = _unoffered(typed, choices, words)
    if unoffered is not None:  # a pass, a pick-up, a bid the rules forbid now: say which rule
        why = refused(unoffered)
        if why and (isinstance(why, Said) or words.say.english):
            return Reading(hint=_("not {typed}: {why}", typed=shown, why=words.say.said(why)))
    suit = _suit(typed)
    if suit is not None and any(isinstance(c.action, DeclareTrump) for c in choices):
        why = refused(DeclareTrump(suit))  # a suit the rules forbid here: say which rule,
        if why and (isinstance(why, Said) or words.say.english):  # where it can be said
            return Reading(hint=_("not {typed}: {why}", typed=shown, why=words.say.said(why)))
    card = _card(text)
    if card is not None:
        for choice in choices:
            if choice.action == Play(card):
                return Reading(choice.action)
        if any(isinstance(c.action, Play) for c in choices):
            why = refused(Play(card))
            reason = words.say.said(why) if why else _("it is not among the cards you may play")
            card_name = words.card_plain(card)  # as the table writes it: "pk" is the PK
            return Reading(hint=_("not {typed}: {why}", typed=card_name, why=reason))
        return Reading(hint=_("no card now: {accepted}", accepted=accepted_text(choices, words)))
    near = [c for c in choices if any(typed in w for w in c.words)]
    if near:
        listed = _numbered(near[:NEAR])
        if len(near) > NEAR:
            more = len(near) - NEAR
            return Reading(
                hint=_(
                    "'{typed}' is not a choice; did you mean {listed} (and {more} more)?",
                    typed=shown,
                    listed=listed,
                    more=more,
                )
            )
        return Reading(
            hint=_("'{typed}' is not a choice; did you mean {listed}?", typed=shown, listed=listed)
        )
    accepted = accepted_text(choices, words)
    return Reading(hint=_("'{typed}' is not a choice: {accepted}", typed=shown, accepted=accepted))


def _unoffered(typed: str, choices: Sequence[Choice], words: Words) -> Action | None:
    """The pass, pick-up, give-up or ladder bid a folded text names exactly, when it is
    not among ``choices``: the person meant it, and the rule that forbids it is the hint
    ('pass' is no misspelt 'piros passz' when the opener must bid)."""
    offered = {type(c.action) for c in choices}
    for action in (PASS, PICK_UP, GIVE_UP):
        label, names = _describe(words, action)
        if type(action) not in offered and typed in {fold(n) for n in (*names, label)}:
            return action
    if offered & {Bid, PickUp}:  # the auction (not the kontra round): a bid's name means it
        for bid in words.ruleset.ladder:
            if typed in {fold(n) for n in _bid_names(words, bid.id)} and not any(
                isinstance(c.action, Bid) and c.action.bid == bid.id for c in choices
            ):
                return Bid(bid.id)
    return None


def _suit(typed: str) -> SuitId | None:
    """The suit a folded text names (``piros``, ``hearts``, ``P``, ``♥``), if any."""
    for number in range(4):
        suit = suit_id(number)
        if typed in (fold(w) for w in suit_words(suit)):
            return suit
    return None


def _card(text: str) -> int | None:
    try:
        return parse_card(text)
    except CardParseError:
        return None
