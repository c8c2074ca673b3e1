"""What each PE runs in the lab: the text ``l2tpgen render`` writes for it, names mapped.

A Linux PE runs its rendered iproute2 commands (``platforms.linux.render``, the script's
lines without its comments) and a VyOS PE its rendered ``set`` commands as vyos-1x runs them
(``vyosrun.py``), each for the fleet as modelled: towards a Cisco peer the 802.1Q tag travels
inside the session and the MTU is the pair's budget with the tag (``Pseudowire.dot1q_carried``),
exactly as rendered. The only change is the interface names: the site's WAN and LAN trunk become
the lab's ``eth1`` and ``eth2`` (a site whose ``linux:`` block names ``enp3s0`` runs too).

A Cisco PE cannot run here: it is emulated on Linux as Cisco documents its framing. Its
attachment circuits are dot1Q subinterfaces bound to xconnects, which forward "the VLAN Ethernet
frames ... in their entirety" (Cisco's L2TPv3 feature guide, IOS 12.0(29)S/12.2(25)S p.22): the
emulation bridges a VLAN device on each session (the tag carried, with the VLAN ID) and gives the
session the MTU the pair's budget states (what ``render`` gives its Linux peer and ``mtu``
reports for the Cisco end); its session IDs, cookies and tunnel addresses are the rendered
ones. So a Linux PE paired with a Cisco one meets, in the lab, the framing and MTU the real
router would present; a Cisco-to-Cisco pair runs as two such emulations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.lab.vyosrun import vyos_commands
from l2tpgen.platforms.render import kernel_plane, render_site

if TYPE_CHECKING:
    from l2tpgen.model import Fleet, Site

LAB_WAN, LAB_LAN = "eth1", "eth2"


def lab_names(site: Site) -> dict[str, str]:
    """The site's rendered interface names -> the lab's (its WAN eth1, its LAN trunk eth2)."""
    ports = site.data_plane  # the names the rendered commands use (the site's own, or linux:)
    return {ports.wan: LAB_WAN, ports.lan: LAB_LAN}


def map_names(command: str, names: dict[str, str]) -> str:
    """``command`` with each interface name of ``names`` replaced (``enp3s0.200`` too)."""
    words = []
    for word in command.split(" "):
        base, dot, rest = word.partition(".")
        if word in names:
            words.append(names[word])
        elif dot and base in names and rest.isdigit():
            words.append(f"{names[base]}.{rest}")
        else:
            words.append(word)
    return " ".join(words)


def rendered_commands(fleet: Fleet, name: str) -> list[str]:
    """The commands ``render`` writes for a Linux or VyOS site, in the site's own names."""
    site = fleet.site(name)
    if site.driver.data_plane is not None:  # VyOS: its `set` lines, as vyos-1x runs them
        return vyos_commands(render_site(fleet, name), f"{name}'s VyOS rendering")
    return kernel_plane().site(fleet, name)


def pe_commands(fleet: Fleet, name: str) -> list[str]:
    """What the site's PE runs in the lab, in the lab's interface names.

    Linux and VyOS: their rendered text; Cisco: the emulation (see the module's docstring).
    """
    site = fleet.site(name)
    if site.driver.ios_config:  # a Cisco PE: the kernel's data plane of the same model
        commands = kernel_plane().site(fleet, name)
    else:
        commands = rendered_commands(fleet, name)
    names = lab_names(site)
    return [map_names(command, names) for command in commands]
