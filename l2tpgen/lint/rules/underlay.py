"""Rules about the underlay: how a router reaches the peers its pseudowires point at."""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.ios.names import is_loopback
from l2tpgen.lint.finding import Severity
from l2tpgen.lint.origins import RENDERED_PREFIX
from l2tpgen.lint.rules.base import DeviceRule

if TYPE_CHECKING:
    from collections.abc import Iterator
    from ipaddress import IPv4Address

    from l2tpgen.ios.facts import DeviceFacts
    from l2tpgen.lint.finding import Finding


def _unknown_routes(device: DeviceFacts) -> str | None:
    """Why the routes of ``device`` cannot be read from its config alone, or None when they can."""
    if all(is_loopback(name) for _, name in device.connected):
        return "no address but on loopbacks: a snippet that does not show its way out"
    if device.routing is not None:
        return "a routing protocol"
    learned = next(
        (i.name for i in device.interfaces.values() if i.address_at and not i.addresses), None
    )
    if learned is not None:
        return f"{learned}'s address from DHCP or PPP"
    return None


def _no_route(device: DeviceFacts, peer: IPv4Address) -> str | None:
    """Why ``device`` has no route to ``peer``, or None when a connected subnet or route has it.

    Of the `ip route` prefixes that cover the peer (a default route too), the longest decides: a
    discard route to Null0 is no way to the peer.
    """
    if any(peer in net for net, _ in device.connected):
        return None
    covering = [route for route in device.routes if peer in route.network]
    if not covering:
        return "no connected subnet, no `ip route` and no routing protocol covers it"
    best = max(covering, key=lambda route: route.network.prefixlen)
    if (best.interface or "").lower().startswith("null"):
        return f"its longest `ip route`, {best.network}, discards to {best.interface}"
    return None


class PeerWithoutRoute(DeviceRule):
    """A pseudowire's peer has no route: no connected subnet, no `ip route`, no routing protocol.

    ## What it does
    Flags an L2TPv3 `xconnect` (MPLS ones are out of scope) whose peer address is in no
    connected subnet of the config (an interface's `ip address`), is covered by no `ip route`
    (of any prefix length, a default route `ip route 0.0.0.0 0.0.0.0 ...` included, unless the
    longest covering route discards to `Null0`; `ip route vrf` is not the global table and does
    not count), while the config has no `router` section (OSPF, EIGRP, IS-IS, RIP, BGP: any of
    them may carry the peer, so the rule stays quiet) and no interface whose address is learned
    (`ip address dhcp`, `ip address negotiated`: a default route may come with it). A config in
    which no interface but a loopback has an address does not show its way out (a snippet whose
    routing is elsewhere): not judged. A peer that is the router's own address is L2T020's.
    Configs that l2tpgen renders are left to `validate`, which knows from the site files whether
    an IGP carries the peers.

    ## Why is this bad?
    The xconnect names the remote PE's tunnel source, which Cisco requires reachable: "The
    loopback interface must have an IP address that is reachable from the remote provider edge
    (PE) device at the other end of an L2TPv3 control channel" (Cisco's L2TPv3 feature guide for
    IOS 12.0(29)S and 12.2(25)S, "Prerequisites", p. 3, read at
    http://38.142.81.21:8001/manual/cisco/cisco-ios-software-release-12-0-29-s/manual-english/page-3.html;
    the IOS 15 M&T and IOS-XE 16 L2TPv3 guides say the loopback must be reachable through the
    core, and TechNote 45660 explains the tunnel source address,
    https://www.cisco.com/c/en/us/support/docs/ip/ip-routed-protocols/45660-l2tp-v3.html).
    With no route the control channel never forms and the pseudowire stays down.

    ## Use instead
    ```
    ip route 10.255.0.2 255.255.255.255 198.51.100.2
    ```
    (or a default route, or the routing protocol that carries the peer's loopback)
    """

    code = "L2T027"
    name = "peer-without-route"
    severity = Severity.WARNING

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        if device.file.startswith(RENDERED_PREFIX) or _unknown_routes(device) is not None:
            return
        for iface, xc in device.xconnects():
            peer = xc.peer
            why = None if peer is None or peer in device.owned else _no_route(device, peer)
            if why is None:
                continue
            yield self.finding(
                device.file,
                xc.at,
                f"the xconnect on {iface.name} targets {peer}, which this router has no route "
                f"to: {why}",
                f"add `ip route {peer} 255.255.255.255 <next hop>` (or a default route) towards "
                "the peer, or configure the routing protocol that carries the peer's tunnel source",
            )
