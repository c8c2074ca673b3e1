"""What one does with a lab that is up: its sessions, a command in a node, the checks.

Each goes through the lab's control channel (``agent.py``) as one request.
"""

from __future__ import annotations

import re
import shlex
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.lab.agent import request
from l2tpgen.lab.engine import LabReport, judge
from l2tpgen.lab.guest import PRELUDE, GuestLab, parse_console, probe_script
from l2tpgen.lab.guest import WORK as GUEST_WORK
from l2tpgen.lab.live import LiveLabError

if TYPE_CHECKING:
    from l2tpgen.lab.inputs import Lab
    from l2tpgen.lab.live import LiveLab
    from l2tpgen.model import Fleet


@dataclass(frozen=True)
class Session:
    """One L2TPv3 session as the kernel of the lab reports it."""

    pe: str
    tunnel: int
    session: int
    peer_session: int
    interface: str
    up: bool


def parse_sessions(pe: str, text: str) -> list[Session]:
    """Sessions from `ip l2tp show session`, then a LINKS line, then `ip -o link show`."""
    sessions_text, _, links_text = text.partition("\nLINKS\n")
    links = {
        m.group(1): set(m.group(2).split(","))
        for m in re.finditer(r"^\d+: ([^:@\s]+)(?:@\S+)?: <([^>]*)>", links_text, re.MULTILINE)
    }
    found = []
    for block in re.split(r"(?=^Session )", sessions_text, flags=re.MULTILINE):
        head = re.match(r"Session (\d+) in tunnel (\d+)", block)
        if head is None:
            continue
        peer = re.search(r"Peer session (\d+)", block)
        interface = re.search(r"interface name: (\S+)", block)
        name = interface.group(1) if interface else "?"
        flags = links.get(name, set())
        found.append(
            Session(
                pe,
                int(head.group(2)),
                int(head.group(1)),
                int(peer.group(1)) if peer else 0,
                name,
                {"UP", "LOWER_UP"} <= flags,
            )
        )
    return found


def sessions(live: LiveLab, *, timeout: float = 60) -> tuple[Session, ...]:
    """Every PE's L2TPv3 sessions (``ip l2tp show session``) and whether each device is up."""
    lines = ["export PATH=/sbin:/bin"]
    for pe in live.pes:
        lines += [
            f"echo 'PE-BEGIN {pe}'",
            f"/sbin/ip -n {shlex.quote(pe)} l2tp show session",
            "echo LINKS",
            f"/sbin/ip -n {shlex.quote(pe)} -o link show",
            f"echo 'PE-END {pe}'",
        ]
    _, output = request(live.control, "\n".join(lines) + "\n", timeout=timeout)
    text = output.decode("utf-8", "replace")
    found: list[Session] = []
    for pe, body in re.findall(
        r"^PE-BEGIN (\S+)\n(.*?)^PE-END \1$", text, re.MULTILINE | re.DOTALL
    ):
        found += parse_sessions(pe, body)
    return tuple(found)


def run_in(live: LiveLab, node: str, argv: list[str], *, timeout: float) -> tuple[int, bytes]:
    """Run ``argv`` in ``node``'s network namespace; its exit status and output.

    Killed after ``timeout`` seconds (exit status 137).

    Raises:
        LiveLabError: the lab has no such node, or the command is empty.
    """
    if node not in live.nodes:
        raise LiveLabError(
            f"lab {live.name} has no node {node!r}; its nodes: {', '.join(live.nodes)}"
        )
    if not argv:
        raise LiveLabError("no command given: `l2tpgen lab exec NODE -- COMMAND [ARG]...`")
    # The node's directory is the probes' (a protected PE's charon has its files there).
    # tcpdump drops to a user the guest does not have unless told to stay root; swanctl
    # talks to the node's own charon (each PE runs one, its socket in that directory).
    helpers = (
        'tcpdump() { /sbin/tcpdump -Z root "$@"; }; '
        'swanctl() { STRONGSWAN_CONF="$L2TPGEN_TMP/strongswan.conf" /usr/sbin/swanctl "$@" '
        '--uri "unix://$L2TPGEN_TMP/charon.vici"; }; '
    )
    tmp = f"{GUEST_WORK}/{node}"
    inner = f"L2TPGEN_TMP={tmp}; export L2TPGEN_TMP; {PRELUDE}{helpers}{shlex.join(argv)}"
    script = (
        f"export PATH=/sbin:/bin:/usr/sbin:/usr/bin; mkdir -p {tmp}\n"
        f"exec timeout -s KILL {max(1, round(timeout))} nsenter --net=/run/netns/{node} "
        f"sh -c {shlex.quote(inner)}\n"
    )
    return request(live.control, script, timeout=timeout + 30)


def check(live: LiveLab, lab: Lab, fleet: Fleet | None = None) -> LabReport:
    """The checks ``lab run`` makes (reach, isolation, MTU, multicast), on the running lab.

    A protected lab's attacks are not replayed: they need the lab as it was before protection
    (``lab run`` does them); its usual checks run over ESP. With ``fleet`` (a lab up from a
    sites directory) the frames checks too, in namespaces of their own, removed afterwards
    (``lab up`` put tcpdump in the guest when the host has it).
    """
    from l2tpgen.lab.checks import plan_checks  # noqa: PLC0415
    from l2tpgen.lab.framecheck import frames_checks  # noqa: PLC0415
    from l2tpgen.lab.probes import ordered  # noqa: PLC0415

    checks = (*plan_checks(lab), *(frames_checks(fleet) if fleet is not None else ()))
    guest = GuestLab(lab, ordered(p for c in checks for p in c.probes))
    began = time.monotonic()
    # The listeners the checks start (socat) are stopped afterwards: the lab stays as it was.
    script = probe_script(guest) + "killall socat >/dev/null 2>&1; true\n"
    _, output = request(live.control, script, timeout=600)
    found = parse_console(output.decode("utf-8", "replace"), [guest])[0]
    return LabReport(lab.name, "vm", judge(checks, found.results), (), time.monotonic() - began)
