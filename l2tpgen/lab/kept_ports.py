"""Kept port-mode pseudowires in a lab: named on their PEs, reported N/A, never silently left out.

A site that keeps the port-mode xconnect of its LAN trunk (``lan.port_xconnect: {action:
keep}``) has one pseudowire carrying every VLAN of the port, and lists no VLANs. The lab does
not run it: the lab runs every PE on Linux (``Fleet.on_platform``), whose pseudowires are static
sessions (iproute2's ``ip l2tp``: "static, or so-called unmanaged L2TPv3 ethernet tunnels. For
unmanaged tunnels, there is no L2TP control protocol", ip-l2tp(8),
https://manpages.ubuntu.com/manpages/jammy/man8/ip-l2tp.8.html) built VLAN by VLAN from the site
files; a kept port lists no VLAN, so there is no session to build and no VLAN for the CEs to send
on. ``lab build`` names each such pseudowire in its PE's labels (``l2tpgen.port_xconnect``: peer
and VC ID) and says so on stderr; ``lab run`` and ``lab check`` report it as a row that was not
run (N/A, ``LabReport.not_run``), with that reason, which a lab's verdict never counts as checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.lab.fields import KEPT_PORT, WHY
from l2tpgen.lab.inputs import SITE
from l2tpgen.lab.probes import CheckResult

if TYPE_CHECKING:
    from l2tpgen.lab.inputs import Lab
    from l2tpgen.model import Fleet

CHECK = "port-mode"


def kept_port_labels(fleet: Fleet) -> dict[str, dict[str, str]]:
    """Each site's kept port-mode xconnect as its PE's label (``lab build``), by site."""
    found = {}
    for name in sorted(fleet.sites):
        port = fleet.kept_port(name)
        if port is not None:
            found[name] = {KEPT_PORT: f"{port.peer.name}:{port.vc_id}"}
    return found


def kept_port_rows(lab: Lab) -> tuple[CheckResult, ...]:
    """One N/A row per kept port-mode pseudowire the lab's PEs name (each pair once)."""
    rows = []
    for node in lab.nodes:
        site, value = node.label(SITE), node.label(KEPT_PORT)
        if site is None or value is None:
            continue
        peer, _, vc_id = value.rpartition(":")
        if site < peer:
            detail = f"{WHY} (VC ID {vc_id}, every VLAN of {site}'s LAN trunk)"
            rows.append(CheckResult(CHECK, 0, f"{site}<->{peer}", ok=True, detail=detail))
    return tuple(rows)
