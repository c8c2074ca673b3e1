"""Host advice: pinned on the field reports' figures, each item with its reason and numbers, and
a sysctl file that ``sysctl -p`` reads."""

from __future__ import annotations

import re

import pytest

from l2tpgen.hosts import (
    HostsInputError,
    NetworkPath,
    merged_sysctls,
    needs_bbr,
    recommend,
    render_sysctl,
    tcp_buffer_max,
)
from l2tpgen.hosts.path import power_of_two, power_of_two_mib

MIB = 1 << 20
FIELD = NetworkPath(bandwidth_bps=10**10, rtt_ms=55, loss=0.01)
CAMPUS = NetworkPath(bandwidth_bps=10**10, rtt_ms=0.05)


def _triple(value: str | None) -> tuple[int, ...]:
    assert value is not None
    return tuple(int(x) for x in value.split())


def test_the_field_path_has_a_bandwidth_delay_product_of_about_69_megabytes() -> None:
    assert FIELD.bdp_bytes == 68_750_000


def test_a_campus_link_has_a_bandwidth_delay_product_of_about_64_kilobytes() -> None:
    assert CAMPUS.bdp_bytes == 62_500
    assert power_of_two(CAMPUS.bdp_bytes) == 64 * 1024
    basis = recommend(CAMPUS, 1462, "storage").items[2].basis[0]
    assert basis == "BDP = 10 Gb/s x 0.05 ms / 8 = 62 500 B (0.06 MiB; a 65 536 B window)"


def test_live_migration_over_the_field_path_gets_at_least_64_mib_buffers_and_bbr() -> None:
    advice = recommend(FIELD, 1462, "live-migration")
    assert _triple(advice.value("net.ipv4.tcp_rmem"))[2] >= 64 * MIB
    assert _triple(advice.value("net.ipv4.tcp_wmem"))[2] >= 64 * MIB
    assert int(advice.value("net.core.rmem_max") or 0) >= 64 * MIB
    assert advice.value("net.ipv4.tcp_congestion_control") == "bbr"
    assert advice.value("net.core.default_qdisc") == "fq"
    assert advice.value("net.ipv4.tcp_mtu_probing") == "1"


def test_buffers_are_twice_the_bdp_rounded_up_to_a_power_of_two_mib() -> None:
    # 2 x 65.6 MiB = 131.1 MiB -> 256 MiB; 2 x 6.9 MiB (10 Gb/s x 5.5 ms) = 13.8 -> 16 MiB
    assert tcp_buffer_max(FIELD) == 256 * MIB
    assert tcp_buffer_max(NetworkPath(10**10, 5.5)) == 16 * MIB


def test_rounding_goes_up_to_the_next_power_of_two_at_its_boundaries() -> None:
    assert power_of_two_mib(64 * MIB) == 64 * MIB
    assert power_of_two_mib(64 * MIB + 1) == 128 * MIB
    assert power_of_two(65_536) == 65_536
    assert power_of_two(65_537) == 131_072


def test_buffers_never_drop_below_linux_defaults_nor_grow_past_one_gib() -> None:
    assert tcp_buffer_max(CAMPUS) == 6 * MIB
    assert tcp_buffer_max(NetworkPath(10**11, 500)) == 1024 * MIB


def test_a_campus_link_keeps_linux_defaults_and_cubic() -> None:
    advice = recommend(CAMPUS, 1462, "live-migration")
    keys = {key for key, _ in advice.sysctls}
    assert keys == {"net.ipv4.tcp_mtu_probing"}
    assert advice.value("TCP buffers") == "keep Linux's defaults"
    assert advice.value("TCP congestion control") == "keep the default (cubic)"


def test_bbr_follows_loss_that_bounds_cubic_below_the_bandwidth() -> None:
    # 5 ms, 0.1 % loss: Mathis bound ~88 Mb/s -- below 10 Gb/s, above 10 Mb/s.
    lossy = NetworkPath(10**10, 5, 0.001)
    assert needs_bbr(lossy, 1422)[0]
    assert not needs_bbr(NetworkPath(10**7, 5, 0.001), 1422)[0]


def test_bbr_follows_a_long_rtt_from_20_ms() -> None:
    assert needs_bbr(NetworkPath(10**9, 20), 1422)[0]
    assert not needs_bbr(NetworkPath(10**9, 19.9), 1422)[0]


def test_every_item_says_why_and_shows_its_numbers() -> None:
    for workload in ("live-migration", "cluster-heartbeat", "storage", "general"):
        for item in recommend(FIELD, 1462, workload).items:
            assert item.reason, item
            assert item.basis, item


def test_the_buffer_item_shows_the_bdp_formula_and_rounding_rule() -> None:
    advice = recommend(FIELD, 1462, "storage")
    basis = next(a.basis for a in advice.items if a.setting == "net.ipv4.tcp_rmem")
    assert "BDP = 10 Gb/s x 55 ms / 8 = 68 750 000 B" in basis[0]
    assert basis[1] == "max = 2 x BDP rounded up to a power of two MiB = 256 MiB"


def test_host_mtu_is_the_inner_mtu_and_mss_40_less() -> None:
    advice = recommend(FIELD, 1462, "general")
    assert advice.value("host MTU") == "1462"
    assert advice.value("TCP MSS") == "1422"


def test_udp_heartbeat_vlans_get_rmem_max_for_corosyncs_request_and_netmtu_within_the_mtu() -> None:
    # Was: 25 MiB in rmem_default and friends for every heartbeat VLAN (issue 19: rmem_default
    # changes every socket; Corosync asks for its own size, capped at rmem_max). udp asks for
    # 16 x 65536 B = 1 MiB (corosync exec/totemudp.c).
    advice = recommend(FIELD, 1458, "cluster-heartbeat", "udp")
    assert advice.value("net.core.rmem_max") == advice.value("net.core.wmem_max") == str(MIB)
    assert advice.value("net.core.rmem_default") is None
    assert advice.value("net.core.wmem_default") is None
    assert int(advice.value("corosync totem.netmtu") or 0) <= 1458
    assert advice.value("ethernetX.emuRxMode") == "1"
    assert advice.value("net.ipv4.tcp_congestion_control") is None


def test_hypervisor_notes_cover_vmxnet3_rings_and_multi_stream_migration() -> None:
    heartbeat = recommend(FIELD, 1462, "cluster-heartbeat")
    migration = recommend(FIELD, 1462, "live-migration")
    assert "rx 4096" in (heartbeat.value("vmxnet3 receive rings") or "")
    assert "multi-stream vMotion" in next(
        a.reason for a in migration.items if a.setting == "migration streams"
    )


@pytest.mark.parametrize(
    ("bandwidth", "rtt", "loss", "mtu", "workload"),
    [
        (0, 55, 0, 1462, "general"),
        (10**9, 0, 0, 1462, "general"),
        (10**9, 55, 1.0, 1462, "general"),
        (10**9, 55, -0.1, 1462, "general"),
        (10**9, 55, 0, 100, "general"),
        (10**9, 55, 0, 1462, "backups"),
    ],
    ids=["no-bandwidth", "no-rtt", "all-lost", "negative-loss", "tiny-mtu", "unknown-workload"],
)
def test_impossible_inputs_are_refused(
    bandwidth: int, rtt: float, loss: float, mtu: int, workload: str
) -> None:
    with pytest.raises(HostsInputError):
        recommend(NetworkPath(bandwidth, rtt, loss), mtu, workload)  # type: ignore[arg-type]


def test_the_sysctl_file_is_key_equals_value_lines_and_comments() -> None:
    text = render_sysctl([recommend(FIELD, 1462, "live-migration")])
    for line in text.splitlines():
        assert line == "" or line.startswith("#") or re.fullmatch(r"[a-z0-9_.]+ = \S.*", line), line
    assert "net.ipv4.tcp_congestion_control = bbr\n" in text
    assert "net.ipv4.tcp_rmem = 4096 131072 268435456\n" in text


def test_one_file_for_several_vlans_takes_the_larger_value_per_key() -> None:
    advice = [
        recommend(FIELD, 1462, "live-migration"),
        recommend(FIELD, 1462, "cluster-heartbeat", "udpu"),
    ]
    merged = dict(merged_sysctls(advice))
    assert merged["net.core.rmem_max"] == str(256 * MIB)  # TCP's, larger than udpu's 4 MiB
    assert "net.core.rmem_default" not in merged
    assert list(merged).count("net.core.rmem_max") == 1


def test_a_path_needing_nothing_says_so_in_the_file() -> None:
    text = render_sysctl([recommend(CAMPUS, 1462, "cluster-heartbeat", "udp")])
    assert "net.core.rmem_max = 1048576" in text
    assert "nothing to change" in render_sysctl([recommend(CAMPUS, 1462, "cluster-heartbeat")])
    empty = render_sysctl([])
    assert "nothing to change" in empty


def test_without_a_path_only_what_does_not_depend_on_it_is_advised() -> None:
    advice = recommend(None, 1458, "live-migration")
    assert advice.value("host MTU") == "1458"
    assert advice.value("net.ipv4.tcp_mtu_probing") == "1"
    assert advice.value("path") == "not stated"
    assert advice.value("migration streams") == "several"
    assert advice.value("net.ipv4.tcp_rmem") is None
    assert advice.value("net.ipv4.tcp_congestion_control") is None
    assert all(item.reason and item.basis for item in advice.items)


def test_a_heartbeat_vlan_without_a_path_still_gets_its_buffers_and_netmtu() -> None:
    advice = recommend(None, 1458, "cluster-heartbeat", "udpu")
    assert advice.value("net.core.rmem_max") == str(4 * MIB)
    assert advice.value("corosync totem.netmtu") == "1458"
    assert advice.value("path") is None


def test_the_sysctl_file_says_when_the_path_was_not_stated() -> None:
    text = render_sysctl([recommend(None, 1458, "general")], header=["site a,\nVLAN 10"])
    assert "# general over a path not stated, inner MTU 1458\n" in text
    assert "# site a, VLAN 10\n" in text
