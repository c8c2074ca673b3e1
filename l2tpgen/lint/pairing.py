"""Which device is the other end of each xconnect, when several configs are linted together.

Configs do not say which device is which, so ends are paired from what the text holds:

1. **By tunnel source.** The xconnect's peer address is the address of some device's
   ``ip local interface``: that device is the other end.
2. **By owned address.** Else, the peer address is configured on some device, but not as its tunnel
   source: that device is meant to be the other end (L2T101 reports the wrong address).
3. **By VC ID.** Else, another device has an xconnect with the same VC ID (preferring one that
   points back at this device): that device is meant to be the other end (L2T101).

An xconnect that none of these pairs points outside the configs given and is not checked. The
**mirror** of an end is the xconnect on the other device with the same VC ID pointing at any address
of this device; rules that compare the two ends (L2T103-L2T105) need one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Sequence
    from ipaddress import IPv4Address

    from l2tpgen.lint.facts import DeviceFacts, Interface, Xconnect

How = Literal["address", "owned", "vc-id"]


@dataclass(frozen=True)
class End:
    """One xconnect on one device."""

    device: DeviceFacts
    interface: Interface
    xconnect: Xconnect


@dataclass(frozen=True)
class Link:
    """An end, the device meant to be its other end, how that was decided, and the mirror."""

    end: End
    other: DeviceFacts | None
    how: How | None
    mirror: End | None


@dataclass(frozen=True)
class Pairing:
    """Every xconnect of the devices with its link."""

    devices: tuple[DeviceFacts, ...]
    links: tuple[Link, ...]


def pair(devices: Sequence[DeviceFacts]) -> Pairing:
    """Pair every xconnect of ``devices`` with its other end (see the module docstring)."""
    ends = {id(d): [End(d, i, x) for i, x in d.xconnects()] for d in devices}
    sources = {id(d): set(d.tunnel_sources()) for d in devices}
    owned = {id(d): set(d.owned_addresses()) for d in devices}
    links: list[Link] = []
    for device in devices:
        others = [d for d in devices if d is not device]
        for end in ends[id(device)]:
            other, how = _find_other(end, others, sources, owned, ends)
            mirror = None
            if other is not None:
                mirror = next(
                    (
                        e
                        for e in ends[id(other)]
                        if e.xconnect.vc_id == end.xconnect.vc_id
                        and e.xconnect.peer in owned[id(device)]
                    ),
                    None,
                )
            links.append(Link(end, other, how, mirror))
    return Pairing(tuple(devices), tuple(links))


def _find_other(
    end: End,
    others: list[DeviceFacts],
    sources: dict[int, set[IPv4Address]],
    owned: dict[int, set[IPv4Address]],
    ends: dict[int, list[End]],
) -> tuple[DeviceFacts | None, How | None]:
    peer = end.xconnect.peer
    for table, how in ((sources, "address"), (owned, "owned")):
        match = next((d for d in others if peer in table[id(d)]), None)
        if match is not None:
            return match, how  # type: ignore[return-value]
    here = owned[id(end.device)]
    same_vc = [
        (e.xconnect.peer in here, d)
        for d in others
        for e in ends[id(d)]
        if e.xconnect.vc_id is not None and e.xconnect.vc_id == end.xconnect.vc_id
    ]
    if not same_vc:
        return None, None
    same_vc.sort(key=lambda pair: not pair[0])
    return same_vc[0][1], "vc-id"
