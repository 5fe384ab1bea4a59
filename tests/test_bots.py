"""Bots: registered through the register_bots hook, always legal, reproducible from the seed."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar

import pytest
from ulti_rules import hookimpl
from ulti_rules.bots import BUILTIN_BOTS, RandomBot, SimpleBidder, bot, bot_clashes, bots, play_out
from ulti_rules.engine import Action, Bid, Hand, Kontra
from ulti_rules.errors import PluginError
from ulti_rules.plugins import build_registry, get_registry, new_manager
from ulti_rules.ruleset.loading import load_ruleset

import ulti_four_aces
from conftest import BUNDLED_RULESETS


class Checked:
    """Wraps a bot: asserts each choice is among the legal actions, and keeps them."""

    name: ClassVar[str] = "checked"
    description: ClassVar[str] = "a bot under test"

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.chosen: list[Action] = []

    def choose(self, hand: Hand, rng: random.Random) -> Action:
        action = self.inner.choose(hand, rng)
        assert action in hand.legal_actions(), (action, hand.phase, hand.step)
        self.chosen.append(action)
        return action


def test_the_built_in_bots_are_in_the_bots_registry() -> None:
    found = bots(get_registry())
    assert found["random"].bot_cls is RandomBot
    assert found["simple"].bot_cls is SimpleBidder
    assert found["simple"].owner == "ulti_rules.builtin"
    assert isinstance(bot("simple"), SimpleBidder)
    assert {b.name for b in BUILTIN_BOTS} <= set(found)
    assert all(b.description for b in BUILTIN_BOTS)


def test_an_unknown_bot_names_the_known_ones() -> None:
    known = r"\(the bots: club, random, simple"
    with pytest.raises(PluginError, match=r"no bot is called 'clever' " + known):
        bot("clever")


class _Cautious:
    name: ClassVar[str] = "cautious"
    description: ClassVar[str] = "passes whenever it may"

    def choose(self, hand: Hand, rng: random.Random) -> Action:
        actions = hand.legal_actions()
        return next((a for a in actions if a.type == "pass"), actions[0])


class _CautiousPlugin:
    @hookimpl
    def register_bots(self, register: Any) -> None:
        register(_Cautious)


class _ClashPlugin:
    @hookimpl
    def register_bots(self, register: Any) -> None:
        register(SimpleBidder)


class _BrokenPlugin:
    @hookimpl
    def register_bots(self, register: Any) -> None:
        register(42)


def test_a_plugin_registers_a_bot() -> None:
    pm = new_manager(autoload=False)
    pm.register(ulti_four_aces)
    pm.register(_CautiousPlugin(), name="cautious-plugin")
    registry = build_registry(pm)
    assert registry.bot_owner["cautious"] == "cautious-plugin"
    hand = Hand(load_ruleset("wikipedia", registry), seed=1, registry=registry)
    play_out(hand, bot("cautious", registry), random.Random(1))
    assert hand.is_over


def test_a_bot_name_twice_names_both_plugins_and_keeps_the_first() -> None:
    pm = new_manager(autoload=False)
    pm.register(_ClashPlugin(), name="clash")
    registry = build_registry(pm)
    assert bots(registry)["simple"].bot_cls is SimpleBidder
    assert bots(registry)["simple"].owner == "ulti_rules.builtin"
    assert bot_clashes(registry) == [
        "bot 'simple' is registered twice: by ulti_rules.builtin and by clash; the first is kept"
    ]
    pm.register(_CautiousPlugin(), name="first")
    pm.register(_CautiousPlugin(), name="second")
    (failure,) = build_registry(pm).failures
    assert failure.plugin == "second"
    assert "bot 'cautious' is registered twice: by first and by second" in str(failure)


def test_a_bad_registration_names_the_plugin_and_skips_it() -> None:
    pm = new_manager(autoload=False)
    pm.register(_BrokenPlugin(), name="broken")
    registry = build_registry(pm)
    (failure,) = registry.failures
    assert str(failure) == (
        "plugin 'broken' failed in register_bots and is skipped: registered 42, not a bot class"
    )
    assert "broken" not in registry.plugins
    assert bots(registry)["random"].bot_cls is RandomBot  # the others still work


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
@pytest.mark.parametrize("bot", [RandomBot, SimpleBidder])
def test_every_choice_is_legal(name: str, bot: type[Any]) -> None:
    rules = load_ruleset(name)
    for seed in range(8):
        checked = Checked(bot())
        hand = play_out(
            Hand(rules, seed=seed, dealer=seed % rules.players.count),
            checked,
            rng=random.Random(seed),
        )
        assert hand.is_over and checked.chosen


@pytest.mark.parametrize("name", BUNDLED_RULESETS)
def test_the_inlined_cards_are_the_bots_own_choices(name: str) -> None:
    """play_out plays a random_cards bot's cards itself: the same hand as asking it."""
    rules = load_ruleset(name)
    for seed in range(10):
        fast = play_out(Hand(rules, seed=seed), SimpleBidder(), random.Random(seed))
        slow = play_out(Hand(rules, seed=seed), Checked(SimpleBidder()), random.Random(seed))
        assert fast.history == slow.history


@pytest.mark.parametrize("bot", [RandomBot, SimpleBidder])
def test_the_same_seed_plays_the_same_hand(bot: type[Any]) -> None:
    rules = load_ruleset("wikipedia")
    one = play_out(Hand(rules, seed=5), bot(), random.Random(9))
    two = play_out(Hand(rules, seed=5), bot(), random.Random(9))
    other = play_out(Hand(rules, seed=5), bot(), random.Random(10))
    assert one.history == two.history and one.facts == two.facts
    assert other.history != one.history


def test_the_simple_bidder_bids_low_and_never_kontras() -> None:
    rules = load_ruleset("wikipedia")
    ranks = {bid.id: bid.rank for bid in rules.ladder}
    top = Counter()
    for seed in range(40):
        checked = Checked(SimpleBidder())
        hand = play_out(Hand(rules, seed=seed), checked, random.Random(seed))
        assert not any(isinstance(a, Kontra) for a in checked.chosen)
        assert hand.contract is not None
        top[ranks[hand.contract.bid] <= 10] += 1
        opening = next(a for a in checked.chosen if isinstance(a, Bid))
        assert ranks[opening.bid] <= 3, "forehand opens with the second-lowest bid he can make"
    assert top[True] > top[False]


def test_the_random_bot_reaches_every_kind_of_action() -> None:
    rules = load_ruleset("older-20-100")
    kinds: Counter[str] = Counter()
    for seed in range(40):
        checked = Checked(RandomBot())
        play_out(Hand(rules, seed=seed), checked, random.Random(seed))
        kinds.update(a.type for a in checked.chosen)
    assert {"bid", "pass", "pick_up", "discard", "kontra", "play", "announce"} <= set(kinds)


def test_the_simple_bidder_opens_where_the_opener_speaks_first_and_must_bid(
    tmp_path: Any,
) -> None:
    """With the talon on the table the opener speaks with no talon in hand; he must bid."""
    club = tmp_path / "set-aside.yaml"
    club.write_text(
        "extends: wikipedia\n"
        "deal: {packets: [[5, 5, 5], [5, 5, 5]], talon: set_aside}\n"
        "auction: {opener_must_bid: true}\n",
        encoding="utf-8",
    )
    rules = load_ruleset(club)
    rng = random.Random(3)
    bot = SimpleBidder()
    for seed in range(60):
        hand = play_out(Hand(rules, seed=seed, dealer=seed % 3), bot, rng)
        assert hand.is_over
        assert hand.contract is not None  # the opener bid: nobody passed the hand out
