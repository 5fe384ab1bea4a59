"""The kontra chain: per component, per defender where the kontra binds only its caller.

Level 1 (kontra) is the defenders', level 2 (rekontra) the declarer's, and so on,
alternating (docs/rules.md#kontra). A component whose kontra binds both defenders has
one shared chain; one that binds only its caller (no-trump components in WP, DE, HU)
has a chain per defender. A defender raises his own chain (or the shared one); the
declarer answers a chain one level below his call: every such chain of the named
components, or with ``against`` one defender's alone.

When (docs/rules.md#the-kontra-window): every level may be called at the first trick,
on one's own turn before one's card; the kontra round after trick 1 takes only the
levels whose window reaches past one's own card (DE, HU: Kontra at the card, Rekontra
and beyond after).
Where a defender's window opens only after his own first card (``kontra.window_opens:
after_own_card``) he calls nothing before that card, and has the word right after it,
before the next card is played.

The moment of a call is one of :data:`TRICK1` (one's turn at the first trick, before
one's card), :data:`AFTER_CARD` (a defender's word right after his own card to trick 1)
and :data:`ROUND` (the kontra round after trick 1).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain, combinations, starmap
from typing import Any, Literal, TypeAlias

from ..game.catalog import BidInfo
from ..ruleset.schema import KONTRA_LEVEL_LIMIT, Ruleset
from ..ruleset.schema import Kontra as KontraRules
from ..said import Said
from .actions import PASS, Action, Kontra

OWN_CARD = "own_card_trick1"

Moment = Literal["trick1", "after_card", "round"]
TRICK1: Moment = "trick1"
AFTER_CARD: Moment = "after_card"
ROUND: Moment = "round"


def side_of_level(level: int) -> str:
    """Which side calls ``level``: the defenders open the chain, the sides alternate."""
    return "defenders" if level % 2 else "declarer"


_Key: TypeAlias = tuple[object, ...]
_Group: TypeAlias = tuple[tuple[str, ...], int, "int | None"]
"""Kontras of one level and target: (the components open to them, sorted, level, target)."""
Answer: TypeAlias = "tuple[tuple[Kontra, ...], tuple[Action, ...]]"
"""The kontras open to a seat at a moment, and the kontra phase's list (them, then Pass)."""

_LIMIT = 1 << 14
"""The most answers per view a :class:`_Setting` holds, and the most lists of kontras a
game's :class:`Memos` keeps: each table is emptied when full."""
_NODE_LIMIT = 1 << 15
"""The most kontra situations (nodes) the settings of one game hold together: when full,
every setting forgets its nodes (a node and what it learns take about 0.9 KB; 2,000
random hands of ``wikipedia`` meet about 7,000 nodes, 20,000 hands about 26,000)."""


class _Node(dict[int, Any]):
    """One kontra situation of a setting: the levels, and what has been learnt about them.

    ``flat``: the level of every chain, component by component, defender by defender (a
    shared chain stands at the same level for both). Hands of one setting that reach the
    same levels share the node, so each question about them is answered once, kept in
    the node itself, a dict, under an int:

    - a question of the kontra round's next speaker (:meth:`KontraChains.round_speaker`),
      ``start | passed << 2 | declarer << 6`` (below 256) -> its answer;
    - ``_MOMENT_KEY[moment] | seat | declarer << 2`` (256 to 287) -> the kontras open
      then, and Pass after them (the kontra phase's legal list);
    - a kontra called, packed below 0 (:meth:`KontraChains.apply`) -> the node it leads
      to.

    One dict of int keys, not three of tuples, and the dict is the node: tens of
    thousands of nodes may be met, and a node with what it learnt took 1.42 KB and four
    objects for the collector to walk with three dicts, 0.91 KB and two with one dict
    beside the node, and one object now (after 12,000 random ``wikipedia`` hands the memos
    held 18.1 MB and 75,500 objects the collector walks with the dict beside, 17.3 MB and
    55,300 now: ``tracemalloc``). A node stands for its levels: nodes compare by them, not
    by what they have learnt.
    """

    __slots__ = ("flat",)

    def __init__(self, flat: tuple[int, ...]) -> None:
        super().__init__()
        self.flat = flat

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Node) and other.flat == self.flat

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(self.flat)

    def __repr__(self) -> str:
        return f"<kontra levels {self.flat}>"

    def answers(self) -> list[tuple[tuple[int, bool, Moment], Answer]]:
        """What the node keeps for each (seat, declarer, moment) asked (tests read it)."""
        moments = {key: moment for moment, key in _MOMENT_KEY.items()}
        return [
            ((key & 3, bool(key & 4), moments[key & ~7]), answer)
            for key, answer in list(self.items())
            if _ACTIONS_KEYS <= key < _ACTIONS_KEYS_END
        ]


_MOMENT_KEY: dict[Moment, int] = {TRICK1: 256, AFTER_CARD: 264, ROUND: 272}
"""Where a moment's answers are kept in :class:`_Node` (seat and declarer below)."""
_ACTIONS_KEYS, _ACTIONS_KEYS_END = 256, 288
_ROUND_KEY = _MOMENT_KEY[ROUND]
_ANSWER_KEYS: tuple[int, ...] = tuple(range(_ACTIONS_KEYS, _ACTIONS_KEYS_END))
"""The keys of a node's answers, each made once: an int above 256 is a new object each time
it is computed, and the nodes kept a copy each, 1.5 MB of the memos' 20.2 MB after 12,000
random ``wikipedia`` hands (``tracemalloc``), and one more place in memory for a look-up to
read."""


class _Setting:
    """A kontra setting (everything but the levels that decides which kontras are open),
    and what the hands of this setting share: the situations met, as nodes.

    ``nodes``: the levels (flat) -> their :class:`_Node`; ``by_view``: (a side's view of
    the levels, declarer, moment) -> the kontras open then and the kontra phase's list
    (them, then Pass), one pair kept by every node of that view: shared by every levels a
    side sees alike (the declarer raises odd levels, a defender the even ones of his own chain
    or the shared one: other levels do not change his options). Random hands meet the same
    situations again and again; the answers are immutable values, so they are built once.
    Keyed by values (never by ``id``), each table emptied when full: ``by_view`` and
    ``edge_keys`` hold no more than ``_LIMIT`` entries each, the nodes of all the settings
    in ``memos`` together no more than ``_NODE_LIMIT``.
    """

    __slots__ = (
        "by_view",
        "chains",
        "components",
        "defenders",
        "defenders_wait",
        "edge_keys",
        "first_in_round",
        "later_in_round",
        "masks",
        "max_level",
        "memos",
        "nodes",
        "open_at",
        "own",
        "per_defender",
        "positions",
        "rules",
    )

    def __init__(
        self,
        rules: KontraRules,
        components: tuple[str, ...],
        defenders: tuple[int, ...],
        per_defender: frozenset[str],
        memos: Memos,
    ) -> None:
        self.memos = memos
        self.rules = rules
        self.components = components
        self.defenders = defenders
        self.per_defender = per_defender
        self.max_level: int | None = rules.level_cap  # null in the file: the framework's limit
        window, later = rules.window, rules.later_window  # Kontra.window_of, inlined
        self.first_in_round = window != OWN_CARD
        self.later_in_round = (window if later == "same" else later) != OWN_CARD
        self.defenders_wait = rules.window_opens == "after_own_card"
        """A defender calls nothing at the first trick before his own card."""
        count = len(defenders)
        self.positions: dict[str, dict[int, int]] = {
            c: {d: i * count + k for k, d in enumerate(defenders)} for i, c in enumerate(components)
        }
        """Per component, per defender seat: where his chain stands in the flat levels."""
        self.own: dict[int, tuple[int, ...]] = {
            seat: tuple(
                self.positions[c][seat if c in per_defender else defenders[0]] for c in components
            )
            for seat in defenders
        }
        """Per defender seat: where the chains he raises stand in the flat levels."""
        self.chains: tuple[tuple[str, bool, tuple[tuple[int, int], ...]], ...] = tuple(
            (c, c in per_defender, tuple(where.items())) for c, where in self.positions.items()
        )
        """Per component: its name, whether it has a chain per defender, and (defender
        seat, place in the flat levels) for each defender (:meth:`KontraChains.options`)."""
        self.open_at: dict[Moment, tuple[bool, ...]] = {
            moment: tuple(self.is_open(level, moment) for level in range(KONTRA_LEVEL_LIMIT + 2))
            for moment in (TRICK1, AFTER_CARD, ROUND)
        }
        """Per moment, per level: whether it may be called then (:meth:`is_open`)."""
        self.masks: dict[tuple[str, ...], int] = {
            subset: sum(1 << components.index(c) for c in subset)
            for size in range(1, len(components) + 1)
            for subset in combinations(sorted(components), size)
        }
        """Per set of components (sorted, as a Kontra names them): a bit per component, for
        the int a kontra called is kept under (:meth:`KontraChains.apply`)."""
        self.nodes: dict[tuple[int, ...], _Node] = {}
        self.by_view: dict[_Key, Answer] = {}
        self.edge_keys: dict[int, int] = {}
        """Each kontra's packed key (:meth:`KontraChains.apply`), one int object that every
        node keeps: a few hundred keys, where each node kept copies of its own (1.1 MB
        of ints after 12,000 random ``wikipedia`` hands; 0.6 MB less in all with this
        table), each one more place in memory for a look-up to read."""

    def is_open(self, level: int, moment: Moment) -> bool:
        """Whether ``level`` may be called now: with one's own card to the first trick
        always (before it, or right after it where a defender's window opens then), in
        the round only where its window reaches past one's own card."""
        if self.max_level is not None and level > self.max_level:
            return False
        if moment == ROUND:
            return self.first_in_round if level == 1 else self.later_in_round
        if moment == TRICK1:
            return not (self.defenders_wait and side_of_level(level) == "defenders")
        return True

    def key(self) -> _Key:
        """Everything but the levels that decides which kontras are open."""
        return (
            self.components,
            self.defenders,
            self.per_defender,
            self.max_level,
            self.first_in_round,
            self.later_in_round,
            self.defenders_wait,
        )

    def node(self, flat: tuple[int, ...]) -> _Node:
        """The node of these levels, made on first meeting."""
        nodes = self.nodes
        found = nodes.get(flat)
        if found is None:
            memos = self.memos
            if memos.nodes >= _NODE_LIMIT:
                memos.forget_nodes()
                nodes = self.nodes  # the new table: the old one is forgotten
            memos.nodes += 1
            found = nodes[flat] = _Node(flat)
        return found

    def edge_key(self, key: int) -> int:
        """The one int object kept for the packed key ``key`` (:attr:`edge_keys`)."""
        keys = self.edge_keys
        found = keys.get(key)
        if found is None:
            if len(keys) >= _LIMIT:
                keys.clear()
            found = keys[key] = key
        return found

    def view(self, flat: tuple[int, ...], seat: int, declarer: bool) -> tuple[int, ...] | None:
        """The levels as ``seat``'s side sees them: the declarer raises odd levels of every
        chain, a defender the even ones of his own chain or the shared one, and a level the
        side cannot raise is -1; None for a seat that is neither."""
        if declarer:
            return tuple(map(_ODD.__getitem__, flat))
        where = self.own.get(seat)
        if where is None:
            return None
        return tuple(map(_EVEN.__getitem__, map(flat.__getitem__, where)))


class Memos:
    """What the kontra chains of one game learn: ``settings``, each setting's key (everything
    but the levels that decides which kontras are open) -> the setting and what it learnt,
    and how many nodes they hold together; ``answers``: each list of kontras (as the
    groups it is made of: components, level and target) -> its one pair of tuples, shared
    by every view, setting and node that lists it (random hands learn some 15,000 views'
    answers, about 3,000 of them different: a pair for each view kept 1.5 MB and 43,000
    objects more for the collector to walk after 20,000 hands). Kept by the game
    (``Game.derived``), so that it lives as long as the rules it was learnt under, never in
    a module-level table."""

    __slots__ = ("answers", "nodes", "settings")

    def __init__(self) -> None:
        self.settings: dict[_Key, _Setting] = {}
        self.nodes = 0
        self.answers: dict[tuple[_Group, ...], Answer] = {}

    def setting(self, setting: _Setting) -> _Setting:
        """The setting kept for ``setting``'s key: the first one made."""
        return self.settings.setdefault(setting.key(), setting)

    def forget_nodes(self) -> None:
        """Every setting forgets its nodes; the nodes hands still hold learn afresh.

        Hands of one game may be played on several threads (a server): the tables are
        swapped for new ones and the old ones walked from a copy, never iterated while
        another thread adds to them (that raised 'dictionary changed size during
        iteration' in the middle of an apply), and the count starts again first."""
        self.nodes = 0
        for setting in list(self.settings.values()):
            forgotten, setting.nodes = setting.nodes, {}
            for old in list(forgotten.values()):
                old.clear()  # no path into the forgotten nodes; a hand on one relearns


_ODD: tuple[int, ...] = tuple(lv if lv % 2 else -1 for lv in range(KONTRA_LEVEL_LIMIT + 1))
"""A level as the declarer's key sees it: one he may raise (odd), or -1."""
_EVEN: tuple[int, ...] = tuple(-1 if lv % 2 else lv for lv in range(KONTRA_LEVEL_LIMIT + 1))
"""A level as a defender's key sees it: one he may raise (even), or -1."""


_SPOKEN: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((speaker, passed) for passed in range(16)) for speaker in range(-1, 4)
)
"""``_SPOKEN[speaker + 1][passed]``: an answer of :meth:`KontraChains.round_speaker`, one
tuple for all the nodes that give it."""


def _by_level_then_target(key: tuple[int, int | None]) -> tuple[int, int]:
    """Groups of kontras by level, the untargeted one (None) before each target seat."""
    return key[0], -1 if key[1] is None else key[1]


@lru_cache(maxsize=4096)
def _calls(components: tuple[str, ...], level: int, against: int | None) -> tuple[Kontra, ...]:
    """A Kontra for every set of ``components`` (sorted), smaller sets first; built once."""
    return tuple(
        Kontra(subset, level, against)
        for size in range(1, len(components) + 1)
        for subset in combinations(components, size)
    )


class KontraChains:
    """The kontra levels of one hand: ``levels[component][defender seat]``.

    The levels are a node of the setting's graph (:class:`_Node`), shared by every hand
    that reached them: a kontra moves the chains to another node, each move worked out
    once. Nothing in a node changes what it answers, so a copy shares it.
    """

    __slots__ = ("node", "setting")

    def __init__(
        self,
        ruleset: Ruleset,
        info: BidInfo,
        defenders: tuple[int, ...],
        memos: Memos | None = None,
    ) -> None:
        """``memos``: where chains of the same rules share what they learn (the game's);
        none given, these chains keep their own."""
        if memos is None:
            memos = Memos()
        components = tuple(info.bid.components)
        setting = memos.setting(
            _Setting(ruleset.kontra, components, defenders, info.per_defender, memos)
        )
        self.setting = setting
        self.node = setting.node((0,) * (len(setting.components) * len(defenders)))

    def clone(self) -> KontraChains:
        """An independent copy for ``Hand.clone``: the node is shared (it never changes)."""
        new = KontraChains.__new__(KontraChains)
        new.setting = self.setting
        new.node = self.node
        return new

    @property
    def levels(self) -> dict[str, dict[int, int]]:
        """Per component, per defender seat: the level (a new dict)."""
        flat = self.node.flat
        return {
            c: {d: flat[i] for d, i in where.items()} for c, where in self.setting.positions.items()
        }

    @property
    def defenders(self) -> tuple[int, ...]:
        return self.setting.defenders

    @property
    def per_defender(self) -> frozenset[str]:
        return self.setting.per_defender

    @property
    def max_level(self) -> int | None:
        return self.setting.max_level

    @property
    def defenders_wait(self) -> bool:
        """A defender calls nothing at the first trick before his own card."""
        return self.setting.defenders_wait

    @property
    def has_round(self) -> bool:
        """Whether some level may still be called after trick 1 (the kontra round)."""
        return self.setting.first_in_round or self.setting.later_in_round

    def _open(self, level: int, moment: Moment) -> bool:
        """Whether ``level`` may be called now (:meth:`_Setting.is_open`)."""
        return self.setting.is_open(level, moment)

    def options(
        self, seat: int, declarer: bool, moment: Moment
    ) -> dict[tuple[int, int | None], list[str]]:
        """(level, against) -> the components ``seat`` may raise to that level now.

        ``against`` is None for a defender's call and for the declarer's answer to
        every chain at ``level - 1``; a defender's seat for the declarer's answer to
        that defender's own chain (components with a chain per defender only).
        """
        # Read from the flat levels and the setting's tables: a new view of the levels is
        # learnt this way (a few thousand times in a thousand random hands).
        found: dict[tuple[int, int | None], list[str]] = {}
        setting, flat = self.setting, self.node.flat
        is_open = setting.open_at[moment]
        if declarer:
            for comp, own_chains, where in setting.chains:
                targets = {flat[i] + 1 for _, i in where if flat[i] & 1}
                for level in targets:
                    if is_open[level]:
                        found.setdefault((level, None), []).append(comp)
                if own_chains:
                    for d, i in where:
                        lv = flat[i]
                        if lv & 1 and is_open[lv + 1]:
                            found.setdefault((lv + 1, d), []).append(comp)
            return found
        places = setting.own.get(seat)
        if places is None:  # not a defender of these chains
            return found
        for comp, i in zip(setting.components, places, strict=True):
            lv = flat[i]
            if not lv & 1 and is_open[lv + 1]:
                found.setdefault((lv + 1, None), []).append(comp)
        return found

    def can_call(self, seat: int, declarer: bool, moment: Moment) -> bool:
        """Whether ``seat`` has any kontra to call now (:meth:`options` is not empty)."""
        return bool(self.actions(seat, declarer, moment))

    def round_speaker(
        self, start: int, after: tuple[int, ...], count: int, declarer: int, passed: int
    ) -> tuple[int, int]:
        """The kontra round's next speaker: the first of ``count`` seats from ``start`` on
        (``after[seat]`` follows ``seat``) that has not passed (``passed``: a mask of seats)
        and can call, and ``passed`` with the seats before him that cannot call added.
        -1 if none.

        Asked after every word of the round (about a fifth of a random hand's actions):
        the answer is kept by the node, per question, and what a seat may call is learnt
        only for the seats asked (a new situation's first speaker most often has something
        to call, and the seats after him are not asked then).
        """
        node = self.node
        # Seats are 0-3 (three or four players): the question packs into an int below 256,
        # one of Python's cached small ints. ``after`` and ``count`` need no place in it:
        # the setting's defenders and the declarer are the active seats, and those fix them.
        question = start | passed << 2 | declarer << 6
        known = node
        answer = known.get(question)
        if answer is not None:
            return answer  # type: ignore[no-any-return]
        seat = start
        for _ in range(count):
            bit = 1 << seat
            if not passed & bit:
                declares = seat == declarer
                found = known.get(_ROUND_KEY | seat | declares << 2)
                if found is None:
                    found = self._learn(seat, declares, ROUND)
                if found[0]:
                    answer = _SPOKEN[seat + 1][passed]
                    break
                passed |= bit
            seat = after[seat]
        else:
            answer = _SPOKEN[0][passed]
        known[question] = answer
        return answer

    def actions(self, seat: int, declarer: bool, moment: Moment) -> tuple[Kontra, ...]:
        """Every kontra ``seat`` may call now: each level and target with each set of its
        components (the untargeted ones first). Kept by the node; built once per side's
        view of the levels (:class:`_Setting`), then shared."""
        found = self.node.get(_MOMENT_KEY[moment] | seat | declarer << 2)
        if found is None:
            found = self._learn(seat, declarer, moment)
        return found[0]

    def words(self, seat: int, declarer: bool, moment: Moment) -> tuple[Action, ...]:
        """The kontra phase's legal actions: :meth:`actions`, then ``Pass``; kept by the node."""
        found = self.node.get(_MOMENT_KEY[moment] | seat | declarer << 2)
        if found is None:
            found = self._learn(seat, declarer, moment)
        return found[1]

    def _learn(self, seat: int, declarer: bool, moment: Moment) -> Answer:
        """What the node keeps for a seat at a moment, from the setting's answers per view."""
        node = self.node
        view = self.setting.view(node.flat, seat, declarer)
        if view is None:  # not a seat of this hand's chains: nothing to share
            learnt = self._answers(seat, declarer, moment)
        else:
            key = (view, declarer, moment)
            known = self.setting.by_view
            found = known.get(key)
            if found is None:
                found = self._answers(seat, declarer, moment)
                if len(known) >= _LIMIT:
                    known.clear()
                known[key] = found
            learnt = found  # the same pair for every node of this view: no new tuples
        at = _MOMENT_KEY[moment] - _ACTIONS_KEYS | seat | declarer << 2
        node[_ANSWER_KEYS[at]] = learnt  # the key's one int object
        return learnt

    def _answers(self, seat: int, declarer: bool, moment: Moment) -> Answer:
        """The kontras open to ``seat`` now, and the kontra phase's list: them, then Pass;
        the game's one pair for that list (:class:`Memos`)."""
        groups = self._groups(seat, declarer, moment)
        answers = self.setting.memos.answers
        found = answers.get(groups)
        if found is None:
            kontras = _calls(*groups[0]) if len(groups) == 1 else self._kontras(groups)
            found = (kontras, (*kontras, PASS))
            if len(answers) >= _LIMIT:
                answers.clear()
            answers[groups] = found
        return found

    def _build_actions(self, seat: int, declarer: bool, moment: Moment) -> list[Kontra]:
        """The kontras open to ``seat`` now, built afresh (no memo read)."""
        return list(self._kontras(self._groups(seat, declarer, moment)))

    @staticmethod
    def _kontras(groups: tuple[_Group, ...]) -> tuple[Kontra, ...]:
        """The kontras of ``groups``, in their order."""
        return tuple(chain.from_iterable(starmap(_calls, groups)))

    def _groups(self, seat: int, declarer: bool, moment: Moment) -> tuple[_Group, ...]:
        """The kontras open to ``seat`` now as groups, each (components, level, target)
        for :func:`_calls`: by level, the untargeted ones first."""
        options = self.options(seat, declarer, moment)
        if len(options) == 1:  # most often: one level, one target
            ((key, components),) = options.items()
            return ((tuple(sorted(components)), *key),)
        return tuple(
            (tuple(sorted(options[key])), *key)
            for key in sorted(options, key=_by_level_then_target)
        )

    def _call_name(self, level: int) -> str:
        return Said("{name} (level {level})", name=self.setting.rules.named(level), level=level)

    def why_refused(self, action: Kontra, seat: int, declarer: bool, moment: Moment) -> str | None:
        """None if ``seat`` may call ``action`` now, else the rule it breaks."""
        if action in self.actions(seat, declarer, moment):
            return None  # listed, so accepted: the usual case, one look-up
        level, against = action.level, action.against
        levels = self.levels
        for comp in action.components:
            if comp not in levels:
                return Said(
                    "'{component}' is not a component of the bid (those are: {components})",
                    component=comp,
                    components=", ".join(levels),
                )
        max_level = self.setting.max_level
        if max_level is not None and level > max_level:
            return Said("kontra goes no higher than level {level} in this ruleset", level=max_level)
        side = "declarer" if declarer else "defenders"
        if side_of_level(level) != side:
            if side_of_level(level) == "defenders":
                return Said("kontra level {level} is called by the defenders", level=level)
            return Said("kontra level {level} is called by the declarer", level=level)
        if not self._open(level, moment):
            if moment == TRICK1:
                return Said(
                    "a defender's kontra window opens right after his own card to the first "
                    "trick in this ruleset: play your card, then call"
                )
            return Said(
                "{call} is called at the first trick, before one's own card, in this ruleset; "
                "the round after trick 1 is too late for it",
                call=self._call_name(level),
            )
        if against is not None:
            why = self._why_not_against(action, declarer)
            if why is not None:
                return why
        below = level - 1
        for comp in action.components:
            chain = levels[comp]
            if declarer:
                if against is None and below not in chain.values():
                    return Said(
                        "no kontra on '{component}' stands at level {below}, so there is "
                        "nothing to raise to level {level}",
                        component=comp,
                        below=below,
                        level=level,
                    )
                if against is not None and chain[against] != below:
                    return Said(
                        "seat {seat}'s kontra chain on '{component}' stands at level {now}, "
                        "not {below}, so you cannot raise it to level {level}",
                        seat=against,
                        component=comp,
                        now=chain[against],
                        below=below,
                        level=level,
                    )
            elif comp in self.per_defender:
                if chain[seat] != below:
                    return Said(
                        "your own kontra chain on '{component}' stands at level {now}, not "
                        "{below}, so you cannot raise it to level {level} (in '{component}' "
                        "each defender has his own chain and raises only that)",
                        component=comp,
                        now=chain[seat],
                        below=below,
                        level=level,
                    )
            elif chain[self.defenders[0]] != below:
                return Said(
                    "'{component}' stands at kontra level {now}, not {below}, so it cannot be "
                    "raised to level {level}",
                    component=comp,
                    now=chain[self.defenders[0]],
                    below=below,
                    level=level,
                )
        return None

    def _why_not_against(self, action: Kontra, declarer: bool) -> str | None:
        against = action.against
        if not declarer:
            return Said(
                "only the declarer names the defender he answers (against): a defender raises "
                "his own kontra chain, or the one both defenders share"
            )
        if against not in self.defenders:
            return Said(
                "seat {seat} is not a defender (the defenders are seats {defenders})",
                seat=against,
                defenders=" and ".join(str(d) for d in self.defenders),
            )
        for comp in action.components:
            if comp not in self.per_defender:
                return Said(
                    "a kontra on '{component}' binds both defenders, so its one chain is "
                    "answered without naming a defender (against)",
                    component=comp,
                )
        return None

    def apply(self, action: Kontra, seat: int, declarer: bool) -> None:
        """Call ``action`` (checked): the chains move to the node it leads to."""
        known = self.node
        against = action.against
        masks = self.setting.masks
        mask = masks.get(action.components)
        if mask is None:  # a Kontra that skipped its constructor, which sorts them
            mask = masks[tuple(sorted(action.components))]
        # The kontra's components (a bit each), level and target, the caller and his side,
        # packed into an int below 0 (:class:`_Node`): about nine times a random hand.
        key = ~(
            (
                ((mask << 5 | action.level) << 3 | (0 if against is None else against + 1)) << 2
                | seat
            )
            << 1
            | declarer
        )
        found = known.get(key)
        if found is None:
            found = self.setting.node(self._raise(action, seat, declarer))
            known[self.setting.edge_key(key)] = found
        self.node = found

    def _raise(self, action: Kontra, seat: int, declarer: bool) -> tuple[int, ...]:
        """The levels after ``action``: the chains it names at the level below, raised."""
        level, against = action.level, action.against
        below = level - 1
        flat = list(self.node.flat)
        positions, per_defender = self.setting.positions, self.setting.per_defender
        for comp in action.components:
            chain = positions[comp]
            if against is not None:
                flat[chain[against]] = level
            elif declarer:
                for i in chain.values():
                    if flat[i] == below:
                        flat[i] = level
            elif comp in per_defender:
                flat[chain[seat]] = level
            else:
                for i in chain.values():
                    flat[i] = level
        return tuple(flat)

    def as_dict(self) -> dict[str, dict[int, int]]:
        return self.levels
