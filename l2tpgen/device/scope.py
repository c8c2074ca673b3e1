"""What push owns on a router, and only that: the pseudowire surface of the site.

Routers carry configuration l2tpgen did not write. Push reads and changes only:

- the LAN trunk's subinterfaces that carry an L2TPv3 xconnect or l2tpgen's mark (a description
  starting ``l2tpgen:``, which every rendered subinterface has); a subinterface with other
  configuration and neither is never touched, and the model stretching its VLAN is refused;
- on the LAN trunk itself: its hold-queue lines and an xconnect on it (the single-trunk design,
  which push migrates away from);
- the WAN interface's hold-queue lines (never its address or anything else);
- the tunnel-source loopback's address, when the model sources tunnels from a loopback;
- the classes the site renders, and classes only owned xconnects use or name in `l2tp hello`
  (an older class of ours, the static design's hello class);
- static routes named ``l2tpgen...`` (the routes to the peers' loopbacks);
- protection (``docs/security.md``): the sections named ``l2tpgen`` or ``l2tpgen-...`` --
  ``crypto ikev2 proposal|policy|keyring|profile``, ``crypto ipsec transform-set``, the
  ``crypto map l2tpgen ...`` entries, the access lists ``l2tpgen-pw-*`` and ``l2tpgen-wan-in`` --
  and on the WAN interface the lines ``crypto map l2tpgen`` and ``ip access-group l2tpgen-wan-in
  in``. A user's crypto map or inbound access group on the WAN is never touched: push refuses to
  put its own in their place (``refuse_foreign``; IOS holds one of each per interface).

A name in that namespace is not proof that l2tpgen wrote it: what push would delete there must
be derivable from a model, else push refuses (``l2tpgen.device.claims``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.errors import DeviceError
from l2tpgen.ios.acl import entry_text
from l2tpgen.ios.order import running_config_key
from l2tpgen.ios.parsed import facts_of
from l2tpgen.render.marks import MARK, ROUTE_NAME

if TYPE_CHECKING:
    from l2tpgen.ios.facts import DeviceFacts
    from l2tpgen.ios.tree import Config, Node
    from l2tpgen.model import Site


class OwnershipError(DeviceError):
    """The model asks for something on the router that l2tpgen does not own."""


@dataclass(frozen=True)
class Owned:
    """The owned part of one config: IOS text in running-config order, and what it holds."""

    text: str
    subinterfaces: frozenset[str]
    classes: frozenset[str]  # "pseudowire-class X" / "l2tp-class Y" headers
    trunk_xconnect: bool  # an xconnect on the LAN trunk itself (the single-trunk design)


_NAMED = r"l2tpgen(?:-\S+)?"
_PROTECTION = re.compile(
    rf"^(?:crypto ikev2 (?:proposal|policy|keyring|profile) {_NAMED}"
    rf"|crypto ipsec transform-set {_NAMED}"
    rf"|crypto map {_NAMED}"
    r"|ip access-list extended l2tpgen-(?:pw-\S+|wan-in))(?:\s|$)"
)
_WAN_LINE = re.compile(rf"^(?:crypto map {_NAMED}|ip access-group l2tpgen-wan-in in)$")
_WAN_FOREIGN = re.compile(r"^(?:crypto map (\S+)|ip access-group (\S+) in)$")


def protection_section(text: str) -> bool:
    """A top-level line that opens one of l2tpgen's own protection sections."""
    return _PROTECTION.match(text) is not None


def section_lines(node: Node, depth: int = 0) -> list[str]:
    """A node and its children as IOS text lines, indented from ``depth`` (see ``_block``)."""
    return _block(node.text, node.children, depth)


def _block(text: str, children: list[Node], depth: int) -> list[str]:
    """A line and its children, a child repeated in one section taken once.

    IOS never shows a line twice in one section (setting it again sets the same thing), but a
    running config pasted together from several outputs, or a section repeated and merged
    (``l2tpgen.ios.tree``), can; hier_config cannot hold a repeated child. The repeats' own
    children join the first's.
    """
    out = [" " * depth + text]
    for child_text, grandchildren in _merged(children):
        out += _block(child_text, grandchildren, depth + 1)
    return out


def _merged(children: list[Node]) -> list[tuple[str, list[Node]]]:
    """Children by text, in first-seen order, the children of repeats joined."""
    merged: dict[str, list[Node]] = {}
    for child in children:
        merged.setdefault(child.text, []).extend(child.children)
    return list(merged.items())


def _class_users(facts: DeviceFacts, owned_subs: set[str], lan: str) -> set[str]:
    """Classes only owned xconnects use: older classes of ours, removed when no longer used."""
    ours: set[str] = set()
    theirs: set[str] = set()
    hello_ours: set[str] = set()  # l2tp-classes named by `l2tp hello` under manual xconnects
    hello_theirs: set[str] = set()
    for iface in facts.interfaces.values():
        xc = iface.xconnect
        if xc is None:
            continue
        mine = iface.name in owned_subs or iface.name == lan
        if xc.hello is not None:
            (hello_ours if mine else hello_theirs).add(xc.hello)
        if xc.pw_class is not None:
            (ours if mine else theirs).add(xc.pw_class)
    theirs |= facts.ppp_pw_classes
    pw_classes = ours - theirs
    l2tp_used_elsewhere = {
        pw.protocol_class
        for name, pw in facts.pw_classes.items()
        if name not in pw_classes and pw.protocol_class
    }
    l2tp = {
        pw.protocol_class
        for name, pw in facts.pw_classes.items()
        if name in pw_classes and pw.protocol_class
    } | hello_ours
    l2tp -= l2tp_used_elsewhere | hello_theirs
    return {f"pseudowire-class {n}" for n in pw_classes} | {f"l2tp-class {n}" for n in l2tp}


def _owned_subinterfaces(facts: DeviceFacts, lan: str) -> set[str]:
    """The LAN trunk's subinterfaces with an L2TPv3 xconnect or l2tpgen's mark."""
    return {
        iface.name
        for iface in facts.interfaces.values()
        if iface.name.startswith(f"{lan}.")
        and (
            (iface.xconnect is not None and facts.is_l2tpv3(iface.xconnect))
            or (iface.description or "").startswith(MARK)
        )
    }


def _owned_children(node: Node, name: str | None, site: Site) -> list[Node]:
    """The lines push owns under the LAN trunk, the WAN interface or the tunnel-source loopback."""
    lan, wan = site.lan.interface, site.wan.interface
    loopback = site.wan.loopback.interface if site.wan.loopback else None
    return [
        c
        for c in node.children
        if c.text.startswith("hold-queue ")
        or (name == lan and c.text.startswith("xconnect "))
        or (name == loopback and c.text.startswith("ip address "))
        or (name == wan and _WAN_LINE.match(c.text) is not None)
    ]


def _whole_section(node: Node) -> list[str]:
    """A section push owns whole; an access list's entries without their sequence numbers.

    IOS-XE prints a named list's numbers in ``show running-config``, classic IOS does not: the
    entries compare as entries (``l2tpgen.device.acl_edit`` numbers them itself).
    """
    if node.text.startswith("ip access-list "):
        return [node.text, *(f" {entry_text(c.text)}" for c in node.children)]
    return section_lines(node)


def own(config: Config, site: Site, classes: frozenset[str]) -> Owned:
    """The part of ``config`` push owns for ``site`` (``classes``: the intended class headers)."""
    lan, wan = site.lan.interface, site.wan.interface
    loopback = site.wan.loopback.interface if site.wan.loopback else None
    facts = facts_of(config, "running")  # read once per push (`ios.parsed`)
    subs = _owned_subinterfaces(facts, lan)
    owned_classes = set(classes) | _class_users(facts, subs, lan)
    out: list[str] = []
    trunk_xconnect = False
    for node in sorted(config.roots, key=lambda n: running_config_key(n.text)):
        text = node.text
        name = text.removeprefix("interface ") if text.startswith("interface ") else None
        if name in subs or text in owned_classes or protection_section(text):
            out += _whole_section(node)
        elif name is not None and name in {lan, wan, loopback}:  # no loopback: None is no name
            keep = _owned_children(node, name, site)
            trunk_xconnect = trunk_xconnect or (
                name == lan and any(c.text.startswith("xconnect ") for c in keep)
            )
            if keep:
                out += _block(text, keep, 0)
        elif text.startswith("ip route ") and f" name {ROUTE_NAME}" in text and text not in out:
            out.append(text)
    return Owned(
        "".join(line + "\n" for line in out),
        frozenset(subs),
        frozenset(c for c in owned_classes if any(r.text == c for r in config.roots)),
        trunk_xconnect,
    )


def refuse_foreign(running: Config, site: Site, owned: Owned, wanted: frozenset[str]) -> None:
    """Refuse to build a subinterface where the router has one l2tpgen does not own.

    Raises:
        OwnershipError: naming the subinterface and what to do.
    """
    lan = site.lan.interface
    for node in running.roots:
        name = node.text.removeprefix("interface ")
        if name in wanted and name.startswith(f"{lan}.") and name not in owned.subinterfaces:
            held = ", ".join(c.text.split()[0] for c in node.children[:3]) or "no xconnect"
            raise OwnershipError(
                f"{name} exists on the router with other configuration ({held}) and no xconnect "
                f"or l2tpgen mark: l2tpgen does not touch it, and will not build VLAN "
                f"{name.rsplit('.', 1)[1]} over it; move that configuration off {name} (or mark "
                f"it with `description {MARK} ...` to hand it over), or stretch another VLAN"
            )


def refuse_foreign_wan(running: Config, intended: Config, site: Site) -> None:
    """Refuse to replace a user's crypto map or inbound access group on the WAN interface.

    IOS holds one crypto map and one inbound access group per interface: applying l2tpgen's would
    silently drop the user's.

    Raises:
        OwnershipError: naming the line and what to do.
    """
    header = f"interface {site.wan.interface}"

    def lines(config: Config) -> list[str]:
        return [c.text for r in config.roots if r.text == header for c in r.children]

    wanted = {line.split()[0]: line for line in lines(intended) if _WAN_LINE.match(line)}
    for line in lines(running):
        kind = line.split()[0]
        if _WAN_FOREIGN.match(line) is None or _WAN_LINE.match(line) or kind not in wanted:
            continue
        fix = (
            "set `protection.inbound_filter: false` and keep yours, or merge l2tpgen-wan-in's "
            "lines into it by hand"
            if kind == "ip"
            else "remove it or merge its entries by hand; IOS applies one crypto map per interface"
        )
        raise OwnershipError(
            f"{site.wan.interface} has `{line}`, which l2tpgen does not own, and the site's "
            f"protection needs `{wanted[kind]}` there instead: {fix}"
        )
