"""Rules for a port-mode xconnect on the LAN trunk (``lan.port_xconnect``): keep it, or migrate.

A port-mode xconnect (an ``xconnect`` on the main Ethernet interface) tunnels every frame the port
receives, tagged or not (Cisco, "Layer 2 Tunnel Protocol Version 3", Cisco IOS Releases 12.0(29)S
and 12.2(25)S, "Ethernet": "Any Ethernet frame received on an interface is tunneled";
https://www.cisco.com/en/US/docs/ios/12_0s/feature/guide/l2tpv325.html). Kept, it is the one
pseudowire of the trunk: no VLAN subinterfaces beside it, the same at both ends. Migrated, the
site's VLANs replace it and must be there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.model.problems import Problem
from l2tpgen.mtu import Encapsulation, overhead_budget

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from l2tpgen.model.link import Link
    from l2tpgen.model.site import Site
    from l2tpgen.mtu import OverheadBudget

PORT = ("lan", "port_xconnect")


def check_port_mode(site: Site) -> Iterator[Problem]:
    """What one site's ``lan.port_xconnect`` needs of the site itself."""
    port = site.lan.port_xconnect
    if port is None:
        return
    if port.peer not in site.peer_names:
        yield Problem(
            site.name,
            (*PORT, "peer"),
            f"the port-mode xconnect names peer {port.peer}, which is not in this site's peers",
            f"add {port.peer} to peers, or correct the peer name",
            code="V068",
        )
        return
    if not port.kept:
        if not any(v.peer == port.peer for v in site.vlans):
            yield Problem(
                site.name,
                (*PORT, "action"),
                f"the port-mode xconnect to {port.peer} is to be migrated, but no VLAN of this "
                f"site goes to {port.peer}: the migration would leave nothing of it",
                f"list the VLANs the trunk carries in vlans (peer {port.peer}), or set "
                "`action: keep`",
                code="V069",
            )
        return
    if not site.driver.ios_config:
        yield Problem(
            site.name,
            (*PORT, "action"),
            f"a kept port-mode xconnect is an IOS attachment circuit; this site's platform is "
            f"{site.effective_platform}",
            "set `action: migrate` and list the VLANs, or remove lan.port_xconnect",
            code="V070",
        )
    if site.vlans:
        yield Problem(
            site.name,
            ("vlans", 0),
            f"{site.lan.interface} keeps its port-mode xconnect, which carries every VLAN of the "
            "port: a VLAN subinterface beside it would never see a frame",
            "remove vlans, or set `lan.port_xconnect.action: migrate` to move to one "
            "pseudowire per VLAN",
            code="V071",
        )
    if site.pseudowire_for(port.peer).signaling == "static":
        yield Problem(
            site.name,
            (*PORT, "action"),
            f"l2tpgen keeps a port-mode xconnect with dynamic signaling only; the pseudowires to "
            f"{port.peer} are static",
            "set `action: migrate` (one static session per VLAN), or dynamic signaling",
            code="V072",
        )


def check_port_pairs(
    site: Site, sites: Mapping[str, Site], files: Mapping[str, str]
) -> Iterator[Problem]:
    """Both ends keep the port-mode xconnect, with one VC ID, and no ESP it would not get."""
    port = site.kept_port
    if port is None or port.peer not in sites:
        return
    peer = sites[port.peer]
    theirs = peer.kept_port
    if theirs is None or theirs.peer != site.name:
        yield Problem(
            site.name,
            (*PORT, "action"),
            f"{site.lan.interface} keeps a port-mode xconnect to {port.peer}, but "
            f"{files[port.peer]} does not keep one back to {site.name}",
            f"give {files[port.peer]} `lan.port_xconnect: {{peer: {site.name}, vc_id: "
            f"{port.vc_id}, action: keep}}`, or migrate at both ends",
            code="V073",
        )
        return
    if site.name > peer.name:
        return  # each pair is compared once
    if theirs.vc_id != port.vc_id:
        yield Problem(
            site.name,
            (*PORT, "vc_id"),
            f"the port-mode xconnect has VC ID {port.vc_id} here but {theirs.vc_id} in "
            f"{files[port.peer]}",
            "both ends of a pseudowire must use the same VC ID",
            code="V074",
        )
    if site.protection_for(peer).ipsec:
        yield Problem(
            site.name,
            (*PORT, "action"),
            f"the path to {port.peer} is to be protected with IPsec, which l2tpgen renders for "
            "per-VLAN pseudowires only: the kept port-mode xconnect would cross it in clear",
            "migrate to per-VLAN pseudowires, or state `protection.mode: none` on a trusted path",
            code="V075",
        )


@dataclass(frozen=True)
class KeptPort:
    """A kept port-mode pseudowire seen from ``site``: the trunk's one xconnect to ``peer``.

    It carries every frame of the port as it came in, tag included (the guide quoted above), so
    the largest frame is a tagged one: its budget carries the dot1Q tag whatever the platforms.
    Validation makes it dynamic (V072) and unprotected by IPsec (V075); its cookie is the larger
    of the two l2tp-classes' ``cookie_size`` [U], as for any dynamic pseudowire.
    """

    site: Site
    peer: Site
    vc_id: int

    @property
    def interface(self) -> str:
        """The LAN trunk that holds the xconnect."""
        return self.site.lan.interface

    @property
    def link(self) -> Link | None:
        """The path between the two sites, as either end states it."""
        return self.site.link_to(self.peer.name) or self.peer.link_to(self.site.name)

    @property
    def budget(self) -> OverheadBudget:
        """The data-plane budget both ends share (``Pseudowire.budget``'s rules, tag carried)."""
        sizes = (
            self.site.l2tp_for(self.peer.name).cookie_size,
            self.peer.l2tp_for(self.site.name).cookie_size,
        )
        return overhead_budget(
            min(self.site.wan.mtu, self.peer.wan.mtu),
            Encapsulation.IP,
            max((s for s in sizes if s), default=0),
            sublayer=self.site.pseudowire_for(self.peer.name).sequencing != "none",
            dot1q=True,
            esp=None,
            ipv6=self.site.wan.ipv6,
        )


def kept_port(site: Site, sites: Mapping[str, Site]) -> KeptPort | None:
    """The kept port-mode pseudowire of ``site`` when its peer is among ``sites`` (else None)."""
    port = site.kept_port
    if port is None or port.peer not in sites:
        return None
    return KeptPort(site, sites[port.peer], port.vc_id)
