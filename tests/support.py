"""Shared test support that builds no site: a router stand-in and a plan sent to the simulator,
the GitHub Action's lint step run as the runner would, and a module's imports read from source.

Site files and fleets are built in ``builders.py``; like it, this module holds no tests, so test
modules share through it instead of importing each other (``tests/test_test_imports.py``).
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import yaml
from conftest import ROOT

if TYPE_CHECKING:
    from collections.abc import Iterable

    from l2tpgen.sim import Router


# --- the simulator ----------------------------------------------------------------------------


def send_plan(router: Router, lines: Iterable[str]) -> list[tuple[str, str]]:
    """Send ``lines`` to a simulated router as push does (``configure terminal``, one line at a
    time, ``end``): the lines it refused (a line of its answer starts with ``%``, as IOS's
    ``% Invalid input`` does under its caret line), each with the answer."""
    refused = []
    router.handle("configure terminal")
    for line in lines:
        answer = router.handle(line.strip())
        if any(said.startswith("%") for said in answer.splitlines()):
            refused.append((line, answer))
    router.handle("end")
    return refused


# --- reading source -----------------------------------------------------------------------------


def module_imports(path: Path, package: str = "") -> list[tuple[int, str]]:
    """(line, module) for every import in the module at ``path``, wherever it stands (inside a
    function, under ``TYPE_CHECKING``): each module named, each name imported from one (``from a
    import b`` gives ``a`` and ``a.b``), and each ``importlib.import_module``/``__import__`` call
    with a literal name. Relative imports are resolved against ``package`` when given."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level and package:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            found += [(node.lineno, f"{module}.{alias.name}".lstrip(".")) for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and (
                (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                or (isinstance(node.func, ast.Name) and node.func.id == "__import__")
            )
        ):
            found.append((node.lineno, node.args[0].value))
    return found


# --- stand-ins ---------------------------------------------------------------------------------


class ShowRouter:
    """A connection stand-in answering each show command as IOS does on the channel: the command
    echoed, its output (``answers``, or IOS's refusal of an unknown command), then the prompt.
    ``written`` keeps each write, ``asked`` each command."""

    base_prompt = "lab-a-rtr1"

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers
        self.pending = ""
        self.written: list[str] = []
        self.asked: list[str] = []

    def write_channel(self, text: str) -> None:
        self.written.append(text)
        for command in text.splitlines():
            self.asked.append(command)
            answer = self.answers.get(command, "% Invalid input detected at '^' marker.")
            self.pending += f"{command}\n{answer}\n{self.base_prompt}#"

    def read_channel(self) -> str:
        text, self.pending = self.pending, ""
        return text


# The header of `show xconnect all` (the layout of the captures in tests/realworld/show).
XCONNECT_HEADER = (
    "Legend: XC ST=Xconnect State, S1=Segment1 State, S2=Segment2 State\n"
    "UP=Up, DN=Down, AD=Admin Down, IA=Inactive, NH=No Hardware\n"
    "XC ST  Segment 1                         S1 Segment 2                         S2\n"
    "------+---------------------------------+--+---------------------------------+--\n"
)


# --- the GitHub Action -------------------------------------------------------------------------

ACTION = yaml.safe_load((ROOT / "action.yml").read_text())


def action_step(step: str) -> dict[str, object]:
    """The step of action.yml with this ``id``."""
    found: dict[str, object] = next(s for s in ACTION["runs"]["steps"] if s.get("id") == step)
    return found


def run_action_step(tmp_path: Path, step: str, env: dict[str, str]) -> None:
    """The Action's step ``step`` run by bash in ``tmp_path`` as the runner would run it, with
    this interpreter's l2tpgen first on PATH and ``env`` (the step's inputs) added; it must pass."""
    result = subprocess.run(
        ["/bin/bash", "-e", "-c", str(action_step(step)["run"])],
        cwd=tmp_path,
        env={
            **os.environ,
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            **env,
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def run_action_lint(tmp_path: Path, sites: str, configs: str) -> tuple[dict[str, str], int]:
    """The Action's lint step run in ``tmp_path`` as the runner would run it (without the
    upload): the outputs it wrote to GITHUB_OUTPUT and how many SARIF files it left."""
    output = tmp_path / "github_output"
    output.write_text("")
    env = {"SITES": sites, "CONFIGS": configs, "FAIL_ON": "warning", "GITHUB_OUTPUT": str(output)}
    run_action_step(tmp_path, "lint", env)
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines())
    return outputs, len(list((tmp_path / "l2tpgen-sarif").glob("*.sarif")))


# What a copy of the checkout holds: what the rule scaffold and the field recipe edit, and the
# tests run there (tests/test_new_rule_scaffold.py, tests/test_new_field_recipe.py).
COPIED = (
    "l2tpgen",
    "scripts",
    "docs",
    "sites",
    "examples",
    "schema",
    "README.md",
    "pyproject.toml",
)


def checkout_copy(tmp_path: Path) -> Path:
    """The package, scripts, docs, example sites and the tests, copied under ``tmp_path``."""

    caches = shutil.ignore_patterns("__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache")
    copy = tmp_path / "checkout"
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=caches)
        else:
            shutil.copy2(source, copy / name)
    shutil.copytree(ROOT / "tests", copy / "tests", ignore=caches)
    return copy


def run_in_copy(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in the copy, its l2tpgen first on the path."""
    env = {**os.environ, "PYTHONPATH": str(copy)}
    return subprocess.run(
        [sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, check=False
    )
