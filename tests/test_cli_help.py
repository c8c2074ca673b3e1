"""Help that reads well: no Python types in --help, whole rule names in a pipe, no spinner left
behind, and "did you mean" for a misspelt key or interface."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from builders import copy_example
from conftest import SITES
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.lint.rules import ALL_RULES

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
COMMANDS = [
    [],
    ["validate"],
    ["render"],
    ["mtu"],
    ["schema"],
    ["docs"],
    ["lint"],
    ["rules"],
    ["rule"],
    ["push"],
    ["diff"],
    ["verify"],
    ["import"],
    ["sim"],
    ["sim", "up"],
    ["lab"],
    ["lab", "build"],
    ["lab", "run"],
    ["lab", "up"],
    ["lab", "status"],
    ["lab", "exec"],
    ["lab", "check"],
    ["lab", "down"],
    ["hook", "lint-configs"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "l2tpgen")
def test_help_shows_no_python_types(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.stdout
    assert "<list[" not in result.stdout
    assert "{" not in result.stdout.splitlines()[1]  # the usage line: SITE, not {site}


def test_lint_help_keeps_its_bracketed_text() -> None:
    result = runner.invoke(app, ["lint", "--help"], env={"COLUMNS": "200"})
    assert "[tool.l2tpgen.lint]" in result.stdout
    assert "[default: warning]" in result.stdout


def test_import_help_names_its_arguments_as_the_usage_line_does() -> None:
    result = runner.invoke(app, ["import", "--help"], env={"COLUMNS": "120"})
    assert "Usage: l2tpgen import [OPTIONS] CONFIG..." in result.stdout
    assert re.search(r"--vlans\s+LIST", result.stdout)


def test_rules_in_a_pipe_prints_every_rule_name_whole_one_rule_a_line() -> None:
    result = runner.invoke(app, ["rules"], env={"COLUMNS": "40"})
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == len(ALL_RULES)
    for rule, line in zip(ALL_RULES, lines, strict=True):
        assert line.split()[:2] == [rule.code, rule.name]
    assert "…" not in result.stdout


def test_the_progress_rows_of_a_fleet_command_leave_no_spinner_in_the_scrollback() -> None:
    from l2tpgen.cli.push_output import Progress as _Progress  # noqa: PLC0415 - the live display under test

    assert _Progress(["site-a"]).bar.live.transient


@pytest.fixture
def misspelt(tmp_path: Path) -> Path:
    return copy_example(
        SITES,
        tmp_path,
        (
            "site-a",
            "  hold_queue: {in: 2048, out: 2048}\nlan:",
            "  holdqueue: {in: 2048, out: 2048}\nlan:",
        ),
        ("site-a", "interface: GigabitEthernet0/0", "interface: GigabitEthernt0/0"),
    )


def test_a_misspelt_key_or_interface_gets_did_you_mean(misspelt: Path) -> None:
    result = runner.invoke(app, ["validate", "--sites", str(misspelt)])
    assert result.exit_code == 1
    assert "wan.holdqueue: unknown key; did you mean `hold_queue`?" in result.stderr
    assert (
        "lan.interface: 'GigabitEthernt0/0': unknown interface type 'GigabitEthernt'; did you "
        "mean GigabitEthernet0/0?"
    ) in result.stderr


def test_help_lists_the_commands_in_the_order_of_the_work_and_hides_the_hooks() -> None:
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "120"})
    listed = re.findall(r"^│ (\w+) ", result.stdout, re.MULTILINE)
    assert listed[-19:] == [
        "validate",
        "render",
        "schema",
        "secrets",
        "mtu",
        "lint",
        "rules",
        "rule",
        "hosts",
        "docs",
        "import",
        "netbox",
        "push",
        "diff",
        "rollback",
        "confirm",
        "verify",
        "sim",
        "lab",
    ]
    assert "hook" not in listed
    assert "l2tpgen hook lint-configs" in result.stdout  # named below the list, with its guide
