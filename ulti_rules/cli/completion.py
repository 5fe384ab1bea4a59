"""Shell completion of ruleset names: what a ``NAME|PATH`` argument can be.

click completes commands and options itself (``_ULTI_COMPLETE=bash_source ulti``,
docs/cli.md "Shell completion"); a ruleset argument adds ``complete_ruleset``, which
offers the names `ulti rulesets` lists (user folders, plugins, bundled) and lets the
shell complete file names too. It reads the folders through ``ruleset/finding.py``,
which imports no pydantic, so a press of Tab stays quick.
"""

from __future__ import annotations

import click
from click.shell_completion import CompletionItem

__all__ = ["complete_ruleset", "ruleset_names"]


def ruleset_names() -> list[str]:
    """Every ruleset name that can be used, as `ulti rulesets` lists them (no fragments)."""
    from ..plugins import get_registry
    from ..ruleset.finding import find_rulesets

    return [source.name for source in find_rulesets(get_registry())]


def _written_as_path(incomplete: str) -> bool:
    """A path, not a name: what a reference in a file would take for one (``is_path``),
    or still being typed as one (it starts like a path: ``.``, ``~``)."""
    from ..ruleset.references import is_path

    return incomplete.startswith((".", "~")) or is_path(incomplete)


def complete_ruleset(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The ruleset names starting with ``incomplete``, and file names (the shell's own).

    The file item comes first: bash's script clears its list on it and then adds the
    names, falling back to files only when no name matches; zsh and fish offer both.
    A folder that cannot be read, or a plugin that fails, only means fewer names: a
    completion never prints an error into the command line being typed.
    """
    files = CompletionItem(incomplete, type="file")
    if _written_as_path(incomplete):
        return [files]
    try:
        names = ruleset_names()
    except Exception:  # Tab must never print a traceback
        names = []
    return [files, *(CompletionItem(name) for name in names if name.startswith(incomplete))]
