"""The ``multicast`` check: Corosync-style heartbeats reach the far CE across the pseudowire."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.lab.checks.base import PairCheck
from l2tpgen.lab.pairs import (
    HEARTBEAT_PORT,
    HEARTBEATS,
    heartbeat_group,
    receiver_probes,
    vlan_address,
)
from l2tpgen.lab.probes import CheckResult, Probe, marker

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.lab.inputs import Lab
    from l2tpgen.lab.pairs import Pair


@dataclass(frozen=True)
class Multicast(PairCheck):
    """TTL-1 heartbeats to the VLAN's group reach a receiver that joined it, as Corosync does.

    The far CE joins the VLAN's group 239.192.x.y, port 5405, on that VLAN's subinterface as
    Corosync does; TTL-1 heartbeats from the near CE reach it, and the far PE's bridge learned
    the group (``bridge mdb``; Linux PEs only). One receiver per CE joins every VLAN's group on
    its own subinterface: a heartbeat that arrived in another VLAN is not accepted.
    """

    name = "multicast"
    order = 40

    pair: Pair

    @classmethod
    def for_pair(cls, lab: Lab, pair: Pair) -> Multicast:  # noqa: ARG003 - the pair says it all
        """The multicast check of ``pair``."""
        return cls(pair)

    @property
    def probes(self) -> tuple[Probe, ...]:
        """Receiver, heartbeats, what arrived, the far PE's multicast database."""
        pair, group = self.pair, heartbeat_group(self.pair.vlan)
        beat = marker("H", pair.vlan, pair.near.index) + "\\n"
        # One socat, one datagram per heartbeat: it reads at most one heartbeat at a time.
        send = (
            f"printf '{beat * HEARTBEATS}' | socat -u -b {len(beat) - 1} - "
            f"UDP4-DATAGRAM:{group}:{HEARTBEAT_PORT},"
            f"ip-multicast-if={vlan_address(pair.near, pair.vlan)},ip-multicast-ttl=1"
        )
        receiver, seen = receiver_probes(pair.far)
        probes = [receiver, Probe(f"heartbeat.{pair.vlan}.send", pair.near.node, send), seen]
        if pair.far_pe_linux:
            probes.append(
                Probe(f"mdb.{pair.far.pe}", pair.far.pe, "bridge mdb show", "out", "collect")
            )
        return tuple(probes)

    def judge(self, results: Mapping[str, str]) -> CheckResult:
        """Received, and (Linux PE) learned by the far PE's bridge."""
        pair, group = self.pair, heartbeat_group(self.pair.vlan)
        tag = marker("H", pair.vlan, pair.near.index)
        received = tag in results.get(f"heartbeat.seen.{pair.far.node}", "").split()
        learned = f"grp {group} " in results.get(f"mdb.{pair.far.pe}", "") + " "
        detail = f"{group}:{HEARTBEAT_PORT} TTL 1 " + ("received" if received else "NOT received")
        if pair.far_pe_linux:
            detail += f", {'in' if learned else 'NOT in'} {pair.far.pe}'s bridge mdb"
        ok = received and (learned or not pair.far_pe_linux)
        return CheckResult("multicast", pair.vlan, pair.sites, ok, detail)


CHECKS = (Multicast,)
