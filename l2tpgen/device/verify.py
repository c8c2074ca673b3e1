"""Read pseudowire state from a router and compare it with what the site model expects.

``show xconnect all`` and ``show l2tun session all`` are parsed with TextFSM templates shipped in
this package (ntc-templates has none for them), tested on captured outputs.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

import textfsm

from l2tpgen.device.session import show
from l2tpgen.errors import DeviceError

if TYPE_CHECKING:
    from l2tpgen.model import Fleet


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
class PseudowireState:
    """One expected pseudowire and what the router says of it."""

    site: str
    vlan: int
    interface: str
    peer: str
    vc_id: int
    state: str
    session: str

    @property
    def up(self) -> bool:
        """Whether the xconnect is up."""
        return self.state == "UP"


def verify_site(fleet: Fleet, name: str, connection: Any) -> list[PseudowireState]:  # noqa: ANN401 - netmiko
    """The state of every pseudowire the model gives ``name``."""
    xconnects = parse("cisco_ios_show_xconnect_all", show(connection, "show xconnect all"))
    sessions = parse("cisco_ios_show_l2tun_session_all", show(connection, "show l2tun session all"))
    by_segment: dict[str, dict[str, str]] = {}
    for row in xconnects:  # the l2tp segment may be either side, depending on who set it up
        if row["SEGMENT2_TYPE"] == "l2tp":
            by_segment[row["SEGMENT2"]] = row
        elif row["SEGMENT1"].startswith("l2tp "):
            by_segment[row["SEGMENT1"].split()[1]] = row
    by_session = {(s["PEER"], s["VCID"]): s for s in sessions}
    states = []
    site = fleet.site(name)
    for pw in fleet.pseudowires(name):
        peer = str(pw.peer_address)
        found = by_segment.get(f"{peer}:{pw.vc_id}")
        session = by_session.get((peer, str(pw.vc_id)), {})
        states.append(
            PseudowireState(
                site=name,
                vlan=pw.vlan.id,
                interface=f"{site.lan.interface}.{pw.vlan.id}",
                peer=peer,
                vc_id=pw.vc_id,
                state=found["XC_STATE"] if found else "MISSING",
                session=session.get("STATE", "-"),
            )
        )
    return states
