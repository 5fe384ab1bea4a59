"""What one resolved ruleset does differently from another, setting by setting.

Two rulesets are compared after ``extends`` and fragments are merged, so two files
that resolve to the same rules have no differences. Each difference is typed: the
rulebook section it belongs to, the setting (a schema path such as
``contracts.*.value``), the concrete place, what it was and what it is now, and
whether it changes the play. Names, titles and sources do not (``plays`` False):
two rulesets that differ only there play the same. ``diff_words.py`` puts the
differences into sentences; `ulti diff` is the command (docs/cli.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..ruleset.schema import Ruleset

SECTION_OF: dict[str, str] = {
    "name": "about",
    "title": "about",
    "players": "players",
    "direction": "players",
    "deal": "players",
    "points": "cards",
    "ranks": "cards",
    "auction": "auction",
    "contracts": "contracts",
    "ranking": "ladder",
    "ladder": "ladder",
    "trump": "trump",
    "open_games": "open",
    "play": "play",
    "marriages": "marriages",
    "kontra": "kontra",
    "silent_bonuses": "silent",
    "silent": "silent",
    "simple": "simple",
    "session": "session",
    "sources": "sources",
}
"""Each top-level setting's section of the rulebook (``build.py``), in the rulebook's order."""
ORDER: tuple[str, ...] = tuple(dict.fromkeys(SECTION_OF.values()))
NAMES_ONLY = frozenset({"name", "title", "sources", "names", "aliases", "rank_exception"})
"""Settings that say what things are called or where the rules come from: a change there
leaves the play as it was. ``rank_exception`` only tells the ladder check to accept a rank
the table lists anyway."""
LEAF_MAPS = frozenset({"names", "card_points", "title"})
"""Maps compared as one value (a name or a title in three languages, the points per rank),
not as blocks of settings."""
LEFT_OUT = frozenset({"extends"})
"""How a file is put together, not what it plays: merged away before the comparison."""


@dataclass(frozen=True)
class Difference:
    """One setting that differs: ``was`` in the first ruleset, ``now`` in the second.

    ``setting`` is the schema path (``silent_bonuses.*.value``), ``path`` the place in
    these rulesets (``silent_bonuses.silent_ulti.value``), ``subject`` the id of the
    contract, bid or bonus (or the kontra level) it is about. Added or removed things
    are one difference each way: ``was`` None and ``now`` the ids added, or the reverse.
    Values are plain JSON data.
    """

    section: str
    setting: str
    path: str
    was: Any
    now: Any
    subject: str | None = None
    plays: bool = True


def compare_rulesets(a: Ruleset, b: Ruleset) -> list[Difference]:
    """Every difference of ``b`` from ``a``, in the rulebook's order of sections."""
    old = a.model_dump(mode="json", exclude=set(LEFT_OUT))
    new = b.model_dump(mode="json", exclude=set(LEFT_OUT))
    found: list[Difference] = []
    for key in SECTION_OF:
        section = SECTION_OF[key]
        was, now = old.get(key), new.get(key)
        if key in ("contracts", "silent_bonuses"):
            found += _catalogue(section, key, was or {}, now or {})
        elif key == "ladder":
            found += _ladder(a, b)
        elif key == "sources":
            found += _listing(section, key, key, was or [], now or [], plays=False)
        elif key == "kontra":
            found += _kontra(old["kontra"], new["kontra"])
        else:
            found += _walk(section, key, key, was, now)
    return sorted(found, key=lambda d: ORDER.index(d.section))


def _walk(
    section: str,
    setting: str,
    path: str,
    was: Any,
    now: Any,
    subject: str | None = None,
) -> Iterator[Difference]:
    """Blocks of settings key by key; anything else (numbers, lists, names, the card
    points, a block present on one side only) as one value."""
    if was == now:
        return
    leaf = setting.rsplit(".", 1)[-1]
    if isinstance(was, dict) and isinstance(now, dict) and leaf not in LEAF_MAPS:
        for key in dict.fromkeys([*was, *now]):
            yield from _walk(
                section, f"{setting}.{key}", f"{path}.{key}", was.get(key), now.get(key), subject
            )
        return
    yield Difference(section, setting, path, was, now, subject, plays=leaf not in NAMES_ONLY)


def _listing(
    section: str, setting: str, path: str, was: Sequence[Any], now: Sequence[Any], *, plays: bool
) -> Iterator[Difference]:
    """What a list gained and lost, as two differences."""
    removed = _missing(was, now)
    added = _missing(now, was)
    if added:
        yield Difference(section, setting, path, None, added, plays=plays)
    if removed:
        yield Difference(section, setting, path, removed, None, plays=plays)


def _missing(items: Sequence[Any], others: Sequence[Any]) -> list[Any]:
    """The ``items`` not among ``others``: by a set where they can be hashed, since a
    ruleset may hold thousands of contracts (``ulti check`` compares it once a line)."""
    try:
        known = set(others)
        return [item for item in items if item not in known]
    except TypeError:  # mappings: compared one by one
        return [item for item in items if item not in others]


def _catalogue(
    section: str, key: str, was: Mapping[str, Any], now: Mapping[str, Any]
) -> Iterator[Difference]:
    """Contracts or silent bonuses by id: added, removed, then each one's settings."""
    yield from _listing(section, key, key, list(was), list(now), plays=True)
    for ident, entry in now.items():
        if ident in was:
            yield from _walk(section, f"{key}.*", f"{key}.{ident}", was[ident], entry, ident)


def _kontra(was: Mapping[str, Any], now: Mapping[str, Any]) -> Iterator[Difference]:
    """The chain level by level (added, removed, changed), then the other kontra settings."""
    old, new = was["levels"], now["levels"]
    if len(new) > len(old):
        yield Difference("kontra", "kontra.levels", "kontra.levels", None, new[len(old) :])
    if len(old) > len(new):
        yield Difference("kontra", "kontra.levels", "kontra.levels", old[len(new) :], None)
    for i, (level_was, level_now) in enumerate(zip(old, new, strict=False)):
        yield from _walk(
            "kontra", "kontra.levels[]", f"kontra.levels.{i}", level_was, level_now, str(i + 1)
        )
    for key in was:
        if key != "levels":
            yield from _walk("kontra", f"kontra.{key}", f"kontra.{key}", was[key], now.get(key))


def _ladder(a: Ruleset, b: Ruleset) -> Iterator[Difference]:
    """Bids added and removed; a common bid's components, red form, names and aliases;
    and, as one difference, the bids whose place among the bids both ladders hold
    changed, with their rank (their ranks, by id). A bid's value is the sum of its
    components' (checked on loading), so it follows the contracts' values and is not
    repeated here."""
    old = {bid.id: bid for bid in a.ladder}
    new = {bid.id: bid for bid in b.ladder}
    yield from _listing("ladder", "ladder", "ladder", list(old), list(new), plays=True)
    common = [ident for ident in old if ident in new]
    for ident in common:
        was = old[ident].model_dump(mode="json", exclude={"id", "value", "rank"})
        now = new[ident].model_dump(mode="json", exclude={"id", "value", "rank"})
        yield from _walk("ladder", "ladder[]", f"ladder.{ident}", was, now, ident)
    places_was = _places({i: old[i].rank for i in common})
    places_now = _places({i: new[i].rank for i in common})
    if places_was == places_now:
        return
    # The order changed: the bids listed are those whose place and rank changed. A bid
    # that keeps its rank had only the others moved around it ("40-100: rank 3 (was 3)",
    # a review); where the bids that moved keep their places (all four at rank 4, then
    # one at 3), those whose rank changed.
    changed = [i for i in common if old[i].rank != new[i].rank]
    moved = [i for i in changed if places_was[i] != places_now[i]] or changed
    if moved:
        yield Difference(
            "ladder",
            "ladder[].rank",
            "ladder.*.rank",
            {i: old[i].rank for i in moved},
            {i: new[i].rank for i in moved},
        )


def _places(ranks: Mapping[str, int]) -> dict[str, int]:
    """Each bid's place among these bids (equal ranks share one): bids added or removed
    elsewhere on the ladder shift ranks without changing what overcalls what."""
    order = sorted(set(ranks.values()))
    return {ident: order.index(rank) for ident, rank in ranks.items()}
