"""Model -> render (IOS) -> import -> model gives back every field a running config carries.

Over generated pairs of IOS and IOS-XE sites (``strategies.ios_pairs``: ports, hold-queues,
duplex and speed, loopbacks, routes, CDP, both classes, VC IDs, a native VLAN drawn), each site
comes back from its own rendered config with every field of ``RECOVERED`` equal, compared as the
router holds it (a default the file states and one it leaves out are the same config). The
fields a running config cannot carry are ``NOT_CARRIED``, each with the reason; a new site field
fails ``test_every_site_field_is_recovered_or_says_why_a_config_cannot_carry_it`` until it is
placed in one or the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hypothesis import given, settings
from strategies import build, ios_pairs

from l2tpgen.importer import import_configs
from l2tpgen.model import Fleet, Site
from l2tpgen.model.site import L2tpClass, Lan, PseudowireClass, Vlan, Wan
from l2tpgen.platforms.render import render_site
from l2tpgen.render.classes import IOS_DEFAULT_HELLO

if TYPE_CHECKING:
    from pydantic import BaseModel

# What the importer gives back, by the model's field paths.
RECOVERED = {
    "name": "l2tpgen's header line (`! l2tpgen: NAME (HOSTNAME)`)",
    "hostname": "`hostname`",
    "platform": "the software the config reads as: IOS-XE by a line only IOS-XE takes or a "
    "virtual router's one-number port names (GigabitEthernet1, CSR 1000v / Catalyst 8000v). "
    "An IOS-XE router with slot/port names renders the same text as IOS, so it comes back as "
    "IOS (not carried; the strategy gives IOS-XE sites one-number names)",
    "wan.interface": "the interface holding the default route's next hop",
    "wan.address": "its `ip address`",
    "wan.gateway": "the default route's next hop",
    "wan.hold_queue": "`hold-queue N in|out` (none: the platform's default)",
    "wan.loopback": "the `ip local interface` of the pseudowire-class and its address",
    "wan.routes": "the `ip route`s through the gateway",
    "wan.duplex": "`duplex`",
    "wan.speed": "`speed`",
    "lan.interface": "the parent of the xconnect subinterfaces",
    "lan.hold_queue": "`hold-queue N in|out`",
    "lan.duplex": "`duplex`",
    "lan.speed": "`speed`",
    "l2tp_class": "the `l2tp-class` (its name, authentication, hash, hello; secret_env from "
    "the mask that names the variable) when the sessions have a control channel",
    "pseudowire_class": "the `pseudowire-class` and each xconnect's `l2tp` lines",
    "cdp": "`cdp run`",
    "peers": "the xconnects' peer addresses, paired with the other config",
    "vlans.id": "`encapsulation dot1Q N`",
    "vlans.name": "l2tpgen's subinterface description (`l2tpgen: VLAN N NAME to PEER`)",
    "vlans.peer": "the xconnect's peer",
    "vlans.vc_id": "the xconnect's VC ID",
    "vlans.native": "`encapsulation dot1Q N native`",
}
# What a running config cannot carry, and why.
NOT_CARRIED = {
    "management": "how l2tpgen reaches the router (host, SSH port, netmiko's type) is not in "
    "its config: the importer puts the WAN address, for the user to check",
    "wan.mtu": "rendered only where it differs from 1500, and read back by no one: the "
    "importer leaves the WAN at the model's default (a gap, not generated here)",
    "wan.trusted": "a judgement about the path (whether it needs IPsec), not a setting",
    "wan.underlay": "whether the provider's network carries the loopbacks: a fact about the "
    "path, not the router",
    "wan.peer_routes": "`igp` means the routing protocol carries the peer loopbacks: no line "
    "of l2tpgen's says so",
    "lan.port_xconnect": "a port-mode xconnect kept or migrated: the importer's options "
    "(`--port`), not generated here (tests/test_port_mode.py)",
    "linux": "the Linux data plane's interface names of a Cisco site (the lab's)",
    "protection": "IPsec and cookie keys come from the environment and the crypto sections are "
    "not read back into a protection mode (tests/test_import.py keeps the crypto notes)",
    "lint": "the linter's silenced rules for the site",
    "vlans.carries": "what the hosts on the VLAN run (host advice), not router config",
    "vlans.corosync_transport": "the cluster's heartbeat transport (host advice)",
}
_NESTED: dict[str, type[BaseModel]] = {"wan": Wan, "lan": Lan, "vlans": Vlan}
_WHOLE = {"l2tp_class": L2tpClass, "pseudowire_class": PseudowireClass}


def _paths() -> set[str]:
    paths = set()
    for name in Site.model_fields:
        nested = _NESTED.get(name)
        if nested is None:
            paths.add(name)
        else:
            paths |= {f"{name}.{field}" for field in nested.model_fields}
    return paths


def _effective(site: Site) -> dict[str, Any]:
    """The recovered fields as the router holds them: defaults made explicit."""
    found: dict[str, Any] = {
        "name": site.name,
        "hostname": site.hostname,
        "platform": site.effective_platform,
        "cdp": site.cdp,
        "l2tp_class": _l2tp(site.l2tp_class, site),
        "pseudowire_class": _pw(site.pseudowire_class),
        "peers": sorted(
            (p, _pw(site.pseudowire_for(p)), _l2tp(site.l2tp_for(p), site)) for p in site.peer_names
        ),
        "vlans": sorted((v.id, v.name, v.peer, v.effective_vc_id, v.native) for v in site.vlans),
    }
    for side in ("wan", "lan"):
        port = getattr(site, side)
        queues = site.hold_queue(side)
        found |= {
            f"{side}.interface": port.interface,
            f"{side}.hold_queue": (queues.in_, queues.out),
            f"{side}.duplex": port.duplex,
            f"{side}.speed": port.speed,
        }
    found |= {
        "wan.address": site.wan.address,
        "wan.gateway": site.wan.gateway,
        "wan.loopback": site.wan.loopback,
        "wan.routes": sorted(map(str, site.wan.routes)),
    }
    return found


def _pw(pw: PseudowireClass) -> tuple[Any, ...]:
    return (
        pw.name,
        pw.signaling,
        pw.dialect,
        pw.effective_cookie,
        pw.effective_pmtu,
        pw.df_bit,
        pw.tos_reflect,
        pw.sequencing,
        pw.static_hello and pw.signaling == "static",
    )


def _l2tp(l2tp: L2tpClass, site: Site) -> tuple[Any, ...] | None:
    """The l2tp-class, when a control channel uses it (static sessions without hello: none)."""
    pw = site.pseudowire_class
    if pw.signaling == "static" and not pw.static_hello:
        return None
    hello = IOS_DEFAULT_HELLO if l2tp.hello is None else l2tp.hello
    return (l2tp.name, l2tp.authentication, l2tp.effective_hash, hello, l2tp.secret_env)


def test_every_site_field_is_recovered_or_says_why_a_config_cannot_carry_it() -> None:
    classified = {p for p in [*RECOVERED, *NOT_CARRIED] if "." in p or p not in _NESTED}
    assert _paths() - classified - set(_WHOLE) == set()
    assert not set(RECOVERED) & set(NOT_CARRIED)


@settings(max_examples=80)
@given(ios_pairs())
def test_a_pair_of_ios_sites_comes_back_from_its_rendered_configs_field_for_field(
    raw: list[dict[str, Any]],
) -> None:
    fleet = build(raw)
    configs = [(f"{name}.cfg", render_site(fleet, name)) for name in fleet.sites]
    back = Fleet.build(Site.model_validate(s.data) for s in import_configs(configs).sites)
    assert set(back.sites) == set(fleet.sites)
    for name, site in fleet.sites.items():
        assert _effective(back.sites[name]) == _effective(site)
