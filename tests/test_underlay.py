"""`validate` says how each site reaches its peers' tunnel sources and warns where it cannot tell.

Cisco's L2TPv3 guides: the tunnel source (a loopback) must be reachable from the remote PE through
the core (shared/docs/l2tpv3-brief.md, "Addresses", S8). The expectations below are worked out by
hand from the site files: which subnet the WAN is in, which prefix of `wan.routes` covers the
peer, whether the rendered config has a /32 to the peer loopback, and whether a provider on a
public WAN would be asked to carry a private (RFC 1918) address.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from builders import write_wan_site
from conftest import ROOT
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.model.problems import Problem
from l2tpgen.model.underlay import check_underlay, reaches

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()


def _site(
    directory: Path,
    name: str,
    peer: str,
    wan: str,
    gateway: str,
    *,
    wan_extra: str = "",
    platform: str = "iosxe",
) -> None:
    write_wan_site(
        directory,
        name,
        peer,
        wan,
        gateway,
        platform=platform,
        wan_extra=wan_extra,
        l2tp_class="l2tp_class: {name: dc, authentication: none}\n",
        pw=", cookie: 0",
    )


def _warnings(directory: Path) -> list[str]:
    return [f"{p.site}: {p.message}" for p in check_underlay(load_fleet(directory).sites)]


def _how(directory: Path) -> list[tuple[str, str, str, str]]:
    return [(r.site, str(r.address), r.how, r.detail) for r in reaches(load_fleet(directory).sites)]


def test_the_reference_pair_reaches_its_peer_by_the_default_route_on_a_private_wan() -> None:
    # sites/: site-a 10.197.251.215/28 (gateway .209), site-b 10.216.44.47/27 (gateway .33), no
    # loopbacks: each reaches the other's WAN address by wan.routes' default 0.0.0.0/0; both WAN
    # addresses are RFC 1918, so the network behind the gateways routes private addresses.
    result = runner.invoke(app, ["validate", "--sites", "sites", "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["warnings"] == []
    assert report["underlay"] == [
        {
            "site": "site-a",
            "peer": "site-b",
            "address": "10.216.44.47",
            "how": "static",
            "detail": "by wan.routes 0.0.0.0/0 via 10.197.251.209",
        },
        {
            "site": "site-b",
            "peer": "site-a",
            "address": "10.197.251.215",
            "how": "static",
            "detail": "by wan.routes 0.0.0.0/0 via 10.216.44.33",
        },
    ]


def _without_underlay(example: str, tmp_path: Path) -> str:
    """An example fleet copied without its `underlay: private` lines, which silence the warning."""
    copy = tmp_path / example
    copy.mkdir()
    for site in sorted((ROOT / "examples" / example).glob("*.yaml")):
        lines = site.read_text().splitlines(keepends=True)
        kept = [line for line in lines if not line.startswith("  underlay: private")]
        assert len(kept) == len(lines) - 1, site
        (copy / site.name).write_text("".join(kept))
    return str(copy)


def test_every_example_fleet_validates_without_an_underlay_warning() -> None:
    # Issue 19: the examples were the first to trip the warning; they now state what carries their
    # private loopbacks (hub: the provider's MPLS VPN; field: the operator's own DCI circuit).
    for example in sorted(p for p in (ROOT / "examples").iterdir() if p.is_dir()):
        if example.name == "broken":  # broken on purpose (README's `validate` demo)
            continue
        result = runner.invoke(app, ["validate", "--sites", str(example), "--format", "json"])
        assert result.exit_code == 0, (example, result.output)
        warnings = json.loads(result.stdout)["warnings"]
        # the Cisco hub's pairs ([U] V105, issue 33) are another warning
        assert [w for w in warnings if w["code"] != "V105"] == [], example


def test_the_hub_fleet_warns_that_its_private_loopbacks_are_routed_at_a_public_provider(
    tmp_path: Path,
) -> None:
    # examples/hub without `wan.underlay: private`: loopbacks 10.255.0.1-3 on WANs in
    # 198.51.100.0/24 (documentation range: stands for public). The Cisco sites render
    # `ip route 10.255.0.x 255.255.255.255 <gateway>`, the Linux box reaches the hub's loopback by
    # its default route: all four go to the provider.
    hub = _without_underlay("hub", tmp_path)
    result = runner.invoke(app, ["validate", "--sites", hub])
    assert result.exit_code == 0, result.output
    # 4 and the Cisco hub's two pairs ([U] V105, issue 33)
    assert result.stdout.splitlines()[0] == "ok: 3 sites, 9 pseudowires, no problems (6 warnings)"
    warnings = [
        line
        for line in result.stderr.splitlines()
        if ": warning: " in line and "[V105]" not in line
    ]
    # branch.yaml line 13 is `peers: [hub]` (hub at column 9); hub.yaml lines 17-18 the two
    # `  - ` entries (column 5); linux-edge.yaml line 14 is `peers: [hub]`.
    assert [w.split(": warning: ")[0] for w in warnings] == [
        f"{hub}/branch.yaml:13:9",
        f"{hub}/hub.yaml:17:5",
        f"{hub}/hub.yaml:18:5",
        f"{hub}/linux-edge.yaml:14:9",
    ]
    assert (
        warnings[1]
        .split(": warning: ")[1]
        .startswith(
            "branch's tunnel source 10.255.0.2 is not a public address, and hub reaches it by the "
            "rendered route 10.255.0.2/32 via 198.51.100.6, on an internet underlay (hub's WAN "
            "address 198.51.100.1 is public)"
        )
    )
    assert "by wan.routes 0.0.0.0/0 via 198.51.100.22" in warnings[3]
    assert "state `wan.underlay: private`" in result.stderr
    assert "`wan.peer_routes: igp`" in result.stderr
    report = json.loads(runner.invoke(app, ["validate", "--sites", hub, "--format", "json"]).stdout)
    underlay = [w for w in report["warnings"] if w["code"] != "V105"]
    assert [(w["site"], w["path"], w["line"]) for w in underlay] == [
        ("branch", ["peers", 0], 13),
        ("hub", ["peers", 0], 17),
        ("hub", ["peers", 1], 18),
        ("linux-edge", ["peers", 0], 14),
    ]


def test_the_issues_route_of_a_private_loopback_to_the_providers_gateway_is_warned_about(
    tmp_path: Path,
) -> None:
    # Issue 19: `ip route 10.255.1.2 255.255.255.255 198.51.100.38` (examples/field, dc-a) sends
    # dc-b's private loopback to the provider. dc-a.yaml line 20 is `  - name: dc-b` (column 5);
    # dc-b.yaml line 15 is `peers: [dc-a]` (column 9). (examples/field without the
    # `wan.underlay: private` that now states the DCI circuit carries the loopbacks.)
    field = _without_underlay("field", tmp_path)
    result = runner.invoke(app, ["validate", "--sites", field])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if ": warning: " in line]
    assert [w.split(": warning: ")[0] for w in warnings] == [
        f"{field}/dc-a.yaml:20:5",
        f"{field}/dc-b.yaml:15:9",
    ]
    assert "by the rendered route 10.255.1.2/32 via 198.51.100.38" in warnings[0]


def test_a_peer_on_the_same_wan_subnet_is_connected_and_needs_no_route(tmp_path: Path) -> None:
    # 198.51.100.1/24 and 198.51.100.2/24 share 198.51.100.0/24; routes: [] renders no route.
    _site(tmp_path, "a", "b", "198.51.100.1/24", "198.51.100.254", wan_extra="  routes: []\n")
    _site(tmp_path, "b", "a", "198.51.100.2/24", "198.51.100.254", wan_extra="  routes: []\n")
    assert _how(tmp_path) == [
        ("a", "198.51.100.2", "connected", "on the WAN subnet 198.51.100.0/24"),
        ("b", "198.51.100.1", "connected", "on the WAN subnet 198.51.100.0/24"),
    ]
    assert _warnings(tmp_path) == []


def test_a_peer_outside_the_wan_subnet_with_no_route_is_warned_about(tmp_path: Path) -> None:
    # The boundary of the test above: b moves to 198.51.101.2/24, a's routes still [].
    _site(tmp_path, "a", "b", "198.51.100.1/24", "198.51.100.254", wan_extra="  routes: []\n")
    _site(tmp_path, "b", "a", "198.51.101.2/24", "198.51.101.254")
    assert _warnings(tmp_path) == [
        (
            "a: a has no route to b's tunnel source 198.51.101.2: it is outside the WAN subnet "
            "198.51.100.0/24, no wan.routes prefix covers it"
        )
    ]


def test_the_longest_covering_prefix_of_wan_routes_is_the_one_named(tmp_path: Path) -> None:
    routes = "  routes: [0.0.0.0/0, 203.0.113.0/24, 203.0.113.0/28]\n"
    _site(tmp_path, "a", "b", "198.51.100.1/29", "198.51.100.6", wan_extra=routes)
    _site(tmp_path, "b", "a", "203.0.113.9/29", "203.0.113.14")
    assert _how(tmp_path)[0] == (
        "a",
        "203.0.113.9",
        "static",
        "by wan.routes 203.0.113.0/28 via 198.51.100.6",
    )
    assert _warnings(tmp_path) == []  # public addresses: a provider routes them


LOOPBACK_A = "  loopback: {interface: Loopback0, address: 10.255.0.1/32}\n"
LOOPBACK_B = "  loopback: {interface: Loopback0, address: 10.255.0.2/32}\n"


def _loopback_pair(directory: Path, extra_a: str = "", extra_b: str = "") -> None:
    _site(directory, "a", "b", "198.51.100.1/29", "198.51.100.6", wan_extra=LOOPBACK_A + extra_a)
    _site(directory, "b", "a", "203.0.113.9/29", "203.0.113.14", wan_extra=LOOPBACK_B + extra_b)


def test_a_private_peer_loopback_routed_to_a_public_gateway_is_warned_about(
    tmp_path: Path,
) -> None:
    _loopback_pair(tmp_path)
    warnings = _warnings(tmp_path)
    assert warnings == [
        (
            "a: b's tunnel source 10.255.0.2 is not a public address, and a reaches it by the "
            "rendered route 10.255.0.2/32 via 198.51.100.6, on an internet underlay (a's WAN "
            "address 198.51.100.1 is public): a provider does not route private addresses, and "
            "the remote PE must reach the tunnel source"
        ),
        (
            "b: a's tunnel source 10.255.0.1 is not a public address, and b reaches it by the "
            "rendered route 10.255.0.1/32 via 203.0.113.14, on an internet underlay (b's WAN "
            "address 203.0.113.9 is public): a provider does not route private addresses, and "
            "the remote PE must reach the tunnel source"
        ),
    ]


def test_stating_what_carries_the_loopbacks_silences_the_warning(tmp_path: Path) -> None:
    # Each end states it differently: a private underlay (an MPLS VPN), an IGP.
    _loopback_pair(tmp_path, "  underlay: private\n", "  peer_routes: igp\n")
    assert _warnings(tmp_path) == []
    assert [(site, how) for site, _, how, _ in _how(tmp_path)] == [("a", "static"), ("b", "igp")]


def test_wan_trusted_means_a_private_wan_that_carries_the_loopbacks(tmp_path: Path) -> None:
    _loopback_pair(tmp_path, "  trusted: true\n")
    assert [w.split(":")[0] for w in _warnings(tmp_path)] == ["b"]


def test_a_stated_internet_underlay_warns_even_behind_a_private_wan_address(
    tmp_path: Path,
) -> None:
    # A private WAN address (behind NAT) derives a private underlay; stating internet overrides.
    _site(
        tmp_path,
        "a",
        "b",
        "10.0.0.1/29",
        "10.0.0.6",
        wan_extra=LOOPBACK_A + "  underlay: internet\n",
    )
    _site(tmp_path, "b", "a", "10.0.1.1/29", "10.0.1.6", wan_extra=LOOPBACK_B)
    assert [w.split(" (")[1].split(")")[0] for w in _warnings(tmp_path)] == [
        "a states wan.underlay: internet"
    ]


def test_a_public_peer_loopback_needs_no_statement(tmp_path: Path) -> None:
    # The boundary: the same pair, with loopbacks from the documentation (public) range.
    _site(
        tmp_path,
        "a",
        "b",
        "198.51.100.1/29",
        "198.51.100.6",
        wan_extra=LOOPBACK_A.replace("10.255.0", "192.0.2"),
    )
    _site(
        tmp_path,
        "b",
        "a",
        "203.0.113.9/29",
        "203.0.113.14",
        wan_extra=LOOPBACK_B.replace("10.255.0", "192.0.2"),
    )
    assert _warnings(tmp_path) == []


def test_a_linux_site_renders_no_loopback_routes_so_wan_routes_must_cover_them(
    tmp_path: Path,
) -> None:
    # platforms/linux/render.py writes wan.routes only: a Linux end with routes [203.0.113.0/24]
    # has no route to the Cisco hub's loopback 10.255.0.1.
    linux = LOOPBACK_B + "  routes: [203.0.113.0/24]\n"
    _site(
        tmp_path,
        "a",
        "b",
        "198.51.100.1/29",
        "198.51.100.6",
        wan_extra=LOOPBACK_A + "  underlay: private\n",
    )
    _site(tmp_path, "b", "a", "203.0.113.9/29", "203.0.113.14", wan_extra=linux, platform="linux")
    assert _warnings(tmp_path) == [
        (
            "b: b has no route to a's tunnel source 10.255.0.1: it is outside the WAN subnet "
            "203.0.113.8/29, no wan.routes prefix covers it, and linux renders no routes to peer "
            "loopbacks"
        )
    ]


def test_a_warning_prints_as_a_warning_and_validate_still_succeeds(tmp_path: Path) -> None:
    assert str(Problem("a", ("peers", 0), "m", level="warning")) == "a: peers[0]: warning: m"
    assert str(Problem("a", ("peers", 0), "m")) == "a: peers[0]: error: m"
    _loopback_pair(tmp_path)
    result = runner.invoke(app, ["validate", "--sites", str(tmp_path)])
    assert result.exit_code == 0
    # a.yaml: line 13 is `peers: [b]` (name, hostname, platform, management, wan and its four
    # lines, lan, l2tp_class, pseudowire_class come first); b is at column 9.
    assert f"{tmp_path / 'a.yaml'}:13:9: warning: b's tunnel source" in result.stderr
