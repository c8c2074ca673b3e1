"""The MTU budget (L2T013), case by case.

Every expectation below was worked out by reading the rule's documentation and the snippet; the
byte counts are `l2tpgen mtu`'s documented budget added up by hand: outer IPv4 20, session ID 4,
the cookie, the inner Ethernet header 14 (HDLC/PPP 4 on a serial circuit), 4 more for a dot1Q tag
on a subinterface, 73 for IPsec on the WAN; the WAN is 1500 bytes unless its `mtu` says otherwise
(a GRE tunnel's default is 1476).
"""

from __future__ import annotations

import pytest
from lint_cases import Case, check, device, lint_case, params

# A static pseudowire to 203.0.113.2 from the WAN port, whose crypto map (transform set and mode
# as given) protects what {acl} permits; the AC is the untagged port Gi0/0 with MTU {mtu}. ESP
# bytes by hand (RFC 4303): transport GCM at 1500 = 8 + 8 (IV) + 2 + 16 (ICV) = 34, padding 0;
# tunnel AES-CBC + SHA-1 at 1500 = 20 + 8 + 16 + 2 + 12 = 58 fixed, 1442 bytes left, 1438 the
# largest whose 1438 + 2 is a multiple of 16: 62.
_ESP = """
pseudowire-class static
 encapsulation l2tpv3
 protocol none
 ip local interface GigabitEthernet0/1
crypto ipsec transform-set TS {transform}
{mode}crypto map WAN 10 ipsec-isakmp
 set peer 203.0.113.2
 set transform-set TS
 match address PW
ip access-list extended PW
{acl}
interface GigabitEthernet0/1
 ip address 198.51.100.1 255.255.255.252
 crypto map WAN
interface GigabitEthernet0/0
 mtu {mtu}
 xconnect 203.0.113.2 10 encapsulation l2tpv3 manual pw-class static
  l2tp id 1010 2010
"""
_PW_115 = " permit 115 host 198.51.100.1 host 203.0.113.2"
_PW_UDP = " permit udp host 198.51.100.1 host 203.0.113.2 eq 1701"

L2T013 = [
    device(
        "L2T013",
        "fails",
        "static-session-one-byte-over-the-budget",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface Loopback0
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         mtu 1455
         xconnect 10.255.0.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 1010 2010
          l2tp cookie local 4 1111
          l2tp cookie remote 4 2222
        """,
        (10, 2),
    ),
    device(
        "L2T013",
        "passes",
        "static-session-exactly-at-the-budget",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface Loopback0
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         mtu 1454
         xconnect 10.255.0.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 1010 2010
          l2tp cookie local 4 1111
          l2tp cookie remote 4 2222
        """,
    ),
    device(
        "L2T013",
        "fails",
        "dynamic-class-without-ip-pmtu-at-the-default-mtu",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         protocol l2tpv3
         ip local interface Loopback0
         ip dfbit set
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class ethernet
        """,
        (8, 2),
    ),
    device(
        "L2T013",
        "passes",
        "dynamic-class-with-ip-pmtu",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         protocol l2tpv3
         ip local interface Loopback0
         ip pmtu
         ip dfbit set
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class ethernet
        """,
    ),
    device(
        "L2T013",
        "boundary",
        "ip-pmtu-does-not-rescue-a-static-session",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface Loopback0
         ip pmtu
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         mtu 1455
         xconnect 10.255.0.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 1010 2010
          l2tp cookie local 4 1111
          l2tp cookie remote 4 2222
        """,
        (9, 2),
    ),
    device(
        "L2T013",
        "boundary",
        "ipsec-on-the-wan-costs-73-bytes",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface GigabitEthernet0/1
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
         crypto map VPN
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         mtu 1454
         xconnect 198.51.100.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 1010 2010
          l2tp cookie local 4 1111
          l2tp cookie remote 4 2222
        """,
        (11, 2),
    ),
    device(
        "L2T013",
        "boundary",
        "ipsec-on-the-wan-exactly-at-the-budget",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface GigabitEthernet0/1
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
         crypto map VPN
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         mtu 1381
         xconnect 198.51.100.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 1010 2010
          l2tp cookie local 4 1111
          l2tp cookie remote 4 2222
        """,
    ),
    device(
        "L2T013",
        "boundary",
        "ipsec-on-the-wan-one-byte-over",
        # 1500 - (73 IPsec + 20 IPv4 + 4 session + 4 cookie + 14 Ethernet + 4 dot1Q = 119)
        # = 1381 fits (the case above); 1382 does not. 73 is mtu.py's ESP tunnel-mode constant:
        # issue 18 computes ESP from mode and transform, so update these two MTUs with it.
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface GigabitEthernet0/1
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
         crypto map VPN
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         mtu 1382
         xconnect 198.51.100.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 1010 2010
          l2tp cookie local 4 1111
          l2tp cookie remote 4 2222
        """,
        (11, 2),
    ),
    device(
        "L2T013",
        "boundary",
        "tunnel-protection-on-a-gre-wan-exactly-at-the-budget",
        # a GRE tunnel's default 1476 - (73 + 20 + 4 + 14 + 4 = 115, no cookie) = 1361
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface Tunnel0
        interface Tunnel0
         ip address 172.16.0.1 255.255.255.252
         tunnel protection ipsec profile PROT
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         mtu 1361
         xconnect 172.16.0.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 1010 2010
        """,
    ),
    device(
        "L2T013",
        "boundary",
        "tunnel-protection-on-a-gre-wan-one-byte-over",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface Tunnel0
        interface Tunnel0
         ip address 172.16.0.1 255.255.255.252
         tunnel protection ipsec profile PROT
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         mtu 1362
         xconnect 172.16.0.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 1010 2010
        """,
        (11, 2),
    ),
    device(
        "L2T013",
        "boundary",
        "subinterface-without-mtu-takes-its-ports-mtu-at-the-budget",
        # no `mtu` on Gi0/0.10: IOS gives a subinterface its main interface's MTU, here 1458:
        # 1500 - (20 IPv4 + 4 session + 14 Ethernet + 4 dot1Q = 42) = 1458 fits. Read as the
        # 1500 default instead, it would be reported.
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface Loopback0
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0
         mtu 1458
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 1010 2010
        """,
    ),
    device(
        "L2T013",
        "boundary",
        "subinterface-without-mtu-takes-its-ports-mtu-one-byte-over",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface Loopback0
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0
         mtu 1459
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 1010 2010
        """,
        (11, 2),
    ),
    device(
        "L2T013",
        "boundary",
        "subinterface-own-mtu-wins-over-its-ports",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface Loopback0
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0
         mtu 9000
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         mtu 1458
         xconnect 10.255.0.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 1010 2010
        """,
    ),
    device(
        "L2T013",
        "boundary",
        "a-cookie-size-ios-refuses-counts-as-no-cookie",
        # IOS takes 4 or 8 only; a hand-written 6 is another rule's business, and the budget
        # counts no cookie: 1500 - 42 = 1458 fits (instead of a crash on an impossible size)
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface Loopback0
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         mtu 1458
         xconnect 10.255.0.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 1010 2010
          l2tp cookie local 6 1111
          l2tp cookie remote 6 2222
        """,
    ),
    device(
        "L2T013",
        "boundary",
        "sequencing-adds-the-4-byte-sublayer-one-byte-over",
        # `sequencing both` sends the L2-specific sublayer (brief section 2):
        # 1500 - (20 + 4 session + 4 sublayer + 14 + 4 dot1Q = 46) = 1454 fits, 1455 does not
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface Loopback0
         sequencing both
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         mtu 1455
         xconnect 10.255.0.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 1010 2010
        """,
        (11, 2),
    ),
    device(
        "L2T013",
        "boundary",
        "untagged-port-exactly-at-a-1538-byte-wan",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         ip local interface GigabitEthernet0/1
        interface GigabitEthernet0/1
         mtu 1538
         ip address 198.51.100.1 255.255.255.252
        interface GigabitEthernet0/0
         xconnect 198.51.100.2 10 encapsulation l2tpv3 pw-class ethernet
        """,
    ),
    device(
        "L2T013",
        "boundary",
        "eight-byte-cookie-of-the-l2tp-class-one-byte-over",
        """
        l2tp-class cookies
         cookie size 8
        pseudowire-class ethernet
         encapsulation l2tpv3
         protocol l2tpv3 cookies
         ip local interface Loopback0
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         mtu 1451
         xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class ethernet
        """,
        (10, 2),
    ),
    device(
        "L2T013",
        "boundary",
        "gre-tunnel-wan-defaults-to-1476-one-byte-over",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         ip local interface Tunnel0
        interface Tunnel0
         ip address 172.16.0.1 255.255.255.252
        interface GigabitEthernet0/0
         mtu 1439
         xconnect 172.16.0.2 10 encapsulation l2tpv3 pw-class ethernet
        """,
        (8, 2),
    ),
    device(
        "L2T013",
        "boundary",
        "serial-circuit-with-its-4-byte-header-exactly-at-the-budget",
        """
        pseudowire-class hdlc
         encapsulation l2tpv3
         ip local interface Loopback0
        interface Serial0/0/0
         mtu 1472
         xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class hdlc
        """,
    ),
    device(
        "L2T013",
        "boundary",
        "undefined-pw-class-is-left-to-l2t006",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class missing
        """,
    ),
    device(
        "L2T013",
        "boundary",
        "esp-transport-gcm-exactly-at-the-1428-bytes-measured-in-the-lab",
        _ESP.format(mode=" mode transport\n", transform="esp-gcm 128", acl=_PW_115, mtu=1428),
    ),
    device(
        "L2T013",
        "fails",
        "esp-transport-gcm-one-byte-over",
        _ESP.format(mode=" mode transport\n", transform="esp-gcm 128", acl=_PW_115, mtu=1429),
        (18, 2),
    ),
    device(
        "L2T013",
        "boundary",
        "esp-tunnel-aes-cbc-sha1-at-1500-costs-62-one-byte-over",
        _ESP.format(mode="", transform="esp-aes 256 esp-sha-hmac", acl=_PW_115, mtu=1401),
        (17, 2),
    ),
    device(
        "L2T013",
        "boundary",
        "esp-tunnel-aes-cbc-sha1-at-1500-costs-62-exactly-at-the-budget",
        _ESP.format(mode="", transform="esp-aes 256 esp-sha-hmac", acl=_PW_115, mtu=1400),
    ),
    device(
        "L2T013",
        "boundary",
        "crypto-map-that-misses-the-pseudowire-adds-no-esp",
        _ESP.format(mode="", transform="esp-aes 256 esp-sha-hmac", acl=_PW_UDP, mtu=1462),
    ),
]


@pytest.mark.parametrize("case", params(L2T013))
def test_l2t013_flags_frames_that_cannot_cross_the_wan_unfragmented(case: Case) -> None:
    check(case)


def _named(name: str) -> Case:
    return next(case for case in L2T013 if case.name == name)


def test_l2t013_one_byte_over_the_ipsec_budget_says_how_many_bytes_and_the_mtu_that_fits() -> None:
    # 1382 + 119 (worked out above) = 1501 bytes on a 1500-byte WAN; the CE MTU that fits is
    # 1381, its TCP MSS 1381 - 40 (IPv4 and TCP headers) = 1341.
    (finding,) = [
        f for f in lint_case(_named("ipsec-on-the-wan-one-byte-over")) if f.code == "L2T013"
    ]
    assert finding.message.startswith(
        "1382-byte packets from GigabitEthernet0/0.10 need 1501 bytes on the 1500-byte WAN "
        "(IPsec on GigabitEthernet0/1: 73 bytes assumed"
    )
    assert finding.message.endswith("static sessions cannot use ip pmtu")
    assert finding.fix == "lower the CE MTU to 1381 (TCP MSS 1341)"


def test_l2t013_tells_a_dynamic_session_to_add_ip_pmtu_first() -> None:
    # 1500 + 42 (dot1Q subinterface, no cookie) = 1542 bytes; fits at 1458, TCP MSS 1418
    (finding,) = [
        f
        for f in lint_case(_named("dynamic-class-without-ip-pmtu-at-the-default-mtu"))
        if f.code == "L2T013"
    ]
    assert finding.message == (
        "1500-byte packets from GigabitEthernet0/0.10 need 1542 bytes on the 1500-byte WAN, "
        "and there is no ip pmtu"
    )
    assert finding.fix == "add `ip pmtu`, or lower the CE MTU to 1458 (TCP MSS 1418)"


def test_l2t013_names_the_ports_mtu_a_subinterface_without_one_takes() -> None:
    # 1459 + 42 = 1501 bytes; fits at 1458, TCP MSS 1418
    (finding,) = [
        f
        for f in lint_case(_named("subinterface-without-mtu-takes-its-ports-mtu-one-byte-over"))
        if f.code == "L2T013"
    ]
    assert finding.message.startswith(
        "1459-byte packets from GigabitEthernet0/0.10 need 1501 bytes on the 1500-byte WAN, "
    )
    assert finding.fix == "lower the CE MTU to 1458 (TCP MSS 1418)"


CASES = {"L2T013": L2T013}
