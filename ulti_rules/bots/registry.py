"""The bots by name: the built-in ones, then what plugins register through ``register_bots``.

The registry lives with the bots, not in the plugin manager: the manager only collects
the hook's answers (checked and contained like any plugin's), so it never imports the
bots, and through them the engine, which needs the manager. The built-ins come first;
a plugin's bot that takes a built-in's name is left out and reported
(:func:`bot_clashes`), as two plugins with one bot name are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import PluginError
from ..plugins import BUILTIN, get_registry, plugin_fault
from ..said import Said
from .club_player import ClubPlayer
from .protocol import Bot
from .random_bot import RandomBot
from .simple_bidder import SimpleBidder

if TYPE_CHECKING:
    from ..plugins import Registry

BUILTIN_BOTS: tuple[type[Bot], ...] = (RandomBot, SimpleBidder, ClubPlayer)


@dataclass(frozen=True)
class BotEntry:
    """One bot a name stands for, and who provides it (``BUILTIN`` or a plugin's name)."""

    bot_cls: type[Bot]
    owner: str


def bots(registry: Registry | None = None) -> dict[str, BotEntry]:
    """Every bot by name: the built-ins, then the plugins' in load order, minus clashes."""
    registry = get_registry() if registry is None else registry
    found = {bot_cls.name: BotEntry(bot_cls, BUILTIN) for bot_cls in BUILTIN_BOTS}
    for name, bot_cls in registry.bots.items():
        found.setdefault(name, BotEntry(bot_cls, registry.bot_owner[name]))
    return found


def bot_clashes(registry: Registry | None = None) -> list[str]:
    """One message per plugin bot left out because a built-in bot has its name."""
    registry = get_registry() if registry is None else registry
    builtin = {bot_cls.name for bot_cls in BUILTIN_BOTS}
    return [
        f"bot '{name}' is registered twice: by {BUILTIN} and by {registry.bot_owner[name]}; "
        "the first is kept"
        for name in registry.bots
        if name in builtin
    ]


def bot(name: str, registry: Registry | None = None) -> Bot:
    """A new bot of that name; PluginError names the known ones if there is none, and the
    plugin whose bot class fails to build."""
    entry = bots(registry).get(name)
    if entry is None:
        known = ", ".join(sorted(bots(registry))) or "none"
        raise PluginError(
            Said("no bot is called '{name}' (the bots: {known})", name=name, known=known)
        )
    if entry.owner == BUILTIN:
        return entry.bot_cls()
    try:
        return entry.bot_cls()
    except (Exception, SystemExit) as exc:
        raise plugin_fault(f"bot '{name}'", entry.owner, exc, "creating it") from exc


def owner_of(player: object, registry: Registry) -> str | None:
    """The plugin (or ``BUILTIN``) whose registered class ``player`` is; None for a bot
    that was never registered under its name (a program's own)."""
    name = getattr(player, "name", None)
    entry = bots(registry).get(name) if isinstance(name, str) else None
    return entry.owner if entry is not None and entry.bot_cls is type(player) else None
