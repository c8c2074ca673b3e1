"""Lab throughput with and without ESP, side by side in one VM boot.

Usage: python bench/lab_esp.py [--seconds 5] [--rounds 2]

Two labs share one VM: the reference pair as l2tpgen renders it (``sites/``: clear L2TPv3, hosts
at the 1462 ``mtu.py`` predicts) and the same pair protected (``examples/protected``: IPsec,
IKEv2 by strongSwan from the swanctl.conf l2tpgen renders, ESP transport AES-GCM-128 and the
catch-all inbound policy; hosts at 1428). TCP with iperf3 from CE A to CE B in the first VLAN,
``--rounds`` transfers on each (the clear lab's first, then the protected lab's), with the PEs'
fragment counters around each transfer. Absolute figures are those of software emulation (TCG)
on a shared machine: compare the ratio. Needs the lab's packages and strongSwan's (docs/lab.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from l2tpgen import load_fleet
from l2tpgen.lab.build import LabDesign, lab_of_fleet
from l2tpgen.lab.engines.guest import GuestLab
from l2tpgen.lab.engines.vm import run_guest
from l2tpgen.lab.measure import Measurement, TcpTransfer
from l2tpgen.lab.security import protect_probes, reveal_secrets, without_protection
from l2tpgen.lab.strongswan import protection_extras


def main() -> None:
    """Run the transfers and print both sides and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5, help="each TCP transfer")
    parser.add_argument("--rounds", type=int, default=2, help="clear/ESP pairs of transfers")
    args = parser.parse_args()
    clear_fleet, esp_fleet = load_fleet(Path("sites")), load_fleet(Path("examples/protected"))
    clear = lab_of_fleet(clear_fleet, "clear", LabDesign("clear"))
    esp = reveal_secrets(lab_of_fleet(esp_fleet, "esp", LabDesign("esp")))
    setup = without_protection(esp)
    protect = protect_probes(esp)
    (c_near, c_far), (e_near, e_far) = clear.ces[:2], esp.ces[:2]
    vlan = c_near.vlans[0]
    plans: list[list[TcpTransfer]] = [[], []]
    for n in range(args.rounds):
        plans[0].append(
            TcpTransfer(f"t{n}", "clear L2TPv3", c_near, c_far, vlan, args.seconds, c_near.mtu)
        )
        plans[1].append(
            TcpTransfer(
                f"t{n}", "ESP transport aes-gcm-128", e_near, e_far, vlan, args.seconds, e_near.mtu
            )
        )
    guests = [
        GuestLab(clear, tuple(p for t in plans[0] for p in t.probes), "c-"),
        GuestLab(setup, (*protect, *(p for t in plans[1] for p in t.probes)), "e-"),
    ]
    print(
        f"{args.rounds} x {args.seconds} s of TCP each way of protection, VLAN {vlan}; one VM boot",
        flush=True,
    )
    run = run_guest(
        guests, timeout=180 + 4 * args.rounds * args.seconds, extras=protection_extras()
    )
    for error in (e for r in run.labs for e in r.setup_errors):
        print(f"  setup error: {error}")
    found: list[list[Measurement]] = [
        [t.judge(r.results) for t in plan] for plan, r in zip(plans, run.labs, strict=True)
    ]
    for side, ce in zip(found, (c_near, e_near), strict=True):
        for m in side:
            print(
                f"  {m.label:<26} host MTU {ce.mtu}  {m['mbit_s']:8.1f} Mb/s  "
                f"retransmits {m['retransmits']:5.0f}  fragments created "
                f"{m['fragments_created']:4.0f}"
            )
    mean = [sum(m["mbit_s"] for m in side) / len(side) for side in found]
    print(f"one VM boot: {run.seconds:.0f} s")
    print(f"mean: clear {mean[0]:.1f} Mb/s, ESP {mean[1]:.1f} Mb/s")
    print(f"ratio ESP / clear: {mean[1] / mean[0]:.2f}x" if mean[0] > 0 else "no clear figure")


if __name__ == "__main__":
    main()
