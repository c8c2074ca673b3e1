"""The L2TPv3-relevant facts of one device's config, with the lines they were read from.

Read once from the parse tree (``extract.py``) by every consumer: the linter's rules, ``import``
and the simulator. Secrets are never kept: a secret line records its type and, to compare two ends,
a fingerprint (a truncated SHA-256 of the plain text), nothing from which the secret can be read.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from l2tpgen.ios.names import is_loopback, is_serial, parent_interface
from l2tpgen.ios.software import CLASSIC, IOS_XE_FIRST_MAJOR

if TYPE_CHECKING:
    from ipaddress import IPv4Address, IPv4Interface, IPv4Network

    from l2tpgen.ios.crypto import CryptoFacts

_Fact = TypeVar("_Fact")

ENCAPSULATIONS = ("l2tpv3", "mpls", "l2tpv2")


@cache
def encapsulation_kind(word: str) -> str | None:
    """The encapsulation ``word`` is, or is a typo of (``12tpv3`` -> l2tpv3); None: another one."""
    lowered = word.lower()
    if lowered in ENCAPSULATIONS:
        return lowered
    close = difflib.get_close_matches(lowered, ENCAPSULATIONS, n=1, cutoff=0.6)
    return close[0] if close else None


@dataclass(frozen=True, slots=True)  # one per fact read: a large config holds many
class At:
    """Where a fact was read: 1-based line and column."""

    line: int
    column: int


@dataclass(frozen=True, slots=True)  # one per fact read: a large config holds many
class Cookie:
    """An ``l2tp cookie local|remote SIZE LOW [HIGH]`` line."""

    size: int
    value: tuple[int, ...]
    at: At


@dataclass(frozen=True)
class Xconnect:
    """An ``xconnect`` line and, for manual sessions, its submode lines.

    ``encapsulation`` is the one on the line (``l2tpv3``, ``mpls``) or None when the pw-class
    supplies it; ``peer`` is None when the peer is not an IPv4 address (a placeholder such as
    ``<IP-OF-HQ>`` in a published template), and ``peer_text`` is the peer as written.
    """

    peer_text: str
    peer: IPv4Address | None
    vc_id: int | None
    pw_class: str | None
    encapsulation: str | None
    manual: bool
    at: At
    session_ids: tuple[int, int] | None = None  # None also when the values are not numbers
    session_at: At | None = None  # where `l2tp id` is, even with placeholder values
    cookie_local: Cookie | None = None
    cookie_remote: Cookie | None = None
    hello: str | None = None


@dataclass(frozen=True)
class Interface:
    """An ``interface`` section (repeated sections already merged)."""

    name: str
    at: At
    addresses: tuple[IPv4Interface, ...] = ()
    address_at: At | None = None
    dot1q: int | None = None
    dot1q_at: At | None = None
    dot1q_native: bool = False  # `encapsulation dot1Q N native`: the trunk's untagged VLAN
    xconnect: Xconnect | None = None
    hold_queue_in: int | None = None
    hold_queue_out: int | None = None
    no_cdp: bool = False
    mtu: int | None = None
    ip_mtu: int | None = None
    route_cache_off: At | None = None  # `no ip route-cache [cef]`: process switching
    encapsulation: str | None = None  # serial framing: hdlc (default), ppp, frame-relay
    crypto_map: str | None = None
    tunnel_protection: bool = False
    description: str | None = None
    shutdown: bool = False
    duplex: str | None = None
    speed: str | None = None
    other: tuple[tuple[str, At], ...] = ()  # lines no field above records (for import)

    @property
    def parent(self) -> str:
        """The main interface of a subinterface (itself for a main interface)."""
        return parent_interface(self.name)

    @property
    def is_subinterface(self) -> bool:
        """Whether this is a ``.N`` subinterface."""
        return "." in self.name

    @property
    def is_serial(self) -> bool:
        """A serial (HDLC/PPP/Frame Relay) port: an attachment circuit without Ethernet header."""
        return is_serial(self.name)


@dataclass(frozen=True)
class PseudowireClass:
    """A ``pseudowire-class`` section."""

    name: str
    at: At
    encapsulation: str | None = None
    encapsulation_at: At | None = None
    protocol: str | None = None
    protocol_class: str | None = None
    protocol_at: At | None = None
    local_interface: str | None = None
    local_interface_at: At | None = None
    pmtu: bool = False
    pmtu_at: At | None = None
    df_bit: bool = False
    sequencing: str | None = None
    tos_reflect: bool = False
    tos_value: int | None = None
    ttl: int | None = None
    other: tuple[tuple[str, At], ...] = ()  # lines l2tpgen's model has no field for

    @property
    def static(self) -> bool:
        """``protocol none``: manual sessions, no control channel."""
        return self.protocol == "none"

    @property
    def kind(self) -> str:
        """``mpls`` (AToM), ``l2tpv2`` (VPDN) or ``l2tpv3``: what the class is, or is meant to be.

        An encapsulation IOS does not know (a typo such as ``12tpv3``) counts as the one it is
        closest to; a missing one as L2TPv3 unless the protocol says otherwise.
        """
        if self.protocol == "ldp":
            return "mpls"
        if self.protocol == "l2tpv2":
            return "l2tpv2"
        if self.encapsulation is None:
            return "l2tpv3"
        return encapsulation_kind(self.encapsulation) or "l2tpv3"

    @property
    def l2tpv3(self) -> bool:
        """Whether the L2TPv3 rules apply to this class."""
        return self.kind == "l2tpv3"


@dataclass(frozen=True)
class SecretLine:
    """A ``password`` or ``digest secret`` line: its type and a fingerprint, never the secret."""

    kind: str
    encryption: int | None
    at: At
    fingerprint: str | None = None
    variable: str | None = None  # l2tpgen's mask `<NAME>`: the variable named, not a secret


@dataclass(frozen=True)
class L2tpClass:
    """An ``l2tp-class`` section."""

    name: str
    at: At
    authentication: bool = False
    digest: bool = False
    digest_hash: str | None = None
    hello: int | None = None
    cookie_size: int | None = None
    secrets: tuple[SecretLine, ...] = ()
    other: tuple[tuple[str, At], ...] = ()


@dataclass(frozen=True)
class Route:
    """An ``ip route`` line (global table)."""

    network: IPv4Network
    next_hop: IPv4Address | None
    interface: str | None
    at: At
    name: str | None = None  # `... name WORD`


@dataclass(frozen=True)
class DeviceFacts:
    """Everything the rules need from one config file."""

    file: str
    hostname: str | None = None
    interfaces: dict[str, Interface] = field(default_factory=dict)
    pw_classes: dict[str, PseudowireClass] = field(default_factory=dict)
    l2tp_classes: dict[str, L2tpClass] = field(default_factory=dict)
    routes: tuple[Route, ...] = ()
    cdp_run: bool = True
    cef: bool = True
    no_cef_at: At | None = None  # where `no ip cef` is
    version: str | None = None
    l2tpv2: bool = False  # vpdn / L2TPv2 configured (out of scope for the rules)
    # pseudowire-classes named by `pseudowire` lines (virtual-ppp: PPP over L2TP, out of scope)
    ppp_pw_classes: frozenset[str] = frozenset()
    platform: str | None = None  # a driver's lint_platform when known (the model's)
    # CLASSIC or XE: the model's platform's family, or XE when the text has IOS-XE-only lines
    software: str | None = None
    crypto: CryptoFacts | None = None  # crypto maps, transform sets, ACLs (`ios/crypto.py`)
    # xconnects not directly under an interface: ATM PVCs, Frame Relay DLCIs, `connect` sections
    circuits: tuple[tuple[Interface, Xconnect], ...] = ()
    # top-level lines whose first word is a misspelt section header: (word, header, where)
    misspelt: tuple[tuple[str, str, At], ...] = ()
    routing: At | None = None  # the first `router PROTOCOL` section (OSPF, EIGRP, IS-IS, BGP, ...)

    @property
    def classic_ios(self) -> bool:
        """Whether this is classic IOS (12.x/15.x), true when nothing says otherwise.

        Classic IOS reassembles fragments in process switching, whose queues hold-queue sizes.
        """
        if self.software is not None:
            return self.software == CLASSIC
        major = (self.version or "").split(".", 1)[0]
        return not (major.isdigit() and int(major) >= IOS_XE_FIRST_MAJOR)

    def pw_class_of(self, xc: Xconnect) -> PseudowireClass | None:
        """The pseudowire-class an xconnect names, if defined."""
        return self.pw_classes.get(xc.pw_class or "")

    def is_l2tpv3(self, xc: Xconnect) -> bool:
        """Whether an xconnect is an L2TPv3 pseudowire (the only kind the rules look at).

        Not: VPLS (``xconnect vfi NAME``), MPLS (``encapsulation mpls``, or an MPLS class), UDP
        (legacy circuit emulation), L2TPv2.
        """
        if xc.peer_text.lower() == "vfi":
            return False
        if xc.encapsulation is not None:
            return encapsulation_kind(xc.encapsulation) == "l2tpv3"
        pw = self.pw_class_of(xc)
        return pw is None or pw.l2tpv3

    @cached_property
    def _xconnects(self) -> tuple[tuple[Interface, Xconnect], ...]:
        pairs = [
            (i, i.xconnect)
            for i in self.interfaces.values()
            if i.xconnect is not None and self.is_l2tpv3(i.xconnect)
        ]
        pairs.extend((i, xc) for i, xc in self.circuits if self.is_l2tpv3(xc))
        return tuple(sorted(pairs, key=lambda p: p[1].at.line))

    def xconnects(self) -> tuple[tuple[Interface, Xconnect], ...]:
        """Every L2TPv3 attachment circuit with its xconnect, in file order.

        An ATM PVC, a Frame Relay DLCI or a ``connect`` section comes with its interface.
        """
        return self._xconnects

    @cached_property
    def l2tpv3_classes(self) -> dict[str, PseudowireClass]:
        """The pseudowire-classes that are L2TPv3.

        Left out: MPLS and L2TPv2 classes, and classes only virtual-ppp `pseudowire` lines use.
        """
        used = {xc.pw_class for i in self.interfaces.values() if (xc := i.xconnect) is not None}
        used.update(xc.pw_class for _, xc in self.circuits)
        return {
            name: pw
            for name, pw in self.pw_classes.items()
            if pw.l2tpv3 and (name not in self.ppp_pw_classes or name in used)
        }

    @cached_property
    def l2tpv3_l2tp_classes(self) -> dict[str, L2tpClass]:
        """l2tp-classes not used only by L2TPv2 pseudowire-classes."""
        v2 = {pw.protocol_class for pw in self.pw_classes.values() if pw.kind == "l2tpv2"}
        v3 = {pw.protocol_class for pw in self.pw_classes.values() if pw.kind != "l2tpv2"}
        return {n: c for n, c in self.l2tp_classes.items() if n not in v2 or n in v3}

    def tunnel_sources(self) -> dict[IPv4Address, str]:
        """Addresses this device sources L2TPv3 tunnels from, with the interface of each."""
        found: dict[IPv4Address, str] = {}
        for pw in self.l2tpv3_classes.values():
            iface = self.interfaces.get(pw.local_interface or "")
            if iface is not None:
                found.update((a.ip, iface.name) for a in iface.addresses)
        return found

    def wan_interface(self, xc: Xconnect) -> str | None:
        """The interface the encapsulated packets of ``xc`` leave by.

        The route to the peer decides (the source address does not); without a known route, a
        physical tunnel source is taken as the way out.
        """
        routed = self.route_interface(xc.peer) if xc.peer is not None else None
        if routed is not None:
            return routed
        pw = self.pw_class_of(xc)
        local = pw.local_interface if pw else None
        return local if local is not None and not is_loopback(local) else None

    @cached_property
    def carriers(self) -> dict[str, str]:
        """Interfaces pseudowire traffic goes through, each with its role (for messages)."""
        names: dict[str, str] = {}
        for iface, xc in self.xconnects():
            names.setdefault(iface.name, "an attachment circuit")
            names.setdefault(iface.parent, "the trunk of an attachment circuit")
            wan = self.wan_interface(xc)
            if wan is not None:
                names.setdefault(wan, "the interface towards a peer")
                names.setdefault(parent_interface(wan), "the interface towards a peer")
        for pw in self.l2tpv3_classes.values():
            if pw.local_interface is not None:
                names.setdefault(pw.local_interface, "the tunnel source")
                names.setdefault(parent_interface(pw.local_interface), "the tunnel source")
        return names

    @cached_property
    def owned(self) -> dict[IPv4Address, str]:
        """Every IPv4 address configured on this device, with its interface."""
        return {a.ip: i.name for i in self.interfaces.values() for a in i.addresses}

    @cached_property
    def connected(self) -> tuple[tuple[IPv4Network, str], ...]:
        """Connected subnets and their interfaces, indexed once: most interfaces have none."""
        return tuple((a.network, i.name) for i in self.interfaces.values() for a in i.addresses)

    @cached_property
    def _routes_to(self) -> dict[IPv4Address, str | None]:
        return {}

    def route_interface(self, destination: IPv4Address) -> str | None:
        """The interface this device would use towards ``destination`` (connected, then static).

        Memoized per destination: a device has many xconnects but few peers.
        """
        try:  # one look-up when known: an address hashes slowly
            return self._routes_to[destination]
        except KeyError:
            found = self._routes_to[destination] = self._lookup(destination)
            return found

    def _lookup(self, destination: IPv4Address) -> str | None:
        # IOS takes the longest prefix whatever its source; between a connected subnet and a
        # static route of the same length, the connected one (administrative distance 0 vs 1).
        # Cisco, "Route Selection in Cisco Routers" (document 8651).
        connected = max(
            ((net, name) for net, name in self.connected if destination in net),
            key=lambda found: found[0].prefixlen,
            default=None,
        )
        candidates = [r for r in self.routes if destination in r.network]
        best = max(candidates, key=lambda r: r.network.prefixlen, default=None)
        if connected is not None and (
            best is None or connected[0].prefixlen >= best.network.prefixlen
        ):
            return connected[1]
        if best is None:
            return None
        if best.interface is not None:
            return best.interface
        if best.next_hop is None:
            return None
        return next((name for net, name in self.connected if best.next_hop in net), None)


# Every field of the classes ``make`` makes has a plain default (no factory): the class attribute
# dataclass leaves in place, read by ``__eq__``, ``__hash__``, ``repr`` and ``replace`` alike.
_SET = object.__setattr__


def make(cls: type[_Fact], /, **values: Any) -> _Fact:  # noqa: ANN401 - any field's value
    """``cls(**values)`` for ``Interface`` and ``Xconnect``, at a third of the cost and memory.

    The ``__init__`` of a frozen dataclass sets each field through ``object.__setattr__``, one
    call per field (23 for an interface); a config of 600,000 lines has 100,000 interfaces. Only
    the given fields are set here: the others read their class-level default, so the object is
    equal to, hashes and prints as the one ``__init__`` makes (a test checks), and holds a few
    values instead of 23 (a third of the memory). Unlike ``__init__`` it does not check names:
    its callers give every field without a default, and no other name.
    """
    fact: _Fact = object.__new__(cls)
    for name, value in values.items():
        _SET(fact, name, value)
    return fact
