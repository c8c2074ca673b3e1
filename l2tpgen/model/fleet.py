"""The fleet: sites together, validated as a whole, and the pseudowires between them.

``load_fleet`` (in ``load.py``) reads a ``sites/`` directory; ``Fleet.build`` validates sites made
in memory. Both raise ``FleetValidationError`` listing every problem found, never just the first.
``load_sites`` reads only some sites and their peers: a fleet that is not ``complete``.
"""

from __future__ import annotations

import difflib
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.errors import FleetValidationError, ModelError, SiteNotFoundError
from l2tpgen.model.checks import check_fleet, check_site
from l2tpgen.model.problems import Problem, listed
from l2tpgen.model.protection import (
    PROTECTING_COOKIE,
    PathProtection,
    cookie_key,
    cookie_placeholder,
    keyed_cookie,
)
from l2tpgen.mtu import Encapsulation, OverheadBudget, overhead_budget

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Mapping
    from ipaddress import IPv4Address, IPv6Address

    from l2tpgen.model.link import Link
    from l2tpgen.model.site import L2tpClass, PseudowireClass, Site, Vlan
    from l2tpgen.workloads import Workload


def site_not_found(name: str, known: Collection[str]) -> SiteNotFoundError:
    """The error for an unknown site name: the known names (a few) and the nearest one."""
    close = difflib.get_close_matches(name, list(known), n=1)
    hint = f"; did you mean {close[0]}?" if close else ""
    return SiteNotFoundError(f"no site named {name} (sites: {listed(known)}){hint}")


@dataclass(frozen=True)
class Pseudowire:
    """One end of a pseudowire as seen from ``site``: the VLAN, the peer and the peer's address.

    ``mirror`` is the peer's entry of the same VLAN (``Fleet.pseudowires`` finds it).
    """

    site: Site
    vlan: Vlan
    peer: Site
    mirror: Vlan | None = None
    # The pair's protection when already resolved (``Fleet.pseudowires`` resolves it once per
    # peer: thousands of VLANs to one peer share it).
    resolved: PathProtection | None = field(default=None, compare=False, repr=False)

    @property
    def link(self) -> Link | None:
        """The path between the two sites, as either end states it (validation makes them agree)."""
        return self.site.link_to(self.peer.name) or self.peer.link_to(self.site.name)

    @property
    def stated_carries(self) -> Workload | None:
        """What the VLAN carries as either end states it (validation makes them agree)."""
        if self.vlan.carries is not None:
            return self.vlan.carries
        return self.mirror.carries if self.mirror is not None else None

    @property
    def carries(self) -> Workload:
        """What the VLAN carries: as stated, else ``general``."""
        return self.stated_carries or "general"

    @property
    def vc_id(self) -> int:
        """The VC ID both ends use."""
        return self.vlan.effective_vc_id

    @property
    def peer_address(self) -> IPv4Address | IPv6Address:
        """The peer's ``ip local interface`` address, taken from the peer's own file."""
        return self.peer.tunnel_address

    @property
    def settings(self) -> PseudowireClass:
        """The pseudowire-class this end uses towards the peer (the site's, or the peer's own)."""
        return self.site.pseudowire_for(self.peer.name)

    @property
    def l2tp_class(self) -> L2tpClass:
        """The l2tp-class of this pseudowire's control channel (or its hellos)."""
        return self.site.l2tp_for(self.peer.name)

    @property
    def static(self) -> bool:
        """Manual sessions (no control channel)."""
        return self.settings.signaling == "static"

    @property
    def hello(self) -> bool:
        """A static session between two Cisco routers runs `l2tp hello` (unless turned off)."""
        return (
            self.static
            and self.settings.static_hello
            and self.site.driver.static_hello_capable
            and self.peer.driver.static_hello_capable
        )

    @property
    def protection(self) -> PathProtection:
        """How this pseudowire is protected on the WAN (``Site.protection_for``)."""
        if self.resolved is not None:
            return self.resolved
        return self.site.protection_for(self.peer)

    @property
    def cookie_size(self) -> int:
        """Cookie bytes on the wire: the class's; with mode cookie 8, unless the class says 4.

        Dynamic sessions: the larger of the two ends' l2tp-class ``cookie_size`` [U] (each end
        picks the cookie it receives), else none.
        """
        if not self.static:
            sizes = (self.l2tp_class.cookie_size, self.peer.l2tp_for(self.site.name).cookie_size)
            return max((s for s in sizes if s), default=0)
        if self.protection.mode == "cookie":
            return self.settings.cookie or PROTECTING_COOKIE
        return self.settings.effective_cookie

    @property
    def keyed_cookies(self) -> bool:
        """Whether the cookies are secret, derived from the key in ``cookie_key_env``.

        True for any protected pseudowire with cookies; an unprotected one keeps the legacy
        derivation (``derive_cookie``), whose values are public (they only catch misdelivery).
        """
        return self.static and self.cookie_size > 0 and self.protection.keyed_cookies

    @property
    def dot1q_carried(self) -> bool:
        """Whether the 802.1Q tag travels inside this pseudowire.

        A Cisco dot1Q subinterface bound to an xconnect forwards the VLAN frame in its entirety
        (Cisco's L2TPv3 feature guide, IOS 12.0(29)S/12.2(25)S p.22, the brief's S1), so when
        either end is Cisco the tag is carried and a Linux end tags and untags inside the
        session. Linux to Linux, each end's LAN VLAN device removes the tag: none is carried.
        """
        return (
            self.site.driver.frames_dot1q_subinterface or self.peer.driver.frames_dot1q_subinterface
        )

    @property
    def budget(self) -> OverheadBudget:
        """The data-plane budget both ends of this pseudowire share.

        The smaller WAN MTU, the outer IP header of the underlay's family (IPv4 20, IPv6 40:
        validation makes both ends one family), the pair's cookie and sublayer (4 bytes with
        sequencing), ESP when
        IPsec protects the pseudowire (computed from its mode and transform), and the dot1Q tag
        exactly when it is carried (``dot1q_carried``): the Cisco and the Linux end of one
        pseudowire get the same MTU.
        """
        return overhead_budget(
            min(self.site.wan.mtu, self.peer.wan.mtu),
            Encapsulation.IP,
            self.cookie_size,
            sublayer=self.settings.sequencing != "none",
            dot1q=self.dot1q_carried,
            esp=self.protection.esp,
            ipv6=self.site.wan.ipv6,
        )

    @property
    def session_ids(self) -> tuple[int, int]:
        """(local, remote) static session IDs: both are the VC ID, so the ends mirror."""
        return (self.vc_id, self.vc_id)

    @property
    def cookie_local(self) -> tuple[int, ...]:
        """The cookie this end expects to receive: 32-bit words, empty for none.

        Only for unkeyed cookies; keyed ones need the key: ``cookies(environ)`` or, masked,
        ``cookie_placeholders()``.
        """
        self._unkeyed()
        return derive_cookie(self.site.name, self.vc_id, self.cookie_size)

    @property
    def cookie_remote(self) -> tuple[int, ...]:
        """The cookie this end sends: the peer's local cookie (unkeyed cookies only)."""
        self._unkeyed()
        return derive_cookie(self.peer.name, self.vc_id, self.cookie_size)

    def _unkeyed(self) -> None:
        if self.keyed_cookies:
            raise ModelError(
                f"{self.site.name}: the cookies of VC {self.vc_id} to {self.peer.name} are keyed; "
                "use Pseudowire.cookies(environ) or cookie_placeholders()"
            )

    def cookies(self, environ: Mapping[str, str] | None = None) -> tuple[tuple[int, ...], ...]:
        """(local, remote) cookie words: what this end expects and what it sends; empty for none.

        Keyed cookies read the key from the environment (``protection.cookie_key_env``).

        Raises:
            SecretError: the key's variable is unset or empty.
        """
        if not self.keyed_cookies:
            return self.cookie_local, self.cookie_remote
        key = cookie_key(self.protection.cookie_key_env, environ)
        pair = (self.site.name, self.peer.name)
        return (
            keyed_cookie(key, pair, self.vc_id, self.site.name, self.cookie_size),
            keyed_cookie(key, pair, self.vc_id, self.peer.name, self.cookie_size),
        )

    def cookie_placeholders(self) -> tuple[str, str]:
        """(local, remote) masked keyed cookies, for ``reveal_cookies`` to fill in later."""
        variable, pair = self.protection.cookie_key_env, (self.site.name, self.peer.name)
        return (
            cookie_placeholder(variable, pair, self.vc_id, self.site.name, self.cookie_size),
            cookie_placeholder(variable, pair, self.vc_id, self.peer.name, self.cookie_size),
        )


def _bare(site: Site) -> object:
    """The site's management without a device type (it follows the platform)."""
    return site.management.model_copy(update={"device_type": None})


def derive_cookie(receiver: str, vc_id: int, size: int) -> tuple[int, ...]:
    """The static cookie a site expects on VC ``vc_id``: ``size`` bytes as 32-bit words.

    Rule: word i is CRC-32 of ``"l2tpgen:<receiving site>:<vc id>:<i>"`` (never 0), so both ends
    derive the same value from the model and each direction has its own cookie.
    """
    return tuple(
        zlib.crc32(f"l2tpgen:{receiver}:{vc_id}:{i}".encode()) or 1 for i in range(size // 4)
    )


@dataclass(frozen=True)
class Fleet:
    """Validated sites by name, and the file each came from (for messages).

    ``complete`` is false when only some sites were loaded (``load_sites``): then ``sites`` holds
    the sites asked for and their peers, ``files`` still names every site file.
    """

    sites: Mapping[str, Site]
    files: Mapping[str, str]
    complete: bool = True

    @classmethod
    def build(cls, sites: Iterable[Site], files: Mapping[str, str] | None = None) -> Fleet:
        """Validate sites made in memory; raise ``FleetValidationError`` with every problem."""
        by_name: dict[str, Site] = {}
        problems: list[Problem] = []
        for site in sites:
            if site.name in by_name:
                problems.append(
                    Problem(site.name, ("name",), f"two sites are named {site.name}", "rename one")
                )
                continue
            by_name[site.name] = site
            problems.extend(check_site(site))
        names = {name: name for name in by_name} | dict(files or {})
        problems.extend(check_fleet(by_name, names))
        if problems:
            raise FleetValidationError(sorted(problems, key=Problem.sort_key))
        return cls(dict(sorted(by_name.items())), names)

    def site(self, name: str) -> Site:
        """The site called ``name``; the error suggests near names."""
        try:
            return self.sites[name]
        except KeyError:
            if not self.complete and name in self.files:
                raise SiteNotFoundError(
                    f"site {name} was not loaded: this fleet holds only the sites asked for and "
                    "their peers"
                ) from None
            raise site_not_found(name, self.sites if self.complete else self.files) from None

    def pseudowires(self, name: str) -> tuple[Pseudowire, ...]:
        """The pseudowires of one site, in VLAN order."""
        site = self.site(name)
        missing = sorted({v.peer for v in site.vlans} - set(self.sites))
        if missing:
            raise ModelError(
                f"{name}'s peer {missing[0]} was not loaded: this fleet holds only the sites "
                f"asked for and their peers, and {name} is only a peer"
            )
        mirrors: dict[str, dict[int, Vlan]] = {}
        for peer in {v.peer for v in site.vlans}:
            found = mirrors[peer] = {}
            for vlan in self.sites[peer].vlans:
                if vlan.peer == name:
                    found.setdefault(vlan.id, vlan)
        protection = {peer: site.protection_for(self.sites[peer]) for peer in mirrors}
        return tuple(
            Pseudowire(
                site,
                vlan,
                self.sites[vlan.peer],
                mirrors[vlan.peer].get(vlan.id),
                protection[vlan.peer],
            )
            for vlan in sorted(site.vlans, key=lambda v: v.id)
        )

    def pairs(self) -> tuple[tuple[str, str, int, PathProtection], ...]:
        """Each pair of sites with pseudowires between them, sorted: (a, b, count, protection).

        The protection is ``a``'s view (validation makes both ends agree).
        """
        found: dict[tuple[str, str], int] = {}
        for name, site in self.sites.items():
            for vlan in site.vlans:
                if name < vlan.peer and vlan.peer in self.sites:
                    found[(name, vlan.peer)] = found.get((name, vlan.peer), 0) + 1
        return tuple(
            (a, b, count, self.sites[a].protection_for(self.sites[b]))
            for (a, b), count in sorted(found.items())
        )

    def on_platform(self, platform: str, names: Collection[str] | None = None) -> Fleet:
        """The same fleet with ``names`` (default: every site) run on ``platform``.

        A lab runs every PE on Linux whatever the model says: their pseudowires are then Linux to
        Linux (no dot1Q tag carried, no hellos). Not validated again: only the platform changes.
        """
        chosen = set(self.sites) if names is None else set(names)
        sites = {
            name: site.model_copy(update={"platform": platform, "management": _bare(site)})
            if name in chosen
            else site
            for name, site in self.sites.items()
        }
        return Fleet(sites, self.files, self.complete)

    def around(self, names: Collection[str]) -> Fleet:
        """The sites ``names`` and their peers, as far as the pseudowires between them.

        The named sites keep every VLAN; a peer keeps only its VLANs towards sites of this view,
        so that both ends of every pseudowire of ``names`` can be rendered and compared without
        the rest of the fleet.
        """
        wanted = {self.site(name).name for name in names}
        view = wanted | {v.peer for name in wanted for v in self.sites[name].vlans}
        sites = {}
        for name in sorted(view & set(self.sites)):
            site = self.sites[name]
            if name not in wanted:
                vlans = tuple(v for v in site.vlans if v.peer in view)
                peers = tuple(p for p in site.peers if p.name in view)
                site = site.model_copy(update={"vlans": vlans, "peers": peers})
            sites[name] = site
        return Fleet(sites, self.files, complete=False)
