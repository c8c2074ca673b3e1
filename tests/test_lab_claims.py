"""What docs/lab.md promises about the lab, held from the user's side (issue 34, the claims table).

Each test is named by a row of ``tests/claims/lab.yaml``: where the report lands, what
``--format json`` prints, where a lab keeps its state, which checks report a part N/A and when,
which PEs run on Linux, and where IPv6 is turned on. None boots a VM: ``lab run`` is given a
fake engine where it would run one, and the judges are given the figures a run would gather.

The N/A parts come from what the far end renders: VyOS renders no inbound filter (its
``l2tpgen.inbound-filter: none`` label, ``lab/topology.py``), and a session either end of which
numbers its packets makes the far kernel drop a replayed sequence number even in clear
(torvalds/linux ``net/l2tp/l2tp_core.c``, ``l2tp_recv_data_seq``), so the clear control of
``replay`` proves nothing there.
"""

from __future__ import annotations

import ipaddress
import json
import re
import shutil
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest
from builders import VYOS_EDGE, hub_fleet
from conftest import ROOT, SITES
from conftest_lab import FRAME_CAPTURE, LABS
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.lab.attack import FORGED, PINGS, REPLAYED, Attacked, target
from l2tpgen.lab.checks.frames import Frames
from l2tpgen.lab.checks.injection import Injection
from l2tpgen.lab.checks.replay import Replay
from l2tpgen.lab.engines.qemu import Kernel, qemu_command
from l2tpgen.lab.framefile import CiscoEnd
from l2tpgen.lab.inputs import load_lab
from l2tpgen.lab.pairs import pairs
from l2tpgen.lab.security import reveal_secrets
from l2tpgen.lab.topology import build_topology

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.lab.engines.vm import LabReport

runner = CliRunner()
EXAMPLES = ROOT / "examples"
PROTECTED_LAB = LABS / "protected" / "example-protected.clab.yml"


# --- `lab run`: where the report lands, what --format json prints ---------------------------------


def _fake_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """``lab run``'s VM replaced by a run with one passed and one failed check."""
    from l2tpgen.lab.engines import vm as engine  # noqa: PLC0415
    from l2tpgen.lab.engines.vm import LabReport  # noqa: PLC0415
    from l2tpgen.lab.probes import CheckResult  # noqa: PLC0415

    def run_vm(_lab: object, *, progress: object = None) -> LabReport:
        del progress
        results = (
            CheckResult("reach", 2996, "site-a->site-b", ok=True, detail="answered"),
            CheckResult("reach", 2997, "site-a->site-b", ok=False, detail="no answer"),
        )
        return LabReport("example", "vm", results, (), 1.0)

    monkeypatch.setattr(engine, "run_vm", run_vm)


def test_lab_run_format_json_prints_every_check_passed_or_failed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _fake_engine(monkeypatch)
    report = tmp_path / "r.json"
    args = ["lab", "run", str(LABS / "example.clab.yml"), "--report", str(report)]
    result = runner.invoke(app, [*args, "--format", "json"])
    assert result.exit_code == 1  # a check failed
    printed = json.loads(result.stdout)  # the report and nothing else
    assert [(r["vlan"], r["ok"]) for r in printed["results"]] == [(2996, True), (2997, False)]
    assert printed == json.loads(report.read_text())


def test_lab_run_writes_its_report_beside_the_topology_file_or_the_sites_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _fake_engine(monkeypatch)
    topology = tmp_path / "example.clab.yml"
    shutil.copy(LABS / "example.clab.yml", topology)
    assert runner.invoke(app, ["lab", "run", str(topology)]).exit_code == 1
    assert json.loads((tmp_path / "example.clab.report.json").read_text())["results"]
    sites = tmp_path / "fleet"
    shutil.copytree(SITES, sites)
    assert runner.invoke(app, ["lab", "run", str(sites)]).exit_code == 1
    assert json.loads((tmp_path / "fleet.report.json").read_text())["results"]


# --- where a lab keeps its state -----------------------------------------------------------------


def test_the_labs_state_is_under_the_users_home_by_default_and_private(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    monkeypatch.delenv("L2TPGEN_STATE_DIR", raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    result = runner.invoke(app, ["lab", "status"])
    assert result.exit_code == 1  # none is up
    labs = home / ".local" / "state" / "l2tpgen" / "lab"
    assert labs.is_dir()
    assert labs.stat().st_mode & 0o777 == 0o700
    assert list(work.iterdir()) == []  # nothing in the working tree


# --- injection and replay: the parts reported N/A, and only those ------------------------------


def _attacked(*, inbound_filter: bool = True, sequenced: bool = False) -> Attacked:
    lab = reveal_secrets(load_lab(PROTECTED_LAB))
    pair = pairs(lab)[0]
    aim = replace(target(lab, pair), inbound_filter=inbound_filter, sequenced=sequenced)
    return Attacked(pair, aim)


def _figures(a: Attacked, phase: str, *, own: int, spoofed: int, replayed: int) -> dict[str, str]:
    """The probe results of one phase of the attacks, as the guest prints them."""
    k, m = a.key(phase), a.markers(phase)
    return {
        f"{k}.far.traffic": f"hit:{m['pattern']} {PINGS}",
        f"{k}.far": f"hit:{m['own']} {own}\nhit:{m['spoofed']} {spoofed}\n"
        f"hit:{m['pattern']} {replayed}\nend",
        f"{k}.wan": f"l2tp 0\nesp 8\nsaved 1\nhit:{m['pattern']} 0\nsent:{m['pattern']} 0\nend",
        f"{k}.traffic": f"{PINGS} packets transmitted, {PINGS} received, 0% packet loss",
        f"{k}.forge.own": f"sent {FORGED}",
        f"{k}.forge.spoofed": f"sent {FORGED}",
        f"{k}.replay": f"sent {REPLAYED}",
        f"{k}.xfrm.before": "XfrmInStateSeqError\t0",
        f"{k}.xfrm.after": f"XfrmInStateSeqError\t{REPLAYED if phase == 'protected' else 0}",
    }


def _run(a: Attacked, control: dict[str, int], protected: dict[str, int]) -> dict[str, str]:
    return {**_figures(a, "control", **control), **_figures(a, "protected", **protected)}


def test_a_far_pe_without_an_inbound_filter_has_the_own_address_half_na_and_the_spoofed_half_judged() -> (  # noqa: E501 - the claim's words
    None
):
    # The attacker's own address gets through (nothing stops it there), the spoofed one not.
    a = _attacked(inbound_filter=False)
    own_through = _run(
        a, {"own": 5, "spoofed": 5, "replayed": 3}, {"own": 5, "spoofed": 0, "replayed": 0}
    )
    verdict = Injection(a).judge(own_through)
    assert verdict.ok, verdict.detail
    assert f"N/A, {a.target.far_pe} has no inbound filter" in verdict.detail
    # The spoofed half is still judged: one spoofed frame through fails the check.
    spoofed_through = _run(
        a, {"own": 5, "spoofed": 5, "replayed": 3}, {"own": 5, "spoofed": 1, "replayed": 0}
    )
    assert not Injection(a).judge(spoofed_through).ok
    # With an inbound filter, the same own-address frames fail it.
    filtered = _attacked(inbound_filter=True)
    control, protected = {"own": 5, "spoofed": 5, "replayed": 3}, {"own": 5, "spoofed": 0}
    assert not Injection(filtered).judge(_run(filtered, control, {**protected, "replayed": 0})).ok


def test_a_sequenced_session_has_the_clear_replay_control_na_and_the_protected_figure_judged() -> (
    None
):
    # The far kernel drops the clear copy (a sequence number it has seen): the control shows 0.
    a = _attacked(sequenced=True)
    quiet_control = {"own": 5, "spoofed": 5, "replayed": 0}
    verdict = Replay(a).judge(_run(a, quiet_control, {"own": 0, "spoofed": 0, "replayed": 0}))
    assert verdict.ok, verdict.detail
    assert "N/A as a control" in verdict.detail
    # The protected figure is still judged.
    delivered = Replay(a).judge(_run(a, quiet_control, {"own": 0, "spoofed": 0, "replayed": 1}))
    assert not delivered.ok
    # Unsequenced, a control of 0 proves nothing and fails the check.
    plain = _attacked(sequenced=False)
    assert not Replay(plain).judge(_run(plain, quiet_control, {**quiet_control, "own": 0})).ok


def test_lab_build_labels_only_a_pe_whose_platform_renders_no_inbound_filter(
    tmp_path: Path,
) -> None:
    # examples/hub with linux-edge on VyOS: only that PE renders no inbound filter.
    topology = tmp_path / "hub.clab.yml"
    sites = hub_fleet(tmp_path, *VYOS_EDGE)
    built = runner.invoke(app, ["lab", "build", "--sites", str(sites), "-o", str(topology)])
    assert built.exit_code == 0, built.output
    lab = load_lab(topology)
    labelled = {n.name for n in lab.nodes if n.label("l2tpgen.inbound-filter") == "none"}
    assert labelled == {"pe-linux-edge"}
    # The same fleet with its Linux edge: no PE is labelled, so no half is ever N/A.
    plain = tmp_path / "plain.clab.yml"
    assert runner.invoke(app, ["lab", "build", "--sites", str(EXAMPLES / "hub"), "-o", str(plain)])
    assert not [n for n in load_lab(plain).nodes if n.label("l2tpgen.inbound-filter")]


# --- frames: every frame must be as the Cisco end implies ---------------------------------------

# FRAME_CAPTURE's first packet with the 802.1Q header taken out: the CE's ARP, untagged.
_UNTAGGED = """\
12:00:00.200000 IP 10.255.0.3 > 10.255.0.1:  ip-proto-115 46
\t0x0000:  4500 0042 0000 4000 4073 0000 0aff 0003
\t0x0010:  0aff 0001 0000 00c8 ffff ffff ffff 0200
\t0x0020:  0000 0201 0806 0001
"""


def test_one_untagged_frame_among_tagged_ones_fails_the_frames_check() -> None:
    hub = CiscoEnd("GigabitEthernet0/0/0.200", "vlan", 200, interworking=False)
    check = Frames("linux-edge", "hub", 200, 0, sublayer=False, cisco=hub, script="", prefix="t")
    assert check.judge({check.key: FRAME_CAPTURE}).ok  # tagged frames only
    mixed = FRAME_CAPTURE.replace("==t end==", _UNTAGGED + "==t end==")
    verdict = check.judge({check.key: mixed})
    assert not verdict.ok
    assert "802.1Q tag 200, untagged (EtherType 0x0806)" in verdict.detail


# --- which PEs run on Linux, and where IPv6 is on -----------------------------------------------


@pytest.mark.parametrize("fleet", ["hub", "protected", "field", "vyos"])
def test_every_cisco_pe_of_a_linux_flavor_lab_is_a_linux_node(fleet: str) -> None:
    sites = load_fleet(EXAMPLES / fleet)
    cisco = [name for name, site in sites.sites.items() if site.driver.ios_config]
    assert cisco, fleet
    nodes = build_topology(sites)["topology"]["nodes"]
    for name in cisco:
        pe = nodes[f"pe-{name}"]
        assert pe["kind"] == "linux", name
        assert any("ip l2tp add session" in c for c in pe["exec"]), name


def _ipv6_switches(commands: list[str]) -> set[str]:
    return {
        m.group(1)
        for c in commands
        for m in [re.fullmatch(r"sysctl -w net\.ipv6\.conf\.(\S+)\.disable_ipv6=0", c)]
        if m
    }


def test_the_vm_boots_with_ipv6_off_and_lab_build_turns_it_on_only_where_an_ipv6_site_needs_it(
    tmp_path: Path,
) -> None:
    kernel = Kernel(tmp_path / "vmlinuz", tmp_path)
    command = qemu_command("qemu-system-x86_64", kernel, tmp_path / "initrd.gz")
    assert "ipv6.disable_ipv6=1" in command[command.index("-append") + 1].split()
    nodes = build_topology(load_fleet(EXAMPLES / "ipv6"))["topology"]["nodes"]
    on = {name: _ipv6_switches(node.get("exec", [])) for name, node in nodes.items()}
    assert on == {
        "wan": {"all"},
        "pe-site-a": {"lo", "eth1"},
        "ce-site-a": set(),
        "pe-site-b": {"lo", "eth1"},
        "ce-site-b": set(),
    }
    assert "sysctl -w net.ipv6.conf.all.forwarding=1" in nodes["wan"]["exec"]
    # The CEs keep IPv4 test addresses: only the underlay is IPv6.
    ce_addresses = [
        ipaddress.ip_interface(c.split()[3])
        for name, node in nodes.items()
        if name.startswith("ce-")
        for c in node["exec"]
        if c.startswith("ip addr add ")
    ]
    assert ce_addresses
    assert {a.version for a in ce_addresses} == {4}
    # An IPv4 fleet's lab turns IPv6 on nowhere.
    ipv4 = build_topology(load_fleet(EXAMPLES / "hub"))["topology"]["nodes"]
    assert not [name for name, node in ipv4.items() if _ipv6_switches(node.get("exec", []))]


def test_every_ipv6_address_the_rendered_linux_script_adds_is_nodad() -> None:
    added = []
    for name in ("site-a", "site-b"):
        result = runner.invoke(app, ["render", name, "--sites", str(EXAMPLES / "ipv6")])
        assert result.exit_code == 0, result.output
        added += [
            line
            for line in result.stdout.splitlines()
            if re.search(r"\baddr (add|replace) [0-9a-f]*:[0-9a-f:]*/\d+ ", line)
        ]
    assert len(added) == 3  # site-a's WAN and loopback, site-b's WAN
    assert all(line.endswith(" nodad") for line in added), added
