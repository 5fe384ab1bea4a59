"""The pluggy hook specifications of ulti_rules, one documented function each.

Built-in kinds and rulesets register through these very hooks, so a plugin is
never second-class. Implement them with ``ulti_rules.hookimpl`` and expose the
module under the ``ulti_rules`` entry-point group.

The file hooks (rulesets, fragments) are called when the plugin manager is first
used; the code hooks (kinds, bots, ranking rules) only when a kind, bot or ranking rule
is first needed, so that listing rulesets imports no plugin class: keep a plugin's
entry module light and import its classes inside the hook (docs/plugins.md).
This module imports nothing of ulti_rules at run time.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from .bots import Bot
    from .contracts.base import ContractKind

PROJECT = "ulti_rules"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def register_contract_kinds(register: Callable[[type[ContractKind]], None]) -> None:
    """Called once, the first time a contract kind, bot or ranking rule is needed.

    Call ``register(KindClass)`` for each contract kind the plugin provides. A kind
    name another plugin registered first, or a class that is not a usable kind,
    leaves this plugin out (a warning names it); an exception raised here does too.
    """


@hookspec
def register_rulesets(register: Callable[[Path], None]) -> None:
    """Called once, when the plugin manager is first used (before any ruleset is looked up).

    Call ``register(path)`` with the path of each YAML ruleset file the plugin
    ships; its file stem (``club.yaml`` -> ``club``) is the name it is found by. A
    path that is not an existing ``.yaml`` file leaves the plugin out.
    """


@hookspec
def register_fragments(register: Callable[[Path], None]) -> None:
    """Called when rulesets are looked up by name, with ``register_rulesets``.

    Call ``register(path)`` with the path of each rule fragment the plugin ships: a
    YAML file whose ``fragment:`` key describes it, holding part of a ruleset (a
    contract, its bids, its silent bonus) that a ruleset adds with ``with: [name]``
    or ``extends: [base, name]``. It is found by its file stem, like a ruleset. A path
    that is not an existing ``.yaml`` file leaves the plugin out.
    """


@hookspec
def register_bots(register: Callable[[type[Bot]], None]) -> None:
    """Called once, with ``register_contract_kinds``.

    Call ``register(BotClass)`` for each computer player the plugin provides: a class
    with a ``name`` (how ``ulti simulate --bot NAME`` finds it), a one-line
    ``description``, and ``choose(hand, rng) -> Action`` (see ``ulti_rules.bots``);
    ``BotClass()`` builds one. A bot name another plugin registered first leaves
    this plugin out, with a warning naming both; a bot named like a built-in one is
    left out (``ulti_rules.bots.registry``).
    """


@hookspec
def register_ranking_rules(register: Callable[..., None]) -> None:
    """Called once, with ``register_contract_kinds``.

    Call ``register(name, description, rank)`` for each ranking rule the plugin
    provides: the name a ruleset's ``ranking:`` picks it by, a one-line description,
    and ``rank(bids) -> ranks``, which gets the ladder's bids in order (each with
    ``id``, ``components``, ``values`` per component with red doubled, ``total``,
    ``red``, ``listed``; see ``ulti_rules.ruleset.ranking.RankedBid``) and returns one
    whole number per bid: higher overcalls lower, equal numbers exclude each other
    (they are renumbered 1..k, so only their order counts). A rule name another
    plugin registered first leaves this plugin out, with a warning naming both; a
    ``rank`` that raises or returns something else is reported, naming the plugin,
    when a ruleset uses it. (The built-in table rule passes ``reads_ranks=True``: it
    takes the ranks the ladder lists instead of deriving them.)
    """
