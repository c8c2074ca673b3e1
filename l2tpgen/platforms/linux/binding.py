"""Pairs apart at a Linux PE with several peers: each peer's address bound to its own sessions.

The kernel finds an L2TPv3-over-IP data packet's session by its session ID alone
(torvalds/linux ``net/l2tp/l2tp_ip.c`` ``l2tp_ip_recv``, ``l2tp_ip6.c`` likewise:
``l2tp_session_get(net, session_id)``, never the tunnel or the source address). The xfrm
policies admit a peer's protocol 115 by its address (charon's per-peer policy, or the allow of a
clear peer): measured on kernel 6.1 with strongSwan 5.9.8, a spoke of an all-Linux hub sending
through its own SA reached the other spoke's VLANs 5 of 5 with their session IDs, and a sweep of
IDs 1-4094 found every session (docs/security.md). Between two peers of one PE only the cookie
stood in the way, and the keyed cookies of a fleet derive from one key every PE holds
(``model/protection.py`` ``keyed_cookie``): a peer that renders its own cookies can compute
another pair's.

So a PE with more than one peer binds them in the kernel, with one nftables table (``inet
l2tpgen``, chain ``input`` on the input hook): IP protocol 115 from an address that is no peer of
the PE is dropped, and from a peer's address unless its session ID (the first 4 bytes after the IP
header in IP encapsulation, RFC 3931 section 4.1.1.2; ``@th,0,32``) is one of that peer's sessions
on this PE. Protocol 115 of the other IP family is dropped (the PE has no session over it); over
IPv6 ``meta l4proto`` finds protocol 115 after any extension headers, and the first fragment
carries the session ID (a later fragment has no transport header to match and reassembles only with
a first one that passed). Measured on an IPv6 pair in the lab (kernel 6.1, nft 1.0.6, ``pwprobe
inject`` from the peer's own address): 0 of 5 with the binding, 5 of 5 after ``nft delete table``.
The input hook sees what IPsec delivers after ESP is removed: a transport-mode packet is decrypted
and then passes the netfilter hooks again as a plain protocol-115 packet
(``xfrm4_transport_finish`` re-runs ``NF_INET_PRE_ROUTING`` and the local delivery
``NF_INET_LOCAL_IN``, net/ipv4/xfrm4_input.c; measured in the lab: the binding stops the spoke's
forgery through its own SA, and removing the table lets it through). IPv4 fragments are reassembled
before the input hook (``ip_local_deliver``).

The table is written in one ``nft`` command: ``add table`` (no error when it exists), ``flush
table`` and the chain and rules again, one netlink transaction (nft(8): a command line or file is
applied atomically), so a re-run replaces the rules with no moment without them. Nothing else of
the host's ruleset is touched; a ``flush ruleset`` (Debian's ``/etc/nftables.conf`` starts with
one) removes the table: run the script again after reloading nftables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from l2tpgen.model import Pseudowire, Site

TABLE = "inet l2tpgen"
CHAIN = f"{TABLE} input"
SESSION_ID = "@th,0,32"  # the session ID: the first 32 bits after the IP header (IP encap)


def bound_peers(pseudowires: tuple[Pseudowire, ...]) -> dict[str, list[int]]:
    """Each peer's tunnel address -> the session IDs this PE expects from it (sorted)."""
    found: dict[str, set[int]] = {}
    for pw in pseudowires:
        found.setdefault(str(pw.peer_address), set()).add(pw.session_ids[0])
    return {address: sorted(ids) for address, ids in sorted(found.items())}


def _set(values: list[str]) -> str:
    return "{ " + ", ".join(values) + " }"


def binding_rules(site: Site, pseudowires: tuple[Pseudowire, ...]) -> list[str]:
    """The rules of the chain, in nft's syntax (empty: a PE with one peer or none)."""
    peers = bound_peers(pseudowires)
    if len(peers) < 2:  # noqa: PLR2004 - one peer has nobody else's sessions to reach
        return []
    if site.wan.ipv6:
        own, other = "ip6 saddr", "meta nfproto ipv4 ip protocol 115"
        proto = "meta l4proto 115"  # after any extension headers
    else:
        own, other = "ip saddr", "meta nfproto ipv6 meta l4proto 115"
        proto = "ip protocol 115"
    rules = [f"{proto} {own} != {_set(list(peers))} drop"]
    for address, ids in peers.items():
        sessions = f"{SESSION_ID} != {_set([str(i) for i in ids])}"
        # IPv6: the session ID before `meta l4proto`: nft 1.0.6 (Debian 12) loads the other
        # order but aborts listing it (payload_expr_complete's assertion; measured in the lab)
        rules.append(
            f"{own} {address} {sessions} {proto} drop"
            if site.wan.ipv6
            else f"{own} {address} {proto} {sessions} drop"
        )
    return [*rules, f"{other} drop"]


def binding_commands(site: Site, pseudowires: tuple[Pseudowire, ...]) -> list[str]:
    """One ``nft`` command that (re)writes the table atomically (empty: nothing to bind)."""
    rules = binding_rules(site, pseudowires)
    if not rules:
        return []
    steps = [
        f"add table {TABLE}",
        f"flush table {TABLE}",
        f"add chain {CHAIN} {{ type filter hook input priority 0; policy accept; }}",
        *(f"add rule {CHAIN} {rule}" for rule in rules),
    ]
    return ["nft '" + "; ".join(steps) + "'"]


def binding_file(site: Site, pseudowires: tuple[Pseudowire, ...]) -> str | None:
    """The same table as an ``nft -f`` file (systemd-networkd's PEs), or None."""
    rules = binding_rules(site, pseudowires)
    if not rules:
        return None
    lines = [
        f"# l2tpgen: {site.name}: each peer reaches only its own L2TPv3 sessions",
        "# load with `nft -f` (include it from /etc/nftables.conf: nftables.service loads it",
        "# before systemd-networkd brings the sessions up)",
        f"table {TABLE} {{}}",
        f"flush table {TABLE}",
        f"table {TABLE} {{",
        "  chain input {",
        "    type filter hook input priority 0; policy accept;",
        *(f"    {rule}" for rule in rules),
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"
