"""`l2tpgen sim up`: one simulated IOS router per site on 127.0.0.1, for rehearsal and tests."""

from __future__ import annotations

import os
import signal
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from l2tpgen.cli.app import SitesOption, err, fail, load, out
from l2tpgen.platforms import driver

if TYPE_CHECKING:
    from l2tpgen.model import Fleet

sim_app = typer.Typer(help="Simulated IOS routers for rehearsal and tests.", no_args_is_help=True)


class SimFlavor(str, Enum):
    """What the simulated routers are."""

    ios = "ios"
    iosxe = "iosxe"


def _check_faults(words: list[str]) -> list[str]:
    """Usage error (exit 2) for a fault the simulator cannot take, before anything starts."""
    from l2tpgen.sim.faults import FaultError, parse_faults  # noqa: PLC0415 - start-up

    try:
        parse_faults(words)
    except FaultError as exc:
        raise typer.BadParameter(str(exc), param_hint="--fault") from None
    return words


def _fault_sites(fleet: Fleet, names: list[str], faults: list[str]) -> set[str]:
    """The sites the faults apply to (every simulated one when none is named)."""
    if names and not faults:
        raise typer.BadParameter(
            "names a site for --fault; give a --fault too", param_hint="--fault-site"
        )
    simulated = {n for n, s in fleet.sites.items() if driver(s.effective_platform).simulated}
    for name in names:
        if name not in simulated:
            known = ", ".join(sorted(simulated))
            raise typer.BadParameter(
                f"{name} is not a simulated router (simulated: {known})", param_hint="--fault-site"
            )
    return set(names) or simulated


@sim_app.command("up")
def up(
    sites: SitesOption = Path("sites"),
    inventory_out: Annotated[
        Path,
        typer.Option("--inventory-out", help="Where to write the inventory (and known_hosts)."),
    ] = Path("l2tpgen-sim-inventory.json"),
    latency_ms: Annotated[
        float, typer.Option("--latency-ms", min=0, help="Delay every response by this much.")
    ] = 0.0,
    flavor: Annotated[
        SimFlavor,
        typer.Option(
            "--flavor",
            help="Classic IOS (flash:) or IOS-XE (bootflash:, its show version and legend).",
        ),
    ] = SimFlavor.ios,
    fault: Annotated[
        list[str] | None,
        typer.Option(
            "--fault",
            metavar="FAULT",
            callback=lambda words: _check_faults(words or []),
            help=(
                "Misbehave, to rehearse a rollback (repeatable): refuse=REGEX (commands matching "
                "it get % Invalid input), drop-after=N (the connection drops after the Nth "
                "configuration line), refuse-save (write memory fails: NVRAM busy)."
            ),
        ),
    ] = None,
    fault_site: Annotated[
        list[str] | None,
        typer.Option(
            "--fault-site",
            metavar="SITE",
            help="The routers the faults apply to (repeatable; default: every router).",
        ),
    ] = None,
) -> None:
    """Start a simulated router per site (hostnames and WAN addressing from the site files).

    Each starts with its base config (hostname, WAN address and routes, bare LAN port) and accepts
    the credentials in L2TPGEN_USERNAME / L2TPGEN_PASSWORD. Runs until interrupted (Ctrl-C).
    """
    from l2tpgen.device.connection import PASSWORD, USERNAME  # noqa: PLC0415 - start-up
    from l2tpgen.render import render_base  # noqa: PLC0415
    from l2tpgen.sim import FLAVORS, Credentials, Faults, SimFleet, SimSpec  # noqa: PLC0415
    from l2tpgen.sim.faults import parse_faults  # noqa: PLC0415
    from l2tpgen.sim.server import run_forever  # noqa: PLC0415

    username, password = os.environ.get(USERNAME, ""), os.environ.get(PASSWORD, "")
    if not username or not password:
        fail(f"set {USERNAME} and {PASSWORD}: the simulated routers accept those credentials")
    fleet = load(sites)
    faulty = _fault_sites(fleet, fault_site or [], fault or [])
    plain = Faults(latency_ms=latency_ms)
    simulators = SimFleet(Credentials(username, password))
    try:
        for name, site in fleet.sites.items():
            if not driver(site.effective_platform).simulated:
                err.print(f"{name}: no simulated router ({site.effective_platform} PE)")
                continue
            base = render_base(fleet, name)
            spec = SimSpec(name, site.hostname, base, flavor=FLAVORS[flavor.value])
            simulators.add(spec, parse_faults(fault or [], plain) if name in faulty else plain)
        known = simulators.write_inventory(inventory_out)
    except (OSError, ValueError) as exc:
        simulators.close()
        fail(str(exc))
    from rich.table import Table  # noqa: PLC0415 - start-up stays cheap

    table = Table(title="simulated routers (Ctrl-C to stop)", title_justify="left")
    for column in ("site", "hostname", "address", "flavor", "faults"):
        table.add_column(column)
    for name, device in simulators.devices.items():
        table.add_row(
            name,
            device.router.hostname,
            f"127.0.0.1:{device.port}",
            device.router.flavor.name,
            " ".join(device.faults.words()) or "-",
        )
    out.print(table)
    out.print(f"inventory: {inventory_out}  (host keys: {known})", markup=False)
    out.print(f"try: l2tpgen push {next(iter(fleet.sites))} --dry-run --inventory {inventory_out}")
    stopping: list[bool] = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    try:
        run_forever(lambda: bool(stopping))
    except KeyboardInterrupt:
        pass
    finally:
        simulators.close()
        err.print("simulated routers stopped")
