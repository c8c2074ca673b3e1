"""The overhead budget pins the brief's table (shared/docs/l2tpv3-brief.md section 2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from l2tpgen.mtu import Circuit, Encapsulation, budget_matrix, overhead_budget

IP, UDP = Encapsulation.IP, Encapsulation.UDP


@pytest.mark.parametrize(
    ("encap", "cookie", "sublayer", "untagged", "tagged"),
    [
        pytest.param(IP, 0, False, 1462, 1458, id="ip-no-cookie"),
        pytest.param(IP, 4, False, 1458, 1454, id="ip-cookie-4"),
        pytest.param(IP, 8, False, 1454, 1450, id="ip-cookie-8"),
        pytest.param(IP, 8, True, 1450, 1446, id="ip-cookie-8-sublayer"),
        pytest.param(UDP, 0, True, 1446, 1442, id="udp-default-sublayer"),
    ],
)
def test_largest_inner_mtu_on_1500_byte_wan_matches_the_brief(
    encap: Encapsulation, cookie: int, sublayer: bool, untagged: int, tagged: int
) -> None:
    plain = overhead_budget(1500, encap, cookie, sublayer=sublayer)
    dot1q = overhead_budget(1500, encap, cookie, sublayer=sublayer, dot1q=True)
    assert (plain.max_inner_mtu, dot1q.max_inner_mtu) == (untagged, tagged)


def test_cisco_encap_size_is_24_bytes_without_cookie() -> None:
    # "FS cached header information: encap size = 24 bytes" in a real show l2tun session all
    assert overhead_budget().encap_overhead == 24


def test_linux_bridged_example_mtu_1446_is_the_udp_default() -> None:
    assert overhead_budget(encapsulation=UDP).max_inner_mtu == 1446


def test_pppoe_wan_loses_8_more_bytes() -> None:
    assert overhead_budget(1492).max_inner_mtu == 1462 - 8


def test_matrix_has_every_row_untagged_and_tagged() -> None:
    rows = budget_matrix()
    assert len(rows) == 10
    assert [r.dot1q for r in rows] == [False, True] * 5


@pytest.mark.parametrize("cookie", [1, 2, 6, 16])
def test_cookie_sizes_other_than_0_4_8_are_refused(cookie: int) -> None:
    with pytest.raises(ValueError, match="cookie size must be 0, 4 or 8"):
        overhead_budget(cookie=cookie)


@given(
    wan=st.integers(576, 9216),
    encap=st.sampled_from(Encapsulation),
    cookie=st.sampled_from([0, 4, 8]),
    sublayer=st.booleans(),
    dot1q=st.booleans(),
)
def test_budget_parts_add_up_to_the_wan_mtu(
    wan: int, encap: Encapsulation, cookie: int, sublayer: bool, dot1q: bool
) -> None:
    budget = overhead_budget(wan, encap, cookie, sublayer=sublayer, dot1q=dot1q)
    assert budget.max_inner_mtu + budget.total_overhead == wan
    assert budget.max_frame == budget.max_inner_mtu + 14 + (4 if dot1q else 0)
    assert budget.tcp_mss == budget.max_inner_mtu - 40


# The headers `l2tpgen mtu` lists, outer first, as a user reads them; each size from the brief
# (section 2): UDP 8, flags/version 4, session 4, cookie 8, sublayer 4, Ethernet 14, dot1Q 4.
def test_every_header_is_listed_by_name_in_wire_order_outer_first() -> None:
    budget = overhead_budget(1500, UDP, 8, sublayer=True, dot1q=True)
    assert budget.items == (
        ("outer IPv4 header", 20),
        ("UDP header", 8),
        ("L2TPv3 flags and version", 4),
        ("session ID", 4),
        ("cookie", 8),
        ("L2-specific sublayer", 4),
        ("inner Ethernet header", 14),
        ("inner dot1Q tag", 4),
    )
    # what goes in front of the Ethernet frame: 20 + 8 + 4 + 4 + 8 + 4 = 48
    assert budget.encap_overhead == 48
    assert (budget.encapsulation, budget.cookie, budget.sublayer) == (UDP, 8, True)


# The brief's table (section 2), row by row, as `l2tpgen mtu --all` prints it: untagged then tagged.
def test_matrix_rows_are_the_briefs_table_in_order() -> None:
    rows = [
        (b.encapsulation, b.cookie, b.sublayer, b.dot1q, b.max_inner_mtu) for b in budget_matrix()
    ]
    assert rows == [
        (IP, 0, False, False, 1462),
        (IP, 0, False, True, 1458),
        (IP, 4, False, False, 1458),
        (IP, 4, False, True, 1454),
        (IP, 8, False, False, 1454),
        (IP, 8, False, True, 1450),
        (IP, 8, True, False, 1450),
        (IP, 8, True, True, 1446),
        (UDP, 0, True, False, 1446),
        (UDP, 0, True, True, 1442),
    ]
    assert {b.wan_mtu for b in budget_matrix()} == {1500}
    assert budget_matrix(9000)[0].max_inner_mtu == 9000 - 38


@pytest.mark.parametrize("wan", [576, 65535])
def test_the_smallest_and_largest_ip_mtus_are_accepted(wan: int) -> None:
    assert overhead_budget(wan).max_inner_mtu == wan - 38


@pytest.mark.parametrize("wan", [575, 65536])
def test_a_wan_mtu_outside_576_to_65535_is_refused_with_the_range(wan: int) -> None:
    with pytest.raises(ValueError, match=f"WAN MTU must be between 576 and 65535, not {wan}"):
        overhead_budget(wan)


@pytest.mark.parametrize(
    ("circuit", "inner_mtu"),
    [
        # 1500 - 20 (IPv4) - 4 (session) - 14 (Ethernet) - 4 (tag) = 1458: a port-mode trunk's
        # frames keep their tag (Cisco's L2TPv3 guide, 12.0(29)S: "any Ethernet frame received on
        # an interface is tunneled"; the lab's single-trunk variant measures 1458)
        (Circuit.ETHERNET_PORT, 1458),
        (Circuit.DOT1Q_SUBINTERFACE, 1458),
        (Circuit.SERIAL, 1472),  # HDLC/PPP header 4, no tag: 1500 - 28
        (Circuit.OTHER, 1462),  # Ethernet 14, no tag
    ],
    ids=lambda v: v.name.lower() if isinstance(v, Circuit) else str(v),
)
def test_each_attachment_circuit_hands_the_pseudowire_its_own_header(
    circuit: Circuit, inner_mtu: int
) -> None:
    budget = overhead_budget(1500, dot1q=circuit.dot1q, inner_header=circuit.inner_header)
    assert budget.max_inner_mtu == inner_mtu
