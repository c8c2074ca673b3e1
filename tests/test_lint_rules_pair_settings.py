"""Settings the two ends must agree on (L2T103 pseudowire-classes, L2T104 VLANs), case by case.

A difference between two ends is reported once, from the end in the file that sorts first. Every
expectation below was worked out by reading the rules' documentation and the snippets.
"""

from __future__ import annotations

import pytest
from lint_cases import Case, check, fleet, params

from l2tpgen.lint import Severity

L2T103 = [
    fleet(
        "L2T103",
        "fails",
        "ip-pmtu-at-one-end-only-reported-once-for-two-vcs",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
             ip pmtu
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 10 pw-class pw
            interface GigabitEthernet0/0.20
             encapsulation dot1Q 20
             xconnect 10.255.0.2 20 pw-class pw
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
            interface GigabitEthernet0/0.20
             encapsulation dot1Q 20
             xconnect 10.255.0.1 20 pw-class pw
            """,
        },
        ("a.conf", 1, 1),
    ),
    fleet(
        "L2T103",
        "passes",
        "same-settings-under-different-class-names",
        {
            "a.conf": """
            pseudowire-class to-b
             encapsulation l2tpv3
             ip local interface Loopback0
             ip pmtu
             ip dfbit set
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 10 pw-class to-b
            """,
            "b.conf": """
            pseudowire-class to-a
             encapsulation l2tpv3
             ip local interface Loopback0
             ip dfbit set
             ip pmtu
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 10 pw-class to-a
            """,
        },
    ),
    fleet(
        "L2T103",
        "boundary",
        "protocol-difference-is-an-error",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             protocol l2tpv3
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
             protocol none
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 10 pw-class pw
            """,
        },
        ("a.conf", 1, 1),
        severity=Severity.ERROR,
    ),
    fleet(
        "L2T103",
        "boundary",
        "encapsulation-difference-is-an-error",
        # b's class lacks `encapsulation l2tpv3` (and its xconnect names none): the documentation
        # makes an encapsulation difference an error like a protocol one, not a warning.
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
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 10 pw-class pw
            """,
        },
        ("a.conf", 1, 1),
        severity=Severity.ERROR,
    ),
    fleet(
        "L2T103",
        "boundary",
        "no-protocol-line-is-protocol-l2tpv3",
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
             protocol l2tpv3
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
        "L2T103",
        "boundary",
        "two-settings-differ-two-findings-at-the-class",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
             ip dfbit set
             sequencing both
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
        ("a.conf", 1, 1),
        ("a.conf", 1, 1),
    ),
]


@pytest.mark.parametrize("case", params(L2T103))
def test_l2t103_flags_pw_class_settings_that_differ_between_the_two_ends(case: Case) -> None:
    check(case)


L2T104 = [
    fleet(
        "L2T104",
        "fails",
        "vlan-2996-here-2997-there",
        {
            "a.conf": """
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.2996
             encapsulation dot1Q 2996
             xconnect 10.255.0.2 126 encapsulation l2tpv3
            """,
            "b.conf": """
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.2997
             encapsulation dot1Q 2997
             xconnect 10.255.0.1 126 encapsulation l2tpv3
            """,
        },
        ("a.conf", 5, 2),
    ),
    fleet(
        "L2T104",
        "passes",
        "vlan-2996-at-both-ends",
        {
            "a.conf": """
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.2996
             encapsulation dot1Q 2996
             xconnect 10.255.0.2 126 encapsulation l2tpv3
            """,
            "b.conf": """
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.2996
             encapsulation dot1Q 2996
             xconnect 10.255.0.1 126 encapsulation l2tpv3
            """,
        },
    ),
    fleet(
        "L2T104",
        "boundary",
        "vlan-here-whole-port-there",
        {
            "a.conf": """
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.2996
             encapsulation dot1Q 2996
             xconnect 10.255.0.2 126 encapsulation l2tpv3
            """,
            "b.conf": """
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0
             xconnect 10.255.0.1 126 encapsulation l2tpv3
            """,
        },
        ("a.conf", 5, 2),
    ),
    fleet(
        "L2T104",
        "boundary",
        "whole-ports-at-both-ends",
        {
            "a.conf": """
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0
             xconnect 10.255.0.2 126 encapsulation l2tpv3
            """,
            "b.conf": """
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0
             xconnect 10.255.0.1 126 encapsulation l2tpv3
            """,
        },
    ),
    fleet(
        "L2T104",
        "boundary",
        "subinterface-numbers-differ-the-tags-agree",
        {
            "a.conf": """
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 2996
             xconnect 10.255.0.2 126 encapsulation l2tpv3
            """,
            "b.conf": """
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.2996
             encapsulation dot1Q 2996
             xconnect 10.255.0.1 126 encapsulation l2tpv3
            """,
        },
    ),
]


@pytest.mark.parametrize("case", params(L2T104))
def test_l2t104_flags_a_pseudowire_joining_different_vlans(case: Case) -> None:
    check(case)


CASES = {"L2T103": L2T103, "L2T104": L2T104}
