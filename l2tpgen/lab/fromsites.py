"""The lab's WAN shaping and workloads as the site model states them.

The lab has one WAN router, and every packet between two sites crosses one of its shaped egresses
(``shaping.py``): it can play one path for every pair, not one per pair. So the model's ``link``
shapes the lab when every pair that states a link states the same one (pairs that state none get
it too); links that differ are an error unless the options choose (``--wan-delay-ms``,
``--wan-loss-pct``, ``--wan-rate-mbit``, each of which wins over the model on its own). A link of
``rtt_ms`` and ``loss`` becomes a one-way delay of ``rtt_ms / 2`` and ``loss x 100`` per cent in
each direction: the round trip is the link's, and data packets meet the link's loss.

Each VLAN's ``carries`` (stated at either end) becomes its CE labels' workload; ``--workload``
wins for the VLANs it names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.lab.fields import LabInputError
from l2tpgen.lab.shaping import Shaping

if TYPE_CHECKING:
    from l2tpgen.hosts import Workload
    from l2tpgen.model import Fleet
    from l2tpgen.model.link import Link

SHAPING_OPTIONS = "--wan-delay-ms, --wan-loss-pct and --wan-rate-mbit"


def link_shaping(link: Link) -> Shaping:
    """The WAN shaping that plays ``link``: half the RTT each way, its loss each way, its rate."""
    return Shaping(
        delay_ms=link.rtt_ms / 2, loss_pct=link.loss * 100, rate_mbit=link.bandwidth / 1e6
    )


def stated_links(fleet: Fleet) -> dict[tuple[str, str], Link]:
    """Each pair with pseudowires whose link the model states, by its two site names in order."""
    found: dict[tuple[str, str], Link] = {}
    for name in sorted(fleet.sites):
        for pw in fleet.pseudowires(name):
            if pw.link is not None:
                found.setdefault((min(name, pw.peer.name), max(name, pw.peer.name)), pw.link)
    return found


def model_shaping(fleet: Fleet) -> Shaping:
    """The shaping the model's links ask for (none if no pair states a link).

    Raises:
        LabInputError: pairs state different links; the lab plays one path for all.
    """
    links = stated_links(fleet)
    distinct = set(links.values())
    if not distinct:
        return Shaping()
    if len(distinct) > 1:
        pairs = "; ".join(f"{a}-{b}: {link.describe()}" for (a, b), link in sorted(links.items()))
        problem = (
            f"the lab's WAN plays one path for every pair, and the pairs state {len(distinct)} "
            f"different links ({pairs}): choose one with {SHAPING_OPTIONS}"
        )
        raise LabInputError("the site model", [problem])
    return link_shaping(distinct.pop())


def lab_shaping(
    fleet: Fleet,
    delay_ms: float | None = None,
    loss_pct: float | None = None,
    rate_mbit: float | None = None,
) -> Shaping:
    """The lab's shaping: each option given wins, the model's link gives the rest.

    With all three options given the model is not consulted (its links may then differ).

    Raises:
        LabInputError: an option is missing and the pairs state different links.
    """
    if delay_ms is not None and loss_pct is not None and rate_mbit is not None:
        return Shaping(delay_ms, loss_pct, rate_mbit)
    return model_shaping(fleet).overridden(delay_ms, loss_pct, rate_mbit)


def model_workloads(fleet: Fleet) -> dict[str, dict[int, Workload]]:
    """What each site's VLANs carry, where either end states it, by site and VLAN."""
    return {
        name: {
            pw.vlan.id: pw.stated_carries
            for pw in fleet.pseudowires(name)
            if pw.stated_carries is not None
        }
        for name in sorted(fleet.sites)
    }
