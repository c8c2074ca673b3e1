"""Rules about the interfaces pseudowire traffic crosses (L2T004, L2T017), case by case.

Every expectation below was worked out by reading the rule's documentation and the snippet.
"""

from __future__ import annotations

import pytest
from lint_cases import Case, check, device, params

L2T004 = [
    device(
        "L2T004",
        "fails",
        "trunk-of-a-circuit-on-classic-ios-without-hold-queues",
        """
        version 15.9
        !
        interface GigabitEthernet0/0
         no ip address
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
        (3, 1),
    ),
    device(
        "L2T004",
        "passes",
        "pseudowire-ports-with-hold-queues-and-an-unrelated-port-without",
        """
        version 15.9
        !
        interface GigabitEthernet0/0
         no ip address
         hold-queue 2048 in
         hold-queue 2048 out
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        !
        interface GigabitEthernet0/2
         ip address 192.168.1.1 255.255.255.0
        """,
    ),
    device(
        "L2T004",
        "boundary",
        "ios-xe-version-16-9-is-not-checked",
        """
        version 16.9
        !
        interface GigabitEthernet0/0
         no ip address
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T004",
        "boundary",
        "site-platform-iosxe-is-not-checked",
        """
        version 15.9
        !
        interface GigabitEthernet0/0
         no ip address
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
        platform="iosxe",
    ),
    device(
        "L2T004",
        "boundary",
        "ios-xe-port-naming-is-not-checked",
        """
        interface GigabitEthernet1
         no ip address
        interface GigabitEthernet1.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T004",
        "boundary",
        "hold-queue-in-alone-leaves-out-at-the-default",
        """
        version 15.9
        !
        interface GigabitEthernet0/0
         no ip address
         hold-queue 2048 in
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
        (3, 1),
    ),
    device(
        "L2T004",
        "boundary",
        "default-values-written-out-are-a-deliberate-choice",
        """
        interface GigabitEthernet0/0
         hold-queue 75 in
         hold-queue 40 out
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T004",
        "boundary",
        "port-a-static-route-sends-peer-traffic-through",
        """
        pseudowire-class pw
         encapsulation l2tpv3
         ip local interface Loopback0
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0
         hold-queue 2048 in
         hold-queue 2048 out
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class pw
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
        ip route 10.255.0.2 255.255.255.255 198.51.100.2
        """,
        (12, 1),
    ),
    device(
        "L2T004",
        "boundary",
        "serial-attachment-circuit-counts",
        """
        interface Serial0/0/0
         no ip address
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
        (1, 1),
    ),
    device(
        "L2T004",
        "boundary",
        "port-that-routes-to-the-peer-past-a-physical-tunnel-source",
        """
        pseudowire-class pw
         encapsulation l2tpv3
         ip local interface GigabitEthernet0/1
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
         hold-queue 2048 in
         hold-queue 2048 out
        interface GigabitEthernet0/2
         ip address 192.0.2.1 255.255.255.252
        interface GigabitEthernet0/0
         hold-queue 2048 in
         hold-queue 2048 out
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 203.0.113.2 10 encapsulation l2tpv3 pw-class pw
        ip route 203.0.113.0 255.255.255.0 192.0.2.2
        """,
        (8, 1),
    ),
]


@pytest.mark.parametrize("case", params(L2T004))
def test_l2t004_reports_a_classic_ios_pseudowire_port_with_default_hold_queues(case: Case) -> None:
    check(case)


L2T017 = [
    device(
        "L2T017",
        "fails",
        "tunnel-source-towards-the-peer-without-cef",
        """
        pseudowire-class pw
         encapsulation l2tpv3
         ip local interface GigabitEthernet0/1
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 pw-class pw
        interface GigabitEthernet0/1
         ip address 192.0.2.1 255.255.255.252
         no ip route-cache cef
        """,
        (9, 2),
    ),
    device(
        "L2T017",
        "passes",
        "tunnel-source-with-cef",
        """
        pseudowire-class pw
         encapsulation l2tpv3
         ip local interface GigabitEthernet0/1
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 pw-class pw
        interface GigabitEthernet0/1
         ip address 192.0.2.1 255.255.255.252
         ip route-cache cef
        """,
    ),
    device(
        "L2T017",
        "boundary",
        "no-route-cache-at-all-on-the-circuit",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         no ip route-cache
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
        (3, 2),
    ),
    device(
        "L2T017",
        "boundary",
        "trunk-of-the-circuit-without-cef",
        """
        interface GigabitEthernet0/0
         no ip address
         no ip route-cache cef
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
        (3, 2),
    ),
    device(
        "L2T017",
        "boundary",
        "port-a-static-route-sends-peer-traffic-through",
        """
        pseudowire-class pw
         encapsulation l2tpv3
         ip local interface Loopback0
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class pw
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
         no ip route-cache cef
        ip route 10.255.0.0 255.255.255.0 198.51.100.2
        """,
        (11, 2),
    ),
    device(
        "L2T017",
        "boundary",
        "port-without-pseudowire-traffic-may-be-process-switched",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        interface GigabitEthernet0/2
         ip address 192.168.1.1 255.255.255.0
         no ip route-cache cef
        """,
    ),
    device(
        "L2T017",
        "boundary",
        "port-that-routes-to-the-peer-past-a-physical-tunnel-source",
        """
        pseudowire-class pw
         encapsulation l2tpv3
         ip local interface GigabitEthernet0/1
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
        interface GigabitEthernet0/2
         ip address 192.0.2.1 255.255.255.252
         no ip route-cache cef
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 203.0.113.2 10 encapsulation l2tpv3 pw-class pw
        ip route 203.0.113.0 255.255.255.0 192.0.2.2
        """,
        (8, 2),
    ),
    # Longest prefix first (Cisco, "Route Selection in Cisco Routers", document 8651:
    # https://www.cisco.com/c/en/us/support/docs/ip/enhanced-interior-gateway-routing-protocol-eigrp/8651-21.html):
    # with a default route and a /24 covering the peer's loopback, the peer's traffic leaves
    # by the /24's interface, whichever route line comes first.
    device(
        "L2T017",
        "boundary",
        "the-more-specific-route-wins-over-a-default-listed-first",
        """
        pseudowire-class pw
         encapsulation l2tpv3
         ip local interface Loopback0
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class pw
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
        interface GigabitEthernet0/2
         ip address 192.0.2.1 255.255.255.252
         no ip route-cache cef
        ip route 0.0.0.0 0.0.0.0 198.51.100.2
        ip route 10.255.0.0 255.255.255.0 192.0.2.2
        """,
        (13, 2),
    ),
    device(
        "L2T017",
        "boundary",
        "the-more-specific-route-wins-over-a-default-listed-after",
        """
        pseudowire-class pw
         encapsulation l2tpv3
         ip local interface Loopback0
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class pw
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
        interface GigabitEthernet0/2
         ip address 192.0.2.1 255.255.255.252
         no ip route-cache cef
        ip route 10.255.0.0 255.255.255.0 192.0.2.2
        ip route 0.0.0.0 0.0.0.0 198.51.100.2
        """,
        (13, 2),
    ),
    device(
        "L2T017",
        "passes",
        "the-default-routes-port-is-not-on-the-way-to-a-more-specific-peer",
        """
        pseudowire-class pw
         encapsulation l2tpv3
         ip local interface Loopback0
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class pw
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
         no ip route-cache cef
        interface GigabitEthernet0/2
         ip address 192.0.2.1 255.255.255.252
        ip route 0.0.0.0 0.0.0.0 198.51.100.2
        ip route 10.255.0.0 255.255.255.0 192.0.2.2
        """,
    ),
    device(
        "L2T017",
        "boundary",
        "a-static-host-route-wins-over-a-connected-subnet",
        # Longest prefix before administrative distance, connected routes included (document
        # 8651 above): the /32 static route sends the peer's traffic out of Gi0/2, not Gi0/1.
        """
        pseudowire-class pw
         encapsulation l2tpv3
         ip local interface Loopback0
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 203.0.113.2 10 encapsulation l2tpv3 pw-class pw
        interface GigabitEthernet0/1
         ip address 203.0.113.1 255.255.255.0
        interface GigabitEthernet0/2
         ip address 192.0.2.1 255.255.255.252
         no ip route-cache cef
        ip route 203.0.113.2 255.255.255.255 192.0.2.2
        """,
        (13, 2),
    ),
]


@pytest.mark.parametrize("case", params(L2T017))
def test_l2t017_flags_cef_switched_off_where_pseudowire_traffic_passes(case: Case) -> None:
    check(case)


CASES = {"L2T004": L2T004, "L2T017": L2T017}
