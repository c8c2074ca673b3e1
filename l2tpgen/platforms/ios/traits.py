"""Cisco IOS (12.x/15.x: ISR G1/G2, 7200) and IOS-XE (ASR1000, ISR4000, CSR1000v, Catalyst 8000).

Their traits, as plain data. Both take the same L2TPv3 configuration (``templates/``, rendered by
``render.py``, bound in ``driver.py``). They differ where the router keeps its
files (``flash:`` on classic IOS, ``bootflash:`` on most IOS-XE routers; push asks ``dir`` first)
and in the linter: hold-queues size classic IOS's process-switching path, which IOS-XE's
forwarding plane does not use (L2T004 applies to classic IOS only).
"""

from __future__ import annotations

from l2tpgen.ios.software import CLASSIC, XE
from l2tpgen.platforms.traits import Traits

# Cisco documents xconnect pseudowires to IPv4 peers only: the L2TPv3 guides (IOS 15M&T,
# IOS XE 16: wan-l2-tun-pro-v3(-xe).html) take `xconnect <peer IPv4 address> <vcid>` and an IPv4
# `ip local interface`. IOS XE's only L2TPv3-over-IPv6 feature ("Configuring PPPoE over L2TPv3
# Tunnels", Broadband Access Aggregation and DSL Configuration Guide, IOS XE 16.7/16.11,
# https://cisco.com/c/en/us/td/docs/ios-xml/ios/bbdsl/configuration/xe-16-11/bba-xe-16-11-book/
# bba-pppoe-l2tpv3-xe.html) is an `l2tpv3 tunnel` interface terminating PPPoE at a BNG (RFC
# 8159 keyed tunnels), not an xconnect pseudowire between two PEs.
_NO_IPV6 = (
    "Cisco's L2TPv3 guides (IOS 15M&T, IOS XE 16) document xconnect pseudowires to IPv4 peers "
    "only (IOS XE's L2TPv3 over IPv6 tunnels terminate PPPoE at a BNG, not xconnects)"
)
_COMMON = {
    "ipv6_underlay": False,
    "ipv6_note": _NO_IPV6,
    "formats": ("ios",),
    "ios_config": True,  # l2tpgen.ios reads it back (lint, import, push)
    "static_hello_capable": True,  # `l2tp hello` on static sessions
    "frames_dot1q_subinterface": True,  # xconnects on dot1Q subinterfaces carry the tag
    "hier_config": "CISCO_IOS",  # hier_config's driver covers IOS and IOS-XE
    "save_command": "write memory",
    "show_xconnect": "show xconnect all",
    "show_sessions": "show l2tun session all",
    "simulated": True,
    "timed_confirm": True,  # Configuration Rollback Confirmed Change (l2tpgen.device.confirm)
    "lab_kind": "cisco_iol",  # containerlab's Cisco IOL node
    "peer_routes": True,  # templates/: `ip route` to each peer's loopback
}
IOS = Traits(
    name="ios",
    default=True,  # a site that states neither ``platform`` nor ``management.device_type``
    ios_software=CLASSIC,
    title="Cisco IOS",
    device_type="cisco_ios",
    file_systems=("flash:",),
    lint_platform="ios",
    # The reference case's process-switching fix (2048/2048); IOS-XE's forwarding plane does not
    # use these queues, so it keeps IOS's own defaults.
    hold_queue=(2048, 2048),
    esp_gcm_unconfirmed=True,  # esp-gcm on classic IOS: not confirmed by Cisco's documents [U]
    **_COMMON,  # type: ignore[arg-type]
)
IOS_XE = Traits(
    name="iosxe",
    ios_software=XE,
    title="Cisco IOS-XE",
    device_type="cisco_xe",
    file_systems=("bootflash:", "flash:"),
    lint_platform="iosxe",
    # IOS-XE's spelling: genieparser's IOS-XE parser runs `show l2tp` and its fixture is an
    # L2TPv3 xconnect session (tests/realworld/show/genieparser-show-l2tp.txt). Whether IOS-XE
    # still takes classic IOS's `show l2tun session all` is unconfirmed [U].
    **{**_COMMON, "show_sessions": "show l2tp"},  # type: ignore[arg-type]
)
TRAITS = (IOS, IOS_XE)  # found by l2tpgen.traits
