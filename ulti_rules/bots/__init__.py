"""Computer players behind one small interface, for simulations, benchmarks and tests.

A bot is a class with a ``name``, a one-line ``description`` and one method,
``choose(hand, rng)``, that returns an action the hand accepts for the seat to act.
Bots receive the whole :class:`~ulti_rules.engine.Hand` so that they can use its
fast paths (``legal_card_list()``, shared action instances); a fair bot reads only
what ``hand.observation(hand.current_player)`` shows and the legal actions, as the
built-in ones do. All randomness comes from ``rng``, so a seeded run repeats.

The bots live in their own registry (``registry.py``): the built-in ones, then those
plugins register through the ``register_bots`` hook; ``bot(name)`` builds one by name,
``bots()`` lists them. A plugin's bot that raises, or
chooses an action the hand refuses, stops ``play_out`` with a PluginError naming the
bot and its plugin.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine.phase import PLAY
from ..errors import IllegalAction, PluginError
from ..plugins import BUILTIN, describe_exception, plugin_fault, printable, short_repr
from .club_player import ClubPlayer
from .protocol import Bot
from .random_bot import RandomBot
from .registry import BUILTIN_BOTS, BotEntry, bot, bot_clashes, bots, owner_of
from .simple_bidder import SimpleBidder

if TYPE_CHECKING:
    from ..engine import Hand


def play_out(hand: Hand, bots: Bot | Sequence[Bot], rng: random.Random) -> Hand:
    """Play ``hand`` to its end: one bot for every seat, or one bot per seat.

    When every bot declares ``random_cards = True`` (it answers any card decision
    with ``rng.choice(hand.legal_card_list())``), the cards are played here without
    a call per card: the same choices from the same ``rng``, a third faster.

    Example:
        >>> import random
        >>> from ulti_rules import load_game
        >>> from ulti_rules.bots import bot, play_out
        >>> hand = load_game("wikipedia").new_hand(seed=7)
        >>> play_out(hand, bot("simple"), random.Random(1)) is hand
        True
        >>> hand.is_over, hand.contract is not None
        (True, True)
    """
    seats = [bots] * hand.ruleset.players.count if not isinstance(bots, Sequence) else bots
    fast = all(getattr(bot, "random_cards", False) for bot in seats)
    legal_cards, play_card, choice = hand.legal_card_list, hand.play_card, rng.choice
    while not hand.is_over:
        if fast and hand.phase == PLAY:
            cards = legal_cards()
            if cards:
                while cards:  # until the kontra round, a due marriage, or the end
                    play_card(choice(cards))
                    cards = legal_cards()
                continue
        seat = hand.current_player
        assert seat is not None
        bot = seats[seat]
        chose = False
        try:
            action = bot.choose(hand, rng)
            chose = True
            hand.apply(action)
        except (Exception, SystemExit) as exc:
            failure = _bot_failure(hand, bot, exc, (action,) if chose else ())
            if failure is None:
                raise
            raise failure from exc
    return hand


def _bot_failure(
    hand: Hand, bot: Bot, exc: BaseException, chosen: tuple[object, ...]
) -> PluginError | None:
    """The error naming a plugin's bot that failed (in ``choose``, or with the action in
    ``chosen`` that the hand refused); None for a built-in or unregistered bot: that is
    a bug of ours, or of the program that passed it in, and its own exception is clearer."""
    name = getattr(bot, "name", type(bot).__name__)
    owner = owner_of(bot, hand.registry)
    if owner is None or owner == BUILTIN:
        return None
    if chosen:
        reason = str(exc) if isinstance(exc, IllegalAction) else describe_exception(exc)
        return PluginError(
            printable(
                f"bot '{name}' of plugin '{owner}' chose {short_repr(chosen[0])}, which the "
                f"hand refuses: {reason}"
            )
        )
    return plugin_fault(f"bot '{name}'", owner, exc)


__all__ = [
    "BUILTIN_BOTS",
    "Bot",
    "BotEntry",
    "ClubPlayer",
    "RandomBot",
    "SimpleBidder",
    "bot",
    "bot_clashes",
    "bots",
    "play_out",
]
