"""VPN tunnels: each pair of sites' L2TPv3 tunnel in NetBox (``vpn.tunnels``, encapsulation L2TP).

``netbox push`` records one tunnel per pair of sites with pseudowires between them, named
``SITE-PEER`` (the two site names, sorted), encapsulation ``l2tp``, with a ``peer`` termination
at each end on the site's tunnel source interface (its loopback if it has one, else its WAN
interface) whose outside IP is that interface's address: the address the other end's
``xconnect`` lines name. ``netbox pull`` does not build site files from tunnels (the addresses
come from the interfaces) but cross-checks them: an L2TP tunnel's termination on a selected
device whose outside IP is not that site's tunnel source is reported with its URL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from l2tpgen.netbox.mapping import Unmapped

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from l2tpgen.model.fleet import Fleet
    from l2tpgen.netbox.client import TunnelEnd
    from l2tpgen.netbox.mapping import Draft
    from l2tpgen.netbox.push import Pusher

ENCAPSULATION = "l2tp"


def tunnel_name(a: str, b: str) -> str:
    """The NetBox name of the tunnel between sites ``a`` and ``b``."""
    return "-".join(sorted((a, b)))


def push_tunnels(pusher: Pusher, fleet: Fleet) -> None:
    """One L2TP tunnel per pair of sites, terminated on both tunnel sources (idempotent)."""
    api = pusher.api
    for a, b, _, _ in fleet.pairs():
        name = tunnel_name(a, b)
        tunnel = pusher.ensure(
            api.vpn.tunnels,
            "tunnel",
            name,
            {"name": name},
            {"encapsulation": ENCAPSULATION},
            create={"status": "active"},
        )
        for site in (a, b):
            interface, address = pusher.sources[site]
            pusher.ensure(
                api.vpn.tunnel_terminations,
                "tunnel termination",
                f"{name} {site}",
                {"tunnel_id": tunnel, "interface_id": interface},
                {"outside_ip": address},
                create={
                    "tunnel": tunnel,
                    "role": "peer",
                    "termination_type": "dcim.interface",
                    "termination_id": interface,
                },
            )


def check_tunnels(drafts: Iterable[Draft], ends: Iterable[TunnelEnd]) -> list[Unmapped]:
    """Every L2TP tunnel end on a mapped device whose outside IP is not its tunnel source."""
    sources: Mapping[int, tuple[str, str]] = {
        draft.device.id: _source(draft.data) for draft in drafts if "wan" in draft.data
    }
    problems = []
    for end in ends:
        if end.encapsulation != ENCAPSULATION or end.outside_ip is None:
            continue
        source = sources.get(end.device_id)
        if source is None:
            continue  # the device is not mapped (and reported) or not selected
        address, what = source
        if end.outside_ip.split("/")[0] != address:
            problems.append(
                Unmapped(
                    end.url,
                    f"tunnel {end.tunnel}: outside IP {end.outside_ip} of {end.device} is not "
                    f"its tunnel source {address} (the {what} address); correct the tunnel "
                    "termination or the interface's address",
                )
            )
    return problems


def _source(site: Mapping[str, Any]) -> tuple[str, str]:
    wan = site["wan"]
    if "loopback" in wan:
        return str(wan["loopback"]["address"]).split("/")[0], "loopback"
    return str(wan["address"]).split("/")[0], "WAN"
