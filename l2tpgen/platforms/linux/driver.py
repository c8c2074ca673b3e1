"""Linux PEs' driver: renderers (iproute2 and swanctl, or networkd), bound to their traits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.platforms.linux.binding import TABLE
from l2tpgen.platforms.linux.networkd import render_networkd
from l2tpgen.platforms.linux.render import (
    bare,
    base_commands,
    linux_commands,
    pseudowire_commands,
    render_linux,
    reveal_linux_cookies,
)
from l2tpgen.platforms.linux.traits import LINUX
from l2tpgen.render import KernelPlane
from l2tpgen.render.swanctl import FILE_NAME, render_swanctl

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.model import Fleet
    from l2tpgen.render import Renderer

SCRIPT_NAME = "iproute2.sh"  # beside swanctl.conf when the site has IPsec


def _render(
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
        return render_networkd(fleet, name)
    script = render_linux(fleet, name)
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


RENDERERS: dict[str, Renderer] = {LINUX.name: _render}
# The lab's data plane: every PE of a lab runs these commands, whatever its platform.
KERNEL = KernelPlane(
    base=base_commands,
    pseudowires=pseudowire_commands,
    site=linux_commands,
    reveal_cookies=reveal_linux_cookies,
    bare=bare,
    binding_table=TABLE,
)
