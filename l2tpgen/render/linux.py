"""Linux PE rendering: the iproute2 commands that build a site's pseudowires on a Linux router.

One command per line, no shell syntax, so the same list serves a shell script, containerlab's
``exec`` and the QEMU lab. Per peer an IP-encapsulated tunnel (tunnel IDs are local bookkeeping in
IP mode); per VLAN a static session (``l2spec_type none``, as Cisco), its Ethernet device with the
MTU from ``mtu.py`` (the VLAN tag is removed by the LAN subinterface, so none is carried), and a
bridge joining it to the LAN trunk's VLAN subinterface.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from l2tpgen.model import Fleet, Pseudowire, Site


def _cookie_hex(words: tuple[int, ...]) -> str:
    return "".join(f"{word:08x}" for word in words)


def _route(network: str, gateway: str) -> str:
    return f"ip route add {'default' if network == '0.0.0.0/0' else network} via {gateway}"


# Cisco's `sequencing transmit|receive|both` against iproute2's `seq send|recv|both`, with the
# default (4-byte) L2-specific sublayer that carries the sequence numbers. Unconfirmed against a
# router (the brief's [U]); without sequencing both sides use no sublayer, as Cisco does.
_SEQ = {"transmit": "send", "receive": "recv", "both": "both"}


def l2spec(pw: Pseudowire) -> str:
    """The session's L2-specific sublayer and sequencing options."""
    sequencing = pw.settings.sequencing
    if sequencing == "none":
        return "l2spec_type none"
    return f"l2spec_type default seq {_SEQ[sequencing]}"


def base_commands(site: Site) -> list[str]:
    """WAN addressing and routes, loopback, LAN trunk up."""
    wan, lan = site.linux.wan, site.linux.lan
    commands = [
        f"ip link set dev {wan} up mtu {site.wan.mtu}",
        f"ip addr add {site.wan.address} dev {wan}",
        *(_route(str(net), str(site.wan.gateway)) for net in site.wan.routes),
        f"ip link set dev {lan} up",
    ]
    if site.wan.loopback is not None:
        commands.insert(2, f"ip addr add {site.wan.loopback.address} dev lo")
    return commands


def pseudowire_commands(site: Site, pseudowires: tuple[Pseudowire, ...]) -> list[str]:
    """Tunnels, sessions and bridges for ``pseudowires`` (static session IDs and cookies)."""
    commands: list[str] = []
    tunnels: dict[str, int] = {}
    for pw in pseudowires:
        if pw.peer.name not in tunnels:
            tunnels[pw.peer.name] = len(tunnels) + 1
            tunnel = tunnels[pw.peer.name]
            commands.append(
                f"ip l2tp add tunnel tunnel_id {tunnel} peer_tunnel_id {tunnel} encap ip "
                f"local {site.tunnel_address} remote {pw.peer_address}"
            )
    lan = site.linux.lan
    for pw in pseudowires:
        vlan, (local, remote) = pw.vlan.id, pw.session_ids
        # The pair's budget: both ends of one pseudowire get the same MTU.
        mtu = pw.budget.max_inner_mtu
        session = (
            f"ip l2tp add session name l2tp{vlan} tunnel_id {tunnels[pw.peer.name]} "
            f"session_id {local} peer_session_id {remote} {l2spec(pw)}"
        )
        if pw.cookie_local:
            # Linux sends `cookie`, expects `peer_cookie`: we send the peer's local cookie.
            sent, expected = _cookie_hex(pw.cookie_remote), _cookie_hex(pw.cookie_local)
            session += f" cookie {sent} peer_cookie {expected}"
        commands += [
            session,
            f"ip link set dev l2tp{vlan} up mtu {mtu}",
            f"ip link add link {lan} name {lan}.{vlan} type vlan id {vlan}",
            f"ip link set dev {lan}.{vlan} up",
            f"ip link add br{vlan} type bridge",
            f"ip link set dev {lan}.{vlan} master br{vlan}",
            f"ip link set dev l2tp{vlan} master br{vlan}",
            f"ip link set dev br{vlan} up",
        ]
    return commands


def linux_commands(fleet: Fleet, name: str) -> list[str]:
    """Every command that turns a Linux box into the site's PE."""
    site = fleet.site(name)
    return base_commands(site) + pseudowire_commands(site, fleet.pseudowires(name))


def render_linux(fleet: Fleet, name: str) -> str:
    """The commands as a script (comments say what each block is)."""
    site = fleet.site(name)
    lines = [
        f"# l2tpgen: {site.name} ({site.hostname}), Linux PE, static L2TPv3 sessions",
        (
            f"# WAN {site.linux.wan}, LAN trunk {site.linux.lan}; needs the l2tp_ip, l2tp_eth, "
            "8021q and bridge modules"
        ),
    ]
    if any(not pw.static for pw in fleet.pseudowires(name)):
        lines.append(
            "# NOTE: this site uses dynamic signaling, which Linux cannot speak: these commands "
            "are its data plane only (static session IDs = VC IDs), for labs"
        )
    lines += linux_commands(fleet, name)
    return "\n".join(lines) + "\n"
