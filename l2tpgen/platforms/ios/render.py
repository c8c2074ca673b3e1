"""Cisco IOS rendering: the site model turned into a view the template only lays out.

Order follows ``show running-config``: l2tp-class, pseudowire-class, interfaces (virtual first,
then by name, subinterfaces in numeric order), static routes, global CDP.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.ios.names import interface_sort_key
from l2tpgen.model.keys import pair_psk_text
from l2tpgen.model.protection import reveal_cookies
from l2tpgen.render.classes import L2tpClassView, PseudowireClassView, class_views
from l2tpgen.render.crypto import CryptoView, crypto_view
from l2tpgen.render.env import environment
from l2tpgen.render.marks import ROUTE_NAME, VlanDescription

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.model import Fleet, Pseudowire, Site

_PACKAGE = __name__.rpartition(".")[0]  # its templates/ are this folder's

IOS_DEFAULT_HOLD_QUEUE = {"in": 75, "out": 40}  # not shown by `show running-config`


@dataclass(frozen=True)
class Xconnect:
    """An ``xconnect`` line's arguments, and the submode lines of a manual (static) session."""

    peer: str
    vc_id: int
    pw_class: str
    manual: bool = False
    session_ids: tuple[int, int] | None = None
    cookie_local: str | None = None
    cookie_remote: str | None = None
    hello: str | None = None  # `l2tp hello CLASS` under a manual session between Cisco routers


@dataclass(frozen=True)
class Interface:
    """One ``interface`` section; ``None`` or empty fields are not rendered."""

    name: str
    description: str | None = None
    ip_address: str | None = None
    no_ip_address: bool = False
    dot1q: int | None = None
    native: bool = False  # `encapsulation dot1Q N native` [U] (model/native_vlan.py)
    duplex: str | None = None
    speed: str | None = None
    no_cdp: bool = False
    xconnect: Xconnect | None = None
    hold_queue_in: int | None = None
    hold_queue_out: int | None = None
    mtu: int | None = None
    access_group_in: str | None = None
    crypto_map: str | None = None


@dataclass(frozen=True)
class Route:
    """An ``ip route`` line; ``name`` marks the routes push owns (``name l2tpgen-PEER``)."""

    network: str
    mask: str
    gateway: str
    name: str | None = None


@dataclass(frozen=True)
class IosView:
    """Everything the IOS template needs, computed."""

    site: str
    hostname: str
    l2tp_classes: tuple[L2tpClassView, ...]
    pseudowire_classes: tuple[PseudowireClassView, ...]
    interfaces: tuple[Interface, ...]
    routes: tuple[Route, ...]
    cdp_run: bool
    crypto: CryptoView | None = None


def _optional(value: object) -> str | None:
    return None if value is None else str(value)


def _cookie(pw_end: Pseudowire, which: int) -> str | None:
    """``SIZE LOW [HIGH]`` of a manual session's cookie.

    Keyed cookies as a placeholder that ``reveal`` fills in (``--reveal-secrets``, push).
    """
    size = pw_end.cookie_size
    if not size:
        return None
    if pw_end.keyed_cookies:
        return f"{size} {pw_end.cookie_placeholders()[which]}"
    words = (pw_end.cookie_local, pw_end.cookie_remote)[which]
    return f"{size} " + " ".join(str(w) for w in words)


def _peer_routes(
    site: Site, pseudowires: tuple[Pseudowire, ...], port: Site | None = None
) -> list[Route]:
    """A route to each peer's loopback via the WAN gateway, unless an IGP carries them.

    Without it, xconnects to a loopback point at an address nothing routes to. Named
    ``l2tpgen-PEER``: the routes push owns (and removes when the peer goes).
    """
    if site.wan.peer_routes != "static":
        return []
    ends = [pw.peer for pw in pseudowires] + ([port] if port is not None else [])
    peers = {peer.name: peer for peer in ends if peer.wan.loopback is not None}
    return [
        Route(
            str(peer.tunnel_address),
            "255.255.255.255",
            str(site.wan.gateway),
            f"{ROUTE_NAME}-{name}",
        )
        for name, peer in sorted(peers.items())
    ]


def _hold_queue(value: int, direction: str) -> int | None:
    return None if value == IOS_DEFAULT_HOLD_QUEUE[direction] else value


def _attachment(site: Site, pw_end: Pseudowire) -> Interface:
    """A VLAN's subinterface and its xconnect.

    A static session cannot use ``ip pmtu``, so its subinterface MTU is lowered to what crosses the
    WAN unfragmented: the pair's budget (``Pseudowire.budget``), so that both ends agree.
    """
    xconnect = Xconnect(str(pw_end.peer_address), pw_end.vc_id, pw_end.settings.name)
    mtu = None
    if pw_end.static:
        xconnect = Xconnect(
            xconnect.peer,
            xconnect.vc_id,
            xconnect.pw_class,
            manual=True,
            session_ids=pw_end.session_ids,
            cookie_local=_cookie(pw_end, 0),
            cookie_remote=_cookie(pw_end, 1),
            hello=pw_end.l2tp_class.name if pw_end.hello else None,
        )
        mtu = pw_end.budget.max_inner_mtu
    return Interface(
        name=f"{site.lan.interface}.{pw_end.vlan.id}",
        description=VlanDescription(pw_end.vlan.id, pw_end.vlan.name, pw_end.peer.name).text(),
        dot1q=pw_end.vlan.id,
        native=pw_end.vlan.native,
        no_cdp=True,  # CDP must never cross a pseudowire, whatever the global setting
        xconnect=xconnect,
        mtu=mtu,
    )


def port_peer(fleet: Fleet, site: Site) -> Site | None:
    """The peer of the port-mode xconnect the site keeps, if it keeps one."""
    port = site.kept_port
    return fleet.site(port.peer) if port is not None else None


def _port_xconnect(fleet: Fleet, site: Site) -> Xconnect | None:
    """The kept port-mode xconnect on the LAN trunk itself (``lan.port_xconnect``), as it stands.

    Cisco's form for an Ethernet port: ``xconnect PEER VCID encapsulation l2tpv3 pw-class NAME``
    on the main interface (``model/port_mode.py`` cites the guide).
    """
    port, peer = site.kept_port, port_peer(fleet, site)
    if port is None or peer is None:
        return None
    return Xconnect(str(peer.tunnel_address), port.vc_id, site.pseudowire_for(port.peer).name)


def build_view(
    fleet: Fleet,
    name: str,
    *,
    reveal_secrets: bool = False,
    environ: Mapping[str, str] | None = None,
) -> IosView:
    """Compute the IOS view of one site of a validated fleet."""
    site = fleet.site(name)
    pseudowires = fleet.pseudowires(name)
    port = site.kept_port
    l2tp_classes, pw_classes = class_views(
        site,
        pseudowires,
        reveal=reveal_secrets,
        environ=environ,
        port_peer=port.peer if port else None,
    )

    def psk(variable: str, peer: str) -> str:
        return pair_psk_text(variable, (name, peer), reveal=reveal_secrets, environ=environ)

    crypto = crypto_view(site, pseudowires, psk, port_peer(fleet, site))
    no_cdp = not site.cdp
    interfaces = [
        Interface(
            name=site.lan.interface,
            no_ip_address=True,
            duplex=site.lan.duplex,
            speed=_optional(site.lan.speed),
            no_cdp=no_cdp or port is not None,  # CDP must not cross a port-mode pseudowire
            xconnect=_port_xconnect(fleet, site),
            hold_queue_in=_hold_queue(site.hold_queue("lan").in_, "in"),
            hold_queue_out=_hold_queue(site.hold_queue("lan").out, "out"),
        ),
        Interface(
            name=site.wan.interface,
            ip_address=f"{site.wan.address.ip} {site.wan.address.netmask}",
            duplex=site.wan.duplex,
            speed=_optional(site.wan.speed),
            no_cdp=no_cdp,
            hold_queue_in=_hold_queue(site.hold_queue("wan").in_, "in"),
            hold_queue_out=_hold_queue(site.hold_queue("wan").out, "out"),
            access_group_in=crypto.inbound_acl,
            crypto_map=crypto.map_name,
        ),
    ]
    if site.wan.loopback is not None:
        loopback = site.wan.loopback
        interfaces.append(
            Interface(
                name=loopback.interface,
                ip_address=f"{loopback.address.ip} {loopback.address.netmask}",
            )
        )
    interfaces.extend(_attachment(site, pw_end) for pw_end in pseudowires)
    return IosView(
        site=site.name,
        hostname=site.hostname,
        l2tp_classes=l2tp_classes,
        pseudowire_classes=pw_classes,
        interfaces=tuple(sorted(interfaces, key=lambda i: interface_sort_key(i.name))),
        routes=(
            *(
                Route(str(net.network_address), str(net.netmask), str(site.wan.gateway))
                for net in site.wan.routes
            ),
            *_peer_routes(site, pseudowires, port_peer(fleet, site)),
        ),
        cdp_run=site.cdp,
        crypto=crypto if crypto.map_name or crypto.inbound_acl else None,
    )


def render_base(fleet: Fleet, name: str) -> str:
    """The config a router has before l2tpgen: hostname, WAN addressing and routes, bare LAN port.

    What ``l2tpgen sim up`` starts each simulated router with.
    """
    view = build_view(fleet, name)
    physical = tuple(i for i in view.interfaces if i.dot1q is None)  # no attachment circuits
    bare = tuple(
        Interface(name=i.name, ip_address=i.ip_address, duplex=i.duplex, speed=i.speed)
        for i in physical
    )
    base = IosView(
        site=view.site,
        hostname=view.hostname,
        l2tp_classes=(),
        pseudowire_classes=(),
        interfaces=bare,
        routes=view.routes,
        cdp_run=True,
    )
    return environment(_PACKAGE).get_template("base.j2").render(view=base)


def render_ios(
    fleet: Fleet,
    name: str,
    *,
    reveal_secrets: bool = False,
    environ: Mapping[str, str] | None = None,
) -> str:
    """The IOS configuration of one site."""
    view = build_view(fleet, name, reveal_secrets=reveal_secrets, environ=environ)
    text = environment(_PACKAGE).get_template("site.j2").render(view=view)
    return reveal_cookies(text, environ) if reveal_secrets else text
