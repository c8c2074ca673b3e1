"""The lab a command runs: built from the fleet, or read from a topology file.

``lab up``, ``lab run`` and ``lab check`` take a sites directory or a topology file. From the
fleet, the lab is the one ``lab build`` writes (``topology.py``), with the WAN's shaping and
the workloads from the model (``fromsites.py``) and the protection files of its PEs; from a
file, it is the file's (``inputs.py``). Either way the WAN options given win over the rest.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from l2tpgen.lab.fields import check_lab_name
from l2tpgen.lab.fromsites import lab_shaping, model_workloads
from l2tpgen.lab.inputs import load_lab, parse_lab
from l2tpgen.lab.topology import build_topology, protection_files

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.lab.inputs import Lab
    from l2tpgen.model import Fleet

# The WAN options of the lab commands: delay (ms), loss (%), rate (Mbit/s); None keeps the rest's.
WanOptions = tuple[float | None, float | None, float | None]
NO_OPTIONS: WanOptions = (None, None, None)


def lab_of_fleet(
    fleet: Fleet, source: str, name: str | None = None, wan: WanOptions = NO_OPTIONS
) -> Lab:
    """The lab ``lab build`` writes for ``fleet`` (named ``name``, else ``l2tpgen``), in memory.

    The lab carries the fleet: the checks that need the model take their pairs from it as
    objects, not from the JSON a topology file's labels hold (no such label here).

    Raises:
        LabInputError: the name, an option or the model's links make no lab.
    """
    if name is not None:
        check_lab_name(name)
    topology = build_topology(
        fleet,
        name=name or "l2tpgen",
        shaping=lab_shaping(fleet, *wan),
        site_workloads=model_workloads(fleet),
        frames=False,
    )
    return replace(parse_lab(topology, source, protection_files(fleet)), fleet=fleet)


def lab_of_file(path: Path, name: str | None = None, wan: WanOptions = NO_OPTIONS) -> Lab:
    """The lab of a topology file, renamed ``name`` if given, its WAN shaped by the options.

    Raises:
        LabInputError: the file or the name is unusable.
    """
    if name is not None:
        check_lab_name(name)
    lab = load_lab(path)
    lab = lab.with_shaping(lab.shaping.overridden(*wan))
    return lab if name is None else replace(lab, name=name)
