"""Read pseudowire state from a router and compare it with what the site model expects.

``show xconnect all``, ``show l2tun session all`` (classic IOS) and ``show l2tp`` (IOS-XE) are
parsed with TextFSM templates shipped in this package (ntc-templates has none for them), tested on
real captures (``tests/realworld/show``): classic IOS and IOS-XE 16/17, whose legend has a third
line. A row the templates cannot read is skipped, never an error for the whole router; but an
xconnect output without its table header at the start of a line (indented text, as pasted or
logged, or not the table at all) is "could not read" (``UnreadableOutputError``), never read as
"every pseudowire missing".
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, replace
from importlib import resources
from typing import TYPE_CHECKING, Any

import textfsm

from l2tpgen.device.cookies import compare, session_blocks, shown_cookies
from l2tpgen.device.refusals import accepted, refusal
from l2tpgen.device.session import BatchError, exec_batch
from l2tpgen.errors import DeviceError, SecretError
from l2tpgen.ios.names import short_interface_name
from l2tpgen.traits import driver

if TYPE_CHECKING:
    from l2tpgen.model import Fleet, Pseudowire


class UnreadableOutputError(DeviceError):
    """A show output is not the table verify reads: the states are unknown, not missing."""


def parse(template: str, text: str) -> list[dict[str, str]]:
    """Rows of a shipped TextFSM template (``cisco_ios_show_xconnect_all``) over ``text``."""
    source = resources.files("l2tpgen.device").joinpath(f"templates/{template}.textfsm")
    fsm = textfsm.TextFSM(io.StringIO(source.read_text(encoding="utf-8")))
    try:
        rows = fsm.ParseText(text)
    except textfsm.TextFSMError as exc:
        raise DeviceError(f"unexpected `{template}` output: {exc}") from exc
    return [dict(zip(fsm.header, row, strict=True)) for row in rows]


@dataclass(frozen=True)
class XconnectRow:
    """One row of ``show xconnect all``: its state, its attachment circuit and its pseudowire.

    ``circuit`` is the attachment circuit's interface as IOS prints it (``Gi0/0.2996``), empty for
    a row without one; ``kind`` the pseudowire segment's type (``l2tp``, ``mpls``, ``vfi`` ...),
    ``peer`` and ``vc_id`` its far end when it has one.
    """

    state: str
    circuit: str
    kind: str
    peer: str
    vc_id: int | None


# Which segment a row's pseudowire is: the first of these kinds it has.
_WIRE_KINDS = ("l2tp", "mpls", "vfi", "bd", "unkn", "ac")


def _circuit(segment: str) -> str:
    """``Gi0/0.2996:2996(Eth VLAN)`` -> ``Gi0/0.2996``."""
    return segment.split("(", 1)[0].split(":", 1)[0]


def xconnect_rows(text: str) -> list[XconnectRow]:
    """The rows of ``show xconnect all`` (classic IOS or IOS-XE, legend of two or three lines)."""
    rows = []
    for row in parse("cisco_ios_show_xconnect_all", text):
        segments = [
            (row["SEGMENT1_TYPE"], row["SEGMENT1"]),
            (row["SEGMENT2_TYPE"], row["SEGMENT2"]),
        ]
        circuit = next((_circuit(text) for kind, text in segments if kind == "ac"), "")
        wire = min(segments, key=lambda seg: _WIRE_KINDS.index(seg[0]))
        peer, _, vc = wire[1].partition(":") if wire[0] != "ac" else ("", "", "")
        rows.append(
            XconnectRow(row["XC_STATE"], circuit, wire[0], peer, int(vc) if vc.isdigit() else None)
        )
    return rows


# The column header of `show xconnect all` on every capture (classic IOS and IOS-XE), at the start
# of its line: the rows that follow are laid out under it.
_XCONNECT_HEADER = re.compile(r"^XC ST +Segment 1 +S1 +Segment 2 +S2\s*$", re.MULTILINE)
_INDENTED_HEADER = re.compile(r"^\s+XC ST +Segment 1", re.MULTILINE)


def read_xconnect_table(command: str, text: str) -> list[XconnectRow]:
    """The rows of a ``show xconnect all`` output, refusing one that is not that table.

    Raises:
        UnreadableOutputError: the table header is missing, or indented (pasted or logged text):
            the router's states are unknown, which is not the same as "missing".
    """
    if _XCONNECT_HEADER.search(text) is None:
        why = (
            "its lines are indented (text pasted or logged?)"
            if _INDENTED_HEADER.search(text)
            else "it has no `XC ST  Segment 1 ... S2` table header"
        )
        raise UnreadableOutputError(
            f"could not read the `{command}` output: {why}; the pseudowires' states are unknown "
            f"(not missing): check the output by hand, or run verify again"
        )
    return xconnect_rows(text)


@dataclass(frozen=True)
class PseudowireState:
    """One expected pseudowire and what the router says of it.

    ``state`` is the xconnect state (``UP``, ``DN``, ``AD``, ``IA``, ``SB``, ``HS``, ``RV``, ``NH``,
    ``--``), or ``MISSING`` when the router has no xconnect on that circuit, or ``WRONG-PEER``
    when it has one to another peer or VC ID (``detail`` says which). ``port``: the kept
    port-mode xconnect of the LAN trunk (``lan.port_xconnect``), which carries every VLAN of the
    port; its ``vlan`` is 0 and its ``interface`` the trunk itself.
    """

    site: str
    vlan: int
    interface: str
    peer: str
    vc_id: int
    state: str
    session: str
    detail: str = ""
    port: bool = False

    @property
    def up(self) -> bool:
        """Whether the xconnect is up."""
        return self.state == "UP"


_L2TUN_BLOCK = re.compile(r"^\s*Session id \d+ is ", re.MULTILINE)
_L2TP_SESSION_TABLE = re.compile(r"^\s*LocID\s+RemID\s+TunID\s+Username", re.MULTILINE)


def _sessions(output: str | None) -> dict[tuple[str, str], dict[str, str]]:
    """Session states by (peer, VC ID) and by (circuit, VC ID); empty when unknown.

    Classic IOS's ``show l2tun session all`` (blocks) or IOS-XE's ``show l2tp`` (a tunnel table,
    which gives each tunnel's peer, and a session table, which gives each session's VC ID,
    circuit and tunnel). Empty when the router refused the command or printed neither layout:
    the session column is a detail, the states come from ``show xconnect all``.
    """
    if output is None or refusal(output) is not None:
        return {}
    if _L2TUN_BLOCK.search(output):
        rows = parse("cisco_ios_show_l2tun_session_all", output)
        return {(s["PEER"], s["VCID"]): s for s in rows}
    if not _L2TP_SESSION_TABLE.search(output):
        return {}
    peers = {
        t["LOC_TUNNEL_ID"]: t["REMOTE_ADDRESS"] for t in parse("cisco_xe_show_l2tp_tunnels", output)
    }
    found: dict[tuple[str, str], dict[str, str]] = {}
    for row in parse("cisco_xe_show_l2tp_sessions", output):
        found[(row["CIRCUIT"], row["VCID"])] = row
        if row["TUNNEL_ID"] in peers:
            found[(peers[row["TUNNEL_ID"]], row["VCID"])] = row
    return found


def _cookies_shown(output: str | None) -> dict[tuple[str, str], dict[str, bytes]]:
    """The cookies each session block of ``show l2tun session all`` shows, by (peer, VC ID)."""
    if output is None or not _L2TUN_BLOCK.search(output):
        return {}
    found: dict[tuple[str, str], dict[str, bytes]] = {}
    for block in session_blocks(output):
        for row in parse("cisco_ios_show_l2tun_session_all", block):
            found[(row["PEER"], row["VCID"])] = shown_cookies(block)
    return found


def _cookie_detail(pw: Pseudowire, shown: dict[str, bytes]) -> str:
    """What differs between the router's local cookie and the model's (empty: nothing, unknown).

    Keyed cookies need their key in the environment; without it the check is left out.
    """
    if not pw.static or not pw.cookie_size or "local" not in shown:
        return ""
    try:
        expected = pw.cookies()[0]
    except SecretError:
        return ""
    return compare(shown["local"], expected)


def verify_site(fleet: Fleet, name: str, connection: Any) -> list[PseudowireState]:  # noqa: ANN401 - netmiko
    """The state of every pseudowire the model gives ``name``.

    Raises:
        DeviceError: the site is not a Cisco router, or the router does not answer, refuses
            ``show xconnect all`` or prints something verify cannot read (never read as "every
            pseudowire missing").
    """
    site = fleet.site(name)
    platform = driver(site.effective_platform)
    if platform.show_xconnect is None:
        raise DeviceError(f"{name} is a {site.effective_platform} PE: verify reads Cisco routers")
    commands = [platform.show_xconnect]
    if platform.show_sessions is not None:
        commands.append(platform.show_sessions)
    try:
        outputs = exec_batch(connection, commands)  # both shows in one round trip
    except BatchError as exc:
        if not exc.answered:  # not even the xconnect table
            raise
        outputs = exc.answered  # the session table is only a detail: the states come without it
    rows = read_xconnect_table(platform.show_xconnect, accepted(platform.show_xconnect, outputs[0]))
    table = _Table(
        {(r.peer, r.vc_id): r for r in rows if r.kind == "l2tp"},
        {r.circuit: r for r in rows if r.circuit},
        _sessions(outputs[1] if len(outputs) > 1 else None),
    )
    cookies = _cookies_shown(outputs[1] if len(outputs) > 1 else None)
    states = []
    for pw in fleet.pseudowires(name):
        peer = str(pw.peer_address)
        interface = f"{site.lan.interface}.{pw.vlan.id}"
        state = table.state(name, pw.vlan.id, interface, peer, pw.vc_id)
        cookie = _cookie_detail(pw, cookies.get((peer, str(pw.vc_id)), {}))
        detail = "; ".join(d for d in (state.detail, cookie) if d)
        states.append(replace(state, detail=detail))
    port = site.kept_port
    if port is not None and port.peer in fleet.sites:  # the trunk's own xconnect, kept as it is
        peer = str(fleet.site(port.peer).tunnel_address)
        kept = table.state(name, 0, site.lan.interface, peer, port.vc_id)
        states.append(replace(kept, port=True))
    return states


@dataclass(frozen=True)
class _Table:
    """What one router's shows say: xconnects by (peer, VC ID) and by circuit, sessions."""

    by_wire: dict[tuple[str, int | None], XconnectRow]
    by_circuit: dict[str, XconnectRow]
    sessions: dict[tuple[str, str], dict[str, str]]

    def state(self, site: str, vlan: int, interface: str, peer: str, vc_id: int) -> PseudowireState:
        """The state of the pseudowire on ``interface`` to ``peer`` with ``vc_id``."""
        found = self.by_wire.get((peer, vc_id))
        other = self.by_circuit.get(short_interface_name(interface))
        if found is not None:
            state, detail = found.state, ""
        elif other is not None:
            state = "WRONG-PEER"
            detail = f"{other.kind} {other.peer}:{other.vc_id}" if other.peer else other.kind
        else:
            state, detail = "MISSING", ""
        session = self.sessions.get((peer, str(vc_id))) or self.sessions.get(
            (short_interface_name(interface), str(vc_id)), {}
        )
        return PseudowireState(
            site=site,
            vlan=vlan,
            interface=interface,
            peer=peer,
            vc_id=vc_id,
            state=state,
            session=session.get("STATE", "-") or "-",
            detail=detail,
        )
