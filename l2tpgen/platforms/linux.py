"""Linux PEs: static L2TPv3 sessions with iproute2, or systemd-networkd files.

Rendered as iproute2 commands (the lab runs them) or as ``.netdev``/``.network`` files for
systemd-networkd, the persistent form. No IOS lint rule applies; push, diff and verify do not
handle Linux PEs (they refuse them), and the simulator starts no router for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.platforms.base import Driver

SCRIPT_NAME = "iproute2.sh"  # beside swanctl.conf when the site has IPsec

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.model import Fleet


def render_linux(
    fleet: Fleet,
    name: str,
    fmt: str,
    *,
    reveal_secrets: bool,
    environ: Mapping[str, str] | None,
) -> dict[str, str]:
    """iproute2 commands (and, with IPsec, a swanctl.conf), or systemd-networkd files.

    Keyed cookies and the IKE pre-shared key are masked unless ``reveal_secrets``.
    """
    if fmt == "networkd":
        from l2tpgen.render.networkd import render_networkd  # noqa: PLC0415

        return render_networkd(fleet, name)
    from l2tpgen.render.linux import render_linux as render  # noqa: PLC0415
    from l2tpgen.render.linux import reveal_linux_cookies  # noqa: PLC0415
    from l2tpgen.render.swanctl import FILE_NAME, render_swanctl  # noqa: PLC0415

    script = render(fleet, name)
    if reveal_secrets:
        script = reveal_linux_cookies(script, environ)
    swanctl = render_swanctl(
        fleet.site(name),
        fleet.pseudowires(name),
        reveal_secrets=reveal_secrets,
        environ=environ,
    )
    if swanctl is None:
        return {"": script}
    return {SCRIPT_NAME: script, FILE_NAME: swanctl}


LINUX = Driver(
    name="linux",
    title="Linux (iproute2, systemd-networkd)",
    device_type="linux",
    cisco=False,
    formats=("iproute2", "networkd"),
    renderer=render_linux,
    signaling=("static",),  # iproute2 has no control channel
    short_title="Linux",
    kernel_sessions=True,
    fail_closed=True,  # render/linux.py: the xfrm blocks between the tunnels and the sessions
    # ip-l2tp(8): `local` and `remote` "May be specified as an IPv4 address or an IPv6 address";
    # the kernel's l2tp_ip6 carries IP-encapsulated L2TPv3 over IPv6 (Linux 3.5).
    ipv6_underlay=True,
    ipv6_note="ip-l2tp(8): tunnel addresses may be IPv4 or IPv6 (the kernel's l2tp_ip6)",
)
DRIVERS = (LINUX,)  # found by l2tpgen.platforms
