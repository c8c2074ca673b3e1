"""NetBox's REST API through pynetbox, read into plain records: the only module that imports it.

pynetbox is an optional dependency (the ``netbox`` extra), imported when a NetBox
command runs. Every failure of the API (unreachable, token refused, an unexpected answer) becomes a
:class:`NetBoxError` that names the URL and never the token.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from l2tpgen.netbox import http
from l2tpgen.netbox.http import (
    _SHAPE_ERRORS,
    DEFAULT_TIMEOUT,
    NetBoxError,
    _explain,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

SITE_FIELD = "l2tpgen_site"  # custom field on dcim.device: the l2tpgen site name (else the name)
GATEWAY_FIELD = "l2tpgen_gateway"  # custom field on dcim.interface: the WAN's next hop
WAN_TAG = "l2tpgen-wan"  # tag on the WAN interface
LOOPBACK_TAG = "l2tpgen-loopback"  # tag on the loopback the tunnels are sourced from
CARRIES_FIELD = "l2tpgen_carries"  # custom field on vpn.l2vpntermination: vlans[].carries there
SSH_PORT_FIELD = "l2tpgen_ssh_port"  # custom field on dcim.device: the SSH port push uses


@dataclass(frozen=True)
class Selection:
    """Which devices to pull: NetBox's own filters (slugs), all of them ANDed."""

    tag: str | None = None
    site: str | None = None
    role: str | None = None

    def filters(self) -> dict[str, str]:
        """The query parameters of ``/api/dcim/devices/``."""
        return {k: v for k, v in (("tag", self.tag), ("site", self.site), ("role", self.role)) if v}


@dataclass(frozen=True)
class Device:
    """A dcim.device: what l2tpgen reads of it."""

    id: int
    name: str
    url: str
    site_name: str | None  # custom field SITE_FIELD
    platform: str | None  # slug
    primary_ip4: str | None  # with its prefix length
    primary_ip6: str | None = None
    ssh_port: object = None  # custom field SSH_PORT_FIELD, as NetBox holds it


@dataclass(frozen=True)
class Interface:
    """A dcim.interface."""

    id: int
    device_id: int
    name: str
    url: str
    type: str
    parent_id: int | None
    untagged_vid: int | None
    untagged_name: str | None
    mtu: int | None
    duplex: str | None
    speed: int | None  # kbit/s
    mgmt_only: bool
    tags: frozenset[str]
    gateway: str | None  # custom field GATEWAY_FIELD


@dataclass(frozen=True)
class Address:
    """An ipam.ip-address assigned to an interface."""

    address: str
    interface_id: int
    url: str


@dataclass(frozen=True)
class L2vpn:
    """A vpn.l2vpn."""

    id: int
    name: str
    type: str
    identifier: int | None
    url: str


@dataclass(frozen=True)
class Termination:
    """A vpn.l2vpn-termination."""

    l2vpn_id: int
    object_type: str
    object_id: int
    url: str
    carries: str | None = None  # custom field CARRIES_FIELD: what the VLAN carries, this end


@dataclass(frozen=True)
class TunnelEnd:
    """A vpn.tunnel-termination on a selected device's WAN or loopback interface."""

    tunnel: str
    encapsulation: str
    device_id: int
    device: str
    outside_ip: str | None  # with its prefix length
    url: str


@dataclass(frozen=True)
class Inventory:
    """Everything a pull reads, fetched up front (a few requests, whatever the fleet's size)."""

    devices: tuple[Device, ...]
    interfaces: Mapping[int, Interface]  # the selected devices' and the far ends'
    addresses: tuple[Address, ...]
    l2vpns: Mapping[int, L2vpn]
    terminations: tuple[Termination, ...]
    far_devices: Mapping[int, Device]  # devices of far ends outside the selection
    tunnel_ends: tuple[TunnelEnd, ...] = ()


def _url(record: Any) -> str:  # noqa: ANN401 - a pynetbox Record
    return str(getattr(record, "display_url", None) or getattr(record, "url", ""))


def _id(value: Any) -> int | None:  # noqa: ANN401 - a Record, a dict or None
    if value is None:
        return None
    return int(value["id"] if isinstance(value, dict) else value.id)


def _device(record: Any) -> Device:  # noqa: ANN401
    fields = dict(record.custom_fields or {})
    ip4 = record.primary_ip4
    return Device(
        id=int(record.id),
        name=str(record.name or ""),
        url=_url(record),
        site_name=fields.get(SITE_FIELD) or None,
        platform=record.platform.slug if record.platform else None,
        primary_ip4=str(ip4.address) if ip4 else None,
        primary_ip6=str(record.primary_ip6.address) if record.primary_ip6 else None,
        ssh_port=fields.get(SSH_PORT_FIELD),
    )


def _choice(value: Any) -> str | None:  # noqa: ANN401 - NetBox answers choices as {value, label}
    if value is None:
        return None
    return str(value.value if hasattr(value, "value") else value)


def _interface(record: Any) -> Interface:  # noqa: ANN401
    fields = dict(record.custom_fields or {})
    untagged = record.untagged_vlan
    return Interface(
        id=int(record.id),
        device_id=int(record.device.id),
        name=str(record.name),
        url=_url(record),
        type=_choice(record.type) or "",
        parent_id=_id(record.parent),
        untagged_vid=int(untagged.vid) if untagged else None,
        untagged_name=str(untagged.name) if untagged else None,
        mtu=record.mtu,
        duplex=_choice(record.duplex),
        speed=record.speed,
        mgmt_only=bool(record.mgmt_only),
        tags=frozenset(str(t.slug) for t in record.tags or ()),
        gateway=fields.get(GATEWAY_FIELD) or None,
    )


def _pynetbox() -> Any:  # noqa: ANN401 - an untyped module
    try:
        return importlib.import_module("pynetbox")
    except ImportError:
        raise NetBoxError(
            "pynetbox is not installed: it comes with l2tpgen's netbox extra (from a checkout: "
            "pip install '.[netbox]', or pipx install --force '.[netbox]')"
        ) from None


class Client:
    """One NetBox, read through pynetbox."""

    def __init__(
        self,
        url: str,
        token: str,
        timeout: float = DEFAULT_TIMEOUT,
        budget: http.Budget | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.timeout = timeout
        self._token = token
        self.api = _pynetbox().api(self.url, token=token)
        # ``budget``: the command's deadline and page limit over all its requests.
        self.api.http_session = http._session(timeout, budget)  # noqa: SLF001 - the package's own

    def explain(self, exc: Exception, *, writing: bool = False) -> NetBoxError:
        """``exc`` (requests' or pynetbox's) as one clear line naming the URL, never the token."""
        request = str(getattr(self.api.http_session, "l2tpgen_last", "") or "")
        return _explain(
            exc, self.url, self.timeout, token=self._token, writing=writing, request=request
        )

    def _list(self, endpoint: Any, **filters: object) -> list[Any]:  # noqa: ANN401
        try:
            return list(endpoint.filter(**filters) if filters else endpoint.all())
        except Exception as exc:  # noqa: BLE001 - requests' and pynetbox's errors, wrapped
            raise self.explain(exc) from None

    def devices(self, selection: Selection) -> list[Device]:
        """The selected devices."""
        try:
            return [_device(d) for d in self._list(self.api.dcim.devices, **selection.filters())]
        except _SHAPE_ERRORS as exc:  # an answer that is not NetBox's records
            raise self.explain(exc) from None

    def inventory(self, selection: Selection) -> Inventory:
        """Read the selected devices and everything their pseudowires need."""
        try:
            return self._inventory(selection)
        except _SHAPE_ERRORS as exc:  # an answer that is not NetBox's records
            raise self.explain(exc) from None

    def _inventory(self, selection: Selection) -> Inventory:
        api = self.api
        devices = self.devices(selection)
        ids = [d.id for d in devices]
        if not ids:
            return Inventory((), {}, (), {}, (), {})
        interfaces = {
            i.id: i for i in map(_interface, self._list(api.dcim.interfaces, device_id=ids))
        }
        near = self._list(api.vpn.l2vpn_terminations, device_id=ids)
        l2vpn_ids = sorted({int(t.l2vpn.id) for t in near})
        l2vpns: dict[int, L2vpn] = {}
        terminations: list[Termination] = []
        if l2vpn_ids:
            for record in self._list(api.vpn.l2vpns, id=l2vpn_ids):
                l2vpns[int(record.id)] = L2vpn(
                    int(record.id),
                    str(record.name),
                    _choice(record.type) or "",
                    record.identifier,
                    _url(record),
                )
            terminations = [
                Termination(
                    int(record.l2vpn.id),
                    str(record.assigned_object_type),
                    int(record.assigned_object_id),
                    _url(record),
                    dict(record.custom_fields or {}).get(CARRIES_FIELD) or None,
                )
                for record in self._list(api.vpn.l2vpn_terminations, l2vpn_id=l2vpn_ids)
            ]
        far_devices = self._far(terminations, interfaces, set(ids))
        addresses = [
            Address(str(a.address), int(a.assigned_object_id), _url(a))
            for a in self._list(api.ipam.ip_addresses, device_id=ids)
            if a.assigned_object_type == "dcim.interface" and a.assigned_object_id is not None
        ]
        return Inventory(
            tuple(devices),
            interfaces,
            tuple(addresses),
            l2vpns,
            tuple(terminations),
            far_devices,
            self._tunnel_ends(devices, interfaces),
        )

    def _tunnel_ends(
        self, devices: list[Device], interfaces: Mapping[int, Interface]
    ) -> tuple[TunnelEnd, ...]:
        """The tunnel terminations on the selected devices' WAN and loopback interfaces."""
        names = {d.id: d.name for d in devices}
        sources = sorted(
            i.id
            for i in interfaces.values()
            if i.device_id in names and {WAN_TAG, LOOPBACK_TAG} & i.tags
        )
        if not sources:
            return ()
        records = self._list(self.api.vpn.tunnel_terminations, interface_id=sources)
        tunnel_ids = sorted({int(r.tunnel.id) for r in records})
        tunnels = {
            int(t.id): (str(t.name), _choice(t.encapsulation) or "")
            for t in (self._list(self.api.vpn.tunnels, id=tunnel_ids) if tunnel_ids else ())
        }
        ends = []
        for record in records:
            interface = interfaces.get(int(record.termination_id))
            if interface is None or int(record.tunnel.id) not in tunnels:
                continue
            name, encapsulation = tunnels[int(record.tunnel.id)]
            outside = record.outside_ip
            ends.append(
                TunnelEnd(
                    name,
                    encapsulation,
                    interface.device_id,
                    names.get(interface.device_id, ""),
                    str(outside.address) if outside else None,
                    _url(record),
                )
            )
        return tuple(ends)

    def _far(
        self, terminations: Iterable[Termination], interfaces: dict[int, Interface], near: set[int]
    ) -> dict[int, Device]:
        """Fetch far-end interfaces (added to ``interfaces``) and their devices if not selected."""
        missing = sorted(
            {
                t.object_id
                for t in terminations
                if t.object_type == "dcim.interface" and t.object_id not in interfaces
            }
        )
        if not missing:
            return {}
        for record in self._list(self.api.dcim.interfaces, id=missing):
            interfaces[int(record.id)] = _interface(record)
        far = sorted({interfaces[i].device_id for i in missing if i in interfaces} - near)
        if not far:
            return {}
        return {d.id: d for d in map(_device, self._list(self.api.dcim.devices, id=far))}
