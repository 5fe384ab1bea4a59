"""`ulti rulesets`, `show`, `check`, `ladder`, `schema`: looking at rules as data.

These commands only read: they list, print and validate ruleset files so that a
club organiser can write one and see what the framework makes of it.

Each command imports what it needs when it runs (the loader and its pydantic models,
rich, yaml): `ulti rulesets` and `ulti show` (as written) find files through
``ruleset/finding.py``, which imports no pydantic, and the other commands do not pay
for what they do not use.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import Problem, problem_count
from .common import EXIT_USER_ERROR, describe_os_error, echo_json, note, stdout_console
from .completion import complete_ruleset
from .language import command_lang, lang_option
from .terminal import echo

if TYPE_CHECKING:
    from .speech import Speech

NAME_OR_PATH = "NAME|PATH"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@click.command("rulesets")
def rulesets_command() -> None:
    """List every ruleset that can be used by name.

    A name is looked up in the user folders ($ULTI_RULES_PATH, then
    $XDG_CONFIG_HOME/ulti-rules/rulesets), then in plugins, then among the
    bundled rulesets; the first file of a name wins. A file that hides another
    of the same name is noted on stderr. Rule fragments (parts of a ruleset that
    a ruleset adds with `with: [NAME]`) are listed after the table.
    """
    from rich.table import Table
    from rich.text import Text

    from ..plugins import get_registry
    from ..ruleset.finding import find_fragments, find_rulesets  # no pydantic model

    sources = find_rulesets(get_registry())
    fragments = find_fragments(get_registry())
    for source in [*sources, *fragments]:
        if source.shadows is not None:
            note(
                f"{source.path} shadows {source.shadows}: "
                f"the name '{source.name}' means the {source.origin} file"
            )
    table = Table(title="Rulesets")
    table.add_column("Name", no_wrap=True)
    table.add_column("Title")
    table.add_column("Origin", no_wrap=True)
    table.add_column("Path", overflow="fold")
    for source in sources:
        origin = source.origin if source.plugin is None else f"{source.origin} ({source.plugin})"
        table.add_row(Text(source.name), Text(source.title), Text(origin), Text(str(source.path)))
    stdout_console().print(table)
    if fragments:
        echo("Fragments, added to a ruleset with `with: [NAME]` (not playable alone):")
        for source in fragments:
            origin = source.origin if source.plugin is None else f"{source.origin} {source.plugin}"
            echo(f"  {source.name} — {source.title} ({origin}: {source.path})")


@click.command("show")
@click.argument("ruleset", metavar=NAME_OR_PATH, shell_complete=complete_ruleset)
@click.option(
    "--resolved",
    is_flag=True,
    help="Print the ruleset after merging everything it extends, instead of the file as written.",
)
def show_command(ruleset: str, resolved: bool) -> None:
    """Print a ruleset as YAML.

    NAME is a ruleset name (see `ulti rulesets`); PATH is a YAML file (anything
    containing a '/' or ending in '.yaml').
    """
    if resolved:
        import yaml

        from ..ruleset.loading import load_resolved

        merged = load_resolved(ruleset)
        dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's: far faster
        text = yaml.dump(merged, Dumper=dumper, sort_keys=False, allow_unicode=True)
    else:
        from ..errors import RulesetError
        from ..ruleset.finding import resolve  # the file as written: no model needed
        from ..ruleset.safe_yaml import YamlError, read_text, yaml_problems

        path = resolve(ruleset).path
        try:
            text = read_text(path)  # within the bounds every reader keeps (docs/security.md)
        except YamlError as exc:
            raise RulesetError(yaml_problems(exc, str(path))) from None
    echo(text, nl=not text.endswith("\n"))


def _file_or_name(arg: str) -> Path | str:
    """A file that exists, or anything written as a path, is a path; else a ruleset name.

    So `ulti check club` checks the club's file in the user folders, as `ulti ladder
    club` shows its ladder, instead of looking for a file called 'club' here (nor in a
    folder called 'club' here, where a club keeps its files).
    """
    from ..ruleset.references import is_path

    return Path(arg) if is_path(arg) or Path(arg).is_file() else arg


@click.command("check")
@click.argument("paths", metavar="PATH...", nargs=-1, required=True)
def check_command(paths: tuple[str, ...]) -> None:
    """Validate club ruleset files and print every problem.

    Each problem is one line on stdout, `file:line:col: key.path: message`,
    followed by a summary line. Exit status 1 if any file has a problem. A
    ruleset name (see `ulti rulesets`) checks the file that name stands for.
    A file without problems has a note (on stderr) for each bid, contract or
    silent bonus it removes (null, or a key left without a value), and for each
    setting it writes that changes nothing under its rules. A fragment is
    checked for unknown keys and wrong values, merged onto wikipedia.
    """
    ok = 0
    bad = 0
    total = 0
    for path in paths:
        try:
            problems, notes = _check_one(_file_or_name(path))
        except OSError as exc:
            problems, notes = [Problem(str(path), None, None, "", describe_os_error(exc))], []
        for problem in problems:
            echo(str(problem))
        for told in notes:  # no problem: said on stderr, as every note
            note(told.shown())
        total += problem_count(problems)
        if problems:
            bad += 1
        else:
            ok += 1
    summary = f"{_plural(len(paths), 'file')} checked: {ok} ok"
    if bad:
        summary += f", {bad} with {_plural(total, 'problem')}"
    echo(summary)
    if bad:
        raise click.exceptions.Exit(EXIT_USER_ERROR)


def _check_one(target: Path | str) -> tuple[list[Problem], list[Problem]]:
    """A file's problems, and the notes for a file without any: what a ruleset removes
    and the settings that change nothing in it, in the file's order; what a fragment's
    check covered."""
    from ..errors import RulesetError
    from ..ruleset.loading import OwnSettings, check_fragment

    fragment = check_fragment(target)
    if fragment is not None:
        problems, covered = fragment
        return problems, [] if problems else [covered]
    try:
        own = OwnSettings(target)  # as check_file checks it
    except RulesetError as exc:
        return list(exc.problems), []
    from ..rulebook.idle import idle_settings  # the rulebook's words: only for a sound file

    notes = [*own.removals(), *idle_settings(own)]
    return [], sorted(notes, key=lambda n: (n.line or 0, n.column or 0))


def _ladder_caption(bids: int, ranks: int, say: Speech) -> str:
    """``54 bids in 42 ranks``."""
    return say._(
        "{bids} in {ranks}",
        bids=say.ngettext("{n} bid", "{n} bids", bids),
        ranks=say.ngettext("{n} rank", "{n} ranks", ranks),
    )


def _silent_text(silent: dict[str, int], names: dict[str, str]) -> str:
    return ", ".join(f"{names.get(key, key)}: {value}" for key, value in silent.items())


@click.command("ladder")
@click.argument("ruleset", metavar=NAME_OR_PATH, shell_complete=complete_ruleset)
@lang_option("Language of the bid names and the table.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the ladder as a JSON list, one object per bid, for other programs.",
)
def ladder_command(ruleset: str, lang: str | None, as_json: bool) -> None:
    """Show the bid ladder of a ruleset, lowest bid first.

    Each row is one bid: its rank (equal ranks cannot overcall each other), its
    value per defender, the component values it adds up from, its name, the
    silent bonuses that can still be scored inside it, and its trump. Values are
    summed from the components and ranks follow the ruleset's ranking rule, which
    the caption names.
    """
    from ..plugins import get_registry
    from ..ruleset.ladder import ladder_rows, ranking_rule
    from ..ruleset.loading import load_ruleset
    from .speech import Speech

    say = Speech(command_lang(lang))
    loaded = load_ruleset(ruleset)
    registry = get_registry()
    rows = ladder_rows(loaded, registry, say.lang)
    if as_json:
        echo_json(rows)
        return
    from rich.table import Table
    from rich.text import Text

    silent_names = {key: say.bonus(loaded, key) for key in loaded.silent_bonuses}
    fixed = say.suit(loaded.trump.fixed) if loaded.trump.fixed else say._("chosen suit")
    labels = {"red": say.suit(loaded.trump.red_suit), "suit": fixed}
    table = Table(title=f"{loaded.title_in(say.lang)} ({loaded.name})")
    table.add_column(say._("Rank"), justify="right", no_wrap=True)
    table.add_column(say._("Value"), justify="right", no_wrap=True)
    table.add_column(say._("Components"), no_wrap=True)
    table.add_column(say._("Bid"))
    table.add_column(say._("Silent bonuses"))
    table.add_column(say._("Trump"))
    for row in rows:
        components = "+".join(str(c["value"]) for c in row["components"])
        trump = labels.get(row["trump"], say._("no trump"))
        table.add_row(
            Text(str(row["rank"])),
            Text(str(row["value"])),
            Text(components),
            Text(str(row["name"])),
            Text(_silent_text(row["silent"], silent_names)),
            Text(str(trump)),
        )
    ranks = len({row["rank"] for row in rows})
    rule = ranking_rule(loaded, registry)
    described = f" — {say._(rule.description)}" if rule is not None else ""  # built-in: N_
    counts = _ladder_caption(len(rows), ranks, say)
    ranking = say._("ranking: {rule}", rule=loaded.ranking)
    caption = f"{counts}\n{ranking}{described}"
    console = stdout_console()
    # piped, nothing is wrapped (docs/cli.md): the title and the caption's lines neither,
    # for grep (a title longer than the table was cut in two)
    if not console.is_terminal:
        table.title = Text(str(table.title), no_wrap=True, overflow="ignore")
        table.caption = Text(caption, no_wrap=True, overflow="ignore")
    else:
        table.caption = caption
    console.print(table)


@click.command("schema")
def schema_command() -> None:
    """Print the JSON Schema of a ruleset file, for editors.

    It covers the contract kinds of every installed plugin. Save it and point
    your editor's YAML support at it, e.g. with a first line
    `# yaml-language-server: $schema=ulti-ruleset.schema.json`.
    """
    from ..plugins import get_registry
    from ..ruleset.schema import ruleset_model

    model = ruleset_model(get_registry().param_models())
    schema: dict[str, Any] = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    schema.update(model.model_json_schema())
    echo_json(schema)
