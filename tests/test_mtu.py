"""The overhead budget pins the brief's table (shared/docs/l2tpv3-brief.md section 2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from l2tpgen.mtu import Encapsulation, budget_matrix, overhead_budget

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
