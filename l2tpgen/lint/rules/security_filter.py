"""A WAN filter that denies what another tunnel of the same router needs (issue 25).

Apart from ``security.py`` for its size only. The peers are read from the facts: a ``tunnel
protection`` interface's ``tunnel destination`` (its ``tunnel source`` is where ESP arrives), and
the ``set peer`` of each entry of a crypto map applied to an interface (ESP arrives on that
interface). l2tpgen's own inbound filter judges L2TPv3 only and never denies ESP (issue 33); a
filter written or edited by hand may.
"""

from __future__ import annotations

from dataclasses import dataclass
from ipaddress import IPv4Address
from typing import TYPE_CHECKING

from l2tpgen.ios.crypto import CryptoFacts, inbound_acl
from l2tpgen.ios.names import canonical_or_same, is_loopback
from l2tpgen.lint.finding import Severity
from l2tpgen.lint.rules.base import DeviceRule

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.ios.facts import DeviceFacts, Interface
    from l2tpgen.lint.finding import Finding

ESP = 50


@dataclass(frozen=True)
class _Need:
    """ESP from ``peer`` must enter by ``arrives`` to one of ``local`` for ``what`` to work."""

    what: str
    peer: IPv4Address
    arrives: str
    local: tuple[IPv4Address, ...]


def _tunnel_lines(iface: Interface) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for text, _ in iface.other:
        words = text.split()
        if len(words) > 2 and words[0].lower() == "tunnel":  # noqa: PLR2004 - tunnel KEY VALUE
            found.setdefault(words[1].lower(), words[2:])
    return found


def _address(word: str) -> IPv4Address | None:
    try:
        return IPv4Address(word)
    except ValueError:
        return None


def _tunnel_need(device: DeviceFacts, iface: Interface) -> _Need | None:
    lines = _tunnel_lines(iface)
    peer = _address(lines.get("destination", [""])[0])
    source = lines.get("source", [""])[0]
    if peer is None or not source:  # DMVPN mGRE has no `tunnel destination`: no fixed peer
        return None
    literal = _address(source)
    local: tuple[IPv4Address, ...]
    if literal is not None:
        name, local = device.owned.get(literal), (literal,)
    else:
        name = canonical_or_same(source)
        found = device.interfaces.get(name)
        local = tuple(a.ip for a in found.addresses) if found is not None else ()
    if name is None or not local:
        return None
    if is_loopback(name):
        name = device.route_interface(peer)
    if name is None:
        return None
    return _Need(f"{iface.name} (tunnel protection)", peer, name, local)


def _needs(device: DeviceFacts, crypto: CryptoFacts) -> Iterator[_Need]:
    every = tuple(device.owned)
    for iface in device.interfaces.values():
        if iface.tunnel_protection:
            need = _tunnel_need(device, iface)
            if need is not None:
                yield need
        for entry in crypto.maps.get(iface.crypto_map or "", ()):
            for peer in entry.peers:
                yield _Need(f"crypto map {entry.map} {entry.seq}", peer, iface.name, every)


class WanFilterCutsVpn(DeviceRule):
    """An inbound access list denies ESP from the peer of a tunnel or crypto map of the router.

    ## What it does
    For each `tunnel protection` interface with a literal `tunnel destination` (not DMVPN mGRE),
    takes the interface ESP arrives on (its `tunnel source`; for a loopback source, the
    interface of the route to the destination); for each entry of a crypto map applied to an
    interface, that interface and the entry's `set peer`. Flags the inbound access list
    (`ip access-group NAME in`) of that interface when its first entry matching ESP (IP protocol
    50) from the peer denies it to every address the tunnel may use (its source address; for a
    crypto map, any of the router's addresses), or when no entry matches (the implicit deny).
    IKE (UDP 500, 4500) is not judged: l2tpgen does not read ports; an entry with an object
    group gives no finding.

    ## Why is this bad?
    The tunnel's IPsec SAs cannot carry traffic: its ESP is dropped before decryption, and the
    VPN (and whatever management or routing rides it) is down. l2tpgen's own `l2tpgen-wan-in`
    denies only L2TPv3 to the router's own addresses and never ESP; a filter written by hand that
    denies ESP must keep the other VPNs' peers above that line.

    ## Use instead
    ```
    ip access-list extended WAN-IN
     permit 115 host 203.0.113.2 host 198.51.100.1
     permit esp host 203.0.113.80 any
     permit udp host 203.0.113.80 any eq 500
     permit udp host 203.0.113.80 any eq 4500
     deny esp any any
     permit ip any any
    ```
    """

    code = "L2T028"
    name = "wan-filter-cuts-vpn"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        crypto = device.crypto or CryptoFacts()
        seen: set[tuple[int, int, IPv4Address]] = set()
        for need in _needs(device, crypto):
            iface = device.interfaces.get(need.arrives)
            applied = inbound_acl(iface) if iface is not None else None
            acl = crypto.acls.get(applied[0]) if applied is not None else None
            if applied is None or acl is None:
                continue
            verdicts = [acl.verdict(ESP, need.peer, local) for local in need.local]
            if any(v != "deny" for v, _ in verdicts):
                continue
            entry = verdicts[0][1]
            at = entry.at if entry is not None else applied[1]
            if (at.line, at.column, need.peer) in seen:
                continue
            seen.add((at.line, at.column, need.peer))
            yield self.finding(
                device.file,
                at,
                f"access list {applied[0]} on {need.arrives} denies ESP from {need.peer}, the "
                f"peer of {need.what}"
                + (" (no entry permits it)" if entry is None else "")
                + ": that VPN cannot carry traffic",
                f"permit esp, udp eq 500 and udp eq 4500 from host {need.peer} above this line",
            )
