"""VyOS PEs: static L2TPv3 sessions as VyOS ``set`` commands (configuration mode).

VyOS's L2TPv3 interface (https://docs.vyos.io/en/latest/configuration/interfaces/l2tpv3.html;
its definition, vyos/vyos-1x ``interface-definitions/interfaces_l2tpv3.xml.in``) is one tunnel
and one static session: ``encapsulation ip``, ``source-address``, ``remote``, ``tunnel-id``,
``peer-tunnel-id``, ``session-id``, ``peer-session-id``, ``mtu``. VyOS creates it with
``ip l2tp add tunnel ...`` and ``ip l2tp add session ...`` (vyos-1x
``python/vyos/ifconfig/l2tpv3.py``), so it forwards with the Linux kernel's L2TPv3, and what it
does not pass iproute2 decides:

- no cookie, no ``l2spec_type``, no ``seq``: its sessions carry no cookie and iproute2's
  default 4-byte L2-specific sublayer (iproute2 ``ip/ipl2tp.c``: ``p->l2spec_type =
  L2TP_L2SPECTYPE_DEFAULT``) without sequence numbers. A cookie'd pseudowire is refused; the
  peer must use the sublayer too (``sequencing`` other than none, ``Driver.sublayer``).
- the interface has no ``vif``: towards a Cisco dot1Q subinterface, which carries the tag in the
  session (``Pseudowire.dot1q_carried``), the tag is added by a VLAN-aware bridge
  (https://docs.vyos.io/en/latest/configuration/interfaces/bridge.html: ``enable-vlan``,
  ``allowed-vlan`` egresses tagged, ``native-vlan`` untagged). Every pseudowire of the site and
  the LAN trunk are members of one bridge, ``br0``: the trunk allows each VLAN tagged, a session
  towards Linux or VyOS is that VLAN's native (untagged) port, one towards Cisco a tagged port.

Interface names are the site's ``linux:`` ones (VyOS names Ethernet ports ``ethN``). IPsec and
the inbound WAN filter are not rendered (the model refuses a VyOS PE whose path needs them),
push and the simulator do not handle VyOS, and the lab runs a VyOS PE on its Linux data plane.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.errors import RenderError
from l2tpgen.platforms.base import Driver

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.model import Fleet, Pseudowire

BRIDGE = "br0"
# interfaces_l2tpv3.xml.in: tunnel-id, peer-tunnel-id, session-id and peer-session-id take
# `u32:1-429496729` (sic).
MAX_ID = 429_496_729


def _refusal(pw: Pseudowire) -> str | None:
    """What VyOS cannot express of this pseudowire (a site validated as VyOS has none of it).

    ``render --platform vyos`` of another platform's site reaches here unvalidated for VyOS.
    """
    if not pw.static:
        return "VyOS speaks only static sessions; set `signaling: static` at both ends"
    if pw.cookie_size:
        return f"VyOS has no L2TPv3 cookies ({pw.cookie_size}-byte here); set `cookie: 0`"
    if pw.protection.ipsec or pw.protection.inbound_filter:
        return "l2tpgen renders no IPsec or inbound filter for VyOS; state the path trusted"
    if not pw.budget.sublayer:
        return "VyOS's sessions carry the L2-specific sublayer; set `sequencing: transmit`"
    return None


def _session(pw: Pseudowire) -> dict[str, object]:
    refusal = _refusal(pw)
    if refusal is not None:
        raise RenderError(f"{pw.site.name}, VLAN {pw.vlan.id} to {pw.peer.name}: {refusal}")
    local, remote = pw.session_ids
    if max(local, remote) > MAX_ID:
        raise RenderError(
            f"{pw.site.name}: VyOS takes session IDs up to {MAX_ID}, not {max(local, remote)} "
            f"(VLAN {pw.vlan.id}); set a smaller `vc_id` at both ends"
        )
    return {
        "name": f"l2tpeth{pw.vlan.id}",
        "vlan": pw.vlan.id,
        "description": f"VLAN {pw.vlan.id} {pw.vlan.name} to {pw.peer.name}",
        "source": str(pw.site.tunnel_address),
        "remote": str(pw.peer_address),
        "tunnel": pw.vc_id,  # one tunnel per session; IP mode carries no tunnel ID on the wire
        "session": local,
        "peer_session": remote,
        "mtu": pw.budget.max_inner_mtu,  # the pair's budget: both ends get the same MTU
        "port": "allowed-vlan" if pw.dot1q_carried else "native-vlan",
    }


def vyos_context(fleet: Fleet, name: str) -> dict[str, object]:
    """What the template writes for one site (the logic lives here, not in the template)."""
    site = fleet.site(name)
    routes = [
        {"network": str(network), "gateway": str(site.wan.gateway)} for network in site.wan.routes
    ]
    loopback = site.wan.loopback
    return {
        "site": site,
        "wan": site.linux.wan,
        "lan": site.linux.lan,
        "bridge": BRIDGE,
        "loopback": str(loopback.address) if loopback is not None else None,
        "routes": routes,
        "sessions": [_session(pw) for pw in fleet.pseudowires(name)],
    }


def render_vyos(
    fleet: Fleet,
    name: str,
    fmt: str,  # noqa: ARG001 - one format
    *,
    reveal_secrets: bool,  # noqa: ARG001 - no secret: no cookie, no IPsec
    environ: Mapping[str, str] | None,  # noqa: ARG001
) -> dict[str, str]:
    """The site's VyOS ``set`` commands."""
    from l2tpgen.render.env import environment  # noqa: PLC0415 - jinja2 on demand

    template = environment().get_template("vyos/site.j2")
    return {"": template.render(**vyos_context(fleet, name))}


VYOS = Driver(
    name="vyos",
    title="VyOS",
    device_type="vyos",  # netmiko's
    cisco=False,
    formats=("set",),
    renderer=render_vyos,
    signaling=("static",),  # no control channel: static sessions only
    cookies=False,  # interfaces_l2tpv3.xml.in has no cookie
    ipsec=False,
    inbound_filter=False,
    sublayer=True,  # iproute2's default l2spec_type, which VyOS leaves
    lab_kind="linux",
    data_plane="linux",  # the kernel's L2TPv3: the lab's Linux PE stands in for it
    # Not rendered over IPv6: this driver's `set interfaces l2tpv3` rendering is written and
    # tested for IPv4 underlays; whether VyOS's CLI takes IPv6 tunnel addresses is unconfirmed.
    ipv6_underlay=False,
    ipv6_note=(
        "l2tpgen's VyOS rendering (set interfaces l2tpv3) is written and tested for IPv4 "
        "underlays only; IPv6 tunnel addresses on VyOS are unconfirmed"
    ),
)
DRIVERS = (VYOS,)  # found by l2tpgen.platforms
