"""The containerlab engine: deploy, shape the WAN, probe through ``docker exec``, destroy.

For users' machines and their CI (Docker and containerlab). Prerequisites are checked first with a
message that says what is missing; the secrets a cisco_iol lab's startup configs name
(``${VARIABLE}``, expanded by containerlab at deploy time) must be set in the environment, and are
never written anywhere by l2tpgen.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.errors import L2tpgenError
from l2tpgen.files import read_limited
from l2tpgen.lab.checks import plan_checks
from l2tpgen.lab.engines.qemu import LabEnvironmentError
from l2tpgen.lab.engines.vm import LabReport
from l2tpgen.lab.security import is_protected
from l2tpgen.lab.shaping import clab_netem_commands
from l2tpgen.model.protection import COOKIE_PLACEHOLDER

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from pathlib import Path

    from l2tpgen.lab.inputs import Lab
    from l2tpgen.lab.probes import Probe

INSTALL = "https://containerlab.dev/install/"
TMP = "/tmp/l2tpgen"  # noqa: S108 - inside the lab's containers
ENV_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)")


def _subprocess_runner(command: Sequence[str]) -> tuple[int, str]:
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, check=False)  # noqa: S603
    except FileNotFoundError:
        return 127, f"{command[0]}: not found"
    return done.returncode, done.stdout + done.stderr


@dataclass(frozen=True)
class ClabCommands:
    """What the containerlab engine runs, in order."""

    deploy: tuple[str, ...]
    shaping: tuple[tuple[str, ...], ...]
    probes: tuple[tuple[Probe, tuple[str, ...]], ...]
    destroy: tuple[str, ...]


def container(lab: Lab, node: str) -> str:
    """The name containerlab gives a node's container."""
    return f"clab-{lab.name}-{node}"


def clab_commands(path: Path, lab: Lab, probes: Sequence[Probe]) -> ClabCommands:
    """Deploy, shape the WAN, each probe through ``docker exec``, destroy."""
    shaping = (
        clab_netem_commands(lab.shaping, container(lab, lab.wan), lab.interfaces(lab.wan))
        if lab.wan
        else ()
    )
    execs = []
    for probe in probes:
        if not probe.node:
            raise L2tpgenError(f"probe {probe.key} runs on the lab host: vm engine only")
        script = f"L2TPGEN_TMP={TMP}; mkdir -p {TMP}; {probe.command}"
        execs.append((probe, ("docker", "exec", container(lab, probe.node), "sh", "-c", script)))
    return ClabCommands(
        ("containerlab", "deploy", "-t", str(path), "--reconfigure"),
        shaping,
        tuple(execs),
        ("containerlab", "destroy", "-t", str(path), "--cleanup"),
    )


def referenced_secrets(path: Path, lab: Lab) -> tuple[str, ...]:
    """The ``${VARIABLE}`` names the lab's startup configs expect from the environment."""
    names: set[str] = set()
    for node in lab.nodes:
        config = node.startup_config
        if config and (path.parent / config).is_file():
            text = read_limited(path.parent / config).decode("utf-8", errors="replace")
            names.update(ENV_REFERENCE.findall(text))
    return tuple(sorted(names))


def check_prerequisites(
    path: Path,
    lab: Lab,
    runner: Callable[[Sequence[str]], tuple[int, str]] = _subprocess_runner,
    environ: Mapping[str, str] | None = None,
    which: Callable[[str], str | None] = shutil.which,
) -> None:
    """Check that containerlab and Docker work and the secrets are set, before any deploy.

    Raises:
        LabEnvironmentError: what is missing and how to get it.
    """
    for program, how in (
        ("containerlab", f"install it: {INSTALL}"),
        ("docker", "install Docker Engine: https://docs.docker.com/engine/install/"),
    ):
        if which(program) is None:
            raise LabEnvironmentError(f"{program} is not installed (or not on PATH); {how}")
    code, output = runner(("docker", "info", "--format", "{{.ServerVersion}}"))
    if code:
        raise LabEnvironmentError(
            "Docker is installed but its daemon does not answer (is it running? containerlab "
            f"needs root: run with sudo): {output.strip()[-300:]}"
        )
    environment = os.environ if environ is None else environ
    missing = [name for name in referenced_secrets(path, lab) if not environment.get(name)]
    if missing:
        raise LabEnvironmentError(
            f"the startup configs expect {', '.join(missing)} from the environment; export it "
            "(containerlab fills it in at deploy time; with sudo add "
            f"--preserve-env={','.join(missing)})"
        )


def run_containerlab(
    path: Path,
    lab: Lab,
    runner: Callable[[Sequence[str]], tuple[int, str]] = _subprocess_runner,
    environ: Mapping[str, str] | None = None,
    which: Callable[[str], str | None] = shutil.which,
) -> LabReport:
    """Deploy with containerlab, shape, probe with docker exec, destroy; judge."""
    if is_protected(lab):
        raise L2tpgenError(
            f"{lab.name}: its PEs run IPsec, whose checks start strongSwan in the lab: run it with "
            "--engine vm (the containerlab nodes' image has no strongSwan)"
        )
    if any(COOKIE_PLACEHOLDER.search(c) for n in lab.nodes for c in n.exec):
        raise L2tpgenError(
            f"{lab.name}: its sessions have keyed cookies, which the vm engine fills in with "
            "throwaway values: run it with --engine vm"
        )
    check_prerequisites(path, lab, runner, environ, which)
    plan = plan_checks(lab, "containerlab")
    commands = clab_commands(path, lab, plan.probes("usual"))
    started = time.monotonic()
    code, output = runner(commands.deploy)
    if code:
        raise L2tpgenError(f"containerlab deploy failed:\n{output[-2000:]}")
    results: dict[str, str] = {}
    errors: list[str] = []
    try:
        for command in commands.shaping:
            code, output = runner(command)
            if code:
                errors.append(f"WAN shaping failed: {' '.join(command)}: {output.strip()}")
        for probe, command in commands.probes:
            code, output = runner(command)
            results[probe.key] = str(code) if probe.capture == "rc" else output
    finally:
        runner(commands.destroy)
    return LabReport(
        lab.name,
        "containerlab",
        plan.judge(results),
        tuple(errors),
        time.monotonic() - started,
        plan.skipped,
    )
