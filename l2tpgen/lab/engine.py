"""Running a lab: the ``vm`` engine (QEMU, for CI) and ``containerlab`` (users' machines).

Both read the same topology file and run the same probes (``checks``). The vm engine turns the
topology into one script for a QEMU guest: a network namespace per node, a veth pair per link (with
its MTU), each node's ``exec`` in order, then the probes; results come back on the console.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal

from ruamel.yaml import YAML

from l2tpgen.errors import L2tpgenError
from l2tpgen.lab.checks import CheckResult, Plan, Probe, judge, plan_checks
from l2tpgen.lab.vm import run_script

if TYPE_CHECKING:
    from pathlib import Path

Engine = Literal["vm", "containerlab"]
IP = "/sbin/ip"
# IPv6 is off in the lab so that no background traffic (DAD, ND) muddies the isolation counters.
NO_IPV6 = "net.ipv6.conf"


def load_topology(path: Path) -> dict[str, Any]:
    """A topology file as plain data."""
    try:
        data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise L2tpgenError(f"cannot read {path}: {exc.strerror}") from exc
    if not isinstance(data, dict) or "topology" not in data:
        raise L2tpgenError(f"{path} is not a containerlab topology (no `topology:`)")
    return data


@dataclass(frozen=True)
class LabReport:
    """What a lab run found."""

    lab: str
    engine: str
    results: tuple[CheckResult, ...]
    setup_errors: tuple[str, ...]
    seconds: float

    @property
    def ok(self) -> bool:
        """Every check passed and the setup ran cleanly."""
        return bool(self.results) and all(r.ok for r in self.results) and not self.setup_errors

    def to_json(self) -> str:
        """The report as JSON."""
        document = {
            "lab": self.lab,
            "engine": self.engine,
            "ok": self.ok,
            "seconds": round(self.seconds, 1),
            "setup_errors": list(self.setup_errors),
            "results": [asdict(r) for r in self.results],
        }
        return json.dumps(document, indent=2)


def vm_script(topology: dict[str, Any], probes: Sequence[Probe]) -> str:
    """The guest script: namespaces, links, each node's exec, then the probes."""
    nodes: dict[str, Any] = topology["topology"]["nodes"]
    lines = ["export PATH=/sbin:/bin", "sysctl -w net.ipv6.conf.all.disable_ipv6=1 >/dev/null 2>&1"]
    for node in nodes:
        lines += [
            f"{IP} netns add {node}",
            f"{IP} -n {node} link set lo up",
            f"{IP} netns exec {node} sysctl -w {NO_IPV6}.all.disable_ipv6=1 >/dev/null 2>&1",
            f"{IP} netns exec {node} sysctl -w {NO_IPV6}.default.disable_ipv6=1 >/dev/null 2>&1",
        ]
    for number, link in enumerate(topology["topology"].get("links", [])):
        (a_node, a_if), (b_node, b_if) = (e.split(":", 1) for e in link["endpoints"])
        a, b = f"v{number}a", f"v{number}b"
        lines += [
            f"{IP} link add {a} type veth peer name {b}",
            f"{IP} link set {a} netns {a_node}",
            f"{IP} link set {b} netns {b_node}",
            f"{IP} -n {a_node} link set {a} name {a_if}",
            f"{IP} -n {b_node} link set {b} name {b_if}",
        ]
        if "mtu" in link:
            lines += [
                f"{IP} -n {a_node} link set {a_if} mtu {link['mtu']}",
                f"{IP} -n {b_node} link set {b_if} mtu {link['mtu']}",
            ]
    for node, spec in nodes.items():
        for command in spec.get("exec", []):
            lines.append(
                f"{IP} netns exec {node} {command} >/tmp/out 2>&1 || "
                f'echo "EXEC-FAIL {node}: {command}: $(cat /tmp/out)"'
            )
    lines.append("sleep 1")
    for probe in probes:
        run = f"{IP} netns exec {probe.node} {probe.command}"
        if probe.kind == "rc":
            lines.append(f'{run} >/dev/null 2>&1; echo "PROBE {probe.key} $?"')
        else:
            lines += [f'echo "OUT-BEGIN {probe.key}"', f"{run} 2>&1", f'echo "OUT-END {probe.key}"']
    return "\n".join(lines) + "\n"


def parse_console(text: str) -> tuple[dict[str, str], list[str]]:
    """Probe results and setup errors from the guest's output."""
    errors = [line for line in text.splitlines() if line.startswith("EXEC-FAIL ")]
    codes = dict(re.findall(r"^PROBE (\S+) (\d+)$", text, re.MULTILINE))
    outputs = dict(
        re.findall(r"^OUT-BEGIN (\S+)\n(.*?)^OUT-END \1$", text, re.MULTILINE | re.DOTALL)
    )
    return codes | outputs, errors


def run_vm(topology: dict[str, Any], *, timeout: float = 300) -> LabReport:
    """Run a linux-flavor topology in QEMU and judge it."""
    nodes = topology["topology"]["nodes"]
    kinds = {spec.get("kind") for spec in nodes.values()}
    if kinds != {"linux"}:
        raise L2tpgenError(
            f"the vm engine runs linux-flavor labs only (found kinds: {sorted(kinds)})"
        )
    plan = plan_checks(topology)
    run = run_script(vm_script(topology, plan.probes), timeout=timeout)
    results, errors = parse_console(run.output)
    return LabReport(
        topology["name"], "vm", tuple(judge(plan, results)), tuple(errors), run.seconds
    )


Runner = Callable[[list[str]], tuple[int, str]]


def _subprocess_runner(command: list[str]) -> tuple[int, str]:
    done = subprocess.run(command, capture_output=True, text=True, check=False)  # noqa: S603
    return done.returncode, done.stdout + done.stderr


def containerlab_commands(path: Path, topology: dict[str, Any], plan: Plan) -> dict[str, Any]:
    """What the containerlab engine runs: deploy, each probe through docker exec, destroy."""
    lab = topology["name"]
    return {
        "deploy": ["containerlab", "deploy", "-t", str(path), "--reconfigure"],
        "probes": [
            (probe, ["docker", "exec", f"clab-{lab}-{probe.node}", "sh", "-c", probe.command])
            for probe in plan.probes
        ],
        "destroy": ["containerlab", "destroy", "-t", str(path), "--cleanup"],
    }


def run_containerlab(
    path: Path, topology: dict[str, Any], runner: Runner = _subprocess_runner
) -> LabReport:
    """Deploy with containerlab, probe with docker exec, destroy; judge."""
    plan = plan_checks(topology)
    commands = containerlab_commands(path, topology, plan)
    started = time.monotonic()
    code, output = runner(commands["deploy"])
    if code:
        raise L2tpgenError(f"containerlab deploy failed:\n{output[-2000:]}")
    results: dict[str, str] = {}
    try:
        for probe, command in commands["probes"]:
            code, output = runner(command)
            results[probe.key] = str(code) if probe.kind == "rc" else output
    finally:
        runner(commands["destroy"])
    return LabReport(
        topology["name"],
        "containerlab",
        tuple(judge(plan, results)),
        (),
        time.monotonic() - started,
    )
