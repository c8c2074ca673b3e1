"""Objects claimed by l2tpgen's marks: a subinterface's description, a route's name, WAN lines.

Part of ``l2tpgen.device.claims`` (which judges the protection sections and says the rule):
push owns a LAN subinterface marked ``description l2tpgen: ...``, a route named ``l2tpgen...``
and on the WAN interface ``crypto map l2tpgen...`` (``l2tpgen.device.scope``). Each is
l2tpgen's only in the form l2tpgen writes it:

- a route ``name l2tpgen-...``: a host route to a peer's loopback via a next hop (``ip route A
  255.255.255.255 GW name l2tpgen-PEER``, ``platforms/ios/render.py``);
- on the WAN interface, ``crypto map l2tpgen`` (never ``crypto map l2tpgen-...``);
- a subinterface push owns by its mark alone (no L2TPv3 xconnect owns it): the mark as l2tpgen
  writes it (``l2tpgen: VLAN N NAME to PEER`` on subinterface N with ``encapsulation dot1Q
  N``), and only lines l2tpgen writes there or IOS adds itself.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.ios.parsed import facts_of
from l2tpgen.render.crypto import NAME
from l2tpgen.render.marks import MARK, ROUTE_NAME
from l2tpgen.secrets import mask_secrets

if TYPE_CHECKING:
    from l2tpgen.ios.tree import Config, Node
    from l2tpgen.model import Site

_ROUTE = re.compile(rf"^ip route (\S+) 255\.255\.255\.255 (\S+) name {ROUTE_NAME}-\S+$")
_MARK_FORM = re.compile(rf"^description {re.escape(MARK)} VLAN (\d+) .+ to \S+$")
# The lines l2tpgen writes on a pseudowire's subinterface, and what IOS may add there itself.
_SUB_LINES = re.compile(
    r"^(?:description |encapsulation dot1Q \d+(?: native)?$|no cdp enable$|mtu \d+$"
    r"|hold-queue \d+ (?:in|out)$|no ip address$|shutdown$"
    r"|xconnect \S+ \d+ encapsulation l2tpv3 (?:manual )?pw-class \S+$)"
)
_XCONNECT_CHILD = re.compile(r"^l2tp (?:id|cookie local|cookie remote|hello) ")


@dataclass(frozen=True)
class Claim:
    """One object push refuses to delete: as the router prints it, and why it is not l2tpgen's."""

    name: str
    why: str


def _texts(node: Node) -> list[str]:
    return [child.text for child in node.children]


def route_claims(running: Config, intended: Config) -> list[Claim]:
    """Routes named ``l2tpgen...`` push would delete that are not a host route via a next hop."""
    wanted = {root.text for root in intended.roots}
    claims = []
    for root in running.roots:
        text = root.text
        if not text.startswith("ip route ") or f" name {ROUTE_NAME}" not in text or text in wanted:
            continue
        found = _ROUTE.match(text)
        if found is None or not all(_ipv4(found.group(n)) for n in (1, 2)):
            why = "l2tpgen names only host routes to a peer's loopback, via a next hop"
            claims.append(Claim(text, why))
    return claims


def _ipv4(text: str) -> bool:
    try:
        ipaddress.IPv4Address(text)
    except ValueError:
        return False
    return True


def wan_claims(running: Config, site: Site) -> list[Claim]:
    """A crypto map on the WAN named like l2tpgen's but not ``crypto map l2tpgen``."""
    header = f"interface {site.wan.interface}"
    return [
        Claim(f"{header} / {child.text}", f"l2tpgen applies only `crypto map {NAME}` there")
        for root in running.roots
        if root.text == header
        for child in root.children
        if child.text.startswith(f"crypto map {NAME}-")
    ]


def subinterface_claims(
    running: Config, intended: Config, site: Site, owned: frozenset[str]
) -> list[Claim]:
    """Subinterfaces owned by the mark alone that l2tpgen never wrote in that form.

    A subinterface with an L2TPv3 xconnect is owned by it, mark or not (``scope``): not judged.
    """
    wanted = {root.text for root in intended.roots}
    marked = [
        root
        for root in running.roots
        if root.text.removeprefix("interface ") in owned
        and root.text not in wanted
        and any(t.startswith(f"description {MARK}") for t in _texts(root))
    ]
    if not marked:
        return []
    facts = facts_of(running, "running")  # the plan's own reading when it has one (`ios.parsed`)
    claims = []
    for root in marked:
        name = root.text.removeprefix("interface ")
        iface = facts.interfaces.get(name)
        if iface is not None and iface.xconnect is not None and facts.is_l2tpv3(iface.xconnect):
            continue
        why = _subinterface_why(root, name, site.lan.interface)
        if why is not None:
            claims.append(Claim(root.text, why))
    return claims


def _subinterface_why(root: Node, name: str, lan: str) -> str | None:
    texts = _texts(root)
    number = name.removeprefix(f"{lan}.")
    marks = [m.group(1) for t in texts if (m := _MARK_FORM.match(t)) is not None]
    if marks != [number] or f"encapsulation dot1Q {number}" not in {
        t.removesuffix(" native") for t in texts
    }:
        return (
            f"its description is not l2tpgen's mark for VLAN {number} (`{MARK} VLAN {number} ...`)"
        )
    other = [t for t in texts if _SUB_LINES.match(t) is None]
    children = [grandchild.text for child in root.children for grandchild in child.children]
    if other or any(_XCONNECT_CHILD.match(t) is None for t in children):
        return f"l2tpgen never writes `{mask_secrets((other or children)[0])}` there"
    return None
