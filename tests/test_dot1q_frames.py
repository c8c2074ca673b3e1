"""The frame inside a Cisco to Linux pseudowire: the 802.1Q tag is carried, as Cisco sends it.

Cisco's L2TPv3 feature guide (IOS 12.0(29)S/12.2(25)S, p.22, the brief's S1; seen at
http://38.142.81.21:8001/manual/cisco/cisco-ios-software-release-12-0-29-s/manual-english/page-22.html):
an Ethernet subinterface bound to an xconnect tunnels the traffic tagged with its VID, and "the VLAN
Ethernet frames are forwarded in their entirety". So the Linux end of a pseudowire to a Cisco
dot1Q subinterface must send and expect the tagged frame: a VLAN device with the pseudowire's VLAN
ID on the session device, bridged with the LAN trunk's VLAN. Linux to Linux, no tag is carried.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from conftest import ROOT

from l2tpgen import load_fleet
from l2tpgen.platforms.linux.render import bare
from l2tpgen.platforms.render import render_files, render_site

if TYPE_CHECKING:
    from pathlib import Path

HUB = ROOT / "examples" / "hub"
SITES = ROOT / "examples" / "sites"


def _trusted(tmp_path: Path) -> Path:
    """examples/hub with both WANs trusted (no IPsec), so networkd can render linux-edge."""
    sites = tmp_path / "hub"
    sites.mkdir()
    for source in HUB.glob("*.yaml"):
        text = source.read_text()
        for gateway in ("198.51.100.6", "198.51.100.22"):
            text = text.replace(f"gateway: {gateway}\n", f"gateway: {gateway}\n  trusted: true\n")
        (sites / source.name).write_text(text)
    return sites


def test_the_linux_end_towards_the_cisco_hub_bridges_a_vlan_device_on_the_session() -> None:
    script = "\n".join(map(bare, render_site(load_fleet(HUB), "linux-edge").splitlines())) + "\n"
    # VLAN 200 on the hub's Gi0/0/0.200 (encapsulation dot1Q 200): tagged inside the session.
    assert "ip link add link l2tp200 name l2tp200.200 type vlan id 200\n" in script
    assert "ip link set dev l2tp200.200 up\n" in script
    assert "ip link set dev l2tp200.200 master br200\n" in script
    assert "ip link set dev eth2.200 master br200\n" in script
    # The untagged session device itself is not in the bridge: it would send untagged frames.
    assert "ip link set dev l2tp200 master br200" not in script


def test_the_vlan_device_is_made_after_its_session_and_joins_the_bridge_after_it_exists() -> None:
    lines = [bare(line) for line in render_site(load_fleet(HUB), "linux-edge").splitlines()]
    session = lines.index(
        "ip l2tp add session name l2tp200 tunnel_id 1 session_id 200 peer_session_id 200 "
        "l2spec_type none"
    )
    vlan = lines.index("ip link add link l2tp200 name l2tp200.200 type vlan id 200")
    bridge = lines.index("ip link add br200 type bridge")
    joins = lines.index("ip link set dev l2tp200.200 master br200")
    assert session < vlan < joins
    assert bridge < joins


def test_linux_to_linux_pseudowires_carry_no_tag_and_bridge_the_session_itself() -> None:
    fleet = load_fleet(HUB).on_platform("linux")  # what the lab builds: every PE on Linux
    script = render_site(fleet, "linux-edge")
    assert "ip link set dev l2tp200 master br200\n" in script
    assert "type vlan id 200" in script  # the LAN trunk's eth2.200 only
    assert "link l2tp200 name" not in script


def test_the_mtu_counts_the_tag_exactly_when_it_is_carried() -> None:
    fleet = load_fleet(HUB)
    cisco_peer = re.search(r"dev l2tp200 up mtu (\d+)", render_site(fleet, "linux-edge"))
    linux_peer = re.search(
        r"dev l2tp200 up mtu (\d+)", render_site(fleet.on_platform("linux"), "linux-edge")
    )
    assert cisco_peer is not None
    assert linux_peer is not None
    # The hub path gets ESP by default (34 bytes, see test_platforms): 1500 - 20 - 4 - 14 - 34
    # = 1428 untagged, 4 less (1424) with the tag carried.
    assert (int(cisco_peer.group(1)), int(linux_peer.group(1))) == (1424, 1428)


def test_networkd_puts_the_tagged_vlan_netdev_between_the_session_and_the_bridge(
    tmp_path: Path,
) -> None:
    files = render_files(load_fleet(_trusted(tmp_path)), "linux-edge", "networkd")
    assert files["20-l2tp200.200.netdev"] == (
        "[NetDev]\nName=l2tp200.200\nKind=vlan\n\n[VLAN]\nId=200\n"
    )
    session = files["30-l2tp200.network"]
    assert "[Network]\nVLAN=l2tp200.200\n" in session
    assert "Bridge=" not in session
    assert (
        "[Match]\nName=l2tp200.200\n\n[Network]\nBridge=br200\n" in files["30-l2tp200.200.network"]
    )


def test_networkd_linux_to_linux_bridges_the_session_device_with_no_vlan_on_it(
    tmp_path: Path,
) -> None:
    files = render_files(
        load_fleet(_trusted(tmp_path)).on_platform("linux"), "linux-edge", "networkd"
    )
    assert "Bridge=br200" in files["30-l2tp200.network"]
    assert "20-l2tp200.200.netdev" not in files
