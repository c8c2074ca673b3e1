"""A hub's pairs kept apart, and its script run again after a flush: one VM, the hub as rendered.

Issue 33, items 10 and 11, on the real kernel. The lab is the fleet as ``lab build`` writes it,
secrets throwaway, every PE running its rendered commands from the start (as at boot), then
charon on each IPsec PE and IKEv2 from the spokes. In order:

* **pairs apart**: spoke X, from its own namespace (the kernel picks X's tunnel address and
  encrypts with X's SA: the hub admits it), sends 5 L2TPv3 frames to each of spoke Y's session
  IDs on the hub, with the cookie the hub expects there (the worst case: as if X knew it); a
  watcher on the hub's CE counts them. Then the binding is removed (``nft delete table``) and the
  same forgeries are sent again: the **control**, which shows that the forgery, its path through
  X's SA and the counting work, so the 0 before it is the binding's. ``pwprobe`` is the lab's
  own sender (``l2tpgen/lab/tools/pwprobe.c``), with no knowledge of the binding.
* **run again after a flush**: ``ip xfrm policy flush`` on the hub (the blocks and charon's
  policies are gone), the hub's CE pings across while its WAN link is counted (the control: clear
  L2TPv3 on the wire); the hub's rendered commands written to a file, run twice under ``sh -e``
  (each must exit 0), the blocks and the binding counted back; charon restarted (SIGTERM, start,
  IKEv2 from the hub, as ``systemctl restart strongswan`` does) while the WAN link is counted
  again: 0 clear L2TPv3 packets, and the pseudowire answers again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.errors import L2tpgenError
from l2tpgen.lab.adversary import charon_pid
from l2tpgen.lab.attack import watch_counts, watch_start, watch_stop
from l2tpgen.lab.build import LabDesign, lab_of_fleet
from l2tpgen.lab.engines.guest import PRELUDE, GuestLab
from l2tpgen.lab.engines.vm import guest_extras, nft_extras, run_guest, xfrm_extras
from l2tpgen.lab.pairs import Pair, pairs, vlan_address
from l2tpgen.lab.probes import CheckResult, Probe, pattern_hex, retry
from l2tpgen.lab.security import (
    _CHILDREN,
    _initiate,
    protection,
    reveal_secrets,
    start_charon,
    swanctl_text,
)
from l2tpgen.lab.strongswan import PWPROBE, protection_extras
from l2tpgen.platforms.render import kernel_plane

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.lab.inputs import Lab
    from l2tpgen.model import Fleet

SENT = 5  # frames per session and phase
BOUND, OPEN, END = "PWHUBBND", "PWHUBOPN", "PWHUBEND"
BLOCKS = "ip xfrm policy | grep -c 'action block'; true"
SCRIPT = '"$L2TPGEN_TMP/pe.sh"'


@dataclass(frozen=True)
class HubAim:
    """The hub, the spoke that forges (X), the spoke whose sessions it aims at (Y)."""

    hub: str  # PE nodes
    spoke: str
    victim: str
    hub_address: str
    sessions: tuple[tuple[int, str], ...]  # Y's session IDs on the hub and the cookie expected
    cross: Pair  # a VLAN between the hub and Y: reach, the sentinel, the clear-packet count
    victim_address: str  # Y's tunnel address
    wan: str  # the WAN router and its interface towards the hub
    wan_interface: str


def _link(lab: Lab, node: str) -> str:
    for link in lab.links:
        if {link.a.node, link.b.node} == {node, lab.wan}:
            return link.b.interface if link.a.node == node else link.a.interface
    raise L2tpgenError(f"{node} has no link to the WAN router {lab.wan}")


def aim(fleet: Fleet, lab: Lab, hub: str, spoke: str, victim: str) -> HubAim:
    """What the spoke aims at: the victim's sessions on the hub, as the hub's commands hold them."""
    hub_pe = f"pe-{hub}"
    sessions = []
    for pw in fleet.pseudowires(hub):
        if pw.peer.name == victim:
            session = pw.session_ids[0]
            pattern = re.compile(rf"^ip l2tp add session .*\bsession_id {session}\b")
            line = next(c for c in lab.node(hub_pe).exec if pattern.match(c))
            cookie = re.search(r"\bpeer_cookie ([0-9a-fA-F]+)\b", line)
            sessions.append((session, cookie.group(1) if cookie else "-"))
    cross = next(p for p in pairs(lab) if {p.near.site, p.far.site} == {hub, victim})
    if lab.wan is None:
        raise L2tpgenError("the hub check needs the lab's WAN router")
    return HubAim(
        hub_pe,
        f"pe-{spoke}",
        f"pe-{victim}",
        str(fleet.site(hub).tunnel_address),
        tuple(sessions),
        cross,
        str(fleet.site(victim).tunnel_address),
        lab.wan,
        _link(lab, hub_pe),
    )


def _hub_ce(a: HubAim) -> tuple[str, str, str]:
    """(the hub's CE, its address in the cross VLAN, the victim CE's there)."""
    hub_side = a.cross.near if a.cross.near.pe == a.hub else a.cross.far
    other = a.cross.far if hub_side is a.cross.near else a.cross.near
    return hub_side.node, vlan_address(hub_side, a.cross.vlan), vlan_address(other, a.cross.vlan)


def _forge(a: HubAim, marker: str) -> str:
    sends = [
        f"{PWPROBE} inject - - {a.hub_address} {session} {cookie} - {SENT} {marker}{session}"
        for session, cookie in a.sessions
    ]
    return " && ".join(sends)


def _restart(lab: Lab, pe: str) -> str:
    stop = (
        f'pid=$({charon_pid()}); [ -n "$pid" ] && kill -TERM $pid; '
        'for i in $(seq 500); do kill -0 "$pid" 2>/dev/null || break; sleep 0.02; done; '
        'rm -f "$L2TPGEN_TMP/charon.vici"\n'
    )
    return stop + start_charon(swanctl_text(lab.node(pe)))


def _initiate_all(lab: Lab, pe: str) -> str:
    children = dict.fromkeys(_CHILDREN.findall(swanctl_text(lab.node(pe))))
    return " && ".join(_initiate(child) for child in children) or "true"


def _rerun(number: int) -> str:
    log = f'"$L2TPGEN_TMP/rerun.{number}"'
    return f'sh -e {SCRIPT} >{log} 2>&1; echo "exit $?"; tail -n 3 {log}'


def _exit(text: str) -> str:
    found = re.search(r"^exit (\d+)$", text, re.MULTILINE)
    return found.group(1) if found else "?"


def _wan_watch(a: HubAim, name: str) -> str:
    """Count L2TPv3 between the hub and the victim on the hub's WAN link (nothing saved)."""
    pair = f"115 {a.hub_address} {a.victim_address} 1000000 /dev/null"
    return watch_start(name, a.wan_interface, "PWHUBNONE", pair)


def apart_probes(lab: Lab, a: HubAim) -> tuple[Probe, ...]:
    """Charon everywhere, IKEv2 from the spokes, then the spoke's forgeries with and without."""
    ipsec = sorted(n.name for n in lab.nodes if n.role == "pe" and protection(n) == "ipsec")
    ce, ce_address, victim_address = _hub_ce(a)
    markers = [f"{m}{s}" for m in (BOUND, OPEN) for s, _ in a.sessions]
    watched = ",".join([*markers, f"until:{END}"])
    far_ce = a.cross.far.node if a.cross.near.node == ce else a.cross.near.node
    return (
        *(
            Probe(f"charon.{pe}", pe, start_charon(swanctl_text(lab.node(pe))), phase="start")
            for pe in ipsec
        ),
        *(Probe(f"initiate.{pe}", pe, _initiate_all(lab, pe)) for pe in (a.spoke, a.victim)),
        Probe("reach", ce, retry(f"ping -c 1 -W 1 {victim_address}", 60)),
        Probe("watch.start", ce, watch_start("hub-ce", "eth1", watched)),
        Probe("forge.bound", a.spoke, _forge(a, BOUND), "out"),
        Probe("unbind", a.hub, f"nft delete table {kernel_plane().binding_table}"),
        Probe("forge.open", a.spoke, _forge(a, OPEN), "out"),
        Probe("sentinel", far_ce, f"ping -c 1 -W 3 -p {pattern_hex(END)} {ce_address}"),
        Probe("watch", ce, watch_stop("hub-ce", sentinel=True), "out"),
    )


def rerun_probes(lab: Lab, a: HubAim) -> tuple[Probe, ...]:
    """Flush, clear packets counted (control); the script twice; charon restarted, counted."""
    ce, _, victim_address = _hub_ce(a)
    table = kernel_plane().binding_table
    script = "\n".join([PRELUDE, *lab.node(a.hub).exec])
    eof = "L2TPGEN_PE_EOF"
    return (
        Probe("flush", a.hub, "ip xfrm policy flush"),
        Probe("blocks.flushed", a.hub, BLOCKS, "out"),
        Probe("wan.flushed.start", a.wan, _wan_watch(a, "wan-f")),
        Probe("ping.flushed", ce, f"ping -c 5 -i 0.2 -W 1 {victim_address}"),
        Probe("wan.flushed", a.wan, watch_stop("wan-f"), "out"),
        Probe("write", a.hub, f"cat > {SCRIPT} <<'{eof}'\n{script}\n{eof}"),
        *(Probe(f"rerun.{n}", a.hub, _rerun(n), "out") for n in (1, 2)),
        Probe("blocks.back", a.hub, BLOCKS, "out"),
        Probe(
            "bound.back",
            a.hub,
            f"nft list table {table} | grep -c 'drop'; true",
            "out",
        ),
        Probe("wan.restart.start", a.wan, _wan_watch(a, "wan-r")),
        Probe("restart", a.hub, _restart(lab, a.hub)),
        Probe("initiate.hub", a.hub, _initiate_all(lab, a.hub)),
        Probe("back", ce, retry(f"ping -c 1 -W 1 {victim_address}", 60)),
        Probe("wan.restart", a.wan, watch_stop("wan-r"), "out"),
    )


def _count(text: str) -> int:
    found = re.search(r"^(\d+)$", text.strip(), re.MULTILINE)
    return int(found.group(1)) if found else -1


def judge_apart(a: HubAim, results: Mapping[str, str]) -> CheckResult:
    """0 of the spoke's forgeries delivered with the binding; more than 0 without it."""
    counts = watch_counts(results.get("watch", ""))
    bound = sum(counts.get(f"hit:{BOUND}{s}", 0) for s, _ in a.sessions)
    opened = sum(counts.get(f"hit:{OPEN}{s}", 0) for s, _ in a.sessions)
    sent = [int(n) for n in re.findall(r"sent (\d+)", results.get("forge.bound", ""))]
    sent_open = [int(n) for n in re.findall(r"sent (\d+)", results.get("forge.open", ""))]
    total = SENT * len(a.sessions)
    reach = results.get("reach") == "0"
    ok = reach and sum(sent) == sum(sent_open) == total and bound == 0 and opened > 0
    ids = ", ".join(str(s) for s, _ in a.sessions)
    detail = (
        f"{a.spoke} through its own SA to {a.victim}'s sessions {ids} on {a.hub}: {bound}/"
        f"{sum(sent)} reached the hub's CE; binding removed (control): {opened}/{sum(sent_open)}"
        + ("" if reach else f"; the pseudowire {a.hub}-{a.victim} did NOT answer first")
    )
    return CheckResult("hub-pairs-apart", a.cross.vlan, f"{a.spoke}->{a.victim}", ok, detail)


def judge_rerun(a: HubAim, results: Mapping[str, str]) -> CheckResult:
    """The script runs again twice after a flush, restores the blocks; 0 clear after it."""
    flushed = _count(results.get("blocks.flushed", ""))
    back = _count(results.get("blocks.back", ""))
    rules = _count(results.get("bound.back", ""))
    leaked = watch_counts(results.get("wan.flushed", "")).get("l2tp_pair", -1)
    clear = watch_counts(results.get("wan.restart", "")).get("l2tp_pair", -1)
    runs = (_exit(results.get("rerun.1", "")), _exit(results.get("rerun.2", "")))
    answering = results.get("back") == "0"
    ok = (
        runs == ("0", "0")
        and flushed == 0
        and back > 0
        and rules > 0
        and leaked > 0
        and clear == 0
        and answering
    )
    detail = (
        f"after `ip xfrm policy flush` on {a.hub}: {flushed} block policies, {leaked} clear "
        f"L2TPv3 packets on its WAN while its CE pinged (the control); the rendered commands "
        f"under sh -e twice: exit {runs[0]} and {runs[1]}, {back} block policies and {rules} "
        f"binding rules back; charon restarted: {clear} clear L2TPv3 packets, "
        f"{'answering again' if answering else 'NOT answering again'}"
    )
    return CheckResult("hub-rerun", a.cross.vlan, a.hub, ok, detail)


@dataclass(frozen=True)
class HubReport:
    """The two verdicts, the set-up errors, the VM's wall time."""

    results: tuple[CheckResult, ...]
    setup_errors: tuple[str, ...]
    seconds: float


def run_hub(fleet: Fleet, hub: str, spoke: str, victim: str, *, timeout: float = 600) -> HubReport:
    """Build the fleet's lab, run both parts in one VM, judge them."""
    lab = reveal_secrets(lab_of_fleet(fleet, "hub", LabDesign("hub")))
    a = aim(fleet, lab, hub, spoke, victim)
    probes = (*apart_probes(lab, a), *rerun_probes(lab, a))
    extras = guest_extras(xfrm_extras, nft_extras, protection_extras)
    run = run_guest([GuestLab(lab, probes)], timeout=timeout, extras=extras)
    (found,) = run.labs
    results = (judge_apart(a, found.results), judge_rerun(a, found.results))
    return HubReport(results, found.setup_errors, run.seconds)
