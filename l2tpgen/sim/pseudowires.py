"""Pseudowire state across simulated routers, and the show outputs that report it.

A pseudowire is UP when another router of the same fleet has the mirror xconnect: the same VC ID,
pointing at our tunnel source, from the tunnel source we point at, agreeing with ours on
everything Cisco requires to match (``matching``: encapsulation, IP protocol, manual or dynamic,
mirrored session IDs and cookies, signaling dialect, control-channel authentication).
Otherwise it is DN (Down). Before that come the states IOS gives a pseudowire that cannot even
try: AD (Admin Down) when its subinterface is shut, NH (No Hardware) when the router has no such
port, IA (Inactive) when its pseudowire-class is not defined (an inference: no public capture
shows it). States pinned on the router (``Router.pinned``) win over all of these. Formats follow
the brief (section 5), the samples and the router's flavor.

IPsec must match too: a pseudowire whose L2TPv3 packets one end encrypts (a crypto map applied to
an interface, with an entry whose ``match address`` access list names both tunnel ends, or whose
``set peer`` is the far end: ``sim/ipsec.py``) and the other sends in clear is DN: the far end
cannot read ESP, and the end that encrypts expects ESP for that traffic (docs/security.md,
"Adding protection to a running pair", step 3; that IOS drops the clear packets rather than
accepting them is the simulator's reading, not quoted from Cisco [U]). Which transform each end
uses is not compared [U].

UP here means "would carry traffic". A real router shows a manual session without ``l2tp hello``
as up whatever its far end holds (nothing is signaled); the simulator shows it DN when the ends
disagree, so that tests catch the mistake a real router would hide until traffic is lost.

The configuration is read with the simulator's own code (``xconnects``, ``names``), never with
``l2tpgen.ios``: the simulator is there to catch that layer's mistakes.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.sim import names
from l2tpgen.sim.ipsec import encrypted
from l2tpgen.sim.matching import ASSUMED, Assumptions, mismatch
from l2tpgen.sim.xconnects import Xc, read

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from l2tpgen.sim.flavor import Flavor
    from l2tpgen.sim.router import Router

__all__ = ["Xc", "is_up", "show_factory", "state_of", "xconnects"]


def xconnects(router: Router) -> list[Xc]:
    """Every xconnect of the router's running config, with what decides its state."""
    return read(router.running)


def _stopped(router: Router, xc: Xc) -> State | None:
    """The state of an xconnect that cannot come up whatever its far end (None: it can)."""
    if router.hardware is not None and xc.port not in router.hardware:
        return State("NH", "NH", "DN")
    if xc.shutdown:
        return State("AD", "AD", "DN")
    if not xc.pw_class_defined:
        return State("IA", "UP", "DN")
    return None


def is_up(
    xc: Xc,
    others: Sequence[tuple[Router, list[Xc]]],
    assume: Assumptions = ASSUMED,
    mine: Router | None = None,
) -> bool:
    """Whether some other router holds the mirror of ``xc``, agreeing and itself able to come up.

    ``mine``: the router ``xc`` is on; then IPsec must be the same at both ends.
    """
    if xc.source is None:
        return False
    protected = encrypted(mine, xc.source, xc.peer) if mine is not None else None
    for router, theirs in others:
        for other in theirs:
            if (
                other.vc_id == xc.vc_id
                and other.peer == xc.source
                and other.source == xc.peer
                and mismatch(xc, other, assume) is None
                and _stopped(router, other) is None
                and (protected is None or encrypted(router, other.source, other.peer) == protected)
            ):
                return True
    return False


@dataclass(frozen=True)
class State:
    """What ``show xconnect all`` says of one xconnect: the xconnect's and its segments' states."""

    xconnect: str
    circuit: str
    wire: str

    @property
    def up(self) -> bool:
        """Whether the pseudowire carries traffic."""
        return self.xconnect == "UP"


def state_of(router: Router, xc: Xc, others: Sequence[tuple[Router, list[Xc]]]) -> State:
    """The state of ``xc`` on ``router``, the other routers of the fleet being ``others``."""
    pinned = router.pinned.get((xc.peer, xc.vc_id))
    if pinned is not None:
        return State(pinned, "UP", pinned)
    stopped = _stopped(router, xc)
    if stopped is not None:
        return stopped
    if is_up(xc, others, router.assumptions, router):
        return State("UP", "UP", "UP")
    return State("DN", "UP", "DN")


HEADER = (
    "XC ST  Segment 1                         S1 Segment 2                         S2",
    "------+---------------------------------+--+---------------------------------+--",
)


def show_xconnect(flavor: Flavor, rows: list[tuple[Xc, State]]) -> str:
    """``show xconnect all``, laid out as the flavor does (legend, segment type alignment)."""
    out = [*flavor.legend, *HEADER]
    align = flavor.type_align
    for xc, state in rows:
        circuit = (
            f"{names.short(xc.interface)}:{xc.vlan}(Eth VLAN)"
            if xc.vlan
            else f"{names.short(xc.interface)}(Ethernet)"
        )
        wire = f"{xc.peer}:{xc.vc_id}"
        kind = "mpls" if xc.encapsulation == "mpls" else "l2tp"
        out.append(
            f"{state.xconnect:<2} pri {'ac':{align}4} {circuit:<28} {state.circuit:<2} "
            f"{kind:{align}4} {wire:<28} {state.wire}"
        )
    return "\n".join(out)


def _session_id(router: Router, xc: Xc) -> int:
    return zlib.crc32(f"{router.current_hostname()}/{xc.peer}/{xc.vc_id}".encode()) % 60000 + 1000


def show_l2tun(router: Router, rows: list[tuple[Xc, State]]) -> str:
    """``show l2tun session all``."""
    rows = [(xc, state) for xc, state in rows if xc.encapsulation != "mpls"]
    tunnels = len({x.peer for x, _ in rows})
    out = [f"L2TP Session Information Total tunnels {tunnels} sessions {len(rows)}", ""]
    for xc, state in rows:
        up = state.up
        session = _session_id(router, xc)
        remote = (session + 17, session // 7 + 3) if up else (0, 0)
        session_state = "established" if up else "wait-for-tunnel"
        kind = "Ethernet Vlan" if xc.vlan else "Ethernet"
        circuit = xc.interface + (f":{xc.vlan}" if xc.vlan else "")
        out += [
            f"Session id {session} is {'up' if up else 'down'}, tunnel id {session // 7 + 1}",
            f"Remote session id is {remote[0]}, remote tunnel id {remote[1]}",
            "  Locally initiated session",
            f"Call serial number is {session * 3}",
            "Remote tunnel name is peer" if up else "Remote tunnel name is ",
            f"  Internet address is {xc.peer}",
            f"Local tunnel name is {router.current_hostname()}",
            f"  Internet address is {xc.source or 'unassigned'}",
            f"IP protocol {xc.ip_protocol}",
            f"  Session is {'manually' if xc.static else 'L2TP'} signaled",
            f"  Session state is {session_state}, time since change 00:01:00",
            "    0 Packets sent, 0 received",
            "    0 Bytes sent, 0 received",
            "  DF bit on, ToS reflect disabled, ToS value 0, TTL value 255",
            "  UDP checksums are disabled",
            "  No session cookie information available",
            "  FS cached header information:",
            "    encap size = 24 bytes",
            "    00000000 00000000 00000000 00000000",
            "    00000000 00000000",
            "  Sequencing is off",
            f"  Session vcid is {xc.vc_id}",
            f"  Session Layer 2 circuit, type is {kind}, name is {circuit}",
            f"  Circuit state is {'UP' if up else 'DOWN'}",
            "",
        ]
    return "\n".join(out)


def show_l2tp(router: Router, rows: list[tuple[Xc, State]]) -> str:
    """IOS-XE's ``show l2tp``: a tunnel table, then a session table.

    The layout is genieparser's IOS-XE fixture (``CiscoTestAutomation/genieparser``
    ``src/genie/libs/parser/iosxe/tests/ShowL2tp/cli/equal/golden_output_output.txt``, commit
    84a79d7feb1bc58b5e8e253d4603db97b32b50fe; ``tests/realworld/show/genieparser-show-l2tp.txt``):
    one tunnel row per peer with a session up (``est``), one session row per xconnect whose
    fourth column is ``VCID, CIRCUIT``. [U]: a session that is down shows ``wt-sss`` and tunnel
    ID 0, a manual session tunnel ID 0, the class column ``l2tp_default_class``; no capture has
    them.
    """
    rows = [(xc, state) for xc, state in rows if xc.encapsulation != "mpls"]
    tunnels: dict[str, int] = {}
    for xc, state in rows:
        if state.up and not xc.static:
            tunnels.setdefault(xc.peer, _session_id(router, xc) * 7 + 11)
    out = [
        "",
        f"L2TP Tunnel and Session Information Total tunnels {len(tunnels)} sessions {len(rows)}",
        "",
        "LocTunID   RemTunID   Remote Name   State  Remote Address  Sessn L2TP Class/",
        "                                                           Count VPDN Group",
    ]
    for peer, tunnel in tunnels.items():
        count = sum(1 for xc, state in rows if xc.peer == peer and state.up and not xc.static)
        out.append(
            f"{tunnel:<10} {tunnel + 5:<10} {'peer':<13} {'est':<6} {peer:<15} {count:<5} "
            "l2tp_default_class"
        )
    out += [
        "",
        "LocID      RemID      TunID      Username, Intf/      State  Last Chg Uniq ID",
        "                                 Vcid, Circuit",
    ]
    for xc, state in rows:
        session = _session_id(router, xc)
        tunnel = tunnels.get(xc.peer, 0) if state.up and not xc.static else 0
        circuit = f"{xc.vc_id}, {names.short(xc.interface)}"
        out.append(
            f"{session:<10} {session + 17:<10} {tunnel:<10} {circuit:<20} "
            f"{'est' if state.up else 'wt-sss':<6} 00:01:00 0"
        )
    return "\n".join(out)


def show_factory(routers: Callable[[], Sequence[Router]]) -> Callable[[Router, str], str]:
    """The ``show_pseudowires`` hook for routers of one fleet."""

    def show(router: Router, what: str) -> str:
        others = [(r, xconnects(r)) for r in routers() if r is not router]
        rows = [(xc, state_of(router, xc, others)) for xc in xconnects(router)]
        if what == "xconnect":
            return show_xconnect(router.flavor, rows)
        if what == "l2tp":
            return show_l2tp(router, rows)
        return show_l2tun(router, rows)

    return show
