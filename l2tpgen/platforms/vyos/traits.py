"""VyOS PEs' traits, as plain data: what VyOS expresses, and how it names its interfaces.

Why each trait is what it is: ``render.py``'s docstring (VyOS's L2TPv3 interface, vyos-1x).
"""

from __future__ import annotations

import re

from l2tpgen.ios.names import InterfaceNameError
from l2tpgen.platforms.linux.traits import is_lo, linux_interface_name, vlan_device_fits
from l2tpgen.platforms.traits import InterfaceNames, Traits

# vyos/vyos-1x interface-definitions/interfaces_ethernet.xml.in (commit 295d69ff): the ethernet
# tag node's constraint `((eth|lan)[0-9]+|(eno|ens|enp|enx).+)` (VyOS anchors it). The WAN may
# be a VLAN of one, `ethN.VID`, configured as `set interfaces ethernet ethN vif VID`.
_ETHERNET = re.compile(r"(?:eth|lan)[0-9]+|(?:eno|ens|enp|enx).+", re.ASCII)
_VIF = re.compile(r"(?P<port>[^.]+)\.(?P<vid>[0-9]{1,4})", re.ASCII)
MAX_VID = 4094


def vyos_interface_name(name: str) -> str:
    """The name as written, when VyOS names an Ethernet port (or a VLAN of one) so.

    Raises:
        InterfaceNameError: why not.
    """
    linux_interface_name(name)  # VyOS's names are the kernel's
    vif = _VIF.fullmatch(name)
    port = vif["port"] if vif else name
    if not _ETHERNET.fullmatch(port) or (vif and not 0 < int(vif["vid"]) <= MAX_VID):
        raise InterfaceNameError(
            f"{name!r} is not a VyOS Ethernet interface: VyOS names them ethN (also lanN, enoN, "
            "ensN, enpN, enxN), and a VLAN of one ethN.VID (VID 1-4094)"
        )
    return name


def wan_path(name: str) -> str:
    """The WAN's node under ``set interfaces ethernet``: ``eth1``, or ``eth1 vif 100``."""
    vif = _VIF.fullmatch(name)
    return f"{vif['port']} vif {vif['vid']}" if vif else name


VYOS_NAMES = InterfaceNames(
    canonical=vyos_interface_name,
    loopback=is_lo,  # interfaces_loopback.xml.in: the one loopback is `lo`
    trunk=vlan_device_fits,
    system=True,
    examples=("eth1", "eth2", "lo"),
)

VYOS = Traits(
    name="vyos",
    title="VyOS",
    device_type="vyos",  # netmiko's
    formats=("set",),
    signaling=("static",),  # no control channel: static sessions only
    cookies=False,  # interfaces_l2tpv3.xml.in has no cookie
    ipsec=True,  # transport mode (render.py's ipsec_peers); tunnel mode is refused at render
    inbound_filter=False,
    sublayer=True,  # iproute2's default l2spec_type, which VyOS leaves
    kernel_sessions=True,  # the kernel's L2TPv3 (vyos-1x python/vyos/ifconfig/l2tpv3.py)
    fail_closed=False,  # VyOS's CLI has no static xfrm policy; l2tpgen renders none for it
    lab_kind="linux",
    data_plane="linux",  # the kernel's L2TPv3: the lab's Linux PE stands in for it
    # Not rendered over IPv6: this driver's `set interfaces l2tpv3` rendering is written and
    # tested for IPv4 underlays; whether VyOS's CLI takes IPv6 tunnel addresses is unconfirmed.
    ipv6_underlay=False,
    ipv6_note=(
        "l2tpgen's VyOS rendering (set interfaces l2tpv3) is written and tested for IPv4 "
        "underlays only; IPv6 tunnel addresses on VyOS are unconfirmed"
    ),
    interface_names=VYOS_NAMES,
)
TRAITS = (VYOS,)  # found by l2tpgen.traits
