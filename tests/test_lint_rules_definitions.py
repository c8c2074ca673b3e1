"""Rules about what a config defines and names (L2T005, L2T006, L2T007, L2T016), case by case.

Every expectation below was worked out by reading the rule's documentation and the snippet.
"""

from __future__ import annotations

import pytest
from lint_cases import Case, check, device, lint_case, params

L2T005 = [
    device(
        "L2T005",
        "fails",
        "password-type-0",
        """
        l2tp-class class1
         authentication
         password 0 123456789
        """,
        (3, 2),
    ),
    device(
        "L2T005",
        "passes",
        "password-and-digest-secret-type-7",
        """
        l2tp-class class1
         authentication
         password 7 0822455D0A16
        l2tp-class class2
         digest secret 7 0822455D0A16 hash sha
        """,
    ),
    device(
        "L2T005",
        "boundary",
        "password-without-a-type-is-clear-text",
        """
        l2tp-class class1
         authentication
         password 123456789
        """,
        (3, 2),
    ),
    device(
        "L2T005",
        "boundary",
        "digest-secret-without-a-type-next-to-a-type-7-password",
        """
        l2tp-class class1
         password 7 0822455D0A16
         digest secret s3cret hash sha
        """,
        (3, 2),
    ),
]


@pytest.mark.parametrize("case", params(L2T005))
def test_l2t005_flags_an_l2tp_class_secret_stored_in_clear_text(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("case", params(L2T005))
def test_l2t005_never_repeats_the_secret_it_found(case: Case) -> None:
    said = " ".join(f"{f.message} {f.fix}" for f in lint_case(case))
    assert not any(secret in said for secret in ("123456789", "s3cret", "0822455D0A16"))


L2T006 = [
    device(
        "L2T006",
        "fails",
        "misspelled-pw-class",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class ethernt
        """,
        (6, 2),
    ),
    device(
        "L2T006",
        "passes",
        "pw-class-defined",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class ethernet
        """,
    ),
    device(
        "L2T006",
        "boundary",
        "xconnect-without-pw-class-names-none",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3
        """,
    ),
    device(
        "L2T006",
        "boundary",
        "pw-class-defined-further-down-the-file",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class ethernet
        !
        pseudowire-class ethernet
         encapsulation l2tpv3
        """,
    ),
]


@pytest.mark.parametrize("case", params(L2T006))
def test_l2t006_flags_an_xconnect_naming_an_undefined_pw_class(case: Case) -> None:
    check(case)


L2T007 = [
    device(
        "L2T007",
        "fails",
        "misspelled-l2tp-class",
        """
        l2tp-class class1
         authentication
        !
        pseudowire-class ethernet
         encapsulation l2tpv3
         protocol l2tpv3 clas1
        """,
        (6, 2),
    ),
    device(
        "L2T007",
        "passes",
        "l2tp-class-defined",
        """
        l2tp-class class1
         authentication
        !
        pseudowire-class ethernet
         encapsulation l2tpv3
         protocol l2tpv3 class1
        """,
    ),
    device(
        "L2T007",
        "boundary",
        "protocol-without-a-class-uses-the-defaults",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         protocol l2tpv3
        """,
    ),
    device(
        "L2T007",
        "boundary",
        "ietf-dialect-names-a-class-too",
        """
        pseudowire-class ethernet
         encapsulation l2tpv3
         protocol l2tpv3ietf missing
        """,
        (3, 2),
    ),
]


@pytest.mark.parametrize("case", params(L2T007))
def test_l2t007_flags_a_pw_class_naming_an_undefined_l2tp_class(case: Case) -> None:
    check(case)


L2T016 = [
    device(
        "L2T016",
        "fails",
        "no-ip-cef-with-an-xconnect",
        """
        no ip cef
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
        (1, 1),
    ),
    device(
        "L2T016",
        "passes",
        "ip-cef-with-an-xconnect",
        """
        ip cef
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T016",
        "boundary",
        "no-ip-cef-without-xconnects",
        """
        no ip cef
        !
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
        """,
    ),
    device(
        "L2T016",
        "boundary",
        "no-ip-cef-after-two-xconnects",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        interface GigabitEthernet0/0.20
         encapsulation dot1Q 20
         xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class pw
        !
        no ip cef
        """,
        (8, 1),
    ),
]


@pytest.mark.parametrize("case", params(L2T016))
def test_l2t016_flags_no_ip_cef_on_a_router_with_xconnects(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in L2T016 if c.expected])
def test_l2t016_reports_no_ip_cef_once_however_many_xconnects(case: Case) -> None:
    assert [f.code for f in lint_case(case) if f.code == "L2T016"] == ["L2T016"]


CASES = {"L2T005": L2T005, "L2T006": L2T006, "L2T007": L2T007, "L2T016": L2T016}
