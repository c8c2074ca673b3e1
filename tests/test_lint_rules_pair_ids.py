"""Identifiers the two ends must agree on (L2T102 VC IDs, L2T105 session IDs and cookies).

Every expectation below was worked out by reading the rules' documentation and the snippets.
"""

from __future__ import annotations

import pytest
from lint_cases import Case, check, fleet, lint_case, params

from l2tpgen.lint import Severity

L2T102 = [
    fleet(
        "L2T102",
        "fails",
        "vc-id-128-here-129-there",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 128 pw-class pw
            """,
            "b.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 129 pw-class pw
            """,
        },
        ("a.conf", 8, 2),
        ("b.conf", 8, 2),
    ),
    fleet(
        "L2T102",
        "passes",
        "vc-id-128-at-both-ends",
        {
            "a.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 128 pw-class pw
            """,
            "b.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 128 pw-class pw
            """,
        },
    ),
    fleet(
        "L2T102",
        "boundary",
        "manual-sessions-only-warn",
        {
            "a.conf": """
            pseudowire-class static
             encapsulation l2tpv3
             protocol none
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 128 encapsulation l2tpv3 manual pw-class static
              l2tp id 1 2
            """,
            "b.conf": """
            pseudowire-class static
             encapsulation l2tpv3
             protocol none
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 129 encapsulation l2tpv3 manual pw-class static
              l2tp id 2 1
            """,
        },
        ("a.conf", 9, 2),
        ("b.conf", 9, 2),
        severity=Severity.WARNING,
    ),
    fleet(
        "L2T102",
        "boundary",
        "same-vc-id-back-at-another-address-of-this-router",
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
             xconnect 10.255.0.2 128 pw-class pw
            """,
            "b.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 198.51.100.1 128 pw-class pw
            """,
        },
    ),
    fleet(
        "L2T102",
        "boundary",
        "far-end-uses-the-vc-id-towards-a-third-router",
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
             xconnect 10.255.0.3 10 pw-class pw
            """,
            "c.conf": """
            pseudowire-class pw
             encapsulation l2tpv3
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.3 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 10 pw-class pw
            """,
        },
        ("a.conf", 8, 2),
    ),
]


@pytest.mark.parametrize("case", params(L2T102))
def test_l2t102_flags_a_vc_id_with_no_xconnect_back_on_the_far_end(case: Case) -> None:
    check(case)


L2T105 = [
    fleet(
        "L2T105",
        "fails",
        "same-l2tp-id-at-both-ends",
        {
            "a.conf": """
            pseudowire-class static
             encapsulation l2tpv3
             protocol none
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 10 encapsulation l2tpv3 manual pw-class static
              l2tp id 1010 2010
              l2tp cookie local 4 1111
              l2tp cookie remote 4 2222
            """,
            "b.conf": """
            pseudowire-class static
             encapsulation l2tpv3
             protocol none
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 10 encapsulation l2tpv3 manual pw-class static
              l2tp id 1010 2010
              l2tp cookie local 4 2222
              l2tp cookie remote 4 1111
            """,
        },
        ("a.conf", 10, 3),
    ),
    fleet(
        "L2T105",
        "fails",
        "cookies-not-crossed",
        {
            "a.conf": """
            pseudowire-class static
             encapsulation l2tpv3
             protocol none
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 10 encapsulation l2tpv3 manual pw-class static
              l2tp id 1010 2010
              l2tp cookie local 4 1111
              l2tp cookie remote 4 2222
            """,
            "b.conf": """
            pseudowire-class static
             encapsulation l2tpv3
             protocol none
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 10 encapsulation l2tpv3 manual pw-class static
              l2tp id 2010 1010
              l2tp cookie local 4 1111
              l2tp cookie remote 4 2222
            """,
        },
        ("a.conf", 11, 3),
        ("a.conf", 12, 3),
    ),
    fleet(
        "L2T105",
        "passes",
        "mirror-images",
        {
            "a.conf": """
            pseudowire-class static
             encapsulation l2tpv3
             protocol none
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 10 encapsulation l2tpv3 manual pw-class static
              l2tp id 1010 2010
              l2tp cookie local 4 1111
              l2tp cookie remote 4 2222
            """,
            "b.conf": """
            pseudowire-class static
             encapsulation l2tpv3
             protocol none
             ip local interface Loopback0
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 10 encapsulation l2tpv3 manual pw-class static
              l2tp id 2010 1010
              l2tp cookie local 4 2222
              l2tp cookie remote 4 1111
            """,
        },
    ),
    fleet(
        "L2T105",
        "boundary",
        "same-cookie-value-of-another-size",
        {
            "a.conf": """
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 10 encapsulation l2tpv3 manual
              l2tp id 1010 2010
              l2tp cookie local 4 1111
            """,
            "b.conf": """
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 10 encapsulation l2tpv3 manual
              l2tp id 2010 1010
              l2tp cookie remote 8 1111
            """,
        },
        ("a.conf", 7, 3),
    ),
    fleet(
        "L2T105",
        "boundary",
        "far-manual-session-without-l2tp-id",
        {
            "a.conf": """
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 10 encapsulation l2tpv3 manual
              l2tp id 1010 2010
            """,
            "b.conf": """
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 10 encapsulation l2tpv3 manual
            """,
        },
        ("a.conf", 6, 3),
    ),
    fleet(
        "L2T105",
        "boundary",
        "signalled-sessions-have-nothing-to-mirror",
        {
            "a.conf": """
            interface Loopback0
             ip address 10.255.0.1 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.2 10 encapsulation l2tpv3
            """,
            "b.conf": """
            interface Loopback0
             ip address 10.255.0.2 255.255.255.255
            interface GigabitEthernet0/0.10
             encapsulation dot1Q 10
             xconnect 10.255.0.1 10 encapsulation l2tpv3
            """,
        },
    ),
]


@pytest.mark.parametrize("case", params(L2T105))
def test_l2t105_flags_static_session_ids_and_cookies_that_are_not_mirror_images(
    case: Case,
) -> None:
    check(case)


def _l2t105_messages(name: str) -> list[str]:
    (case,) = [c for c in L2T105 if c.name == name]
    return [f"{f.message} {f.fix}" for f in lint_case(case) if f.code == "L2T105"]


def test_l2t105_says_when_the_two_ends_cookie_sizes_differ() -> None:
    # a.conf expects a 4-byte cookie (`l2tp cookie local 4`), b.conf sends 8 (`remote 8`).
    (message,) = _l2t105_messages("same-cookie-value-of-another-size")
    assert "differ in size: 4 bytes here, 8 bytes there (b.conf)" in message


def test_l2t105_says_same_size_other_value_without_showing_a_cookie() -> None:
    messages = _l2t105_messages("cookies-not-crossed")
    assert len(messages) == 2
    assert all("differ in value (both 4 bytes)" in m for m in messages)
    assert not any(value in m for m in messages for value in ("1111", "2222"))


CASES = {"L2T102": L2T102, "L2T105": L2T105}
