"""Which configs are a pseudowire's two ends (L2T101, L2T106), case by case.

Ends pair on evidence only: the peer address is another config's tunnel source, or another
config owns it and has the same VC ID back. A VC ID shared by two configs never pairs them. Every
expectation below was worked out by reading the rules' documentation and the snippets.
"""

from __future__ import annotations

import pytest
from lint_cases import Case, check, fleet, params

L2T101 = [
    fleet(
        "L2T101",
        "fails",
        "points-at-the-far-wan-address-not-its-loopback",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/1
             ip address 198.51.100.1 255.255.255.252
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 198.51.100.2 10 pw-class pw
            """,
            "b.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/1
             ip address 198.51.100.2 255.255.255.252
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 10 pw-class pw
            """,
        },
        ("a.conf", 10, 2),
        absent=("L2T102", "L2T106"),
    ),
    fleet(
        "L2T101",
        "fails",
        "both-ends-point-at-wan-addresses",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/1
             ip address 198.51.100.1 255.255.255.252
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 198.51.100.2 10 pw-class pw
            """,
            "b.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/1
             ip address 198.51.100.2 255.255.255.252
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 198.51.100.1 10 pw-class pw
            """,
        },
        ("a.conf", 10, 2),
        ("b.conf", 10, 2),
    ),
    fleet(
        "L2T101",
        "passes",
        "points-at-the-far-loopback",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 10 pw-class pw
            """,
            "b.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/1
             ip address 198.51.100.2 255.255.255.252
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 10 pw-class pw
            """,
        },
    ),
    fleet(
        "L2T101",
        "boundary",
        "far-end-with-no-xconnect-back-is-not-blamed",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 198.51.100.2 10 pw-class pw
            """,
            "b.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/1
             ip address 198.51.100.2 255.255.255.252
            """,
        },
    ),
    fleet(
        "L2T101",
        "boundary",
        "far-end-without-a-tunnel-source-sources-from-no-other-address",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 198.51.100.2 10 pw-class pw
            """,
            "b.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
            interface GigabitEthernet0/1
             ip address 198.51.100.2 255.255.255.252
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 10 pw-class pw
            """,
        },
    ),
]


@pytest.mark.parametrize("case", params(L2T101))
def test_l2t101_flags_an_xconnect_aimed_at_an_address_that_is_not_the_far_tunnel_source(
    case: Case,
) -> None:
    check(case)


L2T106 = [
    fleet(
        "L2T106",
        "fails",
        "peer-address-in-no-given-config",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.9 10 pw-class pw
            """,
            "b.conf": """
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            """,
        },
        ("a.conf", 8, 2),
    ),
    fleet(
        "L2T106",
        "passes",
        "both-ends-given",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 10 pw-class pw
            """,
            "b.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 10 pw-class pw
            """,
        },
    ),
    fleet(
        "L2T106",
        "boundary",
        "one-config-alone-is-not-a-fleet",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.9 10 pw-class pw
            """,
        },
    ),
    fleet(
        "L2T106",
        "boundary",
        "placeholder-peer",
        {
            "a.conf": """
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect <IP-OF-HQ> 10 encapsulation l2tpv3 pw-class pw
            """,
            "b.conf": """
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            """,
        },
        ("a.conf", 3, 2),
    ),
    fleet(
        "L2T106",
        "boundary",
        "owner-of-the-peer-address-has-no-xconnect-back",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 198.51.100.2 10 pw-class pw
            """,
            "b.conf": """
            interface GigabitEthernet0/1
             ip address 198.51.100.2 255.255.255.252
            interface GigabitEthernet0/0.20
             encapsulation dot1Q 20
             xconnect 10.255.0.1 20 encapsulation l2tpv3
            """,
        },
        ("a.conf", 8, 2),
    ),
    fleet(
        "L2T106",
        "boundary",
        "a-shared-vc-id-alone-never-pairs",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 192.0.2.9 100 pw-class pw
            """,
            "b.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
             ip pmtu
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.20
             encapsulation dot1Q 20
             xconnect 192.0.2.8 100 pw-class pw
            """,
        },
        ("a.conf", 8, 2),
        ("b.conf", 9, 2),
        absent=("L2T101", "L2T102", "L2T103", "L2T104", "L2T105"),
    ),
    fleet(
        "L2T106",
        "boundary",
        "tunnel-source-claimed-by-two-configs-neither-pointing-back",
        {
            "a.conf": """
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 10 encapsulation l2tpv3
            """,
            "b.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            """,
            "c.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            """,
        },
        ("a.conf", 3, 2),
        absent=("L2T102",),
    ),
    fleet(
        "L2T106",
        "boundary",
        "tunnel-source-claimed-by-two-configs-the-one-pointing-back-wins",
        {
            "a.conf": """
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 10 encapsulation l2tpv3
            """,
            "b.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            """,
            "c.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 10 pw-class pw
            """,
        },
        absent=("L2T102",),
    ),
]


@pytest.mark.parametrize("case", params(L2T106))
def test_l2t106_reports_an_xconnect_whose_other_end_is_not_among_the_configs(case: Case) -> None:
    check(case)


CASES = {"L2T101": L2T101, "L2T106": L2T106}
