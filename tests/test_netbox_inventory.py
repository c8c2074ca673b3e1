"""NetBox as push's inventory (``--inventory netbox``), against a real NetBox.

Devices are made through NetBox's REST API the way a NetBox user keeps them; the routers push
would connect to are worked out by hand from docs/netbox.md ("NetBox as push's inventory").
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import SITES
from conftest_netbox import NetBoxServer, add_address, add_interface, setup_netbox
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.device.inventory import Target
from l2tpgen.model.load import load_fleet
from l2tpgen.netbox.client import Client, Device, Selection
from l2tpgen.netbox.hosts import InventorySpecError, Spec, map_hosts, parse_spec, targets

if TYPE_CHECKING:
    from conftest_sim import Lab

runner = CliRunner()


def add_router(
    api: Any,  # noqa: ANN401 - pynetbox is untyped
    base: dict[str, Any],
    name: str,
    *,
    address: str | None,
    tagged: bool = True,
    **fields: Any,  # noqa: ANN401
) -> Any:  # noqa: ANN401
    """A device (tagged l2tpgen), with ``address`` on mgmt0 as its primary IP when given."""
    site = api.dcim.sites.get(slug="dc") or api.dcim.sites.create(name="DC", slug="dc")
    device = api.dcim.devices.create(
        name=name,
        device_type=base["type"].id,
        role=base["role"].id,
        site=site.id,
        tags=[base["tags"]["l2tpgen"].id] if tagged else [],
        **fields,
    )
    if address is not None:
        mgmt = add_interface(api, device, "mgmt0", mgmt_only=True)
        ip = add_address(api, mgmt, address)
        if ":" in address:
            device.primary_ip6 = ip.id
        else:
            device.primary_ip4 = ip.id
        device.save()
    return device


def ssh_port_field(api: Any) -> None:  # noqa: ANN401
    """The custom field docs/netbox.md names for a router's SSH port (integer, on devices)."""
    api.extras.custom_fields.create(
        name="l2tpgen_ssh_port", type="integer", object_types=["dcim.device"], label="SSH port"
    )


def test_tagged_devices_are_the_routers_with_their_address_port_and_device_type(
    netbox: Any,  # noqa: ANN401
    netbox_server: NetBoxServer,
) -> None:
    base = setup_netbox(netbox)
    ssh_port_field(netbox)
    iosxe = netbox.dcim.platforms.create(name="Cisco IOS-XE", slug="iosxe")
    add_router(
        netbox,
        base,
        "lab-a-rtr1",
        address="192.0.2.11/32",
        platform=iosxe.id,
        custom_fields={"l2tpgen_site": "site-a", "l2tpgen_ssh_port": 2201},
    )
    # No custom fields: the device's name is the site, the port and type are the site file's.
    add_router(netbox, base, "site-b", address="2001:db8::12/128")
    add_router(netbox, base, "site-c", address="192.0.2.13/32", tagged=False)
    hosts = map_hosts(Client(netbox_server.url, netbox_server.token).devices(Selection("l2tpgen")))
    assert hosts.problems == {}
    assert sorted(hosts.routers) == ["site-a", "site-b"]  # site-c is not tagged l2tpgen
    known = Path("/tmp/known")  # noqa: S108 - only a path in the Target
    found = targets(hosts, load_fleet(SITES), ["site-a", "site-b"], Spec(known_hosts=known))
    assert found == {
        "site-a": Target("site-a", "192.0.2.11", 2201, "cisco_xe", known),
        "site-b": Target("site-b", "2001:db8::12", 22, "cisco_ios", known),
    }


@pytest.mark.usefixtures("netbox_env")
def test_a_device_without_a_primary_ip_stops_push_with_its_netbox_url(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    base = setup_netbox(netbox)
    a = add_router(netbox, base, "site-a", address=None)
    add_router(netbox, base, "site-b", address="127.0.0.12/32")
    # Were it reached: 127.0.0.0/8 only, and no host key is trusted (known_hosts is absent).
    inventory = f"netbox:tag=l2tpgen,known_hosts={tmp_path / 'absent'}"
    result = runner.invoke(
        app,
        ["push", "site-a", "--sites", str(SITES), "--inventory", inventory, "--yes"],
        env={"L2TPGEN_USERNAME": "u", "L2TPGEN_PASSWORD": "p", "L2TPGEN_STATE_DIR": str(tmp_path)},
    )
    assert result.exit_code == 1, result.output
    url = f"{netbox.base_url.removesuffix('/api')}/dcim/devices/{a.id}/"
    assert f"{url}: not usable: device site-a (site site-a) has no primary IP address" in (
        result.output.replace("\n", " ")
    )
    assert "site-a: the NetBox device cannot be used (above); nothing was done" in result.output


@pytest.mark.usefixtures("netbox_env")
def test_a_site_netbox_has_no_device_for_is_named(netbox: Any, tmp_path: Path) -> None:  # noqa: ANN401
    base = setup_netbox(netbox)
    add_router(netbox, base, "site-a", address="127.0.0.11/32")
    add_router(netbox, base, "site-b", address="127.0.0.12/32", tagged=False)
    inventory = f"netbox:tag=l2tpgen,known_hosts={tmp_path / 'absent'}"
    result = runner.invoke(
        app,
        ["diff", "--all", "--sites", str(SITES), "--inventory", inventory],
        env={"L2TPGEN_USERNAME": "u", "L2TPGEN_PASSWORD": "p", "L2TPGEN_STATE_DIR": str(tmp_path)},
    )
    assert result.exit_code == 1, result.output
    assert "site-b: no NetBox device (tag=l2tpgen) is named so" in result.output.replace("\n", " ")


@pytest.mark.usefixtures("netbox_env")
def test_push_and_verify_reach_the_simulated_routers_netbox_lists(
    netbox: Any,  # noqa: ANN401
    lab: Lab,
) -> None:
    base = setup_netbox(netbox)
    ssh_port_field(netbox)
    ios = netbox.dcim.platforms.create(name="Cisco IOS", slug="ios")
    mgmt_vrfs = {}
    for site in ("site-a", "site-b"):
        # Both simulated routers listen on 127.0.0.1; NetBox keeps one address per VRF.
        mgmt_vrfs[site] = netbox.ipam.vrfs.create(name=f"mgmt-{site}")
        device = add_router(
            netbox,
            base,
            lab.fleet.site(site).hostname,
            address=None,
            platform=ios.id,
            custom_fields={"l2tpgen_site": site, "l2tpgen_ssh_port": lab.device(site).port},
        )
        mgmt = add_interface(netbox, device, "mgmt0", mgmt_only=True)
        ip = netbox.ipam.ip_addresses.create(
            address="127.0.0.1/32",
            vrf=mgmt_vrfs[site].id,
            assigned_object_type="dcim.interface",
            assigned_object_id=mgmt.id,
        )
        device.primary_ip4 = ip.id
        device.save()
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    inventory = f"netbox:tag=l2tpgen,known_hosts={known}"
    # The site files' own management (192.0.2.x) moved to 127.0.0.2:9, where nothing listens:
    # were NetBox's address or port ignored, push would fail here (the simulator listens on
    # 127.0.0.1 only) and never leave 127.0.0.0/8.
    sites = lab.directory / "sites"
    shutil.copytree(SITES, sites)
    for name in ("site-a", "site-b"):
        path = sites / f"{name}.yaml"
        text = re.sub(
            r"management: \{host: [0-9.]+, port: 22,",
            "management: {host: 127.0.0.2, port: 9,",
            path.read_text(),
        )
        path.write_text(text)
    assert load_fleet(sites).site("site-b").management.port == 9
    pushed = runner.invoke(
        app, ["push", "site-a", "site-b", "--sites", str(sites), "--inventory", inventory, "--yes"]
    )
    assert pushed.exit_code == 0, pushed.output
    for site in ("site-a", "site-b"):
        assert "interface GigabitEthernet0/0.2996\n" in lab.running(site)
    verified = runner.invoke(
        app, ["verify", "--all", "--sites", str(sites), "--inventory", inventory]
    )
    assert verified.exit_code == 0, verified.output


def _device(name: str, **fields: Any) -> Device:  # noqa: ANN401
    values: dict[str, Any] = {
        "id": len(name),
        "name": name,
        "url": f"http://netbox/dcim/devices/{name}/",
        "site_name": None,
        "platform": None,
        "primary_ip4": "127.0.0.9/32",
    }
    return Device(**{**values, **fields})


def test_devices_that_cannot_be_a_router_are_each_reported_with_their_url() -> None:
    hosts = map_hosts(
        [
            _device("r-port", ssh_port="ssh"),
            _device("r-big-port", ssh_port=70000),
            _device("r-linux", platform="linux"),
            _device("r-one", site_name="twice"),
            _device("r-two", site_name="twice"),
            _device("r-ok", platform="cisco-ios-xe", ssh_port="2222"),  # a slug l2tpgen has not
        ]
    )
    messages = {
        site: [(p.url.rsplit("/", 2)[1], p.message) for p in problems]
        for site, problems in hosts.problems.items()
    }
    assert messages == {
        "r-port": [
            (
                "r-port",
                (
                    "device r-port (site r-port): custom field l2tpgen_ssh_port is 'ssh', "
                    "not a port (1 to 65535)"
                ),
            )
        ],
        "r-big-port": [
            (
                "r-big-port",
                (
                    "device r-big-port (site r-big-port): custom field l2tpgen_ssh_port is "
                    "'70000', not a port (1 to 65535)"
                ),
            )
        ],
        "r-linux": [
            (
                "r-linux",
                (
                    "device r-linux (site r-linux): platform linux (Linux (iproute2, "
                    "systemd-networkd)) is not a router push, diff and verify handle"
                ),
            )
        ],
        "twice": [
            (
                "r-two",
                (
                    "devices r-one and r-two both map to site twice (custom field l2tpgen_site): "
                    "which router is it?"
                ),
            )
        ],
    }
    # Neither of two devices claiming one site is used; an unknown platform slug is no verdict.
    assert sorted(hosts.routers) == ["r-ok"]
    assert (hosts.routers["r-ok"].port, hosts.routers["r-ok"].device_type) == (2222, None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("netbox", Spec()),
        ("netbox:tag=l2tpgen", Spec(Selection(tag="l2tpgen"))),
        (
            "netbox:site=dc1,role=pe,known_hosts=/k",
            Spec(Selection(site="dc1", role="pe"), Path("/k")),
        ),
        ("netbox:tag=l2tpgen, role=pe", Spec(Selection(tag="l2tpgen", role="pe"))),
        ("inventory.yaml", None),
        ("netbox-hosts.yaml", None),  # a file whose name starts with netbox
    ],
)
def test_the_inventory_option_names_netbox_and_its_filter(text: str, expected: Spec | None) -> None:
    assert parse_spec(text) == expected


@pytest.mark.parametrize(
    "text", ["netbox:", "netbox:tag", "netbox:color=red", "netbox:tag=a,tag=b", "netbox:tag="]
)
def test_a_malformed_netbox_inventory_is_refused_naming_the_keys(text: str) -> None:
    with pytest.raises(InventorySpecError, match="is not one of tag, site, role, known_hosts"):
        parse_spec(text)
