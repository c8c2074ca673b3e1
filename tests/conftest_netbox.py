"""A real NetBox for the tests (started by scripts/netbox-up.sh), reset before each test.

The session finds NetBox through L2TPGEN_NETBOX_URL / L2TPGEN_NETBOX_TOKEN and the reset through
L2TPGEN_NETBOX_PSQL, _PG_PORT and _REDIS_PORT (``.ci/run`` exports them from the env file
netbox-up.sh writes; locally that file is read when the variables are not set). Without a NetBox
the tests skip, except when ``CI`` is set: there they fail, so CI never passes without them.

Each test starts from the snapshot: the database is dropped and made again from the template
database netbox-up.sh left (about 0.2 s) and Redis (NetBox's cache) is flushed. NetBox's
``CONN_HEALTH_CHECKS`` lets its workers reconnect after the drop.
"""

from __future__ import annotations

import os
import socket
import subprocess
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ENV_KEYS = (
    "L2TPGEN_NETBOX_URL",
    "L2TPGEN_NETBOX_TOKEN",
    "L2TPGEN_NETBOX_PSQL",
    "L2TPGEN_NETBOX_PG_PORT",
    "L2TPGEN_NETBOX_REDIS_PORT",
)
DEFAULT_ENV_FILE = Path(f"/tmp/l2tpgen-netbox-{os.getuid()}/netbox.env")  # noqa: S108 - netbox-up.sh's


@dataclass(frozen=True)
class NetBoxServer:
    """The NetBox netbox-up.sh started, and how to reset it."""

    url: str
    token: str
    psql: str
    pg_port: int
    redis_port: int

    def reset(self) -> None:
        """Back to the snapshot: drop the database, copy the template, flush Redis."""
        subprocess.run(
            [
                self.psql,
                "-h",
                "127.0.0.1",
                "-p",
                str(self.pg_port),
                "-U",
                "postgres",
                "-d",
                "postgres",
                "-q",
                "-v",
                "ON_ERROR_STOP=1",
                "-c",
                "DROP DATABASE IF EXISTS netbox WITH (FORCE)",
                "-c",
                "CREATE DATABASE netbox TEMPLATE netbox_template",
            ],
            check=True,
            capture_output=True,
        )
        with socket.create_connection(("127.0.0.1", self.redis_port), timeout=10) as conn:
            conn.sendall(b"FLUSHALL\r\n")
            assert conn.recv(64).startswith(b"+OK")


def _settings() -> dict[str, str]:
    found = {k: os.environ[k] for k in ENV_KEYS if os.environ.get(k)}
    path = Path(os.environ.get("L2TPGEN_NETBOX_ENV", DEFAULT_ENV_FILE))
    if len(found) < len(ENV_KEYS) and path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            key, sep, value = line.partition("=")
            if sep and key in ENV_KEYS:
                found.setdefault(key, value)
    return found


def _answers(url: str) -> bool:
    """Any HTTP answer (/api/status/ needs a token: 403 is an answer) means NetBox is up."""
    try:
        with urllib.request.urlopen(f"{url}/api/status/", timeout=10):  # noqa: S310 - 127.0.0.1
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"NetBox tests must run in CI: {reason} (.ci/run starts scripts/netbox-up.sh)")
    pytest.skip(f"no NetBox: {reason} (run scripts/netbox-up.sh)")


@pytest.fixture(scope="session")
def netbox_server() -> NetBoxServer:
    """The running NetBox; skip without one (fail under CI)."""
    try:
        import pynetbox  # noqa: F401, PLC0415 - the [netbox] extra
    except ImportError:
        _unavailable("pynetbox is not installed")
    settings = _settings()
    missing = [k for k in ENV_KEYS if k not in settings]
    if missing:
        _unavailable(f"{', '.join(missing)} not set")
    server = NetBoxServer(
        settings["L2TPGEN_NETBOX_URL"],
        settings["L2TPGEN_NETBOX_TOKEN"],
        settings["L2TPGEN_NETBOX_PSQL"],
        int(settings["L2TPGEN_NETBOX_PG_PORT"]),
        int(settings["L2TPGEN_NETBOX_REDIS_PORT"]),
    )
    if not _answers(server.url):
        _unavailable(f"nothing answers at {server.url}")
    return server


@pytest.fixture
def netbox(netbox_server: NetBoxServer) -> Any:  # noqa: ANN401 - pynetbox is untyped
    """A pynetbox API on an empty NetBox (the snapshot: one user and its token)."""
    import pynetbox  # noqa: PLC0415

    netbox_server.reset()
    return pynetbox.api(netbox_server.url, token=netbox_server.token)


@pytest.fixture
def netbox_env(netbox_server: NetBoxServer, monkeypatch: pytest.MonkeyPatch) -> NetBoxServer:
    """The CLI's environment points at the test NetBox."""
    monkeypatch.setenv("L2TPGEN_NETBOX_URL", netbox_server.url)
    monkeypatch.setenv("L2TPGEN_NETBOX_TOKEN", netbox_server.token)
    return netbox_server


# --- Building objects in NetBox (the test's "NetBox as users keep it") ---------------------------


def setup_netbox(api: Any) -> dict[str, Any]:  # noqa: ANN401 - pynetbox is untyped
    """What every fleet needs first: custom fields, tags, a manufacturer, a type and a role."""
    api.extras.custom_fields.create(
        name="l2tpgen_site", type="text", object_types=["dcim.device"], label="l2tpgen site"
    )
    api.extras.custom_fields.create(
        name="l2tpgen_gateway", type="text", object_types=["dcim.interface"], label="WAN gateway"
    )
    tags = {
        slug: api.extras.tags.create(name=slug, slug=slug)
        for slug in ("l2tpgen-wan", "l2tpgen-loopback", "l2tpgen")
    }
    maker = api.dcim.manufacturers.create(name="Cisco", slug="cisco")
    return {
        "tags": tags,
        "type": api.dcim.device_types.create(
            manufacturer=maker.id, model="ISR4331", slug="isr4331"
        ),
        "role": api.dcim.device_roles.create(name="PE", slug="pe"),
    }


def add_interface(api: Any, device: Any, name: str, **fields: Any) -> Any:  # noqa: ANN401
    """One interface of ``device``; ``fields`` as the API takes them."""
    fields.setdefault("type", "1000base-t")
    return api.dcim.interfaces.create(device=device.id, name=name, **fields)


def add_address(api: Any, interface: Any, address: str) -> Any:  # noqa: ANN401
    """An IP address assigned to ``interface``."""
    return api.ipam.ip_addresses.create(
        address=address, assigned_object_type="dcim.interface", assigned_object_id=interface.id
    )


def add_pseudowire(
    api: Any,  # noqa: ANN401
    name: str,
    ends: list[Any],
    identifier: int | None = None,
) -> Any:  # noqa: ANN401
    """A VPWS L2VPN terminated on ``ends`` (interfaces)."""
    l2vpn = api.vpn.l2vpns.create(
        name=name, slug=name.lower(), type="vpws", identifier=identifier, status="active"
    )
    for end in ends:
        api.vpn.l2vpn_terminations.create(
            l2vpn=l2vpn.id, assigned_object_type="dcim.interface", assigned_object_id=end.id
        )
    return l2vpn


def create_fleet(api: Any, fleet: Any) -> None:  # noqa: ANN401
    """Record an l2tpgen fleet in NetBox as docs/netbox.md maps it (only what NetBox holds)."""
    base = setup_netbox(api)
    subs: dict[tuple[str, int, str], Any] = {}
    for site in fleet.sites.values():
        nb_site = api.dcim.sites.create(name=site.name, slug=site.name)
        platform = None
        if site.platform:
            platform = api.dcim.platforms.create(name=site.platform, slug=site.platform).id
        device = api.dcim.devices.create(
            name=site.hostname,
            device_type=base["type"].id,
            role=base["role"].id,
            site=nb_site.id,
            platform=platform,
            tags=[base["tags"]["l2tpgen"].id],
            custom_fields={"l2tpgen_site": site.name},
        )
        wan_fields: dict[str, Any] = {
            "tags": [base["tags"]["l2tpgen-wan"].id],
            "custom_fields": {"l2tpgen_gateway": str(site.wan.gateway)},
            "mtu": site.wan.mtu,
        }
        if site.wan.duplex:
            wan_fields["duplex"] = site.wan.duplex
        wan = add_interface(api, device, site.wan.interface, **wan_fields)
        wan_ip = add_address(api, wan, str(site.wan.address))
        if site.wan.loopback:
            loop = add_interface(
                api,
                device,
                site.wan.loopback.interface,
                type="virtual",
                tags=[base["tags"]["l2tpgen-loopback"].id],
            )
            add_address(api, loop, str(site.wan.loopback.address))
        if site.management.host == str(site.wan.address.ip):
            primary = wan_ip
        else:
            mgmt = add_interface(api, device, "mgmt0", mgmt_only=True)
            primary = add_address(api, mgmt, f"{site.management.host}/32")
        device.primary_ip4 = primary.id
        device.save()
        lan_fields = {"duplex": site.lan.duplex} if site.lan.duplex else {}
        lan = add_interface(api, device, site.lan.interface, mode="tagged", **lan_fields)
        for vlan in site.vlans:
            nb_vlan = api.ipam.vlans.create(vid=vlan.id, name=vlan.name, site=nb_site.id)
            subs[(site.name, vlan.id, vlan.peer)] = add_interface(
                api,
                device,
                f"{site.lan.interface}.{vlan.id}",
                type="virtual",
                parent=lan.id,
                mode="access",
                untagged_vlan=nb_vlan.id,
            )
    done: set[tuple[str, int, str]] = set()
    for site in fleet.sites.values():
        for pw in fleet.pseudowires(site.name):
            near = (site.name, pw.vlan.id, pw.peer.name)
            far = (pw.peer.name, pw.mirror.id, site.name)
            if near in done:
                continue
            done.update({near, far})
            add_pseudowire(
                api,
                f"{site.name}-{pw.peer.name}-{pw.vlan.id}",
                [subs[near], subs[far]],
                pw.vlan.vc_id,  # only a VC ID the site file states
            )


def add_pair(api: Any, *, wan_address_b: bool = True) -> dict[str, Any]:  # noqa: ANN401
    """Two routers, r1 and r2, as a NetBox user would record them, and nothing between them yet."""
    base = setup_netbox(api)
    made: dict[str, Any] = {"base": base}
    for name, wan_ip, mgmt_ip, gateway in (
        ("r1", "203.0.113.1/30", "192.0.2.101/32", "203.0.113.2"),
        ("r2", "203.0.113.5/30", "192.0.2.102/32", "203.0.113.6"),
    ):
        site = api.dcim.sites.create(name=f"DC {name}", slug=f"dc-{name}")
        device = api.dcim.devices.create(
            name=name,
            device_type=base["type"].id,
            role=base["role"].id,
            site=site.id,
            tags=[base["tags"]["l2tpgen"].id],
        )
        wan = add_interface(
            api,
            device,
            "GigabitEthernet0/1",
            tags=[base["tags"]["l2tpgen-wan"].id],
            custom_fields={"l2tpgen_gateway": gateway},
        )
        if name == "r1" or wan_address_b:
            add_address(api, wan, wan_ip)
        mgmt = add_interface(api, device, "mgmt0", mgmt_only=True)
        device.primary_ip4 = add_address(api, mgmt, mgmt_ip).id
        device.save()
        lan = add_interface(api, device, "GigabitEthernet0/0", mode="tagged")
        sub = add_interface(api, device, "GigabitEthernet0/0.100", type="virtual", parent=lan.id)
        made[name] = {"device": device, "wan": wan, "lan": lan, "sub": sub}
    return made


# r1's site file as pulled from add_pair's objects with one VPWS L2VPN `backup` (identifier 500)
# on the two `.100` subinterfaces and the l2tp-class secret's variable from an overlay, worked out
# by hand from docs/netbox.md: device name = site name = hostname (no custom field), management =
# primary IPv4 without its length, VLAN id from the `.100` name, VLAN name = the L2VPN's name (no
# untagged VLAN), VC ID = the L2VPN's identifier. The live and the replayed pull both expect it.
PAIR_R1_SITE = {
    "name": "r1",
    "hostname": "r1",
    "management": {"host": "192.0.2.101"},
    "wan": {
        "interface": "GigabitEthernet0/1",
        "address": "203.0.113.1/30",
        "gateway": "203.0.113.2",
    },
    "lan": {"interface": "GigabitEthernet0/0"},
    "l2tp_class": {"secret_env": "L2TPGEN_L2TP_SECRET"},
    "peers": ["r2"],
    "vlans": [{"id": 100, "name": "backup", "peer": "r2", "vc_id": 500}],
}
