"""The ``isolation`` check: the reach ping's tag shows up in its own VLAN only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.lab.checks.base import PairCheck
from l2tpgen.lab.pairs import capture_probes, pairs
from l2tpgen.lab.probes import CheckResult

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.lab.inputs import Ce, Lab
    from l2tpgen.lab.pairs import Pair
    from l2tpgen.lab.probes import Probe


def watched(lab: Lab) -> tuple[tuple[Ce, int], ...]:
    """Every VLAN subinterface of the CEs at far ends: where the tags are looked for."""
    far = {pair.far.node for pair in pairs(lab)}
    return tuple((ce, vlan) for ce in lab.ces if ce.node in far for vlan in ce.vlans)


@dataclass(frozen=True)
class Isolation(PairCheck):
    """The reach ping's tag shows up in its own VLAN only.

    Packet captures (socat) on every VLAN subinterface of the CEs at far ends must find the
    tag the reach ping carries in its own VLAN and nowhere else. Judged by tagged payloads,
    not by interface counters, so background frames (ARP, IGMP) cannot fail a correct fleet.
    """

    name = "isolation"
    order = 20

    pair: Pair
    watched: tuple[tuple[Ce, int], ...]

    @classmethod
    def for_pair(cls, lab: Lab, pair: Pair) -> Isolation:
        """The isolation check of ``pair``, watching every far CE's subinterfaces."""
        return cls(pair, watched(lab))

    @property
    def probes(self) -> tuple[Probe, ...]:
        """A capture per watched VLAN subinterface (shared with the other pairs' checks)."""
        return tuple(p for ce, vlan in self.watched for p in capture_probes(ce, vlan))

    def judge(self, results: Mapping[str, str]) -> CheckResult:
        """Seen at the far end of its own VLAN, nowhere else but the sender's own VLAN."""
        pair, tag = self.pair, self.pair.tag
        own = {(pair.near.node, pair.vlan), (pair.far.node, pair.vlan)}
        seen = {
            (ce.node, vlan)
            for ce, vlan in self.watched
            if tag in results.get(f"seen.{ce.node}.{vlan}", "").split()
        }
        leaks = sorted(f"{node} eth1.{vlan}" for node, vlan in seen - own)
        arrived = (pair.far.node, pair.vlan) in seen
        if leaks:
            detail = f"tag {tag} leaked to {', '.join(leaks)}"
        elif not arrived:
            detail = f"tag {tag} never reached {pair.far.node} eth1.{pair.vlan}"
        else:
            detail = f"tag {tag} seen in VLAN {pair.vlan} only"
        return CheckResult("isolation", pair.vlan, pair.sites, arrived and not leaks, detail)


CHECKS = (Isolation,)
