"""Lab setup: one `ip netns exec` per command (before) vs one `ip -n NODE -batch` per node (now).

Usage: python bench/lab_speed.py [--topology labs/example.clab.yml]

Both set-ups of the same topology run in one VM boot, side by side (namespace prefixes ``a-``
and ``b-``), timed by the guest's clock; then the whole example lab is run once and its wall
time printed. Goal: the example lab in at most half the 23 s it took with per-command set-up.
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from l2tpgen.lab.engines.guest import GuestLab, guest_script
from l2tpgen.lab.engines.qemu import run_script
from l2tpgen.lab.engines.vm import run_vm
from l2tpgen.lab.inputs import Lab, load_lab

CLOCK = "cut -d' ' -f1 /proc/uptime"


def per_command(lab: Lab, prefix: str) -> list[str]:
    """The set-up as it was: a namespace, a veth pair, each command, one process at a time."""
    ip = "/sbin/ip"
    lines = [f"{ip} netns add {prefix}{n.name}" for n in lab.nodes]
    for number, link in enumerate(lab.links):
        a, b = f"v{number}a", f"v{number}b"
        lines += [
            f"{ip} link add {a} type veth peer name {b}",
            f"{ip} link set {a} netns {prefix}{link.a.node}",
            f"{ip} link set {b} netns {prefix}{link.b.node}",
            f"{ip} -n {prefix}{link.a.node} link set {a} name {link.a.interface}",
            f"{ip} -n {prefix}{link.b.node} link set {b} name {link.b.interface}",
        ]
        if link.mtu:
            lines += [
                f"{ip} -n {prefix}{link.a.node} link set {link.a.interface} mtu {link.mtu}",
                f"{ip} -n {prefix}{link.b.node} link set {link.b.interface} mtu {link.mtu}",
            ]
    for node in lab.nodes:
        lines.append(f"{ip} netns exec {prefix}{node.name} {ip} link set lo up")
        lines += [f"{ip} netns exec {prefix}{node.name} {command}" for command in node.exec]
    return lines


def main() -> None:
    """Time both set-ups in one VM, then one whole lab run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topology", type=Path, default=Path("labs/example.clab.yml"))
    args = parser.parse_args()
    lab = load_lab(args.topology)
    batched = guest_script([GuestLab(lab, (), "b-")])
    script = "\n".join(
        [
            "export PATH=/sbin:/bin",
            f'echo "T0 $({CLOCK})"',
            *per_command(lab, "a-"),
            f'echo "T1 $({CLOCK})"',
            batched,
            f'echo "T2 $({CLOCK})"',
        ]
    )
    output = run_script(script).output
    clock = {
        name: float(value) for name, value in re.findall(r"^(T\d) ([\d.]+)$", output, re.MULTILINE)
    }
    before, now = clock["T1"] - clock["T0"], clock["T2"] - clock["T1"]
    commands = len(per_command(lab, "a-"))
    print(f"{args.topology}: {commands} set-up commands")
    print(f"  one process per command        {before:6.2f} s")
    print(f"  one ip -batch per node         {now:6.2f} s")
    print(f"ratio set-up per-command / batched: {before / now:.2f}x")
    started = time.monotonic()
    report = run_vm(lab)
    print(
        f"whole lab run (boot, set-up, {len(report.results)} checks): "
        f"{time.monotonic() - started:.1f} s wall, ok={report.ok}"
    )


if __name__ == "__main__":
    main()
