"""Which router is at the other end of each imported circuit: the linter's pairing, on evidence.

An end pairs with the given config whose tunnel source is its peer address (or, failing that, that
has the address and an xconnect back: ``l2tpgen.lint.pairing``). Both ends of a pseudowire must
then carry the same VLAN; an end whose other end does not (no xconnect back, another VLAN) is left
out, and so, in turn, is anything that paired with it. A peer address no given config has becomes
a stub site.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.importer.notes import Note
from l2tpgen.lint.pairing import pair

if TYPE_CHECKING:
    from ipaddress import IPv4Address

    from l2tpgen.importer.router import Circuit, Router

_NOWHERE = "no given config has the address"


@dataclass(frozen=True)
class Peering:
    """One kept circuit and its other end: a given router (and its circuit) or a stub address."""

    router: Router
    circuit: Circuit
    peer: Router | None
    mirror: Circuit | None
    stub: IPv4Address | None


def _key(file: str, circuit: Circuit) -> tuple[str, int]:
    return (file, circuit.xconnect.at.line)


def peerings(routers: list[Router]) -> tuple[list[Peering], list[Note]]:
    """Every circuit that keeps its pseudowire, with its other end; notes for the others."""
    by_file = {r.file: r for r in routers}
    circuits = {_key(r.file, c): c for r in routers for c in r.circuits}
    links = {
        (link.end.device.file, link.end.xconnect.at.line): link
        for link in pair([r.facts for r in routers]).links
    }
    notes: list[Note] = []
    found: dict[tuple[str, int], Peering] = {}
    for router in routers:
        for circuit in router.circuits:
            key = _key(router.file, circuit)
            link = links.get(key)
            where = f"the xconnect on {circuit.interface.name} to {circuit.peer}"
            if link is None or link.other is None:
                why = link.why if link is not None else "no other end"
                if why.startswith(_NOWHERE):
                    found[key] = Peering(router, circuit, None, None, circuit.peer)
                else:
                    notes.append(_note(router, circuit, f"{where}: {why}; left out"))
                continue
            peer = by_file[link.other.file]
            back = link.mirror
            mirror = circuits.get((back.device.file, back.xconnect.at.line)) if back else None
            if link.how == "owned":
                notes.append(
                    _note(
                        router,
                        circuit,
                        f"{where}: an address of {peer.hostname}, whose tunnel "
                        f"source is {_source(peer)}; l2tpgen points it there",
                    )
                )
            found[key] = Peering(router, circuit, peer, mirror, None)
    return _consistent(found, notes), notes


def _source(router: Router) -> str:
    loopback = router.wan.loopback
    return str(loopback[1].ip if loopback else router.wan.address.ip)


def _note(router: Router, circuit: Circuit, message: str) -> Note:
    return Note.at(router.file, circuit.xconnect.at, "unexpressed", message)


def _consistent(found: dict[tuple[str, int], Peering], notes: list[Note]) -> list[Peering]:
    """Leave out ends whose other end is missing or carries another VLAN, until none is left."""
    changed = True
    while changed:
        changed = False
        for key, peering in list(found.items()):
            if peering.peer is None:
                continue
            mirror = peering.mirror
            name = peering.circuit.interface.name
            problem = None
            if mirror is None or _key(peering.peer.file, mirror) not in found:
                problem = (
                    f"{peering.peer.hostname} has no xconnect back with VC ID "
                    f"{peering.circuit.vc_id} that l2tpgen can express"
                )
            elif mirror.vlan != peering.circuit.vlan:
                theirs = f"VLAN {mirror.vlan}" if mirror.vlan else "its whole port"
                ours = f"VLAN {peering.circuit.vlan}" if peering.circuit.vlan else "the whole port"
                problem = (
                    f"it carries {ours} here but {theirs} at {peering.peer.hostname}: the model "
                    "stretches a VLAN to the same VLAN"
                )
            if problem is not None:
                del found[key]
                notes.append(
                    _note(
                        peering.router,
                        peering.circuit,
                        f"the pseudowire on {name} (VC ID {peering.circuit.vc_id}): "
                        f"{problem}; left out",
                    )
                )
                changed = True
    return list(found.values())
