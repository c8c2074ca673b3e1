"""The host advice of a site's stretched VLANs, from the model.

Per VLAN: the path is the pair's ``link`` (stated at either end, or not at all), the workload what
the VLAN ``carries`` (stated at either end; ``general`` otherwise) with its ``corosync_transport``
(either end; knet otherwise), and the inner MTU the
pseudowire's budget (``Pseudowire.budget``: the smaller WAN MTU, the pair's cookie and sublayer,
the dot1Q tag when a Cisco end carries it). Dynamic pseudowires get the same figure: ``ip pmtu``
makes the PE report it, and the hosts still need it.

The model is only read here (its types are imported for type checking alone): ``l2tpgen.model``
imports the workload names from ``l2tpgen.hosts``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.hosts.advice import recommend
from l2tpgen.hosts.path import HostsInputError, NetworkPath
from l2tpgen.hosts.sysctl import render_sysctl
from l2tpgen.workloads import stated_transport

if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

    from l2tpgen.hosts.advice import HostAdvice
    from l2tpgen.model import Fleet, KeptPort, Pseudowire
    from l2tpgen.model.link import Link


def network_path(link: Link) -> NetworkPath:
    """The model's link as the path the advice reads."""
    return NetworkPath(bandwidth_bps=link.bandwidth, rtt_ms=link.rtt_ms, loss=link.loss)


@dataclass(frozen=True)
class VlanHosts:
    """What the hosts of one stretched VLAN need, and the files its inputs came from."""

    pseudowire: Pseudowire
    advice: HostAdvice
    site_file: str
    peer_file: str

    @property
    def vlan(self) -> int:
        """The VLAN ID."""
        return self.pseudowire.vlan.id

    @property
    def link_file(self) -> str | None:
        """The site file that states the link (None: neither does)."""
        pw = self.pseudowire
        if pw.site.link_to(pw.peer.name) is not None:
            return self.site_file
        return self.peer_file if pw.link is not None else None

    @property
    def carries_file(self) -> str | None:
        """The site file that states what the VLAN carries (None: neither does)."""
        pw = self.pseudowire
        if pw.vlan.carries is not None:
            return self.site_file
        return self.peer_file if pw.stated_carries is not None else None


def site_advice(fleet: Fleet, name: str, vlans: Collection[int] = ()) -> tuple[VlanHosts, ...]:
    """The advice for every stretched VLAN of ``name`` (or only ``vlans``), in VLAN order.

    Raises:
        HostsInputError: a VLAN asked for is not stretched by the site.
        ModelError: the site or one of its peers is not in ``fleet``.
    """
    pseudowires = fleet.pseudowires(name)
    stretched = {pw.vlan.id for pw in pseudowires}
    unknown = sorted(set(vlans) - stretched)
    if unknown:
        listed = ", ".join(map(str, sorted(stretched))) or "none"
        raise HostsInputError(f"{name} stretches no VLAN {unknown[0]} (its VLANs: {listed})")
    found = []
    for pw in pseudowires:
        if vlans and pw.vlan.id not in vlans:
            continue
        path = network_path(pw.link) if pw.link is not None else None
        advice = recommend(path, pw.budget.max_inner_mtu, pw.carries, stated_transport(pw))
        found.append(VlanHosts(pw, advice, fleet.files[name], fleet.files[pw.peer.name]))
    return tuple(found)


@dataclass(frozen=True)
class PortHosts:
    """What the hosts behind a kept port-mode pseudowire need: every VLAN of the trunk.

    One budget for all of them (the tag carried, ``KeptPort.budget``); what they carry is not
    stated per VLAN for a port, so the advice is the ``general`` workload's.
    """

    port: KeptPort
    advice: HostAdvice
    site_file: str
    peer_file: str


def port_advice(fleet: Fleet, name: str) -> PortHosts | None:
    """The advice for the hosts behind the site's kept port-mode pseudowire (None: it has none)."""
    port = fleet.kept_port(name)
    if port is None:
        return None
    path = network_path(port.link) if port.link is not None else None
    advice = recommend(path, port.budget.max_inner_mtu, "general")
    return PortHosts(port, advice, fleet.files[name], fleet.files[port.peer.name])


def site_sysctl(name: str, advice: Sequence[VlanHosts], port: PortHosts | None = None) -> str:
    """One ``/etc/sysctl.d/`` file for hosts on all of ``advice``'s VLANs of site ``name``.

    ``port``: the kept port-mode pseudowire's hosts too (every VLAN of the trunk).
    """
    ids = ", ".join(str(one.vlan) for one in advice)
    header = f"site {name}, VLAN{'s' if len(advice) != 1 else ''} {ids or 'none'}"
    if port is not None:
        header += f"; every VLAN of {port.port.interface} (port-mode pseudowire)"
    extra = [port.advice] if port is not None else []
    return render_sysctl([*(one.advice for one in advice), *extra], (header,))
