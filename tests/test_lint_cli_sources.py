"""Where `l2tpgen lint` takes its rules and its sites from: a bad code in pyproject.toml is named
with its file, and a site given as a path is linted in its own directory (l2tpgen/cli/lint.py).
"""

from __future__ import annotations

import json
import shutil
from typing import TYPE_CHECKING

from conftest import SITES, TESTS
from typer.testing import CliRunner

from l2tpgen.cli import app

if TYPE_CHECKING:
    from pathlib import Path

    import pytest

runner = CliRunner()
BEFORE = str(TESTS / "lint" / "reference" / "before.conf")


def test_an_unknown_code_from_pyproject_is_a_usage_error_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.l2tpgen.lint]\nselect = ["L2T999"]\n')
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["lint", "--config", BEFORE])
    assert result.exit_code == 2
    unwrapped = "".join(result.output.replace("│", "").split())  # rich wraps the long path
    assert f"(from{pyproject})" in unwrapped


def test_an_unknown_code_on_the_command_line_names_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.l2tpgen.lint]\nselect = ["L2T0"]\n')
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["lint", "--config", BEFORE, "--select", "L2T999"])
    assert result.exit_code == 2
    assert "(from " not in result.output


def test_a_site_given_as_a_path_is_linted_in_its_own_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(SITES, elsewhere)
    monkeypatch.chdir(tmp_path)  # no ./sites here
    result = runner.invoke(app, ["lint", str(elsewhere / "site-b.yaml"), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert {f["file"] for f in json.loads(result.stdout)} == {str(elsewhere / "site-b.yaml")}
