"""Property tests over generated fleets.

Any valid fleet renders; the two ends of every pseudowire agree (peer address, VC ID, VLAN);
invalid VLAN IDs, duplicate VC IDs and dangling peers are always rejected.
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from l2tpgen import FleetValidationError, render_site
from l2tpgen.model import Fleet, Site, Vlan

XCONNECT = re.compile(r"^interface \S+\.(\d+)\n(?: .*\n)*? xconnect (\S+) (\d+) ", re.MULTILINE)


def _site(index: int, loopback: bool) -> dict[str, Any]:
    wan: dict[str, Any] = {
        "interface": "GigabitEthernet0/1",
        "address": f"198.51.100.{8 * index + 1}/29",
        "gateway": f"198.51.100.{8 * index + 6}",
    }
    if loopback:
        wan["loopback"] = {"interface": "Loopback0", "address": f"203.0.113.{index + 1}/32"}
    return {
        "name": f"site-{index}",
        "hostname": f"rtr-{index}",
        "management": {"host": f"192.0.2.{index + 1}"},
        "wan": wan,
        "lan": {"interface": "GigabitEthernet0/0"},
        "l2tp_class": {"secret_env": "L2TPGEN_L2TP_SECRET"},
        "peers": [],
        "vlans": [],
    }


@st.composite
def fleets(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Raw site dicts of a valid fleet: 2-5 sites, random peerings, VLANs and VC IDs."""
    count = draw(st.integers(2, 5))
    sites = [_site(i, draw(st.booleans())) for i in range(count)]
    edges = draw(
        st.lists(st.sampled_from(list(combinations(range(count), 2))), min_size=1, unique=True)
    )
    vlan_ids = iter(draw(st.lists(st.integers(1, 4094), min_size=len(edges) * 4, unique=True)))
    for a, b in edges:
        sites[a]["peers"].append(f"site-{b}")
        sites[b]["peers"].append(f"site-{a}")
        explicit = draw(st.booleans())
        vc_ids = draw(st.lists(st.integers(5000, 2**32 - 1), min_size=4, max_size=4, unique=True))
        for vc_id in vc_ids[: draw(st.integers(1, 4))]:
            vlan = next(vlan_ids)
            for me, other in ((a, b), (b, a)):
                entry: dict[str, Any] = {"id": vlan, "name": f"v{vlan}", "peer": f"site-{other}"}
                if explicit:
                    entry["vc_id"] = vc_id
                sites[me]["vlans"].append(entry)
    return sites


def _build(raw: list[dict[str, Any]]) -> Fleet:
    return Fleet.build(Site.model_validate(site) for site in raw)


@given(fleets())
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
def test_any_valid_fleet_renders_and_both_ends_of_every_pseudowire_agree(
    raw: list[dict[str, Any]],
) -> None:
    fleet = _build(raw)
    by_address = {str(site.tunnel_address): name for name, site in fleet.sites.items()}
    ends: dict[str, set[tuple[int, str, int]]] = {}
    for name in fleet.sites:
        config = render_site(fleet, name)
        ends[name] = {(int(v), peer, int(vc)) for v, peer, vc in XCONNECT.findall(config)}
        assert len(ends[name]) == len(fleet.sites[name].vlans)
    for name, xconnects in ends.items():
        site = fleet.sites[name]
        model = {vlan.id: vlan for vlan in site.vlans}
        for vlan, peer_address, vc_id in xconnects:
            peer = by_address[peer_address]
            assert peer == model[vlan].peer != name
            assert vc_id == model[vlan].effective_vc_id
            assert (vlan, str(site.tunnel_address), vc_id) in ends[peer]


@given(st.one_of(st.integers(max_value=0), st.integers(min_value=4095)))
def test_vlan_ids_outside_1_to_4094_are_always_rejected(vlan_id: int) -> None:
    with pytest.raises(ValidationError, match=r"less than or equal to 4094|greater than or equal"):
        Vlan.model_validate({"id": vlan_id, "name": "x", "peer": "site-1"})


@given(fleets(), st.data())
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
def test_a_duplicate_vc_id_to_the_same_peer_is_always_rejected(
    raw: list[dict[str, Any]], data: st.DataObject
) -> None:
    candidates = [
        (s, i, j)
        for s, site in enumerate(raw)
        for i, j in combinations(range(len(site["vlans"])), 2)
        if site["vlans"][i]["peer"] == site["vlans"][j]["peer"]
    ]
    if not candidates:
        return  # a fleet with one VLAN per peering has no pair to collide
    s, i, j = data.draw(st.sampled_from(candidates))
    first = raw[s]["vlans"][i]
    raw[s]["vlans"][j]["vc_id"] = first.get("vc_id", first["id"])
    with pytest.raises(FleetValidationError) as caught:
        _build(raw)
    assert any("must be unique on a router" in p.hint for p in caught.value.problems)


@given(fleets(), st.data(), st.from_regex(r"[a-z][a-z0-9-]{0,12}", fullmatch=True))
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
def test_a_dangling_peer_is_always_rejected(
    raw: list[dict[str, Any]], data: st.DataObject, ghost: str
) -> None:
    if ghost in {site["name"] for site in raw}:
        ghost = f"ghost-{ghost}"
    site = data.draw(st.sampled_from(raw))
    site["peers"].append(ghost)
    with pytest.raises(FleetValidationError) as caught:
        _build(raw)
    assert any(
        f"peer {ghost} is not a site of this fleet" in p.message for p in caught.value.problems
    )
