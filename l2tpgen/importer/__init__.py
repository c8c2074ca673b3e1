"""Site files from the running configs users already have (``l2tpgen import``).

``import_configs`` reads each config through the IOS layer (``l2tpgen.ios``: its clean-up, tree
and facts, the linter's pairing), one site per router, and returns the sites as data and as the
text of their files, with every warning and everything the model cannot express as located notes.
Nothing is written or printed here. A config that cannot be imported stops the whole import
(``ImportRefusedError`` with the reasons): a partial fleet would name peers it does not hold.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.importer.class_settings import name_refusals
from l2tpgen.importer.finish import finish
from l2tpgen.importer.interfaces import interface_notes
from l2tpgen.importer.notes import Note
from l2tpgen.importer.pairs import peerings
from l2tpgen.importer.port_mode import (
    PortChoice,
    check_sites,
    decide,
    kept_note,
    migration_note,
    parse_port_choice,
    port_entry,
    refusal,
)
from l2tpgen.importer.results import ImportedSite, ImportRefusedError, ImportResult
from l2tpgen.importer.router import Refused, Router, read_router
from l2tpgen.importer.sites import (
    Draft,
    mirror_classes,
    peer_classes,
    secret_variables,
    site_dict,
    static_notes,
    stub_dict,
    unused_classes,
    vlan_name,
)
from l2tpgen.importer.vlans import VlanChoice, parse_vlans
from l2tpgen.model.site import NAME_PATTERN

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from l2tpgen.importer.pairs import Peering

__all__ = [
    "ImportOptions",
    "ImportRefusedError",
    "ImportResult",
    "ImportedSite",
    "Note",
    "PortChoice",
    "VlanChoice",
    "import_configs",
    "parse_port_choice",
    "parse_vlans",
]


@dataclass(frozen=True)
class ImportOptions:
    """What the configs do not say.

    ``names``: site names by config file, file stem, hostname or (for stubs) peer address;
    ``vlans``: the VLANs of single-trunk routers; ``port``: keep their port-mode xconnect or
    migrate it (``importer/port_mode.py``).
    """

    names: Mapping[str, str] = field(default_factory=dict)
    vlans: VlanChoice = field(default_factory=VlanChoice)
    port: PortChoice = field(default_factory=PortChoice)


def _lookup(names: Mapping[str, str], *keys: str | None) -> str | None:
    return next((names[k] for k in keys if k is not None and k in names), None)


def _keys(router: Router, names: Mapping[str, str]) -> tuple[str | None, ...]:
    """What ``SITE=`` in ``--vlans`` and ``--port-xconnect`` may call a router."""
    return (names[router.file], router.hostname, router.file, router.stem)


def _name_routers(routers: list[Router], options: ImportOptions) -> dict[str, str]:
    """Site name by config file: as given, else l2tpgen's own header's, else the hostname."""
    names: dict[str, str] = {}
    refusals: list[Note] = []
    for r in routers:
        name = _lookup(options.names, r.file, r.stem, r.hostname) or r.rendered_as or r.hostname
        if not re.match(NAME_PATTERN, name):
            refusals.append(
                Note(
                    r.file,
                    0,
                    0,
                    "refused",
                    f"site name {name} is not a name (1-63 letters, digits, `.`, `_`, `-`)",
                )
            )
        elif name in names.values():
            other = next(f for f, n in names.items() if n == name)
            refusals.append(
                Note(
                    r.file,
                    0,
                    0,
                    "refused",
                    f"{other} is site {name} too: give one another name with --name {r.stem}=NAME",
                )
            )
        names[r.file] = name
    if refusals:
        raise ImportRefusedError(refusals)
    return names


def _drafts(
    routers: list[Router], found: list[Peering], names: dict[str, str], options: ImportOptions
) -> dict[str, Draft]:
    drafts = {names[r.file]: Draft(names[r.file], r) for r in routers}
    refusals: list[Note] = []
    by_router: dict[str, list[Peering]] = defaultdict(list)
    for peering in found:
        by_router[names[peering.router.file]].append(peering)
    for name, draft in list(drafts.items()):  # stubs are added on the way
        router = draft.router
        assert router is not None  # noqa: S101 - routers' drafts
        mine = by_router.get(name, [])
        if not mine and router.circuits:
            refusals.append(
                Note(
                    router.file,
                    0,
                    0,
                    "refused",
                    "none of its pseudowires has another end l2tpgen can express",
                )
            )
            continue
        if not mine:
            draft.default = unused_classes(router)
            draft.notes += draft.default.notes
            refusals += name_refusals(router, draft.default)
        by_peer: dict[str, list[Peering]] = defaultdict(list)
        for peering in mine:
            peer = names[peering.peer.file] if peering.peer else _stub_name(peering, options)
            by_peer[peer].append(peering)
            vlans = _circuit_vlans(peering, draft, peer, options=options, refusals=refusals)
            draft.vlans += [_vlan(peering, v, peer) for v in vlans]
        for peer, group in by_peer.items():
            draft.classes[peer] = peer_classes(router, [p.circuit for p in group])
            draft.notes += draft.classes[peer].notes
            refusals += name_refusals(router, draft.classes[peer], group[0].circuit.xconnect.at)
            if group[0].stub is not None:
                stub = drafts.setdefault(peer, Draft(peer, None, address=str(group[0].stub)))
                stub.classes[name] = mirror_classes(draft.classes[peer])
                stub.vlans += [{**v, "peer": name} for v in draft.vlans if v["peer"] == peer]
                if draft.port is not None and draft.port["peer"] == peer:
                    stub.port = {**draft.port, "peer": name}
        static_notes(draft, mine, names)
    if refusals:
        raise ImportRefusedError(refusals)
    return drafts


def _stub_name(peering: Peering, options: ImportOptions) -> str:
    address = str(peering.stub)
    return _lookup(options.names, address) or f"peer-{address.replace('.', '-')}"


def _circuit_vlans(
    peering: Peering, draft: Draft, peer: str, *, options: ImportOptions, refusals: list[Note]
) -> list[int]:
    """A subinterface's VLAN; a port-mode xconnect's: none kept, or the VLANs it is migrated to.

    Kept or migrated as the options say (``importer/port_mode.py``); the choice goes into
    ``draft.port``.
    """
    if peering.circuit.vlan is not None:
        return [peering.circuit.vlan]
    router = peering.router
    keys = (draft.name, router.hostname, router.file, router.stem)
    chosen = options.port.for_site(*keys)
    vlans = options.vlans.for_site(*keys)
    own_vlans = any(k in options.vlans.per_site for k in keys)
    action = decide(chosen, vlans)
    if (action == "migrate" and not vlans) or (action == "keep" and own_vlans):
        refusals.append(refusal(peering, draft.name, action))
        return []
    draft.port = port_entry(peering, peer, action)
    if action == "keep":
        draft.notes.append(kept_note(peering))
        return []
    draft.notes.append(migration_note(peering, list(vlans)))
    return list(vlans)


def _vlan(peering: Peering, vlan: int, peer: str) -> dict[str, object]:
    entry: dict[str, object] = {
        "id": vlan,
        "name": vlan_name(
            peering.circuit.interface.description if peering.circuit.vlan else None, vlan
        ),
        "peer": peer,
    }
    if peering.circuit.vlan is not None and peering.circuit.vc_id != vlan:
        entry["vc_id"] = peering.circuit.vc_id
    if peering.circuit.vlan is not None and peering.circuit.interface.dot1q_native:
        entry["native"] = True  # `encapsulation dot1Q N native`
    return entry


def import_configs(
    configs: Sequence[tuple[str, str]], options: ImportOptions | None = None
) -> ImportResult:
    """Import ``(file name, text)`` configs as sites.

    Raises:
        ImportRefusedError: a config cannot be imported (nothing is returned for any).
    """
    options = options or ImportOptions()
    routers: list[Router] = []
    refusals: list[Note] = []
    for file, text in configs:
        try:
            routers.append(read_router(file, text))
        except Refused as exc:  # noqa: PERF203 - every config's reasons, not the first only
            refusals += exc.notes
    if refusals:
        raise ImportRefusedError(refusals)
    names = _name_routers(routers, options)
    check_sites(options.port, (k for r in routers for k in _keys(r, names) if k), names.values())
    found, pair_notes = peerings(routers)
    drafts = _drafts(routers, found, names, options)
    secrets, secret_notes = secret_variables(drafts)
    notes = [n for r in routers for n in r.notes] + pair_notes + secret_notes
    for router in routers:
        static = any(c.xconnect.manual for c in router.circuits)
        notes += interface_notes(router, static_mtu=static)
    sites = []
    for _name, draft in sorted(drafts.items()):
        data = site_dict(draft, secrets) if draft.router else stub_dict(draft, secrets)
        sites.append((draft, data))
    return finish(sites, notes)
