"""Rules that relate fields of one site, or sites to each other.

Each check yields ``Problem`` values pointing at the field to change. Messages name both files where
two sites disagree; the loader adds line and column. No message ever contains a secret.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from l2tpgen.model.class_checks import check_class_pairs, check_classes
from l2tpgen.model.family_checks import check_family, check_peer_family
from l2tpgen.model.interface_checks import check_interfaces
from l2tpgen.model.native_vlan import check_native, check_native_pairs
from l2tpgen.model.platform_checks import check_platform_paths
from l2tpgen.model.port_mode import check_port_mode, check_port_pairs
from l2tpgen.model.problems import Problem, listed
from l2tpgen.model.protection_checks import (
    check_hub_pairs,
    check_mixed_peers,
    check_protection,
)
from l2tpgen.model.transport_checks import check_corosync_transports

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from l2tpgen.model.site import Site, Vlan

MIN_HOST_PREFIX = 31  # /31 and /32 have no network or broadcast address to avoid
# No WAN subnet is shorter than a /8; a /0 makes every address "on link" and the gateway moot.
MIN_WAN_PREFIX = 8


def check_site(site: Site) -> Iterator[Problem]:
    """Every rule that needs only this site."""
    yield from check_family(site)
    yield from _check_wan(site)
    yield from check_interfaces(site)
    yield from _check_platform(site)
    yield from check_classes(site)
    yield from _check_peers(site)
    yield from _check_vlans(site)
    yield from check_port_mode(site)
    yield from check_native(site)


def _check_wan(site: Site) -> Iterator[Problem]:
    wan = site.wan
    network = wan.address.network
    if network.prefixlen < MIN_WAN_PREFIX:
        yield Problem(
            site.name,
            ("wan", "address"),
            f"WAN prefix /{network.prefixlen} is shorter than /{MIN_WAN_PREFIX}: the router would "
            "take every address of it as directly connected",
            "write the prefix length of the WAN subnet (e.g. /30, /29 or /24)",
            code="V012",
        )
        return  # the gateway and host checks below mean nothing on such a subnet
    if wan.gateway.version != network.version:
        pass  # the family is the problem (family_checks.py), not the subnet
    elif wan.gateway not in network:
        yield Problem(
            site.name,
            ("wan", "gateway"),
            f"gateway {wan.gateway} is outside the WAN subnet {network}",
            f"use a gateway inside {network}, or correct the prefix length of wan.address",
            code="V013",
        )
    elif wan.gateway == wan.address.ip:
        yield Problem(
            site.name,
            ("wan", "gateway"),
            f"gateway {wan.gateway} is the router's own WAN address",
            "the gateway is the next-hop router on the WAN subnet",
            code="V014",
        )
    ends = (network.network_address, network.broadcast_address)
    if not wan.ipv6 and network.prefixlen < MIN_HOST_PREFIX and wan.address.ip in ends:
        yield Problem(
            site.name,
            ("wan", "address"),
            f"{wan.address.ip} is the network or broadcast address of {network}",
            "choose a host address of the subnet",
            code="V015",
        )
    loopback = wan.loopback
    if loopback is not None and loopback.address.ip in network:
        yield Problem(
            site.name,
            ("wan", "loopback", "address"),
            f"loopback address {loopback.address.ip} is inside the WAN subnet {network}",
            "give the loopback an address of its own, routed to the peers",
            code="V016",
        )


def _check_platform(site: Site) -> Iterator[Problem]:
    device_type = site.management.device_type
    if site.platform is not None and device_type is not None:
        expected = site.driver.device_type
        if device_type != expected:
            yield Problem(
                site.name,
                ("management", "device_type"),
                f"device_type {device_type} is not the platform {site.platform}'s ({expected})",
                f"set `device_type: {expected}`, or leave it out (it follows the platform)",
                code="V017",
            )


def _check_peers(site: Site) -> Iterator[Problem]:
    seen: set[str] = set()
    for index, peer in enumerate(site.peer_names):
        if peer == site.name:
            yield Problem(
                site.name,
                ("peers", index),
                f"site {site.name} lists itself as a peer",
                "a pseudowire joins two different sites; remove this entry",
                code="V018",
            )
        elif peer in seen:
            yield Problem(
                site.name,
                ("peers", index),
                f"peer {peer} is listed twice",
                "remove the duplicate entry",
                code="V019",
            )
        seen.add(peer)


def _check_vlans(site: Site) -> Iterator[Problem]:
    first_vlan: dict[int, int] = {}
    first_vc: dict[tuple[str, int], int] = {}
    peer_names = set(site.peer_names)
    static = {peer: site.pseudowire_for(peer).signaling == "static" for peer in peer_names}
    for index, vlan in enumerate(site.vlans):
        if vlan.id in first_vlan:
            yield Problem(
                site.name,
                ("vlans", index),
                f"VLAN {vlan.id} is declared twice (first as vlans[{first_vlan[vlan.id]}])",
                "a VLAN has one subinterface and one peer; remove one of the entries",
                code="V020",
            )
        else:
            first_vlan[vlan.id] = index
        if vlan.peer not in peer_names and vlan.peer != site.name:
            yield Problem(
                site.name,
                ("vlans", index, "peer"),
                f"VLAN {vlan.id} names peer {vlan.peer}, which is not in this site's peers",
                f"add {vlan.peer} to peers, or correct the peer name",
                code="V021",
            )
        key = (vlan.peer, vlan.effective_vc_id)
        if static.get(vlan.peer, site.pseudowire_class.signaling == "static"):
            # Static session IDs are the VC IDs, and a session ID must be unique on a router.
            key = ("", vlan.effective_vc_id)
        if key in first_vc:
            other = site.vlans[first_vc[key]]
            yield Problem(
                site.name,
                ("vlans", index, "vc_id" if vlan.vc_id is not None else "id"),
                f"VC ID {vlan.effective_vc_id} to peer {vlan.peer} is used by VLAN {other.id} "
                f"and VLAN {vlan.id}",
                (
                    "with static signaling the VC ID is the session ID, unique on a router; "
                    if key[0] == ""
                    else "each (peer, VC ID) pair must be unique on a router; "
                )
                + "give one VLAN another vc_id (left out, vc_id is the VLAN ID)",
                code="V022",
            )
        else:
            first_vc[key] = index


def check_fleet(sites: Mapping[str, Site], files: Mapping[str, str]) -> Iterator[Problem]:
    """Every rule that relates sites to each other.

    ``files`` maps site names to the file names used in messages. Sites missing from ``sites``
    but present in ``files`` failed to load: their own errors are reported, and rules that would
    need them are skipped rather than reported twice.
    """
    yield from _check_unique_across_fleet(sites, files)
    index_of = _VlanIndex(sites)
    for name in sorted(sites):
        site = sites[name]
        for index, peer in enumerate(site.peer_names):
            if peer == name:
                continue
            if peer not in sites:
                if peer not in files:
                    yield Problem(
                        name,
                        ("peers", index),
                        f"peer {peer} is not a site of this fleet (sites: {listed(files)})",
                        f"create {peer}.yaml in the sites directory, or correct the name",
                        code="V023",
                    )
                continue
            if name not in sites[peer].peer_names:
                yield Problem(
                    name,
                    ("peers", index),
                    f"peer {peer} ({files[peer]}) does not list {name} in its peers",
                    f"add {name} to the peers of {peer}, or remove {peer} here",
                    code="V024",
                )
            yield from check_peer_family(site, sites[peer], files, index)
        yield from _check_vlan_pairs(site, sites, files, index_of)
        yield from check_class_pairs(site, sites, files)
        yield from check_protection(site, sites, files)
        yield from check_mixed_peers(site, sites)
        yield from check_hub_pairs(site, sites)
        yield from check_platform_paths(site, sites)
        yield from _check_links(site, sites, files)
        yield from check_corosync_transports(site, sites, files)
        yield from check_port_pairs(site, sites, files)
        yield from check_native_pairs(site, sites, files)


def _check_unique_across_fleet(
    sites: Mapping[str, Site], files: Mapping[str, str]
) -> Iterator[Problem]:
    by_address: dict[str, list[str]] = defaultdict(list)
    by_hostname: dict[str, list[str]] = defaultdict(list)
    for name in sorted(sites):
        by_address[str(sites[name].tunnel_address)].append(name)
        by_hostname[sites[name].hostname.lower()].append(name)
    for address, names in by_address.items():
        for name in names[1:]:
            site = sites[name]
            path = ("wan", "loopback", "address") if site.wan.loopback else ("wan", "address")
            yield Problem(
                name,
                path,
                f"tunnel source address {address} is also used by {names[0]} ({files[names[0]]})",
                "every router needs its own tunnel source address",
                code="V025",
            )
    for names in by_hostname.values():
        for name in names[1:]:
            yield Problem(
                name,
                ("hostname",),
                f"hostname {sites[name].hostname} is also used by {names[0]} ({files[names[0]]})",
                "give every router its own hostname",
                code="V026",
            )


class _VlanIndex:
    """Each site's VLANs by ID, and by (ID, peer): the first of each, built once per site.

    Finding a VLAN's mirror at the peer by scanning the peer's VLANs made the fleet check
    quadratic in the number of VLANs (16x the time for 4x the VLANs); lookups keep it linear.
    """

    def __init__(self, sites: Mapping[str, Site]) -> None:
        self.sites = sites
        self.built: dict[str, tuple[dict[int, Vlan], dict[tuple[int, str], Vlan]]] = {}

    def of(self, name: str) -> tuple[dict[int, Vlan], dict[tuple[int, str], Vlan]]:
        if name not in self.built:
            by_id: dict[int, Vlan] = {}
            by_pair: dict[tuple[int, str], Vlan] = {}
            for vlan in self.sites[name].vlans:
                by_id.setdefault(vlan.id, vlan)
                by_pair.setdefault((vlan.id, vlan.peer), vlan)
            self.built[name] = (by_id, by_pair)
        return self.built[name]


def _check_vlan_pairs(
    site: Site, sites: Mapping[str, Site], files: Mapping[str, str], index_of: _VlanIndex
) -> Iterator[Problem]:
    seen: set[int] = set()
    for index, vlan in enumerate(site.vlans):
        if vlan.peer not in sites or vlan.peer == site.name or vlan.id in seen:
            continue  # dangling peers and repeated VLANs are reported once, where they are
        seen.add(vlan.id)
        by_id, by_pair = index_of.of(vlan.peer)
        mirror = by_pair.get((vlan.id, site.name))
        if mirror is None:
            elsewhere = by_id.get(vlan.id)
            detail = f" (it sends VLAN {vlan.id} to {elsewhere.peer})" if elsewhere else ""
            yield Problem(
                site.name,
                ("vlans", index),
                f"VLAN {vlan.id} is stretched to {vlan.peer}, but {files[vlan.peer]} declares no "
                f"VLAN {vlan.id} with peer {site.name}{detail}",
                f"add `- {{id: {vlan.id}, name: {vlan.name}, peer: {site.name}, "
                f"vc_id: {vlan.effective_vc_id}}}` to the vlans of {files[vlan.peer]}, or remove "
                f"VLAN {vlan.id} here",
                code="V027",
            )
        elif site.name < vlan.peer:  # each pair is compared once
            if mirror.effective_vc_id != vlan.effective_vc_id:
                yield Problem(
                    site.name,
                    ("vlans", index, "vc_id" if vlan.vc_id is not None else "id"),
                    f"VLAN {vlan.id} has VC ID {vlan.effective_vc_id} here but "
                    f"{mirror.effective_vc_id} in {files[vlan.peer]}",
                    "both ends of a pseudowire must use the same VC ID",
                    code="V028",
                )
            if None not in (vlan.carries, mirror.carries) and vlan.carries != mirror.carries:
                yield Problem(
                    site.name,
                    ("vlans", index, "carries"),
                    f"VLAN {vlan.id} carries {vlan.carries} here but {mirror.carries} in "
                    f"{files[vlan.peer]}",
                    "one VLAN carries one kind of traffic: say it at one end, or the same at both",
                    code="V029",
                )


def _check_links(
    site: Site, sites: Mapping[str, Site], files: Mapping[str, str]
) -> Iterator[Problem]:
    """Both ends of a pair may state the link between them, but not two different ones."""
    for index, entry in enumerate(site.peers):
        peer = sites.get(entry.name)
        if entry.link is None or peer is None or entry.name <= site.name:
            continue  # each pair is compared once, from the site that sorts first
        theirs = peer.link_to(site.name)
        if theirs is not None and theirs != entry.link:
            yield Problem(
                site.name,
                ("peers", index, "link"),
                f"the link to {entry.name} is {entry.link.describe()} here but "
                f"{theirs.describe()} in {files[entry.name]}",
                "the two sites share one path: state the link at one end, or the same at both",
                code="V030",
            )
