"""Host advice for a VLAN that carries Corosync's heartbeats, by the transport the cluster runs.

What the transports need, from Corosync's and kronosnet's own sources (corosync.conf(5) and the C
code that the figures below come from):

* **knet** (Corosync 3's default): unicast. Its PMTUd sends probes with DF set and keeps the
  largest size the other node acknowledges, again every ``knet_pmtud_interval`` (30 s); it does
  not need ICMP from the path (``IP_PMTUDISC_PROBE``). ``netmtu`` is not the wire MTU for knet
  (65536 by default there); ``knet_mtu`` pins the MTU where discovery must not run. Each knet
  socket asks for 8 MiB buffers and, capped by ``rmem_max``, forces them (``SO_RCVBUFFORCE``:
  Corosync opens its knet handle privileged): no sysctl helps or is needed.
* **udpu** (unicast) and **udp** (multicast), the legacy transports: packets up to
  ``totem.netmtu`` (1500 by default); sockets sized with plain ``setsockopt(SO_RCVBUF)``, which
  the kernel caps at ``rmem_max``. udp's multicast group needs an IGMP querier where switches
  snoop, and ESXi's splitRx mode (vmxnet3 only) for many receivers on one host.

``net.core.rmem_default`` is never advised: it sizes every socket on the host that does not size
itself, and Corosync's sockets all size themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.hosts.items import Advice
from l2tpgen.hosts.path import power_of_two_mib, size
from l2tpgen.workloads import DEFAULT_COROSYNC_TRANSPORT

if TYPE_CHECKING:
    from l2tpgen.hosts.path import NetworkPath
    from l2tpgen.workloads import CorosyncTransport

# kronosnet libknet/internals.h: KNET_RING_RCVBUFF, for SO_RCVBUF and SO_SNDBUF alike.
KNET_SOCKET_BUFFER = 8_388_608
# Corosync include/corosync/totem/totem.h: TRANSMITS_ALLOWED 16; FRAME_SIZE_MAX 65536 (libknet's
# KNET_MAX_PACKET_SIZE); UDP_RECEIVE_FRAME_SIZE_MAX = PROCESSOR_COUNT_MAX 384 x (INTERFACE_MAX 8
# x 2 x sizeof(struct totem_ip_address), 22 packed bytes) + 1024 = 136 192 bytes.
TRANSMITS_ALLOWED = 16
UDP_FRAME_SIZE_MAX = 65_536
UDPU_FRAME_SIZE_MAX = 384 * (8 * 2 * 22) + 1024
# exec/totemudp.c and exec/totemudpu.c: MCAST_SOCKET_BUFFER_SIZE, what each asks setsockopt for.
SOCKET_REQUEST: dict[str, int] = {
    "udp": TRANSMITS_ALLOWED * UDP_FRAME_SIZE_MAX,  # 1 048 576
    "udpu": TRANSMITS_ALLOWED * UDPU_FRAME_SIZE_MAX,  # 2 179 072
}
LINUX_RMEM_MAX = 212_992  # net.core.rmem_max / wmem_max's default: 208 KiB

COROSYNC_RESTART = (
    "restart corosync on every node, one at a time (systemctl restart corosync): "
    "totem.netmtu cannot change at run time, corosync-cfgtool -R leaves it"
)
SOCKETS_RESTART = (
    "sysctl -p, then restart corosync (one node at a time): it sizes its sockets when it opens "
    "them, and the cap applies then"
)


def _transport_item(transport: CorosyncTransport, *, stated: bool) -> Advice:
    what = {
        "knet": "unicast; knet finds each link's MTU itself (PMTUd) and sizes its own sockets: "
        "no multicast, no netmtu, no buffer sysctl",
        "udpu": "unicast; Corosync sends packets up to totem.netmtu (1500 by default) whatever "
        "the path, and asks for socket buffers the kernel caps at rmem_max",
        "udp": "multicast; packets up to totem.netmtu (1500 by default) whatever the path, a "
        "multicast group that snooping switches must keep, buffers capped at rmem_max",
    }[transport]
    basis = ["corosync.conf(5), transport: the default is knet; udpu and udp are deprecated"]
    if not stated:
        basis.append(
            "not stated in either site file: knet assumed; a cluster on a legacy transport "
            "states `corosync_transport: udpu` (or udp) on the VLAN"
        )
    return Advice(
        "application",
        "corosync transport",
        transport if stated else f"{transport} (not stated: Corosync 3's default)",
        what,
        tuple(basis),
        "changing it: stop the whole cluster, change corosync.conf on every node, start it "
        "(totem.transport cannot change at run time)",
    )


def _knet_items(inner_mtu: int) -> list[Advice]:
    return [
        Advice(
            "application",
            "corosync totem.knet_mtu",
            f"0 (automatic); {inner_mtu} only where the host MTU stays above {inner_mtu}",
            "knet's PMTUd probes each link with DF set and keeps the largest size the other node "
            "acknowledges, so it needs no ICMP from the path and no netmtu. It starts from the "
            "interface's MTU: above the inner MTU those probes are dropped without an ICMP error, "
            "knet logs 'possible MTU misconfiguration detected' and searches down. With the host "
            f"MTU at {inner_mtu} nothing is needed; knet_mtu pins the interface MTU knet assumes "
            "(it subtracts its own headers) where the hosts keep a larger one",
            (
                "corosync.conf(5): knet_pmtud_interval, default 30 s; knet_mtu, 0 = automatic",
                "kronosnet libknet/threads_pmtud.c: probes the other node acknowledges",
                "kronosnet libknet/transport_common.c: IP_PMTUDISC_PROBE (DF set, no ICMP needed)",
                f"inner MTU = {inner_mtu} B",
            ),
            "corosync-cfgtool -R on one node reloads corosync.conf everywhere: knet_mtu and "
            "knet_pmtud_interval change at run time",
        ),
        Advice(
            "application",
            "UDP socket buffers",
            "no sysctl: knet sets its own",
            "knet asks for 8 MiB receive and send buffers on each socket and, where "
            "rmem_max/wmem_max cap them, forces them with SO_RCVBUFFORCE/SO_SNDBUFFORCE "
            "(Corosync opens its knet handle privileged). net.core.rmem_default would change "
            "every socket on the host and knet's not at all",
            (
                f"kronosnet libknet/transport_common.c: KNET_RING_RCVBUFF = "
                f"{KNET_SOCKET_BUFFER:,} B".replace(",", " "),
                "corosync exec/totemknet.c: knet_handle_new(..., KNET_HANDLE_FLAG_PRIVILEGED)",
                "socket(7): SO_RCVBUFFORCE lets a CAP_NET_ADMIN process override rmem_max",
            ),
            "nothing to apply",
        ),
    ]


def _legacy_items(transport: CorosyncTransport, inner_mtu: int) -> list[Advice]:
    request = SOCKET_REQUEST[transport]
    cap = power_of_two_mib(request)
    source = "exec/totemudp.c" if transport == "udp" else "exec/totemudpu.c"
    frame = UDP_FRAME_SIZE_MAX if transport == "udp" else UDPU_FRAME_SIZE_MAX
    basis = (
        f"corosync {source}: MCAST_SOCKET_BUFFER_SIZE = {TRANSMITS_ALLOWED} x {frame:,} B = "
        f"{request:,} B per socket".replace(",", " "),
        f"socket(7): SO_RCVBUF / SO_SNDBUF capped at rmem_max / wmem_max ({size(LINUX_RMEM_MAX)})",
        f"rounded up to a power of two MiB = {size(cap)}",
    )
    reason = (
        f"Corosync's {transport} transport asks for {size(request)} per socket with setsockopt; "
        "the kernel caps that at this maximum. rmem_default stays: it only sizes sockets that "
        "do not ask, every one on the host"
    )
    return [
        Advice(
            "application",
            "corosync totem.netmtu",
            str(inner_mtu),
            f"the {transport} transport sizes its packets to netmtu (default 1500): larger than "
            "the inner MTU they are fragmented or dropped on the pseudowire",
            (
                "corosync.conf(5): netmtu, default 1500 for UDPU (and UDP)",
                f"inner MTU = {inner_mtu} B",
            ),
            COROSYNC_RESTART,
        ),
        Advice("sysctl", "net.core.rmem_max", str(cap), reason, basis, SOCKETS_RESTART),
        Advice("sysctl", "net.core.wmem_max", str(cap), reason, basis, SOCKETS_RESTART),
    ]


def _rings() -> Advice:
    return Advice(
        "hypervisor",
        "vmxnet3 receive rings",
        "ethtool -G <if> rx 4096 (Windows: Rx Ring #1 Size 4096, Small Rx Buffers 8192)",
        "small default rings drop bursts before the socket sees them (vmxnet3 NICs; other NICs "
        "have their own maxima, ethtool -g shows them)",
        ("vmxnet3 maximum ring size = 4096",),
        "at once, but Linux's vmxnet3 driver resets the NIC to resize its rings (a short "
        "pause: one node at a time); ethtool -G is lost at reboot, so put it in the host's "
        "network configuration too",
    )


def _multicast_items(path: NetworkPath | None) -> list[Advice]:
    return [
        Advice(
            "network",
            "IGMP querier",
            "one per stretched VLAN",
            "the udp transport's heartbeats are multicast: without a querier, snooping switches "
            "stop forwarding the group when their membership entries expire (about 260 s)",
            (f"path {path.describe()}" if path else "whatever the path",),
            "at once (a switch setting); memberships refresh at the next query",
        ),
        Advice(
            "hypervisor",
            "ethernetX.emuRxMode",
            "1",
            "vmxnet3 adapters only (VMware supports splitRx mode on no other): set it for the "
            "vmxnet3 adapter on the heartbeat VLAN (X: its number), not for an E1000. ESXi's "
            "splitRx mode spreads the receive processing of multicast over several physical "
            "CPUs, for several VMs on one host receiving the same group",
            (
                "VMware, SplitRx mode: ethernetX.emuRxMode, for VMXNET3 adapters only",
                "VMware: the change takes effect when the virtual machine is restarted",
            ),
            "VM power cycle: power the VM off and on (a reboot inside the guest does not reread "
            "the .vmx settings)",
        ),
    ]


def heartbeat_items(
    path: NetworkPath | None, inner_mtu: int, transport: CorosyncTransport | None
) -> list[Advice]:
    """What the hosts of a ``cluster-heartbeat`` VLAN need (``transport`` None: not stated)."""
    chosen = transport or DEFAULT_COROSYNC_TRANSPORT
    items = [_transport_item(chosen, stated=transport is not None)]
    if chosen == "knet":
        items += _knet_items(inner_mtu)
    else:
        items += _legacy_items(chosen, inner_mtu)
    items.append(_rings())
    if chosen == "udp":
        items += _multicast_items(path)
    return items
