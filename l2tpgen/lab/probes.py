"""Probes: one command on one node, run by any engine, and the verdicts judged from them.

A probe runs in one of three phases: ``start`` (background listeners: packet captures, multicast
receivers; the command returns once the listener is ready), ``main`` (in order) and ``collect``
(read what the listeners saw). Probe commands are portable shell: they call ``ping``, ``socat``,
``bridge`` by name and keep their files under ``$L2TPGEN_TMP``, which each engine sets per node.
"""

from __future__ import annotations

import binascii
import shlex
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Iterable

Phase = Literal["start", "main", "collect"]
PHASES: tuple[Phase, ...] = ("start", "main", "collect")
MARKER_PATTERN = "L2G[A-Z][0-9][0-9][0-9][0-9]S[0-9][0-9]"
READY = "starting data transfer loop"
# Under software emulation (TCG) a reply can take over a second: single pings, retried (a VLAN
# that does not forward costs ATTEMPTS seconds, not a fixed count of pings on every VLAN).
ATTEMPTS = 5


@dataclass(frozen=True)
class Probe:
    """One command on one node (``""``: the lab host itself). ``capture``: exit code or output."""

    key: str
    node: str
    command: str
    capture: Literal["rc", "out"] = "rc"
    phase: Phase = "main"


@dataclass(frozen=True)
class CheckResult:
    """One verdict."""

    check: str
    vlan: int
    sites: str
    ok: bool
    detail: str


def ordered(probes: Iterable[Probe]) -> tuple[Probe, ...]:
    """Probes by phase, in order, each key once (checks share listeners).

    Raises:
        ValueError: two different probes with one key (a bug in a check).
    """
    unique: dict[str, Probe] = {}
    for probe in probes:
        if unique.setdefault(probe.key, probe) != probe:
            raise ValueError(f"two different probes share the key {probe.key}")
    return tuple(sorted(unique.values(), key=lambda p: PHASES.index(p.phase)))


def marker(kind: str, vlan: int, index: int) -> str:
    """A unique tag carried in payloads: ``L2GP2996S00`` (P: ping, H: heartbeat)."""
    return f"L2G{kind}{vlan:04d}S{index:02d}"


def pattern_hex(text: str) -> str:
    """``text`` as ping's ``-p`` pattern (hex, at most 16 bytes)."""
    return binascii.hexlify(text.encode()).decode()


def retry(command: str, attempts: int = ATTEMPTS) -> str:
    """``command`` until it succeeds, at most ``attempts`` times; no fixed sleeps."""
    return f"for i in $(seq {attempts}); do {command} >/dev/null 2>&1 && exit 0; done; exit 1"


# One ICMP counter of the namespace (``/proc/net/snmp``), by name.
_ICMP_COUNTER = (
    'icmp() { awk -v k="$1" \'/^Icmp:/ { if (!c) { for (i = 2; i <= NF; i++) '
    "if ($i == k) c = i; next } print $c }' /proc/net/snmp; }; "
)


def answered(ping: str, sentinel: str) -> str:
    """Exit 0 when the one echo request ``ping`` sends is answered, as ``ping`` does; sooner.

    A request that is dropped on the way costs ``ping`` its whole wait (``-W``). Instead, once it
    is out (the namespace's ``OutEchos`` grew), ``sentinel`` (a ping that crosses) follows it on
    the same path: with both pinned to one CPU the kernel handles their packets in order, hop by
    hop (each CPU's backlog is a FIFO, net/core/dev.c ``enqueue_to_backlog``), so when the
    sentinel's reply is back the first request's reply is in too if there was one
    (``InEchoReps`` grew by 2, not 1). Only a sentinel answered with the count grown by exactly 1
    ends the wait early; anything else (no CPU pinning, a sentinel lost or late) waits for
    ``ping``'s own verdict, as before.
    """
    return (
        _ICMP_COUNTER
        + f"taskset -p 1 $$ >/dev/null 2>&1 || {{ {ping} >/dev/null 2>&1; exit $?; }}; "
        + "o=$(icmp OutEchos); r=$(icmp InEchoReps); "
        + f"{ping} >/dev/null 2>&1 & p=$!; "
        + 'i=0; while [ "$(icmp OutEchos)" = "$o" ] && kill -0 $p 2>/dev/null && [ $i -lt 500 ]; '
        + "do i=$((i + 1)); sleep 0.01; done; "
        + f'if {sentinel} >/dev/null 2>&1 && [ "$(icmp InEchoReps)" = "$((r + 1))" ]; '
        + "then kill $p 2>/dev/null; exit 1; fi; "
        + "wait $p"
    )


def listener(name: str, socat_args: str) -> str:
    """Start ``socat`` in the background, writing to ``$L2TPGEN_TMP/name``; return when ready.

    socat logs "starting data transfer loop" once its sockets are open and bound. Its log comes
    through a FIFO, read line by line until that line: no polling (a dozen listeners each
    polling every 10 ms cost the guest 1 s of its 3.5 s to start them, ``bench/lab_goals.py``),
    and a socat that fails (exits) ends the wait at once. A ``cat`` then keeps draining the
    FIFO into ``name.log`` while socat runs.
    """
    base = f'"$L2TPGEN_TMP/{name}'
    return (
        f'[ -p {base}.fifo" ] || mkfifo {base}.fifo" || exit 1; '
        f'socat -d -d -u {socat_args} CREATE:"$L2TPGEN_TMP/{name}" </dev/null >/dev/null '
        f'2>{base}.fifo" & '
        f'exec 3<{base}.fifo"; '
        f'while read -r line <&3; do echo "$line" >>{base}.log"; '
        f'case "$line" in *{shlex.quote(READY)}*) cat <&3 >>{base}.log" & exit 0;; esac; '
        "done; exit 1"
    )


def markers_in(name: str) -> str:
    """The command that lists the markers a listener's file holds, one per line."""
    return f'strings -n 6 "$L2TPGEN_TMP/{name}" | grep -o {shlex.quote(MARKER_PATTERN)} | sort -u'


def counters(text: str, section: str) -> dict[str, int]:
    """One section of ``/proc/net/snmp`` (``Ip``, ``Udp``) as name -> value."""
    rows = [line.split()[1:] for line in text.splitlines() if line.startswith(f"{section}:")]
    if len(rows) < 2:  # noqa: PLR2004 - a header row and a value row
        return {}
    header, values = rows[0], rows[1]
    return {name: int(value) for name, value in zip(header, values, strict=False)}
