"""NetBox as the inventory of push, diff and verify: where each site's router is (docs/netbox.md).

``--inventory netbox`` (or ``netbox:tag=SLUG,site=SLUG,role=SLUG,known_hosts=FILE``) reads the
selected devices from NetBox; each one is a router: the site it is (custom field ``l2tpgen_site``,
else its name, as ``netbox pull`` maps it), its primary IP address (IPv4, else IPv6), its SSH port
(custom field ``l2tpgen_ssh_port``, else the site file's ``management.port``) and its netmiko
device type (its platform's driver when the platform slug names one, else the site file's).
Credentials never come from NetBox: push reads them from the environment as always. A device that
cannot be a router (no primary IP, a wrong port, a platform push does not handle, two devices for
one site) is reported with its NetBox URL.

The nornir-netbox plugin (``NetBoxInventory2``, 0.3.0, its last release, 2021) installs with
Nornir 3.6 and lists NetBox 4.7's devices, but was not used: it sends requests without a timeout
(a NetBox that never answers hangs it), turns a device without a primary IP into a host named
after the device (silently), answers a refused token with "Failed to get data" and no status,
and its ``use_platform_napalm_driver`` fails on NetBox 4 (KeyError ``napalm_driver``). This is
the small mapping instead, through pynetbox and :class:`~l2tpgen.netbox.client.Client`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from l2tpgen.device.inventory import USER_KNOWN_HOSTS, Target
from l2tpgen.errors import L2tpgenError
from l2tpgen.netbox.client import SITE_FIELD, SSH_PORT_FIELD, Selection
from l2tpgen.netbox.mapping import Unmapped
from l2tpgen.traits import DRIVERS

if TYPE_CHECKING:
    from collections.abc import Iterable

    from l2tpgen.model import Fleet
    from l2tpgen.netbox.client import Device

SCHEME = "netbox"
_SPEC_KEYS = ("tag", "site", "role", "known_hosts")
_MAX_PORT = 65535


class InventorySpecError(L2tpgenError):
    """``--inventory netbox:...`` is malformed."""


@dataclass(frozen=True)
class Spec:
    """What ``--inventory netbox:...`` asks for: which devices, and which known_hosts file."""

    selection: Selection = field(default_factory=Selection)
    known_hosts: Path = USER_KNOWN_HOSTS

    def describe(self) -> str:
        """The filter, as the user wrote it (for messages)."""
        filters = self.selection.filters()
        return ",".join(f"{k}={v}" for k, v in filters.items()) or "every device"


def parse_spec(text: str) -> Spec | None:
    """The NetBox inventory ``text`` asks for; None when it is not one (an inventory file).

    Raises:
        InventorySpecError: it starts with ``netbox:`` but a part is not ``KEY=VALUE`` with a
            known key.
    """
    if text == SCHEME:
        return Spec()
    if not text.startswith(f"{SCHEME}:"):
        return None
    values: dict[str, str] = {}
    for part in text[len(SCHEME) + 1 :].split(","):
        key, sep, value = (p.strip() for p in part.partition("="))
        if not sep or key not in _SPEC_KEYS or not value or key in values:
            raise InventorySpecError(
                f"--inventory {text}: {part!r} is not one of {', '.join(_SPEC_KEYS)} as KEY=VALUE "
                "(each once), e.g. netbox:tag=l2tpgen,site=dc1"
            )
        values[key] = value
    known = Path(values.pop("known_hosts", str(USER_KNOWN_HOSTS)))
    return Spec(Selection(**values), known)


@dataclass(frozen=True)
class Router:
    """Where one site's router is, as NetBox holds it (None: the site file says)."""

    site: str
    device: str
    url: str
    host: str
    port: int | None
    device_type: str | None


@dataclass
class Hosts:
    """The routers NetBox gives, by site, and the devices that cannot be one (by site)."""

    routers: dict[str, Router] = field(default_factory=dict)
    problems: dict[str, list[Unmapped]] = field(default_factory=dict)

    def problem(self, site: str, url: str, message: str) -> None:
        """Record that a device of ``site`` cannot be its router."""
        self.problems.setdefault(site, []).append(Unmapped(url, message))


def _port(device: Device) -> tuple[int | None, str | None]:
    """The device's SSH port custom field: (port, None), (None, None) unset, or (None, why)."""
    value = device.ssh_port
    if value is None or value == "":
        return None, None
    text = str(value).strip()
    if isinstance(value, bool) or not text.isdigit() or not 1 <= int(text) <= _MAX_PORT:
        return None, f"custom field {SSH_PORT_FIELD} is {text[:20]!r}, not a port (1 to 65535)"
    return int(text), None


def _device_type(device: Device) -> tuple[str | None, str | None]:
    """The netmiko device type of the device's platform: (type, None), (None, None), (None, why)."""
    chosen = DRIVERS.get(device.platform or "")
    if chosen is None:
        return None, None  # no platform, or one l2tpgen does not name: the site file's
    if not chosen.pushable:
        return None, (
            f"platform {chosen.name} ({chosen.title}) is not a router push, diff and verify handle"
        )
    return chosen.device_type, None


def map_hosts(devices: Iterable[Device]) -> Hosts:
    """Each device as a site's router; every device that cannot be one, with its URL."""
    hosts = Hosts()
    seen: dict[str, Device] = {}
    for device in sorted(devices, key=lambda d: d.name):
        site = device.site_name or device.name
        first = seen.setdefault(site, device)
        if first is not device:
            hosts.routers.pop(site, None)
            hosts.problem(
                site,
                device.url,
                f"devices {first.name} and {device.name} both map to site {site} (custom field "
                f"{SITE_FIELD}): which router is it?",
            )
            continue
        address = device.primary_ip4 or device.primary_ip6
        port, bad_port = _port(device)
        device_type, bad_platform = _device_type(device)
        if address is None:
            hosts.problem(
                site,
                device.url,
                f"device {device.name} (site {site}) has no primary IP address: set one in "
                "NetBox, the address push connects to",
            )
        for why in (bad_port, bad_platform):
            if why is not None:
                hosts.problem(site, device.url, f"device {device.name} (site {site}): {why}")
        if address is None or bad_port or bad_platform:
            continue
        hosts.routers[site] = Router(
            site, device.name, device.url, address.split("/")[0], port, device_type
        )
    return hosts


def targets(hosts: Hosts, fleet: Fleet, names: Iterable[str], spec: Spec) -> dict[str, Target]:
    """The routers of ``names``; what NetBox does not hold (port, device type) from the site file.

    Raises:
        L2tpgenError: a site has no router in NetBox (or its device has a problem, which the
            caller reports first).
    """
    found: dict[str, Target] = {}
    missing = []
    for name in names:
        router = hosts.routers.get(name)
        if router is None:
            missing.append(name)
            continue
        site = fleet.site(name)
        found[name] = Target(
            name,
            router.host,
            router.port or site.management.port,
            router.device_type or site.device_type,
            spec.known_hosts.expanduser(),
        )
    if missing:
        broken = [n for n in missing if n in hosts.problems]
        absent = [n for n in missing if n not in hosts.problems]
        reasons = []
        if broken:
            reasons.append(f"{', '.join(broken)}: the NetBox device cannot be used (above)")
        if absent:
            reasons.append(
                f"{', '.join(absent)}: no NetBox device ({spec.describe()}) is named so or has "
                f"it in its custom field {SITE_FIELD}"
            )
        raise L2tpgenError("; ".join(reasons) + "; nothing was done")
    return found
