"""IPv6 underlays: a site's WAN, loopback, gateway and routes may be IPv6, one family per site and
per pseudowire; Linux renders them, Cisco platforms are refused by name (issue 19, item 4).

Expectations are worked out by hand: the lines and columns from the site text written here, the
rendered commands from ip-l2tp(8) ("local ADDR ... May be specified as an IPv4 address or an IPv6
address"), ip-xfrm(8) selectors (``src ADDR[/PLEN]``) and swanctl.conf(5) traffic selectors
(``local_ts``: "IPv4 or IPv6 address, CIDR subnet ... [proto/port]"), the budget from RFC 8200's
40-byte header. Cisco: its L2TPv3 guides document xconnect pseudowires to IPv4 peers only; the one
IOS XE L2TPv3-over-IPv6 feature ("Configuring PPPoE over L2TPv3 Tunnels", IOS XE 16.7/16.11,
https://cisco.com/c/en/us/td/docs/ios-xml/ios/bbdsl/configuration/xe-16-11/bba-xe-16-11-book/
bba-pppoe-l2tpv3-xe.html) terminates PPPoE at a BNG, not an xconnect.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from builders import write_wan_site
from conftest import ROOT
from typer.testing import CliRunner

from l2tpgen import FleetValidationError, load_fleet
from l2tpgen.cli import app
from l2tpgen.lab.strongswan import ESP_MODULES
from l2tpgen.model.underlay import check_underlay, reaches
from l2tpgen.platforms.linux.render import bare
from l2tpgen.traits import DRIVERS

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
IPV6_FLEET = ROOT / "examples" / "ipv6"


def _site(
    directory: Path,
    name: str,
    peer: str,
    wan: str,
    gateway: str,
    *,
    extra: str = "",
    platform: str = "linux",
) -> Path:
    return write_wan_site(directory, name, peer, wan, gateway, platform=platform, wan_extra=extra)


def _pair(
    directory: Path, *, extra_a: str = "", extra_b: str = "", platform: str = "linux"
) -> None:
    _site(directory, "a", "b", "2001:db8:0:a::2/64", "2001:db8:0:a::1", extra=extra_a,
          platform=platform)  # fmt: skip
    _site(directory, "b", "a", "2001:db8:0:b::2/64", "2001:db8:0:b::1", extra=extra_b)


def _where(path: Path, text: str) -> str:
    """``file:line:column`` of the first occurrence of ``text`` in the file, counted by hand."""
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if text in line:
            return f"{path}:{number}:{line.index(text) + 1}"
    raise AssertionError(f"{text} not in {path}")


def _errors(directory: Path) -> list[str]:
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(directory)
    return [str(problem) for problem in caught.value.problems]


def test_the_ipv6_example_fleet_validates_and_renders_for_linux() -> None:
    result = runner.invoke(app, ["validate", "--sites", str(IPV6_FLEET)])
    assert result.exit_code == 0, result.output
    assert "ok: 2 sites, 2 pseudowires, no problems" in result.stdout
    assert result.stderr == ""  # no underlay warning: the loopbacks are covered by ::/0
    script = runner.invoke(app, ["render", "site-a", "--sites", str(IPV6_FLEET)])
    assert script.exit_code == 0, script.output
    lines = [bare(line) for line in script.stdout.splitlines()]  # without the re-run guards
    for expected in (
        "ip addr replace 2001:db8:0:a::2/64 dev eth1 nodad",
        # nodad: the tunnel binds it at once; tentative until its DAD work runs (see linux.py)
        "ip addr replace 2001:db8:ff::1/128 dev lo nodad",
        "ip route replace ::/0 via 2001:db8:0:a::1",
        (
            "ip l2tp add tunnel tunnel_id 1 peer_tunnel_id 1 encap ip local 2001:db8:ff::1 "
            "remote 2001:db8:0:b::2"
        ),
        "ip link set dev l2tp610 up mtu 1438",  # 1500 - 40 - 4 - 4 - 14
    ):
        assert expected in lines, expected
    assert "l2tp_ip6" in lines[1]


def test_an_ipv6_wan_without_routes_gets_the_ipv6_default_route(tmp_path: Path) -> None:
    _pair(tmp_path)
    site = load_fleet(tmp_path).site("a")
    assert [str(net) for net in site.wan.routes] == ["::/0"]
    assert site.wan.ipv6


def test_an_address_that_is_neither_family_gets_l2tpgens_words_not_pydantics(
    tmp_path: Path,
) -> None:
    _pair(tmp_path)
    path = _site(tmp_path, "a", "b", "2001:db8:0:a::zz/64", "2001:db8:0:a::1")
    errors = _errors(tmp_path)
    assert errors == [
        (
            f"{_where(path, '2001:db8:0:a::zz/64')}: error: wan.address: this is not an IPv4 or "
            "IPv6 address with a prefix length (e.g. 10.197.251.215/28 or 2001:db8:1::2/64)"
        )
    ]
    assert "valid IPv4" not in "".join(errors)


def test_a_gateway_of_the_other_family_is_refused_at_the_gateway(tmp_path: Path) -> None:
    _pair(tmp_path)
    path = _site(tmp_path, "a", "b", "2001:db8:0:a::2/64", "10.0.0.1")
    # Located, the message starts after file:line:column (a.yaml line 8, the gateway's value).
    assert _errors(tmp_path) == [
        (
            f"{_where(path, '10.0.0.1')}: error: gateway 10.0.0.1 is IPv4, but the WAN address "
            "2001:db8:0:a::2/64 is IPv6\n"
            "  hint: write an IPv6 address, as wan.address is, or make the whole underlay one "
            "family"
        )
    ]


def test_a_loopback_or_route_of_the_other_family_is_refused_where_it_is_written(
    tmp_path: Path,
) -> None:
    extra = (
        "  loopback: {interface: Loopback0, address: 10.255.0.1/32}\n"
        "  routes: [2001:db8::/32, 0.0.0.0/0]\n"
    )
    _pair(tmp_path)
    path = _site(tmp_path, "a", "b", "2001:db8:0:a::2/64", "2001:db8:0:a::1", extra=extra)
    errors = _errors(tmp_path)
    # The IPv4 loopback is a's tunnel source, so the pair's families differ too (peers: [b]).
    assert [e.split(": error: ")[0] for e in errors] == [
        _where(path, "10.255.0.1/32"),
        _where(path, "0.0.0.0/0"),
        _where(path, "b]"),
    ]
    assert "loopback address 10.255.0.1/32 is IPv4, but the WAN address" in errors[0]
    assert "route 0.0.0.0/0 is IPv4" in errors[1]
    assert errors[1].endswith("(the default route is ::/0)")
    assert "a's tunnel source 10.255.0.1 is IPv4 but b's 2001:db8:0:b::2" in errors[2]


def test_a_pseudowire_between_an_ipv4_and_an_ipv6_site_is_refused_at_the_peers_entry(
    tmp_path: Path,
) -> None:
    a = _site(tmp_path, "a", "b", "2001:db8:0:a::2/64", "2001:db8:0:a::1")
    _site(tmp_path, "b", "a", "10.0.1.2/24", "10.0.1.1")
    # The pair is reported once, at the site that sorts first: the `b` of a.yaml's `peers: [b]`.
    assert _errors(tmp_path) == [
        (
            f"{_where(a, 'b]')}: error: a's tunnel source 2001:db8:0:a::2 is IPv6 but b's "
            f"10.0.1.2 ({tmp_path / 'b.yaml'}) is IPv4: an L2TPv3 tunnel joins two addresses of "
            "one family\n"
            "  hint: give a and b underlays of the same family (WAN address and loopback), or "
            "remove this peer"
        )
    ]


@pytest.mark.parametrize(("platform", "title"), [("ios", "Cisco IOS"), ("iosxe", "Cisco IOS-XE")])
def test_a_cisco_site_on_an_ipv6_underlay_is_refused_naming_its_platform(
    tmp_path: Path, platform: str, title: str
) -> None:
    _pair(tmp_path, platform=platform)
    path = tmp_path / "a.yaml"
    result = runner.invoke(app, ["validate", "--sites", str(tmp_path)])
    assert result.exit_code == 1
    stderr = " ".join(result.stderr.split())  # as printed, wrapped or not
    assert (
        f"{_where(path, '2001:db8:0:a::2/64')}: error: a runs {title} (platform {platform}), "
        "which l2tpgen cannot render over an IPv6 underlay: Cisco's L2TPv3 guides (IOS 15M&T, "
        "IOS XE 16) document xconnect pseudowires to IPv4 peers only"
    ) in stderr
    assert "run its PE on Linux (`platform: linux`)" in stderr
    assert "Traceback" not in result.output


def test_linux_carries_pseudowires_over_ipv6_cisco_does_not_and_every_refusal_says_why() -> None:
    assert DRIVERS["linux"].ipv6_underlay
    assert not DRIVERS["ios"].ipv6_underlay
    assert not DRIVERS["iosxe"].ipv6_underlay
    refused = [d for d in DRIVERS.values() if not d.ipv6_underlay]
    assert all(d.ipv6_note for d in refused), [d.name for d in refused if not d.ipv6_note]


# YAML reads `[::/0]` as a broken flow node: IPv6 prefixes in flow lists are quoted.
LOOPBACK = (
    '  loopback: {{interface: Loopback0, address: "{address}"}}\n  routes: ["2001:db8::/32"]\n'
)


def test_a_ula_peer_loopback_routed_at_an_internet_provider_warns_like_rfc1918(
    tmp_path: Path,
) -> None:
    # a's WAN is in the documentation prefix (public, as 198.51.100.0/24): an internet
    # underlay. b's loopback fd00::2 is a unique local address (private, as RFC 1918), reached
    # by no route: 2001:db8::/32 does not cover it.
    _pair(
        tmp_path,
        extra_a=LOOPBACK.format(address="2001:db8:ff::1/128"),
        extra_b=LOOPBACK.format(address="fd00::2/128").replace("2001:db8::/32", "::/0"),
    )
    warnings = [
        f"{p.site}: {p.message} | {p.hint}" for p in check_underlay(load_fleet(tmp_path).sites)
    ]
    assert len(warnings) == 1
    assert warnings[0].startswith(
        "a: a has no route to b's tunnel source fd00::2: it is outside the WAN subnet "
        "2001:db8:0:a::/64, no wan.routes prefix covers it"
    )
    assert "(e.g. fd00::2/128)" in warnings[0]


def test_a_ula_peer_loopback_covered_by_the_default_route_warns_about_the_provider(
    tmp_path: Path,
) -> None:
    _pair(
        tmp_path,
        extra_a=LOOPBACK.format(address="2001:db8:ff::1/128").replace("2001:db8::/32", "::/0"),
        extra_b=LOOPBACK.format(address="fd00::2/128").replace("2001:db8::/32", "::/0"),
    )
    warnings = [(p.site, p.message) for p in check_underlay(load_fleet(tmp_path).sites)]
    assert warnings == [
        (
            "a",
            (
                "b's tunnel source fd00::2 is not a public address, and a reaches it by "
                "wan.routes ::/0 via 2001:db8:0:a::1, on an internet underlay (a's WAN address "
                "2001:db8:0:a::2 is public): a provider does not route private addresses, and the "
                "remote PE must reach the tunnel source"
            ),
        )
    ]
    how = [(r.site, str(r.address), r.how) for r in reaches(load_fleet(tmp_path).sites)]
    assert how == [("a", "fd00::2", "static"), ("b", "2001:db8:ff::1", "static")]


def test_a_peer_on_the_same_ipv6_subnet_is_connected(tmp_path: Path) -> None:
    _site(tmp_path, "a", "b", "2001:db8:0:a::2/64", "2001:db8:0:a::1")
    _site(tmp_path, "b", "a", "2001:db8:0:a::3/64", "2001:db8:0:a::1")
    how = [(r.site, r.how) for r in reaches(load_fleet(tmp_path).sites)]
    assert how == [("a", "connected"), ("b", "connected")]


def test_validate_prints_ipv6_addresses_as_written(tmp_path: Path) -> None:
    # `:a:` inside 2001:db8:0:a::2 is an emoji code to rich; the CLI prints the address.
    _pair(tmp_path)
    result = runner.invoke(app, ["validate", "--sites", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "untrusted path: 2001:db8:0:a::2 (a's WAN address) is public" in result.stdout


def test_protected_ipv6_pseudowires_get_ipv6_selectors(tmp_path: Path) -> None:
    # Public WANs, no wan.trusted: IPsec by default, and the inbound filter with it.
    _pair(tmp_path)
    out = tmp_path / "out"
    result = runner.invoke(app, ["render", "a", "--sites", str(tmp_path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    script = (out / "iproute2.sh").read_text().splitlines()
    policies = [line for line in script if line.startswith("ip xfrm")]
    assert policies == [
        f"ip xfrm policy update src {anywhere} dst {anywhere} proto 115 dir {direction} "
        "action block priority 2000000"
        for direction in ("in", "out")  # the inbound blocks first (issue 33), then outbound
        for anywhere in ("0.0.0.0/0", "::/0")
    ]
    # ESP over IPv6 is the kernel's esp6 module (net/ipv6/esp6.c), not esp4 (issue 25).
    assert any("(needs esp6 and xfrm_user)" in line for line in script if line.startswith("#"))
    assert "esp4" not in "\n".join(script)
    swanctl = (out / "swanctl.conf").read_text()
    assert "        local_ts = 2001:db8:0:a::2/128[115]\n" in swanctl
    assert "        remote_ts = 2001:db8:0:b::2/128[115]\n" in swanctl
    assert "/32" not in swanctl
    assert "/32" not in "\n".join(script)


def test_the_lab_loads_esp6_with_the_esp_modules_for_ipv6_underlays() -> None:
    # A protected IPv6 fleet negotiates only with esp6 loaded (measured: security-lab-notes.md);
    # the lab loads it beside esp4 for every protected lab (strongswan.py).
    assert {"esp4", "esp6", "xfrm_user"} <= set(ESP_MODULES)
    assert ESP_MODULES.index("xfrm_algo") < ESP_MODULES.index("esp6")  # its dependency first


def test_a_cookie_protected_ipv6_pair_allows_its_peer_by_a_128_selector(tmp_path: Path) -> None:
    cookie = "protection: {mode: cookie}\n"
    _pair(tmp_path)
    for name in ("a", "b"):
        path = tmp_path / f"{name}.yaml"
        path.write_text(path.read_text() + cookie)
    result = runner.invoke(app, ["render", "a", "--sites", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    for direction, src, dst in (("out", "a", "b"), ("in", "b", "a")):
        assert (
            f"ip xfrm policy update src 2001:db8:0:{src}::2/128 dst 2001:db8:0:{dst}::2/128 "
            f"proto 115 dir {direction} priority 1999999"
        ) in lines


def test_mtu_ipv6_counts_the_40_byte_header_in_esp_tunnel_mode_too() -> None:
    # By hand, AES-GCM-128 tunnel mode on a 1500-byte IPv6 WAN, Linux to Linux, no cookie:
    # outer IPv6 40 + ESP 8 + IV 8 + inner IPv6 40 + session 4 + Ethernet 14; ICV 16, trailer 2.
    # Payload room: 1500 - 40 - 8 - 8 - 16 = 1428 for payload + padding + trailer; GCM aligns
    # payload + 2 to 4: 1426 + 2 = 1428, no padding. Inner MTU: 1426 - 40 - 4 - 14 = 1368.
    args = ["mtu", "--ipv6", "--no-dot1q", "--ipsec", "tunnel", "--format", "json"]
    data = json.loads(runner.invoke(app, args).stdout)
    assert data["ipv6"] is True
    assert data["max_inner_mtu"] == 1368
    parts = [(p["part"], p["bytes"]) for p in data["items"]]
    assert parts[0] == ("ESP tunnel-mode outer IPv6 header", 40)
    assert ("outer IPv6 header", 40) in parts


@pytest.mark.parametrize(
    ("platform", "title"), [("ios", "Cisco IOS"), ("iosxe", "Cisco IOS-XE"), ("vyos", "VyOS")]
)
def test_rendering_an_ipv6_site_for_a_platform_without_ipv6_is_refused_naming_it(
    platform: str, title: str
) -> None:
    args = ["render", "site-a", "--sites", str(IPV6_FLEET), "--platform", platform]
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert result.stdout == ""  # no half-IPv4 config (`ip address 2001:db8:ff::1 ffff:...`)
    assert (
        f"site-a's underlay is IPv6 (2001:db8:0:a::2/64), and {title} cannot carry its "
        "pseudowires over IPv6"
    ) in " ".join(result.stderr.split())
