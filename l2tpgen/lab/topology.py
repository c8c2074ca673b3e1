"""The lab of the fleet: PEs, a WAN router, a CE per site, and its containerlab topology.

``fleet_lab`` makes the lab's objects (``objects.py``) from the model; ``topology_document``
writes them as the topology ``lab build`` writes, which ``inputs.parse_lab`` reads back into the
same objects (``tests/test_lab_one_route.py``). ``lab/build.py`` is the route every caller takes.

Linux flavor: every node is a Linux container configured with ``exec``: the WAN router holds each
site's gateway address (WAN MTU from the models) and routes loopbacks; each Linux or VyOS PE runs
exactly what ``render`` writes for it, for the fleet as modelled, only its interface names mapped
to the lab's, and each Cisco PE is emulated on Linux framing as Cisco documents (the tag carried,
the rendered MTU: ``faithful.py``); each CE has one VLAN subinterface with a test address per
stretched VLAN. The checks ``lab run`` makes are read from the CE nodes' labels and, for the
frames checks, from the files beside the topology its Linux or VyOS PEs name in their
``l2tpgen.frames`` label (``framefile.py``), so the topology and those files are all it needs.

cisco_iol flavor: each PE is a Cisco IOL node with its rendered IOS config as a partial startup
config (``iol.py``).

Variant ``single-trunk`` replaces the per-VLAN sessions with one session carrying the whole trunk:
the anti-pattern, which forwards too (the linter is what flags it). As on the routers of the
field report, the session takes the LAN's 1500-byte frames and the PE fragments what no longer
fits the WAN after encapsulation (Linux does not set DF on L2TP-over-IP packets).

IPv6 underlays: the vm engine boots with IPv6 off on every interface (``vm.py``); a site with an
IPv6 WAN turns it on for its PE's loopback and WAN interface only (the bridges and sessions stay
quiet), the WAN router on every interface, with forwarding, and its gateway addresses skip
duplicate address detection (``nodad``), as the PEs' rendered WAN addresses do.

The WAN shaping and the VLANs' workloads are labels (``inputs.py``): ``lab run`` applies them.

Protection (``pw.protection``): a Linux PE whose pseudowires get IPsec is labelled
``l2tpgen.protection: ipsec`` and binds the swanctl.conf l2tpgen renders for it (masked: the lab
fills in throwaway secrets), written beside the topology (``protection_files``); its commands end
with the inbound xfrm policies. The CEs' MTU labels are the sessions' budgets, ESP included.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from l2tpgen.errors import L2tpgenError
from l2tpgen.lab.checks.frames import frames_specs
from l2tpgen.lab.faithful import LAB_LAN, LAB_WAN, lab_names, map_names, pe_commands
from l2tpgen.lab.fields import FRAMES_FILE, VLANS, check_lab_name
from l2tpgen.lab.framefile import frames_file_name
from l2tpgen.lab.iol import IOL_LAN, IOL_WAN, partial_config_name
from l2tpgen.lab.kept_ports import kept_port_labels
from l2tpgen.lab.kinds import IOL_KIND, LINUX_KIND, Flavor
from l2tpgen.lab.objects import (
    INBOUND_FILTER,
    INDEX,
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
)
from l2tpgen.lab.pairs import ce_address
from l2tpgen.lab.shaping import Shaping
from l2tpgen.platforms.render import kernel_plane
from l2tpgen.render.swanctl import render_swanctl

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.hosts import Workload
    from l2tpgen.model import Fleet

LINUX_IMAGE = "ghcr.io/srl-labs/network-multitool:latest"
IOL_IMAGE = "vrnetlab/cisco_iol:17.12.01"
Variant = Literal["per-vlan", "single-trunk"]
LAN_MTU = 1500


def _trunk_commands(fleet: Fleet, name: str) -> list[str]:
    site = fleet.site(name)
    pseudowires = fleet.pseudowires(name)
    peers = {pw.peer.name for pw in pseudowires}
    if len(peers) != 1:
        raise L2tpgenError(f"{name}: the single-trunk variant needs exactly one peer")
    first = min(pseudowires, key=lambda pw: pw.vc_id)
    lan = LAB_LAN
    return [
        *(map_names(command, lab_names(site)) for command in kernel_plane().base(site)),
        (
            f"ip l2tp add tunnel tunnel_id 1 peer_tunnel_id 1 encap ip local {site.tunnel_address} "
            f"remote {first.peer_address}"
        ),
        (
            f"ip l2tp add session name l2tptrunk tunnel_id 1 session_id {first.vc_id} "
            f"peer_session_id {first.vc_id} l2spec_type none"
        ),
        # The LAN's frames, tag included, go in whole: what no longer fits the WAN after
        # encapsulation is fragmented by the PE (the single-trunk failure of the field report).
        f"ip link set dev l2tptrunk up mtu {LAN_MTU}",
        "ip link add brtrunk type bridge",
        f"ip link set dev {lan} master brtrunk",
        "ip link set dev l2tptrunk master brtrunk",
        "ip link set dev brtrunk up",
    ]


def ipv6_commands(interfaces: tuple[str, ...]) -> list[str]:
    """Turn IPv6 on for ``interfaces`` (all: every interface of the node, and forwarding)."""
    if interfaces == ("all",):
        return [
            "sysctl -w net.ipv6.conf.all.disable_ipv6=0",
            "sysctl -w net.ipv6.conf.all.forwarding=1",
        ]
    return [f"sysctl -w net.ipv6.conf.{name}.disable_ipv6=0" for name in interfaces]


def _wan_router(fleet: Fleet, names: list[str], shaping: Shaping) -> Node:
    commands = ["sysctl -w net.ipv4.ip_forward=1"]
    if any(fleet.site(name).wan.ipv6 for name in names):
        commands += ipv6_commands(("all",))
    for port, name in enumerate(names, start=1):
        site = fleet.site(name)
        prefix = site.wan.address.network.prefixlen
        nodad = " nodad" if site.wan.ipv6 else ""
        commands += [
            f"ip link set dev eth{port} up mtu {site.wan.mtu}",
            f"ip addr add {site.wan.gateway}/{prefix} dev eth{port}{nodad}",
        ]
        if site.wan.loopback is not None:
            commands.append(f"ip route add {site.wan.loopback.address} via {site.wan.address.ip}")
    labels = {ROLE: "wan", **shaping.labels()}
    return Node("wan", LINUX_KIND, "wan", tuple(commands), tuple(labels.items()), image=LINUX_IMAGE)


def _ce(
    fleet: Fleet,
    name: str,
    index: int,
    variant: Variant,
    *,
    workloads: Mapping[int, Workload],
    stated: Mapping[int, Workload],
) -> tuple[Node, Ce]:
    site = fleet.site(name)
    vlans = sorted(pw.vlan.id for pw in fleet.pseudowires(name))
    commands = ["ip link set dev eth1 up"]
    for vlan in vlans:
        commands += [
            f"ip link add link eth1 name eth1.{vlan} type vlan id {vlan}",
            f"ip link set dev eth1.{vlan} up",
            f"ip addr add {ce_address(index, vlan)} dev eth1.{vlan}",
        ]
    budget = site.data_budget(dot1q=variant == "single-trunk").max_inner_mtu
    # Per VLAN, each session's own budget (ESP, its pair's cookie, the tag a Cisco end carries:
    # cisco_iol keeps the Cisco sites): a site whose VLANs differ gets them in l2tpgen.mtus.
    per_vlan = {
        pw.vlan.id: pw.budget.max_inner_mtu
        for pw in fleet.pseudowires(name)
        if variant == "per-vlan"
    }
    budget = min(per_vlan.values(), default=budget)
    labels = {
        ROLE: "ce",
        SITE: name,
        INDEX: str(index),
        PE: f"pe-{name}",
        VLANS: ",".join(map(str, vlans)),
        MTU: str(budget),
    }
    mtus = tuple((v, m) for v, m in sorted(per_vlan.items()) if m != budget)
    if len(set(per_vlan.values())) > 1:
        labels[MTUS] = ",".join(f"{v}={m}" for v, m in mtus)
    kinds = {**stated, **workloads}  # ``workloads`` (the options) win over the model's
    chosen = tuple((v, kinds[v]) for v in vlans if v in kinds)
    if chosen:
        labels[WORKLOADS_LABEL] = ",".join(f"{v}={kind}" for v, kind in chosen)
    node = Node(
        f"ce-{name}", LINUX_KIND, "ce", tuple(commands), tuple(labels.items()), image=LINUX_IMAGE
    )
    ce = Ce(node.name, name, index, f"pe-{name}", tuple(vlans), budget, chosen, mtus)
    return node, ce


def swanctl_name(site: str) -> str:
    """The file beside the topology that holds a PE's swanctl.conf."""
    return f"pe-{site}.swanctl.conf"


def swanctl_file(fleet: Fleet, name: str) -> str | None:
    """A Linux PE's swanctl.conf as l2tpgen renders it (masked), or None without IPsec."""
    return render_swanctl(fleet.site(name), fleet.pseudowires(name))


def protection_files(fleet: Fleet, flavor: Flavor = LINUX_KIND) -> dict[str, str]:
    """The swanctl.conf of every Linux-run PE with IPsec, by file name (beside the topology).

    Every PE the lab runs on Linux (Linux, VyOS, an emulated Cisco one; in the cisco_iol flavor
    not the IOL nodes) gets the swanctl.conf l2tpgen renders for its site.
    """
    found = {}
    for name, site in sorted(fleet.sites.items()):
        iol = flavor == IOL_KIND and site.driver.lab_kind == IOL_KIND
        text = None if iol else swanctl_file(fleet, name)
        if text is not None:
            found[swanctl_name(name)] = text
    return found


def _pe(
    fleet: Fleet,
    site_name: str,
    flavor: Flavor,
    variant: Variant,
    kept: Mapping[str, str],
    *,
    frames: bool,
) -> Node:
    """A site's PE: an IOL node (cisco_iol flavor, a Cisco site), else Linux running its commands.

    ``kept``: its kept port's labels; ``frames``: it names its frames checks' file (Linux only).
    """
    site = fleet.site(site_name)
    name = f"pe-{site_name}"
    labels = {ROLE: "pe", SITE: site_name, **kept}
    if flavor == IOL_KIND and site.driver.lab_kind == IOL_KIND:
        config = partial_config_name(site_name)
        return Node(name, IOL_KIND, "pe", (), tuple(labels.items()), config, image=IOL_IMAGE)
    if variant == "single-trunk":
        commands = _trunk_commands(fleet, site_name)
    else:
        commands = pe_commands(fleet, site_name)
    if site.wan.ipv6:
        commands = [*ipv6_commands(("lo", LAB_WAN)), *commands]
    if frames:  # after the kept port's labels
        labels[FRAMES_FILE] = frames_file_name(site_name)
    if not site.driver.ios_config and not site.driver.inbound_filter:
        labels[INBOUND_FILTER] = "none"  # its platform renders none (VyOS)
    swanctl = swanctl_file(fleet, site_name) if variant == "per-vlan" else None
    binds: tuple[str, ...] = ()
    if swanctl is not None:
        labels[PROTECTION] = "ipsec"
        binds = (f"{swanctl_name(site_name)}:{SWANCTL_TARGET}:ro",)
    files = () if swanctl is None else ((SWANCTL_TARGET, swanctl),)
    exec_ = tuple(commands)
    return Node(
        name, LINUX_KIND, "pe", exec_, tuple(labels.items()), None, binds, files, LINUX_IMAGE
    )


def fleet_lab(
    fleet: Fleet,
    *,
    name: str = "l2tpgen",
    flavor: Flavor = LINUX_KIND,
    variant: Variant = "per-vlan",
    shaping: Shaping | None = None,
    workloads: Mapping[int, Workload] | None = None,
    site_workloads: Mapping[str, Mapping[int, Workload]] | None = None,
    frames: bool = True,
) -> Lab:
    """The lab of the fleet, its objects made from the model (no topology read back).

    ``frames``: the lab carries the frames checks (``Lab.frames``, keyed cookies masked) and
    each PE that has some names their file in its label ``l2tpgen.frames``, for the topology
    ``lab run FILE`` reads (``framefile.py``); a lab built in memory (``lab.build``) carries its
    fleet instead.

    ``shaping`` and the workloads become labels of the wan and CE nodes: ``site_workloads`` by
    site and VLAN (what the model states, ``fromsites.model_workloads``), ``workloads`` by VLAN
    (the options), which win. Nothing is read from the model here: ``lab build`` passes what
    ``fromsites`` finds. A Linux site is a Linux PE in every flavor; in the cisco_iol flavor the
    Cisco sites are IOL nodes. ``objects.lab_problems`` checks it as ``parse_lab`` checks a file.

    Raises:
        LabInputError: the name is unusable.
    """
    check_lab_name(name)  # what `lab run` checks, refused before anything is written
    shaping = shaping or Shaping()
    names = sorted(fleet.sites)
    specs = frames_specs(fleet) if frames else ()  # its own PE on the VM, whatever the variant
    framed = {spec.site for spec in specs}
    kept = kept_port_labels(fleet)  # named, reported N/A by `lab run` (``kept_ports.py``)
    nodes = [_wan_router(fleet, names, shaping)]
    links: list[Link] = []
    ces: list[Ce] = []
    for index, site_name in enumerate(names):
        site = fleet.site(site_name)
        pe = _pe(
            fleet, site_name, flavor, variant, kept.get(site_name, {}), frames=site_name in framed
        )
        wan_port, lan_port = (IOL_WAN, IOL_LAN) if pe.kind == IOL_KIND else ("eth1", "eth2")
        stated = (site_workloads or {}).get(site_name, {})
        ce_node, ce = _ce(
            fleet, site_name, index, variant, workloads=workloads or {}, stated=stated
        )
        nodes += [pe, ce_node]
        ces.append(ce)
        links.append(
            Link(Endpoint(pe.name, wan_port), Endpoint("wan", f"eth{index + 1}"), site.wan.mtu)
        )
        links.append(Link(Endpoint(pe.name, lan_port), Endpoint(ce.node, "eth1")))
    return Lab(name, tuple(nodes), tuple(links), tuple(ces), "wan", shaping, frames=specs)


def topology_document(lab: Lab) -> dict[str, Any]:
    """The containerlab topology of a lab (a dict ready for YAML): what ``lab build`` writes."""
    nodes: dict[str, Any] = {}
    for node in lab.nodes:
        document: dict[str, Any] = {"kind": node.kind, "image": node.image}
        if node.startup_config is not None:
            document["startup-config"] = node.startup_config
        if node.exec:
            document["exec"] = list(node.exec)
        document["labels"] = dict(node.labels)
        if node.binds:
            document["binds"] = list(node.binds)
        nodes[node.name] = document
    links: list[dict[str, Any]] = []
    for link in lab.links:
        ends = [f"{end.node}:{end.interface}" for end in (link.a, link.b)]
        links.append(
            {"endpoints": ends} if link.mtu is None else {"endpoints": ends, "mtu": link.mtu}
        )
    return {"name": lab.name, "topology": {"nodes": nodes, "links": links}}


def build_topology(
    fleet: Fleet,
    *,
    name: str = "l2tpgen",
    flavor: Flavor = LINUX_KIND,
    variant: Variant = "per-vlan",
    shaping: Shaping | None = None,
    workloads: Mapping[int, Workload] | None = None,
    site_workloads: Mapping[str, Mapping[int, Workload]] | None = None,
    frames: bool = True,
) -> dict[str, Any]:
    """The containerlab topology of the fleet (a dict ready for YAML): ``fleet_lab``'s document."""
    lab = fleet_lab(
        fleet,
        name=name,
        flavor=flavor,
        variant=variant,
        shaping=shaping,
        workloads=workloads,
        site_workloads=site_workloads,
        frames=frames,
    )
    return topology_document(lab)
