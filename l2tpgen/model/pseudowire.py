"""A pseudowire as one end sees it: its VLAN, its peer, its settings, cookies and budget.

Built by the fleet (``Fleet.pseudowires``) and by the checks the fleet runs, which therefore import
it from here rather than from ``fleet.py``.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.errors import ModelError
from l2tpgen.model.protection import (
    PROTECTING_COOKIE,
    PathProtection,
    cookie_key,
    cookie_placeholder,
    keyed_cookie,
)
from l2tpgen.mtu import Encapsulation, OverheadBudget, overhead_budget

if TYPE_CHECKING:
    from collections.abc import Mapping
    from ipaddress import IPv4Address, IPv6Address

    from l2tpgen.model.link import Link
    from l2tpgen.model.site import L2tpClass, PseudowireClass, Site, Vlan
    from l2tpgen.workloads import Workload


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


def derive_cookie(receiver: str, vc_id: int, size: int) -> tuple[int, ...]:
    """The static cookie a site expects on VC ``vc_id``: ``size`` bytes as 32-bit words.

    Rule: word i is CRC-32 of ``"l2tpgen:<receiving site>:<vc id>:<i>"`` (never 0), so both ends
    derive the same value from the model and each direction has its own cookie.
    """
    return tuple(
        zlib.crc32(f"l2tpgen:{receiver}:{vc_id}:{i}".encode()) or 1 for i in range(size // 4)
    )
