"""What the rules look at: the L2TPv3-relevant facts of one device's config, with their lines.

Extracted once from the parse tree, so every rule is a few lines over plain values and costs little
next to the parse itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from ipaddress import IPv4Address, IPv4Interface, IPv4Network
from typing import TYPE_CHECKING

from l2tpgen.ifname import canonical_interface_name

if TYPE_CHECKING:
    from l2tpgen.lint.ccp import Node


@dataclass(frozen=True)
class At:
    """Where a fact was read: 1-based line and column."""

    line: int
    column: int


def _at(node: Node) -> At:
    return At(node.line, node.column)


@dataclass(frozen=True)
class Cookie:
    """An ``l2tp cookie local|remote SIZE LOW [HIGH]`` line."""

    size: int
    value: tuple[int, ...]
    at: At


@dataclass(frozen=True)
class Xconnect:
    """An ``xconnect`` line and, for manual sessions, its submode lines."""

    peer: IPv4Address | None
    vc_id: int | None
    pw_class: str | None
    encapsulation: str | None
    manual: bool
    at: At
    session_ids: tuple[int, int] | None = None
    session_at: At | None = None
    cookie_local: Cookie | None = None
    cookie_remote: Cookie | None = None
    hello: str | None = None


@dataclass(frozen=True)
class Interface:
    """An ``interface`` section."""

    name: str
    at: At
    addresses: tuple[IPv4Interface, ...] = ()
    address_at: At | None = None
    dot1q: int | None = None
    dot1q_at: At | None = None
    xconnect: Xconnect | None = None
    hold_queue_in: int | None = None
    hold_queue_out: int | None = None
    no_cdp: bool = False
    mtu: int | None = None
    ip_mtu: int | None = None

    @property
    def parent(self) -> str:
        """The main interface of a subinterface (itself for a main interface)."""
        return self.name.split(".", 1)[0]

    @property
    def is_subinterface(self) -> bool:
        """Whether this is a ``.N`` subinterface."""
        return "." in self.name


@dataclass(frozen=True)
class PseudowireClass:
    """A ``pseudowire-class`` section."""

    name: str
    at: At
    encapsulation: str | None = None
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

    @property
    def static(self) -> bool:
        """``protocol none``: manual sessions, no control channel."""
        return self.protocol == "none"


@dataclass(frozen=True)
class SecretLine:
    """A ``password`` or ``digest secret`` line; the secret itself is never kept."""

    kind: str
    encryption: int | None
    at: At


@dataclass(frozen=True)
class L2tpClass:
    """An ``l2tp-class`` section."""

    name: str
    at: At
    authentication: bool = False
    digest: bool = False
    digest_hash: str | None = None
    secrets: tuple[SecretLine, ...] = ()


@dataclass(frozen=True)
class Route:
    """An ``ip route`` line."""

    network: IPv4Network
    next_hop: IPv4Address | None
    interface: str | None
    at: At


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

    def tunnel_sources(self) -> dict[IPv4Address, str]:
        """Addresses this device sources tunnels from, with the interface of each."""
        found: dict[IPv4Address, str] = {}
        for pw in self.pw_classes.values():
            iface = self.interfaces.get(pw.local_interface or "")
            if iface is not None:
                found.update((a.ip, iface.name) for a in iface.addresses)
        return found

    def owned_addresses(self) -> dict[IPv4Address, str]:
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
        if destination not in self._routes_to:
            self._routes_to[destination] = self._lookup(destination)
        return self._routes_to[destination]

    def _lookup(self, destination: IPv4Address) -> str | None:
        for network, name in self.connected:
            if destination in network:
                return name
        candidates = [r for r in self.routes if destination in r.network]
        if not candidates:
            return None
        best = max(candidates, key=lambda r: r.network.prefixlen)
        if best.interface is not None:
            return best.interface
        if best.next_hop is None:
            return None
        return next((name for net, name in self.connected if best.next_hop in net), None)

    def xconnects(self) -> list[tuple[Interface, Xconnect]]:
        """Every attachment circuit with its xconnect, in file order."""
        pairs = [(i, i.xconnect) for i in self.interfaces.values() if i.xconnect is not None]
        return sorted(pairs, key=lambda p: p[1].at.line)


_INT = re.compile(r"^\d+$")


def _int(text: str) -> int | None:
    return int(text) if _INT.match(text) else None


def _address(words: list[str]) -> IPv4Interface | None:
    try:
        return IPv4Interface(f"{words[0]}/{words[1]}")
    except (ValueError, IndexError):
        return None


def _ip(text: str) -> IPv4Address | None:
    try:
        return IPv4Address(text)
    except ValueError:
        return None


def _canonical(name: str) -> str:
    try:
        return canonical_interface_name(name)
    except ValueError:
        return name


def _cookie(node: Node, words: list[str]) -> Cookie | None:
    # l2tp cookie local|remote SIZE LOW [HIGH]  (argument layout unconfirmed on every release)
    size = _int(words[3]) if len(words) > 3 else None  # noqa: PLR2004 - fixed positions
    if size is None:
        return None
    values = tuple(v for v in (_int(w) for w in words[4:6]) if v is not None)
    return Cookie(size, values, _at(node))


def _xconnect(node: Node) -> Xconnect:
    words = node.text.split()
    peer = _ip(words[1]) if len(words) > 1 else None
    vc_id = _int(words[2]) if len(words) > 2 else None  # noqa: PLR2004 - fixed positions
    pw_class = words[words.index("pw-class") + 1] if "pw-class" in words[:-1] else None
    encapsulation = (
        words[words.index("encapsulation") + 1] if "encapsulation" in words[:-1] else None
    )
    fields: dict[str, object] = {}
    for child in node.children:
        sub = child.text.split()
        if sub[:2] == ["l2tp", "id"] and len(sub) >= 4:  # noqa: PLR2004
            local, remote = _int(sub[2]), _int(sub[3])
            if local is not None and remote is not None:
                fields["session_ids"] = (local, remote)
                fields["session_at"] = _at(child)
        elif sub[:3] == ["l2tp", "cookie", "local"]:
            fields["cookie_local"] = _cookie(child, sub)
        elif sub[:3] == ["l2tp", "cookie", "remote"]:
            fields["cookie_remote"] = _cookie(child, sub)
        elif sub[:2] == ["l2tp", "hello"]:
            fields["hello"] = sub[2] if len(sub) > 2 else ""  # noqa: PLR2004
    return Xconnect(
        peer=peer,
        vc_id=vc_id,
        pw_class=pw_class,
        encapsulation=encapsulation,
        manual="manual" in words,
        at=_at(node),
        **fields,  # type: ignore[arg-type]
    )


def _interface(node: Node) -> Interface:  # noqa: C901, PLR0912 - one flat branch per command
    name = _canonical(node.text.split(maxsplit=1)[1])
    fields: dict[str, object] = {}
    addresses: list[IPv4Interface] = []
    for child in node.children:
        text = child.text
        head = text.split(" ", 1)[0]  # dispatch on the first word: this runs for every line
        if head == "ip":
            words = text.split()
            if words[1] == "address" and "dhcp" not in words:
                address = _address(words[2:4])
                if address is not None:
                    addresses.append(address)
                    fields.setdefault("address_at", _at(child))
            elif words[1] == "mtu" and len(words) == 3:  # noqa: PLR2004
                fields["ip_mtu"] = _int(words[2])
        elif head == "encapsulation":
            words = text.split()
            if len(words) > 2 and words[1].lower() == "dot1q":  # noqa: PLR2004
                fields["dot1q"] = _int(words[2])
                fields["dot1q_at"] = _at(child)
        elif head == "xconnect":
            fields["xconnect"] = _xconnect(child)
        elif head == "hold-queue":
            words = text.split()
            if len(words) == 3 and words[2] in {"in", "out"}:  # noqa: PLR2004
                fields[f"hold_queue_{words[2]}"] = _int(words[1])
        elif text == "no cdp enable":
            fields["no_cdp"] = True
        elif head == "mtu":
            words = text.split()
            if len(words) == 2:  # noqa: PLR2004
                fields["mtu"] = _int(words[1])
    return Interface(name=name, at=_at(node), addresses=tuple(addresses), **fields)  # type: ignore[arg-type]


def _pw_class(node: Node) -> PseudowireClass:
    fields: dict[str, object] = {}
    for child in node.children:
        words = child.text.split()
        if words[:1] == ["encapsulation"] and len(words) > 1:
            fields["encapsulation"] = words[1]
        elif words[:1] == ["protocol"] and len(words) > 1:
            fields["protocol"] = words[1]
            fields["protocol_class"] = words[2] if len(words) > 2 else None  # noqa: PLR2004
            fields["protocol_at"] = _at(child)
        elif words[:3] == ["ip", "local", "interface"] and len(words) > 3:  # noqa: PLR2004
            fields["local_interface"] = _canonical(words[3])
            fields["local_interface_at"] = _at(child)
        elif words == ["ip", "pmtu"]:
            fields["pmtu"], fields["pmtu_at"] = True, _at(child)
        elif words[:3] == ["ip", "dfbit", "set"]:
            fields["df_bit"] = True
        elif words[:1] == ["sequencing"] and len(words) > 1:
            fields["sequencing"] = words[1]
        elif words[:3] == ["ip", "tos", "reflect"]:
            fields["tos_reflect"] = True
    name = node.text.split(maxsplit=1)[1] if " " in node.text else ""
    return PseudowireClass(name=name, at=_at(node), **fields)  # type: ignore[arg-type]


def _secret(kind: str, node: Node, words: list[str]) -> SecretLine:
    # "password [0|7] SECRET" / "digest secret [0|7] SECRET [hash ...]"; no type means type 0.
    encryption = _int(words[0]) if len(words) > 1 and words[0] in {"0", "7"} else None
    return SecretLine(kind, encryption if encryption is not None else 0, _at(node))


def _l2tp_class(node: Node) -> L2tpClass:
    secrets: list[SecretLine] = []
    fields: dict[str, object] = {}
    for child in node.children:
        words = child.text.split()
        if words == ["authentication"]:
            fields["authentication"] = True
        elif words[:1] == ["password"] and len(words) > 1:
            secrets.append(_secret("password", child, words[1:]))
        elif words[:1] == ["digest"]:
            fields["digest"] = True
            if "hash" in words[:-1]:
                fields["digest_hash"] = words[words.index("hash") + 1]
            if words[1:2] == ["secret"] and len(words) > 2:  # noqa: PLR2004
                secrets.append(_secret("digest secret", child, words[2:]))
    name = node.text.split(maxsplit=1)[1] if " " in node.text else ""
    return L2tpClass(name=name, at=_at(node), secrets=tuple(secrets), **fields)  # type: ignore[arg-type]


def _route(node: Node) -> Route | None:
    words = node.text.split()
    if len(words) < 5 or words[2].lower() == "vrf":  # noqa: PLR2004
        return None
    try:
        network = IPv4Network(f"{words[2]}/{words[3]}", strict=False)
    except ValueError:
        return None
    target = words[4]
    hop = _ip(target)
    interface = None if hop is not None else _canonical(target)
    if interface is not None and len(words) > 5:  # noqa: PLR2004
        hop = _ip(words[5])
    return Route(network, hop, interface, _at(node))


def extract(file: str, tree: list[Node]) -> DeviceFacts:
    """Read the facts of one config from its parse tree."""
    interfaces: dict[str, Interface] = {}
    pw_classes: dict[str, PseudowireClass] = {}
    l2tp_classes: dict[str, L2tpClass] = {}
    routes: list[Route] = []
    hostname: str | None = None
    for node in tree:
        text = node.text
        if text.startswith("interface "):
            iface = _interface(node)
            interfaces[iface.name] = iface
        elif text.startswith("pseudowire-class "):
            pw = _pw_class(node)
            pw_classes[pw.name] = pw
        elif text.startswith("l2tp-class "):
            l2tp = _l2tp_class(node)
            l2tp_classes[l2tp.name] = l2tp
        elif text.startswith("ip route "):
            route = _route(node)
            if route is not None:
                routes.append(route)
        elif text.startswith("hostname ") and hostname is None:
            hostname = text.split()[1]
    top = {node.text for node in tree}
    return DeviceFacts(
        file=file,
        hostname=hostname,
        interfaces=interfaces,
        pw_classes=pw_classes,
        l2tp_classes=l2tp_classes,
        routes=tuple(routes),
        cdp_run="no cdp run" not in top,
        cef="no ip cef" not in top,
    )
