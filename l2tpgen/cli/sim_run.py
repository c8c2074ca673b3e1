"""`l2tpgen sim up` in the foreground: the simulated routers started, then served until stopped."""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.cli.app import err, fail
from l2tpgen.platforms.render import render_start
from l2tpgen.sim.faults import parse_faults
from l2tpgen.sim.lifecycle import Router, SimStatus, forget
from l2tpgen.traits import driver

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.model import Fleet
    from l2tpgen.sim import SimFleet


@dataclass(frozen=True)
class Timer:
    """The revert timer's set-up: routers start with an archive path; a minute's length."""

    archive: bool = False
    minute: float = 60.0


def start(
    fleet: Fleet,
    flavor: str,
    latency_ms: float,
    faults: tuple[list[str], set[str]],
    timer: Timer,
    starts: dict[str, str],
) -> SimFleet:
    """A simulated router per simulated site, listening on 127.0.0.1.

    ``faults``: the fault words and the sites they apply to; ``starts``: the sites started from a
    real config instead of their base config.
    """
    from l2tpgen.device.credentials import PASSWORD, USERNAME  # noqa: PLC0415 - the push extra (netmiko, Nornir, hier_config)
    from l2tpgen.sim import FLAVORS, Credentials, Faults, SimFleet, SimSpec  # noqa: PLC0415 - the sim extra (asyncssh)

    fault, faulty = faults
    plain = Faults(latency_ms=latency_ms)
    credentials = Credentials(os.environ[USERNAME], os.environ[PASSWORD])
    simulators = SimFleet(credentials)
    try:
        for name, site in fleet.sites.items():
            if not driver(site.effective_platform).simulated:
                err.print(f"{name}: no simulated router ({site.effective_platform} PE)")
                continue
            kind = FLAVORS[flavor]
            start = starts.get(name)
            base = start if start is not None else render_start(fleet, name)
            if timer.archive:
                base += f"archive\n path {kind.file_system}archived-config\n"
            spec = SimSpec(name, site.hostname, base, flavor=kind, minute=timer.minute)
            simulators.add(spec, parse_faults(fault, plain) if name in faulty else plain)
    except (OSError, ValueError) as exc:
        simulators.close()
        fail(str(exc))
    return simulators


def serve(simulators: SimFleet, running: SimStatus, status_file: Path | None) -> None:
    """Answer until Ctrl-C or SIGTERM; a detached run says it is up in its status file."""
    from l2tpgen.sim.server import run_forever  # noqa: PLC0415 - the sim extra (asyncssh)

    stopping: list[bool] = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    if status_file is not None:
        running.write(status_file)
    try:
        run_forever(lambda: bool(stopping))
    except KeyboardInterrupt:
        pass
    finally:
        simulators.close()
        if status_file is not None:
            forget(status_file)
        err.print("simulated routers stopped")


def status_of(simulators: SimFleet, sites: Path, inventory: Path, known: Path) -> SimStatus:
    """What ``sim status`` shows of the routers this process runs."""
    routers = {
        name: Router(d.router.hostname, d.port, d.router.flavor.name, tuple(d.faults.words()))
        for name, d in simulators.devices.items()
    }
    return SimStatus(os.getpid(), str(inventory), str(known), str(sites.resolve()), routers)
