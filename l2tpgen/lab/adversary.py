"""The independent attacker: an attacker on the WAN that has not read the site files.

``attack.py``'s attacker is written with the defender's assumptions: it aims at the tunnel address
read from the topology, at steady state, with the frames l2tpgen renders. This one aims at a PE
as someone on its WAN segment would find it, and over time:

* **discovered**: from the WAN router's interface towards the PE it learns its neighbours (a ping
  sweep of its own subnet, then the ARP table; IPv6 all-nodes ``ff02::1``, then the neighbour
  table) and sends to each of them, to the subnet broadcast, ``255.255.255.255``, ``224.0.0.1``
  and ``ff02::1``;
* **every address** (stronger): every address the PE holds, read in the PE's namespace (its
  loopbacks, WAN and LAN addresses, IPv6 link-locals; ``127.0.0.0/8`` and ``::1`` left out: the
  kernel drops them arriving from a wire);
* each destination with and without a cookie field and with and without RFC 3931's default
  L2-Specific Sublayer (sequence numbers 1, 2, ...), IPv4 and IPv6, from the attacker's own
  address; deliveries are counted at the CE behind the PE (``pwprobe watch``);
* **boot**: the rendered script applied, no IKE daemon yet; **restart**: charon stopped with
  SIGTERM (what ``systemctl restart`` and a reboot send) and started again; **crash**: SIGKILL
  and a start: the clear L2TPv3 packets on the PE's WAN link are counted while the CE behind the
  PE pings across;
* **mixed**: a PE with a clear peer and an IPsec peer: the clear peer (from its own tunnel
  address) and anyone spoofing it send to the IPsec session.

What the attacker is given (the worst case): the session ID of the pseudowire it aims at, and for
the WAN attacker its cookie too (as if read off the wire before protection); the clear peer is not
given the IPsec session's cookie (it only ever crosses inside ESP) and tries none and its own.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.errors import L2tpgenError
from l2tpgen.lab.attack import watch_start, watch_stop
from l2tpgen.lab.engines.guest import WORK
from l2tpgen.lab.pairs import Pair, pairs
from l2tpgen.lab.probes import Probe, pattern_hex, retry
from l2tpgen.lab.security import protection
from l2tpgen.lab.strongswan import PWPROBE

if TYPE_CHECKING:
    from l2tpgen.lab.inputs import Lab

SENT = 5  # frames per destination and variant
SLOTS = 4  # destinations of one kind the attacker tries at most
GUESSED = "a5a5a5a5a5a5a5a5"  # a cookie field where the attacker knows of no cookie
VARIANTS = ("nn", "cn", "ns", "cs")  # cookie (c) or none (n), sublayer (s) or none (n)
XFRM_STAT = "cat /proc/net/xfrm_stat"
FIXED = {"b": "broadcast", "B": "255.255.255.255", "m": "224.0.0.1", "M": "ff02::1"}

_ADDR = re.compile(r"^ip addr (?:add|replace) (\S+)/(\d+) dev (\S+)")
_SESSION = re.compile(r"^ip l2tp add session name l2tp(\d+) tunnel_id (\d+) .*\bsession_id (\d+)\b")
_TUNNEL = re.compile(r"^ip l2tp add tunnel tunnel_id (\d+) .*\blocal (\S+) remote (\S+)")


@dataclass(frozen=True)
class Aim:
    """The PE attacked, the pseudowire aimed at, and what the attacker is given."""

    pair: Pair  # the IPsec VLAN: near CE -> far CE; the far PE is the one attacked
    pe: str
    peer: str  # the IPsec peer PE
    tunnel: str  # the PE's tunnel address (the attacker is not told; the report names it)
    peer_tunnel: str  # the IPsec peer's
    session: int
    cookie: str  # the cookie the PE expects on the session (hex, or "-")
    wan: str
    interface: str  # the WAN router's interface on the PE's segment
    subnet: str  # the attacker's own address and prefix there
    clear_peer: str | None  # a peer of the PE in clear (the mixed case)
    clear_address: str  # its tunnel address
    clear_cookie: str  # the cookie it sends on its own session (hex, or "-")


def _session(commands: tuple[str, ...], vlan: int) -> tuple[int, int, str, str]:
    """(tunnel ID, session ID, the cookie sent, the cookie expected) of VLAN ``vlan``."""
    for command in commands:
        found = _SESSION.match(command)
        if found and int(found.group(1)) == vlan:
            sent = re.search(r"\bcookie ([0-9a-fA-F]+)\b", command)
            expected = re.search(r"\bpeer_cookie ([0-9a-fA-F]+)\b", command)
            return (
                int(found.group(2)),
                int(found.group(3)),
                sent.group(1) if sent else "-",
                expected.group(1) if expected else "-",
            )
    raise L2tpgenError(f"no session for VLAN {vlan} (l2tp{vlan}) among the PE's commands")


def _tunnels(commands: tuple[str, ...]) -> dict[int, tuple[str, str]]:
    found = (_TUNNEL.match(c) for c in commands)
    return {int(m.group(1)): (m.group(2), m.group(3)) for m in found if m}


def _ipsec_pair(lab: Lab) -> tuple[Pair, dict[str, str]]:
    """The pair aimed at (a PE with a clear peer first) and each IPsec PE's clear peer."""
    ipsec = {n.name for n in lab.nodes if n.role == "pe" and protection(n) == "ipsec"}
    candidates = [p for p in pairs(lab) if {p.near.pe, p.far.pe} <= ipsec]
    if not candidates:
        raise L2tpgenError("the attacker needs a pair of PEs that both run IPsec")
    clear = {
        p.far.pe: p.near.pe for p in pairs(lab) if p.far.pe in ipsec and p.near.pe not in ipsec
    } | {p.near.pe: p.far.pe for p in pairs(lab) if p.near.pe in ipsec and p.far.pe not in ipsec}
    return next((p for p in candidates if p.far.pe in clear), candidates[0]), clear


def _wan_segment(lab: Lab, wan_name: str, pe: str) -> tuple[str, str]:
    """The WAN router's interface on the PE's segment, and its own address/prefix there."""
    link = next(
        (link.b if link.a.node == pe else link.a)
        for link in lab.links
        if {link.a.node, link.b.node} == {pe, wan_name}
    )
    subnet = next(
        f"{m.group(1)}/{m.group(2)}"
        for m in map(_ADDR.match, lab.node(wan_name).exec)
        if m and m.group(3) == link.interface
    )
    return link.interface, subnet


def _clear_end(lab: Lab, pe: str, peer: str) -> tuple[str, str]:
    """The clear peer's tunnel address and the cookie it sends on its own session to ``pe``."""
    vlan = next(p.vlan for p in pairs(lab) if {p.near.pe, p.far.pe} == {pe, peer})
    peer_tunnel, _, clear_cookie, _ = _session(lab.node(peer).exec, vlan)
    return _tunnels(lab.node(peer).exec)[peer_tunnel][0], clear_cookie


def aim(lab: Lab) -> Aim:
    """The far PE of the first pair between two IPsec PEs; a PE with a clear peer first.

    Raises:
        L2tpgenError: no such pair, or a piece of the topology is missing.
    """
    if lab.wan is None:
        raise L2tpgenError("the attacker needs the lab's WAN router")
    pair, clear = _ipsec_pair(lab)
    node = lab.node(pair.far.pe)
    tunnel_id, session, _, cookie = _session(node.exec, pair.vlan)
    local, remote = _tunnels(node.exec)[tunnel_id]
    interface, subnet = _wan_segment(lab, lab.wan, node.name)
    peer = clear.get(node.name)
    clear_address, clear_cookie = "", "-"
    if peer is not None:
        clear_address, clear_cookie = _clear_end(lab, node.name, peer)
    return Aim(
        pair,
        node.name,
        pair.near.pe,
        local,
        remote,
        session,
        cookie,
        lab.wan,
        interface,
        subnet,
        peer,
        clear_address,
        clear_cookie,
    )


def _inject(device: str, source: str, destination: str, session: int, variant: str) -> str:
    """One ``pwprobe inject`` with ``$cookie`` for the cookie field of variant ``c?``."""
    cookie = '"$cookie"' if variant[0] == "c" else "-"
    sublayer = "seq" if variant[1] == "s" else "-"
    return f"{PWPROBE} inject {device} {source} {destination} {session} {cookie} {sublayer} {SENT}"


def _send_each(label: str, addresses: str, device: str, session: int) -> str:
    """Send every variant to the first SLOTS addresses of a file: markers PWZ<label><slot><v>."""
    lines = [
        f'i=0; for a in $(head -n {SLOTS} "{addresses}"); do',
        f"  for v in {' '.join(VARIANTS)}; do",
        '    case $v in c*) c="$cookie";; *) c=-;; esac; case $v in *s) s=seq;; *) s=-;; esac',
        (
            f'    n=$({PWPROBE} inject {device} - "$a" {session} "$c" $s {SENT} '
            f"PWZ{label}$i$v | sed 's/sent //')"
        ),
        f'    echo "{label}$i$v $a $n"',
        "  done; i=$((i+1))",
        "done",
    ]
    return "\n".join(lines)


def markers(phase: str) -> tuple[str, ...]:
    """Every marker one phase's forgeries can carry (the CE's watcher counts each)."""
    labels = [f"{k}{i}" for k in ("d", "e", "a", "f") for i in range(SLOTS)] + list(FIXED)
    found = [f"PWZ{phase}{label}{v}" for label in labels for v in VARIANTS]
    found += [f"PWZ{phase}x{who}{v}" for who in ("p", "s") for v in ("nn", "ns", "on", "os")]
    found += [f"PWZ{phase}x{who}r" for who in ("p", "s")]
    return tuple(found)


def _discover(a: Aim) -> str:
    """The WAN attacker learns its neighbours on the PE's segment, IPv4 and IPv6."""
    own = ipaddress.ip_interface(a.subnet)
    hosts = " ".join(str(h) for h in own.network.hosts() if h != own.ip)
    tmp = '"$L2TPGEN_TMP'
    return "\n".join(
        [
            f"for h in {hosts}; do ping -c 1 -W 1 $h >/dev/null 2>&1 & done; wait",
            f"ping -6 -c 2 -W 1 -I {a.interface} ff02::1 >/dev/null 2>&1",
            (
                f"ip -4 neigh show dev {a.interface} | grep -v -e FAILED -e INCOMPLETE | "
                f"cut -d' ' -f1 | sort -u >{tmp}/found4\""
            ),
            (
                f"ip -6 neigh show dev {a.interface} | grep -v -e FAILED -e INCOMPLETE | "
                f"cut -d' ' -f1 | sort -u >{tmp}/found6\""
            ),
            f'echo "broadcast {own.network.broadcast_address}"',
            f'sed "s/^/v4 /" {tmp}/found4"; sed "s/^/v6 /" {tmp}/found6"',
        ]
    )


def _own_addresses() -> str:
    """Every address of the PE's namespace but 127/8 and ::1, v4 and v6 apart."""
    tmp = '"$L2TPGEN_TMP'
    return (
        f"ip -o -4 addr show | sed -n 's/.* inet \\([0-9.]*\\)\\/.*/\\1/p' | "
        f"grep -v '^127[.]' >{tmp}/all4\"; "
        f"ip -o -6 addr show | sed -n 's/.* inet6 \\([0-9a-f:]*\\)\\/.*/\\1/p' | "
        f"grep -v '^::1$' | sort -u >{tmp}/all6\"; "
        f'sed "s/^/v4 /" {tmp}/all4"; sed "s/^/v6 /" {tmp}/all6"'
    )


def ipv6_on() -> str:
    """IPv6 on every interface, as a Debian host has it (the lab boots with it off), no DAD."""
    return (
        "sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0; "
        "for i in $(ls /proc/sys/net/ipv6/conf); do "
        "sysctl -qw net.ipv6.conf.$i.accept_dad=0 net.ipv6.conf.$i.disable_ipv6=0; done; true"
    )


def forge_probes(a: Aim, phase: str, prefix: str) -> tuple[Probe, ...]:
    """Discover, then send to what was found and to every address of the PE; the mixed case."""
    k = f"adv.{phase}"
    fixed = {"b": "$broadcast", "B": "255.255.255.255", "m": "224.0.0.1", "M": "ff02::1"}
    head = f"cookie={a.cookie if a.cookie != '-' else GUESSED}\n"
    head += f"broadcast=$(grep ^broadcast {WORK}/{prefix}{a.wan}/discovered | cut -d' ' -f2)\n"
    sends = [
        _send_each(f"{phase}d", "$L2TPGEN_TMP/found4", a.interface, a.session),
        _send_each(f"{phase}e", "$L2TPGEN_TMP/found6", a.interface, a.session),
        _send_each(f"{phase}a", f"{WORK}/{prefix}{a.pe}/all4", "-", a.session),
        _send_each(f"{phase}f", f"{WORK}/{prefix}{a.pe}/all6", a.interface, a.session),
    ]
    for slot, address in fixed.items():
        for v in VARIANTS:
            m = f"PWZ{phase}{slot}{v}"
            command = _inject(a.interface, "-", address, a.session, v)
            sends.append(f'echo "{phase}{slot}{v} {address} $({command} {m} | sed "s/sent //")"')
    probes = [
        Probe(f"{k}.ipv6.{a.pe}", a.pe, ipv6_on()),
        Probe(f"{k}.ipv6.{a.wan}", a.wan, ipv6_on()),
        Probe(f"{k}.all", a.pe, _own_addresses(), "out"),
        Probe(
            f"{k}.discover",
            a.wan,
            f'{{ {_discover(a)}; }} >"$L2TPGEN_TMP/discovered"; cat "$L2TPGEN_TMP/discovered"',
            "out",
        ),
        Probe(f"{k}.send", a.wan, head + "\n".join(sends), "out"),
    ]
    if a.clear_peer is not None:
        probes += [
            Probe(f"{k}.mixed.peer", a.clear_peer, _mixed(a, phase, "p")),
            Probe(f"{k}.mixed.spoofed", a.wan, _mixed(a, phase, "s")),
        ]
    return tuple(probes)


def _mixed(a: Aim, phase: str, who: str) -> str:
    """The clear peer's (or its spoofer's) forgeries to the IPsec session.

    From the clear peer's tunnel address to the PE's, the IPsec session's ID: no cookie, the
    cookie of the peer's own session, and (the control) the session's right cookie.
    """
    out = []
    for cookie, tag in (("-", "n"), (a.clear_cookie, "o")):
        for sub, s in (("-", "n"), ("seq", "s")):
            out.append(
                f"{PWPROBE} inject - {a.clear_address} {a.tunnel} {a.session} {cookie} {sub} "
                f"{SENT} PWZ{phase}x{who}{tag}{s}"
            )
    out.append(
        f"{PWPROBE} inject - {a.clear_address} {a.tunnel} {a.session} {a.cookie} - {SENT} "
        f"PWZ{phase}x{who}r"
    )
    return " && ".join(out)


def watched(a: Aim, phase: str, *, sentinel: bool = True) -> tuple[Probe, Probe]:
    """The CE behind the PE counts every marker of the phase: start, and stop.

    ``sentinel``: stop once a ping across carrying a sentinel came back (every forgery sent
    before it was counted); without (no IKE yet: nothing crosses), stop after a second.
    """
    name = f"adv-{phase}"
    end = f"PWZEND{phase}"
    text = ",".join((*markers(phase), f"until:{end}"))
    ping = f"ping -c 1 -W 3 -p {pattern_hex(end)} {near_address(a)} >/dev/null 2>&1; "
    return (
        Probe(f"adv.{phase}.ce.start", a.pair.far.node, watch_start(name, "eth1", text)),
        Probe(
            f"adv.{phase}.ce",
            a.pair.far.node,
            (ping if sentinel else "sleep 1; ") + watch_stop(name, sentinel=sentinel),
            "out",
        ),
    )


def charon_pid() -> str:
    """The pid of the charon running in this network namespace (the guest shares one pid space)."""
    return (
        "me=$(readlink /proc/self/ns/net); "
        "for p in $(pidof charon); do "
        '[ "$(readlink /proc/$p/ns/net)" = "$me" ] && echo $p; done'
    )


def near_address(a: Aim) -> str:
    """The near CE's address in the attacked VLAN (the far CE pings it)."""
    return Pair(a.pair.vlan, a.pair.far, a.pair.near).target


def _pair_only(a: Aim) -> str:
    """``pwprobe watch``'s pair arguments: L2TPv3 between the two tunnel addresses only.

    ``l2tp_pair`` counts them (the clear peer's own L2TPv3 may share the link); nothing is saved.
    """
    return f"115 {a.tunnel} {a.peer_tunnel} 1000000 /dev/null"


def outage_probes(
    a: Aim, phase: str, signal: str, restart: str, initiate: str
) -> tuple[Probe, ...]:
    """Charon on the PE gets ``signal`` and is started again while its CE pings across.

    The WAN router counts the L2TPv3 packets on the PE's link (in clear: ESP is protocol 50).
    ``restart``: the command that starts charon and loads the connections; ``initiate``: IKEv2
    from the PE. The pings run until the pseudowire answers again (at most 60 tries).
    """
    k = f"adv.{phase}"
    name = f"adv-wan-{phase}"
    pings = '"$L2TPGEN_TMP/pings"'
    stop = (
        f'pid=$({charon_pid()}); [ -n "$pid" ] || exit 1; kill -{signal} $pid; '
        "for i in $(seq 500); do kill -0 $pid 2>/dev/null || break; sleep 0.02; done; "
        "kill -0 $pid 2>/dev/null && exit 1; true"
    )
    return (
        Probe(f"{k}.wan.start", a.wan, watch_start(name, a.interface, "PWZNONE", _pair_only(a))),
        Probe(
            f"{k}.ping.start",
            a.pair.far.node,
            f"/sbin/ping -i 0.1 -W 1 {near_address(a)} >{pings} 2>&1 </dev/null & "
            'echo $! >"$L2TPGEN_TMP/pings.pid"',
        ),
        Probe(f"{k}.xfrm.before", a.pe, XFRM_STAT, "out"),
        Probe(f"{k}.stop", a.pe, f"sleep 1; {stop}"),
        Probe(f"{k}.start", a.pe, restart),
        Probe(f"{k}.initiate", a.pe, initiate or "true"),
        Probe(f"{k}.back", a.pair.far.node, retry(f"ping -c 1 -W 1 {near_address(a)}", 60)),
        Probe(
            f"{k}.ping",
            a.pair.far.node,
            f'kill -INT $(cat "$L2TPGEN_TMP/pings.pid"); sleep 0.2; tail -n 3 {pings}',
            "out",
        ),
        Probe(f"{k}.wan", a.wan, watch_stop(name), "out"),
        Probe(f"{k}.xfrm.after", a.pe, XFRM_STAT, "out"),
    )


def boot_probes(a: Aim) -> tuple[Probe, ...]:
    """Before any IKE daemon: the CE pings across for 2 s while the WAN link is counted."""
    name = "adv-wan-boot"
    return (
        Probe(
            "adv.boot.wan.start", a.wan, watch_start(name, a.interface, "PWZNONE", _pair_only(a))
        ),
        Probe(
            "adv.boot.ping",
            a.pair.far.node,
            f"ping -c 20 -i 0.1 -W 1 {near_address(a)} 2>&1 | tail -n 2",
            "out",
        ),
        Probe("adv.boot.wan", a.wan, watch_stop(name), "out"),
    )
