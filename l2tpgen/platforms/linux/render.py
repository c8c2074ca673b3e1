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
(``swanctl.py``), which installs per-peer policies only, and only while charon runs.

A protected site (IPsec or an inbound filter on any path) therefore **fails closed** before any
session exists (``inbound_blocks``, the script's first lines, and ``failclosed_commands``, right
after the tunnels): static xfrm policies block IP protocol 115 in both directions (``dir out`` and
``dir in``), from and to every address of both families (``0.0.0.0/0`` and ``::/0``: every local,
broadcast and multicast address), at a priority below charon's (the lab measured 366975 with
strongSwan 5.9.8; the higher the number, the lower the precedence). Just above them, each peer
whose pseudowires are not IPsec is allowed (``src``/``dst`` its tunnel address and ours, both
directions). So a charon stop, restart or crash, or a boot where this script runs before ``swanctl
--load-all``, sends no clear L2TPv3 and accepts none: the IPsec peers' traffic waits for charon's
policies, which win over the blocks once installed. IKE (UDP 500/4500) and ESP (protocol 50) are
other protocols and pass; ``dir fwd`` is left alone (the PE's own sessions are ``in``/``out``; a
forward block would only drop third parties' L2TPv3 routed through the box). The kernel finds a
data packet's session by its session ID alone (``net/l2tp/l2tp_ip.c`` ``l2tp_ip_recv``,
``l2tp_ip6.c`` likewise, over one table for both families), which is why the inbound block covers
every destination and both families rather than the tunnel address.

The tunnels come before the outbound blocks because the kernel refuses them after: ``ip l2tp add
tunnel ... encap ip`` connects a protocol-115 socket, whose route lookup meets the ``dir out`` block
(``xfrm_lookup``: a ``block`` policy is ``-EPERM``) and fails with "RTNETLINK answers: Operation
not permitted" (measured in the lab, kernel 6.1, for the IPsec peers with no charon running). A
static IP-encapsulated tunnel sends nothing by itself (no control channel) and a packet for a
session that does not exist yet is dropped (``l2tp_ip_recv``: no session, discard), so nothing
crosses in clear before the blocks are in.

The script is safe to run again at any time, and running it again is how the blocks come back
after an ``ip xfrm policy flush`` (which removes them with charon's policies) or the binding after
an nftables ``flush ruleset``: the inbound blocks and the binding (``binding.py``: on a PE with
several peers each peer reaches only its own sessions) come first, before any step that could
fail; every step is one that succeeds on a second run: ``ip xfrm policy update`` (creates or
replaces), ``ip addr replace``, ``ip route replace``, ``ip link set``, and each ``add`` of a
tunnel, session, VLAN device or bridge guarded (``guarded``: ``add || check it exists``; an
existing one is kept as it is: delete it to change it). Measured under ``sh -e`` in the lab.

IPv6 underlays (``wan.address`` IPv6): ``ip l2tp add tunnel ... local/remote`` take IPv6 addresses
(ip-l2tp(8): "May be specified as an IPv4 address or an IPv6 address"; the kernel's ``l2tp_ip6``
module carries IP protocol 115 over IPv6). The xfrm selectors are host prefixes of the family
(``/128``; the blocks cover both families whatever the underlay's). The WAN address is added
``nodad``: the kernel binds the tunnel's local address at once, and a tentative address (duplicate
address detection still running) cannot be bound. The loopback's IPv6 address too:
``ipv6_add_addr`` flags every address without ``nodad`` ``IFA_F_TENTATIVE``, and
``addrconf_dad_begin`` clears it for ``lo`` (``IFF_LOOPBACK``: no DAD) only when the address's DAD
work item runs, later, on a workqueue; until then ``l2tp_ip6``'s bind fails its ``ipv6_chk_addr``
(tentative addresses excluded): ``RTNETLINK answers: Cannot assign requested address``
(torvalds/linux ``net/ipv6/addrconf.c``, ``net/l2tp/l2tp_ip6.c``). A loaded machine's boot hits it
(the lab under CPU load did); vyos-1x works around the same race by retrying ``ip l2tp add tunnel``
for up to 10 s (``python/vyos/ifconfig/l2tpv3.py``, ``wait_for_add_l2tpv3``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.protection import reveal_cookies
from l2tpgen.platforms.linux.binding import binding_commands

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.model import Fleet, Pseudowire, Site

# xfrm priorities: lower numbers win. Below every policy strongSwan installs.
CATCH_ALL_PRIORITY = 2_000_000
PEER_ALLOW_PRIORITY = CATCH_ALL_PRIORITY - 1
ANYWHERE = ("0.0.0.0/0", "::/0")  # both families, whatever the underlay's
GUARD = " || "  # an `add` that may meet its object from an earlier run, then the check it exists
NFT_TABLE = "inet l2tpgen"


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


def protected(pseudowires: tuple[Pseudowire, ...]) -> bool:
    """Whether the site fails closed: some path has IPsec or an inbound filter."""
    return any(pw.protection.ipsec or pw.protection.inbound_filter for pw in pseudowires)


def _blocks(directions: tuple[str, ...]) -> list[str]:
    return [
        f"ip xfrm policy update src {anywhere} dst {anywhere} proto 115 dir {direction} "
        f"action block priority {CATCH_ALL_PRIORITY}"
        for anywhere in ANYWHERE
        for direction in directions
    ]


def inbound_blocks(pseudowires: tuple[Pseudowire, ...]) -> list[str]:
    """The inbound blocks of protocol 115, every address, both families: the script's first lines.

    Empty for an unprotected site (every path trusted and no inbound filter asked for).
    """
    return _blocks(("in",)) if protected(pseudowires) else []


def failclosed_commands(site: Site, pseudowires: tuple[Pseudowire, ...]) -> list[str]:
    """The outbound blocks of protocol 115, then the peers allowed in clear (both directions).

    Empty for an unprotected site (every path trusted and no inbound filter asked for).
    """
    if not protected(pseudowires):
        return []
    commands = _blocks(("out",))
    local = site.tunnel_address
    host = local.max_prefixlen  # /32, or /128 on an IPv6 underlay
    clear = sorted({pw.peer_address for pw in pseudowires if not pw.protection.ipsec})
    for address in clear:
        out = f"src {local}/{host} dst {address}/{host} proto 115 dir out"
        into = f"src {address}/{host} dst {local}/{host} proto 115 dir in"
        commands += [
            f"ip xfrm policy update {selector} priority {PEER_ALLOW_PRIORITY}"
            for selector in (out, into)
        ]
    return commands


def _route(network: str, gateway: str) -> str:
    return f"ip route replace {'default' if network == '0.0.0.0/0' else network} via {gateway}"


def guarded(add: str, check: str) -> str:
    """``add``, or when it fails (a re-run: the object exists), ``check`` that it exists."""
    return f"{add}{GUARD}{check}"


def bare(command: str) -> str:
    """``command`` without its re-run guard (what it adds, for readers of the commands)."""
    return command.split(GUARD, 1)[0]


def _link_guarded(add: str, device: str) -> str:
    return guarded(add, f"ip link show dev {device} >/dev/null")


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
    wan, lan = site.data_plane.wan, site.data_plane.lan
    nodad = " nodad" if site.wan.ipv6 else ""  # the tunnel binds it at once (see above)
    commands = [
        f"ip link set dev {wan} up mtu {site.wan.mtu}",
        f"ip addr replace {site.wan.address} dev {wan}{nodad}",
        *(_route(str(net), str(site.wan.gateway)) for net in site.wan.routes),
        f"ip link set dev {lan} up",
    ]
    if site.wan.loopback is not None:
        # nodad on lo too: the kernel marks every new IPv6 address tentative until its DAD work
        # item runs, even on lo (which skips DAD), and a tunnel cannot bind it until then.
        commands.insert(2, f"ip addr replace {site.wan.loopback.address} dev lo{nodad}")
    return commands


def tunnel_commands(site: Site, pseudowires: tuple[Pseudowire, ...]) -> list[str]:
    """One IP-encapsulated tunnel per peer (static: it sends nothing by itself)."""
    commands: list[str] = []
    for number, pw in _tunnels(pseudowires).values():
        add = (
            f"ip l2tp add tunnel tunnel_id {number} peer_tunnel_id {number} encap ip "
            f"local {site.tunnel_address} remote {pw.peer_address}"
        )
        # `ip l2tp show tunnel` lists every tunnel whatever tunnel_id it is given (iproute2 6.1)
        commands.append(guarded(add, f"ip l2tp show tunnel | grep -q '^Tunnel {number},'"))
    return commands


def _tunnels(pseudowires: tuple[Pseudowire, ...]) -> dict[str, tuple[int, Pseudowire]]:
    """Each peer's tunnel number (from 1, in order) and its first pseudowire."""
    tunnels: dict[str, tuple[int, Pseudowire]] = {}
    for pw in pseudowires:
        tunnels.setdefault(pw.peer.name, (len(tunnels) + 1, pw))
    return tunnels


def session_commands(site: Site, pseudowires: tuple[Pseudowire, ...]) -> list[str]:
    """Sessions and bridges for ``pseudowires`` (static session IDs and cookies)."""
    commands: list[str] = []
    tunnels = _tunnels(pseudowires)
    lan = site.data_plane.lan
    for pw in pseudowires:
        vlan, (local, remote) = pw.vlan.id, pw.session_ids
        # The pair's budget: both ends of one pseudowire get the same MTU.
        mtu = pw.budget.max_inner_mtu
        session = (
            f"ip l2tp add session name l2tp{vlan} tunnel_id {tunnels[pw.peer.name][0]} "
            f"session_id {local} peer_session_id {remote} {l2spec(pw)}"
        )
        if pw.cookie_size:
            # Linux sends `cookie`, expects `peer_cookie`: we send the peer's local cookie.
            sent, expected = _cookies(pw)
            session += f" cookie {sent} peer_cookie {expected}"
        # The native VLAN's frames are the untagged ones: the port itself joins its bridge.
        lan_port = lan if pw.vlan.native else f"{lan}.{vlan}"
        vlan_device = [
            _link_guarded(
                f"ip link add link {lan} name {lan}.{vlan} type vlan id {vlan}", f"{lan}.{vlan}"
            ),
            f"ip link set dev {lan}.{vlan} up",
        ]
        commands += [
            _link_guarded(session, f"l2tp{vlan}"),
            f"ip link set dev l2tp{vlan} up mtu {mtu}",
            *([] if pw.vlan.native else vlan_device),
            _link_guarded(f"ip link add br{vlan} type bridge", f"br{vlan}"),
            f"ip link set dev {lan_port} master br{vlan}",
            *_session_port(pw),
            f"ip link set dev br{vlan} up",
        ]
    return commands


def pseudowire_commands(site: Site, pseudowires: tuple[Pseudowire, ...]) -> list[str]:
    """Tunnels, sessions and bridges for ``pseudowires``, without the xfrm policies."""
    return tunnel_commands(site, pseudowires) + session_commands(site, pseudowires)


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
        _link_guarded(f"ip link add link l2tp{vlan} name {port} type vlan id {vlan}", port),
        f"ip link set dev {port} up",
        f"ip link set dev {port} master br{vlan}",
    ]


def linux_commands(fleet: Fleet, name: str) -> list[str]:
    """Every command that turns a Linux box into the site's PE (keyed cookies masked)."""
    site = fleet.site(name)
    pseudowires = fleet.pseudowires(name)
    binding = [] if site.driver.ios_config else binding_commands(site, pseudowires)
    return (
        inbound_blocks(pseudowires)
        + binding
        + base_commands(site)
        + tunnel_commands(site, pseudowires)
        + failclosed_commands(site, pseudowires)
        + session_commands(site, pseudowires)
    )


def render_linux(fleet: Fleet, name: str) -> str:
    """The commands as a script (comments say what each block is); keyed cookies masked."""
    site = fleet.site(name)
    ip_module = "l2tp_ip6 (IPv6 underlay)" if site.wan.ipv6 else "l2tp_ip"
    lines = [
        f"# l2tpgen: {site.name} ({site.hostname}), Linux PE, static L2TPv3 sessions",
        (
            f"# WAN {site.data_plane.wan}, LAN trunk {site.data_plane.lan}; needs the {ip_module}, "
            "l2tp_eth, 8021q and bridge modules"
        ),
    ]
    if any(not pw.static for pw in fleet.pseudowires(name)):
        lines.append(
            "# NOTE: this site uses dynamic signaling, which Linux cannot speak: these commands "
            "are its data plane only (static session IDs = VC IDs), for labs"
        )
    pseudowires = fleet.pseudowires(name)
    if protected(pseudowires):
        lines.append(
            "# Fails closed: first, and after the tunnels, before any session, xfrm policies block "
            "IP protocol 115 both ways on every address (needs xfrm_user); only the peers in "
            "clear are allowed. Safe to run before strongSwan, at boot or while charon restarts"
        )
    commands = linux_commands(fleet, name)
    bound = any(line.startswith("nft ") for line in commands)
    if bound:
        lines.append(
            "# Several peers: an nftables table (inet l2tpgen; needs nf_tables) lets each peer's "
            "address reach only its own session IDs"
        )
    restores = [
        *(["`ip xfrm policy flush`"] if protected(pseudowires) else []),
        *(["an nftables `flush ruleset`"] if bound else []),
    ]
    again = f"; run it again after {' or '.join(restores)} to restore them" if restores else ""
    lines.append(f"# Safe to run again (sh -e too){again}")
    if any(pw.protection.ipsec for pw in pseudowires):
        esp = "esp6" if site.wan.ipv6 else "esp4"
        lines.append(
            "# IPsec: then load swanctl.conf into strongSwan (swanctl --load-all); charon's "
            f"per-peer policies win over the blocks (needs {esp} and xfrm_user)"
        )
    lines += commands
    return "\n".join(lines) + "\n"
