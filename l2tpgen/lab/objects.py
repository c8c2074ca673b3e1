"""The lab as the checks and engines see it: nodes, links, CEs, the WAN's shaping (issue 35).

A ``Lab`` is built from a fleet (``topology.fleet_lab``: the objects made directly from the
model) or read from a topology file (``inputs.parse_lab``: the labels parsed); either way the
same checks run on it (``cross_problems``). The labels a topology file carries are named here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from l2tpgen.lab.fields import KEPT_PORT, NAME, WHY
from l2tpgen.lab.shaping import Shaping

if TYPE_CHECKING:
    from collections.abc import Sequence

    from l2tpgen.hosts import Workload
    from l2tpgen.lab.framefile import FramesSpec
    from l2tpgen.model import Fleet

Role = Literal["wan", "pe", "ce"]
ROLE, SITE, INDEX, PE, MTU = (
    "l2tpgen.role",
    "l2tpgen.site",
    "l2tpgen.index",
    "l2tpgen.pe",
    "l2tpgen.mtu",
)
WORKLOADS_LABEL = "l2tpgen.workloads"
MTUS = "l2tpgen.mtus"  # ce, optional: VLAN=MTU where a VLAN's differs from l2tpgen.mtu
PROTECTION = "l2tpgen.protection"  # pe, optional: ipsec (the protection checks, security.py)
# pe, optional: none when its platform renders no inbound filter (VyOS): injection's own-address
# half is then N/A by design, not a failure (checks/injection.py).
INBOUND_FILTER = "l2tpgen.inbound-filter"
MAX_INDEX = 98  # CE addresses end in index + 1; markers carry two digits
SWANCTL_TARGET = "/etc/swanctl/conf.d/l2tpgen.conf"  # where a PE binds its swanctl.conf


@dataclass(frozen=True)
class Node:
    """A node: its name, kind, role, exec commands and labels."""

    name: str
    kind: str
    role: Role
    exec: tuple[str, ...]
    labels: tuple[tuple[str, str], ...]
    startup_config: str | None = None
    binds: tuple[str, ...] = ()
    files: tuple[tuple[str, str], ...] = ()  # (path in the node, text) of the binds read
    image: str | None = None  # containerlab's image (the vm engine runs its own)

    def label(self, key: str) -> str | None:
        """A label's value."""
        return dict(self.labels).get(key)


@dataclass(frozen=True)
class Endpoint:
    """One end of a link."""

    node: str
    interface: str


@dataclass(frozen=True)
class Link:
    """A point-to-point link and its MTU."""

    a: Endpoint
    b: Endpoint
    mtu: int | None = None


@dataclass(frozen=True)
class Ce:
    """A CE node as the checks see it."""

    node: str
    site: str
    index: int
    pe: str
    vlans: tuple[int, ...]
    mtu: int
    workloads: tuple[tuple[int, Workload], ...] = ()
    mtus: tuple[tuple[int, int], ...] = ()

    def mtu_for(self, vlan: int) -> int:
        """The inner MTU ``mtu.py`` predicts in ``vlan`` (``l2tpgen.mtus``, else ``mtu``)."""
        return dict(self.mtus).get(vlan, self.mtu)

    def workload(self, vlan: int) -> Workload:
        """What ``vlan`` carries (``general`` unless a label says otherwise)."""
        return dict(self.workloads).get(vlan, "general")


@dataclass(frozen=True)
class Lab:
    """A validated lab: from a fleet (``topology.fleet_lab``) or a topology file (``inputs.py``)."""

    name: str
    nodes: tuple[Node, ...]
    links: tuple[Link, ...]
    ces: tuple[Ce, ...]
    wan: str | None = None
    shaping: Shaping = field(default_factory=Shaping)
    # The fleet the lab was built from (`lab_of_fleet`), None for a topology file: the checks
    # that need the model (the frames checks) take their pairs from it, as objects.
    fleet: Fleet | None = field(default=None, compare=False, repr=False)
    # The frames checks a topology file carries (the files its PEs' ``l2tpgen.frames`` labels
    # name, ``framefile.py``), as ``lab build`` wrote them from the fleet: keyed cookies masked.
    frames: tuple[FramesSpec, ...] = ()

    def node(self, name: str) -> Node:
        """A node by name."""
        return next(n for n in self.nodes if n.name == name)

    def interfaces(self, node: str) -> tuple[str, ...]:
        """The node's link interfaces, in link order."""
        ends = (end for link in self.links for end in (link.a, link.b))
        return tuple(end.interface for end in ends if end.node == node)

    def with_shaping(self, shaping: Shaping) -> Lab:
        """The same lab with another WAN shaping (command-line options win over labels)."""
        return replace(self, shaping=shaping)


def lab_problems(lab: Lab) -> list[str]:
    """What makes a lab built from a fleet unusable: the checks ``parse_lab`` makes of a file."""
    problems = [
        f"node {n.name!r}: node names are 1-40 letters, digits, '-' or '_', starting with a "
        "letter or digit"
        for n in lab.nodes
        if not NAME.fullmatch(n.name)
    ]
    problems += [
        f"node {ce.node!r} label {INDEX} must be between 0 and {MAX_INDEX}, not {ce.index}"
        for ce in lab.ces
        if ce.index > MAX_INDEX
    ]
    return problems + cross_problems(lab.nodes, lab.ces)


def cross_problems(nodes: Sequence[Node], ces: Sequence[Ce]) -> list[str]:
    """What is wrong between the nodes and CEs: a CE's PE, shared indexes, nothing to check."""
    problems: list[str] = []
    roles = {n.name: n.role for n in nodes}
    problems.extend(
        f"node {ce.node!r}: {PE} names {ce.pe!r}, which is not a pe node"
        for ce in ces
        if roles.get(ce.pe) != "pe"
    )
    indexes = [ce.index for ce in ces]
    if len(set(indexes)) != len(indexes):
        problems.append(f"two CE nodes share an {INDEX}")
    shared = {v for ce in ces for v in ce.vlans if sum(v in o.vlans for o in ces) > 1}
    whole = len(ces) == [n.role for n in nodes].count("ce")  # else a CE's own problem explains
    if ces and whole and not shared:
        problems.append(
            "no VLAN is shared by two CE nodes: there is nothing to check" + kept_ports_note(nodes)
        )
    if [n.role for n in nodes].count("wan") > 1:
        problems.append("more than one node has the wan role")
    return problems


def kept_ports_note(nodes: Sequence[Node]) -> str:
    """Why a lab of kept port-mode pseudowires has nothing to check (empty: it has none)."""
    kept = sorted(n.name for n in nodes if n.label(KEPT_PORT) is not None)
    if not kept:
        return ""
    return f" ({', '.join(kept)} keep a port-mode xconnect; {WHY.removeprefix('N/A: ')})"
