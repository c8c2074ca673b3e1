"""``vlans[].corosync_transport``: it goes with ``carries: cluster-heartbeat``, and ends agree.

Either end of a pseudowire may state the transport (as ``carries``); said at both, it must be the
same. Said for a VLAN that does not carry ``cluster-heartbeat`` (at either end), it is a mistake:
the host advice would never read it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.problems import Problem

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from l2tpgen.model.site import Site, Vlan


def _mirror(site: Site, vlan: Vlan, sites: Mapping[str, Site]) -> Vlan | None:
    peer = sites.get(vlan.peer)
    if peer is None or vlan.peer == site.name:
        return None
    return next((v for v in peer.vlans if v.id == vlan.id and v.peer == site.name), None)


def check_corosync_transports(
    site: Site, sites: Mapping[str, Site], files: Mapping[str, str]
) -> Iterator[Problem]:
    """Each VLAN of ``site`` that states ``corosync_transport``: heartbeat traffic, ends agree."""
    for index, vlan in enumerate(site.vlans):
        transport = vlan.corosync_transport
        if transport is None:
            continue
        mirror = _mirror(site, vlan, sites)
        carries = vlan.carries or (mirror.carries if mirror is not None else None)
        if carries != "cluster-heartbeat":
            said = "" if vlan.carries or carries is None else f" (as {files[vlan.peer]} says)"
            yield Problem(
                site.name,
                ("vlans", index, "corosync_transport"),
                f"VLAN {vlan.id} states corosync_transport {transport} but carries "
                f"{carries or 'general'}{said}",
                "corosync_transport goes with `carries: cluster-heartbeat` (at either end): add "
                "that, or remove corosync_transport",
                code="V064",
            )
        elif (
            mirror is not None
            and mirror.corosync_transport not in (None, transport)
            and site.name < vlan.peer  # each pair is compared once
        ):
            yield Problem(
                site.name,
                ("vlans", index, "corosync_transport"),
                f"VLAN {vlan.id}'s cluster runs corosync's {transport} transport here but "
                f"{mirror.corosync_transport} in {files[vlan.peer]}",
                "one cluster runs one transport: say it at one end, or the same at both",
                code="V065",
            )
