"""Pairs apart at a hub, and a script safe to run again (issue 33, items 10 and 11).

Measured before (issue 33, kernel 6.1, strongSwan 5.9.8): on an all-Linux hub with two IPsec
spokes and ``cookie: 0``, spoke X sending through its own SA reached spoke Y's VLANs 5 of 5; after
``ip xfrm policy flush`` the rendered script re-run under ``sh -e`` stopped at the first ``ip
addr add`` ("File exists"), before the blocks. Facts the fix rests on, cited:

* the kernel finds an L2TPv3-over-IP session by its session ID alone (torvalds/linux
  ``net/l2tp/l2tp_ip.c`` ``l2tp_ip_recv``: ``l2tp_session_get(net, session_id)``); the session ID
  is the first 32 bits after the IP header (RFC 3931 section 4.1.1.2);
* a transport-mode ESP packet passes netfilter's input hook again once decrypted
  (``net/ipv4/xfrm4_input.c`` ``xfrm4_transport_finish``: ``NF_HOOK(NFPROTO_IPV4,
  NF_INET_PRE_ROUTING, ...)`` then local delivery, ``NF_INET_LOCAL_IN``): measured below, the
  binding stops what came through the spoke's SA and the control without it lets it through;
* nft(8): a command line is one transaction; ``@th,0,32`` is 32 bits at the transport header;
  ip-xfrm(8): ``policy update`` creates or replaces; ip-address(8): ``replace`` adds or changes;
* IOS: "The L2TPv3 session ID ... identifies the session context on the decapsulating system"
  (Cisco L2TPv3 feature guide, IOS 12.0(29)S/12.2(25)S p.13,
  https://www.manualshelf.com/manual/cisco/cisco-ios-software-release-12-0-29-s/manual-english/page-13.html);
  whether it also checks the source address is documented nowhere we found [U]: V105 warns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from conftest_lab import beside, requires_protection, requires_vm

from l2tpgen import load_fleet
from l2tpgen.errors import FleetValidationError
from l2tpgen.lab.engines.hubpairs import BOUND, OPEN, HubAim, judge_apart, judge_rerun, run_hub
from l2tpgen.lab.inputs import Ce, parse_lab
from l2tpgen.lab.pairs import Pair
from l2tpgen.lab.security import reveal_secrets, security_plan
from l2tpgen.lab.topology import build_topology
from l2tpgen.model.protection_checks import hub_hints
from l2tpgen.platforms.linux.binding import binding_rules
from l2tpgen.platforms.linux.render import bare, linux_commands
from l2tpgen.platforms.render import render_files

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.model import Fleet

_SITE = """\
name: {name}
hostname: {name}-1
platform: {platform}
management: {{host: 192.0.2.{host}}}
wan:
  interface: eth1
  address: 198.51.100.{wan}/29
  gateway: 198.51.100.{gateway}
lan: {{interface: eth2}}
pseudowire_class: {{name: ethernet, signaling: static, cookie: {cookie}}}
{extra}"""


def hub_fleet(directory: Path, *, platform: str = "linux", cookie: int = 0) -> Path:
    """hub (X: VLAN 100; Y: VLANs 200, 201) and its two spokes, IPsec by default (public)."""
    directory.mkdir(parents=True, exist_ok=True)
    hub_vlans = "  - {id: 100, name: x-web, peer: spoke-x}\n"
    hub_vlans += (
        "  - {id: 200, name: y-web, peer: spoke-y}\n  - {id: 201, name: y-db, peer: spoke-y}\n"
    )
    sites = {
        "hub": (platform, 31, 1, 6, f"peers: [spoke-x, spoke-y]\nvlans:\n{hub_vlans}"),
        "spoke-x": (
            "linux",
            32,
            9,
            14,
            "peers: [hub]\nvlans:\n  - {id: 100, name: x-web, peer: hub}\n",
        ),
        "spoke-y": (
            "linux",
            33,
            17,
            22,
            (
                "peers: [hub]\nvlans:\n  - {id: 200, name: y-web, peer: hub}\n"
                "  - {id: 201, name: y-db, peer: hub}\n"
            ),
        ),
    }
    if platform == "iosxe":  # IOS's default l2tp-class authenticates: name its secret
        extra = "l2tp_class: {name: dc, authentication: digest, secret_env: L2TPGEN_L2TP_SECRET}\n"
        sites["hub"] = (*sites["hub"][:4], extra + sites["hub"][4])
    for name, (kind, host, wan, gateway, extra) in sites.items():
        text = _SITE.format(
            name=name,
            platform=kind,
            host=host,
            wan=wan,
            gateway=gateway,
            cookie=cookie,
            extra=extra,
        )
        (directory / f"{name}.yaml").write_text(text)
    return directory


def _fleet(tmp_path: Path) -> Fleet:
    return load_fleet(hub_fleet(tmp_path))


def test_a_linux_hub_binds_each_spokes_address_to_its_own_session_ids(tmp_path: Path) -> None:
    fleet = _fleet(tmp_path)
    assert binding_rules(fleet.site("hub"), fleet.pseudowires("hub")) == [
        "ip protocol 115 ip saddr != { 198.51.100.17, 198.51.100.9 } drop",
        "ip saddr 198.51.100.17 ip protocol 115 @th,0,32 != { 200, 201 } drop",
        "ip saddr 198.51.100.9 ip protocol 115 @th,0,32 != { 100 } drop",
        "meta nfproto ipv6 meta l4proto 115 drop",
    ]
    nft = [c for c in linux_commands(fleet, "hub") if c.startswith("nft ")]
    assert nft == [
        "nft 'add table inet l2tpgen; flush table inet l2tpgen; add chain inet l2tpgen input "
        "{ type filter hook input priority 0; policy accept; }; "
        + "; ".join(
            f"add rule inet l2tpgen input {rule}"
            for rule in binding_rules(fleet.site("hub"), fleet.pseudowires("hub"))
        )
        + "'"
    ]
    # a spoke has one peer: nobody else's sessions to reach, no table
    assert not any(c.startswith("nft ") for c in linux_commands(fleet, "spoke-x"))


def test_an_ipv6_hub_binds_its_spokes_with_l4proto_after_extension_headers(tmp_path: Path) -> None:
    # Over IPv6 `meta l4proto` finds protocol 115 after any extension header (`ip6 nexthdr`
    # would not); the session ID comes first: nft 1.0.6 aborts listing the other order.
    sites = hub_fleet(tmp_path)
    for path in sites.glob("*.yaml"):
        text = path.read_text()
        for number, net in ((1, "a"), (9, "b"), (17, "c")):
            text = text.replace(f"198.51.100.{number}/29", f"2001:db8:0:{net}::2/64")
        for number, net in ((6, "a"), (14, "b"), (22, "c")):
            text = text.replace(f"198.51.100.{number}\n", f"2001:db8:0:{net}::1\n")
        path.write_text(text)
    fleet = load_fleet(sites)
    assert binding_rules(fleet.site("hub"), fleet.pseudowires("hub")) == [
        "meta l4proto 115 ip6 saddr != { 2001:db8:0:b::2, 2001:db8:0:c::2 } drop",
        "ip6 saddr 2001:db8:0:b::2 @th,0,32 != { 100 } meta l4proto 115 drop",
        "ip6 saddr 2001:db8:0:c::2 @th,0,32 != { 200, 201 } meta l4proto 115 drop",
        "meta nfproto ipv4 ip protocol 115 drop",
    ]


def test_the_inbound_blocks_and_the_binding_come_before_any_step_that_can_fail(
    tmp_path: Path,
) -> None:
    commands = linux_commands(_fleet(tmp_path), "hub")
    assert [c.split(" proto ")[0] for c in commands[:2]] == [
        "ip xfrm policy update src 0.0.0.0/0 dst 0.0.0.0/0",
        "ip xfrm policy update src ::/0 dst ::/0",
    ]
    assert all(" dir in action block " in c for c in commands[:2])
    assert commands[2].startswith("nft 'add table inet l2tpgen; flush table inet l2tpgen;")


def test_every_rendered_step_succeeds_again_on_a_second_run(tmp_path: Path) -> None:
    # What a second run meets: every object exists. Each line is an idempotent form (update,
    # replace, set) or an `add` guarded by a check that its object exists.
    idempotent = ("ip xfrm policy update ", "ip addr replace ", "ip route replace ", "ip link set ")
    for command in linux_commands(_fleet(tmp_path), "hub"):
        if command.startswith("nft "):
            assert "add table inet l2tpgen; flush table inet l2tpgen;" in command
            continue
        if command.startswith(idempotent):
            continue
        assert " add " in command, command
        add, check = command.split(" || ")
        assert add == bare(command)
        assert check.startswith(("ip link show dev ", "ip l2tp show tunnel | grep -q '^Tunnel "))


def test_the_script_says_it_is_safe_to_run_again_and_how_to_restore_the_blocks(
    tmp_path: Path,
) -> None:
    script = render_files(_fleet(tmp_path), "hub", platform="linux")["iproute2.sh"]
    assert (
        "# Safe to run again (sh -e too); run it again after `ip xfrm policy flush` or an "
        "nftables `flush ruleset` to restore them\n"
    ) in script
    assert "needs nf_tables" in script


def test_networkd_gets_the_binding_as_an_nft_file(tmp_path: Path) -> None:
    sites = hub_fleet(tmp_path)
    for name in ("hub", "spoke-x", "spoke-y"):  # trusted paths: networkd renders unprotected PEs
        path = sites / f"{name}.yaml"
        path.write_text(path.read_text().replace("/29\n", "/29\n  trusted: true\n"))
    files = render_files(load_fleet(sites), "hub", "networkd")
    nft = files["l2tpgen-binding.nft"]
    assert "    ip saddr 198.51.100.9 ip protocol 115 @th,0,32 != { 100 } drop\n" in nft
    assert nft.startswith("# l2tpgen: hub:")
    assert "table inet l2tpgen {}\nflush table inet l2tpgen\n" in nft
    assert "l2tpgen-binding.nft" not in render_files(load_fleet(sites), "spoke-x", "networkd")


def test_a_cisco_hub_is_warned_that_its_pairs_need_keyed_8_byte_cookies(tmp_path: Path) -> None:
    fleet = load_fleet(hub_fleet(tmp_path, platform="iosxe"))
    warned = list(hub_hints(fleet.sites))
    assert [(w.code, w.level, w.site) for w in warned] == [("V105", "warning", "hub")] * 2
    assert "[U]" in warned[0].message
    assert "the pseudowires to spoke-x have no cookies" in warned[0].message
    # keyed 8-byte cookies on every pair: nothing to say; a Linux hub binds: nothing either
    keyed = load_fleet(hub_fleet(tmp_path / "k", platform="iosxe", cookie=8))
    assert list(hub_hints(keyed.sites)) == []
    assert list(hub_hints(_fleet(tmp_path / "l").sites)) == []


def test_a_vyos_hub_with_two_peers_is_refused(tmp_path: Path) -> None:
    # VyOS runs the same kernel (session by ID alone) with no cookies and no binding.
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(hub_fleet(tmp_path, platform="vyos"))
    codes = [p.code for p in caught.value.problems]
    assert "V106" in codes, caught.value.problems


def test_the_protection_checks_control_holds_the_binding_back_with_the_xfrm_policies(
    tmp_path: Path,
) -> None:
    # `lab run`'s control attacks the hub before protection: the binding would stop the WAN
    # attacker's own-address forgeries there and make the control show 0 (security.py).
    fleet = _fleet(tmp_path)
    lab = parse_lab(build_topology(fleet, name="h"), "h", beside(fleet))
    plan = security_plan(reveal_secrets(lab))
    assert not any(c.startswith("nft ") for c in plan.lab.node("pe-hub").exec)
    deferred = next(p for p in plan.protect if p.key == "protect.xfrm.pe-hub").command
    assert "nft 'add table inet l2tpgen;" in deferred


def _aim() -> HubAim:
    near = Ce("ce-hub", "hub", 0, "pe-hub", (200,), 1500)
    far = Ce("ce-spoke-y", "spoke-y", 2, "pe-spoke-y", (200,), 1500)
    return HubAim(
        "pe-hub",
        "pe-spoke-x",
        "pe-spoke-y",
        "198.51.100.1",
        ((200, "-"), (201, "-")),
        Pair(200, near, far),
        "198.51.100.17",
        "wan",
        "eth1",
    )


def _results(bound: int, opened: int, **changed: str) -> dict[str, str]:
    results = {
        "reach": "0",
        "forge.bound": "sent 5\nsent 5",
        "forge.open": "sent 5\nsent 5",
        "watch": f"hit:{BOUND}200 {bound}\nhit:{OPEN}200 {opened}\nhit:{OPEN}201 {opened}\nend",
        "blocks.flushed": "0",
        "blocks.back": "4",
        "bound.back": "4",
        "wan.flushed": "l2tp_pair 5\nend",
        "wan.restart": "l2tp_pair 0\nend",
        "rerun.1": "exit 0",
        "rerun.2": "exit 0",
        "back": "0",
    }
    return results | changed


def test_the_hub_judges_pass_only_with_0_through_the_binding_and_more_in_the_control() -> None:
    a = _aim()
    assert judge_apart(a, _results(0, 5)).ok
    assert (
        "0/10 reached the hub's CE; binding removed (control): 10/10"
        in judge_apart(a, _results(0, 5)).detail
    )
    assert not judge_apart(a, _results(1, 5)).ok  # one through the binding
    assert not judge_apart(a, _results(0, 0)).ok  # the control shows the forgery broken
    assert not judge_apart(a, _results(0, 5, reach="1")).ok  # the pseudowire never came up
    assert judge_rerun(a, _results(0, 5)).ok
    for key, value in (
        ("rerun.1", "exit 2"),
        ("rerun.2", "exit 1"),
        ("blocks.back", "0"),
        ("bound.back", "0"),
        ("wan.flushed", "l2tp_pair 0\nend"),  # the control saw nothing: the count is broken
        ("wan.restart", "l2tp_pair 3\nend"),
        ("back", "1"),
    ):
        assert not judge_rerun(a, _results(0, 5, **{key: value})).ok, key


@pytest.mark.lab
@requires_vm
@requires_protection
def test_a_spoke_through_its_own_sa_reaches_another_spokes_vlan_0_times_and_the_script_reruns(
    tmp_path: Path,
) -> None:
    report = run_hub(_fleet(tmp_path), "hub", "spoke-x", "spoke-y")
    print("\n".join(f"{r.check}: {r.ok}: {r.detail}" for r in report.results))  # noqa: T201
    assert report.setup_errors == ()
    apart, rerun = report.results
    assert "0/10 reached the hub's CE" in apart.detail
    assert apart.ok, apart.detail
    assert "exit 0 and 0" in rerun.detail
    assert rerun.ok, rerun.detail
