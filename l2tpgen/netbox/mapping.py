"""NetBox's records to site dicts: the mapping of docs/netbox.md, with what cannot be mapped.

Pure: works on :class:`~l2tpgen.netbox.client.Inventory` values, so every rule is testable without
a NetBox. Nothing is guessed: what NetBox does not hold comes from the overlay, and an object that
cannot be mapped is an :class:`Unmapped` naming its NetBox URL.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.netbox.client import GATEWAY_FIELD, LOOPBACK_TAG, SITE_FIELD, WAN_TAG
from l2tpgen.traits import NAMES

if TYPE_CHECKING:
    from l2tpgen.netbox.client import Device, Interface, Inventory, L2vpn, Termination

_DOT1Q = re.compile(r"\.(\d+)$")
_SPEEDS = {10_000: 10, 100_000: 100, 1_000_000: 1000, 10_000_000: 10000}  # kbit/s -> Mb/s


@dataclass(frozen=True)
class Unmapped:
    """A NetBox object l2tpgen could not turn into site data, and why."""

    url: str
    message: str


@dataclass
class Draft:
    """A site being built from one device."""

    device: Device
    data: dict[str, object]
    vlans: list[dict[str, object]] = field(default_factory=list)
    # The site's fields the mapping could not fill and reported as unmapped (the model's own
    # "Field required" for them would say it twice).
    unfilled: frozenset[str] = frozenset()


def _dot1q(sub: Interface) -> int | None:
    if sub.untagged_vid is not None:
        return sub.untagged_vid
    found = _DOT1Q.search(sub.name)
    return int(found.group(1)) if found else None


def _port(interface: Interface) -> dict[str, object]:
    data: dict[str, object] = {"interface": interface.name}
    if interface.duplex:
        data["duplex"] = interface.duplex
    if interface.speed in _SPEEDS:
        data["speed"] = _SPEEDS[interface.speed]
    return data


class _Mapper:
    def __init__(self, inventory: Inventory) -> None:
        self.inv = inventory
        self.problems: list[Unmapped] = []
        self.by_device: dict[int, list[Interface]] = defaultdict(list)
        for interface in inventory.interfaces.values():
            self.by_device[interface.device_id].append(interface)
        self.addresses: dict[int, list[str]] = defaultdict(list)
        for address in inventory.addresses:
            self.addresses[address.interface_id].append(address.address)
        self.sites: dict[int, Draft] = {}
        self.lan: dict[int, Interface] = {}  # device id -> the trunk its subinterfaces sit on

    def unmapped(self, url: str, message: str) -> None:
        self.problems.append(Unmapped(url, message))

    def site_name(self, device: Device) -> str:
        return device.site_name or device.name

    def _tagged(self, device: Device, tag: str) -> Interface | None:
        found = [i for i in self.by_device[device.id] if tag in i.tags]
        if len(found) > 1:
            names = ", ".join(sorted(i.name for i in found))
            self.unmapped(device.url, f"device {device.name}: tag {tag} is on {names}: tag one")
            return None
        return found[0] if found else None

    def _ipv4(self, interface: Interface, device: Device, what: str) -> str | None:
        found = [a for a in self.addresses[interface.id] if ":" not in a]
        if len(found) != 1:
            have = "no IPv4 address" if not found else f"{len(found)} IPv4 addresses"
            self.unmapped(
                interface.url,
                f"{what} interface {interface.name} of {device.name} has {have}: assign one",
            )
            return None
        return found[0]

    def device(self, device: Device) -> None:
        """The site of one device, without its VLANs."""
        data: dict[str, object] = {"name": self.site_name(device), "hostname": device.name}
        unfilled: set[str] = set()
        if device.platform in NAMES:  # NetBox platform slugs are l2tpgen platform names
            data["platform"] = device.platform
        if device.primary_ip4:
            management: dict[str, object] = {"host": device.primary_ip4.split("/")[0]}
            if device.ssh_port is not None:
                management["port"] = device.ssh_port  # the site model checks it
            data["management"] = management
        else:
            self.unmapped(device.url, f"device {device.name} has no primary IPv4 address (SSH)")
            unfilled.add("management")
        wan = self._tagged(device, WAN_TAG)
        if wan is None:
            self.unmapped(
                device.url, f"device {device.name}: no interface tagged {WAN_TAG} (the WAN)"
            )
            return
        address = self._ipv4(wan, device, "WAN")
        if not wan.gateway:
            self.unmapped(
                wan.url,
                f"WAN interface {wan.name} of {device.name} has no custom field {GATEWAY_FIELD} "
                "(its next hop)",
            )
        if address is None or not wan.gateway:
            return
        wan_data: dict[str, object] = {
            **_port(wan),
            "address": address,
            "gateway": wan.gateway,
        }
        if wan.mtu:
            wan_data["mtu"] = wan.mtu
        loopback = self._tagged(device, LOOPBACK_TAG)
        if loopback is not None:
            loop_address = self._ipv4(loopback, device, "loopback")
            if loop_address is None:
                return
            wan_data["loopback"] = {"interface": loopback.name, "address": loop_address}
        data["wan"] = wan_data
        self.sites[device.id] = Draft(device, data, unfilled=frozenset(unfilled))

    def pseudowire(self, l2vpn: L2vpn, ends: list[Termination]) -> None:
        """One VPWS L2VPN: a VLAN at each of its two sites."""
        if l2vpn.type != "vpws":
            return  # not a pseudowire l2tpgen builds: left alone, on purpose
        if len(ends) != 2:  # noqa: PLR2004 - a pseudowire has two ends
            self.unmapped(
                l2vpn.url, f"L2VPN {l2vpn.name} has {len(ends)} termination(s): a VPWS needs two"
            )
            return
        sides = []
        for end in ends:
            side = self._end(l2vpn, end)
            if side is None:
                return
            sides.append(side)
        (dev_a, sub_a, vid_a), (dev_b, sub_b, vid_b) = sides
        if dev_a.id == dev_b.id:
            self.unmapped(l2vpn.url, f"L2VPN {l2vpn.name} ends twice on device {dev_a.name}")
            return
        near_far = ((dev_a, sub_a, vid_a, dev_b, ends[0]), (dev_b, sub_b, vid_b, dev_a, ends[1]))
        for device, sub, vid, far, end in near_far:
            vlan: dict[str, object] = {
                "id": vid,
                "name": sub.untagged_name or l2vpn.name,
                "peer": self.site_name(far),
            }
            if l2vpn.identifier is not None:
                vlan["vc_id"] = l2vpn.identifier
            if end.carries:
                vlan["carries"] = end.carries  # the site model checks the value
            self.sites[device.id].vlans.append(vlan)

    def _end(self, l2vpn: L2vpn, end: Termination) -> tuple[Device, Interface, int] | None:
        sub = self.inv.interfaces.get(end.object_id)
        if end.object_type != "dcim.interface" or sub is None:
            self.unmapped(
                end.url,
                f"L2VPN {l2vpn.name} ends on a {end.object_type}, not a device's subinterface",
            )
            return None
        device = next((d for d in self.inv.devices if d.id == sub.device_id), None)
        if device is None:
            far = self.inv.far_devices.get(sub.device_id)
            name = far.name if far else f"device {sub.device_id}"
            self.unmapped(l2vpn.url, f"L2VPN {l2vpn.name} ends on {name}, not selected")
            return None
        if device.id not in self.sites:
            return None  # the device itself is reported
        parent = self.inv.interfaces.get(sub.parent_id) if sub.parent_id else None
        vid = _dot1q(sub)
        if sub.type != "virtual" or parent is None or vid is None:
            self.unmapped(
                sub.url,
                f"L2VPN {l2vpn.name} ends on {device.name} {sub.name}, which is not a dot1Q "
                "subinterface (type virtual, a parent, an untagged VLAN or a .N name)",
            )
            return None
        trunk = self.lan.setdefault(device.id, parent)
        if trunk.id != parent.id:
            self.unmapped(
                sub.url,
                f"{device.name}: subinterfaces on {trunk.name} and {parent.name}; l2tpgen "
                "builds one LAN trunk per site",
            )
            return None
        return device, sub, vid


def map_inventory(inventory: Inventory) -> tuple[list[Draft], list[Unmapped]]:
    """Site drafts of the selected devices (those that map), and every object that does not."""
    mapper = _Mapper(inventory)
    names: dict[str, Device] = {}
    for device in sorted(inventory.devices, key=lambda d: d.name):
        name = mapper.site_name(device)
        if name in names:
            mapper.unmapped(
                device.url,
                f"devices {names[name].name} and {device.name} both map to site {name} "
                f"(custom field {SITE_FIELD})",
            )
            continue
        names[name] = device
        mapper.device(device)
    ends: dict[int, list[Termination]] = defaultdict(list)
    for end in inventory.terminations:
        ends[end.l2vpn_id].append(end)
    for l2vpn_id, l2vpn in sorted(inventory.l2vpns.items()):
        mapper.pseudowire(l2vpn, ends[l2vpn_id])
    drafts = []
    for device_id, draft in mapper.sites.items():
        lan = mapper.lan.get(device_id)
        if lan is None:
            mapper.unmapped(
                draft.device.url,
                f"device {draft.device.name} terminates no VPWS L2VPN on a subinterface, so its "
                "LAN trunk is unknown",
            )
            continue
        draft.data["lan"] = _port(lan)
        draft.vlans.sort(key=lambda v: (int(str(v["id"])), str(v["peer"])))
        peers: list[str] = []
        for vlan in draft.vlans:
            if vlan["peer"] not in peers:
                peers.append(str(vlan["peer"]))
        draft.data["peers"] = peers
        draft.data["vlans"] = draft.vlans
        drafts.append(draft)
    return drafts, mapper.problems
