"""L2T108: the two ends of one pseudowire must put the same frame inside it, case by case.

Expectations worked out by hand from the rule's documentation: a dot1Q subinterface with no
`interworking` sends the tagged frame (Cisco's L2TPv3 feature guide, IOS 12.0(29)S/12.2(25)S p.22:
VLAN frames are forwarded in their entirety); `interworking ethernet` sends it untagged [U: the
tag removal is read from Cisco's L2VPN Interworking guide, not seen on a router].
"""

from __future__ import annotations

import pytest
from lint_cases import Case, check, fleet, params

_END = """
pseudowire-class pw
 encapsulation l2tpv3
{interworking} ip local interface Loopback0
interface Loopback0
 ip address 10.255.0.{me} 255.255.255.255
interface GigabitEthernet0/0{sub}
{dot1q} xconnect 10.255.0.{you} 200 pw-class pw
"""


def _end(me: int, you: int, interworking: str = "", *, port: bool = False) -> str:
    return _END.format(
        me=me,
        you=you,
        interworking=f" interworking {interworking}\n" if interworking else "",
        sub="" if port else ".200",
        dot1q="" if port else " encapsulation dot1Q 200\n",
    )


L2T108 = [
    fleet(
        "L2T108",
        "fails",
        "interworking-ethernet-at-one-end-tag-carried-at-the-other",
        # b.conf line 3 is " interworking ethernet": column 2, after the indent.
        {"a.conf": _end(1, 2), "b.conf": _end(2, 1, "ethernet")},
        ("b.conf", 3, 2),
    ),
    fleet(
        "L2T108",
        "fails",
        "abbreviated-interworking-eth-is-still-ethernet",
        {"a.conf": _end(1, 2, "eth"), "b.conf": _end(2, 1)},
        ("a.conf", 3, 2),
    ),
    fleet(
        "L2T108",
        "fails",
        "ethernet-at-one-end-vlan-at-the-other-reported-once-at-the-first-files-xconnect",
        # a.conf: line 9 is " xconnect ..." (class 1-4, Loopback0 5-6, Gi0/0.200 7-9).
        {"a.conf": _end(1, 2, "ethernet"), "b.conf": _end(2, 1, "vlan")},
        ("a.conf", 9, 2),
    ),
    fleet(
        "L2T108",
        "passes",
        "interworking-ethernet-at-both-ends",
        {"a.conf": _end(1, 2, "ethernet"), "b.conf": _end(2, 1, "ethernet")},
    ),
    fleet(
        "L2T108",
        "passes",
        "no-interworking-at-either-end-both-carry-the-tag",
        {"a.conf": _end(1, 2), "b.conf": _end(2, 1)},
    ),
    fleet(
        "L2T108",
        "boundary",
        "interworking-vlan-matches-a-plain-dot1q-subinterface",
        {"a.conf": _end(1, 2, "vlan"), "b.conf": _end(2, 1)},
    ),
    fleet(
        "L2T108",
        "boundary",
        "a-whole-port-without-interworking-is-not-judged",
        {"a.conf": _end(1, 2, "ethernet"), "b.conf": _end(2, 1, port=True)},
    ),
]


@pytest.mark.parametrize("case", params(L2T108))
def test_l2t108_flags_two_ends_that_disagree_on_the_tag_inside_the_pseudowire(case: Case) -> None:
    check(case)


CASES = {"L2T108": L2T108}
