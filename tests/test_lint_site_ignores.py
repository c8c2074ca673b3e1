"""A rule silenced inside a site file (`lint: {ignore: [...]}`), as ruff's per-file-ignores.

The fleet: the reference case's single-trunk pair imported with its port-mode xconnect kept, so
both sites' rendered configs have L2T001 (xconnect on the main interface).
"""

from __future__ import annotations

import json
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


def _line(sites: Path, name: str, start: str) -> int:
    """The line of ``name``'s file that starts with ``start`` (the header's length varies)."""
    lines = (sites / f"{name}.yaml").read_text().splitlines()
    return next(n for n, line in enumerate(lines, start=1) if line.startswith(start))


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
    sites = _sites(tmp_path, ["L2T001"])
    result = runner.invoke(app, ["lint", "--sites", str(sites)])
    assert "1 silenced (lint.ignore in site files)" in result.stderr
    a, b = _line(sites, "lab-a-rtr1", "lan:"), _line(sites, "lab-b-rtr1", "lan:")
    assert f"lab-a-rtr1.yaml:{a}:1: L2T001" not in result.stdout
    assert f"lab-b-rtr1.yaml:{b}:1: L2T001" in result.stdout


def test_an_ignored_code_that_is_no_rule_is_an_error_at_its_line(tmp_path: Path) -> None:
    sites = _sites(tmp_path, ["L2T001", "L2T999"])
    at = _line(sites, "lab-a-rtr1", "lint:")
    validated = runner.invoke(app, ["validate", "--sites", str(sites)])
    assert validated.exit_code == 1
    assert f"lab-a-rtr1.yaml:{at}:25: error: lint.ignore: L2T999 matches no rule code or name" in (
        validated.stdout + validated.stderr
    )
    linted = runner.invoke(app, ["lint", "--sites", str(sites)])
    assert f"lab-a-rtr1.yaml:{at}:25: L2T000 error lint.ignore: L2T999 matches no rule" in (
        linted.stdout
    )
    assert linted.exit_code == 1


@pytest.mark.parametrize("given", ["L", "L2", "L2T", "l2t"])
def test_an_ignore_prefix_spanning_every_rule_family_is_refused_at_its_line(
    tmp_path: Path, given: str
) -> None:
    sites = _sites(tmp_path, [given])
    at, lan = _line(sites, "lab-a-rtr1", "lint:"), _line(sites, "lab-a-rtr1", "lan:")
    validated = runner.invoke(app, ["validate", "--sites", str(sites)])
    assert validated.exit_code == 1
    assert f"lab-a-rtr1.yaml:{at}:17: error: lint.ignore: {given} spans every rule family" in (
        validated.stderr
    )
    assert "[V130]" in validated.stderr
    linted = runner.invoke(app, ["lint", "--sites", str(sites)])
    assert linted.exit_code == 1
    assert f"lab-a-rtr1.yaml:{lan}:1: L2T001" not in linted.stdout  # silenced; the run fails


@pytest.mark.parametrize("given", ["L2T0", "L2T1", "L2T00"])
def test_an_ignore_prefix_within_one_family_is_accepted(tmp_path: Path, given: str) -> None:
    validated = runner.invoke(app, ["validate", "--sites", str(_sites(tmp_path, [given]))])
    assert validated.exit_code == 0, validated.stderr


def test_silenced_findings_are_listed_in_json_with_their_place_in_the_site_file(
    tmp_path: Path,
) -> None:
    sites = _sites(tmp_path, ["L2T001"])
    result = runner.invoke(app, ["lint", "--sites", str(sites), "--format", "json"])
    findings = json.loads(result.stdout)
    quiet = [(Path(f["file"]).name, f["line"], f["code"]) for f in findings if f["silenced"]]
    assert quiet == [("lab-a-rtr1.yaml", _line(sites, "lab-a-rtr1", "lan:"), "L2T001")]
    loud = [(Path(f["file"]).name, f["code"]) for f in findings if not f["silenced"]]
    assert ("lab-b-rtr1.yaml", "L2T001") in loud
    assert ("lab-a-rtr1.yaml", "L2T001") not in loud


def test_silenced_findings_are_sarif_results_with_an_in_source_suppression(
    tmp_path: Path,
) -> None:
    sites = _sites(tmp_path, ["L2T001"])
    result = runner.invoke(app, ["lint", "--sites", str(sites), "--format", "sarif"])
    results = json.loads(result.stdout)["runs"][0]["results"]
    suppressed = [
        (r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["ruleId"])
        for r in results
        if r.get("suppressions")
    ]
    assert [(Path(uri).name, code) for uri, code in suppressed] == [("lab-a-rtr1.yaml", "L2T001")]
    (quiet,) = [r for r in results if r.get("suppressions")]
    assert quiet["suppressions"] == [
        {"kind": "inSource", "justification": "lint.ignore in the site file"}
    ]
    open_ones = [r for r in results if "suppressions" not in r and r["ruleId"] == "L2T001"]
    assert len(open_ones) == 1  # site-b's, not silenced


def test_silenced_findings_end_the_github_output_as_one_notice(tmp_path: Path) -> None:
    sites = _sites(tmp_path, ["L2T001"])
    result = runner.invoke(app, ["lint", "--sites", str(sites), "--format", "github"])
    notices = [line for line in result.stdout.splitlines() if "title=l2tpgen lint" in line]
    assert len(notices) == 1
    (notice,) = notices
    assert notice.startswith("::notice title=l2tpgen lint%3A 1 finding silenced::")
    lan = _line(sites, "lab-a-rtr1", "lan:")
    assert f"lab-a-rtr1.yaml:{lan}:1: L2T001 single-trunk-xconnect" in notice
    warnings = [line for line in result.stdout.splitlines() if line.startswith("::warning")]
    l2t001 = [line.split(",line=")[0] for line in warnings if "title=L2T001" in line]
    assert [Path(line).name for line in l2t001] == ["lab-b-rtr1.yaml"]
