"""The field reports on the QEMU lab's real data plane, side by side in one VM boot.

Usage: python bench/lab_fieldreports.py [--seconds 10] [--datagrams 2000] [--sites sites]

Three labs share one VM: the per-VLAN fleet, its single-trunk variant, and the per-VLAN fleet
behind a WAN of 55 ms RTT and 1 % loss (netem, tbf). Printed: single trunk vs per VLAN (TCP
throughput, fragments, reassemblies), Cubic with Linux's defaults vs BBR with the tuning
``l2tpgen.hosts`` recommends, and a heartbeat burst to a busy receiver with default vs
recommended socket buffers. Absolute figures depend on the emulated CPU; the ratios are what
to compare with the field (20-30 vs ~800 Mb/s; a few hundred Mb/s vs 7+ Gb/s; errors vs none).
Needs the lab's Debian packages (see labs/README.md); takes about 4 x --seconds + 30 s.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from l2tpgen import load_fleet
from l2tpgen.lab.engines.fieldreports import FIELD_PATH, FIELD_WAN, Options, run_field_reports

WORKLOADS = {2997: "cluster-heartbeat", 2998: "live-migration"}


def _ratio(what: str, top: float, bottom: float) -> None:
    value = top / bottom if bottom > 0 else float("inf")
    print(f"ratio {what}: {value:.2f}x")


def main() -> None:
    """Run every experiment once and print the figures and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10, help="each TCP transfer")
    parser.add_argument("--datagrams", type=int, default=2000, help="datagrams in the burst")
    parser.add_argument("--sites", type=Path, default=Path("sites"))
    args = parser.parse_args()
    options = Options(args.seconds, args.datagrams, workloads=WORKLOADS)  # type: ignore[arg-type]
    print(
        f"{args.sites}: {args.seconds} s per transfer, burst of {args.datagrams} datagrams; "
        f"WAN {FIELD_WAN.delay_ms:g} ms each way, {FIELD_WAN.loss_pct:g} % loss; "
        f"host tuning for {FIELD_PATH.describe()}",
        flush=True,
    )
    r = run_field_reports(load_fleet(args.sites), options, timeout=120 + 8 * args.seconds)
    for error in r.setup_errors:
        print(f"  setup error: {error}")
    print(f"one VM boot: {r.seconds:.0f} s")
    for m in (r.per_vlan, r.single_trunk, r.cubic, r.bbr):
        print(
            f"  {m.label:<18} {m['mbit_s']:8.1f} Mb/s  retransmits {m['retransmits']:6.0f}  "
            f"max cwnd {m['max_cwnd_bytes'] / 1024:7.0f} KiB  packets fragmented "
            f"{m['packets_fragmented']:6.0f} into {m['fragments_created']:6.0f}  "
            f"reassembled {m['reassembled']:6.0f}"
        )
    for m in (r.burst_default, r.burst_tuned):
        print(
            f"  burst, {m.label:<15} receive buffer {m['receive_buffer_bytes'] / 1024:6.0f} KiB  "
            f"sent {m['sent']:5.0f}  read {m['received']:5.0f}  "
            f"receive buffer errors {m['rcvbuf_errors']:5.0f}"
        )
    print(
        f"  WAN netem: delay {r.wan['delay_ms']:g} ms, loss {r.wan['loss_pct']:g} %, "
        f"{r.wan['packets']:.0f} packets, {r.wan['dropped']:.0f} dropped"
    )
    trunk = r.single_trunk
    per_packet = trunk["fragments_created"] / max(trunk["packets_fragmented"], 1)
    print(f"single trunk: {per_packet:.2f} fragments per fragmented packet; per VLAN: none")
    _ratio("TCP throughput per-VLAN / single trunk", r.per_vlan["mbit_s"], trunk["mbit_s"])
    _ratio("TCP throughput BBR+hosts / Cubic defaults", r.bbr["mbit_s"], r.cubic["mbit_s"])
    _ratio(
        "burst datagrams read, hosts / default buffers",
        r.burst_tuned["received"],
        r.burst_default["received"],
    )


if __name__ == "__main__":
    main()
