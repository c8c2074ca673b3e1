"""A rule silenced inside a site file (`lint: {ignore: [...]}`), as ruff's per-file-ignores.

The fleet: the reference case's single-trunk pair imported with its port-mode xconnect kept, so
both sites' rendered configs have L2T001 (xconnect on the main interface).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.lint.sites import lint_sites_counted
from l2tpgen.model import load_fleet

if TYPE_CHECKING:
    from collections.abc import Sequence

SINGLE_TRUNK = Path(__file__).parent / "importer" / "single-trunk"
runner = CliRunner()


def _sites(tmp_path: Path, ignore: Sequence[str] = ()) -> Path:
    sites = tmp_path / "sites"
    configs = map(str, sorted(SINGLE_TRUNK.glob("*.cfg")))
    result = runner.invoke(app, ["import", *configs, "-o", str(sites)])
    assert result.exit_code == 0, result.stderr
    if ignore:
        path = sites / "lab-a-rtr1.yaml"
        text = path.read_text()
        path.write_text(
            text.replace("\npeers:", f"\nlint: {{ignore: [{', '.join(ignore)}]}}\npeers:")
        )
    return sites


def _l2t001(sites: Path) -> tuple[list[str], int]:
    counted = lint_sites_counted(load_fleet(sites), in_site_files=True)
    return sorted(Path(f.file).name for f in counted.findings if f.code == "L2T001"), (
        counted.silenced
    )


@pytest.mark.parametrize("given", ["L2T001", "l2t001", "single-trunk-xconnect", "L2T00"])
def test_a_rule_ignored_in_a_site_file_is_silenced_there_only_and_counted(
    tmp_path: Path, given: str
) -> None:
    assert _l2t001(_sites(tmp_path / "before")) == (["lab-a-rtr1.yaml", "lab-b-rtr1.yaml"], 0)
    files, silenced = _l2t001(_sites(tmp_path / "after", [given]))
    assert files == ["lab-b-rtr1.yaml"]
    assert silenced >= 1


def test_lint_says_how_many_findings_the_site_files_silenced(tmp_path: Path) -> None:
    result = runner.invoke(app, ["lint", "--sites", str(_sites(tmp_path, ["L2T001"]))])
    assert "1 silenced (lint.ignore in site files)" in result.stderr
    assert "lab-a-rtr1.yaml:13:1: L2T001" not in result.stdout
    assert "lab-b-rtr1.yaml:13:1: L2T001" in result.stdout


def test_an_ignored_code_that_is_no_rule_is_an_error_at_its_line(tmp_path: Path) -> None:
    sites = _sites(tmp_path, ["L2T001", "L2T999"])
    validated = runner.invoke(app, ["validate", "--sites", str(sites)])
    assert validated.exit_code == 1
    assert "lab-a-rtr1.yaml:21:25: error: lint.ignore: L2T999 matches no rule code or name" in (
        validated.stdout + validated.stderr
    )
    linted = runner.invoke(app, ["lint", "--sites", str(sites)])
    assert "lab-a-rtr1.yaml:21:25: L2T000 error lint.ignore: L2T999 matches no rule" in (
        linted.stdout
    )
    assert linted.exit_code == 1
