"""One router's config read for import: its attachment circuits, LAN trunk, WAN and tunnel source.

Everything comes from the IOS layer's facts (``l2tpgen.ios.extract``); nothing here parses IOS
text. What the model has no place for becomes an ``unexpressed`` note; a config with nothing the
model can express is refused with the reasons.

Rules (the documented ones, in ``docs/site-files.md``):

- LAN trunk: the parent interface of the xconnect subinterfaces (one per site; a physical
  Ethernet port). An xconnect on the main interface is the single-trunk design.
- Tunnel source: the pseudowire-classes' ``ip local interface``; a loopback becomes
  ``wan.loopback``, any other interface is the WAN itself.
- WAN: the interface holding the subnet of the default route's next hop (else of the route
  towards the peers); gateway: that next hop (a directly connected peer is its own next hop).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from l2tpgen.errors import ConfigTextError
from l2tpgen.importer.notes import Note, redact
from l2tpgen.ios.encoding import split_lines
from l2tpgen.ios.extract import extract
from l2tpgen.ios.names import is_ethernet, is_loopback
from l2tpgen.ios.tree import parse
from l2tpgen.model.site import NAME_PATTERN
from l2tpgen.render.marks import ROUTE_NAME

if TYPE_CHECKING:
    from ipaddress import IPv4Address, IPv4Interface, IPv4Network

    from l2tpgen.ios.facts import At, DeviceFacts, Interface, Xconnect

# The first line of every config `l2tpgen render` writes: `! l2tpgen: SITE (HOSTNAME)`.
_HEADER = re.compile(r"^! l2tpgen: (\S+) \((\S+)\)$")
_NAME = re.compile(NAME_PATTERN)
MAX_VLAN = 4094


@dataclass(frozen=True)
class Circuit:
    """An attachment circuit the model can express: a dot1Q subinterface, or the whole port."""

    interface: Interface
    xconnect: Xconnect
    vlan: int | None  # None: an xconnect on the main interface (the single-trunk design)

    @property
    def peer(self) -> IPv4Address:
        """The xconnect's peer address (circuits always have one)."""
        assert self.xconnect.peer is not None  # noqa: S101 - checked when the circuit is made
        return self.xconnect.peer

    @property
    def vc_id(self) -> int:
        """The xconnect's VC ID (circuits always have one)."""
        return self.xconnect.vc_id or 0


@dataclass(frozen=True)
class WanFacts:
    """The routed side: interface, address, gateway, static routes via it, tunnel loopback."""

    interface: str
    address: IPv4Interface
    gateway: IPv4Address
    routes: tuple[IPv4Network, ...]
    loopback: tuple[str, IPv4Interface] | None


@dataclass(frozen=True)
class Router:
    """A config read for import."""

    file: str
    facts: DeviceFacts
    hostname: str
    rendered_as: str | None  # the site name in l2tpgen's own header, if it rendered this config
    trunk: str
    circuits: tuple[Circuit, ...]
    wan: WanFacts
    notes: tuple[Note, ...]

    @property
    def stem(self) -> str:
        """The config's file name without its suffix."""
        return Path(self.file).stem


class Refused(Exception):  # noqa: N818 - carries the reasons, caught by the importer
    """This config cannot be imported; ``notes`` say why."""

    def __init__(self, notes: list[Note]) -> None:
        super().__init__("refused")
        self.notes = tuple(notes)


class _Reader:
    def __init__(self, file: str, facts: DeviceFacts) -> None:
        self.file = file
        self.facts = facts
        self.notes: list[Note] = []

    def note(self, where: At | None, message: str) -> None:
        self.notes.append(Note.at(self.file, where, "unexpressed", message))

    def refuse(self, where: At | None, message: str) -> Refused:
        reasons = [Note.at(self.file, where, "refused", message)]
        reasons += [
            Note(n.file, n.line, n.column, "refused", n.message)
            for n in self.notes
            if n.kind == "unexpressed"
        ][:5]
        return Refused(reasons)

    def circuits(self) -> list[Circuit]:
        """The xconnects the model can express, grouped later by trunk; notes for the rest."""
        found: list[Circuit] = []
        for iface in self.facts.interfaces.values():
            xc = iface.xconnect
            if xc is not None and not self.facts.is_l2tpv3(xc):
                self.note(xc.at, f"the xconnect on {iface.name} is not L2TPv3: left out")
        for iface, xc in self.facts.xconnects():
            circuit = self._circuit(iface, xc)
            if circuit is not None:
                found.append(circuit)
        return found

    def _circuit(self, iface: Interface, xc: Xconnect) -> Circuit | None:
        where = f"the xconnect on {iface.name}"
        if xc.peer is None:
            self.note(xc.at, f"{where}: peer {redact(xc.peer_text)} is not an IPv4 address")
        elif xc.vc_id is None:
            self.note(xc.at, f"{where} has no VC ID")
        elif xc.peer in self.facts.owned:
            self.note(xc.at, f"{where} points at this router's own address {xc.peer}")
        elif not is_ethernet(iface.parent):
            self.note(
                xc.at,
                f"{where}: l2tpgen stretches VLANs from a physical Ethernet port, not "
                f"{iface.parent} (a port-channel, serial or virtual interface)",
            )
        elif not iface.is_subinterface:
            return Circuit(iface, xc, None)
        elif iface.dot1q is None or not 1 <= iface.dot1q <= MAX_VLAN:
            self.note(xc.at, f"{where}: the subinterface has no `encapsulation dot1Q VLAN`")
        else:
            return Circuit(iface, xc, iface.dot1q)
        return None

    def bare_trunk(self) -> str:
        """The LAN trunk of a router with l2tpgen's classes and no pseudowire yet.

        The one physical Ethernet port without an address and not shut down, as l2tpgen renders
        such a site; any other router is refused (which port would it be?).
        """
        if not self.facts.l2tpv3_classes:
            raise self.refuse(None, "no L2TPv3 xconnect or pseudowire-class: nothing to import")
        bare = [
            i.name
            for i in self.facts.interfaces.values()
            if is_ethernet(i.name) and not i.is_subinterface and not i.addresses and not i.shutdown
        ]
        if len(bare) != 1:
            raise self.refuse(
                None,
                "no L2TPv3 xconnect the site model can express, and no single unaddressed "
                "Ethernet port to take as the LAN trunk",
            )
        return bare[0]

    def trunk(self, circuits: list[Circuit]) -> tuple[str, list[Circuit]]:
        """The LAN trunk (the port with the most circuits) and its circuits."""
        if not circuits and self.facts.xconnects():
            raise self.refuse(None, "no L2TPv3 xconnect the site model can express")
        if not circuits:
            return self.bare_trunk(), []
        by_port = Counter(c.interface.parent for c in circuits)
        trunk = max(by_port, key=lambda p: (by_port[p], -_first_line(circuits, p)))
        kept: list[Circuit] = []
        vlans: set[int] = set()
        tagged = any(c.vlan is not None for c in circuits if c.interface.parent == trunk)
        for circuit in circuits:
            xc, name = circuit.xconnect, circuit.interface.name
            if circuit.interface.parent != trunk:
                self.note(
                    xc.at,
                    f"the xconnect on {name} is on another port than the LAN trunk "
                    f"{trunk}: a site has one LAN trunk",
                )
            elif circuit.vlan is None and tagged:
                self.note(
                    xc.at,
                    f"the xconnect on the whole port {name} besides its subinterfaces' xconnects",
                )
            elif circuit.vlan is not None and circuit.vlan in vlans:
                self.note(xc.at, f"VLAN {circuit.vlan} is on two subinterfaces; {name} is left out")
            else:
                vlans.add(circuit.vlan or 0)
                kept.append(circuit)
        return trunk, kept

    def tunnel_source(self, circuits: list[Circuit]) -> str | None:
        """The ``ip local interface`` of the circuits' classes (one per site)."""
        classes = [self.facts.pw_class_of(c.xconnect) for c in circuits] or list(
            self.facts.l2tpv3_classes.values()
        )
        sources = Counter(pw.local_interface if pw else None for pw in classes)
        named = [s for s in sources if s is not None]
        if len(named) > 1:
            raise self.refuse(
                circuits[0].xconnect.at if circuits else None,
                f"the pseudowire-classes source tunnels from {', '.join(sorted(named))}: a site "
                "has one tunnel source (ip local interface)",
            )
        return named[0] if named else None

    def wan(self, source: str | None, circuits: list[Circuit], trunk: str) -> WanFacts:
        """WAN interface, address and gateway; the tunnel loopback."""
        facts = self.facts
        loopback = None
        if source is not None and is_loopback(source):
            iface = facts.interfaces.get(source)
            if iface is None or not iface.addresses:
                raise self.refuse(None, f"the tunnel source {source} has no address here")
            loopback = (source, iface.addresses[0])
            source = None
        peer = circuits[0].peer if circuits else None
        default = next((r for r in facts.routes if r.network.prefixlen == 0 and r.next_hop), None)
        hop = default.next_hop if default is not None else None
        if source is None:
            wan_name = facts.route_interface(hop) if hop is not None else None
            if wan_name is None and peer is not None:
                wan_name = facts.route_interface(peer)
        else:
            wan_name = source
        iface = facts.interfaces.get(wan_name or "")
        if iface is None or not iface.addresses:
            raise self.refuse(
                default.at if default else None,
                "cannot tell the WAN interface: no interface with an address holds the default "
                "route's next hop or the route towards the peers",
            )
        if trunk in (iface.name, iface.parent):
            raise self.refuse(
                iface.at,
                f"the WAN {iface.name} is the LAN trunk {trunk} or one of "
                "its subinterfaces: l2tpgen owns those",
            )
        address = iface.addresses[0]
        gateway = self._gateway(address, hop, peer)
        if gateway is None:
            raise self.refuse(
                iface.at,
                f"no gateway on the WAN {iface.name} ({address.network}): no default route "
                "(ip route 0.0.0.0 0.0.0.0 NEXT-HOP) and no route towards the peers through it",
            )
        routes = self._routes(gateway)
        return WanFacts(iface.name, address, gateway, tuple(routes), loopback)

    def _routes(self, gateway: IPv4Address) -> list[IPv4Network]:
        """The static routes via the WAN gateway (the model's ``wan.routes``); notes for others."""
        routes = []
        for route in self.facts.routes:
            if (route.name or "").startswith(f"{ROUTE_NAME}-"):
                continue  # l2tpgen's route to a peer's loopback: rendered from the peers again
            if route.next_hop == gateway and route.interface is None:
                routes.append(route.network)
            else:
                self.note(
                    route.at,
                    f"ip route {route.network} is not via the WAN gateway "
                    f"{gateway}: push leaves routing alone",
                )
        return routes

    def _gateway(
        self, address: IPv4Interface, hop: IPv4Address | None, peer: IPv4Address | None
    ) -> IPv4Address | None:
        if hop is not None and hop in address.network and hop != address.ip:
            return hop
        if peer is None:
            return None
        towards = [r for r in self.facts.routes if peer in r.network and r.next_hop is not None]
        best = max(towards, key=lambda r: r.network.prefixlen, default=None)
        if best is not None and best.next_hop in address.network:
            return best.next_hop
        return peer if peer in address.network else None


def _first_line(circuits: list[Circuit], port: str) -> int:
    return min(c.xconnect.at.line for c in circuits if c.interface.parent == port)


def _header(text: str) -> tuple[str, str] | None:
    for line in split_lines(text[:2000])[:3]:
        match = _HEADER.match(line.strip())
        if match is not None:
            return match.group(1), match.group(2)
    return None


def read_router(file: str, text: str) -> Router:
    """Read one config for import.

    Raises:
        Refused: the config cannot be imported (the notes say why).
    """
    try:
        facts = extract(file, parse(text, file))
    except ConfigTextError as exc:
        raise Refused([Note(file, 0, 0, "refused", str(exc))]) from None
    reader = _Reader(file, facts)
    header = _header(text)
    hostname = facts.hostname or (header[1] if header else Path(file).stem)
    if not _NAME.match(hostname):
        raise reader.refuse(
            None,
            f"hostname {redact(hostname)} is not a name l2tpgen accepts "
            "(1-63 letters, digits, `.`, `_`, `-`)",
        )
    if not facts.hostname and header is None:
        reader.notes.append(
            Note(
                file,
                0,
                0,
                "warning",
                f"no hostname line: the router is called {hostname} after its file",
            )
        )
    if not facts.cef:
        reader.note(facts.no_cef_at, "`no ip cef`: xconnects need CEF (l2tpgen assumes it on)")
    trunk, circuits = reader.trunk(reader.circuits())
    wan = reader.wan(reader.tunnel_source(circuits), circuits, trunk)
    return Router(
        file=file,
        facts=facts,
        hostname=hostname,
        rendered_as=header[0] if header else None,
        trunk=trunk,
        circuits=tuple(circuits),
        wan=wan,
        notes=tuple(reader.notes),
    )
