"""The checks a lab run makes, each a frozen value: its probes and its judge.

For every stretched VLAN, between the two CEs that share it (``near`` sends, ``far`` answers):

* ``reach``: the far CE answers a ping across the pseudowire (single pings, retried);
* ``isolation``: that ping carries a unique tag (``ping -p``); packet captures on every VLAN
  subinterface of the CEs at far ends find it in its own VLAN only. Judged by tagged payloads,
  not by interface counters, so background frames (ARP, IGMP) cannot fail a correct fleet;
* ``mtu``: the largest packet that crosses with DF set and without fragmentation is the inner
  MTU ``mtu.py`` predicts (the CE label ``l2tpgen.mtu``), and one byte more does not: it is
  dropped, or crosses only because the sending PE fragments the encapsulated packet (a Linux
  bridge forwards frames up to 4 bytes over the session MTU, and Linux does not set DF on
  L2TP-over-IP packets). Fragments are counted on Linux PEs only, IPv4's and IPv6's
  (``FragCreates`` in ``/proc/net/snmp``, ``Ip6FragCreates`` in ``/proc/net/snmp6``: an IPv6
  underlay fragments the encapsulated packet there);
* ``multicast``: the far CE joins the VLAN's group 239.192.x.y, port 5405, on that VLAN's
  subinterface as Corosync does; TTL-1 heartbeats from the near CE reach it, and the far PE's
  bridge learned the group (``bridge mdb``; Linux PEs only). One receiver per CE joins every
  VLAN's group on its own subinterface: a heartbeat that arrived in another VLAN is not accepted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from l2tpgen.lab.kinds import LINUX_KIND
from l2tpgen.lab.probes import (
    CheckResult,
    Probe,
    answered,
    counters,
    listener,
    marker,
    markers_in,
    pattern_hex,
    retry,
)
from l2tpgen.lab.topology import ce_address

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.lab.inputs import Ce, Lab

ICMP_IP_HEADERS = 28
# IPv4's counters, then IPv6's (absent when the kernel has no IPv6: nothing to count there).
SNMP_COMMAND = "cat /proc/net/snmp; cat /proc/net/snmp6 2>/dev/null"


def fragments_created(snmp: str) -> int:
    """Fragments the node created, IPv4 (``Ip: ... FragCreates``) and IPv6 (``Ip6FragCreates``)."""
    ipv4 = counters(snmp, "Ip").get("FragCreates", 0)
    ipv6 = sum(
        int(line.split()[1])
        for line in snmp.splitlines()
        if line.startswith("Ip6FragCreates ") and line.split()[1].isdigit()
    )
    return ipv4 + ipv6


HEARTBEAT_PORT = 5405  # Corosync's mcastport
HEARTBEATS = 3


def _address(ce: Ce, vlan: int) -> str:
    return ce_address(ce.index, vlan).split("/", 1)[0]


def heartbeat_group(vlan: int) -> str:
    """The VLAN's heartbeat group: 239.192.(vlan / 256).(vlan % 256), Corosync's range."""
    return f"239.192.{vlan >> 8}.{vlan & 255}"


def capture_name(ce: Ce, vlan: int) -> str:
    """The file a CE's capture of one VLAN subinterface writes."""
    return f"cap-{ce.node}-{vlan}"


def _listening(ce: Ce, started: str, seen: str, name: str, address: str) -> tuple[Probe, Probe]:
    """A socat listener on ``address`` started with the lab, then the markers it received."""
    return (
        Probe(started, ce.node, listener(name, address), phase="start"),
        Probe(seen, ce.node, markers_in(name), "out", "collect"),
    )


def capture_probes(ce: Ce, vlan: int) -> tuple[Probe, Probe]:
    """Capture everything on the CE's subinterface of ``vlan``, then list the tags seen."""
    name = capture_name(ce, vlan)
    return _listening(
        ce, f"capture.{ce.node}.{vlan}", f"seen.{ce.node}.{vlan}", name, f"INTERFACE:eth1.{vlan}"
    )


@dataclass(frozen=True)
class Pair:
    """One VLAN between two CEs: the probes go from ``near`` to ``far``."""

    vlan: int
    near: Ce
    far: Ce
    near_pe_linux: bool = True
    far_pe_linux: bool = True

    @property
    def sites(self) -> str:
        """``site-a->site-b``."""
        return f"{self.near.site}->{self.far.site}"

    @property
    def target(self) -> str:
        """The far CE's address in the VLAN."""
        return _address(self.far, self.vlan)

    @property
    def tag(self) -> str:
        """The tag the reach ping carries."""
        return marker("P", self.vlan, self.near.index)


class Check(Protocol):
    """A check: the probes it needs, how it judges them."""

    @property
    def probes(self) -> tuple[Probe, ...]:
        """Every probe, any phase."""
        ...

    def judge(self, results: Mapping[str, str]) -> CheckResult:
        """The verdict from the probes' results (``key`` -> exit code or output)."""
        ...


@dataclass(frozen=True)
class Reach:
    """The far CE answers a tagged ping."""

    pair: Pair

    @property
    def probes(self) -> tuple[Probe, ...]:
        """One retried ping."""
        ping = f"ping -c 1 -W 1 -p {pattern_hex(self.pair.tag)} {self.pair.target}"
        return (Probe(f"reach.{self.pair.vlan}", self.pair.near.node, retry(ping)),)

    def judge(self, results: Mapping[str, str]) -> CheckResult:
        """Reached if a ping was answered."""
        ok = results.get(f"reach.{self.pair.vlan}") == "0"
        return CheckResult("reach", self.pair.vlan, self.pair.sites, ok, f"ping {self.pair.target}")


@dataclass(frozen=True)
class Isolation:
    """The reach ping's tag shows up in its own VLAN only."""

    pair: Pair
    watched: tuple[tuple[Ce, int], ...]

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


@dataclass(frozen=True)
class Mtu:
    """The predicted inner MTU crosses unfragmented; one byte more does not."""

    pair: Pair

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


def receiver_probes(ce: Ce) -> tuple[Probe, Probe]:
    """One heartbeat receiver for the CE: every VLAN's group joined on its own subinterface."""
    joins = ",".join(f"ip-add-membership={heartbeat_group(vlan)}:eth1.{vlan}" for vlan in ce.vlans)
    name = f"heartbeat-{ce.node}"
    address = f"UDP4-RECV:{HEARTBEAT_PORT},reuseaddr,{joins}"
    return _listening(
        ce, f"heartbeat.receiver.{ce.node}", f"heartbeat.seen.{ce.node}", name, address
    )


@dataclass(frozen=True)
class Multicast:
    """TTL-1 heartbeats to the VLAN's group reach a receiver that joined it, as Corosync does."""

    pair: Pair

    @property
    def probes(self) -> tuple[Probe, ...]:
        """Receiver, heartbeats, what arrived, the far PE's multicast database."""
        pair, group = self.pair, heartbeat_group(self.pair.vlan)
        beat = marker("H", pair.vlan, pair.near.index) + "\\n"
        # One socat, one datagram per heartbeat: it reads at most one heartbeat at a time.
        send = (
            f"printf '{beat * HEARTBEATS}' | socat -u -b {len(beat) - 1} - "
            f"UDP4-DATAGRAM:{group}:{HEARTBEAT_PORT},"
            f"ip-multicast-if={_address(pair.near, pair.vlan)},ip-multicast-ttl=1"
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


def pairs(lab: Lab) -> tuple[Pair, ...]:
    """Each stretched VLAN once, from the CE with the lower index."""
    linux = {n.name: n.kind == LINUX_KIND for n in lab.nodes}
    found = []
    for ce in sorted(lab.ces, key=lambda c: c.index):
        for vlan in ce.vlans:
            far = next((o for o in lab.ces if o is not ce and vlan in o.vlans), None)
            if far is not None and far.index > ce.index:
                found.append(Pair(vlan, ce, far, linux.get(ce.pe, False), linux.get(far.pe, False)))
    return tuple(found)


PairCheck = Reach | Isolation | Mtu | Multicast


def plan_checks(lab: Lab) -> tuple[PairCheck, ...]:
    """Every check for the lab's CEs, VLAN by VLAN (each a check of one pair)."""
    found = pairs(lab)
    far = {pair.far.node for pair in found}
    watched = tuple((ce, vlan) for ce in lab.ces if ce.node in far for vlan in ce.vlans)
    checks: list[PairCheck] = []
    for pair in found:
        checks += [Reach(pair), Isolation(pair, watched), Mtu(pair), Multicast(pair)]
    return tuple(checks)
