"""Plugin faults are contained: a broken plugin is named, skipped, and never takes the rest down.

The plugins here are real entry points: each test writes a ``*.dist-info`` folder
(with ``entry_points.txt``) and the plugin's module into a temporary folder on
``sys.path``, where ``importlib.metadata`` finds them exactly as it finds an installed
package. The installed Four Aces plugin is found beside them, and must keep working.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from ulti_rules.bots import bot, play_out
from ulti_rules.cli import main
from ulti_rules.engine import Hand
from ulti_rules.errors import PluginError, RulesetError
from ulti_rules.plugins import PluginFailure, Registry, build_registry, new_manager
from ulti_rules.ruleset.loading import load_ruleset
from ulti_rules.scoring.table_facts import settle_sheet

from plugin_site import Site


def registry() -> Registry:
    """A registry from a fresh manager that loads the entry points, as `ulti` does."""
    return build_registry(new_manager(autoload=True))


def invoke(*args: str) -> Result:
    """`ulti ARGS` in-process; an unexpected exception would escape (ULTI_DEBUG) and fail."""
    result = CliRunner().invoke(main, list(args), env={"ULTI_DEBUG": "1"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stderr
    return result


def failure_of(found: Registry, plugin: str) -> PluginFailure:
    (failure,) = [f for f in found.failures if f.plugin == plugin]
    return failure


def assert_the_rest_works(found: Registry) -> None:
    """Four Aces is still there, and the Wikipedia standard (which needs it) still loads."""
    assert found.kind_owner["four_aces"] == "four_aces"
    assert "four_aces" in found.plugins
    assert load_ruleset("wikipedia", found).name == "wikipedia"


# --------------------------------------------------------------------------- loading


def test_a_plugin_that_fails_to_import_is_named_and_skipped(site: Site) -> None:
    site.add("bad", "import no_such_module_for_ulti\n")
    found = registry()
    failure = failure_of(found, "bad")
    assert (failure.dist, failure.phase) == ("bad-plugin 1.0", "load")
    assert failure.message == "ModuleNotFoundError: No module named 'no_such_module_for_ulti'"
    assert str(failure) == (
        "plugin 'bad' (bad-plugin 1.0) failed to load and is skipped: "
        "ModuleNotFoundError: No module named 'no_such_module_for_ulti'"
    )
    assert "bad" not in found.plugins
    assert_the_rest_works(found)


def test_ctrl_c_while_a_plugin_makes_a_class_is_ctrl_c_not_its_fault(site: Site) -> None:
    """Python wraps a Ctrl-C raised while a class is made (a plugin's pydantic model) in
    a RuntimeError: the loader took it for the plugin's fault and went on."""
    site.add(
        "slow",
        "class Interrupting:\n"
        "    def __set_name__(self, owner, name):\n"
        "        raise KeyboardInterrupt\n"
        "class Model:\n"
        "    field = Interrupting()\n",
    )
    with pytest.raises(KeyboardInterrupt):
        registry()


def test_sys_exit_at_import_is_contained(site: Site) -> None:
    site.add("exiter", "import sys\nsys.exit(3)\n")
    found = registry()
    assert failure_of(found, "exiter").message == "SystemExit: 3"
    assert_the_rest_works(found)


def test_a_failure_message_cannot_drive_the_terminal(site: Site) -> None:
    site.add("loud", "raise ImportError('\\x1b[2J' + 'x' * 1000)\n")
    message = failure_of(registry(), "loud").message
    assert message.startswith("ImportError: \\x1b[2Jxxx")
    assert "\x1b" not in message
    assert len(message) < 320


def test_keyboard_interrupt_at_import_still_stops_the_program(site: Site) -> None:
    site.add("impatient", "raise KeyboardInterrupt\n")
    with pytest.raises(KeyboardInterrupt):
        new_manager(autoload=True)


def test_what_a_plugin_prints_at_import_goes_to_stderr(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    site.add(
        "chatty",
        """\
        from ulti_rules import hookimpl
        print("chatty was imported")

        @hookimpl
        def register_bots(register):
            print("chatty registers nothing")
        """,
    )
    found = registry()
    assert "chatty" in found.plugins  # the first read asks the plugins for their code
    out, err = capsys.readouterr()
    assert out == ""
    assert "chatty was imported" in err
    assert "chatty registers nothing" in err
    assert found.failures == []


def test_what_a_plugin_writes_to_file_descriptor_1_goes_to_stderr(
    site: Site, capfd: pytest.CaptureFixture[str]
) -> None:
    """os.write(1, ...) and sys.__stdout__ (as a C extension would) bypass sys.stdout."""
    site.add(
        "low",
        """\
        import os, sys
        os.write(1, b"low wrote to fd 1\\n")
        sys.__stdout__.write("low wrote to __stdout__\\n")
        """,
    )
    found = registry()
    print("after the plugins: stdout is stdout again")
    out, err = capfd.readouterr()
    assert out == "after the plugins: stdout is stdout again\n"
    assert "low wrote to fd 1" in err and "low wrote to __stdout__" in err
    assert "low" in found.plugins


def test_an_unreadable_entry_points_file_is_named_and_the_rest_load(site: Site) -> None:
    site.add("garbled", "", entry_points="[ulti_rules]\nthis line has no equals sign\n")
    found = registry()
    failure = failure_of(found, "garbled-plugin")
    assert failure.phase == "load"
    assert failure.dist == "garbled-plugin 1.0"
    assert_the_rest_works(found)


def test_a_hook_pluggy_refuses_is_a_failed_registration(site: Site) -> None:
    site.add(
        "greedy",
        """\
        from ulti_rules import hookimpl

        @hookimpl
        def register_bots(register, more):
            pass
        """,
    )
    pm = new_manager(autoload=True)
    found = build_registry(pm)
    failure = failure_of(found, "greedy")
    assert failure.phase == "register"
    assert "more" in failure.message
    assert not pm.has_plugin("greedy")  # nothing of it is left in the manager
    assert_the_rest_works(found)


def test_a_misspelt_hook_is_named_and_the_plugin_skipped(site: Site) -> None:
    site.add(
        "typo",
        """\
        from ulti_rules import hookimpl

        @hookimpl
        def register_contract_kind(register):
            pass
        """,
    )
    found = registry()
    failure = failure_of(found, "typo")
    assert failure.phase == "register"
    assert failure.message.startswith("unknown hook register_contract_kind (the hooks: ")
    assert_the_rest_works(found)


# --------------------------------------------------------------------------- registering

SHAKY = """\
from typing import Literal

from ulti_rules import ContractKind, ContractSpec, SilentOutcome, hookimpl


class ShakySpec(ContractSpec):
    kind: Literal["shaky"] = "shaky"


class Shaky(ContractKind):
    \"\"\"A kind under test: judged however the test says.\"\"\"

    name = "shaky"
    params = ShakySpec

    def judge(self, spec, facts, ruleset):
        {judge}

    def judge_silent(self, facts, ruleset, *, either_side):
        {silent}


@hookimpl
def register_contract_kinds(register):
    register(Shaky)
    {after}
"""


def shaky(judge: str = "return True", silent: str = "return None", after: str = "") -> str:
    return SHAKY.format(judge=judge, silent=silent, after=after)


SHAKY_RULESET = """\
name: shaky
title: The Wikipedia standard with Four Aces judged by the shaky kind
extends: wikipedia
contracts:
  four_aces: {kind: shaky}
"""


def test_a_registration_hook_that_raises_drops_the_plugin_and_hints_at_it(
    site: Site, tmp_path: Path
) -> None:
    site.add("shaky", shaky(after="raise RuntimeError('half way')"))
    found = registry()
    failure = failure_of(found, "shaky")
    assert failure.phase == "register_contract_kinds"
    assert failure.message == "RuntimeError: half way"
    assert failure.kinds == ("shaky",)
    assert "shaky" not in found.kinds  # what it registered before failing is dropped too
    assert_the_rest_works(found)
    (tmp_path / "shaky.yaml").write_text(SHAKY_RULESET, "utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(tmp_path / "shaky.yaml", found)
    assert "plugin 'shaky' registers it, but failed and was skipped" in str(caught.value)


def test_a_kind_needed_from_a_plugin_that_failed_to_import_names_it(site: Site) -> None:
    site.add("shaky", "raise ImportError('shaky needs numpy')\n")
    Path("shaky.yaml").write_text(SHAKY_RULESET, "utf-8")
    result = invoke("check", "shaky.yaml")
    assert result.exit_code == 1
    assert result.stderr.count("ulti: warning: plugin 'shaky'") == 1
    assert result.stdout.startswith(  # `ulti check` lists the problems on stdout
        "shaky.yaml:5:15: contracts.four_aces.kind: unknown contract kind 'shaky'; installed "
        "kinds: betli, durchmars, four_aces, hundred, parti, ulti; plugin 'shaky' failed to "
        "load and was skipped (it may provide the kind)\n"
    )


@pytest.mark.parametrize(
    ("registered", "message"),
    [
        ("42", "registered 42, not a ContractKind subclass"),
        ("Unnamed", "registered the contract kind Unnamed without a name"),
        (
            "Untagged",
            "contract kind 'untagged': the field 'kind' of ContractSpec must be "
            "Literal['untagged']",
        ),
    ],
)
def test_registering_something_that_is_not_a_kind_is_named(
    site: Site, registered: str, message: str
) -> None:
    site.add(
        "odd",
        f"""\
        from ulti_rules import ContractKind, ContractSpec, hookimpl

        class Unnamed(ContractKind):
            params = ContractSpec

        class Untagged(ContractKind):
            name = "untagged"
            params = ContractSpec

        @hookimpl
        def register_contract_kinds(register):
            register({registered})
        """,
    )
    found = registry()
    failure = failure_of(found, "odd")
    assert failure.phase == "register_contract_kinds"
    assert failure.message.startswith(message)
    assert_the_rest_works(found)


def test_a_ruleset_that_is_not_there_is_a_failed_registration(site: Site, tmp_path: Path) -> None:
    site.add(
        "ghost",
        f"""\
        from ulti_rules import hookimpl

        @hookimpl
        def register_rulesets(register):
            register({str(tmp_path / "ghost.yaml")!r})
        """,
    )
    found = registry()
    failure = failure_of(found, "ghost")
    assert failure.phase == "register_rulesets"
    ghost = tmp_path / "ghost.yaml"
    assert failure.message == f"registered the ruleset {ghost}, which does not exist"
    assert found.rulesets == []
    assert_the_rest_works(found)


def test_a_kind_name_twice_keeps_the_first_and_names_both(site: Site) -> None:
    site.add(
        "copycat",
        """\
        from typing import Literal
        from ulti_rules import ContractKind, ContractSpec, hookimpl

        class Spec(ContractSpec):
            kind: Literal["four_aces"] = "four_aces"

        class Copy(ContractKind):
            name = "four_aces"
            params = Spec

        @hookimpl
        def register_contract_kinds(register):
            register(Copy)
        """,
    )
    found = registry()
    first = next(name for name in found.plugins if name in ("copycat", "four_aces"))
    (second,) = {"copycat", "four_aces"} - {first}  # the load order is the order on sys.path
    failure = failure_of(found, second)
    assert failure.message == (
        f"contract kind 'four_aces' is registered twice: by {first} and by {second}; "
        "the first is kept"
    )
    assert found.kind_owner["four_aces"] == first
    assert second not in found.plugins


# --------------------------------------------------------------------------- judging

SHEET = """\
ruleset: shaky.yaml
players: [Anna, Ben, Carla]
declarer: Anna
bid: {bid}
trump: acorns
points: {{declarer: 60, defenders: 30}}
tricks: {{Anna: 6, Ben: 2, Carla: 2}}
last_trick: {{winner: Anna, trump_seven: Anna}}
aces: [Anna]
"""


def score_sheet(tmp_path: Path, bid: str = "four_aces", ruleset: str = SHAKY_RULESET) -> Path:
    (tmp_path / "shaky.yaml").write_text(ruleset, "utf-8")
    sheet = tmp_path / "hand.yaml"
    sheet.write_text(SHEET.format(bid=bid), "utf-8")
    return sheet


@pytest.mark.parametrize(
    ("judge", "message"),
    [
        (
            "raise ValueError('no verdict today')",
            "contract kind 'shaky' of plugin 'shaky' failed in judge: ValueError: no verdict today",
        ),
        (
            "return 'maybe'",
            "contract kind 'shaky' of plugin 'shaky' returned 'maybe' from judge, "
            "not True or False",
        ),
    ],
)
def test_a_kind_that_cannot_judge_is_named_in_the_library_and_the_cli(
    site: Site, tmp_path: Path, judge: str, message: str
) -> None:
    site.add("shaky", shaky(judge=judge))
    sheet = score_sheet(tmp_path)
    with pytest.raises(PluginError) as caught:
        settle_sheet(sheet, registry())
    assert str(caught.value) == message
    for args in (["score", str(sheet)], ["score", str(sheet), "--json"]):
        result = invoke(*args)
        assert result.exit_code == 1
        assert result.stdout == ""
        assert result.stderr == f"ulti: error: {message}\n"


def test_a_kind_judging_well_settles(site: Site, tmp_path: Path) -> None:
    site.add("shaky", shaky(judge="return facts.declarer == 0"))
    _, settlement = settle_sheet(score_sheet(tmp_path), registry())
    assert settlement.payments[0] > 0
    assert sum(settlement.payments.values()) == 0


SILENT_SHAKY = SHAKY_RULESET + "silent_bonuses:\n  silent_four_aces: {condition: shaky}\n"


@pytest.mark.parametrize(
    ("silent", "message"),
    [
        (
            "raise KeyError('seat')",
            "contract kind 'shaky' of plugin 'shaky' failed in judge_silent: KeyError: 'seat'",
        ),
        (
            "return 'maybe'",
            "contract kind 'shaky' of plugin 'shaky' returned 'maybe' from judge_silent, "
            "not a SilentOutcome or None",
        ),
        (
            "return SilentOutcome('nobody', True, 0)",
            "contract kind 'shaky' of plugin 'shaky' returned SilentOutcome(side='nobody', "
            "made=True, seat=0) from judge_silent, not a SilentOutcome or None",
        ),
    ],
)
def test_a_silent_judgement_gone_wrong_names_the_plugin(
    site: Site, tmp_path: Path, silent: str, message: str
) -> None:
    site.add("shaky", shaky(silent=silent))
    sheet = score_sheet(tmp_path, bid="ulti", ruleset=SILENT_SHAKY)
    with pytest.raises(PluginError) as caught:
        settle_sheet(sheet, registry())
    assert str(caught.value) == message


# --------------------------------------------------------------------------- bots

CRASHY = """\
from ulti_rules import hookimpl


class Crashy:
    name = "crashy"
    description = "a bot under test"

    def choose(self, hand, rng):
        {choose}


@hookimpl
def register_bots(register):
    register(Crashy)
"""


@pytest.mark.parametrize(
    ("choose", "message"),
    [
        (
            "raise RuntimeError('lost the thread')",
            "bot 'crashy' of plugin 'crashy' failed: RuntimeError: lost the thread",
        ),
        ("return 'maybe'", "bot 'crashy' of plugin 'crashy' chose 'maybe', which the hand refuses"),
        ("import sys; sys.exit(4)", "bot 'crashy' of plugin 'crashy' failed: SystemExit: 4"),
    ],
)
def test_a_bot_that_fails_is_named_in_the_library_and_the_cli(
    site: Site, choose: str, message: str
) -> None:
    site.add("crashy", CRASHY.format(choose=choose))
    found = registry()
    hand = Hand(load_ruleset("wikipedia", found), seed=1, registry=found)
    with pytest.raises(PluginError) as caught:
        play_out(hand, bot("crashy", found), random.Random(1))
    assert str(caught.value).startswith(message)
    result = invoke("simulate", "--bot", "crashy", "--hands", "1", "--json")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"ulti: error: {message}")


def test_a_bot_that_cannot_be_built_is_named(site: Site) -> None:
    site.add(
        "crashy",
        CRASHY.format(choose="pass").replace(
            "    def choose", "    def __init__(self):\n        1 / 0\n\n    def choose"
        ),
    )
    with pytest.raises(PluginError, match=r"^bot 'crashy' of plugin 'crashy' failed in creating "):
        bot("crashy", registry())


# --------------------------------------------------------------------------- the CLI


def test_json_output_stays_clean_and_each_failure_is_warned_once(site: Site) -> None:
    site.add("chatty", "print('chatty was imported')\n")
    site.add("exiter", "import sys\nsys.exit(3)\n")
    site.add("bad", "import no_such_module_for_ulti\n")
    result = invoke("ladder", "wikipedia", "--json")
    assert result.exit_code == 0
    ladder = json.loads(result.stdout)
    assert any(row["id"] == "four_aces" for row in ladder)  # Four Aces still loads
    assert "chatty was imported" in result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("ulti: warning:")]
    assert sorted(warnings) == [
        "ulti: warning: plugin 'bad' (bad-plugin 1.0) failed to load and is skipped: "
        "ModuleNotFoundError: No module named 'no_such_module_for_ulti'",
        "ulti: warning: plugin 'exiter' (exiter-plugin 1.0) failed to load and is skipped: "
        "SystemExit: 3",
    ]
    again = invoke("rulesets")  # the next command (same process) warns again, once
    assert again.exit_code == 0
    assert again.stderr.count("ulti: warning:") == 2


def test_help_and_version_load_no_plugin(site: Site) -> None:
    site.add("bad", "import no_such_module_for_ulti\n")
    for args in (["--help"], ["--version"], ["ladder", "--help"]):
        result = invoke(*args)
        assert result.exit_code == 0
        assert result.stderr == ""


CHATTY_BOT = """\
from ulti_rules import hookimpl
from ulti_rules.bots import SimpleBidder


class Chatty(SimpleBidder):
    name = "chatty"
    description = "a bot under test that prints as it plays"

    def choose(self, hand, rng):
        print("BOT NOISE")
        return super().choose(hand, rng)


@hookimpl
def register_bots(register):
    register(Chatty)
"""


def test_what_a_bot_prints_while_it_plays_stays_off_json_output(site: Site) -> None:
    """A bot's prints made `ulti simulate --json` no JSON at all (found by a fault
    review): they go to stderr, as a plugin's prints at import do."""
    site.add("chatty", CHATTY_BOT)
    result = invoke("simulate", "--bots", "chatty,simple,simple", "--hands", "5", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["hands"] == 5
    assert "BOT NOISE" in result.stderr
