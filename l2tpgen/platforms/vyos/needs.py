"""What a VyOS site's rendering reads: IPsec master keys (VyOS renders no cookie, no l2tp-class)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.reads import ipsec_reads
from l2tpgen.platforms.vyos.sessions import check_session
from l2tpgen.platforms.vyos.traits import VYOS

if TYPE_CHECKING:
    from l2tpgen.model import Fleet
    from l2tpgen.model.reads import Reads, SiteReads


def vyos_reads(fleet: Fleet, name: str) -> Reads:
    """``render.py``'s placeholders (``ipsec_peers``), after its refusals (``check_session``).

    Raises:
        RenderError: a pseudowire VyOS cannot express (the renderer refuses the site).
    """
    pseudowires = fleet.pseudowires(name)
    for pw in pseudowires:
        check_session(pw)
    found: Reads = {}
    ipsec_reads(pseudowires, found)
    return found


NEEDS: dict[str, SiteReads] = {VYOS.name: vyos_reads}
