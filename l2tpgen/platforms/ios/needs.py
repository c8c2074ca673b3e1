"""What a Cisco site's rendering reads: its classes' secrets, IPsec master keys, cookie keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.reads import class_reads, cookie_reads, ipsec_reads
from l2tpgen.platforms.ios.traits import TRAITS

if TYPE_CHECKING:
    from l2tpgen.model import Fleet
    from l2tpgen.model.reads import Reads, SiteReads


def ios_reads(fleet: Fleet, name: str) -> Reads:
    """``render.py``'s placeholders: ``class_views``, ``crypto_view`` and ``_cookie``'s."""
    site, pseudowires = fleet.site(name), fleet.pseudowires(name)
    found: Reads = {}
    class_reads(site, pseudowires, found)
    ipsec_reads(pseudowires, found)
    cookie_reads(pseudowires, found)
    return found


NEEDS: dict[str, SiteReads] = {traits.name: ios_reads for traits in TRAITS}
