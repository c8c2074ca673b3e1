"""docs/netbox.md's mapping, case by case, on records the real NetBox 4.7.3 answered.

The pair of ``tests/netbox/recorded/pull-pair.json`` (r1 and r2, a VPWS L2VPN ``backup`` on their
``GigabitEthernet0/0.100``) is read through the client from the recording, then changed the way a
NetBox user gets it wrong; each case names what ``netbox pull`` must report, at which object.
No NetBox is needed, so mutation testing reaches the mapping's every refusal.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import pytest
import yaml
from conftest import ROOT
from netbox_recording import BASE, Recording, replaying

if TYPE_CHECKING:
    from collections.abc import Callable

pytest.importorskip("pynetbox")

from l2tpgen.netbox import Client, Selection, build_sites
from l2tpgen.netbox.client import Device, Interface, Inventory, Termination
from l2tpgen.netbox.overlay import Overlay

SECRET = Overlay(defaults={"l2tp_class": {"secret_env": "L2TPGEN_L2TP_SECRET"}})
DEV = f"{BASE}/dcim/devices"


def _pair() -> Inventory:
    client = Client(BASE, "nbt_recorded.not-a-secret")
    recorded = Recording.load(ROOT / "tests" / "netbox" / "recorded" / "pull-pair.json")
    replaying(client.api.http_session, recorded)
    return client.inventory(Selection(tag="l2tpgen"))


def _interface(inv: Inventory, iid: int, **changes: object) -> Inventory:
    interfaces = dict(inv.interfaces)
    interfaces[iid] = replace(interfaces[iid], **changes)  # type: ignore[arg-type]
    return replace(inv, interfaces=interfaces)


def _device(inv: Inventory, did: int, **changes: object) -> Inventory:
    devices = tuple(replace(d, **changes) if d.id == did else d for d in inv.devices)  # type: ignore[arg-type]
    return replace(inv, devices=devices)


def _ends(inv: Inventory, *ends: Termination) -> Inventory:
    return replace(inv, terminations=ends)


def _add(inv: Inventory, interface: Interface) -> Inventory:
    return replace(inv, interfaces={**inv.interfaces, interface.id: interface})


# Interface ids of the recording: r1 WAN 1, mgmt 2, LAN 3, sub 4; r2 WAN 5, mgmt 6, LAN 7, sub 8.
CASES: dict[str, tuple[Callable[[Inventory], Inventory], str, str]] = {
    "no-primary-ip": (
        lambda inv: _device(inv, 2, primary_ip4=None),
        f"{DEV}/2/",
        "device r2 has no primary IPv4 address (SSH)",
    ),
    "no-wan-tag": (
        lambda inv: _interface(inv, 5, tags=frozenset()),
        f"{DEV}/2/",
        "device r2: no interface tagged l2tpgen-wan (the WAN)",
    ),
    "two-wan-tags": (
        lambda inv: _interface(inv, 7, tags=frozenset({"l2tpgen-wan"})),
        f"{DEV}/2/",
        "device r2: tag l2tpgen-wan is on GigabitEthernet0/0, GigabitEthernet0/1: tag one",
    ),
    "wan-without-address": (
        lambda inv: replace(inv, addresses=tuple(a for a in inv.addresses if a.interface_id != 5)),
        f"{BASE}/dcim/interfaces/5/",
        "WAN interface GigabitEthernet0/1 of r2 has no IPv4 address: assign one",
    ),
    "wan-with-two-addresses": (
        lambda inv: replace(
            inv,
            addresses=(
                *inv.addresses,
                replace(
                    next(a for a in inv.addresses if a.interface_id == 5), address="203.0.113.9/30"
                ),
            ),
        ),
        f"{BASE}/dcim/interfaces/5/",
        "WAN interface GigabitEthernet0/1 of r2 has 2 IPv4 addresses: assign one",
    ),
    "no-gateway": (
        lambda inv: _interface(inv, 5, gateway=None),
        f"{BASE}/dcim/interfaces/5/",
        "WAN interface GigabitEthernet0/1 of r2 has no custom field l2tpgen_gateway (its next hop)",
    ),
    "loopback-without-address": (
        lambda inv: _add(
            inv,
            replace(
                inv.interfaces[3],
                id=99,
                name="Loopback0",
                type="virtual",
                tags=frozenset({"l2tpgen-loopback"}),
                url=f"{BASE}/dcim/interfaces/99/",
            ),
        ),
        f"{BASE}/dcim/interfaces/99/",
        "loopback interface Loopback0 of r1 has no IPv4 address: assign one",
    ),
    "one-termination": (
        lambda inv: _ends(inv, inv.terminations[0]),
        f"{BASE}/vpn/l2vpns/1/",
        "L2VPN backup has 1 termination(s): a VPWS needs two",
    ),
    "termination-on-a-vlan": (
        lambda inv: _ends(
            inv, inv.terminations[0], replace(inv.terminations[1], object_type="ipam.vlan")
        ),
        f"{BASE}/vpn/l2vpn-terminations/2/",
        "L2VPN backup ends on a ipam.vlan, not a device's subinterface",
    ),
    "both-ends-on-one-device": (
        lambda inv: _interface(inv, 8, device_id=1, parent_id=3),
        f"{BASE}/vpn/l2vpns/1/",
        "L2VPN backup ends twice on device r1",
    ),
    "end-on-a-device-not-selected": (
        lambda inv: replace(
            _interface(inv, 8, device_id=3),
            far_devices={3: Device(3, "r3", f"{DEV}/3/", None, None, None)},
        ),
        f"{BASE}/vpn/l2vpns/1/",
        "L2VPN backup ends on r3, not selected",
    ),
    "end-not-a-subinterface": (
        lambda inv: _interface(inv, 8, type="1000base-t"),
        f"{BASE}/dcim/interfaces/8/",
        "L2VPN backup ends on r2 GigabitEthernet0/0.100, which is not a dot1Q subinterface",
    ),
    "subinterface-without-vlan": (
        lambda inv: _interface(inv, 8, name="GigabitEthernet0/0.x"),
        f"{BASE}/dcim/interfaces/8/",
        "which is not a dot1Q subinterface",
    ),
    "two-devices-one-site": (
        lambda inv: _device(_device(inv, 1, site_name="dc"), 2, site_name="dc"),
        f"{DEV}/2/",
        "devices r1 and r2 both map to site dc (custom field l2tpgen_site)",
    ),
    "no-pseudowire": (
        lambda inv: replace(inv, terminations=(), l2vpns={}),
        f"{DEV}/1/",
        "device r1 terminates no VPWS L2VPN on a subinterface, so its LAN trunk is unknown",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_netbox_mistake_is_reported_at_its_object_and_no_site_is_built_from_it(
    case: str,
) -> None:
    change, url, message = CASES[case]
    result = build_sites(change(_pair()), SECRET, BASE)
    said = [(u.url, u.message) for u in result.unmapped]
    assert any(u == url and message in m for u, m in said), said


def test_the_recorded_pair_maps_with_nothing_reported() -> None:
    result = build_sites(_pair(), SECRET, BASE)
    assert result.unmapped == ()
    assert [s.name for s in result.sites] == ["r1", "r2"]


def test_an_l2vpn_that_is_not_vpws_is_left_alone() -> None:
    inv = _pair()
    inv = replace(inv, l2vpns={1: replace(inv.l2vpns[1], type="vxlan-evpn")})
    result = build_sites(inv, SECRET, BASE)
    assert result.sites == ()  # no pseudowire left: each device is reported as such
    assert all("terminates no VPWS L2VPN" in u.message for u in result.unmapped)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({}, {"id": 100, "name": "backup", "peer": "r2", "vc_id": 500}),
        (
            {"untagged_vid": 300, "untagged_name": "storage"},
            {"id": 300, "name": "storage", "peer": "r2", "vc_id": 500},
        ),
    ],
    ids=["vid-from-the-name", "vid-and-name-from-the-untagged-vlan"],
)
def test_a_vlan_takes_its_id_and_name_from_the_untagged_vlan_else_the_subinterface_name(
    changes: dict[str, object], expected: dict[str, object]
) -> None:
    inv = _pair()
    if changes:
        inv = _interface(_interface(inv, 4, **changes), 8, **changes)
    result = build_sites(inv, SECRET, BASE)
    assert result.unmapped == ()
    r1 = yaml.safe_load(next(s.text for s in result.sites if s.name == "r1"))
    assert r1["vlans"] == [expected]


def test_speed_duplex_mtu_and_the_site_field_come_from_netbox() -> None:
    inv = _interface(_pair(), 1, speed=1_000_000, duplex="full", mtu=1600)
    inv = _device(inv, 1, site_name="ams", ssh_port=2222)
    result = build_sites(inv, SECRET, BASE)
    assert result.unmapped == ()
    ams = yaml.safe_load(next(s.text for s in result.sites if s.name == "ams"))
    assert ams["hostname"] == "r1"
    assert ams["management"] == {"host": "192.0.2.101", "port": 2222}
    assert ams["wan"]["speed"] == 1000
    assert ams["wan"]["duplex"] == "full"
    assert ams["wan"]["mtu"] == 1600
    r2 = yaml.safe_load(next(s.text for s in result.sites if s.name == "r2"))
    assert r2["vlans"][0]["peer"] == "ams"


def _second_l2vpn(inv: Inventory, r1_parent: int) -> Inventory:
    """A second VPWS L2VPN, VLAN 200, on r1's interface ``r1_parent`` and r2's LAN trunk."""
    r1_sub = replace(
        inv.interfaces[4],
        id=90,
        name="GigabitEthernet0/2.200",
        parent_id=r1_parent,
        url=f"{BASE}/dcim/interfaces/90/",
    )
    r2_sub = replace(
        inv.interfaces[8], id=91, name="GigabitEthernet0/0.200", url=f"{BASE}/dcim/interfaces/91/"
    )
    other = replace(
        inv.l2vpns[1], id=2, name="storage", identifier=501, url=f"{BASE}/vpn/l2vpns/2/"
    )
    ends = (
        replace(
            inv.terminations[0], l2vpn_id=2, object_id=90, url=f"{BASE}/vpn/l2vpn-terminations/3/"
        ),
        replace(
            inv.terminations[1], l2vpn_id=2, object_id=91, url=f"{BASE}/vpn/l2vpn-terminations/4/"
        ),
    )
    inv = _add(_add(inv, r1_sub), r2_sub)
    return replace(inv, l2vpns={**inv.l2vpns, 2: other}, terminations=(*inv.terminations, *ends))


def test_subinterfaces_of_one_device_on_two_parents_are_refused_naming_both() -> None:
    inv = _pair()
    trunk2 = replace(
        inv.interfaces[3], id=89, name="GigabitEthernet0/2", url=f"{BASE}/dcim/interfaces/89/"
    )
    result = build_sites(_second_l2vpn(_add(inv, trunk2), 89), SECRET, BASE)
    said = [(u.url, u.message) for u in result.unmapped]
    assert (
        f"{BASE}/dcim/interfaces/90/",
        (
            "r1: subinterfaces on GigabitEthernet0/0 and GigabitEthernet0/2; l2tpgen builds one "
            "LAN trunk per site"
        ),
    ) in said


def test_two_l2vpns_on_one_trunk_give_two_vlans_in_vlan_order() -> None:
    result = build_sites(_second_l2vpn(_pair(), 3), SECRET, BASE)
    assert result.unmapped == ()
    r1 = yaml.safe_load(next(s.text for s in result.sites if s.name == "r1"))
    assert [(v["id"], v["name"], v["vc_id"]) for v in r1["vlans"]] == [
        (100, "backup", 500),
        (200, "storage", 501),
    ]


def test_what_a_vlan_carries_stays_at_the_end_that_states_it() -> None:
    inv = _pair()
    inv = _ends(inv, inv.terminations[0], replace(inv.terminations[1], carries="cluster-heartbeat"))
    result = build_sites(inv, SECRET, BASE)
    assert result.unmapped == ()
    by_site = {s.name: yaml.safe_load(s.text)["vlans"][0] for s in result.sites}
    assert by_site["r2"]["carries"] == "cluster-heartbeat"
    assert "carries" not in by_site["r1"]


def test_an_ipv6_address_beside_the_wans_ipv4_one_is_not_counted() -> None:
    inv = _pair()
    wan = next(a for a in inv.addresses if a.interface_id == 1)
    inv = replace(inv, addresses=(*inv.addresses, replace(wan, address="2001:db8::1/64")))
    result = build_sites(inv, SECRET, BASE)
    assert result.unmapped == ()
    r1 = yaml.safe_load(next(s.text for s in result.sites if s.name == "r1"))
    assert r1["wan"]["address"] == "203.0.113.1/30"


def test_a_pulled_file_lists_its_keys_in_the_site_models_order() -> None:
    inv = _interface(_pair(), 1, mtu=1600, duplex="full")
    result = build_sites(inv, SECRET, BASE)
    r1 = next(s.text for s in result.sites if s.name == "r1")
    keys = [line.split(":")[0] for line in r1.splitlines() if line and line[0].isalpha()]
    assert keys == ["name", "hostname", "management", "wan", "lan", "l2tp_class", "peers", "vlans"]
    wan = r1[r1.index("wan:") :].split("\nlan:")[0]
    order = [k for k in ("interface", "address", "gateway", "mtu", "duplex") if k in wan]
    assert sorted(order, key=wan.index) == ["interface", "address", "gateway", "mtu", "duplex"]
