"""Reading ``DeviceFacts`` from a parse tree.

Every line is read defensively: a word missing (a bare ``ip``), a number of thousands of digits, an
address that is not one, give no fact rather than an exception. Keywords may be abbreviated as IOS
accepts them when typed (``xconn``, ``encap``, ``ip loc int``): a unique prefix of at least two
letters among the commands of that mode.
"""

from __future__ import annotations

from functools import lru_cache
from ipaddress import IPv4Address, IPv4Interface, IPv4Network
from typing import TYPE_CHECKING

from l2tpgen.ios import keywords
from l2tpgen.ios.class_sections import l2tp_class, pw_class
from l2tpgen.ios.crypto import read_crypto
from l2tpgen.ios.facts import (
    At,
    Cookie,
    DeviceFacts,
    Interface,
    L2tpClass,
    PseudowireClass,
    Route,
    Xconnect,
    make,
)
from l2tpgen.ios.names import canonical_or_same
from l2tpgen.ios.software import XE
from l2tpgen.ios.typos import misspelt_header
from l2tpgen.ios.words import number, position, word

if TYPE_CHECKING:
    from l2tpgen.ios.tree import Config, Node

# Top-level lines only IOS-XE has (its forwarding plane, its management VRF); IOS-XE 3.x prints
# `version 15.x`, so the version alone does not tell.
_IOS_XE_ONLY = ("platform ", "vrf definition Mgmt-intf", "license udi pid CSR1000V")


@lru_cache(maxsize=4096)
def _ip(text: str | None) -> IPv4Address | None:
    try:
        return IPv4Address(text or "")
    except ValueError:
        return None


def _address(words: list[str]) -> IPv4Interface | None:
    if len(words) < 2:  # noqa: PLR2004 - address and mask
        return None
    try:
        return IPv4Interface(f"{words[0]}/{words[1]}")
    except ValueError:
        return None


def _cookie(node: Node, words: list[str]) -> Cookie | None:
    # l2tp cookie local|remote SIZE LOW [HIGH]  (argument layout unconfirmed on every release)
    size = number(word(words, 3))
    if size is None:
        return None
    values = tuple(v for v in (number(w) for w in words[4:6]) if v is not None)
    return Cookie(size, values, position(node))


def _xconnect_options(words: list[str]) -> tuple[str | None, str | None, bool]:
    """An xconnect line's pw-class, encapsulation and ``manual`` (abbreviated as IOS takes them).

    The keywords are looked for among all its words, the peer and the VC ID as written.
    """
    args = words[:3] + [keywords.XCONNECT.get(w.lower(), w) for w in words[3:]]
    class_name = word(words, args.index("pw-class") + 1) if "pw-class" in args else None
    encapsulation = (
        (word(words, args.index("encapsulation") + 1) or "").lower() or None
        if "encapsulation" in args
        else None
    )
    return class_name, encapsulation, "manual" in args


@lru_cache(maxsize=1024)
def _tail_options(tail: str) -> tuple[str | None, str | None, bool]:
    """``_xconnect_options`` of the words after an xconnect's VC ID.

    Read once for all the lines that share them: every xconnect of a pw-class, in most configs.
    """
    return _xconnect_options(["", "", "", *tail.split()])


# What the peer or the VC ID would be taken for if written there (``_xconnect_options``).
_XCONNECT_KEYWORDS = frozenset(("pw-class", "encapsulation", "manual"))


def _xconnect(node: Node) -> Xconnect:
    words = node.text.split(maxsplit=3)  # the keyword, the peer, the VC ID, the rest
    if _XCONNECT_KEYWORDS.isdisjoint(words[1:3]):
        class_name, encapsulation, manual = _tail_options(word(words, 3) or "")
    else:
        class_name, encapsulation, manual = _xconnect_options(node.text.split())
    fields: dict[str, object] = {}
    for child in node.children:
        sub = child.text.split()
        if sub[:1] != ["l2tp"] or len(sub) < 3:  # noqa: PLR2004
            continue
        if sub[1] == "id":
            fields["session_at"] = position(child)
            local, remote = number(word(sub, 2)), number(word(sub, 3))
            if local is not None and remote is not None:
                fields["session_ids"] = (local, remote)
        elif sub[1] == "cookie" and sub[2] in {"local", "remote"}:
            fields[f"cookie_{sub[2]}"] = _cookie(child, sub)
        elif sub[1] == "hello":
            fields["hello"] = sub[2]
    peer = word(words, 1)
    return make(
        Xconnect,
        peer_text=peer or "",
        peer=_ip(peer),
        vc_id=number(word(words, 2)),
        pw_class=class_name,
        encapsulation=encapsulation,
        manual=manual,
        at=At(node.line, node.column),
        **fields,
    )


def _interface_ip(fields: dict[str, object], child: Node, words: list[str]) -> bool:
    """Read an ``ip ...`` line; False when it records nothing."""
    what = keywords.IP_INTERFACE.get(words[1].lower()) if len(words) > 1 else None
    if what == "address" and len(words) > 2:  # noqa: PLR2004 - an address, or `dhcp`
        fields.setdefault("address_at", position(child))
        address = _address(words[2:4])
        if address is None:
            return False
        addresses = fields.setdefault("addresses", [])
        assert isinstance(addresses, list)  # noqa: S101 - set just above
        addresses.append(address)
        return len(words) == 4  # noqa: PLR2004 - `secondary` is more than the model keeps
    if what == "mtu" and len(words) == 3:  # noqa: PLR2004
        fields["ip_mtu"] = number(words[2])
        return True
    return False


def _interface_no(fields: dict[str, object], child: Node) -> bool:
    """Read a ``no ...`` line; False when it records nothing."""
    rest = child.text.lower().split()[1:]  # the words after `no`, lower-cased
    if rest == ["cdp", "enable"]:
        fields["no_cdp"] = True
    elif (
        rest[:1] == ["ip"]
        and len(rest) > 1
        and keywords.IP_INTERFACE.get(rest[1]) == "route-cache"
        and rest[2:] in ([], ["cef"])  # `no ip route-cache [cef]`
    ):
        fields["route_cache_off"] = position(child)
    else:
        return False
    return True


def _interface_encapsulation(fields: dict[str, object], child: Node, words: list[str]) -> bool:
    """Read an ``encapsulation ...`` line; False when it says more than is recorded."""
    framing = words[1].lower()
    if framing == "dot1q" and len(words) > 2:  # noqa: PLR2004
        fields["dot1q"] = number(words[2])
        fields["dot1q_at"] = At(child.line, child.column)
        native = len(words) == 4 and words[3].lower() == "native"  # noqa: PLR2004
        fields["dot1q_native"] = native
        return len(words) == 3 or native  # noqa: PLR2004 - `second-dot1q`: more
    fields["encapsulation"] = framing
    return True


def _interface_setting(
    fields: dict[str, object], child: Node, words: list[str], head: str | None
) -> bool:
    """Read one of the other lines l2tpgen records; False for a line it does not.

    Hold-queue, mtu, duplex, speed, crypto map, tunnel protection, description, shutdown.
    """
    if head == "hold-queue" and len(words) == 3 and words[2] in {"in", "out"}:  # noqa: PLR2004
        fields[f"hold_queue_{words[2]}"] = number(words[1])
    elif head in {"mtu", "duplex", "speed"} and len(words) == 2:  # noqa: PLR2004
        fields[head] = number(words[1]) if head == "mtu" else words[1].lower()
    elif head == "crypto" and len(words) > 2 and words[1].lower() == "map":  # noqa: PLR2004
        fields["crypto_map"] = words[2]
    elif head == "tunnel" and words[1:2] == ["protection"]:
        fields["tunnel_protection"] = True
    elif head == "description":
        fields["description"] = child.text.split(maxsplit=1)[1] if len(words) > 1 else ""
    elif head == "shutdown":
        fields["shutdown"] = True
    else:
        return False
    return True


def _interface(node: Node, ppp: set[str]) -> Interface:
    """An interface section; ``ppp`` collects the classes its virtual-ppp ``pseudowire`` names."""
    name = canonical_or_same(node.text.split(maxsplit=1)[1]) if " " in node.text else ""
    fields: dict[str, object] = {"name": name, "at": At(node.line, node.column)}
    other: list[tuple[str, At]] = []
    heads = keywords.INTERFACE
    for child in node.children:
        words = child.text.split()
        head = heads.get(words[0].lower())
        if head == "ip":
            read = _interface_ip(fields, child, words)
        elif head == "no":
            read = _interface_no(fields, child)
        elif head == "encapsulation" and len(words) > 1:
            read = _interface_encapsulation(fields, child, words)
        elif head == "xconnect":
            fields["xconnect"] = _xconnect(child)
            read = True
        else:
            read = _interface_setting(fields, child, words, head)
            if head == "pseudowire" and "pw-class" in words[:-1]:
                ppp.add(words[words.index("pw-class") + 1])
        if not read:
            other.append((child.text, At(child.line, child.column)))
    # Empty ones are left to the class's default `()`: a field fewer to set, most interfaces
    found: list[IPv4Interface] | None = fields.pop("addresses", None)  # type: ignore[assignment]
    if found:
        fields["addresses"] = tuple(found)
    if other:
        fields["other"] = tuple(other)
    return make(Interface, **fields)


def _circuit_xconnects(iface: Interface, node: Node) -> list[tuple[Interface, Xconnect]]:
    """The xconnects of an interface's ATM PVCs and Frame Relay DLCIs, one per circuit.

    ``pvc 1/100 l2transport`` and ``frame-relay interface-dlci 100`` sections. A circuit entered
    twice (the interface pasted twice) is one circuit, as on the router: its last xconnect counts.
    """
    found: dict[str, Xconnect] = {}
    for child in node.children:
        if not child.children:  # most lines: no circuit section, so no xconnect under it
            continue
        words = child.text.lower().split()
        if words[:1] != ["pvc"] and words[:2] != ["frame-relay", "interface-dlci"]:
            continue
        circuit = next((w for w in words[1:] if w[:1].isdigit()), child.text)
        for sub in child.children:
            if keywords.INTERFACE.get(sub.text.split()[0].lower()) == "xconnect":
                found[circuit] = _xconnect(sub)
    return [(iface, xc) for xc in found.values()]


def _connect_xconnects(
    node: Node, interfaces: dict[str, Interface]
) -> list[tuple[Interface, Xconnect]]:
    """The xconnect of a ``connect NAME INTERFACE [DLCI] l2transport`` section, with its interface.

    Without that interface in the config, a bare one named by the ``connect`` line stands in.
    """
    words = node.text.split()
    if len(words) < 4 or words[-1].lower() != "l2transport":  # noqa: PLR2004
        return []
    name = canonical_or_same(words[2])
    iface = interfaces.get(name) or make(Interface, name=name, at=position(node))
    return [
        (iface, _xconnect(child))
        for child in node.children
        if keywords.INTERFACE.get(child.text.split()[0].lower()) == "xconnect"
    ]


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
    interface = None if hop is not None else canonical_or_same(target)
    if interface is not None:
        hop = _ip(word(words, 5))
    lowered = [w.lower() for w in words]
    name = word(words, lowered.index("name") + 1) if "name" in lowered[5:] else None
    return Route(network, hop, interface, position(node), name)


def _top_line(node: Node, top: dict[str, str | At]) -> None:
    """The global lines the rules read: hostname, version, CEF, CDP, VPDN, routing, IOS-XE."""
    text = node.text
    if text.startswith(("hostname ", "version ")) and len(text.split()) > 1:
        top.setdefault(text.split()[0], text.split()[1])
    elif text in {"no ip cef", "no cdp run"}:
        top[text] = position(node)
    elif text.startswith("vpdn"):
        top["vpdn"] = position(node)
    elif text.startswith("router ") and len(text.split()) > 1:
        top.setdefault("router", position(node))
    elif text.startswith(_IOS_XE_ONLY):
        top["ios_xe_only"] = position(node)


def extract(file: str, config: Config) -> DeviceFacts:
    """Read the facts of one config from its parse tree."""
    interfaces: dict[str, Interface] = {}
    pw_classes: dict[str, PseudowireClass] = {}
    l2tp_classes: dict[str, L2tpClass] = {}
    routes: list[Route] = []
    top: dict[str, str | At] = {}
    ppp: set[str] = set()
    circuits: list[tuple[Interface, Xconnect]] = []
    connects: list[Node] = []
    misspelt: list[tuple[str, str, At]] = []
    for node in config.roots:
        text = node.text
        if text.startswith("interface "):
            iface = _interface(node, ppp)
            interfaces.setdefault(iface.name, iface)
            circuits.extend(_circuit_xconnects(interfaces[iface.name], node))
        elif text.startswith("connect "):
            connects.append(node)
        elif " " in text and (header := misspelt_header(text.split(" ", 1)[0])) is not None:
            misspelt.append((text.split(" ", 1)[0], header, position(node)))
        elif text.startswith("pseudowire-class "):
            pw = pw_class(node)
            pw_classes.setdefault(pw.name, pw)
        elif text.startswith("l2tp-class "):
            l2tp = l2tp_class(node)
            l2tp_classes.setdefault(l2tp.name, l2tp)
        elif text.startswith("ip route "):
            route = _route(node)
            if route is not None:
                routes.append(route)
        else:
            _top_line(node, top)
    for node in connects:
        circuits.extend(_connect_xconnects(node, interfaces))
    no_cef = top.get("no ip cef")
    return DeviceFacts(
        file=file,
        hostname=str(top["hostname"]) if "hostname" in top else None,
        interfaces=interfaces,
        pw_classes=pw_classes,
        l2tp_classes=l2tp_classes,
        routes=tuple(routes),
        cdp_run="no cdp run" not in top,
        cef=no_cef is None,
        no_cef_at=no_cef if isinstance(no_cef, At) else None,
        version=str(top["version"]) if "version" in top else None,
        l2tpv2="vpdn" in top,
        software=XE if "ios_xe_only" in top or any(map(_ios_xe_name, interfaces)) else None,
        ppp_pw_classes=frozenset(ppp),
        crypto=read_crypto(config.roots),
        circuits=tuple(circuits),
        misspelt=tuple(misspelt),
        routing=routing if isinstance(routing := top.get("router"), At) else None,
    )


def _ios_xe_name(name: str) -> bool:
    """``GigabitEthernet1``: a CSR1000v / Catalyst 8000v port (classic IOS numbers slot/port)."""
    return name.startswith("GigabitEthernet") and name[len("GigabitEthernet") :].isdigit()
