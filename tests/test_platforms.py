"""A hub that talks dynamic L2TPv3 to a Cisco branch and static sessions to a Linux box.

examples/hub: an IOS-XE hub, a classic-IOS branch, a Linux edge. Each site renders for its own
platform; the pseudowire settings differ per peer; push, verify and the simulator handle the
Cisco routers and refuse (or skip) the Linux one.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest
from builders import HUB, copy_example, edit_file
from conftest_sim import start_lab
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.errors import FleetValidationError, RenderError
from l2tpgen.lint import lint_sites
from l2tpgen.model.site import PeerPseudowire, PseudowireClass, Site, class_suffix
from l2tpgen.platforms.render import render_files, render_site
from l2tpgen.traits import DRIVERS

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()


def _trusted(tmp_path: Path) -> Path:
    """The hub fleet with the hub and linux-edge WANs stated trusted: their path is unprotected,
    as every fleet was before protection (the public example path gets IPsec by default)."""
    sites = copy_example(HUB, tmp_path)
    for name, gateway in (("hub", "198.51.100.6"), ("linux-edge", "198.51.100.22")):
        edit_file(
            sites / f"{name}.yaml",
            f"gateway: {gateway}\n",
            f"gateway: {gateway}\n  trusted: true\n",
        )
    return sites


def test_the_hub_fleet_validates_with_per_peer_signaling() -> None:
    fleet = load_fleet(HUB)
    hub = fleet.site("hub")
    assert hub.pseudowire_for("branch").name == "ethernet"
    assert hub.pseudowire_for("linux-edge").name == "ethernet-static-cookie0"
    assert [p.static for p in fleet.pseudowires("hub")] == [False] * 6 + [True] * 3


def test_the_hub_renders_one_class_per_setting_set_and_each_xconnect_uses_its_own() -> None:
    text = render_site(load_fleet(HUB), "hub")
    assert re.findall(r"^pseudowire-class (\S+)$", text, re.MULTILINE) == [
        "ethernet",
        "ethernet-static-cookie0",
    ]
    assert " xconnect 10.255.0.2 100 encapsulation l2tpv3 pw-class ethernet\n" in text
    linux = (
        " xconnect 10.255.0.3 200 encapsulation l2tpv3 manual pw-class ethernet-static-cookie0\n"
    )
    assert linux + "  l2tp id 200 200\n!" in text  # no cookie, and no hello towards Linux


def test_each_site_renders_for_its_own_platform_without_being_told() -> None:
    fleet = load_fleet(HUB)
    # linux-edge's path to the hub is public, so IPsec by default: its commands and swanctl.conf
    files = render_files(fleet, "linux-edge")
    assert list(files) == ["iproute2.sh", "swanctl.conf"]
    assert files["iproute2.sh"].startswith("# l2tpgen: linux-edge (edge-1), Linux PE")
    assert render_site(fleet, "branch").startswith("! l2tpgen: branch")
    # classic IOS keeps the reference case's hold-queues; IOS-XE renders none (not used there)
    assert "hold-queue 2048 in" in render_site(fleet, "branch")
    assert "hold-queue" not in render_site(fleet, "hub")


def test_the_cisco_and_the_linux_end_of_one_static_pseudowire_get_the_same_mtu() -> None:
    fleet = load_fleet(HUB)
    hub = render_site(fleet, "hub")
    cisco = re.search(r"interface GigabitEthernet0/0/0\.200\n(?:.+\n)*? mtu (\d+)", hub)
    linux = re.search(r"ip link set dev l2tp200 up mtu (\d+)", render_site(fleet, "linux-edge"))
    assert cisco is not None
    assert linux is not None
    # 1500 - 20 - 4 - 14 - 4 (tag carried) = 1458 in clear; the hub fleet's public path is
    # protected by default by ESP transport AES-GCM-128: 34 bytes less (8 + 8 + 2 + 16).
    assert cisco.group(1) == linux.group(1) == "1424"


def test_networkd_gets_the_same_mtu_as_the_cisco_end_on_an_unprotected_path(
    tmp_path: Path,
) -> None:
    fleet = load_fleet(_trusted(tmp_path))
    hub = render_site(fleet, "hub")
    cisco = re.search(r"interface GigabitEthernet0/0/0\.200\n(?:.+\n)*? mtu (\d+)", hub)
    assert cisco is not None
    assert cisco.group(1) == "1458"  # 1500 - 20 - 4 - 14 - 4 (tag carried), no ESP
    assert "MTUBytes=1458" in render_files(fleet, "linux-edge", "networkd")["30-l2tp200.network"]


def test_networkd_refuses_ipsec_and_names_the_format_that_can() -> None:
    with pytest.raises(RenderError, match=r"networkd cannot configure IPsec .*--format iproute2"):
        render_files(load_fleet(HUB), "linux-edge", "networkd")


def test_networkd_files_hold_the_tunnel_sessions_vlans_and_bridges(tmp_path: Path) -> None:
    files = render_files(load_fleet(_trusted(tmp_path)), "linux-edge", "networkd")
    tunnel = files["20-l2tpt1.netdev"]
    assert "Kind=l2tp" in tunnel
    assert "Local=10.255.0.3\nRemote=10.255.0.1\nEncapsulationType=ip" in tunnel
    assert tunnel.count("[L2TPSession]") == 3
    assert "Name=l2tp201\nSessionId=201\nPeerSessionId=201\nLayer2SpecificHeader=none" in tunnel
    assert "VLAN=eth2.200\nVLAN=eth2.201\nVLAN=eth2.202" in files["30-eth2.network"]
    assert "[Network]\nBridge=br202" in files["30-eth2.202.network"]


def test_networkd_refuses_a_cookie_it_cannot_configure_and_says_what_to_do(tmp_path: Path) -> None:
    sites = _trusted(tmp_path)
    edit_file(sites / "hub.yaml", "{signaling: static, cookie: 0}", "{signaling: static}")
    edit_file(sites / "linux-edge.yaml", "signaling: static, cookie: 0", "signaling: static")
    with pytest.raises(RenderError, match=r"networkd cannot configure 4-byte cookies .*cookie: 0"):
        render_files(load_fleet(sites), "linux-edge", "networkd")


def test_render_writes_networkd_files_into_a_directory(tmp_path: Path) -> None:
    out = tmp_path / "network"
    sites = str(_trusted(tmp_path))
    result = runner.invoke(
        app, ["render", "linux-edge", "--sites", sites, "--format", "networkd", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert (out / "20-l2tpt1.netdev").read_text().startswith("# pseudowires to hub")
    unknown = runner.invoke(app, ["render", "hub", "--sites", str(HUB), "--format", "networkd"])
    assert unknown.exit_code == 1
    assert "Cisco IOS-XE renders as ios, not networkd" in unknown.stderr


def test_a_pair_whose_ends_differ_is_reported_at_the_peer_override(tmp_path: Path) -> None:
    sites = copy_example(HUB, tmp_path)
    edit_file(
        sites / "hub.yaml", "{signaling: static, cookie: 0}", "{signaling: static, cookie: 8}"
    )
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(sites)
    (problem,) = caught.value.problems
    assert problem.path == ("peers", 1, "pseudowire", "cookie")
    assert "cookie size is 8 here but 0" in problem.message
    assert "(pseudowires between hub and linux-edge)" in problem.message


def test_a_linux_peer_without_a_static_override_is_refused_at_the_hubs_class(
    tmp_path: Path,
) -> None:
    sites = copy_example(HUB, tmp_path)
    edit_file(sites / "hub.yaml", "    pseudowire: {signaling: static, cookie: 0}\n", "")
    edit_file(sites / "hub.yaml", "  - name: linux-edge\n", "  - linux-edge\n")
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(sites)
    paths = [(p.site, p.path) for p in caught.value.problems]
    assert ("hub", ("pseudowire_class", "signaling")) in paths


def test_lint_runs_no_ios_rule_on_the_linux_site_and_pairs_the_hub_cleanly() -> None:
    findings = lint_sites(load_fleet(HUB))
    assert not [f for f in findings if f.file == "rendered:linux-edge"]
    assert [f for f in findings if f.code in {"L2T101", "L2T102", "L2T106"}] == []
    # IOS-XE: the classic-IOS hold-queue rule does not apply to the hub
    assert not [f for f in findings if f.code == "L2T004" and f.file == "rendered:hub"]


@pytest.mark.parametrize("command", ["push", "diff", "verify"])
def test_device_commands_refuse_a_linux_site_before_connecting(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("L2TPGEN_USERNAME", "u")
    monkeypatch.setenv("L2TPGEN_PASSWORD", "p")
    extra = ["--yes"] if command == "push" else []
    result = runner.invoke(app, [command, "linux-edge", "--sites", str(HUB), *extra])
    assert result.exit_code == 1
    assert "linux-edge is a linux PE: push, diff and verify handle Cisco IOS" in result.stderr


def test_diff_all_skips_the_linux_site_and_reaches_both_cisco_routers(
    tmp_path: Path,
    lab_env: None,  # noqa: ARG001 - needs the environment
) -> None:
    lab = start_lab(tmp_path, sites=HUB)
    try:
        assert sorted(lab.sim.devices) == ["branch", "hub"]  # no simulated router for Linux
        result = runner.invoke(
            app,
            [
                "diff",
                "--all",
                "--sites",
                str(HUB),
                "--inventory",
                str(lab.inventory),
                "--format",
                "json",
            ],
        )
        assert result.exit_code == 0, result.output
        assert "linux-edge: skipped (linux PE: not pushed)" in result.stderr
        sites = {r["site"]: r["status"] for r in json.loads(result.stdout)["results"]}
        assert sites == {"branch": "would-change", "hub": "would-change"}
    finally:
        lab.sim.close()


def test_every_platform_has_one_driver_and_the_model_accepts_exactly_those() -> None:
    # A new platform is one driver module: the model accepts what the drivers name, nothing else.
    assert {"ios", "iosxe", "linux"} <= set(DRIVERS)
    device_types = [d.device_type for d in DRIVERS.values()]
    assert {"cisco_ios", "cisco_xe", "linux"} <= set(device_types)
    assert len(set(device_types)) == len(DRIVERS)  # a device type picks one platform
    schema = Site.model_json_schema()
    platform = next(s for s in schema["properties"]["platform"]["anyOf"] if "enum" in s)
    assert platform["enum"] == list(DRIVERS)
    assert [n for n, d in DRIVERS.items() if d.pushable] == ["ios", "iosxe"]


_SETTINGS = st.builds(
    PeerPseudowire,
    signaling=st.sampled_from([None, "dynamic", "static"]),
    cookie=st.sampled_from([None, 0, 4, 8]),
    sequencing=st.sampled_from([None, "none", "both"]),
    pmtu=st.sampled_from([None, True, False]),
    df_bit=st.sampled_from([None, True, False]),
    tos_reflect=st.sampled_from([None, True, False]),
)


@given(_SETTINGS, _SETTINGS)
def test_different_settings_always_get_different_class_names(
    a: PeerPseudowire, b: PeerPseudowire
) -> None:
    base = PseudowireClass(name="ethernet")
    merged_a = base.model_copy(update=a.model_dump(exclude_none=True))
    merged_b = base.model_copy(update=b.model_dump(exclude_none=True))
    view = ("signaling", "dialect", "effective_cookie", "effective_pmtu", "df_bit", "tos_reflect")
    same = all(getattr(merged_a, f) == getattr(merged_b, f) for f in view) and (
        merged_a.sequencing == merged_b.sequencing
    )
    names_equal = class_suffix(base, merged_a, None) == class_suffix(base, merged_b, None)
    assert names_equal == same
