"""The stretched VLANs a lab's checks look at, and what the pair checks share.

A ``Pair`` is one VLAN between the two CEs that share it (``near`` sends, ``far`` answers); the
pair checks (``lab/checks/reach.py``, ``isolation.py``, ``mtu.py``, ``multicast.py``) and the
attackers aim at them. Shared here: the CEs' addresses, the listeners (socat captures of a VLAN
subinterface, the heartbeat receivers) that several checks read, the fragment counters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.lab.kinds import LINUX_KIND
from l2tpgen.lab.probes import Probe, counters, listener, marker, markers_in

if TYPE_CHECKING:
    from l2tpgen.lab.inputs import Ce, Lab

ICMP_IP_HEADERS = 28
# IPv4's counters, then IPv6's (absent when the kernel has no IPv6: nothing to count there).
SNMP_COMMAND = "cat /proc/net/snmp; cat /proc/net/snmp6 2>/dev/null"


def fragments_created(snmp: str) -> int:
    """Fragments the node created, IPv4 (``Ip: ... FragCreates``) and IPv6 (``Ip6FragCreates``)."""
    ipv4 = counters(snmp, "Ip").get("FragCreates", 0)
    ipv6 = sum(
        int(line.split()[1])
        for line in snmp.splitlines()
        if line.startswith("Ip6FragCreates ") and line.split()[1].isdigit()
    )
    return ipv4 + ipv6


HEARTBEAT_PORT = 5405  # Corosync's mcastport
HEARTBEATS = 3


def ce_address(site_index: int, vlan: int) -> str:
    """A CE's test address in a VLAN: 172.(16 + vlan // 256).(vlan % 256).(site index + 1)/24."""
    return f"172.{16 + (vlan >> 8)}.{vlan & 255}.{site_index + 1}/24"


def vlan_address(ce: Ce, vlan: int) -> str:
    """The CE's address in ``vlan`` (no prefix length)."""
    return ce_address(ce.index, vlan).split("/", 1)[0]


def heartbeat_group(vlan: int) -> str:
    """The VLAN's heartbeat group: 239.192.(vlan / 256).(vlan % 256), Corosync's range."""
    return f"239.192.{vlan >> 8}.{vlan & 255}"


def capture_name(ce: Ce, vlan: int) -> str:
    """The file a CE's capture of one VLAN subinterface writes."""
    return f"cap-{ce.node}-{vlan}"


def _listening(ce: Ce, started: str, seen: str, name: str, address: str) -> tuple[Probe, Probe]:
    """A socat listener on ``address`` started with the lab, then the markers it received."""
    return (
        Probe(started, ce.node, listener(name, address), phase="start"),
        Probe(seen, ce.node, markers_in(name), "out", "collect"),
    )


def capture_probes(ce: Ce, vlan: int) -> tuple[Probe, Probe]:
    """Capture everything on the CE's subinterface of ``vlan``, then list the tags seen."""
    name = capture_name(ce, vlan)
    return _listening(
        ce, f"capture.{ce.node}.{vlan}", f"seen.{ce.node}.{vlan}", name, f"INTERFACE:eth1.{vlan}"
    )


@dataclass(frozen=True)
class Pair:
    """One VLAN between two CEs: the probes go from ``near`` to ``far``."""

    vlan: int
    near: Ce
    far: Ce
    near_pe_linux: bool = True
    far_pe_linux: bool = True

    @property
    def sites(self) -> str:
        """``site-a->site-b``."""
        return f"{self.near.site}->{self.far.site}"

    @property
    def target(self) -> str:
        """The far CE's address in the VLAN."""
        return vlan_address(self.far, self.vlan)

    @property
    def tag(self) -> str:
        """The tag the reach ping carries."""
        return marker("P", self.vlan, self.near.index)


def receiver_probes(ce: Ce) -> tuple[Probe, Probe]:
    """One heartbeat receiver for the CE: every VLAN's group joined on its own subinterface."""
    joins = ",".join(f"ip-add-membership={heartbeat_group(vlan)}:eth1.{vlan}" for vlan in ce.vlans)
    name = f"heartbeat-{ce.node}"
    address = f"UDP4-RECV:{HEARTBEAT_PORT},reuseaddr,{joins}"
    return _listening(
        ce, f"heartbeat.receiver.{ce.node}", f"heartbeat.seen.{ce.node}", name, address
    )


def pairs(lab: Lab) -> tuple[Pair, ...]:
    """Each stretched VLAN once, from the CE with the lower index."""
    linux = {n.name: n.kind == LINUX_KIND for n in lab.nodes}
    found = []
    for ce in sorted(lab.ces, key=lambda c: c.index):
        for vlan in ce.vlans:
            far = next((o for o in lab.ces if o is not ce and vlan in o.vlans), None)
            if far is not None and far.index > ce.index:
                found.append(Pair(vlan, ce, far, linux.get(ce.pe, False), linux.get(far.pe, False)))
    return tuple(found)
