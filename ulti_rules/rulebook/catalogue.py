"""The contracts (what each component demands, what it is worth) and the bid ladder."""

from __future__ import annotations

from ..i18n import N_
from ..ruleset.ladder import ladder_rows, ranking_rule
from .document import Align, Block, Items, Paragraph, Section, Table
from .kinds import kind_sentences
from .words import Words, sentence

RULE_SENTENCES: dict[str, str] = {
    "table": N_(
        "The order is the ruleset's own table: each bid's rank is listed, not computed from "
        "its value."
    ),
    "value": N_("Bids rank by their total value alone."),
    "value_then_listed": N_(
        "Bids rank by their total value; at an equal value, a bid listed later ranks higher."
    ),
    "value_then_squares": N_(
        "Bids rank by their total value; at an equal value, fewer and larger components rank "
        "higher (by the sum of the squared component values)."
    ),
    "value_then_squares_then_red": N_(
        "Bids rank by their total value; at an equal value, fewer and larger components rank "
        "higher (by the sum of the squared component values), and then the red form above "
        "the plain one."
    ),
}
"""The built-in ranking rules in words; a plugin's rule is described by its description."""
RIGHT: Align = "right"


def contracts(w: Words) -> Section:
    blocks: list[Block] = [
        w.para(
            w._(
                "Every bid is made of one or more components. Each component is won or lost "
                "on its own: for a component won, each defender pays the declarer its value; "
                "for one lost, the declarer pays each defender."
            )
        )
    ]
    entries: list[Paragraph] = []
    for spec in w.ruleset.contracts.values():
        kind = w.registry.kinds.get(spec.kind)
        parts = [w._("Worth {value}.", value=spec.value)]
        settings = ["contracts.*.kind", "contracts.*.names", "contracts.*.value"]
        for text, states in kind_sentences(w, kind, spec):
            parts.append(text)
            settings.extend(states)
        if kind is not None and not kind.needs_trump(spec):
            parts.append(w._("Played without trumps."))
        if kind is not None and kind.replaces_parti:
            parts.append(w._("A bid holding it has no separate {simple}.", simple=w.simple()))
        if spec.open:
            parts.append(w._("Played open."))
            settings.append("contracts.*.open")
        entries.append(
            Paragraph(" ".join(parts), tuple(dict.fromkeys(settings)), sentence(w.name(spec.names)))
        )
    blocks.append(Items(tuple(entries)))
    return Section("contracts", w._("The contracts"), tuple(blocks))


def ladder(w: Words) -> Section:
    r = w.ruleset
    rows = ladder_rows(r, w.registry, w.lang)
    bonuses = list(r.silent_bonuses.items())
    header = (
        w._("Rank"),
        w._("Value"),
        w._("Components"),
        w._("Bid"),
        *(w.name(bonus.names) for _, bonus in bonuses),
        w._("Trump"),
    )
    fixed = w.suit(r.trump.fixed) if r.trump.fixed else w._("chosen")
    trump = {"red": w.suit(r.trump.red_suit), "suit": fixed, "none": w._("none")}
    body = tuple(
        (
            str(row["rank"]),
            str(row["value"]),
            "+".join(str(c["value"]) for c in row["components"]),
            str(row["name"]),
            *(str(row["silent"].get(bonus_id, "–")) for bonus_id, _ in bonuses),
            trump[row["trump"]],
        )
        for row in rows
    )
    ranks = len({row["rank"] for row in rows})
    caption = w._(
        "{bids} on {ranks}",
        bids=w.ngettext("{n} bid", "{n} bids", len(rows)),
        ranks=w.ngettext("{n} rank", "{n} ranks", ranks),
    )
    table = Table(
        header,
        body,
        ("right", "right", "left", "left", *(RIGHT for _ in bonuses), "left"),
        caption,
        (
            "ladder[].rank",
            "ladder[].value",
            "ladder[].components",
            "ladder[].names",
            "ladder[].red",
            "silent_bonuses.*.applies_to",
        ),
    )
    blocks: list[Block] = [
        w.para(
            w._(
                "The ladder lists every bid that may be made, lowest first. A bid's value is "
                "the sum of its components' values, each doubled in a red bid; the Components "
                "column shows them. The Trump column says whether the declarer chooses the "
                "trump, the red suit is trump, or there is none."
            ),
            "ladder[].components",
            "ladder[].value",
        ),
        w.para(_rule(w), "ranking"),
        w.para(
            w._(
                "A bid overcalls another only from a strictly higher rank; bids of equal rank "
                "exclude each other: whoever says one first keeps it."
            ),
            "ladder[].rank",
        ),
    ]
    if bonuses:
        blocks.append(
            w.para(
                w._(
                    "The columns of the silent bonuses give what each is worth inside the bid; "
                    "“–” means it cannot be made there."
                ),
                "silent_bonuses.*.applies_to",
            )
        )
    blocks.append(table)
    exceptions = [w.name(bid.names) for bid in r.ladder if bid.rank_exception]
    if exceptions and r.ranking == "table":
        blocks.append(
            w.para(
                w._(
                    "Ranked lower than their value would give, on purpose: {bids}.",
                    bids=w.join(exceptions),
                ),
                "ladder[].rank_exception",
            )
        )
    aliases = [
        w._("“{alias}” for {bid}", alias=alias, bid=w.name(bid.names))
        for bid in r.ladder
        for alias in bid.aliases
    ]
    if aliases:
        blocks.append(
            w.para(w._("Also said: {aliases}.", aliases=w.join(aliases)), "ladder[].aliases")
        )
    return Section("ladder", w._("The bid ladder"), tuple(blocks))


def _rule(w: Words) -> str:
    known = RULE_SENTENCES.get(w.ruleset.ranking)
    if known is not None:
        return w._(known)
    rule = ranking_rule(w.ruleset, w.registry)
    if rule is None:
        return w._("The order follows the ranking rule “{name}”.", name=w.ruleset.ranking)
    return w._(
        "The order follows the ranking rule “{name}”: {description}",
        name=w.ruleset.ranking,
        description=rule.description,
    )


def score_keeper(w: Words) -> Section:
    """The ids a score sheet or a hand record uses, for whoever keeps the score."""
    r = w.ruleset

    def listing(pairs: list[tuple[str, str]]) -> str:
        return ", ".join(f"{key} ({name})" for key, name in pairs)

    items = [
        w.para(
            w._("Bids: {ids}.", ids=listing([(bid.id, w.name(bid.names)) for bid in r.ladder])),
            "ladder[].id",
        ),
        w.para(
            w._(
                "Components: {ids}.",
                ids=listing([(cid, w.name(spec.names)) for cid, spec in r.contracts.items()]),
            )
        ),
    ]
    if r.silent_bonuses:
        items.append(
            w.para(
                w._(
                    "Silent bonuses: {ids}.",
                    ids=listing([(key, w.name(b.names)) for key, b in r.silent_bonuses.items()]),
                )
            )
        )
    blocks: tuple[Block, ...] = (
        w.para(
            w._(
                "Score sheets (ulti score), hand records and the session ledger name bids, "
                "components and silent bonuses by their ids:"
            )
        ),
        Items(tuple(items)),
    )
    return Section("ids", w._("For the score keeper"), blocks)
