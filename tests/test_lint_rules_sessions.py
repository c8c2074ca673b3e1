"""Rules about how each session is set up (L2T018, L2T019, L2T020, L2T021), case by case.

Every expectation below was worked out by reading the rule's documentation and the snippet.
"""

from __future__ import annotations

import pytest
from lint_cases import MPLS_IS_OUT_OF_SCOPE, Case, check, device, params

L2T018 = [
    device(
        "L2T018",
        "fails",
        "protocol-none-class-on-a-plain-xconnect",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 pw-class static
        """,
        (6, 2),
    ),
    device(
        "L2T018",
        "passes",
        "complete-manual-session",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 10 10
        """,
    ),
    device(
        "L2T018",
        "boundary",
        "manual-without-l2tp-id",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 manual pw-class static
        """,
        (6, 2),
    ),
    device(
        "L2T018",
        "boundary",
        "signalled-class-needs-no-manual-session",
        """
        pseudowire-class dynamic
         encapsulation l2tpv3
         protocol l2tpv3
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 pw-class dynamic
        """,
    ),
]


@pytest.mark.parametrize("case", params(L2T018))
def test_l2t018_flags_a_protocol_none_xconnect_that_is_not_a_manual_session(case: Case) -> None:
    check(case)


L2T019 = [
    device(
        "L2T019",
        "fails",
        "manual-xconnect-on-an-l2tpv3-signalled-class",
        """
        pseudowire-class dynamic
         encapsulation l2tpv3
         protocol l2tpv3 class1
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 manual pw-class dynamic
          l2tp id 10 10
        """,
        (6, 2),
    ),
    device(
        "L2T019",
        "passes",
        "manual-xconnect-on-a-protocol-none-class",
        """
        pseudowire-class static
         encapsulation l2tpv3
         protocol none
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 manual pw-class static
          l2tp id 10 10
        """,
    ),
    device(
        "L2T019",
        "boundary",
        "class-without-a-protocol-line-is-not-flagged",
        """
        pseudowire-class bare
         encapsulation l2tpv3
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 manual pw-class bare
          l2tp id 10 10
        """,
    ),
    device(
        "L2T019",
        "boundary",
        "ietf-dialect-signals-too",
        """
        pseudowire-class dynamic
         encapsulation l2tpv3
         protocol l2tpv3ietf
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 manual pw-class dynamic
          l2tp id 10 10
        """,
        (6, 2),
    ),
]


@pytest.mark.parametrize("case", params(L2T019))
def test_l2t019_flags_a_manual_xconnect_on_a_signalling_class(case: Case) -> None:
    check(case)


L2T020 = [
    device(
        "L2T020",
        "fails",
        "peer-is-our-own-loopback",
        """
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.1 10 encapsulation l2tpv3 pw-class pw
        """,
        (5, 2),
    ),
    device(
        "L2T020",
        "passes",
        "peer-is-another-router",
        """
        interface Loopback0
         ip address 10.255.0.1 255.255.255.255
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T020",
        "boundary",
        "peer-in-our-connected-subnet-is-not-ours",
        """
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 198.51.100.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T020",
        "boundary",
        "peer-is-our-secondary-address",
        """
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
         ip address 203.0.113.1 255.255.255.0 secondary
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 203.0.113.1 10 encapsulation l2tpv3 pw-class pw
        """,
        (6, 2),
    ),
]


@pytest.mark.parametrize("case", params(L2T020))
def test_l2t020_flags_an_xconnect_to_the_router_itself(case: Case) -> None:
    check(case)


L2T021 = [
    device(
        "L2T021",
        "fails",
        "encapsulation-typed-12tpv3",
        """
        pseudowire-class ethernet
         encapsulation 12tpv3
         protocol l2tpv3
        """,
        (2, 2),
    ),
    device(
        "L2T021",
        "passes",
        "encapsulation-l2tpv3",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         protocol l2tpv3
        """,
    ),
    device(
        "L2T021",
        "boundary",
        "mpls-class-is-out-of-scope",
        """
        pseudowire-class atom
         encapsulation mpls
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 pw-class atom
        """,
        absent=MPLS_IS_OUT_OF_SCOPE,
    ),
    device(
        "L2T021",
        "boundary",
        "no-encapsulation-where-the-xconnect-has-none-either",
        """
        pseudowire-class ethernet
         protocol l2tpv3
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 pw-class ethernet
        """,
        (1, 1),
    ),
    device(
        "L2T021",
        "boundary",
        "no-encapsulation-where-the-xconnect-brings-its-own",
        """
        pseudowire-class ethernet
         protocol l2tpv3
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class ethernet
        """,
    ),
]


@pytest.mark.parametrize("case", params(L2T021))
def test_l2t021_flags_a_pw_class_without_a_valid_l2tpv3_encapsulation(case: Case) -> None:
    check(case)


CASES = {"L2T018": L2T018, "L2T019": L2T019, "L2T020": L2T020, "L2T021": L2T021}
