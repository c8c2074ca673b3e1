"""push, diff and rollback over several routers end as `lab run` does: one line of counts.

``2 ok (1 changed, 1 unchanged), 1 failed (refused) in 0.3 s`` (issue 36: reports at a glance).
diff titles its table "diff summary" (it said "push summary"). The routers' work is replaced by
a fake ``push_fleet``: what is tested is what the command line prints of a report.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import TYPE_CHECKING

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.cli.push_output import counts_line
from l2tpgen.device import PushResult, fleet, rollback_fleet
from l2tpgen.device.fleet import FleetReport
from l2tpgen.device.result import Status

if TYPE_CHECKING:
    from pathlib import Path

SITES = ROOT / "sites"


def test_the_counts_line_splits_ok_from_failed_and_names_each_status() -> None:
    results = [
        PushResult("a", Status.CHANGED),
        PushResult("b", Status.UNCHANGED),
        PushResult("c", Status.REFUSED),
        PushResult("d", Status.CHANGED),
    ]
    line = counts_line(results, 4.24)
    assert line == "3 ok (2 changed, 1 unchanged), 1 failed (1 refused) in 4.2 s"
    assert counts_line([], 0.0) == "0 ok, 0 failed in 0.0 s"


@pytest.fixture
def fake_fleet(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """site-a would change and site-b is unchanged, with no router contacted; the inventory."""

    def push_fleet(_fleet: object, targets: dict[str, object], *_args: object) -> FleetReport:
        status = {"site-a": Status.WOULD_CHANGE, "site-b": Status.UNCHANGED}
        return FleetReport(tuple(PushResult(name, status[name]) for name in targets))

    monkeypatch.setattr(fleet, "push_fleet", push_fleet)
    monkeypatch.setenv("L2TPGEN_USERNAME", "admin")
    monkeypatch.setenv("L2TPGEN_PASSWORD", "not-used")
    inventory = tmp_path / "inventory.json"
    known = tmp_path / "known_hosts"
    known.write_text("")
    entry = {"host": "127.0.0.1", "device_type": "cisco_ios", "known_hosts": str(known)}
    sites = {"site-a": {**entry, "port": 2201}, "site-b": {**entry, "port": 2202}}
    inventory.write_text(json.dumps({"sites": sites}))
    return inventory


@pytest.mark.parametrize("command", [["diff"], ["push", "--dry-run"]], ids=" ".join)
def test_diff_and_push_dry_run_title_their_table_and_end_with_the_counts(
    fake_fleet: Path, command: list[str]
) -> None:
    args = [*command, "--all", "--sites", str(SITES), "--inventory", str(fake_fleet)]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    title = "diff summary" if command == ["diff"] else "push summary"
    assert title in result.stdout
    assert "diff" not in title or "push summary" not in result.stdout
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("2 ok (1 would-change, 1 unchanged), 0 failed in ")
    assert last.endswith(" s")


def test_rollback_of_several_routers_ends_with_the_counts(
    fake_fleet: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fake(targets: dict[str, object], *_args: object) -> SimpleNamespace:
        # the run's end as rollback_fleet.prepare gives it when nothing is left to do
        status = {"site-a": Status.CHANGED, "site-b": Status.REFUSED}
        final = tuple(PushResult(name, status[name], message="copy gone") for name in targets)
        return SimpleNamespace(final=final, shown={}, preflight={})

    monkeypatch.setattr(rollback_fleet, "prepare", fake)
    args = ["rollback", "--all", "--yes", "--sites", str(SITES), "--inventory", str(fake_fleet)]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 1, result.output
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("1 ok (1 changed), 1 failed (1 refused) in ")
