"""Host tuning for the hosts on stretched VLANs.

MTU/MSS, TCP buffers from the bandwidth-delay product, congestion control, heartbeat buffers,
Corosync and hypervisor notes. Pure functions and frozen values; the ``hosts`` command and the
model's fields build on them.
"""

from l2tpgen.hosts.advice import (
    WORKLOADS,
    Advice,
    HostAdvice,
    Workload,
    needs_bbr,
    recommend,
    tcp_buffer_max,
)
from l2tpgen.hosts.path import HostsInputError, NetworkPath
from l2tpgen.hosts.sites import VlanHosts, network_path, site_advice, site_sysctl
from l2tpgen.hosts.sysctl import merged_sysctls, render_sysctl

__all__ = [
    "WORKLOADS",
    "Advice",
    "HostAdvice",
    "HostsInputError",
    "NetworkPath",
    "VlanHosts",
    "Workload",
    "merged_sysctls",
    "needs_bbr",
    "network_path",
    "recommend",
    "render_sysctl",
    "site_advice",
    "site_sysctl",
    "tcp_buffer_max",
]
