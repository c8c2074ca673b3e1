"""What README.md promises about the command line and the package, as a user meets it (issue 34).

- "Every command has `--help`": every command and group the installed ``l2tpgen`` lists (walked
  as ``l2tpgen --help`` lists them, hidden hooks included) answers ``--help`` with its usage and
  exit 0, not only the handful a test happens to name.
- "`tests/vendor/vyos-1x/` ... used by the tests only, not part of the installed package": the
  wheel holds the ``l2tpgen`` package alone (pyproject's hatch wheel target), and no module of
  ``l2tpgen/`` reads a file under ``tests/``.
"""

from __future__ import annotations

import ast
import sys
from typing import Any

import pytest
import typer
from conftest import ROOT
from typer.testing import CliRunner

from l2tpgen.cli import app

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

runner = CliRunner()


def _every_command() -> list[list[str]]:
    """Each command and group of ``l2tpgen``, as the words a user types before ``--help``."""
    found: list[list[str]] = []

    def walk(command: Any, path: list[str]) -> None:  # noqa: ANN401 - click's command types
        found.append(path)
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return found


COMMANDS = _every_command()


def test_the_walk_reaches_the_commands_of_every_family() -> None:
    typed = {" ".join(c) for c in COMMANDS}
    for command in ("secrets", "hosts", "confirm", "rollback", "netbox pull", "lab exec"):
        assert command in typed
    assert len(COMMANDS) > 30


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "l2tpgen")
def test_every_command_and_group_answers_help_with_its_usage(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert result.stdout.lstrip().startswith("Usage: "), result.stdout[:200]
    assert " ".join(["l2tpgen", *command]) in result.stdout.splitlines()[1]


def test_the_vendored_vyos_files_are_left_out_of_the_wheel_and_read_by_tests_only() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wheel = project["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["packages"] == ["l2tpgen"]
    assert not {"force-include", "include", "shared-data", "artifacts"} & set(wheel)
    assert (ROOT / "tests" / "vendor" / "vyos-1x" / "SOURCE.md").is_file()
    readers = []
    for path in sorted((ROOT / "l2tpgen").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        readers += [
            f"{path.relative_to(ROOT)}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and ("tests/vendor" in node.value or "vyos-1x/" in node.value)
        ]
    assert readers == []
