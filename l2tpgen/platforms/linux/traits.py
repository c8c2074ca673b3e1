"""Linux PEs' traits (plain data): static L2TPv3 sessions with iproute2, or systemd-networkd files.

Rendered as iproute2 commands (the lab runs them) or as ``.netdev``/``.network`` files for
systemd-networkd, the persistent form. No IOS lint rule applies; push, diff and verify do not
handle Linux PEs (they refuse them), and the simulator starts no router for them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from l2tpgen.ios.names import InterfaceNameError
from l2tpgen.platforms.traits import InterfaceNames, Traits

if TYPE_CHECKING:
    from collections.abc import Sequence


# The kernel's rule, dev_valid_name() in net/core/dev.c (torvalds/linux): not empty, shorter than
# IFNAMSIZ (16, so at most 15 bytes), not "." or "..", and no '/', ':' or whitespace. l2tpgen
# takes a safe subset of that: the name reaches shell commands (iproute2 scripts, the lab) and
# file names (networkd's `10-NAME.network`), so only letters, digits, '.', '_', '-', starting
# with a letter or digit (an `ip` argument starting with '-' is an option).
IFNAMSIZ = 16
_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*", re.ASCII)
_KERNEL_RULE = "the kernel takes 1-15 bytes, no '/', ':' or whitespace, not '.' or '..'"


def linux_interface_name(name: str) -> str:
    """The name as written, when the kernel and l2tpgen's shell-safe subset take it.

    Raises:
        InterfaceNameError: why not.
    """
    size = len(name.encode())
    if not 0 < size < IFNAMSIZ or name in {".", ".."} or any(c in name for c in "/:"):
        raise InterfaceNameError(f"{name!r} is not a Linux interface name: {_KERNEL_RULE}")
    if any(c.isspace() for c in name):
        raise InterfaceNameError(f"{name!r} is not a Linux interface name: {_KERNEL_RULE}")
    if not _SAFE.fullmatch(name):
        raise InterfaceNameError(
            f"{name!r}: l2tpgen takes Linux interface names of letters, digits, '.', '_' and '-', "
            "starting with a letter or digit (they reach shell commands and file names)"
        )
    return name


def vlan_device_fits(lan: str, vlans: Sequence[int]) -> str | None:
    """Why ``lan`` cannot be the trunk: its VLAN devices (``LAN.VID``) must fit IFNAMSIZ too."""
    if "." in lan:
        return f"{lan} looks like a VLAN device; name the physical trunk port"
    longest = max(vlans, default=0)
    if longest and len(f"{lan}.{longest}".encode()) >= IFNAMSIZ:
        return (
            f"the VLAN device {lan}.{longest} l2tpgen adds on the trunk would be longer than the "
            "kernel's 15 bytes; rename the port (e.g. with a systemd .link file) to a shorter name"
        )
    return None


def is_lo(name: str) -> bool:
    """Whether the name is Linux's loopback (the renderers put the tunnel source on ``lo``)."""
    return name == "lo"


LINUX_NAMES = InterfaceNames(
    canonical=linux_interface_name,
    loopback=is_lo,
    trunk=vlan_device_fits,
    system=True,
    examples=("enp1s0", "enp2s0", "lo"),
)


LINUX = Traits(
    name="linux",
    title="Linux (iproute2, systemd-networkd)",
    device_type="linux",
    formats=("iproute2", "networkd"),
    signaling=("static",),  # iproute2 has no control channel
    short_title="Linux",
    kernel_sessions=True,
    binds_peers=True,  # binding.py: nftables, each peer's address to its own session IDs
    fail_closed=True,  # render.py: the xfrm blocks between the tunnels and the sessions
    # ip-l2tp(8): `local` and `remote` "May be specified as an IPv4 address or an IPv6 address";
    # the kernel's l2tp_ip6 carries IP-encapsulated L2TPv3 over IPv6 (Linux 3.5).
    ipv6_underlay=True,
    ipv6_note="ip-l2tp(8): tunnel addresses may be IPv4 or IPv6 (the kernel's l2tp_ip6)",
    interface_names=LINUX_NAMES,
)
TRAITS = (LINUX,)  # found by l2tpgen.traits
