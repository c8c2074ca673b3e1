"""What a VLAN carries (``vlans[].carries``): the names the model, the lab and host advice share.

A module of its own so the model and the CLI read the names without importing host advice.

``vlans[].corosync_transport`` says which Corosync transport a ``cluster-heartbeat`` VLAN's
cluster runs: ``knet`` (Corosync 3's default, unicast, finds the path MTU itself), ``udpu``
(unicast) or ``udp`` (multicast), the two legacy transports (corosync.conf(5), ``transport``).
Not stated: ``knet``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, get_args

if TYPE_CHECKING:
    from l2tpgen.model import Pseudowire

Workload = Literal["cluster-heartbeat", "live-migration", "storage", "general"]
WORKLOADS: tuple[Workload, ...] = get_args(Workload)

CorosyncTransport = Literal["knet", "udpu", "udp"]
COROSYNC_TRANSPORTS: tuple[CorosyncTransport, ...] = get_args(CorosyncTransport)
DEFAULT_COROSYNC_TRANSPORT: CorosyncTransport = "knet"  # corosync.conf(5): "The default is knet"


def stated_transport(pw: Pseudowire) -> CorosyncTransport | None:
    """The Corosync transport of ``pw``'s VLAN as either end states it (None: neither does)."""
    if pw.vlan.corosync_transport is not None:
        return pw.vlan.corosync_transport
    return pw.mirror.corosync_transport if pw.mirror is not None else None


def corosync_transport(pw: Pseudowire) -> CorosyncTransport:
    """The Corosync transport of ``pw``'s VLAN: as stated at either end, else knet."""
    return stated_transport(pw) or DEFAULT_COROSYNC_TRANSPORT
