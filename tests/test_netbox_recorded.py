"""NetBox's mapping proved without a NetBox, from answers recorded from the real NetBox 4.7.

Each scenario is built in the live NetBox (tests/conftest_netbox.py) the way a NetBox user keeps
it; l2tpgen's operation (pull's reads, push's reads and writes, the inventory's device list) is
recorded in ``tests/netbox/recorded/<scenario>.json``. The offline tests replay those answers and
check what a user would see (the site files, the changes, the refusals), so they run wherever the
suite runs, and mutation testing of ``l2tpgen/netbox/`` reaches them. The live test keeps the
recordings true: it runs each scenario again on the NetBox CI starts and compares every request
and answer (fields NetBox adds in a newer release are tolerated; a changed or missing one fails).
Regenerate with ``pytest tests/test_netbox_recorded.py --update-golden`` against a live NetBox.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from conftest import ROOT, SITES
from conftest_netbox import PAIR_R1_SITE, add_interface, add_pair, add_pseudowire, create_fleet
from netbox_recording import BASE, Recording, recording, replaying
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.model.load import load_fleet

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from conftest_netbox import NetBoxServer

pytest.importorskip("pynetbox")

from l2tpgen.netbox import Client, Pusher, Selection, build_sites
from l2tpgen.netbox import http as http_module
from l2tpgen.netbox.hosts import map_hosts
from l2tpgen.netbox.overlay import Overlay, load_overlay

runner = CliRunner()
RECORDED = ROOT / "tests" / "netbox" / "recorded"
HUB = ROOT / "examples" / "hub"
OVERLAYS = {
    "sites": ROOT / "tests" / "netbox" / "overlay-sites.yaml",
    "hub": ROOT / "tests" / "netbox" / "overlay-hub.yaml",
}
TOKEN = "nbt_recorded.not-a-secret-0123456789"  # noqa: S105 - the replay accepts any token


# --- The scenarios: what is in NetBox, and which operation is recorded ----------------------------


def _pair_with_one_l2vpn(api: Any) -> None:  # noqa: ANN401
    made = add_pair(api)
    add_pseudowire(api, "backup", [made["r1"]["sub"], made["r2"]["sub"]], identifier=500)


def _pair_with_a_shared_identifier(api: Any) -> None:  # noqa: ANN401
    made = add_pair(api)
    add_pseudowire(api, "backup", [made["r1"]["sub"], made["r2"]["sub"]], identifier=500)
    subs = [
        add_interface(
            api,
            made[name]["device"],
            "GigabitEthernet0/0.200",
            type="virtual",
            parent=made[name]["lan"].id,
        )
        for name in ("r1", "r2")
    ]
    add_pseudowire(api, "storage", subs, identifier=500)


def _pull(client: Client) -> None:
    client.inventory(Selection(tag="l2tpgen"))


def _devices(client: Client) -> None:
    client.devices(Selection(tag="l2tpgen"))


def _push(fleet: Path) -> Callable[[Client], None]:
    def run(client: Client) -> None:
        Pusher(client.api, client.url, dry_run=False, tag="l2tpgen").fleet(load_fleet(fleet))

    return run


# name: (what NetBox holds first, the operation recorded)
SCENARIOS: dict[str, tuple[Callable[[Any], object], Callable[[Client], None]]] = {
    "pull-pair": (_pair_with_one_l2vpn, _pull),
    "pull-shared-identifier": (_pair_with_a_shared_identifier, _pull),
    "pull-sites": (lambda api: create_fleet(api, load_fleet(SITES)), _pull),
    "pull-hub": (lambda api: create_fleet(api, load_fleet(HUB)), _pull),
    "devices-sites": (lambda api: create_fleet(api, load_fleet(SITES)), _devices),
    "push-sites": (lambda _api: None, _push(SITES)),
    "push-sites-again": (
        lambda api: Pusher(api, "", dry_run=False, tag="l2tpgen").fleet(load_fleet(SITES)),
        _push(SITES),
    ),
}


def _replayed(name: str) -> Client:
    client = Client(BASE, TOKEN)
    replaying(client.api.http_session, Recording.load(RECORDED / f"{name}.json"))
    return client


def _subset(stored: Any, live: Any, where: str) -> list[str]:  # noqa: ANN401 - JSON
    """Where ``live`` lacks or changes what ``stored`` holds (fields ``live`` adds are fine)."""
    if isinstance(stored, dict):
        if not isinstance(live, dict):
            return [f"{where}: was an object, now {type(live).__name__}"]
        return [
            problem
            for key, value in stored.items()
            for problem in (
                _subset(value, live[key], f"{where}.{key}")
                if key in live
                else [f"{where}.{key}: missing"]
            )
        ]
    if isinstance(stored, list):
        if not isinstance(live, list) or len(live) != len(stored):
            return [f"{where}: {len(stored)} items recorded, now {live!r:.80}"]
        return [
            p
            for i, (s, v) in enumerate(zip(stored, live, strict=True))
            for p in _subset(s, v, f"{where}[{i}]")
        ]
    return [] if stored == live else [f"{where}: recorded {stored!r:.60}, now {live!r:.60}"]


@pytest.mark.usefixtures("netbox_env")
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_recorded_answers_are_what_the_live_netbox_answers(
    netbox: Any,  # noqa: ANN401
    netbox_server: NetBoxServer,
    name: str,
    request: pytest.FixtureRequest,
) -> None:
    build, operation = SCENARIOS[name]
    build(netbox)
    client = Client(netbox_server.url, os.environ["L2TPGEN_NETBOX_TOKEN"])
    with recording(client.api.http_session, netbox_server.url) as live:
        operation(client)
    path = RECORDED / f"{name}.json"
    if request.config.getoption("--update-golden"):
        live.dump(path)
        return
    stored = Recording.load(path)
    asked = [e["request"] for e in live.exchanges]
    assert asked == [e["request"] for e in stored.exchanges], f"{name}: l2tpgen asks otherwise"
    problems = [
        p
        for i, (s, v) in enumerate(zip(stored.exchanges, live.exchanges, strict=True))
        for p in (
            [f"[{i}] status {s['status']} now {v['status']}"] if s["status"] != v["status"] else []
        )
        + _subset(s["answer"], v["answer"], f"[{i}]")
    ]
    assert problems == [], f"{path.name} is stale; re-record it (--update-golden): {problems[:5]}"


# --- Offline: the recorded answers, replayed ------------------------------------------------------


def test_a_replayed_vpws_l2vpn_on_two_subinterfaces_becomes_a_vlan_at_each_site() -> None:
    overlay = Overlay(defaults={"l2tp_class": {"secret_env": "L2TPGEN_L2TP_SECRET"}})
    result = build_sites(_replayed("pull-pair").inventory(Selection(tag="l2tpgen")), overlay, BASE)
    assert result.unmapped == ()
    # Worked out by hand from docs/netbox.md (as the live test of the same objects).
    sites = {s.name: yaml.safe_load(s.text) for s in result.sites}
    assert sites["r1"] == PAIR_R1_SITE
    assert sites["r2"]["wan"]["address"] == "203.0.113.5/30"
    assert sites["r2"]["management"] == {"host": "192.0.2.102"}
    assert sites["r2"]["vlans"] == [{"id": 100, "name": "backup", "peer": "r1", "vc_id": 500}]
    assert all(s.device_url.startswith(f"{BASE}/dcim/devices/") for s in result.sites)


@pytest.mark.parametrize(("name", "fleet"), [("pull-sites", SITES), ("pull-hub", HUB)])
def test_a_replayed_fleet_pulls_back_equal_to_its_site_files(name: str, fleet: Path) -> None:
    overlay = load_overlay(OVERLAYS[name.removeprefix("pull-")])
    result = build_sites(_replayed(name).inventory(Selection(tag="l2tpgen")), overlay, BASE)
    assert result.unmapped == ()
    original = load_fleet(fleet)
    assert sorted(s.name for s in result.sites) == sorted(original.sites)
    for pulled in result.sites:
        data = yaml.safe_load(pulled.text)
        site = original.sites[pulled.name]
        assert type(site).model_validate(data).model_dump() == site.model_dump(), pulled.name


def test_two_l2vpns_of_a_pair_with_one_identifier_are_refused_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _replay_cli(monkeypatch, "pull-shared-identifier")
    out = tmp_path / "out"
    result = runner.invoke(app, ["netbox", "pull", "-o", str(out), "--tag", "l2tpgen"])
    assert result.exit_code == 1, result.output
    flat = " ".join(result.output.split())
    assert "would not validate" in flat
    assert "500" in flat
    assert "nothing was written" in flat
    assert not out.exists()


def test_the_inventory_of_replayed_devices_gives_each_site_its_router() -> None:
    hosts = map_hosts(_replayed("devices-sites").devices(Selection(tag="l2tpgen")))
    assert hosts.problems == {}
    assert sorted(hosts.routers) == ["site-a", "site-b"]
    assert {name: router.host for name, router in hosts.routers.items()} == {
        name: site.management.host for name, site in load_fleet(SITES).sites.items()
    }


def test_a_replayed_push_makes_exactly_the_recorded_requests() -> None:
    client = _replayed("push-sites")
    transport = client.api.http_session.get_adapter(BASE)
    changes = Pusher(client.api, client.url, dry_run=False, tag="l2tpgen").fleet(load_fleet(SITES))
    assert transport.left == [], "push skipped requests it made live"
    # Worked out by hand from sites/ and docs/netbox.md: per site a device, its NetBox site, 7
    # interfaces (WAN, LAN trunk, 4 subinterfaces, mgmt0 for the management address), 4 VLANs, 2
    # addresses (WAN, management); per VLAN pair an L2VPN with 2 terminations; one L2TP tunnel
    # with 2 terminations; once: 4 custom fields, 3 tags, a manufacturer, type and role; then the
    # tags and the primary IPv4 set on what was just made.
    assert Counter((c.action, c.kind) for c in changes) == {
        ("create", "custom field"): 4,
        ("create", "tag"): 3,
        ("create", "manufacturer"): 1,
        ("create", "device type"): 1,
        ("create", "device role"): 1,
        ("create", "site"): 2,
        ("create", "device"): 2,
        ("create", "interface"): 14,
        ("create", "IP address"): 4,
        ("create", "VLAN"): 8,
        ("create", "L2VPN"): 4,
        ("create", "L2VPN termination"): 8,
        ("create", "tunnel"): 1,
        ("create", "tunnel termination"): 2,
        ("update", "tags"): 4,
        ("update", "device"): 2,
    }


def test_a_replayed_second_push_changes_nothing() -> None:
    client = _replayed("push-sites-again")
    changes = Pusher(client.api, client.url, dry_run=False, tag="l2tpgen").fleet(load_fleet(SITES))
    assert changes == []
    assert client.api.http_session.get_adapter(BASE).left == []


def _replay_cli(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make every Client the CLI builds answer from recording ``name``, at BASE."""
    made = http_module._session  # noqa: SLF001

    def session(limit: float, budget: Any = None) -> Any:  # noqa: ANN401
        real = made(limit, budget)
        replaying(real, Recording.load(RECORDED / f"{name}.json"))
        return real

    monkeypatch.setattr(http_module, "_session", session)
    monkeypatch.setenv("L2TPGEN_NETBOX_URL", BASE)
    monkeypatch.setenv("L2TPGEN_NETBOX_TOKEN", TOKEN)
