"""Fleet checks that no test pinned (mutation testing found them): what is said, and where.

Each case changes a valid pair of sites (site-0 and site-1, WAN 198.51.100.1/29 and
198.51.100.9/29) and expects every problem the fleet check reports, as (field, message, hint):
the field is where ``validate`` points (file:line:column comes from it), so a wrong field is a
wrong pointer for the user. Messages were written from what each rule must tell a user, by hand.
"""

from __future__ import annotations

from typing import Any

import pytest
from builders import pair_dicts
from strategies import site_dict

from l2tpgen import FleetValidationError
from l2tpgen.model import Fleet, Site
from l2tpgen.model.problems import format_path

Said = tuple[str, str, str, str]  # site, field, message, hint


def _said(*raw: dict[str, Any]) -> list[Said]:
    try:
        Fleet.build(Site.model_validate(site) for site in raw)
    except FleetValidationError as exc:
        return [(p.site, format_path(p.path), p.message, p.hint) for p in exc.problems]
    return []


def test_the_unchanged_pair_is_valid() -> None:
    assert _said(*pair_dicts()) == []


@pytest.mark.parametrize("ip", ["198.51.100.0", "198.51.100.7"], ids=["network", "broadcast"])
def test_a_wan_address_that_is_the_subnets_network_or_broadcast_address_is_refused(
    ip: str,
) -> None:
    a, b = pair_dicts()
    a["wan"] |= {"address": f"{ip}/29", "gateway": "198.51.100.6"}
    assert _said(a, b) == [
        (
            "site-0",
            "wan.address",
            f"{ip} is the network or broadcast address of 198.51.100.0/29",
            "choose a host address of the subnet",
        )
    ]


@pytest.mark.parametrize("prefix", [31, 32])
def test_a_31_or_32_wan_has_no_network_or_broadcast_address_to_avoid(prefix: int) -> None:
    # RFC 3021: both addresses of a /31 are hosts; a /32 is the router's own address alone
    # (its gateway lies outside, which is reported for its own reason)
    a, b = pair_dicts()
    a["wan"] |= {"address": f"198.51.100.0/{prefix}", "gateway": "198.51.100.1"}
    said = _said(a, b)
    assert [s for s in said if "network or broadcast" in s[2]] == []


def test_a_loopback_inside_the_wan_subnet_is_refused_at_the_loopback() -> None:
    a, b = pair_dicts()
    a["wan"]["loopback"] = {"interface": "Loopback0", "address": "198.51.100.2/32"}
    assert _said(a, b) == [
        (
            "site-0",
            "wan.loopback.address",
            "loopback address 198.51.100.2 is inside the WAN subnet 198.51.100.0/29",
            "give the loopback an address of its own, routed to the peers",
        )
    ]


def test_a_device_type_that_is_not_the_platforms_is_refused() -> None:
    a, b = pair_dicts()
    a["platform"] = "iosxe"
    a["management"]["device_type"] = "cisco_ios"
    assert _said(a, b) == [
        (
            "site-0",
            "management.device_type",
            "device_type cisco_ios is not the platform iosxe's (cisco_xe)",
            "set `device_type: cisco_xe`, or leave it out (it follows the platform)",
        )
    ]


def test_the_platforms_own_device_type_is_accepted() -> None:
    a, b = pair_dicts()
    a["platform"] = "iosxe"
    a["management"]["device_type"] = "cisco_xe"
    assert _said(a, b) == []


def test_a_peer_listed_twice_is_refused_at_the_second_entry_and_no_more() -> None:
    a, b = pair_dicts()
    a["peers"] = ["site-1", "site-1", "site-1"]
    said = [s for s in _said(a, b) if "listed twice" in s[2]]
    assert said == [
        ("site-0", "peers[1]", "peer site-1 is listed twice", "remove the duplicate entry"),
        ("site-0", "peers[2]", "peer site-1 is listed twice", "remove the duplicate entry"),
    ]


def test_two_sites_with_one_loopback_address_are_refused_at_the_second_loopback() -> None:
    a, b = pair_dicts()
    a["wan"]["loopback"] = {"interface": "Loopback0", "address": "203.0.113.1/32"}
    b["wan"]["loopback"] = {"interface": "Loopback0", "address": "203.0.113.1/32"}
    assert _said(a, b) == [
        (
            "site-1",
            "wan.loopback.address",
            "tunnel source address 203.0.113.1 is also used by site-0 (site-0)",
            "every router needs its own tunnel source address",
        )
    ]


def test_listing_itself_does_not_hide_the_next_peers_problem() -> None:
    # site-0 lists itself first, then site-1, which does not list site-0 back
    a, b = pair_dicts()
    a["peers"] = ["site-0", "site-1"]
    b["peers"], b["vlans"] = [], []
    said = _said(a, b)
    assert ("site-0", "peers[0]") in [s[:2] for s in said]
    assert (
        "site-0",
        "peers[1]",
        "peer site-1 (site-1) does not list site-0 in its peers",
        "add site-0 to the peers of site-1, or remove site-1 here",
    ) in said


def _three(signaling: str, *, per_peer: bool = False) -> list[dict[str, Any]]:
    """site-0 with VLAN 10 to site-1 and VLAN 20 to site-2, both VC ID 7 (``signaling``).

    ``per_peer``: site-0's own class stays dynamic; its two peers entries ask for ``signaling``.
    """
    sites = [site_dict(i, loopback=False) for i in range(3)]
    for site in sites:
        site["pseudowire_class"] = {"signaling": signaling}
        if signaling == "static":
            site["l2tp_class"] = {"authentication": "none"}
    a, b, c = sites
    a["peers"] = ["site-1", "site-2"]
    if per_peer:
        a["pseudowire_class"] = {"signaling": "dynamic"}
        a["peers"] = [{"name": n, "pseudowire": {"signaling": signaling}} for n in a["peers"]]
    a["vlans"] = [
        {"id": 10, "name": "users", "peer": "site-1", "vc_id": 7},
        {"id": 20, "name": "voice", "peer": "site-2", "vc_id": 7},
    ]
    b["peers"], b["vlans"] = ["site-0"], [{"id": 10, "name": "users", "peer": "site-0", "vc_id": 7}]
    c["peers"], c["vlans"] = ["site-0"], [{"id": 20, "name": "voice", "peer": "site-0", "vc_id": 7}]
    return sites


STATIC_VC_TWICE = (
    "site-0",
    "vlans[1].vc_id",
    "VC ID 7 to peer site-2 is used by VLAN 10 and VLAN 20",
    (
        "with static signaling the VC ID is the session ID, unique on a router; give one VLAN "
        "another vc_id (left out, vc_id is the VLAN ID)"
    ),
)


# A static session's local session ID is its VC ID (`l2tp id`), and a session ID must be unique
# on the router that decapsulates (brief section 3): one VC ID to two peers collides. Dynamic
# sessions negotiate their session IDs: (peer, VC ID) is what must be unique there.
@pytest.mark.parametrize("per_peer", [False, True], ids=["site-class", "peer-entries"])
def test_one_static_vc_id_to_two_peers_is_refused_as_a_session_id_collision(
    per_peer: bool,
) -> None:
    assert [s for s in _said(*_three("static", per_peer=per_peer)) if s[0] == "site-0"] == [
        STATIC_VC_TWICE
    ]


def test_one_dynamic_vc_id_to_two_peers_is_accepted() -> None:
    assert _said(*_three("dynamic")) == []


def test_a_dynamic_vc_id_reused_for_one_peer_points_at_the_vlan_id_when_vc_id_is_left_out() -> None:
    a, b = pair_dicts()
    a["vlans"] = [
        {"id": 10, "name": "users", "peer": "site-1", "vc_id": 20},
        {"id": 20, "name": "voice", "peer": "site-1"},
    ]
    b["vlans"] = [
        {"id": 10, "name": "users", "peer": "site-0", "vc_id": 20},
        {"id": 20, "name": "voice", "peer": "site-0"},
    ]
    assert [s for s in _said(a, b) if s[0] == "site-0"] == [
        (
            "site-0",
            "vlans[1].id",
            "VC ID 20 to peer site-1 is used by VLAN 10 and VLAN 20",
            (
                "each (peer, VC ID) pair must be unique on a router; give one VLAN another vc_id "
                "(left out, vc_id is the VLAN ID)"
            ),
        )
    ]


def test_a_vlan_the_peer_sends_elsewhere_is_named_with_where_it_goes() -> None:
    # site-0 stretches VLAN 20 to site-1; site-1 has VLAN 20, but towards site-2
    sites = _three("dynamic")
    a, b, c = sites
    a["peers"] = ["site-1"]
    a["vlans"] = [{"id": 20, "name": "voice", "peer": "site-1"}]
    b["peers"] = ["site-0", "site-2"]
    b["vlans"] = [{"id": 20, "name": "voice", "peer": "site-2"}]
    c["peers"] = ["site-1"]
    c["vlans"] = [{"id": 20, "name": "voice", "peer": "site-1"}]
    assert [s[2] for s in _said(*sites) if s[0] == "site-0"] == [
        (
            "VLAN 20 is stretched to site-1, but site-1 declares no VLAN 20 with peer site-0 "
            "(it sends VLAN 20 to site-2)"
        )
    ]


def test_a_vc_id_mismatch_left_to_the_vlan_id_points_at_the_id() -> None:
    a, b = pair_dicts()
    b["vlans"] = [{"id": 10, "name": "users", "peer": "site-0", "vc_id": 11}]
    assert _said(a, b) == [
        (
            "site-0",
            "vlans[0].id",
            "VLAN 10 has VC ID 10 here but 11 in site-1",
            "both ends of a pseudowire must use the same VC ID",
        )
    ]


LINK_10MS = {"bandwidth": "1Gbit", "rtt_ms": 10}
LINK_20MS = {"bandwidth": "1Gbit", "rtt_ms": 20}


def test_a_link_stated_only_at_the_end_that_sorts_second_is_accepted() -> None:
    a, b = pair_dicts()
    b["peers"] = [{"name": "site-0", "link": LINK_10MS}]
    assert _said(a, b) == []


def test_a_link_mismatch_is_found_after_a_peer_without_a_link() -> None:
    sites = _three("dynamic")
    a, _, c = sites
    a["peers"] = ["site-1", {"name": "site-2", "link": LINK_10MS}]
    c["peers"] = [{"name": "site-0", "link": LINK_20MS}]
    said = [s for s in _said(*sites) if s[1] == "peers[1].link"]
    assert [(s[0], s[2].startswith("the link to site-2 is "), s[3]) for s in said] == [
        (
            "site-0",
            True,
            "the two sites share one path: state the link at one end, or the same at both",
        )
    ]


def test_a_vlan_to_an_unknown_peer_does_not_hide_the_next_vlans_missing_mirror() -> None:
    a, b = pair_dicts()
    a["vlans"] = [
        {"id": 5, "name": "lost", "peer": "site-9"},
        {"id": 20, "name": "voice", "peer": "site-1"},
    ]
    messages = [s[2] for s in _said(a, b) if s[0] == "site-0"]
    assert "VLAN 5 names peer site-9, which is not in this site's peers" in messages
    assert "VLAN 20 is stretched to site-1, but site-1 declares no VLAN 20 with peer site-0" in (
        messages
    )
