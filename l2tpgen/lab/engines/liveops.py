"""What one does with a lab that is up: its sessions, a command in a node, the checks.

Each goes through the lab's control channel (``agent.py``) as one request.
"""

from __future__ import annotations

import re
import shlex
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.lab.checks import plan_checks
from l2tpgen.lab.engines.agent import request
from l2tpgen.lab.engines.guest import PRELUDE, GuestLab, parse_console, probe_script
from l2tpgen.lab.engines.guest import WORK as GUEST_WORK
from l2tpgen.lab.engines.livestate import LiveLabError
from l2tpgen.lab.engines.vm import LabReport

if TYPE_CHECKING:
    from l2tpgen.lab.engines.livestate import LiveLab
    from l2tpgen.lab.inputs import Lab

JOBS = "/tmp/l2tpgen-jobs"  # noqa: S108 - in the guest: background commands' output and status


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


def _command(live: LiveLab, node: str, argv: list[str], timeout: float) -> tuple[str, str]:
    """The set-up line and the command line that run ``argv`` in ``node``'s namespace.

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
    return (
        f"export PATH=/sbin:/bin:/usr/sbin:/usr/bin; mkdir -p {tmp} {JOBS}\n",
        (
            f"timeout -s KILL {max(1, round(timeout))} nsenter --net=/run/netns/{node} "
            f"sh -c {shlex.quote(inner)}"
        ),
    )


def run_in(live: LiveLab, node: str, argv: list[str], *, timeout: float) -> tuple[int, bytes]:
    """Run ``argv`` in ``node``'s network namespace; its exit status and output.

    Killed after ``timeout`` seconds (exit status 137).

    Raises:
        LiveLabError: the lab has no such node, or the command is empty.
    """
    head, command = _command(live, node, argv, timeout)
    return request(live.control, f"{head}exec {command}\n", timeout=timeout + 30)


def start_in(live: LiveLab, node: str, argv: list[str], *, timeout: float) -> int:
    """Start ``argv`` in ``node``'s namespace in the background; its job number.

    Returns once the command has printed something (tcpdump's ``listening on``: it captures
    from then on) or after 5 s. It is killed after ``timeout`` seconds; ``wait_job`` collects
    its output and exit status. Meanwhile other requests run (the point: send while capturing).

    Raises:
        LiveLabError: the lab has no such node, or the command is empty.
    """
    head, command = _command(live, node, argv, timeout)
    script = (
        f"{head}n=$(($(ls {JOBS} | grep -c '[.]job$') + 1)); : >{JOBS}/$n.job\n"
        f"( {command} >{JOBS}/$n.out 2>&1; echo $? >{JOBS}/$n.rc ) </dev/null >/dev/null 2>&1 &\n"
        f"i=0; while [ ! -s {JOBS}/$n.out ] && [ ! -f {JOBS}/$n.rc ] && [ $i -lt 50 ]; do "
        "sleep 0.1; i=$((i + 1)); done\n"
        "echo $n\n"
    )
    code, output = request(live.control, script, timeout=60)
    text = output.decode("utf-8", "replace").strip()
    if code != 0 or not text.isdigit():
        raise LiveLabError(f"lab {live.name}: the background command did not start: {text}")
    return int(text)


def wait_job(live: LiveLab, job: int, *, timeout: float) -> tuple[int, bytes]:
    """Wait up to ``timeout`` s for background job ``job``; its exit status and output.

    Raises:
        LiveLabError: no such job, or it is still running after ``timeout`` (it keeps running).
    """
    script = (
        f"[ -f {JOBS}/{job}.job ] || exit 200\n"
        f"i=0; while [ ! -f {JOBS}/{job}.rc ] && [ $i -lt {max(1, round(timeout * 10))} ]; do "
        "sleep 0.1; i=$((i + 1)); done\n"
        f"[ -f {JOBS}/{job}.rc ] || exit 201\n"
        f"cat {JOBS}/{job}.out; exit $(cat {JOBS}/{job}.rc)\n"
    )
    code, output = request(live.control, script, timeout=timeout + 30)
    if code == 200:  # noqa: PLR2004 - the script's own code
        raise LiveLabError(f"lab {live.name} has no background job {job}")
    if code == 201:  # noqa: PLR2004
        raise LiveLabError(f"background job {job} is still running after {timeout:g} s")
    return code, output


def check(live: LiveLab, lab: Lab) -> LabReport:
    """The checks ``lab run`` makes (reach, isolation, MTU, multicast), on the running lab.

    Every check the registry plans for ``live``: a protected lab's attacks are not replayed
    (they need the lab as it was before protection; ``lab run`` does them); its usual checks run
    over ESP. The frames checks (the fleet's, or those its topology's frames files hold) too,
    in namespaces of their own, removed afterwards (``lab up`` put tcpdump in the guest).
    """
    plan = plan_checks(lab, "live")
    guest = GuestLab(lab, plan.probes("usual"))
    began = time.monotonic()
    # The listeners the checks start (socat) are stopped afterwards: the lab stays as it was.
    script = probe_script(guest) + "killall socat >/dev/null 2>&1; true\n"
    _, output = request(live.control, script, timeout=600)
    found = parse_console(output.decode("utf-8", "replace"), [guest])[0]
    results = plan.judge(found.results)
    return LabReport(lab.name, "vm", results, (), time.monotonic() - began, plan.skipped)
