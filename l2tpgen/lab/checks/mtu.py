"""The ``mtu`` check: the predicted inner MTU crosses unfragmented, one byte more does not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.lab.checks.base import PairCheck
from l2tpgen.lab.pairs import ICMP_IP_HEADERS, SNMP_COMMAND, fragments_created
from l2tpgen.lab.probes import CheckResult, Probe, answered, retry

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.lab.inputs import Lab
    from l2tpgen.lab.pairs import Pair


@dataclass(frozen=True)
class Mtu(PairCheck):
    """The inner MTU ``mtu.py`` predicts crosses unfragmented; one byte more does not.

    The largest packet that crosses with DF set and without fragmentation is the inner MTU
    ``mtu.py`` predicts (the CE label ``l2tpgen.mtu``, or ``l2tpgen.mtus`` for the VLAN), and
    one byte more does not: it is dropped, or crosses only because the sending PE fragments the
    encapsulated packet (a Linux bridge forwards frames up to 4 bytes over the session MTU, and
    Linux does not set DF on L2TP-over-IP packets). Fragments are counted on Linux PEs only,
    IPv4's and IPv6's (``FragCreates`` in ``/proc/net/snmp``, ``Ip6FragCreates`` in
    ``/proc/net/snmp6``: an IPv6 underlay fragments the encapsulated packet there). On a
    protected lab it runs over ESP: the ESP MTU check.
    """

    name = "mtu"
    order = 30

    pair: Pair

    @classmethod
    def for_pair(cls, lab: Lab, pair: Pair) -> Mtu:  # noqa: ARG003 - the pair says it all
        """The MTU check of ``pair``."""
        return cls(pair)

    @property
    def probes(self) -> tuple[Probe, ...]:
        """DF pings of the predicted size and one byte more, with the PE's counters around."""
        pair, key = self.pair, f"mtu.{self.pair.vlan}"
        largest = pair.near.mtu_for(pair.vlan) - ICMP_IP_HEADERS
        df = "ping -c 1 -W 1 -M do -s"
        snmp = [
            Probe(f"{key}.snmp.{when}", pair.near.pe, SNMP_COMMAND, "out")
            for when in ("before", "after", "over")
        ]
        if not pair.near_pe_linux:
            snmp = []
        return (
            *snmp[:1],
            Probe(f"{key}.fits", pair.near.node, retry(f"{df} {largest} {pair.target}", 3)),
            *snmp[1:2],
            Probe(
                f"{key}.over",
                pair.near.node,
                answered(f"{df} {largest + 1} {pair.target}", f"{df} {largest} {pair.target}"),
            ),
            *snmp[2:],
        )

    def _fragments(self, results: Mapping[str, str], before: str, after: str) -> int:
        key = f"mtu.{self.pair.vlan}.snmp"
        return fragments_created(results.get(f"{key}.{after}", "")) - fragments_created(
            results.get(f"{key}.{before}", "")
        )

    def judge(self, results: Mapping[str, str]) -> CheckResult:
        """Judged on exit codes and, on Linux PEs, the fragment counter."""
        pair, key = self.pair, f"mtu.{self.pair.vlan}"
        mtu = pair.near.mtu_for(pair.vlan)
        fits = (
            results.get(f"{key}.fits") == "0" and self._fragments(results, "before", "after") == 0
        )
        over_fragments = self._fragments(results, "after", "over")
        dropped = results.get(f"{key}.over") != "0"
        over = "is dropped" if dropped else "crosses only fragmented"
        if not dropped and over_fragments <= 0:
            over = "crosses unfragmented"
        detail = (
            f"predicted {mtu}: {mtu} "
            f"{'crosses unfragmented' if fits else 'does NOT cross unfragmented'}, {mtu + 1} {over}"
        )
        ok = fits and (dropped or over_fragments > 0)
        return CheckResult("mtu", pair.vlan, pair.sites, ok, detail)


CHECKS = (Mtu,)
