"""The interfaces of an imported site: LAN and WAN settings, and the lines the model leaves out.

Push owns the LAN trunk's subinterfaces that carry an L2TPv3 xconnect or l2tpgen's mark (a
description starting ``l2tpgen:``), and only the hold-queue lines of the LAN and WAN interfaces
(``l2tpgen.device.scope``, docs/push.md). So a line the model cannot express on an attachment
circuit is one push would remove, while one on the LAN or WAN port, or on a subinterface of the
trunk that is not push's (a routed management VLAN), stays on the router and is only missing from
the site file: the notes say which. Every note is shown as "not in the model": the messages say
what push does, not that again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, get_args

from l2tpgen.importer.notes import Note, redact
from l2tpgen.model.site import Duplex, Speed
from l2tpgen.render.marks import MARK
from l2tpgen.traits import driver

if TYPE_CHECKING:
    from l2tpgen.importer.router import Router
    from l2tpgen.ios.facts import Interface

IOS_HOLD_QUEUE = (75, 40)  # what `show running-config` leaves out
_DUPLEX = frozenset(get_args(Duplex))
_SPEED = frozenset(str(s) for s in get_args(Speed))
_HARMLESS = frozenset({"no ip address", "no shutdown"})  # what render writes or IOS's default
KEPT = "push leaves it on the router"
REMOVED = "push would remove it"


def hold_queue(iface: Interface | None, platform: str) -> dict[str, int] | None:
    """The hold-queues as a site file writes them: None when they are the platform's default."""
    if iface is None:
        return None
    found = (
        iface.hold_queue_in if iface.hold_queue_in is not None else IOS_HOLD_QUEUE[0],
        iface.hold_queue_out if iface.hold_queue_out is not None else IOS_HOLD_QUEUE[1],
    )
    if found == driver(platform).hold_queue:
        return None
    return {"in": found[0], "out": found[1]}


def port_settings(iface: Interface | None, file: str, notes: list[Note]) -> dict[str, object]:
    """``duplex`` and ``speed`` as the model takes them; a value it does not take is a note."""
    settings: dict[str, object] = {}
    if iface is None:
        return settings
    if iface.duplex is not None:
        if iface.duplex in _DUPLEX:
            settings["duplex"] = iface.duplex
        else:
            notes.append(_note(file, iface, f"duplex {iface.duplex} on {iface.name}: {KEPT}"))
    if iface.speed is not None:
        if iface.speed in _SPEED:
            settings["speed"] = iface.speed if iface.speed == "auto" else int(iface.speed)
        else:
            notes.append(_note(file, iface, f"speed {iface.speed} on {iface.name}: {KEPT}"))
    return settings


def _note(file: str, iface: Interface, message: str) -> Note:
    return Note.at(file, iface.at, "unexpressed", message)


def _lines(file: str, iface: Interface, consequence: str, *, circuit: bool) -> list[Note]:
    """Notes for what an interface has that its part of the model does not say."""
    notes = [
        Note.at(file, at, "unexpressed", f"`{redact(text)}` on {iface.name}: {consequence}")
        for text, at in iface.other
        if text not in _HARMLESS
    ]
    found: list[str] = []
    if iface.route_cache_off is not None:
        notes.append(
            Note.at(
                file,
                iface.route_cache_off,
                "unexpressed",
                f"`no ip route-cache` on {iface.name} process-switches its traffic (L2T017): "
                f"{consequence}",
            )
        )
    if iface.crypto_map is not None:
        found.append(f"crypto map {iface.crypto_map}")
    if iface.tunnel_protection:
        found.append("tunnel protection")
    if iface.ip_mtu is not None:
        found.append(f"ip mtu {iface.ip_mtu}")
    if iface.shutdown:
        found.append("shutdown")
    notes += _description(file, iface, consequence, circuit=circuit)
    if circuit:
        if iface.addresses:
            found.append(f"ip address {iface.addresses[0].with_netmask.replace('/', ' ')}")
        if iface.hold_queue_in is not None or iface.hold_queue_out is not None:
            found.append("hold-queue")
    notes += [_note(file, iface, f"`{what}` on {iface.name}: {consequence}") for what in found]
    return notes


def _description(file: str, iface: Interface, consequence: str, *, circuit: bool) -> list[Note]:
    """A description the model does not hold, and what push does to it."""
    if iface.description is None:
        return []
    quoted = f"`{redact(f'description {iface.description}')}` on {iface.name}"
    if not circuit:
        # The model has no description for the LAN, WAN or loopback interface (site_fields.md)
        # and push owns none of their descriptions: the router keeps it, the file lacks it.
        return [_note(file, iface, f"{quoted}: {consequence}")]
    if iface.description.startswith(MARK):
        return []  # render writes it: l2tpgen's own, not a loss
    # Render writes every pseudowire subinterface's description as its mark (the VLAN's name
    # comes from this one).
    return [
        _note(
            file,
            iface,
            f"{quoted}: push replaces it with l2tpgen's mark (`description {MARK} VLAN ...`)",
        )
    ]


def _trunk_notes(router: Router) -> list[Note]:
    """What the LAN trunk has beyond the model (kept by push), or that it has no section."""
    file = router.file
    trunk = router.facts.interfaces.get(router.trunk)
    if trunk is None:
        return [
            Note(
                file,
                0,
                0,
                "unexpressed",
                f"no `interface {router.trunk}` section: its "
                "duplex, speed and hold-queues are l2tpgen's defaults",
            )
        ]
    notes = _lines(file, trunk, KEPT, circuit=False)
    if trunk.addresses:
        notes.append(_note(file, trunk, f"{trunk.name} has an IP address: {KEPT}"))
    if trunk.mtu is not None and any(c.vlan is not None for c in router.circuits):
        notes.append(_note(file, trunk, f"mtu {trunk.mtu} on {trunk.name}: {KEPT}"))
    return notes


def _wan_notes(router: Router) -> list[Note]:
    """What the WAN interface and the tunnel-source loopback have beyond the model (kept)."""
    facts, file = router.facts, router.file
    notes: list[Note] = []
    wan = facts.interfaces.get(router.wan.interface)
    if wan is not None:
        notes += _lines(file, wan, KEPT, circuit=False)
        notes += [
            _note(file, wan, f"secondary address {a} on {wan.name}: {KEPT}")
            for a in wan.addresses[1:]
        ]
        if wan.mtu is not None:
            notes.append(_note(file, wan, f"mtu {wan.mtu} on {wan.name}: {KEPT}"))
    if router.wan.loopback is not None:
        loopback = facts.interfaces.get(router.wan.loopback[0])
        if loopback is not None:
            notes += _lines(file, loopback, KEPT, circuit=False)
    return notes


def _circuit_notes(router: Router, *, static_mtu: bool) -> list[Note]:
    """What the VLANs' subinterfaces have beyond the model (removed by push), and their names."""
    file = router.file
    notes: list[Note] = []
    for circuit in router.circuits:
        iface = circuit.interface
        if circuit.vlan is None:
            continue  # the whole port: migrated to subinterfaces, its own lines are the LAN's
        notes += _lines(file, iface, REMOVED, circuit=True)
        if iface.mtu is not None and not static_mtu:
            notes.append(_note(file, iface, f"`mtu {iface.mtu}` on {iface.name}: {REMOVED}"))
        if iface.name != f"{router.trunk}.{circuit.vlan}":
            notes.append(
                _note(
                    file,
                    iface,
                    f"{iface.name} carries VLAN {circuit.vlan}: l2tpgen names it "
                    f"{router.trunk}.{circuit.vlan} (push would replace the subinterface)",
                )
            )
    return notes


def interface_notes(router: Router, *, static_mtu: bool) -> list[Note]:
    """Everything the LAN, WAN, loopback and attachment circuits have beyond the model.

    ``static_mtu``: the circuits' ``mtu`` lines are the static-session budget (read elsewhere).
    """
    notes = _trunk_notes(router) + _wan_notes(router)
    notes += _circuit_notes(router, static_mtu=static_mtu)
    owned = {c.interface.name for c in router.circuits if c.vlan is not None}
    for iface in router.facts.interfaces.values():
        if iface.parent == router.trunk and iface.is_subinterface and iface.name not in owned:
            notes.append(_other_subinterface(router, iface))
    return notes


def _other_subinterface(router: Router, iface: Interface) -> Note:
    """A subinterface of the LAN trunk without a pseudowire the model has: what push does to it.

    Push owns it only if it carries an L2TPv3 xconnect or l2tpgen's mark; then, absent from the
    model, push removes it. Anything else (a routed VLAN) is never touched.
    """
    xconnect = iface.xconnect is not None and router.facts.is_l2tpv3(iface.xconnect)
    if xconnect or (iface.description or "").startswith(MARK):
        why = "an L2TPv3 xconnect" if xconnect else f"l2tpgen's mark (`description {MARK} ...`)"
        return _note(
            router.file,
            iface,
            f"{iface.name}, a subinterface of the LAN trunk, has {why} but no pseudowire "
            "l2tpgen can express: push would remove it (it owns the trunk's subinterfaces that "
            "carry an L2TPv3 xconnect or its mark)",
        )
    return _note(
        router.file,
        iface,
        f"{iface.name} is a subinterface of the LAN trunk without a pseudowire: {KEPT} "
        "(push owns only the trunk's subinterfaces that carry an L2TPv3 xconnect or l2tpgen's "
        "mark); its VLAN cannot be stretched while it is there",
    )
