"""What a Linux site's rendering reads: IPsec master keys (swanctl), cookie keys (iproute2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.reads import cookie_reads, ipsec_reads
from l2tpgen.platforms.linux.traits import LINUX

if TYPE_CHECKING:
    from l2tpgen.model import Fleet
    from l2tpgen.model.reads import Reads, SiteReads


def linux_reads(fleet: Fleet, name: str) -> Reads:
    """``driver.py``'s first format: ``render_linux``'s cookies, ``render_swanctl``'s keys."""
    pseudowires = fleet.pseudowires(name)
    found: Reads = {}
    cookie_reads(pseudowires, found)
    ipsec_reads(pseudowires, found)
    return found


NEEDS: dict[str, SiteReads] = {LINUX.name: linux_reads}
