"""The checks a lab run makes, as probes any engine can execute, and their verdicts.

For every stretched VLAN, between the two CEs that share it:

* ``reach``: the far CE answers pings across the pseudowire;
* ``isolation``: while pinging in that VLAN, the far CE's other VLAN subinterfaces receive nothing;
* ``mtu``: the largest packet that crosses with DF set and without fragmentation is what ``mtu.py``
  predicts (the CE label ``l2tpgen.mtu``), and one byte more does not: it is dropped, or crosses
  only because the sending PE fragments the encapsulated packet (a Linux bridge forwards frames up
  to 4 bytes over the session MTU, and Linux does not set DF on L2TP-over-IP packets).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from l2tpgen.lab.topology import ce_address

ICMP_IP_HEADERS = 28
# Generous waits: under software emulation (TCG) a reply can take well over a second.
PING = "ping -c 3 -i 0.3 -W 2"
PING_DF = "ping -c 2 -i 0.3 -W 2 -M do -s"


@dataclass(frozen=True)
class Probe:
    """One command on one node. ``kind`` is ``rc`` (its exit code) or ``out`` (its output)."""

    key: str
    node: str
    command: str
    kind: str = "rc"


@dataclass(frozen=True)
class CheckResult:
    """One verdict."""

    check: str
    vlan: int
    sites: str
    ok: bool
    detail: str


@dataclass
class Plan:
    """The probes to run, in order, and how to judge their results."""

    probes: list[Probe] = field(default_factory=list)
    judges: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class _Ce:
    node: str
    site: str
    index: int
    pe: str
    vlans: tuple[int, ...]
    mtu: int


def _ces(topology: dict[str, Any]) -> list[_Ce]:
    ces = []
    for name, node in topology["topology"]["nodes"].items():
        labels = node.get("labels", {})
        if labels.get("l2tpgen.role") != "ce":
            continue
        ces.append(
            _Ce(
                node=name,
                site=labels["l2tpgen.site"],
                index=int(labels["l2tpgen.index"]),
                pe=labels["l2tpgen.pe"],
                vlans=tuple(int(v) for v in labels["l2tpgen.vlans"].split(",") if v),
                mtu=int(labels["l2tpgen.mtu"]),
            )
        )
    return ces


def _address(ce: _Ce, vlan: int) -> str:
    return ce_address(ce.index, vlan).split("/", 1)[0]


def _frag_creates(snmp: str) -> int:
    lines = [line.split() for line in snmp.splitlines() if line.startswith("Ip:")]
    if len(lines) < 2:  # noqa: PLR2004 - header and values
        return -1
    header, values = lines[0], lines[1]
    return int(values[header.index("FragCreates")])


def plan_checks(topology: dict[str, Any]) -> Plan:
    """Every probe and judge for the topology's CEs."""
    plan = Plan()
    ces = _ces(topology)
    for ce in ces:
        for vlan in ce.vlans:
            far = next((o for o in ces if o is not ce and vlan in o.vlans), None)
            if far is None or far.index < ce.index:
                continue  # each pair of CEs checked once, from the first
            _plan_vlan(plan, ce, far, vlan)
    return plan


def _plan_vlan(plan: Plan, ce: _Ce, far: _Ce, vlan: int) -> None:
    sites = f"{ce.site}->{far.site}"
    target = _address(far, vlan)
    key = f"{vlan}"
    others = [v for v in far.vlans if v != vlan]
    for v in others:
        plan.probes.append(
            Probe(
                f"{key}.before.{v}",
                far.node,
                f"cat /sys/class/net/eth1.{v}/statistics/rx_packets",
                "out",
            )
        )
    plan.probes.append(Probe(f"{key}.reach", ce.node, f"{PING} {target}"))
    for v in others:
        plan.probes.append(
            Probe(
                f"{key}.after.{v}",
                far.node,
                f"cat /sys/class/net/eth1.{v}/statistics/rx_packets",
                "out",
            )
        )
    largest = ce.mtu - ICMP_IP_HEADERS
    plan.probes += [
        Probe(f"{key}.snmp.before", ce.pe, "cat /proc/net/snmp", "out"),
        Probe(f"{key}.fits", ce.node, f"{PING_DF} {largest} {target}"),
        Probe(f"{key}.snmp.after", ce.pe, "cat /proc/net/snmp", "out"),
        Probe(f"{key}.over", ce.node, f"{PING_DF} {largest + 1} {target}"),
        Probe(f"{key}.snmp.over", ce.pe, "cat /proc/net/snmp", "out"),
    ]

    def judge(results: dict[str, str]) -> list[CheckResult]:
        reached = results.get(f"{key}.reach") == "0"
        leaked = [
            f"eth1.{v}"
            for v in others
            if _int(results.get(f"{key}.after.{v}")) != _int(results.get(f"{key}.before.{v}"))
        ]
        fragments = _frag_creates(results.get(f"{key}.snmp.after", "")) - _frag_creates(
            results.get(f"{key}.snmp.before", "")
        )
        fits = results.get(f"{key}.fits") == "0" and fragments == 0
        over_fragments = _frag_creates(results.get(f"{key}.snmp.over", "")) - _frag_creates(
            results.get(f"{key}.snmp.after", "")
        )
        over_dropped = results.get(f"{key}.over") != "0"
        over = over_dropped or over_fragments > 0
        return [
            CheckResult("reach", vlan, sites, reached, f"ping {target}"),
            CheckResult(
                "isolation",
                vlan,
                sites,
                reached and not leaked,
                f"frames arrived on {', '.join(leaked)}" if leaked else "no frame in other VLANs",
            ),
            CheckResult(
                "mtu",
                vlan,
                sites,
                fits and over,
                f"predicted {ce.mtu}: {ce.mtu} "
                f"{'crosses unfragmented' if fits else 'does NOT cross unfragmented'}, "
                f"{ce.mtu + 1} "
                + (
                    "is dropped"
                    if over_dropped
                    else "crosses only fragmented"
                    if over_fragments > 0
                    else "crosses unfragmented"
                ),
            ),
        ]

    plan.judges.append(judge)


def _int(text: str | None) -> int:
    match = re.search(r"-?\d+", text or "")
    return int(match.group()) if match else -1


def judge(plan: Plan, results: dict[str, str]) -> list[CheckResult]:
    """Verdicts from probe results (``key`` -> exit code or output)."""
    return [verdict for judge in plan.judges for verdict in judge(results)]
