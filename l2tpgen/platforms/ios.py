"""Cisco IOS (12.x/15.x: ISR G1/G2, 7200) and IOS-XE (ASR1000, ISR4000, CSR1000v, Catalyst 8000).

Both take the same L2TPv3 configuration (templates/ios). They differ where the router keeps its
files (``flash:`` on classic IOS, ``bootflash:`` on most IOS-XE routers; push asks ``dir`` first)
and in the linter: hold-queues size classic IOS's process-switching path, which IOS-XE's
forwarding plane does not use (L2T004 applies to classic IOS only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.platforms.base import Driver

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.model import Fleet


def render_ios(
    fleet: Fleet,
    name: str,
    fmt: str,  # noqa: ARG001 - one format
    *,
    reveal_secrets: bool,
    environ: Mapping[str, str] | None,
) -> dict[str, str]:
    """The IOS configuration of one site."""
    from l2tpgen.render.ios import render_ios as render  # noqa: PLC0415 - jinja2 on demand

    return {"": render(fleet, name, reveal_secrets=reveal_secrets, environ=environ)}


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
    "cisco": True,
    "formats": ("ios",),
    "renderer": render_ios,
    "hier_config": "CISCO_IOS",  # hier_config's driver covers IOS and IOS-XE
    "save_command": "write memory",
    "show_xconnect": "show xconnect all",
    "show_sessions": "show l2tun session all",
    "simulated": True,
    "timed_confirm": True,  # Configuration Rollback Confirmed Change (l2tpgen.device.confirm)
    "lab_kind": "cisco_iol",  # containerlab's Cisco IOL node
    "peer_routes": True,  # templates/ios: `ip route` to each peer's loopback
}
IOS = Driver(
    name="ios",
    title="Cisco IOS",
    device_type="cisco_ios",
    file_systems=("flash:",),
    lint_platform="ios",
    # The reference case's process-switching fix (2048/2048); IOS-XE's forwarding plane does not
    # use these queues, so it keeps IOS's own defaults.
    hold_queue=(2048, 2048),
    process_switched=True,
    esp_gcm_unconfirmed=True,  # esp-gcm on classic IOS: not confirmed by Cisco's documents [U]
    **_COMMON,  # type: ignore[arg-type]
)
IOS_XE = Driver(
    name="iosxe",
    title="Cisco IOS-XE",
    device_type="cisco_xe",
    file_systems=("bootflash:", "flash:"),
    lint_platform="iosxe",
    # IOS-XE's spelling: genieparser's IOS-XE parser runs `show l2tp` and its fixture is an
    # L2TPv3 xconnect session (tests/realworld/show/genieparser-show-l2tp.txt). Whether IOS-XE
    # still takes classic IOS's `show l2tun session all` is unconfirmed [U].
    **{**_COMMON, "show_sessions": "show l2tp"},  # type: ignore[arg-type]
)
DRIVERS = (IOS, IOS_XE)  # found by l2tpgen.platforms
