"""Who can read or inject into a pseudowire (L2T024, L2T025, L2T026), case by case.

Every expectation below was worked out by reading the rules' documentation and the snippet. The
IOS facts they rest on: `encapsulation l2tpv3` sends IP protocol 115 unless the class's
`ip protocol` says otherwise (Cisco 12.0S L2TPv3 guide, command reference: `ip protocol`, "IP
protocol 115" in `show l2tun session`); a crypto ACL's `permit` protects, `deny` or no match leaves
the packet in clear, and inbound a packet that matches but arrives unprotected is discarded ("31
Days Before Your CCNA Security Exam", Cisco Press, crypto ACLs; Cisco Security Appliance CLI guide
OL-12172-03, "Special Meanings of Permit and Deny in Crypto Access Lists": see
l2tpgen/ios/crypto.py). The acceptance check of issue 18 is L2T025's first case; the real
third-party config with that same mistake is
tests/realworld/configs/labfinal2025-l2tpv3-ipsec-r2.cfg (line 94).
"""

from __future__ import annotations

import pytest
from lint_cases import Case, check, device, fleet, params

# A PE sourcing from its WAN port 198.51.100.1/30, default route to 198.51.100.2; the peer is
# 203.0.113.2 (a documentation address: public for these rules).
_CLEAR = """
pseudowire-class pw
 encapsulation l2tpv3
 ip local interface GigabitEthernet0/1
interface GigabitEthernet0/1
 ip address 198.51.100.1 255.255.255.252
interface GigabitEthernet0/0.10
 encapsulation dot1Q 10
 xconnect {peer} 10 pw-class pw
ip route 0.0.0.0 0.0.0.0 198.51.100.2
"""

# The same PE with a crypto map on its WAN port; {acl} is the crypto ACL's entries.
_MAPPED = """
pseudowire-class pw
 encapsulation l2tpv3
{pw_extra} ip local interface GigabitEthernet0/1
crypto ipsec transform-set TS esp-aes 256 esp-sha-hmac
crypto map WAN 10 ipsec-isakmp
 set peer {map_peer}
 set transform-set TS
 match address PW
ip access-list extended PW
{acl}
interface GigabitEthernet0/1
 ip address 198.51.100.1 255.255.255.252
 crypto map WAN
interface GigabitEthernet0/0.10
 encapsulation dot1Q 10
 xconnect {peer} 10 pw-class pw
ip route 0.0.0.0 0.0.0.0 198.51.100.2
"""


def _mapped(acl: str, peer: str = "203.0.113.2", map_peer: str = "", pw_extra: str = "") -> str:
    return _MAPPED.format(acl=acl, peer=peer, map_peer=map_peer or peer, pw_extra=pw_extra)


L2T024 = [
    device(
        "L2T024",
        "fails",
        "public-peer-and-no-crypto-map-on-the-way-out",
        _CLEAR.format(peer="203.0.113.2"),
        (8, 2),
    ),
    device(
        "L2T024",
        "passes",
        "crypto-map-permits-protocol-115-to-the-peer",
        _mapped(" permit 115 host 198.51.100.1 host 203.0.113.2"),
        absent=("L2T025",),
    ),
    device(
        "L2T024",
        "boundary",
        "private-peer-is-not-checked",
        _CLEAR.format(peer="10.255.0.2"),
    ),
    device(
        "L2T024",
        "boundary",
        "rfc-6598-shared-address-is-not-public",
        _CLEAR.format(peer="100.64.0.2"),
    ),
    device(
        "L2T024",
        "boundary",
        "first-address-after-172-16-12-is-public",
        _CLEAR.format(peer="172.32.0.2"),
        (8, 2),
    ),
    device(
        "L2T024",
        "boundary",
        "crypto-acl-for-any-any-that-denies-115-first",
        _mapped(" deny 115 any any\n permit ip any any", map_peer="192.0.2.50"),
        (17, 2),
        absent=("L2T025",),
    ),
    device(
        "L2T024",
        "boundary",
        "no-route-known-and-no-ipsec-anywhere",
        """
        pseudowire-class pw
         encapsulation l2tpv3
         ip local interface Loopback0
        interface Loopback0
         ip address 198.51.100.9 255.255.255.255
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 203.0.113.2 10 pw-class pw
        """,
        (8, 2),
    ),
    device(
        "L2T024",
        "boundary",
        "undefined-pw-class-is-left-to-l2t006",
        _CLEAR.format(peer="203.0.113.2").replace(" pw-class pw\n", " pw-class missing\n"),
    ),
    device(
        "L2T024",
        "passes",
        "route-to-the-peer-through-a-protected-tunnel",
        """
        pseudowire-class pw
         encapsulation l2tpv3
         ip local interface Loopback0
        interface Loopback0
         ip address 198.51.100.9 255.255.255.255
        interface Tunnel1
         ip address 192.168.255.1 255.255.255.252
         tunnel protection ipsec profile VTI
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 203.0.113.2 10 pw-class pw
        ip route 203.0.113.2 255.255.255.255 Tunnel1
        """,
    ),
]


@pytest.mark.parametrize("case", params(L2T024))
def test_l2t024_flags_a_pseudowire_to_a_public_peer_that_leaves_without_ipsec(case: Case) -> None:
    check(case)


L2T025 = [
    device(
        "L2T025",
        "fails",
        "crypto-acl-matches-udp-1701-but-the-class-sends-protocol-115",
        _mapped(" permit udp host 198.51.100.1 host 203.0.113.2 eq 1701"),
        (10, 2),
        absent=("L2T024",),
    ),
    device(
        "L2T025",
        "passes",
        "crypto-acl-matches-protocol-115",
        _mapped(" permit 115 host 198.51.100.1 host 203.0.113.2"),
    ),
    device(
        "L2T025",
        "passes",
        "crypto-acl-permits-ip-between-the-two-ends",
        _mapped(" permit ip host 198.51.100.1 host 203.0.113.2"),
    ),
    device(
        "L2T025",
        "boundary",
        "private-peer-is-checked-too",
        _mapped(" permit udp host 198.51.100.1 host 10.255.0.2 eq 1701", peer="10.255.0.2"),
        (10, 2),
    ),
    device(
        "L2T025",
        "boundary",
        "ip-protocol-uti-class-is-not-matched-by-115",
        _mapped(" permit 115 host 198.51.100.1 host 203.0.113.2", pw_extra=" ip protocol uti\n"),
        (11, 2),
    ),
    device(
        "L2T025",
        "boundary",
        "deny-naming-both-ends-before-a-permit",
        _mapped(" deny ip host 198.51.100.1 host 203.0.113.2\n permit ip any any"),
        (10, 2),
    ),
    device(
        "L2T025",
        "boundary",
        "map-to-the-peer-whose-acl-covers-only-the-lans",
        _mapped(" permit ip 192.168.1.0 0.0.0.255 192.168.2.0 0.0.0.255"),
        (8, 2),
    ),
]


@pytest.mark.parametrize("case", params(L2T025))
def test_l2t025_flags_a_crypto_acl_that_lets_the_pseudowire_out_in_clear(case: Case) -> None:
    check(case)


def _filtered(entries: str, peer: str = "203.0.113.2") -> str:
    return (
        _CLEAR.format(peer=peer).replace(
            " ip address 198.51.100.1 255.255.255.252\n",
            " ip address 198.51.100.1 255.255.255.252\n ip access-group WAN-IN in\n",
        )
        + f"ip access-list extended WAN-IN\n{entries}\n"
    )


L2T026 = [
    device(
        "L2T026",
        "fails",
        "wan-port-without-inbound-access-list",
        _CLEAR.format(peer="203.0.113.2"),
        (4, 1),
    ),
    device(
        "L2T026",
        "fails",
        "inbound-access-list-permits-115-from-any",
        _filtered(" permit 115 any host 198.51.100.1\n permit ip any any"),
        (12, 2),
    ),
    device(
        "L2T026",
        "passes",
        "inbound-access-list-admits-115-from-the-peer-only",
        _filtered(
            " permit 115 host 203.0.113.2 host 198.51.100.1\n deny 115 any any\n permit ip any any"
        ),
    ),
    device(
        "L2T026",
        "boundary",
        "peer-entry-then-permit-ip-any-any",
        _filtered(" permit 115 host 203.0.113.2 host 198.51.100.1\n permit ip any any"),
        (13, 2),
    ),
    device(
        "L2T026",
        "boundary",
        "permit-115-from-any-to-another-address-only",
        _filtered(" permit 115 any host 198.51.100.2\n deny ip any any"),
    ),
    device(
        "L2T026",
        "boundary",
        "private-peer-is-not-checked",
        _CLEAR.format(peer="10.255.0.2"),
    ),
    device(
        "L2T026",
        "boundary",
        "wan-port-in-a-zone-based-firewall-zone",
        _CLEAR.format(peer="203.0.113.2").replace(
            " ip address 198.51.100.1 255.255.255.252\n",
            " ip address 198.51.100.1 255.255.255.252\n zone-member security OUTSIDE\n",
        ),
    ),
]


@pytest.mark.parametrize("case", params(L2T026))
def test_l2t026_flags_a_wan_interface_that_admits_l2tpv3_from_any_source(case: Case) -> None:
    check(case)


# Two PEs with loopbacks 10.255.0.{me,you} on a 198.51.100.0/30 link; {crypto} is empty (no
# IPsec) or a crypto map whose access list has {entry}.
_END = """
pseudowire-class pw
 encapsulation l2tpv3
 ip local interface Loopback0
interface Loopback0
 ip address 10.255.0.{me} 255.255.255.255
{crypto}interface GigabitEthernet0/1
 ip address 198.51.100.{me} 255.255.255.252
{applied}interface GigabitEthernet0/0.10
 encapsulation dot1Q 10
 xconnect 10.255.0.{you} 10 pw-class pw
ip route 10.255.0.{you} 255.255.255.255 198.51.100.{you}
"""
_CRYPTO = """crypto ipsec transform-set TS esp-gcm 256
 mode transport
crypto map WAN 10 ipsec-isakmp
 set peer 198.51.100.{you}
 set transform-set TS
 match address PW
ip access-list extended PW
 {entry}
"""


def _end(me: int, you: int, entry: str = "") -> str:
    crypto = _CRYPTO.format(you=you, entry=entry) if entry else ""
    applied = " crypto map WAN\n" if entry else ""
    return _END.format(me=me, you=you, crypto=crypto, applied=applied)


_A_PROTECTED = _end(1, 2, "permit 115 host 10.255.0.1 host 10.255.0.2")

# The same PE whose pseudowires leave through a GRE tunnel with `tunnel protection` (routed to
# the peer's loopback over Tunnel0): IPsec takes them without any crypto map (issue 25, item 11).
_VIA_PROTECTED_TUNNEL = """
pseudowire-class pw
 encapsulation l2tpv3
 ip local interface Loopback0
interface Loopback0
 ip address 10.255.0.{me} 255.255.255.255
interface Tunnel0
 ip address 172.16.0.{me} 255.255.255.252
 tunnel source GigabitEthernet0/1
 tunnel destination 198.51.100.{you}
 tunnel protection ipsec profile P
interface GigabitEthernet0/1
 ip address 198.51.100.{me} 255.255.255.252
interface GigabitEthernet0/0.10
 encapsulation dot1Q 10
 xconnect 10.255.0.{you} 10 pw-class pw
ip route 10.255.0.{you} 255.255.255.255 Tunnel0
"""

L2T107 = [
    fleet(
        "L2T107",
        "fails",
        "one-end-encrypts-the-other-has-no-crypto-map",
        {"a.conf": _A_PROTECTED, "b.conf": _end(2, 1)},
        ("b.conf", 10, 2),
    ),
    fleet(
        "L2T107",
        "passes",
        "both-ends-encrypt-with-mirrored-access-lists",
        {
            "a.conf": _A_PROTECTED,
            "b.conf": _end(2, 1, "permit 115 host 10.255.0.2 host 10.255.0.1"),
        },
    ),
    fleet(
        "L2T107",
        "boundary",
        "the-other-ends-crypto-acl-misses-the-pseudowire",
        {
            "a.conf": _A_PROTECTED,
            "b.conf": _end(2, 1, "permit udp host 10.255.0.2 host 10.255.0.1 eq 1701"),
        },
        ("b.conf", 19, 2),
    ),
    fleet(
        "L2T107",
        "fails",
        "one-end-leaves-by-a-tunnel-protection-interface-the-other-in-clear",
        {"a.conf": _VIA_PROTECTED_TUNNEL.format(me=1, you=2), "b.conf": _end(2, 1)},
        ("b.conf", 10, 2),
    ),
    fleet(
        "L2T107",
        "passes",
        "both-ends-leave-by-tunnel-protection-interfaces",
        {
            "a.conf": _VIA_PROTECTED_TUNNEL.format(me=1, you=2),
            "b.conf": _VIA_PROTECTED_TUNNEL.format(me=2, you=1),
        },
    ),
    fleet(
        "L2T107",
        "boundary",
        "neither-end-encrypts",
        {"a.conf": _end(1, 2), "b.conf": _end(2, 1)},
    ),
]


@pytest.mark.parametrize("case", params(L2T107))
def test_l2t107_flags_the_end_that_sends_in_clear_when_the_other_encrypts(case: Case) -> None:
    check(case)


# A router whose WAN terminates a GRE-over-IPsec tunnel (tunnel protection) to 203.0.113.80 and
# carries a pseudowire to 203.0.113.2, the WAN's inbound list given as {entries} (issue 25).
_VPN_AND_FILTER = """
interface Tunnel10
 ip address 172.31.0.1 255.255.255.252
 tunnel source GigabitEthernet0/1
 tunnel destination 203.0.113.80
 tunnel protection ipsec profile CORP
interface GigabitEthernet0/1
 ip address 198.51.100.1 255.255.255.252
 ip access-group WAN-IN in
ip access-list extended WAN-IN
 permit 115 host 203.0.113.2 host 198.51.100.1
{entries}
"""
_ADMIT_TUNNEL_PEER = " permit esp host 203.0.113.80 any\n permit udp host 203.0.113.80 any eq 500\n"
_CRYPTO_MAP_PEER = """
crypto map CORP 10 ipsec-isakmp
 set peer 192.0.2.50
interface GigabitEthernet0/2
 ip address 192.0.2.1 255.255.255.0
 ip access-group EDGE in
 crypto map CORP
ip access-list extended EDGE
 permit udp host 192.0.2.50 any eq 500
 deny ip any any
"""

L2T028 = [
    device(
        "L2T028",
        "fails",
        "deny-esp-any-any-cuts-a-tunnel-protection-peer",
        _VPN_AND_FILTER.format(entries=" deny esp any any\n permit ip any any"),
        (11, 2),
    ),
    device(
        "L2T028",
        "passes",
        "the-tunnel-peer-is-permitted-above-the-deny",
        _VPN_AND_FILTER.format(
            entries=_ADMIT_TUNNEL_PEER + " deny esp any any\n permit ip any any"
        ),
    ),
    device(
        "L2T028",
        "boundary",
        "no-entry-matches-esp-the-implicit-deny-is-at-the-access-group-line",
        _VPN_AND_FILTER.format(entries=""),
        (8, 2),
    ),
    device(
        "L2T028",
        "fails",
        "a-crypto-map-peer-allowed-ike-but-not-esp",
        _CRYPTO_MAP_PEER,
        (9, 2),
    ),
    device(
        "L2T028",
        "boundary",
        "dmvpn-mgre-has-no-fixed-peer-to-judge",
        _VPN_AND_FILTER.format(entries=" deny esp any any\n permit ip any any").replace(
            " tunnel destination 203.0.113.80\n", " tunnel mode gre multipoint\n"
        ),
    ),
    device(
        "L2T028",
        "fails",
        "loopback-sourced-tunnel-esp-arrives-by-the-route-to-its-peer",
        _VPN_AND_FILTER.format(entries=" deny esp any any\n permit ip any any").replace(
            " tunnel source GigabitEthernet0/1\n", " tunnel source Loopback0\n"
        )
        + "interface Loopback0\n ip address 10.255.0.1 255.255.255.255\n"
        + "ip route 0.0.0.0 0.0.0.0 198.51.100.2\n",
        (11, 2),
    ),
    device(
        "L2T028",
        "boundary",
        "an-object-group-entry-first-gives-no-answer",
        _VPN_AND_FILTER.format(
            entries=" permit esp object-group VPN-PEERS any\n deny esp any any\n permit ip any any"
        ),
    ),
    device(
        "L2T028",
        "boundary",
        "esp-permitted-to-the-tunnel-source-address-only",
        _VPN_AND_FILTER.format(
            entries=" permit esp host 203.0.113.80 host 198.51.100.1\n deny esp any any"
        ),
    ),
]


@pytest.mark.parametrize("case", params(L2T028))
def test_l2t028_flags_an_inbound_filter_that_denies_esp_from_a_vpn_peer_of_the_router(
    case: Case,
) -> None:
    check(case)


CASES = {
    "L2T024": L2T024,
    "L2T025": L2T025,
    "L2T026": L2T026,
    "L2T028": L2T028,
    "L2T107": L2T107,
}
