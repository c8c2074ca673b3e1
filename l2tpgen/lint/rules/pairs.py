"""Cross-device rules: the two ends of every pseudowire checked against each other.

How ends are paired is documented in ``l2tpgen.lint.pairing``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from l2tpgen.lint.finding import Severity
from l2tpgen.lint.rules.base import FleetRule

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.ios.facts import Cookie, DeviceFacts, PseudowireClass
    from l2tpgen.lint.finding import Finding
    from l2tpgen.lint.pairing import End, Link, Pairing


def _first_of_pair(link: Link) -> bool:
    """Report a comparison once per pair: from the end in the file that sorts first."""
    assert link.other is not None  # noqa: S101 - callers check
    return (link.end.device.file, link.end.xconnect.at.line) <= (
        link.other.file,
        link.mirror.xconnect.at.line if link.mirror else 0,
    )


def _source_text(device: DeviceFacts) -> str:
    sources = device.tunnel_sources()
    if not sources:
        return "no tunnel source address"
    return ", ".join(f"{a} ({name})" for a, name in sorted(sources.items()))


class PeerAddressMismatch(FleetRule):
    """An xconnect points at an address of its other end that is not that end's tunnel source.

    ## What it does
    Pairs ends on evidence only (see "pairing" in the docs): when the xconnect's peer address is
    configured on another of the given routers, which has an xconnect with the same VC ID pointing
    back, but that router sources its tunnels (`ip local interface`) from another address, the
    xconnect is flagged. A VC ID shared by two configs never pairs them on its own.

    ## Why is this bad?
    The control channel (or, for static sessions, the data) goes to an address that does not
    terminate the tunnel, so the pseudowire does not come up [U].

    ## Use instead
    Point the xconnect at the other end's `ip local interface` address (l2tpgen takes it from the
    peer's own site file).
    """

    code = "L2T101"
    name = "peer-address-mismatch"
    severity = Severity.ERROR

    def check(self, pairing: Pairing) -> Iterator[Finding]:
        for link in pairing.links:
            if link.other is None or link.how != "owned" or not link.other.tunnel_sources():
                continue
            xc = link.end.xconnect
            yield self.finding(
                link.end.device.file,
                xc.at,
                f"xconnect peer {xc.peer} (VC ID {xc.vc_id}) is not the tunnel source of its other "
                f"end {link.other.file}, which sources from {_source_text(link.other)}",
                "point the xconnect at the other end's `ip local interface` address",
            )


def _towards(pairing: Pairing) -> dict[tuple[int, int], set[int]]:
    """VC IDs each device points at each other device (by any address it owns)."""
    owner = {address: id(d) for d in pairing.devices for address in d.owned}
    towards: dict[tuple[int, int], set[int]] = defaultdict(set)
    for link in pairing.links:
        target = owner.get(link.end.xconnect.peer)  # type: ignore[arg-type]
        if target is not None:
            towards[id(link.end.device), target].add(link.end.vc_id)
    return towards


class VcIdMismatch(FleetRule):
    """A VC ID on one end has no matching xconnect back on the other end.

    ## What it does
    Flags an xconnect whose peer is another router's tunnel source when that router has no
    xconnect with the same VC ID pointing back at this one. Error for dynamic sessions, warning
    for manual ones.

    ## Why is this bad?
    Dynamic signaling matches the two ends on the VC ID: a VC ID on one side only never comes up.
    Static sessions do not put the VC ID on the wire, but differing VC IDs make the pair hard to
    follow and usually mean something else differs too.

    ## Use instead
    The same VC ID at both ends (l2tpgen derives both from one model).
    """

    code = "L2T102"
    name = "vc-id-mismatch"
    severity = Severity.ERROR

    def check(self, pairing: Pairing) -> Iterator[Finding]:
        towards = _towards(pairing)
        for link in pairing.links:
            if link.other is None or link.mirror is not None:
                continue
            back = sorted(towards[id(link.other), id(link.end.device)])
            xc = link.end.xconnect
            yield self.finding(
                link.end.device.file,
                xc.at,
                f"VC ID {xc.vc_id} to {xc.peer} has no xconnect back on {link.other.file} "
                f"(its VC IDs towards this device: {', '.join(map(str, back)) or 'none'})",
                "use the same VC ID at both ends of the pseudowire",
                Severity.WARNING if xc.manual else None,
            )


class UnpairedXconnect(FleetRule):
    """An xconnect's other end is not among the configs linted together.

    ## What it does
    When several configs are linted together, reports (info) each xconnect that pairs with none of
    them: its peer is no given router's address (or no address at all, a placeholder), several
    routers claim it, or the router that has it (not as its tunnel source) has no xconnect back.
    The cross-device rules cannot check such a pseudowire.

    ## Why is this bad?
    It may be fine (the other end's config was not given), or it may be a pseudowire that cannot
    come up: a typo in the peer address, or an end not configured yet.

    ## Use instead
    Lint both ends together (`--config a.cfg --config b.cfg`), or check the peer address.
    """

    code = "L2T106"
    name = "unpaired-xconnect"
    severity = Severity.INFO

    def check(self, pairing: Pairing) -> Iterator[Finding]:
        for link in pairing.links:
            if link.other is not None:
                continue
            xc = link.end.xconnect
            yield self.finding(
                link.end.device.file,
                xc.at,
                f"xconnect to {xc.peer_text} (VC ID {xc.vc_id}) has no other end among the "
                f"configs given: {link.why}",
                "lint the other end's config together with this one",
            )


def _pw(end: End) -> PseudowireClass | None:
    return end.device.pw_classes.get(end.xconnect.pw_class or "")


def _on(flag: bool) -> str:  # noqa: FBT001 - a display helper
    return "on" if flag else "off"


def _undefined_class(end: End) -> bool:
    """The xconnect names a pseudowire-class its config lacks (L2T006 says so)."""
    return bool(end.xconnect.pw_class) and _pw(end) is None


def _class_view(end: End) -> dict[str, str]:
    pw = _pw(end)
    return {
        "protocol": (pw.protocol if pw else None) or "l2tpv3",
        "encapsulation": (pw.encapsulation if pw else None) or end.xconnect.encapsulation or "-",
        "ip pmtu": _on(pw.pmtu if pw else False),
        "ip dfbit set": _on(pw.df_bit if pw else False),
        "sequencing": (pw.sequencing if pw else None) or "off",
    }


class PwClassAsymmetry(FleetRule):
    """The two ends of a pseudowire use pseudowire-classes that differ.

    ## What it does
    Compares protocol, encapsulation, `ip pmtu`, `ip dfbit set` and sequencing of the two ends'
    pseudowire-classes. A protocol or encapsulation difference is an error (the session cannot come
    up); the others are warnings.

    ## Why is this bad?
    Asymmetric settings give asymmetric behaviour: fragmentation in one direction but not the
    other, sequence numbers expected that the other end does not send, or no session.

    ## Use instead
    The same pseudowire-class settings at both ends.
    """

    code = "L2T103"
    name = "pw-class-asymmetry"
    severity = Severity.WARNING

    def check(self, pairing: Pairing) -> Iterator[Finding]:
        # One finding per differing setting of a pair of classes, listing the VCs affected.
        groups: dict[tuple[str, str, str, str, str, str], list[Link]] = {}
        for link in pairing.links:
            if link.mirror is None or link.other is None or not _first_of_pair(link):
                continue
            if _undefined_class(link.end) or _undefined_class(link.mirror):
                continue
            ours, theirs = _class_view(link.end), _class_view(link.mirror)
            for key, value in ours.items():
                if value != theirs[key]:
                    group = (
                        link.end.device.file,
                        link.end.xconnect.pw_class or "",
                        link.other.file,
                        key,
                        value,
                        theirs[key],
                    )
                    groups.setdefault(group, []).append(link)
        for (_, pw_name, other_file, key, value, theirs_value), links in groups.items():
            first = links[0]
            pw = _pw(first.end)
            vcs = ", ".join(str(link.end.xconnect.vc_id) for link in links)
            yield self.finding(
                first.end.device.file,
                pw.at if pw else first.end.xconnect.at,
                f"pseudowire-class {pw_name or '(none)'}: {key} {value} here but {theirs_value} "
                f"on {other_file} (VC IDs {vcs})",
                f"make `{key}` the same in both ends' pseudowire-classes",
                Severity.ERROR if key in {"protocol", "encapsulation"} else None,
            )


class VlanMismatch(FleetRule):
    """The two ends of one VC attach different dot1Q VLANs.

    ## What it does
    Flags a pseudowire whose attachment circuits carry different `encapsulation dot1Q` VLANs (or a
    VLAN at one end and a whole port at the other).

    ## Why is this bad?
    Usually a copy-paste slip that bridges two unrelated VLANs; when VLAN translation is intended
    it should be explicit and documented.

    ## Use instead
    The same VLAN at both ends of the VC.
    """

    code = "L2T104"
    name = "vlan-mismatch"
    severity = Severity.WARNING

    def check(self, pairing: Pairing) -> Iterator[Finding]:
        for link in pairing.links:
            if link.mirror is None or link.other is None or not _first_of_pair(link):
                continue
            ours, theirs = link.end.interface.dot1q, link.mirror.interface.dot1q
            if ours != theirs:
                yield self.finding(
                    link.end.device.file,
                    link.end.xconnect.at,
                    f"VC ID {link.end.xconnect.vc_id} attaches {_vlan(ours)} here but "
                    f"{_vlan(theirs)} on {link.other.file}",
                    "attach the same dot1Q VLAN at both ends",
                )


def _vlan(vlan: int | None) -> str:
    return f"VLAN {vlan}" if vlan is not None else "a whole port"


class StaticSessionNotMirrored(FleetRule):
    """Static sessions whose session IDs or cookies are not mirror images.

    ## What it does
    For manual sessions, checks that A's `l2tp id L R` is B's `l2tp id R L`, and that A's
    `l2tp cookie local` equals B's `l2tp cookie remote` (size and value) and the other way round;
    the message says whether the sizes differ (4 or 8 bytes, or a cookie at one end only) or the
    values (never shown: a cookie is a secret). Signalled sessions are not compared: each end
    picks the cookie it receives (RFC 3931), so their sizes may differ by design.

    ## Why is this bad?
    Each end drops packets whose session ID or cookie it does not expect: traffic is silently lost
    with both sessions looking up.

    ## Use instead
    ```
    ! a.conf: l2tp id 100 200          ! b.conf: l2tp id 200 100
    ```
    """

    code = "L2T105"
    name = "static-session-not-mirrored"
    severity = Severity.ERROR

    def check(self, pairing: Pairing) -> Iterator[Finding]:
        for link in pairing.links:
            mirror = link.mirror
            if mirror is None or link.other is None or not _first_of_pair(link):
                continue
            a, b = link.end.xconnect, mirror.xconnect
            if not (a.manual and b.manual):
                continue
            where = a.session_at or a.at
            if a.session_ids is None or b.session_ids is None:
                yield self.finding(
                    link.end.device.file,
                    where,
                    f"VC ID {a.vc_id}: a manual session needs `l2tp id` at both ends",
                    "add `l2tp id LOCAL REMOTE` under both xconnects, mirrored",
                )
            elif a.session_ids != b.session_ids[::-1]:
                yield self.finding(
                    link.end.device.file,
                    where,
                    f"VC ID {a.vc_id}: l2tp id {a.session_ids[0]} {a.session_ids[1]} here but "
                    f"{b.session_ids[0]} {b.session_ids[1]} on {link.other.file}",
                    f"set `l2tp id {b.session_ids[1]} {b.session_ids[0]}` here (mirror image)",
                )
            for ours, theirs, label in (
                (a.cookie_local, b.cookie_remote, "local cookie here vs remote cookie there"),
                (a.cookie_remote, b.cookie_local, "remote cookie here vs local cookie there"),
            ):
                mine = (ours.size, ours.value) if ours else None
                other = (theirs.size, theirs.value) if theirs else None
                if mine != other:
                    yield self.finding(
                        link.end.device.file,
                        ours.at if ours else where,
                        f"VC ID {a.vc_id}: {label} differ {_cookie_sizes(ours, theirs)} "
                        f"({link.other.file})",
                        "each end's local cookie is the other end's remote cookie, size included",
                    )


def _cookie_sizes(ours: Cookie | None, theirs: Cookie | None) -> str:
    """How two cookies differ, by size only: a cookie's value is a secret, never shown."""
    if (ours.size if ours else 0) == (theirs.size if theirs else 0):
        return f"in value (both {ours.size if ours else 0} bytes)"
    return f"in size: {_bytes(ours)} here, {_bytes(theirs)} there"


def _bytes(cookie: Cookie | None) -> str:
    return f"{cookie.size} bytes" if cookie else "none"
