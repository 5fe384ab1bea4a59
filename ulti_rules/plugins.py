"""The plugin manager: built-in kinds and bots, entry-point plugins, and the registry.

Entry points (group ``ulti_rules``) are loaded lazily, on first use, so a plugin
that imports ``ulti_rules`` never meets a half-initialised package. Set
``ULTI_RULES_DISABLE_PLUGIN_AUTOLOAD=1`` to skip them (tests register inline
plugins on a fresh manager instead).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pluggy

from . import hookspecs
from .contracts.base import ContractKind
from .errors import PluginError

if TYPE_CHECKING:
    from .bots import Bot

AUTOLOAD_ENV = "ULTI_RULES_DISABLE_PLUGIN_AUTOLOAD"


class _Builtins:
    """The built-in kinds and bots, registered through the same hooks as any plugin."""

    @hookspecs.hookimpl
    def register_contract_kinds(self, register: Any) -> None:
        from .contracts.builtin import BUILTIN_KINDS

        for kind in BUILTIN_KINDS:
            register(kind)

    @hookspecs.hookimpl
    def register_bots(self, register: Any) -> None:
        from .bots import BUILTIN_BOTS

        for bot in BUILTIN_BOTS:
            register(bot)


@dataclass
class Registry:
    """What the plugins registered: kinds and bots by name, plugin rulesets, who gave what."""

    kinds: dict[str, ContractKind] = field(default_factory=dict)
    kind_owner: dict[str, str] = field(default_factory=dict)
    rulesets: list[tuple[Path, str]] = field(default_factory=list)
    bots: dict[str, type[Bot]] = field(default_factory=dict)
    bot_owner: dict[str, str] = field(default_factory=dict)

    def kind(self, name: str) -> ContractKind:
        return self.kinds[name]

    def bot(self, name: str) -> Bot:
        """A new bot of that name; PluginError names the known ones if there is none."""
        bot_cls = self.bots.get(name)
        if bot_cls is None:
            known = ", ".join(sorted(self.bots)) or "none"
            raise PluginError(f"no bot is called '{name}' (the bots: {known})")
        return bot_cls()

    def param_models(self) -> Mapping[str, type[Any]]:
        return {name: type(kind).params for name, kind in self.kinds.items()}


def _plugin_name(pm: pluggy.PluginManager, plugin: object) -> str:
    name = pm.get_name(plugin)
    if name:
        return name
    if isinstance(plugin, ModuleType):
        return plugin.__name__
    return type(plugin).__name__


def new_manager(*, autoload: bool | None = None) -> pluggy.PluginManager:
    """A fresh manager with the built-ins, plus entry-point plugins unless disabled."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(_Builtins(), name="ulti_rules.builtin")
    if autoload is None:
        autoload = not os.environ.get(AUTOLOAD_ENV)
    if autoload:
        try:
            pm.load_setuptools_entrypoints(hookspecs.PROJECT)
        except Exception as exc:  # a broken plugin must be named, not crash with a traceback
            raise PluginError(f"a plugin failed to load: {type(exc).__name__}: {exc}") from exc
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(str(exc)) from exc
    return pm


def build_registry(pm: pluggy.PluginManager) -> Registry:
    """Ask every plugin for its kinds and rulesets; duplicates and crashes are errors."""
    registry = Registry()
    for impl in pm.hook.register_contract_kinds.get_hookimpls():
        owner = _plugin_name(pm, impl.plugin)

        def register(kind_cls: type[ContractKind], _owner: str = owner) -> None:
            if not (isinstance(kind_cls, type) and issubclass(kind_cls, ContractKind)):
                raise PluginError(f"plugin {_owner} registered {kind_cls!r}, not a ContractKind")
            name = kind_cls.name
            if name in registry.kinds:
                raise PluginError(
                    f"contract kind '{name}' is registered twice: by {registry.kind_owner[name]} "
                    f"and by {_owner}"
                )
            registry.kinds[name] = kind_cls()
            registry.kind_owner[name] = _owner

        try:
            impl.function(register)
        except PluginError:
            raise
        except Exception as exc:
            raise PluginError(
                f"plugin {owner} failed in register_contract_kinds: {type(exc).__name__}: {exc}"
            ) from exc
    for impl in pm.hook.register_rulesets.get_hookimpls():
        owner = _plugin_name(pm, impl.plugin)

        def register_ruleset(path: Path, _owner: str = owner) -> None:
            registry.rulesets.append((Path(path), _owner))

        try:
            impl.function(register_ruleset)
        except Exception as exc:
            raise PluginError(
                f"plugin {owner} failed in register_rulesets: {type(exc).__name__}: {exc}"
            ) from exc
    _register_bots(pm, registry)
    return registry


def _register_bots(pm: pluggy.PluginManager, registry: Registry) -> None:
    for impl in pm.hook.register_bots.get_hookimpls():
        owner = _plugin_name(pm, impl.plugin)

        def register(bot_cls: type[Bot], _owner: str = owner) -> None:
            name = getattr(bot_cls, "name", None)
            if not (isinstance(bot_cls, type) and isinstance(name, str) and name):
                raise PluginError(f"plugin {_owner} registered {bot_cls!r}, not a bot class")
            if not callable(getattr(bot_cls, "choose", None)):
                raise PluginError(f"plugin {_owner} registered bot '{name}' without choose()")
            if name in registry.bots:
                raise PluginError(
                    f"bot '{name}' is registered twice: by {registry.bot_owner[name]} "
                    f"and by {_owner}"
                )
            registry.bots[name] = bot_cls
            registry.bot_owner[name] = _owner

        try:
            impl.function(register)
        except PluginError:
            raise
        except Exception as exc:
            raise PluginError(
                f"plugin {owner} failed in register_bots: {type(exc).__name__}: {exc}"
            ) from exc


_manager: pluggy.PluginManager | None = None
_registry: Registry | None = None


def get_manager() -> pluggy.PluginManager:
    """The process-wide manager, created on first use."""
    global _manager
    if _manager is None:
        _manager = new_manager()
    return _manager


def get_registry() -> Registry:
    """The process-wide registry, built on first use."""
    global _registry
    if _registry is None:
        _registry = build_registry(get_manager())
    return _registry


def reset(manager: pluggy.PluginManager | None = None) -> None:
    """Forget the process-wide manager (or install ``manager``); for tests."""
    global _manager, _registry
    _manager = manager
    _registry = None
