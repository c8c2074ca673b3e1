"""In the QEMU lab: the Linux PE of examples/hub puts on the WAN the frame its Cisco peer sends.

The hub's Gi0/0/0.200 is a dot1Q subinterface with no `interworking`: Cisco forwards the VLAN frame
in its entirety (L2TPv3 feature guide, IOS 12.0(29)S/12.2(25)S p.22), so linux-edge, rendered for
the fleet as modelled, must send 802.1Q frames with VLAN ID 200 inside the session. The control:
the same site rendered Linux to Linux (the old untagged form, still right between two Linux PEs)
sends the untagged frame (ARP, EtherType 0x0806) on the same wire.
"""

from __future__ import annotations

import pytest
from conftest import ROOT
from conftest_lab import FRAME_CAPTURE, requires_vm

from l2tpgen import load_fleet
from l2tpgen.lab.engines.qemu import run_script
from l2tpgen.lab.frames import (
    CE_MAC,
    DOT1Q,
    InnerFrame,
    _packets,
    frame_script,
    inner_frames,
    tcpdump_extras,
)

HUB = ROOT / "examples" / "hub"
ARP = 0x0806


def test_inner_frames_reads_the_tag_of_a_hand_written_capture() -> None:
    assert len(_packets(FRAME_CAPTURE)) == 2
    assert inner_frames(FRAME_CAPTURE, "t") == [InnerFrame("02:00:00:00:02:01", 0x8100, 200)]


@pytest.mark.lab
@requires_vm
def test_linux_edge_sends_the_dot1q_tag_to_the_cisco_hub_and_none_linux_to_linux() -> None:
    fleet = load_fleet(HUB)
    pw = fleet.pseudowires("linux-edge")[0]
    assert pw.vlan.id == 200
    # The far end frames as the hub's dot1Q subinterface does: tagged inside the session.
    script = frame_script(fleet, "linux-edge", "t", tagged_peer=True) + frame_script(
        fleet.on_platform("linux"), "linux-edge", "u", tagged_peer=True
    )
    run = run_script(script, extras=tcpdump_extras())
    tagged = inner_frames(run.output, "t", pw.cookie_size)
    untagged = inner_frames(run.output, "u", pw.cookie_size)
    assert tagged, run.output
    assert untagged, run.output
    assert set(tagged) == {InnerFrame(CE_MAC, DOT1Q, 200)}
    # Untagged: ARP first (a peer answers ARP for its address on any device, so IPv4 may follow).
    assert untagged[0] == InnerFrame(CE_MAC, ARP, None)
    assert all(frame.ethertype != DOT1Q and frame.vlan is None for frame in untagged)
    # Traffic passes only when the Linux end frames as its Cisco-like peer does.
    assert "t reached: yes" in run.output
    assert "u reached: no" in run.output
