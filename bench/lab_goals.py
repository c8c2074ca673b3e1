"""The lab's speed goals, side by side with a baseline: where a `lab run` spends its time.

Usage: python bench/lab_goals.py [--repeat N] [--cold]

For each lab (``labs/example.clab.yml``: goal 13 s; ``examples/hub`` with all its security
checks: goal 30 s) it runs ``lab run``'s engine (``run_vm``) and splits its wall time by the
progress it reports: Python before the guest (loading, rendering), building the guest (the
initramfs: cached after the first run, ``lab/engines/cache.py``), the VM's boot, the set-up, the
probes.
The baseline, run alternately in the same conditions, is a VM that boots the same kernel and
powers off at once (the floor no lab run goes under). ``--cold`` empties the cache first (a
fresh directory). The load average is printed with each run: on a shared machine the figures
are that machine's, not a quiet one's.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING
from unittest import mock

from l2tpgen.api import lab_of
from l2tpgen.lab.engines import qemu as vm
from l2tpgen.lab.engines.qemu import run_script
from l2tpgen.lab.engines.vm import run_vm

if TYPE_CHECKING:
    from l2tpgen.lab.inputs import Lab

LABS = (("labs/example.clab.yml", 13.0), ("examples/hub", 30.0))


def _lab(source: str) -> Lab:
    return lab_of(Path(source))


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def one(source: str) -> tuple[dict[str, float], dict[str, float]]:
    """One lab run: its phases in seconds, and its probes' seconds by kind."""
    began = time.monotonic()
    cpu = _cpu()
    marks: dict[str, float] = {}
    kinds: dict[str, float] = defaultdict(float)
    last: list[tuple[str, float]] = []

    def progress(step: str) -> None:
        now = time.monotonic() - began
        if last and "probes" in marks:
            kinds[last[0][0]] += now - last[0][1]
        last[:] = [(step.split(".", 1)[0].split(" ", 1)[0], now)]
        if step in ("building the guest", "booting the VM", "VM booted"):
            marks[step] = now
        elif step.startswith("set up ") and "set-up" not in marks:
            marks["set-up"] = now
        elif not step.startswith("set up ") and "probes" not in marks:
            marks["probes"] = now

    report = run_vm(_lab(source), progress=progress)
    end = time.monotonic() - began
    if not report.ok:
        print(
            f"  {source}: NOT ok: {report.setup_errors or [r for r in report.results if not r.ok]}"
        )
    order = ["building the guest", "booting the VM", "VM booted", "set-up", "probes"]
    points = [0.0, *(marks.get(k, end) for k in order), end]
    # python: loading, rendering; build: the initramfs; boot: QEMU to the guest's first line;
    # modules: the guest's insmod before the set-up; set-up; probes (every check).
    names = ["python", "build", "boot", "modules", "set-up", "probes"]
    found = {name: points[i + 1] - points[i] for i, name in enumerate(names)}
    if last:
        kinds[last[0][0]] += end - last[0][1]
    found["total"] = end
    found["cpu"] = _cpu() - cpu
    return found, dict(kinds)


def empty_vm(*, as_by_hand: bool = False) -> tuple[float, float]:
    """A VM that boots and powers off at once: (wall, QEMU's CPU) seconds.

    ``as_by_hand``: the baseline (the compressed kernel, crypto self-tests on).
    """
    began, cpu = time.monotonic(), _cpu()
    if not as_by_hand:
        run_script("true\n")
        return time.monotonic() - began, _cpu() - cpu
    command = vm.qemu_command

    def by_hand(*args: object, **kwargs: object) -> list[str]:
        line = command(*args, **kwargs)  # type: ignore[arg-type]
        line[-1] = line[-1].replace(" cryptomgr.notests", "")
        return line

    with (
        mock.patch.object(vm, "boot_image", lambda image: image),
        mock.patch.object(vm, "qemu_command", by_hand),
    ):
        run_script("true\n")
    return time.monotonic() - began, _cpu() - cpu


def main() -> None:
    """Run each lab and the baseline ``--repeat`` times, alternately; print the phases."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--cold", action="store_true", help="start with an empty cache")
    args = parser.parse_args()
    if args.cold:
        os.environ["L2TPGEN_CACHE_DIR"] = tempfile.mkdtemp(prefix="l2tpgen-cache-")
    for number in range(args.repeat):
        load = os.getloadavg()[0]
        floor, floor_cpu = empty_vm()
        hand, hand_cpu = empty_vm(as_by_hand=True)
        print(
            f"run {number + 1} (load average {load:.1f}): floor (empty VM, the lab's boot) "
            f"{floor:.1f} s, {floor_cpu:.1f} CPU s; baseline (empty VM, vmlinuz by hand) "
            f"{hand:.1f} s, {hand_cpu:.1f} CPU s; baseline/floor {hand / floor:.2f}x"
        )
        for source, goal in LABS:
            phases, kinds = one(source)
            split = ", ".join(
                f"{k} {v:.1f}" for k, v in phases.items() if k not in ("total", "cpu")
            )
            print(
                f"  {source}: {phases['total']:.1f} s (goal {goal:g} s, "
                f"{phases['total'] / floor:.2f}x the floor), {phases['cpu']:.1f} CPU s: {split}"
            )
            top = sorted(kinds.items(), key=lambda item: -item[1])
            print("    probes by kind: " + ", ".join(f"{k} {v:.1f}" for k, v in top))


if __name__ == "__main__":
    main()
