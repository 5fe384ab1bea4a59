"""Silent bonuses in money: who is paid, how much, and which ones stand in for the Parti.

A silent bonus either adds a line of its own (WP) or, with ``parti: replaces``
(DE, HU, GT), changes what the Parti is worth: "whoever takes 100 doubles the
Parti", "3 instead of the Parti". The Parti is then judged as always, at the new
value and under its own kontra. A bonus played "against everyone" (SN) makes a
defender's feat his own: the other defender settles it with him too.
"""

from __future__ import annotations

from typing import Literal

from .judging import SilentVerdict


def stake(verdict: SilentVerdict) -> int:
    """Per defender before kontra, signed for the declarer (+: each defender pays him).

    The side that made the feat is paid its value; the side that failed pays
    value × loss factor (WP, DE: 2; GT: 1; IT: 0, no loss).
    """
    value, loss = verdict.value, verdict.bonus.loss_factor
    declarer_side = verdict.outcome.side == "declarer"
    if verdict.outcome.made:
        return value if declarer_side else -value
    return -value * loss if declarer_side else value * loss


def split(
    verdicts: list[SilentVerdict],
    has_parti: bool,
    several: Literal["highest", "all"] = "highest",
) -> tuple[SilentVerdict | None, list[SilentVerdict]]:
    """The bonus that replaces the Parti's value (the highest made one), and those paid apart.

    A replacing bonus is paid apart when the bid has no Parti to replace, or when
    its feat failed (there is nothing to stand in for then, only a loss to pay).
    Several replacing feats (a durchmars with a marriage is also a 100) give the
    Parti the highest value, once; with ``several="all"`` (``silent.replacing``)
    the others are paid too, each on a line of its own.
    """
    if not verdicts:  # most hands: no silent feat at all
        return None, []
    replacing = [
        v for v in verdicts if has_parti and v.bonus.parti == "replaces" and v.outcome.made
    ]
    chosen = max(replacing, key=lambda v: v.value, default=None)
    if several == "all":
        replacing = [chosen] if chosen is not None else []
    apart = [v for v in verdicts if v not in replacing]
    return chosen, apart


def own_feat(verdict: SilentVerdict) -> int | None:
    """The defender whose own feat this is, where the bonus is played against everyone.

    None where the feat is settled with the declarer alone: the declarer's, a bonus not
    against everyone, or a feat no one defender made (the defenders together).
    """
    outcome = verdict.outcome
    if verdict.bonus.against_everyone and outcome.side == "defenders":
        return outcome.seat
    return None
