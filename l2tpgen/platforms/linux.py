"""Linux PEs: static L2TPv3 sessions with iproute2, or systemd-networkd files.

Rendered as iproute2 commands (the lab runs them) or as ``.netdev``/``.network`` files for
systemd-networkd, the persistent form. No IOS lint rule applies; push, diff and verify do not
handle Linux PEs (they refuse them), and the simulator starts no router for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.platforms.base import Driver

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.model import Fleet


def render_linux(
    fleet: Fleet,
    name: str,
    fmt: str,
    *,
    reveal_secrets: bool,  # noqa: ARG001 - static sessions carry no secret
    environ: Mapping[str, str] | None,  # noqa: ARG001
) -> dict[str, str]:
    """iproute2 commands, or systemd-networkd files."""
    if fmt == "networkd":
        from l2tpgen.render.networkd import render_networkd  # noqa: PLC0415

        return render_networkd(fleet, name)
    from l2tpgen.render.linux import render_linux as render  # noqa: PLC0415

    return {"": render(fleet, name)}


LINUX = Driver(
    name="linux",
    title="Linux (iproute2, systemd-networkd)",
    device_type="linux",
    cisco=False,
    formats=("iproute2", "networkd"),
    renderer=render_linux,
)
