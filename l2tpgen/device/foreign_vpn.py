"""The inbound WAN filter never cuts a VPN l2tpgen does not own (issue 25, docs/security.md).

``l2tpgen-wan-in`` denies ESP and UDP 500/4500 from everyone but l2tpgen's own peers. Before push
applies it, the router's running config is read for every other user of IKE and ESP
(``l2tpgen.ios.ike_users``: crypto maps, ``tunnel protection`` interfaces, DMVPN, IKEv1 and IKEv2
peers, remote access):

* each one with peers that can be written as addresses gets them admitted in the filter, above
  its denies (``permit esp``, ``permit udp ... eq 500`` and ``eq 4500`` from each peer, to any of
  the router's addresses): for those peers the filter then changes nothing;
* one whose peers cannot be written down (dynamic peers, remote access, DMVPN mGRE, a host name,
  ``address 0.0.0.0``) could only be admitted with ``any``, which is no filter at all: push
  refuses the filter, naming each such line of the running config, and says what to do.

Users on every interface count, not only those on the WAN: a peer can arrive by any uplink, and
admitting a peer that never arrives on the WAN costs nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.device.scope import OwnershipError
from l2tpgen.ios.ike_users import ike_users
from l2tpgen.render.crypto import IKE_PORTS, INBOUND_ACL

if TYPE_CHECKING:
    from ipaddress import IPv4Network

    from l2tpgen.ios.ike_users import IkeUser
    from l2tpgen.ios.tree import Config
    from l2tpgen.model import Site

_HEADER = f"ip access-list extended {INBOUND_ACL}"


class ForeignVpnError(OwnershipError):
    """The router terminates a VPN whose peers the inbound filter cannot name."""


def _match(peer: IPv4Network) -> str:
    if peer.prefixlen == peer.max_prefixlen:
        return f"host {peer.network_address}"
    return f"{peer.network_address} {peer.hostmask}"


def admit_lines(users: list[IkeUser]) -> list[str]:
    """The filter entries that admit these users' peers (IKE and ESP), each peer once."""
    seen: dict[IPv4Network, None] = {}
    for user in users:
        seen.update(dict.fromkeys(user.peers))
    lines: list[str] = []
    for peer in seen:
        source = _match(peer)
        lines.append(f" permit esp {source} any")
        lines += [f" permit udp {source} any eq {port}" for port in IKE_PORTS]
    return lines


def refusal(site: Site, users: list[IkeUser]) -> str:
    """Why push will not apply the filter: each unaddressable user and its running-config line."""
    where = "; ".join(f"line {u.at.line}: {u.what}: {u.why}" for u in users)
    return (
        f"{site.name}: the router terminates IKE/ESP for peers the inbound filter {INBOUND_ACL} "
        f"cannot name, and its `deny esp any any` / `deny udp any any eq 500|4500` would cut "
        f"them; in the router's running config, {where}. Admitting them would take `permit esp "
        f"any any`, which leaves no filter: set `protection.inbound_filter: false` for "
        f"{site.name} and filter the WAN yourself (L2TPv3, IP protocol 115, only from the "
        f"pseudowires' peers), or move that VPN off this router"
    )


def admit_foreign_peers(running: Config, intended: str, site: Site) -> tuple[str, tuple[str, ...]]:
    """``intended`` with the inbound filter admitting the router's other VPN peers, and a note.

    Unchanged (and no note) when the site renders no inbound filter or the router has no other
    IKE/ESP user.

    Raises:
        ForeignVpnError: a user's peers cannot be written as addresses (named by line).
    """
    lines = intended.splitlines(keepends=True)
    try:
        start = lines.index(f"{_HEADER}\n")
    except ValueError:
        return intended, ()
    users = ike_users(running.roots)
    blind = [u for u in users if not u.addressable]
    if blind:
        raise ForeignVpnError(refusal(site, blind))
    admitted = admit_lines(users)
    if not admitted:
        return intended, ()
    end = start + 1
    while end < len(lines) and lines[end].startswith(" ") and not lines[end].startswith(" deny "):
        end += 1
    lines[end:end] = [f"{line}\n" for line in admitted]
    named = ", ".join(sorted({u.what for u in users}))
    note = (
        f"{INBOUND_ACL} also admits IKE and ESP from the peers of this router's other VPNs "
        f"({named}): the filter does not cut them"
    )
    return "".join(lines), (note,)
