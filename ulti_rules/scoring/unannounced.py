"""A bid 100 whose marriage was never announced, where the ruleset voids it.

``marriages.in_hundred_game.unannounced: parti``: a declarer who bid a 40-100 or a
20-100 and never announced its marriage has played no 100 at all; the hand is settled
as the Parti that the 100 replaced: judged as a Parti, worth the catalogue's Parti
(red doubled), at the kontra level called on the 100 (the kontra was said on the
component it stands in for). The other choices need nothing here: 'required' and
'lost' are the hundred kind's own judgement (``contracts/builtin.py``).

The settled Parti comes from the catalogue even though the bid never lists it: a bid's
``components`` say what was bid, and the catalogue says what each component is worth,
so a component settled in place of another needs no ladder entry of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..contracts.builtin import bid_marriage_announced
from ..facts import Facts
from ..plugins import BUILTIN, Registry
from ..ruleset.ladder import UNANNOUNCED, check_unannounced_hundred, parti_contract
from ..ruleset.loading import registry_of
from ..ruleset.schema import Ruleset
from .judging import Component, JudgingError, kind_named

SETTING = UNANNOUNCED


def in_place(
    ruleset: Ruleset, comps: Sequence[Component], facts: Facts, registry: Registry
) -> list[tuple[Component, Component | None]]:
    """Each component to settle, with the void component it stands in for (None: itself)."""
    if ruleset.marriages.in_hundred_game.unannounced != "parti":
        return [(comp, None) for comp in comps]
    settled: list[tuple[Component, Component | None]] = []
    for comp in comps:
        if bid_marriage_announced(comp.spec, facts):
            settled.append((comp, None))
        else:
            settled.append((parti(ruleset, registry), comp))
    return settled


def parti(ruleset: Ruleset, registry: Registry) -> Component:
    """The catalogue's Parti (its first entry of a Parti kind: ``parti_contract``).
    ``ulti check`` refuses a ruleset without one (``check_unannounced_hundred``); one
    built past the loader gets a JudgingError."""
    cid = parti_contract(ruleset, registry)
    if cid is None:
        raise JudgingError(
            f"{SETTING}: parti settles a Parti in place of a 100 whose marriage was never "
            f"announced, but '{ruleset.name}' has no contract of a Parti kind"
        )
    spec = ruleset.contracts[cid]
    kind = kind_named(registry, spec.kind, f"component '{cid}'")
    return Component(cid, spec, kind, registry.kind_owner.get(spec.kind, BUILTIN))


def problems(ruleset: Ruleset, registry: Registry | None = None) -> list[tuple[str, str]]:
    """(setting, message) for a ruleset that asks for a Parti it does not have: the
    loader's own check (``ruleset/ladder.py``), for a ruleset built without the loader."""
    found = check_unannounced_hundred(ruleset, registry_of(ruleset, registry))
    return [(issue.path, issue.message) for issue in found]
