"""Type 7 encoding and IOS interface names."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from l2tpgen.ifname import canonical_interface_name, interface_sort_key, short_interface_name
from l2tpgen.secrets import type7_decode, type7_encode


@pytest.mark.parametrize("encoded", ["070C285F4D06", "0822455D0A16"])
def test_type7_decodes_published_examples(encoded: str) -> None:
    assert type7_decode(encoded) == "cisco"


@given(
    st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=25),
    st.integers(0, 15),
)
def test_type7_round_trips_any_printable_secret(secret: str, salt: int) -> None:
    assert type7_decode(type7_encode(secret, salt)) == secret


@pytest.mark.parametrize("text", ["", "7", "0G11", "XX1234"])
def test_type7_decode_refuses_garbage_without_echoing_it(text: str) -> None:
    with pytest.raises(ValueError, match=r"^not a type 7 string$"):
        type7_decode(text)


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("Gi0/0", "GigabitEthernet0/0"),
        ("gi0/0.2996", "GigabitEthernet0/0.2996"),
        ("e0/0", "Ethernet0/0"),
        ("Fa0/1", "FastEthernet0/1"),
        ("Te1/0/1", "TenGigabitEthernet1/0/1"),
        ("lo0", "Loopback0"),
        ("GigabitEthernet0/0/0", "GigabitEthernet0/0/0"),
    ],
)
def test_abbreviated_interface_names_expand_like_ios(typed: str, canonical: str) -> None:
    assert canonical_interface_name(typed) == canonical


def test_interfaces_sort_as_running_config_lists_them() -> None:
    names = [
        "GigabitEthernet0/1",
        "GigabitEthernet0/0.10",
        "Loopback0",
        "GigabitEthernet0/0.9",
        "GigabitEthernet0/0",
    ]
    assert sorted(names, key=interface_sort_key) == [
        "Loopback0",
        "GigabitEthernet0/0",
        "GigabitEthernet0/0.9",
        "GigabitEthernet0/0.10",
        "GigabitEthernet0/1",
    ]


@pytest.mark.parametrize(
    ("name", "short"),
    [
        ("GigabitEthernet0/0.2996", "Gi0/0.2996"),
        ("TenGigabitEthernet1/0/1", "Te1/0/1"),
        ("Loopback0", "Lo0"),
        ("Serial0/0/0", "Serial0/0/0"),
    ],
)
def test_show_outputs_use_the_short_interface_names_ios_prints(name: str, short: str) -> None:
    assert short_interface_name(name) == short
