"""Which device is the other end of each xconnect, when several configs are linted together.

Configs do not say which device is which, so ends are paired only on evidence in the text:

1. **By tunnel source.** The xconnect's peer address is the address of some device's
   ``ip local interface``: that device is the other end.
2. **By owned address.** Else, the peer address is configured on some device (not as its tunnel
   source) and that device has an xconnect with the same VC ID pointing back at this one: that
   device is meant to be the other end, and L2T101 reports the wrong address.

A VC ID alone never pairs two devices: unrelated configs share VC IDs all the time. Where several
of the given configs claim the peer address (labs reuse addresses), the one with an xconnect
pointing back wins; if none or several do, the end stays unpaired. An end that pairs with no device
is reported once as unpaired (L2T106, info). The **mirror** of an end is the xconnect on the other
device with the same VC ID pointing at an address of this device; rules that compare the two ends
(L2T103-L2T105) need one.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Collection, Sequence
    from ipaddress import IPv4Address

    from l2tpgen.ios.facts import DeviceFacts, Interface, Xconnect

How = Literal["address", "owned"]


@dataclass(frozen=True)
class End:
    """One xconnect on one device."""

    device: DeviceFacts
    interface: Interface
    xconnect: Xconnect

    @property
    def vc_id(self) -> int:
        """The VC ID (ends without one are never paired)."""
        return self.xconnect.vc_id or 0


@dataclass(frozen=True)
class Link:
    """An end and what pairing found for it.

    ``other`` is the device meant to be the other end and ``how`` the evidence; ``mirror`` the
    xconnect back, if any. An unpaired end has ``other`` None and ``why`` says why.
    """

    end: End
    other: DeviceFacts | None
    how: How | None
    mirror: End | None
    why: str = ""


@dataclass(frozen=True)
class Pairing:
    """Every L2TPv3 xconnect of the devices with its link."""

    devices: tuple[DeviceFacts, ...]
    links: tuple[Link, ...]


@dataclass(frozen=True)
class _Index:
    """Lookups built once, so pairing stays linear in the number of xconnects."""

    sources: dict[IPv4Address, list[DeviceFacts]]
    owned: dict[IPv4Address, list[DeviceFacts]]
    # (device, VC ID) -> that device's ends with this VC ID
    by_vc: dict[tuple[int, int], list[End]]

    @classmethod
    def of(cls, devices: Sequence[DeviceFacts], ends: list[End]) -> _Index:
        sources: dict[IPv4Address, list[DeviceFacts]] = defaultdict(list)
        owned: dict[IPv4Address, list[DeviceFacts]] = defaultdict(list)
        for device in devices:
            for address in device.tunnel_sources():
                sources[address].append(device)
            for address in device.owned:
                owned[address].append(device)
        by_vc: dict[tuple[int, int], list[End]] = defaultdict(list)
        for end in ends:
            by_vc[id(end.device), end.vc_id].append(end)
        return cls(sources, owned, by_vc)

    def mirror(self, end: End, other: DeviceFacts) -> End | None:
        """The xconnect on ``other`` with ``end``'s VC ID pointing back (at the source first)."""
        here = end.device.owned
        back = [e for e in self.by_vc.get((id(other), end.vc_id), ()) if e.xconnect.peer in here]
        sources = end.device.tunnel_sources()
        return next((e for e in back if e.xconnect.peer in sources), back[0] if back else None)


def pair(devices: Sequence[DeviceFacts], elsewhere: Collection[IPv4Address] = ()) -> Pairing:
    """Pair every xconnect of ``devices`` with its other end (see the module docstring).

    ``elsewhere``: peer addresses whose routers are known but not given as IOS configs (a site's
    Linux PE): their xconnects are left out rather than reported unpaired.
    """
    ends = [
        End(d, i, x)
        for d in devices
        for i, x in d.xconnects()
        if x.vc_id is not None
        and x.peer not in d.owned  # to itself: L2T020, not a pair
        and x.peer not in elsewhere
    ]
    index = _Index.of(devices, ends)
    return Pairing(tuple(devices), tuple(_link(end, index) for end in ends))


def _link(end: End, index: _Index) -> Link:
    peer = end.xconnect.peer
    if peer is None:
        why = f"{end.xconnect.peer_text} is not an IPv4 address (a placeholder?)"
        return Link(end, None, None, None, why)
    for table, how in ((index.sources, "address"), (index.owned, "owned")):
        claimants = [d for d in table.get(peer, ()) if d is not end.device]
        if not claimants:
            continue
        with_mirror = [(d, m) for d in claimants if (m := index.mirror(end, d)) is not None]
        if how == "address" and len(claimants) == 1:
            other = claimants[0]
            return Link(end, other, "address", index.mirror(end, other))
        if len(with_mirror) == 1:
            other, mirror = with_mirror[0]
            return Link(end, other, how, mirror)  # type: ignore[arg-type]
        files = ", ".join(sorted(d.file for d in claimants))
        if len(claimants) > 1:
            return Link(end, None, None, None, f"{peer} is claimed by {files}; none pairs clearly")
        return Link(
            end,
            None,
            None,
            None,
            f"{peer} is an address of {files}, which has no xconnect with VC ID {end.vc_id} back",
        )
    return Link(end, None, None, None, f"no given config has the address {peer}")
