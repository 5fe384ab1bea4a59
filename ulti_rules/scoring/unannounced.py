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

from ..contracts.builtin import bid_marriage_announced
from ..facts import Facts
from ..plugins import BUILTIN, Registry
from ..ruleset.ladder import PARTI_KIND
from ..ruleset.schema import Ruleset
from .judging import Component, JudgingError, kind_named

SETTING = "marriages.in_hundred_game.unannounced"


def in_place(
    ruleset: Ruleset, comps: list[Component], facts: Facts, registry: Registry
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
    """The catalogue's Parti (the first entry of kind parti)."""
    for cid, spec in ruleset.contracts.items():
        if spec.kind == PARTI_KIND:
            kind = kind_named(registry, spec.kind, f"component '{cid}'")
            return Component(cid, spec, kind, registry.kind_owner.get(spec.kind, BUILTIN))
    raise JudgingError(
        f"{SETTING}: parti settles a Parti in place of a 100 whose marriage was never "
        f"announced, but '{ruleset.name}' has no contract of kind parti"
    )


def problems(ruleset: Ruleset) -> list[tuple[str, str]]:
    """(setting, message) for a ruleset that asks for a Parti it does not have."""
    if ruleset.marriages.in_hundred_game.unannounced != "parti":
        return []
    if any(spec.kind == PARTI_KIND for spec in ruleset.contracts.values()):
        return []
    return [
        (
            SETTING,
            "'parti' settles the Parti in place of a 100 whose marriage was never announced, "
            "but the contracts hold no entry of kind parti: add one, or choose 'lost'",
        )
    ]
