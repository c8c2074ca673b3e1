"""Pseudowire state across simulated routers, and the show outputs that report it.

A pseudowire is UP when another router of the same fleet has the mirror xconnect: the same VC ID,
pointing at our tunnel source, from the tunnel source we point at, with a compatible
pseudowire-class (same signaling, same encapsulation) and, for dynamic sessions, the same
control-channel secret. Otherwise it is DOWN. Formats follow the brief (section 5) and the samples.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.ios.extract import extract
from l2tpgen.ios.names import short_interface_name
from l2tpgen.ios.tree import parse

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from l2tpgen.sim.router import Router


@dataclass(frozen=True)
class Xc:
    """One xconnect as the simulator sees it."""

    interface: str
    vlan: int | None
    peer: str
    vc_id: int
    pw_class: str
    static: bool
    source: str | None
    secret: str | None
    shutdown: bool


def xconnects(router: Router) -> list[Xc]:
    """Every xconnect of the running config, with what decides its state.

    Read through the IOS layer (``l2tpgen.ios``), as the linter and ``import`` read configs.
    """
    facts = extract(router.hostname, parse(router.running.body(), router.hostname))
    found = []
    for iface, xc in facts.xconnects():
        if xc.vc_id is None or xc.peer is None:
            continue
        pw = facts.pw_class_of(xc)
        source = facts.interfaces.get(pw.local_interface or "") if pw else None
        l2tp = facts.l2tp_classes.get(pw.protocol_class or "") if pw else None
        secret = next((s.fingerprint for s in l2tp.secrets), None) if l2tp else None
        found.append(
            Xc(
                interface=iface.name,
                vlan=iface.dot1q,
                peer=str(xc.peer),
                vc_id=xc.vc_id,
                pw_class=xc.pw_class or "",
                static=xc.manual or (pw is not None and pw.static),
                source=str(source.addresses[0].ip) if source and source.addresses else None,
                secret=secret,
                shutdown=iface.shutdown,
            )
        )
    return found


def is_up(xc: Xc, others: Sequence[tuple[Router, list[Xc]]]) -> bool:
    """Whether some other router holds the mirror of ``xc``."""
    if xc.shutdown or xc.source is None:
        return False
    for _, theirs in others:
        for other in theirs:
            if (
                other.vc_id == xc.vc_id
                and other.peer == xc.source
                and other.source == xc.peer
                and other.static == xc.static
                and not other.shutdown
                and (xc.static or other.secret == xc.secret)
            ):
                return True
    return False


def show_xconnect(rows: list[tuple[Xc, bool]]) -> str:
    """``show xconnect all``."""
    out = [
        "Legend: XC ST=Xconnect State, S1=Segment1 State, S2=Segment2 State",
        "  UP=Up, DN=Down, AD=Admin Down, IA=Inactive, NH=No Hardware",
        "XC ST  Segment 1                         S1 Segment 2                         S2",
        "------+---------------------------------+--+---------------------------------+--",
    ]
    for xc, up in rows:
        circuit = (
            f"{short_interface_name(xc.interface)}:{xc.vlan}(Eth VLAN)"
            if xc.vlan
            else f"{short_interface_name(xc.interface)}(Ethernet)"
        )
        state = "UP" if up else "DN"
        ac = "AD" if xc.shutdown else "UP"
        out.append(
            f"{state:<2} pri   ac {circuit:<30} {ac:<2} l2tp {xc.peer}:{xc.vc_id:<19} {state}"
        )
    return "\n".join(out)


def _session_id(router: Router, xc: Xc) -> int:
    return zlib.crc32(f"{router.current_hostname()}/{xc.peer}/{xc.vc_id}".encode()) % 60000 + 1000


def show_l2tun(router: Router, rows: list[tuple[Xc, bool]]) -> str:
    """``show l2tun session all``."""
    tunnels = len({x.peer for x, _ in rows})
    out = [f"L2TP Session Information Total tunnels {tunnels} sessions {len(rows)}", ""]
    for xc, up in rows:
        session = _session_id(router, xc)
        remote = (session + 17, session // 7 + 3) if up else (0, 0)
        state = "established" if up else "wait-for-tunnel"
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
            "IP protocol 115",
            f"  Session is {'manually' if xc.static else 'L2TP'} signaled",
            f"  Session state is {state}, time since change 00:01:00",
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


def show_factory(routers: Callable[[], Sequence[Router]]) -> Callable[[Router, str], str]:
    """The ``show_pseudowires`` hook for routers of one fleet."""

    def show(router: Router, what: str) -> str:
        others = [(r, xconnects(r)) for r in routers() if r is not router]
        rows = [(xc, is_up(xc, others)) for xc in xconnects(router)]
        return show_xconnect(rows) if what == "xconnect" else show_l2tun(router, rows)

    return show
