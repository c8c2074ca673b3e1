"""Ctrl-C exits 130 with no Python traceback, also in the first second (issue 36 item 3).

A real SIGINT, sent by the process to itself at a chosen moment: an import hook sends it when a
heavy module (typer, rich, pydantic) is first imported, so the test knows where it lands without
timing anything. The process then runs what the console script runs (its entry point, read from
pyproject.toml), or ``python -m l2tpgen``.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

# Sends SIGINT to this process when MODULE is first imported (find_spec runs before it loads).
# A shell starts a background job (`cmd &`, as a CI script may run the suite) with SIGINT
# ignored, and Python then installs no handler: the hook puts Python's own back first, as a
# terminal's foreground process has it.
_HOOK = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, Interrupt())
sys.argv = ["l2tpgen", *{args!r}]
"""
_MODULE_NAME, _FUNCTION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
    "project"
]["scripts"]["l2tpgen"].split(":")
_SCRIPT = f"from {_MODULE_NAME} import {_FUNCTION}\n{_FUNCTION}()\n"
_MODULE = "import runpy\nrunpy.run_module('l2tpgen', run_name='__main__')\n"


def _interrupted(
    module: str, args: list[str], entry: str = _SCRIPT
) -> subprocess.CompletedProcess[str]:
    code = _HOOK.format(module=module, args=args) + entry
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )


# A command's module loads when the command is invoked (or its own help asked: cli/groups.py).
@pytest.mark.parametrize(
    ("module", "args"),
    [("typer", ["--help"]), ("rich.console", ["--help"]), ("l2tpgen.cli.push", ["push", "--help"])],
)
def test_ctrl_c_while_the_modules_load_exits_130_quietly(module: str, args: list[str]) -> None:
    done = _interrupted(module, args)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    assert "KeyboardInterrupt" not in done.stderr
    assert done.stdout == ""  # stopped before the help was printed


def test_ctrl_c_under_python_dash_m_exits_130_quietly() -> None:
    done = _interrupted("typer", ["--version"], _MODULE)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr


def test_ctrl_c_while_a_command_runs_exits_130_quietly() -> None:
    # validate imports the model (pydantic) when it runs, inside app()
    done = _interrupted("pydantic", ["validate", "--sites", "sites"])
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    assert "Aborted" not in done.stderr
