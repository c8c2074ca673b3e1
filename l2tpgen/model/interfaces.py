"""Interface names as the site's platform writes them, and the old way Linux and VyOS sites did.

Cisco sites name their interfaces as IOS does (``gi0/1`` is written out as ``GigabitEthernet0/1``).
Linux and VyOS sites name them as the system does (``enp3s0``, ``eth1``), written as given, and the
loopback that carries the tunnel source is ``lo``. Before, a Linux or VyOS site wrote IOS names in
``wan.interface`` and ``lan.interface`` and its real names in the ``linux:`` block (default
``eth1``/``eth2``): such a file is still read that way, and ``validate`` warns with what to write
instead (``interface_checks.py``). On a Cisco site the ``linux:`` block names the ports of the
Linux node that stands in for the router in labs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from l2tpgen.ios.names import InterfaceNameError, canonical_interface_name

if TYPE_CHECKING:
    from l2tpgen.model.site import Site
    from l2tpgen.traits import InterfaceNames


class Ports(NamedTuple):
    """A site's WAN, LAN trunk and (if it has one) loopback, as some system names them."""

    wan: str
    lan: str
    loopback: str | None


def is_ios_style(names: InterfaceNames, name: str) -> bool:
    """Whether a Linux or VyOS site's name is written the old way, as IOS does.

    Full IOS spellings (``GigabitEthernet0/1``, ``Ethernet1``) and names only IOS takes (``gi0/1``)
    are; a name the system takes as it is (``eth1``, which IOS would read as Ethernet1) is not.
    """
    if not names.system:
        return False
    try:
        ios = canonical_interface_name(name)
    except InterfaceNameError:
        return False
    if ios == name:
        return True
    try:
        names.canonical(name)
    except InterfaceNameError:
        return True
    return False


def is_valid(names: InterfaceNames, name: str) -> bool:
    """Whether the platform takes the name (the old IOS style on Linux and VyOS included)."""
    try:
        names.canonical(name)
    except InterfaceNameError:
        return is_ios_style(names, name)
    return True


def canonical_or_same(names: InterfaceNames, name: str) -> str:
    """The platform's spelling of ``name`` (IOS's full name), or ``name`` when it takes none."""
    try:
        return names.canonical(name)
    except InterfaceNameError:
        return name


def written_out(site: Site) -> dict[str, object]:
    """A Cisco site's ``wan`` and ``lan`` with IOS names written out in full (others: nothing).

    A name the platform refuses is left as it is, for ``interface_checks`` to report.
    """
    names = site.driver.interface_names
    if names.system:
        return {}
    wan: dict[str, object] = {"interface": canonical_or_same(names, site.wan.interface)}
    if site.wan.loopback is not None:
        loopback = canonical_or_same(names, site.wan.loopback.interface)
        wan["loopback"] = site.wan.loopback.model_copy(update={"interface": loopback})
    lan = canonical_or_same(names, site.lan.interface)
    return {
        "wan": site.wan.model_copy(update=wan),
        "lan": site.lan.model_copy(update={"interface": lan}),
    }


def ports(site: Site) -> Ports:
    """The site's interfaces as its PE names them (``Site.interfaces``)."""
    names = site.driver.interface_names
    loopback = site.wan.loopback.interface if site.wan.loopback else None
    if not names.system:
        return Ports(site.wan.interface, site.lan.interface, loopback)
    wan, lan = site.wan.interface, site.lan.interface
    return Ports(
        site.linux.wan if is_ios_style(names, wan) else wan,
        site.linux.lan if is_ios_style(names, lan) else lan,
        "lo" if loopback is not None else None,  # where the renderers put it
    )


def data_plane_ports(site: Site) -> Ports:
    """The site's interfaces on a Linux data plane (``Site.data_plane``).

    A Linux or VyOS PE's own names; for a Cisco site, the ``linux:`` block's (the lab's node).
    """
    if site.driver.interface_names.system:
        return ports(site)
    loopback = "lo" if site.wan.loopback is not None else None
    return Ports(site.linux.wan, site.linux.lan, loopback)
