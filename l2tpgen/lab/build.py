"""The lab a command runs: built from the fleet, or read from a topology file.

``lab up``, ``lab run`` and ``lab check`` take a sites directory or a topology file. From the
fleet, the lab is the one ``lab build`` writes (``topology.py``), with the WAN's shaping and
the workloads from the model (``fromsites.py``) and the protection files of its PEs, its
objects made from the model (``topology.fleet_lab``: no topology dict read back); from a file,
it is the file's (``inputs.py``). Either way the WAN options given win over the rest.

This module is the one route from a fleet to a lab (issue 35): ``lab_of_fleet`` for the lab in
memory (the commands, the engines' own labs, the benches), ``fleet_topology`` for the file
``lab build`` writes (``topology_document`` of the same lab, with the frames checks in files
beside it that its PEs' labels name, ``framefile.py``); both take a ``LabDesign`` (``lab
build``'s options).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from l2tpgen.lab.fields import LabInputError, check_lab_name
from l2tpgen.lab.framefile import frames_files
from l2tpgen.lab.fromsites import lab_shaping, model_workloads
from l2tpgen.lab.inputs import load_lab
from l2tpgen.lab.iol import startup_configs
from l2tpgen.lab.kinds import IOL_KIND, LINUX_KIND
from l2tpgen.lab.objects import lab_problems
from l2tpgen.lab.topology import fleet_lab, protection_files, topology_document

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from l2tpgen.hosts import Workload
    from l2tpgen.lab.kinds import Flavor
    from l2tpgen.lab.objects import Lab
    from l2tpgen.lab.shaping import Shaping
    from l2tpgen.lab.topology import Variant
    from l2tpgen.model import Fleet

# The WAN options of the lab commands: delay (ms), loss (%), rate (Mbit/s); None keeps the rest's.
WanOptions = tuple[float | None, float | None, float | None]
NO_OPTIONS: WanOptions = (None, None, None)


@dataclass(frozen=True)
class LabDesign:
    """What a lab is made of besides its fleet: ``lab build``'s options.

    ``wan``: each value given wins over the model's link; ``workloads``: what a VLAN carries,
    winning over the model's ``carries``. ``shaping``, when given, is the WAN's whole shaping:
    neither the model's link nor ``wan`` is consulted (the field reports' labs, unshaped or
    shaped as the field's path whatever the model says).
    """

    name: str = "l2tpgen"
    flavor: Flavor = LINUX_KIND
    variant: Variant = "per-vlan"
    wan: WanOptions = NO_OPTIONS
    workloads: Mapping[int, Workload] = field(default_factory=dict)
    shaping: Shaping | None = None


def _lab(fleet: Fleet, design: LabDesign, *, frames: bool) -> Lab:
    shaping = design.shaping
    return fleet_lab(
        fleet,
        name=design.name,
        flavor=design.flavor,
        variant=design.variant,
        shaping=lab_shaping(fleet, *design.wan) if shaping is None else shaping,
        workloads=design.workloads,
        site_workloads=model_workloads(fleet),
        frames=frames,
    )


def lab_files(fleet: Fleet, design: LabDesign) -> dict[str, str]:
    """The files the lab's nodes bind or boot from (written beside ``lab build``'s topology).

    The cisco_iol flavor's partial startup configs; the swanctl.conf each IPsec PE binds (masked).
    """
    files: dict[str, str] = {}
    if design.flavor == IOL_KIND:
        files.update(startup_configs(fleet))
    if design.variant == "per-vlan":
        files.update(protection_files(fleet, design.flavor))
    return files


def fleet_topology(
    fleet: Fleet, design: LabDesign = LabDesign()
) -> tuple[dict[str, Any], dict[str, str]]:
    """The topology ``lab build`` writes (a dict ready for YAML) and the files it binds, by name.

    The file carries what a lab run from it needs without the fleet: the frames checks, in a
    file per PE beside it that the PE's ``l2tpgen.frames`` label names (``framefile.py``).

    Raises:
        LabInputError: the name, an option or the model's links make no lab.
    """
    lab = _lab(fleet, design, frames=True)
    return topology_document(lab), {**lab_files(fleet, design), **frames_files(lab.frames)}


def lab_of_fleet(fleet: Fleet, source: str, design: LabDesign = LabDesign()) -> Lab:
    """The lab ``lab build`` writes for ``fleet`` with ``design``, in memory.

    The lab carries the fleet: the checks that need the model take their pairs from it as
    objects, not from the files a topology's labels name (no such label here).

    Raises:
        LabInputError: the name, an option or the model's links make no lab.
    """
    lab = _lab(fleet, design, frames=False)
    problems = lab_problems(lab)  # those `lab run FILE` would find in the file
    if problems:
        raise LabInputError(source, problems)
    return replace(lab, fleet=fleet)


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
