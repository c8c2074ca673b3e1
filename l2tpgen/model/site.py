"""Pydantic models of one site: its router, WAN and LAN interfaces, classes, peers, VLANs.

Defaults are the design that measured ~800 Mb/s in the reference case: one dot1Q subinterface and
one xconnect per VLAN, ``ip pmtu`` and ``ip dfbit set`` in the pseudowire-class, hold-queues
2048/2048 on the LAN and WAN interfaces, digest authentication with SHA-1 on the control channel.

Per-field shape is checked here; rules that relate fields or sites are in ``checks.py``.
"""

from __future__ import annotations

import re
from ipaddress import IPv4Address, IPv6Address, ip_address
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from l2tpgen import traits
from l2tpgen.model.addresses import (  # pydantic reads them at run time
    DEFAULT_ROUTES,
    AnyAddress,
    AnyNetwork,
    PrefixedIP,
)
from l2tpgen.model.base import Flag, StrictModel
from l2tpgen.model.interfaces import Ports, data_plane_ports, ports, written_out
from l2tpgen.model.link import Link  # noqa: TC001 - pydantic reads it at run time
from l2tpgen.model.protection import (
    PROTECTION_SECRET_KEYS,
    PathProtection,
    PeerProtection,
    Protection,
    resolve,
)
from l2tpgen.model.secret_names import SecretVar  # noqa: TC001 - pydantic reads it
from l2tpgen.mtu import Encapsulation, OverheadBudget, overhead_budget
from l2tpgen.workloads import CorosyncTransport, Workload  # noqa: TC001 - pydantic reads them

MAX_VC_ID = 2**32 - 1

# Keys people use when they paste a secret into a site file; the loader turns the "extra key"
# error for them into advice to use an environment variable.
LITERAL_SECRET_KEYS = (
    frozenset({"secret", "password", "digest_secret", "key", "psk"}) | PROTECTION_SECRET_KEYS
)


# Names reach router configs, file names (site files, rollback copies), shell commands (iproute2,
# ssh-keyscan hints) and lab scripts: nothing a shell or a parser would interpret gets through.
# Patterns (checked in pydantic's core, fast on thousands of VLANs); the loader words the errors.
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$"
LINUX_NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,14}$"  # IFNAMSIZ: 15 characters
UNSAFE_NAME = "unsafe_name"
NAME_RULES = {
    NAME_PATTERN: (
        "a name is 1-63 letters, digits, `.`, `_` or `-`, starting with a letter or digit"
    ),
    LINUX_NAME_PATTERN: (
        "a Linux interface name is 1-15 letters, digits, `.`, `_` or `-`, starting with a letter "
        "or digit"
    ),
}
_DNS_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,252}")


def _host(value: str) -> str:
    try:
        ip_address(value)
    except ValueError:
        if not _DNS_NAME.fullmatch(value):
            raise PydanticCustomError(
                UNSAFE_NAME, "write an IP address or a DNS name (letters, digits, `.`, `_`, `-`)"
            ) from None
    return value


# As the platform names it: checked and (IOS) written out in full by Site, which knows the platform.
InterfaceName = Annotated[str, Field(min_length=1, max_length=64)]
# IOS names for classes; the same rule serves site names, hostnames and VLAN names.
IosName = Annotated[str, Field(pattern=NAME_PATTERN)]
Duplex = Literal["auto", "full", "half"]
Speed = Literal["auto", 10, 100, 1000, 10000]


if TYPE_CHECKING:
    Platform = str
    DeviceType = str
else:
    # Built from the platform registry: a new driver is a new value (the JSON Schema's enum too).
    Platform = Literal[traits.NAMES]
    DeviceType = Literal[tuple(traits.BY_DEVICE_TYPE)]


class Management(StrictModel):
    """How l2tpgen reaches the router's CLI (used by push; never contacted by render).

    ``device_type`` (netmiko's) left out follows the site's platform.
    """

    host: Annotated[str, AfterValidator(_host)]
    port: int = Field(22, ge=1, le=65535)
    device_type: DeviceType | None = None


class HoldQueue(StrictModel):
    """Input and output hold-queue lengths (IOS defaults are 75 in, 40 out).

    Left out of a site file: 2048/2048 on classic IOS (the reference case's process-switching
    fix), IOS's own defaults on IOS-XE, whose forwarding plane does not use these queues.
    """

    in_: int = Field(2048, alias="in", ge=0, le=65535)
    out: int = Field(2048, ge=0, le=65535)


class Loopback(StrictModel):
    """A loopback to use as the tunnel source (``ip local interface``); Cisco recommends one."""

    interface: InterfaceName
    address: PrefixedIP


class Wan(StrictModel):
    """The routed interface towards the other sites.

    The underlay is IPv4 or IPv6 (``address``); gateway, loopback and routes are of the same
    family (``checks.py``). ``routes`` left out is the default route of the WAN's family.
    """

    interface: InterfaceName
    address: PrefixedIP
    gateway: AnyAddress
    mtu: int = Field(1500, ge=576, le=9216)
    hold_queue: HoldQueue | None = None
    loopback: Loopback | None = None
    routes: tuple[AnyNetwork, ...] = (DEFAULT_ROUTES[4],)
    # How the peers' loopbacks are reached: static /32 routes via the gateway (rendered, owned by
    # push), or an IGP that l2tpgen leaves alone.
    peer_routes: Literal["static", "igp"] = "static"
    duplex: Duplex | None = None
    speed: Speed | None = None
    # Whether the path from this WAN to the peers is trusted (a private MPLS VPN, a leased line);
    # unset: trusted when neither the WAN address nor the tunnel address is public.
    trusted: Flag | None = None
    # What the network behind the gateway routes: `internet` (public addresses only) or `private`
    # (it carries your private addresses too: an MPLS VPN, a leased line, a campus). Unset: private
    # when wan.trusted is true or the WAN address is not public, else internet (model/underlay.py).
    underlay: Literal["internet", "private"] | None = None

    @model_validator(mode="after")
    def _default_route_of_the_family(self) -> Wan:
        """An IPv6 WAN whose file states no routes gets ``::/0``, not IPv4's default route."""
        if "routes" not in self.model_fields_set and self.address.version == 6:  # noqa: PLR2004
            object.__setattr__(self, "routes", (DEFAULT_ROUTES[6],))
        return self

    @property
    def ipv6(self) -> bool:
        """Whether the underlay is IPv6 (the WAN address's family)."""
        return self.address.version == 6  # noqa: PLR2004 - the IP version


class PortXconnect(StrictModel):
    """A port-mode xconnect on the LAN trunk itself: one pseudowire carrying every VLAN of the port.

    The "single trunk tunnel" of brownfield routers (``import`` writes it). ``action: keep``:
    rendered, owned, pushed and linted as it stands (L2T001 warns), never migrated; ``migrate``:
    push replaces it with the site's per-VLAN subinterfaces (``model/port_mode.py``).
    """

    peer: IosName
    vc_id: int = Field(ge=1, le=MAX_VC_ID)
    action: Literal["keep", "migrate"] = "keep"

    @property
    def kept(self) -> bool:
        """Whether the port-mode xconnect stays (rendered and owned as it stands)."""
        return self.action == "keep"


class Lan(StrictModel):
    """The trunk port towards the local switch; one dot1Q subinterface per stretched VLAN."""

    interface: InterfaceName
    hold_queue: HoldQueue | None = None
    duplex: Duplex | None = None
    speed: Speed | None = None
    port_xconnect: PortXconnect | None = None


LinuxName = Annotated[str, Field(pattern=LINUX_NAME_PATTERN)]


class LinuxInterfaces(StrictModel):
    """The ports of the Linux node that stands in for a Cisco PE in labs: WAN and LAN trunk.

    A Linux or VyOS site names its interfaces in ``wan.interface`` and ``lan.interface``; it reads
    this block only when those are written as IOS names, the old way (``model/interfaces.py``).
    """

    wan: LinuxName = "eth1"
    lan: LinuxName = "eth2"


class L2tpClass(StrictModel):
    """The control-channel template (``l2tp-class``).

    ``authentication``: ``digest`` (HMAC over every control message, recommended), ``password``
    (the older CHAP-style ``authentication`` + ``password``), or ``none``. ``cookie_size`` [U]:
    ``cookie size 4|8`` for dynamic sessions, whose values each router picks itself (the
    command's existence and default are unconfirmed; left out, nothing is rendered).
    """

    name: IosName = "l2tpgen"
    authentication: Literal["none", "password", "digest"] = "digest"
    hash: Literal["md5", "sha"] | None = None
    hello: int | None = Field(None, ge=0, le=1000)
    secret_env: SecretVar | None = None
    cookie_size: Literal[4, 8] | None = None

    @property
    def effective_hash(self) -> Literal["md5", "sha"]:
        """The digest hash; SHA-1 unless the site says otherwise."""
        return self.hash or "sha"


Signaling = Literal["dynamic", "static"]
Sequencing = Literal["none", "transmit", "receive", "both"]


class PseudowireClass(StrictModel):
    """The data-plane template (``pseudowire-class``).

    ``pmtu`` left out means on for dynamic signaling and off for static (where IOS does not
    support it). ``dialect: l2tpv3ietf`` is unconfirmed on most platforms; keep the default
    unless you know your images speak it.
    """

    name: IosName = "l2tpgen"
    signaling: Signaling = "dynamic"
    dialect: Literal["l2tpv3", "l2tpv3ietf"] = "l2tpv3"
    cookie: Literal[0, 4, 8] | None = None
    pmtu: Flag | None = None
    df_bit: Flag = True
    tos_reflect: Flag = False
    sequencing: Sequencing = "none"
    # Static sessions between two Cisco routers run `l2tp hello <l2tp-class>`: an UP session then
    # means the peer answers. Never towards Linux, whose unmanaged tunnels cannot answer hellos.
    static_hello: Flag = True

    @property
    def effective_pmtu(self) -> bool:
        """Whether ``ip pmtu`` is rendered."""
        return self.signaling == "dynamic" if self.pmtu is None else self.pmtu

    @property
    def effective_cookie(self) -> int:
        """Cookie size in bytes: 4 by default for static sessions, none for dynamic ones."""
        if self.cookie is not None:
            return self.cookie
        return 4 if self.signaling == "static" else 0


class PeerPseudowire(StrictModel):
    """What one peer's pseudowires change from the site's ``pseudowire_class`` (unset: the same).

    A hub can talk dynamic L2TPv3 to its Cisco spokes and static sessions to a Linux spoke.
    """

    signaling: Signaling | None = None
    cookie: Literal[0, 4, 8] | None = None
    sequencing: Sequencing | None = None
    pmtu: Flag | None = None
    df_bit: Flag | None = None
    tos_reflect: Flag | None = None
    static_hello: Flag | None = None


def _peer_entry(value: object) -> object:
    """``peers: [site-b]`` is short for ``peers: [{name: site-b}]``."""
    return {"name": value} if isinstance(value, str) else value


class Peer(StrictModel):
    """A peer site, how this site's pseudowires to it are built where that differs, and the path.

    ``link`` (optional) is the path between the two sites; either end may state it.
    """

    name: IosName
    pseudowire: PeerPseudowire = PeerPseudowire()
    l2tp_class: L2tpClass | None = None
    link: Link | None = None
    protection: PeerProtection | None = None


PeerEntry = Annotated[Peer, BeforeValidator(_peer_entry, json_schema_input_type=str | Peer)]


class Vlan(StrictModel):
    """One stretched VLAN: a dot1Q subinterface of the LAN trunk and its xconnect to one peer.

    The VC ID defaults to the VLAN ID. Both ends must use the same VC ID; a VLAN is paired with
    the peer's VLAN of the same ID. ``carries`` (optional, either end) says what the hosts send
    over it, for ``l2tpgen hosts``, the linter and labs; ``corosync_transport`` (optional, either
    end, with ``carries: cluster-heartbeat``) which Corosync transport its cluster runs.
    """

    id: int = Field(ge=1, le=4094)
    name: IosName
    peer: IosName
    vc_id: int | None = Field(None, ge=1, le=MAX_VC_ID)
    carries: Workload | None = None
    corosync_transport: CorosyncTransport | None = None
    # The trunk's native VLAN: its frames are untagged on the LAN port (model/native_vlan.py).
    native: Flag = False

    @property
    def effective_vc_id(self) -> int:
        """The VC ID on the wire: the given one, else the VLAN ID."""
        return self.vc_id if self.vc_id is not None else self.id


# A lint rule's code, a prefix of codes or its name (``L2T001``, ``L2T1``, ``default-hold-queue``);
# which rules exist is the linter's to say (``l2tpgen.lint.site_ignores``).
RuleRef = Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9-]{0,62}$")]


class SiteLint(StrictModel):
    """How ``l2tpgen lint`` treats this site: rules silenced for it, as ruff's per-file-ignores.

    A silenced finding is counted in lint's summary (``1 silenced``), never dropped unseen.
    """

    ignore: tuple[RuleRef, ...] = ()


def class_suffix(base: PseudowireClass, merged: PseudowireClass, l2tp: str | None) -> str:
    """What ``merged`` changes from ``base``, as a name suffix (empty: nothing).

    Cookie and pmtu count as changed only against what ``base`` would be with ``merged``'s
    signaling (static sessions default to a 4-byte cookie and no pmtu), so the suffix names the
    choices made, and different settings always get different suffixes.
    """
    like = base.model_copy(update={"signaling": merged.signaling})
    parts: list[str] = []
    if merged.signaling != base.signaling:
        parts.append(merged.signaling)
    if merged.dialect != base.dialect:
        parts.append(merged.dialect)
    if merged.effective_cookie != like.effective_cookie:
        parts.append(f"cookie{merged.effective_cookie}")
    if merged.effective_pmtu != like.effective_pmtu:
        parts.append("pmtu" if merged.effective_pmtu else "nopmtu")
    if merged.df_bit != base.df_bit:
        parts.append("df" if merged.df_bit else "nodf")
    if merged.tos_reflect != base.tos_reflect:
        parts.append("tos" if merged.tos_reflect else "notos")
    if merged.sequencing != base.sequencing:
        parts.append(f"seq-{merged.sequencing}")
    if merged.static_hello != base.static_hello:
        parts.append("hello" if merged.static_hello else "nohello")
    if l2tp is not None:
        parts.append(l2tp)
    return "-".join(parts)


def class_name(base: PseudowireClass, merged: PseudowireClass, l2tp: str | None) -> str:
    """The name of the pseudowire-class ``merged`` (a peer's) beside the site's ``base``.

    The site's class name when nothing differs, else that name, ``-`` and ``class_suffix``, cut
    to IOS's 63 characters. The one rule: the model names the classes it renders with it, and
    the importer the classes it expects a config l2tpgen rendered to hold.
    """
    suffix = class_suffix(base, merged, l2tp)
    return f"{base.name}-{suffix}"[:63] if suffix else base.name


class Site(StrictModel):
    """One site: one PE router and the VLANs it stretches to its peers."""

    name: IosName
    hostname: IosName
    platform: Platform | None = None
    management: Management
    wan: Wan
    lan: Lan
    l2tp_class: L2tpClass = L2tpClass()
    pseudowire_class: PseudowireClass = PseudowireClass()
    cdp: Flag = False
    linux: LinuxInterfaces = LinuxInterfaces()
    protection: Protection = Protection()
    peers: tuple[PeerEntry, ...] = ()
    vlans: tuple[Vlan, ...] = ()
    lint: SiteLint = SiteLint()

    @model_validator(mode="after")
    def _interface_names_as_the_platform_writes_them(self) -> Site:
        """IOS names written out in full (``gi0/1``).

        A name the platform refuses is left as it is, for ``interface_checks`` to report at its
        line.
        """
        for field, value in written_out(self).items():
            object.__setattr__(self, field, value)
        return self

    @property
    def kept_port(self) -> PortXconnect | None:
        """The port-mode xconnect the site keeps (``lan.port_xconnect`` with ``action: keep``)."""
        port = self.lan.port_xconnect
        return port if port is not None and port.kept else None

    @property
    def interfaces(self) -> Ports:
        """WAN, LAN trunk and loopback as the PE names them (``model/interfaces.py``)."""
        return ports(self)

    @property
    def data_plane(self) -> Ports:
        """WAN, LAN trunk and loopback on a Linux data plane (a Cisco site's: ``linux:``)."""
        return data_plane_ports(self)

    @property
    def effective_platform(self) -> Platform:
        """The platform: as given, else from ``management.device_type``, else classic IOS."""
        if self.platform is not None:
            return self.platform
        device_type = self.management.device_type
        return traits.BY_DEVICE_TYPE[device_type] if device_type else traits.DEFAULT

    @property
    def driver(self) -> traits.Traits:
        """The platform's traits (``l2tpgen.traits``: what differs between platforms, as data)."""
        return traits.driver(self.effective_platform)

    @property
    def device_type(self) -> DeviceType:
        """The netmiko device type: as given, else the platform's."""
        return self.management.device_type or self.driver.device_type

    def hold_queue(self, side: Literal["lan", "wan"]) -> HoldQueue:
        """The hold-queues of the LAN trunk or the WAN: as given, else the platform's default."""
        given = self.lan.hold_queue if side == "lan" else self.wan.hold_queue
        if given is not None:
            return given
        queue_in, queue_out = self.driver.hold_queue
        return HoldQueue.model_validate({"in": queue_in, "out": queue_out})

    @property
    def peer_names(self) -> tuple[str, ...]:
        """The names of the peers, in file order."""
        return tuple(peer.name for peer in self.peers)

    def peer_entry(self, name: str) -> Peer | None:
        """The ``peers`` entry of ``name``, if this site lists it."""
        return next((peer for peer in self.peers if peer.name == name), None)

    def link_to(self, peer: str) -> Link | None:
        """The link to ``peer`` as this site states it (the peer may state it instead)."""
        entry = self.peer_entry(peer)
        return entry.link if entry else None

    def l2tp_for(self, peer: str) -> L2tpClass:
        """The l2tp-class of the pseudowires to ``peer``: the peer's own, else the site's."""
        entry = self.peer_entry(peer)
        return entry.l2tp_class if entry and entry.l2tp_class else self.l2tp_class

    def pseudowire_for(self, peer: str) -> PseudowireClass:
        """The pseudowire-class of the pseudowires to ``peer``: the site's with the peer's changes.

        Named predictably: the site's class name when nothing differs, else the site's name plus
        what differs, in a fixed order (``ethernet-static``, ``ethernet-cookie8-seq-both``).
        """
        base = self.pseudowire_class
        entry = self.peer_entry(peer)
        changes = entry.pseudowire.model_dump(exclude_none=True) if entry else {}
        merged = base.model_copy(update=changes)
        l2tp = self.l2tp_for(peer)
        own_l2tp = l2tp.name if l2tp is not self.l2tp_class else None
        if not class_suffix(base, merged, own_l2tp):
            return base
        return merged.model_copy(update={"name": class_name(base, merged, own_l2tp)})

    def protection_for(self, peer: Site) -> PathProtection:
        """How the pseudowires to ``peer`` are protected (``protection.resolve``)."""
        return resolve(self, peer)

    @property
    def tunnel_interface(self) -> str:
        """The ``ip local interface``: the loopback if one is given, else the WAN interface."""
        return self.wan.loopback.interface if self.wan.loopback else self.wan.interface

    def data_budget(self, *, dot1q: bool, peer: str | None = None) -> OverheadBudget:
        """The L2TPv3 data-plane overhead budget on this site's WAN.

        IP encapsulation, the cookie and the sublayer (4 bytes when sequencing is on) of the
        pseudowires to ``peer`` (default: the site's class); ``dot1q``: the VLAN tag travels
        inside the pseudowire. No ESP: a pair's protection needs both sites (``Pseudowire.budget``
        has it).
        """
        pw = self.pseudowire_for(peer) if peer is not None else self.pseudowire_class
        return overhead_budget(
            self.wan.mtu,
            Encapsulation.IP,
            pw.effective_cookie,
            sublayer=pw.sequencing != "none",
            dot1q=dot1q,
            ipv6=self.wan.ipv6,
        )

    @property
    def tunnel_address(self) -> IPv4Address | IPv6Address:
        """The address peers put in their ``xconnect`` lines."""
        source = self.wan.loopback.address if self.wan.loopback else self.wan.address
        return source.ip
