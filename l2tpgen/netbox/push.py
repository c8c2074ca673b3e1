"""``netbox push``: record a fleet (site files, e.g. what ``import`` wrote) in NetBox, idempotently.

Each object is looked up by its natural key (a device by name, an interface by device and name,
an address by interface and address, a VLAN by NetBox site and VID, an L2VPN by name) and
created when missing or updated where a field differs, so a second push changes nothing. With
``dry_run`` nothing is written: the changes are only listed (objects under one to be created are
listed as created too). Only what ``pull`` reads back is recorded (docs/netbox.md's mapping);
what NetBox does not hold stays in the site files and the overlay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from l2tpgen.netbox.client import (
    CARRIES_FIELD,
    GATEWAY_FIELD,
    LOOPBACK_TAG,
    SITE_FIELD,
    SSH_PORT_FIELD,
    WAN_TAG,
)
from l2tpgen.netbox.http import DEFAULT_TIMEOUT, _explain
from l2tpgen.netbox.tunnels import push_tunnels

if TYPE_CHECKING:
    from l2tpgen.model.fleet import Fleet
    from l2tpgen.model.site import Site

MGMT_INTERFACE = "mgmt0"  # made (mgmt only) when the management address is on no other interface


@dataclass(frozen=True)
class Change:
    """One change push makes (or would make): ``create`` or ``update`` of one object."""

    action: str
    kind: str
    name: str
    fields: tuple[str, ...] = ()


class _Planned:
    """An object a dry run would create: no id, so nothing under it is looked up."""

    id = 0
    planned = True
    name = ""  # the name it would be made with, for the changes listed under it


def _value(value: Any) -> Any:  # noqa: ANN401 - a pynetbox field: Record, choice, list, scalar
    if hasattr(value, "value") and hasattr(value, "label"):
        return value.value
    if hasattr(value, "id"):
        return value.id
    if isinstance(value, list):
        return sorted(_value(v) for v in value)
    if isinstance(value, dict):
        return {k: _value(v) for k, v in value.items()}
    return value


def _id(value: Any) -> Any:  # noqa: ANN401 - a record (its id) or a plain value
    return value.id if hasattr(value, "id") else value


class Pusher:
    """Push a fleet through a pynetbox API; ``changes`` lists what was (or would be) done."""

    def __init__(
        self,
        api: Any,  # noqa: ANN401
        url: str,
        *,
        dry_run: bool,
        tag: str,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self.api = api
        self.url = url
        self.timeout = timeout
        self.dry_run = dry_run
        self.tag = tag
        self.changes: list[Change] = []
        # Each site's tunnel source: (interface, IP address) as recorded, for the VPN tunnels.
        self.sources: dict[str, tuple[Any, Any]] = {}

    def _call(self, method: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: ANN401
        writing = getattr(method, "__name__", "") in {"create", "update", "save", "delete"}
        try:
            return method(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - requests' and pynetbox's errors, wrapped
            session = getattr(self.api, "http_session", None)
            raise _explain(
                exc,
                self.url,
                self.timeout,
                token=str(getattr(self.api, "token", "") or ""),
                writing=writing,
                request=str(getattr(session, "l2tpgen_last", "") or ""),
            ) from None

    def ensure(
        self,
        endpoint: Any,  # noqa: ANN401
        kind: str,
        name: str,
        lookup: dict[str, Any],
        fields: dict[str, Any],
        *,
        create: dict[str, Any] | None = None,
    ) -> Any:  # noqa: ANN401
        """The object ``lookup`` finds, made (``create`` + ``fields``) or updated to ``fields``."""
        found = None
        if not any(isinstance(v, _Planned) for v in lookup.values()):
            found = self._call(endpoint.get, **{k: _id(v) for k, v in lookup.items()})
        if found is None:
            self.changes.append(Change("create", kind, name, tuple(sorted(fields))))
            if self.dry_run:
                planned = _Planned()
                planned.name = str(lookup.get("name", ""))
                return planned
            keys = {k: v for k, v in lookup.items() if not k.endswith("_id")}  # not filters
            data = {k: _id(v) for k, v in {**keys, **(create or {}), **fields}.items()}
            return self._call(endpoint.create, **data)
        differ = {}
        for field, want in fields.items():
            want_value = _value(want)
            have = _value(getattr(found, field, None))
            if isinstance(want_value, dict) and isinstance(have, dict):
                have = {k: have.get(k) for k in want_value}
            if have != want_value:
                differ[field] = _id(want)
        if differ:
            self.changes.append(Change("update", kind, name, tuple(sorted(differ))))
            if not self.dry_run:
                self._call(found.update, differ)
        return found

    def setup(self) -> dict[str, Any]:
        """Custom fields, tags, and the device type and role new devices get."""
        api = self.api
        for field, kind, types in (
            (SITE_FIELD, "text", "dcim.device"),
            (SSH_PORT_FIELD, "integer", "dcim.device"),
            (GATEWAY_FIELD, "text", "dcim.interface"),
            (CARRIES_FIELD, "text", "vpn.l2vpntermination"),
        ):
            self.ensure(
                api.extras.custom_fields,
                "custom field",
                field,
                {"name": field},
                {"type": kind, "object_types": [types]},
            )
        tags = {
            slug: self.ensure(api.extras.tags, "tag", slug, {"slug": slug}, {"name": slug})
            for slug in (WAN_TAG, LOOPBACK_TAG, self.tag)
        }
        maker = self.ensure(
            api.dcim.manufacturers,
            "manufacturer",
            "Generic",
            {"slug": "generic"},
            {},
            create={"name": "Generic"},
        )
        device_type = self.ensure(
            api.dcim.device_types,
            "device type",
            "l2tpgen-router",
            {"slug": "l2tpgen-router"},
            {},
            create={"model": "l2tpgen router", "manufacturer": maker},
        )
        role = self.ensure(
            api.dcim.device_roles,
            "device role",
            "l2tpgen",
            {"slug": "l2tpgen"},
            {},
            create={"name": "l2tpgen"},
        )
        return {"tags": tags, "type": device_type, "role": role}

    def site(self, site: Site, base: dict[str, Any]) -> dict[tuple[int, str], Any]:
        """One site's device, interfaces, addresses and VLANs; its subinterfaces by (VID, peer)."""
        api, tags = self.api, base["tags"]
        nb_site = self.ensure(
            api.dcim.sites, "site", site.name, {"slug": site.name}, {}, create={"name": site.name}
        )
        device_fields: dict[str, Any] = {
            "custom_fields": {SITE_FIELD: site.name, SSH_PORT_FIELD: site.management.port}
        }
        if site.platform:
            device_fields["platform"] = self.ensure(
                api.dcim.platforms,
                "platform",
                site.platform,
                {"slug": site.platform},
                {},
                create={"name": site.platform},
            )
        device = self.ensure(
            api.dcim.devices,
            "device",
            site.hostname,
            {"name": site.hostname},
            device_fields,
            create={"site": nb_site, "device_type": base["type"], "role": base["role"]},
        )
        self._tag(device, tags[self.tag], f"device {site.hostname}")
        where = f"{site.hostname} "
        wan_fields: dict[str, Any] = {
            "custom_fields": {GATEWAY_FIELD: str(site.wan.gateway)},
            "mtu": site.wan.mtu,
        }
        if site.wan.duplex:
            wan_fields["duplex"] = site.wan.duplex
        names = site.interfaces  # as the PE names them (a Linux site's own, not IOS's)
        wan = self._interface(device, names.wan, wan_fields, {"type": "other"})
        self._tag(wan, tags[WAN_TAG], where + names.wan)
        wan_ip = self._address(wan, str(site.wan.address), where + names.wan)
        self.sources[site.name] = (wan, wan_ip)
        if site.wan.loopback and names.loopback:
            loop = self._interface(device, names.loopback, {}, {"type": "virtual"})
            self._tag(loop, tags[LOOPBACK_TAG], where + names.loopback)
            loop_ip = self._address(loop, str(site.wan.loopback.address), where + "loopback")
            self.sources[site.name] = (loop, loop_ip)
        if site.management.host == str(site.wan.address.ip):
            primary = wan_ip
        else:
            mgmt = self._interface(device, MGMT_INTERFACE, {}, {"type": "other", "mgmt_only": True})
            primary = self._address(mgmt, f"{site.management.host}/32", where + MGMT_INTERFACE)
        if isinstance(device, _Planned) or _value(device.primary_ip4) != primary.id:
            self.changes.append(Change("update", "device", site.hostname, ("primary_ip4",)))
            if not self.dry_run:
                self._call(device.update, {"primary_ip4": primary.id})
        lan_fields: dict[str, Any] = {"mode": "tagged"}
        if site.lan.duplex:
            lan_fields["duplex"] = site.lan.duplex
        lan = self._interface(device, names.lan, lan_fields, {"type": "other"})
        subs = {}
        for vlan in site.vlans:
            nb_vlan = self.ensure(
                api.ipam.vlans,
                "VLAN",
                f"{site.name} {vlan.id}",
                {"site_id": nb_site, "vid": vlan.id},
                {"name": vlan.name},
                create={"site": nb_site},
            )
            subs[(vlan.id, vlan.peer)] = self._interface(
                device,
                f"{names.lan}.{vlan.id}",
                {"parent": lan, "mode": "access", "untagged_vlan": nb_vlan},
                {"type": "virtual"},
            )
        return subs

    def _tag(self, record: Any, tag: Any, name: str) -> None:  # noqa: ANN401
        if isinstance(record, _Planned) or isinstance(tag, _Planned):
            if isinstance(record, _Planned):
                return  # created with its tags
            self.changes.append(Change("update", "tags", name, ("tags",)))
            return
        have = [t.id for t in record.tags or ()]
        if tag.id not in have:
            self.changes.append(Change("update", "tags", name, ("tags",)))
            if not self.dry_run:
                self._call(record.update, {"tags": [*have, tag.id]})

    def _interface(
        self,
        device: Any,  # noqa: ANN401
        name: str,
        fields: dict[str, Any],
        create: dict[str, Any],
    ) -> Any:  # noqa: ANN401
        return self.ensure(
            self.api.dcim.interfaces,
            "interface",
            f"{getattr(device, 'name', '')} {name}".strip(),
            {"device_id": device, "name": name},
            fields,
            create={**create, "device": device},
        )

    def _address(self, interface: Any, address: str, name: str) -> Any:  # noqa: ANN401
        return self.ensure(
            self.api.ipam.ip_addresses,
            "IP address",
            f"{name} {address}",
            {"interface_id": interface, "address": address},
            {},
            create={"assigned_object_type": "dcim.interface", "assigned_object_id": interface},
        )

    def fleet(self, fleet: Fleet) -> list[Change]:
        """Push every site and pseudowire of ``fleet``."""
        base = self.setup()
        subs = {name: self.site(site, base) for name, site in sorted(fleet.sites.items())}
        done: set[tuple[str, int, str]] = set()
        for name in sorted(fleet.sites):
            for pw in fleet.pseudowires(name):
                if pw.mirror is None or (name, pw.vlan.id, pw.peer.name) in done:
                    continue
                done |= {(name, pw.vlan.id, pw.peer.name), (pw.peer.name, pw.mirror.id, name)}
                label = f"{name}-{pw.peer.name}-{pw.vlan.id}"
                fields: dict[str, Any] = {"type": "vpws"}
                if pw.vlan.vc_id is not None:
                    fields["identifier"] = pw.vlan.vc_id
                l2vpn = self.ensure(
                    self.api.vpn.l2vpns,
                    "L2VPN",
                    label,
                    {"name": label},
                    fields,
                    create={"slug": label.lower(), "status": "active"},
                )
                for end, carries in (
                    (subs[name][(pw.vlan.id, pw.peer.name)], pw.vlan.carries),
                    (subs[pw.peer.name][(pw.mirror.id, name)], pw.mirror.carries),
                ):
                    self.ensure(
                        self.api.vpn.l2vpn_terminations,
                        "L2VPN termination",
                        label,
                        {"l2vpn_id": l2vpn, "interface_id": end},
                        {"custom_fields": {CARRIES_FIELD: carries}},
                        create={
                            "l2vpn": l2vpn,
                            "assigned_object_type": "dcim.interface",
                            "assigned_object_id": end,
                        },
                    )
        push_tunnels(self, fleet)
        return self.changes
