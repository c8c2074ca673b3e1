"""What a site's platform cannot express, per peer: cookies, IPsec, the inbound filter, a sublayer.

Each driver says what its rendering expresses (``l2tpgen.traits.Traits``); a pseudowire that
needs more is refused at validate time, naming the platform, rather than rendered without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.problems import Problem
from l2tpgen.model.pseudowire import Pseudowire

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from l2tpgen.model.site import Site


def check_platform_paths(site: Site, sites: Mapping[str, Site]) -> Iterator[Problem]:
    """Each peer's pseudowires as the site's platform can render them."""
    driver = site.driver
    title = driver.short_title or driver.title
    for index, peer_name in enumerate(site.peer_names):
        peer = sites.get(peer_name)
        vlan = next((v for v in site.vlans if v.peer == peer_name), None)
        if peer is None or peer is site or vlan is None:
            continue
        pw = Pseudowire(site, vlan, peer)
        where = ("peers", index)
        if pw.cookie_size and not driver.cookies:
            yield Problem(
                site.name,
                where,
                f"{title} has no L2TPv3 cookies, but the pseudowires to {peer_name} carry "
                f"{pw.cookie_size}-byte cookies"
                + (" (protection mode cookie)" if pw.protection.mode == "cookie" else ""),
                f"set `pseudowire_class: {{cookie: 0}}` here and at {peer_name}, and protect the "
                "path with IPsec (or state it trusted)",
                code="V054",
            )
        if pw.protection.ipsec and not driver.ipsec:
            yield Problem(
                site.name,
                where,
                f"l2tpgen renders no IPsec for {title}, but the pseudowires to {peer_name} are "
                "protected by IPsec",
                "state the path trusted (`wan: {trusted: true}` at both ends) if it is private, "
                "or run this PE on a platform l2tpgen renders IPsec for",
                code="V055",
            )
        elif pw.protection.inbound_filter and not driver.inbound_filter:
            closed = (
                " nor the xfrm blocks that keep a Linux PE closed while its IKE daemon is down"
                if driver.kernel_sessions and not driver.fail_closed
                else ""
            )
            yield Problem(
                site.name,
                where,
                f"l2tpgen renders no inbound WAN filter for {title}{closed}, but the protection "
                f"of the pseudowires to {peer_name} asks for one",
                "set `protection: {inbound_filter: false}` here and filter the WAN yourself",
                code="V056",
            )
        if driver.sublayer and not pw.budget.sublayer:
            yield Problem(
                site.name,
                where,
                f"{title}'s sessions always carry the 4-byte L2-specific sublayer, but the "
                f"pseudowires to {peer_name} have sequencing none, so the peer expects none",
                "set `pseudowire_class: {sequencing: transmit}` at both ends: the peer then sends "
                "and expects the sublayer too (unconfirmed [U])",
                code="V057",
            )
