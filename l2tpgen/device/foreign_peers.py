"""The inbound WAN filter never cuts a pseudowire l2tpgen does not manage (issue 33).

``l2tpgen-wan-in`` denies L2TPv3 (IP protocol 115) to the router's own addresses from everyone but
the model's peers. Before push applies it, the running config is read for every other pseudowire
peer of the router (``l2tpgen.ios.pw_peers``: other xconnects and their backup peers, IOS-XE
``interface pseudowire`` and ``l2vpn xconnect|vfi context`` members, VFI neighbors, Virtual-PPP
pseudowires), outside the interfaces push owns; each IPv4 one is admitted above the denies
(``permit 115 host PEER any``: the other pseudowire may end on another of the router's addresses).
For those peers the filter then changes nothing. IPv6 peers need nothing: the filter is an IPv4
access list and never sees their packets. ESP and IKE are not filtered at all, so the router's
other VPNs (crypto maps, tunnel protection, DMVPN, Easy VPN, FlexVPN, IPv6 IKE peers) are
untouched (docs/security.md, "The inbound WAN filter").
"""

from __future__ import annotations

from ipaddress import IPv4Address
from typing import TYPE_CHECKING

from l2tpgen.ios.pw_peers import pseudowire_peers
from l2tpgen.render.crypto import INBOUND_ACL

if TYPE_CHECKING:
    from collections.abc import Collection

    from l2tpgen.ios.pw_peers import PwPeer
    from l2tpgen.ios.tree import Config

_HEADER = f"ip access-list extended {INBOUND_ACL}"
_NAMED = 3  # how many of the peers' configurations a note names


def admit_lines(peers: list[PwPeer], known: Collection[str]) -> list[str]:
    """The filter entries that admit these peers' L2TPv3, each IPv4 peer once (not ``known``)."""
    seen = dict.fromkeys(str(p.address) for p in peers if isinstance(p.address, IPv4Address))
    return [f" permit 115 host {peer} any" for peer in seen if peer not in known]


def _note(peers: list[PwPeer], admitted: int) -> str:
    named = sorted({p.what for p in peers})
    more = f" and {len(named) - _NAMED} more" if len(named) > _NAMED else ""
    return (
        f"{INBOUND_ACL} also admits L2TPv3 from {admitted} other pseudowire peer(s) of this "
        f"router ({', '.join(named[:_NAMED])}{more}): the filter does not cut them"
    )


def admit_foreign_peers(
    running: Config, intended: str, owned: Collection[str]
) -> tuple[str, tuple[str, ...]]:
    """``intended`` with the inbound filter admitting the router's other pseudowire peers.

    ``owned``: the interfaces whose pseudowires push rewrites from the model (left out). Unchanged
    (and no note) when the site renders no inbound filter or the router has no other peer.
    """
    lines = intended.splitlines(keepends=True)
    try:
        start = lines.index(f"{_HEADER}\n")
    except ValueError:
        return intended, ()
    peers = pseudowire_peers(running.roots, owned)
    end = start + 1
    while end < len(lines) and lines[end].startswith(" ") and not lines[end].startswith(" deny "):
        end += 1
    known = {line.split()[3] for line in lines[start + 1 : end] if line.startswith(" permit 115")}
    admitted = admit_lines(peers, known)
    if not admitted:
        return intended, ()
    lines[end:end] = [f"{line}\n" for line in admitted]
    named = [p for p in peers if f" permit 115 host {p.address} any" in admitted]
    return "".join(lines), (_note(named, len(admitted)),)
