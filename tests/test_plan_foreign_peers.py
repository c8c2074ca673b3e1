"""The inbound WAN filter never cuts a pseudowire or a VPN l2tpgen does not own (issues 25, 33).

``l2tpgen-wan-in`` denies L2TPv3 (IP protocol 115) to the hub's own addresses from all but its
peers, and judges nothing else. Push reads the running config for the router's other
pseudowire peers and admits them (``l2tpgen/device/foreign_peers.py``,
``l2tpgen/ios/pw_peers.py``). The running configs are the example hub's rendering (hub 10.255.0.1
on Loopback0, WAN 198.51.100.1 on GigabitEthernet0/0/1) plus the user's configuration written by
hand; each expectation is worked out by hand from Cisco's command forms: an ``xconnect``'s peer
is its first argument (and ``backup peer``'s), IOS-XE ``interface pseudowire`` ``neighbor
ROUTER-ID VC-ID`` and ``l2vpn xconnect context`` ``member IPV4 VC-ID`` / ``member pseudowireN
IPV4 VC-ID`` and a VFI's ``neighbor ROUTER-ID`` (Cisco-IOS-XE-l2vpn.yang,
``tests/vendor/cisco-xe-yang/17181``). What the filter does with each packet is judged by the
project's evaluator (``l2tpgen/ios/acl.py``).
"""

from __future__ import annotations

import re
from ipaddress import IPv4Address
from typing import TYPE_CHECKING

import pytest
from builders import HUB, revealed_site, unprotected

from l2tpgen.device.plan import plan_change
from l2tpgen.ios.acl import acl_from_lines
from l2tpgen.ios.pw_peers import pseudowire_peers
from l2tpgen.ios.tree import parse

if TYPE_CHECKING:
    from l2tpgen.model import Site

ENV = {"L2TPGEN_L2TP_SECRET": "l2tp-secret", "L2TPGEN_IKE_PSK": "Psk-new-only-in-env-7"}
IKEV1_KEY = "Ikev1-key-of-the-user-5"
OWN, WAN = "10.255.0.1", "198.51.100.1"
BEHIND = "192.168.50.10"  # a host behind the hub
STRANGER = "203.0.113.66"
ESP, UDP, TCP, L2TP = 50, 17, 6, 115
CLASS = "pseudowire-class THEIRS\n encapsulation l2tpv3\n ip local interface Loopback0\n!\n"


@pytest.fixture(scope="module")
def hub() -> tuple[Site, str]:
    return revealed_site(HUB, "hub", ENV)


def _filter(lines: tuple[str, ...] | list[str]) -> list[str]:
    """The l2tpgen-wan-in entries, in order (a plan's commands or a config's lines)."""
    start = lines.index("ip access-list extended l2tpgen-wan-in") + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith(" "))
    return [line.strip() for line in lines[start:end]]


def _admits(entries: list[str], protocol: int, source: str, destination: str) -> bool:
    acl = acl_from_lines("l2tpgen-wan-in", entries)
    verdict, _ = acl.verdict(protocol, IPv4Address(source), IPv4Address(destination))
    assert verdict != "unknown"
    return verdict == "permit"


def _planned_filter(site: Site, intended: str, theirs: str) -> tuple[list[str], tuple[str, ...]]:
    """The filter push would leave on a router holding ``theirs`` (and the plan's notes)."""
    plan = plan_change(site, unprotected(intended) + theirs, intended)
    return _filter(plan.intended.splitlines()), plan.notes


@pytest.mark.parametrize(
    ("theirs", "peers"),
    [
        (  # another L2TPv3 xconnect, on a port l2tpgen does not own, with a backup peer
            (
                CLASS + "interface GigabitEthernet0/0/2\n"
                " xconnect 192.0.2.70 700 encapsulation l2tpv3 pw-class THEIRS\n"
                "  backup peer 192.0.2.71 701 pw-class THEIRS\n!\n"
            ),
            ["192.0.2.70", "192.0.2.71"],
        ),
        (  # IOS-XE: a pseudowire interface joined to a port by an xconnect context
            (
                "interface pseudowire100\n encapsulation l2tpv3\n neighbor 192.0.2.80 800\n!\n"
                "l2vpn xconnect context CUST\n member pseudowire100\n"
                " member GigabitEthernet0/0/3\n!\n"
            ),
            ["192.0.2.80"],
        ),
        (  # IOS-XE: xconnect context members by address, with and without a pseudowire number
            (
                "l2vpn xconnect context CUST\n member 192.0.2.81 810 encapsulation mpls\n"
                " member pseudowire101 192.0.2.82 820 encapsulation mpls\n!\n"
            ),
            ["192.0.2.81", "192.0.2.82"],
        ),
        (  # a manual VFI's neighbors (and BGP neighbors, which are none)
            (
                "l2 vfi CUST manual\n vpn id 90\n neighbor 192.0.2.90 encapsulation l2tpv3 "
                "pw-class THEIRS\n!\nrouter bgp 65000\n neighbor 192.0.2.99 remote-as 65001\n!\n"
            ),
            ["192.0.2.90"],
        ),
    ],
    ids=["xconnect-and-backup", "iosxe-pseudowire-interface", "iosxe-context-members", "vfi"],
)
def test_the_routers_other_pseudowire_peers_are_admitted_and_others_still_denied(
    hub: tuple[Site, str], theirs: str, peers: list[str]
) -> None:
    site, intended = hub
    entries, notes = _planned_filter(site, intended, theirs)
    for peer in peers:
        assert _admits(entries, L2TP, peer, OWN), peer
        assert _admits(entries, L2TP, peer, WAN), peer
    assert not _admits(entries, L2TP, "192.0.2.99", OWN)  # the BGP neighbor, a stranger here
    assert not _admits(entries, L2TP, STRANGER, OWN)
    assert not _admits(entries, L2TP, STRANGER, WAN)
    assert entries.index("deny 115 any host 10.255.0.1") > max(
        entries.index(f"permit 115 host {peer} any") for peer in peers
    )
    assert any("other pseudowire peer" in note for note in notes)


def test_an_ipv6_pseudowire_peer_needs_no_entry_the_ipv4_filter_never_sees_it(
    hub: tuple[Site, str],
) -> None:
    theirs = "interface GigabitEthernet0/0/2\n xconnect 2001:db8::7 77 encapsulation l2tpv3\n!\n"
    found = pseudowire_peers(parse(theirs).roots)
    assert [str(p.address) for p in found] == ["2001:db8::7"]  # read, not missed
    site, intended = hub
    entries, notes = _planned_filter(site, intended, theirs)
    assert not [e for e in entries if "2001:db8" in e]  # `ip access-list` holds IPv4 only
    assert not [note for note in notes if "other pseudowire peer" in note]


@pytest.mark.parametrize(
    "theirs",
    [
        # Easy VPN client (remote): the WAN is its outside interface, its peer a head end
        "crypto ipsec client ezvpn EZ\n connect auto\n peer 203.0.113.5\n mode client\n!\n",
        # Easy VPN server (remote access), a dynamic map: whoever connects
        (
            "crypto isakmp client configuration group RA\n pool RA-POOL\n!\n"
            "crypto dynamic-map RA 10\n set transform-set TS\n!\n"
            "crypto map CORP 65535 ipsec-isakmp dynamic RA\n!\n"
        ),
        # DMVPN hub: mGRE, spokes register over NHRP from any address
        (
            "interface Tunnel0\n ip address 172.30.0.1 255.255.255.0\n ip nhrp network-id 1\n"
            " tunnel source GigabitEthernet0/0/1\n tunnel mode gre multipoint\n"
            " tunnel protection ipsec profile DMVPN\n!\n"
        ),
        # IKEv1 wildcard key, written with mask bits `0.0.0.0` (any peer)
        f"crypto isakmp key {IKEV1_KEY} address 0.0.0.0 0.0.0.0\n",
        # IKEv2 peer over IPv6 (the filter is IPv4: it never sees IPv6 packets)
        "crypto ikev2 keyring CORP\n peer hq\n  address 2001:db8::1/128\n!\n",
        # IKEv1 peer written as a /1 wildcard
        f"crypto isakmp key {IKEV1_KEY} address 0.0.0.0 128.0.0.0\n",
    ],
    ids=["easy-vpn-client", "easy-vpn-server", "dmvpn-hub", "ikev1-any", "ipv6-ikev2", "slash-1"],
)
def test_every_other_vpn_keeps_ike_and_esp_from_any_address_the_filter_judges_neither(
    hub: tuple[Site, str], theirs: str
) -> None:
    # Before issue 33 these refused the filter (or admitted half of IPv4, or were refused with a
    # false reason for IPv6). Now nothing is refused: no ESP or IKE packet meets a deny.
    site, intended = hub
    entries, notes = _planned_filter(site, intended, theirs)
    for source in ("203.0.113.5", STRANGER, "1.2.3.4", "200.0.0.1"):
        for destination in (OWN, WAN):
            assert _admits(entries, ESP, source, destination)
            assert _admits(entries, UDP, source, destination)  # IKE 500, NAT-T 4500
    assert not [note for note in notes if "other pseudowire peer" in note]
    assert IKEV1_KEY not in "\n".join(entries)


def test_transit_traffic_and_management_are_untouched(hub: tuple[Site, str]) -> None:
    site, intended = hub
    entries, _ = _planned_filter(site, intended, "")
    for protocol in (L2TP, ESP, UDP, TCP):
        assert _admits(entries, protocol, STRANGER, BEHIND)  # L2TPv3, ESP, IKE across the hub
    assert _admits(entries, TCP, STRANGER, WAN)  # SSH to the router
    assert all(" any any" not in e or e == "permit ip any any" for e in entries)
    assert [e for e in entries if e.startswith("deny")] == [
        "deny 115 any host 10.255.0.1",
        "deny 115 any host 198.51.100.1",
    ]


def test_once_admitted_the_next_plan_is_empty(hub: tuple[Site, str]) -> None:
    site, intended = hub
    theirs = CLASS + (
        "interface GigabitEthernet0/0/2\n"
        " xconnect 192.0.2.70 700 encapsulation l2tpv3 pw-class THEIRS\n!\n"
    )
    first = plan_change(site, unprotected(intended) + theirs, intended)
    pushed = "".join(f" {line}\n" for line in _filter(first.intended.splitlines()))
    running = re.sub(
        r"^ip access-list extended l2tpgen-wan-in\n(?: .*\n)*",
        lambda _: f"ip access-list extended l2tpgen-wan-in\n{pushed}",
        intended,
        flags=re.MULTILINE,
    )
    assert plan_change(site, running + theirs, intended).empty


def test_the_pseudowires_push_owns_are_not_counted_as_other_peers(
    hub: tuple[Site, str],
) -> None:
    # The hub's own subinterfaces carry the model's xconnects; an owned subinterface whose VLAN
    # the model dropped goes away with its peer (10.255.0.9), not into the filter.
    site, intended = hub
    stale = (
        "interface GigabitEthernet0/0/0.3999\n encapsulation dot1Q 3999\n"
        " xconnect 10.255.0.9 3999 encapsulation l2tpv3 pw-class l2tpgen-ipsec\n!\n"
    )
    entries, notes = _planned_filter(site, intended, stale)
    assert not _admits(entries, L2TP, "10.255.0.9", OWN)
    assert not [note for note in notes if "other pseudowire peer" in note]
