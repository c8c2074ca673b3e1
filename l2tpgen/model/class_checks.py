"""Checks of the classes each pseudowire is built with: the site's, and each peer's changes.

A site has a default ``pseudowire_class`` and ``l2tp_class``; a ``peers`` entry may change the
pseudowire settings for that peer and bring its own l2tp-class. Each check points at the field to
change: the peer's override when the peer has one, else the site's class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.problems import Problem
from l2tpgen.model.secret_names import L2TP_SECRET_ENV

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from l2tpgen.model.problems import PathItem
    from l2tpgen.model.site import L2tpClass, PseudowireClass, Site


def _pw_path(site: Site, peer: str | None, field: str) -> tuple[PathItem, ...]:
    """Where ``field`` of the pseudowires to ``peer`` is set: the peer's entry or the site's."""
    for index, entry in enumerate(site.peers):
        if entry.name == peer and getattr(entry.pseudowire, field, None) is not None:
            return ("peers", index, "pseudowire", field)
    return ("pseudowire_class", field)


def _l2tp_path(site: Site, peer: str | None, field: str) -> tuple[PathItem, ...]:
    for index, entry in enumerate(site.peers):
        if entry.name == peer and entry.l2tp_class is not None:
            return ("peers", index, "l2tp_class", field)
    return ("l2tp_class", field)


def _uses(site: Site) -> list[tuple[str | None, PseudowireClass, L2tpClass]]:
    """The site's own classes (peer None) and those of each peer entry."""
    found: list[tuple[str | None, PseudowireClass, L2tpClass]] = [
        (None, site.pseudowire_class, site.l2tp_class)
    ]
    found += [(p.name, site.pseudowire_for(p.name), site.l2tp_for(p.name)) for p in site.peers]
    return found


def check_classes(site: Site) -> Iterator[Problem]:
    """Each class the site renders is valid, and no two different ones share a name."""
    seen_l2tp: dict[str, L2tpClass] = {}
    seen_pw: dict[str, PseudowireClass] = {}
    for peer, pw, l2tp in _uses(site):
        signalled = pw.signaling == "dynamic" or (
            pw.static_hello and site.driver.static_hello_capable
        )
        if not signalled:
            pass  # no control channel: the l2tp-class is not rendered
        elif l2tp.name not in seen_l2tp:
            seen_l2tp[l2tp.name] = l2tp
            yield from _check_l2tp(site, peer, l2tp)
        elif seen_l2tp[l2tp.name] != l2tp:
            yield Problem(
                site.name,
                _l2tp_path(site, peer, "name"),
                f"two different l2tp-classes are named {l2tp.name}",
                "give this peer's l2tp_class a name of its own",
                code="V039",
            )
        if peer is not None and pw is site.pseudowire_class:
            continue  # the site's own class, checked once as such
        if seen_pw.setdefault(pw.name, pw) != pw:
            yield Problem(
                site.name,
                ("pseudowire_class", "name"),
                f"two different pseudowire-classes would be named {pw.name}",
                "rename the site's pseudowire_class or the peer's l2tp_class",
                code="V040",
            )
        yield from _check_pw(site, peer, pw)


def _check_l2tp(site: Site, peer: str | None, l2tp: L2tpClass) -> Iterator[Problem]:
    if l2tp.authentication != "none" and l2tp.secret_env is None:
        yield Problem(
            site.name,
            _l2tp_path(site, peer, "authentication"),
            f"authentication {l2tp.authentication} needs a secret, and no secret_env is set",
            f"add `secret_env: {L2TP_SECRET_ENV}` to l2tp_class and export that variable when "
            "rendering with --reveal-secrets or pushing",
            code="V041",
        )
    if l2tp.hash is not None and l2tp.authentication != "digest":
        yield Problem(
            site.name,
            _l2tp_path(site, peer, "hash"),
            f"hash applies only to digest authentication, not {l2tp.authentication}",
            "remove hash, or set `authentication: digest`",
            code="V042",
        )


def _check_pw(site: Site, peer: str | None, pw: PseudowireClass) -> Iterator[Problem]:
    towards = f" (pseudowires to {peer})" if peer else ""
    if pw.signaling not in site.driver.signaling:
        yield Problem(
            site.name,
            _pw_path(site, peer, "signaling"),
            f"a {site.driver.short_title or site.driver.title} PE speaks only "
            f"{' or '.join(site.driver.signaling)} L2TPv3 sessions, not {pw.signaling}{towards}",
            _static_hint(site),
            code="V043",
        )
    if pw.signaling == "dynamic" and pw.cookie:
        yield Problem(
            site.name,
            _pw_path(site, peer, "cookie"),
            f"cookies are configured for static sessions only{towards}",
            "remove cookie, or use `signaling: static`",
            code="V044",
        )
    if pw.signaling == "static" and pw.pmtu:
        yield Problem(
            site.name,
            _pw_path(site, peer, "pmtu"),
            f"ip pmtu is not supported with static signaling (protocol none){towards}",
            "remove `pmtu: true`; with static sessions lower the CE MTU to what `l2tpgen mtu` "
            "prints instead",
            code="V045",
        )


def _static_hint(site: Site) -> str:
    """V043's fix: static for this site only at its peers first, then here."""
    return (
        f"at each peer, for {site.name} only: `- {{name: {site.name}, pseudowire: {{signaling: "
        "static}}` in its `peers` (not its `pseudowire_class`, which would make its other pairs "
        "static too); here: `pseudowire_class: {signaling: static}`"
    )


def static_spread_hints(sites: Mapping[str, Site]) -> Iterator[Problem]:
    """Warnings for `validate`: site-wide static classes that turn dynamic-capable pairs static."""
    for name in sorted(sites):
        yield from _site_wide_static(sites[name], sites)


def _site_wide_static(site: Site, sites: Mapping[str, Site]) -> Iterator[Problem]:
    """A site-wide static class that also makes static a pair whose two ends speak dynamic.

    Written for a peer that speaks only static (a Linux PE), ``pseudowire_class: {signaling:
    static}`` makes every other pair of the site static too: no control channel, no ``ip pmtu``.
    Warned once per such pair, at the site-wide setting, when the other end is static as well
    (else the ends differ: V047).
    """
    if site.pseudowire_class.signaling != "static" or "dynamic" not in site.driver.signaling:
        return
    static_only = [
        p for p in site.peer_names if p in sites and "dynamic" not in sites[p].driver.signaling
    ]
    if not static_only:
        return  # no peer needs it: static everywhere is the design
    for entry in site.peers:
        peer = sites.get(entry.name)
        if (
            peer is None
            or entry.name == site.name
            or "dynamic" not in peer.driver.signaling
            or entry.pseudowire.signaling is not None  # stated for this peer: meant
            or peer.pseudowire_for(site.name).signaling != "static"
        ):
            continue
        yield Problem(
            site.name,
            ("pseudowire_class", "signaling"),
            f"the pseudowires to {entry.name} are static because `pseudowire_class.signaling` is "
            f"static here, though both ends speak dynamic L2TPv3 (a control channel, `ip pmtu`); "
            f"the site-wide setting serves {', '.join(static_only)}, which speaks only static",
            f"set static for {' and '.join(static_only)} only (`peers: [{{name: "
            f"{static_only[0]}, pseudowire: {{signaling: static}}}}]`) and leave "
            f"`pseudowire_class.signaling` dynamic here and at {entry.name}; keep it if static "
            "sessions between the two are meant",
            level="warning",
            code="V119",
        )


def check_class_pairs(
    site: Site, sites: Mapping[str, Site], files: Mapping[str, str]
) -> Iterator[Problem]:
    """Both ends of each pair build their pseudowires alike (compared per peer)."""
    for peer_name in sorted({v.peer for v in site.vlans}):
        peer = sites.get(peer_name)
        if peer is None or peer_name == site.name:
            continue
        ours, theirs = site.pseudowire_for(peer_name), peer.pseudowire_for(site.name)
        if peer_name > site.name:  # each pair is compared once, from the site that sorts first
            yield from _compare(site, peer, ours, theirs, files[peer_name])
        entry = site.peer_entry(peer_name)
        if (
            not peer.driver.static_hello_capable
            and entry is not None
            and entry.pseudowire.static_hello
        ):
            yield Problem(
                site.name,
                _pw_path(site, peer_name, "static_hello"),
                f"{peer_name} is a Linux PE: its unmanaged tunnels cannot answer `l2tp hello`",
                "remove static_hello for this peer (it is off towards Linux by default)",
                code="V046",
            )


def _compare(
    site: Site, peer: Site, ours: PseudowireClass, theirs: PseudowireClass, file: str
) -> Iterator[Problem]:
    fields = [("signaling", "signaling"), ("dialect", "dialect"), ("sequencing", "sequencing")]
    if ours.signaling == theirs.signaling:  # else the derived cookie sizes differ too
        fields.append(("effective_cookie", "cookie size"))
    for field, label in fields:
        if getattr(ours, field) != getattr(theirs, field):
            yield Problem(
                site.name,
                _pw_path(site, peer.name, field.removeprefix("effective_")),
                f"{label} is {getattr(ours, field)} here but {getattr(theirs, field)} in {file} "
                f"(pseudowires between {site.name} and {peer.name})",
                f"both ends of a pseudowire must use the same {label}",
                code="V047",
            )
    signalled = ours.signaling == "dynamic" or (
        ours.static_hello and site.driver.static_hello_capable and peer.driver.static_hello_capable
    )
    a, b = site.l2tp_for(peer.name), peer.l2tp_for(site.name)
    if signalled and _auth_setting(a) != _auth_setting(b):
        only_hash = a.authentication == b.authentication  # both digest, hashes differ
        yield Problem(
            site.name,
            _l2tp_path(site, peer.name, "hash" if only_hash else "authentication"),
            f"control-channel authentication is {_auth_label(a, only_hash=only_hash)} here but "
            f"{_auth_label(b, only_hash=only_hash)} in {file}",
            "set the same authentication at both ends, and for digest the same hash (left out, "
            "it is sha): the tunnel will not come up otherwise",
            code="V048",
        )


def _auth_setting(l2tp: L2tpClass) -> tuple[str, str | None]:
    """What the router is told: the method, and the hash only for digest.

    ``hash`` beside ``password`` is never rendered (V042 reports it), so it cannot make two ends
    differ. A digest class without ``hash`` renders ``hash sha`` (the model's default, not IOS's
    md5: render/classes.py), so it equals one that says ``hash: sha``.
    """
    return l2tp.authentication, l2tp.effective_hash if l2tp.authentication == "digest" else None


def _auth_label(l2tp: L2tpClass, *, only_hash: bool) -> str:
    """The method, with the digest hash when that is what differs; "the default" when left out."""
    if not only_hash:
        return l2tp.authentication
    default = "" if l2tp.hash else ", the default"
    return f"{l2tp.authentication} (hash {l2tp.effective_hash}{default})"
