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

    from l2tpgen.ios.facts import DeviceFacts, Interface, Xconnect

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


@dataclass(frozen=True)
class _Index:
    """Lookups built once, so pairing stays linear in the number of xconnects."""

    sources: dict[IPv4Address, DeviceFacts]
    owned: dict[IPv4Address, DeviceFacts]
    by_vc: dict[int, list[End]]
    owned_by: dict[int, set[IPv4Address]]

    @classmethod
    def of(cls, devices: Sequence[DeviceFacts], ends: list[End]) -> _Index:
        sources: dict[IPv4Address, DeviceFacts] = {}
        owned: dict[IPv4Address, DeviceFacts] = {}
        for device in devices:
            for address in device.tunnel_sources():
                sources.setdefault(address, device)
            for address in device.owned_addresses():
                owned.setdefault(address, device)
        by_vc: dict[int, list[End]] = {}
        for end in ends:
            if end.xconnect.vc_id is not None:
                by_vc.setdefault(end.xconnect.vc_id, []).append(end)
        owned_by = {id(d): set(d.owned_addresses()) for d in devices}
        return cls(sources, owned, by_vc, owned_by)


def pair(devices: Sequence[DeviceFacts]) -> Pairing:
    """Pair every xconnect of ``devices`` with its other end (see the module docstring)."""
    ends = [End(d, i, x) for d in devices for i, x in d.xconnects()]
    index = _Index.of(devices, ends)
    links: list[Link] = []
    for end in ends:
        other, how = _find_other(end, index)
        mirror = None
        if other is not None and end.xconnect.vc_id is not None:
            here = index.owned_by[id(end.device)]
            mirror = next(
                (
                    e
                    for e in index.by_vc.get(end.xconnect.vc_id, ())
                    if e.device is other and e.xconnect.peer in here
                ),
                None,
            )
        links.append(Link(end, other, how, mirror))
    return Pairing(tuple(devices), tuple(links))


def _find_other(end: End, index: _Index) -> tuple[DeviceFacts | None, How | None]:
    peer = end.xconnect.peer
    if peer is not None:
        for table, how in ((index.sources, "address"), (index.owned, "owned")):
            match = table.get(peer)
            if match is not None and match is not end.device:
                return match, how  # type: ignore[return-value]
    if end.xconnect.vc_id is None:
        return None, None
    here = index.owned_by[id(end.device)]
    candidates = [e for e in index.by_vc.get(end.xconnect.vc_id, ()) if e.device is not end.device]
    if not candidates:
        return None, None
    pointing_back = [e for e in candidates if e.xconnect.peer in here]
    return (pointing_back or candidates)[0].device, "vc-id"
