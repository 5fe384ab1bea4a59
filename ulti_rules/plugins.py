"""The plugin manager: built-in kinds and ranking rules, entry-point plugins, the registry.

Entry points (group ``ulti_rules``) are loaded lazily, on first use, so a plugin
that imports ``ulti_rules`` never meets a half-initialised package. Set
``ULTI_RULES_DISABLE_PLUGIN_AUTOLOAD=1`` to skip them (tests register inline
plugins on a fresh manager instead).

The registry is built in two steps, so that listing rulesets costs no contract kind:
the file hooks (``register_rulesets``, ``register_fragments``) are asked when the
registry is built; the code hooks (kinds, bots, ranking rules), which import the
plugins' classes and with them pydantic, only when something first reads a kind, a
bot, a ranking rule, ``plugins`` or ``failures``. This module imports neither the
contract kinds, the schema nor the ranking rules at its top (listing rulesets needs
none), and knows nothing of bots but the hook:
the bots layer (``ulti_rules.bots.registry``) adds its built-ins to what plugins
register.

A plugin is other people's code, so one that fails is contained: each entry point
is loaded on its own, and a plugin that cannot be imported (any exception, even
``SystemExit``), registered, or whose registration hooks raise or hand over
something wrong is left out whole and kept in ``Registry.failures``; the others
work. Whatever a plugin prints while it is loaded or registered goes to stderr, so
``--json`` output stays parseable.
"""

from __future__ import annotations

import os
import re
import reprlib
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, redirect_stdout, suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, get_args, get_origin

import pluggy

from . import entry_points, hookspecs
from .errors import PluginError
from .interrupts import from_ctrl_c

if TYPE_CHECKING:
    from .bots import Bot
    from .contracts.base import ContractKind
    from .contracts.fact_specs import FactSpec
    from .ruleset.ranking import RankFunction, RankingRule
    from .ruleset.schema import Ruleset

AUTOLOAD_ENV = "ULTI_RULES_DISABLE_PLUGIN_AUTOLOAD"
BUILTIN = "ulti_rules.builtin"
"""The owner of the built-in kinds, ranking rules and bots: a fault there is a bug of ours."""
FILE_HOOKS = ("register_rulesets", "register_fragments")
"""Asked when the registry is built: they hand over paths, and need no plugin class."""
CODE_HOOKS = ("register_contract_kinds", "register_bots", "register_ranking_rules")
"""Asked when a kind, bot or ranking rule is first needed (``Registry`` completes itself)."""
HOOKS = (*CODE_HOOKS[:1], *FILE_HOOKS, *CODE_HOOKS[1:])
MESSAGE_LIMIT = 300
"""Characters of a plugin's exception message kept in a warning or an error."""


@dataclass(frozen=True)
class PluginFailure:
    """A plugin that was left out, and why (what `ulti` warns about on stderr).

    ``phase`` is ``load`` (importing the entry point), ``register`` (handing it to
    the plugin manager, or an unknown hook), or the registration hook that failed.
    ``kinds`` are the contract kinds it had registered before it failed, so that a
    ruleset needing one of them can be told which plugin it needs mended.
    """

    plugin: str
    dist: str | None
    phase: str
    message: str
    kinds: tuple[str, ...] = ()

    def __str__(self) -> str:
        dist = f" ({self.dist})" if self.dist else ""
        if self.phase == "load":
            what = "failed to load"
        elif self.phase == "register":
            what = "could not be registered"
        else:
            what = f"failed in {self.phase}"
        return printable(f"plugin '{self.plugin}'{dist} {what} and is skipped: {self.message}")


def printable(text: str) -> str:
    """``text`` with control characters escaped: names and messages from a plugin reach
    a terminal, and must not drive it."""
    return re.sub(r"[\x00-\x1f\x7f-\x9f]", lambda m: f"\\x{ord(m.group()):02x}", text)


def describe_exception(exc: BaseException) -> str:
    """``ValueError: boom`` on one line, control characters escaped, length bounded."""
    text = " / ".join(line.strip() for line in str(exc).splitlines() if line.strip())
    text = printable(text)
    if len(text) > MESSAGE_LIMIT:
        text = text[: MESSAGE_LIMIT - 1] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def plugin_fault(what: str, owner: str, exc: BaseException, during: str = "") -> PluginError:
    """The error for an exception raised inside a plugin's code, naming the plugin.

    ``what`` is the object (``contract kind 'x'``, ``bot 'b'``), ``during`` the method.
    """
    where = f" in {during}" if during else ""
    return PluginError(
        printable(f"{what} of plugin '{owner}' failed{where}: {describe_exception(exc)}")
    )


_REPR = reprlib.Repr()
_REPR.maxstring, _REPR.maxother = 60, 120


def short_repr(value: object) -> str:
    """A bounded repr of what a plugin returned, for an error message."""
    return _REPR.repr(value)


class _Builtins:
    """The built-in kinds and ranking rules, registered through the same hooks as any plugin.

    (The built-in bots belong to the bots layer, above this one: see
    ``ulti_rules.bots.registry``.)
    """

    @hookspecs.hookimpl
    def register_contract_kinds(self, register: Any) -> None:
        from .contracts.builtin import BUILTIN_KINDS

        for kind in BUILTIN_KINDS:
            register(kind)

    @hookspecs.hookimpl
    def register_ranking_rules(self, register: Any) -> None:
        from .ruleset.ranking import BUILTIN_RULES

        for rule in BUILTIN_RULES:
            register(rule.name, rule.description, rule.rank, reads_ranks=rule.reads_ranks)


_COMPLETING = threading.RLock()
"""Held while the process's registry (or manager) is built and while a registry asks
its plugins for their code: the threads of a server wait for it, then read it whole."""


class Registry:
    """What the plugins registered: kinds and bots by name, plugin rulesets, who gave what,
    and the plugins that failed and were left out.

    Built by :func:`build_registry` with the plugins' files only; the first read of
    anything else (``kinds``, ``bots``, ``ranking_rules``, their owners, ``plugins``,
    ``failures``) asks the plugins for their code, once. A plugin that fails then is
    left out whole, its rulesets and fragments too. ``bots`` holds the plugins' bots
    only: ``ulti_rules.bots.registry`` adds the built-in ones.
    """

    def __init__(
        self,
        *,
        kinds: dict[str, ContractKind] | None = None,
        kind_owner: dict[str, str] | None = None,
        rulesets: list[tuple[Path, str]] | None = None,
        fragments: list[tuple[Path, str]] | None = None,
        bots: dict[str, type[Bot]] | None = None,
        bot_owner: dict[str, str] | None = None,
        ranking_rules: dict[str, RankingRule] | None = None,
        ranking_owner: dict[str, str] | None = None,
        plugins: dict[str, str | None] | None = None,
        failures: list[PluginFailure] | None = None,
    ) -> None:
        self._kinds = {} if kinds is None else kinds
        self._kind_owner = {} if kind_owner is None else kind_owner
        self.rulesets: list[tuple[Path, str]] = [] if rulesets is None else rulesets
        """The rulesets the plugins ship, with the plugin that shipped each."""
        self.fragments: list[tuple[Path, str]] = [] if fragments is None else fragments
        """Rule fragments the plugins ship, with the plugin that shipped each."""
        self._bots = {} if bots is None else bots
        self._bot_owner = {} if bot_owner is None else bot_owner
        self._ranking_rules = {} if ranking_rules is None else ranking_rules
        self._ranking_owner = {} if ranking_owner is None else ranking_owner
        self._plugins = {} if plugins is None else plugins
        self._failures = [] if failures is None else failures
        self._pending: Callable[[Registry], list[PluginFailure]] | None = None
        self._completing = False
        self._on_failure: Callable[[PluginFailure], None] | None = None

    def _complete(self) -> None:
        """Ask the plugins for their code, if that is still to be done. Other threads
        wait until it is done: one that read the kinds meanwhile saw none (a web server's
        first requests failed with 'unknown contract kind'); the thread doing it, asked
        again while it fills the registry, goes on with what is there."""
        if self._pending is None:
            return
        with _COMPLETING:
            pending = self._pending
            if pending is None or self._completing:
                return
            self._completing = True
            try:
                failures = pending(self)
            finally:
                self._pending = None
                self._completing = False
        for failure in failures:
            if self._on_failure is not None:
                self._on_failure(failure)

    @property
    def known_failures(self) -> list[PluginFailure]:
        """The failures found so far, without asking the plugins for their code."""
        return self._failures

    @property
    def kinds(self) -> dict[str, ContractKind]:
        self._complete()
        return self._kinds

    @property
    def kind_owner(self) -> dict[str, str]:
        self._complete()
        return self._kind_owner

    @property
    def bots(self) -> dict[str, type[Bot]]:
        """The plugins' bots (``ulti_rules.bots.registry.bots`` adds the built-in ones)."""
        self._complete()
        return self._bots

    @property
    def bot_owner(self) -> dict[str, str]:
        self._complete()
        return self._bot_owner

    @property
    def ranking_rules(self) -> dict[str, RankingRule]:
        self._complete()
        return self._ranking_rules

    @property
    def ranking_owner(self) -> dict[str, str]:
        self._complete()
        return self._ranking_owner

    @property
    def plugins(self) -> dict[str, str | None]:
        """Every plugin that works, in load order, with its distribution (``name version``)."""
        self._complete()
        return self._plugins

    @property
    def failures(self) -> list[PluginFailure]:
        self._complete()
        return self._failures

    def kind(self, name: str) -> ContractKind:
        return self.kinds[name]

    def param_models(self) -> Mapping[str, type[Any]]:
        return {name: type(kind).params for name, kind in self.kinds.items()}

    @property
    def facts(self) -> dict[str, FactSpec[Any]]:
        """Every fact the kinds declare, by name (``FactSpec.name``)."""
        return {spec.name: spec for kind in self.kinds.values() for spec in type(kind).facts}

    def fact_owner(self, name: str) -> str:
        """The plugin whose kind declares the fact ``name`` (the first, if several share it)."""
        kind = next(k for k, kind in self.kinds.items() for f in type(kind).facts if f.name == name)
        return self.kind_owner.get(kind, BUILTIN)

    def facts_for(self, ruleset: Ruleset) -> tuple[FactSpec[Any], ...]:
        """The declared facts a ruleset's kinds judge by (its contracts and silent
        bonuses), each once: what the engine computes for its hands."""
        kinds = {spec.kind for spec in ruleset.contracts.values()}
        kinds |= {bonus.condition for bonus in ruleset.silent_bonuses.values()}
        found: dict[str, FactSpec[Any]] = {}
        for name in sorted(kinds):
            kind = self.kinds.get(name)
            for spec in type(kind).facts if kind is not None else ():
                found.setdefault(spec.name, spec)
        return tuple(found.values())

    def missing_kind_hint(self, name: str) -> str:
        """For "unknown contract kind" messages: which failed plugin may be to blame.

        ``"; plugin 'p' registers it but failed and was skipped"`` when a failed plugin
        had registered the kind, else a note naming the plugins that failed before
        saying which kinds they have; ``""`` when no plugin failed.
        """
        owners = [f.plugin for f in self.failures if name in f.kinds]
        if owners:
            return f"; plugin '{owners[0]}' registers it, but failed and was skipped"
        unknown = [f"'{f.plugin}'" for f in self.failures if not f.kinds]
        if not unknown:
            return ""
        who = ", ".join(unknown)
        return f"; plugin {who} failed to load and was skipped (it may provide the kind)"


def _plugin_name(pm: pluggy.PluginManager, plugin: object) -> str:
    name = pm.get_name(plugin)
    if name:
        return name
    if isinstance(plugin, ModuleType):
        return plugin.__name__
    return type(plugin).__name__


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """What plugin code prints goes to stderr: stdout carries ``--json`` output (while
    plugins are loaded, and while a command with ``--json`` plays or settles hands).

    Both Python's ``sys.stdout`` and file descriptor 1 are pointed at stderr, so that
    ``os.write(1, ...)``, ``sys.__stdout__`` and a C extension printing at import are
    kept off stdout too; both are restored afterwards.
    """
    sys.stdout.flush()
    saved = _dup_stdout()
    try:
        with redirect_stdout(sys.stderr):
            yield
    finally:
        if saved is not None:
            if sys.__stdout__ is not None:  # what the plugin left in its buffer: to stderr
                with suppress(OSError, ValueError):
                    sys.__stdout__.flush()
            os.dup2(saved, 1)
            os.close(saved)


def _dup_stdout() -> int | None:
    """A copy of fd 1, with fd 1 then pointing at fd 2; None where there is no fd 1 or 2
    (an embedding program, a test runner capturing output)."""
    try:
        saved = os.dup(1)
    except OSError:
        return None
    try:
        os.dup2(2, 1)
    except OSError:
        os.close(saved)
        return None
    return saved


def discover(
    group: str = hookspecs.PROJECT,
) -> tuple[list[entry_points.EntryPoint], list[PluginFailure]]:
    """The entry points of ``group``, read one distribution at a time (``entry_points.py``).

    ``importlib.metadata.entry_points`` stops at the first unreadable
    ``entry_points.txt`` of any package; here that package alone is a failure (when
    its file names the group) and the others are found. A distribution installed
    twice on the path counts once, the first one found, as ``entry_points`` does.
    """
    found, unreadable = entry_points.find(group)
    failures = [
        PluginFailure(bad.dist, bad.label, "load", describe_exception(bad.error))
        for bad in unreadable
    ]
    return found, failures


class PluginManager(pluggy.PluginManager):
    """pluggy's manager that loads each entry point on its own and keeps the failures."""

    def __init__(self) -> None:
        super().__init__(hookspecs.PROJECT)
        self.failures: list[PluginFailure] = []
        self.dists: dict[str, str] = {}
        """Plugin name -> ``distribution version``, for the entry-point plugins."""

    def load_entry_points(self, group: str = hookspecs.PROJECT) -> int:
        """Import and register every entry point of ``group``; returns how many worked.

        Like pluggy's ``load_setuptools_entrypoints`` (names already registered or
        blocked are passed over), but a plugin that fails to import or register is
        recorded in ``failures`` and skipped instead of stopping the rest, and each
        plugin's distribution is kept in ``dists`` (pluggy's private list of them
        changed shape between versions).
        KeyboardInterrupt still stops the program.
        """
        found, failures = discover(group)
        self.failures.extend(failures)
        count = 0
        for ep in found:
            if self.has_plugin(ep.name) or self.is_blocked(ep.name):
                continue
            label = ep.dist
            try:
                with stdout_to_stderr():
                    plugin = ep.load()
            except (Exception, SystemExit) as exc:
                if from_ctrl_c(exc):  # a Ctrl-C while its module made a class: not its fault
                    raise KeyboardInterrupt from exc
                self.failures.append(PluginFailure(ep.name, label, "load", describe_exception(exc)))
                continue
            try:
                self.register(plugin, name=ep.name)
            except Exception as exc:  # a hook signature pluggy refuses, a plugin loaded twice
                if self.get_plugin(ep.name) is plugin:
                    self.unregister(plugin, name=ep.name)
                self.failures.append(
                    PluginFailure(ep.name, label, "register", describe_exception(exc))
                )
                continue
            if label is not None:
                self.dists[ep.name] = label
            count += 1
        return count


def new_manager(*, autoload: bool | None = None) -> PluginManager:
    """A fresh manager with the built-ins, plus entry-point plugins unless disabled."""
    pm = PluginManager()
    pm.add_hookspecs(hookspecs)
    pm.register(_Builtins(), name=BUILTIN)
    if autoload is None:
        autoload = not os.environ.get(AUTOLOAD_ENV)
    if autoload:
        pm.load_entry_points()
    return pm


class _Refused(Exception):
    """A registration hook handed over something that is not a kind, ruleset, bot or rule."""


def _check_kind(kind_cls: object) -> str:
    """The kind's name, if ``kind_cls`` is a usable ContractKind subclass; else _Refused."""
    from .contracts.base import ContractKind  # only when kinds are registered: see the top
    from .contracts.fact_specs import FactSpec
    from .ruleset.schema import ContractSpec

    if not (isinstance(kind_cls, type) and issubclass(kind_cls, ContractKind)):
        raise _Refused(f"registered {short_repr(kind_cls)}, not a ContractKind subclass")
    name = getattr(kind_cls, "name", None)
    if not isinstance(name, str) or not name:
        raise _Refused(f"registered the contract kind {kind_cls.__name__} without a name")
    params = getattr(kind_cls, "params", None)
    if not (isinstance(params, type) and issubclass(params, ContractSpec)):
        raise _Refused(
            f"contract kind '{name}' has params {short_repr(params)}, not a ContractSpec subclass"
        )
    tag = params.model_fields["kind"].annotation
    if get_origin(tag) is not Literal or get_args(tag) != (name,):
        raise _Refused(
            f"contract kind '{name}': the field 'kind' of {params.__name__} must be "
            f"Literal['{name}'] (a ruleset's entries find their kind by it)"
        )
    for flag in ("is_parti", "is_hundred", "replaces_parti", "keeps_trump_seven"):
        if not isinstance(getattr(kind_cls, flag), bool):
            raise _Refused(f"contract kind '{name}': {flag} must be True or False")
    implied = kind_cls.implied_by
    if not (isinstance(implied, frozenset) and all(isinstance(k, str) for k in implied)):
        raise _Refused(f"contract kind '{name}': implied_by must be a frozenset of kind names")
    facts = kind_cls.facts
    if not (isinstance(facts, tuple) and all(isinstance(f, FactSpec) for f in facts)):
        raise _Refused(f"contract kind '{name}': facts must be a tuple of FactSpec")
    return name


def _check_bot(bot_cls: object) -> str:
    name = getattr(bot_cls, "name", None)
    if not (isinstance(bot_cls, type) and isinstance(name, str) and name):
        raise _Refused(f"registered {short_repr(bot_cls)}, not a bot class")
    if not callable(getattr(bot_cls, "choose", None)):
        raise _Refused(f"registered bot '{name}' without choose()")
    return name


def _check_ranking_rule(name: object, description: object, rank: object) -> str:
    """The rule's name, if the three make a usable ranking rule; else _Refused."""
    if not (isinstance(name, str) and name.strip() and name == name.strip()):
        raise _Refused(f"registered the ranking rule {short_repr(name)}, not a name")
    if not (isinstance(description, str) and description.strip() and "\n" not in description):
        raise _Refused(f"ranking rule '{name}' needs a one-line description")
    if not callable(rank):
        raise _Refused(f"ranking rule '{name}' has rank {short_repr(rank)}, not a function")
    return name


def _check_ruleset(path: object, what: str = "ruleset") -> Path:
    if not isinstance(path, str | os.PathLike):
        raise _Refused(f"registered {short_repr(path)} as a {what}, not a path")
    found = Path(path)
    if found.suffix != ".yaml":
        raise _Refused(f"registered the {what} {found}, which is not a .yaml file")
    if not found.is_file():
        raise _Refused(f"registered the {what} {found}, which does not exist")
    return found


@dataclass
class _Contribution:
    """What one plugin registered; it joins the registry only if all of it is good."""

    owner: str
    kinds: dict[str, ContractKind] = field(default_factory=dict)
    rulesets: list[Path] = field(default_factory=list)
    fragments: list[Path] = field(default_factory=list)
    bots: dict[str, type[Bot]] = field(default_factory=dict)
    rules: dict[str, RankingRule] = field(default_factory=dict)

    def register_kind(self, kind_cls: type[ContractKind]) -> None:
        name = _check_kind(kind_cls)
        if name in self.kinds:
            raise _Refused(f"registered the contract kind '{name}' twice")
        self.kinds[name] = kind_cls()

    def register_ruleset(self, path: Path) -> None:
        self.rulesets.append(_check_ruleset(path))

    def register_fragment(self, path: Path) -> None:
        self.fragments.append(_check_ruleset(path, "fragment"))

    def register_bot(self, bot_cls: type[Bot]) -> None:
        name = _check_bot(bot_cls)
        if name in self.bots:
            raise _Refused(f"registered the bot '{name}' twice")
        self.bots[name] = bot_cls

    def register_ranking_rule(
        self, name: str, description: str, rank: RankFunction, *, reads_ranks: bool = False
    ) -> None:
        name = _check_ranking_rule(name, description, rank)
        if name in self.rules:
            raise _Refused(f"registered the ranking rule '{name}' twice")
        if not isinstance(reads_ranks, bool):
            raise _Refused(f"ranking rule '{name}': reads_ranks must be True or False")
        from .ruleset.ranking import RankingRule  # when rules are asked for: see the top

        self.rules[name] = RankingRule(name, description, rank, reads_ranks)

    def registrar(self, hook: str) -> Callable[..., None]:
        registrars: dict[str, Callable[..., None]] = {
            "register_contract_kinds": self.register_kind,
            "register_rulesets": self.register_ruleset,
            "register_fragments": self.register_fragment,
            "register_bots": self.register_bot,
            "register_ranking_rules": self.register_ranking_rule,
        }
        return registrars[hook]

    def clash(self, registry: Registry) -> tuple[str, str] | None:
        """A kind or bot name another plugin registered first, or a fact declared
        otherwise than before: the hook and a message."""
        for name in self.kinds:
            if name in registry._kinds:
                return "register_contract_kinds", (
                    f"contract kind '{name}' is registered twice: by {registry._kind_owner[name]} "
                    f"and by {self.owner}; the first is kept"
                )
        fact_clash = _fact_clash(self.kinds, registry)
        if fact_clash is not None:
            return "register_contract_kinds", fact_clash
        for name in self.bots:
            if name in registry._bots:
                return "register_bots", (
                    f"bot '{name}' is registered twice: by {registry._bot_owner[name]} "
                    f"and by {self.owner}; the first is kept"
                )
        for name in self.rules:
            if name in registry._ranking_rules:
                return "register_ranking_rules", (
                    f"ranking rule '{name}' is registered twice: by "
                    f"{registry._ranking_owner[name]} and by {self.owner}; the first is kept"
                )
        return None

    def join_files(self, registry: Registry) -> None:
        registry.rulesets.extend((path, self.owner) for path in self.rulesets)
        registry.fragments.extend((path, self.owner) for path in self.fragments)

    def drop_files(self, registry: Registry) -> None:
        """Take back the files joined before the plugin's code failed."""
        registry.rulesets[:] = [(p, o) for p, o in registry.rulesets if o != self.owner]
        registry.fragments[:] = [(p, o) for p, o in registry.fragments if o != self.owner]

    def join_code(self, registry: Registry) -> None:
        for name, kind in self.kinds.items():
            registry._kinds[name] = kind
            registry._kind_owner[name] = self.owner
        for name, bot_cls in self.bots.items():
            registry._bots[name] = bot_cls
            registry._bot_owner[name] = self.owner
        for name, rule in self.rules.items():
            registry._ranking_rules[name] = rule
            registry._ranking_owner[name] = self.owner


def _fact_clash(kinds: Mapping[str, ContractKind], registry: Registry) -> str | None:
    """Two different declarations of one fact name or sheet key (one shared FactSpec is
    fine), among these kinds or against the registry's; the message, or None."""
    by_name = dict(registry.facts)
    by_key = {spec.sheet_key: spec for spec in by_name.values()}
    for kind in kinds.values():
        for spec in type(kind).facts:
            for seen, what, value in (
                (by_name, "fact", spec.name),
                (by_key, "score-sheet key", spec.sheet_key),
            ):
                other = seen.get(value)
                if other is not None and other != spec:
                    first = other.name in registry.facts and other == registry.facts[other.name]
                    by = f" (plugin {registry.fact_owner(other.name)})" if first else ""
                    return (
                        f"contract kind '{kind.name}' declares the {what} '{value}', which "
                        f"another kind declares otherwise{by}; share one FactSpec instead"
                    )
            by_name[spec.name] = spec
            by_key[spec.sheet_key] = spec
    return None


def _unknown_hooks(pm: pluggy.PluginManager, plugin: object) -> list[str]:
    """Hooks the plugin implements that no spec declares (a misspelt name)."""
    unknown = []
    for caller in pm.get_hookcallers(plugin) or []:
        if caller.has_spec():
            continue
        if any(i.plugin is plugin and not i.optionalhook for i in caller.get_hookimpls()):
            unknown.append(caller.name)
    return unknown


def _call_hooks(
    pm: pluggy.PluginManager, plugin: object, contribution: _Contribution, hooks: tuple[str, ...]
) -> tuple[str, str] | None:
    """Call the plugin's implementations of ``hooks``; the phase and message if one failed."""
    for hook in HOOKS:
        if hook not in hooks:
            continue
        for impl in getattr(pm.hook, hook).get_hookimpls():
            if impl.plugin is not plugin:
                continue
            args = {"register": contribution.registrar(hook)}
            try:
                with stdout_to_stderr():
                    impl.function(*(args[a] for a in impl.argnames))
            except _Refused as exc:
                return hook, str(exc)
            except (Exception, SystemExit) as exc:
                if from_ctrl_c(exc):
                    raise KeyboardInterrupt from exc
                return hook, describe_exception(exc)
    return None


@dataclass
class _Kept:
    """A plugin whose files were taken, waiting to be asked for its code."""

    name: str
    plugin: object
    contribution: _Contribution


def build_registry(pm: pluggy.PluginManager) -> Registry:
    """Ask every plugin, in load order, for its rulesets and fragments now, and for its
    kinds, bots and ranking rules when the registry is first asked for one of them.

    A plugin that fails, or registers a kind or bot name another one registered
    first, is left out whole and recorded in ``failures`` (with the load failures
    of ``pm``); the others are kept.
    """
    registry = Registry()
    dists: dict[str, str] = {}
    if isinstance(pm, PluginManager):
        registry.known_failures.extend(pm.failures)
        dists = pm.dists
    kept: list[_Kept] = []
    for name, plugin in pm.list_name_plugin():
        if plugin is None:  # blocked
            continue
        contribution = _Contribution(_plugin_name(pm, plugin))
        unknown = _unknown_hooks(pm, plugin)
        if unknown:
            hooks = ", ".join(HOOKS)
            message = f"unknown hook {', '.join(unknown)} (the hooks: {hooks})"
            registry.known_failures.append(
                PluginFailure(contribution.owner, dists.get(name), "register", message)
            )
            continue
        failed = _call_hooks(pm, plugin, contribution, FILE_HOOKS)
        if failed is not None:
            phase, message = failed
            registry.known_failures.append(
                PluginFailure(contribution.owner, dists.get(name), phase, message)
            )
            continue
        contribution.join_files(registry)
        kept.append(_Kept(name, plugin, contribution))

    def ask_for_code(registry: Registry) -> list[PluginFailure]:
        failures: list[PluginFailure] = []
        for each in kept:
            contribution = each.contribution
            failed = _call_hooks(pm, each.plugin, contribution, CODE_HOOKS)
            failed = failed or contribution.clash(registry)
            if failed is not None:
                phase, message = failed
                contribution.drop_files(registry)
                failures.append(
                    PluginFailure(
                        contribution.owner,
                        dists.get(each.name),
                        phase,
                        message,
                        tuple(contribution.kinds),
                    )
                )
                registry.known_failures.append(failures[-1])
                continue
            contribution.join_code(registry)
            registry._plugins[contribution.owner] = dists.get(each.name)
        return failures

    registry._pending = ask_for_code
    return registry


_manager: pluggy.PluginManager | None = None
_registry: Registry | None = None
_reporter: Callable[[PluginFailure], None] | None = None


def get_manager() -> pluggy.PluginManager:
    """The process-wide manager, created on first use."""
    global _manager
    if _manager is None:
        with _COMPLETING:
            if _manager is None:
                _manager = new_manager()
    return _manager


def get_registry() -> Registry:
    """The process-wide registry, built on first use (once, whichever threads ask)."""
    global _registry
    if _registry is None:
        with _COMPLETING:
            if _registry is None:
                built = build_registry(get_manager())
                built._on_failure = _report
                for failure in built.known_failures:
                    _report(failure)
                _registry = built
    return _registry


def process_plugin_modules(registry: Registry) -> tuple[ModuleType, ...] | None:
    """The modules of the plugins behind ``registry`` if it is the process-wide one (what
    ``get_registry`` built from ``get_manager``'s plugins), else None: the disk cache of
    rulesets (``ruleset/disk_cache.py``) keeps only rulesets of plugins whose code it can
    tell apart."""
    if registry is not _registry or _manager is None:
        return None
    modules: list[ModuleType] = []
    for _, plugin in _manager.list_name_plugin():
        if plugin is None:
            continue
        module = (
            plugin if isinstance(plugin, ModuleType) else sys.modules.get(type(plugin).__module__)
        )
        if module is None:
            return None
        modules.append(module)
    return tuple(modules)


def _report(failure: PluginFailure) -> None:
    if _reporter is not None:
        _reporter(failure)


def report_failures(reporter: Callable[[PluginFailure], None] | None) -> None:
    """Pass each plugin failure to ``reporter`` once: now if the registry is built, else
    when it is (so a command that never needs plugins never loads them). ``None`` stops.

    The CLI uses it to warn on stderr at the start of each command that uses plugins.
    """
    global _reporter
    _reporter = reporter
    if reporter is not None and _registry is not None:
        for failure in _registry.known_failures:
            reporter(failure)


def reset(manager: pluggy.PluginManager | None = None) -> None:
    """Forget the process-wide manager (or install ``manager``); for tests."""
    global _manager, _registry
    _manager = manager
    _registry = None


reset_plugins = reset
"""``reset`` under its public name (``from ulti_rules import reset_plugins``): a plugin's
tests install the manager they built for the whole process, and forget it after."""
