"""The differences between two rulesets in plain words, grouped like the rulebook.

A handful of differences get a sentence of their own, short and with both numbers
("Ulti is worth 5 (was 4)."); every other setting is said with the rulebook's own
sentences for it, the new one first and the old one after it ("(Was: ...)"), so a
setting has its wording in one place only (``build.py`` and its section builders).
A setting whose sentences read the same on both sides does not matter under these
rules (an option of the two-round auction where there is none): it is listed with
the names, as a difference that does not change the play.
"""

from __future__ import annotations

import dataclasses
import functools
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..i18n import N_, Translator, translator
from ..plugins import Registry
from ..ruleset.loading import registry_of
from ..ruleset.schema import Names, Ruleset
from ..ruleset.titles import title_text
from .build import build_rulebook
from .diff import Difference, compare_rulesets
from .document import Paragraph, Rulebook, Table
from .kinds import kind_sentences
from .silent import bonus_sentences
from .words import Words, sentence

WIDTH = 80
RANK_ROWS = ("ranks.trump_game", "ranks.trump_game_side_suits", "ranks.no_trump")
"""The rows of the rulebook's table of card ranks, in its order."""
_LANGUAGES = {"hu": N_("Hungarian"), "en": N_("English"), "de": N_("German")}
"""The languages a title may be written in, by name (a title that differs only in one
of them says which)."""


@dataclass(frozen=True)
class Phrased:
    """One difference and its sentence; ``idle`` where the setting differs but the
    rulebook reads the same: it changes nothing under these rules."""

    difference: Difference
    text: str
    idle: bool = False


@dataclass(frozen=True)
class RuleDiff:
    """What ruleset ``now`` does differently from ruleset ``was``, in one language.

    ``sections`` hold the differences that change the play, each under the rulebook's
    section (its key and title); ``names_only`` the ones that do not.
    """

    lang: str
    was: str
    now: str
    sections: tuple[tuple[str, str, tuple[Phrased, ...]], ...]
    names_only: tuple[Phrased, ...]
    words: Translator

    @property
    def plays_the_same(self) -> bool:
        return not self.sections

    def said(self) -> list[Phrased]:
        """Every difference, those that change the play first."""
        return [s for _, _, items in self.sections for s in items] + list(self.names_only)


def describe_differences(
    a: Ruleset,
    b: Ruleset,
    lang: str = "en",
    *,
    was: str | None = None,
    now: str | None = None,
    registry: Registry | None = None,
    text: Translator | None = None,
) -> RuleDiff:
    """What ``b`` does differently from ``a``, in ``lang``; ``was`` and ``now`` are the
    names shown for them (the ruleset names by default)."""
    registry = registry_of(b, registry_of(a, registry))
    t = text or translator(lang)
    speaker = _Speaker(a, b, registry, t)
    said = [speaker.say(d) for d in compare_rulesets(a, b)]
    plays = [s for s in said if s.difference.plays]
    sections = []
    for section in speaker.book_now.sections:
        items = tuple(s for s in plays if s.difference.section == section.key)
        if items:
            sections.append((section.key, section.title, items))
    return RuleDiff(
        lang=t.lang,
        was=was or a.name,
        now=now or b.name,
        sections=tuple(sections),
        names_only=tuple(s for s in said if not s.difference.plays),
        words=t,
    )


def changes_nothing(a: Ruleset, b: Ruleset, registry: Registry | None = None) -> bool:
    """Whether ``b`` differs from ``a`` in settings that change nothing under its rules, and
    otherwise in names at most: what `ulti check` says of a line of a club file, ``a``
    being the ruleset without it (``idle.py``)."""
    speaker = _Speaker(a, b, registry_of(b, registry_of(a, registry)), translator("en"))
    idle = False
    for difference in compare_rulesets(a, b):
        said = speaker.say(difference)
        if said.difference.plays:
            return False
        idle = idle or said.idle
    return idle


def render_diff(diff: RuleDiff, width: int = WIDTH) -> str:
    """The differences as text for a terminal, 80 columns."""
    _ = diff.words.gettext
    lines: list[str] = []
    if diff.plays_the_same:
        if diff.names_only:
            message = _("{was} and {now} play the same; only names and sources differ.")
        else:
            message = _("{was} and {now} play the same: no differences.")
        lines += textwrap.wrap(message.format(was=diff.was, now=diff.now), width)
    else:
        title = _("What {now} does differently from {was}").format(was=diff.was, now=diff.now)
        lines += [title, "=" * min(len(title), width)]
        for _key, heading, items in diff.sections:
            lines += ["", heading, *_bullets(items, width)]
    if diff.names_only:
        lines += [
            "",
            _("Names and sources, which do not change the play"),
            *_bullets(diff.names_only, width),
        ]
    return "\n".join(lines) + "\n"


def diff_json(diff: RuleDiff) -> list[dict[str, Any]]:
    """The differences for programs: section, setting (its place), was, now, the sentence,
    and whether it changes the play."""
    return [
        {
            "section": s.difference.section,
            "setting": s.difference.path,
            "was": s.difference.was,
            "now": s.difference.now,
            "text": s.text,
            "plays": s.difference.plays,
        }
        for s in diff.said()
    ]


def _bullets(items: Sequence[Phrased], width: int) -> list[str]:
    lines: list[str] = []
    for text in dict.fromkeys(s.text for s in items):  # two settings, one sentence: once
        lines += textwrap.wrap(
            text, width, initial_indent="  * ", subsequent_indent="    ", break_on_hyphens=False
        )
    return lines


class _Speaker:
    """Both rulesets' words and rulebooks in one language, and a sentence per difference."""

    def __init__(self, a: Ruleset, b: Ruleset, registry: Registry, t: Translator) -> None:
        self.old = Words(a, registry, t)
        self.new = Words(b, registry, t)
        self.registry = registry
        self._ = self.new._
        self.told: dict[tuple[str | None, str], str] = {}
        """Each rulebook sentence said so far, with the name of what it is about (a silent
        bonus, a contract: two of them may say the same sentence), and the line that said
        it."""
        self.special: dict[str, Callable[[Difference], str | None]] = {
            "name": lambda d: self._(
                "The ruleset is called {now} (was {was}).", now=d.now, was=d.was
            ),
            "title": self._title,
            "sources": self._sources,
            "points.last_trick": lambda d: self._(
                "The last trick counts {now} (was {was}).", now=d.now, was=d.was
            ),
            "ranks.trump_game": self._ranks,
            "ranks.trump_game_side_suits": self._ranks,
            "ranks.no_trump": self._ranks,
            "contracts": self._contracts_listed,
            "contracts.*.value": lambda d: self._worth(self.new.contract(d.subject or ""), d),
            "contracts.*.open": self._open,
            "silent_bonuses": self._bonuses_listed,
            "ladder": self._bids_listed,
            "ladder[].components": self._components,
            "ladder[].red": self._red,
            "ladder[].rank_exception": self._rank_exception,
            "ladder[].aliases": self._aliases,
            "ladder[].rank": self._ranks_moved,
            "kontra.levels": self._levels_listed,
            "kontra.levels[].multiplier": self._multiplier,
            "kontra.levels[].by": self._called_by,
            "kontra.max_level": self._max_level,
        }

    @functools.cached_property
    def book_was(self) -> Rulebook:
        """The first ruleset's rulebook, built when a sentence needs it (many need none)."""
        return self._book(self.old)

    @functools.cached_property
    def book_now(self) -> Rulebook:
        return self._book(self.new)

    def _book(self, w: Words) -> Rulebook:
        return build_rulebook(w.ruleset, w.lang, registry=self.registry, text=w.translator)

    def say(self, d: Difference) -> Phrased:
        if d.setting.endswith("names"):
            return Phrased(d, self._names(d))
        special = self.special.get(d.setting)
        text = special(d) if special is not None else None
        if d.setting == "kontra.levels" and self._same_chain():
            d = dataclasses.replace(d, plays=False)  # only names came or went
        if text is None:
            text = self._rulebook(d)
        if text is None:  # the rulebook reads the same: the setting does not matter here
            text = self._(
                "{setting} is {now} (was {was}), which changes nothing under these rules.",
                setting=d.path,
                now=_plain(d.now),
                was=_plain(d.was),
            )
            return Phrased(dataclasses.replace(d, plays=False), text, idle=True)
        return Phrased(d, text)

    # ---------------------------------------------------------------- from the rulebook

    def _rulebook(self, d: Difference) -> str | None:
        """The rulebook's sentences for the setting, now and before."""
        if d.setting.startswith("contracts.*."):
            return self._kind(d)
        if d.setting.startswith("silent_bonuses.*."):
            return self._bonus(d)
        return self._now_was(_stated(self.book_now, d.setting), _stated(self.book_was, d.setting))

    def _now_was(
        self, now: Sequence[str], was: Sequence[str], name: str | None = None
    ) -> str | None:
        new = [text for text in now if text not in was]
        old = [text for text in was if text not in now]
        if not new and not old:
            return None
        earlier = [self.told.get((name, text)) for text in (*new, *old)]
        if earlier[0] is not None and all(line == earlier[0] for line in earlier):
            return earlier[0]  # another setting's line already said all of it
        # a sentence another setting's line said already is not said again beside the
        # rest (a silent bonus's loss_factor and scored_by share "a failure costs ...")
        new = [text for text in new if (name, text) not in self.told] or new
        old = [text for text in old if (name, text) not in self.told] or old
        if new and old:
            text = self._("{now} (Was: {was})", now=" ".join(new), was=" ".join(old))
        elif new:
            text = " ".join(new)
        else:
            text = self._("No longer: {was}", was=" ".join(old))
        line = f"{name}: {text}" if name else text  # the same colon in hu, en and de
        for told in (*new, *old):
            self.told.setdefault((name, told), line)
        return line

    def _kind(self, d: Difference) -> str | None:
        """A contract's parameter (or its kind) in its kind's sentences."""
        ident = d.subject or ""

        def said(w: Words) -> list[str]:
            spec = w.ruleset.contracts[ident]
            kind = w.registry.kinds.get(spec.kind)
            found = kind_sentences(w, kind, spec)
            if d.setting == "contracts.*.kind":
                return [text for text, _ in found] or [spec.kind]
            return [text for text, states in found if d.setting in states]

        return self._now_was(said(self.new), said(self.old), sentence(self.new.contract(ident)))

    def _bonus(self, d: Difference) -> str | None:
        """A silent bonus's setting in the rulebook's sentences on that bonus."""
        ident = d.subject or ""

        def said(w: Words) -> list[str]:
            found = bonus_sentences(w, w.ruleset.silent_bonuses[ident])
            if d.setting == "silent_bonuses.*.condition":
                return [text for text, _ in found]
            return [text for text, states in found if any(_under(s, d.setting) for s in states)]

        name = sentence(self.new.name(self.new.ruleset.silent_bonuses[ident].names))
        return self._now_was(said(self.new), said(self.old), name)

    # ---------------------------------------------------------------- sentences of their own

    def _worth(self, name: str, d: Difference) -> str:
        return self._(
            "{name} is worth {now} (was {was}).", name=sentence(name), now=d.now, was=d.was
        )

    def _names(self, d: Difference) -> str:
        was, now = Names.model_validate(d.was), Names.model_validate(d.now)
        old, new = self.new.name(was), self.new.name(now)
        if old != new:
            return self._("{was} is now called {now}.", was=sentence(old), now=new)
        return self._(
            "The names of {name} change: {now} (was {was}).",
            name=new,
            now=_all_names(now),
            was=_all_names(was),
        )

    def _title(self, d: Difference) -> str:
        """The titles in this language; where only another language's differs, that one,
        named."""
        lang = self.new.lang
        now, was = title_text(d.now, lang), title_text(d.was, lang)
        if now != was:
            return self._("The title is now “{now}” (was “{was}”).", now=now, was=was)
        other = next((o for o in _LANGUAGES if title_text(d.now, o) != title_text(d.was, o)), lang)
        return self._(
            "The title in {language} is now “{now}” (was “{was}”).",
            language=self._(_LANGUAGES.get(other, other)),
            now=title_text(d.now, other),
            was=title_text(d.was, other),
        )

    def _sources(self, d: Difference) -> str:
        if d.now:
            return self._("Sources added: {items}.", items="; ".join(d.now))
        return self._("Sources removed: {items}.", items="; ".join(d.was))

    def _listed(
        self, d: Difference, name: Callable[[Words, str], str], added: str, removed: str
    ) -> str:
        if d.now:
            return self._(added, names=self.new.join([name(self.new, i) for i in d.now]))
        return self._(removed, names=self.new.join([name(self.old, i) for i in d.was]))

    def _contracts_listed(self, d: Difference) -> str:
        return self._listed(
            d, Words.contract, N_("Contracts added: {names}."), N_("Contracts removed: {names}.")
        )

    def _bonuses_listed(self, d: Difference) -> str:
        def name(w: Words, ident: str) -> str:
            return w.name(w.ruleset.silent_bonuses[ident].names)

        return self._listed(
            d, name, N_("Silent bonuses added: {names}."), N_("Silent bonuses removed: {names}.")
        )

    def _bids_listed(self, d: Difference) -> str:
        return self._listed(d, Words.bid, N_("Bids added: {names}."), N_("Bids removed: {names}."))

    def _same_chain(self) -> bool:
        """Whether both chains double alike at every level both allow: levels named in one
        ruleset and not the other then differ in their names only (an unnamed level
        doubles again, and the sides alternate as they do in the named ones)."""
        was, now = self.old.ruleset.kontra, self.new.ruleset.kontra
        levels = range(1, min(was.level_cap, now.level_cap) + 1)
        return all(was.multiplier(n) == now.multiplier(n) for n in levels)

    def _levels_listed(self, d: Difference) -> str:
        if d.now:
            names = [self.new.name(Names.model_validate(level["names"])) for level in d.now]
            return self._("Kontra levels added: {names}.", names=self.new.join(names))
        names = [self.old.name(Names.model_validate(level["names"])) for level in d.was]
        return self._("Kontra levels removed: {names}.", names=self.new.join(names))

    def _ranks(self, d: Difference) -> str:
        row = RANK_ROWS.index(d.setting)
        label = _table(self.book_now, d.setting).rows[row][0]
        return self._(
            "{label}, from high to low: {now} (was {was}).",
            label=label,
            now=self.new.ranks(d.now),
            was=self.new.ranks(d.was),
        )

    def _open(self, d: Difference) -> str:
        name = sentence(self.new.contract(d.subject or ""))
        if d.now:
            return self._("{name} is now played open.", name=name)
        return self._("{name} is no longer played open.", name=name)

    def _bid(self, d: Difference) -> str:
        return sentence(self.new.bid(d.subject or ""))

    def _components(self, d: Difference) -> str:
        return self._(
            "{bid} is made of {now} (was {was}).",
            bid=self._bid(d),
            now=" + ".join(self.new.contract(c) for c in d.now),
            was=" + ".join(self.old.contract(c) for c in d.was),
        )

    def _red(self, d: Difference) -> str:
        if d.now:
            return self._("{bid} is now a red bid.", bid=self._bid(d))
        return self._("{bid} is no longer a red bid.", bid=self._bid(d))

    def _rank_exception(self, d: Difference) -> str:
        if d.now:
            return self._(
                "{bid} is now marked as ranked lower than its value would give.", bid=self._bid(d)
            )
        return self._(
            "{bid} is no longer marked as ranked lower than its value would give.",
            bid=self._bid(d),
        )

    def _aliases(self, d: Difference) -> str:
        return self._(
            "{bid} is also said as {now} (was {was}).",
            bid=self._bid(d),
            now=", ".join(d.now) or "–",
            was=", ".join(d.was) or "–",
        )

    def _ranks_moved(self, d: Difference) -> str:
        moves = [
            self._(
                "{bid}: rank {now} (was {was})", bid=self.new.bid(ident), now=rank, was=d.was[ident]
            )
            for ident, rank in d.now.items()
        ]
        return self._("Bids that now rank differently: {moves}.", moves="; ".join(moves))

    def _level_name(self, d: Difference) -> str:
        return sentence(self.new.level(int(d.subject or 0)))

    def _multiplier(self, d: Difference) -> str:
        return self._(
            "{name} multiplies by {now} (was {was}).",
            name=self._level_name(d),
            now=d.now,
            was=d.was,
        )

    def _called_by(self, d: Difference) -> str:
        sides = {"defenders": self._("the defenders"), "declarer": self._("the declarer")}
        return self._(
            "{name} is now called by {now} (was {was}).",
            name=self._level_name(d),
            now=sides[d.now],
            was=sides[d.was],
        )

    def _max_level(self, d: Difference) -> str | None:
        if not d.now or not d.was:  # no limit now, or no kontra on either side
            return None

        def level(w: Words, n: int | None) -> str:
            if n is None:
                return self._("unlimited")
            if n <= len(w.ruleset.kontra.levels):
                return w.level(n)
            return self._("level {n}", n=n)

        return self._(
            "Kontra stops at {now} (was {was}).",
            now=level(self.new, d.now),
            was=level(self.old, d.was),
        )


def _under(stated: str, setting: str) -> bool:
    """``stated`` is the setting, or a setting inside it."""
    return stated == setting or stated.startswith(setting + ".")


def _stated(book: Rulebook, setting: str) -> list[str]:
    """The rulebook's paragraphs that state ``setting`` (or a setting inside it)."""
    found: list[str] = []
    for block in book.blocks():
        if isinstance(block, Paragraph) and any(_under(s, setting) for s in block.settings):
            text = block.text if block.term is None else f"{block.term} — {block.text}"
            found.append(text)
    return list(dict.fromkeys(found))


def _table(book: Rulebook, setting: str) -> Table:
    for block in book.blocks():
        if isinstance(block, Table) and setting in block.settings:
            return block
    raise KeyError(setting)


def _all_names(names: Names) -> str:
    return ", ".join(f"{lang}: {names.get(lang)}" for lang in ("hu", "en", "de"))


def _plain(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value)) or "–"
    return str(value)
