"""ESP overhead by transform and mode (``mtu.esp_overhead``), the figures the linter budgets with.

Sums worked out by hand from RFC 4303 (SPI + sequence 8, pad length + next header 2), the cipher's
IV and block (AES-CBC 16/16, 3DES 8/8, GCM 8 with padding to 4: RFC 4106), the ICV (HMAC-SHA1-96
12: RFC 2404; GCM 16) and a new IPv4 header (20) in tunnel mode; ESP in UDP adds 8 (RFC 3948).
The transport/GCM figure is the one measured in the lab (shared/docs/security-lab-notes.md):
the largest unfragmented CE packet fell from 1462 to 1428 bytes, 34 bytes.
"""

from __future__ import annotations

import pytest

from l2tpgen.mtu import esp_overhead


def test_transport_mode_aes_gcm_at_1500_costs_the_34_bytes_measured_in_the_lab() -> None:
    assert esp_overhead("esp-gcm 128", "transport", wan_mtu=1500) == 34


def test_tunnel_mode_aes_cbc_sha1_worst_case_is_the_old_73_byte_constant() -> None:
    assert esp_overhead("esp-aes 256 esp-sha-hmac", "tunnel") == 20 + 8 + 16 + 15 + 2 + 12 == 73


def test_tunnel_mode_aes_cbc_sha1_at_1500_pads_as_the_sizes_fall() -> None:
    # 1500 - 58 fixed = 1442 bytes left; 1442 + 2 is not a multiple of 16, 1438 + 2 is: 62.
    assert esp_overhead("esp-aes esp-sha-hmac", "tunnel", wan_mtu=1500) == 62


def test_transport_mode_costs_20_bytes_less_than_tunnel_mode() -> None:
    assert esp_overhead("esp-gcm 256", "transport") == 8 + 8 + 3 + 2 + 16
    assert esp_overhead("esp-gcm 256", "tunnel") == 20 + 8 + 8 + 3 + 2 + 16


def test_nat_traversal_adds_the_8_byte_udp_header() -> None:
    plain = esp_overhead("esp-3des esp-md5-hmac", "tunnel")
    assert plain == 20 + 8 + 8 + 7 + 2 + 12
    assert esp_overhead("esp-3des esp-md5-hmac", "tunnel", nat_t=True) == plain + 8


@pytest.mark.parametrize(("transform", "mode"), [("esp-seal", "tunnel"), ("esp-aes", "beet")])
def test_an_unknown_transform_or_mode_is_refused(transform: str, mode: str) -> None:
    with pytest.raises(ValueError, match=r"unknown ESP transform|tunnel or transport"):
        esp_overhead(transform, mode)
