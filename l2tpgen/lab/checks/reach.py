"""The ``reach`` check: the far CE answers a ping across the pseudowire."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.lab.checks.base import PairCheck
from l2tpgen.lab.probes import CheckResult, Probe, pattern_hex, retry

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.lab.inputs import Lab
    from l2tpgen.lab.pairs import Pair


@dataclass(frozen=True)
class Reach(PairCheck):
    """The far CE answers a tagged ping across the pseudowire.

    Single pings from the near CE to the far CE's address in the VLAN, retried (a reply can
    take over a second under software emulation); each carries the pair's tag (``ping -p``),
    which the ``isolation`` check looks for.
    """

    name = "reach"
    order = 10

    pair: Pair

    @classmethod
    def for_pair(cls, lab: Lab, pair: Pair) -> Reach:  # noqa: ARG003 - the pair says it all
        """The reach check of ``pair``."""
        return cls(pair)

    @property
    def probes(self) -> tuple[Probe, ...]:
        """One retried ping."""
        ping = f"ping -c 1 -W 1 -p {pattern_hex(self.pair.tag)} {self.pair.target}"
        return (Probe(f"reach.{self.pair.vlan}", self.pair.near.node, retry(ping)),)

    def judge(self, results: Mapping[str, str]) -> CheckResult:
        """Reached if a ping was answered."""
        ok = results.get(f"reach.{self.pair.vlan}") == "0"
        return CheckResult("reach", self.pair.vlan, self.pair.sites, ok, f"ping {self.pair.target}")


CHECKS = (Reach,)
