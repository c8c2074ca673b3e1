"""Measurements on the lab's data plane: the field reports, reproduced as frozen experiments.

Each experiment is, like a check, its probes and a judge; the judge returns figures, not a
verdict. Counters come from ``/proc/net/snmp`` (fragments created and reassembled on the PEs, UDP
receive buffer errors on the receiving CE), throughput and congestion window from iperf3's JSON.

Host tuning comes from ``l2tpgen.hosts``: the sysctl file it renders is applied with
``sysctl -e -p`` on the lab host (the guest's kernel-wide ``net.core`` keys) and in each CE's
namespace (the per-namespace ``net.ipv4`` keys); ``default_qdisc = fq`` only affects new devices,
so the sending CE's existing interface gets ``fq`` explicitly.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from l2tpgen.hosts import render_sysctl
from l2tpgen.lab.pairs import ce_address, heartbeat_group
from l2tpgen.lab.probes import READY, Probe, counters

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.hosts import HostAdvice
    from l2tpgen.lab.inputs import Ce

IPERF_PORT = 5201
BURST_PORT = 5405
DEFAULT_RMEM = 212_992  # Linux's net.core.rmem_default and rmem_max


@dataclass(frozen=True)
class Measurement:
    """Figures from one experiment, by name."""

    experiment: str
    label: str
    figures: tuple[tuple[str, float], ...]

    def __getitem__(self, name: str) -> float:
        """One figure."""
        return dict(self.figures)[name]


class Experiment(Protocol):
    """An experiment: its probes and how its figures are read from their results."""

    @property
    def probes(self) -> tuple[Probe, ...]:
        """Every probe, in order."""
        ...

    def judge(self, results: Mapping[str, str]) -> Measurement:
        """The figures."""
        ...


def tuning_probes(key: str, advice: HostAdvice, ces: tuple[Ce, ...]) -> tuple[Probe, ...]:
    """Apply the host advice's sysctl file on the lab host and in each CE."""
    write = f"cat > \"$L2TPGEN_TMP/hosts.conf\" <<'EOF'\n{render_sysctl([advice])}EOF\n"
    apply = f'{write}sysctl -e -q -p "$L2TPGEN_TMP/hosts.conf"'
    probes = [Probe(f"{key}.tune.host", "", apply)]
    probes += [Probe(f"{key}.tune.{ce.node}", ce.node, apply) for ce in ces]
    if advice.value("net.core.default_qdisc") == "fq":
        probes.append(Probe(f"{key}.fq", ces[0].node, "tc qdisc replace dev eth1 root fq"))
    return tuple(probes)


def _address(ce: Ce, vlan: int) -> str:
    return ce_address(ce.index, vlan).split("/", 1)[0]


def _snmp(key: str, nodes: tuple[str, ...], when: str) -> tuple[Probe, ...]:
    return tuple(
        Probe(f"{key}.snmp.{node}.{when}", node, "cat /proc/net/snmp", "out") for node in nodes
    )


def _delta(results: Mapping[str, str], key: str, node: str, section: str, name: str) -> int:
    before = counters(results.get(f"{key}.snmp.{node}.before", ""), section).get(name, 0)
    after = counters(results.get(f"{key}.snmp.{node}.after", ""), section).get(name, 0)
    return after - before


@dataclass(frozen=True)
class TcpTransfer:
    """iperf3 from ``near`` to ``far`` in ``vlan``, with the PEs' fragment counters around it.

    ``host_mtu`` sets both CEs' VLAN interface MTU first (None: leave 1500); ``advice`` applies
    the host tuning first (None: Linux's defaults, Cubic).
    """

    key: str
    label: str
    near: Ce
    far: Ce
    vlan: int
    seconds: int = 3
    host_mtu: int | None = None
    advice: HostAdvice | None = None

    @property
    def probes(self) -> tuple[Probe, ...]:
        """Tune, start the server, snapshot counters, transfer, snapshot again."""
        key, near, far = self.key, self.near, self.far
        probes: list[Probe] = []
        if self.advice is not None:
            probes += tuning_probes(key, self.advice, (near, far))
        if self.host_mtu is not None:
            probes += [
                Probe(
                    f"{key}.mtu.{ce.node}",
                    ce.node,
                    f"ip link set dev eth1.{self.vlan} mtu {self.host_mtu}",
                )
                for ce in (near, far)
            ]
        listening = f"00000000:{IPERF_PORT:04X} 00000000:0000 0A"
        server = (
            "iperf3 -s -1 >/dev/null 2>&1 </dev/null & "
            f"for i in $(seq 1000); do grep -q {shlex.quote(listening)} /proc/net/tcp && exit 0; "
            "sleep 0.01; done; exit 1"
        )
        pes = (near.pe, far.pe)
        target = _address(far, self.vlan)
        probes += [
            Probe(f"{key}.sessions", near.pe, "ip l2tp show session", "out"),
            Probe(f"{key}.server", far.node, server),
            *_snmp(key, pes, "before"),
            Probe(f"{key}.iperf", near.node, f"iperf3 -c {target} -t {self.seconds} -J", "out"),
            *_snmp(key, pes, "after"),
        ]
        return tuple(probes)

    def judge(self, results: Mapping[str, str]) -> Measurement:
        """Throughput, retransmits, largest window, fragments, reassemblies, sessions."""
        try:
            end = json.loads(results.get(f"{self.key}.iperf", ""))["end"]
            received = float(end["sum_received"]["bits_per_second"])
            retransmits = float(end["sum_sent"].get("retransmits", 0))
            cwnd = float(end["streams"][0]["sender"].get("max_snd_cwnd", 0))
        except (ValueError, KeyError, IndexError, TypeError):
            received = retransmits = cwnd = -1.0
        near_pe, far_pe = self.near.pe, self.far.pe
        return Measurement(
            "tcp",
            self.label,
            (
                ("mbit_s", received / 1e6),
                ("retransmits", retransmits),
                ("max_cwnd_bytes", cwnd),
                ("packets_fragmented", _delta(results, self.key, near_pe, "Ip", "FragOKs")),
                ("fragments_created", _delta(results, self.key, near_pe, "Ip", "FragCreates")),
                ("reassembled", _delta(results, self.key, far_pe, "Ip", "ReasmOKs")),
                ("sessions", results.get(f"{self.key}.sessions", "").count("Session ")),
            ),
        )


@dataclass(frozen=True)
class UdpBurst:
    """A burst of heartbeat-sized datagrams to a receiver that is busy (stopped) meanwhile.

    The receiver joins the VLAN's heartbeat group as Corosync does, then is stopped, as a
    process is when it is descheduled or busy: the burst must fit its socket's receive buffer.
    ``rcvbuf``: the receive buffer it asks for with SO_RCVBUF, as Corosync's udp transport does
    (the kernel caps it at rmem_max and doubles it, socket(7)); None: it takes rmem_default.
    """

    key: str
    label: str
    near: Ce
    far: Ce
    vlan: int
    datagrams: int = 1000
    size: int = 1200
    advice: HostAdvice | None = None
    rcvbuf: int | None = None

    @property
    def probes(self) -> tuple[Probe, ...]:
        """Tune, start and stop the receiver, burst, let it read, count, end it."""
        key, group = self.key, heartbeat_group(self.vlan)
        probes: list[Probe] = []
        if self.advice is not None:
            probes += tuning_probes(key, self.advice, (self.near, self.far))
        log = f'"$L2TPGEN_TMP/{key}.log"'
        receive = (
            f"UDP4-RECV:{BURST_PORT},bind={group},reuseaddr,"
            f"ip-add-membership={group}:eth1.{self.vlan}"
            + (f",rcvbuf={self.rcvbuf}" if self.rcvbuf else "")
        )
        start = (
            f"socat -d -d -u {receive} /dev/null </dev/null >/dev/null 2>{log} & "
            f'echo $! >"$L2TPGEN_TMP/{key}.pid"; '
            f"for i in $(seq 1000); do grep -q {shlex.quote(READY)} {log} && "
            f'kill -STOP $(cat "$L2TPGEN_TMP/{key}.pid") && exit 0; sleep 0.01; done; exit 1'
        )
        send = (
            f"socat -u -b {self.size} /dev/zero,readbytes={self.datagrams * self.size} "
            f"UDP4-DATAGRAM:{group}:{BURST_PORT},"
            f"ip-multicast-if={_address(self.near, self.vlan)},ip-multicast-ttl=1"
        )
        pid = f'$(cat "$L2TPGEN_TMP/{key}.pid")'
        # Let the receiver read what its buffer held: InDatagrams counts datagrams read.
        drain = (
            f"kill -CONT {pid}; for i in $(seq 1000); do "
            f"awk '$2 ~ /:{BURST_PORT:04X}$/ {{print $5}}' /proc/net/udp | "
            "grep -q ':00000000$' && exit 0; sleep 0.01; done; exit 1"
        )
        far = self.far.node
        probes += [
            Probe(f"{key}.receiver", far, start),
            *_snmp(key, (far,), "before"),
            Probe(f"{key}.burst", self.near.node, send),
            Probe(f"{key}.drain", far, drain),
            *_snmp(key, (far,), "after"),
            Probe(f"{key}.stop", far, f"kill -9 {pid}"),
        ]
        return tuple(probes)

    def judge(self, results: Mapping[str, str]) -> Measurement:
        """Datagrams sent, read by the receiver, dropped for want of receive buffer."""
        far = self.far.node
        if self.rcvbuf:
            cap = self.advice.value("net.core.rmem_max") if self.advice else None
            buffer = 2 * min(self.rcvbuf, int(cap or DEFAULT_RMEM))
        else:
            default = self.advice.value("net.core.rmem_default") if self.advice else None
            buffer = int(default or DEFAULT_RMEM)
        return Measurement(
            "udp-burst",
            self.label,
            (
                ("receive_buffer_bytes", float(buffer)),
                ("sent", float(self.datagrams)),
                ("received", _delta(results, self.key, far, "Udp", "InDatagrams")),
                ("rcvbuf_errors", _delta(results, self.key, far, "Udp", "RcvbufErrors")),
            ),
        )
