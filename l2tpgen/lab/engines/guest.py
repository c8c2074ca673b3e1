"""The vm engine's guest script: labs as network namespaces, their setup batched, their probes.

Per lab: a network namespace per node (named ``prefix + node``, so several labs share one VM side
by side), a veth pair per link created straight into both namespaces with its MTU, then each
node's commands. Consecutive ``ip``, ``tc`` or ``bridge`` commands of a node run as one
``ip -n NODE -batch FILE`` (one process instead of one per command); others run through
``nsenter`` and busybox ``sh``. The WAN shaping follows the wan node's commands. Then the probes,
phase by phase. Results come back on the console between markers.

Progress: a ``L2TPGEN-STEP`` line on the console before each node's set-up and each probe
(``progress.py`` reads them as they come). The set-up of each lab is a shell function that
returns at its first failed command: nothing after it is set up, no probe runs, and the failed
command is the one reported.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.lab.shaping import tc_commands
from l2tpgen.platforms.render import kernel_plane

if TYPE_CHECKING:
    from collections.abc import Sequence

    from l2tpgen.lab.inputs import Lab
    from l2tpgen.lab.probes import Probe

WORK = "/tmp/l2tpgen"  # noqa: S108 - inside the throwaway guest
BATCHABLE = ("ip", "tc", "bridge")
# busybox sh runs its own ip, tc and ping applets before /sbin's; shell functions come first.
PRELUDE = "".join(f'{p}() {{ /sbin/{p} "$@"; }}; ' for p in ("ip", "tc", "bridge", "ping"))
EOF = "L2TPGEN_BATCH_EOF"
STEP = "L2TPGEN-STEP"  # a progress line on the console: ``L2TPGEN-STEP what is starting``


@dataclass(frozen=True)
class GuestLab:
    """One lab in the guest: its probes and the prefix of its namespaces."""

    lab: Lab
    probes: tuple[Probe, ...]
    prefix: str = ""


@dataclass(frozen=True)
class GuestResults:
    """What one lab's probes returned, and what went wrong while setting it up."""

    results: dict[str, str] = field(default_factory=dict)
    setup_errors: tuple[str, ...] = ()


def _node_commands(lab: Lab, node: str) -> list[str]:
    commands = ["ip link set dev lo up", *lab.node(node).exec]
    if node == lab.wan:
        commands += tc_commands(lab.shaping, lab.interfaces(node))
    return commands


def _groups(commands: Sequence[str]) -> list[tuple[str | None, list[tuple[int, str]]]]:
    """Runs of consecutive commands of one batchable program; others alone (program None)."""
    groups: list[tuple[str | None, list[tuple[int, str]]]] = []
    for index, given in enumerate(commands):
        # A rendered re-run guard (`ip ... add ... || ip ... show ...`) only acts when the object
        # exists already: in the lab's fresh namespaces the `add` runs alone, in the batch.
        command = kernel_plane().bare(given) if given.startswith("ip ") else given
        word = command.split(" ", 1)[0]
        shell = any(c in command for c in "|&;<>'")  # shell syntax runs in a shell
        program = word if word in BATCHABLE and " " in command and not shell else None
        if program is not None and groups and groups[-1][0] == program:
            groups[-1][1].append((index, command))
        else:
            groups.append((program, [(index, given)]))
    return groups


def _root_commands(guest: GuestLab) -> list[str]:
    """Namespaces, and links created straight into them (no renaming, no moving)."""
    prefix = guest.prefix
    root = [f"ip netns add {prefix}{node.name}" for node in guest.lab.nodes]
    for link in guest.lab.links:
        mtu = f" mtu {link.mtu}" if link.mtu else ""
        root.append(
            f"ip link add {link.a.interface} netns {prefix}{link.a.node}{mtu} type veth "
            f"peer name {link.b.interface} netns {prefix}{link.b.node}{mtu}"
        )
    return root


def _setup(number: int, guest: GuestLab) -> list[str]:
    """The lab's set-up as the shell function ``l2tpgen_setup_NUMBER`` (1 at the first failure)."""
    lab, prefix = guest.lab, guest.prefix
    lines = [f"l2tpgen_setup_{number}() {{", f"mkdir -p {WORK}/{prefix}host"]
    root = list(enumerate(_root_commands(guest)))
    lines += _batch(f"{number} -", "ip", "", f"{prefix}root", root)
    for node in lab.nodes:
        ns = f"{prefix}{node.name}"
        lines += [f'echo "{STEP} set up {node.name}"', f"mkdir -p {WORK}/{ns}"]
        for batch, (program, commands) in enumerate(_groups(_node_commands(lab, node.name))):
            tag = f"{number} {node.name}"
            if program is not None:
                lines += _batch(tag, program, ns, f"{ns}.{batch}", commands)
                continue
            index, command = commands[0]
            lines.append(
                f"nsenter --net=/run/netns/{ns} sh -c {shlex.quote(PRELUDE + command)} "
                f">{WORK}/out 2>&1 || "
                f'{{ echo "EXEC-FAIL {tag} {index}"; cat {WORK}/out; echo EXEC-FAIL-END; '
                "return 1; }"
            )
    return [*lines, "}"]


def _batch(
    tag: str, program: str, ns: str, name: str, commands: list[tuple[int, str]]
) -> list[str]:
    path = f"{WORK}/{name}.{program}"
    body = [command.split(" ", 1)[1] for _, command in commands]
    netns = f" -n {ns}" if ns else ""
    first = commands[0][0]
    return [
        f"cat > {path} <<'{EOF}'",
        *body,
        EOF,
        (
            f"/sbin/{program}{netns} -batch {path} >{WORK}/out 2>&1 || "
            f'{{ echo "BATCH-FAIL {tag} {first}"; cat {WORK}/out; echo EXEC-FAIL-END; '
            "return 1; }"
        ),
    ]


def _run(guest: GuestLab, probe: Probe) -> str:
    ns = f"{guest.prefix}{probe.node}" if probe.node else f"{guest.prefix}host"
    body = f"L2TPGEN_TMP={WORK}/{ns}; {PRELUDE}{probe.command}"
    run = f"sh -c {shlex.quote(body)}"
    return f"nsenter --net=/run/netns/{ns} {run}" if probe.node else run


def _parallel(number: int, guest: GuestLab, probes: Sequence[Probe]) -> list[str]:
    """Start or collect probes: all at once, then wait, then their results in order."""
    lines: list[str] = [f'echo "{STEP} {" ".join(p.key for p in probes)}"']
    for index, probe in enumerate(probes):
        out = f"{WORK}/{guest.prefix}probe.{index}"
        lines.append(f"{{ {_run(guest, probe)} >{out} 2>&1; echo $? >{out}.rc; }} &")
    lines.append("wait")
    for index, probe in enumerate(probes):
        out, key = f"{WORK}/{guest.prefix}probe.{index}", f"{number}:{probe.key}"
        if probe.capture == "rc":
            lines.append(f'echo "PROBE {key} $(cat {out}.rc)"')
        else:
            lines += [f'echo "OUT-BEGIN {key}"', f"cat {out}; echo", f'echo "OUT-END {key}"']
    return lines


def _probes(number: int, guest: GuestLab) -> list[str]:
    """Main-phase probes one after another; the others phase by phase, in parallel."""
    lines: list[str] = []
    waiting: list[Probe] = []
    for probe in guest.probes:
        if probe.phase != "main":
            waiting.append(probe)
            continue
        if waiting:
            lines += _parallel(number, guest, waiting)
            waiting = []
        key, run = f"{number}:{probe.key}", _run(guest, probe)
        lines.append(f'echo "{STEP} {probe.key}"')
        if probe.capture == "rc":
            lines.append(f'{run} >/dev/null 2>&1; echo "PROBE {key} $?"')
        else:
            lines += [f'echo "OUT-BEGIN {key}"', f"{run} 2>&1; echo", f'echo "OUT-END {key}"']
    if waiting:
        lines += _parallel(number, guest, waiting)
    return lines


def guest_script(labs: Sequence[GuestLab]) -> str:
    """The whole guest script: every lab set up, then every lab's probes in order."""
    lines = ["export PATH=/sbin:/bin", f"mkdir -p {WORK}"]
    for number, guest in enumerate(labs):
        lines += _setup(number, guest)
    # A set-up command that failed stops here: no probe runs against a lab half set up.
    setups = " && ".join(f"l2tpgen_setup_{number}" for number in range(len(labs)))
    lines.append(f"{setups} || exit 0")
    for number, guest in enumerate(labs):
        lines += _probes(number, guest)
    return "\n".join(lines) + "\n"


def _setup_errors(text: str, labs: Sequence[GuestLab]) -> dict[int, list[str]]:
    errors: dict[int, list[str]] = {}
    blocks = re.findall(
        r"^(EXEC|BATCH)-FAIL (\d+) (\S+) (\d+)\n(.*?)^EXEC-FAIL-END$",
        text,
        re.MULTILINE | re.DOTALL,
    )
    for how, number, node, first, output in blocks:
        guest = labs[int(number)]
        commands = _root_commands(guest) if node == "-" else _node_commands(guest.lab, node)
        where = "root" if node == "-" else node
        if how == "EXEC":
            errors.setdefault(int(number), []).append(
                f"EXEC-FAIL {where}: {commands[int(first)]}: {' '.join(output.split())}"
            )
            continue
        message: list[str] = []
        found = False
        for line in output.splitlines():
            failed = re.match(r"Command failed \S+:(\d+)$", line)
            if failed is None:
                message.append(line.strip())
                continue
            command = commands[int(first) + int(failed.group(1)) - 1]
            errors.setdefault(int(number), []).append(
                f"EXEC-FAIL {where}: {command}: {' '.join(message)}"
            )
            message, found = [], True
        if not found:  # the program failed before any command (no netlink socket, say)
            errors.setdefault(int(number), []).append(
                f"EXEC-FAIL {where}: the batch from `{commands[int(first)]}` on stopped: "
                f"{' '.join(message)}"
            )
    return errors


def parse_console(text: str, labs: Sequence[GuestLab]) -> tuple[GuestResults, ...]:
    """Each lab's probe results and setup errors from the guest's output."""
    results: list[dict[str, str]] = [{} for _ in labs]
    for number, key, code in re.findall(r"^PROBE (\d+):(\S+) (\d+)$", text, re.MULTILINE):
        results[int(number)][key] = code
    outputs = re.findall(
        r"^OUT-BEGIN (\d+):(\S+)\n(.*?)^OUT-END \1:\2$", text, re.MULTILINE | re.DOTALL
    )
    for number, key, output in outputs:
        results[int(number)][key] = output.removesuffix("\n").removesuffix("\n")
    errors = _setup_errors(text, labs)
    return tuple(GuestResults(results[n], tuple(errors.get(n, ()))) for n in range(len(labs)))


def setup_script(guest: GuestLab) -> str:
    """Only the set-up of one lab (``lab up``: its probes come later, on request)."""
    lines = ["export PATH=/sbin:/bin", f"mkdir -p {WORK}", *_setup(0, guest), "l2tpgen_setup_0"]
    return "\n".join(lines) + "\n"


def probe_script(guest: GuestLab) -> str:
    """Only the probes of one lab set up by ``setup_script`` (``lab check``, protection)."""
    return "\n".join(["export PATH=/sbin:/bin", f"mkdir -p {WORK}", *_probes(0, guest)]) + "\n"
