"""`l2tpgen lint`, `rules` and `rule` as a user and a CI pipeline meet them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from conftest import ROOT, SITES, TESTS
from lint_cases import example
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.lint.rules import ALL_RULES

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
LINT = TESTS / "lint"
BEFORE = str(LINT / "reference" / "before.conf")
AFTER = str(LINT / "reference" / "after.conf")
MISSPELLED_PW_CLASS = example("L2T006", "misspelled-pw-class")
L2T102_VC_128_HERE_129_THERE = example("L2T102", "vc-id-128-here-129-there")


def test_lint_config_prints_file_line_column_code_severity_message() -> None:
    result = runner.invoke(app, ["lint", "--config", BEFORE])
    assert result.exit_code == 1
    assert f"{BEFORE}:17:2: L2T001 warning xconnect on main interface GigabitEthernet0/0" in (
        result.stdout
    )
    assert "fix: one dot1Q subinterface per VLAN" in result.stdout


def test_fail_on_error_lets_warnings_pass() -> None:
    assert runner.invoke(app, ["lint", "--config", BEFORE, "--fail-on", "error"]).exit_code == 0


def test_fail_on_info_fails_on_info_findings() -> None:
    assert runner.invoke(app, ["lint", "--config", AFTER, "--ignore", "L2T005"]).exit_code == 0
    assert runner.invoke(app, ["lint", "--config", AFTER, "--fail-on", "info"]).exit_code == 1


def test_json_output_lists_every_field_scripts_need() -> None:
    result = runner.invoke(app, ["lint", "--config", BEFORE, "--format", "json"])
    findings = json.loads(result.stdout)
    assert {tuple(sorted(f)) for f in findings} == {
        ("code", "column", "file", "fix", "line", "message", "rule", "severity", "silenced")
    }
    assert {"code": "L2T005", "rule": "cleartext-secret", "severity": "warning"}.items() <= (
        next(f for f in findings if f["code"] == "L2T005").items()
    )


def test_sarif_output_is_sarif_2_1_0_with_rules_and_regions() -> None:
    result = runner.invoke(app, ["lint", "--config", BEFORE, "--format", "sarif"])
    sarif = json.loads(result.stdout)
    assert sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for res in run["results"]:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        region = res["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1
        assert res["level"] in {"error", "warning", "note"}


def test_github_output_is_workflow_annotations() -> None:
    result = runner.invoke(app, ["lint", "--config", BEFORE, "--format", "github"])
    lines = result.stdout.splitlines()
    assert lines
    assert all(line.startswith(("::warning file=", "::notice file=")) for line in lines)
    assert any(",line=17,col=2,title=L2T001 single-trunk-xconnect::" in line for line in lines)


def test_select_and_ignore_on_the_command_line() -> None:
    result = runner.invoke(
        app, ["lint", "--config", BEFORE, "--select", "L2T001,L2T005", "--format", "json"]
    )
    assert {f["code"] for f in json.loads(result.stdout)} == {"L2T001", "L2T005"}
    result = runner.invoke(
        app, ["lint", "--config", BEFORE, "--ignore", "L2T0", "--format", "json"]
    )
    assert json.loads(result.stdout) == []


def test_unknown_rule_code_is_a_usage_error() -> None:
    result = runner.invoke(app, ["lint", "--config", BEFORE, "--select", "L2T999"])
    assert result.exit_code == 2


def test_two_configs_are_checked_against_each_other(tmp_path: Path) -> None:
    for file, text in L2T102_VC_128_HERE_129_THERE.configs:
        (tmp_path / file).write_text(text)
    a, b = str(tmp_path / "a.conf"), str(tmp_path / "b.conf")
    result = runner.invoke(app, ["lint", "--config", a, "--config", b, "--select", "L2T1"])
    assert result.exit_code == 1
    assert "L2T102 error VC ID 128" in result.stdout


def test_missing_config_file_is_reported_without_traceback(tmp_path: Path) -> None:
    result = runner.invoke(app, ["lint", "--config", str(tmp_path / "nope.conf")])
    assert result.exit_code == 1
    assert "cannot read" in result.stderr
    assert "Traceback" not in result.output


def test_lint_example_sites_has_no_warning() -> None:
    result = runner.invoke(app, ["lint", "--sites", str(SITES), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert {f["code"] for f in json.loads(result.stdout)} == {"L2T014"}
    # no site named: every site of --sites is linted (L2T014 is about each router's WAN)
    files = {f["file"].rsplit("/", 1)[-1] for f in json.loads(result.stdout)}
    assert files == {"site-a.yaml", "site-b.yaml"}


def test_lint_one_site_reports_only_that_site() -> None:
    result = runner.invoke(app, ["lint", "site-b", "--sites", str(SITES), "--format", "json"])
    # in site-b's file (it once said `rendered:site-b`, which is no file)
    assert {f["file"] for f in json.loads(result.stdout)} == {str(SITES / "site-b.yaml")}


def test_lint_invalid_sites_reports_model_problems_as_l2t000(tmp_path: Path) -> None:
    copy = tmp_path / "sites"
    shutil.copytree(SITES, copy)
    site_b = copy / "site-b.yaml"
    site_b.write_text(site_b.read_text().replace("vc_id: 128", "vc_id: 129"))
    result = runner.invoke(app, ["lint", "--sites", str(copy), "--format", "json"])
    assert result.exit_code == 1
    (finding,) = json.loads(result.stdout)
    assert finding["code"] == "L2T000"
    assert finding["file"] == str(copy / "site-a.yaml")


def test_render_refuses_a_config_with_error_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    ((_, broken),) = MISSPELLED_PW_CLASS.configs
    # render_files is what `l2tpgen.api.render` calls to render: the broken config stands in for it
    monkeypatch.setattr(
        "l2tpgen.platforms.render.render_files", lambda *_args, **_kwargs: {"": broken}
    )
    result = runner.invoke(app, ["render", "site-a", "--sites", str(SITES)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "L2T006" in result.stderr


def test_rules_lists_every_rule() -> None:
    result = runner.invoke(app, ["rules", "--format", "json"])
    rows = json.loads(result.stdout)
    # every registered rule, each with its examples file (a scaffolded rule adds both at once)
    examples = sorted(path.stem for path in (ROOT / "l2tpgen/lint/rules/examples").glob("*.yaml"))
    assert sorted(row["code"] for row in rows) == examples
    assert len(rows) == len(ALL_RULES) >= 37  # the 37 rules of 2026-12
    assert rows[0] == {
        "code": "L2T001",
        "name": "single-trunk-xconnect",
        "severity": "warning",
        "scope": "device",
        "summary": "An xconnect on a main Ethernet interface carries every VLAN of the port in one "
        "session.",
    }


@pytest.mark.parametrize("name", ["L2T001", "l2t001", "single-trunk-xconnect"])
def test_rule_explains_a_rule_by_code_or_name(name: str) -> None:
    result = runner.invoke(app, ["rule", name])
    assert result.exit_code == 0
    assert "## Why is this bad?" in result.stdout


def test_rule_with_an_unknown_code_is_a_usage_error() -> None:
    assert runner.invoke(app, ["rule", "L2T999"]).exit_code == 2


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("single-trunk", "single-trunk-xconnect"),  # the start of a name
        ("cleartext-secrets", "cleartext-secret"),  # a name misspelt
    ],
)
def test_rule_suggests_the_rule_a_near_miss_meant(typed: str, meant: str) -> None:
    result = runner.invoke(app, ["rule", typed], env={"COLUMNS": "300"})
    assert result.exit_code == 2
    assert f"did you mean {meant}?" in result.stderr


def test_rule_suggests_nothing_for_a_word_far_from_every_rule() -> None:
    result = runner.invoke(app, ["rule", "zzzzzz"], env={"COLUMNS": "300"})
    assert result.exit_code == 2
    assert "did you mean" not in result.stderr


def test_ciscoconfparse_logging_never_reaches_the_user() -> None:
    # A fresh process, as users run it: loguru binds its sinks when ciscoconfparse is imported.
    result = subprocess.run(
        [sys.executable, "-m", "l2tpgen", "lint", "--config", BEFORE, "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert json.loads(result.stdout)  # stdout is pure JSON
    assert "INFO" not in result.stderr
    assert "ciscoconfparse" not in result.stderr
