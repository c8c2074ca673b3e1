"""Every pseudowire peer a router's config names, whoever wrote it.

l2tpgen's inbound WAN filter (``l2tpgen-wan-in``) denies L2TPv3 (IP protocol 115) to the router's
own tunnel address from anyone who is not an L2TPv3 peer of the router. The model knows its own
peers; this module finds the others in the running config, so that push admits them too and the
filter never cuts a pseudowire l2tpgen does not manage. Forms read (full keywords, as ``show
running-config`` prints them):

* ``xconnect A VCID ...`` anywhere inside an interface (a port, a subinterface, an ATM ``pvc``),
  and its ``backup peer A ...`` (a standby pseudowire also receives traffic after a switchover);
* IOS-XE ``interface pseudowireN`` with ``neighbor A VCID`` (Cisco-IOS-XE-l2vpn.yang,
  ``interface pseudowire`` ``neighbor router-id vc-id``, ``tests/vendor/cisco-xe-yang/17181``);
* ``l2vpn xconnect context NAME`` and ``l2vpn vfi context NAME`` members ``member A VCID ...``
  and ``member pseudowireN A VCID ...`` (the same YANG: ``member ipv4``, ``member pseudowire ...
  ipv4``);
* ``l2 vfi NAME manual`` ``neighbor A [VCID] encapsulation ...`` (the same YANG: VFI ``neighbor
  router-id``);
* ``interface Virtual-PPP N`` ``pseudowire A VCID ...`` (L2TPv3 carrying PPP, the
  ``pseudowire-class`` users the class reader counts as ``ppp_pw_classes``).

The encapsulation is not judged: an MPLS pseudowire's peer admitted to send protocol 115 costs one
host entry, never a cut. A peer is an address literal (IOS takes nothing else there); IPv6 peers
are kept apart: the filter is an IPv4 access list and never sees IPv6 packets.
"""

from __future__ import annotations

from dataclasses import dataclass
from ipaddress import IPv4Address, IPv6Address, ip_address
from typing import TYPE_CHECKING

from l2tpgen.ios.facts import At

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Iterator

    from l2tpgen.ios.tree import Node


@dataclass(frozen=True)
class PwPeer:
    """One pseudowire peer named in the config: its address, what names it, and where."""

    address: IPv4Address | IPv6Address
    what: str
    at: At


def _address(word: str) -> IPv4Address | IPv6Address | None:
    try:
        return ip_address(word)
    except ValueError:
        return None


def _peer(node: Node, words: list[str], i: int, what: str) -> Iterator[PwPeer]:
    found = _address(words[i]) if i < len(words) else None
    if found is not None:
        yield PwPeer(found, what, At(node.line, node.column))


def _in_interface(root: Node, name: str) -> Iterator[PwPeer]:
    """The xconnects (and their backup peers) anywhere in an interface's section."""
    pseudowire = name.lower().startswith("pseudowire")
    virtual_ppp = name.lower().startswith("virtual-ppp")
    for node in root.walk():
        if node is root:
            continue
        words = node.text.split()
        first = words[0].lower() if words else ""
        if first == "xconnect":
            yield from _peer(node, words, 1, f"interface {name} xconnect")
        elif first == "backup" and words[1:2] == ["peer"]:
            yield from _peer(node, words, 2, f"interface {name} backup peer")
        elif first == "neighbor" and pseudowire:
            yield from _peer(node, words, 1, f"interface {name} neighbor")
        elif first == "pseudowire" and virtual_ppp:
            yield from _peer(node, words, 1, f"interface {name} pseudowire")


def _members(root: Node, what: str, keyword: str) -> Iterator[PwPeer]:
    """``member A ...`` / ``member pseudowireN A ...`` (or a VFI's ``neighbor A ...``)."""
    for node in root.children:
        words = node.text.split()
        if not words or words[0].lower() != keyword or len(words) < 2:  # noqa: PLR2004
            continue
        at = 2 if words[1].lower().startswith("pseudowire") else 1
        yield from _peer(node, words, at, what)


def pseudowire_peers(roots: Iterable[Node], skip: Collection[str] = ()) -> list[PwPeer]:
    """Every pseudowire peer the config names, in config order, except in interfaces ``skip``.

    ``skip``: interface names whose pseudowires are not to be counted (those l2tpgen owns and
    rewrites from the model).
    """
    found: list[PwPeer] = []
    for root in roots:
        words = root.text.split()
        lowered = [w.lower() for w in words[:3]]
        if lowered[:1] == ["interface"] and len(words) > 1:
            name = " ".join(words[1:])
            if name not in skip:
                found += _in_interface(root, name)
        elif lowered[:3] in (["l2vpn", "xconnect", "context"], ["l2vpn", "vfi", "context"]):
            found += _members(root, " ".join(words[:4]), "member")
        elif lowered[:2] == ["l2", "vfi"]:
            found += _members(root, " ".join(words[:3]), "neighbor")
    return found
