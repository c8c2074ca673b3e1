"""Rules about attachment circuits: how VLANs are handed to pseudowires."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from l2tpgen.ios.names import is_ethernet
from l2tpgen.lint.finding import Severity
from l2tpgen.lint.rules.base import DeviceRule

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.ios.facts import DeviceFacts
    from l2tpgen.lint.finding import Finding


class SingleTrunkXconnect(DeviceRule):
    """An xconnect on a main Ethernet interface carries every VLAN of the port in one session.

    ## What it does
    Flags `xconnect` on a main (non-subinterface) Ethernet interface.

    ## Why is this bad?
    Every VLAN of the trunk shares one session and one broadcast domain; customer BPDUs, CDP and
    LACP cross the pseudowire; per-VLAN QoS and troubleshooting are lost. In the reference case this
    "single trunk tunnel" gave 20-30 Mb/s at 100 % CPU where per-VLAN subinterfaces gave ~800 Mb/s.

    ## Use instead
    ```
    interface GigabitEthernet0/0.2996
     encapsulation dot1Q 2996
     xconnect 10.216.44.47 126 encapsulation l2tpv3 pw-class ethernet
    ```
    """

    code = "L2T001"
    name = "single-trunk-xconnect"
    severity = Severity.WARNING

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for iface, xc in device.xconnects():
            if not iface.is_subinterface and is_ethernet(iface.name):
                yield self.finding(
                    device.file,
                    xc.at,
                    f"xconnect on main interface {iface.name} carries every VLAN of the port "
                    "in one session",
                    "one dot1Q subinterface per VLAN, each with its own xconnect and VC ID "
                    "(`l2tpgen render` does this)",
                )


class DuplicateVcId(DeviceRule):
    """The same (peer, VC ID) is used twice on one router.

    ## What it does
    Flags a second `xconnect` with the same peer address and VC ID.

    ## Why is this bad?
    IOS requires (peer, VC ID) to be unique per router; the second xconnect is refused or never
    comes up.

    ## Use instead
    Give each pseudowire to a peer its own VC ID (l2tpgen derives it from the VLAN ID).
    """

    code = "L2T008"
    name = "duplicate-vc-id"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        first: dict[tuple[object, int], str] = {}
        for iface, xc in device.xconnects():
            if xc.vc_id is None:
                continue
            key = (xc.peer_text, xc.vc_id)
            if key in first:
                yield self.finding(
                    device.file,
                    xc.at,
                    f"VC ID {xc.vc_id} to {xc.peer_text} is already used on {first[key]}",
                    "give this pseudowire its own VC ID, the same at both ends",
                )
            else:
                first[key] = iface.name


class AttachmentHasIp(DeviceRule):
    """An attachment circuit also has an IP address.

    ## What it does
    Flags an interface that has both an `xconnect` and an `ip address`.

    ## Why is this bad?
    An attachment circuit is a transparent layer-2 port: its frames go into the pseudowire, so an
    address on it is either unused or a sign that the wrong interface was chosen. (The exact IOS
    reaction varies by release.)

    ## Use instead
    Remove the address; route on another interface.
    """

    code = "L2T011"
    name = "attachment-has-ip"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for iface, xc in device.xconnects():
            # an ATM PVC's or a DLCI's xconnect leaves the interface's own address alone
            if iface.address_at is not None and xc is iface.xconnect:
                yield self.finding(
                    device.file,
                    iface.address_at,
                    f"{iface.name} has an xconnect and an IP address",
                    f"remove `ip address` from {iface.name}; an attachment circuit is a "
                    "layer-2 port",
                )


class CdpOnAttachment(DeviceRule):
    """An attachment circuit runs CDP, so CDP crosses (or interferes with) the pseudowire.

    ## What it does
    Flags a main interface with an `xconnect` of its own (port mode) but without `no cdp enable`,
    unless `no cdp run` turns CDP off globally. Not flagged: dot1Q subinterfaces, ATM interfaces,
    and xconnects under an ATM PVC, a Frame Relay DLCI or a `connect` section.

    ## Why is this bad?
    In port mode every frame received on the port is tunneled (Cisco's L2TPv3 guide, "Ethernet":
    "Any Ethernet frame received on an interface is tunneled"), so the CDP of one site reaches the
    other: neighbours appear across sites and, with spanning tree, the two sites' topologies can
    merge. A dot1Q subinterface tunnels only the frames "tagged with a VID specified on the
    subinterface" (the same guide, "802.1q (VLAN)"); CDP runs on the physical port, untagged, and
    never enters that pseudowire. (Cisco IOS Releases 12.0(29)S and 12.2(25)S, Layer 2 Tunnel
    Protocol Version 3, cisco.com/c/en/us/td/docs/ios/12_0s/feature/guide/l2tpv325.html.)

    ## Use instead
    ```
    interface GigabitEthernet0/0
     no cdp enable
     xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
    ```
    """

    code = "L2T012"
    name = "cdp-on-attachment"
    severity = Severity.WARNING

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        if not device.cdp_run:
            return
        for iface, xc in device.xconnects():
            port_mode = xc is iface.xconnect and not iface.is_subinterface
            if port_mode and not iface.no_cdp and not iface.name.lower().startswith("atm"):
                yield self.finding(
                    device.file,
                    iface.at,
                    f"attachment circuit {iface.name} runs CDP",
                    f"add `no cdp enable` to {iface.name} (or `no cdp run`)",
                )


class DuplicateDot1q(DeviceRule):
    """Two subinterfaces of one port use the same dot1Q VLAN.

    ## What it does
    Flags a subinterface whose `encapsulation dot1Q N` repeats another subinterface's of the same
    parent.

    ## Why is this bad?
    IOS refuses the second one [U], so its pseudowire is not built.

    ## Use instead
    One subinterface per VLAN; l2tpgen numbers each after its VLAN.
    """

    code = "L2T015"
    name = "duplicate-dot1q"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        seen: dict[tuple[str, int], str] = defaultdict(str)
        for iface in sorted(device.interfaces.values(), key=lambda i: i.at.line):
            if iface.dot1q is None or iface.dot1q_at is None or not iface.is_subinterface:
                continue
            key = (iface.parent, iface.dot1q)
            if seen[key]:
                yield self.finding(
                    device.file,
                    iface.dot1q_at,
                    f"VLAN {iface.dot1q} is already attached to {seen[key]}",
                    "each VLAN of a port has one subinterface",
                )
            else:
                seen[key] = iface.name
