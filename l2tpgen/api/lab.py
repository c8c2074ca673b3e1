"""The lab's half of the API: a lab built from the fleet, and a lab run (``l2tpgen.api``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from l2tpgen.api.sites import load

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from pathlib import Path

    from l2tpgen.lab.engines.vm import LabReport
    from l2tpgen.lab.inputs import Lab
    from l2tpgen.model import Fleet

Shaping = tuple[float | None, float | None, float | None]  # delay ms, loss %, rate Mbit/s


@dataclass(frozen=True)
class LabBuild:
    """A containerlab topology of the fleet, and the files it binds or names (beside it).

    ``files``: each IPsec PE's swanctl.conf, the cisco_iol flavor's startup configs, each Linux
    or VyOS PE's frames checks (``pe-SITE.frames.yaml``), by name; secrets masked.
    """

    topology: Mapping[str, Any]
    files: Mapping[str, str]


def lab_build(
    fleet: Fleet,
    *,
    name: str = "l2tpgen",
    flavor: str = "linux",
    variant: str = "per-vlan",
    shaping: Shaping = (None, None, None),
    workloads: Mapping[int, Any] | None = None,
) -> LabBuild:
    """The lab ``l2tpgen lab build`` writes: PEs, a WAN router, a CE per site.

    ``shaping``: the WAN's delay, loss and rate, each given winning over the model's link.
    ``workloads``: what a VLAN carries, winning over the model's ``carries``.

    Raises:
        L2tpgenError: a bad lab name, shaping or workload.
    """
    from l2tpgen.lab.build import LabDesign, fleet_topology  # noqa: PLC0415 - startup: the lab

    design = LabDesign(
        name,
        flavor,  # type: ignore[arg-type]  # the command line offers the flavors only
        variant,  # type: ignore[arg-type]  # and the variants
        shaping,
        workloads or {},
    )
    topology, files = fleet_topology(fleet, design)
    return LabBuild(topology, files)


def lab_of(source: Path, name: str | None = None, shaping: Shaping = (None, None, None)) -> Lab:
    """The lab of a topology file, or built from a sites directory as ``lab build`` does.

    Each of ``shaping`` given wins over the topology's labels or the model's link.

    Raises:
        L2tpgenError: the topology or the site files are wrong (located).
    """
    from l2tpgen.lab.build import LabDesign, lab_of_file, lab_of_fleet  # noqa: PLC0415 - startup: the lab

    if not source.is_dir():
        return lab_of_file(source, name, shaping)
    design = LabDesign("l2tpgen" if name is None else name, wan=shaping)
    return lab_of_fleet(load(source), str(source), design)


def lab_run(source: Path, *, progress: Callable[[str], None] | None = None) -> LabReport:
    """Run the lab of a sites directory or topology file in QEMU, judge its checks (vm engine).

    Raises:
        L2tpgenError: the lab cannot be built or run (nothing is left running).
    """
    from l2tpgen.lab.engines.vm import run_vm  # noqa: PLC0415 - startup: the lab

    return run_vm(lab_of(source), progress=progress)
