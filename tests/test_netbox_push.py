"""`l2tpgen netbox push` against a real NetBox: idempotent, --dry-run writes nothing."""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING, Any

import pytest
from conftest import ROOT, SITES
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.model.load import load_fleet
from l2tpgen.netbox.client import Client, Selection
from l2tpgen.netbox.hosts import map_hosts

if TYPE_CHECKING:
    from pathlib import Path

    from conftest_netbox import NetBoxServer

runner = CliRunner()
OVERLAY = ROOT / "tests" / "netbox" / "overlay-sites.yaml"


def push(sites: Path, *args: str) -> Any:  # noqa: ANN401 - click's Result
    return runner.invoke(app, ["netbox", "push", "--sites", str(sites), *args])


@pytest.mark.usefixtures("netbox_env")
def test_a_pushed_fleet_pulls_back_equal_and_a_second_push_changes_nothing(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    first = push(SITES)
    assert first.exit_code == 0, first.output
    assert "create device lab-a-rtr1" in first.stdout
    assert "create L2VPN site-a-site-b-2996 (identifier, type)" in first.stdout
    # Four VPWS L2VPNs, two terminations each: the four pseudowires of sites/.
    assert sorted(v.identifier for v in netbox.vpn.l2vpns.all()) == [125, 126, 127, 128]
    assert len(list(netbox.vpn.l2vpn_terminations.all())) == 8
    second = push(SITES)
    assert second.exit_code == 0, second.output
    assert second.stdout == ""
    assert "no change" in second.output
    pulled = runner.invoke(
        app, ["netbox", "pull", "-o", str(tmp_path), "--tag", "l2tpgen", "--overlay", str(OVERLAY)]
    )
    assert pulled.exit_code == 0, pulled.output
    original, back = load_fleet(SITES), load_fleet(tmp_path)
    assert {n: s.model_dump() for n, s in back.sites.items()} == {
        n: s.model_dump() for n, s in original.sites.items()
    }


@pytest.mark.usefixtures("netbox_env")
def test_a_dry_run_lists_the_changes_and_writes_nothing(netbox: Any) -> None:  # noqa: ANN401
    result = push(SITES, "--dry-run")
    assert result.exit_code == 0, result.output
    assert "would create device lab-b-rtr1" in result.stdout
    assert "would create interface lab-b-rtr1 GigabitEthernet0/0.2996" in result.stdout
    assert "dry run: nothing written" in result.output
    assert list(netbox.dcim.devices.all()) == []
    assert list(netbox.extras.tags.all()) == []


@pytest.mark.usefixtures("netbox_env")
def test_a_changed_site_file_pushes_as_one_update_of_that_field(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    sites = tmp_path / "sites"
    shutil.copytree(SITES, sites)
    assert push(sites).exit_code == 0
    site_b = sites / "site-b.yaml"
    site_b.write_text(site_b.read_text().replace("gateway: 10.216.44.33", "gateway: 10.216.44.34"))
    dry = push(sites, "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert dry.stdout.splitlines() == [
        "would update interface lab-b-rtr1 GigabitEthernet0/1 (custom_fields)"
    ]
    assert push(sites).exit_code == 0
    wan = netbox.dcim.interfaces.get(device="lab-b-rtr1", name="GigabitEthernet0/1")
    assert wan.custom_fields["l2tpgen_gateway"] == "10.216.44.34"
    assert push(sites).stdout == ""


@pytest.mark.usefixtures("netbox_env")
def test_what_a_vlan_carries_is_recorded_at_the_end_that_states_it_and_pulls_back(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    sites = tmp_path / "sites"
    shutil.copytree(SITES, sites)
    site_a, site_b = sites / "site-a.yaml", sites / "site-b.yaml"
    # One end states it (as examples/field/dc-a.yaml does), or both ends the same.
    site_a.write_text(
        site_a.read_text()
        .replace(
            "name: cluster, peer: site-b,",
            "name: cluster, peer: site-b, carries: cluster-heartbeat,",
        )
        .replace(
            "name: live-migration, peer: site-b,",
            "name: live-migration, peer: site-b, carries: live-migration,",
        )
    )
    site_b.write_text(
        site_b.read_text().replace(
            "name: live-migration, peer: site-a,",
            "name: live-migration, peer: site-a, carries: live-migration,",
        )
    )
    original = load_fleet(sites)
    assert original.site("site-a").vlans[1].carries == "cluster-heartbeat"  # the edit took
    assert original.site("site-b").vlans[2].carries == "live-migration"
    assert push(sites).exit_code == 0
    recorded = sorted(
        (t.l2vpn.name, t.assigned_object.device.name, t.custom_fields["l2tpgen_carries"])
        for t in netbox.vpn.l2vpn_terminations.all()
        if t.custom_fields["l2tpgen_carries"]
    )
    assert recorded == [
        ("site-a-site-b-2997", "lab-a-rtr1", "cluster-heartbeat"),
        ("site-a-site-b-2998", "lab-a-rtr1", "live-migration"),
        ("site-a-site-b-2998", "lab-b-rtr1", "live-migration"),
    ]
    assert push(sites).stdout == ""
    out = tmp_path / "pulled"
    pulled = runner.invoke(
        app, ["netbox", "pull", "-o", str(out), "--tag", "l2tpgen", "--overlay", str(OVERLAY)]
    )
    assert pulled.exit_code == 0, pulled.output
    back = load_fleet(out)
    assert {n: s.model_dump() for n, s in back.sites.items()} == {
        n: s.model_dump() for n, s in original.sites.items()
    }


def _tunnel_ends(netbox: Any) -> list[tuple[str, str, str, str, str]]:  # noqa: ANN401
    """(tunnel, encapsulation, device, interface, outside IP) of every tunnel termination."""
    tunnels = {t.id: t for t in netbox.vpn.tunnels.all()}
    return sorted(
        (
            tunnels[t.tunnel.id].name,
            tunnels[t.tunnel.id].encapsulation.value,
            t.termination.device.name,
            t.termination.name,
            t.outside_ip.address,
        )
        for t in netbox.vpn.tunnel_terminations.all()
    )


@pytest.mark.usefixtures("netbox_env")
def test_each_site_pair_is_one_l2tp_tunnel_ending_on_its_tunnel_sources(
    netbox: Any,  # noqa: ANN401
) -> None:
    assert push(SITES).exit_code == 0
    # sites/: no loopback, so the tunnel sources are the WAN interfaces and addresses.
    assert _tunnel_ends(netbox) == [
        ("site-a-site-b", "l2tp", "lab-a-rtr1", "GigabitEthernet0/1", "10.197.251.215/28"),
        ("site-a-site-b", "l2tp", "lab-b-rtr1", "GigabitEthernet0/1", "10.216.44.47/27"),
    ]
    field = ROOT / "examples" / "field"
    assert push(field).exit_code == 0
    # examples/field: dc-a's tunnels come from Loopback0 (10.255.1.1/32), dc-b's from Loopback0.
    assert [e for e in _tunnel_ends(netbox) if e[0] == "dc-a-dc-b"] == [
        ("dc-a-dc-b", "l2tp", "dca-pe1", "Loopback0", "10.255.1.1/32"),
        ("dc-a-dc-b", "l2tp", "dcb-pe1", "Loopback0", "10.255.1.2/32"),
    ]
    again = push(field)
    assert (again.exit_code, again.stdout) == (0, "")


@pytest.mark.usefixtures("netbox_env")
def test_a_tunnel_whose_outside_ip_is_not_the_tunnel_source_is_reported_and_nothing_written(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    assert push(SITES).exit_code == 0
    end = next(
        t for t in netbox.vpn.tunnel_terminations.all() if t.termination.device.name == "lab-b-rtr1"
    )
    stray = netbox.ipam.ip_addresses.create(address="10.216.44.46/27")
    end.update({"outside_ip": stray.id})
    out = tmp_path / "pulled"
    pulled = runner.invoke(
        app, ["netbox", "pull", "-o", str(out), "--tag", "l2tpgen", "--overlay", str(OVERLAY)]
    )
    assert pulled.exit_code == 1
    flat = pulled.output.replace("\n", " ")
    url = f"{netbox.base_url.removesuffix('/api')}/vpn/tunnel-terminations/{end.id}/"
    assert (
        f"{url}: not mapped: tunnel site-a-site-b: outside IP 10.216.44.46/27 of lab-b-rtr1 is "
        "not its tunnel source 10.216.44.47 (the WAN address)"
    ) in flat
    assert not out.exists()


@pytest.mark.usefixtures("netbox_env")
def test_a_sites_ssh_port_is_recorded_and_pull_and_the_netbox_inventory_use_it(
    netbox: Any,  # noqa: ANN401
    netbox_server: NetBoxServer,
    tmp_path: Path,
) -> None:
    sites = tmp_path / "sites"
    shutil.copytree(SITES, sites)
    site_a = sites / "site-a.yaml"
    site_a.write_text(site_a.read_text().replace("port: 22,", "port: 2201,"))
    assert push(sites).exit_code == 0
    device = netbox.dcim.devices.get(name="lab-a-rtr1")
    assert device.custom_fields["l2tpgen_ssh_port"] == 2201
    out = tmp_path / "pulled"
    pulled = runner.invoke(
        app, ["netbox", "pull", "-o", str(out), "--tag", "l2tpgen", "--overlay", str(OVERLAY)]
    )
    assert pulled.exit_code == 0, pulled.output
    assert load_fleet(out).site("site-a").management.port == 2201
    assert load_fleet(out).site("site-b").management.port == 22
    hosts = map_hosts(Client(netbox_server.url, netbox_server.token).devices(Selection("l2tpgen")))
    assert (hosts.routers["site-a"].host, hosts.routers["site-a"].port) == ("192.0.2.11", 2201)


@pytest.mark.usefixtures("netbox_env")
def test_a_linux_site_is_recorded_under_its_own_interface_names(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    # sites/ with site-b a Linux PE written the old way: IOS names, the real ones in `linux:`.
    sites = tmp_path / "sites"
    shutil.copytree(SITES, sites)
    static = ("signaling: dynamic, pmtu: true,", "signaling: static,")
    for name, edits in (
        ("site-a", [static]),
        (
            "site-b",
            [
                static,
                ("device_type: cisco_ios}", "}\nplatform: linux"),
                ("l2tp_class:", "linux: {wan: enp3s0, lan: enp4s0}\nl2tp_class:"),
            ],
        ),
    ):
        path = sites / f"{name}.yaml"
        text = path.read_text()
        for old, new in edits:
            assert old in text, old
            text = text.replace(old, new)
        path.write_text(text)
    result = push(sites)
    assert result.exit_code == 0, result.output
    names = {i.name for i in netbox.dcim.interfaces.filter(device="lab-b-rtr1")}
    assert {"enp3s0", "enp4s0", "enp4s0.2996"} <= names
    assert not any("Ethernet" in name for name in names)
