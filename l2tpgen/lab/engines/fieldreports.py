"""The field reports this project grew from, reproduced side by side in one VM boot.

* **Single trunk vs per VLAN.** One session carrying the whole trunk (inner MTU 1500 on a 1500
  WAN, DF clear: every full-size packet is split in two after encapsulation and reassembled by the
  far PE) against a session per VLAN with the hosts' MTU from ``mtu.py`` (nothing fragments).
* **Cubic vs BBR** over a WAN of 55 ms RTT and 1 % loss: Linux's defaults against what
  ``l2tpgen.hosts`` recommends for live migration on the field's path (BBR, fq, buffers from the
  bandwidth-delay product).
* **Heartbeat burst**: a burst to a busy receiver with Linux's default socket buffers against the
  buffers ``l2tpgen.hosts`` recommends for heartbeat VLANs (receive buffer errors: some vs none).

Three labs share the VM (namespace prefixes ``v-``, ``t-``, ``w-``): the per-VLAN fleet, its
single-trunk variant, and the per-VLAN fleet behind the shaped WAN.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.hosts import NetworkPath, recommend
from l2tpgen.hosts.heartbeat import SOCKET_REQUEST
from l2tpgen.lab.build import LabDesign, lab_of_fleet
from l2tpgen.lab.engines.guest import GuestLab
from l2tpgen.lab.engines.vm import run_guest
from l2tpgen.lab.measure import Measurement, TcpTransfer, UdpBurst
from l2tpgen.lab.probes import Probe
from l2tpgen.lab.shaping import Shaping

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from l2tpgen.hosts import Workload
    from l2tpgen.lab.inputs import Ce, Lab
    from l2tpgen.lab.measure import Experiment
    from l2tpgen.lab.topology import Variant
    from l2tpgen.model import Fleet

# The field report's path: 10 Gb/s, 55 ms RTT, 1 % loss. The lab's WAN delays each direction by
# half the RTT and drops 1 % each way; its rate is set above what the emulated CPU forwards.
FIELD_PATH = NetworkPath(bandwidth_bps=10**10, rtt_ms=55, loss=0.01)
FIELD_WAN = Shaping(delay_ms=27.5, loss_pct=1.0, rate_mbit=500)


@dataclass(frozen=True)
class Options:
    """How long and how much."""

    seconds: int = 3
    datagrams: int = 1000
    datagram_size: int = 1200
    workloads: Mapping[int, Workload] = field(default_factory=dict)


@dataclass(frozen=True)
class FieldReports:
    """Every figure of one run."""

    per_vlan: Measurement
    single_trunk: Measurement
    cubic: Measurement
    bbr: Measurement
    burst_default: Measurement
    burst_tuned: Measurement
    wan: Measurement
    setup_errors: tuple[str, ...]
    seconds: float


@dataclass(frozen=True)
class WanQdisc:
    """The WAN router's netem queue: what it was set to and what it did."""

    node: str
    interface: str

    @property
    def probes(self) -> tuple[Probe, ...]:
        """``tc -s qdisc show`` on one WAN port."""
        command = f"tc -s qdisc show dev {self.interface}"
        return (Probe("wan.qdisc", self.node, command, "out"),)

    def judge(self, results: Mapping[str, str]) -> Measurement:
        """Delay, loss, packets sent and dropped by netem; whether tbf is there."""
        text = results.get("wan.qdisc", "")
        netem = re.search(r"qdisc netem .*?(?=^qdisc |\Z)", text, re.MULTILINE | re.DOTALL)
        block = netem.group() if netem else ""

        def number(pattern: str) -> float:
            found = re.search(pattern, block)
            return float(found.group(1)) if found else -1.0

        return Measurement(
            "wan",
            self.interface,
            (
                ("delay_ms", number(r"delay ([\d.]+)ms")),
                ("loss_pct", number(r"loss ([\d.]+)%")),
                ("packets", number(r"Sent \d+ bytes (\d+) pkt")),
                ("dropped", number(r"dropped (\d+)")),
                ("tbf", 1.0 if "qdisc tbf" in text else 0.0),
            ),
        )


def _lab(
    fleet: Fleet,
    name: str,
    options: Options,
    variant: Variant = "per-vlan",
    shaping: Shaping | None = None,
) -> Lab:
    # The WAN is unshaped or the field's path, whatever the model's link says.
    design = LabDesign(
        name, variant=variant, workloads=options.workloads, shaping=shaping or Shaping()
    )
    return lab_of_fleet(fleet, name, design)


def _vlan(ce: Ce, wanted: tuple[Workload, ...], fallback: int) -> int:
    """The first of the CE's VLANs carrying one of ``wanted`` (in that order of preference)."""
    for workload in wanted:
        found = next((v for v in ce.vlans if ce.workload(v) == workload), None)
        if found is not None:
            return found
    return fallback


def _experiments(
    labs: Sequence[Lab], options: Options
) -> tuple[tuple[Experiment, ...], tuple[Experiment, ...], tuple[Experiment, ...]]:
    (near, far), (t_near, t_far), (w_near, w_far) = (lab.ces[:2] for lab in labs)
    tcp_vlan = _vlan(near, ("live-migration", "storage"), near.vlans[-1])
    udp_vlan = _vlan(near, ("cluster-heartbeat",), near.vlans[0])
    tuned = recommend(FIELD_PATH, near.mtu, near.workload(tcp_vlan))
    # The lab's heartbeats are multicast: Corosync's udp transport, whose receiver asks for its
    # own buffer (SOCKET_REQUEST) and gets it only up to rmem_max.
    heartbeat = recommend(FIELD_PATH, near.mtu, "cluster-heartbeat", "udp")
    s, n, size = options.seconds, options.datagrams, options.datagram_size
    asks = SOCKET_REQUEST["udp"]
    first: tuple[Experiment, ...] = (
        TcpTransfer("tcp", "per-vlan", near, far, tcp_vlan, s, host_mtu=near.mtu),
        UdpBurst("burst0", "default buffers", near, far, udp_vlan, n, size, rcvbuf=asks),
        UdpBurst(
            "burst1", "hosts buffers", near, far, udp_vlan, n, size, advice=heartbeat, rcvbuf=asks
        ),
    )
    second: tuple[Experiment, ...] = (
        TcpTransfer("tcp", "single-trunk", t_near, t_far, tcp_vlan, s),
    )
    wan = labs[2]
    wan_node = wan.wan or ""
    third: tuple[Experiment, ...] = (
        TcpTransfer("cubic", "cubic (defaults)", w_near, w_far, tcp_vlan, s, w_near.mtu),
        TcpTransfer("bbr", "bbr (hosts)", w_near, w_far, tcp_vlan, s, w_near.mtu, tuned),
        WanQdisc(wan_node, wan.interfaces(wan_node)[-1]),
    )
    return first, second, third


def run_field_reports(
    fleet: Fleet, options: Options | None = None, *, timeout: float = 600
) -> FieldReports:
    """Boot one VM with the three labs, run every experiment, return the figures."""
    options = options or Options()
    labs = (
        _lab(fleet, "fr-vlan", options),
        _lab(fleet, "fr-trunk", options, variant="single-trunk"),
        _lab(fleet, "fr-wan", options, shaping=FIELD_WAN),
    )
    plans = _experiments(labs, options)
    guests = [
        GuestLab(lab, tuple(p for e in plan for p in e.probes), prefix)
        for lab, plan, prefix in zip(labs, plans, ("v-", "t-", "w-"), strict=True)
    ]
    run = run_guest(guests, timeout=timeout)
    found = [[e.judge(r.results) for e in plan] for plan, r in zip(plans, run.labs, strict=True)]
    errors = tuple(e for r in run.labs for e in r.setup_errors)
    (per_vlan, default, tuned), (trunk,), (cubic, bbr, wan) = found
    return FieldReports(per_vlan, trunk, cubic, bbr, default, tuned, wan, errors, run.seconds)
