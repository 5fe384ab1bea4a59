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
from test_give_up_turn import offered_give_up

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


# --------------------------------------------------------------------------- 9


GIVING_UP = "Giving up and the uncontested Simple"
NEVER_GIVES_UP = (
    "No declarer ever gives up: a plain, non-red Simple bid alone, the only bid that could "
    "be given up, wins the auction only as the first bid, left standing, so it is always "
    "uncontested, and the hand ends with the auction, before the declarer has a turn."
)


def test_no_giving_up_is_described_where_the_simple_is_only_lost_unplayed() -> None:
    """WP's Simple wins the auction only as the first bid, left standing, and is lost
    double with the auction: the engine never offers GiveUp, whatever give_up_allowed says."""
    text = section(rulebook("giveup-ld"), GIVING_UP)
    assert "may give up" not in text
    assert "pays 1 to each defender" not in text
    assert NEVER_GIVES_UP in text
    assert offered_give_up(REVIEW / "giveup-ld.yaml", 60) == set()


def test_giving_up_where_it_cannot_happen_changes_no_play() -> None:
    done = ulti("diff", "wikipedia", "giveup-ld.yaml")
    assert done.returncode == 0, done.stderr
    said = _unwrapped(done.stdout)
    assert said.startswith("wikipedia and giveup-ld.yaml play the same;")
    assert "simple.give_up_allowed is True (was False), which changes nothing" in said
    assert "simple.give_up_cost is 1 (was 2), which changes nothing" in said
    checked = ulti("check", "giveup-ld.yaml")
    assert (checked.returncode, checked.stdout) == (0, "1 file checked: 1 ok\n")
    why = (
        "changes nothing under these rules: a plain Simple wins the auction only as the "
        "first bid, left standing, so it is always uncontested, and with simple.uncontested: "
        "lose_double and simple.uncontested_played_out: false the hand ends with the "
        "auction, before the declarer has a turn to give up: delete it, or change the rule "
        "that leaves it unused (simple.uncontested_played_out: true plays such a hand out, "
        "and lets its declarer give up)\n"
    )
    assert checked.stderr == (
        f"ulti: note: giveup-ld.yaml:5:3: simple.give_up_allowed: {why}"
        f"ulti: note: giveup-ld.yaml:6:3: simple.give_up_cost: {why}"
    )


def test_a_played_out_uncontested_simple_can_be_given_up(tmp_path: Path) -> None:
    """Played out, the uncontested Simple's declarer leads, and may give up first: the
    rulebook says so, and giving up is no note."""
    done = club(
        tmp_path,
        "club",
        "name: club\nextends: wikipedia\nsimple:\n  uncontested_played_out: true\n"
        "  give_up_allowed: true\n  give_up_cost: 1\n",
    )
    assert (done.returncode, done.stderr) == (0, "")
    text = section(run_in(tmp_path)("rulebook", "club.yaml").stdout, GIVING_UP)
    assert "may give up before the first lead; he then pays 1 to each defender." in text
    assert "No declarer ever gives up" not in text
    assert offered_give_up(tmp_path / "club.yaml", 60)


# --------------------------------------------------------------------------- 10


def test_under_forehand_s_lead_only_a_forehand_declarer_may_give_up() -> None:
    """The trump named in the bid, forehand leading: the declarer's one turn before the
    first card is forehand's lead (the score keeper refuses others: check_give_up_turn)."""
    text = section(rulebook("it-giveup"), GIVING_UP)
    assert "may give up before the first lead" not in text
    assert (
        "The declarer of a plain, non-red Simple bid alone may give up on his own turn "
        "before the first card; as forehand leads it and nobody names a trump after the "
        "auction, only a declarer who is forehand has that turn. He then pays 2 to each "
        "defender." in text
    )
    offered = offered_give_up(REVIEW / "it-giveup.yaml", 90)
    assert offered
    assert all(declarer == forehand for declarer, forehand in offered)


@pytest.mark.parametrize(
    "change",
    ["play: {first_lead: declarer}\n", "trump: {named: after_auction}\n"],
)
def test_the_declarer_who_leads_or_names_the_trump_may_give_up_as_any_seat(
    tmp_path: Path, change: str
) -> None:
    done = club(tmp_path, "club", f"name: club\nextends: it-giveup.yaml\n{change}", "it-giveup")
    assert (done.returncode, done.stderr) == (0, "")
    text = section(run_in(tmp_path)("rulebook", "club.yaml").stdout, GIVING_UP)
    assert "may give up before the first lead; he then pays 2 to each defender." in text
    assert "forehand" not in text


# --------------------------------------------------------------------------- 11


def _item(text: str, name: str) -> str:
    """One silent bonus's item of a section (its items run on one line, each after ``*``)."""
    start = text.index(f"* {name} — ")
    end = text.find(" * ", start)
    return text[start : end if end >= 0 else None]


MADE_REPLACING = (
    "It never fails: whichever side does it has made it. Made, it has no line of its own: "
    "the Simple is worth its value, whichever side then wins the Simple."
)


def test_a_replacing_silent_100_either_side_makes_has_no_failure_to_cost() -> None:
    """Either side reaching 100 has made it (``builtin._feat``), and made, a replacing
    bonus is the Simple's value, with no line of its own (``silent.split``): loss_factor is
    never paid, and `ulti check` says why."""
    hundred = _item(section(rulebook("hu-silent-lf"), "Silent bonuses"), "Silent 100")
    assert "A failure costs" not in hundred
    assert "3 times" not in hundred
    assert MADE_REPLACING in hundred
    assert "A defender who makes it is paid by the declarer alone." not in hundred
    checked = ulti("check", "hu-silent-lf.yaml")
    assert (checked.returncode, checked.stdout) == (0, "1 file checked: 1 ok\n")
    assert checked.stderr == (
        "ulti: note: hu-silent-lf.yaml:8:5: silent_bonuses.silent_hundred.loss_factor: "
        "changes nothing under these rules: with scored_by: either_side whichever side does "
        "the feat of 'silent_hundred' has made it, so it never fails, and no failure is ever "
        "paid: delete it, or change the rule that leaves it unused (under scored_by: "
        "declarer the defenders' feat is the declarer's failure)\n"
    )


def test_older_20_100_s_silent_100_and_durchmars_never_fail_but_its_silent_ulti_does() -> None:
    """Under either_side a silent Durchmars, like the 100, is made by whoever takes every
    trick; a silent Ulti fails when the trump 7 is beaten in the last trick."""
    text = section(render(load_rulebook("older-20-100", "en"), "text"), "Silent bonuses")
    for name in ("Silent 100", "Silent Durchmars"):
        item = _item(text, name)
        assert "A failure costs" not in item, name
        assert MADE_REPLACING in item, name
    ulti_item = _item(text, "Silent Ulti")
    assert "A failure costs the side that failed 2 times its value: 4, in a red bid 8." in ulti_item
    assert "It never fails" not in ulti_item


def test_the_loss_factor_of_a_bonus_that_never_fails_changes_no_play(tmp_path: Path) -> None:
    done = club(
        tmp_path,
        "double",
        "name: double\nextends: hu-silent-lf.yaml\n"
        "silent_bonuses:\n  silent_hundred:\n    loss_factor: 5\n",
        "hu-silent-lf",
    )
    assert done.stderr.startswith(
        "ulti: note: double.yaml:5:5: silent_bonuses.silent_hundred.loss_factor: changes "
        "nothing under these rules: with scored_by: either_side"
    )
    said = _unwrapped(run_in(tmp_path)("diff", "hu-silent-lf.yaml", "double.yaml").stdout)
    assert said.startswith("hu-silent-lf.yaml and double.yaml play the same;")
    assert "silent_bonuses.silent_hundred.loss_factor is 5 (was 3), which changes nothing" in said


def test_a_silent_100_beside_the_simple_either_side_makes_is_paid_and_never_fails(
    tmp_path: Path,
) -> None:
    """Beside the Simple the made 100 has its own line, paid to the side that made it."""
    done = club(
        tmp_path,
        "club",
        "name: club\nextends: wikipedia\nsilent_bonuses:\n  silent_hundred:\n"
        "    scored_by: either_side\n    loss_factor: 3\n",
    )
    assert "silent_bonuses.silent_hundred.loss_factor: changes nothing" in done.stderr
    text = section(run_in(tmp_path)("rulebook", "club.yaml").stdout, "Silent bonuses")
    hundred = _item(text, "Silent 100")
    assert "A failure costs" not in hundred
    assert "It never fails: whichever side does it has made it, and is paid its value." in hundred
    assert "A defender who makes it is paid by the declarer alone." in hundred


@pytest.mark.parametrize(
    ("bonus", "settings", "name", "said"),
    [
        (
            "silent_hundred",
            "parti: replaces",
            "Silent 100",
            "A failure costs the declarer 3 times its value: 6, in a red bid 12.",
        ),
        (
            "silent_ulti",
            "scored_by: either_side",
            "Silent Ulti",
            "A failure costs the side that failed 3 times its value: 6, in a red bid 12.",
        ),
    ],
)
def test_a_bonus_that_can_fail_keeps_what_a_failure_costs(
    tmp_path: Path, bonus: str, settings: str, name: str, said: str
) -> None:
    """Only the declarer scoring the 100 (the defenders' 100 is his failure), or a silent
    Ulti either side scores (a trump 7 beaten): the loss factor is paid, and is no note."""
    done = club(
        tmp_path,
        "club",
        f"name: club\nextends: wikipedia\nsilent_bonuses:\n  {bonus}:\n"
        f"    {settings}\n    loss_factor: 3\n",
    )
    assert (done.returncode, done.stderr) == (0, "")
    text = section(run_in(tmp_path)("rulebook", "club.yaml").stdout, "Silent bonuses")
    assert said in _item(text, name)
    assert "It never fails" not in text


# --------------------------------------------------------------------------- languages


@pytest.mark.parametrize("lang", ("hu", "de"))
def test_the_new_sentences_are_translated(lang: str) -> None:
    english = {
        name: render(load_rulebook(str(REVIEW / f"{name}.yaml"), "en"), "text")
        for name in ("gt-kontra", "cuori", "notalon", "giveup-ld", "it-giveup", "hu-silent-lf")
    }
    phrases = (
        "can never be called",
        "nobody names a trump",
        "out of play count",
        "No declarer ever gives up",
        "only a declarer who is forehand",
        "It never fails",
    )
    for name, text in english.items():
        translated = render(load_rulebook(str(REVIEW / f"{name}.yaml"), lang), "text")
        for phrase in phrases:
            if phrase in text:
                assert phrase not in translated, (name, phrase)
