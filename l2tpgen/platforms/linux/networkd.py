"""A Linux PE as systemd-networkd files: the persistent form of the iproute2 commands.

One ``.netdev`` per peer holds the tunnel (``[L2TP]``) and its sessions (``[L2TPSession]``, one per
VLAN); per VLAN a VLAN netdev on the LAN trunk and a bridge joining it to the session; ``.network``
files give the WAN its address and routes and attach the rest. Keys as systemd.netdev(5) and
systemd.network(5) document them (systemd 242 and later). Towards a Cisco dot1Q subinterface the
tag is carried (see ``linux.py``): a VLAN netdev on the session joins the bridge instead.

systemd-networkd cannot set L2TPv3 cookies or sequencing: ``[L2TPSession]`` has ``Name``,
``SessionId``, ``PeerSessionId`` and ``Layer2SpecificHeader`` only. A pseudowire that needs either
is refused with the way out (``cookie: 0`` at both ends, or the iproute2 form).

Nor can it express IPsec for a pseudowire: it has no xfrm policies (its ``[Xfrm]`` netdev makes
an xfrm interface, not the inbound policy that drops unprotected L2TPv3), and strongSwan's
configuration is not its to write. Nor, therefore, can it make the PE fail closed (the xfrm
blocks of protocol 115 that ``linux.py`` puts between the tunnels and the sessions): networkd
would bring the sessions up at boot with nothing to stop clear L2TPv3 until charon loads. A site
whose pseudowires get IPsec or an inbound filter (``protection``) is refused, naming this:
``render --format iproute2`` writes the commands and swanctl.conf.

A PE with several peers binds each peer's address to its own sessions (``binding.py``): networkd
has no firewall, so that table comes as one more file, ``l2tpgen-binding.nft``, for nftables
(``nft -f``, or included from ``/etc/nftables.conf``: Debian's nftables.service runs before
``network-pre.target``, so before networkd creates the sessions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.errors import RenderError
from l2tpgen.platforms.linux.binding import binding_file
from l2tpgen.platforms.linux.render import session_port

if TYPE_CHECKING:
    from l2tpgen.model import Fleet, Pseudowire, Site


BINDING_FILE = "l2tpgen-binding.nft"  # not a networkd file: for nftables (binding.py)


def _ini(*sections: tuple[str, list[tuple[str, object]]]) -> str:
    blocks = []
    for title, keys in sections:
        blocks.append("\n".join([f"[{title}]", *(f"{k}={v}" for k, v in keys)]))
    return "\n\n".join(blocks) + "\n"


def _check(pw: Pseudowire) -> None:
    settings = pw.settings
    protection = pw.protection
    if protection.ipsec or protection.inbound_filter:
        what = "IPsec" if protection.ipsec else "the inbound filter"
        raise RenderError(
            f"{pw.site.name}: systemd-networkd cannot configure {what} for the pseudowires to "
            f"{pw.peer.name} ({protection.describe()}): it has no xfrm policies (neither the "
            "blocks that keep clear L2TPv3 out and in while charon is down, at boot or restarting, "
            "nor the inbound filter) and does not run strongSwan; render --format iproute2 "
            "(commands and swanctl.conf)"
        )
    problems = []
    if pw.cookie_size:
        problems.append(f"{pw.cookie_size}-byte cookies")
    if settings.sequencing != "none":
        problems.append(f"sequencing {settings.sequencing}")
    if problems:
        raise RenderError(
            f"{pw.site.name}: systemd-networkd cannot configure {' or '.join(problems)} "
            f"(pseudowires to {pw.peer.name}); set `cookie: 0` and no sequencing for that peer at "
            "both ends, or render --format iproute2"
        )


def _wan(site: Site) -> dict[str, str]:
    network: list[tuple[str, object]] = [("Address", site.wan.address)]
    routes = [
        ("Route", [("Destination", net), ("Gateway", site.wan.gateway)]) for net in site.wan.routes
    ]
    files = {
        f"10-{site.data_plane.wan}.network": _ini(
            ("Match", [("Name", site.data_plane.wan)]),
            ("Link", [("MTUBytes", site.wan.mtu)]),
            ("Network", network),
            *routes,  # type: ignore[arg-type]
        )
    }
    if site.wan.loopback is not None:
        files["10-lo.network"] = _ini(
            ("Match", [("Name", "lo")]), ("Network", [("Address", site.wan.loopback.address)])
        )
    return files


def render_networkd(fleet: Fleet, name: str) -> dict[str, str]:
    """The site's files, by file name (for /etc/systemd/network/)."""
    site = fleet.site(name)
    pseudowires = fleet.pseudowires(name)
    files = _wan(site)
    lan = site.data_plane.lan
    tunnels: dict[str, list[Pseudowire]] = {}
    for pw in pseudowires:
        _check(pw)
        tunnels.setdefault(pw.peer.name, []).append(pw)
    for number, (peer, ends) in enumerate(tunnels.items(), start=1):
        sessions = [
            (
                "L2TPSession",
                [
                    ("Name", f"l2tp{pw.vlan.id}"),
                    ("SessionId", pw.session_ids[0]),
                    ("PeerSessionId", pw.session_ids[1]),
                    ("Layer2SpecificHeader", "none"),  # as Cisco: networkd's default is "default"
                ],
            )
            for pw in ends
        ]
        files[f"20-l2tpt{number}.netdev"] = f"# pseudowires to {peer}\n" + _ini(
            ("NetDev", [("Name", f"l2tpt{number}"), ("Kind", "l2tp")]),
            (
                "L2TP",
                [
                    ("TunnelId", number),
                    ("PeerTunnelId", number),
                    ("Local", site.tunnel_address),
                    ("Remote", ends[0].peer_address),
                    ("EncapsulationType", "ip"),
                ],
            ),
            *sessions,
        )
    vlans = [pw.vlan.id for pw in pseudowires if not pw.vlan.native]
    # The native VLAN's frames are the untagged ones: the port itself joins its bridge.
    native = [("Bridge", f"br{pw.vlan.id}") for pw in pseudowires if pw.vlan.native]
    files[f"30-{lan}.network"] = _ini(
        ("Match", [("Name", lan)]),
        (
            "Network",
            [("LinkLocalAddressing", "no"), *native, *(("VLAN", f"{lan}.{v}") for v in vlans)],
        ),
    )
    for pw in pseudowires:
        vlan = pw.vlan.id
        files[f"20-br{vlan}.netdev"] = _ini(("NetDev", [("Name", f"br{vlan}"), ("Kind", "bridge")]))
        if not pw.vlan.native:
            files[f"20-{lan}.{vlan}.netdev"] = _ini(
                ("NetDev", [("Name", f"{lan}.{vlan}"), ("Kind", "vlan")]), ("VLAN", [("Id", vlan)])
            )
            files[f"30-{lan}.{vlan}.network"] = _ini(
                ("Match", [("Name", f"{lan}.{vlan}")]), ("Network", [("Bridge", f"br{vlan}")])
            )
        port = session_port(pw)
        files[f"30-l2tp{vlan}.network"] = _ini(
            ("Match", [("Name", f"l2tp{vlan}")]),
            ("Link", [("MTUBytes", pw.budget.max_inner_mtu)]),
            ("Network", [("VLAN", port)] if pw.dot1q_carried else [("Bridge", f"br{vlan}")]),
        )
        if pw.dot1q_carried:  # towards Cisco the tag rides inside the session (linux.py)
            files[f"20-{port}.netdev"] = _ini(
                ("NetDev", [("Name", port), ("Kind", "vlan")]), ("VLAN", [("Id", vlan)])
            )
            files[f"30-{port}.network"] = _ini(
                ("Match", [("Name", port)]), ("Network", [("Bridge", f"br{vlan}")])
            )
        files[f"30-br{vlan}.network"] = _ini(
            ("Match", [("Name", f"br{vlan}")]),
            ("Network", [("LinkLocalAddressing", "no"), ("ConfigureWithoutCarrier", "yes")]),
        )
    binding = binding_file(site, pseudowires)
    if binding is not None:  # several peers: networkd has no firewall; nftables.service loads it
        files[BINDING_FILE] = binding
    return dict(sorted(files.items()))
