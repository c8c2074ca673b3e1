"""Checks of pseudowire protection: both ends agree, and no public path is left open silently.

Each problem points at the field to change: the peer entry's ``protection`` when it sets that
field, else the site's ``protection``. No message holds a secret (only variable names).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.problems import Problem

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from l2tpgen.model.problems import PathItem
    from l2tpgen.model.protection import PathProtection
    from l2tpgen.model.site import Site


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
                )


def _dynamic_cookie(site: Site, peer: Site) -> bool:
    """Both ends' l2tp-classes set a cookie size for dynamic sessions ([U] `cookie size`)."""
    return bool(site.l2tp_for(peer.name).cookie_size and peer.l2tp_for(site.name).cookie_size)


def _differs(ours: PathProtection, theirs: PathProtection) -> str:
    for field in ("transform", "ipsec_mode", "nat_t"):
        if getattr(ours, field) != getattr(theirs, field):
            return field
    return "mode"
