"""`lab run SITES` checks the frame each Linux PE puts inside a pseudowire to a Cisco peer.

examples/hub by hand: the IOS-XE hub's VLAN 200 towards linux-edge is the subinterface
GigabitEthernet0/0/0.200, `encapsulation dot1Q 200`, bound to an xconnect whose
pseudowire-class has no `interworking`; Cisco forwards such VLAN frames "in their entirety"
(L2TPv3 feature guide, IOS 12.0(29)S/12.2(25)S p.22), so linux-edge must put 802.1Q frames with
VLAN ID 200 inside the session. The branch is Cisco too and both of sites/ are Cisco: no other
pair is checked. The frames themselves come from the real kernel in the QEMU lab
(``l2tpgen.lab.frames``, whose reading of a capture tests/test_lab_frames.py proves).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest
from builders import HUB, VYOS_EDGE, hub_fleet
from conftest import SITES
from conftest_lab import FRAME_CAPTURE, LABS, lab_status, qemu_alive, requires_vm, run_lab
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.lab.build import lab_of_fleet
from l2tpgen.lab.checks.frames import Frames, cisco_end, frame_pairs, frames_checks
from l2tpgen.lab.engines.qemu import run_script
from l2tpgen.lab.fields import FRAMES_FILE
from l2tpgen.lab.framefile import CiscoEnd
from l2tpgen.lab.frames import tcpdump_extras
from l2tpgen.lab.inputs import load_lab
from l2tpgen.model import Pseudowire

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
HUB_200 = CiscoEnd("GigabitEthernet0/0/0.200", "vlan", 200, interworking=False)
PASSED = (
    "VLAN 200: hub's GigabitEthernet0/0/0.200 (dot1Q 200, no interworking) implies 802.1Q tag "
    "200 carried inside the session; linux-edge sent 1 frame(s) from its CE: 802.1Q tag 200"
)
# FRAME_CAPTURE's first packet with the 802.1Q header taken out: the CE's ARP, untagged.
_UNTAGGED = """==t==
12:00:00.000000 IP 10.255.0.3 > 10.255.0.1:  ip-proto-115 46
\t0x0000:  4500 0042 0000 4000 4073 0000 0aff 0003
\t0x0010:  0aff 0001 0000 00c8 ffff ffff ffff 0200
\t0x0020:  0000 0201 0806 0001
==t end==
"""


def _pairs(sites: Path) -> list[tuple[str, str, int]]:
    return [(pw.site.name, pw.peer.name, pw.vlan.id) for pw in frame_pairs(load_fleet(sites))]


def test_only_a_linux_data_plane_pe_with_a_cisco_peer_gets_a_frames_check(tmp_path: Path) -> None:
    assert _pairs(HUB) == [("linux-edge", "hub", 200)]  # one probe per pair: its lowest VLAN
    assert _pairs(SITES) == []  # two Cisco sites: nothing to check
    # VyOS runs on the Linux data plane: its pair with the Cisco hub is checked, sublayer on.
    vyos = frames_checks(load_fleet(hub_fleet(tmp_path, *VYOS_EDGE)))
    assert [(c.site, c.peer, c.vlan, c.sublayer) for c in vyos] == [
        ("linux-edge", "hub", 200, True)
    ]


def test_the_expected_frame_is_read_from_the_cisco_ends_rendered_config() -> None:
    fleet = load_fleet(HUB)
    pw = fleet.pseudowires("linux-edge")[0]
    assert cisco_end(fleet, pw) == HUB_200
    assert HUB_200.expected == "802.1Q tag 200 carried"


def _frames(results: str) -> tuple[bool, str]:
    check = Frames(
        "linux-edge", "hub", 200, 0, sublayer=False, cisco=HUB_200, script="", prefix="t"
    )
    result = check.judge({check.key: results})
    assert (result.check, result.vlan, result.sites) == ("frames", 200, "linux-edge->hub")
    return result.ok, result.detail


def test_the_frames_check_passes_tagged_frames_and_names_what_it_saw_when_they_are_not() -> None:
    assert _frames(FRAME_CAPTURE) == (True, PASSED)
    ok, detail = _frames(_UNTAGGED)
    assert not ok
    assert detail.endswith(
        "linux-edge sent 1 frame(s) from its CE: untagged (EtherType 0x0806) "
        "(expected 802.1Q tag 200 carried: hub would not take them)"
    )
    ok, detail = _frames("")
    assert not ok
    assert detail.endswith("linux-edge put no frame from its CE on the WAN")


def test_a_topology_from_lab_build_carries_the_frames_check_as_run_from_sites(
    tmp_path: Path,
) -> None:
    # One path: `lab build` + `lab run FILE` runs the frames check `lab run SITES` runs.
    topology = tmp_path / "hub.clab.yml"
    built = runner.invoke(app, ["lab", "build", "--sites", str(HUB), "-o", str(topology)])
    assert built.exit_code == 0, built.output
    from_file = Frames.plan(load_lab(topology))
    from_sites = Frames.plan(lab_of_fleet(load_fleet(HUB), str(HUB)))
    assert [(c.site, c.peer, c.vlan, c.cisco) for c in from_file] == [
        ("linux-edge", "hub", 200, HUB_200)
    ]
    assert from_file == from_sites  # the same check, script and all
    assert load_lab(LABS / "example.clab.yml").frames == ()  # two Cisco ends: no pair


def test_a_lab_from_sites_gives_the_frames_check_its_pair_as_objects_not_json_labels() -> None:
    # Issue 35: the lab from a sites directory is built from the fleet, not read back from
    # files; only the topology `lab build` writes names its frames files (framefile.py).
    fleet = load_fleet(HUB)
    lab = lab_of_fleet(fleet, str(HUB))
    assert lab.fleet is fleet
    assert not [key for node in lab.nodes for key, _ in node.labels if key == FRAMES_FILE]
    assert lab.frames == ()  # nothing read from a file
    assert Frames.applies(lab, "vm") is None
    (check,) = Frames.plan(lab)
    assert check == frames_checks(fleet)[0]
    assert (check.site, check.peer, check.vlan, check.cisco) == ("linux-edge", "hub", 200, HUB_200)
    cisco_only = lab_of_fleet(load_fleet(SITES), str(SITES))
    assert Frames.applies(cisco_only, "vm") == "no Linux or VyOS PE with a Cisco peer"


def test_lab_run_of_sites_refuses_the_containerlab_engine_naming_the_way() -> None:
    result = runner.invoke(app, ["lab", "run", str(HUB), "--engine", "containerlab"])
    assert result.exit_code == 1, result.output
    assert "lab build --sites SITES -o FILE" in " ".join(result.output.split())


@pytest.mark.lab
@requires_vm
def test_lab_run_of_the_hub_sites_checks_that_linux_edge_sends_the_hubs_tag(
    tmp_path: Path,
) -> None:
    report = tmp_path / "hub.json"
    result = runner.invoke(app, ["lab", "run", str(HUB), "--report", str(report)])
    assert result.exit_code == 0, result.output
    found = json.loads(report.read_text())
    (row,) = [r for r in found["results"] if r["check"] == "frames"]
    assert {key: value for key, value in row.items() if key != "detail"} == {
        "check": "frames",
        "vlan": 200,
        "sites": "linux-edge->hub",
        "ok": True,
    }
    # The CE's ARP may go out more than once (a retry, then the ping): the count is not fixed.
    before, after = PASSED.split("sent 1 frame(s)")
    pattern = f"{re.escape(before)}sent [1-9][0-9]* frame\\(s\\){re.escape(after)}"
    assert re.fullmatch(pattern, row["detail"]), row["detail"]
    assert "frames" in result.output  # the table shows it too


@pytest.mark.lab
@requires_vm
def test_the_frames_check_read_from_a_built_topology_file_passes_on_the_kernel(
    tmp_path: Path,
) -> None:
    # `lab build` then `lab run FILE`'s frames check, its probe run in the VM as the lab runs
    # it: the check read back from pe-linux-edge.frames.yaml, no fleet.
    topology = tmp_path / "hub.clab.yml"
    built = runner.invoke(app, ["lab", "build", "--sites", str(HUB), "-o", str(topology)])
    assert built.exit_code == 0, built.output
    lab = load_lab(topology)
    assert lab.fleet is None
    (check,) = Frames.plan(lab)
    run = run_script(check.probes[0].command, extras=tcpdump_extras())
    result = check.judge({check.key: run.output})
    assert result.ok, (result.detail, run.output)
    assert result.detail.startswith(PASSED.split("sent 1", maxsplit=1)[0])


@pytest.mark.lab
@requires_vm
def test_a_linux_render_that_strips_the_tag_fails_the_frames_check_on_the_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Broken on purpose: the Linux end renders as if no tag were carried (the untagged Linux to
    # Linux form), while the hub's config still forwards the whole tagged frame.
    monkeypatch.setattr(Pseudowire, "dot1q_carried", property(lambda _: False))
    (check,) = frames_checks(load_fleet(HUB))
    assert check.cisco == HUB_200  # the expectation does not come from the Linux render
    run = run_script(check.probes[0].command, extras=tcpdump_extras())
    result = check.judge({check.key: run.output})
    assert not result.ok, run.output
    assert result.detail.startswith("VLAN 200: hub's GigabitEthernet0/0/0.200")
    assert "linux-edge sent" in result.detail
    assert "untagged (EtherType 0x0806)" in result.detail
    assert "802.1Q" not in result.detail.split("sent", 1)[1].split("(expected", 1)[0]


@pytest.mark.lab
@requires_vm
def test_a_vyos_edge_with_the_sublayer_sends_the_hubs_tag_on_the_kernel(tmp_path: Path) -> None:
    (check,) = frames_checks(load_fleet(hub_fleet(tmp_path, *VYOS_EDGE)))
    run = run_script(check.probes[0].command, extras=tcpdump_extras())
    result = check.judge({check.key: run.output})
    assert result.ok, (result.detail, run.output)


@pytest.mark.lab
@requires_vm
@pytest.mark.usefixtures("state")
def test_lab_check_on_the_hub_up_from_sites_runs_the_frames_check_again_and_again(
    tmp_path: Path,
) -> None:
    # The hub's paths stated trusted: no IPsec to start, the lab is up sooner (the frames check
    # builds its PE without IPsec either way).
    trusted = [
        (name, f"gateway: {gateway}\n", f"gateway: {gateway}\n  trusted: true\n")
        for name, gateway in (
            ("hub", "198.51.100.6"),
            ("branch", "198.51.100.14"),
            ("linux-edge", "198.51.100.22"),
        )
    ]
    pid = 0
    code, stdout, stderr = run_lab(["up", str(hub_fleet(tmp_path, *trusted)), "--name", "hub"])
    try:
        assert code == 0, stdout + stderr
        pid = int(str(lab_status()[1][0]["pid"]))
        # Twice: the first check's namespaces are gone when the second builds them again.
        for _ in range(2):
            code, stdout, stderr = run_lab(["check", "--full"])
            assert code == 0, stdout + stderr
            (row,) = [line for line in stdout.splitlines() if "frames" in line]
            assert "linux-edge->hub" in row
            assert " ok " in row
            assert "200" in row
    finally:
        code, _, stderr = run_lab(["down", "hub"])
    assert code == 0, stderr
    assert not qemu_alive(pid)
