"""Checks of pseudowire protection: both ends agree, and no public path is left open silently.

Each problem points at the field to change: the peer entry's ``protection`` when it sets that
field, else the site's ``protection``. No message holds a secret (only variable names).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.problems import Problem
from l2tpgen.model.pseudowire import Pseudowire

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from l2tpgen.model.problems import PathItem
    from l2tpgen.model.protection import PathProtection
    from l2tpgen.model.site import Site


PAIR_COOKIE = 8  # bytes: what keeps the pairs of a hub apart where nothing binds them


def _path(site: Site, peer: str, field: str) -> tuple[PathItem, ...]:
    """The field as the peer entry sets it, else as the site sets it, else the peer entry."""
    index = site.peer_names.index(peer)
    entry = site.peers[index]
    if entry.protection is not None and getattr(entry.protection, field, None) is not None:
        return ("peers", index, "protection", field)
    if field in site.protection.model_fields_set:
        return ("protection", field)
    return ("peers", index)


def _short(protection: PathProtection) -> str:
    if protection.ipsec:
        return (
            f"ipsec ({protection.ipsec_mode} {protection.transform}"
            + (", NAT-T" if protection.nat_t else "")
            + ")"
        )
    return protection.mode


def check_protection(
    site: Site, sites: Mapping[str, Site], files: Mapping[str, str]
) -> Iterator[Problem]:
    """The protection of each of the site's paths: coherent, and agreed with the peer."""
    for peer_name in site.peer_names:
        peer = sites.get(peer_name)
        if peer is None or peer_name == site.name:
            continue
        ours = site.protection_for(peer)
        if ours.mode == "none" and not ours.trusted:
            yield Problem(
                site.name,
                _path(site, peer_name, "mode"),
                f"the pseudowires to {peer_name} cross an untrusted path with no protection "
                f"({ours.reason.removeprefix('untrusted path: ')}): anyone on the path can read "
                "them and inject frames into the VLANs",
                "remove `mode: none` (IPsec is the default on such a path), or, if the path is "
                "private (an MPLS VPN, a leased line), say so with `wan: {trusted: true}` at both "
                "ends",
                code="V058",
            )
        pw = site.pseudowire_for(peer_name)
        if ours.mode == "cookie" and pw.signaling == "dynamic" and not _dynamic_cookie(site, peer):
            yield Problem(
                site.name,
                _path(site, peer_name, "mode"),
                f"protection mode cookie, but the pseudowires to {peer_name} are dynamic and no "
                "cookie size is set: on dynamic sessions each router picks its cookie, its "
                "length per platform",
                "use `mode: ipsec`, static signaling (keyed cookies), or `l2tp_class: "
                "{cookie_size: 8}` at both ends (IOS `cookie size 8`, unconfirmed)",
                code="V059",
            )
        if ours.mode == "cookie" and pw.cookie == 0:
            where = next(
                (
                    ("peers", i, "pseudowire", "cookie")
                    for i, e in enumerate(site.peers)
                    if e.name == peer_name and e.pseudowire.cookie is not None
                ),
                ("pseudowire_class", "cookie"),
            )
            yield Problem(
                site.name,
                where,
                f"protection mode cookie, but the pseudowires to {peer_name} have `cookie: 0`",
                "remove `cookie: 0` (a protecting cookie is 8 bytes), or choose another mode",
                code="V060",
            )
        if peer_name > site.name:  # each pair is compared once, from the site that sorts first
            theirs = peer.protection_for(site)
            if ours.agreement() != theirs.agreement():
                field = "mode" if ours.mode != theirs.mode else _differs(ours, theirs)
                yield Problem(
                    site.name,
                    _path(site, peer_name, field),
                    f"protection is {_short(ours)} here but {_short(theirs)} in {files[peer_name]} "
                    f"(pseudowires between {site.name} and {peer_name})",
                    "both ends of a pseudowire must be protected the same way: state the same "
                    "protection at both ends (or the same wan.trusted, when the mode is derived)",
                    code="V061",
                )


def _dynamic_cookie(site: Site, peer: Site) -> bool:
    """Both ends' l2tp-classes set a cookie size for dynamic sessions ([U] `cookie size`)."""
    return bool(site.l2tp_for(peer.name).cookie_size and peer.l2tp_for(site.name).cookie_size)


def _differs(ours: PathProtection, theirs: PathProtection) -> str:
    for field in ("transform", "ipsec_mode", "nat_t"):
        if getattr(ours, field) != getattr(theirs, field):
            return field
    return "mode"


MIXED_COOKIE = 8  # bytes: 64 secret bits, as `mode: cookie` asks


def check_mixed_peers(site: Site, sites: Mapping[str, Site]) -> Iterator[Problem]:
    """A Linux-kernel PE with clear and IPsec peers: keyed 8-byte cookies on the IPsec sessions.

    The kernel finds a data packet's session by its session ID alone (``net/l2tp/l2tp_ip.c``
    ``l2tp_ip_recv``) and xfrm cannot select on a session ID: the policy that admits a clear
    peer's L2TPv3 admits it into every session of the PE, the IPsec ones too (measured: 5 of 5
    with ``cookie: 0``). A keyed cookie is the one thing the clear peer, or whoever spoofs its
    address, does not have: it travels only inside ESP. A platform without cookies (VyOS)
    cannot mix the two at all.
    """
    if not site.driver.kernel_sessions:
        return
    ends = _pseudowires(site, sites)
    clear = [pw.peer.name for _, pw in ends if not pw.protection.ipsec]
    if not clear or len(clear) == len(ends):
        return
    for index, pw in ends:
        if not pw.protection.ipsec or (pw.cookie_size == MIXED_COOKIE and pw.keyed_cookies):
            continue
        if not site.driver.cookies:
            yield _no_cookies(site, index, pw.peer.name, clear)
            return
        yield _unkeyed_cookies(site, index, pw, clear)


def _pseudowires(site: Site, sites: Mapping[str, Site]) -> list[tuple[int, Pseudowire]]:
    """(index in ``peers``, pseudowire) of each peer that is a known site with a VLAN here."""
    ends = []
    for index, peer_name in enumerate(site.peer_names):
        peer = sites.get(peer_name)
        vlan = next((v for v in site.vlans if v.peer == peer_name), None)
        if peer is None or peer is site or vlan is None:
            continue
        ends.append((index, Pseudowire(site, vlan, peer)))
    return ends


def _mixing(clear: list[str]) -> str:
    return (
        f"this PE mixes clear peers ({', '.join(clear)}) with IPsec peers, and the kernel "
        "admits a clear peer's L2TPv3 into any session by its ID alone"
    )


def _no_cookies(site: Site, index: int, peer_name: str, clear: list[str]) -> Problem:
    """V062: a platform without cookies cannot keep a clear peer out of its IPsec sessions."""
    title = site.driver.short_title or site.driver.title
    return Problem(
        site.name,
        ("peers", index),
        f"{_mixing(clear)}; {title} has no L2TPv3 cookies to keep them out of the IPsec "
        f"pseudowires to {peer_name}",
        f"protect the pseudowires to {', '.join(clear)} with IPsec too, or move them to another PE",
        code="V062",
    )


def _cookie_path(site: Site, index: int) -> tuple[PathItem, ...]:
    """Where the peer's cookie is set: on the peer, in the pseudowire-class, else the peer."""
    if site.peers[index].pseudowire.cookie is not None:
        return ("peers", index, "pseudowire", "cookie")
    if "cookie" in site.pseudowire_class.model_fields_set:
        return ("pseudowire_class", "cookie")
    return ("peers", index)


def _unkeyed_cookies(site: Site, index: int, pw: Pseudowire, clear: list[str]) -> Problem:
    """V063: an IPsec pseudowire of a mixed PE without keyed 8-byte cookies."""
    peer_name = pw.peer.name
    return Problem(
        site.name,
        _cookie_path(site, index),
        f"{_mixing(clear)}: the IPsec pseudowires to {peer_name} need keyed 8-byte cookies (they "
        f"have {pw.cookie_size or 'no'}{'-byte' if pw.cookie_size else ''} cookies)",
        f"set `cookie: 8` for {peer_name} here and at {peer_name} (the cookies are then keyed "
        f"and travel only inside ESP), or protect {', '.join(clear)} with IPsec too",
        code="V063",
    )


def _hub(site: Site, sites: Mapping[str, Site]) -> tuple[list[tuple[int, Pseudowire]], str]:
    """(the pseudowires, the peers' names) of a PE with several peers its platform cannot bind."""
    if site.driver.binds_peers:
        return [], ""
    ends = _pseudowires(site, sites)
    peers = sorted({pw.peer.name for _, pw in ends})
    if len(peers) < 2:  # noqa: PLR2004 - one peer has nobody else's sessions to reach
        return [], ""
    return ends, ", ".join(peers)


def check_hub_pairs(site: Site, sites: Mapping[str, Site]) -> Iterator[Problem]:
    """V106: a PE with several peers on a kernel it can neither bind nor give cookies (VyOS).

    A Linux PE binds each peer's address to its own session IDs in the kernel
    (``platforms/linux/binding.py``; measured: a spoke through its own SA reached another
    spoke's VLANs 5 of 5 without it, 0 with it). VyOS runs the same kernel (``l2tp_ip_recv``
    finds a session by its ID alone) with neither cookies nor that binding in its rendering.
    """
    ends, peers = _hub(site, sites)
    if not ends or not (site.driver.kernel_sessions and not site.driver.cookies):
        return
    title = site.driver.short_title or site.driver.title
    yield Problem(
        site.name,
        ("peers",),
        f"this {title} PE has several peers ({peers}); its kernel finds an L2TPv3 session by "
        "its ID alone and it has neither cookies nor a binding of each peer to its own "
        "sessions: any peer could reach another peer's VLANs",
        "give each peer a PE of its own, or make the hub a Linux PE (it binds each peer's "
        "address to its own sessions)",
        code="V106",
    )


def hub_hints(sites: Mapping[str, Site]) -> Iterator[Problem]:
    """V105 warnings for ``validate``: a Cisco PE with several peers and no 8-byte keyed cookies.

    IOS documents the session ID as what "identifies the session context on the decapsulating
    system" (L2TPv3 feature guide, IOS 12.0(29)S/12.2(25)S p.13; RFC 3931 section 4.1: "The
    Session ID alone provides the necessary context for all further packet processing"); whether
    it also checks a data packet's source address is documented nowhere we found [U]. Until a
    router shows it, each pair of such a PE should carry keyed 8-byte cookies.
    """
    for site in sites.values():
        ends, peers = _hub(site, sites)
        if not ends or site.driver.kernel_sessions:
            continue
        title = site.driver.short_title or site.driver.title
        for index, pw in ends:
            if pw.cookie_size == PAIR_COOKIE and pw.keyed_cookies:
                continue
            have = f"{pw.cookie_size}-byte" if pw.cookie_size else "no"
            yield Problem(
                site.name,
                _cookie_path(site, index),
                f"[U] this {title} PE has several peers ({peers}) and whether it checks an "
                "L2TPv3 data packet's source address is unconfirmed (Cisco documents the session "
                "ID as what identifies the session): a peer that knows another pair's session "
                f"IDs could reach its VLANs; the pseudowires to {pw.peer.name} have {have} "
                "cookies",
                f"set `cookie: 8` (static signaling) for {pw.peer.name} here and at "
                f"{pw.peer.name} (keyed 8-byte cookies: 64 bits per pair, derived from a key no "
                "router holds), or give each peer a PE of its own",
                level="warning",
                code="V105",
            )
