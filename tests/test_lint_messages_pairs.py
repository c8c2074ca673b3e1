"""What the cross-device rules say: message and fix of each finding, not only where it is.

The rules' examples (``l2tpgen/lint/rules/examples/L2T1*.yaml``) pin where each finding is and
its severity; mutation testing showed that nothing pinned what the findings say, although the
message is what a user acts on (which VC ID, which value here and there, which file). Each
expectation below is written by hand from the case's two configs and the rule's documentation.
"""

from __future__ import annotations

import pytest
from lint_cases import Case, example, lint_case

from l2tpgen.lint import ConfigText, lint_configs

Said = tuple[str, int, int, str, str]  # file, line, column, message, fix

SAME_VC = "use the same VC ID at both ends of the pseudowire"
CROSSED = "each end's local cookie is the other end's remote cookie, size included"


EXPECTED: list[tuple[Case, list[Said]]] = [
    (
        example("L2T101", "points-at-the-far-wan-address-not-its-loopback"),
        [
            (
                "a.conf",
                10,
                2,
                (
                    "xconnect peer 198.51.100.2 (VC ID 10) is not the tunnel source of its other "
                    "end b.conf, which sources from 10.255.0.2 (Loopback0)"
                ),
                "point the xconnect at the other end's `ip local interface` address",
            )
        ],
    ),
    (
        example("L2T106", "peer-address-in-no-given-config"),
        [
            (
                "a.conf",
                8,
                2,
                (
                    "xconnect to 10.255.0.9 (VC ID 10) has no other end among the configs given: "
                    "no given config has the address 10.255.0.9"
                ),
                "lint the other end's config together with this one",
            )
        ],
    ),
    (
        example("L2T102", "vc-id-128-here-129-there"),
        [
            (
                "a.conf",
                8,
                2,
                (
                    "VC ID 128 to 10.255.0.2 has no xconnect back on b.conf (its VC IDs towards "
                    "this device: 129)"
                ),
                SAME_VC,
            ),
            (
                "b.conf",
                8,
                2,
                (
                    "VC ID 129 to 10.255.0.1 has no xconnect back on a.conf (its VC IDs towards "
                    "this device: 128)"
                ),
                SAME_VC,
            ),
        ],
    ),
    (
        example("L2T105", "same-l2tp-id-at-both-ends"),
        [
            (
                "a.conf",
                10,
                3,
                "VC ID 10: l2tp id 1010 2010 here but 1010 2010 on b.conf",
                "set `l2tp id 2010 1010` here (mirror image)",
            )
        ],
    ),
    (
        example("L2T105", "cookies-not-crossed"),
        [
            (
                "a.conf",
                11,
                3,
                (
                    "VC ID 10: local cookie here vs remote cookie there differ in value"
                    " (both 4 bytes) (b.conf)"
                ),
                CROSSED,
            ),
            (
                "a.conf",
                12,
                3,
                (
                    "VC ID 10: remote cookie here vs local cookie there differ in value"
                    " (both 4 bytes) (b.conf)"
                ),
                CROSSED,
            ),
        ],
    ),
    (
        example("L2T103", "ip-pmtu-at-one-end-only-reported-once-for-two-vcs"),
        [
            (
                "a.conf",
                1,
                1,
                "pseudowire-class pw: ip pmtu on here but off on b.conf (VC IDs 10, 20)",
                "make `ip pmtu` the same in both ends' pseudowire-classes",
            )
        ],
    ),
    (
        example("L2T103", "two-settings-differ-two-findings-at-the-class"),
        [
            (
                "a.conf",
                1,
                1,
                "pseudowire-class pw: ip dfbit set on here but off on b.conf (VC IDs 10)",
                "make `ip dfbit set` the same in both ends' pseudowire-classes",
            ),
            (
                "a.conf",
                1,
                1,
                "pseudowire-class pw: sequencing both here but off on b.conf (VC IDs 10)",
                "make `sequencing` the same in both ends' pseudowire-classes",
            ),
        ],
    ),
    (
        example("L2T103", "encapsulation-difference-is-an-error"),
        [
            (
                "a.conf",
                1,
                1,
                "pseudowire-class pw: encapsulation l2tpv3 here but - on b.conf (VC IDs 10)",
                "make `encapsulation` the same in both ends' pseudowire-classes",
            )
        ],
    ),
    (
        example("L2T104", "vlan-2996-here-2997-there"),
        [
            (
                "a.conf",
                5,
                2,
                "VC ID 126 attaches VLAN 2996 here but VLAN 2997 on b.conf",
                "attach the same dot1Q VLAN at both ends",
            )
        ],
    ),
    (
        example("L2T104", "vlan-here-whole-port-there"),
        [
            (
                "a.conf",
                5,
                2,
                "VC ID 126 attaches VLAN 2996 here but a whole port on b.conf",
                "attach the same dot1Q VLAN at both ends",
            )
        ],
    ),
]


@pytest.mark.parametrize(
    ("case", "said"), [pytest.param(c, s, id=f"{c.code}-{c.name}") for c, s in EXPECTED]
)
def test_a_cross_device_finding_says_which_values_differ_and_where(
    case: Case, said: list[Said]
) -> None:
    findings = [f for f in lint_case(case) if f.code == case.code]
    assert sorted((f.file, f.line, f.column, f.message, f.fix) for f in findings) == sorted(said)


# Several pseudowires in one pair of configs: a rule that skips one (unpaired, or compared from
# the other file) must still look at the next. The inline cases hold one pseudowire each, so
# mutation testing found a `continue` turned into `break` unnoticed in every cross-device rule.
A_CONF = """\
pseudowire-class pw
 encapsulation l2tpv3
 ip local interface Loopback0
interface Loopback0
 ip address 10.255.0.1 255.255.255.255
interface GigabitEthernet0/0.5
 encapsulation dot1Q 5
 xconnect 10.255.0.9 5 pw-class pw
interface GigabitEthernet0/0.2996
 encapsulation dot1Q 2996
 xconnect 10.255.0.2 126 pw-class pw
interface GigabitEthernet0/0.30
 encapsulation dot1Q 30
 xconnect 10.255.0.2 128 pw-class pw
interface GigabitEthernet0/0.40
 encapsulation dot1Q 40
 xconnect 10.255.0.7 40 pw-class pw
"""
B_CONF = """\
pseudowire-class pw
 encapsulation l2tpv3
 ip local interface Loopback0
interface Loopback0
 ip address 10.255.0.2 255.255.255.255
interface GigabitEthernet0/0.2997
 encapsulation dot1Q 2997
 xconnect 10.255.0.1 126 pw-class pw
interface GigabitEthernet0/0.30
 encapsulation dot1Q 30
 xconnect 10.255.0.1 129 pw-class pw
"""


def test_each_cross_device_rule_looks_past_a_pseudowire_it_skips() -> None:
    findings = lint_configs([ConfigText("a.conf", A_CONF), ConfigText("b.conf", B_CONF)])
    found = sorted(
        (f.code, f.file, f.line) for f in findings if f.code in {"L2T102", "L2T104", "L2T106"}
    )
    assert found == [
        ("L2T102", "a.conf", 14),  # VC 128 here, 129 there
        ("L2T102", "b.conf", 11),
        ("L2T104", "a.conf", 11),  # VC 126: VLAN 2996 here, 2997 there (after the unpaired VC 5)
        ("L2T106", "a.conf", 8),  # 10.255.0.9 is in no config
        ("L2T106", "a.conf", 17),  # 10.255.0.7 neither: found after paired VCs
    ]
