"""One underlay family per site and per pseudowire, and platforms that carry IPv6.

A site's WAN address sets its family; its gateway, loopback and routes must share it, and both
ends of a pseudowire source their tunnels from one family. A site whose platform driver does not
carry pseudowires over IPv6 (``Traits.ipv6_underlay``) is refused with the driver's reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.problems import Problem

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from l2tpgen.model.site import Site


def _family(version: int) -> str:
    return f"IPv{version}"


def check_family(site: Site) -> Iterator[Problem]:
    """One underlay family per site: gateway, loopback and routes are the WAN address's."""
    wan = site.wan
    family = _family(wan.address.version)
    fix = f"write an {family} address, as wan.address is, or make the whole underlay one family"
    if wan.gateway.version != wan.address.version:
        yield Problem(
            site.name,
            ("wan", "gateway"),
            f"gateway {wan.gateway} is {_family(wan.gateway.version)}, but the WAN address "
            f"{wan.address} is {family}",
            fix,
            code="V049",
        )
    if wan.loopback is not None and wan.loopback.address.version != wan.address.version:
        yield Problem(
            site.name,
            ("wan", "loopback", "address"),
            f"loopback address {wan.loopback.address} is {_family(wan.loopback.address.version)}"
            f", but the WAN address {wan.address} is {family}: the tunnels leave by the WAN",
            fix,
            code="V050",
        )
    for index, route in enumerate(wan.routes):
        if route.version != wan.address.version:
            yield Problem(
                site.name,
                ("wan", "routes", index),
                f"route {route} is {_family(route.version)}, but the WAN address {wan.address} "
                f"is {family}",
                fix + (" (the default route is ::/0)" if wan.ipv6 else ""),
                code="V051",
            )
    yield from _check_ipv6_platform(site)


def _check_ipv6_platform(site: Site) -> Iterator[Problem]:
    """An IPv6 underlay on a platform whose driver does not carry pseudowires over IPv6."""
    driver = site.driver
    if not site.wan.ipv6 or driver.ipv6_underlay:
        return
    yield Problem(
        site.name,
        ("wan", "address"),
        f"{site.name} runs {driver.title} (platform {driver.name}), which l2tpgen cannot render "
        f"over an IPv6 underlay: {driver.ipv6_note}",
        "give this site an IPv4 WAN address (and loopback), or run its PE on Linux "
        "(`platform: linux`), which carries L2TPv3 over IPv6",
        code="V052",
    )


def check_peer_family(
    site: Site, peer: Site, files: Mapping[str, str], index: int
) -> Iterator[Problem]:
    """Both ends of a pair source their tunnels from one family (reported at the first by name)."""
    mine, theirs = site.tunnel_address, peer.tunnel_address
    if mine.version == theirs.version or site.name > peer.name:
        return
    yield Problem(
        site.name,
        ("peers", index),
        f"{site.name}'s tunnel source {mine} is {_family(mine.version)} but {peer.name}'s "
        f"{theirs} ({files[peer.name]}) is {_family(theirs.version)}: an L2TPv3 tunnel joins "
        "two addresses of one family",
        f"give {site.name} and {peer.name} underlays of the same family (WAN address and "
        "loopback), or remove this peer",
        code="V053",
    )
