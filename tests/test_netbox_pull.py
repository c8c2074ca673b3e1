"""``l2tpgen netbox pull`` against a real NetBox (scripts/netbox-up.sh; tests/conftest_netbox.py).

Objects are made through NetBox's REST API the way a NetBox user keeps them, pulled, and the
site files compared with what was worked out by hand from docs/netbox.md's mapping.
"""

from __future__ import annotations

import shutil
import socket
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from conftest import ROOT, SITES
from conftest_netbox import (
    PAIR_R1_SITE,
    NetBoxServer,
    add_interface,
    add_pair,
    add_pseudowire,
    create_fleet,
)
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.model.load import load_fleet

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
OVERLAY = ROOT / "tests" / "netbox" / "overlay-sites.yaml"


def pull(out: Path, *args: str) -> Any:  # noqa: ANN401 - click's Result
    return runner.invoke(app, ["netbox", "pull", "-o", str(out), *args])


@pytest.mark.usefixtures("netbox_env")
def test_a_vpws_l2vpn_on_two_subinterfaces_becomes_a_vlan_at_each_site(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    made = add_pair(netbox)
    add_pseudowire(netbox, "backup", [made["r1"]["sub"], made["r2"]["sub"]], identifier=500)
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("defaults:\n  l2tp_class: {secret_env: L2TPGEN_L2TP_SECRET}\n")
    out = tmp_path / "sites"
    result = pull(out, "--tag", "l2tpgen", "--overlay", str(overlay))
    assert result.exit_code == 0, result.output
    # Worked out by hand from docs/netbox.md: device name = site name = hostname (no custom
    # field), management = primary IPv4 without its length, VLAN id from the `.100` name,
    # VLAN name = the L2VPN's name (no untagged VLAN), VC ID = the L2VPN's identifier.
    assert yaml.safe_load((out / "r1.yaml").read_text()) == PAIR_R1_SITE
    r2 = yaml.safe_load((out / "r2.yaml").read_text())
    assert r2["wan"]["address"] == "203.0.113.5/30"
    assert r2["vlans"] == [{"id": 100, "name": "backup", "peer": "r1", "vc_id": 500}]
    validate = runner.invoke(app, ["validate", "--sites", str(out)])
    assert validate.exit_code == 0, validate.output


@pytest.mark.usefixtures("netbox_env")
@pytest.mark.parametrize(
    ("fleet", "overlay"),
    [
        (SITES, OVERLAY),
        (ROOT / "examples" / "hub", ROOT / "tests" / "netbox" / "overlay-hub.yaml"),
    ],
    ids=["sites", "examples-hub"],
)
def test_a_fleet_recorded_in_netbox_pulls_back_equal_to_its_site_files(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
    fleet: Path,
    overlay: Path,
) -> None:
    original = load_fleet(fleet)
    create_fleet(netbox, original)
    result = pull(tmp_path, "--tag", "l2tpgen", "--overlay", str(overlay))
    assert result.exit_code == 0, result.output
    pulled = load_fleet(tmp_path)
    assert sorted(pulled.sites) == sorted(original.sites)
    for name, site in original.sites.items():
        assert pulled.sites[name].model_dump() == site.model_dump(), name
    validate = runner.invoke(app, ["validate", "--sites", str(tmp_path)])
    assert validate.exit_code == 0, validate.output
    for name in original.sites:
        done = runner.invoke(app, ["render", name, "--sites", str(tmp_path)])
        assert done.exit_code == 0, (name, done.output)
        assert done.stdout == runner.invoke(app, ["render", name, "--sites", str(fleet)]).stdout
    assert (
        runner.invoke(app, ["lint", "--sites", str(tmp_path)]).exit_code
        == runner.invoke(app, ["lint", "--sites", str(fleet)]).exit_code
    )


@pytest.mark.usefixtures("netbox_env")
def test_the_drift_check_agrees_then_names_the_key_a_site_file_changed(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    create_fleet(netbox, load_fleet(SITES))
    sites = tmp_path / "sites"
    shutil.copytree(SITES, sites)
    args = ["netbox", "diff", "--sites", str(sites), "--tag", "l2tpgen", "--overlay", str(OVERLAY)]
    agree = runner.invoke(app, args)
    assert agree.exit_code == 0, agree.output
    assert f"NetBox and {sites} agree" in agree.output
    site_b = sites / "site-b.yaml"
    site_b.write_text(site_b.read_text().replace("gateway: 10.216.44.33", "gateway: 10.216.44.34"))
    drift = runner.invoke(app, args)
    assert drift.exit_code == 1
    assert "site-b: wan.gateway: NetBox 10.216.44.33 / site files 10.216.44.34" in drift.output
    assert "1 difference(s)" in drift.output


@pytest.mark.usefixtures("netbox_env")
def test_an_l2vpn_with_one_termination_is_named_and_nothing_is_written(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    made = add_pair(netbox)
    l2vpn = add_pseudowire(netbox, "half", [made["r1"]["sub"]], identifier=7)
    result = pull(tmp_path / "out", "--tag", "l2tpgen")
    assert result.exit_code == 1
    assert "L2VPN half has 1 termination(s)" in result.output
    assert f"/vpn/l2vpns/{l2vpn.id}/" in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.usefixtures("netbox_env")
def test_with_partial_the_sites_that_map_are_written_and_the_exit_is_still_1(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    made = add_pair(netbox)
    add_pseudowire(netbox, "good", [made["r1"]["sub"], made["r2"]["sub"]], identifier=8)
    sub2 = add_interface(
        netbox,
        made["r1"]["device"],
        "GigabitEthernet0/0.200",
        type="virtual",
        parent=made["r1"]["lan"].id,
    )
    add_pseudowire(netbox, "half", [sub2], identifier=9)
    result = pull(tmp_path, "--tag", "l2tpgen", "--partial")
    assert result.exit_code == 1
    assert "L2VPN half has 1 termination(s)" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r1.yaml", "r2.yaml"]


@pytest.mark.usefixtures("netbox_env")
def test_an_l2vpn_ending_on_a_physical_port_names_that_interface(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    made = add_pair(netbox)
    add_pseudowire(netbox, "port", [made["r1"]["lan"], made["r2"]["sub"]], identifier=9)
    result = pull(tmp_path / "out", "--tag", "l2tpgen")
    assert result.exit_code == 1
    assert "r1 GigabitEthernet0/0, which is not a dot1Q subinterface" in result.output
    assert f"/dcim/interfaces/{made['r1']['lan'].id}/" in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.usefixtures("netbox_env")
def test_netbox_refuses_a_third_termination_on_a_vpws(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    import pynetbox  # noqa: PLC0415

    made = add_pair(netbox)
    l2vpn = add_pseudowire(netbox, "pw", [made["r1"]["sub"], made["r2"]["sub"]], identifier=10)
    third = add_interface(
        netbox,
        made["r2"]["device"],
        "GigabitEthernet0/0.300",
        type="virtual",
        parent=made["r2"]["lan"].id,
    )
    with pytest.raises(pynetbox.RequestError) as refused:
        netbox.vpn.l2vpn_terminations.create(
            l2vpn=l2vpn.id, assigned_object_type="dcim.interface", assigned_object_id=third.id
        )
    assert refused.value.req.status_code == 400
    # So NetBox keeps a VPWS at two ends, and the pull maps it (with the l2tp-class secret's
    # variable from an overlay: without it the pulled files would not validate, and pull says so).
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("defaults:\n  l2tp_class: {secret_env: L2TPGEN_L2TP_SECRET}\n")
    result = pull(tmp_path / "out", "--tag", "l2tpgen", "--overlay", str(overlay))
    assert result.exit_code == 0, result.output
    bare = pull(tmp_path / "bare", "--tag", "l2tpgen")
    assert bare.exit_code == 1
    assert "would not validate: authentication digest needs a secret" in " ".join(
        bare.output.split()
    )
    assert not (tmp_path / "bare").exists()


@pytest.mark.usefixtures("netbox_env")
def test_a_wan_interface_without_an_address_is_named_and_nothing_is_written(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    made = add_pair(netbox, wan_address_b=False)
    add_pseudowire(netbox, "pw", [made["r1"]["sub"], made["r2"]["sub"]], identifier=11)
    result = pull(tmp_path / "out", "--tag", "l2tpgen")
    assert result.exit_code == 1
    assert "WAN interface GigabitEthernet0/1 of r2 has no IPv4 address" in result.output
    assert f"/dcim/interfaces/{made['r2']['wan'].id}/" in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.usefixtures("netbox_env")
def test_a_tagged_loopback_without_an_address_is_named(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    made = add_pair(netbox)
    add_pseudowire(netbox, "pw", [made["r1"]["sub"], made["r2"]["sub"]], identifier=12)
    loop = add_interface(
        netbox,
        made["r1"]["device"],
        "Loopback0",
        type="virtual",
        tags=[made["base"]["tags"]["l2tpgen-loopback"].id],
    )
    result = pull(tmp_path / "out", "--tag", "l2tpgen")
    assert result.exit_code == 1
    assert "loopback interface Loopback0 of r1 has no IPv4 address" in result.output
    assert f"/dcim/interfaces/{loop.id}/" in result.output
    assert not (tmp_path / "out").exists()


def test_a_refused_token_is_a_clear_error_that_does_not_echo_the_token(
    netbox_server: NetBoxServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    netbox_server.reset()
    bad = "nbt_notakey12345.thisisnotthetoken0123456789"
    monkeypatch.setenv("L2TPGEN_NETBOX_TOKEN", bad)
    result = pull(tmp_path / "out", "--url", netbox_server.url)
    assert result.exit_code == 1
    assert f"NetBox at {netbox_server.url} refused the API token" in result.output
    assert "thisisnotthetoken" not in result.output
    assert not (tmp_path / "out").exists()


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_an_unreachable_netbox_is_a_clear_error_naming_its_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("pynetbox")
    url = f"http://127.0.0.1:{_closed_port()}"
    monkeypatch.setenv("L2TPGEN_NETBOX_TOKEN", "nbt_x.y")
    result = pull(tmp_path / "out", "--url", url)
    assert result.exit_code == 1
    assert f"cannot reach NetBox at {url}" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.usefixtures("netbox_env")
def test_a_pseudowire_to_a_device_outside_the_selection_is_named_not_dropped(
    netbox: Any,  # noqa: ANN401
    tmp_path: Path,
) -> None:
    made = add_pair(netbox)
    l2vpn = add_pseudowire(netbox, "pw", [made["r1"]["sub"], made["r2"]["sub"]], identifier=13)
    result = pull(tmp_path / "out", "--site", "dc-r1")
    assert result.exit_code == 1
    assert "L2VPN pw ends on r2, not selected" in result.output
    assert f"/vpn/l2vpns/{l2vpn.id}/" in result.output
    assert not (tmp_path / "out").exists()
