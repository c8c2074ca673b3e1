"""Host tuning for the hosts on stretched VLANs.

MTU/MSS, TCP buffers from the bandwidth-delay product, congestion control, Corosync advice by
its transport, hypervisor notes, and what makes each setting take effect. Pure functions and
frozen values; the ``hosts`` command and the model's fields build on them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from l2tpgen.hosts.advice import (
        COROSYNC_TRANSPORTS,
        WORKLOADS,
        Advice,
        CorosyncTransport,
        HostAdvice,
        Workload,
        needs_bbr,
        recommend,
        tcp_buffer_max,
    )
    from l2tpgen.hosts.path import HostsInputError, NetworkPath
    from l2tpgen.hosts.sites import (
        PortHosts,
        VlanHosts,
        network_path,
        port_advice,
        site_advice,
        site_sysctl,
    )
    from l2tpgen.hosts.sysctl import merged_sysctls, render_sysctl

__all__ = [
    "COROSYNC_TRANSPORTS",
    "WORKLOADS",
    "Advice",
    "CorosyncTransport",
    "HostAdvice",
    "HostsInputError",
    "NetworkPath",
    "PortHosts",
    "VlanHosts",
    "Workload",
    "merged_sysctls",
    "needs_bbr",
    "network_path",
    "port_advice",
    "recommend",
    "render_sysctl",
    "site_advice",
    "site_sysctl",
    "tcp_buffer_max",
]

_WHERE = {
    "COROSYNC_TRANSPORTS": "l2tpgen.hosts.advice",
    "CorosyncTransport": "l2tpgen.hosts.advice",
    "WORKLOADS": "l2tpgen.hosts.advice",
    "Advice": "l2tpgen.hosts.advice",
    "HostAdvice": "l2tpgen.hosts.advice",
    "Workload": "l2tpgen.hosts.advice",
    "needs_bbr": "l2tpgen.hosts.advice",
    "recommend": "l2tpgen.hosts.advice",
    "tcp_buffer_max": "l2tpgen.hosts.advice",
    "HostsInputError": "l2tpgen.hosts.path",
    "NetworkPath": "l2tpgen.hosts.path",
    "PortHosts": "l2tpgen.hosts.sites",
    "VlanHosts": "l2tpgen.hosts.sites",
    "port_advice": "l2tpgen.hosts.sites",
    "network_path": "l2tpgen.hosts.sites",
    "site_advice": "l2tpgen.hosts.sites",
    "site_sysctl": "l2tpgen.hosts.sites",
    "merged_sysctls": "l2tpgen.hosts.sysctl",
    "render_sysctl": "l2tpgen.hosts.sysctl",
}


def __getattr__(name: str) -> object:
    """Import a name's module on first use: the model and the linter need one helper, not all."""
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_WHERE[name]), name)
