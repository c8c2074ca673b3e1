"""Who else on a router speaks IKE and ESP, and from which peer addresses.

l2tpgen's inbound WAN filter (``l2tpgen-wan-in``) ends in ``deny esp any any`` and ``deny udp any
any eq 500|4500``: every other VPN the router terminates on that interface needs its peers admitted
above those lines, or the filter cuts it. This module reads them from the top-level sections of a
config (full keywords, as ``show running-config`` prints them), skipping l2tpgen's own (named
``l2tpgen`` or ``l2tpgen-...``):

* crypto map entries (``crypto map NAME SEQ ipsec-isakmp``) of a map applied to any interface:
  ``set peer ADDRESS``; ``ipsec-isakmp dynamic DYN`` (a ``crypto dynamic-map``), a GETVPN entry
  (``crypto map NAME SEQ gdoi``) and the IKEv1 remote-access lines ``crypto map NAME client ...``
  / ``isakmp authorization`` have no fixed peers;
* ``tunnel protection`` interfaces (VTI ``tunnel mode ipsec ipv4``, GRE over IPsec, a DMVPN spoke
  with one hub): ``tunnel destination ADDRESS``; DMVPN mGRE (``tunnel mode gre multipoint``:
  peers register over NHRP), a ``Virtual-Template`` (FlexVPN or dynamic VTI server) or a tunnel
  without a literal destination have none;
* IKEv1: ``crypto isakmp key KEY address A [MASK]``, ``crypto keyring`` ``pre-shared-key address
  A [MASK] key KEY``, ``crypto isakmp profile`` ``match identity address A [MASK]``; ``... hostname
  H``, ``match identity group`` and ``crypto isakmp client configuration group`` (Easy VPN remote
  access) have none;
* IKEv2: ``crypto ikev2 keyring`` peers' ``address A [MASK]``, ``crypto ikev2 profile`` ``match
  identity remote address A [MASK]``; a peer or profile known only by name (``fqdn``, ``email``,
  ``key-id``, ``hostname``, ``identity``) and ``crypto ikev2 authorization policy`` (FlexVPN
  remote access) have none.

An address with the mask ``0.0.0.0`` matches every peer: not addressable either. IPv6 peers are
left out (the filter is an IPv4 access list: it does not see them). Command forms: Cisco's
Security Configuration Guides (IKEv1 ``crypto isakmp key``, ``crypto isakmp profile``; FlexVPN
and IKEv2, ``crypto ikev2 keyring``, ``match identity remote``), the DMVPN configuration guide
(``tunnel mode gre multipoint``, ``ip nhrp``), the IPsec Virtual Tunnel Interfaces guide (``tunnel
mode ipsec ipv4``, ``Virtual-Template ... type tunnel``), as they appear in the published
running configs of ``tests/realworld`` (``vpn/SOURCES.md``); the IKEv2 ones are cited with URLs in
``l2tpgen/sim/commands.py``. Why an inbound ACL must admit ESP and UDP 500/4500 from IPsec peers:
docs/security.md, "Other VPNs on the router".

No line is ever copied into a description: IKEv1 keys sit on the same lines as the addresses.
"""

from __future__ import annotations

from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network, IPv6Address, ip_address
from typing import TYPE_CHECKING

from l2tpgen.ios.facts import At

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from l2tpgen.ios.tree import Node

OWN_NAME = "l2tpgen"


@dataclass(frozen=True)
class IkeUser:
    """One configuration that terminates IKE/ESP on this router.

    ``what`` names it without any secret (``interface Tunnel0 (tunnel protection)``, ``crypto
    isakmp key ... address``); ``peers`` are its peer addresses, empty when it has none that can
    be written down (``why`` says why: dynamic peers, remote access, a host name, any address).
    """

    what: str
    at: At
    peers: tuple[IPv4Network, ...] = ()
    why: str = ""

    @property
    def addressable(self) -> bool:
        """Whether its peers can be admitted by address."""
        return not self.why


def _ours(name: str) -> bool:
    return name == OWN_NAME or name.startswith(f"{OWN_NAME}-")


def _at(node: Node) -> At:
    return At(node.line, node.column)


_ANY = "it matches any peer address, 0.0.0.0"


def _peer(address: str, mask: str | None = None) -> IPv4Network | str | None:
    """An address and optional mask as a network; a reason string when it matches any peer.

    None: an IPv6 address (out of the IPv4 filter's sight). ValueError: not an address.
    """
    found = ip_address(address)
    if isinstance(found, IPv6Address):
        return None
    if found == IPv4Address(0):
        return _ANY  # `address 0.0.0.0` without a mask matches every peer too
    try:
        network = IPv4Network(f"{found}/{mask or '255.255.255.255'}", strict=False)
    except ValueError:
        network = IPv4Network(f"{found}/32")  # `no-xauth`, `vrf NAME` after the address
    if network.prefixlen == 0:
        return _ANY
    return network


def _addressed(what: str, node: Node, words: list[str], i: int) -> IkeUser | None:
    """A user whose peer is ``words[i]`` (and an optional mask after it)."""
    mask = words[i + 1] if len(words) > i + 1 else None
    try:
        found = _peer(words[i], mask)
    except (ValueError, IndexError):
        return IkeUser(what, _at(node), why="its peer is not an IPv4 address")
    if found is None:
        return None
    if isinstance(found, str):
        return IkeUser(what, _at(node), why=found)
    return IkeUser(what, _at(node), (found,))


def _tunnel(node: Node, name: str) -> IkeUser | None:
    """A ``tunnel protection`` interface and its peer."""
    children: dict[str, Node] = {}
    for child in node.children:
        words = child.text.lower().split()
        if len(words) > 1 and words[0] == "tunnel":
            children.setdefault(words[1], child)
    protection = children.get("protection")
    if protection is None:
        return None
    what = f"interface {name} (tunnel protection)"
    mode = children.get("mode")
    if mode is not None and mode.text.lower().split()[2:4] == ["gre", "multipoint"]:
        return IkeUser(
            f"interface {name} (DMVPN mGRE, tunnel protection)",
            _at(mode),
            why="its peers register dynamically over NHRP",
        )
    if name.lower().startswith("virtual-template"):
        return IkeUser(
            f"interface {name} (virtual template, tunnel protection)",
            _at(protection),
            why="a FlexVPN or dynamic VTI server, whose peers are whoever connects",
        )
    destination = children.get("destination")
    words = destination.text.split() if destination is not None else []
    if len(words) != 3:  # noqa: PLR2004 - tunnel destination ADDRESS
        return IkeUser(what, _at(protection), why="it has no literal `tunnel destination`")
    return _addressed(what, destination, words, 2)  # type: ignore[arg-type]


def _applied_maps(roots: Iterable[Node]) -> set[str]:
    names: set[str] = set()
    for node in roots:
        if node.text.startswith("interface "):
            for child in node.children:
                words = child.text.split()
                if [w.lower() for w in words[:2]] == ["crypto", "map"] and len(words) > 2:  # noqa: PLR2004
                    names.add(words[2])
    return names


def _crypto_map(node: Node, words: list[str], applied: set[str]) -> Iterator[IkeUser]:
    name = words[2]
    if _ours(name) or name not in applied or len(words) < 4:  # noqa: PLR2004
        return
    lowered = [w.lower() for w in words[3:]]
    if lowered[0] in {
        "client",
        "isakmp",
    }:  # client configuration/authentication, isakmp authorization
        yield IkeUser(f"crypto map {name} {words[3]}", _at(node), why="remote access, Easy VPN")
        return
    if not lowered[0].isdigit():
        return  # local-address, redundancy, ...
    what = f"crypto map {name} {words[3]}"
    if "dynamic" in lowered:
        yield IkeUser(what, _at(node), why="a dynamic map, whose peers are whoever connects")
        return
    if "gdoi" in lowered:  # GETVPN: ESP from every member of the group, addresses unknown here
        yield IkeUser(what, _at(node), why="a GETVPN (GDOI) map, whose ESP comes from any member")
        return
    for child in node.children:
        sub = child.text.split()
        if [w.lower() for w in sub[:2]] == ["set", "peer"] and len(sub) > 2:  # noqa: PLR2004
            found = _addressed(what, child, sub[:3], 2)
            if found is not None:
                yield found


def _isakmp(node: Node, words: list[str]) -> Iterator[IkeUser]:
    lowered = [w.lower() for w in words]
    if lowered[2:3] == ["key"]:
        what = "crypto isakmp key ..."
        for kind in ("address", "hostname"):
            if kind in lowered[4:]:
                i = lowered.index(kind, 4)
                if kind == "hostname":
                    yield IkeUser(f"{what} hostname", _at(node), why="its peer is a host name")
                elif (found := _addressed(f"{what} address", node, words, i + 1)) is not None:
                    yield found
    elif lowered[2:4] == ["client", "configuration"]:
        yield IkeUser(
            "crypto isakmp client configuration", _at(node), why="remote access, Easy VPN"
        )
    elif lowered[2:3] == ["profile"] and len(words) > 3 and not _ours(words[3]):  # noqa: PLR2004
        yield from _identities(f"crypto isakmp profile {words[3]}", node, ["match", "identity"])


def _identities(what: str, node: Node, prefix: list[str]) -> Iterator[IkeUser]:
    """The ``match identity [remote] ...`` lines of an IKEv1 or IKEv2 profile."""
    for child in node.children:
        sub = child.text.split()
        lowered = [w.lower() for w in sub]
        if lowered[: len(prefix)] != prefix or len(sub) <= len(prefix):
            if lowered[:1] == ["virtual-template"]:
                yield IkeUser(
                    what, _at(child), why="it clones a virtual template for whoever connects"
                )
            continue
        kind = lowered[len(prefix)]
        if kind == "address" and len(sub) > len(prefix) + 1:
            found = _addressed(what, child, sub, len(prefix) + 1)
            if found is not None:
                yield found
        elif kind == "group":
            yield IkeUser(what, _at(child), why="remote access, a client group")
        else:
            yield IkeUser(what, _at(child), why=f"its peers are matched by {kind}, not by address")


def _keyring(what: str, node: Node, *, ikev2: bool) -> Iterator[IkeUser]:
    if not ikev2:  # crypto keyring NAME: pre-shared-key address A [MASK] key KEY
        for child in node.children:
            sub = child.text.split()
            lowered = [w.lower() for w in sub]
            if lowered[:2] == ["pre-shared-key", "address"] and len(sub) > 2:  # noqa: PLR2004
                end = lowered.index("key") if "key" in lowered else len(sub)
                found = _addressed(what, child, sub[:end], 2)
                if found is not None:
                    yield found
            elif lowered[:2] == ["pre-shared-key", "hostname"]:
                yield IkeUser(what, _at(child), why="its peer is a host name")
        return
    children = list(node.children)
    for i, peer in enumerate(children):  # crypto ikev2 keyring NAME: peer P / address A [MASK]
        if not peer.text.lower().startswith("peer "):
            continue
        # Under the peer as IOS prints it; a config pasted flat has the peer's lines after it
        # at the peer's own depth (up to the next peer).
        after = children[i + 1 :]
        flat = after[: next((j for j, c in enumerate(after) if c.text.startswith("peer ")), None)]
        address = next(
            (c for c in [*peer.children, *flat] if c.text.lower().startswith("address ")), None
        )
        if address is None:
            yield IkeUser(f"{what} {peer.text}", _at(peer), why="its peer has no address")
        elif (
            found := _addressed(f"{what} {peer.text}", address, address.text.split(), 1)
        ) is not None:
            yield found


def ike_users(roots: Iterable[Node]) -> list[IkeUser]:
    """Every configuration of ``roots`` other than l2tpgen's own that terminates IKE or ESP."""
    nodes = list(roots)
    applied = _applied_maps(nodes)
    found: list[IkeUser] = []
    for node in nodes:
        words = node.text.split()
        lowered = [w.lower() for w in words[:4]]
        third = words[2] if len(words) > 2 else ""  # noqa: PLR2004 - crypto keyring NAME
        fourth = words[3] if len(words) > 3 else ""  # noqa: PLR2004 - crypto ikev2 keyring NAME
        if lowered[:1] == ["interface"] and len(words) > 1:
            user = _tunnel(node, " ".join(words[1:]))
            found += [user] if user is not None else []
        elif lowered[:2] == ["crypto", "map"] and fourth:
            found += _crypto_map(node, words, applied)
        elif lowered[:2] == ["crypto", "isakmp"]:
            found += _isakmp(node, words)
        elif lowered[:2] == ["crypto", "keyring"] and third:
            found += _keyring(f"crypto keyring {third}", node, ikev2=False)
        elif lowered[:3] == ["crypto", "ikev2", "keyring"] and fourth and not _ours(fourth):
            found += _keyring(f"crypto ikev2 keyring {fourth}", node, ikev2=True)
        elif lowered[:3] == ["crypto", "ikev2", "profile"] and fourth and not _ours(fourth):
            remote = ["match", "identity", "remote"]
            found += _identities(f"crypto ikev2 profile {fourth}", node, remote)
        elif lowered[:4] == ["crypto", "ikev2", "authorization", "policy"]:
            found.append(
                IkeUser(
                    f"crypto ikev2 authorization policy {' '.join(words[4:5])}",
                    _at(node),
                    why="remote access, FlexVPN client configuration",
                )
            )
    return found
