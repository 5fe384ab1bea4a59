"""Shell completion: ruleset names, bundled and the user's, for every ruleset argument.

Run through click's own completion protocol in-process (``_ULTI_COMPLETE`` with
``COMP_WORDS``/``COMP_CWORD``, as the shell scripts call it), so what is tested is what
bash, zsh and fish receive.
"""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.shell_completion import BashComplete
from click.testing import CliRunner
from ulti_rules.cli import completion, main
from ulti_rules.cli.completion import complete_ruleset


def bash_complete(*words: str) -> list[tuple[str, str]]:
    """What `ulti WORDS...<Tab>` answers bash: (type, value) pairs, the last word the
    one being completed."""
    line = " ".join(("ulti", *words))
    env = {
        "_ULTI_COMPLETE": "bash_complete",
        "COMP_WORDS": line,
        "COMP_CWORD": str(len(words)),
    }
    result = CliRunner().invoke(main, [], env=env, prog_name="ulti")
    assert result.exit_code == 0, result.output
    pairs = [line.partition(",") for line in result.stdout.splitlines()]
    return [(kind, value) for kind, _, value in pairs]


def plain(pairs: list[tuple[str, str]]) -> list[str]:
    return [value for kind, value in pairs if kind == "plain"]


def test_bundled_names_complete_from_a_prefix() -> None:
    assert plain(bash_complete("ladder", "w")) == ["wikipedia"]
    assert plain(bash_complete("rulebook", "t")) == ["tournament", "two-round-auction"]


def test_every_bundled_name_for_an_empty_word(bundled_names: tuple[str, ...]) -> None:
    offered = plain(bash_complete("show", ""))
    assert set(bundled_names) <= set(offered)


def test_files_are_offered_too() -> None:
    pairs = bash_complete("ladder", "w")
    assert pairs[0] == ("file", "w")  # first: bash falls back to files when no name matches


@pytest.mark.parametrize("word", ["./ru", "~/clubs/x", "rules/wi", "club.yaml", "CLUB.YML"])
def test_a_path_completes_as_files_only(word: str) -> None:
    """What a file's reference would take for a path (``is_path``), or what starts like
    one while it is still typed."""
    assert bash_complete("ladder", word) == [("file", word)]


@pytest.mark.parametrize(
    ("word", "path"),
    [("club.yaml", True), ("CLUB.YML", True), ("a/b", True), ("~x", True), ("./w", True),
     ("wikipedia", False), ("four-player", False), ("club", False)],
)  # fmt: skip
def test_what_is_written_as_a_path(word: str, path: bool) -> None:
    """What a reference in a file would take for a path (``references.is_path``: a folder
    or a YAML suffix), or what starts like one while it is typed."""
    assert completion._written_as_path(word) is path


def test_a_user_ruleset_in_the_rules_path(sealed_user_folders: Path) -> None:
    (sealed_user_folders / "our-club.yaml").write_text(
        "extends: wikipedia\ntitle: Our club\n", encoding="utf-8"
    )
    assert plain(bash_complete("ladder", "our")) == ["our-club"]
    assert "our-club" in plain(bash_complete("simulate", "--compare", ""))


@pytest.mark.parametrize(
    "words",
    [
        ("show", "wi"),
        ("ladder", "wi"),
        ("rulebook", "wi"),
        ("simulate", "wi"),
        ("simulate", "--compare", "wi"),
        ("play", "--ruleset", "wi"),
        ("replay", "--ruleset", "wi"),
        ("ledger", "new", "club.ledger", "--ruleset", "wi"),
        ("diff", "wi"),
        ("diff", "tournament", "wi"),
    ],
)
def test_each_ruleset_argument_completes(words: tuple[str, ...]) -> None:
    assert plain(bash_complete(*words)) == ["wikipedia"]


def ruleset_params(command: click.Command, path: str) -> list[tuple[str, click.Parameter]]:
    """Every parameter, in every command, that takes a ruleset name or path."""
    found = []
    ctx = click.Context(command)
    for param in command.params:
        words = f"{param.name} {param.metavar or ''}".upper()
        diffed = path == "ulti diff" and isinstance(param, click.Argument)  # A and B
        if "RULESET" in words or "NAME|PATH" in words or diffed:
            found.append((f"{path} {param.name}", param))
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None
            found += ruleset_params(sub, f"{path} {name}")
    return found


def test_no_ruleset_argument_without_completion() -> None:
    """A new command's ruleset argument needs ``shell_complete=complete_ruleset`` too."""
    params = ruleset_params(main, "ulti")
    assert len(params) >= 10
    missing = [
        where for where, param in params if param._custom_shell_complete is not complete_ruleset
    ]
    assert missing == []


@pytest.mark.parametrize(("shell", "marker"), [("bash", "complete -o"), ("zsh", "compdef"),
                                               ("fish", "complete --no-files")])  # fmt: skip
def test_the_documented_scripts(shell: str, marker: str) -> None:
    """`_ULTI_COMPLETE=<shell>_source ulti` (docs/cli.md) prints the shell's script."""
    result = CliRunner().invoke(
        main, [], env={"_ULTI_COMPLETE": f"{shell}_source"}, prog_name="ulti"
    )
    assert result.exit_code == 0
    assert marker in result.stdout
    assert "_ULTI_COMPLETE" in result.stdout


def test_the_completion_api_directly() -> None:
    completions = BashComplete(main, {}, "ulti", "_ULTI_COMPLETE").get_completions(
        ["ladder"], "older"
    )
    assert [item.value for item in completions if item.type == "plain"] == ["older-20-100"]
