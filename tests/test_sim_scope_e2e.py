"""`sim up --config SITE=FILE` (a router started from a real config) and `sim up --name` (scopes).

The configs are the reference case's single-trunk routers (tests/reference/before-router-*.conf,
one xconnect on the LAN port for every VLAN): imported, simulated from those very configs, then
`push --dry-run` must show the migration the real routers would get, where the base config shows
a fresh build.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from builders import REFERENCE_BEFORE, import_reference
from conftest import SITES
from conftest_sim import SimUp, cli_env, dry_run_results, sim_cli
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.cli.sim_scope import read_start_config
from l2tpgen.sim.fleet import start_config
from l2tpgen.sim.lifecycle import alive

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

runner = CliRunner()


def test_a_router_started_from_its_imported_single_trunk_config_shows_the_migration(
    tmp_path: Path,
) -> None:
    sites = import_reference(tmp_path, "--vlans", "2996-2999")
    env = cli_env(tmp_path)
    configs = [f"--config={site}={file}" for site, file in REFERENCE_BEFORE.items()]
    inventory = tmp_path / "inventory.json"
    with SimUp("--sites", str(sites), *configs, inventory=inventory, env=env):
        results = dry_run_results(sites, inventory, env, REFERENCE_BEFORE)
    assert [(r["status"], r["migration"]) for r in results] == [("would-change", True)] * 2
    for result in results:
        commands = result["commands"]
        assert "interface GigabitEthernet0/0" in commands
        assert any(c.startswith(" no xconnect ") for c in commands), commands
        assert "interface GigabitEthernet0/0.2996" in commands
    # The control: from the base config the same fleet is a fresh build, not a migration.
    base = tmp_path / "base-inventory.json"
    with SimUp("--sites", str(sites), inventory=base, env=env):
        fresh = dry_run_results(sites, base, env, REFERENCE_BEFORE)
    assert [(r["status"], r["migration"]) for r in fresh] == [("would-change", False)] * 2


def test_a_start_config_is_read_as_import_reads_it_and_what_is_not_simulated_is_named(
    tmp_path: Path,
) -> None:
    config = tmp_path / "r1.cfg"
    shown = (
        "r1#show running-config\r\nBuilding configuration...\r\n\r\n"
        "Current configuration : 99 bytes\r\nhostname r1\r\n"
        "interface GigabitEthernet0/0\r\n\tno ip address\r\n"
        "not-a-command tacacs-server key 0 hunter2-secret\r\nend\r\n"
    )
    config.write_bytes(shown.encode("utf-16"))
    text, (skipped,) = read_start_config(config)
    assert "hostname r1\ninterface GigabitEthernet0/0\n no ip address\n" in text
    assert "Building" not in text
    assert "not-a-command" not in text
    assert skipped.startswith(f"{config}:8: not-a-command tacacs-server key")
    assert "hunter2" not in skipped


@pytest.mark.parametrize(
    ("word", "problem"),
    [
        ("site-a", "write SITE=FILE"),
        ("site-z=x.cfg", "site-z is not a simulated router"),
    ],
)
@pytest.mark.usefixtures("lab_env")
def test_a_config_for_no_simulated_site_is_a_usage_error(word: str, problem: str) -> None:
    result = runner.invoke(app, ["sim", "up", "--sites", str(SITES), "--config", word])
    assert result.exit_code == 2
    assert problem in result.stderr


@pytest.fixture
def state(tmp_path: Path) -> Iterator[Path]:
    directory = tmp_path / "state"
    yield directory
    for name in ("alice", "bob", "default"):
        sim_cli(directory, "sim", "down", "--name", name)  # never leave a simulator behind


def _status(state: Path, name: str) -> dict[str, Any]:
    shown = sim_cli(state, "sim", "status", "--format", "json", "--name", name)
    return dict(json.loads(shown.stdout))


def test_simulators_of_two_names_are_shown_and_stopped_apart(state: Path) -> None:
    for name in ("alice", "bob"):
        started = sim_cli(state, "sim", "up", "-d", "--sites", str(SITES), name=name)
        assert started.returncode == 0, started.stderr
    alice, bob = _status(state, "alice"), _status(state, "bob")
    assert alice["running"]
    assert bob["running"]
    assert alice["inventory"] == str(state / "sim" / "alice" / "inventory.json")
    assert alice["pid"] != bob["pid"]
    # The default name sees neither, and stops neither; it says the others run.
    mine = sim_cli(state, "sim", "status")
    assert mine.returncode == 1
    assert "no simulator is running under the name default" in mine.stderr
    assert "other simulators running: alice, bob" in mine.stderr
    assert sim_cli(state, "sim", "down").returncode == 0
    assert alive(alice["pid"])
    assert alive(bob["pid"])
    stopped = sim_cli(state, "sim", "down", "--name", "alice")
    assert f"stopped (pid {alice['pid']})" in stopped.stderr
    assert not _status(state, "alice")["running"]
    assert _status(state, "bob")["running"]
    assert alive(bob["pid"])


def test_a_name_that_is_not_a_directory_name_is_a_usage_error(state: Path) -> None:
    shown = sim_cli(state, "sim", "status", "--name", "../elsewhere")
    assert shown.returncode == 2
    assert "cannot name a simulator" in shown.stderr
    assert not (state / "elsewhere").exists()


def test_a_section_the_simulator_does_not_take_is_left_out_whole_and_the_rest_kept() -> None:
    text = (
        "hostname r1\nnot-a-section 1\n child line\n other child\ninterface Gi0/0\n no shut\n"
        "not-a-command either\nip route 0.0.0.0 0.0.0.0 10.0.0.1\n"
    )
    start = start_config(text)
    assert start.skipped == ((2, "not-a-section 1"), (7, "not-a-command either"))
    assert (
        start.text == "hostname r1\ninterface Gi0/0\n no shut\nip route 0.0.0.0 0.0.0.0 10.0.0.1\n"
    )
