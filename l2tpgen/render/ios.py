"""Cisco IOS rendering: the site model turned into a view the template only lays out.

Order follows ``show running-config``: l2tp-class, pseudowire-class, interfaces (virtual first,
then by name, subinterfaces in numeric order), static routes, global CDP.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.errors import RenderError, SecretError
from l2tpgen.ios.names import interface_sort_key
from l2tpgen.render.env import environment
from l2tpgen.secrets import masked, read_secret

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.model import Fleet, Pseudowire, Site

# A fixed type 7 salt keeps rendering deterministic (push compares secrets by their plain text).
RENDER_SALT = 2


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


@dataclass(frozen=True)
class Interface:
    """One ``interface`` section; ``None`` or empty fields are not rendered."""

    name: str
    ip_address: str | None = None
    no_ip_address: bool = False
    dot1q: int | None = None
    duplex: str | None = None
    speed: str | None = None
    no_cdp: bool = False
    xconnect: Xconnect | None = None
    hold_queue_in: int | None = None
    hold_queue_out: int | None = None
    mtu: int | None = None


@dataclass(frozen=True)
class L2tpClassView:
    """An ``l2tp-class`` section."""

    name: str
    authentication: bool
    password: str | None
    digest: str | None
    hello: int | None


@dataclass(frozen=True)
class PseudowireClassView:
    """A ``pseudowire-class`` section."""

    name: str
    protocol: str
    local_interface: str
    pmtu: bool
    df_bit: bool
    tos_reflect: bool
    sequencing: str | None


@dataclass(frozen=True)
class Route:
    """An ``ip route`` line."""

    network: str
    mask: str
    gateway: str


@dataclass(frozen=True)
class IosView:
    """Everything the IOS template needs, computed."""

    site: str
    hostname: str
    l2tp_class: L2tpClassView | None
    pseudowire_class: PseudowireClassView
    interfaces: tuple[Interface, ...]
    routes: tuple[Route, ...]
    cdp_run: bool


def _secret_text(site: Site, *, reveal: bool, environ: Mapping[str, str] | None) -> str:
    variable = site.l2tp_class.secret_env
    if variable is None:  # validation requires secret_env whenever authentication is on
        raise RenderError(f"{site.name}: l2tp_class has authentication but no secret_env")
    if not reveal:
        return masked(variable)
    from l2tpgen.ios import type7  # noqa: PLC0415 - netutils, only when secrets are written

    try:
        return type7.encode(read_secret(variable, environ), RENDER_SALT)
    except type7.Type7Error as exc:  # names the variable, never the value
        raise SecretError(
            f"environment variable {variable} holds a secret type 7 cannot carry ({exc}): the "
            f"router would refuse it or store another secret; set {variable} to such a secret at "
            "both ends"
        ) from None


def _l2tp_class(
    site: Site, *, reveal: bool, environ: Mapping[str, str] | None
) -> L2tpClassView | None:
    l2tp = site.l2tp_class
    if site.pseudowire_class.signaling == "static":
        return None
    password = digest = None
    if l2tp.authentication == "password":
        password = f"7 {_secret_text(site, reveal=reveal, environ=environ)}"
    elif l2tp.authentication == "digest":
        secret = _secret_text(site, reveal=reveal, environ=environ)
        digest = f"secret 7 {secret} hash {l2tp.effective_hash}"
    return L2tpClassView(
        name=l2tp.name,
        authentication=l2tp.authentication == "password",
        password=password,
        digest=digest,
        hello=l2tp.hello,
    )


def _optional(value: object) -> str | None:
    return None if value is None else str(value)


def _cookie(words: tuple[int, ...]) -> str | None:
    return f"{len(words) * 4} " + " ".join(str(w) for w in words) if words else None


def _attachment(site: Site, pw_end: Pseudowire) -> Interface:
    """A VLAN's subinterface and its xconnect.

    A static session cannot use ``ip pmtu``, so its subinterface MTU is lowered to what crosses the
    WAN unfragmented (``mtu.py``; the dot1Q tag is counted as carried, the conservative case).
    """
    pw = site.pseudowire_class
    xconnect = Xconnect(str(pw_end.peer_address), pw_end.vc_id, pw.name)
    mtu = None
    if pw_end.static:
        xconnect = Xconnect(
            xconnect.peer,
            xconnect.vc_id,
            xconnect.pw_class,
            manual=True,
            session_ids=pw_end.session_ids,
            cookie_local=_cookie(pw_end.cookie_local),
            cookie_remote=_cookie(pw_end.cookie_remote),
        )
        mtu = site.data_budget(dot1q=True).max_inner_mtu
    return Interface(
        name=f"{site.lan.interface}.{pw_end.vlan.id}",
        dot1q=pw_end.vlan.id,
        no_cdp=True,  # CDP must never cross a pseudowire, whatever the global setting
        xconnect=xconnect,
        mtu=mtu,
    )


def build_view(
    fleet: Fleet,
    name: str,
    *,
    reveal_secrets: bool = False,
    environ: Mapping[str, str] | None = None,
) -> IosView:
    """Compute the IOS view of one site of a validated fleet."""
    site = fleet.site(name)
    pw = site.pseudowire_class
    l2tp = _l2tp_class(site, reveal=reveal_secrets, environ=environ)
    no_cdp = not site.cdp
    interfaces = [
        Interface(
            name=site.lan.interface,
            no_ip_address=True,
            duplex=site.lan.duplex,
            speed=_optional(site.lan.speed),
            no_cdp=no_cdp,
            hold_queue_in=site.lan.hold_queue.in_,
            hold_queue_out=site.lan.hold_queue.out,
        ),
        Interface(
            name=site.wan.interface,
            ip_address=f"{site.wan.address.ip} {site.wan.address.netmask}",
            duplex=site.wan.duplex,
            speed=_optional(site.wan.speed),
            no_cdp=no_cdp,
            hold_queue_in=site.wan.hold_queue.in_,
            hold_queue_out=site.wan.hold_queue.out,
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
    interfaces.extend(_attachment(site, pw_end) for pw_end in fleet.pseudowires(name))
    return IosView(
        site=site.name,
        hostname=site.hostname,
        l2tp_class=l2tp,
        pseudowire_class=PseudowireClassView(
            name=pw.name,
            protocol="none" if pw.signaling == "static" else f"{pw.dialect} {site.l2tp_class.name}",
            local_interface=site.tunnel_interface,
            pmtu=pw.effective_pmtu,
            df_bit=pw.df_bit,
            tos_reflect=pw.tos_reflect,
            sequencing=None if pw.sequencing == "none" else pw.sequencing,
        ),
        interfaces=tuple(sorted(interfaces, key=lambda i: interface_sort_key(i.name))),
        routes=tuple(
            Route(str(net.network_address), str(net.netmask), str(site.wan.gateway))
            for net in site.wan.routes
        ),
        cdp_run=site.cdp,
    )


def render_base(fleet: Fleet, name: str) -> str:
    """The config a router has before l2tpgen: hostname, WAN addressing and routes, bare LAN port.

    What ``l2tpgen sim up`` starts each simulated router with.
    """
    view = build_view(fleet, name)
    physical = tuple(i for i in view.interfaces if i.xconnect is None)
    bare = tuple(
        Interface(name=i.name, ip_address=i.ip_address, duplex=i.duplex, speed=i.speed)
        for i in physical
    )
    base = IosView(
        site=view.site,
        hostname=view.hostname,
        l2tp_class=None,
        pseudowire_class=view.pseudowire_class,
        interfaces=bare,
        routes=view.routes,
        cdp_run=True,
    )
    return environment().get_template("ios/base.j2").render(view=base)


def render_ios(
    fleet: Fleet,
    name: str,
    *,
    reveal_secrets: bool = False,
    environ: Mapping[str, str] | None = None,
) -> str:
    """The IOS configuration of one site."""
    view = build_view(fleet, name, reveal_secrets=reveal_secrets, environ=environ)
    return environment().get_template("ios/site.j2").render(view=view)
