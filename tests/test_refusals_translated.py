"""Every rule the engine refuses an action by can be said in Hungarian and German.

A refusal is a ``Said`` (docs/engine.md, "Illegal actions"): an app, and `ulti play`,
show it in the player's language. Random hands under every bundled ruleset try, at each
step, every action of each kind a player might take; each refusal must be a ``Said``
whose message (and every message inside it) the hu and de catalogues translate, and
which fills in there. Only what is no action of the engine at all stays English.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from ulti_rules import load_game
from ulti_rules.cards import suit_id
from ulti_rules.engine import (
    Announce,
    Bid,
    DeclareTrump,
    Discard,
    GiveUp,
    Hand,
    Kontra,
    Pass,
    PickUp,
    Play,
)
from ulti_rules.engine.actions import Action
from ulti_rules.engine.phase import Phase
from ulti_rules.errors import IllegalAction
from ulti_rules.i18n import translator
from ulti_rules.said import Said, said_of, say_in

from conftest import RunUlti
from said_support import names_in, words

RULESETS = ("wikipedia", "tournament", "older-20-100", "four-player", "two-round-auction")
SUITS = tuple(suit_id(s) for s in range(4))


def candidates(hand: Hand, rng: random.Random) -> Iterator[Action]:
    """A spread of actions of every kind, most of them refused now."""
    game = hand.game
    yield from (Pass(), PickUp(), GiveUp())
    bids = [b.id for b in game.ruleset.ladder]
    for bid in rng.sample(bids, min(6, len(bids))):
        yield Bid(bid)
        yield Bid(bid, rng.choice(SUITS))
    yield Bid("no_such_bid")
    yield Discard((0, 1))
    yield Discard(tuple(sorted(rng.sample(range(32), 2))))
    for suit in SUITS:
        yield DeclareTrump(suit)
        yield Announce(suit)
    for card in rng.sample(range(32), 8):
        yield Play(card)
    components = sorted({c for b in game.ruleset.ladder for c in b.components})
    for _ in range(4):
        yield Kontra((rng.choice(components),), rng.randint(1, 4), rng.choice([None, 0, 1, 2]))


def refusals(name: str, hands: int, seed: int) -> Iterator[tuple[Action, str]]:
    """Each refused action of random hands, with its refusal."""
    game = load_game(name)
    rng = random.Random(seed)
    for number in range(hands):
        hand = game.new_hand(seed=rng.getrandbits(32), dealer=number % game.ruleset.players.count)
        while not hand.is_over:
            for action in candidates(hand, rng):
                why = hand.why_refused(action)
                if why is not None:
                    yield action, why
            hand.apply(rng.choice(hand.legal_actions()))
        yield Play(0), hand.why_refused(Play(0)) or ""


@pytest.mark.parametrize("name", RULESETS)
def test_every_refusal_of_a_rule_is_said_in_each_language(name: str) -> None:
    seen: set[str] = set()
    for action, why in refusals(name, hands=12, seed=5):
        assert isinstance(why, Said), (action, why)
        for lang in ("hu", "de"):
            gettext = translator(lang).gettext
            for template in words(why):
                assert gettext(template) != template, (lang, template)
            assert say_in(gettext, why) != str(why), (lang, why)
        seen.add(why.template)
    assert len(seen) >= 12, sorted(seen)  # the hands reached many different rules


def test_an_illegal_action_carries_its_said() -> None:
    hand = load_game("wikipedia").new_hand(seed=7)
    with pytest.raises(IllegalAction) as caught:
        hand.apply(Bid("no_such_bid"))
    said = said_of(caught.value)
    assert isinstance(said, Said)
    assert said == "discard two cards first: you hold the talon"  # forehand holds 12 cards
    assert say_in(translator("hu").gettext, said) == "előbb tegyél le két lapot: nálad a talon"
    assert say_in(translator("de").gettext, said) == "leg zuerst zwei Karten ab: du hast den Talon"


def test_an_action_of_another_phase_is_quoted_in_the_table_s_language() -> None:
    """Giving up in the auction, or bidding during the play, is refused with the action
    quoted in the hint's own words, not its English label."""
    game = load_game("wikipedia")
    hand = game.new_hand(seed=7)
    hand.apply(Discard(tuple(hand.cards(hand.current_player or 0)[:2])))
    why = hand.why_refused(Kontra(("ulti",), 2, 1))
    assert why == "'kontra level 2 on ulti against seat 1' is not an action of the auction"
    assert say_in(translator("de").gettext, why, "de") == (
        "'Kontra der Stufe 2 auf ulti gegen Platz 1' ist keine Handlung der Versteigerung"
    )
    why = hand.why_refused(GiveUp())
    assert why == "'give up' is not an action of the auction"
    assert say_in(translator("hu").gettext, why) == "'feladás' nem a licit lépése"
    assert say_in(translator("de").gettext, why) == (
        "'aufgeben' ist keine Handlung der Versteigerung"
    )
    rng = random.Random(3)
    while hand.phase is not Phase.PLAY:
        hand.apply(rng.choice(hand.legal_actions()))
    why = hand.why_refused(Bid("ulti", "hearts"))
    assert why == "'bid Ulti with hearts (Piros) trump' is not an action of the play: play a card"
    assert say_in(translator("hu").gettext, why, "hu") == (
        "'ulti bemondása piros aduval' nem a játék lépése: tégy le egy lapot"
    )
    assert say_in(translator("de").gettext, why, "de") == (
        "'Ulti mit Herz als Trumpf bieten' ist keine Handlung des Spiels: spiel eine Karte"
    )


def test_what_is_no_action_stays_english() -> None:
    hand = load_game("wikipedia").new_hand(seed=7)
    why = hand.why_refused("pass")
    assert why is not None and not isinstance(why, Said)


def test_ulti_play_gives_a_refused_trump_s_rule_in_hungarian(ulti: RunUlti) -> None:
    done = ulti(
        "play", "--seat", "2", "--seed", "3", "--lang", "hu",
        input="1 2\nulti\npassz\npiros\nxyz\n",
    )  # fmt: skip
    assert "nem piros: e szabályok szerint piros nem lehet adu a(z) ulti játékban" in done.stdout


def test_ulti_play_quotes_a_give_up_in_the_auction_in_hungarian(ulti: RunUlti) -> None:
    done = ulti("play", "--seat", "2", "--seed", "3", "--lang", "hu", input="1 2\nfeladás\n")
    assert "nem feladás: 'feladás' nem a licit lépése" in done.stdout
    assert "give up" not in done.stdout


def test_a_refusal_names_bids_and_kontras_in_its_own_language() -> None:
    """ "a(z) Simple Hearts játékban": a Hungarian refusal named the bid in English, as the
    engine wrote it. Names now travel as ``Named`` and are said in the refusal's language."""
    named: dict[str, set[str]] = {}
    for name in ("wikipedia", "older-20-100"):
        for _, why in refusals(name, hands=12, seed=5):
            assert isinstance(why, Said)
            for value in names_in(why):
                named.setdefault(why.template, set()).add(value)
                for lang in ("hu", "de"):
                    said = say_in(translator(lang).gettext, why, lang)
                    assert value.names[lang] in said, (lang, said)
                    if value.names[lang] not in str(value):  # a name that differs
                        assert str(value) not in said.replace(value.names[lang], ""), said
    differing = {n for names in named.values() for n in names if n.names["hu"] != str(n)}
    assert len(named) >= 4 and differing, named  # bids and levels whose names differ


def test_a_refused_overcall_names_the_bid_in_hungarian() -> None:
    game = load_game("wikipedia")
    hand = game.new_hand(seed=3, dealer=2)
    # forehand opens with the plain Simple; the next bidder cannot bid it again
    hand.apply(next(a for a in hand.legal_actions() if isinstance(a, Discard)))
    simple = next(b for b in game.ruleset.ladder if b.components == ("parti",))
    hand.apply(Bid(simple.id))
    hand.apply(PickUp())  # the next player takes the talon and must bid higher
    hand.apply(next(a for a in hand.legal_actions() if isinstance(a, Discard)))
    why = hand.why_refused(Bid(simple.id))
    assert isinstance(why, Said) and simple.names.en in why
    said = say_in(translator("hu").gettext, why, "hu")
    assert simple.names.hu in said and simple.names.en not in said, said


def test_the_suits_a_bid_may_name_are_said_in_the_refusal_s_language() -> None:
    from ulti_rules.engine.trump import requirement_words

    game = load_game("wikipedia")
    info = next(b for b in game.catalog.ladder if b.trump_marriages)
    why = requirement_words(info, (0, 1, 3))
    assert why.endswith("(acorns, leaves, bells)")
    assert say_in(translator("hu").gettext, why, "hu").endswith("(makk, zöld, tök)")
    assert say_in(translator("de").gettext, why, "de").endswith("(Eichel, Grün, Schellen)")
