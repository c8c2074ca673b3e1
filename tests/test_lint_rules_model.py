"""Model rules (L2T022, L2T023), case by case: site files inline, linted as sites.

Every expectation was worked out by hand from the rules' documentation. The inner MTU is
`l2tpgen mtu`'s budget for two Cisco PEs with dynamic sessions: the smaller WAN MTU less 20 (outer
IPv4), 4 (session ID), 14 (inner Ethernet) and 4 (the dot1Q tag), so 1458 on a 1500-byte WAN and
1500 on a 1542-byte one; the MSS is that less 40. The Mathis bound is MSS x 8 / RTT x 1.22 /
sqrt(loss). Every path here is trusted (each end states `wan.trusted: true` or has only private
addresses), so no ESP enters the budget (its own tests: test_mtu_esp.py). Positions: a finding
sits at the VLAN's `carries` value where that site states it, else at the VLAN's entry (its `{`,
column 5).
"""

from __future__ import annotations

import pytest
from lint_cases import Case, check, params, sites

# The peer of every case: VLAN 20 on line 9, its entry's `{` at column 5; it states nothing more.
SITE_B = """
    name: site-b
    hostname: rtr-b
    management: {host: 192.0.2.2}
    wan: {interface: gi0/1, address: 203.0.113.1/29, gateway: 203.0.113.6, trusted: true}
    lan: {interface: GigabitEthernet0/0}
    l2tp_class: {secret_env: L2TPGEN_L2TP_SECRET}
    peers: [site-a]
    vlans:
      - {id: 20, name: cluster, peer: site-a}
    """


def _site_b(wan_mtu: int) -> str:
    return SITE_B.replace("trusted: true}", f"trusted: true, mtu: {wan_mtu}}}")


L2T022 = [
    sites(
        "L2T022",
        "fails",
        "heartbeat-vlan-on-a-1500-byte-wan",
        {
            "site-a.yaml": """
            name: site-a
            hostname: rtr-a
            management: {host: 192.0.2.1}
            wan: {interface: gi0/1, address: 198.51.100.1/29, gateway: 198.51.100.6, trusted: true}
            lan: {interface: GigabitEthernet0/0}
            l2tp_class: {secret_env: L2TPGEN_L2TP_SECRET}
            peers: [site-b]
            vlans:
              - {id: 20, name: cluster, peer: site-b, carries: cluster-heartbeat}
            """,
            "site-b.yaml": SITE_B,
        },
        ("site-a.yaml", 9, 52),
        ("site-b.yaml", 9, 5),
        absent=("L2T023",),
    ),
    sites(
        "L2T022",
        "fails",
        "both-ends-say-heartbeat",
        {
            "site-a.yaml": """
            name: site-a
            hostname: rtr-a
            management: {host: 192.0.2.1}
            wan: {interface: gi0/1, address: 198.51.100.1/29, gateway: 198.51.100.6, trusted: true}
            lan: {interface: GigabitEthernet0/0}
            l2tp_class: {secret_env: L2TPGEN_L2TP_SECRET}
            peers: [site-b]
            vlans:
              - {id: 20, name: cluster, peer: site-b, carries: cluster-heartbeat}
            """,
            "site-b.yaml": SITE_B.replace(
                "peer: site-a}", "peer: site-a, carries: cluster-heartbeat}"
            ),
        },
        ("site-a.yaml", 9, 52),
        ("site-b.yaml", 9, 52),
    ),
    sites(
        "L2T022",
        "passes",
        "heartbeat-vlan-on-a-jumbo-wan",
        {
            "site-a.yaml": """
            name: site-a
            hostname: rtr-a
            management: {host: 192.0.2.1}
            wan: {interface: gi0/1, address: 10.0.0.1/29, gateway: 10.0.0.6, mtu: 9000}
            lan: {interface: GigabitEthernet0/0}
            l2tp_class: {secret_env: L2TPGEN_L2TP_SECRET}
            peers: [site-b]
            vlans:
              - {id: 20, name: cluster, peer: site-b, carries: cluster-heartbeat}
            """,
            "site-b.yaml": _site_b(9000),
        },
    ),
    sites(
        "L2T022",
        "passes",
        "storage-vlan-on-a-1500-byte-wan",
        {
            "site-a.yaml": """
            name: site-a
            hostname: rtr-a
            management: {host: 192.0.2.1}
            wan: {interface: gi0/1, address: 198.51.100.1/29, gateway: 198.51.100.6, trusted: true}
            lan: {interface: GigabitEthernet0/0}
            l2tp_class: {secret_env: L2TPGEN_L2TP_SECRET}
            peers: [site-b]
            vlans:
              - {id: 20, name: cluster, peer: site-b, carries: storage}
            """,
            "site-b.yaml": SITE_B,
        },
    ),
    sites(
        "L2T022",
        "boundary",
        "inner-mtu-exactly-1500",
        {
            "site-a.yaml": """
            name: site-a
            hostname: rtr-a
            management: {host: 192.0.2.1}
            wan: {interface: gi0/1, address: 10.0.0.1/29, gateway: 10.0.0.6, mtu: 1542}
            lan: {interface: GigabitEthernet0/0}
            l2tp_class: {secret_env: L2TPGEN_L2TP_SECRET}
            peers: [site-b]
            vlans:
              - {id: 20, name: cluster, peer: site-b, carries: cluster-heartbeat}
            """,
            "site-b.yaml": _site_b(1542),
        },
    ),
    sites(
        "L2T022",
        "boundary",
        "inner-mtu-1499-from-the-smaller-wan-of-the-two",
        {
            "site-a.yaml": """
            name: site-a
            hostname: rtr-a
            management: {host: 192.0.2.1}
            wan: {interface: gi0/1, address: 10.0.0.1/29, gateway: 10.0.0.6, mtu: 1542}
            lan: {interface: GigabitEthernet0/0}
            l2tp_class: {secret_env: L2TPGEN_L2TP_SECRET}
            peers: [site-b]
            vlans:
              - {id: 20, name: cluster, peer: site-b, carries: cluster-heartbeat}
            """,
            "site-b.yaml": _site_b(1541),
        },
        ("site-a.yaml", 9, 52),
        ("site-b.yaml", 9, 5),
    ),
]

# site-a of every L2T023 case: the link on line 8, VLAN 20 on line 10 (`carries` value: column 52
# when stated). LINK and CARRIES are filled in per case.
SITE_A_LINKED = """
    name: site-a
    hostname: rtr-a
    management: {host: 192.0.2.1}
    wan: {interface: gi0/1, address: 198.51.100.1/29, gateway: 198.51.100.6, trusted: true}
    lan: {interface: GigabitEthernet0/0}
    l2tp_class: {secret_env: L2TPGEN_L2TP_SECRET}
    peers:
      - {name: site-b, link: LINK}
    vlans:
      - {id: 20, name: cluster, peer: site-b, carries: CARRIES}
    """


def _linked(link: str, carries: str | None = "live-migration") -> str:
    text = SITE_A_LINKED.replace("LINK", link)
    if carries is None:
        return text.replace(", carries: CARRIES}", "}")
    return text.replace("CARRIES", carries)


def _carrying(workload: str) -> str:
    return SITE_B.replace("peer: site-a}", f"peer: site-a, carries: {workload}}}")


L2T023 = [
    sites(
        "L2T023",
        "fails",
        "one-percent-loss-at-55-ms-rtt",  # 1418 x 8 / 0.055 s x 1.22 / 0.1 = 2.5 Mb/s
        {
            "site-a.yaml": _linked("{bandwidth: 10Gbit, rtt_ms: 55, loss: 0.01}"),
            "site-b.yaml": SITE_B,
        },
        ("site-a.yaml", 10, 52),
        ("site-b.yaml", 9, 5),
        absent=("L2T022",),
    ),
    sites(
        "L2T023",
        "fails",
        "workload-stated-at-the-other-end",
        {
            "site-a.yaml": _linked("{bandwidth: 10Gbit, rtt_ms: 55, loss: 0.01}", None),
            "site-b.yaml": _carrying("live-migration"),
        },
        ("site-a.yaml", 10, 5),
        ("site-b.yaml", 9, 52),
    ),
    sites(
        "L2T023",
        "passes",
        "no-loss-stated",
        {
            "site-a.yaml": _linked("{bandwidth: 10Gbit, rtt_ms: 55}"),
            "site-b.yaml": SITE_B,
        },
    ),
    sites(
        "L2T023",
        "passes",
        "lossy-path-carrying-storage",
        {
            "site-a.yaml": _linked("{bandwidth: 10Gbit, rtt_ms: 55, loss: 0.01}", "storage"),
            "site-b.yaml": SITE_B,
        },
    ),
    sites(
        "L2T023",
        "boundary",
        "loss-0.3-percent-at-1-ms-allows-252-mbit",  # 1418 x 8 / 0.001 x 1.22 / 0.05477
        {
            "site-a.yaml": _linked("{bandwidth: 10Gbit, rtt_ms: 1, loss: 0.003}"),
            "site-b.yaml": SITE_B,
        },
    ),
    sites(
        "L2T023",
        "boundary",
        "loss-0.31-percent-at-1-ms-allows-248-mbit",  # 1418 x 8 / 0.001 x 1.22 / 0.05568
        {
            "site-a.yaml": _linked('{bandwidth: 10Gbit, rtt_ms: 1, loss: "0.31%"}'),
            "site-b.yaml": SITE_B,
        },
        ("site-a.yaml", 10, 52),
        ("site-b.yaml", 9, 5),
    ),
    sites(
        "L2T023",
        "boundary",
        "a-100-mbit-link-limits-before-the-loss",  # 1418 x 8 / 0.01 x 1.22 / 0.01 = 138 Mb/s
        {
            "site-a.yaml": _linked("{bandwidth: 100Mbit, rtt_ms: 10, loss: 0.0001}"),
            "site-b.yaml": SITE_B,
        },
    ),
    sites(
        "L2T023",
        "boundary",
        "a-1-gbit-link-where-the-loss-limits-first",  # the same 138 Mb/s, under 250 Mb/s
        {
            "site-a.yaml": _linked("{bandwidth: 1Gbit, rtt_ms: 10, loss: 0.0001}"),
            "site-b.yaml": SITE_B,
        },
        ("site-a.yaml", 10, 52),
        ("site-b.yaml", 9, 5),
    ),
]


@pytest.mark.parametrize("case", params(L2T022))
def test_l2t022_flags_heartbeat_vlans_whose_inner_mtu_is_below_1500(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("case", params(L2T023))
def test_l2t023_flags_live_migration_where_loss_holds_one_stream_below_need(case: Case) -> None:
    check(case)


CASES = {"L2T022": L2T022, "L2T023": L2T023}
