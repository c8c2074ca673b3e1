"""The native (untagged) VLAN of a LAN trunk: `vlans[].native`, validated and carried.

Sources (docs/site-files.md, "Native VLAN"): Cisco's `encapsulation dot1q vlan-id native` (IOS MPLS
Command Reference, January 2010: "Always use the native keyword when vlan-id is the ID of the IEEE
802.1Q native VLAN"); the IOS xconnect on such a subinterface is [U], so a Cisco site gets a
warning, never silence. vyos-1x's `member interface <name> native-vlan` (vendored definitions).
"""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING

import pytest
from conftest import ROOT

from l2tpgen import api
from l2tpgen.errors import FleetValidationError
from l2tpgen.importer import import_configs
from l2tpgen.model import load_fleet
from l2tpgen.model.load import locate_problems
from l2tpgen.model.native_vlan import native_hints
from l2tpgen.platforms.render import render_files, render_site

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.model.fleet import Fleet

HUB = ROOT / "examples" / "hub"
NATIVE_200 = (
    "{id: 200, name: lab-a, peer: hub}",
    "{id: 200, name: lab-a, peer: hub, native: true}",
)
HUB_200 = (
    "{id: 200, name: lab-a, peer: linux-edge}",
    "{id: 200, name: lab-a, peer: linux-edge, native: true}",
)


def _sites(tmp_path: Path, *edits: tuple[str, str, str]) -> Path:
    sites = tmp_path / "hub"
    shutil.copytree(HUB, sites)
    for name, old, new in edits:
        path = sites / f"{name}.yaml"
        text = path.read_text()
        assert old in text, (name, old)
        path.write_text(text.replace(old, new))
    return sites


# Trusted paths at both ends (networkd and VyOS render no IPsec), the sublayer for VyOS.
TRUSTED = (
    ("linux-edge", "gateway: 198.51.100.22\n", "gateway: 198.51.100.22\n  trusted: true\n"),
    ("hub", "gateway: 198.51.100.6\n", "gateway: 198.51.100.6\n  trusted: true\n"),
)
SUBLAYER = (
    ("linux-edge", "cookie: 0}", "cookie: 0, sequencing: transmit}"),
    (
        "hub",
        "{signaling: static, cookie: 0}",
        "{signaling: static, cookie: 0, sequencing: transmit}",
    ),
)


def _native_fleet(tmp_path: Path, *edits: tuple[str, str, str]) -> Fleet:
    native = (("linux-edge", *NATIVE_200), ("hub", *HUB_200))
    return load_fleet(_sites(tmp_path, *native, *edits))


def test_a_cisco_native_vlan_is_a_native_dot1q_subinterface_and_validate_warns(
    tmp_path: Path,
) -> None:
    fleet = _native_fleet(tmp_path)
    text = render_site(fleet, "hub")
    assert " encapsulation dot1Q 200 native\n" in text
    assert " encapsulation dot1Q 201\n" in text
    (warning,) = locate_problems(native_hints(fleet.sites.values()), fleet.files)
    assert warning.level == "warning"
    assert "[U]" in warning.message
    assert str(warning.location).endswith("hub.yaml:28:54"), warning.location


def test_validate_gives_the_native_vlan_warning_as_data_and_stays_ok(tmp_path: Path) -> None:
    sites = _sites(tmp_path, ("linux-edge", *NATIVE_200), ("hub", *HUB_200))
    found = api.validate(sites)
    assert found.ok
    (warning,) = [w for w in found.warnings if w.code == "V078"]  # the native VLAN's [U]
    assert str(warning.location).endswith("hub.yaml:28:54"), warning.location
    assert found.as_dict()["warnings"] == [api.problem_dict(w) for w in found.warnings]


def test_a_linux_native_vlan_bridges_the_lan_port_itself(tmp_path: Path) -> None:
    fleet = _native_fleet(tmp_path)
    commands = render_site(fleet, "linux-edge", fmt="iproute2").splitlines()
    assert "ip link set dev eth2 master br200" in commands
    assert "ip link add link eth2 name eth2.200 type vlan id 200" not in commands
    assert "ip link set dev eth2.201 master br201" in commands


def test_a_networkd_native_vlan_makes_the_lan_port_a_bridge_port(tmp_path: Path) -> None:
    files = render_files(_native_fleet(tmp_path, *TRUSTED), "linux-edge", "networkd")
    assert "Bridge=br200\n" in files["30-eth2.network"]
    assert "VLAN=eth2.200" not in files["30-eth2.network"]
    assert "VLAN=eth2.201\n" in files["30-eth2.network"]
    assert "20-eth2.200.netdev" not in files
    assert "20-eth2.201.netdev" in files


def test_a_vyos_native_vlan_is_the_lan_members_native_vlan(tmp_path: Path) -> None:
    fleet = _native_fleet(tmp_path, *TRUSTED, *SUBLAYER).on_platform("vyos", ["linux-edge"])
    text = render_site(fleet, "linux-edge", fmt="set")
    assert "member interface eth2 native-vlan '200'" in text
    assert "member interface eth2 allowed-vlan '201'" in text
    assert "member interface eth2 allowed-vlan '200'" not in text


def test_two_native_vlans_on_one_trunk_are_an_error(tmp_path: Path) -> None:
    second = (
        "{id: 201, name: lab-b, peer: hub}",
        "{id: 201, name: lab-b, peer: hub, native: true}",
    )
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(_sites(tmp_path, ("linux-edge", *NATIVE_200), ("linux-edge", *second)))
    messages = [p.message for p in caught.value.problems]
    assert "VLAN 201 and VLAN 200 are both native on eth2: a trunk sends one VLAN untagged" in (
        messages
    )


def test_a_native_vlan_at_one_end_only_is_an_error_naming_the_other_file(tmp_path: Path) -> None:
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(_sites(tmp_path, ("linux-edge", *NATIVE_200)))
    (problem,) = caught.value.problems
    assert problem.message.startswith("VLAN 200 is tagged here but native in ")
    assert problem.message.endswith("linux-edge.yaml")
    assert problem.site == "hub"


def test_import_reads_a_native_subinterface_back_as_the_native_vlan(tmp_path: Path) -> None:
    sites = tmp_path / "valid"
    shutil.copytree(ROOT / "tests" / "fleets" / "valid", sites)
    for name, peer in (("site-a", "site-b"), ("site-b", "site-a")):
        path = sites / f"{name}.yaml"
        old = f"{{id: 10, name: users, peer: {peer}}}"
        assert old in path.read_text()
        path.write_text(path.read_text().replace(old, old[:-1] + ", native: true}"))
    fleet = load_fleet(sites)
    configs = [(f"{name}.cfg", render_site(fleet, name)) for name in ("site-a", "site-b")]
    result = import_configs(configs)
    for site in result.sites:
        vlans = {v["id"]: v.get("native", False) for v in site.data["vlans"]}  # type: ignore[attr-defined]
        assert vlans == {10: True, 20: False}
    assert not [n for n in result.notes if "native" in n.message]
