"""What the frames check adds to `lab run SITES`: its probe timed by the guest's clock.

Usage: python bench/lab_frames.py [--sites examples/hub] [--repeat 3] [--whole]

One VM boot runs each frames check's probe ``--repeat`` times one after the other (each removes
its namespaces at the end), timed by ``/proc/uptime``. ``--whole`` also runs the whole lab twice,
without and with the frames checks (the lab without its fleet, then with it), and prints
both wall times (noisy on a shared machine: the probe's own time is the figure to trust).
"""

from __future__ import annotations

import argparse
import re
from dataclasses import replace
from pathlib import Path

from l2tpgen import load_fleet
from l2tpgen.lab.build import LabDesign, lab_of_fleet
from l2tpgen.lab.checks.frames import frames_checks
from l2tpgen.lab.engines.qemu import run_script
from l2tpgen.lab.engines.vm import run_vm
from l2tpgen.lab.frames import tcpdump_extras

CLOCK = "cut -d' ' -f1 /proc/uptime"


def main() -> None:
    """Time the probes in one VM, then (``--whole``) the lab without and with them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=Path, default=Path("examples/hub"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--whole", action="store_true")
    args = parser.parse_args()
    fleet = load_fleet(args.sites)
    checks = frames_checks(fleet)
    if not checks:
        print(f"{args.sites}: no Cisco to Linux pair, no frames check")
        return
    lines = []
    for number in range(args.repeat):
        for check in checks:
            lines += [
                f'echo "T0 {number} {check.key} $({CLOCK})"',
                check.probes[0].command,
                f'echo "T1 {number} {check.key} $({CLOCK})"',
            ]
    run = run_script("\n".join(lines) + "\n", extras=tcpdump_extras())
    found = re.findall(r"^(T[01]) (\d+) (\S+) (\S+)", run.output, re.MULTILINE)
    starts = {(n, k): float(t) for mark, n, k, t in found if mark == "T0"}
    for number, key, end in ((n, k, t) for mark, n, k, t in found if mark == "T1"):
        print(f"{key} run {number}: {float(end) - starts[number, key]:.2f} s in the guest")
    print(f"VM boot and all probes: {run.seconds:.1f} s wall")
    if args.whole:
        lab = lab_of_fleet(fleet, "bench", LabDesign("bench"))
        without = run_vm(replace(lab, fleet=None))  # no fleet, no frames label: no frames check
        with_frames = run_vm(lab)
        print(f"lab run without frames: {without.seconds:.1f} s, with: {with_frames.seconds:.1f} s")


if __name__ == "__main__":
    main()
