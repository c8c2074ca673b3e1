"""Lab inputs, validated before anything runs: the topology file, its labels, output paths.

A topology becomes a ``Lab`` (``objects.py``): frozen values with every name checked against a
pattern (node names reach the QEMU guest's shell and Docker's container names), every endpoint
split into node and interface, every label l2tpgen reads parsed. All problems are reported at
once. A lab built from the fleet is made of the same objects directly (``topology.fleet_lab``).

Labels l2tpgen reads (``lab build`` writes them, from the model or its options: ``fromsites.py``):

* every node: ``l2tpgen.role`` (``wan``, ``pe`` or ``ce``);
* ``pe``: ``l2tpgen.site`` and, on a Linux or VyOS PE with a Cisco peer, ``l2tpgen.frames``
  (the file beside the topology that holds its frames checks, ``framefile.py``; the old
  ``l2tpgen.frames.PEER`` labels, JSON, are refused);
* ``ce``: ``l2tpgen.site``, ``l2tpgen.index`` (0-98), ``l2tpgen.pe`` (a pe node),
  ``l2tpgen.vlans`` (``2996,2997``), ``l2tpgen.mtu`` (the inner MTU ``mtu.py`` predicts) and,
  optionally, ``l2tpgen.workloads`` (``2997=cluster-heartbeat,2998=live-migration``);
* ``wan``, optionally: ``l2tpgen.wan.delay-ms`` (one-way delay added in each direction, so the
  RTT grows by twice it), ``l2tpgen.wan.loss-pct`` (loss in each direction, percent) and
  ``l2tpgen.wan.rate-mbit`` (rate in each direction).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from l2tpgen.files import UserFileError, read_text
from l2tpgen.lab.binds import parse_binds, side_files
from l2tpgen.lab.fields import (
    LAB_NAME_RULE,
    NAME,
    VLANS,
    LabInputError,
    parse_int,
    parse_shaping,
    parse_workloads,
)
from l2tpgen.lab.framefile import node_frames
from l2tpgen.lab.kinds import LINUX_KIND
from l2tpgen.lab.objects import (
    INBOUND_FILTER,
    INDEX,
    MAX_INDEX,
    MTU,
    MTUS,
    PE,
    PROTECTION,
    ROLE,
    SITE,
    SWANCTL_TARGET,
    WORKLOADS_LABEL,
    Ce,
    Endpoint,
    Lab,
    Link,
    Node,
    Role,
    cross_problems,
)
from l2tpgen.lab.shaping import Shaping

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path

    from l2tpgen.lab.binds import Unreadable
    from l2tpgen.lab.framefile import FramesSpec


# The lab's objects and labels live in objects.py; named here too, where the lab's modules have
# always imported them from.
__all__ = [
    "INBOUND_FILTER",
    "INDEX",
    "MAX_INDEX",
    "MTU",
    "MTUS",
    "PE",
    "PROTECTION",
    "ROLE",
    "SITE",
    "SWANCTL_TARGET",
    "WORKLOADS_LABEL",
    "Ce",
    "Endpoint",
    "Lab",
    "Link",
    "Node",
    "load_lab",
    "parse_lab",
]

LINUX_INTERFACE = re.compile(r"^[A-Za-z0-9_.-]{1,15}$")
OTHER_INTERFACE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_./:-]{0,39}$")
MAX_EXEC = 4096


def _labels(raw: object, where: str, problems: list[str]) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        problems.append(f"{where}: labels must be a mapping")
        return {}
    labels = {}
    for key, value in raw.items():
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            problems.append(f"{where}: label {key} must be a string or a number")
            continue
        labels[str(key)] = str(value)
    return labels


def _exec(raw: object, where: str, problems: list[str]) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        problems.append(f"{where}: exec must be a list of commands")
        return ()
    for number, command in enumerate(raw, start=1):
        if len(command) > MAX_EXEC or any(c in command for c in "\n\r\0"):
            problems.append(f"{where}: exec command {number} must be one line")
    return tuple(raw)


def _node(
    name: str,
    raw: object,
    default_kind: str | None,
    problems: list[str],
    files: Mapping[str, str | Unreadable] | None = None,
) -> Node | None:
    where = f"node {name!r}"
    if not NAME.fullmatch(name):
        problems.append(
            f"{where}: node names are 1-40 letters, digits, '-' or '_', starting with a letter or "
            "digit"
        )
        return None
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        problems.append(f"{where} must be a mapping")
        return None
    kind = raw.get("kind", default_kind)
    if not isinstance(kind, str):
        problems.append(f"{where} has no kind")
        return None
    labels = _labels(raw.get("labels"), where, problems)
    role = labels.get(ROLE)
    if role not in ("wan", "pe", "ce"):
        problems.append(f"{where} has no {ROLE} label (wan, pe or ce)")
        return None
    needed = {"pe": (SITE,), "ce": (SITE, INDEX, PE, VLANS, MTU)}.get(role, ())
    missing = [key for key in needed if key not in labels]
    if missing:
        problems.append(f"{where} (role {role}) lacks the label(s) {', '.join(missing)}")
        return None
    exec_ = _exec(raw.get("exec"), where, problems)
    config = raw.get("startup-config")
    if config is not None and not isinstance(config, str):
        problems.append(f"{where}: startup-config must be a file name")
        config = None
    binds, texts = parse_binds(raw.get("binds"), where, files, problems)
    image = raw.get("image")
    # The labels in the file's order (``lab build`` writes them as ``fleet_lab`` makes them).
    labels_ = tuple(labels.items())
    role_ = cast("Role", role)
    image_ = image if isinstance(image, str) else None
    return Node(name, kind, role_, exec_, labels_, config, binds, texts, image_)


def _ce(node: Node, problems: list[str]) -> Ce | None:
    where = f"node {node.name!r}"
    labels = dict(node.labels)
    count = len(problems)
    index = parse_int(labels[INDEX], f"{where} label {INDEX}", problems, 0, MAX_INDEX)
    mtu = parse_int(labels[MTU], f"{where} label {MTU}", problems, 68, 65535)
    vlans = tuple(
        v
        for v in (
            parse_int(t.strip(), f"{where} label {VLANS}", problems, 1, 4094)
            # empty: a CE whose site keeps a port-mode xconnect (no VLAN listed, kept_ports.py)
            for t in (labels[VLANS].split(",") if labels[VLANS] else ())
        )
        if v is not None
    )
    if not NAME.fullmatch(labels[SITE]):
        problems.append(f"{where} label {SITE} is not a valid name: {labels[SITE]!r}")
    workloads = parse_workloads(labels.get(WORKLOADS_LABEL, ""), vlans, where, problems)
    mtus: list[tuple[int, int]] = []
    for item in filter(None, labels.get(MTUS, "").split(",")):
        vlan_text, _, mtu_text = item.partition("=")
        vlan = parse_int(vlan_text.strip(), f"{where} label {MTUS}: VLAN", problems, 1, 4094)
        value = parse_int(mtu_text.strip(), f"{where} label {MTUS}: MTU", problems, 68, 65535)
        if vlan is not None and value is not None:
            mtus.append((vlan, value))
    if len(problems) > count or index is None or mtu is None:
        return None
    return Ce(node.name, labels[SITE], index, labels[PE], vlans, mtu, workloads, tuple(mtus))


def _endpoint(text: object, kinds: Mapping[str, str], problems: list[str]) -> Endpoint | None:
    if not isinstance(text, str) or ":" not in text:
        problems.append(f"endpoint {text!r} must be `node:interface`")
        return None
    node, interface = text.split(":", 1)
    if node not in kinds:
        problems.append(f"endpoint {text!r} names no node of the topology")
        return None
    pattern = LINUX_INTERFACE if kinds[node] == LINUX_KIND else OTHER_INTERFACE
    if not pattern.fullmatch(interface) or interface == "lo":
        problems.append(f"endpoint {text!r}: {interface!r} is not a usable interface name")
        return None
    return Endpoint(node, interface)


def _links(raw: object, kinds: Mapping[str, str], problems: list[str]) -> tuple[Link, ...]:
    if not isinstance(raw, list) or not raw:
        problems.append("topology.links must be a non-empty list")
        return ()
    links: list[Link] = []
    for number, item in enumerate(raw, start=1):
        ends = item.get("endpoints") if isinstance(item, dict) else None
        if not isinstance(ends, list) or len(ends) != 2:  # noqa: PLR2004 - point to point
            problems.append(f"link {number} must have two endpoints")
            continue
        a, b = (_endpoint(end, kinds, problems) for end in ends)
        mtu = item.get("mtu")
        if mtu is not None and (not isinstance(mtu, int) or not 68 <= mtu <= 65535):  # noqa: PLR2004
            problems.append(f"link {number}: mtu must be a whole number from 68 to 65535")
            continue
        if a and b:
            links.append(Link(a, b, mtu))
    used: set[Endpoint] = set()
    for end in (end for link in links for end in (link.a, link.b)):
        if end in used:
            problems.append(f"{end.node}:{end.interface} is used by two links")
        used.add(end)
    return tuple(links)


def _nodes(
    raw: Mapping[object, object],
    defaults: object,
    problems: list[str],
    files: Mapping[str, str | Unreadable] | None,
) -> list[Node]:
    """The valid nodes of ``topology.nodes``, with ``topology.defaults.kind`` where one has none."""
    default_kind = defaults.get("kind") if isinstance(defaults, dict) else None
    found = (_node(str(k), v, default_kind, problems, files) for k, v in raw.items())
    return [n for n in found if n is not None]


def _frames(
    nodes: Sequence[Node], files: Mapping[str, str | Unreadable] | None, problems: list[str]
) -> tuple[FramesSpec, ...]:
    """The frames checks the nodes' ``l2tpgen.frames`` labels name, each probe's prefix once."""
    found = tuple(
        spec
        for n in nodes
        for spec in node_frames(
            (n.name, n.role, n.label(SITE) or ""), dict(n.labels), files, problems
        )
    )
    prefixes = [spec.prefix for spec in found]
    problems.extend(
        f"two frames checks share the prefix {p!r}: run `l2tpgen lab build` again"
        for p in sorted({p for p in prefixes if prefixes.count(p) > 1})
    )
    return found


def _shaping(wan: Node | None, problems: list[str]) -> Shaping:
    """The WAN router's shaping labels; none without a WAN router."""
    return parse_shaping(dict(wan.labels), f"node {wan.name!r}", problems) if wan else Shaping()


def parse_lab(
    data: object,
    source: str = "topology",
    files: Mapping[str, str | Unreadable] | None = None,
) -> Lab:
    """Validate a loaded topology document and return it as a ``Lab``.

    ``files``: the files beside the topology its nodes name (binds, frames files), by name
    (``load_lab`` reads them); None: binds and frames labels are checked for form only.

    Raises:
        LabInputError: with every problem found.
    """
    problems: list[str] = []
    if not isinstance(data, dict) or not isinstance(data.get("topology"), dict):
        raise LabInputError(source, ["not a containerlab topology (no `topology:` mapping)"])
    name = data.get("name")
    if not isinstance(name, str) or not NAME.fullmatch(name):
        problems.append(LAB_NAME_RULE)
    topology: dict[str, Any] = data["topology"]
    raw_nodes = topology.get("nodes")
    if not isinstance(raw_nodes, dict) or not raw_nodes:
        raise LabInputError(source, [*problems, "topology.nodes must be a non-empty mapping"])
    nodes = _nodes(raw_nodes, topology.get("defaults"), problems, files)
    kinds = {n.name: n.kind for n in nodes}
    links = _links(topology.get("links"), kinds, problems)
    ces = [c for c in (_ce(n, problems) for n in nodes if n.role == "ce") if c is not None]
    problems.extend(cross_problems(nodes, ces))
    wan = next((n for n in nodes if n.role == "wan"), None)
    shaping = _shaping(wan, problems)
    frames = _frames(nodes, files, problems)
    if problems:
        raise LabInputError(source, problems)
    wan_name = wan.name if wan else None
    return Lab(str(name), tuple(nodes), links, tuple(ces), wan_name, shaping, frames=frames)


def load_lab(path: Path) -> Lab:
    """Read and validate a topology file and the files beside it that its nodes name."""
    try:
        data = YAML(typ="safe").load(read_text(path, "a topology"))
    except UserFileError as exc:
        raise LabInputError(str(path), [f"cannot read it: {exc.reason}"]) from exc
    except YAMLError as exc:
        raise LabInputError(str(path), [f"not valid YAML: {exc}"]) from exc
    return parse_lab(data, str(path), side_files(data, path.parent))
