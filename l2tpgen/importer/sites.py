"""Site dicts from routers and their peerings: classes per peer, VLANs, stubs, secret variables."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.importer.class_settings import (
    L2tpSettings,
    PeerClasses,
    PwSettings,
    class_settings,
    peer_classes,
)
from l2tpgen.importer.interfaces import hold_queue, port_settings
from l2tpgen.importer.notes import Note
from l2tpgen.model.addresses import DEFAULT_ROUTES
from l2tpgen.model.pseudowire import derive_cookie
from l2tpgen.model.secret_names import L2TP_SECRET_ENV, suffixed
from l2tpgen.model.site import PseudowireClass, class_name
from l2tpgen.render.marks import MARK, read_description
from l2tpgen.traits import DEFAULT, linted, read_as

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.importer.pairs import Peering
    from l2tpgen.importer.router import Router

_SLUG = re.compile(r"[^A-Za-z0-9._-]+")
OVERRIDES = ("signaling", "cookie", "sequencing", "pmtu", "df_bit", "tos_reflect", "static_hello")


@dataclass
class Draft:
    """A site being assembled: its router (None for a stub) and its VLANs by peer."""

    name: str
    router: Router | None
    address: str = ""  # a stub's: the tunnel address its peers point at
    vlans: list[dict[str, object]] = field(default_factory=list)
    classes: dict[str, PeerClasses] = field(default_factory=dict)  # by peer name
    default: PeerClasses | None = None  # the classes of a router without pseudowires
    port: dict[str, object] | None = None  # lan.port_xconnect: a port-mode xconnect, kept or not
    notes: list[Note] = field(default_factory=list)


def vlan_name(description: str | None, vlan: int) -> str:
    """A VLAN's name: its subinterface's description made a name, else ``vlanN``.

    l2tpgen's own mark (``l2tpgen: VLAN N NAME to PEER``) gives back the model's NAME.
    """
    marked = read_description(description)
    if marked is not None and (description or "").startswith(MARK):
        return marked.name
    slug = _SLUG.sub("-", description or "").strip("-._")[:63].rstrip("-._")
    return slug or f"vlan{vlan}"


def secret_variables(drafts: Mapping[str, Draft]) -> tuple[dict[tuple[str, str], str], list[Note]]:
    """A variable per secret.

    l2tpgen's own mask names it; else the most used secret gets ``L2TPGEN_L2TP_SECRET`` and each
    other one ``L2TPGEN_L2TP_SECRET_<CLASS>``.
    """
    uses: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for draft in drafts.values():
        if draft.router is None:
            continue
        for classes in [*draft.classes.values(), *([draft.default] if draft.default else [])]:
            if classes.l2tp.secret is not None:
                uses[classes.l2tp.secret].append((draft.name, classes.l2tp.name))
    chosen = {s: s[1] for s in uses if s[0] == "variable"}
    taken = set(chosen.values())
    for secret in sorted(uses, key=lambda s: (-len(uses[s]), s)):
        if secret in chosen:
            continue
        base = (
            L2TP_SECRET_ENV
            if L2TP_SECRET_ENV not in taken
            else suffixed(L2TP_SECRET_ENV, uses[secret][0][1])
        )
        name, number = base, 2
        while name in taken:
            name, number = f"{base}_{number}", number + 1
        chosen[secret] = name
        taken.add(name)
    notes = []
    for secret, variable in sorted(chosen.items(), key=lambda i: i[1]):
        where = ", ".join(sorted({f"l2tp-class {c} of {s}" for s, c in uses[secret]}))
        notes.append(
            Note(
                "",
                0,
                0,
                "warning",
                f"export {variable} with the secret of {where} before "
                "`render --reveal-secrets` or `push`: site files name the variable, never the "
                "secret",
            )
        )
    return chosen, notes


def _pw_overrides(base: PwSettings, want: PwSettings) -> dict[str, object]:
    site = PseudowireClass.model_validate(base.as_site_class())
    changes: dict[str, object] = {}
    for key in OVERRIDES:
        merged = site.model_copy(update=changes)
        have = {
            "cookie": merged.effective_cookie,
            "pmtu": merged.effective_pmtu,
        }.get(key, getattr(merged, key))
        if have != getattr(want, key) and not (
            key == "static_hello" and want.signaling != "static"
        ):
            changes[key] = getattr(want, key)
    return changes


def _l2tp_dict(l2tp: L2tpSettings, secrets: Mapping[tuple[str, str], str]) -> dict[str, object]:
    return l2tp.as_dict(secrets.get(l2tp.secret) if l2tp.secret else None)


def _named_as_derived(base: PeerClasses, classes: Mapping[str, PeerClasses]) -> int:
    """How many peers' classes are named as l2tpgen names them with ``base`` as the site's."""
    matches = 0
    for mine in classes.values():
        overrides = _pw_overrides(base.pw, mine.pw)
        control = mine.pw.signaling == "dynamic" or mine.pw.static_hello
        l2tp = {"name": mine.l2tp.name} if control and mine.l2tp != base.l2tp else None
        matches += _class_name(base.pw, overrides, l2tp) == mine.pw.name
    return matches


def _implied(classes: list[PeerClasses]) -> list[PeerClasses]:
    """Site classes no peer uses, which the peers' class names imply.

    ``l2tpgen`` behind ``l2tpgen-nodf`` and ``l2tpgen-seq-both``: the model's defaults under the
    names' common part.
    """
    parts = [c.pw.name.split("-") for c in classes]
    common: list[str] = []
    for words in zip(*parts, strict=False):
        if len(set(words)) != 1:
            break
        common.append(words[0])
    if not common or len(common) == min(len(p) for p in parts):
        return []
    name = "-".join(common)
    l2tp = Counter(c.l2tp for c in classes).most_common(1)[0][0]
    static = PwSettings(name, signaling="static", cookie=4, pmtu=False)
    return [PeerClasses(PwSettings(name), l2tp, ()), PeerClasses(static, l2tp, ())]


def _base(draft: Draft) -> PeerClasses:
    """The site's own classes.

    Those from which the others' names derive by l2tpgen's rule (a config l2tpgen rendered), else
    those most VLANs use, else the shortest name.
    """
    counts = Counter(str(v["peer"]) for v in draft.vlans)
    vlans: Counter[PeerClasses] = Counter()
    for peer, classes in draft.classes.items():
        vlans[classes] += counts[peer]
    used = sorted(set(draft.classes.values()), key=lambda c: c.pw.name)
    return max(
        [*used, *_implied(used)],
        key=lambda c: (_named_as_derived(c, draft.classes), vlans[c], -len(c.pw.name)),
    )


def classes_and_peers(
    draft: Draft, secrets: Mapping[tuple[str, str], str]
) -> tuple[dict[str, object], dict[str, object], list[object]]:
    """The site's ``l2tp_class``, ``pseudowire_class`` and ``peers``."""
    if draft.classes:
        base = _base(draft)
    else:
        assert draft.default is not None  # noqa: S101 - set for a router without pseudowires
        base = draft.default
    pw_class = base.pw.as_site_class()
    l2tp_class = _l2tp_dict(base.l2tp, secrets)
    peers: list[object] = []
    file = draft.router.file if draft.router else ""
    for peer in sorted(draft.classes):
        mine = draft.classes[peer]
        entry: dict[str, object] = {"name": peer}
        overrides = _pw_overrides(base.pw, mine.pw)
        if overrides:
            entry["pseudowire"] = overrides
        control = mine.pw.signaling == "dynamic" or mine.pw.static_hello
        if control and mine.l2tp != base.l2tp:
            entry["l2tp_class"] = _l2tp_dict(mine.l2tp, secrets)
        if mine.pw.dialect != base.pw.dialect:
            draft.notes.append(
                Note(
                    file,
                    0,
                    0,
                    "unexpressed",
                    f"the pseudowires to {peer} use "
                    f"protocol {mine.pw.dialect}, the site's {base.pw.dialect}: "
                    "the dialect is per site",
                )
            )
        peers.append(entry if len(entry) > 1 else peer)
        expected = _class_name(base.pw, overrides, entry.get("l2tp_class"))
        if draft.router is not None and expected != mine.pw.name:
            draft.notes.append(
                Note(
                    file,
                    0,
                    0,
                    "unexpressed",
                    f"pseudowire-class {mine.pw.name} "
                    f"(to {peer}) is named {expected} by l2tpgen's rule for "
                    "per-peer classes: push would create that one",
                )
            )
    return l2tp_class, pw_class, peers


def unused_classes(router: Router) -> PeerClasses:
    """The classes of a router without pseudowires: its one L2TPv3 pseudowire-class."""
    pw = min(router.facts.l2tpv3_classes.values(), key=lambda c: c.at.line)
    return class_settings(router, pw, [])


def _class_name(base: PwSettings, overrides: dict[str, object], l2tp: object) -> str:
    site = PseudowireClass.model_validate(base.as_site_class())
    merged = site.model_copy(update=overrides)
    name = l2tp.get("name") if isinstance(l2tp, dict) else None
    return class_name(site, merged, str(name) if name is not None else None)


def static_notes(draft: Draft, peerings: list[Peering], names: Mapping[str, str]) -> None:
    """Static sessions whose IDs or cookies are not what the model derives (push rewrites them)."""
    for peering in peerings:
        xc, peer = peering.circuit.xconnect, peering.peer
        if not xc.manual or peering.circuit.vlan is None:
            continue
        vc = peering.circuit.vc_id
        where = f"the static session on {peering.circuit.interface.name}"
        if xc.session_ids is not None and xc.session_ids != (vc, vc):
            draft.notes.append(
                Note.at(
                    peering.router.file,
                    xc.session_at,
                    "unexpressed",
                    f"{where}: l2tpgen's session IDs are the VC ID ({vc} {vc}); "
                    "push would change `l2tp id` at both ends",
                )
            )
        peer_name = names[peer.file] if peer is not None else None
        size = xc.cookie_local.size if xc.cookie_local else 0
        want_local = derive_cookie(draft.name, vc, size)
        want_remote = derive_cookie(peer_name or "", vc, size) if peer_name else None
        local = xc.cookie_local.value if xc.cookie_local else ()
        remote = xc.cookie_remote.value if xc.cookie_remote else ()
        if local != want_local or (want_remote is not None and remote != want_remote):
            at = xc.cookie_local.at if xc.cookie_local else xc.at
            draft.notes.append(
                Note.at(
                    peering.router.file,
                    at,
                    "unexpressed",
                    f"{where}: its cookies are not the ones l2tpgen derives "
                    "from the site names: push would change them at both ends",
                )
            )


def site_dict(draft: Draft, secrets: Mapping[tuple[str, str], str]) -> dict[str, object]:
    """The site file's content (a router's; stubs are made by ``stub_dict``)."""
    router = draft.router
    assert router is not None  # noqa: S101 - stubs go through stub_dict
    facts, wan_facts = router.facts, router.wan
    # The platform the text reads as: IOS-XE when a line or a port name only IOS-XE has says so
    # (l2tpgen.ios.extract), else classic IOS, the default.
    platform = (linted(facts.platform) if facts.platform else read_as(facts.software)).name
    data: dict[str, object] = {"name": draft.name, "hostname": router.hostname}
    if platform != DEFAULT:
        data["platform"] = platform
    data["management"] = {"host": str(wan_facts.address.ip)}
    wan_iface = facts.interfaces.get(wan_facts.interface)
    wan: dict[str, object] = {
        "interface": wan_facts.interface,
        "address": str(wan_facts.address),
        "gateway": str(wan_facts.gateway),
    }
    queues = hold_queue(wan_iface, platform)
    if queues is not None:
        wan["hold_queue"] = queues
    if wan_facts.loopback is not None:
        wan["loopback"] = {
            "interface": wan_facts.loopback[0],
            "address": str(wan_facts.loopback[1]),
        }
    routes = [str(r) for r in wan_facts.routes]
    if routes != [str(DEFAULT_ROUTES[4])]:  # the model's default for an IPv4 WAN
        wan["routes"] = routes
    wan.update(port_settings(wan_iface, router.file, draft.notes))
    trunk = facts.interfaces.get(router.trunk)
    lan: dict[str, object] = {"interface": router.trunk}
    queues = hold_queue(trunk, platform)
    if queues is not None:
        lan["hold_queue"] = queues
    lan.update(port_settings(trunk, router.file, draft.notes))
    if draft.port is not None:
        lan["port_xconnect"] = draft.port
    data |= {"wan": wan, "lan": lan}
    l2tp_class, pw_class, peers = classes_and_peers(draft, secrets)
    data |= {"l2tp_class": l2tp_class, "pseudowire_class": pw_class}
    if facts.cdp_run:
        data["cdp"] = True
    data |= {"peers": peers, "vlans": sorted(draft.vlans, key=lambda v: int(str(v["id"])))}
    return data


def stub_dict(draft: Draft, secrets: Mapping[tuple[str, str], str]) -> dict[str, object]:
    """A stub: what the other ends say about a router whose config was not given.

    Its ``wan`` and ``lan`` are left out on purpose: nothing here knows them, so `validate` points
    at them until they are filled in.
    """
    l2tp_class, pw_class, peers = classes_and_peers(draft, secrets)
    data: dict[str, object] = {
        "name": draft.name,
        "hostname": draft.name,
        "management": {"host": draft.address},
    }
    if draft.port is not None:  # its interface is left out too, for `validate` to point at
        data["lan"] = {"port_xconnect": draft.port}
    return data | {
        "l2tp_class": l2tp_class,
        "pseudowire_class": pw_class,
        "peers": peers,
        "vlans": sorted(draft.vlans, key=lambda v: int(str(v["id"]))),
    }


def mirror_classes(classes: PeerClasses) -> PeerClasses:
    """A stub's classes towards a router: the router's own towards it (both ends must agree)."""
    return PeerClasses(classes.pw, classes.l2tp, ())


__all__ = [
    "Draft",
    "classes_and_peers",
    "mirror_classes",
    "peer_classes",
    "secret_variables",
    "site_dict",
    "static_notes",
    "stub_dict",
    "unused_classes",
    "vlan_name",
]
