"""Every Linux and VyOS PE of a lab runs exactly what `l2tpgen render` writes for it.

Only the interface names differ: the site's WAN and LAN trunk are the lab's eth1 and eth2. A
Cisco PE, which cannot run here, is emulated framing as Cisco documents its dot1Q
subinterfaces bound to an xconnect: the VLAN frame "in its entirety" (Cisco's L2TPv3 feature
guide, IOS 12.0(29)S/12.2(25)S p.22), so a VLAN device with the VLAN ID on each session, and
the pair's budget as its MTU (what `render` gives the Linux end).

The VyOS lines run as vyos-1x runs them (vyos/vyos-1x ``python/vyos/ifconfig/l2tpv3.py`` and
``bridge.py``): ``l2tpgen/lab/vyosrun.py`` says which commands each becomes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from builders import VYOS_EDGE, hub_fleet
from conftest import ROOT
from conftest_lab import beside

from l2tpgen import load_fleet
from l2tpgen.lab.attack import Target, target
from l2tpgen.lab.attack import forge as attack_forge
from l2tpgen.lab.faithful import map_names
from l2tpgen.lab.inputs import parse_lab
from l2tpgen.lab.pairs import pairs
from l2tpgen.lab.security import reveal_secrets
from l2tpgen.lab.topology import build_topology
from l2tpgen.lab.vyosrun import VyosLabError, vyos_commands
from l2tpgen.platforms.linux.render import bare
from l2tpgen.platforms.render import render_files

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.model import Fleet

EXAMPLES = ROOT / "examples"
LINUX_NAMES = (
    ("linux-edge", "  interface: eth1\n", "  interface: enp3s0\n"),
    ("linux-edge", "lan: {interface: eth2}", "lan: {interface: enp4s0}"),
)


def _rendered_lines(fleet: Fleet, name: str) -> list[str]:
    """The rendered script's or set commands' lines, comments left out (as a shell does)."""
    files = render_files(fleet, name)
    text = files.get("iproute2.sh", files.get("", ""))
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def _pe_exec(fleet: Fleet, name: str) -> list[str]:
    nodes = build_topology(fleet)["topology"]["nodes"]
    commands: list[str] = nodes[f"pe-{name}"]["exec"]
    # An IPv6 site's lab turns IPv6 on for its lo and WAN first (the VM boots with it off).
    return [c for c in commands if not c.startswith("sysctl -w net.ipv6.conf.")]


@pytest.mark.parametrize("example", ["hub", "ipv6", "protected", "field"])
def test_each_linux_pe_of_the_examples_runs_its_rendered_script_line_for_line(
    example: str,
) -> None:
    fleet = load_fleet(EXAMPLES / example)
    linux = [n for n, s in sorted(fleet.sites.items()) if not s.driver.ios_config]
    for name in linux:
        names = {fleet.site(name).linux.wan: "eth1", fleet.site(name).linux.lan: "eth2"}
        expected = [map_names(line, names) for line in _rendered_lines(fleet, name)]
        assert _pe_exec(fleet, name) == expected, name


def test_the_hubs_linux_edge_runs_at_the_rendered_1424_with_the_tag_on_each_session() -> None:
    fleet = load_fleet(EXAMPLES / "hub")
    commands = [bare(c) for c in _pe_exec(fleet, "linux-edge")]  # without the re-run guards
    for vlan in (200, 201, 202):
        assert f"ip link set dev l2tp{vlan} up mtu 1424" in commands
        assert f"ip link add link l2tp{vlan} name l2tp{vlan}.{vlan} type vlan id {vlan}" in commands
        assert f"ip link set dev l2tp{vlan}.{vlan} master br{vlan}" in commands
    assert not any("mtu 1428" in c for c in commands)
    ces = build_topology(fleet)["topology"]["nodes"]["ce-linux-edge"]["labels"]
    assert ces["l2tpgen.mtu"] == "1424"  # what the mtu check proves


def test_the_cisco_hub_is_emulated_with_the_tag_carried_and_the_pairs_mtu() -> None:
    fleet = load_fleet(EXAMPLES / "hub")
    commands = [bare(c) for c in _pe_exec(fleet, "hub")]
    # Towards linux-edge: the same session, tag and MTU as linux-edge's end.
    assert "ip link set dev l2tp200 up mtu 1424" in commands
    assert "ip link add link l2tp200 name l2tp200.200 type vlan id 200" in commands
    # Towards the Cisco branch too: Cisco to Cisco, the tag travels both ways.
    assert "ip link add link l2tp100 name l2tp100.100 type vlan id 100" in commands
    assert not any(c == "ip link set dev l2tp200 master br200" for c in commands)


def test_a_site_with_linux_interface_names_runs_in_the_lab_under_the_labs_names(
    tmp_path: Path,
) -> None:
    fleet = load_fleet(hub_fleet(tmp_path, *LINUX_NAMES))
    rendered = _rendered_lines(fleet, "linux-edge")
    assert "ip addr replace 198.51.100.17/29 dev enp3s0" in rendered
    assert "ip link add link enp4s0 name enp4s0.200 type vlan id 200" in map(bare, rendered)
    commands = _pe_exec(fleet, "linux-edge")
    assert not any("enp" in c for c in commands)
    names = {"enp3s0": "eth1", "enp4s0": "eth2"}
    assert commands == [map_names(line, names) for line in rendered]
    assert "ip link add link eth2 name eth2.200 type vlan id 200" in map(bare, commands)


def test_a_vyos_pe_runs_its_rendered_set_commands_as_vyos_1x_does(tmp_path: Path) -> None:
    fleet = load_fleet(hub_fleet(tmp_path, *VYOS_EDGE))
    rendered = "\n".join(_rendered_lines(fleet, "linux-edge"))
    commands = _pe_exec(fleet, "linux-edge")
    assert commands == vyos_commands(rendered)
    assert commands[:3] == [
        "ip link set dev eth1 up mtu 1500",
        "ip addr add 198.51.100.17/29 dev eth1",
        "ip addr add 10.255.0.3/32 dev lo",
    ]
    # One tunnel per session, no l2spec_type: iproute2's default sublayer, as vyos-1x runs it.
    assert (
        "ip l2tp add tunnel tunnel_id 200 peer_tunnel_id 200 encap ip local 10.255.0.3 "
        "remote 10.255.0.1"
    ) in commands
    assert (
        "ip l2tp add session name l2tpeth200 tunnel_id 200 session_id 200 peer_session_id 200"
        in commands
    )
    assert "ip link set dev l2tpeth200 mtu 1454" in commands
    # enable-vlan: a VLAN-filtering bridge; towards the Cisco hub the session is a tagged port.
    assert "ip link add br0 type bridge vlan_filtering 1" in commands
    assert "bridge vlan add dev eth2 vid 200 master" in commands
    assert "bridge vlan add dev l2tpeth200 vid 200 master" in commands
    assert "bridge vlan del dev l2tpeth200 vid 1 master" in commands
    # The route before the tunnels (vyos-1x waits for it: wait_for_add_l2tpv3).
    assert commands[3] == "ip route add 0.0.0.0/0 via 198.51.100.22"


def test_a_native_vlan_member_is_the_vlans_untagged_pvid_port() -> None:
    commands = vyos_commands(
        "set interfaces bridge br0 enable-vlan\n"
        "set interfaces bridge br0 member interface l2tpeth7 native-vlan '7'\n"
    )
    assert "bridge vlan add dev l2tpeth7 vid 7 pvid untagged master" in commands


def test_a_vyos_line_the_lab_does_not_run_is_refused_with_its_line_number() -> None:
    with pytest.raises(VyosLabError, match=r"edge:2: the lab does not run this VyOS line"):
        vyos_commands("# a comment\nset system host-name 'x'\n", "edge")


def test_interface_names_are_mapped_as_whole_words_and_vlan_subinterfaces() -> None:
    names = {"enp3s0": "eth1", "eth1": "eth2"}  # a swap maps each name once
    assert map_names("ip link add link eth1 name eth1.7 type vlan id 7", names) == (
        "ip link add link eth2 name eth2.7 type vlan id 7"
    )
    assert map_names("ip addr add 10.0.0.1/24 dev enp3s0", names) == (
        "ip addr add 10.0.0.1/24 dev eth1"
    )
    assert map_names("ip link add br7 type bridge", names) == "ip link add br7 type bridge"


def _targets(fleet: Fleet) -> dict[tuple[str, int], Target]:
    lab = parse_lab(build_topology(fleet), "fleet", beside(fleet))
    lab = reveal_secrets(lab)
    return {(p.far.pe, p.vlan): target(lab, p) for p in pairs(lab)}


def test_the_attacker_frames_its_forgeries_as_the_far_session_expects(tmp_path: Path) -> None:
    # examples/hub: linux-edge bridges a VLAN device on each session towards the Cisco hub.
    hub = _targets(load_fleet(EXAMPLES / "hub"))
    edge = hub["pe-linux-edge", 200]
    assert (edge.tag, edge.sublayer, edge.inbound_filter, edge.sequenced) == (
        200,
        False,
        True,
        False,
    )
    # A VyOS far end: iproute2's default sublayer, the tag from its VLAN-filtering bridge, no
    # inbound filter (its platform renders none); the hub emulation sends sequence numbers.
    vyos = _targets(load_fleet(hub_fleet(tmp_path, *VYOS_EDGE)))["pe-linux-edge", 200]
    assert (vyos.session, vyos.tag, vyos.sublayer) == (200, 200, True)
    assert (vyos.inbound_filter, vyos.sequenced) == (False, True)
    forge = attack_forge(vyos, vyos.wan_address, 5, "M")
    assert forge.endswith(f"{vyos.session} - 5 M sublayer 200")
    # Two Cisco ends (sites/), both emulated: the tag travels both ways, no sublayer.
    sites = _targets(load_fleet(ROOT / "sites")).values()
    assert sorted((t.vlan, t.tag, t.sublayer) for t in sites) == [
        (v, v, False) for v in (2996, 2997, 2998, 2999)
    ]
