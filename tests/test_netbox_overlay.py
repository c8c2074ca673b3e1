"""The overlay's rules (docs/netbox.md): NetBox wins over defaults, a clash is reported, never won.

These run on records as the client reads them from NetBox (no NetBox needed); the API itself is
exercised in test_netbox_pull.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import pytest
import yaml

from l2tpgen.netbox import OverlayError, build_sites, load_overlay
from l2tpgen.netbox.client import (
    Address,
    Device,
    Interface,
    Inventory,
    L2vpn,
    Termination,
)
from l2tpgen.netbox.overlay import Overlay

if TYPE_CHECKING:
    from pathlib import Path

NB = "http://127.0.0.1:1"


def _iface(iid: int, dev: int, name: str, **kw: object) -> Interface:
    fields: dict[str, object] = {
        "type": "1000base-t",
        "parent_id": None,
        "untagged_vid": None,
        "untagged_name": None,
        "mtu": None,
        "duplex": None,
        "speed": None,
        "mgmt_only": False,
        "tags": frozenset(),
        "gateway": None,
    }
    fields.update(kw)
    return Interface(id=iid, device_id=dev, name=name, url=f"{NB}/dcim/interfaces/{iid}/", **fields)  # type: ignore[arg-type]


def _inventory() -> Inventory:
    devices = tuple(
        Device(d, f"r{d}", f"{NB}/dcim/devices/{d}/", None, None, f"192.0.2.{d}/32") for d in (1, 2)
    )
    interfaces = {}
    addresses = []
    for d in (1, 2):
        base = d * 10
        interfaces[base] = _iface(
            base,
            d,
            "GigabitEthernet0/1",
            tags=frozenset({"l2tpgen-wan"}),
            gateway=f"203.0.113.{4 * d - 2}",
            duplex="full",
        )
        interfaces[base + 1] = _iface(base + 1, d, "GigabitEthernet0/0")
        interfaces[base + 2] = _iface(
            base + 2, d, "GigabitEthernet0/0.100", type="virtual", parent_id=base + 1
        )
        addresses.append(Address(f"203.0.113.{4 * d - 3}/30", base, f"{NB}/ipam/ip-addresses/{d}/"))
    l2vpn = L2vpn(1, "pw", "vpws", 100, f"{NB}/vpn/l2vpns/1/")
    ends = tuple(
        Termination(1, "dcim.interface", i, f"{NB}/vpn/l2vpn-terminations/{i}/") for i in (12, 22)
    )
    return Inventory(devices, interfaces, tuple(addresses), {1: l2vpn}, ends, {})


def _overlay(tmp_path: Path, data: object) -> Path:
    """The overlay file ``data``, with the l2tp-class secret's variable every valid fleet needs."""
    if isinstance(data, dict) and isinstance(data.get("defaults", {}), dict):
        defaults = data.setdefault("defaults", {})
        defaults.setdefault("l2tp_class", {"secret_env": "L2TPGEN_L2TP_SECRET"})
    path = tmp_path / "overlay.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_defaults_fill_what_netbox_lacks_and_never_replace_what_it_holds(tmp_path: Path) -> None:
    overlay = load_overlay(
        _overlay(tmp_path, {"defaults": {"wan": {"duplex": "half", "speed": "auto"}}})
    )
    result = build_sites(_inventory(), overlay, NB)
    assert result.unmapped == ()
    r1 = yaml.safe_load(result.sites[0].text)
    assert r1["wan"]["duplex"] == "full"  # NetBox's
    assert r1["wan"]["speed"] == "auto"  # the overlay's


def test_a_site_setting_that_netbox_also_holds_is_reported_and_that_site_not_built(
    tmp_path: Path,
) -> None:
    path = _overlay(tmp_path, {"sites": {"r1": {"wan": {"gateway": "203.0.113.9"}}}})
    result = build_sites(_inventory(), load_overlay(path), NB)
    assert [s.name for s in result.sites] == ["r2"]
    (problem,) = result.unmapped
    assert problem.url == f"{NB}/dcim/devices/1/"
    assert f"overlay {path}: sites.r1.wan.gateway is held by NetBox for r1" in problem.message


def test_per_peer_settings_become_a_peers_entry_and_an_unknown_peer_is_reported(
    tmp_path: Path,
) -> None:
    path = _overlay(
        tmp_path,
        {
            "sites": {
                "r1": {"peers": {"r2": {"pseudowire": {"sequencing": "both"}}}},
                "r2": {"peers": {"r9": {"pseudowire": {"sequencing": "both"}}}},
            }
        },
    )
    result = build_sites(_inventory(), load_overlay(path), NB)
    assert [s.name for s in result.sites] == ["r1"]
    assert yaml.safe_load(result.sites[0].text)["peers"] == [
        {"name": "r2", "pseudowire": {"sequencing": "both"}}
    ]
    (problem,) = result.unmapped
    assert "sites.r2.peers.r9: r2 has no pseudowire to r9 in NetBox" in problem.message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"default": {}}, "unknown key 'default'; use defaults and sites"),
        ({"defaults": {"vlans": []}}, "defaults.vlans comes from NetBox; remove it"),
        ({"sites": {"r1": {"hostname": "x"}}}, "sites.r1.hostname comes from NetBox"),
        ({"sites": ["r1"]}, "sites must be a mapping"),
    ],
    ids=["unknown-key", "vlans-in-defaults", "hostname-in-site", "sites-not-a-mapping"],
)
def test_an_overlay_of_the_wrong_shape_is_refused_naming_the_file(
    tmp_path: Path, data: object, message: str
) -> None:
    path = _overlay(tmp_path, data)
    with pytest.raises(OverlayError) as refused:
        load_overlay(path)
    assert str(refused.value).startswith(f"{path}: {message}")


def test_an_overlay_value_the_site_model_refuses_is_reported_with_the_device(
    tmp_path: Path,
) -> None:
    path = _overlay(tmp_path, {"defaults": {"wan": {"mtu": 100}}})
    result = build_sites(_inventory(), load_overlay(path), NB)
    assert result.sites == ()
    assert {p.url for p in result.unmapped} == {f"{NB}/dcim/devices/1/", f"{NB}/dcim/devices/2/"}
    assert "wan.mtu" in result.unmapped[0].message


def _linux_inventory(wan: str, lan: str) -> Inventory:
    """The two routers as Linux PEs, their interfaces named as Linux names them."""
    inventory = _inventory()
    names = {"GigabitEthernet0/1": wan, "GigabitEthernet0/0": lan}
    interfaces = {
        iid: replace(i, name=names.get(i.name, i.name.replace("GigabitEthernet0/0", lan)))
        for iid, i in inventory.interfaces.items()
    }
    devices = tuple(replace(d, platform="linux") for d in inventory.devices)
    return replace(inventory, devices=devices, interfaces=interfaces)


def test_a_linux_device_is_pulled_with_its_interface_names_as_netbox_holds_them() -> None:
    # Linux speaks static sessions only: the overlay says so, or the pulled pair would not validate
    static = Overlay(defaults={"pseudowire_class": {"signaling": "static"}})
    result = build_sites(_linux_inventory("enp3s0", "enp4s0"), static, NB)
    assert result.unmapped == ()
    r1 = yaml.safe_load(result.sites[0].text)
    assert (r1["wan"]["interface"], r1["lan"]["interface"]) == ("enp3s0", "enp4s0")


def test_a_linux_interface_name_the_kernel_refuses_is_reported_with_the_device() -> None:
    result = build_sites(_linux_inventory("enp3s0:1", "enp4s0"), Overlay(), NB)
    assert result.sites == ()
    assert "wan.interface: 'enp3s0:1' is not a Linux interface name" in result.unmapped[0].message
