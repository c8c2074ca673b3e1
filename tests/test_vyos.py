"""VyOS PEs (issue 19, item 5): one driver module, its template and these tests.

Expectations are worked out by hand from VyOS's documentation, never from l2tpgen's output:

- the L2TPv3 interface, https://docs.vyos.io/en/latest/configuration/interfaces/l2tpv3.html
  ("Over IP": ``encapsulation ip``, ``source-address``, ``remote``, ``session-id``,
  ``peer-session-id``, ``tunnel-id``, ``peer-tunnel-id``), and its definition in vyos/vyos-1x
  ``interface-definitions/interfaces_l2tpv3.xml.in`` (no cookie, no vif, IDs 1-429496729);
- how VyOS creates it, vyos/vyos-1x ``python/vyos/ifconfig/l2tpv3.py``: ``ip l2tp add session``
  without ``l2spec_type``, so iproute2's default 4-byte L2-specific sublayer (iproute2
  ``ip/ipl2tp.c``: ``p->l2spec_type = L2TP_L2SPECTYPE_DEFAULT``);
- the VLAN-aware bridge, https://docs.vyos.io/en/latest/configuration/interfaces/bridge.html
  (``enable-vlan``; ``allowed-vlan``: the member passes the VLAN tagged; ``native-vlan``: frames
  leave the member untagged).

The MTU: IPv4 20 + session ID 4 + no cookie + the sublayer 4 + the inner Ethernet header 14,
and 4 more for the 802.1Q tag when it travels in the session (towards Cisco).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest
from builders import VYOS_EDGE, hub_fleet
from conftest_lab import requires_vm
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.errors import FleetValidationError
from l2tpgen.lab.topology import build_topology
from l2tpgen.platforms.render import render_files

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()


def _messages(error: FleetValidationError) -> str:
    return "\n".join(problem.message for problem in error.problems)


def _session(vlan: int, mtu: int, port: str) -> list[str]:
    name = f"l2tpeth{vlan}"
    return [
        f"set interfaces l2tpv3 {name} encapsulation 'ip'",
        f"set interfaces l2tpv3 {name} source-address '10.255.0.3'",
        f"set interfaces l2tpv3 {name} remote '10.255.0.1'",
        f"set interfaces l2tpv3 {name} tunnel-id '{vlan}'",
        f"set interfaces l2tpv3 {name} peer-tunnel-id '{vlan}'",
        f"set interfaces l2tpv3 {name} session-id '{vlan}'",
        f"set interfaces l2tpv3 {name} peer-session-id '{vlan}'",
        f"set interfaces l2tpv3 {name} mtu '{mtu}'",
        f"set interfaces bridge br0 member interface eth2 allowed-vlan '{vlan}'",
        f"set interfaces bridge br0 member interface {name} {port} '{vlan}'",
    ]


def _commands(text: str) -> list[str]:
    return [
        line for line in text.splitlines() if line.startswith("set ") and "description" not in line
    ]


def test_a_vyos_pe_renders_vyos_set_commands_towards_a_cisco_hub(tmp_path: Path) -> None:
    sites = hub_fleet(tmp_path, *VYOS_EDGE)
    result = runner.invoke(app, ["render", "linux-edge", "--sites", str(sites)])
    assert result.exit_code == 0, result.output
    # 1500 - 20 - 4 - 4 - 14 - 4: the hub is a Cisco dot1Q subinterface, the tag travels.
    expected = [
        "set interfaces ethernet eth1 address '198.51.100.17/29'",
        "set interfaces ethernet eth1 mtu '1500'",
        "set interfaces loopback lo address '10.255.0.3/32'",
        "set protocols static route 0.0.0.0/0 next-hop '198.51.100.22'",
        "set interfaces bridge br0 enable-vlan",
        *_session(200, 1454, "allowed-vlan"),
        *_session(201, 1454, "allowed-vlan"),
        *_session(202, 1454, "allowed-vlan"),
    ]
    assert _commands(result.stdout) == expected
    assert "set interfaces l2tpv3 l2tpeth200 description 'VLAN 200 lab-a to hub'" in result.stdout


def test_platform_vyos_on_the_command_line_renders_a_linux_site_for_vyos(tmp_path: Path) -> None:
    sites = hub_fleet(tmp_path, *VYOS_EDGE[1:])  # the site file still says linux
    result = runner.invoke(
        app, ["render", "linux-edge", "--sites", str(sites), "--platform", "vyos"]
    )
    assert result.exit_code == 0, result.output
    assert "set interfaces l2tpv3 l2tpeth202 peer-session-id '202'" in result.stdout


def test_render_for_vyos_refuses_what_vyos_cannot_express(tmp_path: Path) -> None:
    sites = hub_fleet(tmp_path, *VYOS_EDGE[1:])
    sites.joinpath("linux-edge.yaml").write_text(
        sites.joinpath("linux-edge.yaml").read_text().replace(", cookie: 0,", ",")
    )
    sites.joinpath("hub.yaml").write_text(
        sites.joinpath("hub.yaml").read_text().replace("static, cookie: 0,", "static,")
    )
    result = runner.invoke(
        app, ["render", "linux-edge", "--sites", str(sites), "--platform", "vyos"]
    )
    assert result.exit_code == 1
    assert "VLAN 200 to hub: VyOS has no L2TPv3 cookies (4-byte here); set `cookie: 0`" in (
        result.stderr
    )
    assert "Traceback" not in result.output


def test_towards_a_linux_end_the_session_is_the_vlans_untagged_port(tmp_path: Path) -> None:
    # The hub run as a Linux PE: Linux to VyOS carries no tag (each LAN side removes it).
    fleet = load_fleet(hub_fleet(tmp_path, *VYOS_EDGE)).on_platform("linux", ["hub"])
    text = render_files(fleet, "linux-edge")[""]
    assert _commands(text)[5:15] == _session(200, 1458, "native-vlan")


def test_the_vyos_mtu_is_the_linux_peers_and_both_ends_carry_the_sublayer(tmp_path: Path) -> None:
    fleet = load_fleet(hub_fleet(tmp_path, *VYOS_EDGE)).on_platform("linux", ["hub"])
    files = render_files(fleet, "hub")  # with the branch's IPsec: iproute2.sh and swanctl.conf
    hub = files.get("", files.get("iproute2.sh", ""))
    # The Linux end of the same pseudowire: the sublayer (l2spec_type default) and the same MTU.
    assert "session_id 200 peer_session_id 200 l2spec_type default seq send" in hub
    assert "ip link set dev l2tp200 up mtu 1458" in hub


def test_validate_refuses_a_cookied_pseudowire_on_vyos_naming_the_platform(
    tmp_path: Path,
) -> None:
    edits = [e for e in VYOS_EDGE if e[0] != "hub" or "signaling" not in e[1]]
    edits[1] = (
        "linux-edge",
        "signaling: static, cookie: 0}",
        "signaling: static, sequencing: transmit}",
    )
    edits.append(
        ("hub", "{signaling: static, cookie: 0}", "{signaling: static, sequencing: transmit}")
    )
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(hub_fleet(tmp_path, *edits))
    assert "VyOS has no L2TPv3 cookies, but the pseudowires to hub carry 4-byte cookies" in (
        _messages(caught.value)
    )


def test_validate_refuses_a_vyos_pseudowire_without_the_sublayer(tmp_path: Path) -> None:
    edits = [e for e in VYOS_EDGE if "sequencing" not in e[2]]
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(hub_fleet(tmp_path, *edits))
    assert (
        "VyOS's sessions always carry the 4-byte L2-specific sublayer, but the pseudowires to "
        "hub have sequencing none" in _messages(caught.value)
    )


def test_validate_refuses_an_untrusted_vyos_path_whose_protection_asks_for_the_inbound_filter(
    tmp_path: Path,
) -> None:
    # Untrusted: IPsec (which VyOS now gets, test_vyos_ipsec.py) and the inbound WAN filter by
    # default, which l2tpgen does not render for VyOS.
    edits = [e for e in VYOS_EDGE if "trusted" not in e[2]]
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(hub_fleet(tmp_path, *edits))
    messages = _messages(caught.value)
    assert (
        "l2tpgen renders no inbound WAN filter for VyOS nor the xfrm blocks that keep a Linux PE "
        "closed while its IKE daemon is down, but the protection of the pseudowires to hub asks "
        "for one" in messages
    )
    assert "no IPsec for VyOS" not in messages


def test_push_refuses_a_vyos_pe_naming_the_platform(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("L2TPGEN_USERNAME", "user")
    monkeypatch.setenv("L2TPGEN_PASSWORD", "unused")
    sites = hub_fleet(tmp_path, *VYOS_EDGE)
    result = runner.invoke(app, ["push", "linux-edge", "--sites", str(sites), "--dry-run"])
    assert result.exit_code != 0
    assert "linux-edge is a vyos PE: push, diff and verify handle" in result.stderr
    assert "--format set" in result.stderr


def test_the_lab_runs_a_vyos_pe_on_its_linux_data_plane(tmp_path: Path) -> None:
    fleet = load_fleet(hub_fleet(tmp_path, *VYOS_EDGE))
    for flavor in ("linux", "cisco_iol"):
        pe = build_topology(fleet, flavor=flavor)["topology"]["nodes"]["pe-linux-edge"]
        assert pe["kind"] == "linux"
        sessions = [c for c in pe["exec"] if c.startswith("ip l2tp add session")]
        assert len(sessions) == 3
        # Its rendered set commands as vyos-1x runs them (tests/test_lab_faithful.py): towards
        # the Cisco hub the VLAN-filtering bridge takes each VLAN tagged on its session.
        assert "bridge vlan add dev l2tpeth200 vid 200 master" in pe["exec"]
    iol = build_topology(fleet, flavor="cisco_iol")["topology"]["nodes"]
    assert iol["pe-hub"]["kind"] == "cisco_iol"


# A real third-party Vyatta-family L2TPv3 configuration: tomeshnet/toronto-community-network-docs
# src/network/network-er-x-sfp.md (an EdgeRouter X, EdgeOS 1.x, whose CLI VyOS shares; VyOS 1.3
# renamed `local-ip` to `source-address` and `remote-ip` to `remote`, as the two versions of
# vyos/vyos-documentation's l2tpv3 page show). Its note: "session-id <> peer-session-id,
# tunnel-id <> peer-tunnel-id, remote-ip <> local-ip" between the two ends.
TOMESH = """\
set interfaces l2tpv3 l2tpeth0 description "To Exit Node NJ"
set interfaces l2tpv3 l2tpeth0 destination-port 5000
set interfaces l2tpv3 l2tpeth0 local-ip 192.168.40.55
set interfaces l2tpv3 l2tpeth0 mtu 1412
set interfaces l2tpv3 l2tpeth0 peer-session-id 1000
set interfaces l2tpv3 l2tpeth0 peer-tunnel-id 3000
set interfaces l2tpv3 l2tpeth0 remote-ip 199.195.250.209
set interfaces l2tpv3 l2tpeth0 session-id 2000
set interfaces l2tpv3 l2tpeth0 source-port 6000
set interfaces l2tpv3 l2tpeth0 tunnel-id 4000
"""
RENAMED_IN_1_3 = {"local-ip": "source-address", "remote-ip": "remote"}
_LEAF = re.compile(r"^set interfaces l2tpv3 l2tpeth\d+ (\S+) ")


def _leaves(text: str) -> set[str]:
    found = {m.group(1) for line in text.splitlines() if (m := _LEAF.match(line))}
    return {RENAMED_IN_1_3.get(leaf, leaf) for leaf in found}


def test_the_l2tpv3_leaves_are_those_a_real_configuration_uses(tmp_path: Path) -> None:
    text = render_files(load_fleet(hub_fleet(tmp_path, *VYOS_EDGE)), "linux-edge")[""]
    # Judged by hand: the UDP ports do not apply to IP encapsulation, which tomesh does not use
    # (its tunnel is UDP, VyOS's default); l2tpgen states the encapsulation instead.
    assert _leaves(text) == _leaves(TOMESH) - {"destination-port", "source-port"} | {
        "encapsulation"
    }


def test_two_vyos_ends_mirror_each_other_as_the_real_configuration_says(tmp_path: Path) -> None:
    # The hub run as VyOS too, in memory, with only its pseudowires to linux-edge (those to
    # the branch are dynamic, which VyOS cannot speak).
    fleet = load_fleet(hub_fleet(tmp_path, *VYOS_EDGE)).around(["linux-edge"])
    fleet = fleet.on_platform("vyos", ["hub"])
    ends = {name: render_files(fleet, name)[""] for name in ("hub", "linux-edge")}

    def leaf(name: str, key: str) -> str:
        found = re.search(rf"l2tpeth201 {key} '([^']+)'", ends[name])
        assert found is not None, key
        return found.group(1)

    for ours, theirs in (
        ("session-id", "peer-session-id"),
        ("tunnel-id", "peer-tunnel-id"),
        ("source-address", "remote"),
    ):
        assert leaf("hub", ours) == leaf("linux-edge", theirs)
        assert leaf("linux-edge", ours) == leaf("hub", theirs)
    # VyOS to VyOS: no tag travels, the sessions are the VLAN's untagged ports.
    assert "member interface l2tpeth201 native-vlan '201'" in ends["hub"]


EDGE = """\
name: {name}
hostname: {name}
platform: {platform}
management: {{host: 192.0.2.3{n}}}
wan:
  interface: GigabitEthernet0/1
  address: 10.0.{k}.1/30
  gateway: 10.0.{k}.2
  trusted: true
  loopback: {{interface: Loopback0, address: 10.255.9.{n}/32}}
lan: {{interface: GigabitEthernet0/0}}
linux: {{wan: eth1, lan: eth2}}
pseudowire_class: {{name: ethernet, signaling: static, cookie: 0, sequencing: transmit}}
peers: [{peer}]
vlans:
  - {{id: 300, name: lab-v, peer: {peer}}}
"""
# What VyOS runs for `set interfaces l2tpv3 l2tpeth300 ...` (vyos/vyos-1x
# python/vyos/ifconfig/l2tpv3.py, L2TPv3If._create): no l2spec_type, no seq. The UDP ports it
# also passes do not apply to `encap ip` and are left out.
VYOS_TUNNEL = (
    "ip l2tp add tunnel tunnel_id 300 peer_tunnel_id 300 encap ip local 10.255.9.1 "
    "remote 10.255.9.2"
)
VYOS_SESSION = "ip l2tp add session name l2tp300 tunnel_id 300 session_id 300 peer_session_id 300"


@pytest.mark.lab
@requires_vm
@pytest.mark.parametrize(
    ("peer_sublayer", "passes"),
    [("l2spec_type default seq send", True), ("l2spec_type none", False)],
    ids=["peer-sequencing-transmit", "peer-sequencing-none"],
)
def test_a_session_made_as_vyos_makes_it_passes_frames_only_to_a_peer_with_the_sublayer(
    tmp_path: Path, peer_sublayer: str, *, passes: bool
) -> None:
    """On the real kernel: the VyOS PE's session exactly as VyOS creates it, l2tpgen's Linux peer.

    With `sequencing: transmit` (what validate asks of a VyOS pseudowire) the peer renders
    `l2spec_type default seq send`: every check passes at the predicted MTU. With the peer as
    l2tpgen renders `sequencing: none` (`l2spec_type none`, which validate refuses) nothing
    crosses: the two ends disagree on the 4-byte sublayer.
    """
    sites = tmp_path / "sites"
    sites.mkdir()
    for n, (name, platform, peer) in enumerate(
        (("edge-a", "vyos", "edge-b"), ("edge-b", "linux", "edge-a")), start=1
    ):
        text = EDGE.format(name=name, platform=platform, peer=peer, n=n, k=n - 1)
        (sites / f"{name}.yaml").write_text(text)
    topology, report = tmp_path / "vyos.clab.yml", tmp_path / "report.json"
    built = runner.invoke(app, ["lab", "build", "--sites", str(sites), "-o", str(topology)])
    assert built.exit_code == 0, built.output
    text = topology.read_text()
    # edge-a runs its rendered set commands as vyos-1x does (tests/test_lab_faithful.py): its
    # session without l2spec_type, iproute2's default sublayer; edge-b as l2tpgen renders it.
    assert text.count(f"{VYOS_TUNNEL}\n") == 1
    vyos = VYOS_SESSION.replace("name l2tp300", "name l2tpeth300")
    assert text.count(f"{vyos}\n") == 1
    ours = (
        "ip l2tp add session name l2tp300 tunnel_id 1 session_id 300 peer_session_id 300 "
        "l2spec_type default seq send"
    )
    assert text.count(ours) == 1
    text = text.replace(ours, ours.replace("l2spec_type default seq send", peer_sublayer))
    topology.write_text(text)
    args = ["lab", "run", str(topology), "--engine", "vm", "--report", str(report)]
    result = runner.invoke(app, args)
    found = json.loads(report.read_text())
    verdicts = {r["check"]: r["ok"] for r in found["results"]}
    assert verdicts == dict.fromkeys(("reach", "isolation", "mtu", "multicast"), passes)
    assert (result.exit_code == 0) is passes
