"""Linux PE rendering: the iproute2 commands that build a site's pseudowires on a Linux router.

One command per line, no shell syntax, so the same list serves a shell script, containerlab's
``exec`` and the QEMU lab. Per peer an IP-encapsulated tunnel (tunnel IDs are local bookkeeping in
IP mode); per VLAN a static session (``l2spec_type none``, as Cisco), its Ethernet device with the
MTU from ``mtu.py``, and a bridge joining it to the LAN trunk's VLAN subinterface.

The frame inside the session: Linux to Linux, the LAN subinterface removes the tag and none is
carried. Towards a Cisco dot1Q subinterface the tag is carried (``Pseudowire.dot1q_carried``):
Cisco forwards "the VLAN Ethernet frames ... in their entirety" (L2TPv3 feature guide, IOS
12.0(29)S/12.2(25)S p.22, the brief's S1), so the Linux end bridges a VLAN device on top of the
session device (``l2tp200.200``) instead of the session device itself: frames leave tagged with
the VLAN ID and arrive tagged. The MTU budget counts the 4-byte tag for exactly these.

Protection (``pw.protection``): a protected pseudowire's cookies are keyed secrets, written as
placeholders unless revealed (then hex, from the key in the environment); Linux sends ``cookie``
and expects ``peer_cookie`` (``l2tp_core.c``: the transmit path copies ``session->cookie``, the
receive path compares with ``session->peer_cookie``). IPsec comes from strongSwan
(``swanctl.py``), which installs per-peer policies only: an L2TPv3 packet from an address no
policy names is accepted in clear (measured in the lab: forged from the attacker's own address,
5 of 5 reached the far CE). So a site with IPsec or an inbound filter gets a catch-all inbound
xfrm policy that blocks IP protocol 115 to its tunnel address, below charon's policies (which the
lab measured at priority 366975 with strongSwan 5.9.8; the higher the number, the lower the
precedence), and an ``allow`` just above it for each peer whose pseudowires are not IPsec.

IPv6 underlays (``wan.address`` IPv6): ``ip l2tp add tunnel ... local/remote`` take IPv6
addresses (ip-l2tp(8): "May be specified as an IPv4 address or an IPv6 address"; the kernel's
``l2tp_ip6`` module carries IP protocol 115 over IPv6). The xfrm selectors are host prefixes of
the family (``/128``, the catch-all ``::/0``). The WAN address is added ``nodad``: the kernel
binds the tunnel's local address at once, and a tentative address (duplicate address detection
still running) cannot be bound. The loopback's IPv6 address too: ``ipv6_add_addr`` flags every
address without ``nodad`` ``IFA_F_TENTATIVE``, and ``addrconf_dad_begin`` clears it for ``lo``
(``IFF_LOOPBACK``: no DAD) only when the address's DAD work item runs, later, on a workqueue;
until then ``l2tp_ip6``'s bind fails its ``ipv6_chk_addr`` (tentative addresses excluded):
``RTNETLINK answers: Cannot assign requested address`` (torvalds/linux ``net/ipv6/addrconf.c``,
``net/l2tp/l2tp_ip6.c``). A loaded machine's boot hits it (the lab under CPU load did); vyos-1x
works around the same race by retrying ``ip l2tp add tunnel`` for up to 10 s
(``python/vyos/ifconfig/l2tpv3.py``, ``wait_for_add_l2tpv3``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.protection import reveal_cookies

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.model import Fleet, Pseudowire, Site

# xfrm priorities: lower numbers win. Below every policy strongSwan installs.
CATCH_ALL_PRIORITY = 2_000_000
PEER_ALLOW_PRIORITY = CATCH_ALL_PRIORITY - 1


def _cookie_hex(words: tuple[int, ...]) -> str:
    return "".join(f"{word:08x}" for word in words)


def _cookies(pw: Pseudowire) -> tuple[str, str]:
    """(sent, expected) as iproute2 writes them; keyed cookies as placeholders."""
    if pw.keyed_cookies:
        expected, sent = pw.cookie_placeholders()
        return sent, expected
    return _cookie_hex(pw.cookie_remote), _cookie_hex(pw.cookie_local)


def reveal_linux_cookies(text: str, environ: Mapping[str, str] | None = None) -> str:
    """``text`` with every keyed-cookie placeholder replaced by its value in hex.

    Raises:
        SecretError: a cookie key variable is unset or empty (named, never a value).
    """
    return reveal_cookies(text, environ, form=_cookie_hex)


def inbound_commands(site: Site, pseudowires: tuple[Pseudowire, ...]) -> list[str]:
    """The catch-all that blocks unprotected L2TPv3, and the peers still allowed in clear."""
    if not any(pw.protection.ipsec or pw.protection.inbound_filter for pw in pseudowires):
        return []
    local = site.tunnel_address
    host = local.max_prefixlen  # /32, or /128 on an IPv6 underlay
    clear = {pw.peer_address: pw for pw in pseudowires if not pw.protection.ipsec}
    commands = [
        f"ip xfrm policy add src {address}/{host} dst {local}/{host} proto 115 dir in "
        f"priority {PEER_ALLOW_PRIORITY}"
        for address in sorted(clear)
    ]
    anywhere = "::/0" if site.wan.ipv6 else "0.0.0.0/0"
    commands.append(
        f"ip xfrm policy add src {anywhere} dst {local}/{host} proto 115 dir in action block "
        f"priority {CATCH_ALL_PRIORITY}"
    )
    return commands


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
    nodad = " nodad" if site.wan.ipv6 else ""  # the tunnel binds it at once (see above)
    commands = [
        f"ip link set dev {wan} up mtu {site.wan.mtu}",
        f"ip addr add {site.wan.address} dev {wan}{nodad}",
        *(_route(str(net), str(site.wan.gateway)) for net in site.wan.routes),
        f"ip link set dev {lan} up",
    ]
    if site.wan.loopback is not None:
        # nodad on lo too: the kernel marks every new IPv6 address tentative until its DAD work
        # item runs, even on lo (which skips DAD), and a tunnel cannot bind it until then.
        commands.insert(2, f"ip addr add {site.wan.loopback.address} dev lo{nodad}")
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
        if pw.cookie_size:
            # Linux sends `cookie`, expects `peer_cookie`: we send the peer's local cookie.
            sent, expected = _cookies(pw)
            session += f" cookie {sent} peer_cookie {expected}"
        commands += [
            session,
            f"ip link set dev l2tp{vlan} up mtu {mtu}",
            f"ip link add link {lan} name {lan}.{vlan} type vlan id {vlan}",
            f"ip link set dev {lan}.{vlan} up",
            f"ip link add br{vlan} type bridge",
            f"ip link set dev {lan}.{vlan} master br{vlan}",
            *_session_port(pw),
            f"ip link set dev br{vlan} up",
        ]
    return commands


def session_port(pw: Pseudowire) -> str:
    """The device the bridge joins on the pseudowire's side: tagged towards Cisco."""
    vlan = pw.vlan.id
    return f"l2tp{vlan}.{vlan}" if pw.dot1q_carried else f"l2tp{vlan}"


def _session_port(pw: Pseudowire) -> list[str]:
    vlan, port = pw.vlan.id, session_port(pw)
    if not pw.dot1q_carried:
        return [f"ip link set dev {port} master br{vlan}"]
    # The VLAN device inherits the session device's MTU, the inner IP MTU (the budget already
    # counts the tag); it adds the tag and hands the frame to the session device.
    return [
        f"ip link add link l2tp{vlan} name {port} type vlan id {vlan}",
        f"ip link set dev {port} up",
        f"ip link set dev {port} master br{vlan}",
    ]


def linux_commands(fleet: Fleet, name: str) -> list[str]:
    """Every command that turns a Linux box into the site's PE (keyed cookies masked)."""
    site = fleet.site(name)
    pseudowires = fleet.pseudowires(name)
    return (
        base_commands(site)
        + pseudowire_commands(site, pseudowires)
        + inbound_commands(site, pseudowires)
    )


def render_linux(fleet: Fleet, name: str) -> str:
    """The commands as a script (comments say what each block is); keyed cookies masked."""
    site = fleet.site(name)
    ip_module = "l2tp_ip6 (IPv6 underlay)" if site.wan.ipv6 else "l2tp_ip"
    lines = [
        f"# l2tpgen: {site.name} ({site.hostname}), Linux PE, static L2TPv3 sessions",
        (
            f"# WAN {site.linux.wan}, LAN trunk {site.linux.lan}; needs the {ip_module}, "
            "l2tp_eth, 8021q and bridge modules"
        ),
    ]
    if any(not pw.static for pw in fleet.pseudowires(name)):
        lines.append(
            "# NOTE: this site uses dynamic signaling, which Linux cannot speak: these commands "
            "are its data plane only (static session IDs = VC IDs), for labs"
        )
    pseudowires = fleet.pseudowires(name)
    if any(pw.protection.ipsec for pw in pseudowires):
        lines.append(
            "# IPsec: load swanctl.conf into strongSwan (charon) first; the xfrm policies at the "
            "end drop L2TPv3 that is not ESP-protected (needs esp4 and xfrm_user)"
        )
    lines += linux_commands(fleet, name)
    return "\n".join(lines) + "\n"
