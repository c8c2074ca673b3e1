"""The model rules in `l2tpgen lint` on sites: located in the site files, selectable, documented.

Positions in examples/field were counted by hand: dc-a.yaml line 24 is VLAN 310 (its `carries`
value at column 52), line 25 VLAN 320 (column 51); dc-b.yaml states no workload, so its findings
sit at the VLAN entries (lines 18 and 19, column 5).
"""

from __future__ import annotations

import json
from pathlib import Path

from builders import hub_fleet
from conftest import ROOT, SITES
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.lint import BY_CODE, ConfigText, lint_configs, lint_sites
from l2tpgen.model import load_fleet
from l2tpgen.platforms.render import render_site

runner = CliRunner()
FIELD = ROOT / "examples" / "field"


def _lint(*args: str) -> tuple[int, list[dict[str, object]]]:
    result = runner.invoke(app, ["lint", *args, "--format", "json"])
    return result.exit_code, json.loads(result.stdout)


def _where(findings: list[dict[str, object]]) -> list[tuple[object, ...]]:
    return sorted(
        (Path(str(f["file"])).name, f["line"], f["column"], f["code"], f["severity"])
        for f in findings
    )


def test_lint_warns_about_the_field_examples_heartbeat_and_migration_vlans_in_both_files() -> None:
    code, findings = _lint("--sites", str(FIELD))
    assert code == 1
    assert _where(findings) == [
        ("dc-a.yaml", 24, 52, "L2T022", "warning"),
        ("dc-a.yaml", 25, 51, "L2T023", "warning"),
        ("dc-b.yaml", 18, 5, "L2T022", "warning"),
        ("dc-b.yaml", 19, 5, "L2T023", "warning"),
    ]


def test_linting_one_site_reports_in_that_sites_file_only() -> None:
    _, findings = _lint("dc-b", "--sites", str(FIELD))
    assert {Path(str(f["file"])).name for f in findings} == {"dc-b.yaml"}
    messages = [str(f["message"]) for f in findings]
    assert all(f"(as {FIELD / 'dc-a.yaml'} says)" in m for m in messages)


def test_model_rules_are_selected_and_ignored_like_any_rule() -> None:
    _, findings = _lint("--sites", str(FIELD), "--ignore", "heartbeat-mtu-below-corosync")
    assert {f["code"] for f in findings} == {"L2T023"}
    code, findings = _lint("--sites", str(FIELD), "--select", "L2T022", "--fail-on", "error")
    assert code == 0
    assert {f["code"] for f in findings} == {"L2T022"}


def test_model_rules_never_run_on_config_text() -> None:
    fleet = load_fleet(FIELD)
    configs = [ConfigText(f"{name}.conf", render_site(fleet, name)) for name in fleet.sites]
    assert not [f for f in lint_configs(configs) if f.code in {"L2T022", "L2T023"}]


def test_the_example_sites_have_no_model_findings() -> None:
    assert not [f for f in lint_sites(load_fleet(SITES)) if BY_CODE[f.code].scope == "model"]


def test_model_rules_run_on_a_linux_site_too(tmp_path: Path) -> None:
    heartbeat = (
        "linux-edge",
        "{id: 200, name: lab-a, peer: hub}",
        "{id: 200, name: lab-a, peer: hub, carries: cluster-heartbeat, corosync_transport: udpu}",
    )
    hub = hub_fleet(tmp_path, heartbeat)
    findings = lint_sites(load_fleet(hub), ["linux-edge"])
    assert [(Path(f.file).name, f.code) for f in findings] == [("linux-edge.yaml", "L2T022")]


def test_rules_lists_the_model_rules_with_their_scope() -> None:
    result = runner.invoke(app, ["rules", "--format", "json"])
    rows = {row["code"]: row for row in json.loads(result.stdout)}
    assert rows["L2T022"]["scope"] == "model"
    assert rows["L2T022"]["name"] == "heartbeat-mtu-below-corosync"
    assert rows["L2T023"]["scope"] == "model"
    assert rows["L2T023"]["name"] == "live-migration-on-lossy-path"
    assert rows["L2T001"]["scope"] == "device"
    assert rows["L2T101"]["scope"] == "cross-device"
    assert "model" in runner.invoke(app, ["rules"]).stdout


def test_rule_explains_a_model_rule() -> None:
    result = runner.invoke(app, ["rule", "live-migration-on-lossy-path"])
    assert result.exit_code == 0
    assert "L2T023 live-migration-on-lossy-path (warning)" in result.stdout
    assert "Mathis" in result.stdout


def test_sarif_tags_model_rules_and_places_their_results_in_the_site_file() -> None:
    result = runner.invoke(app, ["lint", "--sites", str(FIELD), "--format", "sarif"])
    run = json.loads(result.stdout)["runs"][0]
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    assert rules["L2T022"]["properties"]["tags"] == ["l2tpv3", "model"]
    located = {
        (r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
        for r in run["results"]
    }
    assert ("L2T022", "examples/field/dc-a.yaml") in located  # relative to the repository root
