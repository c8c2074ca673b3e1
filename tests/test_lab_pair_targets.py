"""The lab judges each pair on its own tunnel (issue 34): on a PE with several peers, the attacks of
``injection``, ``capture`` and ``replay`` aim at the tunnel of the pair they judge, whichever
tunnel the PE lists first, IPv4 and IPv6; and (marked ``lab``) a protected three-site fleet, a hub
with a Cisco and a Linux spoke, passes ``lab run`` with every row on its own pair's addresses, and
fails it when one pair is wrong.

The fleet (``builders.three_sites``): examples/hub cut to one VLAN per spoke. Its hub renders one
tunnel per peer, numbered in the order of its VLANs (``platforms/linux/render.py``
``_tunnels``), so with the Linux edge's VLAN below the branch's the hub's first tunnel leads to
the edge: the branch's pair used to be attacked, captured and replayed on it ("0 clear L2TPv3
packets between 10.255.0.3 and 10.255.0.1", the spoofed source the edge's loopback).
The addresses below are the sites' loopbacks (``wan.loopback``: hub 10.255.0.1, branch .2,
edge .3), the tunnel sources the site files state.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pytest
from builders import edit_file, three_sites
from conftest_lab import beside, requires_protection, requires_vm
from ruamel.yaml import YAML
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.errors import L2tpgenError
from l2tpgen.lab.attack import pair_tunnel, target
from l2tpgen.lab.inputs import parse_lab
from l2tpgen.lab.pairs import pairs
from l2tpgen.lab.security import attacked_pairs
from l2tpgen.lab.topology import build_topology

if TYPE_CHECKING:
    from pathlib import Path

    from typer.testing import Result

    from l2tpgen.lab.inputs import Lab

runner = CliRunner()

# Each pair's (near tunnel address, far tunnel address), from the site files' loopbacks.
ADDRESSES = {
    ("pe-branch", "pe-hub"): ("10.255.0.2", "10.255.0.1"),
    ("pe-hub", "pe-linux-edge"): ("10.255.0.1", "10.255.0.3"),
}


def _lab(sites: Path) -> Lab:
    fleet = load_fleet(sites)
    return parse_lab(build_topology(fleet, name="three"), "three", beside(fleet))


def _aims(lab: Lab) -> dict[tuple[str, str], tuple[str, str, int]]:
    """Each attacked pair of PEs -> (near address, far address, session) of its target."""
    return {
        (a.target.near_pe, a.target.far_pe): (
            a.target.near_address,
            a.target.far_address,
            a.target.session,
        )
        for a in attacked_pairs(lab)
    }


@pytest.mark.parametrize("swap_peers", [False, True], ids=["peers-in-order", "peers-swapped"])
@pytest.mark.parametrize("linux_vlan", [20, 300], ids=["linux-tunnel-first", "linux-tunnel-last"])
def test_each_pair_is_attacked_on_its_own_tunnel_whichever_the_hub_lists_first(
    tmp_path: Path, linux_vlan: int, *, swap_peers: bool
) -> None:
    lab = _lab(three_sites(tmp_path, linux_vlan=linux_vlan, swap_peers=swap_peers))
    hub_tunnels = [c for c in lab.node("pe-hub").exec if c.startswith("ip l2tp add tunnel")]
    assert len(hub_tunnels) == 2  # the hub holds both spokes' tunnels, in VLAN order
    first_remote = "10.255.0.3" if linux_vlan < 100 else "10.255.0.2"
    assert hub_tunnels[0].split(" || ")[0].endswith(f"remote {first_remote}")  # its guard aside
    assert _aims(lab) == {
        ("pe-branch", "pe-hub"): (*ADDRESSES["pe-branch", "pe-hub"], 100),
        ("pe-hub", "pe-linux-edge"): (*ADDRESSES["pe-hub", "pe-linux-edge"], linux_vlan),
    }


def test_the_order_of_the_far_pes_tunnel_lines_does_not_change_the_aim(tmp_path: Path) -> None:
    lab = _lab(three_sites(tmp_path))
    hub = lab.node("pe-hub")
    tunnels = [c for c in hub.exec if c.startswith("ip l2tp add tunnel")]
    others = [c for c in hub.exec if c not in tunnels]
    swapped = replace(hub, exec=(*others[:2], *reversed(tunnels), *others[2:]))
    relisted = replace(lab, nodes=tuple(swapped if n is hub else n for n in lab.nodes))
    assert [c for c in swapped.exec if c in tunnels] == tunnels[::-1]
    assert _aims(relisted) == _aims(lab)
    assert _aims(lab)["pe-branch", "pe-hub"][:2] == ADDRESSES["pe-branch", "pe-hub"]


def _ipv6(sites: Path) -> Path:
    """The three sites on IPv6, each WAN a /64 of 2001:db8::/32, each loopback a /128, every PE
    Linux (l2tpgen renders no Cisco xconnect over IPv6) with static sessions."""
    for name in ("hub", "branch"):
        path = sites / f"{name}.yaml"
        edit_file(
            path,
            "lan: {interface:",
            "linux: {wan: eth1, lan: eth2}\nplatform: linux\nlan: {interface:",
        )
        edit_file(
            path,
            "pseudowire_class: {name: ethernet}",
            "pseudowire_class: {name: ethernet, signaling: static, cookie: 0}",
        )
    edit_file(sites / "hub.yaml", "platform: iosxe\n", "")
    for name, wan, gateway in (
        ("hub", "198.51.100.1/29", "198.51.100.6"),
        ("branch", "198.51.100.9/29", "198.51.100.14"),
        ("linux-edge", "198.51.100.17/29", "198.51.100.22"),
    ):
        net = wan.split(".")[-1].split("/")[0]
        path = sites / f"{name}.yaml"
        edit_file(path, f"address: {wan}", f"address: 2001:db8:0:{net}::2/64")
        edit_file(path, f"gateway: {gateway}", f"gateway: 2001:db8:0:{net}::1")
        edit_file(path, "address: 10.255.0.", "address: 2001:db8:ff::")
        edit_file(path, "/32}", "/128}")
    return sites


@pytest.mark.parametrize("linux_vlan", [20, 300], ids=["linux-tunnel-first", "linux-tunnel-last"])
def test_an_ipv6_hub_picks_each_pairs_tunnel_too(tmp_path: Path, linux_vlan: int) -> None:
    lab = _lab(_ipv6(three_sites(tmp_path, linux_vlan=linux_vlan)))
    found = {
        (p.near.pe, p.far.pe): pair_tunnel(lab.node(p.far.pe), lab.node(p.near.pe), p.vlan)
        for p in pairs(lab)
    }
    assert {ends: (t.remote, t.local) for ends, t in found.items()} == {
        ("pe-branch", "pe-hub"): ("2001:db8:ff::2", "2001:db8:ff::1"),
        ("pe-hub", "pe-linux-edge"): ("2001:db8:ff::1", "2001:db8:ff::3"),
    }
    # The attacks themselves still refuse IPv6 (pwprobe forges IPv4 only), naming the right
    # pair's tunnel: the branch's on the hub, not the hub's first.
    branch = next(p for p in pairs(lab) if p.near.pe == "pe-branch")
    with pytest.raises(L2tpgenError, match=r"pe-hub's tunnel runs over IPv6 \(2001:db8:ff::1\)"):
        target(lab, branch)


def test_a_session_in_a_tunnel_to_another_pe_is_refused_in_words(tmp_path: Path) -> None:
    # The hub's session of the branch's VLAN moved into the edge's tunnel: the pair cannot work,
    # and the attacker must not aim at a third PE's tunnel as if it were the pair's.
    lab = _lab(three_sites(tmp_path))
    hub = lab.node("pe-hub")
    moved = tuple(
        re.sub(r"tunnel_id 2 ", "tunnel_id 1 ", c) if c.startswith("ip l2tp add session") else c
        for c in hub.exec
    )
    broken = replace(lab, nodes=tuple(replace(n, exec=moved) if n is hub else n for n in lab.nodes))
    branch = next(p for p in pairs(broken) if p.near.pe == "pe-branch")
    with pytest.raises(
        L2tpgenError,
        match=r"pe-hub: VLAN 100's session is in tunnel 1 to 10\.255\.0\.3, which is not an "
        r"address of pe-branch",
    ):
        target(broken, branch)


# --- on the real kernel (QEMU), with strongSwan -------------------------------------------------


def _report(result: Result, report: Path) -> dict[str, Any]:
    assert report.exists(), (result.exit_code, result.stdout, result.stderr, result.exception)
    found: dict[str, Any] = json.loads(report.read_text())
    return found


def _rows(found: dict[str, Any], check: str) -> dict[str, str]:
    """A check's rows as sites -> detail (``branch->hub``)."""
    return {r["sites"]: r["detail"] for r in found["results"] if r["check"] == check}


@pytest.mark.lab
@requires_vm
@requires_protection
def test_a_protected_hub_with_a_cisco_and_a_linux_spoke_passes_lab_run_each_pair_on_its_addresses(
    tmp_path: Path,
) -> None:
    # The hub's first tunnel leads to the Linux edge; the branch's pair used to be captured on it
    # ("0 clear L2TPv3 packets between 10.255.0.3 and 10.255.0.1") and `lab run` exited 1.
    sites = three_sites(tmp_path)
    report = tmp_path / "three.report.json"
    result = runner.invoke(
        app, ["lab", "run", str(sites), "--engine", "vm", "--report", str(report)]
    )
    found = _report(result, report)
    assert [(r["check"], r["sites"]) for r in found["results"] if not r["ok"]] == []
    assert result.exit_code == 0, result.output
    by_sites = {
        "branch->hub": ("pe-branch", "pe-hub"),
        "hub->linux-edge": ("pe-hub", "pe-linux-edge"),
    }
    captures, injections = _rows(found, "capture"), _rows(found, "injection")
    assert set(captures) == set(injections) == set(by_sites) == set(_rows(found, "replay"))
    for sites_name, ends in by_sites.items():
        near, far = ADDRESSES[ends]
        assert f"0 clear L2TPv3 packets between {near} and {far}," in captures[sites_name]
        assert f"from {near} (spoofed): 0/5" in injections[sites_name]
    # The control saw the pair's own clear packets on the wire (the capture filters on its
    # addresses): more than 0, where the wrong tunnel's addresses had found 0.
    for detail in captures.values():
        control = re.search(r"control: (\d+) clear L2TPv3", detail)
        assert control is not None
        assert int(control.group(1)) > 0


@pytest.mark.lab
@requires_vm
@requires_protection
def test_the_same_fleet_with_one_pair_wrong_fails_lab_run_on_that_pair_only(
    tmp_path: Path,
) -> None:
    # `lab build` of the fleet, then the hub's end of VLAN 20 given another VC (its session sends
    # to session 21, which the edge does not have), as a wrong running config would: `lab run`
    # of that file exits 1, every failed row is the hub->linux-edge pair's, the branch's pass.
    topology = tmp_path / "three.clab.yml"
    built = runner.invoke(
        app, ["lab", "build", "--sites", str(three_sites(tmp_path)), "-o", str(topology)]
    )
    assert built.exit_code == 0, built.output
    data = YAML(typ="safe").load(topology.read_text())
    hub = data["topology"]["nodes"]["pe-hub"]["exec"]
    right = "ip l2tp add session name l2tp20 tunnel_id 1 session_id 20 peer_session_id 20 "
    (index,) = [n for n, c in enumerate(hub) if c.startswith(right)]
    hub[index] = hub[index].replace("peer_session_id 20 ", "peer_session_id 21 ")
    topology.write_text(json.dumps(data))  # JSON is YAML: the file `lab run` reads
    report = tmp_path / "three.report.json"
    result = runner.invoke(
        app, ["lab", "run", str(topology), "--engine", "vm", "--report", str(report)]
    )
    found = _report(result, report)
    assert result.exit_code == 1, result.output
    failed = {(r["check"], r["sites"]) for r in found["results"] if not r["ok"]}
    assert ("reach", "hub->linux-edge") in failed
    assert {sites for _, sites in failed} == {"hub->linux-edge"}
    branch = [r for r in found["results"] if r["sites"] == "branch->hub"]
    assert {r["check"] for r in branch} >= {"reach", "injection", "capture", "replay", "ike"}
    assert all(r["ok"] for r in branch)
