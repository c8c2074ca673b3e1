"""Linux and VyOS sites name their interfaces as the system does (issue 28, item 1).

Cisco sites keep IOS's names (``gi0/1`` is written out in full). A Linux site names its ports as
the kernel does, checked against the kernel's own rule, ``dev_valid_name()`` in
``net/core/dev.c`` (torvalds/linux): 1-15 bytes (``IFNAMSIZ`` is 16 with the NUL), not ``.`` or
``..``, no ``/``, ``:`` or whitespace; l2tpgen also keeps to letters, digits, ``.``, ``_``, ``-``
(the names reach shell commands). A VyOS site names its Ethernet ports as vyos-1x's
``interface-definitions/interfaces_ethernet.xml.in`` (commit 295d69ff) constrains them,
``((eth|lan)[0-9]+|(eno|ens|enp|enx).+)``, and a WAN may be a VLAN of one (``eth1.100``, a vif).
Files written the old way (IOS names, and the real ones in the ``linux:`` block) render the same
and get a warning at the field saying what to write.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from builders import EXAMPLES, copy_example
from conftest import ROOT
from conftest_lab import requires_vm
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.ios.names import InterfaceNameError
from l2tpgen.lab.engines.qemu import run_script
from l2tpgen.lab.frames import frame_script, tcpdump_extras
from l2tpgen.model.interface_checks import interface_hints
from l2tpgen.platforms.linux.traits import linux_interface_name
from l2tpgen.platforms.vyos.traits import vyos_interface_name

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
EDGE = "linux-edge"
# examples/hub/linux-edge.yaml as it was written before: IOS names, the real ones under linux:.
OLD_STYLE = (
    ("interface: eth1\n", "interface: GigabitEthernet0/1\n"),
    ("{interface: lo,", "{interface: Loopback0,"),
    (
        "lan: {interface: eth2}\n",
        "lan: {interface: GigabitEthernet0/0}\nlinux: {wan: eth1, lan: eth2}\n",
    ),
)


def _fleet(tmp_path: Path, example: str, site: str, *edits: tuple[str, str]) -> Path:
    return copy_example(EXAMPLES / example, tmp_path, *((site, old, new) for old, new in edits))


def _render(sites: Path, site: str, *args: str) -> str:
    result = runner.invoke(app, ["render", site, "--sites", str(sites), *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_a_linux_site_with_wan_enp3s0_validates_and_renders_enp3s0(tmp_path: Path) -> None:
    sites = _fleet(
        tmp_path,
        "hub",
        EDGE,
        ("interface: eth1\n", "interface: enp3s0\n"),
        ("lan: {interface: eth2}", "lan: {interface: enp4s0f1}"),
    )
    result = runner.invoke(app, ["validate", "--sites", str(sites)])
    assert result.exit_code == 0, result.output
    # no warning about the names (the secrets' variables are not set here: that warning is another,
    # and so is the Cisco hub's pairs' [U] V105, issue 33)
    names = [w for w in result.stderr.splitlines() if "warning" in w and "variable" not in w]
    assert [w for w in names if "[V105]" not in w] == []
    script = _render(sites, EDGE)
    assert "# WAN enp3s0, LAN trunk enp4s0f1;" in script
    assert "ip link set dev enp3s0 up mtu 1500" in script
    assert " addr replace 198.51.100.17/29 dev enp3s0" in script
    assert "ip link add link enp4s0f1 name enp4s0f1.200 type vlan id 200" in script
    assert "eth1" not in script
    assert "eth2" not in script
    page = runner.invoke(app, ["docs", "--sites", str(sites)]).stdout
    row = next(line for line in page.splitlines() if line.startswith(f"| {EDGE} |"))
    assert "| enp3s0 198.51.100.17/29, MTU 1500 | 10.255.0.3 (lo) | enp4s0f1 |" in row
    assert "Ethernet" not in row


def test_networkd_files_are_named_after_the_sites_own_interfaces(tmp_path: Path) -> None:
    sites = _fleet(tmp_path, "ipv6", "site-b", ("interface: eth1\n", "interface: enp3s0\n"))
    for name in ("site-a", "site-b"):  # networkd expresses no cookies
        path = sites / f"{name}.yaml"
        path.write_text(
            path.read_text().replace("signaling: static}", "signaling: static, cookie: 0}")
        )
    out = tmp_path / "networkd"
    _render(sites, "site-b", "--format", "networkd", "-o", str(out))
    assert (out / "10-enp3s0.network").read_text().startswith("[Match]\nName=enp3s0\n")


def test_eth1_on_a_linux_site_is_eth1_not_ios_ethernet1() -> None:
    fleet = load_fleet(ROOT / "examples" / "hub")
    edge = fleet.site(EDGE)
    assert (edge.wan.interface, edge.lan.interface) == ("eth1", "eth2")
    assert edge.interfaces == ("eth1", "eth2", "lo")
    assert list(interface_hints(fleet.sites.values())) == []
    page = runner.invoke(app, ["docs", "--sites", str(ROOT / "examples" / "hub")]).stdout
    assert "Ethernet1" not in page
    assert "GigabitEthernet0/1 198.51.100.17" not in page


def test_an_old_style_linux_site_renders_the_same_and_is_told_what_to_write(
    tmp_path: Path,
) -> None:
    old = _fleet(tmp_path, "hub", EDGE, *OLD_STYLE)
    assert _render(old, EDGE) == _render(ROOT / "examples" / "hub", EDGE)
    page = runner.invoke(app, ["docs", "--sites", str(old)]).stdout
    assert (
        f"| {EDGE} | edge-1 | Linux | eth1 198.51.100.17/29, MTU 1500 | 10.255.0.3 (lo) | eth2 |"
        in page
    )
    result = runner.invoke(app, ["validate", "--sites", str(old)])
    assert result.exit_code == 0, result.output
    warnings = [
        line
        for line in result.stderr.splitlines()
        if ": warning: " in line and "[V105]" not in line
    ]
    path = f"{old}/{EDGE}.yaml"
    assert sorted(warnings) == [
        (
            f"{path}:12:25: warning: wan.loopback.interface: Loopback0 is an IOS name; a Linux "
            "site names its interfaces as the system does, and this one is read as lo (where the "
            "tunnel source goes) [V037]"
        ),
        (
            f"{path}:13:18: warning: lan.interface: GigabitEthernet0/0 is an IOS name; a Linux "
            "site names its interfaces as the system does, and this one is read as eth2 (from its "
            "`linux:` block) [V037]"
        ),
        (
            f"{path}:8:14: warning: wan.interface: GigabitEthernet0/1 is an IOS name; a Linux site "
            "names its interfaces as the system does, and this one is read as eth1 (from its "
            "`linux:` block) [V037]"
        ),
    ]
    assert (
        "hint: write `interface: eth1` and drop the `linux:` block (IOS names on a Linux site "
        "are deprecated)"
    ) in result.stderr


def test_an_old_style_site_without_the_linux_block_reads_its_defaults(tmp_path: Path) -> None:
    # Before, `linux:` left out meant eth1 and eth2 whatever wan.interface said.
    sites = _fleet(
        tmp_path, "hub", EDGE, *OLD_STYLE[:2], ("lan: {interface: eth2}", "lan: {interface: gi0/0}")
    )
    edge = load_fleet(sites).site(EDGE)
    assert edge.interfaces == ("eth1", "eth2", "lo")
    hints = [h.message for h in interface_hints([edge])]
    assert any("gi0/0 is an IOS name" in h and "the `linux:` default" in h for h in hints)


def test_the_linux_block_beside_the_sites_own_names_is_deprecated_or_contradicts(
    tmp_path: Path,
) -> None:
    same = _fleet(tmp_path / "a", "hub", EDGE, ("peers: [hub]", "linux: {wan: eth1}\npeers: [hub]"))
    hints = list(interface_hints(load_fleet(same).sites.values()))
    assert [(h.path, h.hint) for h in hints] == [(("linux",), "drop the `linux:` block")]
    other = _fleet(
        tmp_path / "b", "hub", EDGE, ("peers: [hub]", "linux: {wan: eth5}\npeers: [hub]")
    )
    result = runner.invoke(app, ["validate", "--sites", str(other)])
    assert result.exit_code == 1
    assert "error: linux.wan eth5 differs from wan.interface eth1" in result.stderr


@pytest.mark.parametrize("name", ["enp3s0", "eth1", "wan", "enp0s20f0u1u2.7", "a" * 15, "br-lan_2"])
def test_the_kernel_takes_these_linux_names(name: str) -> None:
    assert linux_interface_name(name) == name


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "the kernel takes"),
        ("a" * 16, "the kernel takes"),  # IFNAMSIZ 16 counts the NUL
        ("é" * 8, "the kernel takes"),  # 16 bytes in UTF-8: bytes count, not characters
        (".", "the kernel takes"),
        ("..", "the kernel takes"),
        ("eth0/1", "the kernel takes"),
        ("eth0:1", "the kernel takes"),
        ("eth 1", "the kernel takes"),
        ("eth\t1", "the kernel takes"),
        ("-eth1", "l2tpgen takes"),  # the kernel would; `ip` would read an option
        ("eth$1", "l2tpgen takes"),
    ],
)
def test_linux_names_the_kernel_or_the_shell_would_refuse_are_refused(name: str, why: str) -> None:
    with pytest.raises(InterfaceNameError, match=why):
        linux_interface_name(name)


@pytest.mark.parametrize(
    "name", ["eth0", "lan1", "enp3s0", "eno1", "ens192", "enx00e04c", "eth1.100"]
)
def test_vyos_takes_its_ethernet_names(name: str) -> None:
    assert vyos_interface_name(name) == name


@pytest.mark.parametrize("name", ["br0", "bond0", "ethx", "eth", "wan", "eth1.4095", "eth1.0"])
def test_vyos_refuses_what_is_not_one_of_its_ethernet_ports(name: str) -> None:
    with pytest.raises(InterfaceNameError, match="not a VyOS Ethernet interface"):
        vyos_interface_name(name)


def test_a_bad_linux_name_is_an_error_at_its_line_even_beside_another_error(
    tmp_path: Path,
) -> None:
    sites = _fleet(
        tmp_path,
        "hub",
        EDGE,
        ("interface: eth1\n", "interface: 'enp3s0:1'\n"),
        ("  gateway: 198.51.100.22\n", "  gateway: 198.51.100.22\n  mtuu: 1500\n"),
    )
    result = runner.invoke(app, ["validate", "--sites", str(sites)])
    assert result.exit_code == 1
    assert (
        f"{sites}/{EDGE}.yaml:8:14: error: wan.interface: 'enp3s0:1' is not a Linux interface "
        "name: the kernel takes 1-15 bytes, no '/', ':' or whitespace, not '.' or '..' [V031]\n"
        "  hint: a Linux site names its interfaces as the system does (e.g. `enp1s0`, "
        "`enp2s0`); IOS names are for Cisco platforms"
    ) in result.stderr
    assert "wan.mtuu: unknown key" in result.stderr


def test_a_linux_trunk_whose_vlan_devices_would_pass_15_bytes_is_refused(tmp_path: Path) -> None:
    sites = _fleet(
        tmp_path, "hub", EDGE, ("lan: {interface: eth2}", "lan: {interface: enp0s20f0u1u2}")
    )
    result = runner.invoke(app, ["validate", "--sites", str(sites)])
    assert result.exit_code == 1
    assert "the VLAN device enp0s20f0u1u2.202 l2tpgen adds on the trunk" in result.stderr


def test_a_linux_loopback_is_lo(tmp_path: Path) -> None:
    sites = _fleet(tmp_path, "hub", EDGE, ("{interface: lo,", "{interface: dummy0,"))
    result = runner.invoke(app, ["validate", "--sites", str(sites)])
    assert result.exit_code == 1
    assert "dummy0 is not a loopback interface [V032]\n  hint: name `lo`" in result.stderr


def test_a_vyos_site_renders_its_own_names_and_a_vlan_wan_as_a_vif(tmp_path: Path) -> None:
    sites = _fleet(
        tmp_path,
        "hub",
        EDGE,
        ("platform: linux", "platform: vyos"),
        ("interface: eth1\n", "interface: eth0.100\n"),
        ("lan: {interface: eth2}", "lan: {interface: eth3}"),
        ("cookie: 0}", "cookie: 0, sequencing: transmit}"),
        ("gateway: 198.51.100.22\n", "gateway: 198.51.100.22\n  trusted: true\n"),
    )
    hub = sites / "hub.yaml"
    hub.write_text(
        hub.read_text()
        .replace(
            "{signaling: static, cookie: 0}", "{signaling: static, cookie: 0, sequencing: transmit}"
        )
        .replace("gateway: 198.51.100.6\n", "gateway: 198.51.100.6\n  trusted: true\n")
    )
    text = _render(sites, EDGE)
    assert "set interfaces ethernet eth0 vif 100 address '198.51.100.17/29'" in text
    assert "set interfaces bridge br0 member interface eth3 allowed-vlan '200'" in text


def test_a_cisco_site_still_writes_ios_abbreviations_out_in_full(tmp_path: Path) -> None:
    sites = _fleet(
        tmp_path, "hub", "branch", ("interface: GigabitEthernet0/1", "interface: gi 0/1")
    )
    branch = load_fleet(sites).site("branch")
    assert branch.wan.interface == "GigabitEthernet0/1"
    assert branch.interfaces.wan == "GigabitEthernet0/1"
    assert branch.data_plane[:2] == (branch.linux.wan, branch.linux.lan)


def test_a_linux_name_on_a_cisco_site_is_told_where_such_names_belong(tmp_path: Path) -> None:
    # The issue: `enp3s0` was refused with "write it as IOS does", not a word about Linux PEs.
    sites = _fleet(
        tmp_path, "hub", "branch", ("interface: GigabitEthernet0/1", "interface: enp3s0")
    )
    result = runner.invoke(app, ["validate", "--sites", str(sites)])
    assert result.exit_code == 1
    assert (
        "error: wan.interface: 'enp3s0' is not an interface name; write it as IOS does, e.g. "
        "GigabitEthernet0/0 [V031]\n  hint: a Cisco IOS site names its interfaces as IOS does; "
        "for a Linux or VyOS PE, set `platform: linux` or `platform: vyos` and write the system's "
        "names"
    ) in result.stderr


@pytest.mark.lab
@requires_vm
def test_the_commands_rendered_for_enp3s0_carry_frames_on_the_kernel(tmp_path: Path) -> None:
    # The PE's namespace gets veths named as the site names its ports, and runs the rendered
    # iproute2 lines as they are (l2tpgen.lab.frames): the far end frames as the Cisco hub does.
    sites = _fleet(
        tmp_path,
        "hub",
        EDGE,
        ("interface: eth1\n", "interface: enp3s0\n"),
        ("lan: {interface: eth2}", "lan: {interface: enp4s0f1}"),
    )
    script = frame_script(load_fleet(sites), EDGE, "t", tagged_peer=True)
    assert "\nlink add enp3s0 netns " in script
    assert "\naddr replace 198.51.100.17/29 dev enp3s0" in script
    run = run_script(script, extras=tcpdump_extras())
    assert "t reached: yes" in run.output


def test_a_linux_site_named_as_linux_is_not_rendered_for_ios_with_those_names() -> None:
    # `interface eth2.200` is no IOS interface (the YANG check of IOS-XE lines caught it).
    hub = ROOT / "examples" / "hub"
    result = CliRunner().invoke(
        app, ["render", "linux-edge", "--sites", str(hub), "--platform", "iosxe"]
    )
    assert result.exit_code == 1
    assert (
        "linux-edge names its interfaces as Linux does (eth1, eth2), which Cisco IOS-XE cannot use"
        in " ".join(result.stderr.split())
    )
    assert "interface eth" not in result.stdout
