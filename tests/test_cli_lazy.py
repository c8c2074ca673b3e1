"""Each command is loaded when it runs: ``l2tpgen validate`` builds validate alone (issue 35).

``l2tpgen/cli/groups.py`` names every command of the top level in ``COMMANDS``: its module and
the first line of its help. ``l2tpgen --help`` and shell completion list them from the table, no
command module imported; invoking a command imports its module. These tests run the program in a
child process (a test process has imported command modules already) and compare what the table
shows with what the commands themselves show once every module is loaded.
"""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys

import pytest
import typer
from conftest import ROOT

import l2tpgen.cli
from l2tpgen.cli.app import app
from l2tpgen.cli.groups import COMMANDS, load_all

CLI_MODULES = sorted(f"l2tpgen.cli.{m.name}" for m in pkgutil.iter_modules(l2tpgen.cli.__path__))
COMMAND_MODULES = sorted({entry.module for entry in COMMANDS.values()})

# Runs l2tpgen (argv from the command line) as the console script does, optionally after
# importing every module of l2tpgen/cli first (EAGER=1: every command built, none from the
# table), and prints on stderr, last, the l2tpgen.cli modules loaded.
_RUN = """
import atexit, importlib, json, os, sys
if os.environ.get("EAGER"):
    for module in {modules!r}:
        importlib.import_module(module)
atexit.register(lambda: print(json.dumps(sorted(m for m in sys.modules
                                                if m.startswith("l2tpgen.cli."))), file=sys.stderr))
sys.argv = ["l2tpgen", *sys.argv[1:]]
from l2tpgen.cli import main
main()
"""


def _run(
    *args: str, eager: bool = False, env: dict[str, str] | None = None
) -> tuple[str, list[str]]:
    """What ``l2tpgen ARGS`` printed on stdout, and the l2tpgen.cli modules it loaded."""
    environ = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", **(env or {})}
    environ.pop("EAGER", None)
    if eager:
        environ["EAGER"] = "1"
    code = _RUN.format(modules=CLI_MODULES)
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=environ,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return done.stdout, json.loads(done.stderr.strip().splitlines()[-1])


def _loaded_commands(modules: list[str]) -> set[str]:
    return set(modules) & set(COMMAND_MODULES)


def test_help_lists_every_command_with_its_own_help_and_loads_no_command() -> None:
    listed, loaded = _run("--help")
    assert _loaded_commands(loaded) == set()
    built, _ = _run("--help", eager=True)
    assert listed == built  # the table's names, order and help are the commands' own
    for name, entry in COMMANDS.items():
        assert (f"│ {name} " in listed) is not entry.hidden, name


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_completion_lists_every_command_with_its_help_and_loads_no_command(shell: str) -> None:
    env = {"_L2TPGEN_COMPLETE": f"complete_{shell}", "_TYPER_COMPLETE_ARGS": "l2tpgen "}
    if shell == "fish":
        env["_TYPER_COMPLETE_FISH_ACTION"] = "get-args"
    listed, loaded = _run(env=env)
    assert _loaded_commands(loaded) == set()
    built, _ = _run(env=env, eager=True)
    assert listed == built
    assert "validate" in listed
    assert "Load every site file and check the fleet" in listed  # help cut at 45 characters


@pytest.mark.parametrize(
    ("args", "modules"),
    [
        (["validate", "--sites", "sites"], {"l2tpgen.cli.sites"}),
        (["render", "site-a", "--sites", "sites"], {"l2tpgen.cli.render"}),
        (["rules"], {"l2tpgen.cli.lint"}),
        # --inventory netbox: the routers of NetBox's devices (cli/routers.py)
        (["push", "--help"], {"l2tpgen.cli.push", "l2tpgen.cli.netbox"}),
        (["lab", "--help"], {"l2tpgen.cli.lab_live"}),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else "",
)
def test_a_command_loads_its_own_module_and_no_other_commands(
    args: list[str], modules: set[str]
) -> None:
    printed, loaded = _run(*args)
    assert printed  # it ran
    assert _loaded_commands(loaded) == modules


def test_every_command_the_modules_register_is_in_the_table_with_its_help() -> None:
    load_all()
    for module in CLI_MODULES:
        __import__(module)
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    assert sorted(group.commands) == sorted(COMMANDS)
    for name, command in group.commands.items():
        entry = COMMANDS[name]
        assert (command.help or "").split("\n\n")[0] == entry.help, name
        assert command.hidden is entry.hidden, name
        callback = command.callback
        if not isinstance(command, typer.core.TyperGroup) and callback is not None:
            assert callback.__module__ == entry.module, name


def test_a_misspelt_command_gets_did_you_mean_from_every_command_loaded_or_not() -> None:
    environ = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "l2tpgen", "valdate"],
        env=environ,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 2
    assert "No such command 'valdate'. Did you mean 'validate'?" in done.stderr
