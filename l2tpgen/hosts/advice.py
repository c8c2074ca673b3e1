"""What the hosts on a stretched VLAN need, with the reason and the numbers behind each item.

Inputs: the path between the sites (``NetworkPath``), the pseudowire's inner MTU (the largest IP
packet that crosses unfragmented, from ``l2tpgen.mtu``) and what the VLAN carries. The rules:

* **MTU and MSS.** Host MTU = inner MTU; TCP MSS = inner MTU - 40. A pseudowire is a bridge: a
  larger frame is dropped, or fragmented after encapsulation, with no ICMP error to the host. For
  TCP, ``tcp_mtu_probing = 1`` finds the working size when a black hole appears anyway.
* **TCP buffers.** ``BDP = bandwidth x RTT / 8``. The largest buffer is ``2 x BDP`` rounded up to
  a power of two MiB: Linux advertises a receive window of only about half to three quarters of
  the buffer (the rest pays for socket overhead), so a buffer of 1 x BDP caps a transfer at that
  fraction of the path (the field report's 64 MiB buffers gave 7+ of 10 Gb/s at 55 ms). Capped at
  1 GiB; never below Linux's defaults (6 MiB receive, 4 MiB send), which short paths keep.
  ``rmem_max`` / ``wmem_max`` follow, for applications that size their sockets themselves.
* **Congestion control.** BBR with the ``fq`` qdisc (pacing) when the path is *lossy*: the Mathis
  bound for a loss-based algorithm (Cubic) at this RTT and loss is below the path's bandwidth, or
  *long*: RTT of 20 ms or more, where Cubic needs seconds to regrow its window after each loss.
* **Heartbeats** (``cluster-heartbeat``): by Corosync's transport (``heartbeat.py``): knet, the
  default, needs neither netmtu nor multicast nor buffer sysctls; udpu and udp need ``netmtu``
  no larger than the inner MTU and ``rmem_max`` / ``wmem_max`` above what Corosync asks for;
  udp also an IGMP querier and ESXi's splitRx mode (vmxnet3 only). ``rmem_default`` never.
* **Live migration:** several streams (multi-NIC or multi-stream vMotion, QEMU ``multifd``).

Without a path (``None``: nobody stated it) the advice keeps what does not depend on it (MTU, MSS,
MTU probing, heartbeat items, hypervisor notes) and says that buffers and congestion control
need the path.

Every item says what makes it take effect (``Advice.takes_effect``): at once, new connections,
a service restart, a VM power cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

from l2tpgen.hosts.heartbeat import heartbeat_items
from l2tpgen.hosts.items import Advice, Kind
from l2tpgen.hosts.path import (
    MIB,
    HostsInputError,
    NetworkPath,
    power_of_two,
    power_of_two_mib,
    rate,
    size,
)
from l2tpgen.mtu import IPV4_TCP_HEADERS, MIN_WAN_MTU
from l2tpgen.workloads import COROSYNC_TRANSPORTS, WORKLOADS, CorosyncTransport, Workload

# re-exported: l2tpgen.hosts gives them to its users
__all__ = ["COROSYNC_TRANSPORTS", "WORKLOADS", "Advice", "CorosyncTransport", "Kind", "Workload"]

# Linux's defaults (net.ipv4.tcp_rmem / tcp_wmem): min, default, max.
TCP_RMEM_DEFAULT = (4096, 131072, 6 * MIB)
TCP_WMEM_DEFAULT = (4096, 16384, 4 * MIB)
SIZED_AT_OPEN = (
    "sockets sized after sysctl -p: an application sizes its sockets when it opens them, so "
    "restart it"
)
BUFFER_HEADROOM = 2
MAX_TCP_BUFFER = 1024 * MIB
LONG_RTT_MS = 20.0
NEW_TCP = "new TCP connections, once applied (sysctl -p)"


@dataclass(frozen=True)
class HostAdvice:
    """Everything recommended for the hosts of one VLAN (``transport``: Corosync's, as stated)."""

    path: NetworkPath | None
    inner_mtu: int
    workload: Workload
    items: tuple[Advice, ...]
    transport: CorosyncTransport | None = None

    @property
    def sysctls(self) -> tuple[tuple[str, str], ...]:
        """The ``sysctl`` settings, in order."""
        return tuple((a.setting, a.value) for a in self.items if a.kind == "sysctl")

    def value(self, setting: str) -> str | None:
        """The recommended value of ``setting``, if any."""
        return next((a.value for a in self.items if a.setting == setting), None)


def tcp_buffer_max(path: NetworkPath) -> int:
    """The largest TCP buffer for ``path``: 2 x BDP up to a power of two MiB, within bounds."""
    wanted = power_of_two_mib(BUFFER_HEADROOM * path.bdp_bytes)
    return min(max(wanted, TCP_RMEM_DEFAULT[2]), MAX_TCP_BUFFER)


def needs_bbr(path: NetworkPath, mss: int) -> tuple[bool, tuple[str, ...]]:
    """Whether BBR and fq are recommended, and the figures that decided it."""
    mathis = path.mathis_bps(mss)
    lossy = mathis < path.bandwidth_bps
    long = path.rtt_ms >= LONG_RTT_MS
    basis = (
        (
            f"Mathis bound for Cubic = MSS {mss} B x 8 / RTT {path.rtt_ms:g} ms x 1.22 / "
            f"sqrt(loss {path.loss:g}) = {rate(mathis)}"
            + (" < " if lossy else " >= ")
            + f"bandwidth {rate(path.bandwidth_bps)}"
            if path.loss
            else "no loss: Cubic is not loss-bound"
        ),
        f"RTT {path.rtt_ms:g} ms " + (">=" if long else "<") + f" {LONG_RTT_MS:g} ms (long path)",
    )
    return lossy or long, basis


def _mtu_items(inner_mtu: int) -> list[Advice]:
    mss = inner_mtu - IPV4_TCP_HEADERS
    return [
        Advice(
            "interface",
            "host MTU",
            str(inner_mtu),
            "a pseudowire is a bridge: larger frames are dropped (or fragmented after "
            "encapsulation) with no ICMP error to the host",
            (f"inner MTU of the pseudowire = {inner_mtu} B (l2tpgen mtu)",),
            "at once (ip link set dev IF mtu N); make it permanent in the host's network "
            "configuration",
        ),
        Advice(
            "interface",
            "TCP MSS",
            str(mss),
            "clamp to this where hosts keep a larger MTU (firewalls, routers at the edge)",
            (f"MSS = MTU {inner_mtu} - 40 (IPv4 and TCP headers) = {mss} B",),
            "new TCP connections",
        ),
    ]


def _tcp_items(path: NetworkPath, inner_mtu: int, workload: Workload) -> list[Advice]:
    items: list[Advice] = []
    bdp = path.bdp_bytes
    buffer = tcp_buffer_max(path)
    bdp_text = (
        f"BDP = {rate(path.bandwidth_bps)} x {path.rtt_ms:g} ms / 8 = {size(bdp)} "
        f"({bdp / MIB:.2f} MiB; a {size(power_of_two(bdp))} window)"
    )
    rule = f"max = {BUFFER_HEADROOM} x BDP rounded up to a power of two MiB = {size(buffer)}" + (
        " (capped at 1 GiB)" if buffer == MAX_TCP_BUFFER else ""
    )
    if buffer > TCP_RMEM_DEFAULT[2]:
        reason = (
            "a TCP window smaller than the bandwidth-delay product caps every transfer at "
            "window / RTT; Linux advertises only part of the buffer as window"
        )
        rmem = (*TCP_RMEM_DEFAULT[:2], buffer)
        wmem = (*TCP_WMEM_DEFAULT[:2], buffer)
        items += [
            Advice(
                "sysctl",
                "net.ipv4.tcp_rmem",
                " ".join(map(str, rmem)),
                reason,
                (bdp_text, rule),
                NEW_TCP,
            ),
            Advice(
                "sysctl",
                "net.ipv4.tcp_wmem",
                " ".join(map(str, wmem)),
                reason,
                (bdp_text, rule),
                NEW_TCP,
            ),
            Advice(
                "sysctl",
                "net.core.rmem_max",
                str(buffer),
                "lets applications that set SO_RCVBUF themselves ask for the same",
                (rule,),
                SIZED_AT_OPEN,
            ),
            Advice(
                "sysctl",
                "net.core.wmem_max",
                str(buffer),
                "lets applications that set SO_SNDBUF themselves ask for the same",
                (rule,),
                SIZED_AT_OPEN,
            ),
        ]
    else:
        items.append(
            Advice(
                "application",
                "TCP buffers",
                "keep Linux's defaults",
                "the bandwidth-delay product fits the default buffers (6 MiB receive, 4 MiB send)",
                (bdp_text, rule),
                "nothing to apply",
            )
        )
    items.append(_probing(inner_mtu))
    bbr, basis = needs_bbr(path, inner_mtu - IPV4_TCP_HEADERS)
    if bbr:
        reason = (
            "loss-based Cubic cannot fill a lossy or long path; BBR paces to the measured "
            "bandwidth and RTT and does not treat random loss as congestion"
        )
        items += [
            Advice(
                "sysctl",
                "net.core.default_qdisc",
                "fq",
                "fq paces BBR's packets",
                basis,
                "qdiscs attached after sysctl -p: an interface keeps the one it has until "
                "`tc qdisc replace dev IF root fq` or a reboot",
            ),
            Advice(
                "sysctl",
                "net.ipv4.tcp_congestion_control",
                "bbr",
                reason,
                basis,
                NEW_TCP + "; load tcp_bbr first",
            ),
        ]
    else:
        items.append(
            Advice(
                "application",
                "TCP congestion control",
                "keep the default (cubic)",
                "the path is neither lossy nor long enough for BBR to matter",
                basis,
                "nothing to apply",
            )
        )
    if workload == "live-migration":
        items.append(_streams((bdp_text,)))
    return items


def _probing(inner_mtu: int) -> Advice:
    return Advice(
        "sysctl",
        "net.ipv4.tcp_mtu_probing",
        "1",
        "the pseudowire drops oversized frames without an ICMP error: probing recovers "
        "from that black hole instead of stalling",
        (f"inner MTU {inner_mtu} B",),
        "at once for every TCP connection (sysctl -p)",
    )


def _streams(basis: tuple[str, ...]) -> Advice:
    return Advice(
        "hypervisor",
        "migration streams",
        "several",
        "one TCP stream is limited by one CPU and one window: use multi-NIC or "
        "multi-stream vMotion (vSphere 7+), or QEMU's multifd (multifd-channels 4+)",
        basis,
        "the next migration",
    )


def _no_path_items(inner_mtu: int, workload: Workload) -> list[Advice]:
    items = [
        _probing(inner_mtu),
        Advice(
            "network",
            "path",
            "not stated",
            "TCP buffers come from the bandwidth-delay product and congestion control from the "
            "path's loss and RTT: without the path's bandwidth, RTT and loss neither is advised",
            ("no bandwidth, RTT or loss given",),
            "nothing to apply",
        ),
    ]
    if workload == "live-migration":
        items.append(_streams(("one stream: one CPU core and one TCP window",)))
    return items


def recommend(
    path: NetworkPath | None,
    inner_mtu: int,
    workload: Workload = "general",
    transport: CorosyncTransport | None = None,
) -> HostAdvice:
    """The host advice for one stretched VLAN (``path`` None: not known).

    ``transport``: the Corosync transport of a ``cluster-heartbeat`` VLAN's cluster (None: not
    stated, knet assumed); other workloads ignore it.

    Raises:
        HostsInputError: an impossible MTU, an unknown workload or transport.
    """
    if workload not in WORKLOADS:
        raise HostsInputError(
            f"unknown workload {workload!r}; choose one of: {', '.join(WORKLOADS)}"
        )
    if transport is not None and transport not in COROSYNC_TRANSPORTS:
        raise HostsInputError(
            f"unknown Corosync transport {transport!r}; choose one of: "
            f"{', '.join(COROSYNC_TRANSPORTS)}"
        )
    if not MIN_WAN_MTU - 100 <= inner_mtu <= 65535:  # noqa: PLR2004 - IPv4's ceiling
        raise HostsInputError(f"inner MTU must be between 476 and 65535, not {inner_mtu}")
    items = _mtu_items(inner_mtu)
    if workload == "cluster-heartbeat":
        items += heartbeat_items(path, inner_mtu, transport)
    elif path is None:
        items += _no_path_items(inner_mtu, workload)
    else:
        items += _tcp_items(path, inner_mtu, workload)
    heartbeat = workload == "cluster-heartbeat"
    return HostAdvice(path, inner_mtu, workload, tuple(items), transport if heartbeat else None)
