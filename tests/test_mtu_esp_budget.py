"""The ESP part of the MTU budget, computed from mode and transform, to the byte.

The lab figure comes from outside l2tpgen: shared/docs/security-lab-notes.md ("Largest
unfragmented CE packet ... 1462 bytes without ESP; 1428 with ESP transport mode, AES-GCM-128",
measured with don't-fragment pings on the real Linux kernel in the QEMU lab, PE-A's FragCreates
flat). The other expectations are worked out by hand from the RFCs: ESP header 8 (RFC 4303
section 2), AES-GCM IV 8 / ICV 16 / 4-byte alignment (RFC 4106 sections 3.1, 3.2, 6), AES-CBC IV 16
/ 16-byte block (RFC 3602), HMAC-SHA-256-128 ICV 16 (RFC 4868), HMAC-SHA-1-96 ICV 12 (RFC 2404),
pad length + next header 2, tunnel mode +20, NAT-T UDP +8 (RFC 3948).
"""

from __future__ import annotations

import json
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.cli.mtu import TransformChoice
from l2tpgen.model.protection import TRANSFORM_NAMES, Transform
from l2tpgen.mtu import ESP_TRANSFORMS, Encapsulation, Esp, esp_overhead, overhead_budget

runner = CliRunner()


def test_esp_transport_aes_gcm_128_gives_the_lab_measured_1428() -> None:
    # security-lab-notes.md: static tunnel, encap ip, no cookie, l2spec_type none, untagged
    # (Linux to Linux), 1500-byte WAN: 1462 in clear, 1428 with ESP transport AES-GCM-128.
    assert overhead_budget(1500).max_inner_mtu == 1462
    budget = overhead_budget(1500, esp=Esp("aes-gcm-128", "transport"))
    assert budget.max_inner_mtu == 1428
    assert budget.esp_overhead == 34


@pytest.mark.parametrize(
    ("esp", "wan", "expected"),
    [
        # transport CBC-SHA256: 1500-20-8-16-16 = 1440 (16-aligned) for payload+2 -> payload
        # 1438 = 4 (session) + 14 (Ethernet) + 1420
        pytest.param(Esp("aes-cbc-128-sha256"), 1500, 1420, id="transport-cbc-sha256"),
        # tunnel GCM: 1500-20-8-8-16 = 1448 -> 1446 = 20 (L2TPv3's IP) + 4 + 14 + 1408
        pytest.param(Esp("aes-gcm-128", "tunnel"), 1500, 1408, id="tunnel-gcm"),
        # transport GCM with NAT-T: 1500-20-8-8-8-16 = 1440 -> 1438 - 18 = 1420
        pytest.param(Esp("aes-gcm-128", nat_t=True), 1500, 1420, id="transport-gcm-nat-t"),
        # tunnel CBC-SHA1 (a raw config's esp-aes esp-sha-hmac): 1500-20-8-16-12 = 1444,
        # 16-aligned 1440 (4 bytes unusable) -> 1438 - 20 - 18 = 1400
        pytest.param(Esp("aes-cbc-128-sha1", "tunnel"), 1500, 1400, id="tunnel-cbc-sha1"),
        # transport CBC on a 1492-byte (PPPoE) WAN: 1492-60 = 1432, aligned 1424 -> 1422 - 18
        pytest.param(Esp("aes-cbc-256-sha256"), 1492, 1404, id="transport-cbc-pppoe"),
    ],
)
def test_esp_budgets_worked_out_by_hand(esp: Esp, wan: int, expected: int) -> None:
    assert overhead_budget(wan, esp=esp).max_inner_mtu == expected


def _esp_packet(esp: Esp, l2tp_payload: int) -> int:
    """An ESP-protected L2TPv3 packet's size on the wire, built up from RFC 4303's layout.

    ``l2tp_payload``: session ID, cookie, sublayer and the frame (what follows L2TPv3's IP
    header). Written independently of mtu.py: pad to the alignment, then add everything.
    """
    sizes = ESP_TRANSFORMS[esp.transform]
    protected = l2tp_payload + (20 if esp.mode == "tunnel" else 0)  # tunnel: inner IP header too
    padded = -(-(protected + 2) // sizes.align) * sizes.align
    return 20 + (8 if esp.nat_t else 0) + 8 + sizes.iv + padded + sizes.icv


@given(
    wan=st.integers(576, 9216),
    transform=st.sampled_from(sorted(ESP_TRANSFORMS)),
    mode=st.sampled_from(["transport", "tunnel"]),
    nat_t=st.booleans(),
    cookie=st.sampled_from([0, 4, 8]),
    dot1q=st.booleans(),
)
def test_the_largest_inner_packet_fits_and_one_byte_more_does_not(
    *, wan: int, transform: str, mode: str, nat_t: bool, cookie: int, dot1q: bool
) -> None:
    esp = Esp(transform, mode, nat_t)
    budget = overhead_budget(wan, Encapsulation.IP, cookie, sublayer=False, dot1q=dot1q, esp=esp)
    header = 4 + cookie + 14 + (4 if dot1q else 0)
    assert _esp_packet(esp, header + budget.max_inner_mtu) <= wan
    assert _esp_packet(esp, header + budget.max_inner_mtu + 1) > wan
    assert budget.max_inner_mtu + budget.total_overhead == wan


def test_unknown_transforms_and_modes_are_refused() -> None:
    with pytest.raises(ValueError, match="ESP transform must be one of"):
        Esp("3des")
    with pytest.raises(ValueError, match="ESP mode must be transport or tunnel"):
        Esp(mode="beet")


def test_the_cli_offers_exactly_the_models_transforms() -> None:
    assert {c.value for c in TransformChoice} == set(get_args(Transform))
    assert set(get_args(Transform)) <= set(ESP_TRANSFORMS)


def test_l2tpgen_mtu_prints_the_esp_budget() -> None:
    result = runner.invoke(app, ["mtu", "--ipsec", "transport", "--no-dot1q", "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["max_inner_mtu"] == 1428
    assert report["esp"] == {
        "transform": "aes-gcm-128",
        "mode": "transport",
        "nat_t": False,
        "overhead": 34,
    }
    tunnel = ["mtu", "--ipsec", "tunnel", "--transform", "aes-cbc-128-sha256", "--no-dot1q"]
    text = runner.invoke(app, tunnel)
    assert "ESP tunnel aes-cbc-128-sha256" in text.stdout
    assert "1400" in text.stdout  # 1500-20-8-16-16 = 1440 -> 1438 - 20 - 18


@given(
    wan=st.integers(576, 9216),
    transform=st.sampled_from(sorted(TRANSFORM_NAMES)),
    mode=st.sampled_from(["transport", "tunnel"]),
    nat_t=st.booleans(),
)
def test_the_model_budget_and_the_linters_esp_overhead_agree_on_the_transform_set_rendered(
    wan: int, transform: str, mode: str, nat_t: bool
) -> None:
    # Two implementations (the model's Esp, the linter's esp_overhead over the IOS transform set
    # l2tpgen renders for the same transform): a rendered config must lint with the budget it
    # was rendered with.
    ios = TRANSFORM_NAMES[transform].ios_esp
    ours = overhead_budget(wan, esp=Esp(transform, mode, nat_t)).esp_overhead
    assert esp_overhead(ios, mode, nat_t=nat_t, wan_mtu=wan) == ours
