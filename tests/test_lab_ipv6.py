"""In the QEMU lab: examples/ipv6, two Linux PEs over an IPv6 underlay, forwards on the kernel.

The WANs carry IPv6 addresses only (documentation prefix 2001:db8::/32), so frames that cross
crossed as L2TPv3 over IPv6 (the kernel's l2tp_ip6). site-b sources its tunnel from its WAN
address, which the rendered script adds ``nodad``: without it the kernel refuses to bind the
still-tentative address ("Cannot assign requested address", seen in this lab) and nothing
crosses. The MTU check proves the 40-byte header: the budget worked out by hand, 1500 - 40
(IPv6, RFC 8200) - 4 (session ID) - 4 (cookie) - 14 (Ethernet) = 1438, crosses unfragmented with
DF set, and 1439 crosses only because the PE fragments the IPv6 packet (``Ip6FragCreates``): the
20-byte IPv4 header's figure (1458) would not.
"""

from __future__ import annotations

import ipaddress
import json
from typing import TYPE_CHECKING

import pytest
import yaml
from conftest import ROOT
from conftest_lab import beside, requires_vm
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.errors import L2tpgenError
from l2tpgen.lab.attack import target
from l2tpgen.lab.engines.guest import GuestLab, parse_console
from l2tpgen.lab.engines.vm import run_vm
from l2tpgen.lab.inputs import parse_lab
from l2tpgen.lab.pairs import fragments_created, pairs
from l2tpgen.lab.topology import build_topology

if TYPE_CHECKING:
    from pathlib import Path

IPV6_FLEET = ROOT / "examples" / "ipv6"
runner = CliRunner()
# /proc/net/snmp6 as the kernel prints it (name, spaces, value), with /proc/net/snmp before it.
_SNMP = """\
Ip: Forwarding DefaultTTL InReceives FragOKs FragFails FragCreates
Ip: 1 64 10 0 0 3
Ip6InReceives                   	12
Ip6FragOKs                      	2
Ip6FragCreates                  	5
"""


def test_fragments_created_counts_ipv4_and_ipv6_fragments() -> None:
    assert fragments_created(_SNMP) == 3 + 5
    assert fragments_created(_SNMP.split("Ip6", maxsplit=1)[0]) == 3  # a kernel without IPv6


def _built(tmp_path: Path) -> Path:
    topology = tmp_path / "ipv6.clab.yml"
    args = ["lab", "build", "--sites", str(IPV6_FLEET), "--name", "ipv6", "-o", str(topology)]
    built = runner.invoke(app, args)
    assert built.exit_code == 0, built.output
    return topology


def test_the_ipv6_lab_has_no_ipv4_on_any_wan(tmp_path: Path) -> None:
    nodes = yaml.safe_load(_built(tmp_path).read_text())["topology"]["nodes"]
    underlay = [c for name, n in nodes.items() if not name.startswith("ce-") for c in n["exec"]]
    prefixes = [w for c in underlay for w in c.split() if "/" in w and w[0].isalnum()]
    assert prefixes, underlay
    assert {ipaddress.ip_interface(w).version for w in prefixes} == {6}, prefixes
    text = "\n".join(underlay)
    # site-a sources its tunnel from its loopback, site-b from its WAN address (added nodad).
    assert "encap ip local 2001:db8:ff::1 remote 2001:db8:0:b::2" in text
    assert "encap ip local 2001:db8:0:b::2 remote 2001:db8:ff::1" in text
    assert "ip addr replace 2001:db8:0:b::2/64 dev eth1 nodad" in text


@pytest.mark.lab
@requires_vm
def test_the_ipv6_fleet_forwards_every_vlan_with_the_ipv6_mtu_budget(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    args = ["lab", "run", str(_built(tmp_path)), "--engine", "vm", "--report", str(report)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    found = json.loads(report.read_text())
    assert found["ok"], found
    assert found["setup_errors"] == []
    passed = sorted((r["check"], r["vlan"]) for r in found["results"] if r["ok"])
    checks = ("reach", "isolation", "mtu", "multicast")
    assert passed == sorted((c, v) for c in checks for v in (610, 620))
    assert [r["detail"] for r in found["results"] if r["check"] == "mtu"] == [
        "predicted 1438: 1438 crosses unfragmented, 1439 crosses only fragmented"
    ] * 2


def test_a_protected_ipv6_lab_is_refused_in_words_not_run_half_blind(tmp_path: Path) -> None:
    # Without wan.trusted the documentation-prefix WANs are public: IPsec, and the lab's attack
    # checks, whose forger (pwprobe) writes IPv4 packets only.
    for name in ("site-a", "site-b"):
        text = (IPV6_FLEET / f"{name}.yaml").read_text()
        (tmp_path / f"{name}.yaml").write_text(text.replace("  trusted: true\n", ""))
    fleet = load_fleet(tmp_path)
    lab = parse_lab(build_topology(fleet, name="v6"), "v6", beside(fleet))
    with pytest.raises(
        L2tpgenError, match=r"pe-site-b's tunnel runs over IPv6 \(2001:db8:0:b::2\)"
    ):
        target(lab, pairs(lab)[0])


def _cookie_protected(directory: Path) -> Path:
    """examples/ipv6 on an untrusted path, protected by keyed cookies: the inbound filter's xfrm
    policies (allow the peer's /128, block ::/0) and 8-byte cookies, no IPsec."""
    for name in ("site-a", "site-b"):
        text = (IPV6_FLEET / f"{name}.yaml").read_text().replace("  trusted: true\n", "")
        (directory / f"{name}.yaml").write_text(text + "protection: {mode: cookie}\n")
    return directory


@pytest.mark.lab
@requires_vm
def test_the_ipv6_inbound_filter_admits_the_peer_on_the_kernel(tmp_path: Path) -> None:
    fleet = load_fleet(_cookie_protected(tmp_path))
    commands = build_topology(fleet, name="v6cookie")["topology"]["nodes"]["pe-site-b"]["exec"]
    # From ip-xfrm(8): site-b's tunnel source is its WAN address, site-a's its loopback. Without
    # the allow, the block drops the peer's packets too (seen when breaking linux.py): nothing
    # would cross.
    policies = [c for c in commands if c.startswith("ip xfrm")]
    assert policies[-2:] == [
        (
            "ip xfrm policy update src 2001:db8:0:b::2/128 dst 2001:db8:ff::1/128 proto 115 "
            "dir out priority 1999999"
        ),
        (
            "ip xfrm policy update src 2001:db8:ff::1/128 dst 2001:db8:0:b::2/128 proto 115 dir in "
            "priority 1999999"
        ),
    ]
    # the inbound blocks first (issue 33): IPv4 then IPv6
    assert "ip xfrm policy update src ::/0 dst ::/0 proto 115 dir in action block" in policies[1]
    report = run_vm(parse_lab(build_topology(fleet, name="v6cookie")))
    # The kernel took the IPv6 selectors (with xfrm_user loaded: without it `ip xfrm` cannot
    # open its netlink socket, and the policies silently went missing before).
    assert report.setup_errors == ()
    assert [(r.check, r.vlan) for r in report.results if not r.ok] == []
    # 1500 - 40 (IPv6) - 4 (session ID) - 8 (a protecting cookie) - 14 (Ethernet) = 1434.
    assert {r.detail for r in report.results if r.check == "mtu"} == {
        "predicted 1434: 1434 crosses unfragmented, 1435 crosses only fragmented"
    }


def test_a_batch_that_fails_without_naming_a_command_is_a_setup_error() -> None:
    # What `ip -batch` printed when xfrm_user was not loaded: no "Command failed FILE:N" line.
    lab = parse_lab(build_topology(load_fleet(IPV6_FLEET), name="v6"))
    console = (
        "BATCH-FAIL 0 pe-site-a 3\n"
        "Cannot open netlink socket: Protocol not supported\n"
        "EXEC-FAIL-END\n"
    )
    (found,) = parse_console(console, [GuestLab(lab, ())])
    first = lab.node("pe-site-a").exec[2]  # 3: after `ip link set dev lo up` and two more
    message = "Cannot open netlink socket: Protocol not supported"
    assert found.setup_errors == (
        f"EXEC-FAIL pe-site-a: the batch from `{first}` on stopped: {message}",
    )
