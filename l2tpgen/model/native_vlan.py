"""Rules for the native (untagged) VLAN of a LAN trunk (``vlans[].native``).

802.1Q sends one VLAN of a trunk untagged, the native VLAN: one per trunk, so one per site, and
both ends of its pseudowire say so (an untagged VLAN at one end and a tagged one at the other is a
mistake to be told about, not guessed at). How each platform carries it:

- IOS: ``encapsulation dot1Q N native`` on the subinterface ("Always use the native keyword when
  vlan-id is the ID of the IEEE 802.1Q native VLAN": Cisco IOS Multiprotocol Label Switching
  Command Reference, January 2010, ``encapsulation dot1q``). **[U]** That IOS accepts an
  ``xconnect`` on such a subinterface, and whether the tag then travels in the pseudowire, is
  unconfirmed: ``validate`` warns, and the site opts in by stating ``native: true``.
- Linux: the LAN port itself (the untagged device) joins the VLAN's bridge; tagged frames still
  reach the port's VLAN devices first (the kernel hands a tagged frame to its VLAN device before
  the bridge's receive handler: ``__netif_receive_skb_core``, net/core/dev.c).
- VyOS: the LAN port's bridge membership says ``native-vlan N`` instead of ``allowed-vlan N``
  (vyos-1x ``interfaces_bridge.xml.in``, ``member interface <name> native-vlan``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.problems import Problem

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping

    from l2tpgen.model.site import Site

UNCONFIRMED = (
    "[U] IOS's acceptance of an xconnect on an `encapsulation dot1Q N native` subinterface is "
    "unconfirmed"
)


def check_native(site: Site) -> Iterator[Problem]:
    """One native VLAN per trunk."""
    first: int | None = None
    for index, vlan in enumerate(site.vlans):
        if not vlan.native:
            continue
        if first is not None:
            yield Problem(
                site.name,
                ("vlans", index, "native"),
                f"VLAN {vlan.id} and VLAN {first} are both native on {site.lan.interface}: a trunk "
                "sends one VLAN untagged",
                "keep `native: true` on one VLAN",
                code="V077",
            )
            continue
        first = vlan.id


def native_hints(sites: Iterable[Site]) -> Iterator[Problem]:
    """Warnings for `validate`: a Cisco site's native VLAN rests on an unconfirmed IOS behaviour."""
    for site in sites:
        if not site.driver.ios_config:
            continue
        for index, vlan in enumerate(site.vlans):
            if vlan.native:
                yield Problem(
                    site.name,
                    ("vlans", index, "native"),
                    f"VLAN {vlan.id} is native (untagged) on {site.lan.interface}: {UNCONFIRMED}",
                    "try it on one router first (`push --dry-run`, then a maintenance window)",
                    level="warning",
                    code="V078",
                )
                break


def check_native_pairs(
    site: Site, sites: Mapping[str, Site], files: Mapping[str, str]
) -> Iterator[Problem]:
    """Both ends of a VLAN's pseudowire agree on whether it is the native VLAN."""
    mirrors: dict[str, dict[int, bool]] = {}
    for index, vlan in enumerate(site.vlans):
        peer = sites.get(vlan.peer)
        if peer is None or site.name >= vlan.peer:
            continue  # each pair is compared once; dangling peers are reported elsewhere
        if vlan.peer not in mirrors:
            mirrors[vlan.peer] = {v.id: v.native for v in peer.vlans if v.peer == site.name}
        theirs = mirrors[vlan.peer].get(vlan.id)
        if theirs is not None and theirs != vlan.native:
            here, there = ("native", "tagged") if vlan.native else ("tagged", "native")
            yield Problem(
                site.name,
                ("vlans", index, "native"),
                f"VLAN {vlan.id} is {here} here but {there} in {files[vlan.peer]}",
                "both ends of the pseudowire say the same: `native: true` at both, or at neither",
                code="V079",
            )
