"""The path between two sites (``peers[].link``) and what a VLAN carries (``vlans[].carries``).

Both optional; either end may state them and one statement applies to the pair. The broken fleets
``link-*``, ``carries-mismatch`` and ``unknown-workload`` pin the located messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from builders import users_pair
from conftest import ROOT, SITES
from pydantic import ValidationError

from l2tpgen import load_fleet
from l2tpgen.errors import FleetValidationError
from l2tpgen.model.link import Link

if TYPE_CHECKING:
    from pathlib import Path

FIELD = ROOT / "examples" / "field"


@pytest.mark.parametrize(
    ("written", "bps"),
    [
        ("10Gbit", 10**10),
        ("10 Gbit", 10**10),
        ("10gbit", 10**10),
        ("10Gb/s", 10**10),
        ("10Gbit/s", 10**10),
        ("2.5Gbit", 2_500_000_000),
        ("500Mbit", 500_000_000),
        ("64kbit", 64_000),
        (10_000_000_000, 10**10),
        (1e9, 10**9),
    ],
)
def test_bandwidth_is_read_as_tc_writes_it_or_as_bit_per_second(written: object, bps: int) -> None:
    assert Link.model_validate({"bandwidth": written, "rtt_ms": 1}).bandwidth == bps


@pytest.mark.parametrize(
    "written",
    ["10GBps", "125MB/s", "10Mbps", "10G", "fast", 10, 999, "2Tbit", True, None],
    ids=[
        "GBps",
        "MB/s",
        "Mbps",
        "no-bit",
        "word",
        "bare-10",
        "below-1kbit",
        "above-1tbit",
        "bool",
        "null",
    ],
)
def test_bandwidth_in_bytes_without_a_unit_or_out_of_range_is_refused(written: object) -> None:
    with pytest.raises(ValidationError):
        Link.model_validate({"bandwidth": written, "rtt_ms": 1})


def test_the_smallest_and_largest_bandwidths_are_taken() -> None:
    assert Link.model_validate({"bandwidth": "1kbit", "rtt_ms": 1}).bandwidth == 1000
    assert Link.model_validate({"bandwidth": "1Tbit", "rtt_ms": 1}).bandwidth == 10**12


@pytest.mark.parametrize(
    ("written", "fraction"), [("1%", 0.01), ("1 %", 0.01), (0.01, 0.01), ("0.1%", 0.001), (0, 0.0)]
)
def test_loss_is_a_fraction_or_a_percentage(written: object, fraction: float) -> None:
    assert (
        Link.model_validate({"bandwidth": "1Gbit", "rtt_ms": 1, "loss": written}).loss == fraction
    )


@pytest.mark.parametrize("written", [1, 1.5, "100%", -0.01, "1 percent", True])
def test_loss_of_everything_or_less_than_nothing_is_refused(written: object) -> None:
    with pytest.raises(ValidationError):
        Link.model_validate({"bandwidth": "1Gbit", "rtt_ms": 1, "loss": written})


@pytest.mark.parametrize("rtt", [0, -1, 10_000.5, "55", True])
def test_rtt_must_be_a_number_of_milliseconds_above_zero_and_at_most_ten_seconds(
    rtt: object,
) -> None:
    with pytest.raises(ValidationError):
        Link.model_validate({"bandwidth": "1Gbit", "rtt_ms": rtt})
    assert Link.model_validate({"bandwidth": "1Gbit", "rtt_ms": 10_000}).rtt_ms == 10_000


def test_loss_defaults_to_none_lost() -> None:
    assert Link.model_validate({"bandwidth": "1Gbit", "rtt_ms": 1}).loss == 0


def test_a_link_stated_at_one_end_applies_to_both_ends(tmp_path: Path) -> None:
    fleet = load_fleet(users_pair(tmp_path, link_a="{bandwidth: 10Gbit, rtt_ms: 55}"))
    (from_a,) = fleet.pseudowires("site-a")
    (from_b,) = fleet.pseudowires("site-b")
    assert from_a.link == from_b.link
    assert from_b.link is not None
    assert (from_b.link.bandwidth, from_b.link.rtt_ms) == (10**10, 55)


def test_both_ends_may_state_the_same_link_in_different_words(tmp_path: Path) -> None:
    fleet = load_fleet(
        users_pair(
            tmp_path,
            link_a='{bandwidth: 10Gbit, rtt_ms: 55, loss: "1%"}',
            link_b="{bandwidth: 10000000000, rtt_ms: 55.0, loss: 0.01}",
        )
    )
    assert fleet.pseudowires("site-a")[0].link == fleet.pseudowires("site-b")[0].link


def test_two_different_links_for_one_pair_name_both_files(tmp_path: Path) -> None:
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(
            users_pair(
                tmp_path,
                link_a="{bandwidth: 10Gbit, rtt_ms: 55}",
                link_b="{bandwidth: 10Gbit, rtt_ms: 56}",
            )
        )
    (problem,) = caught.value.problems
    assert problem.location is not None
    assert problem.location.file.endswith("site-a.yaml")
    assert "site-b.yaml" in problem.message
    assert "55 ms" in problem.message
    assert "56 ms" in problem.message


def test_what_a_vlan_carries_is_said_at_one_end_and_applies_to_both(tmp_path: Path) -> None:
    fleet = load_fleet(users_pair(tmp_path, b=", carries: live-migration"))
    assert fleet.pseudowires("site-a")[0].carries == "live-migration"
    assert fleet.pseudowires("site-b")[0].carries == "live-migration"


def test_a_vlan_that_says_nothing_carries_general_traffic(tmp_path: Path) -> None:
    (pw,) = load_fleet(users_pair(tmp_path)).pseudowires("site-a")
    assert (pw.carries, pw.stated_carries, pw.link) == ("general", None, None)


def test_two_different_workloads_for_one_vlan_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(users_pair(tmp_path, ", carries: storage", ", carries: general"))
    (problem,) = caught.value.problems
    assert problem.message.startswith("VLAN 10 carries storage here but general in ")
    assert load_fleet(users_pair(tmp_path, ", carries: storage", ", carries: storage"))


def test_the_example_sites_still_validate_without_links_or_workloads() -> None:
    fleet = load_fleet(SITES)
    assert all(pw.link is None for pw in fleet.pseudowires("site-a"))
    assert {pw.carries for pw in fleet.pseudowires("site-a")} == {"general"}


def test_the_field_example_states_its_link_once_for_both_data_centres() -> None:
    fleet = load_fleet(FIELD)
    links = {pw.link for name in fleet.sites for pw in fleet.pseudowires(name)}
    assert len(links) == 1
    (link,) = links
    assert link is not None
    assert link.describe() == "10 Gb/s, 55 ms RTT, 1 % loss"
