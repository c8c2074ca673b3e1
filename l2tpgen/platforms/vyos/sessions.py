"""What a VyOS static session cannot express: the renderer refuses it, and so does ``needs.py``.

Apart from ``render.py`` (and its templates) so that what a VyOS site's rendering reads
(``needs.py``) is told without Jinja, with the same refusals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.errors import RenderError

if TYPE_CHECKING:
    from l2tpgen.model import Pseudowire

# interfaces_l2tpv3.xml.in: tunnel-id, peer-tunnel-id, session-id and peer-session-id take
# `u32:1-429496729` (sic).
MAX_ID = 429_496_729


def _refusal(pw: Pseudowire) -> str | None:
    """What VyOS cannot express of this pseudowire (a site validated as VyOS has none of it).

    ``render --platform vyos`` of another platform's site reaches here unvalidated for VyOS.
    """
    if not pw.static:
        return "VyOS speaks only static sessions; set `signaling: static` at both ends"
    if pw.cookie_size:
        return f"VyOS has no L2TPv3 cookies ({pw.cookie_size}-byte here); set `cookie: 0`"
    if pw.protection.inbound_filter:
        return "l2tpgen renders no inbound WAN filter for VyOS; set `inbound_filter: false`"
    if pw.protection.ipsec and pw.protection.ipsec_mode != "transport":
        return "l2tpgen renders VyOS IPsec in transport mode only; set `ipsec_mode: transport`"
    if not pw.budget.sublayer:
        return "VyOS's sessions carry the L2-specific sublayer; set `sequencing: transmit`"
    return None


def check_session(pw: Pseudowire) -> None:
    """Refuse a pseudowire VyOS cannot express, or whose session IDs it does not take.

    Raises:
        RenderError: what VyOS cannot express, and how to change it.
    """
    refusal = _refusal(pw)
    if refusal is not None:
        raise RenderError(f"{pw.site.name}, VLAN {pw.vlan.id} to {pw.peer.name}: {refusal}")
    local, remote = pw.session_ids
    if max(local, remote) > MAX_ID:
        raise RenderError(
            f"{pw.site.name}: VyOS takes session IDs up to {MAX_ID}, not {max(local, remote)} "
            f"(VLAN {pw.vlan.id}); set a smaller `vc_id` at both ends"
        )
