"""Hypothesis strategies shared by the property tests: valid fleets of generated sites."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from hypothesis import strategies as st

from l2tpgen.model import Fleet, Site
from l2tpgen.model.secret_names import L2TP_SECRET_ENV


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


_HOLD = st.none() | st.fixed_dictionaries({"in": st.integers(0, 4096), "out": st.integers(0, 4096)})
_PORT: dict[str, Any] = {
    "hold_queue": _HOLD,
    "duplex": st.none() | st.sampled_from(["auto", "full", "half"]),
    "speed": st.none() | st.sampled_from(["auto", 10, 100, 1000]),
}
XE_PORTS = ("GigabitEthernet1", "GigabitEthernet2")
_IOS_NAME = st.from_regex(r"[a-z][a-z0-9]{0,10}", fullmatch=True)


def _port(draw: st.DrawFn, port: dict[str, Any]) -> dict[str, Any]:
    """``port`` with the hold-queues, duplex and speed drawn (those drawn as None left out)."""
    drawn = {key: draw(values) for key, values in _PORT.items()}
    return port | {key: value for key, value in drawn.items() if value is not None}


def _l2tp_class(draw: st.DrawFn) -> dict[str, Any]:
    authentication = draw(st.sampled_from(["none", "password", "digest"]))
    l2tp: dict[str, Any] = {"name": draw(_IOS_NAME), "authentication": authentication}
    if authentication != "none":
        l2tp["secret_env"] = L2TP_SECRET_ENV
    if authentication == "digest" and draw(st.booleans()):
        l2tp["hash"] = draw(st.sampled_from(["md5", "sha"]))
    hello = draw(st.none() | st.integers(1, 1000))
    if hello is not None:
        l2tp["hello"] = hello
    return l2tp


def _pw_class(draw: st.DrawFn, signaling: str) -> dict[str, Any]:
    pw: dict[str, Any] = {
        "name": draw(_IOS_NAME),
        "signaling": signaling,
        "df_bit": draw(st.booleans()),
        "tos_reflect": draw(st.booleans()),
        "sequencing": draw(st.sampled_from(["none", "transmit", "receive", "both"])),
    }
    if signaling == "static":
        pw["cookie"] = draw(st.sampled_from([0, 4, 8]))
        pw["static_hello"] = draw(st.booleans())
    else:
        pw["pmtu"] = draw(st.booleans())
    return pw


@st.composite
def ios_pairs(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Raw site dicts of two IOS or IOS-XE sites peering over 1-4 VLANs, with every setting a
    running config carries drawn: platform, hostname, WAN and LAN ports (hold-queues, duplex,
    speed), loopback, routes, CDP, both classes (one set for the pair), VC IDs, native VLAN."""
    signaling = draw(st.sampled_from(["dynamic", "static"]))
    l2tp, pw = _l2tp_class(draw), _pw_class(draw, signaling)
    count = draw(st.integers(1, 4))
    ids = draw(st.lists(st.integers(2, 4094), min_size=count, max_size=count, unique=True))
    vc_pool = draw(
        st.lists(st.integers(5000, 2**32 - 1), min_size=count, max_size=count, unique=True)
    )
    vc_ids = [vc if draw(st.booleans()) else None for vc in vc_pool]
    names = draw(st.lists(_IOS_NAME, min_size=count, max_size=count))
    native = draw(st.sampled_from([None, *ids]))
    sites = []
    for index, other in ((0, 1), (1, 0)):
        site = site_dict(index, draw(st.booleans()))
        site["hostname"] = f"{draw(_IOS_NAME)}-{index}"
        site["platform"] = draw(st.sampled_from(["ios", "iosxe"]))
        if site["platform"] == "iosxe":  # CSR 1000v, Catalyst 8000v: GigabitEthernetN
            site["wan"]["interface"], site["lan"]["interface"] = XE_PORTS
        site["wan"] = _port(draw, site["wan"])
        site["lan"] = _port(draw, site["lan"])
        if draw(st.booleans()):
            site["wan"]["routes"] = ["0.0.0.0/0", f"172.{16 + index}.0.0/16"]
        site["cdp"] = draw(st.booleans())
        site["l2tp_class"], site["pseudowire_class"] = dict(l2tp), dict(pw)
        site["peers"] = [f"site-{other}"]
        site["vlans"] = [
            {"id": vlan, "name": name, "peer": f"site-{other}"}
            | ({"vc_id": vc} if vc is not None else {})
            | ({"native": True} if vlan == native else {})
            for vlan, vc, name in zip(ids, vc_ids, names, strict=True)
        ]
        sites.append(site)
    return sites
