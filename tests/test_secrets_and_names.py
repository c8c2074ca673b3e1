"""Type 7 encoding and IOS interface names."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from l2tpgen.ios.names import canonical_interface_name, interface_sort_key, short_interface_name
from l2tpgen.ios.type7 import Type7Error
from l2tpgen.ios.type7 import decode as type7_decode
from l2tpgen.ios.type7 import encode as type7_encode
from l2tpgen.secrets import mask_secrets


@pytest.mark.parametrize("encoded", ["070C285F4D06", "0822455D0A16"])
def test_type7_decodes_published_examples(encoded: str) -> None:
    assert type7_decode(encoded) == "cisco"


@given(
    st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=25),
    st.integers(0, 15),
)
def test_type7_round_trips_any_printable_secret(secret: str, salt: int) -> None:
    assert type7_decode(type7_encode(secret, salt)) == secret


@pytest.mark.parametrize("text", ["", "7", "0G11", "XX1234", "020E0157070", "16A0", "02"])
def test_type7_decode_refuses_garbage_without_echoing_it(text: str) -> None:
    # netutils' decoder alone accepts all of these (odd lengths, salt 16, no cipher text).
    with pytest.raises(Type7Error, match=r"^not a type 7 string$"):
        type7_decode(text)


@pytest.mark.parametrize(
    ("secret", "why"),
    [
        ("caf\u00e9-secret", "printable ASCII"),
        ("emoji-\U0001f600", "printable ASCII"),
        ("two words", "printable ASCII"),
        ("x" * 26, "at most 25"),
    ],
)
def test_type7_refuses_secrets_it_cannot_carry_without_echoing_them(secret: str, why: str) -> None:
    with pytest.raises(Type7Error, match=why) as caught:
        type7_encode(secret, 2)
    assert secret not in str(caught.value)


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
        ("Loop 0", "Loopback0"),
        ("tunnel 1", "Tunnel1"),
        ("GigabitEthernet 0/1", "GigabitEthernet0/1"),
        ("gigabitethernet0/1", "GigabitEthernet0/1"),
        ("Giga0/1", "GigabitEthernet0/1"),
        ("po1", "Port-channel1"),
        ("f0/1", "FastEthernet0/1"),
        ("Vl10", "Vlan10"),
    ],
)
def test_abbreviated_interface_names_expand_like_ios(typed: str, canonical: str) -> None:
    assert canonical_interface_name(typed) == canonical


@pytest.mark.parametrize(
    "typed",
    ["Gi\u0660/1", "GigabitEthernet\uff10/1", "G0/1.0", "Frobnicator0/1", "interface", "0/1"],
)
def test_names_ios_would_refuse_are_refused(typed: str) -> None:
    # Arabic-Indic and full-width digits pass Python's \\d, never IOS.
    with pytest.raises(ValueError, match="interface"):
        canonical_interface_name(typed)


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
        ("Serial0/0/0", "Se0/0/0"),
    ],
)
def test_show_outputs_use_the_short_interface_names_ios_prints(name: str, short: str) -> None:
    assert short_interface_name(name) == short


@pytest.mark.parametrize(
    ("line", "masked"),
    [
        ("no password 7 0822455D0A16", "no password 7 <masked>"),
        (" password 0 hunter2", " password 0 <masked>"),
        (" password hunter2", " password <masked>"),
        (" digest secret 7 0822455D0A16 hash sha", " digest secret 7 <masked> hash sha"),
        (" no digest secret 0 hunter2 hash sha", " no digest secret 0 <masked> hash sha"),
        (
            "username admin privilege 15 secret 9 $9$abc",
            "username admin privilege 15 secret 9 <masked>",
        ),
        ("username bob password 0 pw", "username bob password 0 <masked>"),
        ("enable secret 5 $1$xyz", "enable secret 5 <masked>"),
        ("enable password level 15 7 0822", "enable password level 15 7 <masked>"),
        ("snmp-server community public RO", "snmp-server community <masked> RO"),
        (
            "crypto isakmp key s3cr3t address 192.0.2.1",
            "crypto isakmp key <masked> address 192.0.2.1",
        ),
        (" key-string abc", " key-string <masked>"),
        (
            " ip ospf message-digest-key 1 md5 7 1234",
            " ip ospf message-digest-key 1 md5 7 <masked>",
        ),
    ],
)
def test_every_secret_form_is_masked(line: str, masked: str) -> None:
    assert mask_secrets(line) == masked
    assert mask_secrets(line + "\n") == masked + "\n"


@pytest.mark.parametrize(
    "line",
    [
        " password 7 <L2TPGEN_L2TP_SECRET>",  # l2tpgen's own placeholder: no secret in it
        " description the key to site-b",
        "key chain OSPF",
        " digest hash sha",
        "interface GigabitEthernet0/0",
    ],
)
def test_lines_without_a_secret_are_left_alone(line: str) -> None:
    assert mask_secrets(line) == line
