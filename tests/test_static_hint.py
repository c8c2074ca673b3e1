"""V043's hint, followed to the letter, keeps a dynamic pair dynamic (issue 34, item 3).

Two IOS data centres and a Linux branch, each DC peering with the other and with the branch. The
branch speaks only static sessions (V043). Its hint used to say "set `pseudowire_class:
{signaling: static}` here and at its peers": done so, the DC-to-DC pair became static too (no
control channel, no `ip pmtu`) and validate said ok. The hint now gives the per-peer form first,
and validate warns (V119) when a site-wide static class turns a pair of two dynamic ends static.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from typer.testing import CliRunner

from l2tpgen import FleetValidationError, load_fleet
from l2tpgen.cli import app

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()

_DC = """\
name: {name}
hostname: {name}-pe
management: {{host: 192.0.2.{host}}}
wan:
  interface: GigabitEthernet0/1
  address: 198.51.100.{wan}/29
  gateway: 198.51.100.{gateway}
  underlay: private
  loopback: {{interface: Loopback0, address: 10.255.0.{loopback}/32}}
lan: {{interface: GigabitEthernet0/0}}
l2tp_class: {{name: dc, authentication: digest, secret_env: L2TPGEN_L2TP_SECRET}}
pseudowire_class: {{name: ethernet}}
peers: [{other}, branch]
vlans:
  - {{id: 100, name: web, peer: {other}}}
  - {{id: {vlan}, name: shop, peer: branch}}
"""
_BRANCH = """\
name: branch
hostname: branch-pe
platform: linux
management: {host: 192.0.2.33}
wan:
  interface: eth1
  address: 198.51.100.17/29
  gateway: 198.51.100.22
  underlay: private
  loopback: {interface: lo, address: 10.255.0.3/32}
lan: {interface: eth2}
pseudowire_class: {name: ethernet}
peers: [dc1, dc2]
vlans:
  - {id: 200, name: shop, peer: dc1}
  - {id: 201, name: shop, peer: dc2}
"""


def _three_sites(directory: Path) -> Path:
    """dc1 and dc2 (IOS, dynamic by default) and a Linux branch not yet static: V043."""
    directory.mkdir()
    for name, other, host, wan, loopback, vlan in (
        ("dc1", "dc2", 31, 1, 1, 200),
        ("dc2", "dc1", 32, 9, 2, 201),
    ):
        text = _DC.format(
            name=name,
            other=other,
            host=host,
            wan=wan,
            gateway=wan + 5,
            loopback=loopback,
            vlan=vlan,
        )
        (directory / f"{name}.yaml").write_text(text)
    (directory / "branch.yaml").write_text(_BRANCH)
    return directory


def _data(sites: Path, name: str) -> dict[str, Any]:
    return yaml.safe_load((sites / f"{name}.yaml").read_text())  # type: ignore[no-any-return]


def _write(sites: Path, name: str, data: dict[str, Any]) -> None:
    (sites / f"{name}.yaml").write_text(yaml.safe_dump(data, sort_keys=False))


def _v043(sites: Path) -> tuple[str, str]:
    """The site V043 is reported at, and its hint."""
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(sites)
    (problem,) = [p for p in caught.value.problems if p.code == "V043"]
    return problem.site, problem.hint


def _warnings(sites: Path) -> list[dict[str, Any]]:
    result = runner.invoke(app, ["validate", "--sites", str(sites), "--format", "json"])
    report = json.loads(result.stdout)
    assert report["ok"], report["problems"]
    return [w for w in report["warnings"] if w["code"] == "V119"]


def test_following_v043s_hint_to_the_letter_keeps_the_dc_pair_dynamic(tmp_path: Path) -> None:
    sites = _three_sites(tmp_path / "fleet")
    site, hint = _v043(sites)
    assert site == "branch"
    # The hint's code spans: the per-peer entry for the peers first, then this site's class.
    per_peer, *_, here = re.findall(r"`([^`]+)`", hint)
    assert hint.index(per_peer) < hint.index(here)
    (entry,) = yaml.safe_load(per_peer)  # `- {name: branch, pseudowire: {signaling: static}}`
    for dc in ("dc1", "dc2"):  # "at each peer ... in its `peers`"
        data = _data(sites, dc)
        data["peers"] = [entry if p == entry["name"] else p for p in data["peers"]]
        _write(sites, dc, data)
    data = _data(sites, "branch")  # "here: `pseudowire_class: {signaling: static}`"
    data["pseudowire_class"].update(yaml.safe_load(here)["pseudowire_class"])
    _write(sites, "branch", data)
    fleet = load_fleet(sites)
    assert fleet.sites["dc1"].pseudowire_for("dc2").signaling == "dynamic"
    assert fleet.sites["dc2"].pseudowire_for("dc1").signaling == "dynamic"
    assert fleet.sites["dc1"].pseudowire_for("branch").signaling == "static"
    assert _warnings(sites) == []


def test_the_old_hint_followed_to_the_letter_is_warned_at_each_dc(tmp_path: Path) -> None:
    # "set `pseudowire_class: {signaling: static}` here and at its peers": validate is ok, and
    # says the DC pair became static because of the site-wide setting.
    sites = _three_sites(tmp_path / "fleet")
    for name in ("branch", "dc1", "dc2"):
        data = _data(sites, name)
        data["pseudowire_class"]["signaling"] = "static"
        _write(sites, name, data)
    warned = _warnings(sites)
    assert [(w["site"], w["path"]) for w in warned] == [
        ("dc1", ["pseudowire_class", "signaling"]),
        ("dc2", ["pseudowire_class", "signaling"]),
    ]
    assert warned[0]["message"].startswith(
        "the pseudowires to dc2 are static because `pseudowire_class.signaling` is static here"
    )
    assert "`peers: [{name: branch, pseudowire: {signaling: static}}]`" in warned[0]["hint"]


def test_static_between_two_ios_sites_with_no_static_only_peer_is_not_warned(
    tmp_path: Path,
) -> None:
    # Boundary: a fleet that is static by design (no Linux peer to explain it) says nothing.
    sites = _three_sites(tmp_path / "fleet")
    (sites / "branch.yaml").unlink()
    for name, other in (("dc1", "dc2"), ("dc2", "dc1")):
        data = _data(sites, name)
        data["pseudowire_class"]["signaling"] = "static"
        data["peers"] = [other]
        data["vlans"] = data["vlans"][:1]
        _write(sites, name, data)
    assert _warnings(sites) == []


def test_static_stated_for_the_dc_peer_itself_is_not_warned(tmp_path: Path) -> None:
    # Boundary: static towards the other DC stated in its own peers entry is meant.
    sites = _three_sites(tmp_path / "fleet")
    for name, other in (("dc1", "dc2"), ("dc2", "dc1")):
        data = _data(sites, name)
        data["pseudowire_class"]["signaling"] = "static"
        data["peers"] = [{"name": other, "pseudowire": {"signaling": "static"}}, "branch"]
        _write(sites, name, data)
    data = _data(sites, "branch")
    data["pseudowire_class"]["signaling"] = "static"
    _write(sites, "branch", data)
    assert _warnings(sites) == []


def test_a_pair_whose_ends_differ_is_v047s_error_and_no_v119_warning(tmp_path: Path) -> None:
    # dc1 follows the hint (static for branch only), dc2 makes its whole class static: the DC
    # pair's ends differ (V047, an error), which V119 does not repeat at either end.
    sites = _three_sites(tmp_path / "fleet")
    data = _data(sites, "dc1")
    data["peers"] = ["dc2", {"name": "branch", "pseudowire": {"signaling": "static"}}]
    _write(sites, "dc1", data)
    for name in ("dc2", "branch"):
        data = _data(sites, name)
        data["pseudowire_class"]["signaling"] = "static"
        _write(sites, name, data)
    result = runner.invoke(app, ["validate", "--sites", str(sites), "--format", "json"])
    report = json.loads(result.stdout)
    assert [p["code"] for p in report["problems"]] == ["V047"]
    assert [w["code"] for w in report["warnings"] if w["code"] == "V119"] == []
