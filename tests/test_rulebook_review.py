"""What a club-organiser review found the rulebook, `ulti diff` and `ulti check` saying
other than what the engine plays, with the reviewer's club files (tests/fixtures/review).

Each case reads the text as a club reads it: through the command, in-process.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from ulti_rules import load_game, settle
from ulti_rules.engine import Bid, Discard, Kontra, Pass
from ulti_rules.rulebook import load_rulebook, render

from cli_in_process import Ran, run_in

REVIEW = Path(__file__).parent / "fixtures" / "review"
ulti = run_in(REVIEW)


def rulebook(name: str) -> str:
    """The rulebook as `ulti rulebook` prints it, in English."""
    done = ulti("rulebook", f"{name}.yaml", "--lang", "en")
    assert done.returncode == 0, done.stderr
    return done.stdout


def section(text: str, title: str) -> str:
    """One numbered section of a printed rulebook, a line per paragraph."""
    start = text.index(f". {title}\n---")
    return _unwrapped(text[start : text.find("\n\n\n", start)])


def _unwrapped(text: str) -> str:
    """Printed text, each paragraph on one line (paragraphs apart by an empty line)."""
    return "\n\n".join(" ".join(part.split()) for part in text.split("\n\n"))


def club(tmp_path: Path, name: str, body: str, *bases: str) -> Ran:
    """`ulti check` of a club file ``body`` beside copies of the review's ``bases``."""
    for base in bases:
        shutil.copy(REVIEW / f"{base}.yaml", tmp_path)
    (tmp_path / f"{name}.yaml").write_text(body, encoding="utf-8")
    return run_in(tmp_path)("check", f"{name}.yaml")


# --------------------------------------------------------------------------- 1


def test_an_uncontested_simple_played_out_scores_no_silent_bonus() -> None:
    """The hand is played, but settled as lost double all the same (``_forfeit_lines``):
    a kontra multiplies the loss, and no silent bonus is scored (docs/score-keeper.md)."""
    text = section(rulebook("uncontested-played"), "Giving up and the uncontested Simple")
    assert "for the silent bonuses" not in text
    assert (
        "The hand is still played out, but the cards decide nothing: the loss is the same "
        "whatever the tricks, a kontra on the Simple multiplies it as usual, and no silent "
        "bonus is scored." in text
    )


def test_the_engine_plays_it_out_and_settles_the_lost_simple_alone() -> None:
    """What the sentence says, played: forehand bids the Simple and the others pass; the
    hand is played out (a kontra offered, and called), and its settlement is the Simple
    lost double at the kontra, whatever the cards made, without a silent bonus's line."""
    game = load_game(REVIEW / "uncontested-played.yaml")
    rng = random.Random(3)
    for seed in range(12):
        hand = game.new_hand(seed=seed)
        hand.apply(next(a for a in hand.legal_actions() if isinstance(a, Discard)))
        hand.apply(Bid("parti"))
        while hand.phase == "auction":
            hand.apply(Pass())
        called = False
        while not hand.is_over:
            legal = hand.legal_actions()
            kontra = [a for a in legal if isinstance(a, Kontra) and a.level == 1]
            called = called or bool(kontra)
            other = [a for a in legal if not isinstance(a, Kontra)]
            hand.apply(kontra[0] if kontra else rng.choice(other))
        assert called and hand.facts is not None, seed
        settled = settle(game, hand.contract, hand.facts, trusted=True)
        (line,) = settled.lines
        assert (line.source, line.what, line.made) == ("component", "parti", False), seed
        assert settled.payments[settled.declarer] == -2 * 1 * 2 * 2, seed  # ×2 lost, ×2 kontra


# --------------------------------------------------------------------------- 2


def test_no_self_robbing_is_described_where_two_passes_end_the_auction() -> None:
    """A bid and two passes end the auction: the bidder never speaks again after both
    others passed, so neither self-robbing nor its absence is a rule there."""
    text = section(rulebook("it-auction"), "The auction")
    assert "Self-robbing" not in text
    assert "may not bid again" not in text
    assert (
        "The auction ends after 2 passes in a row after a bid. The last bidder becomes the "
        "declarer. The auction is over before the last bidder's turn comes round again: "
        "there is no self-robbing." in text
    )
    assert "Self-robbing: a bidder whom both others passed" in rulebook("uncontested-played")


def test_self_robbing_where_it_cannot_happen_changes_no_play() -> None:
    done = ulti("diff", "it-auction.yaml", "it-auction-nosr.yaml")
    assert done.returncode == 0, done.stderr
    said = _unwrapped(done.stdout)
    assert said.startswith(
        "it-auction.yaml and it-auction-nosr.yaml play the same; only names and sources differ."
    )
    assert "auction.self_robbing is False (was True), which changes nothing" in said
    checked = ulti("check", "it-auction-nosr.yaml")
    assert (checked.returncode, checked.stdout) == (0, "1 file checked: 1 ok\n")
    assert checked.stderr == (
        "ulti: note: it-auction-nosr.yaml:5:3: auction.self_robbing: changes nothing under "
        "these rules: with auction.end_passes: 2 the auction is over before a bidder whom "
        "both others passed speaks again, so there is no self-robbing to allow or forbid: "
        "delete it, or change the rule that leaves it unused\n"
    )


def test_leaving_the_two_passes_out_brings_self_robbing_back(tmp_path: Path) -> None:
    """Where three passes end the auction self-robbing matters, and forbidding it is no note."""
    done = club(
        tmp_path,
        "three",
        "name: three\nextends: it-auction.yaml\nauction:\n  end_passes: 3\n  self_robbing: false\n",
        "it-auction",
    )
    assert (done.returncode, done.stderr) == (0, "")


# --------------------------------------------------------------------------- 3


def test_rekontra_in_the_own_card_window_is_never_called_when_the_declarer_leads() -> None:
    text = section(rulebook("gt-kontra"), "Kontra")
    assert "Rekontra is made with one's own card" not in text
    assert (
        "Rekontra can never be called: it is made with one's own card to the first trick, "
        "and the declarer leads to it, so his card is down before a defender can call "
        "Kontra." in text
    )
    checked = ulti("check", "gt-kontra.yaml")
    assert (checked.returncode, checked.stdout) == (0, "1 file checked: 1 ok\n")
    assert checked.stderr == (
        "ulti: note: gt-kontra.yaml:7:3: kontra.window: Rekontra (level 2) can never be "
        "called under these rules: it is made only with one's own card to the first trick, "
        "and the declarer leads to it, so his card is down before a defender can call kontra; "
        "kontra.later_window: end_trick1 (or before_lead_trick2) lets the declarer answer in "
        "the kontra round after the first trick\n"
    )


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            "play: {first_lead: forehand}\n",
            "Rekontra is made with one's own card to the first trick: forehand leads to it, "
            "so the declarer can answer a Kontra only when he is not forehand.",
        ),
        (
            "kontra: {later_window: end_trick1}\n",
            "Rekontra may be made until the first trick is complete.",
        ),
    ],
)
def test_rekontra_can_be_called_where_the_declarer_speaks_after_a_kontra(
    tmp_path: Path, change: str, said: str
) -> None:
    """Forehand leading, or a later window for Rekontra: the declarer can answer, and
    `ulti check` has no note."""
    done = club(tmp_path, "club", f"name: club\nextends: gt-kontra.yaml\n{change}", "gt-kontra")
    assert (done.returncode, done.stderr) == (0, "")
    text = section(run_in(tmp_path)("rulebook", "club.yaml").stdout, "Kontra")
    assert said in text
    assert "can never be called" not in text


def _levels_offered(path: Path, hands: int) -> set[int]:
    """The kontra levels the engine offers in ``hands`` random hands, kontras chosen often."""
    game = load_game(path)
    rng = random.Random(1)
    offered: set[int] = set()
    for number in range(hands):
        hand = game.new_hand(seed=number, dealer=number % 3)
        while not hand.is_over:
            actions = hand.legal_actions()
            kontras = [a for a in actions if isinstance(a, Kontra)]
            offered.update(a.level for a in kontras)
            pick = kontras if kontras and rng.random() < 0.8 else actions
            hand.apply(rng.choice(pick))
    return offered


def test_the_engine_offers_rekontra_only_where_the_rulebook_says_it_can_be_called(
    tmp_path: Path,
) -> None:
    shutil.copy(REVIEW / "gt-kontra.yaml", tmp_path)
    forehand = tmp_path / "forehand.yaml"
    forehand.write_text(
        "name: forehand\nextends: gt-kontra.yaml\nplay: {first_lead: forehand}\n", "utf-8"
    )
    assert _levels_offered(tmp_path / "gt-kontra.yaml", 80) == {1}
    assert _levels_offered(forehand, 80) == {1, 2}


# --------------------------------------------------------------------------- 4


def test_the_cards_out_of_play_count_for_the_talon_s_side() -> None:
    """Without a talon the two cards left over count as a talon would (the facts'
    ``talon``, ``points.talon_to``): for the declarer in wikipedia."""
    said = "Card points in the two cards out of play count for the declarer."
    assert said in section(rulebook("notalon"), "Cards, ranks and points")
    done = ulti("diff", "wikipedia", "notalon.yaml")
    assert said in _unwrapped(done.stdout)


def test_self_robbing_without_a_talon_is_bidding_again() -> None:
    text = section(rulebook("notalon"), "The auction")
    assert "pick up the talon" not in text
    assert (
        "Self-robbing: a bidder whom both others passed may bid higher again on his next "
        "turn; then the others may bid again." in text
    )


# --------------------------------------------------------------------------- 5


def test_a_fixed_trump_is_named_by_nobody() -> None:
    text = section(rulebook("cuori"), "Trump and red")
    assert "names the trump when the auction is over" not in text
    assert "can be trump only through a red bid" not in text
    assert (
        "Hearts is always trump in a trump game: nobody names a trump, in the bid or after "
        "the auction." in text
    )
    assert "any other trump bid is played in Hearts too, at its ordinary value." in text


def test_the_rules_of_naming_a_trump_are_idle_under_a_fixed_one(tmp_path: Path) -> None:
    done = club(
        tmp_path,
        "club",
        "name: club\nextends: cuori.yaml\ntrump:\n  red_suit_needs_red_bid: false\n",
        "cuori",
    )
    assert done.stderr == (
        "ulti: note: club.yaml:4:3: trump.red_suit_needs_red_bid: changes nothing under these "
        "rules: with trump.fixed: hearts nobody names a trump, and every trump bid but a red "
        "one is played in hearts: delete it, or change the rule that leaves it unused\n"
    )


# --------------------------------------------------------------------------- 6


def test_a_marriage_on_play_is_announced_at_any_trick_while_both_cards_are_held() -> None:
    text = section(rulebook("onplay"), "Marriages")
    assert "when a card of the pair is played" not in text
    assert (
        "A marriage may be announced at any trick, on one's turn before one's card, as long "
        "as one holds both its cards." in text
    )


# --------------------------------------------------------------------------- 7


def test_the_table_rule_does_not_count_wikipedia_s_ranks_for_every_ladder() -> None:
    done = ulti("ladder", "it-order.yaml")
    assert done.returncode == 0, done.stderr
    caption = _unwrapped(done.stdout)
    assert "10 bids in 10 ranks" in caption
    assert "WP's 42 ranks" not in caption
    assert "ranking: table — the ranks as the ladder lists them; a higher value" in caption


# --------------------------------------------------------------------------- 8


def test_a_bid_that_keeps_its_rank_is_not_listed_as_ranking_differently() -> None:
    done = ulti("diff", "wikipedia", "it-order.yaml")
    text = _unwrapped(done.stdout)
    (moves,) = [line for line in text.split("\n\n") if "Bids that now rank differently" in line]
    assert "rank 3 (was 3)" not in moves
    assert "Durchmars: rank 7 (was 7)" not in moves
    assert "Ulti: rank 8 (was 5)" in moves
    assert "Open Betli: rank 6 (was 29)" in moves


# --------------------------------------------------------------------------- languages


@pytest.mark.parametrize("lang", ("hu", "de"))
def test_the_new_sentences_are_translated(lang: str) -> None:
    english = {
        name: render(load_rulebook(str(REVIEW / f"{name}.yaml"), "en"), "text")
        for name in ("gt-kontra", "cuori", "notalon")
    }
    for name, text in english.items():
        translated = render(load_rulebook(str(REVIEW / f"{name}.yaml"), lang), "text")
        for phrase in ("can never be called", "nobody names a trump", "out of play count"):
            if phrase in text:
                assert phrase not in translated, (name, phrase)
