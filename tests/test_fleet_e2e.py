"""Fleet operations in parallel over real SSH: six simulated routers, one refusing a line."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from conftest_sim import PASSWORD, USERNAME
from nornir.core import Nornir
from nornir.core.inventory import Defaults, Groups, Host, Hosts, Inventory
from nornir.plugins.runners import ThreadedRunner
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.model.generate import write_fleet
from l2tpgen.nornir import l2tpgen_push
from l2tpgen.platforms.ios.render import render_base
from l2tpgen.sim import Credentials, Faults, SimFleet, SimSpec

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

runner = CliRunner()
REFUSER = "site-4"


@pytest.fixture
def six(tmp_path: Path, lab_env: None) -> Iterator[tuple[SimFleet, Path, Path]]:  # noqa: ARG001 - needs the environment
    sites = tmp_path / "sites"
    write_fleet(sites, 6, 3)
    fleet = load_fleet(sites)
    sim = SimFleet(Credentials(USERNAME, PASSWORD))
    for name, site in fleet.sites.items():
        faults = Faults(refuse=r"^xconnect .* 101 ") if name == REFUSER else None
        sim.add(SimSpec(name, site.hostname, render_base(fleet, name)), faults)
    inventory = tmp_path / "inventory.json"
    sim.write_inventory(inventory)
    yield sim, sites, inventory
    sim.close()


def test_six_routers_in_parallel_one_refusing_five_changed_one_rolled_back_exit_3(
    six: tuple[SimFleet, Path, Path],
) -> None:
    sim, sites, inventory = six
    result = runner.invoke(
        app,
        [
            "push",
            "--all",
            "--sites",
            str(sites),
            "--inventory",
            str(inventory),
            "--yes",
            "--workers",
            "6",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 3, result.output
    report = json.loads(result.stdout)
    statuses = {r["site"]: r["status"] for r in report["results"]}
    assert statuses == {f"site-{i}": "changed" for i in range(6) if f"site-{i}" != REFUSER} | {
        REFUSER: "rolled-back"
    }
    # Every router that changed was read back afterwards (pairs pushed together are verified).
    for name, device in sim.devices.items():
        assert ("exec", "show xconnect all") in device.router.events, name
    pairs = {(p["site"], p["peer"], p["vlan"]): p for p in report["pairs"]}
    assert len(pairs) == 9  # three pairs of three VLANs
    assert all(p["up_both"] for (site, _, _), p in pairs.items() if site != REFUSER)
    assert not any(p["up_both"] for (site, _, _), p in pairs.items() if site == REFUSER)


def test_progress_is_plain_lines_when_not_on_a_terminal(six: tuple[SimFleet, Path, Path]) -> None:
    _, sites, inventory = six
    result = runner.invoke(
        app, ["diff", "site-0", "site-1", "--sites", str(sites), "--inventory", str(inventory)]
    )
    assert result.exit_code == 0, result.output
    assert "site-0: connecting" in result.stderr
    assert "site-1: reading the running config" in result.stderr
    assert "diff summary" in result.stdout  # diff titles its table as diff (issue 36)


def test_the_nornir_task_works_in_a_users_own_nornir(six: tuple[SimFleet, Path, Path]) -> None:
    sim, sites, _ = six
    fleet = load_fleet(sites)
    known = sim.servers.known_hosts()
    known_file = sites.parent / "my_known_hosts"
    known_file.write_text(known)
    hosts = Hosts(
        {
            name: Host(
                name=name,
                hostname="127.0.0.1",
                port=device.port,
                username=USERNAME,
                password=PASSWORD,
                platform="cisco_ios",
                data={"known_hosts": str(known_file)},
            )
            for name, device in sim.devices.items()
            if name in {"site-0", "site-1"}
        }
    )
    nr = Nornir(
        inventory=Inventory(hosts=hosts, groups=Groups(), defaults=Defaults()),
        runner=ThreadedRunner(num_workers=2),
    )
    results = nr.run(task=l2tpgen_push, fleet=fleet, dry_run=True)
    assert {name: r[0].result.status.value for name, r in results.items()} == {
        "site-0": "would-change",
        "site-1": "would-change",
    }
    assert not results.failed


@pytest.mark.parametrize("command", [["push", "--dry-run"], ["diff"], ["verify"]])
def test_workers_is_how_many_routers_are_worked_on_at_once(
    six: tuple[SimFleet, Path, Path], monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    _, sites, inventory = six
    built: list[int] = []

    class Recording(ThreadedRunner):
        def __init__(self, num_workers: int) -> None:
            built.append(num_workers)
            super().__init__(num_workers=num_workers)

    monkeypatch.setattr("l2tpgen.device.fleet.ThreadedRunner", Recording)
    args = [*command, "--all", "--sites", str(sites), "--inventory", str(inventory)]
    result = runner.invoke(app, [*args, "--workers", "2"])
    assert result.exit_code in (0, 1), result.output
    assert built
    assert set(built) == {2}
