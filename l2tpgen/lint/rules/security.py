"""Rules about who can read or inject into a pseudowire: IPsec on its way out, the WAN filter.

An attacker on the WAN path who knows a session ID can put frames on the far CE's LAN, from any
source address (the Linux data plane checks the session ID alone, as measured in the lab:
shared/docs/security-lab-notes.md); without IPsec, whoever can read the path reads the LAN.
"Public" is every address outside RFC 1918, RFC 6598, loopback, link-local and multicast
(``l2tpgen.public.is_public``): documentation ranges count as public, since examples stand
for real public peers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.ios.acl import ANY, AclEntry
from l2tpgen.ios.crypto import (
    CryptoFacts,
    inbound_acl,
    protection,
    pw_protocol,
    tunnel_source,
    zone_member,
)
from l2tpgen.lint.finding import Severity
from l2tpgen.lint.rules.base import DeviceRule
from l2tpgen.public import is_public

if TYPE_CHECKING:
    from collections.abc import Iterator
    from ipaddress import IPv4Address

    from l2tpgen.ios.facts import At, DeviceFacts, Interface, Xconnect
    from l2tpgen.lint.finding import Finding


@dataclass(frozen=True)
class WayOut:
    """How the packets of one xconnect leave, and whether IPsec takes them.

    ``state``: ``protected``, ``clear`` (``why`` says how), ``missed`` (a crypto map meant for the
    pseudowire does not match its packets: ``at`` is the line that shows it), ``unknown``.
    """

    state: str
    why: str = ""
    at: At | None = None


def _is_tunnel(name: str) -> bool:
    return name.lower().startswith("tunnel")


_LAST: list[tuple[DeviceFacts, bool]] = []  # the device asked last: rules go device by device


def _ipsec_anywhere(device: DeviceFacts) -> bool:
    """Whether any interface has a crypto map or tunnel protection (once per device, not per xc)."""
    last = _LAST[-1] if _LAST else None  # one read: safe if another thread replaces it
    if last is not None and last[0] is device:
        return last[1]
    found = any(i.crypto_map or i.tunnel_protection for i in device.interfaces.values())
    _LAST[:] = [(device, found)]
    return found


def way_out(device: DeviceFacts, xc: Xconnect) -> WayOut:  # noqa: PLR0911 - one answer per case
    """Whether IPsec takes the packets of ``xc`` on their way out (any peer address)."""
    peer = xc.peer
    pw = device.pw_class_of(xc)
    protocol = pw_protocol(pw)
    if peer is None or protocol is None or (xc.pw_class and pw is None):
        return WayOut("unknown")  # an undefined class (L2T006) says nothing of what it sends
    name = device.wan_interface(xc)
    wan = device.interfaces.get(name or "")
    if wan is None:
        if name is None and not _ipsec_anywhere(device):
            return WayOut("clear", "no interface of this router has a crypto map or IPsec")
        return WayOut("unknown")
    if wan.tunnel_protection:
        return WayOut("protected")
    if _is_tunnel(wan.name):
        return WayOut("unknown")  # GRE: what protects it depends on the tunnel's own way out
    if wan.crypto_map is None:
        return WayOut("clear", f"it leaves by {wan.name}, which has no crypto map")
    crypto = device.crypto or CryptoFacts()
    source = tunnel_source(device, pw)
    found = protection(crypto, wan.crypto_map, protocol, source, peer)
    if found.verdict == "permit":
        return WayOut("protected")
    if found.verdict == "unknown":
        return WayOut("unknown")
    missed = _meant_for(crypto, wan.crypto_map, protocol, source, peer)
    if missed is not None:
        return missed
    return WayOut("clear", f"no entry of crypto map {wan.crypto_map} on {wan.name} matches it")


def _names_both_ends(entry: AclEntry, source: IPv4Address | None, peer: IPv4Address) -> bool:
    """An entry written for these two addresses (not `any any`), whatever its protocol."""
    if (
        entry.source is None
        or entry.destination is None
        or entry.source == entry.destination == ANY
    ):
        return False
    return (source is None or source in entry.source) and peer in entry.destination


def _meant_for(
    crypto: CryptoFacts, map_name: str, protocol: int, source: IPv4Address | None, peer: IPv4Address
) -> WayOut | None:
    """Where a crypto map shows it was meant for the pseudowire it lets out in clear."""
    for entry in crypto.maps.get(map_name, ()):
        acl = crypto.acls.get(entry.acl or "")
        for line in acl.entries if acl else ():
            if _names_both_ends(line, source, peer):
                what = (
                    f"denies {line.protocol_word} between these addresses"
                    if line.action == "deny"
                    else f"permits {line.protocol_word}, not IP protocol {protocol}"
                )
                return WayOut(
                    "missed",
                    f"access list {entry.acl} (crypto map {map_name} {entry.seq}) {what}",
                    line.at,
                )
    for entry in crypto.maps.get(map_name, ()):
        if peer in entry.peers:
            return WayOut(
                "missed",
                f"crypto map {map_name} {entry.seq} has the peer {peer} but its access list "
                f"{entry.acl or '(none)'} does not permit IP protocol {protocol} to it",
                entry.acl_at or entry.at,
            )
    return None


class UnencryptedPublicPseudowire(DeviceRule):
    """A pseudowire to a public peer address leaves without IPsec.

    ## What it does
    For each L2TPv3 xconnect whose peer is a public address (not RFC 1918, RFC 6598, loopback or
    link-local; the documentation ranges count as public), finds the interface its packets leave
    by (the route to the peer, else a physical `ip local interface`) and flags the xconnect when
    that interface has neither `tunnel protection` nor a `crypto map` with an entry whose access
    list permits the pseudowire's packets (IP protocol 115, or the class's `ip protocol`, from the
    tunnel source to the peer). With no known way out, it flags only a router with no crypto map
    and no tunnel protection anywhere. A crypto map meant for the pseudowire that misses its
    packets is L2T025's; a GRE tunnel, an undefined map or pseudowire-class, a dynamic map or an
    object group in the access list give no finding (l2tpgen cannot tell).

    ## Why is this bad?
    L2TPv3 has no encryption: anyone on the Internet path reads the stretched LAN (heartbeats,
    storage, live migration). Cookies stop blind injection only; they travel in clear, so whoever
    reads the path can inject and replay frames.

    ## Use instead
    ```
    crypto ipsec transform-set PW esp-gcm 256
     mode transport
    crypto map WAN 10 ipsec-isakmp
     set peer 203.0.113.2
     set transform-set PW
     set ikev2-profile PW
     match address PW-TRAFFIC
    ip access-list extended PW-TRAFFIC
     permit 115 host 198.51.100.1 host 203.0.113.2
    interface GigabitEthernet0/1
     crypto map WAN
    ```
    """

    code = "L2T024"
    name = "unencrypted-public-pseudowire"
    severity = Severity.WARNING

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for _, xc in device.xconnects():
            if xc.peer is None or not is_public(xc.peer):
                continue
            way = way_out(device, xc)
            if way.state == "clear":
                yield self.finding(
                    device.file,
                    xc.at,
                    f"the pseudowire to public address {xc.peer} (VC ID {xc.vc_id}) is not "
                    f"encrypted: {way.why}",
                    "protect it with IPsec: a crypto map on the interface towards the peer whose "
                    "access list permits its packets (or tunnel protection)",
                )


class CryptoAclMissesPseudowire(DeviceRule):
    """A crypto map meant for a pseudowire does not match its packets: they leave in clear.

    ## What it does
    On the interface a pseudowire leaves by, when no entry of the `crypto map` permits its packets
    (IP protocol 115, or the class's `ip protocol`, from the tunnel source to the peer) although
    the map was written for it (an access-list entry names both addresses, or a map entry's
    `set peer` is the xconnect's peer), reports where: the access-list entry (`permit udp ... eq
    1701` matches L2TPv2/UDP, not the IP protocol 115 `encapsulation l2tpv3` sends) or the
    `match address` line. Any peer address, public or private. Entries are read as the router does:
    first match, `deny` leaves the packet to the next map entry, no match means clear text.

    ## Why is this bad?
    The configuration says "encrypted" and the wire says otherwise: the stretched LAN crosses the
    WAN in clear, readable and open to injection, while the IPsec SA may even come up for other
    traffic.

    ## Use instead
    ```
    ip access-list extended PW-TRAFFIC
     permit 115 host 198.51.100.1 host 203.0.113.2
    ```
    """

    code = "L2T025"
    name = "crypto-acl-misses-pseudowire"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        if device.crypto is None or not device.crypto.maps:
            return  # no crypto map: nothing can be meant for a pseudowire
        found: dict[tuple[At, str], list[str]] = {}
        for _, xc in device.xconnects():
            way = way_out(device, xc)
            if way.state == "missed" and way.at is not None:
                found.setdefault((way.at, way.why), []).append(f"{xc.vc_id} to {xc.peer}")
        for (at, why), vcs in found.items():
            yield self.finding(
                device.file,
                at,
                f"{why}: the pseudowire (VC ID {', '.join(vcs)}) leaves in clear",
                "permit the pseudowire's own packets in the crypto access list: "
                "`permit 115 host SOURCE host PEER` for `encapsulation l2tpv3`",
            )


def _open_entry(
    entries: tuple[AclEntry, ...], protocol: int, local: IPv4Address | None
) -> AclEntry | None:
    """The entry that admits ``protocol`` to ``local`` from a source no entry names, if any.

    Entries for named sources are passed over (a stranger is outside them); the first entry that
    matches any source decides. An entry l2tpgen cannot read ends the search without an answer.
    """
    for entry in entries:
        if entry.protocol is None or entry.source is None or entry.destination is None:
            return None
        if entry.protocol not in (-1, protocol):
            continue
        if entry.destination != ANY and (local is None or local not in entry.destination):
            if local is None:
                return None
            continue
        if entry.source == ANY:
            return entry if entry.action == "permit" else None
    return None


class L2tpOpenToAnySource(DeviceRule):
    """The WAN interface admits L2TPv3 from any source, not only from the pseudowires' peers.

    ## What it does
    For each interface that pseudowires to public peers leave by (found as L2T024 does; not a
    tunnel, not in a zone-based firewall zone), flags it when it has no `ip access-group NAME in`,
    or when its inbound access list's first entry that matches a source it does not name permits
    the pseudowires' IP protocol (115, `ip`, or the class's `ip protocol`) to the tunnel source.
    An access list not in the config, or one with object groups, gives no finding.

    ## Why is this bad?
    A data packet with a valid session ID is accepted from any source: an attacker on the Internet
    injects frames into the stretched LAN from their own address (measured on the Linux data
    plane; whether IOS checks the source is not confirmed). IPsec with per-peer selectors does not
    stop packets from an address it does not know, so the filter is needed with IPsec too.

    ## Use instead
    What l2tpgen renders (`l2tpgen-wan-in`): L2TPv3 to the router's own address from the peers
    only; ESP, IKE and traffic crossing the router are not this filter's business.
    ```
    ip access-list extended WAN-IN
     permit 115 host 203.0.113.2 host 198.51.100.1
     deny 115 any host 198.51.100.1
     permit ip any any
    interface GigabitEthernet0/1
     ip address 198.51.100.1 255.255.255.252
     ip access-group WAN-IN in
    ```
    """

    code = "L2T026"
    name = "l2tp-open-to-any-source"
    severity = Severity.WARNING

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        ways: dict[str, list[tuple[Xconnect, int, IPv4Address | None]]] = {}
        for _, xc in device.xconnects():
            if xc.peer is None or not is_public(xc.peer):
                continue
            name = device.wan_interface(xc)
            pw = device.pw_class_of(xc)
            protocol = pw_protocol(pw)
            undefined = xc.pw_class is not None and pw is None  # L2T006's
            if not name or not protocol or undefined:
                continue
            ways.setdefault(name, []).append((xc, protocol, tunnel_source(device, pw)))
        for name, pws in sorted(ways.items()):
            wan = device.interfaces.get(name)
            if wan is None or _is_tunnel(name) or zone_member(wan):
                continue
            finding = self._check_interface(device, wan, pws)
            if finding is not None:
                yield finding

    def _check_interface(
        self,
        device: DeviceFacts,
        wan: Interface,
        pws: list[tuple[Xconnect, int, IPv4Address | None]],
    ) -> Finding | None:
        peers = ", ".join(sorted({str(xc.peer) for xc, _, _ in pws}))
        fix = (
            f"filter inbound on {wan.name}: permit the pseudowire protocol from {peers} only, "
            f"deny it from any other source to this router's addresses (`ip access-group NAME in`)"
        )
        applied = inbound_acl(wan)
        if applied is None:
            return self.finding(
                device.file,
                wan.at,
                f"{wan.name} receives pseudowires from {peers} and has no inbound access list: "
                "anyone on the Internet can send this router L2TPv3 packets",
                fix,
            )
        acl = (device.crypto or CryptoFacts()).acls.get(applied[0])
        for xc, protocol, local in pws if acl is not None else ():
            entry = _open_entry(acl.entries, protocol, local)  # type: ignore[union-attr]
            if entry is not None:
                return self.finding(
                    device.file,
                    entry.at,
                    f"access list {applied[0]} on {wan.name} admits IP protocol {protocol} from "
                    f"any source (the pseudowire to {xc.peer} expects it from {xc.peer} only)",
                    fix,
                )
        return None
