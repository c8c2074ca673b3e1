"""Rules about pseudowire-class settings (L2T002, L2T003, L2T009, L2T010, L2T014), case by case.

Every expectation below was worked out by reading the rule's documentation and the snippet.
"""

from __future__ import annotations

import pytest
from lint_cases import MPLS_IS_OUT_OF_SCOPE, Case, check, device, params

L2T002 = [
    device(
        "L2T002",
        "fails",
        "dynamic-class-without-ip-pmtu-next-to-one-with-it",
        """
        pseudowire-class good
         encapsulation l2tpv3
         ip pmtu
        !
        pseudowire-class ethernet
         encapsulation l2tpv3
         protocol l2tpv3 class1
         ip local interface Loopback0
         ip dfbit set
        """,
        (5, 1),
    ),
    device(
        "L2T002",
        "passes",
        "dynamic-class-with-ip-pmtu",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         protocol l2tpv3 class1
         ip local interface Loopback0
         ip pmtu
         ip dfbit set
        """,
    ),
    device(
        "L2T002",
        "boundary",
        "static-class-has-no-path-mtu-discovery-to-turn-on",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface Loopback0
         ip dfbit set
        """,
    ),
    device(
        "L2T002",
        "boundary",
        "class-without-a-protocol-line-signals",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         ip local interface Loopback0
        """,
        (1, 1),
    ),
    device(
        "L2T002",
        "boundary",
        "mpls-class-is-out-of-scope",
        """
        pseudowire-class atom
         encapsulation mpls
        """,
        absent=MPLS_IS_OUT_OF_SCOPE,
    ),
]


@pytest.mark.parametrize("case", params(L2T002))
def test_l2t002_flags_a_signalled_class_without_ip_pmtu(case: Case) -> None:
    check(case)


L2T003 = [
    device(
        "L2T003",
        "fails",
        "class-without-ip-dfbit-set",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         protocol l2tpv3 class1
         ip pmtu
        """,
        (1, 1),
    ),
    device(
        "L2T003",
        "passes",
        "class-with-ip-dfbit-set",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         protocol l2tpv3 class1
         ip pmtu
         ip dfbit set
        """,
    ),
    device(
        "L2T003",
        "boundary",
        "static-class-needs-the-df-bit-too",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
        """,
        (1, 1),
    ),
    device(
        "L2T003",
        "boundary",
        "abbreviated-ip-df-set-counts",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         ip df set
        """,
    ),
    device(
        "L2T003",
        "boundary",
        "mpls-class-is-out-of-scope",
        """
        pseudowire-class atom
         encapsulation mpls
        """,
        absent=MPLS_IS_OUT_OF_SCOPE,
    ),
]


@pytest.mark.parametrize("case", params(L2T003))
def test_l2t003_flags_a_class_that_does_not_set_the_df_bit(case: Case) -> None:
    check(case)


L2T009 = [
    device(
        "L2T009",
        "fails",
        "tunnel-source-not-in-the-config",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         ip local interface Loopback0
        """,
        (3, 2),
    ),
    device(
        "L2T009",
        "fails",
        "class-without-ip-local-interface",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         protocol l2tpv3
        """,
        (1, 1),
    ),
    device(
        "L2T009",
        "passes",
        "tunnel-source-with-an-address",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         ip local interface Loopback0
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        """,
    ),
    device(
        "L2T009",
        "boundary",
        "tunnel-source-present-without-an-address",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         ip local interface Loopback0
        interface Loopback0
         no ip address
        """,
        (3, 2),
    ),
    device(
        "L2T009",
        "boundary",
        "abbreviated-tunnel-source-names-the-same-interface",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         ip local interface Lo0
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        """,
    ),
]


@pytest.mark.parametrize("case", params(L2T009))
def test_l2t009_flags_a_tunnel_source_missing_or_without_an_address(case: Case) -> None:
    check(case)


L2T010 = [
    device(
        "L2T010",
        "fails",
        "ip-pmtu-with-protocol-none",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface Loopback0
         ip pmtu
        """,
        (5, 2),
    ),
    device(
        "L2T010",
        "passes",
        "static-class-without-ip-pmtu",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
         ip local interface Loopback0
        """,
    ),
    device(
        "L2T010",
        "boundary",
        "ip-pmtu-with-signalling-is-fine",
        """
        pseudowire-class dynamic
         encapsulation l2tpv3
         protocol l2tpv3
         ip pmtu
        """,
    ),
    device(
        "L2T010",
        "boundary",
        "ip-pmtu-written-before-protocol-none",
        """
        pseudowire-class static
         encapsulation l2tpv3
         ip pmtu
         protocol none
        """,
        (3, 2),
    ),
]


@pytest.mark.parametrize("case", params(L2T010))
def test_l2t010_flags_ip_pmtu_on_static_sessions(case: Case) -> None:
    check(case)


L2T014 = [
    device(
        "L2T014",
        "fails",
        "tunnels-sourced-from-the-wan-port",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         ip local interface GigabitEthernet0/1
        """,
        (3, 2),
    ),
    device(
        "L2T014",
        "passes",
        "tunnels-sourced-from-a-loopback",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         ip local interface Loopback0
        """,
    ),
    device(
        "L2T014",
        "boundary",
        "abbreviated-loopback-is-a-loopback",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         ip local interface lo0
        """,
    ),
    device(
        "L2T014",
        "boundary",
        "no-tunnel-source-at-all-is-l2t009s-business",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
        """,
    ),
]


@pytest.mark.parametrize("case", params(L2T014))
def test_l2t014_reports_a_tunnel_source_that_is_not_a_loopback(case: Case) -> None:
    check(case)


CASES = {"L2T002": L2T002, "L2T003": L2T003, "L2T009": L2T009, "L2T010": L2T010, "L2T014": L2T014}
