"""Hypothesis strategies shared by the property tests: valid fleets of generated sites."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from hypothesis import strategies as st

from l2tpgen.model import Fleet, Site


def site_dict(index: int, loopback: bool) -> dict[str, Any]:
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
    static = draw(st.booleans())
    sites = [site_dict(i, draw(st.booleans())) for i in range(count)]
    if static:
        for site in sites:
            site["pseudowire_class"] = {"signaling": "static"}
            site["l2tp_class"] = {"authentication": "none"}
    edges = draw(
        st.lists(st.sampled_from(list(combinations(range(count), 2))), min_size=1, unique=True)
    )
    vlan_ids = iter(draw(st.lists(st.integers(1, 4094), min_size=len(edges) * 4, unique=True)))
    for a, b in edges:
        sites[a]["peers"].append(f"site-{b}")
        sites[b]["peers"].append(f"site-{a}")
        # Static session IDs are the VC IDs, unique per router: derive them from the VLAN IDs,
        # which this strategy keeps unique across the fleet.
        explicit = not static and draw(st.booleans())
        vc_ids = draw(st.lists(st.integers(5000, 2**32 - 1), min_size=4, max_size=4, unique=True))
        for vc_id in vc_ids[: draw(st.integers(1, 4))]:
            vlan = next(vlan_ids)
            for me, other in ((a, b), (b, a)):
                entry: dict[str, Any] = {"id": vlan, "name": f"v{vlan}", "peer": f"site-{other}"}
                if explicit:
                    entry["vc_id"] = vc_id
                sites[me]["vlans"].append(entry)
    return sites


def build(raw: list[dict[str, Any]]) -> Fleet:
    """Validate generated site dicts as a fleet."""
    return Fleet.build(Site.model_validate(site) for site in raw)
