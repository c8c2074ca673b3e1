"""The GitHub Action's lint step, run here as the runner would run it (without the upload)."""

from __future__ import annotations

import json
import shutil
from typing import TYPE_CHECKING

from conftest import SITES, TESTS
from support import ACTION, run_action_lint, run_action_step

if TYPE_CHECKING:
    from pathlib import Path


def test_the_actions_lint_step_passes_clean_sites_and_writes_sarif(tmp_path: Path) -> None:
    shutil.copytree(SITES, tmp_path / "sites")
    outputs, sarif_files = run_action_lint(tmp_path, "sites", "")
    assert outputs == {"status": "0"}
    assert sarif_files == 1
    sarif = json.loads((tmp_path / "l2tpgen-sarif" / "sites.sarif").read_text())
    assert sarif["version"] == "2.1.0"


def test_the_actions_lint_step_fails_a_single_trunk_config(tmp_path: Path) -> None:
    (tmp_path / "configs").mkdir()
    shutil.copy(TESTS / "lint" / "reference" / "before.conf", tmp_path / "configs" / "r1.cfg")
    outputs, sarif_files = run_action_lint(tmp_path, "", "configs/*.cfg")
    assert outputs == {"status": "1"}
    assert sarif_files == 1
    results = json.loads((tmp_path / "l2tpgen-sarif" / "configs.sarif").read_text())
    codes = {r["ruleId"] for r in results["runs"][0]["results"]}
    assert "L2T001" in codes


def test_the_action_uploads_sarif_and_fails_after_the_upload() -> None:
    steps = ACTION["runs"]["steps"]
    names = [s.get("uses", s.get("name")) for s in steps]
    upload = names.index("github/codeql-action/upload-sarif@v3")
    assert names[-1] == "Fail on findings"
    assert upload < len(names) - 1
    assert "always()" in steps[upload]["if"]


def test_the_actions_docs_step_writes_the_fleet_page_and_the_summary(tmp_path: Path) -> None:
    shutil.copytree(SITES, tmp_path / "sites")
    summary = tmp_path / "summary.md"
    summary.write_text("")
    env = {"SITES": "sites", "DOCS": "docs/fleet.md", "GITHUB_STEP_SUMMARY": str(summary)}
    run_action_step(tmp_path, "docs", env)
    page = (tmp_path / "docs" / "fleet.md").read_text()
    assert page.startswith("# Fleet: 2 sites, 4 pseudowires")
    assert "```mermaid" in page
    assert summary.read_text() == page
