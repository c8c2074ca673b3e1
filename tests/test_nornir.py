"""The Nornir tasks in a user's own Nornir: hosts map to sites by data, connection options count."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from conftest_sim import PASSWORD, USERNAME
from netmiko import BaseConnection
from nornir.core import Nornir
from nornir.core.inventory import (
    ConnectionOptions,
    Defaults,
    Groups,
    Host,
    Hosts,
    Inventory,
)
from nornir.plugins.runners import ThreadedRunner

from l2tpgen import load_fleet
from l2tpgen import nornir as tasks
from l2tpgen.device import connection as login
from l2tpgen.model.generate import write_fleet
from l2tpgen.nornir import in_fleet, l2tpgen_push, l2tpgen_verify
from l2tpgen.platforms.ios.render import render_base
from l2tpgen.sim import Credentials, SimFleet, SimSpec

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from l2tpgen.model import Fleet


@pytest.fixture
def pair(tmp_path: Path, lab_env: None) -> Iterator[tuple[SimFleet, Fleet, Path]]:  # noqa: ARG001 - needs the environment
    sites = tmp_path / "sites"
    write_fleet(sites, 2, 2)
    fleet = load_fleet(sites)
    sim = SimFleet(Credentials(USERNAME, PASSWORD))
    for name, site in fleet.sites.items():
        sim.add(SimSpec(name, site.hostname, render_base(fleet, name)))
    known = tmp_path / "known_hosts"
    known.write_text(sim.servers.known_hosts())
    yield sim, fleet, known
    sim.close()


def _nornir(sim: SimFleet, known: Path, extras: dict[str, Any] | None = None) -> Nornir:
    """Hosts named after routers, not sites; the right address only in the netmiko options."""
    hosts = {
        f"router-{index}": Host(
            name=f"router-{index}",
            hostname="127.0.0.2",  # wrong on purpose: the connection options say 127.0.0.1
            port=1,
            username=USERNAME,
            password=PASSWORD,
            platform="cisco_ios",
            data={"l2tpgen_site": name, "known_hosts": str(known)},
            connection_options={
                "netmiko": ConnectionOptions(
                    hostname="127.0.0.1", port=device.port, extras=extras or {}
                )
            },
        )
        for index, (name, device) in enumerate(sorted(sim.devices.items()))
    }
    hosts["unrelated"] = Host(name="unrelated", hostname="127.0.0.1")
    return Nornir(
        inventory=Inventory(hosts=Hosts(hosts), groups=Groups(), defaults=Defaults()),
        runner=ThreadedRunner(num_workers=2),
    )


@pytest.mark.parametrize("plugin", [True, False], ids=["nornir-netmiko", "netmiko"])
def test_hosts_map_to_sites_by_data_and_are_reached_by_their_connection_options(
    pair: tuple[SimFleet, Fleet, Path], plugin: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    sim, fleet, known = pair
    opened: list[str] = []
    real = tasks._plugin  # noqa: SLF001 - counting the plugin's use
    if plugin:
        assert real() is not None, "nornir-netmiko is in the test extra"

        def counted() -> Any:  # noqa: ANN401
            opened.append("plugin")
            return real()

        monkeypatch.setattr(tasks, "_plugin", counted)
    else:
        monkeypatch.setattr(tasks, "_plugin", lambda: None)
    nr = _nornir(sim, known).filter(filter_func=in_fleet(fleet))
    assert set(nr.inventory.hosts) == {"router-0", "router-1"}
    results = nr.run(task=l2tpgen_push, fleet=fleet, dry_run=True)
    assert not results.failed, {h: r[0].result for h, r in results.items()}
    assert {h: r[0].result.site for h, r in results.items()} == {
        "router-0": "site-0",
        "router-1": "site-1",
    }
    assert {r[0].result.status.value for r in results.values()} == {"would-change"}
    assert opened == (["plugin", "plugin"] if plugin else [])
    states = nr.run(task=l2tpgen_verify, fleet=fleet)
    assert all(r[0].result for r in states.values())  # every expected pseudowire, read back


def test_extras_cannot_turn_host_key_checking_off(
    pair: tuple[SimFleet, Fleet, Path], tmp_path: Path
) -> None:
    sim, fleet, _ = pair
    empty = tmp_path / "empty_known_hosts"
    empty.write_text("")
    nr = _nornir(sim, empty, {"ssh_strict": False, "system_host_keys": True})
    results = nr.filter(filter_func=in_fleet(fleet)).run(task=l2tpgen_push, fleet=fleet)
    for multi in results.values():
        assert multi[0].result.status.value == "refused"
        assert "unknown SSH host key" in multi[0].result.message


@pytest.mark.parametrize("extras", [{}, {"auto_connect": True, "fast_cli": False}])
def test_the_tasks_log_in_as_l2tpgen_does_in_one_write_whatever_the_extras(
    pair: tuple[SimFleet, Fleet, Path], extras: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # netmiko's own session preparation probes the prompt with blank lines and sends the
    # terminal settings one by one, each a round trip with sleeps (0.8 s a router here)
    sim, fleet, known = pair
    writes: list[str] = []
    real = BaseConnection.write_channel

    def recorded(self: BaseConnection, out_data: str) -> None:
        writes.append(out_data)
        real(self, out_data)

    monkeypatch.setattr(BaseConnection, "write_channel", recorded)
    nr = _nornir(sim, known, extras).filter(filter_func=in_fleet(fleet))
    results = nr.run(task=l2tpgen_verify, fleet=fleet)
    assert all(r[0].result for r in results.values())  # read (the wires are not pushed: MISSING)
    logins = [w for w in writes if "terminal" in w]
    assert logins == ["terminal length 0\nterminal width 511\n"] * 2
    assert "\n" not in writes  # no prompt probing


def test_a_users_read_timeout_override_bounds_the_login_and_stays_theirs_after_it(
    pair: tuple[SimFleet, Fleet, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    sim, fleet, known = pair
    seen: list[tuple[float, Any]] = []
    real = login.log_in

    def spied(connection: Any, target: Any, credentials: Any, wait: float) -> Any:  # noqa: ANN401
        seen.append((wait, real(connection, target, credentials, wait)))
        return seen[-1][1]

    monkeypatch.setattr(login, "log_in", spied)
    nr = _nornir(sim, known, {"read_timeout_override": 42}).filter(filter_func=in_fleet(fleet))
    results = nr.run(task=l2tpgen_verify, fleet=fleet)
    assert all(r[0].result for r in results.values())
    assert [wait for wait, _ in seen] == [42.0, 42.0]
    assert [connection.read_timeout_override for _, connection in seen] == [42, 42]


def test_accept_new_host_keys_in_the_host_data_learns_unknown_keys_and_refuses_changed_ones(
    pair: tuple[SimFleet, Fleet, Path], tmp_path: Path
) -> None:
    sim, fleet, _ = pair
    known = tmp_path / "new" / "known_hosts"
    nr = _nornir(sim, known).filter(filter_func=in_fleet(fleet))
    refused = nr.run(task=l2tpgen_push, fleet=fleet, dry_run=True)
    for multi in refused.values():
        assert "--accept-new-host-keys" in multi[0].result.message
    for host in nr.inventory.hosts.values():
        host.data["accept_new_host_keys"] = True
    nr.data.reset_failed_hosts()  # Nornir skips the hosts that failed before
    learned = nr.run(task=l2tpgen_push, fleet=fleet, dry_run=True)
    assert set(learned) == {"router-0", "router-1"}
    assert not learned.failed, {h: r[0].result for h, r in learned.items()}
    assert sorted(known.read_text().splitlines()) == sorted(sim.servers.known_hosts().splitlines())
    sim.servers.change_host_key("site-0")
    changed = nr.run(task=l2tpgen_push, fleet=fleet, dry_run=True)
    assert "host key CHANGED" in changed["router-0"][0].result.message
    assert sorted(known.read_text().splitlines()) != sorted(sim.servers.known_hosts().splitlines())


@pytest.mark.parametrize("task", [l2tpgen_push, l2tpgen_verify], ids=["push", "verify"])
def test_an_unexpected_exception_is_the_results_own_and_nornir_formats_no_traceback(
    pair: tuple[SimFleet, Fleet, Path],
    monkeypatch: pytest.MonkeyPatch,
    task: Any,  # noqa: ANN401
) -> None:
    """Python 3.11: two threads formatting tracebacks at once can raise SystemError from
    ast.parse (CPython gh-106905), which Nornir would report instead of the real exception."""
    sim, fleet, known = pair

    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("a bug")

    def no_traceback() -> str:
        raise AssertionError("Nornir formatted a traceback in a worker thread")

    monkeypatch.setattr(tasks, "push_site", broken)
    monkeypatch.setattr(tasks, "verify_site", broken)
    monkeypatch.setattr("nornir.core.task.traceback.format_exc", no_traceback)
    results = _nornir(sim, known).filter(filter_func=in_fleet(fleet)).run(task=task, fleet=fleet)
    assert results.failed
    for multi in results.values():
        assert isinstance(multi[0].exception, RuntimeError)
        assert multi[0].failed
