"""How each site reaches its peers' tunnel sources, and warnings where the site files cannot tell.

An ``xconnect`` targets the peer's ``ip local interface`` address, and Cisco's L2TPv3 guides say
the loopback must be reachable through the core (the l2tpv3 brief, "Addresses": S8; S7 on the
source address). The 12.0(29)S guide's prerequisites: "The loopback interface must have an IP
address that is reachable from the remote provider edge (PE) device at the other end of an L2TPv3
control channel" (lint rule L2T027 gives the reference). A site reaches a peer's tunnel source:

- ``connected``: the address is in this site's WAN subnet;
- ``igp``: a peer loopback, and the site states ``wan.peer_routes: igp`` (its routing protocol
  carries it; l2tpgen renders no route);
- ``static``: a route l2tpgen renders via the WAN gateway: the /32 to a peer loopback
  (``wan.peer_routes: static`` on a Cisco platform) or the longest ``wan.routes`` prefix that
  covers the address;
- ``none``: nothing above: the router has no route to the peer.

A static route hands the packets to the provider behind the gateway. On an internet underlay
(``wan.underlay``, derived from the WAN address when unset) the provider routes public addresses
only, so a private peer loopback behind it is unreachable unless something the site files do not
state carries it: a warning says what to state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from l2tpgen.model.problems import Problem
from l2tpgen.public import is_public

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from ipaddress import IPv4Address, IPv6Address

    from l2tpgen.model.site import Site

How = Literal["connected", "static", "igp", "none"]
Underlay = Literal["internet", "private"]


@dataclass(frozen=True)
class Reach:
    """How ``site`` reaches ``peer``'s tunnel source ``address``; ``detail`` says it in words."""

    site: str
    peer: str
    address: IPv4Address | IPv6Address
    how: How
    detail: str

    def as_dict(self) -> dict[str, str]:
        """For ``validate --format json``."""
        return {
            "site": self.site,
            "peer": self.peer,
            "address": str(self.address),
            "how": self.how,
            "detail": self.detail,
        }


def underlay_of(site: Site) -> tuple[Underlay, str]:
    """What the network behind the site's gateway routes, and why, in words."""
    wan = site.wan
    if wan.underlay is not None:
        return wan.underlay, f"{site.name} states wan.underlay: {wan.underlay}"
    if wan.trusted:
        return "private", f"{site.name} states wan.trusted: true"
    if is_public(wan.address.ip):
        return "internet", f"{site.name}'s WAN address {wan.address.ip} is public"
    return "private", f"{site.name}'s WAN address {wan.address.ip} is not public"


def _renders_peer_routes(site: Site) -> bool:
    """Whether ``render`` writes the /32 routes to peer loopbacks (the Cisco renderers do)."""
    return site.driver.peer_routes


def reach(site: Site, peer: Site) -> Reach:
    """How ``site`` reaches ``peer``'s tunnel source."""
    wan, address = site.wan, peer.tunnel_address
    subnet = wan.address.network
    if address in subnet:
        return Reach(site.name, peer.name, address, "connected", f"on the WAN subnet {subnet}")
    if peer.wan.loopback is not None and wan.peer_routes == "igp":
        return Reach(site.name, peer.name, address, "igp", "by the IGP (wan.peer_routes: igp)")
    if peer.wan.loopback is not None and _renders_peer_routes(site):
        return Reach(
            site.name,
            peer.name,
            address,
            "static",
            f"by the rendered route {address}/{address.max_prefixlen} via {wan.gateway}",
        )
    covering = [net for net in wan.routes if address in net]
    if covering:
        best = max(covering, key=lambda net: net.prefixlen)
        return Reach(
            site.name, peer.name, address, "static", f"by wan.routes {best} via {wan.gateway}"
        )
    if wan.peer_routes == "igp":
        return Reach(site.name, peer.name, address, "igp", "by the IGP (wan.peer_routes: igp)")
    return Reach(site.name, peer.name, address, "none", "by no route")


def reaches(sites: Mapping[str, Site]) -> list[Reach]:
    """How each site reaches each of its peers (peers that are sites of ``sites``), in order."""
    return [
        reach(sites[name], sites[peer])
        for name in sorted(sites)
        for peer in sites[name].peer_names
        if peer in sites and peer != name
    ]


def check_underlay(sites: Mapping[str, Site]) -> Iterator[Problem]:
    """Warnings (``level="warning"``) where a site's files do not show that a peer is reachable."""
    for name in sorted(sites):
        site = sites[name]
        for index, peer in enumerate(site.peer_names):
            if peer in sites and peer != name:
                yield from _warn(site, sites[peer], ("peers", index))


def _warn(site: Site, other: Site, path: tuple[str | int, ...]) -> Iterator[Problem]:
    wan, found = site.wan, reach(site, other)
    peer, address = found.peer, found.address
    if found.how == "none":
        yield Problem(
            site.name,
            path,
            f"{site.name} has no route to {peer}'s tunnel source {address}: it is outside the "
            f"WAN subnet {wan.address.network}, no wan.routes prefix covers it"
            + (
                f", and {site.effective_platform} renders no routes to peer loopbacks"
                if other.wan.loopback is not None
                else ""
            ),
            f"add a prefix that covers {address} to wan.routes (e.g. "
            f"{address}/{address.max_prefixlen}), or state "
            "`wan.peer_routes: igp` if your routing protocol carries it",
            level="warning",
            code="V066",
        )
        return
    underlay, why = underlay_of(site)
    if found.how != "static" or underlay != "internet" or is_public(address):
        return
    yield Problem(
        site.name,
        path,
        f"{peer}'s tunnel source {address} is not a public address, and {site.name} reaches it "
        f"{found.detail}, on an internet underlay ({why}): a provider does not route private "
        "addresses, and the remote PE must reach the tunnel source",
        f"if the network behind {wan.gateway} carries your private addresses (an MPLS VPN, a "
        "leased line), state `wan.underlay: private`; if your routing protocol carries them, "
        f"`wan.peer_routes: igp`; else give {peer} a public tunnel source (a public loopback, "
        "or no wan.loopback: its WAN address)",
        level="warning",
        code="V067",
    )
