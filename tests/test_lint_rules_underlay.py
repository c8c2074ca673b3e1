"""L2T027 (a pseudowire peer with no route), case by case.

Every expectation below was worked out by reading the rule's documentation and the snippet: the
xconnect's peer, the connected subnets (each `ip address` with its mask), the `ip route` prefixes
and whether a `router` section or a learned address leaves the routing unknown. The finding is
on the `xconnect` line, at the column of `xconnect` (one space of indentation: column 2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from lint_cases import Case, check, device, params

from l2tpgen import load_fleet, render_site
from l2tpgen.lint import ConfigText, lint_configs, lint_sites

if TYPE_CHECKING:
    from pathlib import Path

# The WAN and the attachment circuit every case shares; the peer 10.255.0.2 is a loopback
# elsewhere. Lines 1-7; the xconnect is line 7, column 2.
BASE = """
interface GigabitEthernet0/1
 ip address 198.51.100.1 255.255.255.252
!
interface GigabitEthernet0/0.10
 encapsulation dot1Q 10
 description to the remote data centre
 xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class pw
"""

L2T027 = [
    device(
        "L2T027",
        "fails",
        "peer-loopback-outside-every-connected-subnet-and-no-route",
        BASE,
        (7, 2),
    ),
    device(
        "L2T027",
        "fails",
        "a-route-to-another-prefix-does-not-cover-the-peer",
        # 10.255.1.0/24 does not hold 10.255.0.2
        BASE + "ip route 10.255.1.0 255.255.255.0 198.51.100.2\n",
        (7, 2),
    ),
    device(
        "L2T027",
        "passes",
        "a-host-route-to-the-peer-loopback",
        BASE + "ip route 10.255.0.2 255.255.255.255 198.51.100.2\n",
    ),
    device(
        "L2T027",
        "boundary",
        "a-default-route-covers-every-peer",
        BASE + "ip route 0.0.0.0 0.0.0.0 198.51.100.2\n",
    ),
    device(
        "L2T027",
        "boundary",
        "a-less-specific-route-that-just-covers-the-peer",
        # 10.255.0.0/30 holds 10.255.0.0-3: the peer .2 is inside
        BASE + "ip route 10.255.0.0 255.255.255.252 198.51.100.2\n",
    ),
    device(
        "L2T027",
        "boundary",
        "a-route-that-just-misses-the-peer",
        # 10.255.0.4/30 holds .4-.7: the peer .2 is outside
        BASE + "ip route 10.255.0.4 255.255.255.252 198.51.100.2\n",
        (7, 2),
    ),
    device(
        "L2T027",
        "fails",
        "the-longest-covering-route-discards-to-null0",
        # the default route covers 10.255.0.2, but 10.0.0.0/8 is longer and goes to Null0
        BASE + "ip route 0.0.0.0 0.0.0.0 198.51.100.2\n" + "ip route 10.0.0.0 255.0.0.0 Null0\n",
        (7, 2),
    ),
    device(
        "L2T027",
        "boundary",
        "a-host-route-longer-than-the-null0-summary",
        BASE
        + "ip route 10.0.0.0 255.0.0.0 Null0\n"
        + "ip route 10.255.0.2 255.255.255.255 198.51.100.2\n",
    ),
    device(
        "L2T027",
        "passes",
        "peer-on-the-connected-wan-subnet",
        """
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 198.51.100.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T027",
        "boundary",
        "peer-just-past-the-connected-subnet",
        # 198.51.100.0/30 ends at .3; .4 is the next subnet
        """
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 198.51.100.4 10 encapsulation l2tpv3 pw-class pw
        """,
        (6, 2),
    ),
    device(
        "L2T027",
        "passes",
        "an-igp-may-carry-the-peer",
        BASE + "router ospf 1\n network 198.51.100.0 0.0.0.3 area 0\n",
    ),
    device(
        "L2T027",
        "passes",
        "bgp-may-carry-the-peer",
        BASE + "router bgp 65001\n neighbor 198.51.100.2 remote-as 64500\n",
    ),
    device(
        "L2T027",
        "passes",
        "a-dhcp-address-may-bring-a-default-route",
        """
        interface GigabitEthernet0/1
         ip address dhcp
        !
        interface GigabitEthernet0/2
         ip address 203.0.113.1 255.255.255.252
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T027",
        "passes",
        "a-snippet-with-no-interface-address-is-not-judged",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T027",
        "passes",
        "a-snippet-with-only-a-loopback-address-is-not-judged",
        """
        interface Loopback0
         ip address 192.0.2.1 255.255.255.255
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T027",
        "boundary",
        "a-loopback-and-one-wan-address-are-judged",
        """
        interface Loopback0
         ip address 192.0.2.1 255.255.255.255
        !
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation l2tpv3 pw-class pw
        """,
        (9, 2),
    ),
    device(
        "L2T027",
        "passes",
        "a-route-in-a-vrf-is-not-needed-when-the-global-default-covers",
        BASE
        + "ip route vrf Mgmt-intf 0.0.0.0 0.0.0.0 192.0.2.1\n"
        + "ip route 0.0.0.0 0.0.0.0 198.51.100.2\n",
    ),
    device(
        "L2T027",
        "boundary",
        "a-vrf-default-route-is-not-the-global-table",
        BASE + "ip route vrf Mgmt-intf 0.0.0.0 0.0.0.0 192.0.2.1\n",
        (7, 2),
    ),
    device(
        "L2T027",
        "passes",
        "an-mpls-xconnect-is-out-of-scope",
        """
        interface GigabitEthernet0/1
         ip address 198.51.100.1 255.255.255.252
        !
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 10.255.0.2 10 encapsulation mpls
        """,
    ),
]
CASES = {"L2T027": L2T027}


@pytest.mark.parametrize("case", params(L2T027))
def test_l2t027_flags_a_pseudowire_peer_that_nothing_routes_to(case: Case) -> None:
    check(case)


def test_l2t027_leaves_rendered_configs_to_validate_which_knows_the_igp(tmp_path: Path) -> None:
    # An IGP the site files state (`wan.peer_routes: igp`, `routes: []`) is not in the rendered
    # config: the rendered text has neither a route nor a `router` section towards 10.255.0.x,
    # and L2T027 must not call that a missing route; validate reports how the peer is reached.
    for name, peer, wan, loopback in (
        ("a", "b", "198.51.100.1/29", "10.255.0.1/32"),
        ("b", "a", "203.0.113.9/29", "10.255.0.2/32"),
    ):
        gateway = wan.rsplit(".", 1)[0] + "." + str(int(wan.split(".")[3].split("/")[0]) + 5)
        (tmp_path / f"{name}.yaml").write_text(
            SITE.format(name=name, peer=peer, wan=wan, gateway=gateway, loopback=loopback)
        )
    fleet = load_fleet(tmp_path)
    rendered = render_site(fleet, "a")
    assert "ip route" not in rendered
    assert "xconnect 10.255.0.2 100" in rendered
    assert [f for f in lint_sites(fleet) if f.code == "L2T027"] == []
    # the same text as a raw config is judged: nothing in it routes to 10.255.0.2
    raw = lint_configs([ConfigText("a.conf", rendered)])
    assert [(f.code, f.line) for f in raw if f.code == "L2T027"] == [
        (
            "L2T027",
            rendered.splitlines().index(
                " xconnect 10.255.0.2 100 encapsulation l2tpv3 pw-class ethernet"
            )
            + 1,
        )
    ]


SITE = """\
name: {name}
hostname: {name}-pe
platform: iosxe
management: {{host: 192.0.2.10}}
wan:
  interface: GigabitEthernet0/1
  address: {wan}
  gateway: {gateway}
  loopback: {{interface: Loopback0, address: {loopback}}}
  routes: []
  peer_routes: igp
  trusted: true
lan: {{interface: GigabitEthernet0/0}}
l2tp_class: {{name: dc, authentication: none}}
pseudowire_class: {{name: ethernet}}
peers: [{peer}]
vlans:
  - {{id: 100, name: web, peer: {peer}}}
"""
