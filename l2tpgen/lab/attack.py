"""The attacker on the WAN path: what it aims at, and the ``pwprobe`` commands it runs.

The attacker is the lab's WAN router: it sits on the path between the PEs, as anyone who can read
or write the WAN does. For one stretched VLAN it forges L2TPv3 packets to the far PE (from its own
address on the far PE's link, and from the near PE's address, spoofed), captures the WAN link to
the far PE, and replays a captured packet. A watcher on the far CE counts what arrives.

Everything it needs is read from the (revealed) topology, as the kernel was configured: the far
PE's tunnel that carries the VLAN (``ip l2tp add tunnel ... local FAR remote NEAR``, the one whose
``tunnel_id`` the VLAN's session names: a PE with several peers has several, and the pair's is
never just the first listed), the VLAN's session on the far PE
(``session_id`` and the ``peer_cookie`` it expects: an attacker on the path reads cookies off the
wire, so the forgeries carry the right one), and the WAN router's address on the far PE's link.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.errors import L2tpgenError
from l2tpgen.lab.inputs import INBOUND_FILTER
from l2tpgen.lab.probes import Probe, pattern_hex
from l2tpgen.lab.strongswan import PWPROBE
from l2tpgen.platforms.render import kernel_plane

if TYPE_CHECKING:
    from l2tpgen.lab.inputs import Lab, Node
    from l2tpgen.lab.pairs import Pair

L2TP_IP = 115  # IP protocol number of L2TPv3 over IP (RFC 3931)
ESP = 50
FORGED = 5
REPLAYED = 3
PINGS = 3
PING_SIZE = 1000  # the replayed packet is the first this big from the near PE to the far PE


@dataclass(frozen=True)
class Target:
    """One VLAN's pseudowire as the attacker sees it."""

    vlan: int
    near_pe: str
    far_pe: str
    near_address: str
    far_address: str
    session: int
    cookie: str  # hex, or "-" for none
    wan: str
    wan_interface: str
    wan_address: str
    sublayer: bool = False  # the far session expects the default L2-specific sublayer
    tag: int | None = None  # the far end takes the VLAN's frames 802.1Q-tagged (a Cisco peer)
    inbound_filter: bool = True  # False: the far PE's platform renders none (label, by design)
    sequenced: bool = False  # either end numbers its packets (``seq send``/``seq both``)


_TUNNEL = re.compile(r"^ip l2tp add tunnel .*?\btunnel_id (\d+) .*\blocal (\S+) remote (\S+)")
# `ip addr replace` (the rendered script, safe to run again) or `add` (the lab's own lines)
_ADDR = re.compile(r"^ip addr (?:add|replace) ([\d.]+)/\d+ dev (\S+)$")
_OWN = re.compile(r"^ip addr (?:add|replace) ([0-9A-Fa-f.:]+)/\d+ dev \S+")  # either family


@dataclass(frozen=True)
class Tunnel:
    """The tunnel that carries one VLAN's session on one PE (``ip l2tp add tunnel``)."""

    tunnel_id: int
    local: str
    remote: str


def _session_line(commands: tuple[str, ...], vlan: int) -> re.Match[str] | None:
    """The VLAN's ``ip l2tp add session`` (Linux names it ``l2tpVLAN``, VyOS ``l2tpethVLAN``)."""
    pattern = re.compile(
        rf"^ip l2tp add session name (l2tp(?:eth)?{vlan}) .*\btunnel_id (\d+)\b"
        r".*\bsession_id (\d+)\b"
    )
    return next((m for m in map(pattern.match, commands) if m), None)


def _session(commands: tuple[str, ...], vlan: int) -> tuple[int, str, bool, int | None]:
    """(session ID, peer cookie, sublayer, tag) of the VLAN's session among a PE's commands.

    No ``l2spec_type`` is iproute2's default sublayer (VyOS); the tag is carried when a VLAN
    device sits on the session (Linux towards a Cisco end) or a VLAN-filtering bridge takes the
    VLAN tagged on it (VyOS towards Cisco).
    """
    found = _session_line(commands, vlan)
    if found is None:
        raise L2tpgenError(f"no session for VLAN {vlan} (l2tp{vlan}) among the PE's commands")
    name, command = found.group(1), found.string
    cookie = re.search(r"\bpeer_cookie ([0-9a-fA-F]+)\b", command)
    sublayer = "l2spec_type none" not in command
    tagged = {
        f"ip link add link {name} name {name}.{vlan} type vlan id {vlan}",
        f"bridge vlan add dev {name} vid {vlan} master",
    }
    tag = vlan if tagged & {kernel_plane().bare(c) for c in commands} else None
    return int(found.group(3)), cookie.group(1) if cookie else "-", sublayer, tag


def pair_tunnel(far: Node, near: Node, vlan: int) -> Tunnel:
    """The far PE's tunnel that carries ``vlan``'s session, checked to lead to the near PE.

    A PE with several peers has a tunnel per peer (and VyOS one per session): the one judged is
    the one the VLAN's session names by its ``tunnel_id``, never the first in the list; its
    remote end must be an address of the near PE (IPv4 or IPv6).

    Raises:
        L2tpgenError: no session for the VLAN, no tunnel with its ID, or a tunnel to another PE.
    """
    session = _session_line(far.exec, vlan)
    if session is None:
        raise L2tpgenError(
            f"{far.name}: no session for VLAN {vlan} (l2tp{vlan}) among its commands"
        )
    tunnel_id = int(session.group(2))
    found = next(
        (
            Tunnel(tunnel_id, m.group(2), m.group(3))
            for m in map(_TUNNEL.match, far.exec)
            if m and int(m.group(1)) == tunnel_id
        ),
        None,
    )
    if found is None:
        raise L2tpgenError(
            f"{far.name}: VLAN {vlan}'s session names tunnel_id {tunnel_id}, and no "
            "`ip l2tp add tunnel` has it"
        )
    near_addresses = {m.group(1) for m in map(_OWN.match, near.exec) if m}
    if found.remote not in near_addresses:
        raise L2tpgenError(
            f"{far.name}: VLAN {vlan}'s session is in tunnel {tunnel_id} to {found.remote}, "
            f"which is not an address of {near.name}, the other end of the VLAN "
            f"({', '.join(sorted(near_addresses)) or 'none'})"
        )
    return found


def target(lab: Lab, pair: Pair) -> Target:
    """What the attacker aims at for ``pair``, read from the PEs' and the WAN router's commands.

    Raises:
        L2tpgenError: the topology lacks a piece (no WAN router, no tunnel or session, no link).
    """
    if lab.wan is None:
        raise L2tpgenError("the protection checks need the lab's WAN router (the attacker)")
    far = lab.node(pair.far.pe)
    tunnel = pair_tunnel(far, lab.node(pair.near.pe), pair.vlan)
    if ":" in tunnel.local:
        raise L2tpgenError(
            f"{far.name}'s tunnel runs over IPv6 ({tunnel.local}): the lab's protection checks "
            "forge and replay IPv4 packets only (pwprobe), so a lab of IPv6 sites with IPsec or "
            "an inbound filter cannot run yet; lab an unprotected copy of the fleet "
            "(`wan.trusted: true` at both ends) for its data plane and MTU"
        )
    session, cookie, sublayer, tag = _session(far.exec, pair.vlan)
    link = next(
        (
            (link.b.interface if link.a.node == far.name else link.a.interface)
            for link in lab.links
            if {link.a.node, link.b.node} == {far.name, lab.wan}
        ),
        None,
    )
    if link is None:
        raise L2tpgenError(f"{far.name} has no link to the WAN router {lab.wan}")
    wan_address = next(
        (m.group(1) for m in map(_ADDR.match, lab.node(lab.wan).exec) if m and m.group(2) == link),
        None,
    )
    if wan_address is None:
        raise L2tpgenError(f"the WAN router {lab.wan} has no address on {link}")
    return Target(
        pair.vlan,
        pair.near.pe,
        far.name,
        tunnel.remote,
        tunnel.local,
        session,
        cookie,
        lab.wan,
        link,
        wan_address,
        sublayer,
        tag,
        inbound_filter=far.label(INBOUND_FILTER) != "none",
        sequenced=_sequenced((*far.exec, *lab.node(pair.near.pe).exec), pair.vlan),
    )


def _sequenced(commands: tuple[str, ...], vlan: int) -> bool:
    """Whether either end of the VLAN's session sends sequence numbers.

    Then both do once a packet has crossed (``l2tp_recv_common`` in net/l2tp/l2tp_core.c: a
    session that receives sequence numbers starts sending them), and each kernel drops a
    sequence number it has seen: a replay in clear.
    """
    pattern = re.compile(rf"^ip l2tp add session name l2tp(?:eth)?{vlan} .*\bseq (send|both)\b")
    return any(pattern.match(command) for command in commands)


def forge(t: Target, source: str, count: int, marker: str) -> str:
    """Send ``count`` forged L2TPv3 packets from ``source`` to the far PE, carrying ``marker``."""
    framing = f"{'sublayer' if t.sublayer else '-'} {t.tag or '-'}"
    return (
        f"{PWPROBE} forge {source} {t.far_address} {t.session} {t.cookie} {count} {marker} "
        f"{framing}"
    )


def watch_start(name: str, interface: str, markers: str, save: str = "") -> str:
    """Start ``pwprobe watch`` in the background; return once its socket is bound."""
    base = f'"$L2TPGEN_TMP/{name}'
    return (
        f"{PWPROBE} watch {interface} {shlex.quote(markers)} {save} "
        f'>{base}.out" 2>{base}.err" </dev/null & echo $! >{base}.pid"; '
        f'for i in $(seq 1000); do grep -q ready {base}.err" && exit 0; sleep 0.01; done; exit 1'
    )


def watch_stop(name: str, *, sentinel: bool = False) -> str:
    """Stop a watcher and print its counts.

    ``sentinel``: the watcher stops by itself on its ``until:`` marker; wait for that first (up
    to 1000 steps), so that every frame sent before the sentinel was counted.
    """
    base = f'"$L2TPGEN_TMP/{name}'
    wait = f'for i in $(seq 1000); do grep -q "^end$" {base}.out" && break; sleep 0.01; done; '
    return (
        wait if sentinel else ""
    ) + f'kill -TERM $(cat {base}.pid") 2>/dev/null; {wait}cat {base}.out"'


def saved_packet(name: str) -> str:
    """Where a watcher saves the packet it was asked to keep."""
    return f'"$L2TPGEN_TMP/{name}.pkt"'


def watch_counts(text: str) -> dict[str, int]:
    """A watcher's output as name -> count (``hit:MARKER`` for marker hits)."""
    counts: dict[str, int] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():  # noqa: PLR2004 - name and count
            counts[parts[0]] = int(parts[1])
    return counts


def xfrm_stats(text: str) -> dict[str, int]:
    """``/proc/net/xfrm_stat`` as name -> value."""
    stats: dict[str, int] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():  # noqa: PLR2004
            stats[parts[0]] = int(parts[1])
    return stats


@dataclass(frozen=True)
class Attacked:
    """One protected pair of PEs under attack (its first VLAN)."""

    pair: Pair
    target: Target

    def key(self, phase: str) -> str:
        """The probes' key prefix in one phase."""
        return f"{phase}.{self.pair.vlan}"

    def markers(self, phase: str) -> dict[str, str]:
        """The payload markers of one phase (distinct from the usual checks' ``L2G...`` tags)."""
        p, vlan = phase[0].upper(), self.pair.vlan
        return {
            "own": f"PWF{p}OWN{vlan}",
            "spoofed": f"PWF{p}SPF{vlan}",
            "pattern": f"PWPAY{p}{vlan}",
            "sentinel": f"PWEND{p}{vlan}",
        }

    def probes(self, phase: str) -> tuple[Probe, ...]:
        """Watch the WAN and the far CE during pings; then forge, replay, sentinel, collect.

        The far CE's second watcher starts after the pings: every copy of the pings' pattern it
        sees is a replay delivered.
        """
        t, k, m = self.target, self.key(phase), self.markers(phase)
        near, far = self.pair.near.node, self.pair.far.node
        proto = ESP if phase == "protected" else L2TP_IP
        save = f"{proto} {t.near_address} {t.far_address} {PING_SIZE} {saved_packet('wan-' + k)}"
        far_markers = f"{m['own']},{m['spoofed']},{m['pattern']},until:{m['sentinel']}"
        ping = f"ping -c {PINGS} -i 0.2 -W 3 -s {PING_SIZE} -p {pattern_hex(m['pattern'])}"
        sentinel = f"ping -c 1 -W 3 -p {pattern_hex(m['sentinel'])} {self.pair.target}"
        return (
            Probe(f"{k}.far.traffic.start", far, watch_start(f"far-t-{k}", "eth1", m["pattern"])),
            Probe(
                f"{k}.wan.start",
                t.wan,
                watch_start(f"wan-{k}", t.wan_interface, m["pattern"], save),
            ),
            Probe(f"{k}.traffic", near, f"{ping} {self.pair.target}", "out"),
            Probe(f"{k}.wan", t.wan, watch_stop(f"wan-{k}"), "out"),
            Probe(f"{k}.far.traffic", far, watch_stop(f"far-t-{k}"), "out"),
            Probe(f"{k}.far.start", far, watch_start(f"far-{k}", "eth1", far_markers)),
            Probe(f"{k}.xfrm.before", t.far_pe, "cat /proc/net/xfrm_stat", "out"),
            Probe(f"{k}.forge.own", t.wan, forge(t, t.wan_address, FORGED, m["own"]), "out"),
            Probe(
                f"{k}.forge.spoofed", t.wan, forge(t, t.near_address, FORGED, m["spoofed"]), "out"
            ),
            Probe(
                f"{k}.replay",
                t.wan,
                f"{PWPROBE} replay {saved_packet('wan-' + k)} {REPLAYED}",
                "out",
            ),
            Probe(f"{k}.sentinel", near, sentinel),
            Probe(f"{k}.far", far, watch_stop(f"far-{k}", sentinel=True), "out"),
            Probe(f"{k}.xfrm.after", t.far_pe, "cat /proc/net/xfrm_stat", "out"),
        )
