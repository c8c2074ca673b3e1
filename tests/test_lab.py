"""Labs: topologies containerlab would accept, the guest script and its batching, the checks'
judges, the containerlab engine's commands, and (marked ``lab``) a real L2TPv3 data plane in QEMU
that forwards frames per VLAN, isolates VLANs, keeps the MTU ``mtu.py`` predicts and carries
Corosync-style multicast heartbeats."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest
from conftest import ROOT, SITES, TESTS, Golden
from conftest_lab import LABS, VALIDATOR, beside, example_lab, requires_vm
from ruamel.yaml import YAML
from typer.testing import CliRunner

from l2tpgen import load_fleet, render_site
from l2tpgen.cli import app
from l2tpgen.lab.checks import plan_checks
from l2tpgen.lab.engines.guest import GuestLab, guest_script, parse_console
from l2tpgen.lab.engines.qemu import (
    Kernel,
    qemu_command,
)
from l2tpgen.lab.engines.vm import LabReport, run_vm
from l2tpgen.lab.inputs import parse_lab
from l2tpgen.lab.pairs import pairs
from l2tpgen.lab.shaping import Shaping
from l2tpgen.lab.topology import build_topology
from l2tpgen.lint import ConfigText, lint_configs
from l2tpgen.model import Fleet

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.lab.inputs import Lab

runner = CliRunner()


def _yaml(path: Path) -> Any:  # noqa: ANN401 - YAML documents are untyped
    return YAML(typ="safe").load(path.read_text())


@pytest.mark.parametrize(
    ("flavor", "variant", "shaping"),
    [
        ("linux", "per-vlan", None),
        ("linux", "single-trunk", None),
        ("cisco_iol", "per-vlan", None),
        ("linux", "per-vlan", Shaping(27.5, 1, 500)),
    ],
    ids=["linux", "single-trunk", "cisco_iol", "shaped-wan"],
)
def test_generated_topologies_validate_against_containerlabs_schema(
    flavor: str, variant: str, shaping: Shaping | None
) -> None:
    topology = build_topology(
        load_fleet(SITES),
        flavor=flavor,  # type: ignore[arg-type]
        variant=variant,  # type: ignore[arg-type]
        shaping=shaping,
        workloads={2997: "cluster-heartbeat"},
    )
    VALIDATOR.validate(topology)
    parse_lab(topology)  # and l2tpgen's own validation


@pytest.mark.parametrize("path", sorted(LABS.rglob("*.clab.yml")), ids=lambda p: p.name)
def test_committed_lab_files_validate_and_match_lab_build(path: Path, tmp_path: Path) -> None:
    VALIDATOR.validate(_yaml(path))
    flags = {
        "example.clab.yml": [],
        "example-single-trunk.clab.yml": ["--variant", "single-trunk"],
        "example-iol.clab.yml": ["--flavor", "cisco_iol"],
        "example-protected.clab.yml": [],
    }[path.name]
    sites = ROOT / "examples" / "protected" if "protected" in path.name else SITES
    name = _yaml(path)["name"]
    out = tmp_path / path.name
    result = runner.invoke(
        app, ["lab", "build", "--sites", str(sites), "--name", name, *flags, "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    for written in sorted(tmp_path.iterdir()):
        assert written.read_text() == (path.parent / written.name).read_text(), (
            f"regenerate {written.name} with `l2tpgen lab build` (see labs/README.md)"
        )


def test_linux_render_of_site_a_matches_golden(golden: Golden) -> None:
    golden.check(
        TESTS / "golden" / "render" / "site-a.linux.sh",
        # both PEs on Linux (a Linux pair): no tag carried, so 1462 with no cookie
        render_site(load_fleet(SITES).on_platform("linux"), "site-a"),
    )


def _static_fleet(tmp_path: Path) -> Path:
    sites = tmp_path / "static"
    sites.mkdir()
    for name in ("site-a", "site-b"):
        text = (SITES / f"{name}.yaml").read_text()
        text = text.replace("signaling: dynamic, pmtu: true", "signaling: static")
        text = text.replace(
            "{name: class1, authentication: password, secret_env: L2TPGEN_L2TP_SECRET}",
            "{authentication: none}",
        )
        (sites / f"{name}.yaml").write_text(text)
    return sites


def test_static_ios_pair_is_mirrored_and_lints_clean(tmp_path: Path, golden: Golden) -> None:
    fleet = load_fleet(_static_fleet(tmp_path))
    configs = [ConfigText(n, render_site(fleet, n)) for n in ("site-a", "site-b")]
    golden.check(TESTS / "golden" / "render" / "site-a.static.ios.conf", configs[0].text)
    assert (
        " xconnect 10.216.44.47 126 encapsulation l2tpv3 manual pw-class ethernet\n"
        "  l2tp id 126 126\n" in configs[0].text
    )
    findings = lint_configs(configs)
    assert [f for f in findings if f.severity.name != "INFO"] == []


def test_a_static_pair_with_swapped_cookies_is_caught_by_l2t105(tmp_path: Path) -> None:
    fleet = load_fleet(_static_fleet(tmp_path))
    a, b = (render_site(fleet, n) for n in ("site-a", "site-b"))
    b = (
        b.replace("l2tp cookie local", "l2tp cookie TMP")
        .replace("l2tp cookie remote", "l2tp cookie local")
        .replace("l2tp cookie TMP", "l2tp cookie remote")
    )
    findings = lint_configs([ConfigText("a", a), ConfigText("b", b)])
    assert {f.code for f in findings if f.code == "L2T105"} == {"L2T105"}


def _script(lab: Lab) -> str:
    return guest_script([GuestLab(lab, plan_checks(lab, "vm").probes("usual"))])


def test_each_nodes_commands_run_as_one_ip_batch_in_order() -> None:
    script = _script(example_lab())
    assert "ip netns exec" not in script
    batches = re.findall(r"^/sbin/ip -n (\S+) -batch", script, re.MULTILINE)
    assert batches == ["wan", "wan", "pe-site-a", "ce-site-a", "pe-site-b", "ce-site-b"]
    body = script.split("cat > /tmp/l2tpgen/pe-site-a.0.ip <<'L2TPGEN_BATCH_EOF'\n")[1]
    lines = body.split("\nL2TPGEN_BATCH_EOF\n")[0].splitlines()
    assert lines[:3] == [
        "link set dev lo up",
        "link set dev eth1 up mtu 1500",
        "addr replace 10.197.251.215/28 dev eth1",
    ]
    assert len(lines) == 1 + len(example_lab().node("pe-site-a").exec)


def test_links_are_created_straight_into_their_namespaces_with_their_mtu() -> None:
    script = _script(example_lab())
    assert (
        "link add eth1 netns pe-site-a mtu 1500 type veth peer name eth1 netns wan mtu 1500"
        in script
    )


def test_the_guest_script_has_no_fixed_sleeps_and_retries_single_pings() -> None:
    script = _script(example_lab())
    # The only pauses are 10 ms steps of loops that wait for a condition (a listener ready).
    assert script.count("sleep") == script.count("sleep 0.01; done") > 0
    assert "ping -c 1 -W 1 -p" in script
    assert not re.search(r"ping -c [2-9]", script)


def test_the_wan_is_shaped_only_when_asked() -> None:
    assert "netem" not in _script(example_lab())
    shaped = _script(example_lab(shaping=Shaping(27.5, 1, 500)))
    assert "qdisc replace dev eth1 root handle 1: netem delay 27.5ms loss 1% limit 2292" in shaped
    assert "qdisc replace dev eth2 parent 1:1 handle 10: tbf rate 500mbit burst 625000" in shaped
    assert "/sbin/tc -n wan -batch" in shaped


def test_a_failed_batch_line_is_reported_with_its_command() -> None:
    lab = example_lab()
    guest = GuestLab(lab, ())
    console = (
        "BATCH-FAIL 0 pe-site-a 0\nRTNETLINK answers: File exists\n"
        "Command failed /tmp/l2tpgen/pe-site-a.0.ip:3\nEXEC-FAIL-END\n"
        "EXEC-FAIL 0 wan 1\nsysctl: permission denied\nEXEC-FAIL-END\n"
    )
    (found,) = parse_console(console, [guest])
    assert found.setup_errors == (
        (
            "EXEC-FAIL pe-site-a: ip addr replace 10.197.251.215/28 dev eth1: "
            "RTNETLINK answers: File exists"
        ),
        "EXEC-FAIL wan: sysctl -w net.ipv4.ip_forward=1: sysctl: permission denied",
    )


def test_the_lab_vm_has_no_network_device_only_its_console(tmp_path: Path) -> None:
    kernel = Kernel(tmp_path / "vmlinuz", tmp_path)
    command = qemu_command("qemu-system-x86_64", kernel, tmp_path / "initrd.gz")
    assert command[command.index("-nic") + 1] == "none"
    assert not {"-net", "-netdev", "-device"} & set(command)
    assert "-nographic" in command


def _failed(report: LabReport) -> list[tuple[str, int]]:
    return [(r.check, r.vlan) for r in report.results if not r.ok]


@pytest.mark.lab
@requires_vm
def test_example_lab_forwards_every_vlan_isolated_with_the_predicted_mtu_and_multicast(
    tmp_path: Path,
) -> None:
    report = tmp_path / "report.json"
    args = ["lab", "run", str(LABS / "example.clab.yml"), "--engine", "vm", "--report"]
    result = runner.invoke(app, [*args, str(report)])
    assert result.exit_code == 0, result.output
    found = json.loads(report.read_text())
    assert found["ok"]
    checks = [(r["check"], r["vlan"]) for r in found["results"] if r["ok"]]
    vlans = (2996, 2997, 2998, 2999)
    assert sorted(checks) == sorted(
        (c, v) for c in ("reach", "isolation", "mtu", "multicast") for v in vlans
    )
    assert [r["detail"][:28] for r in found["results"] if r["check"] == "mtu"] == [
        "predicted 1458: 1458 crosses"
    ] * 4


def _single_trunk_hint() -> int:
    """The CE MTU L2T013 tells the README's single trunk (tests/lint/reference/before.conf)."""
    before = TESTS / "lint" / "reference" / "before.conf"
    (finding,) = [
        f
        for f in lint_configs([ConfigText("before.conf", before.read_text())])
        if f.code == "L2T013"
    ]
    found = re.search(r"lower the CE MTU to (\d+)", finding.fix)
    assert found is not None, finding.fix
    return int(found.group(1))


@pytest.mark.lab
@requires_vm
def test_single_trunk_variant_forwards_too() -> None:
    lab = _yaml(LABS / "example-single-trunk.clab.yml")
    # before.conf's design on the lab's PEs: the whole trunk in one session (each VLAN's frames
    # keep their tag), no cookie, no sublayer, a 1500-byte WAN.
    commands = lab["topology"]["nodes"]["pe-site-a"]["exec"]
    (session,) = [c for c in commands if c.startswith("ip l2tp add session")]
    assert session.endswith(" l2spec_type none")
    assert "cookie" not in session
    assert "ip link set dev eth1 up mtu 1500" in commands
    report = run_vm(parse_lab(lab))
    assert report.ok, (_failed(report), report.setup_errors)
    assert {r.check for r in report.results} == {"reach", "isolation", "mtu", "multicast"}
    assert all(
        "1459 crosses only fragmented" in r.detail for r in report.results if r.check == "mtu"
    )
    # What the lab measured (a DF ping crosses unfragmented, the PE's FragCreates flat; one byte
    # more crosses only fragmented) is the CE MTU L2T013 tells before.conf's users (issue 34):
    # 1458, not the untagged 1462.
    measured = {
        int(m.group(1))
        for r in report.results
        if r.check == "mtu"
        and (
            m := re.match(r"predicted \d+: (\d+) crosses unfragmented, \d+ crosses only", r.detail)
        )
    }
    assert measured == {_single_trunk_hint()} == {1458}


@pytest.mark.lab
@requires_vm
def test_a_fleet_with_different_vc_ids_fails_that_vlan_only() -> None:
    valid = load_fleet(SITES)
    site_b = valid.site("site-b")
    broken_vlans = tuple(
        v.model_copy(update={"vc_id": 998}) if v.id == 2998 else v for v in site_b.vlans
    )
    sites = dict(valid.sites) | {"site-b": site_b.model_copy(update={"vlans": broken_vlans})}
    broken = Fleet(sites, valid.files)  # built without the validator, which would refuse it
    report = run_vm(parse_lab(build_topology(broken, name="broken")))
    failed = _failed(report)
    assert {vlan for check, vlan in failed if check == "reach"} == {2998}, failed
    assert {check for check, _ in failed} == {"reach", "isolation", "mtu", "multicast"}
    assert [f for f in failed if f[1] != 2998] == []


THIRD_SITE = """\
name: site-c
hostname: lab-c-rtr1
management: {host: 192.0.2.13}
wan: {interface: GigabitEthernet0/1, address: 10.33.0.2/29, gateway: 10.33.0.1}
lan: {interface: GigabitEthernet0/0}
l2tp_class: {name: class1, authentication: password, secret_env: L2TPGEN_L2TP_SECRET}
pseudowire_class: {name: ethernet, signaling: dynamic, pmtu: true, df_bit: true}
peers: [site-a]
vlans:
  - {id: 2999, name: management, peer: site-a, vc_id: 125}
"""


def _three_sites(tmp_path: Path) -> Path:
    sites = tmp_path / "three"
    sites.mkdir()
    a = (SITES / "site-a.yaml").read_text()
    a = a.replace("peers: [site-b]", "peers: [site-b, site-c]")
    a = a.replace("name: management, peer: site-b", "name: management, peer: site-c")
    b = (SITES / "site-b.yaml").read_text()
    b = b.replace("  - {id: 2999, name: management, peer: site-a, vc_id: 125}\n", "")
    for name, text in (("site-a", a), ("site-b", b), ("site-c", THIRD_SITE)):
        (sites / f"{name}.yaml").write_text(text)
    return sites


@pytest.mark.lab
@requires_vm
def test_a_correct_three_site_fleet_passes_isolation_despite_background_frames(
    tmp_path: Path,
) -> None:
    fleet = load_fleet(_three_sites(tmp_path))
    report = run_vm(parse_lab(build_topology(fleet, name="three")))
    assert report.ok, (_failed(report), report.setup_errors)
    assert {(r.check, r.vlan, r.sites) for r in report.results if r.check == "isolation"} == {
        ("isolation", 2996, "site-a->site-b"),
        ("isolation", 2997, "site-a->site-b"),
        ("isolation", 2998, "site-a->site-b"),
        ("isolation", 2999, "site-a->site-c"),
    }


def test_a_three_site_topology_validates_and_watches_every_far_end(tmp_path: Path) -> None:
    topology = build_topology(load_fleet(_three_sites(tmp_path)), name="three")
    VALIDATOR.validate(topology)
    lab = parse_lab(topology)
    assert [(p.vlan, p.near.node, p.far.node) for p in pairs(lab)] == [
        (2996, "ce-site-a", "ce-site-b"),
        (2997, "ce-site-a", "ce-site-b"),
        (2998, "ce-site-a", "ce-site-b"),
        (2999, "ce-site-a", "ce-site-c"),
    ]
    script = _script(lab)
    for node, vlan in (("ce-site-b", 2996), ("ce-site-b", 2998), ("ce-site-c", 2999)):
        assert f'INTERFACE:eth1.{vlan} CREATE:"$L2TPGEN_TMP/cap-{node}-{vlan}"' in script


@pytest.mark.lab
@requires_vm
def test_the_hub_fleet_with_a_linux_spoke_forwards_every_vlan_of_both_spokes() -> None:
    # examples/hub: IOS-XE hub, Cisco branch (dynamic), Linux edge (static); the linux flavor
    # runs every PE on Linux, so each pair is a Linux-to-Linux data plane of the model's VLANs.
    # Its WANs are public, so IPsec by default: the PEs bind the swanctl.conf l2tpgen renders
    # and the protection checks run on both pairs.
    fleet = load_fleet(ROOT / "examples" / "hub")
    topology = build_topology(fleet, name="hub")
    report = run_vm(parse_lab(topology, "hub", beside(fleet)))
    assert _failed(report) == []
    vlans = {r.vlan for r in report.results if r.check == "reach"}
    assert vlans == {100, 101, 102, 103, 104, 105, 200, 201, 202}
    protected = {(r.check, r.sites) for r in report.results if r.check in {"injection", "ike"}}
    assert {sites for _, sites in protected} == {"branch->hub", "hub->linux-edge"}


def test_a_linux_site_is_a_linux_pe_in_every_flavor() -> None:
    fleet = load_fleet(ROOT / "examples" / "hub")
    for flavor in ("linux", "cisco_iol"):
        nodes = build_topology(fleet, flavor=flavor)["topology"]["nodes"]
        assert nodes["pe-linux-edge"]["kind"] == "linux"
        assert any("ip l2tp add session" in c for c in nodes["pe-linux-edge"]["exec"])
    iol = build_topology(fleet, flavor="cisco_iol")["topology"]["nodes"]
    assert {iol["pe-hub"]["kind"], iol["pe-branch"]["kind"]} == {"cisco_iol"}
    VALIDATOR.validate(build_topology(fleet, flavor="cisco_iol"))
