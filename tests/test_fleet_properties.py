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
from strategies import build, fleets

from l2tpgen import FleetValidationError, render_site
from l2tpgen.lint import Severity, lint_sites
from l2tpgen.model import Vlan

XCONNECT = re.compile(r"^interface \S+\.(\d+)\n(?: .*\n)*? xconnect (\S+) (\d+) ", re.MULTILINE)


@given(fleets())
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
def test_any_valid_fleet_renders_and_both_ends_of_every_pseudowire_agree(
    raw: list[dict[str, Any]],
) -> None:
    fleet = build(raw)
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
        build(raw)
    assert any("unique on a router" in p.hint for p in caught.value.problems)


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
        build(raw)
    assert any(
        f"peer {ghost} is not a site of this fleet" in p.message for p in caught.value.problems
    )


@given(fleets())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_valid_model_renders_to_a_config_without_errors_or_warnings(
    raw: list[dict[str, Any]],
) -> None:
    findings = lint_sites(build(raw))
    assert [f for f in findings if f.severity >= Severity.WARNING] == []
